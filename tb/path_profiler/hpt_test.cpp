// Lock-step tests of the Hot Path Table (rtl/path_profiler/hwprof_hpt.sv) against
// its cycle model (sim_models/path_profiler/hpt.h): every cycle every output
// of the RTL is compared with the model through the scoreboard (the register
// read address rotates, so every counter is compared every few cycles), and
// in addition every dump is compared with an HptAlgo fed independently with
// the same descriptors. Directed cases written out by hand first (index fold,
// fill order, the three policies, saturation, forwarding, registers,
// commands, the dump walk, reset), then seeded random stimulus with bubbles,
// backpressure, CTRL changes and commands, then every shipped real trace's BL
// descriptor stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gtest_util.h"
#include "hpt_lockstep.h"
#include "path_stack_algo.h"
#include "trace_source.h"

using hwprof::model::BranchRecord;
using hwprof::model::Emission;
using hwprof::model::Hpt;
using hwprof::model::HptAlgo;
using hwprof::model::HptCsr;
using hwprof::model::HptCtrl;
using hwprof::model::HptEntry;
using hwprof::model::HptIndex;
using hwprof::model::HptMetric;
using hwprof::model::HptOutcome;
using hwprof::model::HptPolicy;
using hwprof::model::kHptCmdClear;
using hwprof::model::kHptCmdClearStats;
using hwprof::model::kHptCmdDump;
using hwprof::model::kHptCsrCount;
using hwprof::model::PathEntry;
using hwprof::model::PathKey;
using hwprof::model::PathRecord;
using hwprof::model::PathStackAlgo;
using hwprof::model::Ppcr;
using hwprof::tb::HptConfig;
using hwprof::tb::LockstepMismatch;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;
using DumpEntry = hwprof::model::Hpt::DumpEntry;

namespace {

const HptConfig kBig{128, 4};   // the default
const HptConfig kTiny{4, 2};    // a set fills after two paths
const HptConfig kAssoc{1, 4};   // fully associative: every path competes for the same 4 ways

uint32_t ctrl(HptIndex ix, bool skew, HptMetric m, HptPolicy p) {
  HptCtrl c;
  c.index = ix;
  c.skew = skew;
  c.metric = m;
  c.policy = p;
  return c.pack();
}
uint32_t ctrl(HptPolicy p, HptMetric m = HptMetric::Freq, bool skew = true) {
  return ctrl(HptIndex::Plb, skew, m, p);
}

PathEntry desc(uint32_t start, uint8_t length = 0, uint32_t dirs = 0, uint16_t events = 0, uint32_t insns = 0,
               bool incomplete = false) {
  PathEntry d;
  d.start = start;
  d.length = length;
  d.dirs = dirs;
  d.events = events;
  d.insns = insns;
  d.incomplete = incomplete;
  return d;
}
PathKey key_of(const PathEntry& d) { return {d.start, d.length, d.dirs}; }
DumpEntry entry(unsigned set, unsigned way, const PathEntry& d, uint32_t acc) { return {set, way, key_of(d), acc}; }

std::string str(const DumpEntry& e) {
  char b[128];
  std::snprintf(b, sizeof b, "(set %u way %u start %08x length %u dirs %08x acc %u)", e.set, e.way, e.key.start,
                unsigned(e.key.length), e.key.dirs, e.acc);
  return b;
}
std::string str(const std::vector<DumpEntry>& v) {
  std::string s;
  for (const auto& e : v) s += "\n  " + str(e);
  return s;
}

/// Every outcome the reference saw (never cleared), to check that random
/// stimulus reaches every corner.
struct Outcomes {
  uint64_t hits = 0, fills = 0, replacements = 0, rejects = 0, ignored = 0, saturations = 0, dumps = 0;
};

// The lock-step pair plus an independent HptAlgo (ref) fed with the
// descriptors the hardware accepted, under the CTRL value before the edge,
// and cleared when the hardware obeyed CMD.clear. Every dump the hardware
// completes is compared with ref. The register read address rotates over
// every register unless a test reads one on purpose.
class Driver {
 public:
  Driver(const HptConfig& cfg, uint64_t seed, const std::string& name = hwprof::tb::current_test_name())
      : cfg_(cfg),
        env_(SimEnv::from_env()),
        ls_(hwprof::tb::make_hpt_lockstep(cfg, env_, name, seed)),
        ref_(cfg.sets, cfg.ways) {}
  /// A build with the probation area of policy 3 (lfu+prob); ref has the same area.
  Driver(const hwprof::tb::HptProbConfig& pc, uint64_t seed, const std::string& name = hwprof::tb::current_test_name())
      : cfg_(pc.table),
        env_(SimEnv::from_env()),
        ls_(hwprof::tb::make_hpt_prob_lockstep(pc, env_, name, seed)),
        ref_(pc.table.sets, pc.table.ways, {}, pc.prob),
        prob_(pc.prob.sets > 0) {}

  Hpt::Out step(Hpt::In in, bool rotate = true) {
    if (rotate && !in.csr_we) in.csr_addr = unsigned(rot_++ % kHptCsrCount);
    const Hpt::Out o = ls_.step(in);
    // A walk ended before this cycle: compare it with ref before this
    // cycle's descriptor goes in.
    if (was_busy_ && !o.dump_busy) check_dump();
    was_busy_ = o.dump_busy;
    const bool idle = !o.dump_busy;
    const bool cmd = in.csr_we && in.csr_addr == unsigned(HptCsr::Cmd) && idle;
    // The edge in the model's order: the descriptor accepted kCommitLatency
    // edges ago commits (ref inserts it now), then the register write, then
    // the walk, then intake.
    if (pipe_[kLat - 1].valid) {
      const auto r = ref_.insert(Emission{pipe_[kLat - 1].desc}, HptCtrl::unpack(pipe_[kLat - 1].ctrl));
      switch (r.outcome) {
        case HptOutcome::Hit: ++seen_.hits; break;
        case HptOutcome::Fill: ++seen_.fills; break;
        case HptOutcome::Replace: ++seen_.replacements; break;
        case HptOutcome::Reject: ++seen_.rejects; break;
        case HptOutcome::Ignored: ++seen_.ignored; break;
      }
      if (r.saturated) ++seen_.saturations;
      last_ = r;
    }
    for (unsigned k = kLat - 1; k > 0; --k) pipe_[k] = pipe_[k - 1];
    pipe_[0] = Slot{};
    if (cmd && (in.csr_wdata & kHptCmdClear)) ref_.clear();
    if (cmd && (in.csr_wdata & kHptCmdClearStats)) {
      ref_.clear_stats();
      stalls_ = 0;
    }
    if (cmd && (in.csr_wdata & kHptCmdDump)) {
      dumped_.clear();
      ++seen_.dumps;
    }
    if (in.in_valid && o.in_ready) {
      pipe_[0] = Slot{true, in.in_desc, ctrl_};
      ++accepted_;
    }
    if (in.in_valid && !o.in_ready) ++stalls_;
    if (in.csr_we && in.csr_addr == unsigned(HptCsr::Ctrl) && HptCtrl::legal(in.csr_wdata, prob_))
      ctrl_ = in.csr_wdata & HptCtrl::kMask;
    if (o.dump_valid && in.dump_ready) dumped_.push_back(o.dump);
    return o;
  }

  /// Register access (one cycle each, nothing offered).
  // Register access and idle cycles keep dump_ready high (a consumer that
  // is always ready), so a walk in progress moves on.
  uint32_t read(HptCsr a) {
    Hpt::In in;
    in.dump_ready = true;
    in.csr_addr = unsigned(a);
    return step(in, false).csr_rdata;
  }
  Hpt::Out write(HptCsr a, uint32_t v) {
    Hpt::In in;
    in.dump_ready = true;
    in.csr_we = true;
    in.csr_addr = unsigned(a);
    in.csr_wdata = v;
    return step(in, false);
  }
  void set_ctrl(uint32_t v) { write(HptCsr::Ctrl, v); }
  void idle(int n = 1) {
    Hpt::In in;
    in.dump_ready = true;
    for (int i = 0; i < n; ++i) step(in);
  }

  /// Offers the descriptors back to back (in_valid held, each until taken);
  /// returns the cycles until the last one was taken.
  uint64_t feed(const std::vector<PathEntry>& ds) {
    uint64_t c = 0;
    Hpt::In in;
    in.in_valid = true;
    for (const auto& d : ds) {
      in.in_desc = d;
      while (++c, !step(in).in_ready) {
      }
    }
    return c;
  }
  uint64_t feed(const PathEntry& d, int times = 1) { return feed(std::vector<PathEntry>(size_t(times), d)); }

  struct DumpRun {
    std::vector<DumpEntry> entries;
    uint64_t busy_cycles = 0;  ///< cycles with dump_busy after the CMD write
  };
  /// Drains S1, writes CMD.dump and takes every entry (dump_ready low
  /// stall_pct percent of the cycles). step() compares it with ref.
  DumpRun dump(int stall_pct = 0, uint64_t seed = 1) {
    idle();
    DumpRun r;
    write(HptCsr::Cmd, kHptCmdDump);
    Throttle stall(seed, stall_pct);
    Hpt::In in;
    for (;;) {
      in.dump_ready = !stall();
      const auto o = step(in);
      if (!o.dump_busy) break;
      ++r.busy_cycles;
      if (r.busy_cycles > 100000) throw std::runtime_error("dump never ends");
    }
    r.entries = last_dump_;
    return r;
  }

