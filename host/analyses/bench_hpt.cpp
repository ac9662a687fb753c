// bench_hpt: accuracy of the hot path table (docs/hpt.md) against the exact
// path profile, the study behind docs/results.md "Hot path table accuracy".
//
// For each trace the BL path stream (path-stack model, BL preset, depth 16,
// MaxLen 32) is extracted once and held in memory with each descriptor's
// window; then every HPT configuration of the grid replays it through two
// HptAlgo instances:
//   * complete: one table for the whole trace; its overlap (spec section 8)
//     with the exact profile of the whole trace;
//   * dynamic: a table cleared at the start of every window (and an exact
//     profile restarted there); the mean over the windows of each window's
//     overlap.
// Windows follow the interval rule of spec section 5: a window ends after
// the branch record that brings the running instruction count (the branch
// records' insns) to or past its boundary, the next boundary is the previous
// one plus --window; a descriptor belongs to the window of the record that
// emits it. Only complete windows count: the trailing partial window is left
// out (a trace shorter than one window has no dynamic figure).
// The oracle bound (the N heaviest paths with exact weights) is reported
// for every entries count, complete and dynamic.
//
// Usage: bench_hpt [--window N] [--jobs J] [--grid pruned|full|candidates|hw]
//                  [--policy NAME,ENTRIES,WAYS[,sk=RxCxBxP][,pr=SxWxFxC][,mt=M]]... TRACE...
// --grid candidates and --policy run the candidate policies of docs/hpt.md
// ("Candidate policies") instead of the grid (see parse_spec); their rows
// add the policy name with its options, the storage in bits and
// resident_exact (the complete overlap of the final table's keys with their
// exact weights: what the table's membership alone would give).
// --grid hw: the four CTRL.policy codes as the hardware decodes them
// (HptCtrl::unpack, the decode of the cycle model's commit: 0 lfu, 1 ss,
// 2 erode, 3 lfu+prob) on the RTL build hwprof_hpt Sets=128 Ways=4
// ProbSets=128 ProbWays=4 ProbFpBits=12 ProbCountBits=14
// (HptProbation::recommended()), frequency and instruction metrics, plb,
// skewed; rows carry "ctrl" (the CTRL value), and every row the paper's
// storage ("paper_bits": 65536, its 512 x 4 table of about 8 KB).
// Prints one JSON object per line on stdout: {"kind":"trace",...} once per
// trace, {"kind":"oracle",...} per (trace, entries, metric) and
// {"kind":"hpt",...} per (trace, configuration) (scripts/bench_hpt.py).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "branch_record.h"
#include "hpt_algo.h"
#include "path_stack_algo.h"
#include "trace.h"
#include "trace_source.h"

