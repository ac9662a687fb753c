// Lock-step tests of the path-stack front end (rtl/path_profiler/
// path_classifier.sv, path_stack.sv, ppcr_reg.sv, path_frontend.sv) against
// the cycle models (sim_models/path_profiler/): directed cases written out by
// hand, the one-record-per-clock throughput for every class and preset,
// register behaviour (illegal PPCR, W1C, reset), seeded random stimulus with
// bubbles and backpressure, a scoreboard self-check, and every shipped real
// trace end to end with every preset.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "frontend_replay.h"
#include "gtest_util.h"
#include "path_frontend_lockstep.h"
#include "record_gen.h"
#include "trace_source.h"

using hwprof::model::BranchClass;
using hwprof::model::BranchRecord;
using hwprof::model::Emission;
using hwprof::model::PathClassifier;
using hwprof::model::PathCsr;
using hwprof::model::PathFrontend;
using hwprof::model::PathRecord;
using hwprof::model::PathStack;
using hwprof::model::PathStackAlgo;
using hwprof::model::Ppcr;
using hwprof::tb::LockstepMismatch;
using hwprof::tb::PathConfig;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;

namespace {

using hwprof::tb::RecordGen;
using hwprof::tb::rec;
using namespace hwprof::tb::kinds;

// ------------------------------------------------------------- classifier

TEST(PathClassifier, RandomLockstepWithBubblesAndBackpressure) {
  SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 40;
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    RecordGen gen(seed);
    Throttle idle(seed * 3 + 1, env.idle_for(seed));
    Throttle stall(seed * 7 + 2, env.stall_for(seed));
    auto ls = hwprof::tb::make_path_classifier_lockstep(env, hwprof::tb::current_test_name(), seed);
    PathClassifier::In in;
    in.ppcr = gen.legal_ppcr();
    uint64_t taken = 0;
    try {
      for (int c = 0; c < 2000; ++c) {
        if (!in.in_valid && !idle()) {
          in.in_valid = true;
          in.in_data = gen.next();
        }
        in.out_ready = !stall();
        if (gen.rng()() % 200 == 0) in.ppcr = gen.legal_ppcr();
        auto o = ls.step(in);
        if (in.in_valid && o.in_ready) {
          in.in_valid = false;
          ++taken;
        }
      }
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
    EXPECT_GT(taken, 0u) << "seed " << seed;
  }
}

// ------------------------------------------------------------- path stack

class PathStackConfig : public ::testing::TestWithParam<PathConfig> {
 protected:
  SimEnv env = SimEnv::from_env();
  std::string name = hwprof::tb::current_test_name();
};

// Each half (before and after the reset) starts with a directed prefix,
// classified with the BL preset whatever the half's random setting: Depth + 1
// calls (push: the last one overflows), MaxLen + 1 taken forward branches
// (update: the path splits) and Depth + 2 returns (the last ones emit an
// incomplete path), so the corners checked below are reached for every base
// seed; the random records follow.
TEST_P(PathStackConfig, RandomLockstepWithBubblesAndBackpressure) {
  const PathConfig cfg = GetParam();
  const unsigned seeds = env.seeds ? env.seeds : 60;
  uint64_t emitted = 0, overflows = 0, splits = 0, incomplete = 0;
  auto tally = [&](const PathStack::Out& o) {
    emitted += o.stats.emitted;
    overflows += o.stats.overflows;
    splits += o.stats.splits;
    incomplete += o.stats.incomplete;
  };
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    RecordGen gen(seed);
    Throttle idle(seed * 3 + 1, env.idle_for(seed));
    Throttle stall(seed * 7 + 2, env.stall_for(seed));
    auto ls = hwprof::tb::make_path_stack_lockstep(cfg, env, name, seed);
    Ppcr ppcr{gen.legal_ppcr()};
    std::vector<PathRecord> prefix;
    auto directed = [&] {
      prefix.clear();
      const Ppcr bl{Ppcr::kBl};
      for (unsigned i = 0; i <= cfg.depth; ++i)
        prefix.push_back(PathRecord::classify(rec(kCall, 0x2000 + 0x40 * i, 0x8000 + 0x40 * i, true), bl));
      for (unsigned i = 0; i <= cfg.max_len; ++i)
        prefix.push_back(PathRecord::classify(rec(kBr, 0x9000 + 0x10 * i, 0x9008 + 0x10 * i, true), bl));
      // Returns (update-count, pop) past the bottom: the last ones update an
      // empty stack, so the path they pop is incomplete.
      for (unsigned i = 0; i < cfg.depth + 2; ++i)
        prefix.push_back(PathRecord::classify(rec(kRet, 0xa000 + 0x10 * i, 0x2004 + 0x40 * i, true), bl));
      std::reverse(prefix.begin(), prefix.end());
    };
    directed();
    PathStack::In in;
    PathStack::Out o;
    try {
      for (int c = 0; c < 3000; ++c) {
        if (c == 1500) {  // reset in mid-stream, then a new setting and prefix
          tally(o);
          ls.reset();
          ppcr = Ppcr{gen.legal_ppcr()};
          directed();
          in.in_valid = false;
        }
        if (!in.in_valid && !idle()) {
          in.in_valid = true;
          if (!prefix.empty()) {
            in.in_data = prefix.back();
            prefix.pop_back();
          } else {
            in.in_data = PathRecord::classify(gen.next(), ppcr);
          }
        }
        in.out_ready = !stall();
        o = ls.step(in);
        if (in.in_valid && o.in_ready) in.in_valid = false;
      }
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
    tally(o);
  }
  // The stimulus must reach the corners it is meant to reach.
  EXPECT_GT(emitted, 0u);
  EXPECT_GT(overflows, 0u);
  EXPECT_GT(splits, 0u);
  EXPECT_GT(incomplete, 0u);
}

// One record per clock for every class under every preset: with the input
// always valid and the output always ready, the stack takes a record every
// cycle, including backward branches that update, pop, emit and push.
TEST_P(PathStackConfig, SustainsOneRecordPerClockForEveryClassAndPreset) {
  const PathConfig cfg = GetParam();
  const uint32_t presets[] = {Ppcr::kBl, Ppcr::kWpp, Ppcr::ext(1), Ppcr::ext(3)};
  const BranchRecord per_class[] = {
      rec(kBr, 0x100, 0x200, true),   // forward
      rec(kBr, 0x200, 0x100, true),   // backward
      rec(kCall, 0x300, 0x800, true), // call
      rec(kRet, 0x900, 0x305, true),  // return
      rec(kIjmp, 0x400, 0x500, true), // indirect
  };
  for (uint32_t p : presets) {
    for (int mix = 0; mix <= 5; ++mix) {  // each class alone, then all interleaved
      auto ls = hwprof::tb::make_path_stack_lockstep(cfg, env, name, env.seed);
      PathStack::In in;
      in.in_valid = true;
      in.out_ready = true;
      PathStack::Out o;
      const int n = 200;
      for (int i = 0; i < n; ++i) {
        in.in_data = PathRecord::classify(per_class[mix < 5 ? mix : i % 5], Ppcr{p});
        o = ls.step(in);
        ASSERT_TRUE(o.in_ready) << "bubble at record " << i << " class mix " << mix << " ppcr " << std::hex << p;
      }
      in.in_valid = false;
      o = ls.step(in);
      EXPECT_EQ(o.stats.records, uint32_t(n));
      EXPECT_EQ(o.stats.stall_cycles, 0u);
    }
  }
}

// ------------------------------------------------- path stack storage
//
// The stack keeps its top in flip-flops and entries 1.. in a circular RAM
// with a read-ahead register and a bypass register (docs/path_stack.md,
// "Storage"). These tests drive records with chosen operations straight into
// the path stack and check, besides the lock-step, that the stimulus reached
// every storage state (the cycle model's coverage counters).

namespace ops {
constexpr unsigned U = 1, C = 2, P = 4, S = 8;  // update, update-count, pop, push
}

PathRecord op_rec(unsigned bits, uint32_t pc, uint32_t next, bool taken = false, uint16_t insns = 1,
                  uint8_t events = 0) {
  PathRecord r;
  r.cls = BranchClass::Forward;
  r.ops = hwprof::model::PathOps::from_bits(bits);
  r.pc = pc;
  r.next = next;
  r.taken = taken;
  r.insns = insns;
  r.events = events;
  return r;
}

// Drives a path stack lock-step: feed() offers a record until it is taken,
// idle() gives cycles without a record; every descriptor the consumer takes
// is collected.
struct StackDriver {
  hwprof::tb::PathStackLockstep ls;
  std::vector<Emission> taken;
  bool out_ready = true;
  PathStack::Out last{};

