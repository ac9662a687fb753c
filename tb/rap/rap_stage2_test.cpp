// Stage lock-step tests of the RAP engine's event queue, priority arbiter and
// threshold unit (issue 5; paper 001 section 4, Fig. 6; spec 4.2), each
// against a C++ reference written independently of the RTL:
//   * the event queue (rtl/prim/hwprof_fifo_sync.sv, RamRead = 1): a std::deque cycle model
//     with the module header's handshake (in_ready from the count before the
//     edge, out_valid = count != 0, data visible one cycle after its push,
//     push and pop in one cycle both happen, clear wins over a push of the
//     same cycle); directed cases written from the header by hand, then
//     random valid/ready with bubbles and backpressure (SimEnv: SEED, SEEDS,
//     IDLE_PCT, STALL_PCT), clears and resets mid-stream; every cycle
//     in_ready, out_valid and out_data (while out_valid) are compared through
//     the scoreboard (tb/common/cycle_check.h: failure waveform with rtl.*,
//     model.*, mismatch.*; the directed cases check hand-written values).
//     Depths 4, 16 and 5 (a depth that is not a power of two: pointer wrap).
//   * rap_arbiter (rtl/rap/hwprof_rap_arbiter.sv, combinational): group tables built
//     from real RapTree shapes (sim_models/rap/rap_tree.h): one entry per
//     internal node (pdepth = node depth, prefix), placed in random slots;
//     the match vector is the TCAM definition (docs/rap_engine.md: valid and
//     the top 2*pdepth bits equal); the expected winner is the parent of
//     RapTree::lookup(key) (the longest-prefix match is a leaf; its parent is
//     the deepest internal node holding the key), root (hit low) when the
//     leaf is the root. Directed cases by hand (no match, nested 0/1/2,
//     deepest at the last slot, the header's OR rule for an illegal table).
//   * rap_threshold (rtl/rap/hwprof_rap_threshold.sv, combinational): every output
//     against rap_split_threshold() for random and extreme eps / n, RangeW
//     2, 4, 8, 16, 32 with CntW 40 (the engine's) and 2, 32 with CntW 64.
// The random comparisons with a model go through the scoreboard
// (tb/common/cycle_check.h; the combinational tops get one harness cycle per
// checked input), so a mismatch leaves the failure waveform with rtl.*,
// model.* and mismatch.*; the directed cases check hand-written values.
#include <gtest/gtest.h>

#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vrap_arbiter_w2_g1.h"
#include "Vrap_arbiter_w32_g127.h"
#include "Vrap_arbiter_w8_g16.h"
#include "Vrap_event_queue_d16_w48.h"
#include "Vrap_event_queue_d4_w8.h"
#include "Vrap_event_queue_d5_w8.h"
#include "Vrap_threshold_w16_c40.h"
#include "Vrap_threshold_w2_c40.h"
#include "Vrap_threshold_w2_c64.h"
#include "Vrap_threshold_w32_c40.h"
#include "Vrap_threshold_w32_c64.h"
#include "Vrap_threshold_w4_c40.h"
#include "Vrap_threshold_w8_c40.h"
#include "cycle_check.h"
#include "gtest_util.h"
#include "harness.h"
#include "rap_tree.h"
#include "sim_env.h"

using hwprof::model::RapParams;
using hwprof::model::RapTree;
using hwprof::model::rap_split_threshold;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;

namespace {

// ------------------------------------------------------------ event queue

struct QueueIn {
  bool clear = false, in_valid = false, out_ready = false;
  uint64_t data = 0;
};
struct QueueOut {
  bool in_ready = false, out_valid = false;
  uint64_t data = 0;
};

// Cycle model of rap_event_queue (module header): outputs from the state
// before the edge, then one edge.
class QueueModel {
 public:
  explicit QueueModel(size_t depth) : depth_(depth) {}
  void reset() { q_.clear(); }
  QueueOut step(const QueueIn& in) {
    QueueOut o;
    o.in_ready = q_.size() != depth_;
    o.out_valid = !q_.empty();
    if (o.out_valid) o.data = q_.front();
    if (in.clear) {
      q_.clear();  // clear wins: a push of the same cycle is dropped
      return o;
    }
    const bool push = in.in_valid && o.in_ready;
    const bool pop = o.out_valid && in.out_ready;
    if (pop) q_.pop_front();
    if (push) q_.push_back(in.data);
    return o;
  }
  size_t size() const { return q_.size(); }