  /// The counters as the registers show them, against ref (pipeline drained
  /// and the last outcome counted: Hpt::kStatsLatency edges).
  void expect_counters_match_ref() {
    idle(Hpt::kStatsLatency);
    const auto& s = ref_.stats();
    auto sat = [](uint64_t v) { return static_cast<uint32_t>(std::min<uint64_t>(v, 0xffffffffu)); };
    EXPECT_EQ(read(HptCsr::Descs), sat(s.descs));
    EXPECT_EQ(read(HptCsr::Hits), sat(s.hits));
    EXPECT_EQ(read(HptCsr::Fills), sat(s.fills));
    EXPECT_EQ(read(HptCsr::Replacements), sat(s.replacements));
    EXPECT_EQ(read(HptCsr::Rejects), sat(s.rejects));
    EXPECT_EQ(read(HptCsr::Saturations), sat(s.saturations));
    EXPECT_EQ(read(HptCsr::Ignored), sat(s.ignored));
    EXPECT_EQ(read(HptCsr::StallCycles), sat(stalls_));
  }

  void reset() {
    ls_.reset();
    ref_.reset();
    ctrl_ = HptCtrl::reset_value();
    stalls_ = 0;
    was_busy_ = false;
    dumped_.clear();
    for (auto& x : pipe_) x = Slot{};
  }

  HptAlgo& ref() { return ref_; }
  const Outcomes& seen() const { return seen_; }
  uint64_t accepted() const { return accepted_; }
  uint64_t stalls() const { return stalls_; }
  uint32_t ctrl_value() const { return ctrl_; }
  uint64_t cycles() const { return ls_.cycles(); }
  /// What ref's last insert (the last commit) did.
  const hwprof::model::HptResult& last() const { return last_; }
  hwprof::tb::HptLockstep& lockstep() { return ls_; }
  const HptConfig& config() const { return cfg_; }

 private:
  // A dump just ended: it must be ref's valid entries in set-major, way order.
  void check_dump() {
    last_dump_ = dumped_;
    std::vector<DumpEntry> want;
    for (unsigned s = 0; s < ref_.sets(); ++s)
      for (unsigned w = 0; w < ref_.ways(); ++w) {
        const HptEntry& x = ref_.entry(s, w);
        if (x.valid) want.push_back({s, w, x.key, x.acc});
      }
    EXPECT_EQ(dumped_, want) << "dump " << seen_.dumps << " differs from HptAlgo fed with the same descriptors"
                             << "\n got:" << str(dumped_) << "\n want:" << str(want);
    dumped_.clear();
  }

  static constexpr unsigned kLat = Hpt::kCommitLatency;
  struct Slot {
    bool valid = false;
    PathEntry desc{};
    uint32_t ctrl = 0;
  };

  HptConfig cfg_;
  SimEnv env_;
  hwprof::tb::HptLockstep ls_;
  HptAlgo ref_;
  Slot pipe_[kLat];  // the descriptors in flight, as the model holds them
  hwprof::model::HptResult last_{};
  uint32_t ctrl_ = HptCtrl::reset_value();
  uint64_t rot_ = 0, accepted_ = 0, stalls_ = 0;
  bool was_busy_ = false;
  std::vector<DumpEntry> dumped_, last_dump_;
  Outcomes seen_;
  bool prob_ = false;  // the build has a probation area (CTRL.policy 3 legal)
};

// -------------------------------------------------------------- index fold

// Keys whose fold is easy to do by hand on 128 sets (b = 7; v = {dirs,
// length, start[31:2]} cut into 7-bit chunks c0..c9; way w rotates chunk c
// left by w*c mod 7 under skew). Each key lands in the lowest way whose
// candidate is free, so occupying way 0's set first shows way 1's index, and
// so on. The expected table is written out by hand; HptAlgo::index must
// agree with the same hand values.
TEST(Hpt, IndexFoldPlacesKnownKeysInHandComputedSetsAndWays) {
  const PathEntry a = desc(0x4);               // c0 = 1: set 1 in every way
  const PathEntry b = desc(0x200);             // c1 = 1: way w at rotl(1, w) = 1, 2, 4, 8
  const PathEntry c = desc(0x8);               // c0 = 2: set 2
  const PathEntry d = desc(0, 0, 1u << 27);    // v bit 63 = c9 bit 0: rotl(1, 9w) = 1, 4, 16, 64
  const PathEntry e = desc(0x10);              // c0 = 4: set 4
  const PathEntry f = desc(0, 1, 0);           // plb: v bit 30 = c4 bit 2: rotl(4, 4w) = 4, 64, 8, 1; pb: 0
  const PathEntry g = desc(0x40);              // c0 = 16: set 16
  const PathEntry h = desc(0, 0, 1u << 31);    // v bit 67 = c9 bit 4 (the short last chunk): 16, 64, 2, 8

  // The model's fold agrees with the hand values.
  auto idx = [](const PathEntry& x, HptIndex ix, bool skew, unsigned w) {
    return HptAlgo::index(key_of(x), ix, skew, 7, w);
  };
  const unsigned d_sets[] = {1, 4, 16, 64}, f_sets[] = {4, 64, 8, 1}, h_sets[] = {16, 64, 2, 8};
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(idx(b, HptIndex::Plb, true, w), 1u << w);
    EXPECT_EQ(idx(d, HptIndex::Plb, true, w), d_sets[w]);
    EXPECT_EQ(idx(f, HptIndex::Plb, true, w), f_sets[w]);
    EXPECT_EQ(idx(f, HptIndex::Plb, false, w), 4u);
    EXPECT_EQ(idx(f, HptIndex::Pb, true, w), 0u);
    EXPECT_EQ(idx(h, HptIndex::Plb, true, w), h_sets[w]);
    EXPECT_EQ(idx(d, HptIndex::Plb, false, w), 1u);
  }

  Driver drv(kBig, SimEnv::from_env().seed);
  // Reset CTRL: plb, skew, freq, erode.
  drv.feed({a,    // (1, 0)
            b,    // way 0's set 1 taken by a: (2, 1)
            c,    // (2, 0)
            d,    // way 0's set 1 taken: (4, 1)
            e,    // (4, 0)
            f,    // way 0's set 4 taken by e: (64, 1)
            g,    // (16, 0)
            h});  // set 16 of way 0 (g) and set 64 of way 1 (f) taken: (2, 2)
  drv.set_ctrl(ctrl(HptIndex::Pb, true, HptMetric::Freq, HptPolicy::Erode));
  drv.feed(f, 2);  // pb: v = 0, set 0 everywhere: fill (0, 0), then a hit (f under plb is stranded)
  drv.set_ctrl(ctrl(HptIndex::Plb, false, HptMetric::Freq, HptPolicy::Erode));
  drv.feed({d,    // no skew: set 1 in every way; way 0 holds a: (1, 1)
            f});  // no skew: set 4 in every way; way 0 e, way 1 d: (4, 2)
  const std::vector<DumpEntry> want = {
      entry(0, 0, f, 2), entry(1, 0, a, 1), entry(1, 1, d, 1), entry(2, 0, c, 1),  entry(2, 1, b, 1),
      entry(2, 2, h, 1), entry(4, 0, e, 1), entry(4, 1, d, 1), entry(4, 2, f, 1), entry(16, 0, g, 1),
      entry(64, 1, f, 1),
  };
  const auto got = drv.dump().entries;
  EXPECT_EQ(got, want) << "\n got:" << str(got) << "\n want:" << str(want);
  EXPECT_EQ(drv.read(HptCsr::Descs), 12u);
  EXPECT_EQ(drv.read(HptCsr::Fills), 11u);
  EXPECT_EQ(drv.read(HptCsr::Hits), 1u);
}

// ------------------------------------------------------------ fill, policies

// Four paths into the fully associative table take ways 0, 1, 2, 3 in
// order; after a clear the order starts again at way 0. On the tiny table
// without skew two paths of one set take ways 0 and 1 of that set.
TEST(Hpt, FillsLowestInvalidWayFirst) {
  {
    Driver drv(kAssoc, SimEnv::from_env().seed);
    const PathEntry p[] = {desc(0x100), desc(0x200), desc(0x300), desc(0x400)};
    drv.feed({p[2], p[0], p[3], p[1]});
    EXPECT_EQ(drv.dump().entries,
              (std::vector<DumpEntry>{entry(0, 0, p[2], 1), entry(0, 1, p[0], 1), entry(0, 2, p[3], 1),
                                      entry(0, 3, p[1], 1)}));
    drv.write(HptCsr::Cmd, kHptCmdClear);
    drv.feed({p[1], p[1], p[0]});
    EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, p[1], 2), entry(0, 1, p[0], 1)}));
    EXPECT_EQ(drv.read(HptCsr::Fills), 6u);
  }
  {
    Driver drv(kTiny, SimEnv::from_env().seed);
    drv.set_ctrl(ctrl(HptPolicy::Erode, HptMetric::Freq, false));
    // 2-bit chunks of start[31:2] = k XOR to (k & 3) ^ (k >> 2): k = 5 and
    // 10 fold to set 0, k = 6 to set 3.
    const PathEntry k5 = desc(5 * 4), k10 = desc(10 * 4), k6 = desc(6 * 4);
    drv.feed({k10, k6, k5});
    EXPECT_EQ(drv.dump().entries,
              (std::vector<DumpEntry>{entry(0, 0, k10, 1), entry(0, 1, k5, 1), entry(3, 0, k6, 1)}));
  }
}

// lfu on the fully associative table: counts 3, 1, 2, 1. A new path evicts
// the minimum, and of the two ways at 1 the lower (way 1); it enters at its
// own metric (1), so the next newcomer finds the tie again and evicts way 1
// again. Then way 1 is raised and the strict minimum sits in way 3.
TEST(Hpt, LfuEvictsLeastFrequentWayTiesToLowest) {
  Driver drv(kAssoc, SimEnv::from_env().seed);
  drv.set_ctrl(ctrl(HptPolicy::Lfu));
  const PathEntry p0 = desc(0x100), p1 = desc(0x110), p2 = desc(0x120), p3 = desc(0x130);
  const PathEntry n1 = desc(0x200), n2 = desc(0x210), n3 = desc(0x220);
  drv.feed({p0, p1, p2, p3, p0, p0, p2});
  drv.feed(n1);
  EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, p0, 3), entry(0, 1, n1, 1),
                                                        entry(0, 2, p2, 2), entry(0, 3, p3, 1)}));
  drv.feed(n2);
  drv.feed(n2);  // hit: 2
  drv.feed(n3);  // minimum 1 in way 3 only
  EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, p0, 3), entry(0, 1, n2, 2),
                                                        entry(0, 2, p2, 2), entry(0, 3, n3, 1)}));
  EXPECT_EQ(drv.read(HptCsr::Replacements), 3u);
  EXPECT_EQ(drv.read(HptCsr::Rejects), 0u);
  drv.expect_counters_match_ref();
}

