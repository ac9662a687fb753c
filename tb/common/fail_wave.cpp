#include "fail_wave.h"

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "rtl_harness.h"

extern char** environ;

namespace hwprof::tb {

namespace {

constexpr uint64_t kPost = 16;  // cycles traced after the mismatch

uint64_t env_u64(const char* name, uint64_t dflt) {
  const char* v = std::getenv(name);
  if (!v || !*v) return dflt;
  return std::strtoull(v, nullptr, 0);
}

std::string test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!info) return "";
  return std::string(info->test_suite_name()) + "." + info->name();
}

std::string absolute(const std::string& p) {
  std::error_code ec;
  auto a = std::filesystem::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

struct State {
  // Harness numbering within the current test.
  std::string test;
  unsigned count = 0;
  unsigned last_ordinal = 0;
  std::string last_fail_path;
  // The re-run (child) side.
  bool child = false;
  unsigned target = 0;
  uint64_t first = 0, last = 0, cycle = 0;
  std::string path;
  // The first mismatch of the current test (parent side).
  bool noted = false;
  WaveBinding bind;
  uint64_t noted_cycle = 0;
  std::string unit;
};

State& st() {
  static State s;
  return s;
}

void on_harness(sim::SimOptions& opt, const std::string& wave_name, uint64_t seed) {
  State& s = st();
  const std::string t = test_name();
  if (t != s.test) s.test = t, s.count = 0;
  s.last_ordinal = s.count++;
  s.last_fail_path = absolute(opt.wave_dir + "/" + wave_name + "_seed" + std::to_string(seed) + ".mismatch.fst");
  if (!s.child) return;
  if (s.last_ordinal == s.target) {
    opt.wave = true;
    opt.wave_file = s.path;
    opt.wave_start = s.first;
    opt.wave_end = s.last;
  } else {
    opt.wave = false;
  }
}

/// Runs this test again in a child process with the one harness traced.
void rerun(const std::string& test) {
  State& s = st();
  const std::string& fst = s.bind.fail_path;
  const uint64_t pre = env_u64("FAIL_WAVE_CYCLES", 2000);
  const uint64_t first = s.noted_cycle > pre ? s.noted_cycle - pre : 0, last = s.noted_cycle + kPost;
  std::filesystem::create_directories(std::filesystem::path(fst).parent_path());
  const std::string status = fst + ".status", log = fst + ".log";
  std::remove(status.c_str());
  std::remove(fst.c_str());

  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string v = *e;
    if (v.rfind("TRACE=", 0) == 0 || v.rfind("TRACE_START=", 0) == 0 || v.rfind("TRACE_END=", 0) == 0 ||
        v.rfind("HWPROF_FAIL_WAVE=", 0) == 0 || v.rfind("GTEST_OUTPUT=", 0) == 0)
      continue;
    env.push_back(v);
  }
  env.push_back("HWPROF_FAIL_WAVE=" + std::to_string(s.bind.ordinal) + ":" + std::to_string(first) + ":" +
                std::to_string(last) + ":" + std::to_string(s.noted_cycle) + ":" + fst);
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  std::vector<std::string> args = {exe, "--gtest_filter=" + test, "--gtest_also_run_disabled_tests", "--gtest_brief=1"};
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::printf("[wave] re-running %s with tracing for cycles %llu..%llu around the mismatch (FAIL_WAVE=0: off)\n",
              test.c_str(), static_cast<unsigned long long>(first), static_cast<unsigned long long>(last));
  std::fflush(stdout);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  int ws = 0;
  if (rc == 0) waitpid(pid, &ws, 0);
  uint64_t got = UINT64_MAX;
  if (std::ifstream in(status); in) in >> got;
  if (rc != 0 || got != s.noted_cycle || !std::filesystem::exists(fst)) {
    std::printf("[wave] the re-run did not reproduce the mismatch at cycle %llu (log: %s)\n",
                static_cast<unsigned long long>(s.noted_cycle), log.c_str());
    return;
  }
  std::remove(status.c_str());
  const std::string gtkw = sim::gtkw_path(fst);
  std::printf(
      "[wave] failure waveform of %s, cycles %llu..%llu, first mismatch at cycle %llu (time %llu):\n"
      "[wave]   %s\n"
      "[wave]   rtl.* = RTL, model.* = model, mismatch.* = differs; layout with a marker at the mismatch:\n"
      "[wave]   gtkwave -a %s %s\n",
      s.unit.c_str(), static_cast<unsigned long long>(first), static_cast<unsigned long long>(last),
      static_cast<unsigned long long>(s.noted_cycle),
      static_cast<unsigned long long>(s.noted_cycle * sim::kWaveTicksPerCycle), fst.c_str(), gtkw.c_str(),
      fst.c_str());
  std::fflush(stdout);
}

