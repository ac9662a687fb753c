// Record streams of a trace file for the models and engines: the trace
// library reads the file, the models take records (sim_models never open
// files). Converts trace::Record (64-bit addresses, 32-bit counts) into the
// model's fixed-width model::BranchRecord and RAP events.
#pragma once

#include <cstdint>
#include <string>

#include "branch_record.h"
#include "rap_replay.h"
#include "trace.h"

namespace hwprof::trace {

/// A branch record as the RTL sees it: low AddrW address bits, insns and
/// events saturated (model::BranchRecord::make). `r` must be a branch record.
model::BranchRecord branch_record(const Record& r);

/// The branch records of a trace file (val records skipped), converted with
/// branch_record(). The trace should have passed scan() first.
model::RecordSource branch_source(const std::string& path);

enum class RapSourceKind { Code, Val, Pair };

/// The RAP engine's events of a trace file (sim_models/rap/rap_source.h):
/// Code, the code profile of its branch records; Val, its `val` records;
/// Pair, its `val` records with a pc as 2-D events (the interleaved key of
/// the pc's and the value's low 32 bits, for the engine at RangeW = 64;
/// docs/rap2d.md).
/// The trace should have passed scan() first. limit = 0: the whole trace,
/// else at most `limit` events.
model::RapEventSource rap_source(const std::string& path, RapSourceKind kind, uint64_t limit = 0);

}  // namespace hwprof::trace
