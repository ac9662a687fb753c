// Clock, reset and optional FST tracing around one Verilated top.
//
// One VerilatedContext per harness. Inputs are changed while the clock is
// low, away from the sampling edge. Per cycle c the waveform gets two
// samples: time 10c (inputs applied, combinational outputs settled) and
// 10c+5 (after the rising edge).
//
// A traced harness also carries a WaveCompare (sim/wave_compare.h): a
// scoreboard bound to it records every compare (name, RTL value, model
// value) and, when the harness closes the FST, those are merged into the
// same file under rtl.* / model.* / mismatch.* / cmp.*, and the comparison
// layout <file>.gtkw is written beside it. Untraced harnesses pay nothing.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>
#ifdef HWPROF_COVERAGE
#include <unistd.h>
#include <verilated_cov.h>

#include <atomic>
#include <cstdlib>
#endif

#include <cstdio>
#include <memory>
#include <string>

#include "sim_options.h"
#include "wave_compare.h"

namespace hwprof::sim {

/// Called by every Harness before it opens its waveform: may change the
/// options (the tests' failure re-run turns tracing on for one harness).
/// Set by the test bench; nullptr in the CLI.
using HarnessHook = void (*)(SimOptions& opt, const std::string& wave_name, uint64_t seed);
inline HarnessHook& harness_hook() {
  static HarnessHook h = nullptr;
  return h;
}

/// Clock cycles run by every harness of this process (summed when a harness
/// is destroyed). With HWPROF_CYCLES_FILE set, the total is appended to that
/// file as one line at process exit (`make soak` sums the lock-step cycles
/// it ran this way; scripts/soak.py).
struct CycleTally {
  uint64_t cycles = 0;
  ~CycleTally() {
    const char* path = std::getenv("HWPROF_CYCLES_FILE");
    if (path == nullptr || *path == 0 || cycles == 0) return;
    if (std::FILE* f = std::fopen(path, "a")) {
      std::fprintf(f, "%llu\n", static_cast<unsigned long long>(cycles));
      std::fclose(f);
    }
  }
};
inline CycleTally& cycle_tally() {
  static CycleTally t;
  return t;
}

/// The most recently constructed harness: its comparison log (null when it
/// does not trace) and its waveform path. A scoreboard built right after
/// its engine binds to it (tb/common/scoreboard.cpp).
struct LastHarness {
  std::weak_ptr<WaveCompare> compare;
  std::string wave_path;
  uint64_t serial = 0;  ///< harnesses constructed so far in this process
};
inline LastHarness& last_harness() {
  static LastHarness l;
  return l;
}

template <typename Top>
class Harness {
 public:
  /// `wave_name` names the FST file (with the seed) when opt.wave is set;
  /// `seed` also seeds the randomised initial state.
  Harness(const SimOptions& opt, const std::string& wave_name, uint64_t seed)
      : opt_(opt), ctx_(std::make_unique<VerilatedContext>()) {
    if (harness_hook()) harness_hook()(opt_, wave_name, seed);
    ctx_->randReset(2);  // random initial values (with -x-initial unique)
    ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));
    ctx_->commandArgs(0, static_cast<const char**>(nullptr));
    if (opt_.wave) ctx_->traceEverOn(true);
    top_ = std::make_unique<Top>(ctx_.get(), "top");
#ifdef HWPROF_COVERAGE
    name_ = wave_name;
#endif
    if (opt_.wave) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      path_ = opt_.wave_path(wave_name, seed);
      fst_->open(path_.c_str());
      compare_ = std::make_shared<WaveCompare>(opt_.wave_start, opt_.wave_end);
      std::fprintf(stderr, "[harness] waveform: %s\n", path_.c_str());
    }
    auto& l = last_harness();
    l.compare = compare_;
    l.wave_path = path_;
    ++l.serial;
    top_->clk_i = 0;
    top_->rst_ni = 1;
    top_->eval();
  }
  ~Harness() {
    cycle_tally().cycles += cycle_;
    top_->final();
    if (fst_) {
      fst_->close();
      merge_compare();
    }
#ifdef HWPROF_COVERAGE
    write_coverage();
#endif
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  Top& top() { return *top_; }
  uint64_t cycle() const { return cycle_; }
  const std::string& wave_path() const { return path_; }
  /// The comparison log of a traced harness (nullptr when not tracing).
  const std::shared_ptr<WaveCompare>& wave_compare() const { return compare_; }

  /// Settles combinational logic after inputs changed (clock low).
  void eval() { top_->eval(); }

  /// One full clock: sample at 10c, rising edge at 10c+5, falling edge.
  void tick() {
    top_->eval();
    dump(cycle_ * kWaveTicksPerCycle);
    top_->clk_i = 1;
    top_->eval();
    dump(cycle_ * kWaveTicksPerCycle + kWaveTicksPerCycle / 2);
    top_->clk_i = 0;
    top_->eval();
    ++cycle_;
  }

  /// Asynchronous reset held for `cycles` clocks, released with clock low.
  void reset(unsigned cycles = 2) {
    top_->rst_ni = 0;
    top_->eval();
    for (unsigned i = 0; i < cycles; ++i) tick();
    top_->rst_ni = 1;
    top_->eval();
  }

  /// Flushes the waveform (call before reporting a failure).
  void flush() {
    if (fst_) fst_->flush();
  }

 private:
#ifdef HWPROF_COVERAGE
  // Coverage build only (make coverage): this model's counts go to
  // $HWPROF_COVERAGE_DIR/<wave name>-<pid>-<n>.dat, merged by scripts/coverage.py.
  void write_coverage() {
    const char* dir = std::getenv("HWPROF_COVERAGE_DIR");
    if (!dir || !*dir) return;
    static std::atomic<unsigned> n{0};
    std::string name = name_;
    for (char& c : name)
      if (c == '/' || c == ' ') c = '_';
    const std::string path = std::string(dir) + "/" + name + "-" + std::to_string(::getpid()) + "-" +
                             std::to_string(n++) + ".dat";
    ctx_->coveragep()->write(path.c_str());
  }
  std::string name_;
#endif
  void dump(uint64_t t) {
    if (fst_ && cycle_ >= opt_.wave_start && cycle_ <= opt_.wave_end) fst_->dump(t);
  }
  /// Rewrites the closed FST with the comparison signals and writes the
  /// comparison layout (<file>.gtkw) when a scoreboard recorded anything.
  void merge_compare() {
    if (!compare_ || compare_->empty()) return;
    const std::string tmp = path_ + ".tmp";
    std::string err;
    if (compare_->merge(path_, tmp, &err) && std::rename(tmp.c_str(), path_.c_str()) == 0) {
      const std::string gtkw = gtkw_path(path_);
      compare_->write_gtkw(gtkw, path_);
    } else {
      std::remove(tmp.c_str());
      std::fprintf(stderr, "[harness] could not add the comparison to %s: %s\n", path_.c_str(), err.c_str());
    }
  }

  SimOptions opt_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::shared_ptr<WaveCompare> compare_;
  std::string path_;
  uint64_t cycle_ = 0;
};

}  // namespace hwprof::sim