// ss (Space-Saving): the newcomer inherits the victim's count plus its own
// metric; with the events metric the sums are not just +1.
TEST(Hpt, SsReplacementInheritsVictimCount) {
  Driver drv(kAssoc, SimEnv::from_env().seed);
  drv.set_ctrl(ctrl(HptPolicy::Ss, HptMetric::Events));
  const PathEntry p0 = desc(0x100, 0, 0, 5), p1 = desc(0x110, 0, 0, 2), p2 = desc(0x120, 0, 0, 3),
                  p3 = desc(0x130, 0, 0, 4);
  const PathEntry n1 = desc(0x200, 0, 0, 10), n2 = desc(0x210, 0, 0, 1);
  drv.feed({p0, p1, p2, p3});  // 5, 2, 3, 4
  drv.feed(n1);                // victim way 1 (2): 2 + 10
  drv.feed(n2);                // victim way 2 (3): 3 + 1
  drv.feed(n2);                // hit: 4 + 1
  EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, p0, 5), entry(0, 1, n1, 12),
                                                        entry(0, 2, n2, 5), entry(0, 3, p3, 4)}));
  EXPECT_EQ(drv.read(HptCsr::Replacements), 2u);
  EXPECT_EQ(drv.read(HptCsr::Hits), 1u);
  drv.expect_counters_match_ref();
}

// erode: a newcomer that finds the weakest incumbent above its metric only
// wears it down (reject, the path is not entered); once the incumbent is at
// or below the metric the newcomer replaces it and starts from its own
// metric (unlike ss, it does not inherit the victim's count).
TEST(Hpt, ErodeRejectsUntilVictimIsWornOutThenReplaces) {
  Driver drv(kAssoc, SimEnv::from_env().seed);
  EXPECT_EQ(drv.read(HptCsr::Ctrl), ctrl(HptPolicy::Erode)) << "erode is the reset policy";
  const PathEntry p0 = desc(0x100), p1 = desc(0x110), p2 = desc(0x120), p3 = desc(0x130), n = desc(0x200);
  drv.feed({p0, p1, p2, p3, p0, p1, p2, p3, p2});  // 2, 2, 3, 2
  drv.feed(n);  // victim way 0 (2 > 1): reject, 2 - 1
  EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, p0, 1), entry(0, 1, p1, 2),
                                                        entry(0, 2, p2, 3), entry(0, 3, p3, 2)}));
  EXPECT_EQ(drv.read(HptCsr::Rejects), 1u);
  EXPECT_EQ(drv.read(HptCsr::Replacements), 0u);
  drv.feed(n);  // victim way 0 (1, not > 1): replace, {n, 1}
  EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, n, 1), entry(0, 1, p1, 2),
                                                        entry(0, 2, p2, 3), entry(0, 3, p3, 2)}));
  // A heavy newcomer (events metric 5) replaces a victim of 2 at once; a
  // light one (1) only erodes the new minimum.
  drv.set_ctrl(ctrl(HptPolicy::Erode, HptMetric::Events));
  drv.feed(desc(0x300, 0, 0, 5));  // victim way 0 (1 <= 5): replace, {0x300, 5}
  drv.feed(desc(0x310, 0, 0, 1));  // victim way 1 (2 > 1): reject, 2 - 1
  EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, desc(0x300), 5), entry(0, 1, p1, 1),
                                                        entry(0, 2, p2, 3), entry(0, 3, p3, 2)}));
  EXPECT_EQ(drv.read(HptCsr::Rejects), 2u);
  EXPECT_EQ(drv.read(HptCsr::Replacements), 2u);
  drv.expect_counters_match_ref();
}

// insns metric with 0xffffff per descriptor: 256 hits reach 2^32 - 256, the
// 257th and every later add clips at 2^32 - 1 and counts in SATURATIONS.
// Then ss on a table whose entries are all near the top: the inherited sum
// clips too. Back to back, so this also runs at one descriptor per clock.
TEST(Hpt, AccumulatorSaturatesAndCountsSaturations) {
  Driver drv(kAssoc, SimEnv::from_env().seed);
  drv.set_ctrl(ctrl(HptPolicy::Lfu, HptMetric::Insns));
  const uint32_t big = 0xffffff;
  const PathEntry p = desc(0x100, 3, 5, 0, big);
  drv.feed(p, 256);
  EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, p, 0xffffff00u)}));
  EXPECT_EQ(drv.read(HptCsr::Saturations), 0u);
  drv.feed(p, 4);
  EXPECT_EQ(drv.dump().entries, (std::vector<DumpEntry>{entry(0, 0, p, 0xffffffffu)}));
  EXPECT_EQ(drv.read(HptCsr::Saturations), 4u);
  // Fill ways 1..3 to 0xffffff00 as well, then a newcomer under ss.
  std::vector<PathEntry> fill;
  for (uint32_t w = 1; w < 4; ++w)
    for (int i = 0; i < 256; ++i) fill.push_back(desc(0x100 + 0x10 * w, 0, 0, 0, big));
  EXPECT_EQ(drv.feed(fill), fill.size()) << "not one descriptor per clock";
  drv.set_ctrl(ctrl(HptPolicy::Ss, HptMetric::Insns));
  const PathEntry n = desc(0x900, 0, 0, 0, 0x200);
  drv.feed(n);  // victim way 1 (0xffffff00, the lowest of three equal minima) + 0x200: clips
  const auto got = drv.dump().entries;
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[1], entry(0, 1, n, 0xffffffffu)) << str(got);
  EXPECT_EQ(drv.read(HptCsr::Saturations), 5u);
  drv.expect_counters_match_ref();
}

// ------------------------------------------------------------- forwarding

// The same path every clock: each descriptor reads its entry at the edge
// where the previous one writes it, so S1 must take the forward register.
// One per clock (in_ready never drops), and the count is exact.
TEST(Hpt, BackToBackSameEntryForwards) {
  for (const auto& cfg : {kBig, kTiny}) {
    for (uint32_t c : {ctrl(HptPolicy::Erode), ctrl(HptPolicy::Lfu, HptMetric::Insns),
                       ctrl(HptPolicy::Ss, HptMetric::Events, false)}) {
      Driver drv(cfg, SimEnv::from_env().seed);
      drv.set_ctrl(c);
      const PathEntry p = desc(0x4000, 7, 0x55, 3, 11);
      const uint32_t m = HptAlgo::metric(p, HptCtrl::unpack(c).metric);
      const int n = 300;
      EXPECT_EQ(drv.feed(p, n), uint64_t(n)) << "in_ready dropped";
      const auto got = drv.dump().entries;
      ASSERT_EQ(got.size(), 1u) << cfg.name();
      EXPECT_EQ(got[0].acc, m * n) << cfg.name() << " ctrl " << c;
      EXPECT_EQ(drv.read(HptCsr::Hits), uint32_t(n - 1));
      EXPECT_EQ(drv.read(HptCsr::StallCycles), 0u);
      drv.expect_counters_match_ref();
    }
  }
}

// Paths of one set back to back on the tiny table (no skew: every way of a
// path at the same set): alternating hits on two ways, and misses that
// replace or wear down the victim written the cycle before, under every
// policy. One per clock; the dump and the counters equal HptAlgo's.
TEST(Hpt, BackToBackSameSetForwards) {
  const PathEntry a = desc(5 * 4), b = desc(10 * 4), c = desc(15 * 4), d = desc(0);  // all set 0
  const PathEntry other = desc(6 * 4);                                                // set 3
  const std::vector<PathEntry> pattern = {a, b, a, b, b, a, c, c, c, a, c, d, d, b, c, other, a, a, b, c,
                                          d, a, b, c, d, d, d, c, c, b, a, other, b, a, c, a, d, b};
  for (HptPolicy pol : {HptPolicy::Lfu, HptPolicy::Ss, HptPolicy::Erode}) {
    Driver drv(kTiny, SimEnv::from_env().seed);
    drv.set_ctrl(ctrl(pol, HptMetric::Freq, false));
    std::vector<PathEntry> ds;
    for (int r = 0; r < 8; ++r) ds.insert(ds.end(), pattern.begin(), pattern.end());
    EXPECT_EQ(drv.feed(ds), ds.size()) << "in_ready dropped, policy " << to_string(pol);
    drv.dump();  // compared with HptAlgo in the driver
    drv.expect_counters_match_ref();
    const auto& s = drv.seen();
    EXPECT_GT(s.hits, 0u);
    EXPECT_GT(s.replacements, 0u);
    if (pol == HptPolicy::Erode) {
      EXPECT_GT(s.rejects, 0u);
    }
  }
}

// ------------------------------------------------------- inputs, registers

TEST(Hpt, IncompleteDescriptorsAreCountedAndIgnored) {
  Driver drv(kTiny, SimEnv::from_env().seed);
  const PathEntry p = desc(0x100), q = desc(0x100, 0, 0, 0, 0, true), r = desc(0x200, 0, 0, 0, 0, true);
  drv.feed({q, p, r, q, p, r});
  EXPECT_EQ(drv.dump().entries.size(), 1u);
  EXPECT_EQ(drv.read(HptCsr::Ignored), 4u);
  EXPECT_EQ(drv.read(HptCsr::Descs), 2u);
  EXPECT_EQ(drv.read(HptCsr::Hits), 1u);
  drv.expect_counters_match_ref();
}

