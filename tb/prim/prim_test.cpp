// Tests of the shared primitives (rtl/prim/, docs/prim.md):
//   * hwprof_lzc, hwprof_onehot2bin, hwprof_argmin_tree (Pipe 0): exhaustive
//     over every input of small widths against sim_models/common/prim.h;
//     argmin Pipe 1 in random lock-step (one cycle later).
//   * hwprof_fifo_sync: random valid/ready/clear/reset lock-step against
//     sim_models/common/sync_fifo.h, Depth 1, 2, 4, 5 with RamRead 0 and 1,
//     and with two push ports (NPush 2).
//   * hwprof_ram_2p: random lock-step against a word array with a known-bit
//     mask (a granule written and read at the same address at the same edge
//     reads undefined and is not compared; never-written bits neither).
//   * hwprof_stat_bank: random lock-step against counters built on sat_add.
// The lock-step tests (argmin Pipe 1, fifo, ram, stat bank) compare through
// the scoreboard (tb/common/cycle_check.h): a mismatch prints the report and
// leaves the failure waveform with rtl.* / model.* / mismatch.* at that cycle
// (docs/debugging.md). The exhaustive sweeps of the combinational primitives
// and the directed cases stay plain EXPECTs (docs/debugging.md says why).
// Seeds: SimEnv (SEED, SEEDS), printed in the failure trace.
#include <gtest/gtest.h>

#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

#include "Vprim_argmin_n1_w2_m0_p0.h"
#include "Vprim_argmin_n4_w2_m0_p0.h"
#include "Vprim_argmin_n4_w2_m1_p0.h"
#include "Vprim_argmin_n5_w3_m0_p0.h"
#include "Vprim_argmin_n5_w3_m0_p1.h"
#include "Vprim_argmin_n5_w3_m1_p1.h"
#include "Vprim_fifo_d1_r0.h"
#include "Vprim_fifo_d1_p2.h"
#include "Vprim_fifo_d1_r1.h"
#include "Vprim_fifo_d2_r0.h"
#include "Vprim_fifo_d2_p2.h"
#include "Vprim_fifo_d2_r1.h"
#include "Vprim_fifo_d4_r0.h"
#include "Vprim_fifo_d4_p2.h"
#include "Vprim_fifo_d4_r1.h"
#include "Vprim_fifo_d5_r0.h"
#include "Vprim_fifo_d5_p2.h"
#include "Vprim_fifo_d5_r1.h"
#include "Vprim_lzc_n1_h0.h"
#include "Vprim_lzc_n5_h0.h"
#include "Vprim_lzc_n8_h0.h"
#include "Vprim_lzc_n8_h1.h"
#include "Vprim_onehot2bin_n5.h"
#include "Vprim_onehot2bin_n8.h"
#include "Vprim_ram_2p_d1.h"
#include "Vprim_ram_2p_g1.h"
#include "Vprim_ram_2p_g4.h"
#include "Vprim_stat_bank_n3_w4_a3.h"
#include "Vprim_stat_bank_n4_w1_a1.h"
#include "cycle_check.h"
#include "gtest_util.h"
#include "harness.h"
#include "prim.h"
#include "sim_env.h"
#include "sync_fifo.h"

using hwprof::model::mask_of;
using hwprof::tb::CycleCheck;
using hwprof::tb::Harness;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;

