// bench_rap_accuracy: accuracy of the RAP tree's hot ranges against exact
// counts (paper 001 section 5.3, Fig. 10; spec section 8: "for each hot
// range, percentage error = |estimate - exact| / exact; report max and
// average; memory = peak node count"), the study behind docs/results.md
// "RAP accuracy".
//
// For each trace the code-profile stream (model::rap_source, RapSourceKind::
// Code: value = the previous branch record's next, weight = this record's
// insns) is read once into memory, raw: no merging buffer (buffer depth 0;
// the buffer only merges adjacent equal values, so the tree sees the same
// weights per value but in fewer, heavier events). The exact profile is built
// once: a hash map value -> weight, sorted by value with prefix sums, so the
// exact weight of any [lo, hi] is two binary searches.
//
// Then for every eps in {10%, 5%, 1%} and NodeCap in {64, ..., 1024}, 4096 (the
// paper's 64 KB at 16 B per node) and 0 (unlimited, the model-only reference) one RapTree (W = 32, MergeFirst 1024)
// takes the whole stream, finalize() runs once, and hot_ranges(F) (F = 10%
// unless --hot) are compared with the exact profile. Per hot range v
// (docs/rap.md "Read-out"):
//   * carry (primary, the paper's Fig. 7 number, what a hot range reports):
//     estimate = carry(v), exact = weight of [prefix(v), last(v)] minus the
//     weight of v's maximal hot descendants (the hot ranges directly below v,
//     hot_level + 1, each excluded with its whole subtree);
//   * subtree (secondary): estimate = subtree(v), exact = weight of
//     [prefix(v), last(v)] (the hot sub-ranges included).
// Error = |estimate - exact| / exact in percent (a hot range whose exact
// weight is 0 is counted in "undefined" and left out of max and average).
// Also the largest |carry - exact| as a percentage of n (the eps bound of
// docs/rap.md "Bounds" is in these units: at most eps * n + H * w).
//
// Usage: bench_rap_accuracy [--jobs J (2)] [--hot F (0.10)] [--limit N] TRACE...
// Prints one JSON object per line on stdout: {"kind":"trace",...} once per
// trace and {"kind":"rap",...} per (trace, eps, cap).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace_source.h"
#include "rap_tree.h"
#include "trace.h"

