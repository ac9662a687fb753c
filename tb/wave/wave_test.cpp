// The lock-step comparison in the waveform (sim/wave_compare.h) and the
// failure waveform (tb/common/fail_wave.h), end to end: a model made wrong on
// purpose (the hpt self-test's fault: twice the sets) must leave an FST in
// which, at the cycle the report names, rtl.<field> holds the RTL's value,
// model.<field> the model's, mismatch.<field> and cmp.mismatch are 1, and a
// layout whose every signal is in that FST, with its marker at that cycle.
#include <gtest/gtest.h>

#include <gtkwave/fstapi.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gtest_util.h"
#include "hpt_lockstep.h"

namespace {

using hwprof::model::Hpt;
using hwprof::model::HptCsr;
using hwprof::model::kHptCmdDump;
using hwprof::tb::HptConfig;
using hwprof::tb::LockstepMismatch;
using hwprof::tb::SimEnv;

const HptConfig kTiny{4, 2};

/// Runs the hpt with a model of twice the sets until the scoreboard throws;
/// returns the report ("" if it never did).
std::string run_faulty(const SimEnv& env, const std::string& name) {
  auto ls = hwprof::tb::make_hpt_lockstep(kTiny, env, name, env.seed);
  ls.model() = Hpt(8, 2);
  ls.model().reset();
  try {
    Hpt::In in;
    in.in_valid = true;
    for (uint32_t i = 0; i < 32; ++i) {
      in.in_desc = {};
      in.in_desc.start = 0x40 * i + 4 * (i & 3);
      ls.step(in);
    }
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(HptCsr::Cmd);
    in.csr_wdata = kHptCmdDump;
    ls.step(in);
    in = {};
    in.dump_ready = true;
    for (int c = 0; c < 100; ++c) ls.step(in);
  } catch (const LockstepMismatch& e) {
    return e.what();
  }
  return "";
}

/// GTKWave names ("scope.sub.var[7:0]") of an FST's variables -> handle.
std::map<std::string, fstHandle> fst_vars(const std::string& path) {
  std::map<std::string, fstHandle> m;
  void* r = fstReaderOpen(path.c_str());
  if (!r) return m;
  std::vector<std::string> scope;
  while (fstHier* h = fstReaderIterateHier(r)) {
    if (h->htyp == FST_HT_SCOPE) scope.push_back(h->u.scope.name);
    if (h->htyp == FST_HT_UPSCOPE && !scope.empty()) scope.pop_back();
    if (h->htyp == FST_HT_VAR) {
      std::string n;
      for (const auto& s : scope) n += s + ".";
      for (const char* c = h->u.var.name; *c; ++c)
        if (*c != ' ') n += *c;
      m[n] = h->u.var.handle;
    }
  }
  fstReaderClose(r);
  return m;
}

/// Value of `name` at `time` as a binary string ("" if absent).
std::string fst_value(const std::string& path, const std::string& name, uint64_t time) {
  auto vars = fst_vars(path);
  auto it = vars.find(name);
  if (it == vars.end()) return "";
  void* r = fstReaderOpen(path.c_str());
  char buf[256] = {0};
  fstReaderSetFacProcessMaskAll(r);
  const char* v = fstReaderGetValueFromHandleAtTime(r, time, it->second, buf);
  std::string s = v ? v : "";
  fstReaderClose(r);
  return s;
}

uint64_t from_bin(const std::string& s) {
  uint64_t v = 0;
  for (char c : s) v = v * 2 + (c == '1');
  return v;
}

/// The variable of `scope`.`field` with whatever range it got.
std::string find_var(const std::map<std::string, fstHandle>& vars, const std::string& base) {
  for (const auto& kv : vars)
    if (kv.first == base || kv.first.rfind(base + "[", 0) == 0) return kv.first;
  return "";
}

/// Checks the FST and layout of a failure at the report's cycle; `rtl_signal`
/// is one port of the unit's top (the RTL beside the comparison).
void check_failure_wave(const std::string& report, const std::string& fst,
                        const std::string& rtl_signal = "top.hwprof_hpt.in_valid_i") {
  std::smatch m;
  ASSERT_TRUE(std::regex_search(report, m, std::regex("at cycle (\\d+)"))) << report;
  const uint64_t cycle = std::stoull(m[1]);
  ASSERT_TRUE(std::regex_search(report, m, std::regex("\\n    ([\\w.]+): expected 0x([0-9a-f]+), actual 0x([0-9a-f]+)")))
      << report;
  const std::string field = m[1];
  const uint64_t exp = std::stoull(m[2], nullptr, 16), act = std::stoull(m[3], nullptr, 16);
  ASSERT_TRUE(std::filesystem::exists(fst)) << fst;
  const auto vars = fst_vars(fst);
  const uint64_t t = cycle * hwprof::sim::kWaveTicksPerCycle;
  const std::string rv = find_var(vars, "rtl." + field), mv = find_var(vars, "model." + field);
  ASSERT_FALSE(rv.empty()) << "no rtl." << field << " in " << fst;
  ASSERT_FALSE(mv.empty()) << "no model." << field << " in " << fst;
  EXPECT_EQ(from_bin(fst_value(fst, rv, t)), act) << rv << " at time " << t;
  EXPECT_EQ(from_bin(fst_value(fst, mv, t)), exp) << mv << " at time " << t;
  EXPECT_EQ(fst_value(fst, "mismatch." + field, t), "1");
  EXPECT_EQ(fst_value(fst, "cmp.mismatch", t), "1");
  EXPECT_EQ(from_bin(fst_value(fst, "cmp.cycle[31:0]", t)), cycle);
  // The cycle before matched everywhere.
  if (cycle > 0) {
    EXPECT_EQ(fst_value(fst, "cmp.mismatch", t - hwprof::sim::kWaveTicksPerCycle), "0");
  }
  // RTL signals are still there beside the comparison.
  EXPECT_NE(find_var(vars, rtl_signal), "") << fst;

  // The layout: every signal it names is in the FST; marker at the mismatch.
  const std::string gtkw = hwprof::sim::gtkw_path(fst);
  std::ifstream g(gtkw);
  ASSERT_TRUE(g) << gtkw;
  std::string line;
  bool marker = false;
  unsigned n = 0;
  while (std::getline(g, line)) {
    if (line.empty() || line[0] == '[' || line[0] == '@' || line[0] == '-' || line[0] == '#') continue;
    if (line[0] == '*') {
      std::istringstream is(line.substr(1));
      double zoom;
      int64_t mk;
      is >> zoom >> mk;
      marker = mk == static_cast<int64_t>(t);
      continue;
    }
    if (line.rfind("+{", 0) == 0) line = line.substr(line.find("} ") + 2);  // +{alias} signal
    ++n;
    EXPECT_TRUE(vars.count(line)) << gtkw << " names " << line << ", not in " << fst;
  }
  EXPECT_TRUE(marker) << gtkw << ": no marker at time " << t;
  EXPECT_GT(n, 10u);
}

// Traced run (TRACE=1): the comparison goes into the harness's own FST.
TEST(WaveCompare, TracedFaultyModelShowsBothValuesAndTheFlag) {
  SimEnv env = SimEnv::from_env();
  env.trace = true;
  env.trace_start = 0;
  env.trace_end = UINT64_MAX;
  env.wave_dir = env.wave_dir + "/wave_test";
  const std::string name = "traced_" + hwprof::tb::current_test_name();
  const std::string fst = env.wave_path(name, env.seed);
  std::remove(fst.c_str());
  const std::string report = run_faulty(env, name);
  ASSERT_FALSE(report.empty()) << "the faulty model was not caught";
  check_failure_wave(report, fst);
}

// Fails on purpose (run only by the test below, in a child process).
TEST(WaveCompare, DISABLED_FailingLockstep) {
  SimEnv env = SimEnv::from_env();
  const std::string r = run_faulty(env, "failing");
  ADD_FAILURE() << r;
}

// Untraced failing run: the binary re-runs the test with tracing around the
// mismatch and prints where the FST and the layout are.
TEST(WaveCompare, FailingTestLeavesAWaveformOfTheMismatch) {
  SimEnv env = SimEnv::from_env();
  const std::string dir = std::filesystem::absolute(env.wave_dir + "/wave_test_fail").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string out = dir + "/out.txt";
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string cmd = "env -u TRACE -u FAIL_WAVE WAVE_DIR=" + dir + " " + exe +
                          " --gtest_also_run_disabled_tests --gtest_filter=WaveCompare.DISABLED_FailingLockstep > " +
                          out + " 2>&1";
  const int rc = std::system(cmd.c_str());
  EXPECT_NE(rc, 0) << "the failing test passed";
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex("\\[wave\\]   gtkwave -a (\\S+) (\\S+)"))) << text;
  const std::string gtkw = m[1], fst = m[2];
  EXPECT_EQ(gtkw, hwprof::sim::gtkw_path(fst));
  EXPECT_EQ(fst, dir + "/failing_seed" + std::to_string(env.seed) + ".mismatch.fst");
  const size_t at = text.find("lock-step mismatch in hpt at cycle");
  ASSERT_NE(at, std::string::npos) << text;
  check_failure_wave(text.substr(at), fst);
  EXPECT_NE(text.find("failure waveform (written when the test ends"), std::string::npos) << text;
}

