// hwprof board: talk to a board running the profiler units over the board
// link (docs/board_protocol.md, docs/cli.md "board").
//   hwprof board info --port DEV [--baud N] [--json]
//   hwprof board run --port DEV [--baud N] --unit path|all [unit options] [--json] TRACE
//   hwprof board sim BOARD      (the SystemC virtual board; --port sim:BOARD)
// `board run` streams the trace to the board, reads the units back and
// prints exactly the report of `hwprof profile --engine model` for the same
// unit and the board's parameters (INFO), with "engine": "board".
#include <fmt/core.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "board_link.h"
#include "commands.h"
#include "path_regs.h"
#include "hpt_regs.h"
#include "path_profiler.h"
#include "profile_opts.h"
#include "progress.h"
#include "trace.h"
#include "trace_source.h"

namespace hwprof::cli {

namespace {

using link::BoardLink;
using link::LinkError;

/// Bytes of one path-profiler DUMP entry (docs/boards.md): set u16, way u8,
/// start u32, length u8, dirs u32, acc u32.
constexpr size_t kPathDumpEntryBytes = 16;

struct BoardOpts {
  std::string port;
  uint32_t baud = 115200;
  unsigned timeout_ms = 200;
  unsigned retries = 10;
  bool retry_reset = false;
  bool json = false;
  std::string unit = "path";
  ProfileOpts path;  ///< --unit path: the runtime options (mode, policy, ...)
  std::string board;  ///< board sim BOARD
};

std::unique_ptr<link::Channel> open_port(const BoardOpts& o) {
  if (o.port.rfind("sim:", 0) == 0)
    throw std::runtime_error("--port " + o.port +
                             ": the SystemC virtual board is not built in this version (docs/cli.md, \"board\"); "
                             "use a serial port or a pseudo-terminal");
  return std::make_unique<link::SerialPort>(o.port, o.baud);
}

link::LinkOptions link_options(const BoardOpts& o) {
  link::LinkOptions l;
  l.timeout_us = int64_t{o.timeout_ms} * 1000;
  l.retries = o.retries;
  return l;
}

const link::UnitInfo* find_unit(const link::BoardInfo& i, link::UnitKind k) {
  for (const auto& u : i.units)
    if (u.kind == static_cast<uint8_t>(k)) return &u;
  return nullptr;
}

nlohmann::json info_json(const link::BoardInfo& i, const std::string& port) {
  nlohmann::json j;
  j["port"] = port;
  j["proto"] = i.proto;
  j["board"] = link::board_name(i.board);
  j["board_id"] = i.board;
  j["clk_hz"] = i.clk_hz;
  j["baud"] = i.baud;
  j["rxbuf"] = i.rxbuf;
  auto& us = j["units"] = nlohmann::json::array();
  for (const auto& u : i.units)
    us.push_back({{"unit", u.unit}, {"kind", link::unit_kind_name(u.kind)}, {"params", u.params}});
  return j;
}

void run_info(const BoardOpts& o) {
  auto ch = open_port(o);
  BoardLink l(*ch, link_options(o));
  const auto i = l.info();
  if (o.json) {
    fmt::print("{}\n", info_json(i, o.port).dump(2));
    return;
  }
  fmt::print("hwprof board on {}\n", o.port);
  fmt::print("  board        {} (id {}), link protocol {}\n", link::board_name(i.board), i.board, i.proto);
  fmt::print("  clock        {} Hz, line {} baud, receive buffer {} bytes\n", i.clk_hz, i.baud, i.rxbuf);
  for (const auto& u : i.units) {
    std::string ps;
    for (size_t k = 0; k < u.params.size(); ++k) ps += (k ? ", " : "") + std::to_string(u.params[k]);
    if (u.kind == static_cast<uint8_t>(link::UnitKind::PathProfiler))
      ps = fmt::format("queue {}, stack {}, MaxLen {}, HPT {}x{}, AddrW {}", u.params.at(0), u.params.at(1),
                       u.params.at(2), u.params.at(3), u.params.at(4), u.params.at(5));
    fmt::print("  unit {}       {}: {}\n", u.unit, link::unit_kind_name(u.kind), ps);
  }
}

/// A trace's records as the board takes them (addresses folded to AddrW,
/// counts saturated); val records only when `vals`.
std::function<bool(link::LinkRecord&)> link_source(const std::string& path, unsigned addr_w, bool vals) {
  auto rd = std::shared_ptr<trace::Reader>(trace::Reader::open(path));
  const uint32_t m = link::addr_mask(addr_w);
  return [rd, m, vals](link::LinkRecord& out) {
    trace::Record r;
    while (rd->next(r)) {
      out = {};
      if (!r.is_branch()) {
        if (!vals) continue;
        out.val = true;
        out.value = static_cast<uint32_t>(r.value) & m;
        out.weight = static_cast<uint16_t>(std::min<uint32_t>(r.weight, 0xFFFF));
        return true;
      }
      out.br = trace::branch_record(r);
      out.br.pc &= m;
      out.br.target &= m;
      return true;
    }
    return false;
  };
}

/// The path profiler on the board: program, stream, drain, dump, read the counters.
ProfilerRun board_path_run(BoardLink& l, const link::UnitInfo& u, const std::string& trace, const ProfilerOptions& cfg,
                           uint64_t branches, Progress& p) {
  using model::HptCsr;
  using model::PathCsr;
  const unsigned aw = u.params.at(5);
  l.open();
  l.reg_write(u.unit, static_cast<uint8_t>(PathCsr::Ppcr), cfg.ppcr);
  l.reg_write(u.unit, static_cast<uint8_t>(model::hpt_csr(HptCsr::Ctrl)), cfg.hpt_ctrl);
  const uint64_t sent =
      l.send_records(link_source(trace, aw, false), aw, [&](uint64_t n) { p.update(n, branches, "records"); });
  const auto fl = l.flush();
  if (fl.records != static_cast<uint32_t>(sent))
    throw LinkError(LinkError::Kind::Protocol, fmt::format("the board counted {} records, the host sent {}",
                                                           fl.records, sent));
  // Every record processed and its descriptor in the HPT (as replay_profiler).
  const uint32_t want = static_cast<uint32_t>(std::min<uint64_t>(sent, 0xFFFFFFFFu));
  for (int guard = 0; l.reg_read(u.unit, static_cast<uint8_t>(PathCsr::Records)) != want; ++guard)
    if (guard > 100) throw LinkError(LinkError::Kind::Board, "the path profiler did not drain (RECORDS register)");
  l.reg_read(u.unit, static_cast<uint8_t>(PathCsr::Records));
  // DUMP starts the HPT's dump walk (CMD.dump) itself.
  uint32_t n = 0;
  const auto bytes = l.dump(u.unit, kPathDumpEntryBytes, n);
  ProfilerRun run;
  link::Reader r(bytes);
  for (uint32_t i = 0; i < n; ++i) {
    model::HptEntry e;
    e.valid = true;
    r.u16();  // set
    r.u8();   // way
    e.key.start = r.u32();
    e.key.length = r.u8();
    e.key.dirs = r.u32();
    e.acc = r.u32();
    run.entries.push_back(e);
  }
  auto rd = [&](unsigned a) { return l.reg_read(u.unit, static_cast<uint8_t>(a)); };
  auto& f = run.frontend;
  f.records = rd(unsigned(PathCsr::Records));
  f.emitted = rd(unsigned(PathCsr::Emitted));
  f.incomplete = rd(unsigned(PathCsr::Incomplete));
  f.splits = rd(unsigned(PathCsr::Splits));
  f.overflows = rd(unsigned(PathCsr::Overflows));
  f.empty_pops = rd(unsigned(PathCsr::EmptyPops));
  auto& h = run.stats;
  h.descs = rd(model::hpt_csr(HptCsr::Descs));
  h.hits = rd(model::hpt_csr(HptCsr::Hits));
  h.fills = rd(model::hpt_csr(HptCsr::Fills));
  h.replacements = rd(model::hpt_csr(HptCsr::Replacements));
  h.rejects = rd(model::hpt_csr(HptCsr::Rejects));
  h.saturations = rd(model::hpt_csr(HptCsr::Saturations));
  h.ignored = rd(model::hpt_csr(HptCsr::Ignored));
  return run;
}

void run_board(BoardOpts& o, const Global& g) {
  auto ch = open_port(o);
  BoardLink l(*ch, link_options(o));
  const auto info = l.info();
  if (o.unit != "path" && o.unit != "all")
    throw std::runtime_error("--unit " + o.unit + ": this hwprof reads back only the path profiler from a board "
                             "(docs/cli.md, \"board\")");
  const auto* u = find_unit(info, link::UnitKind::PathProfiler);
  if (!u) throw std::runtime_error(o.port + ": the board (" + link::board_name(info.board) +
                                   ") has no path profiler unit");
  if (u->params.size() != 6)
    throw LinkError(LinkError::Kind::WrongBoard, "path profiler unit with " + std::to_string(u->params.size()) +
                                                     " parameters (expected 6)");
  if (o.unit == "all")
    for (const auto& x : info.units)
      if (x.kind != static_cast<uint8_t>(link::UnitKind::PathProfiler))
        std::fprintf(stderr, "hwprof: warning: unit %u (%s) is not read back by this hwprof\n", x.unit,
                     link::unit_kind_name(x.kind));
  ProfileOpts& p = o.path;
  p.unit = "path";
  p.engine = "board";
  p.json = o.json;
  p.depth = u->params[0];
  p.stack_depth = u->params[1];
  p.max_len = u->params[2];
  p.sets = u->params[3];
  p.ways = u->params[4];
  unsigned resets = 0;
  run_path(p, g, [&](const ProfilerOptions& cfg, uint64_t branches, Progress& prog) {
    for (;;) {
      try {
        ProfilerRun r = board_path_run(l, *u, p.trace, cfg, branches, prog);
        const auto& c = l.counters();
        if (!g.quiet && (c.retransmissions || c.crc_errors || c.noise_bytes || c.dump_retries))
          std::fprintf(stderr, "hwprof: link: %s\n", c.summary().c_str());
        return r;
      } catch (const LinkError& e) {
        if (e.kind != LinkError::Kind::SessionLost || !o.retry_reset || ++resets > 3) throw;
        std::fprintf(stderr, "hwprof: %s; --retry-reset: streaming the trace again\n", e.what());
      }
    }
  });
}

}  // namespace

void add_board_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<BoardOpts>();
  auto* b = app.add_subcommand("board", "talk to a board running the profiler units (docs/board_protocol.md)");
  b->require_subcommand(1);
  auto common = [o](CLI::App* c) {
    c->add_option("--port", o->port, "serial port or pseudo-terminal of the board (/dev/ttyUSB1, /dev/pts/N)")
        ->required();
    c->add_option("--baud", o->baud, "line rate in bits/s (the board's BAUD)")->capture_default_str();
    c->add_option("--timeout", o->timeout_ms, "answer timeout in ms (plus the frames' transmission time)")
        ->check(CLI::Range(1u, 60000u))
        ->capture_default_str();
    c->add_option("--retries", o->retries, "retransmissions of one frame before giving up")
        ->check(CLI::Range(0u, 1000u))
        ->capture_default_str();
    c->add_flag("--json", o->json, "machine-readable output");
  };
  auto* info = b->add_subcommand("info", "print the board's ID block (board, clock, line rate, units, parameters)");
  common(info);
  info->callback([o] { run_info(*o); });

