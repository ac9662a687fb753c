// hwprof record: records a branch trace of a real program by running it under
// qemu-user with one instruction per translation block and stream-parsing
// qemu's execution log from a named pipe. See docs/recorder.md.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace.h"

namespace hwprof::record {

struct RecordOptions {
  std::string output;             ///< trace path; format and compression from the name (trace::format_from_name)
  std::string map_path;           ///< load map path; empty = output + ".map"
  std::string isa;                ///< "x86_64" or "riscv64"; empty = from the program's ELF header
  uint64_t max_insns = 0;         ///< stop after this many instructions (0 = run to the end)
  std::vector<std::string> argv;  ///< program (searched in PATH if it has no '/') and its arguments
  bool quiet = false;             ///< no progress or summary on stderr
  std::string qemu;               ///< qemu binary; empty = $HWPROF_QEMU or "qemu-<isa>" from PATH
  std::string sysroot;            ///< guest library prefix (qemu -L); empty = none
  uint64_t seed = 1;              ///< qemu -seed: makes AT_RANDOM and getrandom() reproducible
};

/// Error of the recorder itself (qemu missing, bad program, malformed log,
/// interrupted). No trace or map file is left behind.
class RecordError : public std::runtime_error {
 public:
  explicit RecordError(const std::string& msg) : std::runtime_error(msg) {}
};

/// Records `opts.argv` into `opts.output` and its load map into
/// `opts.map_path`. Returns the program's exit status: 0 on success (also when
/// --max-insns stopped it), the program's nonzero exit code, or 128 + N if it
/// was killed by signal N; in those cases the trace and the map are still
/// written (and stderr says why the status is nonzero). Throws RecordError
/// (or trace::TraceError on an output error) when nothing was recorded.
int record(const RecordOptions& opts);

// ---------------------------------------------------------------- decoding
// Exposed for unit tests.

/// Static facts about one instruction, as the recorder uses them.
struct InsnInfo {
  bool valid = false;       ///< the decoder understood the bytes
  uint8_t len = 0;          ///< length in bytes
  bool is_cf = false;       ///< produces a branch record
  trace::Kind kind = trace::Kind::Br;
  bool direct = false;      ///< the target is known statically
  uint64_t target = 0;      ///< static target (direct kinds)
  bool mem = false;         ///< counts as one event (explicit memory operand)
};

/// Decodes the instruction at `pc` from `bytes` (at least its length; extra
/// bytes are ignored) for `isa` ("x86_64" via capstone, "riscv64" built in).
InsnInfo decode_insn(const std::string& isa, uint64_t pc, const uint8_t* bytes, size_t n);

}  // namespace hwprof::record