// CTRL with metric 3 or policy 3 is rejected: CTRL keeps its value and
// STATUS.err is set (sticky); STATUS is write-1-to-clear. A legal write keeps
// the 6 CTRL bits. PARAMS and CMD read back as documented.
TEST(Hpt, IllegalCtrlIsRejectedWithErrAndStatusIsW1C) {
  Driver drv(kBig, SimEnv::from_env().seed);
  EXPECT_EQ(drv.read(HptCsr::Ctrl), 0x22u);
  EXPECT_EQ(drv.read(HptCsr::Params), 7u | 4u << 16);
  EXPECT_EQ(drv.read(HptCsr::Cmd), 0u);
  for (uint32_t bad : {0x0cu, 0x30u, 0x3fu, 0xffffffffu, 0x2eu}) {
    drv.set_ctrl(bad);
    EXPECT_EQ(drv.read(HptCsr::Ctrl), 0x22u) << std::hex << bad;
    EXPECT_EQ(drv.read(HptCsr::Status), 1u) << std::hex << bad;
    drv.write(HptCsr::Status, 0xfffffffeu);  // bit 0 clear: no effect
    EXPECT_EQ(drv.read(HptCsr::Status), 1u);
    drv.write(HptCsr::Status, 1);
    EXPECT_EQ(drv.read(HptCsr::Status), 0u);
  }
  drv.set_ctrl(0xffffffd1u);  // metric 0, policy 1, upper bits ignored
  EXPECT_EQ(drv.read(HptCsr::Ctrl), 0x11u);
  EXPECT_EQ(drv.read(HptCsr::Status), 0u);
  // The datapath never saw the illegal values: descriptors still go in.
  drv.feed(desc(0x40), 3);
  EXPECT_EQ(drv.dump().entries.size(), 1u);
  for (unsigned a = kHptCsrCount; a < 16; ++a) {
    Hpt::In in;
    in.csr_addr = a;
    EXPECT_EQ(drv.step(in, false).csr_rdata, 0u) << "address " << a;
  }
}

// A command written while a dump walks is ignored and sets STATUS.err (a
// write of 0 does nothing); the table and the counters are unchanged and
// the walk finishes normally.
TEST(Hpt, CommandDuringDumpIsIgnoredWithErr) {
  Driver drv(kBig, SimEnv::from_env().seed);
  drv.feed({desc(0x10), desc(0x20), desc(0x30), desc(0x10)});
  drv.idle();
  auto o = drv.write(HptCsr::Cmd, kHptCmdDump);
  EXPECT_FALSE(o.dump_busy);
  int busy = 0;
  for (uint32_t bits : {0u, kHptCmdClear, kHptCmdClearStats, kHptCmdDump, 7u}) {
    o = drv.write(HptCsr::Cmd, bits);
    EXPECT_TRUE(o.dump_busy);
    ++busy;
    EXPECT_EQ(drv.read(HptCsr::Status), bits ? 3u : 2u) << "cmd " << bits;  // err, dump_busy
    ++busy;
    drv.write(HptCsr::Status, 1);
    ++busy;
  }
  Hpt::In in;
  in.dump_ready = true;
  while (drv.step(in).dump_busy) ++busy;
  EXPECT_EQ(busy, Hpt::dump_cycles(128, 4)) << "the walk should take kDrainCycles + Sets * (2 + Ways) cycles";
  EXPECT_EQ(drv.read(HptCsr::Status), 0u);
  EXPECT_EQ(drv.read(HptCsr::Descs), 4u) << "clear_stats during the dump was obeyed";
  EXPECT_EQ(drv.dump().entries.size(), 3u) << "clear during the dump was obeyed";
}

// clear and clear_stats act after the commit of the same edge: the
// descriptor in S3 is inserted, then cleared (and counted, then zeroed); the
// descriptors in S1 and S2 (accepted before the command) and one accepted in
// the cycle of the command commit after it and land in the cleared table.
TEST(Hpt, ClearAndClearStatsWithDescriptorsInFlight) {
  Driver drv(kTiny, SimEnv::from_env().seed);
  const PathEntry p = desc(0x100), q = desc(0x200), r = desc(0x300);
  static_assert(Hpt::kCommitLatency == 3, "the stage positions below assume S1, S2, S3");
  // p in S3, q in S2, r in S1 at the clear: p goes, q and r stay.
  drv.feed({p, q, r});
  drv.write(HptCsr::Cmd, kHptCmdClear);
  auto got = drv.dump().entries;
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].key, key_of(q));
  EXPECT_EQ(got[1].key, key_of(r));
  EXPECT_EQ(drv.read(HptCsr::Descs), 3u);
  // One descriptor in S1, S2 or S3 at a clear: only the one in S3 is gone.
  for (unsigned stage = 1; stage <= Hpt::kCommitLatency; ++stage) {
    drv.write(HptCsr::Cmd, kHptCmdClear);
    drv.feed(p);
    drv.idle(int(stage) - 1);
    drv.write(HptCsr::Cmd, kHptCmdClear);
    EXPECT_EQ(drv.dump().entries.size(), stage == Hpt::kCommitLatency ? 0u : 1u) << "stage S" << stage;
  }
  // clear_stats with one descriptor in S1, S2 or S3, or committed at the
  // edge before (its outcome registered, counted at the clearing edge;
  // "stage" kStatsLatency): the one in S3 is counted then zeroed, the
  // registered outcome is dropped, the others are counted after.
  static_assert(Hpt::kStatsLatency == Hpt::kCommitLatency + 1, "one outcome register after the commit");
  for (unsigned stage = 1; stage <= Hpt::kStatsLatency; ++stage) {
    drv.feed(q);
    drv.idle(int(stage) - 1);
    drv.write(HptCsr::Cmd, kHptCmdClearStats);
    drv.idle(Hpt::kStatsLatency);
    const uint32_t want = stage >= Hpt::kCommitLatency ? 0u : 1u;
    EXPECT_EQ(drv.read(HptCsr::Descs), want) << "stage S" << stage;
    EXPECT_EQ(drv.read(HptCsr::Hits) + drv.read(HptCsr::Fills), want) << "stage S" << stage;
  }
  // p went with the clear of its S3 cycle above; q stays.
  got = drv.dump().entries;
  ASSERT_EQ(got.size(), 1u) << "clear_stats keeps the table";
  EXPECT_EQ(got[0], entry(got[0].set, got[0].way, q, Hpt::kStatsLatency)) << "q fed once per stage above";
  // r offered in the cycle of clear + clear_stats, q and p in flight: all
  // three land in the empty table and are counted.
  drv.feed({q, p});
  Hpt::In in;
  in.in_valid = true;
  in.in_desc = r;
  in.csr_we = true;
  in.csr_addr = unsigned(HptCsr::Cmd);
  in.csr_wdata = kHptCmdClear | kHptCmdClearStats;
  EXPECT_TRUE(drv.step(in, false).in_ready);
  got = drv.dump().entries;
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(drv.read(HptCsr::Descs), 3u);
  EXPECT_EQ(drv.read(HptCsr::Fills), 3u);
  drv.expect_counters_match_ref();
}

// The counters show a descriptor accepted at edge e in the cycle after edge
// e + kStatsLatency (its outcome is registered at the commit edge e +
// kCommitLatency and counted one edge later), every outcome counter alike;
// STALL_CYCLES counts in the cycle of the stall.
TEST(Hpt, CountersShowAnOutcomeOneEdgeAfterTheCommit) {
  const std::vector<std::pair<HptCsr, PathEntry>> cases = {
      {HptCsr::Fills, desc(0x100)},  // first: a fill
      {HptCsr::Hits, desc(0x100)},   // same key: a hit
      {HptCsr::Ignored, desc(0x300, 0, 0, 0, 0, true)},
  };
  Driver drv(kTiny, SimEnv::from_env().seed);
  for (const auto& [reg, d] : cases) {
    const uint32_t n0 = drv.read(reg);
    drv.feed(d);  // accepted at this edge (e)
    // The i-th read after it shows the state after edge e + i - 1.
    for (unsigned i = 1; i <= Hpt::kStatsLatency; ++i)
      EXPECT_EQ(drv.read(reg), n0) << "counted " << i - 1 << " edges after acceptance";
    EXPECT_EQ(drv.read(reg), n0 + 1) << "not counted " << Hpt::kStatsLatency << " edges after acceptance";
  }
  drv.expect_counters_match_ref();
}

// A clear arriving while a stream of descriptors to one set is in flight at
// every stage (and their writes still landing): each pipeline position at
// the clear, under every policy, against HptAlgo with the same commit order.
TEST(Hpt, ClearDuringBackToBackStreamToOneSet) {
  for (HptPolicy pol : {HptPolicy::Lfu, HptPolicy::Ss, HptPolicy::Erode}) {
    Driver drv(kAssoc, SimEnv::from_env().seed);
    drv.set_ctrl(ctrl(pol, HptMetric::Events));
    std::mt19937_64 rng(SimEnv::from_env().seed + unsigned(pol));
    for (int round = 0; round < 40; ++round) {
      std::vector<PathEntry> ds;
      for (int i = 0; i < 6 + round % 5; ++i)
        ds.push_back(desc(0x100 + 0x10 * static_cast<uint32_t>(rng() % 6), 0, 0, static_cast<uint16_t>(rng() % 5)));
      // The clear in the cycle after the i-th descriptor was taken.
      const size_t at = size_t(round) % ds.size();
      Hpt::In in;
      in.in_valid = true;
      for (size_t i = 0; i < ds.size(); ++i) {
        in.in_desc = ds[i];
        EXPECT_TRUE(drv.step(in).in_ready);
        if (i == at) drv.write(HptCsr::Cmd, kHptCmdClear);
      }
      drv.dump();  // compared with HptAlgo in the driver
    }
    drv.expect_counters_match_ref();
  }
}