namespace {

using namespace hwprof;
using model::HptAlgo;
using model::HptCtrl;
using model::HptIndex;
using model::HptMetric;
using model::HptPolicy;
using model::WeightedPath;

const unsigned kEntries[] = {128, 256, 512, 1024, 2048};
const unsigned kWays[] = {1, 2, 4, 8, 16, 32};
const HptMetric kMetrics[] = {HptMetric::Freq, HptMetric::Insns};

struct Desc {
  model::Emission e;  // the descriptor as the HPT receives it
  uint32_t id;        // dense path id (completed descriptors only)
  uint32_t window;
};

struct Stream {
  std::vector<Desc> descs;
  std::vector<model::PathKey> keys;  // by id
  uint32_t windows = 0;              // complete windows
  uint64_t records = 0, insns = 0, completed = 0;
};

Stream extract(const std::string& path, uint64_t window) {
  Stream s;
  model::PathStackAlgo algo(16, 32);
  const model::Ppcr bl{model::Ppcr::kBl};
  std::unordered_map<model::PathKey, uint32_t, model::PathKeyHash> ids;
  auto src = hwprof::trace::branch_source(path);
  model::BranchRecord r;
  uint64_t boundary = window;
  while (src(r)) {
    ++s.records;
    if (auto e = algo.process(model::PathRecord::classify(r, bl))) {
      Desc d{*e, 0, s.windows};
      if (!e->path.incomplete) {
        const model::PathKey k{e->path.start, e->path.length, e->path.dirs};
        auto [it, fresh] = ids.try_emplace(k, static_cast<uint32_t>(s.keys.size()));
        if (fresh) s.keys.push_back(k);
        d.id = it->second;
        ++s.completed;
      }
      s.descs.push_back(d);
    }
    s.insns += r.insns;
    if (s.insns >= boundary) {
      ++s.windows;
      boundary += window;
    }
  }
  return s;
}

// Exact profiles: [0] the whole trace, [1 + w] window w (w < windows).
using Profile = std::vector<WeightedPath>;
std::vector<Profile> exact_profiles(const Stream& s, HptMetric m) {
  std::vector<Profile> out(1 + s.windows);
  std::vector<uint64_t> all(s.keys.size(), 0), win(s.keys.size(), 0);
  std::vector<uint32_t> stamp(s.keys.size(), UINT32_MAX), touched;
  auto flush = [&](uint32_t w) {
    for (uint32_t id : touched) {
      if (w < s.windows) out[1 + w].push_back({s.keys[id], win[id]});
      win[id] = 0;
    }
    touched.clear();
  };
  uint32_t cur = 0;
  for (const Desc& d : s.descs) {
    if (d.window != cur) {
      flush(cur);
      cur = d.window;
    }
    if (d.e.path.incomplete) continue;
    const uint64_t w = HptAlgo::metric(d.e.path, m);
    all[d.id] += w;
    if (stamp[d.id] != cur) {
      stamp[d.id] = cur;
      touched.push_back(d.id);
    }
    win[d.id] += w;
  }
  flush(cur);
  for (size_t id = 0; id < s.keys.size(); ++id)
    if (all[id]) out[0].push_back({s.keys[id], all[id]});
  return out;
}

// Mean over the complete windows with at least one completed path.
template <typename Fn>
double window_mean(const std::vector<Profile>& exact, Fn&& fn) {
  double sum = 0;
  unsigned n = 0;
  for (size_t w = 1; w < exact.size(); ++w)
    if (!exact[w].empty()) {
      sum += fn(w - 1);
      ++n;
    }
  return n ? sum / n : 0.0;
}

struct Config {
  unsigned entries, ways;
  HptPolicy policy;
  HptIndex index;
  bool skew;
  HptMetric metric;
  // The candidate policies' options (--policies; docs/hpt.md "Candidate policies").
  model::HptAdmit admit = model::HptAdmit::None;
  bool inherit = false;
  model::HptSketch sketch{};
  model::HptProbation prob{};
  int ctrl = -1;  // --grid hw: the CTRL value the row decodes (HptCtrl::unpack)
  auto tie() const {
    return std::make_tuple(entries, ways, unsigned(policy), unsigned(index), skew, unsigned(metric), unsigned(admit),
                           inherit, sketch.rows, sketch.cols, sketch.bits, sketch.period, prob.sets, prob.ways,
                           prob.fp_bits, prob.count_bits);
  }
  bool operator<(const Config& o) const { return tie() < o.tie(); }
};

// The pruned grid (docs/results.md): the whole policy x index x skew x
// metric grid at 512 x 4; the entries x ways sweep with plb for each policy,
// skewed and not, frequency metric; the entries sweep at 4 ways with the
// instruction metric (plb, skewed).
std::vector<Config> grid(bool full) {
  std::set<Config> g;
  const HptPolicy pols[] = {HptPolicy::Lfu, HptPolicy::Ss, HptPolicy::Erode};
  for (HptPolicy p : pols)
    for (HptIndex ix : {HptIndex::Plb, HptIndex::Pb})
      for (bool sk : {false, true})
        for (HptMetric m : kMetrics) {
          if (full) {
            for (unsigned e : kEntries)
              for (unsigned w : kWays) g.insert({e, w, p, ix, sk, m});
          } else {
            g.insert({512, 4, p, ix, sk, m});
          }
        }
  if (!full)
    for (HptPolicy p : pols) {
      for (unsigned e : kEntries) {
        for (unsigned w : kWays)
          for (bool sk : {false, true}) g.insert({e, w, p, HptIndex::Plb, sk, HptMetric::Freq});
        g.insert({e, 4, p, HptIndex::Plb, true, HptMetric::Insns});
      }
    }
  return {g.begin(), g.end()};
}

struct Result {
  double complete = 0, dynamic = 0, dyn_min = 100;
  double resident_exact = 0;  // complete: the resident keys with their exact weights
  model::HptStats stats;
  double seconds = 0;
};

std::string name_of(const Config& c) {
  HptCtrl ctrl;
  ctrl.policy = c.policy;
  ctrl.admit = c.admit;
  ctrl.inherit = c.inherit;
  return ctrl.policy_name();
}

Result run_config(const Stream& s, const Config& c, const std::vector<Profile>& exact) {
  const auto t0 = std::chrono::steady_clock::now();
  Result r;
  HptCtrl ctrl;
  ctrl.index = c.index;
  ctrl.skew = c.skew;
  ctrl.metric = c.metric;
  ctrl.policy = c.policy;
  ctrl.admit = c.admit;
  ctrl.inherit = c.inherit;
  const unsigned sets = c.entries / c.ways;
  HptAlgo whole(sets, c.ways, c.sketch, c.prob), dyn(sets, c.ways, c.sketch, c.prob);
  std::vector<double> per_window(s.windows, 0.0);
  uint32_t cur = 0;
  auto close = [&](uint32_t w) {
    if (w < s.windows) per_window[w] = model::path_overlap(exact[1 + w], model::hpt_weights(dyn));
    dyn.clear();
  };
  for (const Desc& d : s.descs) {
    if (d.window != cur) {
      close(cur);
      cur = d.window;
    }
    whole.insert(d.e, ctrl);
    if (cur < s.windows) dyn.insert(d.e, ctrl);
  }
  close(cur);
  r.complete = model::path_overlap(exact[0], model::hpt_weights(whole));
  {
    std::unordered_map<model::PathKey, uint64_t, model::PathKeyHash> w;
    for (const auto& p : exact[0]) w[p.key] = p.weight;
    std::vector<WeightedPath> res;
    for (const auto& x : whole.contents()) res.push_back({x.key, w[x.key]});
    r.resident_exact = model::path_overlap(exact[0], res);
  }
  r.dynamic = window_mean(exact, [&](size_t w) { return per_window[w]; });
  r.dyn_min = 100;
  for (size_t w = 0; w < s.windows; ++w)
    if (!exact[1 + w].empty()) r.dyn_min = std::min(r.dyn_min, per_window[w]);
  if (s.windows == 0) r.dyn_min = 0;
  r.stats = whole.stats();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

void usage();

// --policy NAME,ENTRIES,WAYS[,sk=ROWSxCOLSxBITSxPERIOD][,pr=SETSxWAYSxFPxCOUNT][,mt=METRIC]:
// one candidate configuration (plb, skewed, frequency metric unless mt=); NAME as
// HptCtrl::parse_policy_name ("erode+tlfu", "lfu+prob"), sk= the sketch
// (HptSketch), pr= the probation area (HptProbation).
Config parse_spec(const std::string& spec) {
  auto split = [](const std::string& str, char sep) {
    std::vector<std::string> f;
    for (size_t p = 0;;) {
      const size_t q = str.find(sep, p);
      f.push_back(str.substr(p, q == std::string::npos ? std::string::npos : q - p));
      if (q == std::string::npos) break;
      p = q + 1;
    }
    return f;
  };
  const std::vector<std::string> f = split(spec, ',');
  if (f.size() < 3) usage();
  Config c{};
  HptCtrl ctrl;
  HptCtrl::parse_policy_name(f[0], ctrl);
  auto u = [](const std::string& v) { return static_cast<unsigned>(std::stoul(v)); };
  c.entries = u(f[1]);
  c.ways = u(f[2]);
  if (c.ways == 0 || c.entries % c.ways) usage();
  c.policy = ctrl.policy;
  c.index = HptIndex::Plb;
  c.skew = true;
  c.metric = HptMetric::Freq;
  c.admit = ctrl.admit;
  c.inherit = ctrl.inherit;
  for (size_t i = 3; i < f.size(); ++i) {
    const std::string opt = f[i].substr(0, 3);
    if (opt == "mt=") {
      c.metric = HptCtrl::parse_metric(f[i].substr(3));
      if (c.metric == HptMetric::Events) usage();  // the exact profiles are freq and insns
      continue;
    }
    const std::vector<std::string> g = split(f[i].substr(3), 'x');
    if (g.size() != 4) usage();
    if (opt == "sk=") c.sketch = model::HptSketch{u(g[0]), u(g[1]), u(g[2]), u(g[3])};
    else if (opt == "pr=") c.prob = model::HptProbation{u(g[0]), u(g[1]), u(g[2]), u(g[3])};
    else usage();
  }
  return c;
}

// --grid hw: the CTRL policy codes of the RTL build with the probation area,
// decoded as the hardware decodes them.
std::vector<Config> hw_grid() {
  std::vector<Config> v;
  for (HptMetric m : kMetrics)
    for (unsigned code = 0; code < 4; ++code) {
      HptCtrl want;
      want.metric = m;
      const uint32_t ctrl = (want.pack() & ~(HptCtrl::kPolicyMax << HptCtrl::kPolicyLsb)) | code << HptCtrl::kPolicyLsb;
      const HptCtrl c = HptCtrl::unpack(ctrl);
      Config x{512, 4, c.policy, c.index, c.skew, c.metric};
      x.admit = c.admit;
      x.inherit = c.inherit;
      // Only code 3 uses the area: the other codes run (and are counted) as
      // on a build without it (ProbSets = 0), bit for bit the same profile.
      if (c.admit == model::HptAdmit::Probation) x.prob = model::HptProbation::recommended();
      x.ctrl = static_cast<int>(ctrl);
      v.push_back(x);
    }
  return v;
}

// --grid candidates: the policy study of docs/results.md ("Candidate
// replacement and admission policies"): the three CTRL policies and the
// candidates at the paper's 512 x 4, and two at other sizes for the
// same-storage comparison (frequency metric, plb, skewed).
const char* const kCandidates[] = {
    "lfu,512,4",
    "ss,512,4",
    "erode,512,4",
    "erode+inherit,512,4",
    "lfu+tlfu,512,4,sk=4x1024x4x5120",
    "erode+tlfu,512,4,sk=4x1024x4x5120",
    "lfu+prob,512,4,pr=128x4x12x14",
    "ss+prob,512,4,pr=128x4x12x14",
    "erode+prob,512,4,pr=128x4x12x14",
    "erode,640,5",                        // the bits of lfu+prob spent on a fifth way instead
    "lfu+prob,448,7,pr=64x4x12x12",       // no more bits than the paper's 512 x 4
    "lfu+prob,512,4,pr=128x4x12x14,mt=insns",
    "erode,512,4,mt=insns",
};

void usage() {
  std::fprintf(stderr,
               "usage: bench_hpt [--window N] [--jobs J] [--grid pruned|full|candidates|hw]\n"
               "                 [--policy NAME,ENTRIES,WAYS[,sk=RxCxBxP][,pr=SxWxFxC][,mt=M]]... TRACE...\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t window = 1000000;
  unsigned jobs = 2;
  bool full = false;
  std::vector<std::string> traces;
  std::vector<Config> specs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto arg = [&]() -> std::string {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    auto num = [&]() -> long long {
      const std::string v = arg();
      char* end = nullptr;
      const long long n = std::strtoll(v.c_str(), &end, 10);
      if (!end || *end || n < 1) usage();
      return n;
    };
    if (a == "--window") window = static_cast<uint64_t>(num());
    else if (a == "--policy") {
      const std::string spec = arg();
      try {
        specs.push_back(parse_spec(spec));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_hpt: --policy %s: %s\n", spec.c_str(), e.what());
        return 2;
      }
    }
    else if (a == "--jobs") jobs = static_cast<unsigned>(num());
    else if (a == "--grid") {
      const std::string g = arg();
      if (g == "candidates") {
        for (const char* spec : kCandidates) specs.push_back(parse_spec(spec));
        continue;
      }
      if (g == "hw") {
        for (const Config& c : hw_grid()) specs.push_back(c);
        continue;
      }
      if (g != "pruned" && g != "full") usage();
      full = g == "full";
    } else if (!a.empty() && a[0] == '-') usage();
    else traces.push_back(a);
  }
  if (traces.empty()) usage();
  const std::vector<Config> configs = specs.empty() ? grid(full) : specs;
  try {
    for (const auto& path : traces) {
      const auto t0 = std::chrono::steady_clock::now();
      trace::scan(path, nullptr);
      const Stream s = extract(path, window);
      std::string name = path.substr(path.find_last_of('/') + 1);
      name = name.substr(0, name.find('.'));
      std::vector<std::vector<Profile>> exact;  // by metric code
      exact.resize(3);
      for (HptMetric m : kMetrics) exact[unsigned(m)] = exact_profiles(s, m);
      const double extract_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("{\"kind\":\"trace\",\"trace\":\"%s\",\"records\":%llu,\"insns\":%llu,\"descs\":%zu,"
                  "\"completed\":%llu,\"distinct\":%zu,\"windows\":%u,\"window\":%llu,\"extract_s\":%.3f}\n",
                  name.c_str(), (unsigned long long)s.records, (unsigned long long)s.insns, s.descs.size(),
                  (unsigned long long)s.completed, s.keys.size(), s.windows, (unsigned long long)window, extract_s);
      for (HptMetric m : kMetrics)
        for (unsigned e : kEntries) {
          const auto& ex = exact[unsigned(m)];
          const double dyn = window_mean(ex, [&](size_t w) { return model::oracle_overlap(ex[1 + w], e); });
          std::printf("{\"kind\":\"oracle\",\"trace\":\"%s\",\"entries\":%u,\"metric\":\"%s\",\"complete\":%.4f,"
                      "\"dynamic\":%.4f}\n",
                      name.c_str(), e, model::to_string(m), model::oracle_overlap(ex[0], e),
                      dyn);
        }
      std::fflush(stdout);

      std::vector<Result> results(configs.size());
      std::atomic<size_t> next{0};
      auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < configs.size();)
          results[i] = run_config(s, configs[i], exact[unsigned(configs[i].metric)]);
      };
      std::vector<std::thread> pool;
      for (unsigned j = 1; j < jobs; ++j) pool.emplace_back(worker);
      worker();
      for (auto& t : pool) t.join();
      for (size_t i = 0; i < configs.size(); ++i) {
        const Config& c = configs[i];
        const Result& r = results[i];
        std::printf("{\"kind\":\"hpt\",\"trace\":\"%s\",\"entries\":%u,\"ways\":%u,\"sets\":%u,\"policy\":\"%s\","
                    "\"index\":\"%s\",\"skew\":%d,\"metric\":\"%s\",\"complete\":%.4f,\"dynamic\":%.4f,"
                    "\"dynamic_min\":%.4f,\"descs\":%llu,\"hits\":%llu,\"fills\":%llu,\"replacements\":%llu,"
                    "\"rejects\":%llu,\"saturations\":%llu,\"seconds\":%.3f,\"name\":\"%s\",\"storage_bits\":%llu,"
                    "\"sketch\":[%u,%u,%u,%u],\"probation\":[%u,%u,%u,%u],\"resident_exact\":%.4f,"
                    "\"paper_bits\":65536,\"ctrl\":%d}\n",
                    name.c_str(), c.entries, c.ways, c.entries / c.ways, model::to_string(c.policy),
                    model::to_string(c.index), int(c.skew), model::to_string(c.metric), r.complete, r.dynamic,
                    r.dyn_min, (unsigned long long)r.stats.descs, (unsigned long long)r.stats.hits,
                    (unsigned long long)r.stats.fills, (unsigned long long)r.stats.replacements,
                    (unsigned long long)r.stats.rejects, (unsigned long long)r.stats.saturations, r.seconds,
                    name_of(c).c_str(),
                    (unsigned long long)HptAlgo::storage_bits(c.entries / c.ways, c.ways, c.sketch, c.prob), c.sketch.rows,
                    c.sketch.cols, c.sketch.bits, c.sketch.period, c.prob.sets, c.prob.ways, c.prob.fp_bits,
                    c.prob.count_bits, r.resident_exact, c.ctrl);
      }
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_hpt: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