namespace {

// A Verilated top without a reset port (combinational, or the RAM): one
// context, clock driven by hand when there is one.
template <typename Top>
struct Bare {
  VerilatedContext ctx;
  std::unique_ptr<Top> top;
  explicit Bare(uint64_t seed) {
    ctx.randReset(2);
    ctx.randSeed(static_cast<int>(seed & 0x7fffffff));
    top = std::make_unique<Top>(&ctx, "top");
  }
  ~Bare() { top->final(); }
};

std::string seed_trace(uint64_t s) { return "SEED=" + std::to_string(s); }

// A top without a reset port (the RAM) under the traced harness: the
// harness drives rst_ni, which this top ignores.
template <typename Top>
struct NoReset : Top {
  using Top::Top;
  uint8_t rst_ni = 1;
};

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// ------------------------------------------------------------ lzc

template <typename Top>
void lzc_exhaustive(unsigned n, bool high_first) {
  Bare<Top> b(1);
  for (uint64_t v = 0; v < (uint64_t{1} << n); ++v) {
    b.top->in_i = v;
    b.top->eval();
    const int exp = high_first ? hwprof::model::highest_set(v) : hwprof::model::lowest_set(v);
    ASSERT_EQ(b.top->valid_o, v != 0) << "in " << v;
    ASSERT_EQ(b.top->idx_o, exp < 0 ? 0u : unsigned(exp)) << "in " << v;
  }
}

TEST(PrimLzc, LowestSetBitWinsExhaustive) {
  lzc_exhaustive<Vprim_lzc_n8_h0>(8, false);
  lzc_exhaustive<Vprim_lzc_n5_h0>(5, false);
  lzc_exhaustive<Vprim_lzc_n1_h0>(1, false);
}

TEST(PrimLzc, HighFirstHighestSetBitWinsExhaustive) { lzc_exhaustive<Vprim_lzc_n8_h1>(8, true); }

// ------------------------------------------------------------ onehot2bin

template <typename Top>
void onehot_exhaustive(unsigned n) {
  const SimEnv env = SimEnv::from_env();
  Harness<Top> h(env, hwprof::tb::current_test_name(), env.seed);
  h.top().oh_i = 0;
  h.reset();
  for (unsigned i = 0; i <= n; ++i) {  // i == n: all zero
    const uint64_t oh = i < n ? uint64_t{1} << i : 0;
    h.top().oh_i = oh;
    h.eval();
    ASSERT_EQ(h.top().bin_o, i < n ? i : 0u) << "oh " << oh;
    h.tick();  // the $onehot0 assertion samples here
  }
}

TEST(PrimOnehot2bin, MapsEveryOnehotInputToItsIndex) {
  onehot_exhaustive<Vprim_onehot2bin_n8>(8);
  onehot_exhaustive<Vprim_onehot2bin_n5>(5);
}

TEST(PrimOnehot2bin, MultihotInputFailsTheOnehot0Assertion) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        std::fflush(stdout);
        dup2(STDERR_FILENO, STDOUT_FILENO);  // Verilator reports on stdout
        const SimEnv env = SimEnv::from_env();
        Harness<Vprim_onehot2bin_n8> h(env, "onehot_death", env.seed);
        h.top().oh_i = 0;
        h.reset();
        h.top().oh_i = 0x24;
        h.tick();
        h.tick();
      },
      "oh_onehot0");
}

// ------------------------------------------------------------ argmin tree

template <typename Top>
void argmin_drive(Top& t, unsigned n, unsigned w, uint64_t mask, uint64_t packed, std::vector<uint64_t>& vals,
                  std::vector<bool>& valid) {
  t.valid_i = mask;
  t.val_i = packed;
  for (unsigned k = 0; k < n; ++k) {
    vals[k] = (packed >> (k * w)) & mask_of(w);
    valid[k] = (mask >> k) & 1;
  }
}

// Every valid mask and every value vector, combinational (Pipe 0).
template <typename Top>
void argmin_exhaustive(unsigned n, unsigned w, bool argmax) {
  const SimEnv env = SimEnv::from_env();
  Harness<Top> h(env, hwprof::tb::current_test_name(), env.seed);
  h.top().valid_i = 0;
  h.top().val_i = 0;
  h.reset();
  std::vector<uint64_t> vals(n);
  std::vector<bool> valid(n);
  for (uint64_t mask = 0; mask < (uint64_t{1} << n); ++mask) {
    for (uint64_t packed = 0; packed < (uint64_t{1} << (n * w)); ++packed) {
      argmin_drive(h.top(), n, w, mask, packed, vals, valid);
      h.eval();
      const auto exp = hwprof::model::argmin(vals, valid, argmax);
      ASSERT_EQ(h.top().valid_o, exp.valid) << "mask " << mask << " vals " << packed;
      if (exp.valid) {
        ASSERT_EQ(h.top().idx_o, exp.idx) << "mask " << mask << " vals " << packed;
        ASSERT_EQ(h.top().val_o, exp.val) << "mask " << mask << " vals " << packed;
      }
      if ((packed & 7) == 0) h.tick();  // assertions sample at edges
    }
  }
}

