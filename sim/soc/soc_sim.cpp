// run_soc(): the Verilated SoC (Vhwprof_soc: RV32I, Vhwprof_soc_imc: RV32IMC)
// driven cycle by cycle.
#include <ctime>
#include <cstdio>
#include <deque>
#include <sstream>
#include <stdexcept>

#include "Vhwprof_soc.h"
#include "Vhwprof_soc_imc.h"
#include "hpt_rtl.h"
#include "path_profiler.h"
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
  return r;
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
    t.load_we_i = 0;
    t.dump_ready_i = 0;
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

  // One clock outside the run loop; counts the records the profiler takes.
  auto step = [&] {
    h.eval();
    if (t.rec_valid_o && t.rec_ready_o) ++res.delivered;
    h.tick();
  };
  auto csr_write = [&](unsigned a, uint32_t v) {
    t.csr_we_i = 1;
    t.csr_addr_i = a;
    t.csr_wdata_i = v;
    step();
    t.csr_we_i = 0;
  };
  bool rec_pending = false;  // the ingress offered a record in the last csr_read's cycle
  auto csr_read = [&](unsigned a) {
    t.csr_addr_i = a;
    h.eval();
    const uint32_t v = t.csr_rdata_o;
    rec_pending = t.rec_valid_o;
    step();
    return v;
  };
  csr_write(unsigned(model::PathCsr::Ppcr), cfg.ppcr);
  csr_write(model::hpt_csr(model::HptCsr::Ctrl), cfg.hpt_ctrl);

  // Run. Every cycle: the RVFI probe into the functional recorder (the
  // trace's records) and into the ingress' cycle model, whose outputs must
  // equal the hardware ingress'.
  model::RvfiRecorder recorder;
  model::RvfiIngress ingress(par.ingress_depth);
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
    }
    if (t.rec_valid_o && t.rec_ready_o) ++res.delivered;
    if (t.uart_valid_o && cfg.on_uart) cfg.on_uart(static_cast<char>(t.uart_data_o));
    if (cfg.check_ingress) {
      model::RvfiIngress::In in;
      in.ev_sel = cfg.ev_sel & 3;
      in.rvfi = r;
      in.out_ready = t.rec_ready_o;
      const auto e = ingress.step(in);
      const model::BranchRecord act =
          model::BranchRecord::unpack({t.rec_data_o[0], t.rec_data_o[1], t.rec_data_o[2]});
      const IngressStatus s = ingress_status(t);
      const bool ok = e.out_valid == bool(t.rec_valid_o) && (!e.out_valid || e.out_data == act) &&
                      e.retired == s.retired && e.records == s.records && e.dropped == s.dropped &&
                      e.traps == s.traps && e.intrs == s.intrs && e.order_gaps == s.order_gaps &&
                      e.halted == s.halted;
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
          << " dropped=" << e.dropped << " retired=" << e.retired << "\n"
          << "  actual:   valid=" << int(t.rec_valid_o) << " " << act.str() << " records=" << s.records
          << " dropped=" << s.dropped << " retired=" << s.retired << "\n  last cycles:\n";
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
    // through the ingress.
    if (stop_at && h.cycle() >= stop_at + 8) break;
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

  // Drain: every delivered record processed by the path stack (RECORDS), the
  // last descriptor then enters the HPT (as model::replay_profiler).
  auto& pr = res.profile;
  h.tick();
  for (int guard = 0;; ++guard) {
    const uint64_t before = res.delivered;
    const uint32_t taken = csr_read(unsigned(model::PathCsr::Records));
    if (!rec_pending && taken == model::sat32(before)) break;
    if (guard > 1000) throw std::runtime_error("SoC: the path profiler did not drain in 1000 cycles");
  }
  csr_read(unsigned(model::PathCsr::Records));
  pr.records = res.delivered;

  const uint64_t dump_start = h.cycle();
  csr_write(model::hpt_csr(model::HptCsr::Cmd), model::kHptCmdDump);
  for (;;) {
    t.dump_ready_i = 1;
    h.eval();
    const bool valid = t.dump_valid_o, busy = t.dump_busy_o;
    if (valid) pr.entries.push_back(read_dump_port(t));
    step();
    if (!busy) break;
    if (h.cycle() - dump_start > 10000000) throw std::runtime_error("SoC: the HPT dump did not finish");
  }
  t.dump_ready_i = 0;
  pr.dump_cycles = h.cycle() - dump_start;
  auto& f = pr.frontend;
  f.records = csr_read(unsigned(model::PathCsr::Records));
  f.emitted = csr_read(unsigned(model::PathCsr::Emitted));
  f.incomplete = csr_read(unsigned(model::PathCsr::Incomplete));
  f.splits = csr_read(unsigned(model::PathCsr::Splits));
  f.overflows = csr_read(unsigned(model::PathCsr::Overflows));
  f.empty_pops = csr_read(unsigned(model::PathCsr::EmptyPops));
  f.stall_cycles = csr_read(unsigned(model::PathCsr::StallCycles));
  auto& hs = pr.hpt;
  hs.descs = csr_read(model::hpt_csr(model::HptCsr::Descs));
  hs.hits = csr_read(model::hpt_csr(model::HptCsr::Hits));
  hs.fills = csr_read(model::hpt_csr(model::HptCsr::Fills));
  hs.replacements = csr_read(model::hpt_csr(model::HptCsr::Replacements));
  hs.rejects = csr_read(model::hpt_csr(model::HptCsr::Rejects));
  hs.saturations = csr_read(model::hpt_csr(model::HptCsr::Saturations));
  hs.ignored = csr_read(model::hpt_csr(model::HptCsr::Ignored));
  hs.stall_cycles = csr_read(model::hpt_csr(model::HptCsr::StallCycles));
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
