// Critical-path analysis and the timing model (paper 004 sections 2.1, 4;
// host/analyses/{timing,critpath}.h; docs/analyses.md, "Critical-path
// analysis") against:
//   * hand-built instruction sequences whose timestamps and critical path
//     were worked out by hand from the edge definitions of 004 Fig. 3, one
//     where each of the seven edge types decides the path, the tie-break
//     rules, and a 9-instruction example in the spirit of Fig. 3 (4-entry
//     ROB, i7 a mispredicted branch);
//   * a property test: on random sequences and machines, every node's time
//     equals the longest path from D[0] in an explicit graph built here
//     independently (DP, and brute-force path enumeration on small ones),
//     and the delineated path is a path of that graph of that length;
//   * the tracelet driver, LoC and binary criticality, event injection and
//     its determinism, the interval rule (spec section 5);
//   * the x86 decoder's registers and classes on hand-assembled bytes, the
//     instruction stream of hand-made records over hand-made code (every
//     skip reason), and a real shipped trace end to end.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "critpath.h"
#include "fabricate.h"
#include "loadmap.h"
#include "timing.h"
#include "trace.h"

#ifndef HWPROF_TRACE_DIR
#error "HWPROF_TRACE_DIR must point at tests/traces"
#endif

using namespace hwprof;
using analyses::CritAnalyzer;
using analyses::CriticalPath;
using analyses::Edge;
using analyses::MachineConfig;
using analyses::OpClass;
using analyses::Stage;
using analyses::StaticInsn;
using analyses::Timed;
using analyses::TimingModel;
using trace::Kind;
using trace::Record;

namespace {

StaticInsn insn(uint64_t pc, OpClass cls, std::vector<uint8_t> src, std::vector<uint8_t> dst, bool load = false,
                bool store = false) {
  StaticInsn s;
  s.pc = pc;
  s.len = 4;
  s.cls = cls;
  s.load = load;
  s.store = store;
  for (uint8_t r : src) s.src[s.nsrc++] = r;
  for (uint8_t r : dst) s.dst[s.ndst++] = r;
  if (cls == OpClass::Branch) {
    s.is_cf = true;
    s.kind = Kind::Br;
  }
  return s;
}

/// A machine wide enough that nothing but the edge under test limits.
MachineConfig wide() {
  MachineConfig m;
  m.fetch = m.issue = m.mem_ports = m.commit = 100;
  m.rob = 1000;
  m.mispredict_penalty = 10;
  return m;
}

struct Run {
  std::vector<Timed> t;
  CriticalPath p;
};

Run run(const MachineConfig& m, const std::vector<StaticInsn>& v, const std::vector<int>& mispredict = {},
        const std::vector<int>& miss = {}) {
  TimingModel tm(m);
  Run r;
  for (size_t i = 0; i < v.size(); ++i) {
    bool mp = false, ms = false;
    for (int k : mispredict) mp |= size_t(k) == i;
    for (int k : miss) ms |= size_t(k) == i;
    r.t.push_back(tm.step(v[i], mp, ms));
  }
  r.p = analyses::critical_path(r.t);
  return r;
}

/// "D0 DE E0 EC C0" style rendering of a path.
std::string path_str(const CriticalPath& p) {
  std::string s;
  for (size_t k = 0; k < p.nodes.size(); ++k) {
    if (k) s += std::string(" ") + analyses::to_string(p.edges[k - 1]) + " ";
    s += "DEC"[static_cast<int>(p.nodes[k].stage)] + std::to_string(p.nodes[k].insn);
  }
  return s;
}

std::vector<int> critical_list(const CriticalPath& p) {
  std::vector<int> v;
  for (size_t i = 0; i < p.critical.size(); ++i)
    if (p.critical[i]) v.push_back(int(i));
  return v;
}

uint64_t cyc(const CriticalPath& p, Edge e) { return p.edge_cycles[static_cast<int>(e)]; }

}  // namespace

BOOST_AUTO_TEST_SUITE(critpath)

// ------------------------------------------------------------ one edge type each

// E-E: a divide (20), a multiply (3) and an add, each using the last one's
// result. D = 0, 0, 0; E = 1, 21, 24; C = 21, 24, 25.
BOOST_AUTO_TEST_CASE(DataChainDecidesEE) {
  const Run r = run(wide(), {insn(0x10, OpClass::IntDiv, {}, {1}), insn(0x14, OpClass::IntMul, {1}, {2}),
                             insn(0x18, OpClass::IntAlu, {2}, {3})});
  BOOST_TEST(r.t[1].e == 21u);
  BOOST_TEST(r.t[2].e == 24u);
  BOOST_TEST(r.t[2].c == 25u);
  BOOST_TEST(r.p.length == 25u);
  BOOST_TEST(path_str(r.p) == "D0 D-E E0 E-E E1 E-E E2 E-C C2");
  BOOST_TEST(cyc(r.p, Edge::EE) == 23u);
  BOOST_TEST(critical_list(r.p) == (std::vector<int>{0, 1, 2}), boost::test_tools::per_element());
}

// C-C: commit width 1, four independent adds all complete at 2 and commit at
// 2, 3, 4, 5; only the first one's execution is on the path.
BOOST_AUTO_TEST_CASE(CommitWidthOneDecidesCC) {
  MachineConfig m = wide();
  m.commit = 1;
  std::vector<StaticInsn> v;
  for (int i = 0; i < 4; ++i) v.push_back(insn(0x10 + 4 * i, OpClass::IntAlu, {}, {}));
  const Run r = run(m, v);
  BOOST_TEST(r.t[3].c == 5u);
  BOOST_TEST(path_str(r.p) == "D0 D-E E0 E-C C0 C-C C1 C-C C2 C-C C3");
  BOOST_TEST(cyc(r.p, Edge::CC) == 3u);
  BOOST_TEST(critical_list(r.p) == (std::vector<int>{0}), boost::test_tools::per_element());
}

// D-D: fetch width 1, four independent adds dispatch at 0, 1, 2, 3; only
// the last one's execution is on the path.
BOOST_AUTO_TEST_CASE(FetchWidthOneDecidesDD) {
  MachineConfig m = wide();
  m.fetch = 1;
  std::vector<StaticInsn> v;
  for (int i = 0; i < 4; ++i) v.push_back(insn(0x10 + 4 * i, OpClass::IntAlu, {}, {}));
  const Run r = run(m, v);
  BOOST_TEST(r.t[3].d == 3u);
  BOOST_TEST(r.p.length == 5u);
  BOOST_TEST(path_str(r.p) == "D0 D-D D1 D-D D2 D-D D3 D-E E3 E-C C3");
  BOOST_TEST(cyc(r.p, Edge::DD) == 3u);
  BOOST_TEST(critical_list(r.p) == (std::vector<int>{3}), boost::test_tools::per_element());
}

