// Import of ChampSim instruction traces (64-byte `input_instr` records, raw or
// xz-compressed) into the project's trace formats. The mapping and every
// inference rule are documented in docs/champsim.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "trace.h"

namespace hwprof::trace {

/// Size of one ChampSim `input_instr` record in bytes.
inline constexpr unsigned kChampSimRecordBytes = 64;

/// What an import saw and how much it had to infer.
struct ImportStats {
  uint64_t instructions = 0;       ///< ChampSim records (instructions) in the input
  uint64_t records = 0;            ///< branch records written
  uint64_t kinds[kNumKinds] = {};  ///< records written per Kind
  uint64_t other_taken = 0;        ///< BRANCH_OTHER instances written as taken ijmp
  uint64_t other_not_taken = 0;    ///< BRANCH_OTHER instances written as not-taken br
  uint64_t ilen_per_ip = 0;        ///< records whose ilen was learned for their own pc
  uint64_t ilen_per_kind = 0;      ///< records whose ilen came from the per-kind fallback
  uint64_t ilen_global = 0;        ///< ... from the all-kinds fallback
  uint64_t ilen_default = 0;       ///< ... from the fixed default (kChampSimDefaultIlen)
  uint64_t target_fallback = 0;    ///< not-taken br never seen taken: target = pc + ilen
  uint64_t discontinuities = 0;    ///< fall-through instructions whose successor ip is not in [ip, ip+15]
  uint64_t is_branch_mismatch = 0; ///< instructions whose is_branch byte disagrees with the register pattern
  uint64_t dropped_tail = 0;       ///< instructions after the last written record (always >= 1 if input non-empty)
};

/// ilen used when nothing in the trace tells the length of an instruction.
inline constexpr unsigned kChampSimDefaultIlen = 4;

/// Converts ChampSim trace `in` (xz-compressed or raw, detected from the
/// content; gzip/zstd/bzip2 are recognized and refused with a message) into
/// a trace file `out` whose format follows the name (format_from_name; "-" =
/// text on stdout). `isa` goes into the output header. Reads the input twice
/// (so `in` must be a regular file, not "-"). `progress`, if set, is called
/// now and then with (compressed bytes consumed over both passes, 2 * file
/// size).
///
/// Throws TraceError naming the file and the byte offset on bad input (size
/// not a multiple of 64 bytes, corrupt or truncated xz data); the output file
/// is then not created (nor any temporary left behind).
ImportStats import_champsim(const std::string& in, const std::string& out, const std::string& isa = "x86_64",
                            const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace hwprof::trace