 private:
  size_t depth_;
  std::deque<uint64_t> q_;
};

template <typename Top>
QueueOut queue_drive(hwprof::tb::Harness<Top>& h, const QueueIn& in) {
  auto& t = h.top();
  t.clear_i = in.clear;
  t.in_valid_i = in.in_valid;
  t.in_data_i = in.data;
  t.out_ready_i = in.out_ready;
  h.eval();
  QueueOut o;
  o.in_ready = t.in_ready_o;
  o.out_valid = t.out_valid_o;
  o.data = t.out_data_o;
  return o;
}

template <typename Top>
void queue_lockstep(unsigned depth, unsigned width) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 16;  // 16 seeds: every idle x stall pair
  const uint64_t dmask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  uint64_t full_cycles = 0, clears = 0, resets = 0, pops = 0, both = 0;
  for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
    SCOPED_TRACE("SEED=" + std::to_string(s) + " Depth=" + std::to_string(depth));
    std::mt19937_64 rng(s);
    Throttle idle(s * 3 + 1, env.idle_for(s));
    Throttle stall(s * 7 + 2, env.stall_for(s));
    hwprof::tb::Harness<Top> h(env, hwprof::tb::current_test_name(), s);
    auto& t = h.top();
    t.clear_i = 0;
    t.in_valid_i = 0;
    t.out_ready_i = 0;
    t.in_data_i = 0;
    hwprof::tb::CycleCheck chk("fifo_sync", s);  // after h: binds to it
    h.reset();
    QueueModel m(depth);
    bool pending = false;  // the source holds valid and data until accepted
    uint64_t data = 0;
    for (int c = 0; c < 6000; ++c) {
      if (rng() % 2500 == 0) {  // asynchronous reset mid-stream
        h.reset(1 + unsigned(rng() % 3));
        m.reset();
        pending = false;
        ++resets;
      }
      if (!pending && !idle()) {
        pending = true;
        data = rng() & dmask;
      }
      QueueIn in;
      in.in_valid = pending;
      in.data = pending ? data : (rng() & dmask);  // data is don't-care while valid is low
      in.out_ready = !stall();
      in.clear = rng() % 400 == 0;
      if (in.clear && m.size() > 0) ++clears;
      const QueueOut got = queue_drive(h, in);
      const QueueOut exp = m.step(in);
      char desc[96];
      std::snprintf(desc, sizeof desc, "clear=%d in_valid=%d in_data=0x%llx out_ready=%d", in.clear, in.in_valid,
                    (unsigned long long)in.data, in.out_ready);
      ASSERT_TRUE(chk(h.cycle(), desc,
                      {{"in_ready", exp.in_ready, got.in_ready},
                       {"out_valid", exp.out_valid, got.out_valid},
                       {"out_data", exp.data, got.data, exp.out_valid}}));
      if (!exp.in_ready) ++full_cycles;
      const bool push = in.in_valid && exp.in_ready;
      const bool pop = exp.out_valid && in.out_ready;
      if (pop && !in.clear) ++pops;
      if (push && pop && !in.clear) ++both;
      if (push) pending = false;  // accepted (a clear of the same cycle drops it)
      h.tick();
    }
  }
  std::printf("[queue Depth=%u] full cycles %llu, clears of a non-empty queue %llu, resets %llu, pops %llu, "
              "push+pop cycles %llu\n",
              depth, (unsigned long long)full_cycles, (unsigned long long)clears, (unsigned long long)resets,
              (unsigned long long)pops, (unsigned long long)both);
  if (!env.seeds || env.seeds >= 16) {  // coverage of the default sweep
    EXPECT_GT(full_cycles, 100u);
    EXPECT_GT(clears, 10u);
    EXPECT_GT(resets, 5u);
    EXPECT_GT(pops, 10000u);
    EXPECT_GT(both, 1000u);
  }
}

// ------------------------------------------------------------ packing helpers

// A little-endian bit vector, copied into a Verilated port of any width.
struct Bits {
  std::vector<uint32_t> w;
  explicit Bits(unsigned nbits) : w((nbits + 31) / 32 + 1, 0u) {}
  void put(unsigned lsb, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; ++i)
      if ((v >> i) & 1u) w[(lsb + i) / 32] |= 1u << ((lsb + i) % 32);
  }
  void set(unsigned bit) { put(bit, 1, 1); }
};

