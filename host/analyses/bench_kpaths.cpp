// bench_kpaths: time and peak heap of three consumers of the same BL path
// stream (paper 002 Fig. 1, bottom), per trace and per k:
//   * BL hashing: a hash table of path counters, count[r]++ (Ball-Larus);
//   * n-gram hashing: a hash table of all n-grams, n <= k, stored as a
//     hashed trie ((prefix n-gram, last id) -> n-gram), k hash operations
//     per item: the direct way to count what the k-IPF holds;
//   * k-SF: the streaming k-slab forest (Fig. 11), then its conversion to
//     the k-IPF (Fig. 12), timed separately.
// The stream (completed-path ids with their emitting depth and flags) is
// extracted once per trace with the path-stack model (BL preset) and kept in
// memory, so the timings are those of the consumers alone. Every consumer
// applies the same activation rule (analyses::activation_step).
//
// Usage: bench_kpaths [--k-max K] [--reps R] [--depth D] TRACE...
// Prints one JSON object per (trace, k) on stdout (scripts/bench_kpaths.py).
#include <malloc.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "branch_record.h"
#include "kpaths.h"
#include "path_stack_algo.h"
#include "trace.h"
#include "trace_source.h"

// ------------------------------------------------ heap accounting (global)

namespace {
size_t g_heap_now = 0;
size_t g_heap_peak = 0;

void* counted_alloc(size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  g_heap_now += malloc_usable_size(p);
  g_heap_peak = std::max(g_heap_peak, g_heap_now);
  return p;
}
void counted_free(void* p) noexcept {
  if (!p) return;
  g_heap_now -= malloc_usable_size(p);
  std::free(p);
}
}  // namespace

void* operator new(size_t n) { return counted_alloc(n); }
void* operator new[](size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, size_t) noexcept { counted_free(p); }
void operator delete[](void* p, size_t) noexcept { counted_free(p); }

namespace {

using namespace hwprof;
using analyses::Label;
using analyses::kNil;

struct Step {
  Label id;
  uint16_t depth;
  bool incomplete;
  bool frame_end;
};

struct Stream {
  std::vector<Step> steps;
  std::vector<model::PathKey> keys;  // by id
  uint64_t items = 0;
};

Stream extract(const std::string& path, unsigned depth) {
  Stream s;
  model::PathStackAlgo algo(depth, 32);
  const model::Ppcr bl{model::Ppcr::kBl};
  analyses::PathIds ids;
  auto src = hwprof::trace::branch_source(path);
  model::BranchRecord r;
  while (src(r)) {
    auto e = algo.process(model::PathRecord::classify(r, bl));
    if (!e) continue;
    Step st{kNil, static_cast<uint16_t>(e->depth), e->path.incomplete, e->frame_end};
    if (!e->path.incomplete) {
      st.id = ids.id(model::PathKey{e->path.start, e->path.length, e->path.dirs});
      ++s.items;
    }
    s.steps.push_back(st);
  }
  s.keys = ids.keys();
  return s;
}

struct Measure {
  double seconds = 1e300;
  size_t peak_bytes = 0;
};

// Runs `fn` reps times; best time, peak heap above the level at entry
// (first run; the structures are deterministic).
template <typename Fn>
Measure measure(int reps, Fn&& fn) {
  Measure m;
  for (int i = 0; i < reps; ++i) {
    const size_t base = g_heap_now;
    g_heap_peak = base;
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    m.seconds = std::min(m.seconds, s);
    if (i == 0) m.peak_bytes = g_heap_peak - base;
  }
  return m;
}

// n-gram hash table as a hashed trie.
struct NgramCursor {
  unsigned len = 0;                           // n-grams ending at the previous item: 1..len
  std::array<uint32_t, analyses::kMaxK> end;  // end[n-1] = node of that n-gram
};

struct NgramTable {
  explicit NgramTable(unsigned k) : k(k) {}
  unsigned k;
  std::unordered_map<uint64_t, uint32_t> map;
  std::vector<uint64_t> count;
  uint64_t hash_ops = 0;