TEST(PrimArgmin, ArgminTiesGoToLowestIndex) {
  const SimEnv env = SimEnv::from_env();
  Harness<Vprim_argmin_n4_w2_m0_p0> h(env, hwprof::tb::current_test_name(), env.seed);
  auto& t = h.top();
  h.reset();
  t.valid_i = 0xf;
  t.val_i = 0x55;  // all four equal (1)
  h.eval();
  EXPECT_EQ(t.idx_o, 0u);
  t.valid_i = 0xe;  // candidate 0 invalid: 1 wins
  h.eval();
  EXPECT_EQ(t.idx_o, 1u);
  t.valid_i = 0xf;
  t.val_i = 0x2 << 0 | 0x1 << 2 | 0x3 << 4 | 0x1 << 6;  // 1 and 3 tie at the minimum
  h.eval();
  EXPECT_EQ(t.idx_o, 1u);
  EXPECT_EQ(t.val_o, 1u);
  t.valid_i = 0;
  h.eval();
  EXPECT_EQ(t.valid_o, 0u);
}

TEST(PrimArgmin, ExhaustiveMinN4W2) { argmin_exhaustive<Vprim_argmin_n4_w2_m0_p0>(4, 2, false); }
TEST(PrimArgmin, ExhaustiveMaxN4W2) { argmin_exhaustive<Vprim_argmin_n4_w2_m1_p0>(4, 2, true); }
TEST(PrimArgmin, ExhaustiveMinN5W3) { argmin_exhaustive<Vprim_argmin_n5_w3_m0_p0>(5, 3, false); }
TEST(PrimArgmin, ExhaustiveSingleCandidate) { argmin_exhaustive<Vprim_argmin_n1_w2_m0_p0>(1, 2, false); }

// Pipe 1: the same result one cycle later; valid_o low out of reset.
template <typename Top>
void argmin_pipe(unsigned n, unsigned w, bool argmax) {
  const SimEnv env = SimEnv::from_env();
  for (uint64_t s = env.seed; s < env.seed + (env.seeds ? env.seeds : 4); ++s) {
    SCOPED_TRACE(seed_trace(s));
    std::mt19937_64 rng(s);
    Harness<Top> h(env, hwprof::tb::current_test_name(), s);
    CycleCheck chk("argmin_tree", s);  // after h: binds to it
    auto& t = h.top();
    t.valid_i = 0;
    t.val_i = 0;
    h.reset();
    ASSERT_EQ(t.valid_o, 0u);
    std::vector<uint64_t> vals(n);
    std::vector<bool> valid(n);
    hwprof::model::Pick<uint64_t> prev;  // the previous cycle's result
    for (int c = 0; c < 5000; ++c) {
      const uint64_t mask = rng() & mask_of(n), packed = rng() & mask_of(n * w);
      argmin_drive(t, n, w, mask, packed, vals, valid);
      h.eval();
      ASSERT_TRUE(chk(h.cycle(), "valid_i=" + hex(mask) + " val_i=" + hex(packed),
                      {{"valid", prev.valid, t.valid_o},
                       {"idx", prev.idx, t.idx_o, prev.valid},
                       {"val", prev.val, t.val_o, prev.valid}}));
      prev = hwprof::model::argmin(vals, valid, argmax);
      h.tick();
    }
  }
}

TEST(PrimArgmin, PipeGivesTheResultOneCycleLater) {
  argmin_pipe<Vprim_argmin_n5_w3_m0_p1>(5, 3, false);
  argmin_pipe<Vprim_argmin_n5_w3_m1_p1>(5, 3, true);
}

// ------------------------------------------------------------ fifo