template <typename T>
void to_port(T& port, const Bits& b) {
  if constexpr (std::is_integral_v<T>) {
    port = static_cast<T>(uint64_t{b.w[0]} | (uint64_t{b.w.size() > 1 ? b.w[1] : 0u} << 32));
  } else {
    for (size_t i = 0; i < sizeof(port.m_storage) / sizeof(port.m_storage[0]); ++i) port.m_storage[i] = b.w[i];
  }
}

// A combinational top (no clock, no reset) under the traced harness: the
// harness's clk_i / rst_ni drive nothing; each checked input gets a cycle of
// its own, so the scoreboard's cycle is the input's index and the waveform
// (TRACE=1, or the failure re-run) shows one input per cycle. Untraced, the
// harness is not clocked (a clock is three evaluations of a combinational
// top that needs one); the count is the same either way.
template <typename Top>
struct Clockless : Top {
  using Top::Top;
  uint8_t clk_i = 0, rst_ni = 1;
};
template <typename Top>
struct Comb {
  SimEnv env = SimEnv::from_env();
  hwprof::tb::Harness<Clockless<Top>> h;
  Clockless<Top>* top;
  uint64_t n = 0;  ///< inputs checked: the scoreboard's cycle (= the harness's when traced)
  explicit Comb(uint64_t seed) : h(env, hwprof::tb::current_test_name(), seed), top(&h.top()) {}
  uint64_t cycle() const { return n; }
  void next() {
    if (h.wave_compare()) h.tick();
    ++n;
  }
};

// ------------------------------------------------------------ arbiter

struct ArbEntry {
  bool valid = false;
  unsigned pdepth = 0;
  uint32_t prefix = 0;  // left-aligned, low bits zero
};
struct ArbResult {
  bool hit = false;
  unsigned idx = 0, pdepth = 0;
};

unsigned depth_w(unsigned range_w) {  // $clog2(RangeW / 2 + 1)
  unsigned h = range_w / 2 + 1, b = 0;
  while ((1u << b) < h) ++b;
  return b;
}

// The TCAM definition (docs/rap_engine.md, "TCAM"): valid and the top
// 2*pdepth bits of the key equal the entry's.
bool tcam_match(const ArbEntry& e, uint32_t key, unsigned range_w) {
  if (!e.valid) return false;
  const unsigned low = range_w - 2 * e.pdepth;
  if (low >= 32) return true;
  return (key >> low) == (e.prefix >> low);
}

template <typename Top>
ArbResult arb_eval(Comb<Top>& d, const std::vector<bool>& match, const std::vector<unsigned>& pdepth,
                   unsigned range_w) {
  const unsigned groups = unsigned(match.size()), dw = depth_w(range_w), h = range_w / 2;
  Bits m(groups), p(groups * dw), hot(groups * h);
  for (unsigned e = 0; e < groups; ++e) {
    if (match[e]) m.set(e);
    p.put(e * dw, dw, pdepth[e]);
    if (pdepth[e] < h) hot.set(e * h + pdepth[e]);  // the TCAM's one-hot copy (hwprof_rap_tcam_flags)
  }
  to_port(d.top->match_i, m);
  to_port(d.top->pdepth_i, p);
  to_port(d.top->pdepth_hot_i, hot);
  d.h.eval();
  return ArbResult{bool(d.top->hit_o), unsigned(d.top->idx_o), unsigned(d.top->pdepth_o)};
}

template <typename Top>
ArbResult arb_eval(Comb<Top>& d, const std::vector<ArbEntry>& tab, uint32_t key, unsigned range_w) {
  std::vector<bool> match(tab.size());
  std::vector<unsigned> pd(tab.size());
  for (size_t e = 0; e < tab.size(); ++e) {
    match[e] = tcam_match(tab[e], key, range_w);
    pd[e] = tab[e].pdepth;
  }
  return arb_eval(d, match, pd, range_w);
}