namespace {

using namespace hwprof;
using model::RapEvent;
using model::RapParams;
using model::RapTree;

const double kEps[] = {0.10, 0.05, 0.01};
const uint32_t kCaps[] = {64, 128, 256, 512, 1024, 4096, 0};

/// Exact weights per value, sorted, with prefix sums.
struct Exact {
  std::vector<uint32_t> values;
  std::vector<uint64_t> prefix;  // prefix[i] = weight of values[0..i-1]
  uint64_t range(uint32_t lo, uint32_t hi) const {
    const auto a = std::lower_bound(values.begin(), values.end(), lo) - values.begin();
    const auto b = std::upper_bound(values.begin(), values.end(), hi) - values.begin();
    return prefix[size_t(b)] - prefix[size_t(a)];
  }
};

struct Result {
  double eps = 0;
  uint32_t cap = 0;
  size_t hot = 0, undefined = 0;
  double carry_max = 0, carry_avg = 0, sub_max = 0, sub_avg = 0, carry_max_of_n = 0, hot_share = 0;
  uint64_t peak = 0, final_nodes = 0, splits = 0, skipped = 0, sched = 0, cap_passes = 0;
  double seconds = 0;
};

Result run(const std::vector<RapEvent>& ev, const Exact& ex, double eps, uint32_t cap, uint32_t hot_q16) {
  Result r;
  r.eps = eps;
  r.cap = cap;
  const auto t0 = std::chrono::steady_clock::now();
  RapParams p;
  p.range_bits = 32;
  p.eps_q16 = RapParams::q16(eps);
  p.node_cap = cap;
  p.merge_first = 1024;
  RapTree t(p);
  for (const RapEvent& e : ev) t.add(e.value, e.weight);
  t.finalize();
  const auto hr = t.hot_ranges(hot_q16);
  const uint64_t n = t.n();
  double carry_sum = 0, sub_sum = 0;
  uint64_t carry_total = 0;
  for (size_t i = 0; i < hr.size(); ++i) {
    const auto& h = hr[i];
    const uint64_t sub_exact = ex.range(h.prefix, h.last);
    uint64_t excl = 0;
    // Pre-order: v's hot descendants follow it while their prefix is inside v.
    for (size_t j = i + 1; j < hr.size() && hr[j].prefix <= h.last; ++j)
      if (hr[j].hot_level == h.hot_level + 1) excl += ex.range(hr[j].prefix, hr[j].last);
    const uint64_t carry_exact = sub_exact - excl;
    carry_total += h.carry;
    if (carry_exact == 0 || sub_exact == 0) {
      ++r.undefined;
      continue;
    }
    const double ce = 100.0 * std::fabs(double(h.carry) - double(carry_exact)) / double(carry_exact);
    const double se = 100.0 * std::fabs(double(h.subtree) - double(sub_exact)) / double(sub_exact);
    r.carry_max = std::max(r.carry_max, ce);
    r.sub_max = std::max(r.sub_max, se);
    r.carry_max_of_n =
        std::max(r.carry_max_of_n, n ? 100.0 * std::fabs(double(h.carry) - double(carry_exact)) / double(n) : 0.0);
    carry_sum += ce;
    sub_sum += se;
  }
  r.hot = hr.size();
  const size_t k = r.hot - r.undefined;
  r.carry_avg = k ? carry_sum / double(k) : 0;
  r.sub_avg = k ? sub_sum / double(k) : 0;
  r.hot_share = n ? 100.0 * double(carry_total) / double(n) : 0;
  const auto& s = t.stats();
  r.peak = s.peak_nodes;
  r.final_nodes = t.node_count();
  r.splits = s.splits;
  r.skipped = s.splits_skipped;
  r.sched = s.scheduled_passes;
  r.cap_passes = s.capacity_passes;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::string base_name(const std::string& path) {
  std::string b = path.substr(path.find_last_of('/') + 1);
  return b.substr(0, b.find('.'));
}

}  // namespace

int main(int argc, char** argv) {
  unsigned jobs = 2;
  double hot = 0.10;
  uint64_t limit = 0;
  std::vector<std::string> traces;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--jobs" && i + 1 < argc) {
      jobs = unsigned(std::max(1, std::atoi(argv[++i])));
    } else if (a == "--hot" && i + 1 < argc) {
      hot = std::atof(argv[++i]);
    } else if (a == "--limit" && i + 1 < argc) {
      limit = std::strtoull(argv[++i], nullptr, 10);
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "usage: bench_rap_accuracy [--jobs J] [--hot F] [--limit N] TRACE...\n");
      return 2;
    } else {
      traces.push_back(a);
    }
  }
  if (traces.empty()) {
    std::fprintf(stderr, "usage: bench_rap_accuracy [--jobs J] [--hot F] [--limit N] TRACE...\n");
    return 2;
  }
  try {
    const uint32_t hot_q16 = RapParams::q16(hot);
    for (const std::string& path : traces) {
      trace::scan(path, nullptr);
      std::vector<RapEvent> ev;
      auto src = hwprof::trace::rap_source(path, hwprof::trace::RapSourceKind::Code, limit);
      RapEvent e;
      std::unordered_map<uint32_t, uint64_t> m;
      uint64_t n = 0, wmax = 0;
      while (src(e)) {
        ev.push_back(e);
        m[e.value] += e.weight;
        n += e.weight;
        wmax = std::max<uint64_t>(wmax, e.weight);
      }
      std::vector<std::pair<uint32_t, uint64_t>> v(m.begin(), m.end());
      std::sort(v.begin(), v.end());
      Exact ex;
      ex.values.reserve(v.size());
      ex.prefix.reserve(v.size() + 1);
      ex.prefix.push_back(0);
      for (const auto& [val, w] : v) {
        ex.values.push_back(val);
        ex.prefix.push_back(ex.prefix.back() + w);
      }
      std::printf(
          "{\"kind\":\"trace\",\"trace\":\"%s\",\"events\":%zu,\"n\":%llu,\"distinct\":%zu,\"max_weight\":%llu,"
          "\"hot\":%.4f}\n",
          base_name(path).c_str(), ev.size(), (unsigned long long)n, v.size(), (unsigned long long)wmax, hot);
      std::fflush(stdout);

      std::vector<std::pair<double, uint32_t>> cfg;
      for (double eps : kEps)
        for (uint32_t cap : kCaps) cfg.emplace_back(eps, cap);
      std::vector<Result> res(cfg.size());
      std::atomic<size_t> next{0};
      std::exception_ptr err;
      std::atomic<bool> failed{false};
      auto worker = [&]() {
        for (size_t i; (i = next++) < cfg.size();) {
          try {
            res[i] = run(ev, ex, cfg[i].first, cfg[i].second, hot_q16);
          } catch (...) {
            if (!failed.exchange(true)) err = std::current_exception();
          }
        }
      };
      std::vector<std::thread> th;
      for (unsigned j = 0; j < jobs; ++j) th.emplace_back(worker);
      for (auto& x : th) x.join();
      if (err) std::rethrow_exception(err);
      for (const Result& r : res) {
        std::printf(
            "{\"kind\":\"rap\",\"trace\":\"%s\",\"eps\":%.2f,\"cap\":%u,\"hot_ranges\":%zu,\"undefined\":%zu,"
            "\"carry_max\":%.4f,\"carry_avg\":%.4f,\"sub_max\":%.4f,\"sub_avg\":%.4f,\"carry_max_of_n\":%.4f,"
            "\"hot_share\":%.2f,\"peak_nodes\":%llu,\"final_nodes\":%llu,\"splits\":%llu,\"splits_skipped\":%llu,"
            "\"scheduled_passes\":%llu,\"capacity_passes\":%llu,\"seconds\":%.3f}\n",
            base_name(path).c_str(), r.eps, r.cap, r.hot, r.undefined, r.carry_max, r.carry_avg, r.sub_max,
            r.sub_avg, r.carry_max_of_n, r.hot_share, (unsigned long long)r.peak, (unsigned long long)r.final_nodes,
            (unsigned long long)r.splits, (unsigned long long)r.skipped, (unsigned long long)r.sched,
            (unsigned long long)r.cap_passes, r.seconds);
      }
      std::fflush(stdout);
    }
  } catch (const std::exception& x) {
    std::fprintf(stderr, "bench_rap_accuracy: %s\n", x.what());
    return 1;
  }
  return 0;
}