/// `fault_at`: a planted model fault for the wave self-check (the model's
/// count is one too high from that cycle of the first seed on). `npush` = the
/// build's NPush: with 2 the source offers up to two entries per clock on the
/// two ports in order (the younger only with the older).
template <typename Top>
void fifo_lockstep(unsigned depth, uint64_t fault_at = UINT64_MAX, unsigned npush = 1) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 16;  // every idle x stall pair
  uint64_t full = 0, clears = 0, both = 0, pairs = 0, split = 0;
  for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
    SCOPED_TRACE(seed_trace(s) + " Depth=" + std::to_string(depth) + " NPush=" + std::to_string(npush));
    std::mt19937_64 rng(s);
    Throttle idle(s * 3 + 1, env.idle_for(s));
    Throttle stall(s * 7 + 2, env.stall_for(s));
    Harness<Top> h(env, hwprof::tb::current_test_name(), s);
    CycleCheck chk("fifo_sync", s);  // after h: binds to it
    auto& t = h.top();
    t.clear_i = 0;
    t.in_valid_i = 0;
    t.out_ready_i = 0;
    t.in_data_i = 0;
    h.reset();
    hwprof::model::SyncFifo<uint64_t> m(depth);
    std::vector<uint64_t> pending;  // the source holds valid and data until accepted
    for (int c = 0; c < 4000; ++c) {
      if (rng() % 1500 == 0) {  // asynchronous reset mid-stream
        h.reset(1 + unsigned(rng() % 3));
        m.reset();
        pending.clear();
      }
      while (pending.size() < npush && !idle()) pending.push_back(rng() & 0xff);
      hwprof::model::SyncFifo<uint64_t>::In in;
      in.in_valid = !pending.empty();
      in.in_data = in.in_valid ? pending[0] : (rng() & 0xff);
      in.in_valid1 = pending.size() > 1;
      in.in_data1 = in.in_valid1 ? pending[1] : npush > 1 ? (rng() & 0xff) : 0;  // NPush 1: the stream as before
      in.out_ready = !stall();
      in.clear = rng() % 300 == 0;
      t.clear_i = in.clear;
      t.in_valid_i = static_cast<uint8_t>(in.in_valid | (in.in_valid1 << 1));
      t.in_data_i = static_cast<std::remove_reference_t<decltype(t.in_data_i)>>(in.in_data | (npush > 1 ? in.in_data1 << 8 : 0));
      t.out_ready_i = in.out_ready;
      h.eval();
      auto exp = m.step(in);
      if (s == env.seed && h.cycle() >= fault_at) ++exp.count;  // the planted fault (never by default)
      char desc[128];
      std::snprintf(desc, sizeof desc, "clear=%d in_valid=%d%d in_data=0x%llx,0x%llx out_ready=%d", in.clear,
                    in.in_valid1, in.in_valid, (unsigned long long)in.in_data, (unsigned long long)in.in_data1,
                    in.out_ready);
      ASSERT_TRUE(chk(h.cycle(), desc,
                      {{"in_ready", exp.in_ready | (npush > 1 ? exp.in_ready1 << 1 : 0), t.in_ready_o},
                       {"out_valid", exp.out_valid, t.out_valid_o},
                       {"count", exp.count, t.count_o},
                       {"out_data", exp.out_data, t.out_data_o, exp.out_valid}}));
      full += !exp.in_ready;
      clears += in.clear && exp.count;
      both += in.in_valid && exp.in_ready && exp.out_valid && in.out_ready;
      pairs += in.in_valid1 && exp.in_ready1 && !in.clear;
      split += in.in_valid1 && exp.in_ready && !exp.in_ready1 && !in.clear;
      const size_t taken = (in.in_valid && exp.in_ready) + (in.in_valid1 && exp.in_ready1);
      pending.erase(pending.begin(), pending.begin() + static_cast<long>(taken));
      h.tick();
    }
  }
  if (!env.seeds || env.seeds >= 16) {  // the default sweep covers these
    EXPECT_GT(full, 100u);
    EXPECT_GT(clears, 20u);
    if (depth > 1) {  // Depth 1 is full whenever it is non-empty: no push + pop
      EXPECT_GT(both, 1000u);
    }
    if (npush > 1 && depth > 1) {  // two entries in one clock, and the older alone with one slot free
      EXPECT_GT(pairs, 500u);
      EXPECT_GT(split, 100u);
    }
  }
}

TEST(PrimFifoSync, MatchesSyncFifoModelPtrRead) {
  fifo_lockstep<Vprim_fifo_d1_r0>(1);
  fifo_lockstep<Vprim_fifo_d2_r0>(2);
  fifo_lockstep<Vprim_fifo_d4_r0>(4);
  fifo_lockstep<Vprim_fifo_d5_r0>(5);
}

TEST(PrimFifoSync, MatchesSyncFifoModelRamRead) {
  fifo_lockstep<Vprim_fifo_d1_r1>(1);
  fifo_lockstep<Vprim_fifo_d2_r1>(2);
  fifo_lockstep<Vprim_fifo_d4_r1>(4);
  fifo_lockstep<Vprim_fifo_d5_r1>(5);
}

