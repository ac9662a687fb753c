#include "rtl_test_configs.h"

#include <mutex>

#include "branch_queue_rtl_impl.h"
#include "dcr_rtl_impl.h"
#include "detector_rtl_impl.h"
#include "hpt_rtl_impl.h"
#include "hwprof_rtl_test.h"
#include "markov_rtl_impl.h"
#include "path_frontend_rtl_impl.h"
#include "path_profiler_rtl_impl.h"
#include "rap_engine_rtl_impl.h"

namespace hwprof::tb {

void register_test_configs() {
  static std::once_flag once;
  std::call_once(once, [] {
    {
      auto& reg = sim::branch_queue_registry();
      HWPROF_RTL_TEST_branch_queue(HWPROF_BRANCH_QUEUE_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::path_classifier_registry();
      HWPROF_RTL_TEST_path_classifier(HWPROF_PATH_CLASSIFIER_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::path_stack_registry();
      HWPROF_RTL_TEST_path_stack(HWPROF_PATH_STACK_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::path_frontend_registry();
      HWPROF_RTL_TEST_path_frontend(HWPROF_PATH_FRONTEND_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::hpt_registry();
      HWPROF_RTL_TEST_hpt(HWPROF_HPT_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::path_profiler_registry();
      HWPROF_RTL_TEST_path_profiler(HWPROF_PATH_PROFILER_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::markov_registry();
      HWPROF_RTL_TEST_markov_predictor(HWPROF_MARKOV_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::interval_registry();
      HWPROF_RTL_TEST_interval_counter(HWPROF_INTERVAL_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::dcr_registry();
      HWPROF_RTL_TEST_dcr_tracker(HWPROF_DCR_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::detector_registry();
      HWPROF_RTL_TEST_phase_detector(HWPROF_DETECTOR_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::rap_registry();
      HWPROF_RTL_TEST_rap_engine(HWPROF_RAP_RTL_ADD)
      (void)reg;
    }
    {
      auto& reg = sim::rap64_registry();
      HWPROF_RTL_TEST_rap_engine64(HWPROF_RAP_RTL_ADD)
      (void)reg;
    }
  });
}

}  // namespace hwprof::tb
