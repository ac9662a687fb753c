// Event streams for the RAP engine (hwprof-spec.md 4.1), built from records
// (a trace file's streams come from the trace library: trace::rap_source,
// host/lib/trace_source.h):
//  - code profile: for every branch record after the first, value = the
//    previous record's next (low 32 bits: the start of the basic block that
//    ends at this record), weight = this record's insns (16-bit saturating,
//    as in BranchRecord);
//  - value stream: the `val` records in trace order, weight saturated to
//    16 bits (the engine's event weight width; docs/rap_engine.md);
//  - 2-D stream (docs/rap2d.md): the `val` records with a pc, value = the
//    interleaved key of (pc, address) for the engine at RangeW = 2K, weight
//    saturated to 16 bits.
#pragma once

#include <cstdint>

#include "branch_record.h"
#include "rap_replay.h"

namespace hwprof::model {

/// The code-profile events of a branch record stream. limit = 0: the whole
/// stream, else at most `limit` events.
RapEventSource rap_code_source(RecordSource branches, uint64_t limit = 0);

/// The event of one `val` record: the low 32 bits of the value, the weight
/// saturated to 16 bits.
RapEvent rap_value_event(uint64_t value, uint32_t weight);

/// The event of one (code, data) pair: rap2d_key(code, data, dim_bits), the
/// weight saturated to 16 bits.
RapEvent rap_pair_event(uint64_t code, uint64_t data, uint32_t weight, unsigned dim_bits);

}  // namespace hwprof::model
