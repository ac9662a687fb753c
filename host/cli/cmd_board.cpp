// hwprof board: talk to a board running the profiler units over the board
// link (docs/board_protocol.md, docs/cli.md "board").
//   hwprof board info --port DEV [--baud N] [--json]
//   hwprof board run --port DEV [--baud N] --unit path|all [unit options] [--json] TRACE
//   hwprof board sim BOARD      (the SystemC virtual board; --port sim:BOARD)
// `board run` streams the trace to the board, reads the units back and
// prints exactly the report of `hwprof profile --engine model` for the same
// unit and the board's parameters (INFO), with "engine": "board".
#include <fmt/core.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
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
  bool baud_given = false;
  bool timeout_given = false;
  uint32_t sim_baud = 3000000;  ///< board sim --baud
  unsigned timeout_ms = 200;
  unsigned retries = 10;
  bool retry_reset = false;
  bool json = false;
  std::string unit = "path";
  ProfileOpts path;  ///< --unit path: the runtime options (mode, policy, ...)
  std::string board;  ///< board sim BOARD
};

/// The SystemC virtual board (sim/board_sc/hwprof_vboard): $HWPROF_VBOARD,
/// else beside the build's hwprof, else on PATH.
std::string vboard_path() {
  if (const char* e = std::getenv("HWPROF_VBOARD")) return e;
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = 0;
    std::string d(self);
    d = d.substr(0, d.rfind('/'));
    for (const char* rel : {"/../../sim/board_sc/hwprof_vboard", "/hwprof_vboard"}) {
      const std::string c = d + rel;
      if (::access(c.c_str(), X_OK) == 0) return c;
    }
  }
  return "hwprof_vboard";
}

/// A running virtual board: started with its pty path read from its stdout,
/// stopped (SIGTERM) on destruction.
struct VirtualBoard {
  pid_t pid = -1;
  std::string pts;
  VirtualBoard(const std::string& board, uint32_t baud) {
    if (board != "virtual")
      throw std::runtime_error("sim:" + board + ": the SystemC virtual board models the path-profiler build only; "
                               "use sim:virtual");
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    const std::string exe = vboard_path();
    const std::string b = std::to_string(baud);
    pid = ::fork();
    if (pid == 0) {
      ::dup2(fds[1], 1);
      ::close(fds[0]);
      ::close(fds[1]);
      ::execlp(exe.c_str(), exe.c_str(), "--baud", b.c_str(), static_cast<char*>(nullptr));
      std::fprintf(stderr, "hwprof: cannot run the virtual board %s: %s\n", exe.c_str(), std::strerror(errno));
      ::_exit(127);
    }
    ::close(fds[1]);
    char c;
    while (::read(fds[0], &c, 1) == 1 && c != '\n') pts += c;
    ::close(fds[0]);
    if (pts.empty()) {
      stop();
      throw std::runtime_error("the virtual board (" + exe + ") did not start");
    }
  }
  void stop() {
    if (pid > 0) {
      ::kill(pid, SIGTERM);
      ::waitpid(pid, nullptr, 0);
      pid = -1;
    }
  }
  ~VirtualBoard() { stop(); }
};

/// The board's channel; `vb` holds a virtual board started for --port sim:BOARD.
std::unique_ptr<link::Channel> open_port(const BoardOpts& o, std::unique_ptr<VirtualBoard>& vb) {
  if (o.port.rfind("sim:", 0) == 0) {
    const uint32_t baud = o.baud_given ? o.baud : 3000000;
    vb = std::make_unique<VirtualBoard>(o.port.substr(4), baud);
    return std::make_unique<link::SerialPort>(vb->pts, baud);
  }
  return std::make_unique<link::SerialPort>(o.port, o.baud);
}

link::LinkOptions link_options(const BoardOpts& o) {
  link::LinkOptions l;
  // The virtual board runs slower than real time: a longer default timeout.
  const bool sim = o.port.rfind("sim:", 0) == 0;
  l.timeout_us = int64_t{sim && !o.timeout_given ? 5000u : o.timeout_ms} * 1000;
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
  std::unique_ptr<VirtualBoard> vb;
  auto ch = open_port(o, vb);
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

/// What the record stream cost (printed on stderr, the link figures).
struct StreamStats {
  uint64_t records = 0, bytes = 0;
  double seconds = 0;
};

/// The path profiler on the board: program, stream, drain, dump, read the counters.
ProfilerRun board_path_run(BoardLink& l, const link::UnitInfo& u, const std::string& trace, const ProfilerOptions& cfg,
                           uint64_t branches, Progress& p, StreamStats& ss) {
  using model::HptCsr;
  using model::PathCsr;
  const unsigned aw = u.params.at(5);
  l.open();
  l.reg_write(u.unit, static_cast<uint8_t>(PathCsr::Ppcr), cfg.ppcr);
  l.reg_write(u.unit, static_cast<uint8_t>(model::hpt_csr(HptCsr::Ctrl)), cfg.hpt_ctrl);
  const int64_t t0 = l.now_us();
  const uint64_t b0 = l.counters().bytes_sent;
  const uint64_t sent =
      l.send_records(link_source(trace, aw, false), aw, [&](uint64_t n) { p.update(n, branches, "records"); });
  const auto fl = l.flush();
  ss.records = sent;
  ss.bytes = l.counters().bytes_sent - b0;
  ss.seconds = double(l.now_us() - t0) * 1e-6;
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
  std::unique_ptr<VirtualBoard> vb;
  auto ch = open_port(o, vb);
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
        StreamStats ss;
        ProfilerRun r = board_path_run(l, *u, p.trace, cfg, branches, prog, ss);
        prog.finish();
        const auto& c = l.counters();
        if (!g.quiet && ss.seconds > 0)
          std::fprintf(stderr, "hwprof: board: %llu records streamed in %.3f s: %.0f records/s, %.2f link bytes per record\n",
                       static_cast<unsigned long long>(ss.records), ss.seconds, double(ss.records) / ss.seconds,
                       ss.records ? double(ss.bytes) / double(ss.records) : 0.0);
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
    c->add_option("--baud", o->baud, "line rate in bits/s (the board's BAUD; sim: 3000000 or 115200, default 3000000)")
        ->capture_default_str()
        ->each([o](const std::string&) { o->baud_given = true; });
    c->add_option("--timeout", o->timeout_ms,
                  "answer timeout in ms (plus the frames' transmission time; sim: default 5000)")
        ->check(CLI::Range(1u, 60000u))
        ->each([o](const std::string&) { o->timeout_given = true; })
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

  auto* sim = b->add_subcommand("sim", "start the SystemC virtual board, print its pseudo-terminal and serve "
                                       "until interrupted");
  sim->add_option("BOARD", o->board, "board to model: virtual (the path-profiler build)")->required();
  sim->add_option("--baud", o->sim_baud, "line rate: 3000000 or 115200")
      ->check(CLI::IsMember({3000000u, 115200u}))
      ->capture_default_str();
  sim->callback([o] {
    if (o->board != "virtual")
      throw std::runtime_error("board sim " + o->board +
                               ": the SystemC virtual board models the path-profiler build only; use `board sim virtual`");
    const std::string exe = vboard_path();
    const std::string b = std::to_string(o->sim_baud);
    std::fflush(stdout);
    ::execlp(exe.c_str(), exe.c_str(), "--baud", b.c_str(), static_cast<char*>(nullptr));
    throw std::runtime_error("cannot run the virtual board " + exe + ": " + std::strerror(errno));
  });
}

}  // namespace hwprof::cli