// C-D: a 2-entry ROB behind a divide. D2 waits for C0 + 1 = 22; D3 for C1 +
// 1 = 22 (a tie with D-D in order: C-D has priority). C1 = C0 = 21 in order.
BOOST_AUTO_TEST_CASE(TinyRobDecidesCD) {
  MachineConfig m = wide();
  m.rob = 2;
  const Run r = run(m, {insn(0x10, OpClass::IntDiv, {}, {}), insn(0x14, OpClass::IntAlu, {}, {}),
                        insn(0x18, OpClass::IntAlu, {}, {}), insn(0x1c, OpClass::IntAlu, {}, {})});
  BOOST_TEST(r.t[2].d == 22u);
  BOOST_TEST(r.t[3].d == 22u);
  BOOST_TEST(r.t[3].c == 24u);
  BOOST_TEST(path_str(r.p) == "D0 D-E E0 E-C C0 C-C C1 C-D D3 D-E E3 E-C C3");
  BOOST_TEST(r.p.length == 24u);
  BOOST_TEST(cyc(r.p, Edge::CD) == 1u);
  BOOST_TEST(critical_list(r.p) == (std::vector<int>{0, 3}), boost::test_tools::per_element());
}

// E-D: a mispredicted branch (E = 2, latency 1) holds the next instruction's
// dispatch until 2 + 1 + 10 = 13.
BOOST_AUTO_TEST_CASE(MispredictionDecidesED) {
  const Run r = run(wide(), {insn(0x10, OpClass::IntAlu, {}, {1}), insn(0x14, OpClass::Branch, {1}, {}),
                             insn(0x40, OpClass::IntAlu, {}, {})},
                    {1});
  BOOST_TEST(r.t[1].e == 2u);
  BOOST_TEST(r.t[2].d == 13u);
  BOOST_TEST(r.p.length == 15u);
  BOOST_TEST(path_str(r.p) == "D0 D-E E0 E-E E1 E-D D2 D-E E2 E-C C2");
  BOOST_TEST(cyc(r.p, Edge::ED) == 11u);
  // The same branch predicted correctly: no E-D edge at all.
  const Run ok = run(wide(), {insn(0x10, OpClass::IntAlu, {}, {1}), insn(0x14, OpClass::Branch, {1}, {}),
                              insn(0x40, OpClass::IntAlu, {}, {})});
  BOOST_TEST(ok.p.length == 3u);
  BOOST_TEST(ok.p.edge_count[static_cast<int>(Edge::ED)] == 0u);
}

// D-E: issue width 1, three independent adds all dispatched at 0 issue at
// 1, 2, 3; the wait is charged to the last one's D-E edge (latency 3).
BOOST_AUTO_TEST_CASE(IssueWidthDecidesDE) {
  MachineConfig m = wide();
  m.issue = 1;
  const Run r = run(m, {insn(0x10, OpClass::IntAlu, {}, {}), insn(0x14, OpClass::IntAlu, {}, {}),
                        insn(0x18, OpClass::IntAlu, {}, {})});
  BOOST_TEST(r.t[2].e == 3u);
  BOOST_TEST(path_str(r.p) == "D0 D-D D1 D-D D2 D-E E2 E-C C2");
  BOOST_TEST(cyc(r.p, Edge::DE) == 3u);
  BOOST_TEST(critical_list(r.p) == (std::vector<int>{2}), boost::test_tools::per_element());
  // Memory ports: two loads with one port issue at 1 and 2, an add beside them at 1.
  MachineConfig m2 = wide();
  m2.mem_ports = 1;
  const Run r2 = run(m2, {insn(0x10, OpClass::IntAlu, {}, {}, true), insn(0x14, OpClass::IntAlu, {}, {}, true),
                          insn(0x18, OpClass::IntAlu, {}, {})});
  BOOST_TEST(r2.t[0].e == 1u);
  BOOST_TEST(r2.t[1].e == 2u);
  BOOST_TEST(r2.t[2].e == 1u);
}

// E-C: a divide behind an add: its own 20 cycles decide C1 = 21.
BOOST_AUTO_TEST_CASE(LongOpDecidesEC) {
  const Run r = run(wide(), {insn(0x10, OpClass::IntAlu, {}, {}), insn(0x14, OpClass::IntDiv, {}, {})});
  BOOST_TEST(r.t[1].c == 21u);
  BOOST_TEST(path_str(r.p) == "D0 D-D D1 D-E E1 E-C C1");
  BOOST_TEST(cyc(r.p, Edge::EC) == 20u);
  BOOST_TEST(critical_list(r.p) == (std::vector<int>{1}), boost::test_tools::per_element());
}

// A cache miss lengthens a load's E-C and E-E edges (3 -> 150).
BOOST_AUTO_TEST_CASE(CacheMissLengthensLoad) {
  const std::vector<StaticInsn> v = {insn(0x10, OpClass::IntAlu, {}, {1}, true), insn(0x14, OpClass::IntAlu, {1}, {})};
  BOOST_TEST(run(wide(), v).p.length == 1u + 3u + 1u);
  const Run r = run(wide(), v, {}, {0});
  BOOST_TEST(r.t[0].lat == 150u);
  BOOST_TEST(r.p.length == 1u + 150u + 1u);
  BOOST_TEST(cyc(r.p, Edge::EE) == 150u);
}

