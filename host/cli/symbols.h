// Symbols and full addresses in the reports (docs/formats.md, "Symbols"),
// and the export formats every table command shares (--format csv, folded
// stacks). Used by `hwprof paths`, `kpaths`, `profile --unit path|rap|phase`
// and `hwprof board run` (through the path report).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "symbolize.h"

namespace hwprof::cli {

/// --no-symbols, --map.
struct SymOpts {
  bool no_symbols = false;
  std::string map;  ///< load map (default TRACE.map)
};

/// Registers --no-symbols and --map on a command.
void add_symbol_options(CLI::App* c, SymOpts& o);

/// Registers --format text|json|csv on a command; `json` is set for json
/// (the command's --json flag stays), `csv` for csv.
void add_format_option(CLI::App* c, std::string& format);

/// Names of the addresses of one report: folded AddrW-bit values -> the full
/// addresses of the trace -> symbols.
class AddrNames {
 public:
  /// Reads the trace once for its full addresses and opens its load map
  /// (unless --no-symbols). Never throws for a missing map or file.
  AddrNames(const std::string& trace, const SymOpts& o);

  struct Name {
    uint64_t full = 0;       ///< full address (the folded value when the trace never showed it)
    unsigned candidates = 0;  ///< full addresses that fold to the value (> 1: ambiguous)
    sym::Location loc;       ///< symbol and line (bare address when symbols are off)
    std::string last_fn;     ///< range(): function of the highest address in the range when it differs from loc's
    std::string full_hex() const;  ///< full as hex, with a trailing '?' when ambiguous
  };
  /// The name of a folded address (cached).
  const Name& of(uint64_t folded);
  /// Symbol of a full address (bare address when symbols are off).
  sym::Location lookup_full(uint64_t full);
  /// A folded range [lo, hi] (RAP ranges): full = lo with the upper bits of
  /// the trace's addresses in it (candidates = distinct upper parts), loc =
  /// the symbol of the lowest address of the trace in it.
  Name range(uint64_t lo, uint64_t hi);

  /// Adds PREFIX_full, sym, file, line (and ambiguous) to a JSON entry.
  void add_json(nlohmann::json& e, const Name& n, const std::string& prefix) const;
  /// The report's "symbols" object: map, enabled, ambiguous count, notes.
  nlohmann::json summary() const;
  /// The notes as lines for the text report (also printed on stderr by
  /// print_notes).
  std::vector<std::string> notes() const;
  /// Prints each note once on stderr ("hwprof: note: ...") unless quiet.
  void print_notes(bool quiet) const;
  bool symbols() const { return !no_symbols_; }

 private:
  bool no_symbols_ = false;
  sym::FullAddrs addrs_;
  sym::Symbolizer syms_;
  std::map<uint64_t, Name> cache_;
};

/// One CSV field (RFC 4180: quoted when it holds a comma, quote or newline).
std::string csv_field(const std::string& s);
/// Prints one CSV row.
void csv_row(const std::vector<std::string>& fields);

/// A folded-stack frame from a symbol: ';' and whitespace replaced so that
/// flamegraph.pl and speedscope split lines the same way.
std::string folded_frame(const std::string& s);

}  // namespace hwprof::cli

namespace hwprof::cli {

/// Writes the call-path folded stacks of a trace to `path`: one line
/// "frame;frame;...;frame insns" per distinct call stack (frames are the
/// functions entered by call records, the root the function of the first
/// record; weights are the instructions retired in that stack). Returns the
/// number of lines.
size_t write_call_folded(const std::string& trace, AddrNames& names, const std::string& path);

}  // namespace hwprof::cli
