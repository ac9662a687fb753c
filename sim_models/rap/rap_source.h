// Event streams for the RAP engine from a trace (hwprof-spec.md 4.1):
//  - code profile: for every branch record after the first, value = the
//    previous record's next (low 32 bits: the start of the basic block that
//    ends at this record), weight = this record's insns (16-bit saturating,
//    as in BranchRecord);
//  - value stream: the `val` records in trace order, weight saturated to
//    16 bits (the engine's event weight width; docs/rap_engine.md).
#pragma once

#include <cstdint>
#include <string>

#include "rap_replay.h"

namespace hwprof::model {

enum class RapSourceKind { Code, Val };

/// The trace should have passed trace::scan() first. limit = 0: the whole
/// trace, else at most `limit` events.
RapEventSource rap_source(const std::string& path, RapSourceKind kind, uint64_t limit = 0);

}  // namespace hwprof::model
