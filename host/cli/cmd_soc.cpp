// hwprof soc run: a RISC-V program on the simulated SoC (PicoRV32 with the
// RVFI ingress, the path profiler, the RAP engine, the DCR tracker and the
// BBV detector beside it, sim/soc/, docs/soc.md). Runs the ELF to its exit
// showing its UART output, writes the retire stream as a hwprof trace with a
// load map naming the ELF, reads the units back through their dump and
// result ports and registers and prints them with the reports of
// `hwprof profile --unit path|rap|phase` (the JSON of `hwprof profile
// --engine model` of the trace but for "engine": "soc"; --unit all: one
// section per unit, as `hwprof board run --unit all`).
// hwprof soc qemu / hwprof record of a bare-metal RV32 ELF: the independent
// observer on qemu-system-riscv32 (record_system_elf(), soc_qemu.h).
#include <fcntl.h>
#include <fmt/core.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "commands.h"
#include "hpt_algo.h"
#include "loadmap.h"
#include "path_stack_algo.h"
#include "profile_opts.h"
#include "rap_engine.h"
#include "soc_qemu.h"
#include "rvfi_ingress.h"
#include "soc_sim.h"
#include "trace.h"

#include <nlohmann/json.hpp>

namespace hwprof::cli {

namespace {

struct SocOpts {
  std::string elf;
  std::string unit = "path";
  std::string output;  ///< trace; empty: a temporary file, removed afterwards
  std::string events = "mem";
  std::string core = "auto";
  uint64_t max_cycles = 500000000;
  ProfileOpts path;
};

// ------------------------------------------------------------ soc qemu
// The independent observer (docs/soc.md): the same ELF on qemu-system-riscv32
// -M virt (RAM at 0x80000000, UART at 0x10000000 and the sifive_test exit at
// 0x100000, the SoC's map), every executed instruction logged (-singlestep -d
// exec,nochain) through a FIFO; each pc and the next one make one RVFI-like
// retirement (instruction word from the ELF, loads and stores from the
// opcode), fed to the ingress' functional algorithm (RvfiRecorder). qemu's
// reset ROM at 0x1000 is skipped: recording starts at the ELF's entry.

// RVFI's memory masks of an instruction as PicoRV32 reports them for aligned
// accesses: loads read (rmask != 0), stores write (wmask != 0).
void mem_masks(uint32_t insn, model::RvfiRetire& r) {
  const uint32_t q = insn & 3;
  if (q == 3) {
    const uint32_t op = insn & 0x7f;
    if (op == 0x03 || op == 0x07) r.mem_rmask = 0xf;
    if (op == 0x23 || op == 0x27) r.mem_wmask = 0xf;
    return;
  }
  const uint32_t f3 = (insn >> 13) & 7;
  if ((q == 0 || q == 2) && (f3 == 1 || f3 == 2 || f3 == 3)) r.mem_rmask = 0xf;  // c.fld/c.lw/c.flw (sp forms)
  if ((q == 0 || q == 2) && (f3 == 5 || f3 == 6 || f3 == 7)) r.mem_wmask = 0xf;  // c.fsd/c.sw/c.fsw (sp forms)
}

}  // namespace

bool is_rv32_elf(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  unsigned char h[20] = {};
  if (!f.read(reinterpret_cast<char*>(h), sizeof h)) return false;
  // ELF magic, ELFCLASS32, ELFDATA2LSB, e_machine EM_RISCV (243)
  return h[0] == 0x7f && h[1] == 'E' && h[2] == 'L' && h[3] == 'F' && h[4] == 1 && h[5] == 1 &&
         (h[18] | h[19] << 8) == 243;
}

void record_system_elf(const QemuOpts& o, const Global& g) {
  const sim::ElfImage img = sim::load_elf32(o.elf);
  std::map<uint32_t, const std::vector<uint8_t>*> segs;
  for (const auto& [a, d] : img.segments) segs[a] = &d;
  auto fetch = [&](uint32_t pc, uint32_t& insn) {
    auto it = segs.upper_bound(pc);
    if (it == segs.begin()) return false;
    --it;
    const auto& d = *it->second;
    const uint32_t off = pc - it->first;
    if (off + 2 > d.size()) return false;
    insn = uint32_t(d[off]) | uint32_t(d[off + 1]) << 8;
    if ((insn & 3) == 3) {
      if (off + 4 > d.size()) return false;
      insn |= uint32_t(d[off + 2]) << 16 | uint32_t(d[off + 3]) << 24;
    }
    return true;
  };

  const auto dir = std::filesystem::temp_directory_path() / fmt::format("hwprof_qemu_{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "log").string(), uart = (dir / "uart").string();
  if (::mkfifo(fifo.c_str(), 0600) != 0) throw std::runtime_error("mkfifo " + fifo + ": " + std::strerror(errno));
  std::vector<std::string> args = {o.qemu, "-M", "virt", "-bios", "none", "-kernel", o.elf, "-display", "none",
                                   "-monitor", "none", "-serial", "file:" + uart, "-singlestep", "-d",
                                   "exec,nochain", "-D", fifo};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawnp(&pid, o.qemu.c_str(), nullptr, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error(o.qemu + ": cannot start (install qemu-system-misc: make deps-apt)");
  std::ifstream log(fifo);

  trace::Format fmt_;
  bool compress = false;
  trace::format_from_name(o.output, fmt_, compress);
  trace::Writer w(o.output, fmt_, compress, "riscv32");
  model::RvfiRecorder rec;
  const auto ev = static_cast<model::RvfiEvents>(o.events == "mem" ? 0 : o.events == "loads" ? 1 : 2);
  bool started = false, have_prev = false;
  uint32_t prev = 0;
  uint64_t retired = 0, records = 0, order = 0;
  std::string line;
  auto retire = [&](uint32_t pc, uint32_t next) {
    model::RvfiRetire r;
    r.valid = true;
    r.order = order++;
    if (!fetch(pc, r.insn)) throw std::runtime_error(fmt::format("qemu executed {:#x}, outside the ELF", pc));
    r.pc_rdata = pc;
    r.pc_wdata = next;
    mem_masks(r.insn, r);
    ++retired;
    model::BranchRecord b;
    if (!rec.retire(r, ev, b)) return;
    trace::Record t;
    t.kind = static_cast<trace::Kind>(b.kind);
    t.pc = b.pc;
    t.target = b.target;
    t.taken = b.taken;
    t.ilen = b.ilen;
    t.insns = b.insns;
    t.events = b.events;
    w.write(t);
    ++records;
  };
  while (std::getline(log, line)) {
    if (line.rfind("Trace ", 0) != 0) continue;
    const auto lb = line.find('[');
    const auto s1 = line.find('/', lb);
    if (lb == std::string::npos || s1 == std::string::npos) continue;
    const uint32_t pc = static_cast<uint32_t>(std::stoul(line.substr(s1 + 1, 8), nullptr, 16));
    if (!started) {
      if (pc != img.entry) continue;
      started = true;
    }
    if (have_prev) retire(prev, pc);
    prev = pc;
    have_prev = true;
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  // The last instruction (the exit store) retires without a successor.
  if (have_prev) retire(prev, prev + 4);
  w.commit();
  std::ifstream u(uart);
  const std::string out((std::istreambuf_iterator<char>(u)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  if (o.uart) *o.uart = out;
  else std::fputs(out.c_str(), stdout);
  record::LoadMap map;
  map.isa = "riscv32";
  map.trace = std::filesystem::path(o.output).filename().string();
  map.argv = {o.elf};
  map.qemu_version = o.qemu;
  map.first_pc = img.entry;
  map.instructions = retired;
  map.add(o.elf, std::filesystem::absolute(o.elf).string(), "main", record::read_elf(o.elf), 0, 0);
  map.objects.back().insns = retired;
  map.write(o.output + ".map");
  if (!g.quiet)
    fmt::print(stderr, "hwprof: {}: {}: {} instructions, {} branch records -> {}\n", o.who, o.elf, retired, records,
               o.output);
  if (!started) throw std::runtime_error(o.qemu + " never reached the entry point of " + o.elf);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fmt::print(stderr, "hwprof: {}: qemu ended with status {:#x} (the program exited non-zero?)\n", o.who, status);
    throw Exit{1};
  }
}

namespace {

// The SoC's readout in the form run_path() prints (as run_rtl does); cycles
// stay 0 so that the JSON equals the model's but for "engine".
ProfilerRun to_profiler_run(const sim::SocResult& r) {
  const auto& p = r.profile;
  ProfilerRun run;
  for (const auto& d : p.entries) run.entries.push_back({true, d.key, d.acc});
  run.stats = {p.hpt.descs, p.hpt.hits,    p.hpt.fills,  p.hpt.replacements,
               p.hpt.rejects, p.hpt.saturations, p.hpt.ignored};
  run.frontend.records = p.frontend.records;
  run.frontend.emitted = p.frontend.emitted;
  run.frontend.incomplete = p.frontend.incomplete;
  run.frontend.splits = p.frontend.splits;
  run.frontend.overflows = p.frontend.overflows;
  run.frontend.empty_pops = p.frontend.empty_pops;
  return run;
}

void run(SocOpts& o, const Global& g) {
  if (!sim::soc_available()) throw std::runtime_error(sim::soc_unavailable_reason());
  const bool all = o.unit == "all";
  ProfileOpts& p = o.path;
  RapProfileOpts& rp = p.rap;
  PhaseProfileOpts& ph = p.phase;
  const sim::SocParams par = sim::soc_params();
  if (o.unit == "phase" && ph.detector == "path")
    throw std::runtime_error("--detector path: the SoC carries the DCR tracker and the BBV detector (dcr or bbv)");
  p.unit = "path";
  p.engine = "soc";
  p.depth = par.queue_depth;
  p.stack_depth = par.depth;
  p.max_len = par.max_len;
  p.sets = par.sets;
  p.ways = par.ways;
  // The RAP engine's and the phase units' builds; their settings checked as
  // `hwprof profile` checks them, before the run.
  rp.board_cfg = par.rap;
  rp.tcam_slice = par.rap.tcam_slice;
  ph.dcr_params = par.dcr;
  ph.bbv_params = par.bbv;
  if (rp.source != "code" && rp.source != "val")
    throw std::runtime_error(fmt::format("--source {}: must be code or val", rp.source));
  if (rp.nodes < 1 || rp.nodes > par.rap.cap_max())
    throw std::runtime_error(fmt::format("--nodes {}: the SoC's RAP engine has {} groups: 1..{} nodes", rp.nodes,
                                         par.rap.groups, par.rap.cap_max()));
  if (rp.buffer > model::kRapBufMaxDepth)
    throw std::runtime_error(fmt::format("--buffer {}: must be 0..{}", rp.buffer, model::kRapBufMaxDepth));
  if (rp.merge_first < 1 || rp.merge_first > 0xffffffffu)
    throw std::runtime_error(fmt::format("--merge-first {}: must be 1..4294967295", rp.merge_first));
  sim::SocConfig cfg;
  try {
    cfg.rap.eps_q16 = model::RapParams::q16(rp.eps);
  } catch (const std::exception&) {
    throw std::runtime_error(fmt::format("--eps {}: must be in [0, 1)", rp.eps));
  }
  cfg.rap.node_cap = rp.nodes;
  cfg.rap.merge_first = static_cast<uint32_t>(rp.merge_first);
  cfg.rap.buffer = rp.buffer;
  cfg.rap_val = rp.source == "val";
  if (ph.interval < 1) throw std::runtime_error("--interval 0: must be >= 1");
  if (!par.bbv.legal_threshold(ph.threshold))
    throw std::runtime_error(fmt::format("--threshold {}: must be 1..{}", ph.threshold, 1u << (par.bbv.sig_w + 1)));
  cfg.interval = ph.interval;
  cfg.threshold = ph.threshold;

  // The trace: -o, else a temporary file.
  bool temp = false;
  if (o.output.empty()) {
    const auto dir = std::filesystem::temp_directory_path();
    o.output = (dir / fmt::format("hwprof_soc_{}.hwpt.zst", ::getpid())).string();
    temp = true;
  }
  p.trace = o.output;
  trace::Format fmt_;
  bool compress = false;
  trace::format_from_name(o.output, fmt_, compress);
  auto writer = std::make_unique<trace::Writer>(o.output, fmt_, compress, "riscv32");

  model::HptCtrl ctrl;
  ctrl.index = model::HptCtrl::parse_index(p.index);
  ctrl.skew = p.skew != 0;
  ctrl.metric = model::HptCtrl::parse_metric(p.metric);
  ctrl.policy = model::HptCtrl::parse_policy(p.policy);
  cfg.ppcr = model::Ppcr::preset(p.mode, p.max_ext);
  cfg.hpt_ctrl = ctrl.pack();
  cfg.ev_sel = o.events == "mem" ? 0 : o.events == "loads" ? 1 : 2;
  cfg.max_cycles = o.max_cycles;
  cfg.core = o.core;
  cfg.sim = sim_options(p.wave);
  // UART output goes to stdout, or to stderr when stdout carries the JSON.
  FILE* console = p.json ? stderr : stdout;
  cfg.on_uart = [console](char c) {
    std::fputc(c, console);
    if (c == '\n') std::fflush(console);
  };
  cfg.on_record = [&](const model::BranchRecord& b) {
    trace::Record r;
    r.kind = static_cast<trace::Kind>(b.kind);
    r.pc = b.pc;
    r.target = b.target;
    r.taken = b.taken;
    r.ilen = b.ilen;
    r.insns = b.insns;
    r.events = b.events;
    writer->write(r);
  };
  cfg.on_val = [&](uint32_t addr) {
    trace::Record r;
    r.kind = trace::Kind::Val;
    r.value = addr;
    r.weight = 1;
    writer->write(r);
  };
  const sim::SocResult res = sim::run_soc(o.elf, cfg);
  std::fflush(console);
  writer->commit();
  writer.reset();

  // The load map: the ELF, loaded where it was linked.
  record::LoadMap map;
  map.isa = "riscv32";
  map.trace = std::filesystem::path(o.output).filename().string();
  map.argv = {o.elf};
  map.first_pc = 0x80000000u;
  map.instructions = res.retired;
  const record::ElfInfo ei = record::read_elf(o.elf);
  map.add(o.elf, std::filesystem::absolute(o.elf).string(), "main", ei, 0, 0);
  map.objects.back().insns = res.retired;
  map.write(o.output + ".map");  // also beside a temporary trace: the reports' symbols

  if (!g.quiet) {
    fmt::print(stderr,
               "hwprof: soc: {} ({}) {} after {} cycles: {} instructions retired, {} branch records ({:.3f} records/clock, "
               "IPC {:.3f}), {} dropped by the ingress; {:.2f} M simulated cycles per CPU second\n",
               o.elf, res.core, res.exited ? fmt::format("exited with {}", res.exit_code) : std::string("trapped"),
               res.run_cycles, res.retired, res.records,
               res.run_cycles ? double(res.delivered) / double(res.run_cycles) : 0.0,
               res.run_cycles ? double(res.retired) / double(res.run_cycles) : 0.0, res.ingress.dropped,
               res.seconds > 0 ? double(res.run_cycles) / res.seconds / 1e6 : 0.0);
    fmt::print(stderr,
               "hwprof: soc: units: {} RAP events ({} source{}), {} DCR and {} BBV intervals taken while running; "
               "memory held the core {} cycles for the units\n",
               res.rap.events, rp.source, cfg.rap_val ? fmt::format(": {} val records", res.vals) : std::string(),
               res.dcr_results.size(), res.bbv_results.size(), res.hold_cycles);
    if (!temp)
      fmt::print(stderr, "hwprof: soc: trace {} ({} records), load map {}.map\n", o.output, res.records + res.vals,
                 o.output);
  }
  if (res.ingress.dropped)
    fmt::print(stderr, "hwprof: soc: warning: the ingress dropped {} records: the hardware profile misses them\n",
               res.ingress.dropped);

  // The reports, as `hwprof profile --engine model` of the trace prints
  // them, each unit's readout from the SoC (the fields that count cycles of
  // a back-to-back feed stay the model's, as in `hwprof board run`).
  const ProfilerRun hw = to_profiler_run(res);
  const PathEngine path_engine = [&](const ProfilerOptions& pc, uint64_t, Progress&) {
    if (pc.ppcr != cfg.ppcr || pc.hpt_ctrl != cfg.hpt_ctrl)
      throw std::logic_error("soc: profiler configuration differs from the one the SoC ran with");
    return hw;
  };
  rp.engine = ph.engine = "soc";
  rp.trace = ph.trace = p.trace;
  rp.json = ph.json = p.json;
  rp.board = [&](const model::RapReplayConfig& rc) {
    if (rc.eps_q16 != cfg.rap.eps_q16 || rc.node_cap != cfg.rap.node_cap || rc.merge_first != cfg.rap.merge_first ||
        rc.buffer != cfg.rap.buffer)
      throw std::logic_error("soc: RAP configuration differs from the one the SoC ran with");
    return res.rap;
  };
  auto put_dcr = [&](model::DcrReplayResult& r) {
    r.records = res.delivered;
    r.results = res.dcr_results;
    const uint32_t stall = r.stats.stall_cycles;
    r.stats = res.dcr_stats;
    r.stats.stall_cycles = stall;
  };
  auto put_bbv = [&](model::DetectorReplayResult& r) {
    r.records = res.delivered;
    r.intervals = res.bbv_results;
    const uint32_t stall = r.counters.stall_cycles;
    r.counters = res.bbv_counters;
    r.counters.stall_cycles = stall;
  };
  if (!all) {
    if (o.unit == "path") {
      run_path(p, g, path_engine);
    } else if (o.unit == "rap") {
      run_rap(rp, g);
    } else {
      if (ph.detector == "dcr") ph.board_dcr = put_dcr;
      else ph.board_detector = put_bbv;
      run_phase(ph, g);
    }
  } else {
    // One JSON (or one text report after another) with a section per unit.
    nlohmann::json j;
    j["unit"] = "all";
    j["engine"] = "soc";
    j["trace"] = p.trace;
    nlohmann::json sec;
    const bool json = p.json;
    bool first = true;
    auto gap = [&] {
      if (!json && !first) fmt::print("\n");
      first = false;
    };
    gap();
    p.json_out = json ? &sec : nullptr;
    run_path(p, g, path_engine);
    if (json) j["path"] = sec;
    gap();
    rp.json_out = json ? &sec : nullptr;
    run_rap(rp, g);
    if (json) j["rap"] = sec;
    for (const char* det : {"dcr", "bbv"}) {
      gap();
      PhaseProfileOpts d = ph;
      d.detector = det;
      if (d.detector == "dcr") d.board_dcr = put_dcr;
      else d.board_detector = put_bbv;
      d.json_out = json ? &sec : nullptr;
      run_phase(d, g);
      if (json) j[det] = sec;
    }
    if (json) fmt::print("{}\n", j.dump(1));
  }
  if (temp) {
    std::filesystem::remove(o.output);
    std::filesystem::remove(o.output + ".map");
  }
  if (!res.exited || res.exit_code != 0) {
    fmt::print(stderr, "hwprof: soc: the program {}\n",
               res.exited ? fmt::format("exited with {}", res.exit_code) : std::string("trapped"));
    throw Exit{1};
  }
}

}  // namespace

void add_soc_command(CLI::App& app, Global& g) {
  auto o = std::make_shared<SocOpts>();
  auto* s = app.add_subcommand("soc", "run RISC-V programs on the simulated SoC (PicoRV32 + hwprof, docs/soc.md)");
  s->require_subcommand(1);
  auto* c = s->add_subcommand("run", "run an ELF to its exit and read the hardware profiles back (path profiler, RAP "
                                     "engine, DCR tracker, BBV detector)");
  c->add_option("ELF", o->elf, "RV32 ELF linked for the SoC (make soc-elf SRC=prog.c)")->required()->check(
      CLI::ExistingFile);
  c->add_option("--unit", o->unit, "unit to read back: path (the path profiler), rap (the RAP engine), phase "
                                  "(--detector dcr or bbv) or all (every unit on the SoC, one report each)")
      ->check(CLI::IsMember({"path", "rap", "phase", "all"}))
      ->capture_default_str();
  c->add_option("-o,--output", o->output, "write the retire stream as a trace (*.hwpt[.zst]) with OUT.map");
  c->add_option("--events", o->events, "ingress events: mem (loads and stores), loads, stores")
      ->check(CLI::IsMember({"mem", "loads", "stores"}))
      ->capture_default_str();
  c->add_option("--core", o->core, "PicoRV32 build: rv32i, rv32imc, or auto (rv32imc for an ELF with compressed "
                                   "instructions)")
      ->check(CLI::IsMember({"auto", "rv32i", "rv32imc"}))
      ->capture_default_str();
  c->add_option("--max-cycles", o->max_cycles, "fail when the program has not exited after N cycles")
      ->capture_default_str();
  ProfileOpts& p = o->path;
  c->add_option("--mode", p.mode, "paths to detect: bl, wpp or ext")
      ->check(CLI::IsMember({"bl", "wpp", "ext"}))
      ->capture_default_str();
  c->add_option("--max-ext", p.max_ext, "ext mode: back edges a path may span")->capture_default_str();
  c->add_option("--policy", p.policy, "HPT replacement policy: lfu, ss, erode")
      ->check(CLI::IsMember({"lfu", "ss", "erode"}))
      ->capture_default_str();
  c->add_option("--index", p.index, "HPT index fold: plb or pb")->check(CLI::IsMember({"plb", "pb"}))->capture_default_str();
  c->add_option("--skew", p.skew, "1 = skewed HPT index")->capture_default_str();
  c->add_option("--metric", p.metric, "HPT accumulator metric: freq, events or insns")
      ->check(CLI::IsMember({"freq", "events", "insns"}))
      ->capture_default_str();
  auto* top = c->add_option("--top", p.top, "show the N hottest entries (0 = all; default 20, all with --json)");
  add_rap_options(c, p.rap);
  add_phase_options(c, p.phase);
  c->add_option("--wave", p.wave, "write an FST waveform of the SoC");
  c->add_flag("--json", p.json, "machine-readable report (as hwprof profile --unit UNIT --json; --unit all: one "
                                "section per unit, as hwprof board run --unit all)");
  c->callback([o, top, &g] {
    o->path.top_given = top->count() > 0;
    run(*o, g);
  });

  auto q = std::make_shared<QemuOpts>();
  auto* cq = s->add_subcommand("qemu", "run the same ELF on qemu-system-riscv32 -M virt and record its branch trace "
                                       "through the ingress' algorithm (the independent observer)");
  cq->add_option("ELF", q->elf, "RV32 ELF linked for the SoC")->required()->check(CLI::ExistingFile);
  cq->add_option("-o,--output", q->output, "trace file (*.hwpt[.zst] binary, else text) and OUT.map")->required();
  cq->add_option("--qemu", q->qemu, "qemu-system-riscv32 binary")->capture_default_str();
  cq->add_option("--events", q->events, "events: mem, loads, stores (as soc run)")
      ->check(CLI::IsMember({"mem", "loads", "stores"}))
      ->capture_default_str();
  cq->callback([q, &g] { record_system_elf(*q, g); });
}

}  // namespace hwprof::cli