// Memory: a store to [r3 + 8] of a divide's result, then a load from the
// same expression with r3 unchanged: E-E through memory. E2 = 21 (the
// divide), the load issues at 21 + 1 (store latency) = 22, its user at 25.
BOOST_AUTO_TEST_CASE(StoreToLoadThroughTheSameAddress) {
  auto mem = [](StaticInsn s, uint32_t expr, uint8_t base) {
    s.addr_expr = expr;
    s.addr_base = base;
    return s;
  };
  const std::vector<StaticInsn> v = {
      insn(0x10, OpClass::IntAlu, {}, {1}), insn(0x14, OpClass::IntDiv, {}, {2}),
      mem(insn(0x18, OpClass::IntAlu, {3, 2}, {}, false, true), 7, 3),
      mem(insn(0x1c, OpClass::IntAlu, {3}, {4}, true), 7, 3), insn(0x20, OpClass::IntAlu, {4}, {})};
  const Run r = run(wide(), v);
  BOOST_TEST(r.t[3].e == 22u);
  BOOST_TEST(r.t[4].c == 26u);
  BOOST_TEST(path_str(r.p) == "D0 D-D D1 D-E E1 E-E E2 E-E E3 E-E E4 E-C C4");
  // Another expression, or r3 written in between, or mem_deps off: no edge.
  std::vector<StaticInsn> w = v;
  w[3].addr_expr = 8;
  BOOST_TEST(run(wide(), w).t[3].e == 1u);
  w = v;
  w.insert(w.begin() + 3, insn(0x1a, OpClass::IntAlu, {}, {3}));
  BOOST_TEST(run(wide(), w).t[4].e == 2u);  // (r3 from the new i3 at 2, not the store)
  MachineConfig off = wide();
  off.mem_deps = false;
  BOOST_TEST(run(off, v).t[3].e == 1u);
}

// The model forgets stores and issue slots every 4,096 instructions (those
// that can no longer matter): a store whose data is still late survives.
// 4,093 independent adds, a divide (D = 40, E = 41), a store of its result
// (E = 61, ready 62), an add, [prune after instruction 4,095], the load.
BOOST_AUTO_TEST_CASE(StoresSurvivePruning) {
  TimingModel tm(wide());
  for (int i = 0; i < 4093; ++i) tm.step(insn(0x10, OpClass::IntAlu, {}, {}), false, false);
  StaticInsn st = insn(0x18, OpClass::IntAlu, {3, 2}, {}, false, true), ld = insn(0x20, OpClass::IntAlu, {3}, {4}, true);
  st.addr_expr = ld.addr_expr = 7;
  st.addr_base = ld.addr_base = 3;
  const Timed dv = tm.step(insn(0x14, OpClass::IntDiv, {}, {2}), false, false);
  const Timed s = tm.step(st, false, false);
  tm.step(insn(0x1c, OpClass::IntAlu, {}, {}), false, false);
  BOOST_TEST(tm.instructions() == 4096u);
  const Timed l = tm.step(ld, false, false);
  BOOST_TEST(dv.d == 40u);
  BOOST_TEST(s.e == 61u);
  BOOST_TEST(l.e == 62u);
  BOOST_TEST((l.pe.edge == Edge::EE));
  BOOST_TEST(l.pe.src == 4094u);
}

// ------------------------------------------------------------ tie-breaks

// Two producers ready at the same time: the younger one is on the path. A
// producer ready exactly at D + 1: E-E, not D-E.
BOOST_AUTO_TEST_CASE(TieBreaks) {
  const Run r = run(wide(), {insn(0x10, OpClass::IntAlu, {}, {1}), insn(0x14, OpClass::IntAlu, {}, {2}),
                             insn(0x18, OpClass::IntAlu, {1, 2}, {})});
  BOOST_TEST(r.t[2].e == 2u);
  BOOST_TEST(path_str(r.p) == "D0 D-D D1 D-E E1 E-E E2 E-C C2");
  // E-C vs C-C in order at the same time: E-C.
  BOOST_TEST((r.t[2].pc.edge == Edge::EC));
  // D-D bandwidth (+1) and in order (+0) from the same node: bandwidth.
  MachineConfig m = wide();
  m.fetch = 1;
  const Run f = run(m, {insn(0x10, OpClass::IntAlu, {}, {}), insn(0x14, OpClass::IntAlu, {}, {})});
  BOOST_TEST(f.t[1].d == 1u);
  BOOST_TEST((f.t[1].pd.edge == Edge::DD));
  BOOST_TEST(f.t[1].pd.src == 0u);
  // Data ready exactly when dispatch allows issue (E-E and D-E both arrive
  // at 2): E-E. With fetch width 1, i1 dispatches at 1 and its producer's
  // result is ready at 2 = D1 + 1.
  const Run t = run(m, {insn(0x10, OpClass::IntAlu, {}, {1}), insn(0x14, OpClass::IntAlu, {1}, {})});
  BOOST_TEST(t.t[1].d + 1 == 2u);
  BOOST_TEST(t.t[1].e == 2u);
  BOOST_TEST(path_str(t.p) == "D0 D-E E0 E-E E1 E-C C1");
}

// ------------------------------------------------------------ Fig. 3 style

// 9 instructions on a machine with a 4-entry ROB (F = W = issue = 4,
// refill penalty 3), i7 a mispredicted branch (004 Fig. 3's caption; the
// figure's latencies are not in the text, so these are ours):
//   i1 load r1      i2 r2 = r1 + .   i3 r3 = r2 + .   i4 r4 = .
//   i5 r5 = r4 * .  i6 r6 = r3 + r5  i7 br r6 (mispredicted)
//   i8 r7 = .       i9 r8 = r7 + .
// By hand (0-based i0..i8 = i1..i9):
//   D = 0 0 0 0 5 6 7 14 14   (C-D edges from C0, C1, C2; E-D into i8)
//   E = 1 4 5 1 6 9 10 15 16
//   C = 4 5 6 6 9 10 11 16 17
// Critical path: D0 -DE- E0 -EC(3)- C0 -CD- D4 -DE- E4 -EE(3)- E5 -EE- E6
// -ED(1+3)- D7 -DE- E7 -EE- E8 -EC- C8, 17 cycles; i2, i3, i4 are not on it.
BOOST_AUTO_TEST_CASE(Fig3NineInstructions) {
  MachineConfig m;
  m.fetch = m.issue = m.commit = 4;
  m.mem_ports = 4;
  m.rob = 4;
  m.mispredict_penalty = 3;
  const Run r = run(m,
                    {insn(0x00, OpClass::IntAlu, {9}, {1}, true), insn(0x04, OpClass::IntAlu, {1}, {2}),
                     insn(0x08, OpClass::IntAlu, {2}, {3}), insn(0x0c, OpClass::IntAlu, {}, {4}),
                     insn(0x10, OpClass::IntMul, {4}, {5}), insn(0x14, OpClass::IntAlu, {3, 5}, {6}),
                     insn(0x18, OpClass::Branch, {6}, {}), insn(0x40, OpClass::IntAlu, {}, {7}),
                     insn(0x44, OpClass::IntAlu, {7}, {8})},
                    {6});
  const std::vector<uint64_t> d = {0, 0, 0, 0, 5, 6, 7, 14, 14}, e = {1, 4, 5, 1, 6, 9, 10, 15, 16},
                              c = {4, 5, 6, 6, 9, 10, 11, 16, 17};
  for (size_t i = 0; i < 9; ++i) {
    BOOST_TEST(r.t[i].d == d[i], "D" << i);
    BOOST_TEST(r.t[i].e == e[i], "E" << i);
    BOOST_TEST(r.t[i].c == c[i], "C" << i);
  }
  BOOST_TEST(path_str(r.p) ==
             "D0 D-E E0 E-C C0 C-D D4 D-E E4 E-E E5 E-E E6 E-D D7 D-E E7 E-E E8 E-C C8");
  BOOST_TEST(r.p.length == 17u);
  BOOST_TEST(critical_list(r.p) == (std::vector<int>{0, 4, 5, 6, 7, 8}), boost::test_tools::per_element());
  BOOST_TEST(cyc(r.p, Edge::ED) == 4u);
  BOOST_TEST(cyc(r.p, Edge::CD) == 1u);
  BOOST_TEST(cyc(r.p, Edge::EE) == 5u);
  BOOST_TEST(cyc(r.p, Edge::EC) == 4u);
  BOOST_TEST(cyc(r.p, Edge::DE) == 3u);
}

