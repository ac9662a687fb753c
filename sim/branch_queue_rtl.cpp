#include "branch_queue_rtl.h"

#include <stdexcept>

#include "branch_queue_rtl_impl.h"
#include "hwprof_rtl_cli.h"

namespace hwprof::sim {

RtlRegistry<BranchQueueRtl>& branch_queue_registry() {
  static RtlRegistry<BranchQueueRtl> r = [] {
    RtlRegistry<BranchQueueRtl> reg;
    HWPROF_RTL_CLI_branch_queue(HWPROF_BRANCH_QUEUE_RTL_ADD)
    return reg;
  }();
  return r;
}

std::unique_ptr<BranchQueueRtl> make_branch_queue_rtl(unsigned depth, const SimOptions& opt,
                                                      const std::string& wave_name, uint64_t seed) {
  if (auto p = branch_queue_registry().make(std::to_string(depth), opt, wave_name, seed)) return p;
  throw std::invalid_argument("branch queue depth " + std::to_string(depth) +
                              " has no RTL build (Verilated depths: " + branch_queue_registry().names() + ")");
}

}  // namespace hwprof::sim