  void add(NgramCursor& c, Label r) {
    const unsigned m = std::min(k, c.len + 1);
    for (unsigned n = m; n >= 1; --n) {  // downwards: end[n-2] is still the old value
      const uint64_t prefix = n == 1 ? uint64_t{kNil} : c.end[n - 2];
      ++hash_ops;
      auto [it, inserted] = map.try_emplace(prefix << 32 | r, static_cast<uint32_t>(count.size()));
      if (inserted) count.push_back(0);
      ++count[it->second];
      c.end[n - 1] = it->second;
    }
    c.len = m;
  }
};

void usage() {
  std::fprintf(stderr, "usage: bench_kpaths [--k-max K] [--reps R] [--depth D] TRACE...\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  unsigned k_max = 16, depth = 16;
  int reps = 5;
  std::vector<std::string> traces;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto num = [&]() -> long {
      if (i + 1 >= argc) usage();
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (!end || *end) usage();
      return v;
    };
    if (a == "--k-max") k_max = static_cast<unsigned>(num());
    else if (a == "--reps") reps = static_cast<int>(num());
    else if (a == "--depth") depth = static_cast<unsigned>(num());
    else if (!a.empty() && a[0] == '-') usage();
    else traces.push_back(a);
  }
  if (traces.empty() || k_max < 1 || k_max > analyses::kMaxK || reps < 1 || depth < 1) usage();

  // Keep freed heap in the process (no trimming, no mmap for node blocks),
  // so repetitions measure the data structures, not page faults.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  try {
    for (const auto& path : traces) {
      trace::scan(path, nullptr);
      const Stream s = extract(path, depth);
      std::string name = path.substr(path.find_last_of('/') + 1);
      name = name.substr(0, name.find('.'));

      size_t bl_entries = 0;
      const Measure bl = measure(reps, [&] {
        std::unordered_map<Label, uint64_t> count;
        for (const Step& st : s.steps)
          if (!st.incomplete) ++count[st.id];
        bl_entries = count.size();
      });
      // The same, keyed by the path itself (start, length, dirs), as a
      // profiler without a dense numbering (hwprof paths, the HPT) counts.
      const Measure bl_key = measure(reps, [&] {
        std::unordered_map<model::PathKey, uint64_t, model::PathKeyHash> count;
        for (const Step& st : s.steps)
          if (!st.incomplete) ++count[s.keys[st.id]];
        if (count.size() != bl_entries) std::abort();
      });

      for (unsigned k = 1; k <= k_max; ++k) {
        size_t ng_nodes = 0;
        uint64_t ng_ops = 0, activations = 0;
        const Measure ng = measure(reps, [&] {
          NgramTable t(k);
          analyses::ShadowStack<NgramCursor> sh;
          activations = 0;
          for (const Step& st : s.steps)
            activations += analyses::activation_step(
                sh, st.depth, st.incomplete, st.frame_end, [](NgramCursor& c) { c.len = 0; },
                [&](NgramCursor& c) { t.add(c, st.id); });
          ng_nodes = t.count.size();
          ng_ops = t.hash_ops;
        });

        // k-SF construction, then its conversion: timed and measured apart
        // (the conversion's peak is counted above the finished k-SF).
        analyses::KsfStats kst;
        uint32_t ksf_nodes = 0, ipf_nodes = 0;
        Measure ksf, ipf;
        for (int rep = 0; rep < reps; ++rep) {
          size_t base = g_heap_now;
          g_heap_peak = base;
          auto t0 = std::chrono::steady_clock::now();
          auto f = std::make_unique<analyses::KSlabForest>(k);
          {
            analyses::ShadowStack<analyses::KsfCursor> sh;
            for (const Step& st : s.steps)
              analyses::activation_step(
                  sh, st.depth, st.incomplete, st.frame_end, [&](analyses::KsfCursor& c) { f->marker(c); },
                  [&](analyses::KsfCursor& c) { f->add(c, st.id); });
          }
          auto t1 = std::chrono::steady_clock::now();
          ksf.seconds = std::min(ksf.seconds, std::chrono::duration<double>(t1 - t0).count());
          if (rep == 0) ksf.peak_bytes = g_heap_peak - base;
          kst = f->stats();
          ksf_nodes = f->size();
          base = g_heap_now;
          g_heap_peak = base;
          t0 = std::chrono::steady_clock::now();
          {
            const analyses::KIpf ipf_forest = analyses::KIpf::from_ksf(*f);
            ipf_nodes = ipf_forest.size();
          }
          t1 = std::chrono::steady_clock::now();
          ipf.seconds = std::min(ipf.seconds, std::chrono::duration<double>(t1 - t0).count());
          if (rep == 0) ipf.peak_bytes = g_heap_peak - base;
        }
        const double ksf_s = ksf.seconds;
        if (ng_nodes != ipf_nodes) {
          std::fprintf(stderr, "bench_kpaths: %s k=%u: n-gram table has %zu nodes, k-IPF %u\n", name.c_str(), k,
                       ng_nodes, ipf_nodes);
          return 1;
        }
        std::printf(
            "{\"trace\":\"%s\",\"k\":%u,\"items\":%llu,\"steps\":%zu,\"distinct\":%zu,\"activations\":%llu,"
            "\"bl_s\":%.6f,\"bl_bytes\":%zu,\"bl_entries\":%zu,\"bl_key_s\":%.6f,\"bl_key_bytes\":%zu,"
            "\"ngram_s\":%.6f,\"ngram_bytes\":%zu,\"ngram_nodes\":%zu,\"ngram_hash_ops\":%llu,"
            "\"ksf_s\":%.6f,\"ksf_bytes\":%zu,\"ksf_nodes\":%u,\"ksf_root_lookups\":%llu,"
            "\"ksf_sibling_steps\":%llu,\"ipf_s\":%.6f,\"ipf_bytes\":%zu,\"ipf_nodes\":%u}\n",
            name.c_str(), k, (unsigned long long)s.items, s.steps.size(), s.keys.size(),
            (unsigned long long)activations, bl.seconds, bl.peak_bytes, bl_entries, bl_key.seconds,
            bl_key.peak_bytes, ng.seconds, ng.peak_bytes,
            ng_nodes, (unsigned long long)ng_ops, ksf_s, ksf.peak_bytes, ksf_nodes,
            (unsigned long long)kst.root_lookups, (unsigned long long)kst.sibling_steps, ipf.seconds,
            ipf.peak_bytes, ipf_nodes);
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_kpaths: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
