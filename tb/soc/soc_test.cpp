// The SoC (sim/soc/hwprof_soc_top.sv) on real programs (sw/workloads/, each
// for RV32I and, as <w>_imc, RV32IMC with compressed instructions):
//  * each runs to exit 0 with its UART line;
//  * run_soc() lock-steps the ingress' cycle model against the hardware
//    ingress on PicoRV32's RVFI stream every cycle (a real stream for the
//    ingress tests of tb/ingress/) and throws at the first mismatch; the
//    failure re-runs the test with the SoC traced around the mismatch
//    (tb/common/fail_wave.h: rtl.* / model.* / mismatch.*, docs/debugging.md);
//  * no record is dropped, none is lost between the ingress and the
//    profiler, and the ingress' counters agree with the harness';
//  * the hardware path profile read back through the dump port equals the
//    path profiler's cycle model fed the records the retire stream made;
//  * so do the other units beside it (hwprof_board_units): the RAP engine's
//    tree and counters (code profile, and the value profile of the val
//    records of data addresses), the DCR tracker's and the BBV detector's
//    results (taken while running) and counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "dcr_replay.h"
#include "fail_wave.h"
#include "path_profiler.h"
#include "phase_detector.h"
#include "profiler_replay.h"
#include "rap_source.h"
#include "rap_tree.h"
#include "soc_sim.h"

using namespace hwprof;

