// k-iteration path profiling (paper 002; hwprof-spec.md section 6;
// docs/analyses.md) against:
//   * the paper's worked example: the stream of Fig. 3 with k = 4, the chunks
//     of Example 2, the list L of Example 3 (the k-SF is F(L)) and the 4-IPF
//     counts, all written out by hand from the paper;
//   * the activation rule on hand-written descriptor streams;
//   * brute-force n-gram counting (n <= k) on seeded random raw streams with
//     markers, on random nested descriptor streams, and on the BL path
//     streams of every shipped trace. The brute force and the activation
//     split it needs are written here, separately from the library.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "branch_record.h"
#include "kpaths.h"
#include "path_profile.h"
#include "path_stack_algo.h"
#include "trace_source.h"

#ifndef HWPROF_TRACE_DIR
#error "HWPROF_TRACE_DIR must point at tests/traces"
#endif

using namespace hwprof;
using analyses::KIpf;
using analyses::kNil;
using analyses::Label;

namespace {

using Seq = std::vector<uint64_t>;
using Counts = std::map<Seq, uint64_t>;

// Sigma of 002 Fig. 3 / Example 2: one routine activation.
const char* kFig3 = "* 6 2 0 0 2 2 0 0 2 2 0 0 2 3";

std::vector<analyses::RawItem> parse(const std::string& s) {
  std::istringstream in(s);
  return analyses::read_id_stream(in, "test");
}

// Every node of a raw-stream k-IPF as (values from the root, count); also
// checks the layout invariants every k-IPF must satisfy.
Counts ipf_counts(const KIpf& f, const std::vector<uint64_t>& values) {
  Counts c;
  for (uint32_t i = 0; i < f.size(); ++i) {
    const auto& n = f.node(i);
    BOOST_TEST_REQUIRE(n.count > 0u);  // every node is an n-gram that occurred
    BOOST_TEST_REQUIRE(n.level <= f.k());
    uint64_t sum = 0;
    for (uint32_t ch = n.first_child; ch < n.first_child + n.num_children; ++ch) {
      BOOST_TEST_REQUIRE(f.node(ch).parent == i);
      sum += f.node(ch).count;
    }
    BOOST_TEST_REQUIRE(n.count >= sum);  // 002 section 2.2, Property 1
    Seq s;
    for (Label l : f.path(i)) s.push_back(values[l]);
    BOOST_TEST_REQUIRE(c.emplace(s, n.count).second);  // a prefix forest: each sequence once
  }
  return c;
}

// Brute force: all n-grams, n <= k, of the segments between markers.
Counts brute_force(const std::vector<analyses::RawItem>& items, unsigned k) {
  Counts c;
  std::vector<Seq> segs(1);
  for (const auto& it : items) {
    if (it.marker) segs.emplace_back();
    else segs.back().push_back(it.value);
  }
  for (const auto& s : segs)
    for (size_t i = 0; i < s.size(); ++i)
      for (size_t n = 1; n <= k && i + n <= s.size(); ++n) ++c[Seq(s.begin() + long(i), s.begin() + long(i + n))];
  return c;
}

// Differences between two count maps ("" if equal), for readable failures.
template <typename Map>
std::string diff(const Map& got, const Map& want) {
  auto str = [](const auto& seq) {
    std::ostringstream o;
    o << "<";
    for (size_t i = 0; i < seq.size(); ++i) o << (i ? "," : "") << std::hex << seq[i];
    return o.str() + ">";
  };
  std::ostringstream o;
  int shown = 0;
  for (const auto& [k, v] : want) {
    auto it = got.find(k);
    if (it == got.end()) o << " missing " << str(k) << "=" << v;
    else if (it->second != v) o << " " << str(k) << "=" << it->second << " want " << v;
    else continue;
    if (++shown == 8) return o.str() + " ...";
  }
  for (const auto& [k, v] : got)
    if (!want.count(k)) {
      o << " extra " << str(k) << "=" << v;
      if (++shown == 8) return o.str() + " ...";
    }
  return o.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kpaths)

// ---------------------------------------------------------- paper example

BOOST_AUTO_TEST_CASE(fig3_example3_ksf_is_F_of_L) {
  analyses::RawKpaths kp(4);
  for (const auto& it : parse(kFig3)) kp.add(it);

  // Example 2: chunks of k-1 = 3: <6,2,0> <0,2,2> <0,0,2> <2,0,0> <2,3>;
  // Fig. 11 looks R up once per chunk (line 8).
  BOOST_TEST(kp.forest().stats().root_lookups == 5u);
  BOOST_TEST(kp.forest().stats().items == 14u);

  // Example 3, L written out as in the paper.
  const std::vector<Seq> L = {{6},          {6, 2},          {6, 2, 0},          {6, 2, 0, 0},
                              {6, 2, 0, 0, 2}, {6, 2, 0, 0, 2, 2}, {0, 2, 2, 0},       {0, 2, 2, 0, 0},
                              {0, 2, 2, 0, 0, 2}, {0, 0, 2, 2},    {0, 0, 2, 2, 0},    {0, 0, 2, 2, 0, 0},
                              {2, 0, 0, 2},    {2, 0, 0, 2, 3}};
  // F(L) by Definition 1: a node per distinct prefix of a sequence of L,
  // its counter = occurrences of that sequence in L.
  Counts want;
  for (const auto& x : L)
    for (size_t j = 1; j <= x.size(); ++j) want.emplace(Seq(x.begin(), x.begin() + long(j)), 0);
  for (const auto& x : L) ++want[x];
  // Fig. 11 also walks the upper slab of the activation's last chunk <2,3>
  // (lines 13-17), which Definition 3 leaves out of L because no chunk
  // follows it: one more node, <2,3> under root 2, with counter 0. It carries
  // no count and adds nothing to the k-IPF.
  want.emplace(Seq{2, 3}, 0);
  BOOST_TEST(want.size() == 23u);

  Counts got;
  for (const auto& [labels, count] : kp.forest().node_paths()) {
    Seq s;
    for (Label l : labels) s.push_back(kp.value_of_ksf_label(l));
    got.emplace(s, count);
  }
  BOOST_TEST(diff(got, want) == "");
  // Section 4: the counters of the k-SF sum to the length of the stream.
  uint64_t sum = 0;
  for (const auto& kv : got) sum += kv.second;
  BOOST_TEST(sum == 14u);
}

BOOST_AUTO_TEST_CASE(fig3_4ipf_counts) {
  analyses::RawKpaths kp(4);
  for (const auto& it : parse(kFig3)) kp.add(it);
  const auto r = kp.result();
  // The 4-IPF of Fig. 3, counted by hand on Sigma = 6 2 0 0 2 2 0 0 2 2 0 0 2 3.
  const Counts want = {
      // 1-grams (Ball-Larus counts)
      {{6}, 1}, {{2}, 6}, {{0}, 6}, {{3}, 1},
      // 2-grams
      {{6, 2}, 1}, {{2, 0}, 3}, {{0, 0}, 3}, {{0, 2}, 3}, {{2, 2}, 2}, {{2, 3}, 1},
      // 3-grams
      {{6, 2, 0}, 1}, {{2, 0, 0}, 3}, {{0, 0, 2}, 3}, {{0, 2, 2}, 2}, {{2, 2, 0}, 2}, {{0, 2, 3}, 1},
      // 4-grams: <2,0,0,2> occurs 3 times (Example 1)
      {{6, 2, 0, 0}, 1}, {{2, 0, 0, 2}, 3}, {{0, 0, 2, 2}, 2}, {{0, 2, 2, 0}, 2}, {{2, 2, 0, 0}, 2},
      {{0, 0, 2, 3}, 1}};
  BOOST_TEST(diff(ipf_counts(r.ipf, r.values), want) == "");
  BOOST_TEST(r.ipf.num_roots() == 4u);  // one tree per distinct BL path id (0, 2, 3, 6)
  BOOST_TEST((r.ipf.level_sizes() == std::vector<uint64_t>{4, 6, 6, 6}));
  // Shares as 002 section 3.1 labels edges: <2,0,0,2> is 3 of <2,0,0>'s 3
  // (100%) and 3 of root 2's 6 (50%).
  std::vector<Label> p;
  for (uint64_t v : {2, 0, 0, 2}) p.push_back(Label(std::find(r.values.begin(), r.values.end(), v) - r.values.begin()));
  const uint32_t n = r.ipf.find(p);
  BOOST_TEST_REQUIRE(n != kNil);
  BOOST_TEST(r.ipf.share_parent(n) == 1.0);
  BOOST_TEST(r.ipf.share_root(n) == 0.5);
  // The hottest 4-iteration path.
  const auto hot = r.ipf.hottest(4, 1);
  BOOST_TEST_REQUIRE(hot.size() == 1u);
  BOOST_TEST(hot[0] == n);
}

BOOST_AUTO_TEST_CASE(fig3_pruning) {
  analyses::RawKpaths kp(4);
  for (const auto& it : parse(kFig3)) kp.add(it);
  const auto r = kp.result();
  // Pruning at 50%: a node survives if count >= 0.5 * parent and >= 0.5 *
  // root. By hand from the counts above: root 0 (6): <0,0> 3, <0,2> 3 stay;
  // <0,0,2> 3 stays, <0,0,2,2> 2 < 3 (50% of root 6) goes, <0,0,2,3> goes;
  // <0,2,2> 2 < 3 goes. Root 2 (6): <2,0> 3 stays, <2,0,0> 3, <2,0,0,2> 3
  // stay; <2,2> 2 and <2,3> 1 go. Roots 3 and 6 (1): everything stays.
  const Counts want = {{{0}, 6}, {{0, 0}, 3}, {{0, 0, 2}, 3}, {{0, 2}, 3},
                       {{2}, 6}, {{2, 0}, 3}, {{2, 0, 0}, 3}, {{2, 0, 0, 2}, 3},
                       {{3}, 1}, {{6}, 1},    {{6, 2}, 1},    {{6, 2, 0}, 1}, {{6, 2, 0, 0}, 1}};
  BOOST_TEST(diff(ipf_counts(r.ipf.pruned(0.5), r.values), want) == "");
  BOOST_TEST(r.ipf.pruned(0).size() == r.ipf.size());
}

BOOST_AUTO_TEST_CASE(k1_is_the_ball_larus_profile) {
  analyses::RawKpaths kp(1);
  for (const auto& it : parse(kFig3)) kp.add(it);
  const auto r = kp.result();
  const Counts want = {{{6}, 1}, {{2}, 6}, {{0}, 6}, {{3}, 1}};
  BOOST_TEST(diff(ipf_counts(r.ipf, r.values), want) == "");
}

BOOST_AUTO_TEST_CASE(rejects_bad_k) {
  BOOST_CHECK_THROW(analyses::KSlabForest(0), std::invalid_argument);
  BOOST_CHECK_THROW(analyses::KSlabForest(analyses::kMaxK + 1), std::invalid_argument);
}

// ---------------------------------------------------------- raw id reader

BOOST_AUTO_TEST_CASE(reader_tokens_and_errors) {
  const auto v = parse("  *\t12 0\n\n 18446744073709551615 *\r\n7");
  BOOST_TEST_REQUIRE(v.size() == 6u);
  BOOST_TEST(v[0].marker);
  BOOST_TEST((!v[1].marker && v[1].value == 12u));
  BOOST_TEST(v[2].value == 0u);
  BOOST_TEST(v[3].value == 18446744073709551615ull);
  BOOST_TEST(v[4].marker);
  BOOST_TEST(v[5].value == 7u);
  auto error_of = [](const std::string& s) -> std::string {
    try {
      parse(s);
    } catch (const analyses::IdStreamError& e) {
      return e.what();
    }
    return "(no error)";
  };
  BOOST_TEST(error_of("1 2\n3 x4 5") == "test:2: bad token 'x4' (expected a non-negative integer or '*')");
  BOOST_TEST(error_of("-1") == "test:1: bad token '-1' (expected a non-negative integer or '*')");
  BOOST_TEST(error_of("1\n\n**") == "test:3: bad token '**' (expected a non-negative integer or '*')");
  BOOST_TEST(error_of("1.5") == "test:1: bad token '1.5' (expected a non-negative integer or '*')");
  BOOST_TEST(error_of("18446744073709551616") ==
             "test:1: id '18446744073709551616' is out of range (at most 18446744073709551615)");
  BOOST_CHECK_THROW(analyses::read_id_stream_file("/nonexistent/ids.txt"), analyses::IdStreamError);
}

// ------------------------------------------------ random raw streams

BOOST_AUTO_TEST_CASE(random_raw_streams_equal_brute_force) {
  std::mt19937_64 rng(20240517);
  int cases = 0;
  for (unsigned alphabet : {1u, 2u, 3u, 5u, 40u})
    for (double p_marker : {0.0, 0.02, 0.3})
      for (int rep = 0; rep < 4; ++rep) {
        const size_t len = 1 + rng() % 600;
        std::vector<analyses::RawItem> items;
        // Runs of the same id as well as uniform draws: loops repeat paths.
        for (size_t i = 0; i < len; ++i) {
          if (std::uniform_real_distribution<double>(0, 1)(rng) < p_marker) items.push_back({true, 0});
          const uint64_t v = (rng() % 4 == 0 && !items.empty() && !items.back().marker) ? items.back().value
                                                                                         : rng() % alphabet * 1000003;
          items.push_back({false, v});
        }
        for (unsigned k = 1; k <= 10; ++k) {
          analyses::RawKpaths kp(k);
          for (const auto& it : items) kp.add(it);
          const auto r = kp.result();
          const Counts want = brute_force(items, k);
          BOOST_TEST_REQUIRE(diff(ipf_counts(r.ipf, r.values), want) == "",
                             "alphabet " << alphabet << " p " << p_marker << " len " << len << " k " << k);
          uint64_t counters = 0;
          for (uint32_t i = 0; i < kp.forest().size(); ++i) counters += kp.forest().node(i).count;
          BOOST_TEST_REQUIRE(counters == kp.forest().stats().items);
          ++cases;
        }
      }
  BOOST_TEST(cases == 5 * 3 * 4 * 10);
}

// ------------------------------------------- descriptor streams (spec 6)

namespace {

model::Emission em(uint32_t start, unsigned depth, bool frame_end = false, bool incomplete = false) {
  model::Emission e;
  e.path.start = start;
  e.path.length = 1;
  e.path.dirs = 1;
  e.path.incomplete = incomplete;
  e.frame_end = frame_end;
  e.depth = depth;
  return e;
}

// Independent activation split (docs/path_stack.md, "Emitted descriptor";
// docs/analyses.md): a sequence per open depth; a shallower emission ends
// the deeper ones; an incomplete path ends the current sequence; frame_end
// closes the depth. Paths are identified by their key, packed into a string.
struct Splitter {
  std::vector<std::optional<std::vector<std::string>>> open;  // [depth-1]
  std::vector<std::vector<std::string>> done;
  void finish(size_t i) {
    if (open[i]) done.push_back(std::move(*open[i]));
    open[i].reset();
  }
  void add(const model::Emission& e) {
    const size_t d = e.depth;
    for (size_t i = d; i < open.size(); ++i) finish(i);
    if (open.size() < d) open.resize(d);
    if (!open[d - 1]) open[d - 1].emplace();
    if (e.path.incomplete) {
      finish(d - 1);
      open[d - 1].emplace();
    } else {
      std::string key(9, '\0');
      std::memcpy(&key[0], &e.path.start, 4);
      std::memcpy(&key[4], &e.path.dirs, 4);
      key[8] = char(e.path.length);
      open[d - 1]->push_back(key);
    }
    if (e.frame_end) finish(d - 1);
  }
  std::vector<std::vector<std::string>> segments() {
    for (size_t i = 0; i < open.size(); ++i) finish(i);
    return std::move(done);
  }
};

std::string key_string(const model::PathKey& k) {
  std::string key(9, '\0');
  std::memcpy(&key[0], &k.start, 4);
  std::memcpy(&key[4], &k.dirs, 4);
  key[8] = char(k.length);
  return key;
}

using KeyCounts = std::unordered_map<std::string, uint64_t>;

// n-grams (n <= kmax) of the segments: the key is the n paths' keys
// concatenated.
KeyCounts brute_force_keys(const std::vector<std::vector<std::string>>& segs, unsigned kmax) {
  KeyCounts c;
  for (const auto& s : segs)
    for (size_t i = 0; i < s.size(); ++i) {
      std::string g;
      for (size_t n = 1; n <= kmax && i + n <= s.size(); ++n) {
        g += s[i + n - 1];
        ++c[g];
      }
    }
  return c;
}

// Compares a profiler's k-IPF with the brute-force counts restricted to
// n <= k; returns the number of nodes checked.
uint64_t check_against(const analyses::KpathsProfiler& prof, const KeyCounts& bf, unsigned k,
                       const std::string& what) {
  const auto r = prof.result();
  uint64_t want_nodes = 0;
  for (const auto& kv : bf)
    if (kv.first.size() / 9 <= k) ++want_nodes;
  BOOST_TEST_REQUIRE(r.ipf.size() == want_nodes, what << " k " << k);
  std::vector<std::string> path_key(r.ipf.size());  // by node: parents come first
  for (uint32_t i = 0; i < r.ipf.size(); ++i) {
    const auto& n = r.ipf.node(i);
    path_key[i] = (n.parent == kNil ? std::string() : path_key[n.parent]) + key_string(r.keys[n.label]);
    auto it = bf.find(path_key[i]);
    BOOST_TEST_REQUIRE((it != bf.end() && it->second == n.count), what << " k " << k << " node " << i);
  }
  return r.ipf.size();
}

}  // namespace

BOOST_AUTO_TEST_CASE(activation_rule_by_hand) {
  // A routine at depth 1 whose first path is incomplete (the trace started
  // inside it), two calls at depth 2, and a depth-3 frame that vanishes
  // without a frame_end (as after an overflow): written as (start, depth).
  enum : uint32_t { A = 0x10, B = 0x20, C = 0x30, D = 0x40, E = 0x50, F = 0x60 };
  const std::vector<model::Emission> s = {
      em(A, 1, false, true),  // opens activation 1; incomplete: skipped, breaks nothing yet
      em(B, 1), em(C, 1),
      em(D, 2),               // opens activation 2 (a call)
      em(E, 2, true),         // its return closes it
      em(B, 1),               // activation 1 resumes: ... C B
      em(D, 2), em(D, 2, true),  // activation 3: D D
      em(F, 3),               // activation 4 at depth 3 ...
      em(C, 1),               // ... discarded: depth 1 emits (activation 1: ... B C)
      em(F, 3, true),         // activation 5: F, closed by its return
      em(B, 1, true),         // activation 1 returns: ... C B
  };
  analyses::KpathsProfiler prof(2);
  for (const auto& e : s) prof.add(e);
  const auto st = prof.stats();
  BOOST_TEST(st.descriptors == 12u);
  BOOST_TEST(st.paths == 11u);
  BOOST_TEST(st.incomplete == 1u);
  BOOST_TEST(st.activations == 5u);
  BOOST_TEST(st.discarded == 1u);
  BOOST_TEST(st.max_depth == 3u);
  // Activations by hand: 1 = B C B C B; 2 = D E; 3 = D D; 4 = F; 5 = F.
  const std::map<std::vector<uint32_t>, uint64_t> want = {
      {{B}, 3}, {{C}, 2}, {{D}, 3}, {{E}, 1}, {{F}, 2},
      {{B, C}, 2}, {{C, B}, 2}, {{D, E}, 1}, {{D, D}, 1}};
  const auto r = prof.result();
  std::map<std::vector<uint32_t>, uint64_t> got;
  for (uint32_t i = 0; i < r.ipf.size(); ++i) {
    std::vector<uint32_t> p;
    for (Label l : r.ipf.path(i)) p.push_back(r.keys[l].start);
    got[p] = r.ipf.node(i).count;
  }
  BOOST_TEST(diff(got, want) == "");
  // Ids are ranks in the BL profile: count descending, then key ascending.
  std::vector<uint32_t> order;
  for (const auto& k : r.keys) order.push_back(k.start);
  BOOST_TEST((order == std::vector<uint32_t>{B, D, C, F, E}));
}

BOOST_AUTO_TEST_CASE(random_descriptor_streams_equal_brute_force) {
  std::mt19937_64 rng(7);
  for (int rep = 0; rep < 30; ++rep) {
    std::vector<model::Emission> s;
    unsigned depth = 1 + unsigned(rng() % 3);
    const unsigned paths = 2 + unsigned(rng() % 12);
    for (int i = 0; i < 1500; ++i) {
      const unsigned r = unsigned(rng() % 100);
      if (r < 12) ++depth;                                 // a call: the next emission is deeper
      else if (r < 15 && depth > 1) depth -= 1 + unsigned(rng() % std::min(depth - 1, 3u));  // frames lost
      const bool fe = rng() % 8 == 0;
      const bool inc = rng() % 40 == 0;
      s.push_back(em(0x100 * (1 + uint32_t(rng() % paths)), depth, fe, inc));
      if (fe && depth > 1) --depth;  // the return
    }
    Splitter sp;
    for (const auto& e : s) sp.add(e);
    const KeyCounts bf = brute_force_keys(sp.segments(), 7);
    for (unsigned k = 1; k <= 7; ++k) {
      analyses::KpathsProfiler prof(k);
      for (const auto& e : s) prof.add(e);
      check_against(prof, bf, k, "random descriptors rep " + std::to_string(rep));
    }
  }
}

// --------------------------------------------------------- shipped traces

BOOST_AUTO_TEST_CASE(shipped_traces_equal_brute_force) {
  namespace fs = std::filesystem;
  // Every k up to 8, and 12 (the k-SF then has 22 levels); brute force up
  // to 12 (about 5 s in all for the four traces).
  constexpr unsigned kMax = 12;
  const std::vector<unsigned> ks = {1, 2, 3, 4, 5, 6, 7, 8, 12};
  std::vector<std::string> traces;
  for (const auto& de : fs::directory_iterator(HWPROF_TRACE_DIR)) {
    const std::string p = de.path().string();
    if (p.size() > 9 && p.compare(p.size() - 9, 9, ".hwpt.zst") == 0) traces.push_back(p);
  }
  std::sort(traces.begin(), traces.end());
  BOOST_TEST_REQUIRE(traces.size() >= 4u);
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& path : traces) {
    const std::string name = fs::path(path).filename().string();
    std::vector<model::Emission> s;
    model::PathStackAlgo algo;  // depth 16, MaxLen 32: the front end's defaults
    model::PathProfile bl;
    const model::Ppcr ppcr{model::Ppcr::kBl};
    auto src = hwprof::trace::branch_source(path);
    model::BranchRecord rec;
    while (src(rec))
      if (auto e = algo.process(model::PathRecord::classify(rec, ppcr))) {
        s.push_back(*e);
        bl.add(*e);
      }
    BOOST_TEST_REQUIRE(s.size() > 100000u);
    Splitter sp;
    for (const auto& e : s) sp.add(e);
    const auto segs = sp.segments();
    const KeyCounts bf = brute_force_keys(segs, kMax);
    uint64_t longest = 0;
    for (const auto& g : segs) longest = std::max<uint64_t>(longest, g.size());
    BOOST_TEST_REQUIRE(longest >= kMax);  // some activation runs k paths or more
    for (unsigned k : ks) {
      analyses::KpathsProfiler prof(k);
      for (const auto& e : s) prof.add(e);
      const uint64_t nodes = check_against(prof, bf, k, name);
      BOOST_TEST_MESSAGE(name << " k " << k << ": " << nodes << " k-IPF nodes = brute force");
      if (k == 1) {
        // The 1-IPF is the Ball-Larus profile, ids in `hwprof paths` order.
        const auto r = prof.result();
        const auto rows = bl.sorted();
        BOOST_TEST_REQUIRE(r.ipf.num_roots() == rows.size());
        for (uint32_t i = 0; i < rows.size(); ++i) {
          BOOST_TEST_REQUIRE(r.ipf.node(i).label == i);
          BOOST_TEST_REQUIRE((r.keys[i] == rows[i].key));
          BOOST_TEST_REQUIRE(r.ipf.node(i).count == rows[i].counts.count);
        }
      }
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  BOOST_TEST_MESSAGE("shipped traces: " << secs << " s");
}

BOOST_AUTO_TEST_SUITE_END()