template <typename Top>
void arbiter_lockstep(unsigned range_w, unsigned groups) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 6;
  const unsigned h = range_w / 2, dw = depth_w(range_w);
  const uint32_t vmask = range_w == 32 ? ~0u : (1u << range_w) - 1;
  std::map<int, uint64_t> by_depth;  // winning pdepth (-1: root) -> checks
  uint64_t checks = 0, max_internal = 0;
  for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
    SCOPED_TRACE("SEED=" + std::to_string(s) + " RangeW=" + std::to_string(range_w));
    std::mt19937_64 rng(s);
    Comb<Top> d(s);
    hwprof::tb::CycleCheck chk("rap_arbiter", s);  // after d's harness: binds to it
    RapParams p;
    p.range_bits = range_w;
    p.eps_q16 = 300 + uint32_t(rng() % 6000);
    p.node_cap = 4 * groups + 1;
    p.merge_first = 64 + rng() % 2048;
    RapTree tree(p);
    // Hot spots so the tree grows deep; the rest uniform.
    std::vector<uint32_t> hot(4);
    for (auto& v : hot) v = uint32_t(rng()) & vmask;
    auto draw = [&]() -> uint32_t {
      const unsigned r = unsigned(rng() % 10);
      if (r < 7) {
        const uint32_t spread = uint32_t(rng() % (1u << std::min(range_w, 12u)));
        return (hot[rng() % hot.size()] + spread * (r < 4 ? 0 : 1)) & vmask;
      }
      return uint32_t(rng()) & vmask;
    };
    for (int step = 0; step < 400; ++step) {
      if (step > 0) {  // step 0: the root alone (empty table)
        const unsigned adds = 1 + unsigned(rng() % 40);
        for (unsigned a = 0; a < adds; ++a) tree.add(draw(), 1 + rng() % 3);
      }
      // The group table: one entry per internal node, in random slots.
      const auto nodes = tree.nodes();
      std::vector<unsigned> slots(groups);
      std::iota(slots.begin(), slots.end(), 0u);
      std::shuffle(slots.begin(), slots.end(), rng);
      std::vector<ArbEntry> tab(groups);
      for (auto& e : tab) e.pdepth = unsigned(rng() % (1u << dw));  // garbage in invalid slots
      std::map<std::pair<uint32_t, unsigned>, unsigned> slot_of;
      unsigned used = 0;
      for (const auto& n : nodes) {
        if (n.leaf()) continue;
        ASSERT_LT(used, groups) << "more internal nodes than groups";
        const unsigned sl = slots[used++];
        tab[sl] = ArbEntry{true, n.depth, n.prefix};
        slot_of[{n.prefix, n.depth}] = sl;
      }
      max_internal = std::max<uint64_t>(max_internal, used);
      for (int k = 0; k < 24; ++k) {
        uint32_t key;
        const unsigned r = unsigned(rng() % 4);
        if (r == 0) {
          key = uint32_t(rng()) & vmask;
        } else if (r == 1) {  // a range boundary of some node
          const auto& n = nodes[rng() % nodes.size()];
          key = (rng() & 1) ? n.prefix : n.last;
        } else {
          key = draw();
        }
        const auto [lp, ld] = tree.lookup(key);
        ArbResult exp;
        if (ld > 0) {
          const unsigned pd = ld - 1;
          const unsigned low = range_w - 2 * pd;
          const uint32_t pp = low >= 32 ? 0u : (lp >> low) << low;
          const auto it = slot_of.find({pp, pd});
          ASSERT_NE(it, slot_of.end()) << "leaf without a parent entry";
          exp = ArbResult{true, it->second, pd};
        }
        const ArbResult got = arb_eval(d, tab, key, range_w);
        char desc[96];
        std::snprintf(desc, sizeof desc, "key=0x%x (table step %d, %u internal nodes)", unsigned(key), step, used);
        ASSERT_TRUE(chk(d.cycle(), desc,
                        {{"hit", exp.hit, got.hit}, {"idx", exp.idx, got.idx}, {"pdepth", exp.pdepth, got.pdepth}}));
        d.next();
        ++by_depth[exp.hit ? int(exp.pdepth) : -1];
        ++checks;
      }
    }
  }
  std::string hist;
  for (const auto& [k, v] : by_depth) hist += " " + std::to_string(k) + ":" + std::to_string(v);
  ::testing::Test::RecordProperty("winners_by_pdepth", hist);
  std::printf("[arbiter RangeW=%u Groups=%u] %llu checks, most internal nodes %llu, winners by pdepth (-1 root):%s\n",
              range_w, groups, (unsigned long long)checks, (unsigned long long)max_internal, hist.c_str());
  if (!env.seeds || env.seeds >= 6) {
    // Coverage: the root and the deepest possible winner (H-1), unless the
    // table is too small to reach it.
    EXPECT_GT(by_depth[-1], 0u);
    EXPECT_GT(by_depth[0], 0u);
    if (groups >= h) {
      EXPECT_GT(by_depth[int(h) - 1], 0u) << "the deepest pdepth never won";
    }
    if (groups >= 16) {
      EXPECT_GE(max_internal, groups / 2) << "the table never filled half way";
    }
  }
}