TEST(PrimFifoSync, MatchesSyncFifoModelTwoPushPorts) {
  fifo_lockstep<Vprim_fifo_d1_p2>(1, UINT64_MAX, 2);
  fifo_lockstep<Vprim_fifo_d2_p2>(2, UINT64_MAX, 2);
  fifo_lockstep<Vprim_fifo_d4_p2>(4, UINT64_MAX, 2);
  fifo_lockstep<Vprim_fifo_d5_p2>(5, UINT64_MAX, 2);
}

// Fails on purpose (a model fault from cycle 500): run only by the wave
// self-check (tb/wave/wave_test.cpp), which checks the failure waveform.
TEST(PrimFifoSync, DISABLED_FaultyModel) { fifo_lockstep<Vprim_fifo_d4_r1>(4, 500); }

TEST(PrimFifoSync, ClearWinsOverSameCyclePush) {
  const SimEnv env = SimEnv::from_env();
  Harness<Vprim_fifo_d4_r1> h(env, hwprof::tb::current_test_name(), env.seed);
  auto& t = h.top();
  t.clear_i = 0;
  t.in_valid_i = 1;
  t.in_data_i = 7;
  t.out_ready_i = 0;
  h.reset();
  h.tick();  // push 7
  t.clear_i = 1;
  t.in_data_i = 8;
  h.eval();
  EXPECT_EQ(t.count_o, 1u);
  h.tick();  // clear and a push of 8: the queue ends empty
  t.clear_i = 0;
  t.in_valid_i = 0;
  h.eval();
  EXPECT_EQ(t.out_valid_o, 0u);
  EXPECT_EQ(t.count_o, 0u);
}

// ------------------------------------------------------------ ram_2p

// Word array with a known-bit mask: bits never written and granules read
// while written at the same edge are unknown and not compared.
template <typename Top>
void ram_lockstep(unsigned depth, unsigned width, unsigned gran) {
  const SimEnv env = SimEnv::from_env();
  const unsigned granules = width / gran;
  uint64_t compared = 0, collisions = 0;
  for (uint64_t s = env.seed; s < env.seed + (env.seeds ? env.seeds : 8); ++s) {
    SCOPED_TRACE(seed_trace(s) + " Depth=" + std::to_string(depth) + " GranW=" + std::to_string(gran));
    std::mt19937_64 rng(s);
    Harness<NoReset<Top>> h(env, hwprof::tb::current_test_name(), s);
    CycleCheck chk("ram_2p", s);  // after h: binds to it
    auto& t = h.top();
    std::vector<uint64_t> mem(depth, 0), known(depth, 0);
    uint64_t rdata = 0, rknown = 0;
    h.eval();
    for (int c = 0; c < 5000; ++c) {
      const uint64_t wmask = (rng() % 3 == 0) ? 0 : rng() & mask_of(granules);
      const unsigned waddr = unsigned(rng() % depth), raddr = unsigned(rng() % depth);
      const uint64_t wdata = rng() & mask_of(width);
      const bool re = rng() % 4 != 0;
      t.wmask_i = wmask;
      t.waddr_i = waddr;
      t.wdata_i = wdata;
      t.re_i = re;
      t.raddr_i = raddr;
      h.eval();
      // rdata: the bits the model does not know show the RTL's value in
      // model.rdata too (only known bits can differ).
      const uint64_t got = t.rdata_o;
      char desc[112];
      std::snprintf(desc, sizeof desc, "wmask=0x%llx waddr=%u wdata=0x%llx re=%d raddr=%u (known 0x%llx)",
                    (unsigned long long)wmask, waddr, (unsigned long long)wdata, re, raddr,
                    (unsigned long long)rknown);
      ASSERT_TRUE(chk(h.cycle(), desc, {{"rdata", (rdata & rknown) | (got & ~rknown), got}}));
      compared += rknown != 0;
      uint64_t bits = 0;  // the written bits
      for (unsigned g = 0; g < granules; ++g)
        if ((wmask >> g) & 1) bits |= mask_of(gran) << (g * gran);
      if (re) {
        rdata = mem[raddr];
        rknown = known[raddr] & ~(waddr == raddr ? bits : 0);
        collisions += waddr == raddr && bits;
      }
      mem[waddr] = (mem[waddr] & ~bits) | (wdata & bits);
      known[waddr] |= bits;
      h.tick();
    }
  }
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(collisions, 50u);
}