// ------------------------------------------------------------ property test

namespace {

// Latency of a random instruction, from the class table here (independent
// of MachineConfig::latency): load + folded ALU op = the load's.
uint32_t lat_of(const StaticInsn& s, bool miss, const MachineConfig& m) {
  uint32_t op = s.cls == OpClass::IntMul ? m.lat.int_mul : s.cls == OpClass::IntDiv ? m.lat.int_div
                : s.cls == OpClass::Branch ? m.lat.branch : m.lat.int_alu;
  if (s.load) return (miss ? m.lat.load_miss : m.lat.load_hit) + (s.cls == OpClass::IntMul || s.cls == OpClass::IntDiv ? op : 0);
  if (s.store && s.cls == OpClass::IntAlu) return m.lat.store;
  return op;
}

struct GEdge {
  int src, dst;  // node = 3 * insn + stage
  uint64_t lat;
  Edge type;
};

}  // namespace

BOOST_AUTO_TEST_CASE(LongestPathProperty) {
  std::mt19937_64 rng(12345);
  auto pick = [&](uint64_t n) { return analyses::uniform_below(rng, n); };
  int checked_brute = 0;
  for (int trial = 0; trial < 400; ++trial) {
    MachineConfig m;
    m.fetch = 1 + uint32_t(pick(4));
    m.issue = 1 + uint32_t(pick(4));
    m.mem_ports = 1 + uint32_t(pick(2));
    m.commit = 1 + uint32_t(pick(4));
    m.rob = 1 + uint32_t(pick(8));
    m.mispredict_penalty = uint32_t(pick(6));
    m.lat.int_div = 7;
    m.lat.load_miss = 12;
    const int n = 1 + int(pick(trial < 200 ? 6 : 40));
    std::vector<StaticInsn> v;
    std::vector<int> mp, ms;
    for (int i = 0; i < n; ++i) {
      const OpClass cls = std::vector<OpClass>{OpClass::IntAlu, OpClass::IntAlu, OpClass::IntMul, OpClass::IntDiv,
                                               OpClass::Branch}[pick(5)];
      std::vector<uint8_t> src, dst;
      for (uint64_t k = pick(3); k > 0; --k) src.push_back(uint8_t(1 + pick(4)));
      if (cls != OpClass::Branch && pick(4)) dst.push_back(uint8_t(1 + pick(4)));
      StaticInsn s = insn(0x100 + 4 * i, cls, src, dst, pick(4) == 0, pick(6) == 0);
      if ((s.load || s.store) && pick(4)) {
        s.addr_expr = 1 + uint32_t(pick(2));
        s.addr_base = uint8_t(1 + pick(4));
      }
      // duplicate sources are allowed in the model's input only once
      s.nsrc = 0;
      for (uint8_t r : src) {
        bool dup = false;
        for (unsigned q = 0; q < s.nsrc; ++q) dup |= s.src[q] == r;
        if (!dup) s.src[s.nsrc++] = r;
      }
      v.push_back(s);
      if (cls == OpClass::Branch && pick(2)) mp.push_back(i);
      if (s.load && pick(2)) ms.push_back(i);
    }
    const Run r = run(m, v, mp, ms);
    // The explicit graph.
    std::vector<GEdge> g;
    std::vector<uint64_t> lat(n);
    std::map<uint8_t, int> writer;
    struct St {
      int idx;
      uint32_t expr;
      uint8_t base;
      int version;
    };
    std::vector<St> stores;
    std::vector<bool> is_mp(n, false);
    for (int i : mp) is_mp[size_t(i)] = true;
    for (int i = 0; i < n; ++i) {
      bool miss = false;
      for (int k : ms) miss |= k == i;
      lat[size_t(i)] = lat_of(v[size_t(i)], miss, m);
      BOOST_REQUIRE(r.t[size_t(i)].lat == lat[size_t(i)]);
      const int D = 3 * i, E = D + 1, C = D + 2;
      if (i >= 1) g.push_back({D - 3, D, 0, Edge::DD});
      if (i >= int(m.fetch)) g.push_back({3 * (i - int(m.fetch)), D, 1, Edge::DD});
      if (i >= int(m.rob)) g.push_back({3 * (i - int(m.rob)) + 2, D, 1, Edge::CD});
      if (i >= 1 && is_mp[size_t(i - 1)]) g.push_back({E - 3, D, lat[size_t(i - 1)] + m.mispredict_penalty, Edge::ED});
      BOOST_REQUIRE(r.t[size_t(i)].e >= r.t[size_t(i)].d + 1);
      g.push_back({D, E, r.t[size_t(i)].e - r.t[size_t(i)].d, Edge::DE});  // D-E: the model's dispatch-to-issue
      for (unsigned k = 0; k < v[size_t(i)].nsrc; ++k) {
        auto it = writer.find(v[size_t(i)].src[k]);
        if (it != writer.end()) g.push_back({3 * it->second + 1, E, lat[size_t(it->second)], Edge::EE});
      }
      const StaticInsn& si = v[size_t(i)];
      const int ver = si.addr_base && writer.count(si.addr_base) ? writer[si.addr_base] : -1;
      if (si.addr_expr && si.load)  // the last store to the same expression and register value
        for (auto it = stores.rbegin(); it != stores.rend(); ++it)
          if (it->expr == si.addr_expr && it->base == si.addr_base) {
            if (it->version == ver) g.push_back({3 * it->idx + 1, E, lat[size_t(it->idx)], Edge::EE});
            break;
          }
      if (si.addr_expr && si.store) stores.push_back({i, si.addr_expr, si.addr_base, ver});
      g.push_back({E, C, lat[size_t(i)], Edge::EC});
      if (i >= 1) g.push_back({C - 3, C, 0, Edge::CC});
      if (i >= int(m.commit)) g.push_back({3 * (i - int(m.commit)) + 2, C, 1, Edge::CC});
      for (unsigned k = 0; k < v[size_t(i)].ndst; ++k) writer[v[size_t(i)].dst[k]] = i;
    }
    // Longest path from D0 by DP (node order = topological order).
    std::vector<int64_t> lp(size_t(3 * n), -1);
    lp[0] = 0;
    for (int node = 0; node < 3 * n; ++node)
      for (const GEdge& ge : g)
        if (ge.dst == node && lp[size_t(ge.src)] >= 0)
          lp[size_t(node)] = std::max(lp[size_t(node)], lp[size_t(ge.src)] + int64_t(ge.lat));
    for (int i = 0; i < n; ++i) {
      BOOST_REQUIRE(lp[size_t(3 * i)] == int64_t(r.t[size_t(i)].d));
      BOOST_REQUIRE(lp[size_t(3 * i + 1)] == int64_t(r.t[size_t(i)].e));
      BOOST_REQUIRE(lp[size_t(3 * i + 2)] == int64_t(r.t[size_t(i)].c));
    }
    BOOST_REQUIRE(int64_t(r.p.length) == lp[size_t(3 * n - 1)]);
    // Brute force: every path from D0 to the last C, enumerated.
    if (n <= 5) {
      int64_t best = -1;
      std::function<void(int, int64_t)> dfs = [&](int node, int64_t len) {
        if (node == 3 * n - 1) best = std::max(best, len);
        for (const GEdge& ge : g)
          if (ge.src == node) dfs(ge.dst, len + int64_t(ge.lat));
      };
      dfs(0, 0);
      BOOST_REQUIRE(best == int64_t(r.p.length));
      ++checked_brute;
    }
    // The delineated path is a path of the graph, every edge tight.
    BOOST_REQUIRE(r.p.nodes.size() == r.p.edges.size() + 1);
    BOOST_REQUIRE(r.p.nodes.front().insn == 0u);
    BOOST_REQUIRE((r.p.nodes.front().stage == Stage::D));
    BOOST_REQUIRE(r.p.nodes.back().insn == uint64_t(n - 1));
    BOOST_REQUIRE((r.p.nodes.back().stage == Stage::C));
    uint64_t sum = 0, by_type = 0;
    for (size_t k = 0; k < r.p.edges.size(); ++k) {
      const int a = 3 * int(r.p.nodes[k].insn) + int(r.p.nodes[k].stage);
      const int b = 3 * int(r.p.nodes[k + 1].insn) + int(r.p.nodes[k + 1].stage);
      bool found = false;
      for (const GEdge& ge : g)
        found |= ge.src == a && ge.dst == b && ge.type == r.p.edges[k] && lp[size_t(a)] + int64_t(ge.lat) == lp[size_t(b)];
      BOOST_REQUIRE_MESSAGE(found, "trial " << trial << " edge " << k);
      sum += uint64_t(lp[size_t(b)] - lp[size_t(a)]);
    }
    for (int e = 0; e < analyses::kNumEdges; ++e) by_type += r.p.edge_cycles[e];
    BOOST_REQUIRE(sum == r.p.length);
    BOOST_REQUIRE(by_type == r.p.length);
    // Issue bandwidth held.
    std::map<uint64_t, uint32_t> per, mem;
    for (int i = 0; i < n; ++i) {
      ++per[r.t[size_t(i)].e];
      if (v[size_t(i)].load || v[size_t(i)].store) ++mem[r.t[size_t(i)].e];
    }
    for (const auto& [cy, k] : per) BOOST_REQUIRE(k <= m.issue);
    for (const auto& [cy, k] : mem) BOOST_REQUIRE(k <= m.mem_ports);
  }
  BOOST_TEST(checked_brute > 100);
}