// ------------------------------------------------------------ threshold

template <typename Top>
void threshold_check(unsigned range_w, unsigned cnt_w) {
  const SimEnv env = SimEnv::from_env();
  const uint64_t nmask = cnt_w >= 64 ? ~uint64_t{0} : (uint64_t{1} << cnt_w) - 1;
  Comb<Top> d(env.seed);
  hwprof::tb::CycleCheck chk("rap_threshold", env.seed);  // after d's harness: binds to it
  uint64_t checks = 0;
  auto check = [&](uint32_t eps, uint64_t n) {
    d.top->eps_i = eps;
    d.top->n_i = n;
    d.h.eval();
    const uint64_t exp = rap_split_threshold(eps, range_w, n);
    ++checks;
    char desc[96];
    std::snprintf(desc, sizeof desc, "RangeW=%u CntW=%u eps=%u n=0x%llx", range_w, cnt_w, unsigned(eps),
                  (unsigned long long)n);
    const bool ok = chk(d.cycle(), desc, {{"t", exp, uint64_t(d.top->t_o)}});
    d.next();
    return ok;
  };
  // Extremes by hand: eps 0, 1, 1/2, 65535; n 0, 1, around 65536*H, 2^CntW-1.
  const uint64_t hq = uint64_t{65536} * (range_w / 2);
  const std::vector<uint32_t> eps_x = {0, 1, 2, 6554, 32768, 65534, 65535};
  const std::vector<uint64_t> n_x = {0, 1, 2, hq - 1, hq, hq + 1, nmask / 2, nmask - 1, nmask};
  for (uint32_t e : eps_x)
    for (uint64_t n : n_x) ASSERT_TRUE(check(e, n & nmask));
  // Random: n of random bit length (every magnitude), eps uniform or extreme.
  for (uint64_t s = env.seed; s < env.seed + (env.seeds ? env.seeds : 4); ++s) {
    SCOPED_TRACE("SEED=" + std::to_string(s));
    std::mt19937_64 rng(s);
    for (int i = 0; i < 30000; ++i) {
      const unsigned bits = unsigned(rng() % (cnt_w + 1));
      const uint64_t n = bits == 0 ? 0 : (rng() & (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1));
      const unsigned r = unsigned(rng() % 8);
      const uint32_t eps = r == 0 ? 0u : r == 1 ? 65535u : uint32_t(rng() % 65536);
      ASSERT_TRUE(check(eps, n));
    }
  }
  // Exact hand values (the formula, not the model): eps = 1/2, n = 12 * H -> 6;
  // eps = 1/2, n = 12 * H - 1 -> 5; eps = 65535, n = 2^CntW - 1.
  const uint64_t h = range_w / 2;
  d.top->eps_i = 32768;
  d.top->n_i = 12 * h;
  d.top->eval();
  EXPECT_EQ(uint64_t(d.top->t_o), 6u);
  d.top->n_i = 12 * h - 1;
  d.top->eval();
  EXPECT_EQ(uint64_t(d.top->t_o), 5u);
  d.top->eps_i = 65535;
  d.top->n_i = nmask;
  d.top->eval();
  // floor(65535 * (2^C - 1) / (2^16 * H)): computed in 128 bits here.
  __extension__ typedef unsigned __int128 u128;
  const u128 prod = u128{65535u} * nmask;
  EXPECT_EQ(uint64_t(d.top->t_o), uint64_t(prod / hq));
  EXPECT_GT(checks, 100000u);
}

}  // namespace

// ------------------------------------------------------------ queue tests