class Listener : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo&) override { st().noted = false; }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    State& s = st();
    if (s.child || !s.noted || !info.result()->Failed()) return;
    s.noted = false;
    const std::string test = std::string(info.test_suite_name()) + "." + info.name();
    if (s.bind.compare) {
      const std::string& p = s.bind.traced_path;
      std::printf("[wave] traced run: comparison in %s; layout with a marker at cycle %llu:\n[wave]   gtkwave -a %s %s\n",
                  p.c_str(), static_cast<unsigned long long>(s.noted_cycle), sim::gtkw_path(p).c_str(),
                  p.c_str());
      std::fflush(stdout);
      return;
    }
    if (env_u64("FAIL_WAVE", 1) == 0) return;
    rerun(test);
  }
};

bool install() {
  State& s = st();
  if (const char* v = std::getenv("HWPROF_FAIL_WAVE"); v && *v) {
    unsigned long long n = 0, a = 0, b = 0, c = 0;
    int off = 0;
    if (std::sscanf(v, "%llu:%llu:%llu:%llu:%n", &n, &a, &b, &c, &off) == 4 && off > 0) {
      s.child = true;
      s.target = static_cast<unsigned>(n);
      s.first = a, s.last = b, s.cycle = c;
      s.path = v + off;
    }
  }
  sim::harness_hook() = &on_harness;
  ::testing::UnitTest::GetInstance()->listeners().Append(new Listener);
  return true;
}

const bool installed = install();

}  // namespace

WaveBinding fail_wave_bind(const std::string& unit) {
  (void)installed;
  State& s = st();
  WaveBinding b;
  const auto& l = sim::last_harness();
  // One scoreboard per harness: a scoreboard built with no new harness
  // since the last binding records nowhere.
  static uint64_t claimed = 0;
  if (l.serial == claimed) return b;
  claimed = l.serial;
  b.compare = l.compare.lock();
  b.ordinal = s.last_ordinal;
  b.traced_path = absolute(l.wave_path);
  b.fail_path = s.last_fail_path;
  b.rerun_target = s.child && b.ordinal == s.target && b.compare;
  if (b.compare) b.compare->set_unit(unit, unit_layout(unit));
  return b;
}

uint64_t fail_wave_mismatch(const WaveBinding& b, uint64_t cycle, const std::string& unit, std::string& report) {
  State& s = st();
  if (b.rerun_target) {
    if (std::ofstream o(s.path + ".status"); o) o << cycle << "\n";
    return kPost;
  }
  if (s.child || b.fail_path.empty()) return 0;
  if (!s.noted) {
    s.noted = true;
    s.bind = b;
    s.noted_cycle = cycle;
    s.unit = unit;
  }
  if (b.compare)
    report += "  waveform (with rtl.*, model.*, mismatch.*): gtkwave -a " + sim::gtkw_path(b.traced_path) + " " +
              b.traced_path + "\n";
  else if (env_u64("FAIL_WAVE", 1) != 0)
    report += "  failure waveform (written when the test ends, if it fails): gtkwave -a " +
              sim::gtkw_path(b.fail_path) + " " + b.fail_path + "\n";
  return 0;
}

std::string unit_layout(const std::string& unit) {
#ifdef HWPROF_SOURCE_DIR
  std::error_code ec;
  std::string best;
  for (const auto& d : std::filesystem::directory_iterator(std::string(HWPROF_SOURCE_DIR) + "/tb", ec)) {
    if (!d.is_directory()) continue;
    for (const auto& f : std::filesystem::directory_iterator(d.path(), ec)) {
      if (f.path().extension() != ".gtkw") continue;
      const std::string stem = f.path().stem().string();
      if (stem == unit) return f.path().string();
      if (unit.size() > stem.size() && unit.compare(unit.size() - stem.size() - 1, std::string::npos, "_" + stem) == 0)
        best = f.path().string();
    }
  }
  return best;
#else
  (void)unit;
  return "";
#endif
}

}  // namespace hwprof::tb