// ------------------------------------------------------------ database

BOOST_AUTO_TEST_CASE(TraceletsAndLoc) {
  analyses::CritOptions o;
  o.machine = wide();
  o.machine.fetch = 1;  // only each tracelet's last instruction is critical (FetchWidthOneDecidesDD)
  o.tracelet_len = 3;
  CritAnalyzer an(o);
  for (int i = 0; i < 7; ++i) an.add(insn(0x10 + 4 * uint64_t(i % 4), OpClass::IntAlu, {}, {}), false, false);
  BOOST_TEST(an.tracelets() == 2u);
  an.flush();
  BOOST_TEST(an.tracelets() == 3u);
  BOOST_TEST(an.instructions() == 7u);
  // pcs 10 14 18 | 1c 10 14 | 18: critical 18, 14, 18.
  const auto& db = an.db();
  BOOST_TEST(db.at(0x10).dynamic == 2u);
  BOOST_TEST(db.at(0x10).critical == 0u);
  BOOST_TEST(db.at(0x14).critical == 1u);
  BOOST_TEST(db.at(0x18).dynamic == 2u);
  BOOST_TEST(db.at(0x18).critical == 2u);
  BOOST_TEST(db.at(0x1c).critical == 0u);
  // Cycles per tracelet 2 + 3 = 5, 5, 3 (each from an empty machine).
  BOOST_TEST(an.cycles() == 13u);
  BOOST_TEST(an.path_cycles() == 4u + 4u + 2u);
  // Binary criticality: LoC strictly above 1/8.
  BOOST_TEST(!(analyses::StaticCrit{8, 1}.binary()));
  BOOST_TEST((analyses::StaticCrit{7, 1}.binary()));
  BOOST_TEST(!(analyses::StaticCrit{0, 0}.binary()));
  BOOST_TEST((analyses::StaticCrit{4, 1}.loc() == 0.25));
}

