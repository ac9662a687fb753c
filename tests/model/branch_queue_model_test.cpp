// Model-only tests: record packing, classification, FIFO model properties.
#include <boost/test/unit_test.hpp>

#include <deque>
#include <random>

#include "branch_queue.h"
#include "branch_record.h"
#include "retire_replay.h"
#include "trace_source.h"

using namespace hwprof::model;

BOOST_AUTO_TEST_SUITE(branch_record)

BOOST_AUTO_TEST_CASE(PacksAsTheSystemVerilogStruct) {
  BranchRecord r{5, 0xdeadbeef, 0x12345678, true, 0xa, 0xbeef, 0x5a};
  auto w = r.pack();
  // kind in bits 95:93, events in 7:0, insns in 23:8, ilen 27:24, taken 28.
  BOOST_TEST((w[2] >> 29) == 5u);
  BOOST_TEST((w[0] & 0xff) == 0x5au);
  BOOST_TEST(((w[0] >> 8) & 0xffff) == 0xbeefu);
  BOOST_TEST(((w[0] >> 24) & 0xf) == 0xau);
  BOOST_TEST(((w[0] >> 28) & 1) == 1u);
  BOOST_TEST((BranchRecord::unpack(w) == r));
  std::mt19937_64 rng(1);
  for (int i = 0; i < 1000; ++i) {
    BranchRecord x{static_cast<uint8_t>(rng() % 6), static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng()),
                   (rng() & 1) != 0, static_cast<uint8_t>(rng() % 16), static_cast<uint16_t>(rng()),
                   static_cast<uint8_t>(rng())};
    BOOST_REQUIRE((BranchRecord::unpack(x.pack()) == x));
  }
}

BOOST_AUTO_TEST_CASE(SaturatesCountsAndTruncatesAddresses) {
  hwprof::trace::Record t;
  t.kind = hwprof::trace::Kind::Jmp;
  t.pc = 0x40028fc7e1;
  t.target = 0x4002800000;
  t.taken = true;
  t.ilen = 5;
  t.insns = 70000;
  t.events = 300;
  auto b = hwprof::trace::branch_record(t);
  BOOST_TEST(b.pc == 0x028fc7e1u);
  BOOST_TEST(b.insns == 0xffffu);
  BOOST_TEST(b.events == 0xffu);
}

BOOST_AUTO_TEST_CASE(ClassifiesAsTable1OfPaper000) {
  auto rec = [](uint8_t k, uint32_t pc, uint32_t tgt, bool taken) { return BranchRecord{k, pc, tgt, taken, 2, 1, 0}; };
  BOOST_TEST((classify(rec(0, 100, 50, true)) == BranchClass::Backward));
  BOOST_TEST((classify(rec(0, 100, 100, true)) == BranchClass::Backward));  // target <= pc
  BOOST_TEST((classify(rec(0, 100, 50, false)) == BranchClass::Forward));   // not taken
  BOOST_TEST((classify(rec(0, 100, 150, true)) == BranchClass::Forward));
  BOOST_TEST((classify(rec(1, 100, 50, true)) == BranchClass::Backward));
  BOOST_TEST((classify(rec(2, 100, 50, true)) == BranchClass::Indirect));
  BOOST_TEST((classify(rec(3, 100, 50, true)) == BranchClass::Call));
  BOOST_TEST((classify(rec(4, 100, 500, true)) == BranchClass::Call));
  BOOST_TEST((classify(rec(5, 100, 50, true)) == BranchClass::Return));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(branch_queue_model)

BOOST_AUTO_TEST_CASE(BehavesAsABoundedQueue) {
  for (unsigned depth : {1u, 2u, 3u, 4u, 16u}) {
    BranchQueue q(depth);
    std::deque<uint32_t> ref;
    std::mt19937_64 rng(depth);
    uint32_t next = 0;
    for (int c = 0; c < 5000; ++c) {
      BranchQueue::In in;
      in.enq_valid = rng() & 1;
      in.enq_data.pc = next;
      in.deq_ready = rng() & 1;
      auto o = q.step(in);
      BOOST_REQUIRE_EQUAL(o.count, ref.size());
      BOOST_REQUIRE_EQUAL(o.enq_ready, ref.size() < depth);
      BOOST_REQUIRE_EQUAL(o.deq_valid, !ref.empty());
      if (o.deq_valid) BOOST_REQUIRE_EQUAL(o.deq_data.pc, ref.front());
      if (o.deq_valid && in.deq_ready) ref.pop_front();
      if (in.enq_valid && o.enq_ready) ref.push_back(next++);
    }
  }
}

// Hand-computed replay: 4-wide retire, records of 1, 9 and 2 instructions.
BOOST_AUTO_TEST_CASE(RetireReplayCountsCyclesAsDocumented) {
  std::vector<BranchRecord> recs = {
      {0, 10, 20, true, 2, 1, 0},   // forward, branch alone: offered in cycle 0
      {0, 30, 5, true, 2, 9, 0},    // backward: 8 plain (3 slots left in c0, 4 in c1, 1 in c2) -> c2
      {5, 40, 0, true, 1, 2, 0},    // return: 1 plain in c2 after the branch... -> c3
  };
  auto src = [&](size_t& i) { return [&recs, &i](BranchRecord& r) { return i < recs.size() ? (r = recs[i++], true) : false; }; };
  size_t i1 = 0, i2 = 0;
  BranchQueue q(4);
  ReplayConfig cfg;
  auto st = replay(q, src(i1), src(i2), cfg);
  BOOST_TEST(st.records == 3u);
  BOOST_TEST(st.instructions == 12u);
  BOOST_TEST(st.retire_cycles == 4u);  // last branch retires in cycle 3
  BOOST_TEST(st.ideal_retire_cycles == 4u);
  BOOST_TEST(st.enq_stall_cycles == 0u);
  // Depth 0 (no queue): the backward record keeps the profiler busy 5 cycles.
  size_t j1 = 0, j2 = 0;
  BranchQueue none(0);
  auto st0 = replay(none, src(j1), src(j2), cfg);
  BOOST_TEST(st0.retire_cycles > st.retire_cycles);
  BOOST_TEST(st0.enq_stall_cycles == st0.retire_cycles - st.retire_cycles);
}

BOOST_AUTO_TEST_SUITE_END()
