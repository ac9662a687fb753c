// The Verilated branch_queue behind the model's In/Out interface
// (model::BranchQueue).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "branch_queue.h"
#include "rtl_engine.h"

namespace hwprof::sim {

using BranchQueueRtl = RtlEngine<model::BranchQueue>;

/// Configurations by depth ("1", "2", ...).
RtlRegistry<BranchQueueRtl>& branch_queue_registry();
/// Throws std::invalid_argument for a depth that was not Verilated.
std::unique_ptr<BranchQueueRtl> make_branch_queue_rtl(unsigned depth, const SimOptions& opt,
                                                      const std::string& wave_name, uint64_t seed);

}  // namespace hwprof::sim