BOOST_AUTO_TEST_CASE(EventsInjectedReproducibly) {
  std::mt19937_64 g(1);
  int hits = 0;
  for (int i = 0; i < 20000; ++i) hits += analyses::draw(g, 0.25);
  BOOST_TEST(hits > 4700);
  BOOST_TEST(hits < 5300);
  for (int i = 0; i < 100; ++i) {
    BOOST_TEST(!analyses::draw(g, 0.0));
    BOOST_TEST(analyses::draw(g, 1.0));
  }
  // Rates: global overrides the per-pc ones; jumps, calls, returns never.
  analyses::EventRates er;
  er.mispredict[0x14] = 0.5;
  StaticInsn br = insn(0x14, OpClass::Branch, {}, {}), other = insn(0x18, OpClass::Branch, {}, {});
  BOOST_TEST(er.mispredict_rate(br) == 0.5);
  BOOST_TEST(er.mispredict_rate(other) == 0.0);
  er.global_mispredict = 0.1;
  BOOST_TEST(er.mispredict_rate(other) == 0.1);
  br.kind = Kind::Ret;
  BOOST_TEST(er.mispredict_rate(br) == 0.0);
  BOOST_TEST(er.mispredict_rate(insn(0x20, OpClass::IntAlu, {}, {})) == 0.0);
  // Same seed, same result; another seed, another one.
  auto go = [](uint64_t seed) {
    analyses::CritOptions o;
    o.seed = seed;
    o.tracelet_len = 50;
    o.rates.global_mispredict = 0.3;
    o.rates.miss_rate = 0.3;
    CritAnalyzer an(o);
    for (int i = 0; i < 1000; ++i)
      an.add(i % 5 == 4 ? insn(0x100 + 4 * uint64_t(i % 5), OpClass::Branch, {1}, {})
                        : insn(0x100 + 4 * uint64_t(i % 5), OpClass::IntAlu, {1}, {1}, i % 5 == 1));
    an.flush();
    return std::vector<uint64_t>{an.cycles(), an.mispredicts(), an.misses(), an.db().at(0x104).critical};
  };
  BOOST_TEST(go(3) == go(3), boost::test_tools::per_element());
  BOOST_TEST(go(3) != go(4));
  BOOST_TEST(go(3)[1] > 40u);  // about 0.3 * 200 branches
  BOOST_TEST(go(3)[2] > 40u);
}

BOOST_AUTO_TEST_CASE(ProfileMispredictRates) {
  analyses::ProfileDb db;
  auto br = [](uint64_t pc, bool taken) {
    Record r;
    r.kind = Kind::Br;
    r.pc = pc;
    r.target = 0x100;
    r.taken = taken;
    r.ilen = 2;
    r.insns = 1;
    return r;
  };
  for (int i = 0; i < 8; ++i) db.add(br(0x10, i % 4 != 0));  // 6 taken, 2 not
  Record ij;
  ij.kind = Kind::Ijmp;
  ij.pc = 0x20;
  ij.ilen = 2;
  ij.insns = 1;
  ij.taken = true;
  for (int i = 0; i < 10; ++i) {
    ij.target = i < 7 ? 0x300 : 0x400;
    db.add(ij);
  }
  db.finish();
  const auto r = analyses::profile_mispredict_rates(db);
  BOOST_TEST(r.at(0x10) == 0.25);
  BOOST_TEST(r.at(0x20) == 0.3, boost::test_tools::tolerance(1e-12));
}

// ------------------------------------------------------------ intervals

// N = 10; records of 4 4 4 4 4 15 1 1 30 instructions: running counts 4 8
// 12* 16 20* 35* 36 37 67* (boundaries 10, 20, 30, 40).
BOOST_AUTO_TEST_CASE(IntervalBoundaryRule) {
  analyses::IntervalRule rule(10);
  std::vector<int> ends;
  const int insns[] = {4, 4, 4, 4, 4, 15, 1, 1, 30};
  for (int k = 0; k < 9; ++k)
    if (rule.add(uint64_t(insns[k]))) ends.push_back(k);
  BOOST_TEST(ends == (std::vector<int>{2, 4, 5, 8}), boost::test_tools::per_element());
  BOOST_TEST(rule.boundary() == 50u);
  BOOST_CHECK_THROW(analyses::IntervalRule(0), std::invalid_argument);
}

// ------------------------------------------------------------ bad configurations

BOOST_AUTO_TEST_CASE(BadMachineRejected) {
  for (int k = 0; k < 6; ++k) {
    MachineConfig m;
    (k == 0 ? m.fetch : k == 1 ? m.issue : k == 2 ? m.commit : k == 3 ? m.rob : k == 4 ? m.mem_ports : m.lat.load_hit) = 0;
    BOOST_TEST(!m.check().empty());
    BOOST_CHECK_THROW(TimingModel{m}, std::invalid_argument);
  }
  BOOST_TEST(MachineConfig{}.check().empty());
  analyses::CritOptions o;
  o.tracelet_len = 0;
  BOOST_CHECK_THROW(CritAnalyzer{o}, std::invalid_argument);
}

// ------------------------------------------------------------ x86 decoding