namespace {

std::vector<std::string> workloads() {
  std::vector<std::string> v;
  for (const auto& e : std::filesystem::directory_iterator(HWPROF_SOC_ELF_DIR))
    if (e.path().extension() == ".elf") v.push_back(e.path().stem().string());
  std::sort(v.begin(), v.end());
  return v;
}

std::string elf_of(const std::string& w) { return std::string(HWPROF_SOC_ELF_DIR) + "/" + w + ".elf"; }

struct SocRun {
  sim::SocResult res;
  std::vector<model::BranchRecord> records;
  std::vector<uint32_t> vals;
  std::string uart;
};

// Phase interval of these runs (the workloads retire 10^4..10^5 instructions).
constexpr uint32_t kInterval = 5000;

SocRun run(const std::string& w, uint32_t ppcr, uint32_t ctrl, unsigned ev_sel = 0, bool rap_val = false) {
  SocRun r;
  sim::SocConfig cfg;
  cfg.interval = kInterval;
  cfg.rap_val = rap_val;
  cfg.on_val = [&](uint32_t a) { r.vals.push_back(a); };
  cfg.ppcr = ppcr;
  cfg.hpt_ctrl = ctrl;
  cfg.ev_sel = ev_sel;
  cfg.max_cycles = 20000000;
  cfg.on_uart = [&](char c) { r.uart += c; };
  cfg.on_record = [&](const model::BranchRecord& b) { r.records.push_back(b); };
  tb::WaveBinding wave;  // the ingress comparison's failure waveform
  cfg.on_harness = [&] { wave = tb::fail_wave_bind("rvfi_ingress"); };
  cfg.on_mismatch = [&](uint64_t cycle, std::string& report) {
    return tb::fail_wave_mismatch(wave, cycle, "rvfi_ingress", report);
  };
  r.res = sim::run_soc(elf_of(w), cfg);
  return r;
}

void expect_profile_equals_model(const SocRun& r, uint32_t ppcr, uint32_t ctrl) {
  const auto p = sim::soc_params();
  model::PathProfiler m(p.queue_depth, p.depth, p.max_len, p.sets, p.ways);
  m.reset();
  size_t i = 0;
  model::ProfilerReplayConfig rc;
  rc.ppcr = ppcr;
  rc.hpt_ctrl = ctrl;
  const auto e = model::replay_profiler(
      m,
      [&](model::BranchRecord& b) {
        if (i == r.records.size()) return false;
        b = r.records[i++];
        return true;
      },
      rc);
  const auto& a = r.res.profile;
  EXPECT_EQ(a.records, e.records);
  ASSERT_EQ(a.entries.size(), e.entries.size());
  for (size_t k = 0; k < e.entries.size(); ++k) EXPECT_TRUE(a.entries[k] == e.entries[k]) << "dump entry " << k;
  EXPECT_EQ(a.frontend.records, e.frontend.records);
  EXPECT_EQ(a.frontend.emitted, e.frontend.emitted);
  EXPECT_EQ(a.frontend.incomplete, e.frontend.incomplete);
  EXPECT_EQ(a.frontend.splits, e.frontend.splits);
  EXPECT_EQ(a.frontend.overflows, e.frontend.overflows);
  EXPECT_EQ(a.frontend.empty_pops, e.frontend.empty_pops);
  EXPECT_EQ(a.hpt.descs, e.hpt.descs);
  EXPECT_EQ(a.hpt.hits, e.hpt.hits);
  EXPECT_EQ(a.hpt.fills, e.hpt.fills);
  EXPECT_EQ(a.hpt.replacements, e.hpt.replacements);
  EXPECT_EQ(a.hpt.rejects, e.hpt.rejects);
  EXPECT_EQ(a.hpt.ignored, e.hpt.ignored);
}

model::RecordSource records_of(const SocRun& r) {
  auto i = std::make_shared<size_t>(0);
  return [&r, i](model::BranchRecord& b) {
    if (*i == r.records.size()) return false;
    b = r.records[(*i)++];
    return true;
  };
}

// The RAP engine, the DCR tracker and the BBV detector read back from the
// SoC equal their cycle models fed the same records (as replay_rap,
// replay_dcr and replay_detector program them).
void expect_units_equal_model(const SocRun& r, bool rap_val) {
  const auto p = sim::soc_params();
  const auto& s = r.res;
  // RAP: the code profile of the branch records, or the val records.
  model::RapEngine eng(p.rap);
  model::RapEventSource src;
  if (rap_val) {
    auto i = std::make_shared<size_t>(0);
    src = [&r, i](model::RapEvent& e) {
      if (*i == r.vals.size()) return false;
      e = model::rap_value_event(r.vals[(*i)++], 1);
      return true;
    };
  } else {
    src = model::rap_code_source(records_of(r));
  }
  const auto m = model::replay_rap(eng, src, model::RapReplayConfig{});
  EXPECT_EQ(s.rap.events, m.events);
  EXPECT_GT(m.events, 1000u);
  const auto& a = s.rap.counters;
  const auto& e = m.counters;
  EXPECT_EQ(a.n, e.n);
  EXPECT_EQ(a.raw, e.raw);
  EXPECT_EQ(a.pairs, e.pairs);
  EXPECT_EQ(a.splits, e.splits);
  EXPECT_EQ(a.skipped, e.skipped);
  EXPECT_EQ(a.sched, e.sched);
  EXPECT_EQ(a.cap, e.cap);
  EXPECT_EQ(a.merges, e.merges);
  EXPECT_EQ(a.nodes, e.nodes);
  EXPECT_EQ(a.peak, e.peak);
  const auto hw = model::rap_dump_nodes(s.rap.beats, p.rap.range_bits);
  const auto want = eng.tree().nodes();
  ASSERT_EQ(hw.size(), want.size());
  EXPECT_GT(want.size(), 1u);
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(hw[k].prefix, want[k].prefix) << "RAP node " << k;
    EXPECT_EQ(hw[k].depth, want[k].depth) << "RAP node " << k;
    EXPECT_EQ(hw[k].count, want[k].count) << "RAP node " << k;
  }
  // DCR tracker.
  model::DcrTracker dcr(p.dcr);
  model::DcrReplayConfig dc;
  dc.interval = kInterval;
  const auto d = model::replay_dcr(dcr, records_of(r), dc);
  EXPECT_GT(d.results.size(), 0u);
  EXPECT_EQ(s.dcr_results, d.results);
  EXPECT_EQ(s.dcr_stats.records, d.stats.records);
  EXPECT_EQ(s.dcr_stats.intervals, d.stats.intervals);
  EXPECT_EQ(s.dcr_stats.pushes, d.stats.pushes);
  EXPECT_EQ(s.dcr_stats.pops, d.stats.pops);
  EXPECT_EQ(s.dcr_stats.new_phases, d.stats.new_phases);
  EXPECT_EQ(s.dcr_stats.correct, d.stats.correct);
  // BBV detector.
  model::PhaseDetector bbv(p.bbv);
  model::DetectorReplayConfig bc;
  bc.interval = kInterval;
  const auto b = model::replay_detector(bbv, records_of(r), bc, model::DetectorMode::Bbv);
  EXPECT_GT(b.intervals.size(), 0u);
  EXPECT_EQ(s.bbv_results, b.intervals);
  EXPECT_EQ(s.bbv_counters.records, b.counters.records);
  EXPECT_EQ(s.bbv_counters.features, b.counters.features);
  EXPECT_EQ(s.bbv_counters.intervals, b.counters.intervals);
  EXPECT_EQ(s.bbv_counters.phases, b.counters.phases);
}

class SocWorkload : public ::testing::TestWithParam<std::string> {};