// A dump written while descriptors are in S1, S2 and S3 and a write is
// still landing: the Drain cycles commit them all, the walk shows them.
TEST(Hpt, DumpWithDescriptorsInFlightShowsThemAll) {
  for (unsigned gap = 0; gap <= Hpt::kDrainCycles; ++gap) {
    Driver drv(kAssoc, SimEnv::from_env().seed);
    drv.set_ctrl(ctrl(HptPolicy::Lfu));
    const PathEntry a = desc(0x100), b = desc(0x110), c = desc(0x120);
    drv.feed({a, b, c, a});
    drv.idle(int(gap));
    drv.write(HptCsr::Cmd, kHptCmdDump);
    Hpt::In in;
    in.dump_ready = true;
    std::vector<DumpEntry> got;
    uint64_t busy = 0;
    for (;;) {
      const auto o = drv.step(in);
      if (!o.dump_busy) break;
      ++busy;
      if (o.dump_valid) got.push_back(o.dump);
    }
    EXPECT_EQ(busy, Hpt::dump_cycles(1, 4)) << "gap " << gap;
    EXPECT_EQ(got, (std::vector<DumpEntry>{entry(0, 0, a, 2), entry(0, 1, b, 1), entry(0, 2, c, 1)}))
        << "gap " << gap << str(got);
  }
}

// ------------------------------------------------------- forwarding distances

// Descriptors of one set (the fully associative table, and the tiny table
// without skew) with exactly `gap` idle cycles between them: the next
// descriptor reads the table 1 + gap edges after the previous one, so it
// finds that descriptor's write (and the ones before) at every distance of
// the pipeline: in S3's decision (distance 1), in S2's merge (2, 3) and
// landing in the RAM at its own read (4), and beyond (5, 6). A small key
// pool with the events metric (0..6, so ties and m = 0 happen) gives hits,
// fills, replacements and rejects under each policy; every dump and the
// counters equal HptAlgo's.
TEST(Hpt, ForwardingAtEveryDistanceUnderEveryPolicy) {
  for (const auto& cfg : {kAssoc, kTiny}) {
    for (HptPolicy pol : {HptPolicy::Lfu, HptPolicy::Ss, HptPolicy::Erode}) {
      for (int gap = 0; gap <= 5; ++gap) {
        Driver drv(cfg, SimEnv::from_env().seed);
        drv.set_ctrl(ctrl(pol, HptMetric::Events, false));
        std::mt19937_64 rng(SimEnv::from_env().seed * 31 + unsigned(pol) * 7 + unsigned(gap));
        // kTiny without skew: start[31:2] = k folds to (k & 3) ^ (k >> 2),
        // so 5, 10, 15, 0 share set 0.
        const uint32_t pool[] = {5, 10, 15, 0, 20, 25};
        Hpt::In in;
        in.in_valid = true;
        for (int i = 0; i < 400; ++i) {
          in.in_desc = desc(pool[rng() % (rng() % 2 ? 6 : 3)] * 4, 0, 0, static_cast<uint16_t>(rng() % 7));
          EXPECT_TRUE(drv.step(in).in_ready) << "stalled";
          drv.idle(gap);
        }
        drv.dump();
        drv.expect_counters_match_ref();
        const auto& x = drv.seen();
        const std::string what = cfg.name() + " " + to_string(pol) + " gap " + std::to_string(gap);
        EXPECT_GT(x.hits, 0u) << what;
        EXPECT_GT(x.fills, 0u) << what;
        EXPECT_GT(x.replacements, 0u) << what;
        if (pol == HptPolicy::Erode) {
          EXPECT_GT(x.rejects, 0u) << what;
        }
      }
    }
  }
}

// The same entry at distance 1 + gap: each outcome's write forwarded into
// the next descriptor's decision at that distance, one outcome at a time:
// hit after hit (the count is exact), hit after fill, replace after
// replace (lfu, ss: the newcomer's count, inherited or not) and reject
// after reject (erode: the victim worn down by each).
TEST(Hpt, SameEntryAtEveryDistanceForEachOutcome) {
  for (int gap = 0; gap <= 4; ++gap) {
    // Hits: one path, m = 3 each.
    {
      Driver drv(kBig, SimEnv::from_env().seed);
      drv.set_ctrl(ctrl(HptPolicy::Erode, HptMetric::Events));
      const PathEntry p = desc(0x4000, 7, 0x55, 3);
      for (int i = 0; i < 20; ++i) {
        drv.feed(p);
        drv.idle(gap);
      }
      const auto got = drv.dump().entries;
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(got[0].acc, 60u) << "gap " << gap;
      EXPECT_EQ(drv.read(HptCsr::Hits), 19u);
      EXPECT_EQ(drv.read(HptCsr::Fills), 1u);
    }
    // Replacements: one set of one way (1 x 4 table filled with four paths
    // at 9 each); newcomers replace the entry the previous one wrote.
    for (HptPolicy pol : {HptPolicy::Lfu, HptPolicy::Ss, HptPolicy::Erode}) {
      Driver drv(kAssoc, SimEnv::from_env().seed);
      drv.set_ctrl(ctrl(pol, HptMetric::Events));
      for (uint32_t w = 0; w < 4; ++w) drv.feed(desc(0x100 + 0x10 * w, 0, 0, 9));
      drv.idle(Hpt::kCommitLatency);
      // Newcomers with m = 2: lfu replaces the minimum (way 0, then the
      // newcomer at 2 in way 0 again); ss replaces way 0 with 9 + 2, then
      // way 1 (9 < 11) ...; erode wears way 0 down by 2 each time (9, 7, 5,
      // 3, 1) and the fifth newcomer replaces it (1 <= 2).
      for (uint32_t i = 0; i < 6; ++i) {
        drv.feed(desc(0x800 + 0x10 * i, 0, 0, 2));
        drv.idle(gap);
      }
      drv.dump();
      drv.expect_counters_match_ref();
      if (pol == HptPolicy::Erode) {
        EXPECT_EQ(drv.read(HptCsr::Rejects), 4u) << "gap " << gap;
        EXPECT_EQ(drv.read(HptCsr::Replacements), 2u) << "gap " << gap;
      } else {
        EXPECT_EQ(drv.read(HptCsr::Replacements), 6u) << "gap " << gap;
      }
    }
  }
}

// ------------------------------------------------------------------- dump

// 128 x 4 with dump_ready always high: Hpt::kDrainCycles + 128 * (2 + 4)
// busy cycles (772: the drain of the three pipeline stages and the RAM write,
// then per set Read, Load and one cycle per way),
// intake paused for each of them, entries in set-major then way order.
TEST(Hpt, DumpWalkTakesOnePlusSetsTimesOnePlusWaysCycles) {
  Driver drv(kBig, SimEnv::from_env().seed);
  std::mt19937_64 rng(SimEnv::from_env().seed);
  std::vector<PathEntry> ds;
  for (int i = 0; i < 700; ++i) ds.push_back(desc(static_cast<uint32_t>(rng()), uint8_t(rng() % 33)));
  drv.feed(ds);
  const auto d = drv.dump();
  EXPECT_EQ(d.busy_cycles, Hpt::dump_cycles(128, 4));
  EXPECT_EQ(d.busy_cycles, Hpt::kDrainCycles + 128u * (2 + 4));
  EXPECT_GT(d.entries.size(), 300u);
  for (size_t i = 1; i < d.entries.size(); ++i) {
    const auto& x = d.entries[i - 1];
    const auto& y = d.entries[i];
    EXPECT_TRUE(x.set < y.set || (x.set == y.set && x.way < y.way)) << str(x) << " before " << str(y);
  }
}

// dump_ready low for long stretches: every valid entry is held (the
// assertions check valid and data stay put) until taken; the walk takes the
// base cycles plus exactly the refused cycles.
TEST(Hpt, DumpHoldsEachEntryUnderBackpressure) {
  for (const auto& cfg : {kTiny, kAssoc, kBig}) {
    Driver drv(cfg, SimEnv::from_env().seed);
    std::vector<PathEntry> ds;
    for (uint32_t i = 0; i < 3 * cfg.sets * cfg.ways; ++i) ds.push_back(desc(0x1000 + 4 * i));
    drv.feed(ds);
    drv.idle();
    drv.write(HptCsr::Cmd, kHptCmdDump);
    Throttle stall(SimEnv::from_env().seed, 70);
    Hpt::In in;
    uint64_t busy = 0, refused = 0;
    std::vector<DumpEntry> got;
    for (;;) {
      // The first entry waits 40 cycles, then random backpressure.
      in.dump_ready = got.empty() && refused < 40 ? false : !stall();
      const auto o = drv.step(in);
      if (!o.dump_busy) break;
      ++busy;
      if (o.dump_valid && !in.dump_ready) ++refused;
      if (o.dump_valid && in.dump_ready) got.push_back(o.dump);
    }
    EXPECT_EQ(got.size(), drv.ref().contents().size()) << cfg.name();
    EXPECT_GE(got.size(), size_t{cfg.sets} * cfg.ways / 2) << cfg.name();
    EXPECT_EQ(busy, Hpt::dump_cycles(cfg.sets, cfg.ways) + refused) << cfg.name();
  }
}

// A dump requested while descriptors stream in (in_valid held every cycle):
// intake pauses for the whole walk, every paused cycle counts in
// STALL_CYCLES, the snapshot is the table at the request (the descriptor
// accepted in that cycle included), and afterwards nothing is lost.
TEST(Hpt, DumpDuringStreamPausesIntakeCountsStallsAndLosesNothing) {
  for (const auto& cfg : {kBig, kTiny}) {
    Driver drv(cfg, SimEnv::from_env().seed);
    std::mt19937_64 rng(SimEnv::from_env().seed);
    std::vector<PathEntry> ds;
    for (int i = 0; i < 2000; ++i) ds.push_back(desc(0x1000 + 4 * static_cast<uint32_t>(rng() % 300)));
    Hpt::In in;
    uint64_t busy = 0;
    size_t i = 0;
    for (uint64_t c = 0; i < ds.size(); ++c) {
      in.in_valid = true;
      in.in_desc = ds[i];
      in.dump_ready = (c & 3) != 0;
      in.csr_we = c == 700 || c == 1900;  // two dumps mid-stream
      in.csr_addr = unsigned(HptCsr::Cmd);
      in.csr_wdata = kHptCmdDump;
      const auto o = drv.step(in, !in.csr_we);
      if (o.dump_busy) {
        ++busy;
        EXPECT_FALSE(o.in_ready);
      }
      if (o.in_ready) ++i;
    }
    EXPECT_EQ(drv.seen().dumps, 2u);
    EXPECT_GE(busy, 2u * Hpt::dump_cycles(cfg.sets, cfg.ways));
    EXPECT_EQ(drv.stalls(), busy);
    EXPECT_EQ(drv.read(HptCsr::StallCycles), uint32_t(busy));
    EXPECT_EQ(drv.accepted(), ds.size());
    drv.expect_counters_match_ref();
    drv.dump(30);
    HptAlgo direct(cfg.sets, cfg.ways);
    for (const auto& d : ds) direct.insert(Emission{d}, HptCtrl{});
    EXPECT_EQ(direct.contents(), drv.ref().contents());
  }
}