  void cycle(const PathStack::In& in) {
    last = ls.step(in);
    if (last.out_valid && in.out_ready) taken.push_back(last.out);
  }
  void feed(const PathRecord& r, unsigned hold_output = 0) {
    PathStack::In in;
    in.in_valid = true;
    in.in_data = r;
    // Optionally hold the output for a few cycles first (the record waits).
    for (unsigned i = 0; i < hold_output; ++i) {
      in.out_ready = false;
      cycle(in);
      if (last.in_ready) return;  // the output was empty: taken
    }
    in.out_ready = out_ready;
    for (int guard = 0; guard < 100; ++guard) {
      cycle(in);
      if (last.in_ready) return;
    }
    FAIL() << "record never taken";
  }
  void idle(unsigned n = 1) {
    PathStack::In in;
    in.out_ready = true;
    for (unsigned i = 0; i < n; ++i) cycle(in);
  }
  const PathStack::Coverage& cov() { return ls.model().coverage(); }
};

TEST_P(PathStackConfig, StorageSpillFillOverflowPopPushAndReset) {
  const PathConfig cfg = GetParam();
  const unsigned depth = cfg.depth;
  StackDriver d{hwprof::tb::make_path_stack_lockstep(cfg, env, name, env.seed), {}, true, {}};
  using namespace ops;
  try {
    // A. Push run with an update on every entry (each entry distinct), past
    // the full stack: every push spills, the last ones on a full stack.
    // (update-count when MaxLen 1, where an update would split.)
    const unsigned pushes = depth + 5;
    const unsigned upd = cfg.max_len > 1 ? U : C;
    for (unsigned i = 0; i < pushes; ++i) d.feed(op_rec(upd | S, 0x100 + i, 0x1000 + i, i & 1, uint16_t(i + 1)));
    EXPECT_EQ(d.last.count, depth);
    d.idle(1);
    // B. Pop run deeper than the stack, back to back: the first pop follows
    // a spill (bypass), the rest fill from the RAM every clock; the pops
    // past the bottom find the stack empty.
    d.taken.clear();
    for (unsigned i = 0; i < depth + 2; ++i) d.feed(op_rec(P, 0x200, 0x300));
    d.idle(2);
    // By hand: LIFO order, the top is the fresh entry of the last push, then
    // the entries pushed down in reverse, each with its own update; depths
    // count down to 1; the discarded bottom entries never come back.
    ASSERT_EQ(d.taken.size(), depth);
    for (unsigned k = 0; k < depth; ++k) {
      const Emission& e = d.taken[k];
      EXPECT_EQ(e.depth, depth - k) << k;
      EXPECT_TRUE(e.frame_end) << k;
      if (k == 0) {
        EXPECT_EQ(e.path.start, 0x1000 + pushes - 1);
        EXPECT_EQ(e.path.length, 0u);
      } else {
        const unsigned i = pushes - k;  // the push that moved this entry down
        EXPECT_EQ(e.path.start, i == 0 ? 0x100u : 0x1000 + i - 1) << k;
        EXPECT_EQ(e.path.insns, i + 1) << k;
        EXPECT_EQ(e.path.length, upd == U ? 1u : 0u) << k;
      }
    }
    EXPECT_EQ(d.last.stats.empty_pops, 2u);
    EXPECT_EQ(d.last.stats.overflows, pushes - depth + 1);  // the pushes that found Depth entries

    // C. Pop right after a spill, many times (bypass), and after an idle
    // cycle or a held output (the RAM read register).
    for (unsigned i = 0; i < 3; ++i) d.feed(op_rec(S, 0x400, 0x2000 + i));
    for (unsigned i = 0; i < 20; ++i) {
      d.feed(op_rec(U | S, 0x500 + i, 0x3000 + i, true, 3));
      if (i % 3 == 1) d.idle(1 + i % 2);
      d.feed(op_rec(C | P, 0x600 + i, 0x700, false, 2, 1), i % 4 == 3 ? 2 : 0);
      d.feed(op_rec(P, 0x600 + i, 0x700), i % 5 == 2 ? 3 : 0);
      d.feed(op_rec(S, 0x680 + i, 0x3800 + i));
    }
    // D. Pop + push on a stack with entries in the RAM, then pop runs: the
    // RAM is untouched by pop + push.
    for (unsigned i = 0; i < depth; ++i) d.feed(op_rec(U | S, 0x800 + i, 0x4000 + i, true));
    for (unsigned i = 0; i < 10; ++i) d.feed(op_rec(U | P | S, 0x900 + i, 0x5000 + i, i & 1));
    for (unsigned i = 0; i < depth / 2; ++i) d.feed(op_rec(C | P, 0xa00, 0xa10));
    for (unsigned i = 0; i < 3; ++i) d.feed(op_rec(U | P | S, 0xb00 + i, 0x6000 + i));
    for (unsigned i = 0; i < depth; ++i) d.feed(op_rec(P, 0xc00, 0xc10));
    // E. Overflow many times around the circular buffer, then drain.
    for (unsigned i = 0; i < 3 * depth + 1; ++i) d.feed(op_rec(C | S, 0xd00 + i, 0x7000 + i, false, 1, 1));
    for (unsigned i = 0; i < depth + 1; ++i) d.feed(op_rec(C | P, 0xe00, 0xe10));
    // F. Reset with entries in the RAM (and a spill just made), then the
    // stack must behave as new: an empty pop, a creation, pushes and pops.
    for (unsigned i = 0; i < depth + 1; ++i) d.feed(op_rec(U | S, 0xf00 + i, 0x8000 + i));
    d.ls.reset();
    d.feed(op_rec(P, 0x1100, 0x1110));
    EXPECT_EQ(d.last.stats.empty_pops, 0u);
    d.idle(1);
    EXPECT_EQ(d.last.stats.empty_pops, 1u);
    d.feed(op_rec(U, 0x1200, 0x1210, true));
    for (unsigned i = 0; i < 3; ++i) d.feed(op_rec(U | S, 0x1300 + i, 0x9000 + i));
    for (unsigned i = 0; i < 5; ++i) d.feed(op_rec(C | P, 0x1400, 0x1410));
    d.idle(2);
  } catch (const LockstepMismatch& e) {
    FAIL() << e.what();
  }
  const auto& c = d.cov();
  if (d.ls.model().slots() > 0) {
    EXPECT_GT(c.spills, 0u);
    EXPECT_GT(c.full_spills, 0u);
    EXPECT_GT(c.fills_ram, 0u);
    EXPECT_GT(c.fills_bypass, 0u);
    EXPECT_GT(c.wraps, 0u);
    EXPECT_GE(c.max_fill_run, depth - 1);
    EXPECT_EQ(c.max_ram_entries, depth - 1);
    EXPECT_GT(c.resets_with_ram, 0u);
  }
  EXPECT_GT(c.pop_push, 0u);
}

// Random operations in runs (push runs, pop runs, pop + push, updates,
// mixed), all 16 operation sets, with bubbles, output backpressure and
// resets in mid-stream.
TEST_P(PathStackConfig, StorageRandomOperationRunsLockstep) {
  const PathConfig cfg = GetParam();
  const unsigned seeds = env.seeds ? env.seeds : 30;
  PathStack::Coverage total{};
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    std::mt19937_64 rng(seed);
    Throttle idle(seed * 3 + 1, env.idle_for(seed));
    Throttle stall(seed * 7 + 2, env.stall_for(seed));
    auto ls = hwprof::tb::make_path_stack_lockstep(cfg, env, name, seed);
    PathStack::In in;
    unsigned run = 0, mode = 0;
    // A directed prefix first, so every storage corner is reached for any
    // base seed: a push run to twice the depth (spills into a full RAM, the
    // write pointer wraps), a pop run through every stored entry (fills
    // from RAM, the longest run Depth - 1), push / pop pairs (a pop right
    // after a spill: the bypass), a push run, then a reset with entries in
    // RAM; the random runs follow.
    std::vector<unsigned> prefix;
    for (unsigned i = 0; i < 2 * cfg.depth + 2; ++i) prefix.push_back(ops::S);
    for (unsigned i = 0; i < 2 * cfg.depth + 2; ++i) prefix.push_back(ops::P);
    for (unsigned i = 0; i < 2 * cfg.depth + 2; ++i) prefix.push_back(ops::S);
    for (unsigned i = 0; i < 3; ++i) {
      prefix.push_back(ops::S);
      prefix.push_back(ops::P);
    }
    std::reverse(prefix.begin(), prefix.end());
    bool reset_pending = true;
    try {
      for (int c = 0; c < 3000; ++c) {
        if (prefix.empty() && reset_pending && !in.in_valid) {
          ls.reset();
          reset_pending = false;
        }
        if (!in.in_valid && !idle() && !prefix.empty()) {
          in.in_valid = true;
          in.in_data = op_rec(prefix.back(), 0x1000 + uint32_t(rng() % 64) * 4, 0x2000 + uint32_t(rng() % 64) * 4,
                              rng() & 1, 1, 0);
          prefix.pop_back();
        } else if (!in.in_valid && !idle() && !reset_pending) {
          if (run == 0) {
            mode = unsigned(rng() % 5);
            run = 1 + unsigned(rng() % (2 * cfg.depth + 2));
          }
          --run;
          static const unsigned kByMode[5][4] = {
              {ops::S, ops::U | ops::S, ops::C | ops::S, ops::S},       // push runs
              {ops::P, ops::C | ops::P, ops::U | ops::P, ops::P},       // pop runs
              {ops::U | ops::P | ops::S, ops::P | ops::S, ops::C | ops::P | ops::S, ops::U | ops::P | ops::S},
              {ops::U, ops::C, 0, ops::U},                              // updates
              {0, 0, 0, 0}};                                            // mixed: any set
          unsigned bits = kByMode[mode][rng() % 4];
          if (mode == 4) bits = unsigned(rng() % 16);
          if ((bits & 3) == 3) bits &= ~unsigned(1 + (rng() & 1));
          PathRecord r = op_rec(bits, 0x1000 + uint32_t(rng() % 64) * 4, 0x2000 + uint32_t(rng() % 64) * 4,
                                rng() & 1, uint16_t((rng() % 16) ? 1 + rng() % 20 : rng()),
                                uint8_t((rng() % 16) ? rng() % 4 : rng()));
          if (rng() % 8 == 0) {  // loop extension fields
            r.ext_try = true;
            r.max_ext = uint8_t(rng() % 4);
          }
          in.in_valid = true;
          in.in_data = r;
        }
        in.out_ready = !stall();
        if (rng() % 1000 == 0 && !reset_pending) ls.reset();  // not inside the directed prefix
        auto o = ls.step(in);
        if (in.in_valid && o.in_ready) in.in_valid = false;
      }
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
    const auto& c = ls.model().coverage();
    total.spills += c.spills;
    total.full_spills += c.full_spills;
    total.fills_ram += c.fills_ram;
    total.fills_bypass += c.fills_bypass;
    total.pop_push += c.pop_push;
    total.wraps += c.wraps;
    total.resets_with_ram += c.resets_with_ram;
    total.max_fill_run = std::max(total.max_fill_run, c.max_fill_run);
  }
  if (hwprof::model::PathStack(cfg.depth, cfg.max_len).slots() > 0) {
    EXPECT_GT(total.spills, 0u);
    EXPECT_GT(total.full_spills, 0u);
    EXPECT_GT(total.fills_ram, 0u);
    EXPECT_GT(total.fills_bypass, 0u);
    EXPECT_GT(total.wraps, 0u);
    EXPECT_GT(total.resets_with_ram, 0u);
    EXPECT_GE(total.max_fill_run, cfg.depth - 1);
  }
  EXPECT_GT(total.pop_push, 0u);
}

INSTANTIATE_TEST_SUITE_P(Configs, PathStackConfig, ::testing::ValuesIn(hwprof::tb::path_stack_configs()),
                         [](const auto& i) { return "d" + std::to_string(i.param.depth) + "_l" +
                                                    std::to_string(i.param.max_len); });

// ------------------------------------------------------------- front end

PathConfig default_cfg() { return hwprof::tb::path_frontend_configs().front(); }

// Runs records through the front end in lock-step (no bubbles, no
// backpressure unless given) and returns the descriptors.
std::vector<Emission> run_frontend(hwprof::tb::PathFrontendLockstep& ls, const std::vector<BranchRecord>& recs,
                                   uint32_t ppcr, int idle_pct = 0, int stall_pct = 0, uint64_t seed = 1) {
  std::vector<Emission> out;
  size_t i = 0;
  hwprof::model::RecordSource src = [&](BranchRecord& r) {
    if (i == recs.size()) return false;
    r = recs[i++];
    return true;
  };
  Throttle idle(seed * 3 + 1, idle_pct), stall(seed * 7 + 2, stall_pct);
  hwprof::model::FrontendReplayConfig cfg;
  cfg.ppcr = ppcr;
  cfg.idle = [&] { return idle(); };
  cfg.stall = [&] { return stall(); };
  cfg.on_emit = [&](const Emission& e) { out.push_back(e); };
  cfg.csr_addr = [](uint64_t c) { return unsigned(c % hwprof::model::kPathCsrCount); };
  hwprof::model::replay_frontend(ls, src, cfg);
  return out;
}

Emission desc(uint32_t start, uint8_t length, uint32_t dirs, uint32_t insns, uint16_t events, unsigned depth,
              bool frame_end = false, bool incomplete = false, bool split = false, uint8_t ext = 0) {
  Emission e;
  e.path.start = start;
  e.path.length = length;
  e.path.dirs = dirs;
  e.path.insns = insns;
  e.path.events = events;
  e.path.ext = ext;
  e.path.incomplete = incomplete;
  e.split = split;
  e.frame_end = frame_end;
  e.depth = depth;
  return e;
}

// The worked example of docs/path_stack.md under BL (Table 1): a call into a
// routine at 0x100 with a forward branch, a loop of two iterations and a
// return. Expected descriptors written out by hand.
TEST(PathFrontend, WorkedExampleMatchesHandWrittenDescriptors) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_path_frontend_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  const std::vector<BranchRecord> recs = {
      rec(kCall, 0x50, 0x100, true, 3, 1),   // caller's entry is missing: created incomplete at 0x50
      rec(kBr, 0x104, 0x120, false, 2, 0),   // forward, not taken
      rec(kBr, 0x124, 0x110, true, 4, 2),    // back edge: path 0x100 {0, 1} ends
      rec(kBr, 0x124, 0x110, true, 5, 0),    // second iteration: path 0x110 {1}
      rec(kBr, 0x124, 0x110, false, 5, 1),   // loop exit (not taken: forward)
      rec(kRet, 0x130, 0x55, true, 2, 0),    // return: path 0x110 {0} ends, frame_end
  };
  auto got = run_frontend(ls, recs, Ppcr::kBl);
  const std::vector<Emission> want = {
      desc(0x100, 2, 0b10, 2 + 4, 0 + 2, 2),
      desc(0x110, 1, 0b1, 5, 0, 2),
      desc(0x110, 1, 0b0, 5 + 2, 1 + 0, 2, true),
  };
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << i << ": " << got[i].str();
}

