// Directed lock-step tests of RAP engine corners that the other tests do not
// reach (make coverage holes, docs/verification.md "RAP engine"): a
// scheduled pass that starts at the end of a capacity pass, next_merge
// doubling several times at the end of one pass, and STATUS writes that do
// not clear err. Model and RTL in lock-step every cycle (tb/rap/rap_both.h);
// after each stream the dumped tree is compared with RapTree fed with the
// buffered stream, and the counters with its statistics. The expected
// counts are traced by hand in the comments (docs/rap.md, docs/rap_engine.md).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gtest_util.h"
#include "rap_both.h"
#include "rap_engine_lockstep.h"
#include "rap_replay.h"

using hwprof::model::kRapStErr;
using hwprof::model::RapCsr;
using hwprof::model::RapEvent;
using hwprof::model::RapEventSource;
using hwprof::model::RapReplayConfig;
using hwprof::model::RapReplayResult;
using hwprof::tb::kRapSmall;
using hwprof::tb::kRapSmallFf;

namespace {

using Both = hwprof::tb::RapBoth;

RapEventSource corner_source(const std::vector<RapEvent>& v) {
  auto i = std::make_shared<size_t>(0);
  return [&v, i](RapEvent& e) {
    if (*i >= v.size()) return false;
    e = v[(*i)++];
    return true;
  };
}

RapReplayResult corner_run(Both& b, const std::vector<RapEvent>& ev, const RapReplayConfig& rc) {
  return hwprof::tb::rap_run_and_check(b, corner_source(ev), corner_source(ev), rc);
}

}  // namespace

// NodeCap 5 (one group), MergeFirst 2, eps 0.1, buffer off, W = 8. Event 1
// (0x00, 1): n = 1, root count 1 > T(1) = 0: split (the root's group). Event
// 2 (0x00, 1): leaf 00/1 count 1 > T(2) = 0, no free group, full clear: a
// capacity pass; n = 2 >= MergeFirst at the same commit, so the scheduled
// pass is pending. The capacity pass frees nothing (the group's sum is 2 >
// T(2) = 0): full is set, the split skipped, and the pending scheduled pass
// starts at the capacity pass's last cycle (no TCAM write in between), then
// clears full. Both TCAM variants.
TEST(RapCorner, ScheduledPassRightAfterCapacityPass) {
  for (const auto& cfg : {kRapSmall, kRapSmallFf}) {
    SCOPED_TRACE("TcamSlice " + std::to_string(cfg.tcam_slice));
    Both b(cfg, 21, hwprof::tb::current_test_name() + "_t" + std::to_string(cfg.tcam_slice));
    RapReplayConfig rc;
    rc.eps_q16 = 6554;
    rc.node_cap = 5;
    rc.merge_first = 2;
    rc.buffer = 0;
    const std::vector<RapEvent> ev = {{0x00, 1}, {0x00, 1}};
    const RapReplayResult r = corner_run(b, ev, rc);
    EXPECT_EQ(r.counters.splits, 1u);
    EXPECT_EQ(r.counters.cap, 1u);
    EXPECT_EQ(r.counters.skipped, 1u);
    EXPECT_EQ(r.counters.sched, 1u);
    EXPECT_EQ(r.counters.merges, 0u);
    // Groups in use + H + 1 (drain) cycles per pass (1 + 4 + 1), both passes.
    EXPECT_EQ(r.counters.stall_cap, 6u);
    EXPECT_EQ(r.counters.stall_sched, 6u);
    EXPECT_EQ(r.counters.status & hwprof::model::kRapStFull, 0u);  // the scheduled pass cleared it
  }
}

// MergeFirst 1, eps 0.1, buffer off, W = 8. Event (0x00, 5): n jumps from 0
// to 5 >= 1: a scheduled pass, at whose end next_merge doubles three times
// in one step (1 -> 2 -> 4 -> 8, the first value above n = 5). Then three
// events of weight 1: n = 6, 7 (no pass) and 8 (the second pass). Doubling
// only once (next_merge 2) would run passes at n = 6 and 8: three in all.
TEST(RapCorner, NextMergeDoublesSeveralTimesInOnePass) {
  for (const auto& cfg : {kRapSmall, kRapSmallFf}) {
    SCOPED_TRACE("TcamSlice " + std::to_string(cfg.tcam_slice));
    Both b(cfg, 22, hwprof::tb::current_test_name() + "_t" + std::to_string(cfg.tcam_slice));
    RapReplayConfig rc;
    rc.eps_q16 = 6554;
    rc.merge_first = 1;
    rc.buffer = 0;
    const std::vector<RapEvent> ev = {{0x00, 5}, {0x40, 1}, {0x80, 1}, {0xc0, 1}};
    const RapReplayResult r = corner_run(b, ev, rc);
    EXPECT_EQ(r.counters.n, 8u);
    EXPECT_EQ(r.counters.sched, 2u);
  }
  // A jump far past the threshold: one event of weight 0xffff after
  // MergeFirst 1 doubles 16 times (1 -> 65536); the next pass is at n = 65536.
  Both b(kRapSmall, 23);
  RapReplayConfig rc;
  rc.eps_q16 = 6554;
  rc.merge_first = 1;
  rc.buffer = 0;
  const std::vector<RapEvent> ev = {{0x12, 0xffff}, {0x34, 1}};
  const RapReplayResult r = corner_run(b, ev, rc);
  EXPECT_EQ(r.counters.sched, 2u);  // at n = 65535 and at n = 65536
}

// STATUS writes: only a 1 in bit 0 (err) clears err; a write of STATUS
// with bit 0 clear (other bits set, or zero) leaves it set; the other
// STATUS bits are read-only. Both TCAM variants.
TEST(RapCorner, StatusWriteWithoutErrBitKeepsErr) {
  for (const auto& cfg : {kRapSmall, kRapSmallFf}) {
    SCOPED_TRACE("TcamSlice " + std::to_string(cfg.tcam_slice));
    Both b(cfg, 24, hwprof::tb::current_test_name() + "_t" + std::to_string(cfg.tcam_slice));
    EXPECT_EQ(b.read(RapCsr::Status) & kRapStErr, 0u);
    b.write(RapCsr::Status, 0);  // err clear, bit 0 clear: nothing changes
    EXPECT_EQ(b.read(RapCsr::Status) & kRapStErr, 0u);
    b.write(RapCsr::MergeFirst, 0);  // illegal: sets err
    EXPECT_NE(b.read(RapCsr::Status) & kRapStErr, 0u);
    b.write(RapCsr::Status, 0);
    EXPECT_NE(b.read(RapCsr::Status) & kRapStErr, 0u);
    b.write(RapCsr::Status, ~kRapStErr);  // every other bit: still set
    EXPECT_NE(b.read(RapCsr::Status) & kRapStErr, 0u);
    b.write(RapCsr::Status, kRapStErr);  // W1C
    EXPECT_EQ(b.read(RapCsr::Status) & kRapStErr, 0u);
    b.write(RapCsr::Status, 0xffffffffu);  // W1C of a clear flag: stays clear
    EXPECT_EQ(b.read(RapCsr::Status) & kRapStErr, 0u);
  }
}
