// hwprof trace library: the record type, the readers and writers of every
// trace format the project knows (text v1, binary HWPT v1, zstd-compressed
// forms of both), and strict validation with located errors.
//
// Formats are documented in docs/formats.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hwprof::trace {

/// Record kinds. The six branch kinds follow hwprof-spec.md section 2;
/// `Val` is the optional RAP event record (value, weight).
enum class Kind : uint8_t { Br = 0, Jmp = 1, Ijmp = 2, Call = 3, Icall = 4, Ret = 5, Val = 6 };
inline constexpr int kNumKinds = 7;

/// Text name of a kind ("br", "jmp", ...).
std::string_view kind_name(Kind k);
/// Parses a kind name; returns false if `s` is not one.
bool parse_kind(std::string_view s, Kind& k);

/// Largest legal instruction length (4-bit field in the RTL record).
inline constexpr unsigned kMaxIlen = 15;

/// One trace record. Branch records use pc..events; `Val` records use value
/// and weight, and optionally pc (has_pc: the address of the instruction that
/// made the access, for 2-D RAP, docs/rap2d.md); all other fields zero.
struct Record {
  Kind kind = Kind::Br;
  uint64_t pc = 0;      ///< address of the branch
  uint64_t target = 0;  ///< taken destination (static target for a not-taken br)
  bool taken = false;   ///< 1 for every kind except a not-taken br
  uint8_t ilen = 0;     ///< instruction length in bytes, 1..15
  uint32_t insns = 0;   ///< instructions retired since the previous record, this one included (>= 1)
  uint32_t events = 0;  ///< metric events since the previous record
  uint64_t value = 0;   ///< Val: event value
  uint32_t weight = 0;  ///< Val: event weight (>= 1)
  bool has_pc = false;  ///< Val: pc holds the accessing instruction's address (else pc = 0)

  bool is_branch() const { return kind != Kind::Val; }
  /// Address of the next instruction executed after this branch.
  uint64_t next() const { return taken ? target : pc + ilen; }
  bool operator==(const Record& o) const;
  bool operator!=(const Record& o) const { return !(*this == o); }
};

/// Checks the semantic rules every record must satisfy whatever its format
/// (insns >= 1, ilen in 1..15, taken = 1 unless kind is br, weight >= 1).
/// Returns an empty string if valid, else "field 'x': reason".
std::string check_record(const Record& r);

/// Why an ISA name cannot go in a trace header ("" if it can): at most 255
/// bytes (the binary header's length byte) of printable ASCII without blanks
/// (the text header is split at blanks). Both readers and the writer apply it,
/// so a name one format accepts always survives a round trip through the other.
std::string check_isa(const std::string& isa);

/// Error in a trace file. what() reads "FILE:LINE: field 'f': reason" for text
/// and "FILE: byte OFFSET: field 'f': reason" for binary input.
class TraceError : public std::runtime_error {
 public:
  explicit TraceError(const std::string& msg) : std::runtime_error(msg) {}
};

enum class Format { Text, Binary };

struct Header {
  Format format = Format::Text;
  bool compressed = false;  ///< the file was zstd-compressed
  std::string isa;          ///< informational ("x86_64", "riscv64", ...)
};

/// Streaming reader over any supported trace file (format detected from the
/// content, not the name; zstd detected by its magic number).
class Reader {
 public:
  virtual ~Reader() = default;
  /// Opens `path` ("-" = stdin). Throws TraceError if it cannot be opened or
  /// its header is invalid.
  static std::unique_ptr<Reader> open(const std::string& path);
  const Header& header() const { return header_; }
  /// Reads the next record. Returns false at a valid end of trace; throws
  /// TraceError (with file, line or byte offset, and field) on bad input.
  virtual bool next(Record& r) = 0;
  /// Bytes of the underlying (possibly compressed) file consumed so far, for
  /// progress reports.
  virtual uint64_t bytes_consumed() const = 0;
  /// Size of the file in bytes, or 0 if unknown (stdin).
  uint64_t file_size() const { return file_size_; }

 protected:
  Header header_;
  uint64_t file_size_ = 0;
};

/// Writer for text or binary traces, optionally zstd-compressed. Output goes
/// to a temporary file that is renamed over `path` only by commit(), so a
/// failed run never leaves a partial file that looks valid. "-" = stdout
/// (written as it goes; callers validate before writing to stdout).
class Writer {
 public:
  Writer(const std::string& path, Format fmt, bool compress, const std::string& isa);
  ~Writer();  // discards the temporary file unless commit() ran
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  void write(const Record& r);
  /// Flushes, closes and renames the temporary file into place.
  void commit();
  uint64_t records() const { return records_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  uint64_t records_ = 0;
};

/// Chooses format and compression from a file name: "*.hwpt[.zst]" is
/// binary, anything else text; a ".zst" suffix compresses.
void format_from_name(const std::string& path, Format& fmt, bool& compress);

/// Summary of a whole trace.
struct Info {
  uint64_t records = 0;
  uint64_t instructions = 0;  ///< sum of insns over branch records
  uint64_t events = 0;
  uint64_t kinds[kNumKinds] = {};
  uint64_t val_pcs = 0;  ///< val records that carry a pc (has_pc)
  uint64_t bytes = 0;  ///< bytes read from the file
  Header header;
};

/// Reads the whole trace, validating every record; throws TraceError at the
/// first problem. `progress` (may be empty) is called now and then with
/// (bytes consumed, file size).
Info scan(const std::string& path,
          const std::function<void(uint64_t, uint64_t)>& progress = {});

/// Calls `fn` for every record of a trace that has already passed scan().
void for_each(const std::string& path, const std::function<void(const Record&)>& fn);

}  // namespace hwprof::trace
