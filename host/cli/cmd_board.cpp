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
#include <cstdlib>
#include <cstring>
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
    if (board != "virtual" && board != "ulx3s")
      throw std::runtime_error("sim:" + board + ": the SystemC virtual board models the path-profiler build "
                               "(sim:virtual) and the ULX3S build (sim:ulx3s)");
    if (board == "ulx3s" && baud != 3000000)
      throw std::runtime_error("sim:ulx3s: the virtual ULX3S is built for 3000000 baud only");
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
    if (u.kind == static_cast<uint8_t>(link::UnitKind::PathProfiler))
      ps = fmt::format("queue {}, stack {}, MaxLen {}, HPT {}x{}, AddrW {}", u.params.at(0), u.params.at(1),
                       u.params.at(2), u.params.at(3), u.params.at(4), u.params.at(5));
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
};

/// What one run reads back from the board: every unit the report needs.
struct BoardReadout {
  ProfilerRun path;
  model::RapReplayResult rap;
  std::vector<model::DcrResult> dcr_results;
  model::DcrTracker::Stats dcr_stats;
  std::vector<model::DetectorResult> bbv_results;
  model::DetectorCounters bbv_counters;
  uint64_t records = 0;      ///< records streamed (branch records, or val records for --source val)
  uint64_t rap_events = 0;   ///< RAP events those records make
};

/// What to program and read: the path profiler's PPCR / HPT CTRL, the RAP
/// replay settings, the phase units' INTERVAL / THRESHOLD.
struct BoardPlan {
  bool path = false, rap = false, dcr = false, bbv = false;
  bool vals_only = false;  ///< rap --source val: stream the val records only
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
  // Program the units (REG_WRITE after OPEN, which reset them).
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
  // Takes every result the units offer now.
  auto take_results = [&] {
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
  };
  const bool has_results = bu.dcr || bu.bbv;