TEST_P(SocWorkload, RunsToExitWithIngressLockstepAndHardwareProfileEqualsModel) {
  const std::string w = GetParam();
  const uint32_t ppcr = model::Ppcr::kBl, ctrl = model::HptCtrl::reset_value();
  SocRun r;
  try {
    r = run(w, ppcr, ctrl);
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  const auto& s = r.res;
  EXPECT_TRUE(s.exited);
  EXPECT_EQ(s.exit_code, 0) << r.uart;
  EXPECT_FALSE(s.trapped);
  const std::string prog = w.size() > 4 && w.compare(w.size() - 4, 4, "_imc") == 0 ? w.substr(0, w.size() - 4) : w;
  EXPECT_EQ(r.uart.rfind(prog + ": ", 0), 0u) << r.uart;
  EXPECT_EQ(s.core, prog == w ? "rv32i" : "rv32imc");
  EXPECT_EQ(r.uart.back(), '\n');
  EXPECT_GT(s.lockstep_cycles, s.run_cycles);  // every cycle of the run, and the drain
  EXPECT_GT(s.records, 1000u);
  EXPECT_EQ(s.records, r.records.size());
  EXPECT_EQ(s.ingress.records, s.records);
  EXPECT_EQ(s.ingress.dropped, 0u);
  EXPECT_EQ(s.delivered, s.records);
  EXPECT_EQ(s.ingress.retired, s.retired);
  EXPECT_EQ(s.ingress.traps, 0u);
  EXPECT_EQ(s.ingress.order_gaps, 0u);
  EXPECT_EQ(s.ingress.vals, 0u);  // no val records without rap_val
  uint64_t insns = 0;
  for (const auto& b : r.records) insns += b.insns;
  EXPECT_LE(insns, s.retired);
  EXPECT_GT(insns, s.retired - 64) << "instructions after the last record: only the exit path";
  std::printf("[soc] %s: %llu cycles, %llu retired, %llu records (%.4f records/clock), %.2f M cycles/CPU s\n",
              w.c_str(), static_cast<unsigned long long>(s.run_cycles), static_cast<unsigned long long>(s.retired),
              static_cast<unsigned long long>(s.records), double(s.records) / double(s.run_cycles),
              double(s.run_cycles) / s.seconds / 1e6);
  expect_profile_equals_model(r, ppcr, ctrl);
  expect_units_equal_model(r, false);
}

INSTANTIATE_TEST_SUITE_P(Workloads, SocWorkload, ::testing::ValuesIn(workloads()),
                         [](const auto& i) { return i.param; });

// An ELF with compressed instructions on the RV32I core is refused.
TEST(Soc, RefusesCompressedElfOnRv32iCore) {
  sim::SocConfig cfg;
  cfg.core = "rv32i";
  EXPECT_THROW(sim::run_soc(elf_of("crc_imc"), cfg), std::runtime_error);
}

// Other PPCR presets and HPT policies and the load-only event selection:
// still the model's profile.
TEST(Soc, WppAndExtPresetsAndLoadEventsMatchModel) {
  model::HptCtrl c;
  c.policy = model::HptCtrl::parse_policy("lfu");
  c.metric = model::HptCtrl::parse_metric("events");
  const struct {
    uint32_t ppcr;
    uint32_t ctrl;
    unsigned ev;
  } cases[] = {{model::Ppcr::preset("wpp"), model::HptCtrl::reset_value(), 0},
               {model::Ppcr::preset("ext", 2), c.pack(), 1}};
  for (const auto& k : cases) {
    SocRun r;
    try {
      r = run("interp", k.ppcr, k.ctrl, k.ev);
    } catch (const std::exception& e) {
      FAIL() << e.what();
    }
    EXPECT_EQ(r.res.exit_code, 0);
    expect_profile_equals_model(r, k.ppcr, k.ctrl);
  }
}

// The RAP value profile: a val record of the data address of every retired
// load and store goes to the RAP engine (its branch records masked); the
// other units still take every branch record.
TEST(Soc, RapValueProfileOfDataAddressesMatchesModel) {
  SocRun r;
  try {
    r = run("hash_imc", model::Ppcr::kBl, model::HptCtrl::reset_value(), 0, true);
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  EXPECT_EQ(r.res.exit_code, 0);
  EXPECT_EQ(r.res.vals, r.vals.size());
  EXPECT_GT(r.vals.size(), 1000u);
  EXPECT_EQ(r.res.ingress.dropped, 0u);
  EXPECT_EQ(r.res.ingress.vals, r.res.vals);  // the ingress' val port made every val record
  EXPECT_EQ(r.res.ingress.val_dropped, 0u);
  for (uint32_t a : r.vals) EXPECT_TRUE(a >= 0x80000000u || (a >> 12) == 0x10000u || a == 0x100000u) << a;
  expect_profile_equals_model(r, model::Ppcr::kBl, model::HptCtrl::reset_value());
  expect_units_equal_model(r, true);
}

TEST(Soc, RejectsAnElfThatIsNotRv32) {
  EXPECT_THROW(sim::load_elf32("/bin/sh"), std::runtime_error);
  EXPECT_THROW(sim::load_elf32(HWPROF_SOC_ELF_DIR "/no_such.elf"), std::runtime_error);
}

}  // namespace
