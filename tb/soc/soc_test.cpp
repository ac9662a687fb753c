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
//    path profiler's cycle model fed the records the retire stream made.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fail_wave.h"
#include "path_profiler.h"
#include "profiler_replay.h"
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
  std::string uart;
};

SocRun run(const std::string& w, uint32_t ppcr, uint32_t ctrl, unsigned ev_sel = 0) {
  SocRun r;
  sim::SocConfig cfg;
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
  uint64_t insns = 0;
  for (const auto& b : r.records) insns += b.insns;
  EXPECT_LE(insns, s.retired);
  EXPECT_GT(insns, s.retired - 64) << "instructions after the last record: only the exit path";
  std::printf("[soc] %s: %llu cycles, %llu retired, %llu records (%.4f records/clock), %.2f M cycles/CPU s\n",
              w.c_str(), static_cast<unsigned long long>(s.run_cycles), static_cast<unsigned long long>(s.retired),
              static_cast<unsigned long long>(s.records), double(s.records) / double(s.run_cycles),
              double(s.run_cycles) / s.seconds / 1e6);
  expect_profile_equals_model(r, ppcr, ctrl);
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

TEST(Soc, RejectsAnElfThatIsNotRv32) {
  EXPECT_THROW(sim::load_elf32("/bin/sh"), std::runtime_error);
  EXPECT_THROW(sim::load_elf32(HWPROF_SOC_ELF_DIR "/no_such.elf"), std::runtime_error);
}

}  // namespace
