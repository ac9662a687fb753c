// hwprof board: talk to a board running the profiler units over the board
// link (docs/board_protocol.md, docs/cli.md "board").
//   hwprof board info --port DEV [--baud N] [--json]
//   hwprof board run --port DEV [--baud N] --unit path|rap|phase|all [unit options] [--json] TRACE
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
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include <optional>

#include "board_link.h"
#include "commands.h"
#include "dcr_regs.h"
#include "detector_regs.h"
#include "dcr_replay.h"
#include "rap_regs.h"
#include "rap_replay.h"
#include "path_regs.h"
#include "hpt_regs.h"
#include "loadmap.h"
#include "path_profiler.h"
#include "profile_opts.h"
#include "progress.h"
#include "soc_qemu.h"
#include "soc_regs.h"
#include "soc_sim.h"
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
  // board soc
  std::string elf;
  std::string soc_trace;     ///< --trace: the program's retire stream (else recorded with qemu)
  std::string qemu = "qemu-system-riscv32";
  std::string events = "mem";  ///< ingress events (CTRL.ev_sel): mem, loads, stores
  unsigned run_timeout_s = 600;  ///< the program must have finished by then (wall clock)
};

/// The virtual boards (hwprof_vboard --board B, --port sim:B).
bool known_vboard(const std::string& b) { return b == "virtual" || b == "ulx3s" || b == "ulx3s-soc"; }

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
    if (!known_vboard(board))
      throw std::runtime_error("sim:" + board + ": the SystemC virtual board models the path-profiler build "
                               "(sim:virtual) and the ULX3S build (sim:ulx3s), also with the PicoRV32 SoC "
                               "(sim:ulx3s-soc)");
    if (board != "virtual" && baud != 3000000)
      throw std::runtime_error("sim:" + board + ": the virtual ULX3S is built for 3000000 baud only");
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    const std::string exe = vboard_path();
    const std::string b = std::to_string(baud);
    pid = ::fork();
    if (pid == 0) {
      ::dup2(fds[1], 1);
      ::close(fds[0]);
      ::close(fds[1]);
      ::execlp(exe.c_str(), exe.c_str(), "--board", board.c_str(), "--baud", b.c_str(), static_cast<char*>(nullptr));
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
    if (u.kind == static_cast<uint8_t>(link::UnitKind::PathProfiler) && u.params.size() == 6)
      ps = fmt::format("queue {}, stack {}, MaxLen {}, HPT {}x{}, AddrW {}", u.params.at(0), u.params.at(1),
                       u.params.at(2), u.params.at(3), u.params.at(4), u.params.at(5));
    if (u.kind == static_cast<uint8_t>(link::UnitKind::Soc) && u.params.size() == 5)
      ps = fmt::format("PicoRV32 {}, RAM {} words ({} KB at 0x80000000), ingress FIFOs {} / {} (val), console {}",
                       u.params[1] ? "RV32IMC" : "RV32I", u.params[0], u.params[0] / 256, u.params[2], u.params[3],
                       u.params[4]);
    fmt::print("  unit {}       {}: {}\n", u.unit, link::unit_kind_name(u.kind), ps);
  }
}