// Directed, from the module header by hand (Depth 4): the first push is seen
// one cycle later; in_ready drops once four entries are held and stays low
// while the sink refuses; the data leave in order; in_ready rises the cycle
// after the first pop (registered from the count).
TEST(RapStage, EventQueueFillsThenBackpressures) {
  const SimEnv env = SimEnv::from_env();
  hwprof::tb::Harness<Vrap_event_queue_d4_w8> h(env, hwprof::tb::current_test_name(), env.seed);
  h.top().clear_i = 0;
  h.reset();
  // Offer 10, 11, ... with the sink refusing for 7 cycles.
  unsigned next = 10;
  const bool ready_exp[7] = {true, true, true, true, false, false, false};
  const bool valid_exp[7] = {false, true, true, true, true, true, true};
  for (int c = 0; c < 7; ++c) {
    const QueueOut o = queue_drive(h, QueueIn{false, true, false, next});
    EXPECT_EQ(o.in_ready, ready_exp[c]) << "cycle " << c;
    EXPECT_EQ(o.out_valid, valid_exp[c]) << "cycle " << c;
    if (o.out_valid) {
      EXPECT_EQ(o.data, 10u) << "cycle " << c;  // the oldest stays put
    }
    if (o.in_ready) ++next;
    h.tick();
  }
  EXPECT_EQ(next, 14u);  // exactly Depth entries were taken
  // Pop while still offering 14: the pop frees a slot, in_ready rises one cycle later.
  QueueOut o = queue_drive(h, QueueIn{false, true, true, 14});
  EXPECT_FALSE(o.in_ready);
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.data, 10u);
  h.tick();
  o = queue_drive(h, QueueIn{false, true, false, 14});  // push 14 (count 3 -> 4)
  EXPECT_TRUE(o.in_ready);
  EXPECT_EQ(o.data, 11u);
  h.tick();
  // Drain: 11, 12, 13, 14, then empty.
  for (unsigned v : {11u, 12u, 13u, 14u}) {
    o = queue_drive(h, QueueIn{false, false, true, 0});
    ASSERT_TRUE(o.out_valid);
    EXPECT_EQ(o.data, v);
    h.tick();
  }
  o = queue_drive(h, QueueIn{false, false, true, 0});
  EXPECT_FALSE(o.out_valid);
  EXPECT_TRUE(o.in_ready);
}

// Directed: a push and a pop in the same cycle both happen (count unchanged);
// clear wins over a push of its cycle; a reset mid-stream empties the queue.
TEST(RapStage, EventQueuePushPopClearReset) {
  const SimEnv env = SimEnv::from_env();
  hwprof::tb::Harness<Vrap_event_queue_d4_w8> h(env, hwprof::tb::current_test_name(), env.seed);
  h.top().clear_i = 0;
  h.reset();
  queue_drive(h, QueueIn{false, true, false, 1});
  h.tick();
  // One entry (1); push 2 and pop 1 together.
  QueueOut o = queue_drive(h, QueueIn{false, true, true, 2});
  EXPECT_TRUE(o.in_ready);
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.data, 1u);
  h.tick();
  o = queue_drive(h, QueueIn{false, true, false, 3});  // holds 2; push 3
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.data, 2u);
  h.tick();
  // Clear with a push (4) and a pop offered: everything is dropped.
  o = queue_drive(h, QueueIn{true, true, true, 4});
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.data, 2u);
  h.tick();
  o = queue_drive(h, QueueIn{false, true, false, 5});
  EXPECT_FALSE(o.out_valid) << "clear must empty the queue and drop the push of its cycle";
  EXPECT_TRUE(o.in_ready);
  h.tick();
  o = queue_drive(h, QueueIn{false, true, false, 6});
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.data, 5u);
  h.tick();
  // Fill to Depth and reset mid-stream.
  queue_drive(h, QueueIn{false, true, false, 7});
  h.tick();
  queue_drive(h, QueueIn{false, true, false, 8});
  h.tick();
  o = queue_drive(h, QueueIn{false, false, false, 0});
  EXPECT_FALSE(o.in_ready);  // 5, 6, 7, 8
  h.reset();
  o = queue_drive(h, QueueIn{false, true, false, 9});
  EXPECT_FALSE(o.out_valid);
  EXPECT_TRUE(o.in_ready);
  h.tick();
  o = queue_drive(h, QueueIn{false, false, true, 0});
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.data, 9u);
}

TEST(RapStage, EventQueueLockstepDepth4) { queue_lockstep<Vrap_event_queue_d4_w8>(4, 8); }
TEST(RapStage, EventQueueLockstepDepth16Width48) { queue_lockstep<Vrap_event_queue_d16_w48>(16, 48); }
TEST(RapStage, EventQueueLockstepDepth5) { queue_lockstep<Vrap_event_queue_d5_w8>(5, 8); }

// ------------------------------------------------------------ arbiter tests