/// Runs `filter` (a DISABLED_ test with a planted model fault) of another
/// test binary without TRACE, as CTest would, and checks that the failure
/// leaves the comparison waveform: the scoreboard's report names unit and
/// cycle, the binary prints the gtkwave command, and the FST has rtl.*,
/// model.* and mismatch.* of the first differing field at that cycle.
void failing_test_of(const std::string& exe, const std::string& filter, const std::string& unit,
                     const std::string& rtl_signal, const std::string& dir_name) {
  SimEnv env = SimEnv::from_env();
  const std::string dir = std::filesystem::absolute(env.wave_dir + "/" + dir_name).string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string out = dir + "/out.txt";
  const std::string cmd = "env -u TRACE -u FAIL_WAVE -u SEED -u SEEDS WAVE_DIR=" + dir + " " + exe +
                          " --gtest_also_run_disabled_tests --gtest_filter=" + filter + " > " + out + " 2>&1";
  const int rc = std::system(cmd.c_str());
  EXPECT_NE(rc, 0) << filter << ": the failing test passed";
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex("\\[wave\\]   gtkwave -a (\\S+) (\\S+)"))) << text;
  const std::string gtkw = m[1], fst = m[2];
  EXPECT_EQ(gtkw, hwprof::sim::gtkw_path(fst));
  EXPECT_EQ(fst.rfind(dir + "/", 0), 0u) << fst;
  EXPECT_NE(fst.find(".mismatch.fst"), std::string::npos) << fst;
  const size_t at = text.find("lock-step mismatch in " + unit + " at cycle");
  ASSERT_NE(at, std::string::npos) << text;
  check_failure_wave(text.substr(at), fst, rtl_signal);
}

// The RAP stage tests drive their tops themselves (tb/rap/rap_stage_test.cpp):
// a model fault planted in the merge buffer's lock-step test leaves the
// same failure waveform as a Lockstep unit's.
TEST(WaveCompare, RapStageFailureLeavesAWaveformOfTheMismatch) {
  failing_test_of(HWPROF_TB_RAP, "RapStage.DISABLED_MergeBufferFaultyModel", "rap_merge_buffer",
                  "top.hwprof_rap_merge_buffer.in_valid_i", "wave_test_rap_stage");
}

// The primitive tests (tb/prim/prim_test.cpp), likewise: the fifo's
// lock-step test with a model fault.
TEST(WaveCompare, PrimFailureLeavesAWaveformOfTheMismatch) {
  failing_test_of(HWPROF_TB_PRIM, "PrimFifoSync.DISABLED_FaultyModel", "fifo_sync",
                  "top.hwprof_fifo_sync.in_valid_i", "wave_test_prim");
}

}  // namespace