namespace {

std::vector<std::string> names(const analyses::InsnDecoder& d, const uint8_t* r, int n) {
  std::vector<std::string> v;
  for (int k = 0; k < n; ++k) v.push_back(d.reg_name(r[k]));
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

BOOST_AUTO_TEST_CASE(X86Registers) {
  analyses::InsnDecoder d("x86_64");
  auto dec = [&](std::vector<uint8_t> b, uint64_t pc = 0x1000) {
    const StaticInsn* s = d.decode(pc, b.data(), b.size());
    BOOST_REQUIRE(s);
    return *s;
  };
  using V = std::vector<std::string>;
  StaticInsn s = dec({0x48, 0x01, 0xd8}, 0x1000);  // add rax, rbx
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"rax", "rbx"}), boost::test_tools::per_element());
  BOOST_TEST(names(d, s.dst, s.ndst) == (V{"flags", "rax"}), boost::test_tools::per_element());
  BOOST_TEST(d.disasm(0x1000) == "add rax, rbx");
  s = dec({0x00, 0xd8}, 0x1003);  // add al, bl: the full registers
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"rax", "rbx"}), boost::test_tools::per_element());
  s = dec({0x48, 0x8b, 0x07}, 0x1005);  // mov rax, [rdi]
  BOOST_TEST(s.load);
  BOOST_TEST(!s.store);
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"rdi"}), boost::test_tools::per_element());
  BOOST_TEST(names(d, s.dst, s.ndst) == (V{"rax"}), boost::test_tools::per_element());
  s = dec({0x48, 0x89, 0x07}, 0x1008);  // mov [rdi], rax
  BOOST_TEST(s.store);
  BOOST_TEST(!s.load);
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"rax", "rdi"}), boost::test_tools::per_element());
  s = dec({0x48, 0x0f, 0xaf, 0xc3}, 0x100b);  // imul rax, rbx
  BOOST_TEST((s.cls == OpClass::IntMul));
  s = dec({0x48, 0xf7, 0xf3}, 0x100f);  // div rbx
  BOOST_TEST((s.cls == OpClass::IntDiv));
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"rax", "rbx", "rdx"}), boost::test_tools::per_element());
  s = dec({0x31, 0xc0}, 0x1012);  // xor eax, eax: no source
  BOOST_TEST(s.nsrc == 0u);
  BOOST_TEST(names(d, s.dst, s.ndst) == (V{"flags", "rax"}), boost::test_tools::per_element());
  s = dec({0x75, 0xfe}, 0x1014);  // jne
  BOOST_TEST(s.is_cf);
  BOOST_TEST((s.kind == Kind::Br));
  BOOST_TEST((s.cls == OpClass::Branch));
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"flags"}), boost::test_tools::per_element());
  s = dec({0xf2, 0x0f, 0x5e, 0xc1}, 0x1016);  // divsd xmm0, xmm1
  BOOST_TEST((s.cls == OpClass::FpDiv));
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"vec0", "vec1"}), boost::test_tools::per_element());
  s = dec({0xf2, 0x0f, 0x58, 0xc1}, 0x101a);  // addsd xmm0, xmm1
  BOOST_TEST((s.cls == OpClass::Fp));
  s = dec({0xc3}, 0x101e);  // ret
  BOOST_TEST((s.kind == Kind::Ret));
  BOOST_TEST(s.load);
  s = dec({0x50}, 0x101f);  // push rax
  BOOST_TEST(s.store);
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"rax", "rsp"}), boost::test_tools::per_element());
  BOOST_TEST(names(d, s.dst, s.ndst) == (V{"rsp"}), boost::test_tools::per_element());
  // Address expressions: [rdi] for the load and the store above, not [rdi + 8];
  // rip-relative by absolute address.
  const uint32_t ld = d.decode(0x1005, nullptr, 0)->addr_expr, st = d.decode(0x1008, nullptr, 0)->addr_expr;
  BOOST_TEST(ld != 0u);
  BOOST_TEST(ld == st);
  BOOST_TEST(dec({0x48, 0x8b, 0x47, 0x08}, 0x1100).addr_expr != ld);  // mov rax, [rdi + 8]
  const uint32_t r1 = dec({0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00}, 0x1200).addr_expr;  // mov rax, [rip + 0x10]
  const uint32_t r2 = dec({0x48, 0x89, 0x05, 0x09, 0x00, 0x00, 0x00}, 0x1207).addr_expr;  // mov [rip + 9], rax
  BOOST_TEST(r1 == r2);  // both 0x1217
  BOOST_TEST(d.decode(0x1207, nullptr, 0)->addr_base == 0u);
  s = dec({0x48, 0x8d, 0x04, 0x1f}, 0x1020);  // lea rax, [rdi + rbx]: no memory access
  BOOST_TEST(!s.load);
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"rbx", "rdi"}), boost::test_tools::per_element());
  // More registers than kMaxRegs: the extra ones are dropped, nothing overflows.
  s = dec({0xc5, 0xfc, 0x77}, 0x1030);  // vzeroall: writes every vector register
  BOOST_TEST(s.ndst == uint8_t(analyses::kMaxRegs));
  s = dec({0x0f, 0xa2}, 0x1033);  // cpuid: reads rax, rcx; writes rax, rbx, rcx, rdx
  BOOST_TEST(s.ndst <= uint8_t(analyses::kMaxRegs));
  const uint8_t bad[] = {0x06};  // push es: invalid in 64-bit mode
  BOOST_TEST(d.decode(0x2000, bad, 1) == nullptr);
}

// Hand-encoded RV64 instructions (little endian).
BOOST_AUTO_TEST_CASE(RiscvRegisters) {
  analyses::InsnDecoder d("riscv64");
  auto dec = [&](uint32_t w, uint64_t pc, size_t len = 4) {
    const uint8_t b[4] = {uint8_t(w), uint8_t(w >> 8), uint8_t(w >> 16), uint8_t(w >> 24)};
    const StaticInsn* s = d.decode(pc, b, len);
    BOOST_REQUIRE(s);
    return *s;
  };
  using V = std::vector<std::string>;
  StaticInsn s = dec(0x002081b3, 0x100);  // add x3, x1, x2
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"x1", "x2"}), boost::test_tools::per_element());
  BOOST_TEST(names(d, s.dst, s.ndst) == (V{"x3"}), boost::test_tools::per_element());
  BOOST_TEST((s.cls == OpClass::IntAlu));
  BOOST_TEST((dec(0x022081b3, 0x104).cls == OpClass::IntMul));  // mul x3, x1, x2
  BOOST_TEST((dec(0x0220c1b3, 0x108).cls == OpClass::IntDiv));  // div x3, x1, x2
  const StaticInsn ld = dec(0x00853283, 0x10c);                  // ld x5, 8(x10)
  BOOST_TEST(ld.load);
  BOOST_TEST(names(d, ld.src, ld.nsrc) == (V{"x10"}), boost::test_tools::per_element());
  BOOST_TEST(names(d, ld.dst, ld.ndst) == (V{"x5"}), boost::test_tools::per_element());
  const StaticInsn sd = dec(0x00553423, 0x110);  // sd x5, 8(x10)
  BOOST_TEST(sd.store);
  BOOST_TEST(names(d, sd.src, sd.nsrc) == (V{"x10", "x5"}), boost::test_tools::per_element());
  BOOST_TEST(sd.addr_expr == ld.addr_expr);  // both 8(x10)
  BOOST_TEST(sd.addr_expr != 0u);
  s = dec(0x00208063, 0x114);  // beq x1, x2, 0
  BOOST_TEST(s.is_cf);
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"x1", "x2"}), boost::test_tools::per_element());
  s = dec(0x0505, 0x118, 2);  // c.addi x10, 1
  BOOST_TEST(s.len == 2u);
  BOOST_TEST(names(d, s.src, s.nsrc) == (V{"x10"}), boost::test_tools::per_element());
  BOOST_TEST(names(d, s.dst, s.ndst) == (V{"x10"}), boost::test_tools::per_element());
}