// Reset in mid-stream, in the middle of a dump and with a descriptor in S1:
// every register back to its reset value, the table empty, and the unit
// works normally afterwards.
TEST(Hpt, ResetMidStreamAndMidDumpRestartsClean) {
  Driver drv(kBig, SimEnv::from_env().seed);
  drv.set_ctrl(ctrl(HptPolicy::Ss, HptMetric::Events, false));
  std::vector<PathEntry> ds;
  for (uint32_t i = 0; i < 500; ++i) ds.push_back(desc(0x2000 + 4 * (i % 97), 0, 0, 1));
  drv.feed(ds);
  drv.set_ctrl(0xff);  // illegal: err
  drv.write(HptCsr::Cmd, kHptCmdDump);
  drv.idle(100);  // mid-dump
  drv.reset();
  for (unsigned a = 0; a < kHptCsrCount; ++a) {
    const uint32_t v = drv.read(HptCsr(a));
    if (a == unsigned(HptCsr::Ctrl))
      EXPECT_EQ(v, 0x22u);
    else if (a == unsigned(HptCsr::Params))
      EXPECT_EQ(v, 7u | 4u << 16);
    else
      EXPECT_EQ(v, 0u) << "register " << a << " not cleared by reset";
  }
  EXPECT_TRUE(drv.dump().entries.empty());
  // Reset with a descriptor in S1: it is gone.
  drv.feed(ds);
  drv.reset();
  EXPECT_TRUE(drv.dump().entries.empty());
  EXPECT_EQ(drv.read(HptCsr::Descs), 0u);
  drv.feed(ds);
  drv.dump(20);
  drv.expect_counters_match_ref();
}

// The scoreboard must catch a model that differs from the RTL: a model with
// twice the sets places paths elsewhere.
TEST(HptHarness, ScoreboardReportsFirstMismatchOfFaultyModel) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_hpt_lockstep(kTiny, env, hwprof::tb::current_test_name(), env.seed);
  ls.model() = Hpt(8, 2);
  ls.model().reset();
  try {
    Hpt::In in;
    in.in_valid = true;
    for (uint32_t i = 0; i < 32; ++i) {
      in.in_desc = desc(0x40 * i + 4 * (i & 3));
      ls.step(in);
    }
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(HptCsr::Cmd);
    in.csr_wdata = kHptCmdDump;
    ls.step(in);
    in = {};
    in.dump_ready = true;
    for (int c = 0; c < 100; ++c) ls.step(in);
    FAIL() << "the faulty model was not caught";
  } catch (const LockstepMismatch& e) {
    std::string r = e.what();
    EXPECT_NE(r.find("lock-step mismatch in hpt at cycle"), std::string::npos) << r;
    EXPECT_NE(r.find("seed " + std::to_string(env.seed)), std::string::npos) << r;
  }
}

// ------------------------------------------------------------------ random

// Random paths from a small pool with a skewed popularity (so hits, fills,
// replacements and rejects all happen), random metrics' sources and
// incomplete flags, random legal and illegal CTRL writes, random commands
// (clear, clear_stats, dump, several at once, and during dumps), STATUS
// writes, writes to read-only registers, bubbles and dump backpressure from
// the seed sweep, and a reset halfway.
class DescGen {
 public:
  DescGen(uint64_t seed, unsigned pool, bool prob = false) : rng_(seed), prob_(prob) {
    for (unsigned i = 0; i < pool; ++i) {
      PathKey k;
      k.start = static_cast<uint32_t>(rng_());
      k.length = static_cast<uint8_t>(rng_() % 33);
      k.dirs = static_cast<uint32_t>(rng_()) & (k.length >= 32 ? ~0u : (1u << k.length) - 1);
      keys_.push_back(k);
    }
  }
  PathEntry next() {
    const PathKey& k = keys_[rng_() % (1 + rng_() % keys_.size())];  // low indices are hot
    PathEntry d;
    d.start = k.start;
    d.length = k.length;
    d.dirs = k.dirs;
    d.events = static_cast<uint16_t>(rng_() % 8 ? rng_() % 5 : rng_());
    d.insns = static_cast<uint32_t>(rng_() % 16 ? 1 + rng_() % 40 : rng_() & 0xffffff);
    d.incomplete = rng_() % 25 == 0;
    return d;
  }
  uint32_t ctrl_value() {
    if (rng_() % 6 == 0) return static_cast<uint32_t>(rng_()) | (rng_() & 1 ? 0x0cu : 0x30u);  // illegal
    if (prob_ && rng_() % 2 == 0) {  // lfu+prob (policy 3), half the time on a probation build
      HptCtrl c;
      c.index = static_cast<HptIndex>(rng_() & 1);
      c.skew = rng_() % 4 != 0;
      c.metric = static_cast<HptMetric>(rng_() % 3);
      c.admit = hwprof::model::HptAdmit::Probation;
      return c.pack();
    }
    uint32_t v = ctrl(static_cast<HptIndex>(rng_() & 1), rng_() % 4 != 0, static_cast<HptMetric>(rng_() % 3),
                      static_cast<HptPolicy>(rng_() % 3));
    if (rng_() % 4 == 0) v |= static_cast<uint32_t>(rng_()) & ~0x3fu;  // ignored upper bits
    return v;
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  bool prob_ = false;
  std::vector<PathKey> keys_;
};

class HptConfigTest : public ::testing::TestWithParam<HptConfig> {};

// The random lock-step run of one configuration; make(seed) builds its Driver.
template <typename MakeDriver>
void random_lockstep(const HptConfig& cfg, const std::string& name, bool prob, MakeDriver make) {
  SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : 16;
  const int cycles = cfg.sets >= 128 ? 12000 : 3000;
  const unsigned pool = std::max(8u, 3 * cfg.sets * cfg.ways);
  Outcomes total;
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    DescGen gen(seed, pool, prob);
    Throttle idle(seed * 3 + 1, env.idle_for(seed));
    Throttle stall(seed * 7 + 2, env.stall_for(seed));
    Driver drv = make(seed);
    Hpt::In in;
    try {
      for (int c = 0; c < cycles; ++c) {
        if (!in.in_valid && !idle()) {
          in.in_valid = true;
          in.in_desc = gen.next();
        }
        in.dump_ready = !stall();
        in.csr_we = false;
        const unsigned roll = static_cast<unsigned>(gen.rng()() % 1000);
        if (roll < 3) {
          in.csr_we = true;
          in.csr_addr = unsigned(HptCsr::Ctrl);
          in.csr_wdata = gen.ctrl_value();
        } else if (roll < 5) {
          in.csr_we = true;
          in.csr_addr = unsigned(HptCsr::Cmd);
          // Mostly dumps; clears rarely, so the table fills.
          const unsigned k = static_cast<unsigned>(gen.rng()() % 8);
          in.csr_wdata = k < 5 ? kHptCmdDump : k == 5 ? kHptCmdClearStats : k == 6 ? kHptCmdClear
                                                                                   : static_cast<uint32_t>(gen.rng()());
        } else if (roll < 6) {
          in.csr_we = true;
          in.csr_addr = unsigned(gen.rng()() % 16);  // STATUS W1C, read-only and unmapped addresses
          in.csr_wdata = static_cast<uint32_t>(gen.rng()());
          if (in.csr_addr == unsigned(HptCsr::Ctrl) || in.csr_addr == unsigned(HptCsr::Cmd)) in.csr_we = false;
        }
        if (c == cycles / 2) drv.reset();
        const auto o = drv.step(in);
        if (in.in_valid && o.in_ready) in.in_valid = false;
      }
      in = {};
      Hpt::In rd;
      rd.dump_ready = true;
      while (drv.step(rd).dump_busy) {
      }
      drv.dump(env.stall_for(seed));
      drv.expect_counters_match_ref();
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
    const auto& x = drv.seen();
    total.hits += x.hits;
    total.fills += x.fills;
    total.replacements += x.replacements;
    total.rejects += x.rejects;
    total.ignored += x.ignored;
    total.dumps += x.dumps;
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "seed " << seed;
      return;
    }
  }
  std::printf("[random] %s: %llu hits, %llu fills, %llu replacements, %llu rejects, %llu ignored, %llu dumps\n",
              name.c_str(), static_cast<unsigned long long>(total.hits),
              static_cast<unsigned long long>(total.fills), static_cast<unsigned long long>(total.replacements),
              static_cast<unsigned long long>(total.rejects), static_cast<unsigned long long>(total.ignored),
              static_cast<unsigned long long>(total.dumps));
  // The stimulus must reach the corners it is meant to reach.
  EXPECT_GT(total.hits, 0u);
  EXPECT_GT(total.fills, 0u);
  EXPECT_GT(total.replacements, 0u);
  EXPECT_GT(total.rejects, 0u);
  EXPECT_GT(total.ignored, 0u);
  EXPECT_GT(total.dumps, seeds);
}

TEST_P(HptConfigTest, RandomLockstepWithBubblesBackpressureCtrlAndCommands) {
  const HptConfig cfg = GetParam();
  random_lockstep(cfg, cfg.name(), false, [&](uint64_t seed) { return Driver(cfg, seed); });
}