PathConfig small_cfg() { return hwprof::tb::path_frontend_configs().at(1); }  // queue 2, depth 4, MaxLen 8

uint32_t read_csr(hwprof::tb::PathFrontendLockstep& ls, PathCsr a) {
  PathFrontend::In in;
  in.csr_addr = unsigned(a);
  return ls.step(in).csr_rdata;
}

// MaxLen 8: ten taken forward branches from an empty stack split after the
// eighth (the piece carries the incomplete flag of the entry it came from;
// the new entry starts at the eighth branch's target), and a back edge then
// ends the second piece. Written out by hand.
TEST(PathFrontend, SplitsAtMaxLenWithoutLosingABranch) {
  SimEnv env = SimEnv::from_env();
  ASSERT_EQ(small_cfg().max_len, 8u);
  auto ls = hwprof::tb::make_path_frontend_lockstep(small_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  std::vector<BranchRecord> recs;
  for (uint32_t i = 0; i < 10; ++i) recs.push_back(rec(kBr, 0x100 + 0x10 * i, 0x108 + 0x10 * i, true));
  recs.push_back(rec(kBr, 0x200, 0x178, true));  // backward
  auto got = run_frontend(ls, recs, Ppcr::kBl);
  const std::vector<Emission> want = {
      desc(0x100, 8, 0xff, 8, 0, 1, false, true, true),  // split, incomplete (began at a missing top)
      desc(0x178, 3, 0x7, 3, 0, 1),                      // the rest: two forward + the back edge
  };
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << i << ": " << got[i].str();
  EXPECT_EQ(read_csr(ls, PathCsr::Splits), 1u);
  EXPECT_EQ(read_csr(ls, PathCsr::Records), 11u);
}

// Depth 4: five nested calls overflow twice (the bottom entries, the
// incomplete caller and the first callee, are discarded); five returns then
// close the four surviving frames and the fifth finds the stack empty: an
// incomplete path starting at that return's pc. Written out by hand.
TEST(PathFrontend, OverflowDiscardsBottomFramesAndLateReturnsAreIncomplete) {
  SimEnv env = SimEnv::from_env();
  ASSERT_EQ(small_cfg().depth, 4u);
  auto ls = hwprof::tb::make_path_frontend_lockstep(small_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  std::vector<BranchRecord> recs;
  for (uint32_t i = 0; i < 5; ++i) recs.push_back(rec(kCall, 0x10 + 0x1000 * i, 0x1000 * (i + 1), true));
  for (uint32_t i = 0; i < 5; ++i) recs.push_back(rec(kRet, 0x5020 - 0x1000 * i, 0x4015 - 0x1000 * i, true));
  auto got = run_frontend(ls, recs, Ppcr::kBl);
  const std::vector<Emission> want = {
      desc(0x5000, 0, 0, 1, 0, 4, true),         // ret 1: callee 5 (its insns: the return)
      desc(0x4000, 0, 0, 2, 0, 3, true),         // call 5 + ret 2
      desc(0x3000, 0, 0, 2, 0, 2, true),
      desc(0x2000, 0, 0, 2, 0, 1, true),
      desc(0x1020, 0, 0, 1, 0, 1, true, true),   // ret 5: missing top of stack
  };
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << i << ": " << got[i].str();
  EXPECT_EQ(read_csr(ls, PathCsr::Overflows), 2u);
  EXPECT_EQ(read_csr(ls, PathCsr::Incomplete), 1u);
  EXPECT_EQ(read_csr(ls, PathCsr::Emitted), 5u);
  EXPECT_EQ(read_csr(ls, PathCsr::Status) >> 8 & 0xff, 0u) << "stack should be empty";
}

// update and update-count together is illegal for every class: the write is
// ignored, STATUS.ppcr_err is set (sticky, W1C), and the datapath keeps the
// old setting: the descriptor stream equals a run with no write at all.
TEST(PathFrontend, RejectsIllegalPpcrWriteAndDatapathNeverSeesIt) {
  SimEnv env = SimEnv::from_env();
  for (unsigned cls = 0; cls < 5; ++cls) {
    auto ls = hwprof::tb::make_path_frontend_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
    const uint32_t bad = Ppcr::kWpp | 3u << (4 * cls);
    PathFrontend::In in;
    in.csr_we = true;
    in.csr_addr = unsigned(PathCsr::Ppcr);
    in.csr_wdata = bad;
    ls.step(in);
    in = {};
    in.csr_addr = unsigned(PathCsr::Ppcr);
    EXPECT_EQ(ls.step(in).csr_rdata, Ppcr::kBl) << "illegal value " << std::hex << bad << " was taken";
    in.csr_addr = unsigned(PathCsr::Status);
    EXPECT_EQ(ls.step(in).csr_rdata & 1, 1u) << "ppcr_err not set";
    // The datapath still runs BL: same descriptors as the functional model with BL.
    RecordGen gen(env.seed + cls);
    std::vector<BranchRecord> recs;
    for (int i = 0; i < 3000; ++i) recs.push_back(gen.next());
    std::vector<Emission> got;
    {
      size_t i = 0;
      hwprof::model::FrontendReplayConfig cfg;
      cfg.ppcr = bad;  // the replay's own PPCR write is illegal too
      cfg.on_emit = [&](const Emission& e) { got.push_back(e); };
      hwprof::model::replay_frontend(ls, [&](BranchRecord& r) {
        if (i == recs.size()) return false;
        r = recs[i++];
        return true;
      }, cfg);
    }
    PathStackAlgo algo(default_cfg().depth, default_cfg().max_len);
    std::vector<Emission> want;
    for (const auto& r : recs)
      if (auto e = algo.process(PathRecord::classify(r, Ppcr{Ppcr::kBl}))) want.push_back(*e);
    EXPECT_EQ(got, want) << "class " << cls;
    // W1C: writing 0 leaves the bit, writing 1 clears it.
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(PathCsr::Status);
    in.csr_wdata = 0;
    ls.step(in);
    in.csr_we = false;
    EXPECT_EQ(ls.step(in).csr_rdata & 1, 1u);
    in.csr_we = true;
    in.csr_wdata = 1;
    ls.step(in);
    in.csr_we = false;
    EXPECT_EQ(ls.step(in).csr_rdata & 1, 0u) << "W1C did not clear ppcr_err";
  }
}

TEST(PathFrontend, ThroughputIsOneRecordPerClockForEveryPreset) {
  SimEnv env = SimEnv::from_env();
  const uint32_t presets[] = {Ppcr::kBl, Ppcr::kWpp, Ppcr::ext(1), Ppcr::ext(3)};
  for (uint32_t p : presets) {
    auto ls = hwprof::tb::make_path_frontend_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
    RecordGen gen(env.seed);
    std::vector<BranchRecord> recs;
    for (int i = 0; i < 5000; ++i) recs.push_back(gen.next());
    size_t i = 0;
    hwprof::model::FrontendReplayConfig cfg;
    cfg.ppcr = p;
    auto st = hwprof::model::replay_frontend(ls, [&](BranchRecord& r) {
      if (i == recs.size()) return false;
      r = recs[i++];
      return true;
    }, cfg);
    // 1 PPCR write + 5000 records + pipeline latency (queue, classifier,
    // stack) and the final drain: no bubble anywhere.
    EXPECT_LE(st.cycles, 5000u + 1 + 6) << "ppcr " << std::hex << p;
    PathFrontend::In in;
    in.csr_addr = unsigned(PathCsr::StallCycles);
    EXPECT_EQ(ls.step(in).csr_rdata, 0u);
  }
}

TEST(PathFrontend, ResetMidPathClearsStateAndRestoresBl) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_path_frontend_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  RecordGen gen(env.seed);
  PathFrontend::In in;
  in.csr_we = true;
  in.csr_addr = unsigned(PathCsr::Ppcr);
  in.csr_wdata = Ppcr::kWpp;
  ls.step(in);
  in = {};
  in.desc_ready = true;
  for (int c = 0; c < 57; ++c) {  // records in the queue, the classifier and on the stack
    in.rec_valid = true;
    in.rec_data = gen.next();
    in.csr_addr = unsigned(c % hwprof::model::kPathCsrCount);
    ls.step(in);
  }
  ls.reset();
  in = {};
  for (unsigned a = 0; a < hwprof::model::kPathCsrCount; ++a) {
    in.csr_addr = a;
    const uint32_t v = ls.step(in).csr_rdata;
    if (a == unsigned(PathCsr::Ppcr)) {
      EXPECT_EQ(v, Ppcr::kBl);
    } else if (a != unsigned(PathCsr::Params)) {
      EXPECT_EQ(v, 0u) << "register " << a << " not cleared by reset";
    }
  }
  in.desc_ready = true;
  EXPECT_FALSE(ls.step(in).desc_valid);
  std::vector<BranchRecord> recs;
  for (int i = 0; i < 2000; ++i) recs.push_back(gen.next());
  EXPECT_FALSE(run_frontend(ls, recs, Ppcr::kBl, 10, 10).empty());
}

class PathFrontendConfig : public ::testing::TestWithParam<PathConfig> {};

// Random records, bubbles, backpressure, every register read in rotation,
// and legal and illegal PPCR writes in mid-stream.
TEST_P(PathFrontendConfig, RandomLockstepWithBubblesBackpressureAndRegisterTraffic) {
  SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 30;
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    RecordGen gen(seed);
    Throttle idle(seed * 3 + 1, env.idle_for(seed));
    Throttle stall(seed * 7 + 2, env.stall_for(seed));
    auto ls = hwprof::tb::make_path_frontend_lockstep(GetParam(), env, hwprof::tb::current_test_name(), seed);
    PathFrontend::In in;
    try {
      for (int c = 0; c < 4000; ++c) {
        if (!in.rec_valid && !idle()) {
          in.rec_valid = true;
          in.rec_data = gen.next();
        }
        in.desc_ready = !stall();
        in.csr_we = gen.rng()() % 300 == 0;
        in.csr_addr = in.csr_we ? unsigned(gen.rng()() % 2) : unsigned(gen.rng()() % 12);
        in.csr_wdata = (gen.rng()() & 1) ? gen.legal_ppcr() : static_cast<uint32_t>(gen.rng()());
        auto o = ls.step(in);
        if (in.rec_valid && o.rec_ready) in.rec_valid = false;
      }
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, PathFrontendConfig, ::testing::ValuesIn(hwprof::tb::path_frontend_configs()),
                         [](const auto& i) { return i.param.name(); });

// The scoreboard must catch a model that differs from the RTL: a model whose
// stack is one entry shallower disagrees at the first overflow.
TEST(PathFrontendHarness, ScoreboardReportsFirstMismatchOfFaultyModel) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_path_frontend_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  ls.model() = PathFrontend(4, 15, 32);
  std::vector<BranchRecord> recs;
  for (uint32_t i = 0; i < 20; ++i) recs.push_back(rec(kCall, 0x100 * i, 0x100 * (i + 1), true));
  for (uint32_t i = 0; i < 20; ++i) recs.push_back(rec(kRet, 0x5000 + i, 0x105, true));
  try {
    run_frontend(ls, recs, Ppcr::kBl);
    FAIL() << "the faulty model was not caught";
  } catch (const LockstepMismatch& e) {
    std::string r = e.what();
    EXPECT_NE(r.find("lock-step mismatch in path_frontend at cycle"), std::string::npos) << r;
    EXPECT_NE(r.find("seed " + std::to_string(env.seed)), std::string::npos) << r;
  }
}

// ------------------------------------------------------------- real traces

struct TraceCase {
  std::string path;
  std::string mode;
  uint32_t ppcr;
};

std::vector<TraceCase> trace_cases() {
  std::vector<TraceCase> v;
  for (const auto& p : hwprof::tb::shipped_traces()) {
    v.push_back({p, "bl", Ppcr::kBl});
    v.push_back({p, "wpp", Ppcr::kWpp});
    v.push_back({p, "ext1", Ppcr::ext(1)});
  }
  return v;
}

void PrintTo(const TraceCase& c, std::ostream* os) { *os << c.path << " " << c.mode; }

class PathFrontendRealTrace : public ::testing::TestWithParam<TraceCase> {};

// The whole trace through RTL and model in lock-step (light backpressure,
// every register read in rotation), and the descriptor stream equal to the
// functional model run straight over the trace.
TEST_P(PathFrontendRealTrace, LockstepEveryCycleAndEqualsFunctionalModel) {
  SimEnv env = SimEnv::from_env();
  const TraceCase tc = GetParam();
  auto ls = hwprof::tb::make_path_frontend_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  PathStackAlgo algo(default_cfg().depth, default_cfg().max_len);
  auto direct = hwprof::trace::branch_source(tc.path);
  uint64_t mismatches = 0, n = 0;
  Throttle stall(env.seed, env.stall_pct >= 0 ? env.stall_pct : 5);
  hwprof::model::FrontendReplayConfig cfg;
  cfg.ppcr = tc.ppcr;
  cfg.stall = [&] { return stall(); };
  cfg.csr_addr = [](uint64_t c) { return unsigned(c % hwprof::model::kPathCsrCount); };
  cfg.on_emit = [&](const Emission& got) {
    // Advance the functional model to its next emission.
    BranchRecord r;
    std::optional<Emission> want;
    while (!want && direct(r)) want = algo.process(PathRecord::classify(r, Ppcr{tc.ppcr}));
    if (!want || !(*want == got)) ++mismatches;
    ++n;
  };
  hwprof::model::FrontendReplayStats st;
  try {
    st = hwprof::model::replay_frontend(ls, hwprof::trace::branch_source(tc.path), cfg);
  } catch (const LockstepMismatch& e) {
    FAIL() << tc.path << " " << tc.mode << ": " << e.what();
  }
  BranchRecord r;
  while (direct(r))
    if (algo.process(PathRecord::classify(r, Ppcr{tc.ppcr}))) ++mismatches;  // a descriptor the RTL never gave
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(n, algo.stats().emitted);
  EXPECT_EQ(st.records, algo.stats().records);
  EXPECT_GT(n, 1000u);
  // The real call/return patterns reach the RAM-backed storage: spills, fills
  // from the RAM and from the bypass register, pop runs (not under WPP,
  // where calls and returns pop and push: the stack never grows past 1).
  const auto& cv = ls.model().stack().coverage();
  if (tc.mode != "wpp") {
    EXPECT_GT(cv.spills, 0u);
    EXPECT_GT(cv.fills_ram, 0u);
    EXPECT_GT(cv.fills_bypass, 0u);
  }
  std::printf("[trace] %s %s storage: %llu spills (%llu on a full stack), fills %llu from RAM + %llu bypass, "
              "%llu pop+push, longest fill run %u, fills after a fill %llu, spills after a spill %llu, "
              "most RAM entries %u\n",
              tc.path.c_str(), tc.mode.c_str(), static_cast<unsigned long long>(cv.spills),
              static_cast<unsigned long long>(cv.full_spills), static_cast<unsigned long long>(cv.fills_ram),
              static_cast<unsigned long long>(cv.fills_bypass), static_cast<unsigned long long>(cv.pop_push),
              cv.max_fill_run, static_cast<unsigned long long>(cv.fill_after_fill),
              static_cast<unsigned long long>(cv.spill_after_spill), cv.max_ram_entries);
  std::printf("[trace] %s %s: %llu records, %llu descriptors (%llu incomplete, %llu splits, %llu overflows), "
              "%llu cycles\n",
              tc.path.c_str(), tc.mode.c_str(), static_cast<unsigned long long>(st.records),
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(algo.stats().incomplete),
              static_cast<unsigned long long>(algo.stats().splits),
              static_cast<unsigned long long>(algo.stats().overflows), static_cast<unsigned long long>(st.cycles));
}

// Without backpressure the RAM-backed stack never holds a record off: one
// record per clock over the whole trace (the fill and drain of the pipeline
// and the PPCR write aside), STALL_CYCLES stays 0.
TEST_P(PathFrontendRealTrace, OneRecordPerClockWithoutBackpressure) {
  SimEnv env = SimEnv::from_env();
  const TraceCase tc = GetParam();
  auto ls = hwprof::tb::make_path_frontend_lockstep(default_cfg(), env, hwprof::tb::current_test_name(), env.seed);
  hwprof::model::FrontendReplayConfig cfg;
  cfg.ppcr = tc.ppcr;
  hwprof::model::FrontendReplayStats st;
  try {
    st = hwprof::model::replay_frontend(ls, hwprof::trace::branch_source(tc.path), cfg);
  } catch (const LockstepMismatch& e) {
    FAIL() << tc.path << " " << tc.mode << ": " << e.what();
  }
  const auto& stack = ls.model().stack();
  EXPECT_EQ(stack.stats().stall_cycles, 0u);
  EXPECT_EQ(stack.stats().records, st.records);
  EXPECT_LE(st.cycles, st.records + 10);
  const double rpc = double(st.records) / double(st.cycles);
  EXPECT_GE(rpc, 0.999);
  std::printf("[trace] %s %s: %llu records in %llu cycles, %.6f records/clock, stall cycles %u\n", tc.path.c_str(),
              tc.mode.c_str(), static_cast<unsigned long long>(st.records),
              static_cast<unsigned long long>(st.cycles), rpc, stack.stats().stall_cycles);
}

INSTANTIATE_TEST_SUITE_P(Shipped, PathFrontendRealTrace, ::testing::ValuesIn(trace_cases()),
                         [](const auto& i) { return hwprof::tb::trace_test_name(i.param.path) + "_" + i.param.mode; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PathFrontendRealTrace);

}  // namespace