// Directed, by hand (RangeW 8: H = 4, pdepth 0..3; Groups 16).
TEST(RapStage, ArbiterDirected) {
  Comb<Vrap_arbiter_w8_g16> d(1);
  std::vector<bool> m(16, false);
  std::vector<unsigned> pd(16, 0);
  // No entry matches: the root (hit low, index 0, pdepth 0), whatever the pdepths say.
  for (unsigned e = 0; e < 16; ++e) pd[e] = e % 5;
  ArbResult r = arb_eval(d, m, pd, 8);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.idx, 0u);
  EXPECT_EQ(r.pdepth, 0u);
  // Nested: slot 5 = root's group (pdepth 0), slot 9 = pdepth 1 prefix 10,
  // slot 2 = pdepth 2 prefix 1011; other slots invalid.
  const std::vector<ArbEntry> tab = [] {
    std::vector<ArbEntry> t(16);
    t[5] = {true, 0, 0x00};
    t[9] = {true, 1, 0x80};
    t[2] = {true, 2, 0xB0};
    return t;
  }();
  r = arb_eval(d, tab, 0xB7, 8);  // matches 5, 9, 2: the deepest (2) wins
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.idx, 2u);
  EXPECT_EQ(r.pdepth, 2u);
  r = arb_eval(d, tab, 0x87, 8);  // matches 5, 9
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.idx, 9u);
  EXPECT_EQ(r.pdepth, 1u);
  r = arb_eval(d, tab, 0x3F, 8);  // matches 5 only
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.idx, 5u);
  EXPECT_EQ(r.pdepth, 0u);
  // The same by explicit match vectors (slot 2 alone at pdepth 2 beats slot
  // 15 at pdepth 1 and slot 0 at pdepth 0; the deepest pdepth 3 at the last slot).
  std::fill(m.begin(), m.end(), false);
  std::fill(pd.begin(), pd.end(), 0u);
  m[0] = m[15] = m[2] = true;
  pd[15] = 1;
  pd[2] = 2;
  r = arb_eval(d, m, pd, 8);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.idx, 2u);
  EXPECT_EQ(r.pdepth, 2u);
  pd[15] = 3;
  r = arb_eval(d, m, pd, 8);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.idx, 15u);
  EXPECT_EQ(r.pdepth, 3u);
  // A non-matching entry's pdepth does not count.
  m[15] = false;
  r = arb_eval(d, m, pd, 8);
  EXPECT_EQ(r.idx, 2u);
  EXPECT_EQ(r.pdepth, 2u);
}

// Bad input: an illegal table with two matches at one pdepth. The module
// header defines the result: the indices are ORed (5 | 10 = 15 at pdepth 2).
TEST(RapStage, ArbiterIllegalTableOrsIndices) {
  Comb<Vrap_arbiter_w8_g16> d(1);
  std::vector<bool> m(16, false);
  std::vector<unsigned> pd(16, 0);
  m[5] = m[10] = m[3] = true;
  pd[5] = pd[10] = 2;
  pd[3] = 1;
  const ArbResult r = arb_eval(d, m, pd, 8);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.idx, 15u);
  EXPECT_EQ(r.pdepth, 2u);
}

TEST(RapStage, ArbiterLockstepRange32Groups127) { arbiter_lockstep<Vrap_arbiter_w32_g127>(32, 127); }
TEST(RapStage, ArbiterLockstepRange8Groups16) { arbiter_lockstep<Vrap_arbiter_w8_g16>(8, 16); }
TEST(RapStage, ArbiterLockstepRange2Groups1) { arbiter_lockstep<Vrap_arbiter_w2_g1>(2, 1); }

// ------------------------------------------------------------ threshold tests

TEST(RapStage, ThresholdLockstepRange2) { threshold_check<Vrap_threshold_w2_c40>(2, 40); }
TEST(RapStage, ThresholdLockstepRange4) { threshold_check<Vrap_threshold_w4_c40>(4, 40); }
TEST(RapStage, ThresholdLockstepRange8) { threshold_check<Vrap_threshold_w8_c40>(8, 40); }
TEST(RapStage, ThresholdLockstepRange16) { threshold_check<Vrap_threshold_w16_c40>(16, 40); }
TEST(RapStage, ThresholdLockstepRange32) { threshold_check<Vrap_threshold_w32_c40>(32, 40); }
TEST(RapStage, ThresholdLockstepRange2Cnt64) { threshold_check<Vrap_threshold_w2_c64>(2, 64); }
TEST(RapStage, ThresholdLockstepRange32Cnt64) { threshold_check<Vrap_threshold_w32_c64>(32, 64); }