TEST(PrimRam2p, ReadsWrittenGranulesCollidingGranuleUndefined) {
  ram_lockstep<Vprim_ram_2p_g1>(8, 12, 1);
  ram_lockstep<Vprim_ram_2p_g4>(8, 12, 4);
  ram_lockstep<Vprim_ram_2p_d1>(1, 4, 2);
}

// ------------------------------------------------------------ stat bank

template <typename Top>
void stat_lockstep(unsigned n, unsigned w, unsigned addw) {
  const SimEnv env = SimEnv::from_env();
  uint64_t saturated = 0, clears = 0;
  for (uint64_t s = env.seed; s < env.seed + (env.seeds ? env.seeds : 8); ++s) {
    SCOPED_TRACE(seed_trace(s));
    std::mt19937_64 rng(s);
    Harness<Top> h(env, hwprof::tb::current_test_name(), s);
    CycleCheck chk("stat_bank", s);  // after h: binds to it
    const hwprof::tb::FieldNames names("cnt", n);
    auto& t = h.top();
    t.clear_i = 0;
    t.inc_i = 0;
    t.add_i = 0;
    h.reset();
    std::vector<uint64_t> cnt(n, 0);
    const unsigned sparse = unsigned(s % 4);  // increments from dense to rare
    for (int c = 0; c < 4000; ++c) {
      if (rng() % 1500 == 0) {
        h.reset();
        cnt.assign(n, 0);
      }
      const uint64_t inc = rng() & rng() & (sparse ? rng() : ~uint64_t{0}) & mask_of(n);
      const uint64_t add = rng() & mask_of(n * addw);
      const bool clear = rng() % 200 == 0;
      t.inc_i = inc;
      t.add_i = add;
      t.clear_i = clear;
      h.eval();
      std::vector<hwprof::tb::Field> f;
      for (unsigned k = 0; k < n; ++k) {
        f.push_back({names[k], cnt[k], (uint64_t(t.cnt_o) >> (k * w)) & mask_of(w)});
        saturated += cnt[k] == mask_of(w);
      }
      ASSERT_TRUE(chk(h.cycle(), "clear=" + std::to_string(clear) + " inc=" + hex(inc) + " add=" + hex(add), f));
      for (unsigned k = 0; k < n; ++k) {
        if (clear) cnt[k] = 0;
        else if ((inc >> k) & 1) cnt[k] = hwprof::model::sat_add(w, cnt[k], (add >> (k * addw)) & mask_of(addw));
      }
      clears += clear;
      h.tick();
    }
  }
  EXPECT_GT(saturated, 100u);
  EXPECT_GT(clears, 20u);
}

TEST(PrimStatBank, CountersSaturateAndClearWins) {
  stat_lockstep<Vprim_stat_bank_n3_w4_a3>(3, 4, 3);
  stat_lockstep<Vprim_stat_bank_n4_w1_a1>(4, 1, 1);
}

// ------------------------------------------------------------ C++ helpers

TEST(PrimModel, HelpersFollowTheirDefinitions) {
  using namespace hwprof::model;
  static_assert(sat_add<4>(14, 1) == 15 && sat_add<4>(15, 1) == 15 && sat_add<4>(3, 100) == 15);
  static_assert(sat_add<64>(~uint64_t{0} - 1, 5) == ~uint64_t{0});
  static_assert(sat_inc<1>(0) == 1 && sat_inc<1>(1) == 1);
  static_assert(sat32(uint64_t{1} << 40) == 0xffffffffu && sat32(7) == 7);
  static_assert(lowest_set(0) == -1 && lowest_set(0x28) == 3 && highest_set(0x28) == 5);
  static_assert(onehot0(0) && onehot0(0x10) && !onehot0(0x11));
  const auto p = argmin<int>({3, 1, 1, 0}, {true, true, true, false});
  EXPECT_TRUE(p.valid);
  EXPECT_EQ(p.idx, 1u);
  const auto q = argmin<int>({3, 5, 5}, {true, true, true}, true);
  EXPECT_EQ(q.idx, 1u);
  EXPECT_FALSE((argmin<int>({1}, {false}).valid));
}

}  // namespace