  auto* run = b->add_subcommand("run", "stream a trace to the board and print the units' report, as "
                                       "`hwprof profile --engine model` with the board's parameters");
  common(run);
  run->add_option("--unit", o->unit, "unit to read back: path (the path profiler) or all (every unit of the board)")
      ->check(CLI::IsMember({"path", "rap", "phase", "all"}))
      ->capture_default_str();
  ProfileOpts& p = o->path;
  run->add_option("--mode", p.mode, "path: paths to detect, bl, wpp or ext (PPCR)")
      ->check(CLI::IsMember({"bl", "wpp", "ext"}))
      ->capture_default_str();
  run->add_option("--max-ext", p.max_ext, "path, ext mode: back edges a path may span")
      ->check(CLI::Range(0u, 3u))
      ->capture_default_str();
  run->add_option("--policy", p.policy, "path: HPT replacement policy: lfu, ss, erode")
      ->check(CLI::IsMember({"lfu", "ss", "erode"}))
      ->capture_default_str();
  run->add_option("--index", p.index, "path: HPT index fold: plb or pb")
      ->check(CLI::IsMember({"plb", "pb"}))
      ->capture_default_str();
  run->add_option("--skew", p.skew, "path: 1 = skewed index, 0 = set-associative")
      ->check(CLI::Range(0u, 1u))
      ->capture_default_str();
  run->add_option("--metric", p.metric, "path: HPT accumulator metric: freq, events or insns")
      ->check(CLI::IsMember({"freq", "events", "insns"}))
      ->capture_default_str();
  auto* top = run->add_option("--top", p.top, "path: show the N hottest HPT entries (0 = all; default 20 in the "
                                              "text report, all with --json)");
  run->add_flag("--retry-reset", o->retry_reset,
                "when the board is reset mid-run (session lost), open a new session and stream the trace again");
  run->add_option("TRACE", p.trace, "trace file (any supported format)")->required();
  run->callback([o, top, &g] {
    o->path.top_given = top->count() > 0;
    run_board(*o, g);
  });

  auto* sim = b->add_subcommand("sim", "start the SystemC virtual board and print its pseudo-terminal");
  sim->add_option("BOARD", o->board, "board to model: icebreaker or ulx3s")
      ->check(CLI::IsMember({"icebreaker", "ulx3s"}))
      ->required();
  sim->callback([o] {
    throw std::runtime_error("board sim " + o->board +
                             ": the SystemC virtual board is not built in this version (docs/cli.md, \"board\")");
  });
}

}  // namespace hwprof::cli
