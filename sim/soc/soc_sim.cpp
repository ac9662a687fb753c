// run_soc(): the Verilated SoC (Vhwprof_soc: RV32I, Vhwprof_soc_imc: RV32IMC)
// driven cycle by cycle.
#include <ctime>
#include <cstdio>
#include <deque>
#include <sstream>
#include <stdexcept>

#include "Vhwprof_soc.h"
#include "Vhwprof_soc_imc.h"
#include "dcr_regs.h"
#include "detector_regs.h"
#include "link_codec.h"
#include "path_profiler.h"
#include "dcr_replay.h"
#include "rap_regs.h"
#include "rtl_harness.h"
#include "rvfi_ingress.h"
#include "soc_sim.h"

namespace hwprof::sim {

SocParams soc_params() {
  SocParams p;
  p.mem_words = HWPROF_SOC_MEM_WORDS;
  return p;
}
bool soc_available() { return true; }
std::string soc_unavailable_reason() { return {}; }

namespace {

constexpr uint32_t kRamBase = 0x80000000u;

template <typename V>
model::RvfiRetire rvfi_probe(const V& t) {
  model::RvfiRetire r;
  r.valid = t.rvfi_valid_o;
  r.order = t.rvfi_order_o;
  r.insn = t.rvfi_insn_o;
  r.trap = t.rvfi_trap_o;
  r.halt = t.rvfi_halt_o;
  r.intr = t.rvfi_intr_o;
  r.pc_rdata = t.rvfi_pc_rdata_o;
  r.pc_wdata = t.rvfi_pc_wdata_o;
  r.mem_rmask = t.rvfi_mem_rmask_o;
  r.mem_wmask = t.rvfi_mem_wmask_o;
  r.mem_addr = t.rvfi_mem_addr_o;
  return r;
}

// Units of hwprof_soc_top (hwprof_board_units with every unit).
constexpr unsigned kPath = 0, kRap = 1, kDcr = 2, kBbv = 3;
constexpr unsigned kEntBytes = 27;  // bytes per dump / result slot

// Unit u's dump / result slot, byte 0 first.
template <typename W>
std::vector<uint8_t> slot_bytes(const W& w, unsigned u) {
  std::vector<uint8_t> b(kEntBytes);
  for (unsigned k = 0; k < kEntBytes; ++k) {
    const unsigned bit = (u * kEntBytes + k) * 8;
    b[k] = static_cast<uint8_t>(w[bit / 32] >> (bit % 32));
  }
  return b;
}

template <typename V>
IngressStatus ingress_status(const V& t) {
  IngressStatus s;
  s.retired = t.ing_retired_o;
  s.records = t.ing_records_o;
  s.dropped = t.ing_dropped_o;
  s.traps = t.ing_traps_o;
  s.intrs = t.ing_intrs_o;
  s.order_gaps = t.ing_order_gaps_o;
  s.vals = t.ing_vals_o;
  s.val_dropped = t.ing_val_dropped_o;
  s.halted = t.ing_halted_o;
  return s;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

template <typename V>
SocResult run_soc_t(const std::string& elf, const ElfImage& img, const SocConfig& cfg) {
  const SocParams par = soc_params();
  const uint64_t ram_bytes = uint64_t(par.mem_words) * 4;
  if (img.entry != kRamBase)
    throw std::runtime_error(elf + ": entry " + hex(img.entry) + ", the SoC starts at 0x80000000 (link with sw/link.ld)");
  for (const auto& [addr, data] : img.segments)
    if (addr < kRamBase || uint64_t(addr) + data.size() > kRamBase + ram_bytes)
      throw std::runtime_error(elf + ": segment at " + hex(addr) + " (" + std::to_string(data.size()) +
                               " bytes) outside the SoC's RAM (0x80000000, " + std::to_string(ram_bytes) + " bytes)");

  Harness<V> h(cfg.sim, "hwprof_soc", 1);
  if (cfg.on_harness) cfg.on_harness();
  auto& t = h.top();
  SocResult res;
  auto idle_inputs = [&] {
    t.core_run_i = 0;
    t.ev_sel_i = cfg.ev_sel & 3;
    t.rap_val_i = cfg.rap_val;
    t.load_we_i = 0;
    t.dump_ready_i = 0;
    t.dump_start_i = 0;
    t.res_ready_i = (1u << kDcr) | (1u << kBbv);  // results taken whenever offered
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
  };
  idle_inputs();
  h.reset();

  // Load the program, word by word (core in reset).
  for (const auto& [addr, data] : img.segments) {
    for (size_t i = 0; i < data.size(); i += 4) {
      uint32_t w = 0;
      for (size_t k = 0; k < 4 && i + k < data.size(); ++k) w |= uint32_t(data[i + k]) << (8 * k);
      t.load_we_i = 1;
      t.load_addr_i = (addr - kRamBase + uint32_t(i)) / 4;
      t.load_wdata_i = w;
      h.tick();
    }
  }
  t.load_we_i = 0;

  // Every clock, after eval: the records the fan-out took, the val records
  // the RAP engine took, the DCR / BBV results taken (res_ready high).
  uint64_t vals_taken = 0;
  auto observe = [&] {
    if (t.rec_valid_o && t.rec_ready_o) ++res.delivered;
    if (t.val_taken_o) ++vals_taken;
    if (t.res_valid_o & (1u << kDcr)) {
      model::DcrResult x;
      const auto b = slot_bytes(t.res_data_o, kDcr);
      link::get_dcr_result(b.data(), b.size(), x);
      res.dcr_results.push_back(x);
    }
    if (t.res_valid_o & (1u << kBbv)) {
      model::DetectorResult x;
      const auto b = slot_bytes(t.res_data_o, kBbv);
      link::get_bbv_result(b.data(), b.size(), x);
      res.bbv_results.push_back(x);
    }
  };
  // One clock outside the run loop.
  auto step = [&] {
    h.eval();
    observe();
    h.tick();
  };
  auto csr_write = [&](unsigned u, unsigned a, uint32_t v) {
    t.csr_we_i = 1u << u;
    t.csr_addr_i = a;
    t.csr_wdata_i = v;
    step();
    t.csr_we_i = 0;
  };
  auto csr_read = [&](unsigned u, unsigned a) {
    t.csr_addr_i = a;
    h.eval();
    const uint32_t v = t.csr_rdata_o[u];
    step();
    return v;
  };
  // Program the units (as replay_profiler, replay_rap, replay_dcr and
  // replay_detector do, and `hwprof board run`).
  csr_write(kPath, unsigned(model::PathCsr::Ppcr), cfg.ppcr);
  csr_write(kPath, model::hpt_csr(model::HptCsr::Ctrl), cfg.hpt_ctrl);
  {
    const auto& c = cfg.rap;
    const uint32_t groups = csr_read(kRap, unsigned(model::RapCsr::Params)) & 0xfffu;
    csr_write(kRap, unsigned(model::RapCsr::Eps), c.eps_q16);
    csr_write(kRap, unsigned(model::RapCsr::Cap), c.node_cap ? c.node_cap : 4 * groups + 4);
    csr_write(kRap, unsigned(model::RapCsr::MergeFirst), c.merge_first);
    csr_write(kRap, unsigned(model::RapCsr::BufDepth), c.buffer);
    if (csr_read(kRap, unsigned(model::RapCsr::Status)) & model::kRapStErr)
      throw std::invalid_argument("the SoC's RAP engine refused a parameter (STATUS.err)");
    csr_write(kRap, unsigned(model::RapCsr::Cmd), model::kRapCmdClear);
  }
  csr_write(kDcr, unsigned(model::DcrCsr::Interval), cfg.interval);
  csr_write(kBbv, unsigned(model::DetCsr::Ctrl), model::kDetCtrlRestart);
  csr_write(kBbv, unsigned(model::DetCsr::Interval), cfg.interval);
  csr_write(kBbv, unsigned(model::DetCsr::Threshold), cfg.threshold);
  if (csr_read(kBbv, unsigned(model::DetCsr::Status)) & model::kDetStatusErr)
    throw std::invalid_argument("the SoC's BBV detector refused INTERVAL or THRESHOLD (STATUS.err)");

  // Run. Every cycle: the RVFI probe into the functional recorder (the
  // trace's records) and into the ingress' cycle model, whose outputs must
  // equal the hardware ingress'.
  model::RvfiRecorder recorder;
  model::RvfiIngress ingress(par.ingress_depth, 1, par.ingress_val_depth);
  ingress.reset();
  // The last cycles, formatted only for a mismatch report.
  struct Seen {
    uint64_t cycle;
    model::RvfiRetire r;
    bool rec_valid, rec_ready;
    model::BranchRecord rec;
  };
  std::deque<Seen> history;
  std::string mismatch_report;  // the first mismatch (thrown at throw_at)
  uint64_t throw_at = 0;
  const auto ev = static_cast<model::RvfiEvents>(cfg.ev_sel & 3);
  t.core_run_i = 1;
  const std::clock_t t0 = std::clock();
  const uint64_t run_start = h.cycle();
  uint64_t stop_at = 0;  // cycle the core stopped (exit or trap)
  for (;;) {
    h.eval();
    const model::RvfiRetire r = rvfi_probe(t);
    if (r.valid) {
      ++res.retired;
      model::BranchRecord b;
      if (recorder.retire(r, ev, b)) {
        ++res.records;
        if (cfg.on_record) cfg.on_record(b);
      }
      if (cfg.rap_val && model::rvfi_val(r)) {
        ++res.vals;
        if (cfg.on_val) cfg.on_val(r.mem_addr);
      }
    }
    observe();
    if (t.uart_valid_o && cfg.on_uart) cfg.on_uart(static_cast<char>(t.uart_data_o));
    if (cfg.check_ingress) {
      model::RvfiIngress::In in;
      in.ev_sel = cfg.ev_sel & 3;
      in.rvfi = r;
      in.out_ready = t.rec_ready_o;
      in.val_en = cfg.rap_val;
      in.val_ready = t.val_ready_o;
      const auto e = ingress.step(in);
      const model::BranchRecord act =
          model::BranchRecord::unpack({t.rec_data_o[0], t.rec_data_o[1], t.rec_data_o[2]});
      const IngressStatus s = ingress_status(t);
      const bool ok = e.out_valid == bool(t.rec_valid_o) && (!e.out_valid || e.out_data == act) &&
                      e.retired == s.retired && e.records == s.records && e.dropped == s.dropped &&
                      e.traps == s.traps && e.intrs == s.intrs && e.order_gaps == s.order_gaps &&
                      e.val_valid == bool(t.val_valid_o) && (!e.val_valid || e.val_data == t.val_data_o) &&
                      e.vals == s.vals && e.val_dropped == s.val_dropped && e.halted == s.halted;
      if (const auto& wc = h.wave_compare()) {  // traced: the comparison beside the RTL
        const auto ew = e.out_data.pack(), aw = act.pack();
        const struct {
          const char* name;
          uint64_t expected, actual;
          bool care;
        } f[] = {{"rec_valid", e.out_valid, t.rec_valid_o, true},
                 {"rec.w0", ew[0], aw[0], e.out_valid},
                 {"rec.w1", ew[1], aw[1], e.out_valid},
                 {"rec.w2", ew[2], aw[2], e.out_valid},
                 {"retired", e.retired, s.retired, true},
                 {"records", e.records, s.records, true},
                 {"dropped", e.dropped, s.dropped, true},
                 {"traps", e.traps, s.traps, true},
                 {"intrs", e.intrs, s.intrs, true},
                 {"order_gaps", e.order_gaps, s.order_gaps, true},
                 {"val_valid", e.val_valid, t.val_valid_o, true},
                 {"val_data", e.val_data, t.val_data_o, e.val_valid},
                 {"vals", e.vals, s.vals, true},
                 {"val_dropped", e.val_dropped, s.val_dropped, true},
                 {"halted", e.halted, s.halted, true}};
        wc->record(h.cycle(), f);
        if (!ok) wc->set_marker(h.cycle());
      }
      history.push_back({h.cycle(), r, bool(t.rec_valid_o), bool(t.rec_ready_o), act});
      if (history.size() > 12) history.pop_front();
      if (!ok && mismatch_report.empty()) {
        h.flush();
        std::ostringstream m;
        m << "lock-step mismatch in rvfi_ingress on the SoC at cycle " << h.cycle() << " (" << elf << ")\n"
          << "  expected: valid=" << e.out_valid << " " << e.out_data.str() << " records=" << e.records
          << " dropped=" << e.dropped << " retired=" << e.retired << " val_valid=" << e.val_valid
          << " val=" << hex(e.val_data) << " vals=" << e.vals << " val_dropped=" << e.val_dropped << "\n"
          << "  actual:   valid=" << int(t.rec_valid_o) << " " << act.str() << " records=" << s.records
          << " dropped=" << s.dropped << " retired=" << s.retired << " val_valid=" << int(t.val_valid_o)
          << " val=" << hex(t.val_data_o) << " vals=" << s.vals << " val_dropped=" << s.val_dropped
          << "\n  last cycles:\n";
        for (const auto& x : history)
          m << "    cycle " << x.cycle << ": rvfi valid=" << x.r.valid << " pc=" << hex(x.r.pc_rdata)
            << " insn=" << hex(x.r.insn) << " next=" << hex(x.r.pc_wdata) << " trap=" << x.r.trap
            << " | rec valid=" << x.rec_valid << " " << x.rec.str() << " ready=" << x.rec_ready << "\n";
        mismatch_report = m.str();
        const uint64_t hold = cfg.on_mismatch ? cfg.on_mismatch(h.cycle(), mismatch_report) : 0;
        throw_at = h.cycle() + hold;
      }
      if (!mismatch_report.empty() && h.cycle() >= throw_at) throw std::runtime_error(mismatch_report);
      ++res.lockstep_cycles;
    }
    if (!stop_at && (t.exit_valid_o || t.core_trap_o)) stop_at = h.cycle();
    // A few cycles after the stop let the last retirement and its record
    // into the ingress FIFO; then every record made has left it (the units
    // may still hold them off) and every val record has been taken.
    if (stop_at && h.cycle() >= stop_at + 8 && t.ing_records_o == model::sat32(res.delivered + t.ing_dropped_o) &&
        vals_taken == res.vals)
      break;
    if (h.cycle() - run_start > cfg.max_cycles)
      throw std::runtime_error(elf + ": no exit after " + std::to_string(cfg.max_cycles) +
                               " cycles (pc " + hex(t.rvfi_pc_rdata_o) + ")");
    h.tick();
  }
  res.seconds = double(std::clock() - t0) / CLOCKS_PER_SEC;
  res.run_cycles = stop_at - run_start;
  res.exited = t.exit_valid_o;
  res.exit_code = res.exited ? int(t.exit_code_o) : -1;
  res.trapped = t.core_trap_o;
  res.ingress = ingress_status(t);
  res.hold_cycles = t.hold_cycles_o;
  h.tick();

  // The DCR tracker: not busy, every result taken (observe()), the counters
  // (as replay_dcr).
  for (unsigned guard = 0; csr_read(kDcr, unsigned(model::DcrCsr::Status)) & 2u; ++guard)
    if (guard > 100000) throw std::runtime_error("SoC: the DCR tracker did not drain (STATUS.busy)");
  {
    auto rd = [&](model::DcrCsr a) { return csr_read(kDcr, unsigned(a)); };
    res.dcr_stats = model::read_dcr_stats(rd);
  }
  // The BBV detector: every record counted, not busy, no result pending.
  {
    auto rd = [&](model::DetCsr a) { return csr_read(kBbv, unsigned(a)); };
    for (unsigned guard = 0;; ++guard) {
      if (rd(model::DetCsr::Records) == model::sat32(res.delivered) &&
          (rd(model::DetCsr::Status) & (model::kDetStatusBusy | model::kDetStatusResValid)) == 0)
        break;
      if (guard > 100000) throw std::runtime_error("SoC: the BBV detector did not drain (STATUS)");
    }
    auto& c = res.bbv_counters;
    c.records = rd(model::DetCsr::Records);
    c.features = rd(model::DetCsr::Features);
    c.ignored = rd(model::DetCsr::Ignored);
    c.intervals = rd(model::DetCsr::Intervals);
    c.phases = rd(model::DetCsr::Phases);
    c.stall_cycles = rd(model::DetCsr::StallCycles);
    c.busy_cycles = rd(model::DetCsr::BusyCycles);
  }
  if (res.dcr_results.size() != res.dcr_stats.intervals || res.bbv_results.size() != res.bbv_counters.intervals)
    throw std::runtime_error("SoC: " + std::to_string(res.dcr_results.size()) + " DCR and " +
                             std::to_string(res.bbv_results.size()) + " BBV results taken, the units counted " +
                             std::to_string(res.dcr_stats.intervals) + " and " +
                             std::to_string(res.bbv_counters.intervals) + " intervals");

  // The RAP engine: every event out of its queue, the merging buffer
  // flushed, idle; the counters and the dump (as replay_rap).
  {
    auto rd = [&](model::RapCsr a) { return csr_read(kRap, unsigned(a)); };
    auto& r = res.rap;
    r.events = cfg.rap_val ? vals_taken : (res.delivered ? res.delivered - 1 : 0);
    for (unsigned guard = 0; rd(model::RapCsr::Raw) != model::sat32(r.events); ++guard)
      if (guard > 10000000) throw std::runtime_error("SoC: the RAP engine did not drain its queue (RAW)");
    csr_write(kRap, unsigned(model::RapCsr::Cmd), model::kRapCmdFlush);
    for (unsigned guard = 0; !(rd(model::RapCsr::Status) & model::kRapStIdle); ++guard)
      if (guard > 10000000) throw std::runtime_error("SoC: the RAP engine did not become idle (STATUS)");
    r.counters = model::read_rap_counters(rd);
    t.dump_start_i = 1u << kRap;
    step();
    t.dump_start_i = 0;
    const uint64_t d0 = h.cycle();
    for (bool last = false; !last;) {
      t.dump_ready_i = 1u << kRap;
      h.eval();
      const bool valid = t.dump_valid_o & (1u << kRap), busy = t.dump_busy_o & (1u << kRap);
      if (valid) {
        const auto b = slot_bytes(t.dump_data_o, kRap);
        model::RapDumpBeat beat;
        link::get_rap_beat(b.data(), b.size(), beat, last);
        r.beats.push_back(beat);
      }
      step();
      if (!valid && !busy) throw std::runtime_error("SoC: the RAP dump ended without its last beat");
      if (h.cycle() - d0 > 10000000) throw std::runtime_error("SoC: the RAP dump did not finish");
    }
    t.dump_ready_i = 0;
  }

  // The path profiler: every delivered record processed by the path stack
  // (RECORDS), the last descriptor then enters the HPT (as
  // model::replay_profiler); the dump, the counters.
  auto& pr = res.profile;
  for (int guard = 0; csr_read(kPath, unsigned(model::PathCsr::Records)) != model::sat32(res.delivered); ++guard)
    if (guard > 1000) throw std::runtime_error("SoC: the path profiler did not drain in 1000 cycles");
  csr_read(kPath, unsigned(model::PathCsr::Records));
  pr.records = res.delivered;

  const uint64_t dump_start = h.cycle();
  t.dump_start_i = 1u << kPath;
  step();
  t.dump_start_i = 0;
  for (;;) {
    t.dump_ready_i = 1u << kPath;
    h.eval();
    const bool valid = t.dump_valid_o & (1u << kPath), busy = t.dump_busy_o & (1u << kPath);
    if (valid) {
      // set u16, way u8, start u32, length u8, dirs u32, acc u32
      const auto b = slot_bytes(t.dump_data_o, kPath);
      auto u32 = [&](unsigned k) { return uint32_t(b[k]) | uint32_t(b[k + 1]) << 8 | uint32_t(b[k + 2]) << 16 | uint32_t(b[k + 3]) << 24; };
      model::Hpt::DumpEntry d;
      d.set = uint32_t(b[0]) | uint32_t(b[1]) << 8;
      d.way = b[2];
      d.key.start = u32(3);
      d.key.length = b[7];
      d.key.dirs = u32(8);
      d.acc = u32(12);
      pr.entries.push_back(d);
    }
    step();
    if (!busy) break;
    if (h.cycle() - dump_start > 10000000) throw std::runtime_error("SoC: the HPT dump did not finish");
  }
  t.dump_ready_i = 0;
  pr.dump_cycles = h.cycle() - dump_start;
  auto rdp = [&](unsigned a) { return csr_read(kPath, a); };
  auto& f = pr.frontend;
  f.records = rdp(unsigned(model::PathCsr::Records));
  f.emitted = rdp(unsigned(model::PathCsr::Emitted));
  f.incomplete = rdp(unsigned(model::PathCsr::Incomplete));
  f.splits = rdp(unsigned(model::PathCsr::Splits));
  f.overflows = rdp(unsigned(model::PathCsr::Overflows));
  f.empty_pops = rdp(unsigned(model::PathCsr::EmptyPops));
  f.stall_cycles = rdp(unsigned(model::PathCsr::StallCycles));
  auto& hs = pr.hpt;
  hs.descs = rdp(model::hpt_csr(model::HptCsr::Descs));
  hs.hits = rdp(model::hpt_csr(model::HptCsr::Hits));
  hs.fills = rdp(model::hpt_csr(model::HptCsr::Fills));
  hs.replacements = rdp(model::hpt_csr(model::HptCsr::Replacements));
  hs.rejects = rdp(model::hpt_csr(model::HptCsr::Rejects));
  hs.saturations = rdp(model::hpt_csr(model::HptCsr::Saturations));
  hs.ignored = rdp(model::hpt_csr(model::HptCsr::Ignored));
  hs.stall_cycles = rdp(model::hpt_csr(model::HptCsr::StallCycles));
  res.total_cycles = h.cycle();
  pr.cycles = res.total_cycles;
  return res;
}

}  // namespace

SocResult run_soc(const std::string& elf, const SocConfig& cfg) {
  const ElfImage img = load_elf32(elf);
  std::string core = cfg.core;
  if (core == "auto") core = img.rvc() ? "rv32imc" : "rv32i";
  if (core == "rv32i" && img.rvc())
    throw std::runtime_error(elf + ": has compressed instructions (EF_RISCV_RVC); the rv32i core cannot run it");
  SocResult r;
  if (core == "rv32i")
    r = run_soc_t<Vhwprof_soc>(elf, img, cfg);
  else if (core == "rv32imc")
    r = run_soc_t<Vhwprof_soc_imc>(elf, img, cfg);
  else
    throw std::invalid_argument("SoC core '" + core + "' (rv32i, rv32imc, auto)");
  r.core = core;
  return r;
}

}  // namespace hwprof::sim