/// A trace's records as the board takes them (addresses folded to AddrW,
/// counts saturated): val records when `vals`, branch records when `branches`.
std::function<bool(link::LinkRecord&)> link_source(const std::string& path, unsigned addr_w, bool vals,
                                                   bool branches = true) {
  auto rd = std::shared_ptr<trace::Reader>(trace::Reader::open(path));
  const uint32_t m = link::addr_mask(addr_w);
  return [rd, m, vals, branches](link::LinkRecord& out) {
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
      if (!branches) continue;
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
  link::FlushInfo flush;
};

/// Bytes of a RAP dump entry and of the DCR / BBV result entries (docs/boards.md).
using link::kBbvResultBytes;
using link::kDcrResultBytes;
constexpr size_t kRapDumpEntryBytes = link::kRapDumpBytes;

/// The board's units as `board run` uses them (null: not on the board).
struct BoardUnits {
  const link::UnitInfo* path = nullptr;
  const link::UnitInfo* rap = nullptr;
  const link::UnitInfo* dcr = nullptr;
  const link::UnitInfo* bbv = nullptr;
  const link::UnitInfo* soc = nullptr;  ///< the SoC of a SOC=picorv32 build (hwprof board soc)
};

/// What one run reads back from the board: every unit the report needs.
struct BoardReadout {
  ProfilerRun path;
  model::RapReplayResult rap;
  std::vector<model::DcrResult> dcr_results;
  model::DcrTracker::Stats dcr_stats;
  std::vector<model::DetectorResult> bbv_results;
  model::DetectorCounters bbv_counters;
  uint64_t records = 0;      ///< records the units took (branch records, or val records for --source val)
  uint64_t rap_events = 0;   ///< RAP events those records make
};

/// What to program and read: the path profiler's PPCR / HPT CTRL, the RAP
/// replay settings, the phase units' INTERVAL / THRESHOLD.
struct BoardPlan {
  bool path = false, rap = false, dcr = false, bbv = false;
  bool vals_only = false;  ///< rap --source val: stream the val records only
  bool rap_val = false;    ///< --source val: the RAP engine takes val records (board soc: CTRL.rap_val)
  ProfilerOptions path_cfg;
  model::RapReplayConfig rap_cfg;
  uint32_t interval = 1'000'000, threshold = 128;
};

void decode_dcr(const link::ResultChunk& c, std::vector<model::DcrResult>& out) {
  for (unsigned i = 0; i < c.count; ++i) {
    model::DcrResult x;
    link::get_dcr_result(c.entries.data() + i * kDcrResultBytes, kDcrResultBytes, x);
    out.push_back(x);
  }
}

void decode_bbv(const link::ResultChunk& c, std::vector<model::DetectorResult>& out) {
  for (unsigned i = 0; i < c.count; ++i) {
    model::DetectorResult x;
    link::get_bbv_result(c.entries.data() + i * kBbvResultBytes, kBbvResultBytes, x);
    out.push_back(x);
  }
}

/// Programs the units after OPEN (which reset them): the path profiler's
/// PPCR and HPT CTRL, the RAP engine's settings (then CMD.clear), the phase
/// units' INTERVAL and THRESHOLD.
void program_units(BoardLink& l, const BoardUnits& bu, const BoardPlan& plan) {
  if (bu.path && plan.path) {
    l.reg_write(bu.path->unit, static_cast<uint8_t>(model::PathCsr::Ppcr), plan.path_cfg.ppcr);
    l.reg_write(bu.path->unit, static_cast<uint8_t>(model::hpt_csr(model::HptCsr::Ctrl)), plan.path_cfg.hpt_ctrl);
  }
  if (bu.rap && plan.rap) {
    const auto& c = plan.rap_cfg;
    const uint8_t u = bu.rap->unit;
    const uint32_t groups = bu.rap->params.at(1);
    l.reg_write(u, static_cast<uint8_t>(model::RapCsr::Eps), c.eps_q16);
    l.reg_write(u, static_cast<uint8_t>(model::RapCsr::Cap), c.node_cap ? c.node_cap : 4 * groups + 4);
    l.reg_write(u, static_cast<uint8_t>(model::RapCsr::MergeFirst), c.merge_first);
    l.reg_write(u, static_cast<uint8_t>(model::RapCsr::BufDepth), c.buffer);
    if (l.reg_read(u, static_cast<uint8_t>(model::RapCsr::Status)) & model::kRapStErr)
      throw std::runtime_error("the board's RAP engine refused a parameter (STATUS.err)");
    l.reg_write(u, static_cast<uint8_t>(model::RapCsr::Cmd), model::kRapCmdClear);
  }
  if (bu.dcr) l.reg_write(bu.dcr->unit, static_cast<uint8_t>(model::DcrCsr::Interval), plan.interval);
  if (bu.bbv) {
    const uint8_t u = bu.bbv->unit;
    l.reg_write(u, static_cast<uint8_t>(model::DetCsr::Ctrl), model::kDetCtrlRestart);
    l.reg_write(u, static_cast<uint8_t>(model::DetCsr::Interval), plan.interval);
    l.reg_write(u, static_cast<uint8_t>(model::DetCsr::Threshold), plan.threshold);
  }
}

/// Takes every result the DCR tracker and the BBV detector offer now
/// (RESULTS until each answers `count` 0; each new frame releases the entry
/// sent before). A unit holding an untaken result takes no more records
/// (docs/board_protocol.md, "Results while streaming").
void take_results(BoardLink& l, const BoardUnits& bu, BoardReadout& out) {
  for (bool again = true; again;) {
    again = false;
    if (bu.dcr) {
      const auto c = l.results(bu.dcr->unit, 1, kDcrResultBytes);
      decode_dcr(c, out.dcr_results);
      again |= c.count != 0;
    }
    if (bu.bbv) {
      const auto c = l.results(bu.bbv->unit, 1, kBbvResultBytes);
      decode_bbv(c, out.bbv_results);
      again |= c.count != 0;
    }
  }
}

/// Reads back every unit `plan` asks for once the records are on their way
/// into the units: the phase units drained (their results taken) and their
/// counters, the RAP engine flushed and dumped, the path profiler dumped.
/// `branches`: the branch records the units take; `rap_events`: the RAP
/// engine's events (branch records - 1, or the val records).
void read_back(BoardLink& l, const BoardUnits& bu, const BoardPlan& plan, uint64_t branches, uint64_t rap_events,
               BoardReadout& out) {
  const uint32_t want = static_cast<uint32_t>(std::min<uint64_t>(branches, 0xFFFFFFFFu));
  out.rap_events = rap_events;
  // The phase units: the last interval's result (if any) and the counters.
  if (bu.dcr) {
    const uint8_t u = bu.dcr->unit;
    auto rd = [&](model::DcrCsr a) { return l.reg_read(u, static_cast<uint8_t>(a)); };
    for (unsigned guard = 0;; ++guard) {
      take_results(l, bu, out);
      if (!(rd(model::DcrCsr::Status) & 2u)) break;
      if (guard > 10000) throw LinkError(LinkError::Kind::Board, "the DCR tracker did not drain (STATUS.busy)");
    }
    out.dcr_stats = model::read_dcr_stats(rd);
  }
  if (bu.bbv) {
    const uint8_t u = bu.bbv->unit;
    auto rd = [&](model::DetCsr a) { return l.reg_read(u, static_cast<uint8_t>(a)); };
    for (unsigned guard = 0;; ++guard) {
      take_results(l, bu, out);
      if (rd(model::DetCsr::Records) == want &&
          (rd(model::DetCsr::Status) & (model::kDetStatusBusy | model::kDetStatusResValid)) == 0)
        break;
      if (guard > 10000) throw LinkError(LinkError::Kind::Board, "the BBV detector did not drain (STATUS)");
    }
    auto& c = out.bbv_counters;
    c.records = rd(model::DetCsr::Records);
    c.features = rd(model::DetCsr::Features);
    c.ignored = rd(model::DetCsr::Ignored);
    c.intervals = rd(model::DetCsr::Intervals);
    c.phases = rd(model::DetCsr::Phases);
    c.stall_cycles = rd(model::DetCsr::StallCycles);
    c.busy_cycles = rd(model::DetCsr::BusyCycles);
  }
  if ((bu.dcr || bu.bbv) &&
      (out.dcr_results.size() != out.dcr_stats.intervals || out.bbv_results.size() != out.bbv_counters.intervals))
    throw LinkError(LinkError::Kind::Protocol,
                    fmt::format("results lost: {} DCR and {} BBV results taken, the units answered {} and {} intervals",
                                out.dcr_results.size(), out.bbv_results.size(), out.dcr_stats.intervals,
                                out.bbv_counters.intervals));

  // The RAP engine: every event out of its queue, the merging buffer
  // flushed, idle; then its counters and the dump (as replay_rap does).
  if (bu.rap && plan.rap) {
    const uint8_t u = bu.rap->unit;
    auto rd = [&](model::RapCsr a) { return l.reg_read(u, static_cast<uint8_t>(a)); };
    const uint64_t events = rap_events;
    for (unsigned guard = 0; rd(model::RapCsr::Raw) != model::sat32(events); ++guard)
      if (guard > 10000) throw LinkError(LinkError::Kind::Board, "the RAP engine did not drain its queue (RAW)");
    l.reg_write(u, static_cast<uint8_t>(model::RapCsr::Cmd), model::kRapCmdFlush);
    for (unsigned guard = 0; !(rd(model::RapCsr::Status) & model::kRapStIdle); ++guard)
      if (guard > 10000) throw LinkError(LinkError::Kind::Board, "the RAP engine did not become idle (STATUS)");
    auto& r = out.rap;
    r.events = events;
    r.counters = model::read_rap_counters(rd);
    uint32_t n = 0;
    const auto bytes = l.dump(u, kRapDumpEntryBytes, n);
    for (uint32_t i = 0; i < n; ++i) {
      model::RapDumpBeat b;
      bool last = false;
      link::get_rap_beat(bytes.data() + i * kRapDumpEntryBytes, kRapDumpEntryBytes, b, last);
      r.beats.push_back(b);
    }
    if (r.beats.empty()) throw LinkError(LinkError::Kind::Board, "the RAP engine's dump was empty");
  }

  // The path profiler: every record processed and its descriptor in the HPT
  // (as replay_profiler), the dump, the counters.
  if (bu.path && plan.path) {
    const uint8_t u = bu.path->unit;
    using model::HptCsr;
    using model::PathCsr;
    for (int guard = 0; l.reg_read(u, static_cast<uint8_t>(PathCsr::Records)) != want; ++guard)
      if (guard > 100) throw LinkError(LinkError::Kind::Board, "the path profiler did not drain (RECORDS register)");
    l.reg_read(u, static_cast<uint8_t>(PathCsr::Records));
    // DUMP starts the HPT's dump walk (CMD.dump) itself.
    uint32_t n = 0;
    const auto bytes = l.dump(u, kPathDumpEntryBytes, n);
    ProfilerRun& run = out.path;
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
    auto rd = [&](unsigned a) { return l.reg_read(u, static_cast<uint8_t>(a)); };
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
  }
}

/// Streams the trace to the board and reads back what `plan` asks for. The
/// result units' entries are taken while the records stream: a DCR or BBV
/// unit holding an untaken result takes no more records, the broadcast waits
/// for it, the receive buffer fills and the host's credit runs out; then the
/// host takes the results (RESULTS until `count` is 0, each new frame
/// releases the entry sent before) and polls the credit again
/// (docs/board_protocol.md, "Flow control").
BoardReadout board_stream(BoardLink& l, const BoardUnits& bu, const BoardPlan& plan, const std::string& trace,
                          uint64_t total, Progress& p, StreamStats& ss) {
  BoardReadout out;
  const unsigned aw = bu.path ? bu.path->params.at(5) : 32;
  l.open();
  program_units(l, bu, plan);
  auto take = [&] { take_results(l, bu, out); };
  const bool has_results = bu.dcr || bu.bbv;

  const int64_t t0 = l.now_us();
  const uint64_t b0 = l.counters().bytes_sent;
  const uint64_t sent = l.send_records(
      link_source(trace, aw, plan.vals_only, !plan.vals_only), aw, [&](uint64_t n) { p.update(n, total, "records"); },
      has_results ? std::function<void()>(take) : std::function<void()>());
  if (has_results) {
    // Every record into the units: results are taken until the buffer and
    // the decoder are empty (ACK status bit 1), else FLUSH would wait for a
    // unit that waits for the host.
    for (unsigned guard = 0;; ++guard) {
      take();
      if (!(l.poll() & 2u)) break;
      if (guard > 100000) throw LinkError(LinkError::Kind::Board, "the board's units did not take every record");
    }
  }
  const auto fl = l.flush();
  ss.records = sent;
  ss.bytes = l.counters().bytes_sent - b0;
  ss.seconds = double(l.now_us() - t0) * 1e-6;
  ss.flush = fl;
  out.records = sent;
  if (fl.records != static_cast<uint32_t>(sent))
    throw LinkError(LinkError::Kind::Protocol, fmt::format("the board counted {} records, the host sent {}",
                                                           fl.records, sent));
  read_back(l, bu, plan, plan.vals_only ? 0 : sent, plan.vals_only ? sent : (sent ? sent - 1 : 0), out);
  return out;
}

BoardUnits board_units(const link::BoardInfo& info) {
  BoardUnits b;
  b.path = find_unit(info, link::UnitKind::PathProfiler);
  b.rap = find_unit(info, link::UnitKind::Rap);
  b.dcr = find_unit(info, link::UnitKind::Dcr);
  b.bbv = find_unit(info, link::UnitKind::Bbv);
  b.soc = find_unit(info, link::UnitKind::Soc);
  auto need = [](const link::UnitInfo* u, size_t n, const char* what) {
    if (u && u->params.size() != n)
      throw LinkError(LinkError::Kind::WrongBoard, fmt::format("{} unit with {} parameters (expected {})", what,
                                                               u->params.size(), n));
  };
  need(b.path, 6, "path profiler");
  need(b.rap, 7, "RAP engine");
  need(b.dcr, 4, "DCR tracker");
  need(b.bbv, 6, "BBV detector");
  need(b.soc, 5, "SoC");
  return b;
}

/// What to program and read, and the settings of each report (o.path), from
/// the options and the board's units, as `hwprof profile` derives them.
/// `soc` (hwprof board soc): the SoC makes both branch and val records, so
/// --source val (CTRL.rap_val) goes with any unit.
BoardPlan plan_units(BoardOpts& o, const link::BoardInfo& info, const BoardUnits& bu, bool soc) {
  const bool all = o.unit == "all";
  BoardPlan plan;
  ProfileOpts& p = o.path;
  RapProfileOpts& rp = p.rap;
  PhaseProfileOpts& ph = p.phase;
  auto missing = [&](const char* what) {
    return std::runtime_error(o.port + ": the board (" + link::board_name(info.board) + ") has no " + what + " unit");
  };
  plan.path = (o.unit == "path" || all) && bu.path;
  plan.rap = (o.unit == "rap" || all) && bu.rap;
  plan.dcr = ((o.unit == "phase" && ph.detector == "dcr") || all) && bu.dcr;
  plan.bbv = ((o.unit == "phase" && ph.detector == "bbv") || all) && bu.bbv;
  if (o.unit == "path" && !bu.path) throw missing("path profiler");
  if (o.unit == "rap" && !bu.rap) throw missing("RAP engine");
  if (o.unit == "phase") {
    if (ph.detector == "path")
      throw std::runtime_error("--detector path: the boards have no path-based phase detector (dcr or bbv)");
    if (ph.detector == "dcr" && !bu.dcr) throw missing("DCR tracker");
    if (ph.detector == "bbv" && !bu.bbv) throw missing("BBV detector");
  }
  if (rp.source == "val") {
    if (!soc && o.unit != "rap")
      throw std::runtime_error("--source val: only with --unit rap (the other units take branch records)");
    plan.vals_only = !soc;
    plan.rap_val = true;
  }
  if (all)
    for (const auto& x : info.units)
      if (x.kind < 1 || x.kind > 6 || x.kind == static_cast<uint8_t>(link::UnitKind::PathPhase))
        std::fprintf(stderr, "hwprof: warning: unit %u (%s) is not read back by this hwprof\n", x.unit,
                     link::unit_kind_name(x.kind));

  // The settings each report uses, as `hwprof profile` derives them.
  if (bu.path) {
    p.unit = "path";
    p.depth = bu.path->params[0];
    p.stack_depth = bu.path->params[1];
    p.max_len = bu.path->params[2];
    p.sets = bu.path->params[3];
    p.ways = bu.path->params[4];
    model::HptCtrl ctrl;
    ctrl.index = model::HptCtrl::parse_index(p.index);
    ctrl.skew = p.skew != 0;
    ctrl.metric = model::HptCtrl::parse_metric(p.metric);
    ctrl.policy = model::HptCtrl::parse_policy(p.policy);
    plan.path_cfg.ppcr = model::Ppcr::preset(p.mode, p.max_ext);
    plan.path_cfg.hpt_ctrl = ctrl.pack();
  }
  if (bu.rap) {
    const model::RapEngineConfig c = link::rap_config_of(*bu.rap);
    rp.board_cfg = c;
    rp.tcam_slice = c.tcam_slice;
    if (plan.rap && rp.nodes > c.cap_max())
      throw std::runtime_error(fmt::format("--nodes {}: the board's RAP engine has {} groups, at most {} nodes "
                                           "(--nodes {})",
                                           rp.nodes, c.groups, c.cap_max(), c.cap_max()));
    plan.rap_cfg.eps_q16 = model::RapParams::q16(rp.eps);
    plan.rap_cfg.node_cap = rp.nodes;
    plan.rap_cfg.merge_first = static_cast<uint32_t>(rp.merge_first);
    plan.rap_cfg.buffer = rp.buffer;
  }
  if (bu.dcr) {
    ph.dcr_params = link::dcr_params_of(*bu.dcr);
  }
  if (bu.bbv) {
    ph.bbv_params = link::bbv_params_of(*bu.bbv);
  }
  plan.interval = ph.interval;
  plan.threshold = ph.threshold;
  return plan;
}

/// Prints the report of `hwprof profile --engine model` of o.path.trace for
/// each unit `plan` reads, with the board's readout in it; `readout` is
/// called when a report first needs it (board run streams the trace then).
/// `extra`: more sections of the --unit all JSON (board soc: "soc").
void print_reports(BoardOpts& o, const Global& g, const BoardPlan& plan,
                   const std::function<const BoardReadout&()>& readout, const nlohmann::json& extra = {}) {
  const bool all = o.unit == "all";
  ProfileOpts& p = o.path;
  RapProfileOpts& rp = p.rap;
  PhaseProfileOpts& ph = p.phase;
  p.engine = "board";
  p.json = o.json;
  rp.engine = ph.engine = "board";
  rp.trace = ph.trace = p.trace;
  rp.json = ph.json = o.json;
  rp.board = [&](const model::RapReplayConfig&) { return readout().rap; };
  auto put_dcr = [&](model::DcrReplayResult& r) {
    const BoardReadout& rd = readout();
    r.records = rd.records;
    r.results = rd.dcr_results;
    const uint64_t stall = r.stats.stall_cycles;  // cycles of a back-to-back feed: the model's
    r.stats = rd.dcr_stats;
    r.stats.stall_cycles = stall;
  };
  auto put_bbv = [&](model::DetectorReplayResult& r) {
    const BoardReadout& rd = readout();
    r.records = rd.records;
    r.intervals = rd.bbv_results;
    const uint32_t stall = r.counters.stall_cycles;  // cycles of a back-to-back feed: the model's
    r.counters = rd.bbv_counters;
    r.counters.stall_cycles = stall;
  };
  const PathEngine path_engine = [&](const ProfilerOptions&, uint64_t, Progress&) { return readout().path; };

  if (!all) {
    if (o.unit == "path") return run_path(p, g, path_engine);
    if (o.unit == "rap") return run_rap(rp, g);
    if (ph.detector == "dcr") ph.board_dcr = put_dcr;
    else ph.board_detector = put_bbv;
    return run_phase(ph, g);
  }
  // --unit all: one JSON (or one text report after another) with a section per unit.
  nlohmann::json j;
  j["unit"] = "all";
  j["engine"] = "board";
  j["trace"] = p.trace;
  nlohmann::json sec;
  bool first = true;
  auto gap = [&] {  // a blank line between the text reports
    if (!o.json && !first) fmt::print("\n");
    first = false;
  };
  if (plan.path) {
    gap();
    p.json_out = o.json ? &sec : nullptr;
    run_path(p, g, path_engine);
    if (o.json) j["path"] = sec;
  }
  if (plan.rap) {
    gap();
    rp.json_out = o.json ? &sec : nullptr;
    run_rap(rp, g);
    if (o.json) j["rap"] = sec;
  }
  if (plan.dcr) {
    gap();
    PhaseProfileOpts d = ph;
    d.detector = "dcr";
    d.board_dcr = put_dcr;
    d.json_out = o.json ? &sec : nullptr;
    run_phase(d, g);
    if (o.json) j["dcr"] = sec;
  }
  if (plan.bbv) {
    gap();
    PhaseProfileOpts d = ph;
    d.detector = "bbv";
    d.board_detector = put_bbv;
    d.json_out = o.json ? &sec : nullptr;
    run_phase(d, g);
    if (o.json) j["bbv"] = sec;
  }
  for (const auto& [k, v] : extra.items()) j[k] = v;
  if (o.json) fmt::print("{}\n", j.dump(1));
}

void run_board(BoardOpts& o, const Global& g) {
  std::unique_ptr<VirtualBoard> vb;
  auto ch = open_port(o, vb);
  BoardLink l(*ch, link_options(o));
  const auto info = l.info();
  const BoardUnits bu = board_units(info);
  const BoardPlan plan = plan_units(o, info, bu, false);
  ProfileOpts& p = o.path;

  // One run on the board (streamed again after a board reset with
  // --retry-reset), shared by every report.
  std::optional<BoardReadout> rd;
  unsigned resets = 0;
  auto run_once = [&](uint64_t total, Progress& prog) -> const BoardReadout& {
    if (rd) return *rd;
    for (;;) {
      try {
        StreamStats ss;
        rd = board_stream(l, bu, plan, p.trace, total, prog, ss);
        prog.finish();
        const auto& c = l.counters();
        if (!g.quiet && ss.seconds > 0) {
          std::fprintf(stderr, "hwprof: board: %llu records streamed in %.3f s: %.0f records/s, %.2f link bytes per "
                       "record; board clock: %u cycles with a record offered, %u with the buffer empty\n",
                       static_cast<unsigned long long>(ss.records), ss.seconds, double(ss.records) / ss.seconds,
                       ss.records ? double(ss.bytes) / double(ss.records) : 0.0, ss.flush.busy_cycles,
                       ss.flush.idle_cycles);
          if (c.result_entries)
            std::fprintf(stderr, "hwprof: board: %llu result entries taken with %llu RESULTS frames\n",
                         static_cast<unsigned long long>(c.result_entries), static_cast<unsigned long long>(c.results));
        }
        if (!g.quiet && (c.retransmissions || c.crc_errors || c.noise_bytes || c.dump_retries))
          std::fprintf(stderr, "hwprof: link: %s\n", c.summary().c_str());
        return *rd;
      } catch (const LinkError& e) {
        if (e.kind != LinkError::Kind::SessionLost || !o.retry_reset || ++resets > 3) throw;
        std::fprintf(stderr, "hwprof: %s; --retry-reset: streaming the trace again\n", e.what());
      }
    }
  };
  // Before any report runs its model: the trace's record count for the progress bar.
  auto stream_now = [&]() -> const BoardReadout& {
    if (rd) return *rd;
    trace::Info ti;
    {
      Progress pv("validate", g.quiet);
      ti = trace::scan(p.trace, [&](uint64_t d, uint64_t t) { pv.update(d, t, "bytes"); });
    }
    const uint64_t vals = ti.kinds[static_cast<int>(trace::Kind::Val)];
    Progress prog("board " + o.unit, g.quiet);
    return run_once(plan.vals_only ? vals : ti.records - vals, prog);
  };

  print_reports(o, g, plan, stream_now);
}

// ------------------------------------------------------------ board soc
// A program on the board's SoC (a SOC=picorv32 build, or sim:ulx3s-soc):
// loaded into its RAM over the link, run, its records fed to the units by
// the board itself (docs/soc.md "The SoC on a board"); the units read back
// as `board run` reads them and reported against the program's retire
// stream as a trace.

constexpr uint32_t kSocRamBase = 0x80000000u;

uint8_t soc_reg(model::SocCsr a) { return static_cast<uint8_t>(a); }

/// STATUS in words (errors name it).
std::string soc_status_text(uint32_t st) {
  std::string t = fmt::format("STATUS {:#010x}:", st);
  if (st & model::kSocStatusRunning) t += " running";
  if (st & model::kSocStatusExited) t += fmt::format(" exited with {}", st >> model::kSocStatusExitCodeLsb);
  if (st & model::kSocStatusTrap) t += fmt::format(" trapped (exit code field {})", st >> model::kSocStatusExitCodeLsb);
  if (st & model::kSocStatusDrained) t += " drained";
  if (st & model::kSocStatusConsole) t += " console";
  if (st & model::kSocStatusErr) t += " err";
  if (!(st & (model::kSocStatusRunning | model::kSocStatusExited | model::kSocStatusTrap))) t += " core in reset";
  return t;
}

/// The ELF's loadable bytes (memsz, zero-filled beyond filesz) as RAM words
/// (word index -> value), checked against the board's SoC: the entry, the
/// RAM's bounds, compressed instructions on an RV32I core.
std::map<uint32_t, uint32_t> soc_image(const std::string& elf, const sim::ElfImage& img, const link::UnitInfo& soc) {
  const uint32_t words = soc.params.at(0);
  const uint64_t ram_bytes = uint64_t{words} * 4;
  if (img.entry != kSocRamBase)
    throw std::runtime_error(fmt::format("{}: entry {:#x}; the SoC's core starts at 0x80000000 (link with "
                                         "sw/link.ld: make soc-elf)", elf, img.entry));
  if (img.rvc() && !soc.params.at(1))
    throw std::runtime_error(elf + ": compressed instructions (EF_RISCV_RVC), the board's PicoRV32 is RV32I "
                                   "(build the program with ARCH=rv32i)");
  std::map<uint32_t, uint32_t> ram;
  for (const auto& [addr, data] : img.segments) {
    if (data.empty()) continue;
    if (addr < kSocRamBase || uint64_t{addr - kSocRamBase} + data.size() > ram_bytes)
      throw std::runtime_error(fmt::format("{}: segment at {:#x} ({} bytes) does not fit the board's RAM "
                                           "(0x80000000, {} bytes: MemWords {})",
                                           elf, addr, data.size(), ram_bytes, words));
    for (size_t i = 0; i < data.size(); ++i) {
      const uint64_t off = uint64_t{addr - kSocRamBase} + i;
      ram[static_cast<uint32_t>(off / 4)] |= uint32_t{data[i]} << (8 * (off % 4));
    }
  }
  return ram;
}

/// Writes the image into the SoC's RAM (LOAD_ADDR at each run of words,
/// then LOAD_DATA per word; the core is in reset after OPEN).
void soc_load(BoardLink& l, const link::UnitInfo& soc, const std::map<uint32_t, uint32_t>& ram, const Global& g) {
  const uint8_t u = soc.unit;
  Progress pr("board soc: load", g.quiet);
  uint64_t n = 0;
  std::optional<uint32_t> next;
  for (const auto& [idx, w] : ram) {
    if (next != idx) l.reg_write(u, soc_reg(model::SocCsr::LoadAddr), idx);
    l.reg_write(u, soc_reg(model::SocCsr::LoadData), w);
    next = idx + 1;
    pr.update(++n, ram.size(), "words");
  }
  pr.finish();
  const uint32_t st = l.reg_read(u, soc_reg(model::SocCsr::Status));
  if (st & model::kSocStatusErr) throw LinkError(LinkError::Kind::Board, "the SoC refused the program (" +
                                                                             soc_status_text(st) + ")");
  const uint32_t at = l.reg_read(u, soc_reg(model::SocCsr::LoadAddr));
  if (next && at != *next % soc.params.at(0))
    throw LinkError(LinkError::Kind::Board, fmt::format("the SoC's LOAD_ADDR is {} after the load, expected {}", at,
                                                        *next % soc.params.at(0)));
}

/// What the SoC unit counted (its registers after the run) and the console.
struct SocRun {
  uint32_t status = 0, cycles = 0, retired = 0, records = 0, dropped = 0, vals = 0, val_dropped = 0, hold = 0;
  std::string console;
  bool exited() const { return status & model::kSocStatusExited; }
  int exit_code() const { return static_cast<int>(status >> model::kSocStatusExitCodeLsb); }
};

/// Starts the core (CTRL) and polls STATUS until the SoC has drained:
/// console characters shown as they come, the phase units' results taken
/// (a unit holding a result stops the SoC's records, and the memory holds
/// the core until the host takes it), progress from RETIRED. Then reads the
/// SoC's counters.
SocRun soc_run(BoardLink& l, const BoardUnits& bu, uint32_t ctrl, unsigned timeout_s, FILE* console,
               BoardReadout& out, const Global& g) {
  const uint8_t u = bu.soc->unit;
  auto rd = [&](model::SocCsr a) { return l.reg_read(u, soc_reg(a)); };
  SocRun r;
  auto drain_console = [&] {
    for (uint32_t c; (c = rd(model::SocCsr::Console)) & model::kSocConsoleValid;) {
      const char ch = static_cast<char>(c & 0xFFu);
      std::fputc(ch, console);
      if (ch == '\n') std::fflush(console);
      r.console += ch;
      l.reg_write(u, soc_reg(model::SocCsr::Console), 0);  // takes it
    }
  };
  l.reg_write(u, soc_reg(model::SocCsr::Ctrl), ctrl);
  Progress pr("board soc: run", g.quiet);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto last = t0;
  for (;;) {
    r.status = rd(model::SocCsr::Status);
    if (r.status & model::kSocStatusErr)
      throw LinkError(LinkError::Kind::Board, "the SoC reports an error (" + soc_status_text(r.status) + ")");
    if (!(r.status & (model::kSocStatusRunning | model::kSocStatusExited | model::kSocStatusTrap)))
      throw LinkError(LinkError::Kind::Board, "the SoC's core did not start (" + soc_status_text(r.status) + ")");
    if (r.status & model::kSocStatusConsole) drain_console();
    take_results(l, bu, out);
    if (r.status & model::kSocStatusDrained) break;
    const auto now = clock::now();
    if (now - t0 > std::chrono::seconds(timeout_s))
      throw std::runtime_error(fmt::format("the program did not finish within {} s (--run-timeout): last {}, {} "
                                           "instructions retired",
                                           timeout_s, soc_status_text(r.status), rd(model::SocCsr::Retired)));
    if (now - last >= std::chrono::seconds(1)) {
      pr.update(rd(model::SocCsr::Retired), 0, "instructions");
      last = now;
    }
  }
  drain_console();
  std::fflush(console);
  pr.finish();
  r.cycles = rd(model::SocCsr::Cycles);
  r.retired = rd(model::SocCsr::Retired);
  r.records = rd(model::SocCsr::Records);
  r.dropped = rd(model::SocCsr::Dropped);
  r.vals = rd(model::SocCsr::Vals);
  r.val_dropped = rd(model::SocCsr::ValDropped);
  r.hold = rd(model::SocCsr::HoldCycles);
  if (r.status & model::kSocStatusTrap)
    throw std::runtime_error(fmt::format("the program trapped after {} instructions ({}); no profile read",
                                         r.retired, soc_status_text(r.status)));
  return r;
}

/// Waits until every unit has taken every record the SoC made (there is no
/// FLUSH for the board's own records; the broadcast waits for the slowest
/// unit, a phase unit holding a result stops it), taking the results
/// meanwhile: `branches` branch records, `rap_events` RAP events.
void soc_wait_units(BoardLink& l, const BoardUnits& bu, uint64_t branches, uint64_t rap_events,
                    BoardReadout& out) {
  const uint32_t b = model::sat32(branches), e = model::sat32(rap_events);
  auto rd = [&](const link::UnitInfo* u, auto a) { return l.reg_read(u->unit, static_cast<uint8_t>(a)); };
  for (unsigned guard = 0;; ++guard) {
    take_results(l, bu, out);
    if ((!bu.path || rd(bu.path, model::PathCsr::Records) == b) &&
        (!bu.dcr || rd(bu.dcr, model::DcrCsr::Records) == b) && (!bu.bbv || rd(bu.bbv, model::DetCsr::Records) == b) &&
        (!bu.rap || rd(bu.rap, model::RapCsr::Raw) == e))
      return;
    if (guard > 10000)
      throw LinkError(LinkError::Kind::Board, fmt::format("the units did not take the SoC's {} records ({} RAP "
                                                          "events)", branches, rap_events));
  }
}

/// Removes a temporary trace and its load map.
struct TempTrace {
  std::string path;
  ~TempTrace() {
    if (path.empty()) return;
    std::error_code ec;
    std::filesystem::remove(path, ec);
    std::filesystem::remove(path + ".map", ec);
  }
};

void run_board_soc(BoardOpts& o, const Global& g) {
  ProfileOpts& p = o.path;
  const sim::ElfImage img = sim::load_elf32(o.elf);  // not an ELF, not RV32: a clear error before the board
  const bool rap_val = p.rap.source == "val";
  if (rap_val && o.soc_trace.empty())
    throw std::runtime_error("--source val needs --trace T with the val records (hwprof soc run --source val ELF "
                             "-o T); qemu records the branch records only");
  std::unique_ptr<VirtualBoard> vb;
  auto ch = open_port(o, vb);
  BoardLink l(*ch, link_options(o));
  const auto info = l.info();
  const BoardUnits bu = board_units(info);
  if (!bu.soc)
    throw std::runtime_error(o.port + ": the board (" + std::string(link::board_name(info.board)) +
                             ") has no SoC unit (a `make fpga BOARD=ulx3s SOC=picorv32` build, or sim:ulx3s-soc)");
  const auto ram = soc_image(o.elf, img, *bu.soc);
  const BoardPlan plan = plan_units(o, info, bu, true);
  const unsigned ev_sel = o.events == "mem" ? 0 : o.events == "loads" ? 1 : 2;

  // The program's retire stream: --trace, else recorded with qemu now.
  TempTrace temp;
  std::string qemu_console;
  p.trace = o.soc_trace;
  if (p.trace.empty()) {
    temp.path = (std::filesystem::temp_directory_path() / fmt::format("hwprof_board_soc_{}.hwpt.zst", ::getpid()))
                    .string();
    p.trace = temp.path;
    if (!g.quiet)
      std::fprintf(stderr, "hwprof: board soc: no --trace: recording the program's retire stream with %s into a "
                   "temporary file\n", o.qemu.c_str());
    QemuOpts q;
    q.elf = o.elf;
    q.output = temp.path;
    q.qemu = o.qemu;
    q.events = o.events;
    q.who = "board soc (qemu)";
    q.uart = &qemu_console;
    try {
      record_system_elf(q, g);
    } catch (const Exit&) {
      // The program exited non-zero under qemu (said on stderr); the trace
      // is written, and the board's run reports the exit code.
    }
  }
  trace::Info ti;
  {
    Progress pv("validate", g.quiet);
    ti = trace::scan(p.trace, [&](uint64_t d, uint64_t t) { pv.update(d, t, "bytes"); });
  }
  const uint64_t trace_vals = ti.kinds[static_cast<int>(trace::Kind::Val)];
  const uint64_t trace_branches = ti.records - trace_vals;
  uint64_t trace_insns = 0;  // from the load map, when there is one
  if (std::filesystem::exists(p.trace + ".map")) trace_insns = record::LoadMap::read(p.trace + ".map").instructions;

  // The board: OPEN, the units programmed, the program loaded and run.
  BoardReadout out;
  const int64_t t0 = l.now_us();
  l.open();
  program_units(l, bu, plan);
  soc_load(l, *bu.soc, ram, g);
  const double load_s = double(l.now_us() - t0) * 1e-6;
  const uint32_t ctrl = model::kSocCtrlRun | ev_sel << model::kSocCtrlEvSelLsb | (rap_val ? model::kSocCtrlRapVal : 0);
  FILE* console = o.json ? stderr : stdout;
  const SocRun r = soc_run(l, bu, ctrl, o.run_timeout_s, console, out, g);
  out.records = r.records;
  const uint64_t rap_events = rap_val ? r.vals : (r.records ? r.records - 1 : 0);
  soc_wait_units(l, bu, r.records, rap_events, out);
  read_back(l, bu, plan, r.records, rap_events, out);
  if (!g.quiet) {
    std::fprintf(stderr, "hwprof: board soc: %s: %zu words loaded in %.1f s; %s after %u cycles: %u instructions "
                 "retired, %u branch records, %u val records; the memory held the core %u cycles\n",
                 o.elf.c_str(), ram.size(), load_s,
                 r.exited() ? fmt::format("exited with {}", r.exit_code()).c_str() : "stopped", r.cycles, r.retired,
                 r.records, r.vals, r.hold);
    const auto& c = l.counters();
    if (c.retransmissions || c.crc_errors || c.noise_bytes || c.dump_retries)
      std::fprintf(stderr, "hwprof: link: %s\n", c.summary().c_str());
  }
  if (r.dropped || r.val_dropped)
    std::fprintf(stderr, "hwprof: board soc: warning: the ingress dropped %u branch and %u val records: the hardware "
                 "profile misses them\n", r.dropped, r.val_dropped);

  // The trace must be this run's retire stream.
  const std::string fix = temp.path.empty() ? " (write it with `hwprof soc run ELF -o T` with the same --events)" : "";
  if (static_cast<uint32_t>(trace_branches) != r.records)
    throw std::runtime_error(fmt::format("{}: {} branch records, the board's SoC made {} (RECORDS): the trace is not "
                                         "this program's retire stream{}", p.trace, trace_branches, r.records, fix));
  if (rap_val && static_cast<uint32_t>(trace_vals) != r.vals)
    throw std::runtime_error(fmt::format("{}: {} val records, the board's SoC made {} (VALS){}", p.trace, trace_vals,
                                         r.vals, fix));
  if (trace_insns && static_cast<uint32_t>(trace_insns) != r.retired)
    throw std::runtime_error(fmt::format("{}: {} instructions (its load map), the board's SoC retired {} (RETIRED): "
                                         "the trace is not this program's retire stream{}",
                                         p.trace, trace_insns, r.retired, fix));
  if (!temp.path.empty() && qemu_console != r.console)
    throw std::runtime_error(fmt::format("the program's console output on the board ({} characters) differs from "
                                         "its output under qemu ({} characters)",
                                         r.console.size(), qemu_console.size()));

  nlohmann::json extra;
  if (o.unit == "all")
    extra["soc"] = {{"elf", o.elf},
                    {"trace_from", temp.path.empty() ? "file" : "qemu"},
                    {"exited", r.exited()},
                    {"exit_code", r.exit_code()},
                    {"cycles", r.cycles},
                    {"retired", r.retired},
                    {"records", r.records},
                    {"vals", r.vals},
                    {"dropped", r.dropped},
                    {"val_dropped", r.val_dropped},
                    {"hold_cycles", r.hold},
                    {"words_loaded", ram.size()}};
  print_reports(o, g, plan, [&]() -> const BoardReadout& { return out; }, extra);
  if (r.exit_code() != 0) {
    std::fprintf(stderr, "hwprof: board soc: the program exited with %d\n", r.exit_code());
    throw Exit{1};
  }
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

  // The unit options of `board run` and `board soc` (those of `hwprof
  // profile --unit path|rap|phase`); returns --top (its count says whether
  // it was given).
  auto unit_options = [o](CLI::App* c) {
    c->add_option("--unit", o->unit, "unit to read back: path (the path profiler), rap (the RAP engine), phase "
                                    "(--detector dcr or bbv) or all (every unit of the board, one report each)")
        ->check(CLI::IsMember({"path", "rap", "phase", "all"}))
        ->capture_default_str();
    ProfileOpts& p = o->path;
    c->add_option("--mode", p.mode, "path: paths to detect, bl, wpp or ext (PPCR)")
        ->check(CLI::IsMember({"bl", "wpp", "ext"}))
        ->capture_default_str();
    c->add_option("--max-ext", p.max_ext, "path, ext mode: back edges a path may span")
        ->check(CLI::Range(0u, 3u))
        ->capture_default_str();
    c->add_option("--policy", p.policy, "path: HPT replacement policy: lfu, ss, erode")
        ->check(CLI::IsMember({"lfu", "ss", "erode"}))
        ->capture_default_str();
    c->add_option("--index", p.index, "path: HPT index fold: plb or pb")
        ->check(CLI::IsMember({"plb", "pb"}))
        ->capture_default_str();
    c->add_option("--skew", p.skew, "path: 1 = skewed index, 0 = set-associative")
        ->check(CLI::Range(0u, 1u))
        ->capture_default_str();
    c->add_option("--metric", p.metric, "path: HPT accumulator metric: freq, events or insns")
        ->check(CLI::IsMember({"freq", "events", "insns"}))
        ->capture_default_str();
    auto* top = c->add_option("--top", p.top, "path: show the N hottest HPT entries (0 = all; default 20 in the "
                                              "text report, all with --json)");
    add_rap_options(c, p.rap);
    add_phase_options(c, p.phase);
    return top;
  };
  auto* run = b->add_subcommand("run", "stream a trace to the board and print the units' report, as "
                                       "`hwprof profile --engine model` with the board's parameters");
  common(run);
  auto* top = unit_options(run);
  run->add_flag("--retry-reset", o->retry_reset,
                "when the board is reset mid-run (session lost), open a new session and stream the trace again");
  run->add_option("TRACE", o->path.trace, "trace file (any supported format)")->required();
  run->callback([o, top, &g] {
    o->path.top_given = top->count() > 0;
    run_board(*o, g);
  });

  auto* soc = b->add_subcommand("soc", "load a RISC-V program into the board's SoC (a SOC=picorv32 build), run it "
                                       "and print the units' report, as `hwprof profile --engine model` of its "
                                       "retire stream");
  common(soc);
  auto* soc_top = unit_options(soc);
  soc->add_option("ELF", o->elf, "RV32 ELF linked for the SoC (make soc-elf SRC=prog.c)")
      ->required()
      ->check(CLI::ExistingFile);
  soc->add_option("--trace", o->soc_trace, "the program's retire stream (hwprof soc run ELF -o T); default: "
                                           "recorded with qemu-system-riscv32 into a temporary file")
      ->check(CLI::ExistingFile);
  soc->add_option("--qemu", o->qemu, "qemu-system-riscv32 binary (without --trace)")->capture_default_str();
  soc->add_option("--events", o->events, "ingress events (CTRL.ev_sel): mem (loads and stores), loads, stores")
      ->check(CLI::IsMember({"mem", "loads", "stores"}))
      ->capture_default_str();
  soc->add_option("--run-timeout", o->run_timeout_s, "seconds (wall clock) the program may run before the run fails")
      ->check(CLI::Range(1u, 86400u))
      ->capture_default_str();
  soc->callback([o, soc_top, &g] {
    o->path.top_given = soc_top->count() > 0;
    run_board_soc(*o, g);
  });

  auto* sim = b->add_subcommand("sim", "start the SystemC virtual board, print its pseudo-terminal and serve "
                                       "until interrupted");
  sim->add_option("BOARD", o->board, "board to model: virtual (the path-profiler build), ulx3s (path, RAP, "
                                     "DCR, BBV; 3000000 baud) or ulx3s-soc (the same with the PicoRV32 SoC)")
      ->required();
  sim->add_option("--baud", o->sim_baud, "line rate: 3000000 or 115200")
      ->check(CLI::IsMember({3000000u, 115200u}))
      ->capture_default_str();
  sim->callback([o] {
    if (!known_vboard(o->board))
      throw std::runtime_error("board sim " + o->board +
                               ": the SystemC virtual board models `virtual` (the path-profiler build), `ulx3s` and "
                               "`ulx3s-soc`");
    if (o->board != "virtual" && o->sim_baud != 3000000)
      throw std::runtime_error("board sim " + o->board + ": built for --baud 3000000 only");
    const std::string exe = vboard_path();
    const std::string b = std::to_string(o->sim_baud);
    std::fflush(stdout);
    ::execlp(exe.c_str(), exe.c_str(), "--board", o->board.c_str(), "--baud", b.c_str(),
             static_cast<char*>(nullptr));
    throw std::runtime_error("cannot run the virtual board " + exe + ": " + std::strerror(errno));
  });
}

}  // namespace hwprof::cli