// ------------------------------------------------------------ instruction stream

// Code at 0x1000: add rax, rbx; mov rax, [rdi]; jne 0x1000. Code at 0x3000:
// one undecodable byte.
BOOST_AUTO_TEST_CASE(StreamSkipsWithReasons) {
  analyses::CodeImage code("x86_64");
  code.add_region(0x1000, {0x48, 0x01, 0xd8, 0x48, 0x8b, 0x07, 0x75, 0xf8}, 0);
  code.add_region(0x3000, {0x06, 0x06}, 0);
  analyses::InsnDecoder dec("x86_64");
  analyses::InsnStream in(code, dec);
  auto br = [](uint64_t pc, uint64_t target, bool taken, uint32_t insns) {
    Record r;
    r.kind = Kind::Br;
    r.pc = pc;
    r.target = target;
    r.taken = taken;
    r.ilen = 2;
    r.insns = insns;
    return r;
  };
  analyses::Skip why = analyses::Skip::Mismatch;
  BOOST_TEST(in.next(br(0x1006, 0x1000, true, 3), why) == nullptr);
  BOOST_TEST((why == analyses::Skip::SegmentStart));
  const auto* v = in.next(br(0x1006, 0x1000, true, 3), why);
  BOOST_REQUIRE(v);
  BOOST_TEST(v->size() == 3u);
  BOOST_TEST((*v)[1]->load);
  BOOST_TEST((*v)[2]->is_cf);
  BOOST_TEST(in.next(br(0x1006, 0x1000, true, 2), why) == nullptr);  // the code has 3 instructions
  BOOST_TEST((why == analyses::Skip::Mismatch));
  BOOST_TEST(in.next(br(0x1006, 0x9000, true, 3), why) != nullptr);  // (its successor is unmapped)
  BOOST_TEST(in.next(br(0x9004, 0x3000, true, 3), why) == nullptr);
  BOOST_TEST((why == analyses::Skip::Unmapped));
  BOOST_TEST(in.next(br(0x3004, 0x1000, true, 3), why) == nullptr);
  BOOST_TEST((why == analyses::Skip::Undecodable));
  in.restart();
  BOOST_TEST(in.next(br(0x1006, 0x1000, true, 3), why) == nullptr);
  BOOST_TEST((why == analyses::Skip::SegmentStart));
  BOOST_TEST(in.skipped_records(analyses::Skip::SegmentStart) == 2u);
  BOOST_TEST(in.skipped_insns(analyses::Skip::Mismatch) == 2u);
  BOOST_TEST(in.skipped_records(analyses::Skip::Unmapped) == 1u);
  BOOST_TEST(in.skipped_records(analyses::Skip::Undecodable) == 1u);
}

// ------------------------------------------------------------ a real program

BOOST_AUTO_TEST_CASE(ShippedTraceEndToEnd) {
  const std::string t = std::string(HWPROF_TRACE_DIR) + "/gzip.hwpt.zst", mp = t + ".map";
  const record::LoadMap map = record::LoadMap::read(mp);
  for (const auto& ob : map.objects) {
    const auto e = record::read_elf(ob.host_path);
    if (!e.ok || e.build_id != ob.elf.build_id) {
      BOOST_TEST_MESSAGE("skipped: " << ob.host_path << " is not the file gzip ran (build id)");
      return;
    }
  }
  const trace::Info info = trace::scan(t);
  const analyses::ProfileDb db = analyses::build_profile(t, analyses::Sampling{});
  analyses::CodeImage code("x86_64");
  std::vector<uint64_t> needed;
  for (const auto& [pc, b] : db.branches()) needed.push_back(pc);
  analyses::load_code(code, map, mp, needed);
  analyses::InsnDecoder dec("x86_64");
  analyses::InsnStream in(code, dec);
  analyses::CritOptions o;
  o.rates.mispredict = analyses::profile_mispredict_rates(db);
  o.rates.miss_rate = 0.02;
  CritAnalyzer an(o);
  TimingModel stream(o.machine);
  const uint64_t N = 100000;
  const analyses::CritRun run = analyses::run_critpath(t, in, an, stream, o, N, {});
  BOOST_TEST(run.instructions == info.instructions);
  // Almost everything is modelled: only the first record and code outside
  // the ELF files (vdso) are skipped.
  BOOST_TEST(run.modelled > info.instructions * 99 / 100);
  uint64_t skipped = 0;
  for (int k = 0; k < analyses::kNumSkips; ++k) skipped += in.skipped_insns(analyses::Skip(k));
  BOOST_TEST(run.modelled + skipped == info.instructions);
  BOOST_TEST(in.skipped_records(analyses::Skip::Mismatch) == 0u);
  BOOST_TEST(an.instructions() == run.modelled);
  BOOST_TEST(an.tracelets() == (run.modelled + 999) / 1000);
  uint64_t dyn = 0, crit = 0;
  for (const auto& [pc, sc] : an.db()) {
    BOOST_REQUIRE(sc.critical <= sc.dynamic);
    dyn += sc.dynamic;
    crit += sc.critical;
  }
  BOOST_TEST(dyn == run.modelled);
  BOOST_TEST(crit > 0u);
  BOOST_TEST(an.path_cycles() <= an.cycles());
  const double cpi = double(run.stream_cycles) / double(run.modelled);
  BOOST_TEST(cpi >= 1.0 / o.machine.commit);
  BOOST_TEST(cpi < 10.0);
  BOOST_TEST(an.mispredicts() > 0u);
  BOOST_TEST(an.misses() > 0u);
  // Intervals: as many as the rule gives on the records.
  analyses::IntervalRule rule(N);
  uint64_t ends = 0;
  trace::for_each(t, [&](const Record& r) {
    if (r.is_branch()) ends += rule.add(r.insns);
  });
  BOOST_TEST(run.interval_cpi.size() == ends);
  double sum_cycles = 0;
  for (double c : run.interval_cpi) BOOST_TEST(c >= 1.0 / o.machine.commit);
  (void)sum_cycles;
  BOOST_TEST_MESSAGE("gzip: CPI " << cpi << ", tracelet CPI " << double(an.cycles()) / double(an.instructions())
                                  << ", critical " << crit << " of " << dyn);
}

BOOST_AUTO_TEST_SUITE_END()