INSTANTIATE_TEST_SUITE_P(HptConfigs, HptConfigTest, ::testing::ValuesIn(hwprof::tb::hpt_configs()),
                         [](const auto& i) { return i.param.name(); });

// ------------------------------------------------------------- real traces

// The BL descriptor stream of a trace (the path stack's functional model,
// as hwprof paths runs it): depth 16, MaxLen 32.
const std::vector<PathEntry>& trace_descriptors(const std::string& path) {
  static std::map<std::string, std::vector<PathEntry>> cache;
  auto it = cache.find(path);
  if (it != cache.end()) return it->second;
  std::vector<PathEntry> v;
  PathStackAlgo algo(16, 32);
  const Ppcr bl{Ppcr::kBl};
  auto src = hwprof::trace::branch_source(path);
  BranchRecord r;
  while (src(r))
    if (auto e = algo.process(PathRecord::classify(r, bl))) v.push_back(e->path);
  return cache.emplace(path, std::move(v)).first->second;
}

struct TraceCase {
  std::string path;
  std::string mode;
  uint32_t ctrl;
};

std::vector<TraceCase> trace_cases() {
  std::vector<TraceCase> v;
  for (const auto& p : hwprof::tb::shipped_traces()) {
    v.push_back({p, "default", HptCtrl::reset_value()});
    v.push_back({p, "lfu", ctrl(HptPolicy::Lfu)});
    v.push_back({p, "ss_insns_pb", ctrl(HptIndex::Pb, false, HptMetric::Insns, HptPolicy::Ss)});
  }
  return v;
}

void PrintTo(const TraceCase& c, std::ostream* os) { *os << c.path << " " << c.mode; }

class HptRealTrace : public ::testing::TestWithParam<TraceCase> {};

// Every descriptor of the trace back to back through RTL and model in
// lock-step (128 x 4; the reset CTRL, lfu, and pb without skew with the
// insns metric under ss), with one dump in mid-stream and 5% backpressure
// on the dumps; the final dump equals HptAlgo run straight over the
// descriptors, and so do the counters.
// The shipped-trace lock-step shared by HptRealTrace and HptProbRealTrace:
// every descriptor back to back through `drv`, a dump in mid-stream, dump
// backpressure (STALL_PCT, default 5%); the final dump and every counter
// equal `direct` (HptAlgo with the same table) run straight over the
// descriptors. Returns direct's statistics.
hwprof::model::HptStats shipped_trace_lockstep(const TraceCase& tc, const std::vector<PathEntry>& ds, Driver& drv,
                                HptAlgo& direct) {
  SimEnv env = SimEnv::from_env();
  const HptCtrl c = HptCtrl::unpack(tc.ctrl);
  drv.set_ctrl(tc.ctrl);
  Hpt::In in;
  Throttle stall(env.seed, env.stall_pct >= 0 ? env.stall_pct : 5);
  size_t i = 0;
  for (uint64_t cyc = 0; i < ds.size(); ++cyc) {
    in.in_valid = true;
    in.in_desc = ds[i];
    in.dump_ready = !stall();
    in.csr_we = i == ds.size() / 2 && drv.seen().dumps == 0;
    in.csr_addr = unsigned(HptCsr::Cmd);
    in.csr_wdata = kHptCmdDump;
    if (drv.step(in, !in.csr_we).in_ready) direct.insert(Emission{ds[i++]}, c);
  }
  const auto d = drv.dump(env.stall_pct >= 0 ? env.stall_pct : 5);
  std::vector<DumpEntry> want;
  for (unsigned s = 0; s < direct.sets(); ++s)
    for (unsigned w = 0; w < direct.ways(); ++w)
      if (direct.entry(s, w).valid) want.push_back({s, w, direct.entry(s, w).key, direct.entry(s, w).acc});
  EXPECT_EQ(d.entries, want);
  const auto& st = direct.stats();
  EXPECT_EQ(drv.read(HptCsr::Descs), st.descs);
  EXPECT_EQ(drv.read(HptCsr::Hits), st.hits);
  EXPECT_EQ(drv.read(HptCsr::Fills), st.fills);
  EXPECT_EQ(drv.read(HptCsr::Replacements), st.replacements);
  EXPECT_EQ(drv.read(HptCsr::Rejects), st.rejects);
  EXPECT_EQ(drv.read(HptCsr::Saturations), st.saturations);
  EXPECT_EQ(drv.read(HptCsr::Ignored), st.ignored);
  EXPECT_EQ(drv.read(HptCsr::StallCycles), drv.stalls());
  std::printf("[trace] %s %s: %zu descriptors (%llu hits, %llu fills, %llu replacements, %llu rejects, "
              "%llu ignored), %zu entries, %llu cycles\n",
              tc.path.c_str(), tc.mode.c_str(), ds.size(), static_cast<unsigned long long>(st.hits),
              static_cast<unsigned long long>(st.fills), static_cast<unsigned long long>(st.replacements),
              static_cast<unsigned long long>(st.rejects), static_cast<unsigned long long>(st.ignored),
              d.entries.size(), static_cast<unsigned long long>(drv.cycles()));
  return st;
}