  const int64_t t0 = l.now_us();
  const uint64_t b0 = l.counters().bytes_sent;
  const uint64_t sent = l.send_records(
      link_source(trace, aw, plan.vals_only, !plan.vals_only), aw, [&](uint64_t n) { p.update(n, total, "records"); },
      has_results ? std::function<void()>(take_results) : std::function<void()>());
  if (has_results) {
    // Every record into the units: results are taken until the buffer and
    // the decoder are empty (ACK status bit 1), else FLUSH would wait for a
    // unit that waits for the host.
    for (unsigned guard = 0;; ++guard) {
      take_results();
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
  const uint32_t want = static_cast<uint32_t>(std::min<uint64_t>(sent, 0xFFFFFFFFu));

  // The phase units: the last interval's result (if any) and the counters.
  if (bu.dcr) {
    const uint8_t u = bu.dcr->unit;
    auto rd = [&](model::DcrCsr a) { return l.reg_read(u, static_cast<uint8_t>(a)); };
    for (unsigned guard = 0;; ++guard) {
      take_results();
      if (!(rd(model::DcrCsr::Status) & 2u)) break;
      if (guard > 10000) throw LinkError(LinkError::Kind::Board, "the DCR tracker did not drain (STATUS.busy)");
    }
    out.dcr_stats = model::read_dcr_stats(rd);
  }
  if (bu.bbv) {
    const uint8_t u = bu.bbv->unit;
    auto rd = [&](model::DetCsr a) { return l.reg_read(u, static_cast<uint8_t>(a)); };
    const uint32_t fed = plan.vals_only ? 0 : want;
    for (unsigned guard = 0;; ++guard) {
      take_results();
      if (rd(model::DetCsr::Records) == fed &&
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
  if (has_results && (out.dcr_results.size() != out.dcr_stats.intervals ||
                      out.bbv_results.size() != out.bbv_counters.intervals))
    throw LinkError(LinkError::Kind::Protocol,
                    fmt::format("results lost: {} DCR and {} BBV results taken, the units answered {} and {} intervals",
                                out.dcr_results.size(), out.bbv_results.size(), out.dcr_stats.intervals,
                                out.bbv_counters.intervals));

  // The RAP engine: every event out of its queue, the merging buffer
  // flushed, idle; then its counters and the dump (as replay_rap does).
  if (bu.rap && plan.rap) {
    const uint8_t u = bu.rap->unit;
    auto rd = [&](model::RapCsr a) { return l.reg_read(u, static_cast<uint8_t>(a)); };
    const uint64_t events = plan.vals_only ? sent : (sent ? sent - 1 : 0);
    out.rap_events = events;
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
  return out;
}

BoardUnits board_units(const link::BoardInfo& info) {
  BoardUnits b;
  b.path = find_unit(info, link::UnitKind::PathProfiler);
  b.rap = find_unit(info, link::UnitKind::Rap);
  b.dcr = find_unit(info, link::UnitKind::Dcr);
  b.bbv = find_unit(info, link::UnitKind::Bbv);
  auto need = [](const link::UnitInfo* u, size_t n, const char* what) {
    if (u && u->params.size() != n)
      throw LinkError(LinkError::Kind::WrongBoard, fmt::format("{} unit with {} parameters (expected {})", what,
                                                               u->params.size(), n));
  };
  need(b.path, 6, "path profiler");
  need(b.rap, 7, "RAP engine");
  need(b.dcr, 4, "DCR tracker");
  need(b.bbv, 6, "BBV detector");
  return b;
}

void run_board(BoardOpts& o, const Global& g) {
  std::unique_ptr<VirtualBoard> vb;
  auto ch = open_port(o, vb);
  BoardLink l(*ch, link_options(o));
  const auto info = l.info();
  const BoardUnits bu = board_units(info);
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
    if (o.unit != "rap")
      throw std::runtime_error("--source val: only with --unit rap (the other units take branch records)");
    plan.vals_only = true;
  }
  if (all)
    for (const auto& x : info.units)
      if (x.kind < 1 || x.kind > 4)
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
  auto stream_now = [&] {
    if (rd) return;
    trace::Info ti;
    {
      Progress pv("validate", g.quiet);
      ti = trace::scan(p.trace, [&](uint64_t d, uint64_t t) { pv.update(d, t, "bytes"); });
    }
    const uint64_t vals = ti.kinds[static_cast<int>(trace::Kind::Val)];
    Progress prog("board " + o.unit, g.quiet);
    run_once(plan.vals_only ? vals : ti.records - vals, prog);
  };

  p.engine = "board";
  p.json = o.json;
  rp.engine = ph.engine = "board";
  rp.trace = ph.trace = p.trace;
  rp.json = ph.json = o.json;
  rp.board = [&](const model::RapReplayConfig&) {
    stream_now();
    return rd->rap;
  };
  auto put_dcr = [&](model::DcrReplayResult& r) {
    stream_now();
    r.records = rd->records;
    r.results = rd->dcr_results;
    const uint64_t stall = r.stats.stall_cycles;  // cycles of a back-to-back feed: the model's
    r.stats = rd->dcr_stats;
    r.stats.stall_cycles = stall;
  };
  auto put_bbv = [&](model::DetectorReplayResult& r) {
    stream_now();
    r.records = rd->records;
    r.intervals = rd->bbv_results;
    const uint32_t stall = r.counters.stall_cycles;  // cycles of a back-to-back feed: the model's
    r.counters = rd->bbv_counters;
    r.counters.stall_cycles = stall;
  };
  const PathEngine path_engine = [&](const ProfilerOptions&, uint64_t, Progress&) {
    stream_now();
    return rd->path;
  };

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
  if (o.json) fmt::print("{}\n", j.dump(1));
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
  run->add_option("--unit", o->unit, "unit to read back: path (the path profiler), rap (the RAP engine), phase "
                                    "(--detector dcr or bbv) or all (every unit of the board, one report each)")
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
  add_rap_options(run, p.rap);
  add_phase_options(run, p.phase);
  run->add_flag("--retry-reset", o->retry_reset,
                "when the board is reset mid-run (session lost), open a new session and stream the trace again");
  run->add_option("TRACE", p.trace, "trace file (any supported format)")->required();
  run->callback([o, top, &g] {
    o->path.top_given = top->count() > 0;
    run_board(*o, g);
  });

  auto* sim = b->add_subcommand("sim", "start the SystemC virtual board, print its pseudo-terminal and serve "
                                       "until interrupted");
  sim->add_option("BOARD", o->board, "board to model: virtual (the path-profiler build) or ulx3s (path, RAP, "
                                     "DCR, BBV; 3000000 baud)")
      ->required();
  sim->add_option("--baud", o->sim_baud, "line rate: 3000000 or 115200")
      ->check(CLI::IsMember({3000000u, 115200u}))
      ->capture_default_str();
  sim->callback([o] {
    if (o->board != "virtual" && o->board != "ulx3s")
      throw std::runtime_error("board sim " + o->board +
                               ": the SystemC virtual board models `virtual` (the path-profiler build) and `ulx3s`");
    if (o->board == "ulx3s" && o->sim_baud != 3000000)
      throw std::runtime_error("board sim ulx3s: built for --baud 3000000 only");
    const std::string exe = vboard_path();
    const std::string b = std::to_string(o->sim_baud);
    std::fflush(stdout);
    ::execlp(exe.c_str(), exe.c_str(), "--board", o->board.c_str(), "--baud", b.c_str(),
             static_cast<char*>(nullptr));
    throw std::runtime_error("cannot run the virtual board " + exe + ": " + std::strerror(errno));
  });
}

}  // namespace hwprof::cli