TEST_P(HptRealTrace, LockstepEveryCycleAndFinalTableEqualsHptAlgo) {
  const TraceCase tc = GetParam();
  SimEnv env = SimEnv::from_env();
  const auto& ds = trace_descriptors(tc.path);
  ASSERT_GT(ds.size(), 1000u);
  Driver drv(kBig, env.seed);
  HptAlgo direct(kBig.sets, kBig.ways);
  try {
    shipped_trace_lockstep(tc, ds, drv, direct);
  } catch (const LockstepMismatch& e) {
    FAIL() << tc.path << " " << tc.mode << ": " << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(HptShipped, HptRealTrace, ::testing::ValuesIn(trace_cases()),
                         [](const auto& i) { return hwprof::tb::trace_test_name(i.param.path) + "_" + i.param.mode; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HptRealTrace);

// ------------------------------------------- probation area (lfu+prob, policy 3)

// Builds with the probation area (sim/rtl_configs.cmake unit hpt_prob):
// 128 x 4 with 128 x 4 x (12 + 14) bits, and 4 x 2 with 2 x 2 x (4 + 3)
// (fingerprints alias, counts saturate at 7).
const hwprof::tb::HptProbConfig& prob_big() { return hwprof::tb::hpt_prob_configs().at(0); }
const hwprof::tb::HptProbConfig& prob_tiny() { return hwprof::tb::hpt_prob_configs().at(1); }

uint32_t ctrl_prob(HptMetric m = HptMetric::Freq, bool skew = true, HptIndex ix = HptIndex::Plb) {
  HptCtrl c;
  c.index = ix;
  c.skew = skew;
  c.metric = m;
  c.policy = HptPolicy::Lfu;
  c.admit = hwprof::model::HptAdmit::Probation;
  return c.pack();
}

// On 4 x 2 without skew, start = 4k with k < 64 folds to
// (k & 3) ^ (k >> 2 & 3) ^ (k >> 4 & 3): set 0 for these k.
std::vector<uint32_t> set0_starts() {
  std::vector<uint32_t> v;
  for (uint32_t k = 1; k < 64; ++k)
    if (((k & 3) ^ (k >> 2 & 3) ^ (k >> 4 & 3)) == 0) v.push_back(4 * k);
  return v;
}

TEST(HptProb, PolicyThreeIsLegalOnlyWithTheProbationAreaAndParamsSaysSo) {
  {
    Driver drv(prob_tiny(), SimEnv::from_env().seed);
    EXPECT_EQ(drv.read(HptCsr::Params) >> 8 & 1u, 1u);
    drv.set_ctrl(0x32);  // skew, freq, policy 3
    EXPECT_EQ(drv.read(HptCsr::Ctrl), 0x32u);
    EXPECT_EQ(drv.read(HptCsr::Status) & 1u, 0u);
    drv.set_ctrl(0x3e);  // metric 3: still illegal
    EXPECT_EQ(drv.read(HptCsr::Ctrl), 0x32u);
    EXPECT_EQ(drv.read(HptCsr::Status) & 1u, 1u);
  }
  {
    Driver drv(kTiny, SimEnv::from_env().seed);
    EXPECT_EQ(drv.read(HptCsr::Params) >> 8 & 1u, 0u);
    drv.set_ctrl(0x32);
    EXPECT_EQ(drv.read(HptCsr::Ctrl), 0x22u);
    EXPECT_EQ(drv.read(HptCsr::Status) & 1u, 1u);
  }
}

// Worked out by hand (4 x 2, one set, freq): A and B fill the set, A hits
// twice (A 3, B 1). C misses: probation count 1, not above the victim B's
// 1: reject, B untouched. C again: 2 > 1: C replaces B, starting at 2. B
// comes back: counts 1, 2 (not above C's 2: rejects), 3 (> 2): replaces C
// at 3. Run back to back and with 1..4 idle cycles between descriptors, so
// every probation and table write is forwarded at every pipeline distance.
TEST(HptProb, AdmissionAfterProbationByHandAtEveryDistance) {
  const auto st = set0_starts();
  const PathEntry a = desc(st[0]), b = desc(st[1]), c = desc(st[2]);
  for (int gap = 0; gap <= 4; ++gap) {
    Driver drv(prob_tiny(), SimEnv::from_env().seed);
    drv.set_ctrl(ctrl_prob(HptMetric::Freq, false));
    std::vector<HptOutcome> got;
    for (const PathEntry& d : {a, b, a, a, c, c, b, b, b}) {
      drv.feed(d);
      drv.idle(gap);
    }
    const auto r = drv.dump();
    const std::vector<DumpEntry> want = {entry(0, 0, a, 3), entry(0, 1, b, 3)};
    EXPECT_EQ(r.entries, want) << "gap " << gap << str(r.entries);
    drv.expect_counters_match_ref();
    EXPECT_EQ(drv.read(HptCsr::Fills), 2u);
    EXPECT_EQ(drv.read(HptCsr::Hits), 2u);
    EXPECT_EQ(drv.read(HptCsr::Rejects), 3u);
    EXPECT_EQ(drv.read(HptCsr::Replacements), 2u);
  }
}

// Space-Saving inside the probation area (2 entries per row): A and B fill
// the set at 1 each; C and D (same probation row, other fingerprints) miss
// and take the row's two entries at count 1 (rejects); E (same row) takes
// the lowest minimum entry (C's) and inherits its count: 1 + 1 = 2 > 1, so
// E replaces the victim A (ties to way 0) starting at 2. Then the count
// saturates: with 3-bit counts no path can beat an accumulator of 7 or more.
TEST(HptProb, ProbationEvictionInheritsCountAndCountsSaturate) {
  const auto st = set0_starts();
  const unsigned row0 = HptAlgo::probation_set(key_of(desc(st[2])), 1);
  std::vector<uint32_t> same_row;  // distinct fingerprints, C's probation row
  std::vector<uint32_t> fps;
  for (size_t i = 2; i < st.size() && same_row.size() < 3; ++i) {
    const PathKey k = key_of(desc(st[i]));
    const uint32_t fp = HptAlgo::fingerprint(k, 4);
    if (HptAlgo::probation_set(k, 1) == row0 && std::find(fps.begin(), fps.end(), fp) == fps.end()) {
      same_row.push_back(st[i]);
      fps.push_back(fp);
    }
  }
  ASSERT_EQ(same_row.size(), 3u);
  const PathEntry a = desc(st[0]), b = desc(st[1]);
  const PathEntry c = desc(same_row[0]), d = desc(same_row[1]), e = desc(same_row[2]);
  for (int gap : {0, 1, 3}) {
    Driver drv(prob_tiny(), SimEnv::from_env().seed);
    drv.set_ctrl(ctrl_prob(HptMetric::Freq, false));
    for (const PathEntry& x : {a, b, c, d, e}) {
      drv.feed(x);
      drv.idle(gap);
    }
    const std::vector<DumpEntry> want = {entry(0, 0, e, 2), entry(0, 1, b, 1)};
    EXPECT_EQ(drv.dump().entries, want) << "gap " << gap;
    // Saturation: B grows to 8 and E to 9, then every newcomer's count stops
    // at 7 and is refused, whatever its metric.
    for (int i = 0; i < 7; ++i) drv.feed(e);
    for (int i = 0; i < 7; ++i) drv.feed(b);
    drv.set_ctrl(ctrl_prob(HptMetric::Events, false));
    for (int i = 0; i < 12; ++i) drv.feed(desc(same_row[i % 2], 0, 0, static_cast<uint16_t>(3 + i)));
    const std::vector<DumpEntry> want2 = {entry(0, 0, e, 9), entry(0, 1, b, 8)};
    EXPECT_EQ(drv.dump().entries, want2) << "gap " << gap;
    drv.expect_counters_match_ref();
    EXPECT_EQ(drv.read(HptCsr::Rejects), 2u + 12u);
  }
}

// A clear empties the probation area with the table, with descriptors in
// flight at every position: after it a newcomer starts from a count of 1.
TEST(HptProb, ClearEmptiesTheProbationAreaWithWritesInFlight) {
  const auto st = set0_starts();
  for (int pos = 0; pos <= 5; ++pos) {
    Driver drv(prob_tiny(), SimEnv::from_env().seed);
    drv.set_ctrl(ctrl_prob(HptMetric::Freq, false));
    Hpt::In in;
    in.in_valid = true;
    for (int i = 0; i < 40; ++i) {
      in.in_desc = desc(st[size_t(i) % 5]);
      in.csr_we = i == 20 + pos;
      in.csr_addr = unsigned(HptCsr::Cmd);
      in.csr_wdata = kHptCmdClear;
      drv.step(in, !in.csr_we);
    }
    drv.dump();
    drv.expect_counters_match_ref();
  }
}

// A small key pool with 0..5 idle cycles between descriptors (as
// Hpt.ForwardingAtEveryDistanceUnderEveryPolicy), events metric: each
// descriptor reads the table's and the probation area's writes at every
// pipeline distance; both admissions and refusals occur.
TEST(HptProb, ForwardingAtEveryDistance) {
  for (const auto* pc : {&prob_tiny(), &prob_big()}) {
    for (int gap = 0; gap <= 5; ++gap) {
      Driver drv(*pc, SimEnv::from_env().seed);
      const bool tiny = pc->table.sets == 4;
      drv.set_ctrl(ctrl_prob(HptMetric::Events, false));
      std::mt19937_64 rng(SimEnv::from_env().seed * 17 + unsigned(gap));
      const auto st = set0_starts();
      Hpt::In in;
      in.in_valid = true;
      for (int i = 0; i < 600; ++i) {
        // 128 x 4 without skew: start = 4 * 129 * j folds to j ^ j = set 0.
        const uint32_t j = static_cast<uint32_t>(rng() % (rng() % 2 ? 8 : 4));
        in.in_desc = desc(tiny ? st[j] : 4 * 129 * (j + 1), 0, 0, static_cast<uint16_t>(rng() % 4));
        EXPECT_TRUE(drv.step(in).in_ready) << "stalled";
        drv.idle(gap);
      }
      drv.dump();
      drv.expect_counters_match_ref();
      const auto& x = drv.seen();
      const std::string what = pc->name() + " gap " + std::to_string(gap);
      EXPECT_GT(x.hits, 0u) << what;
      EXPECT_GT(x.replacements, 0u) << what;
      EXPECT_GT(x.rejects, 0u) << what;
    }
  }
}

// The lock-step scoreboard catches a model whose probation counts are one
// bit wider than the RTL's (the RTL refuses a newcomer the model admits).
TEST(HptProb, ScoreboardCatchesAModelWithAWrongProbationArea) {
  SimEnv env = SimEnv::from_env();
  auto ls = hwprof::tb::make_hpt_prob_lockstep(prob_tiny(), env, hwprof::tb::current_test_name(), env.seed);
  auto wrong = prob_tiny().prob;
  wrong.count_bits += 1;
  ls.model() = Hpt(prob_tiny().table.sets, prob_tiny().table.ways, wrong);
  ls.model().reset();
  const auto st = set0_starts();
  try {
    Hpt::In in;
    in.csr_we = true;
    in.csr_addr = unsigned(HptCsr::Ctrl);
    in.csr_wdata = ctrl_prob(HptMetric::Freq, false);
    ls.step(in);
    // A and B at 10 each; then C 12 times: the RTL's 3-bit count stops at 7
    // and C is refused every time; the faulty model's 4-bit count reaches 11
    // > 10 and admits it.
    in = {};
    in.in_valid = true;
    for (int i = 0; i < 32; ++i) {
      in.in_desc = desc(i < 10 ? st[0] : i < 20 ? st[1] : st[2]);
      ls.step(in);
    }
    in = {};
    in.csr_we = true;
    in.csr_addr = unsigned(HptCsr::Cmd);
    in.csr_wdata = kHptCmdDump;
    ls.step(in);
    in = {};
    in.dump_ready = true;
    for (int c = 0; c < 100; ++c) ls.step(in);
    FAIL() << "the faulty model was not caught";
  } catch (const LockstepMismatch& e) {
    std::string r = e.what();
    EXPECT_NE(r.find("lock-step mismatch in hpt at cycle"), std::string::npos) << r;
  }
}

class HptProbConfigTest : public ::testing::TestWithParam<hwprof::tb::HptProbConfig> {};

// The random run of the plain builds, on the probation builds, with CTRL
// selecting policy 3 half the time.
TEST_P(HptProbConfigTest, RandomLockstepWithBubblesBackpressureCtrlAndCommands) {
  const auto pc = GetParam();
  random_lockstep(pc.table, pc.name(), true, [&](uint64_t seed) { return Driver(pc, seed); });
}

INSTANTIATE_TEST_SUITE_P(HptProbConfigs, HptProbConfigTest, ::testing::ValuesIn(hwprof::tb::hpt_prob_configs()),
                         [](const auto& i) { return i.param.name(); });

class HptProbRealTrace : public ::testing::TestWithParam<TraceCase> {};

// Every shipped trace's descriptors back to back through the 128 x 4 build
// with the 128 x 4 x (12 + 14) probation area under lfu+prob (freq, and
// insns without skew), a dump in mid-stream, 5% dump backpressure; the
// final dump and the counters equal HptAlgo with the same area run straight
// over the descriptors.
TEST_P(HptProbRealTrace, LockstepEveryCycleAndFinalTableEqualsHptAlgo) {
  const TraceCase tc = GetParam();
  SimEnv env = SimEnv::from_env();
  const auto& ds = trace_descriptors(tc.path);
  ASSERT_GT(ds.size(), 1000u);
  Driver drv(prob_big(), env.seed);
  HptAlgo direct(prob_big().table.sets, prob_big().table.ways, {}, prob_big().prob);
  ASSERT_TRUE(HptCtrl::unpack(tc.ctrl).is_lfu_prob());
  try {
    EXPECT_GT(shipped_trace_lockstep(tc, ds, drv, direct).rejects, 0u);
  } catch (const LockstepMismatch& e) {
    FAIL() << tc.path << " " << tc.mode << ": " << e.what();
  }
}

std::vector<TraceCase> prob_trace_cases() {
  std::vector<TraceCase> v;
  for (const auto& p : hwprof::tb::shipped_traces()) {
    v.push_back({p, "lfu_prob", ctrl_prob()});
    v.push_back({p, "lfu_prob_insns_noskew", ctrl_prob(HptMetric::Insns, false)});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(HptProbShipped, HptProbRealTrace, ::testing::ValuesIn(prob_trace_cases()),
                         [](const auto& i) { return hwprof::tb::trace_test_name(i.param.path) + "_" + i.param.mode; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HptProbRealTrace);

}  // namespace
