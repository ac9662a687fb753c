// Directed tests of the DCR phase tracker's functional model (DcrStack,
// DcrSigTable, DcrAlgo; sim_models/phase/dcr_algo.h) against docs/dcr.md
// and paper 003. Every expected value is worked out by hand in the
// comments from the document (the one hash value is computed bit by bit;
// elsewhere signatures are compared with each other, never with a value a
// helper computed the model's way).
#include <boost/test/unit_test.hpp>

#include <optional>
#include <stdexcept>
#include <vector>

#include "dcr_algo.h"

using namespace hwprof::model;

namespace {

constexpr uint8_t kBr = 0, kJmp = 1, kIjmp = 2, kCall = 3, kIcall = 4, kRet = 5;

BranchRecord rec(uint8_t kind, uint32_t pc, uint32_t target, bool taken, uint8_t ilen, uint16_t insns = 10) {
  BranchRecord r;
  r.kind = kind;
  r.pc = pc;
  r.target = target;
  r.taken = taken;
  r.ilen = ilen;
  r.insns = insns;
  return r;
}
BranchRecord call(uint32_t pc, uint32_t target, uint16_t insns = 10) { return rec(kCall, pc, target, true, 5, insns); }
BranchRecord ret(uint32_t pc, uint32_t target, uint16_t insns = 10) { return rec(kRet, pc, target, true, 1, insns); }
BranchRecord back(uint32_t pc, uint32_t target, uint16_t insns = 10) { return rec(kBr, pc, target, true, 6, insns); }
BranchRecord br(uint32_t pc, uint32_t target, bool taken, uint16_t insns = 10) {
  return rec(kBr, pc, target, taken, 6, insns);
}

void check_entry(const DcrStack& s, unsigned i, DcrKind k, uint32_t a, uint32_t b) {
  BOOST_REQUIRE_LT(i, s.size());
  const DcrEntry& e = s.entry(i);
  BOOST_CHECK_MESSAGE(e.kind == k && e.a == a && e.b == b,
                      "entry " << i << ": kind " << int(e.kind) << " a " << std::hex << e.a << " b " << e.b);
}

// The Fig. 1 program of paper 003, laid out at these addresses:
//   _start: 0x0100 call main (0x1000)
//   main:   0x1010 call func1 (0x2000); loop0 = [0x1020, 0x1060] (jmp at
//           0x1060 -> 0x1020; br at 0x1030 -> 0x1070 leaves it);
//           0x1080 call func3 (0x3000)
//   func1:  loop1 = [0x2010, 0x2040] (br at 0x2040 -> 0x2010); ret at 0x2050
//   func3:  loop3 = [0x3010, 0x3030] (br at 0x3030 -> 0x3010); ret at 0x3050
// Every record carries 10 instructions; the interval is 100, so every tenth
// record ends an interval.
struct Fig1 {
  DcrAlgo algo;
  std::vector<DcrResult> res;
  Fig1() : algo(make()) {}
  static DcrParams make() {
    DcrParams p;
    p.interval = 100;
    return p;
  }
  void feed(const BranchRecord& r, unsigned times = 1) {
    for (unsigned i = 0; i < times; ++i)
      if (auto x = algo.step(r)) res.push_back(*x);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(dcr_algo)

BOOST_AUTO_TEST_CASE(hash_step_follows_documented_formula) {
  // rotl(0x811C9DC5, 5) = 0x2393B8A0 | 0x10 = 0x2393B8B0; ^ a (0x100) =
  // 0x2393B9B0. rotl(0x1000, 16) = 0x10000000; ^ func salt 0x7F4A7C15 =
  // 0x6F4A7C15. Sum: 0x2393B9B0 + 0x6F4A7C15 = 0x92DE35C5.
  BOOST_CHECK_EQUAL(DcrStack::hash_step(DcrStack::kEmptyHash, DcrKind::Func, 0x100, 0x1000), 0x92DE35C5u);
  DcrStack s(4);
  s.process(call(0x100, 0x1000));
  BOOST_CHECK_EQUAL(s.entry(0).hash, 0x92DE35C5u);
  // The same addresses as a loop use the loop salt: a different hash.
  BOOST_CHECK_NE(DcrStack::hash_step(DcrStack::kEmptyHash, DcrKind::Loop, 0x100, 0x1000), 0x92DE35C5u);
}

BOOST_AUTO_TEST_CASE(fig1_program_shape_gives_one_phase_per_region) {
  namespace f = dcr_flag;
  Fig1 t;
  // Interval 1: call main, call func1, 8 loop1 iterations. Everything was
  // pushed in this interval, so nothing is stable: depth 0, the empty hash.
  t.feed(call(0x0100, 0x1000));
  t.feed(call(0x1010, 0x2000));
  t.feed(back(0x2040, 0x2010), 8);
  BOOST_REQUIRE_EQUAL(t.res.size(), 1u);
  BOOST_CHECK_EQUAL(t.algo.stack().size(), 3u);  // main, func1, loop1: iterations did not push
  check_entry(t.algo.stack(), 0, DcrKind::Func, 0x0100, 0x1000);
  check_entry(t.algo.stack(), 1, DcrKind::Func, 0x1010, 0x2000);
  check_entry(t.algo.stack(), 2, DcrKind::Loop, 0x2010, 0x2040);
  BOOST_CHECK_EQUAL(t.res[0].phase, 0);
  BOOST_CHECK_EQUAL(t.res[0].sig_depth, 0);
  BOOST_CHECK_EQUAL(t.res[0].sig_hash, DcrStack::kEmptyHash);
  BOOST_CHECK_EQUAL(t.res[0].predicted, 0);  // untrained: stays
  BOOST_CHECK_EQUAL(t.res[0].flags, f::kNew | f::kChanged);
  // Interval 2: loop1 only. main -> func1 -> loop1 stable: depth 3, phase 1.
  t.feed(back(0x2040, 0x2010), 10);
  BOOST_REQUIRE_EQUAL(t.res.size(), 2u);
  BOOST_CHECK_EQUAL(t.res[1].phase, 1);
  BOOST_CHECK_EQUAL(t.res[1].sig_depth, 3);
  BOOST_CHECK_EQUAL(t.res[1].sig_hash, t.algo.stack().entry(2).hash);
  BOOST_CHECK_EQUAL(t.res[1].predicted, 1);  // slot 1 untrained
  BOOST_CHECK_EQUAL(t.res[1].flags, f::kNew | f::kChanged | f::kScored);  // predicted 0, was 1
  // Interval 3: loop1 exits by fall-through (not-taken back edge: next =
  // 0x2046 > 0x2040), func1 returns to 0x1015, loop0 is entered (8 jmp
  // iterations). Only main stayed: depth 1, phase 2.
  t.feed(br(0x2040, 0x2010, false));
  BOOST_CHECK_EQUAL(t.algo.stack().size(), 2u);
  t.feed(ret(0x2050, 0x1015));
  BOOST_CHECK_EQUAL(t.algo.stack().size(), 1u);
  t.feed(rec(kJmp, 0x1060, 0x1020, true, 2), 8);
  BOOST_REQUIRE_EQUAL(t.res.size(), 3u);
  check_entry(t.algo.stack(), 1, DcrKind::Loop, 0x1020, 0x1060);
  BOOST_CHECK_EQUAL(t.res[2].phase, 2);
  BOOST_CHECK_EQUAL(t.res[2].sig_depth, 1);
  BOOST_CHECK_EQUAL(t.res[2].sig_hash, 0x92DE35C5u);  // main alone (computed above)
  BOOST_CHECK_EQUAL(t.res[2].predicted, 2);
  BOOST_CHECK_EQUAL(t.res[2].flags, f::kNew | f::kChanged | f::kScored);
  // Interval 4: loop0 only: main -> loop0, depth 2, phase 3.
  t.feed(rec(kJmp, 0x1060, 0x1020, true, 2), 10);
  BOOST_CHECK_EQUAL(t.res[3].phase, 3);
  BOOST_CHECK_EQUAL(t.res[3].sig_depth, 2);
  // Interval 5: loop0 exits by a taken branch to 0x1070, func3 is called,
  // loop3 runs 8 times: only main stable again -> phase 2 (a hit).
  t.feed(br(0x1030, 0x1070, true));
  BOOST_CHECK_EQUAL(t.algo.stack().size(), 1u);
  t.feed(call(0x1080, 0x3000));
  t.feed(back(0x3030, 0x3010), 8);
  BOOST_REQUIRE_EQUAL(t.res.size(), 5u);
  BOOST_CHECK_EQUAL(t.res[4].phase, 2);
  BOOST_CHECK_EQUAL(t.res[4].sig_depth, 1);
  // The prediction of interval 4 was 3 (slot 3 untrained): wrong. Slot 2
  // was trained with 3 at interval 4, so the prediction is now 3.
  BOOST_CHECK_EQUAL(t.res[4].predicted, 3);
  BOOST_CHECK_EQUAL(t.res[4].flags, f::kChanged | f::kScored);
  // Interval 6 and 7: loop3: main -> func3 -> loop3, phase 4, then again.
  t.feed(back(0x3030, 0x3010), 20);
  BOOST_REQUIRE_EQUAL(t.res.size(), 7u);
  BOOST_CHECK_EQUAL(t.res[5].phase, 4);
  BOOST_CHECK_EQUAL(t.res[5].sig_depth, 3);
  BOOST_CHECK_EQUAL(t.res[5].flags, f::kNew | f::kChanged | f::kScored);  // predicted 3
  BOOST_CHECK_EQUAL(t.res[6].phase, 4);
  BOOST_CHECK_EQUAL(t.res[6].predicted, 4);
  BOOST_CHECK_EQUAL(t.res[6].flags, f::kScored | f::kCorrect);  // predicted 4 (untrained slot 4)
  BOOST_CHECK_NE(t.res[5].sig_hash, t.res[1].sig_hash);
  // Back to func1: ret pops loop3 and func3, call func1, loop1 8 times
  // (phase 2 again: main alone), then a whole interval of loop1: phase 1.
  t.feed(ret(0x3050, 0x1085));
  BOOST_CHECK_EQUAL(t.algo.stack().size(), 1u);
  t.feed(call(0x1010, 0x2000));
  t.feed(back(0x2040, 0x2010), 18);
  BOOST_REQUIRE_EQUAL(t.res.size(), 9u);
  BOOST_CHECK_EQUAL(t.res[7].phase, 2);
  BOOST_CHECK_EQUAL(t.res[8].phase, 1);
  BOOST_CHECK_EQUAL(t.res[8].sig_depth, 3);
  BOOST_CHECK_EQUAL(t.res[8].sig_hash, t.res[1].sig_hash);
  const DcrStats& st = t.algo.stats();
  BOOST_CHECK_EQUAL(st.records, 90u);
  BOOST_CHECK_EQUAL(st.intervals, 9u);
  BOOST_CHECK_EQUAL(st.new_phases, 5u);
  // Pushes: main, func1, loop1, loop0, func3, loop3, func1, loop1 = 8.
  // Pops: loop1, func1, loop0, loop3 + func3 = 5.
  BOOST_CHECK_EQUAL(st.pushes, 8u);
  BOOST_CHECK_EQUAL(st.pops, 5u);
  BOOST_CHECK_EQUAL(st.overflows + st.recursions + st.resyncs + st.evictions, 0u);
}

BOOST_AUTO_TEST_CASE(loop_iterations_and_inner_branches_do_not_push) {
  DcrStack s(8);
  s.process(back(0x2040, 0x2010));
  for (int i = 0; i < 50; ++i) {
    // A forward branch inside the loop (taken and not), an indirect jump
    // inside it, the back edge.
    BOOST_CHECK_EQUAL(s.process(br(0x2020, 0x2030, true)).pops, 0u);
    BOOST_CHECK_EQUAL(s.process(br(0x2020, 0x2030, false)).pops, 0u);
    BOOST_CHECK_EQUAL(s.process(rec(kIjmp, 0x2024, 0x2040, true, 2)).pops, 0u);
    const DcrStackOp op = s.process(back(0x2040, 0x2010));
    BOOST_CHECK(op.iteration);
    BOOST_CHECK_EQUAL(op.pushes, 0u);
  }
  BOOST_CHECK_EQUAL(s.size(), 1u);
  // A branch to the loop end itself (next == b) and to the start stay inside.
  BOOST_CHECK_EQUAL(s.process(br(0x2030, 0x2040, true)).pops, 0u);
  BOOST_CHECK_EQUAL(s.process(rec(kJmp, 0x2030, 0x2010, true, 2)).pushes, 1u);  // a different back edge: new loop
  BOOST_CHECK_EQUAL(s.size(), 2u);
}

BOOST_AUTO_TEST_CASE(loop_exit_by_fall_through_and_by_taken_branch) {
  DcrStack s(8);
  s.process(back(0x2040, 0x2010));
  // Not-taken back edge: next = 0x2040 + 6 = 0x2046 > b: exit.
  DcrStackOp op = s.process(br(0x2040, 0x2010, false));
  BOOST_CHECK_EQUAL(op.pops, 1u);
  BOOST_CHECK_EQUAL(s.size(), 0u);
  s.process(back(0x2040, 0x2010));
  // A taken forward branch out of the loop.
  op = s.process(br(0x2020, 0x2100, true));
  BOOST_CHECK_EQUAL(op.pops, 1u);
  // A taken branch below the loop start (next < a), as an indirect jump.
  s.process(back(0x2040, 0x2010));
  op = s.process(rec(kIjmp, 0x2020, 0x200f, true, 2));
  BOOST_CHECK_EQUAL(op.pops, 1u);
  // Calls and returns never exit a loop by themselves: a call from inside a
  // loop pushes a function above it.
  s.process(back(0x2040, 0x2010));
  op = s.process(call(0x2020, 0x5000));
  BOOST_CHECK_EQUAL(op.pops, 0u);
  BOOST_CHECK_EQUAL(s.size(), 2u);
}

BOOST_AUTO_TEST_CASE(outer_back_edge_pops_inner_loop_then_iterates) {
  DcrStack s(8);
  s.process(back(0x1080, 0x1000));  // outer [0x1000, 0x1080]
  s.process(back(0x1040, 0x1020));  // inner [0x1020, 0x1040]
  BOOST_CHECK_EQUAL(s.size(), 2u);
  // The outer back edge: next 0x1000 < 0x1020 pops the inner loop, then the
  // outer loop is on top with (a, b) = (target, pc): an iteration.
  const DcrStackOp op = s.process(back(0x1080, 0x1000));
  BOOST_CHECK_EQUAL(op.pops, 1u);
  BOOST_CHECK(op.iteration);
  BOOST_CHECK_EQUAL(op.pushes, 0u);
  BOOST_CHECK_EQUAL(s.size(), 1u);
  // Several loops exit at once: three nested loops, a branch out of all.
  s.process(back(0x1040, 0x1020));
  s.process(back(0x1038, 0x1030));
  BOOST_CHECK_EQUAL(s.size(), 3u);
  BOOST_CHECK_EQUAL(s.process(br(0x1034, 0x2000, true)).pops, 3u);
  // ... stopping at a function entry: a function below the loops is not
  // popped by a branch.
  s.process(call(0x1000, 0x3000));
  s.process(back(0x3040, 0x3010));
  BOOST_CHECK_EQUAL(s.process(br(0x3020, 0x9000, true)).pops, 1u);
  BOOST_CHECK_EQUAL(s.size(), 1u);
}

BOOST_AUTO_TEST_CASE(return_pops_loops_above_top_function_then_the_function) {
  DcrStack s(8);
  s.process(call(0x100, 0x1000));
  s.process(back(0x1040, 0x1010));
  s.process(call(0x1020, 0x2000));
  s.process(back(0x2040, 0x2010));
  s.process(back(0x2030, 0x2020));
  BOOST_CHECK_EQUAL(s.size(), 5u);
  // The return target is not checked in normal mode.
  DcrStackOp op = s.process(ret(0x2050, 0xdead));
  BOOST_CHECK_EQUAL(op.pops, 3u);
  BOOST_CHECK_EQUAL(s.size(), 2u);
  // A return with only loops above the bottom function pops them and it.
  op = s.process(ret(0x1050, 0x105));
  BOOST_CHECK_EQUAL(op.pops, 2u);
  BOOST_CHECK_EQUAL(s.size(), 0u);
  // A return with no function entry at all pops every loop; on an empty
  // stack it does nothing.
  s.process(back(0x1040, 0x1010));
  BOOST_CHECK_EQUAL(s.process(ret(0x1050, 0x105)).pops, 1u);
  BOOST_CHECK_EQUAL(s.process(ret(0x1050, 0x105)).pops, 0u);
}

BOOST_AUTO_TEST_CASE(direct_recursion_sets_bit_freezes_and_resyncs_at_caller) {
  DcrStack s(8);
  s.process(call(0x100, 0x1000));   // main
  s.process(call(0x1010, 0x2000));  // f, returns to 0x1015
  s.process(back(0x2040, 0x2010));  // a loop in f
  // f calls f from 0x2020 (icall): target 0x2000 == entry 1's b.
  DcrStackOp op = s.process(rec(kIcall, 0x2020, 0x2000, true, 2));
  BOOST_CHECK(op.recursion);
  BOOST_CHECK_EQUAL(op.pushes, 0u);
  BOOST_CHECK(s.skip());
  BOOST_CHECK(s.entry(1).recursion);
  BOOST_CHECK(!s.entry(0).recursion);
  // While skipping: calls push nothing, branches change nothing (the loop
  // on top stays although the branch leaves it), returns to the recursive
  // call site (0x2022) match nothing.
  BOOST_CHECK_EQUAL(s.process(call(0x2030, 0x4000)).pushes, 0u);
  BOOST_CHECK_EQUAL(s.process(br(0x2024, 0x9000, true)).pops, 0u);
  BOOST_CHECK_EQUAL(s.process(back(0x9040, 0x9000)).pushes, 0u);
  BOOST_CHECK_EQUAL(s.process(ret(0x4010, 0x2035)).pops, 0u);
  BOOST_CHECK_EQUAL(s.process(ret(0x2050, 0x2022)).pops, 0u);
  BOOST_CHECK_EQUAL(s.size(), 3u);
  BOOST_CHECK(s.skip());
  // The outermost f returns to main's call site + 5 = 0x1015: f and the
  // loop above it are flushed, normal operation resumes.
  op = s.process(ret(0x2050, 0x1015));
  BOOST_CHECK(op.resync);
  BOOST_CHECK_EQUAL(op.pops, 2u);
  BOOST_CHECK(!s.skip());
  BOOST_CHECK_EQUAL(s.size(), 1u);
  BOOST_CHECK_EQUAL(s.process(call(0x1020, 0x3000)).pushes, 1u);
}

BOOST_AUTO_TEST_CASE(mutual_recursion_matches_only_at_or_below_boundary) {
  DcrStack s(8);
  s.process(call(0x100, 0x1000));   // main (returns to 0x105)
  s.process(call(0x1010, 0x2000));  // f, returns to 0x1015
  s.process(call(0x2010, 0x3000));  // g, returns to 0x2015
  // g calls f: recursion, the bit goes on f (entry 1), the deepest function
  // entry with b == 0x2000.
  BOOST_CHECK(s.process(call(0x3010, 0x2000)).recursion);
  BOOST_CHECK(s.entry(1).recursion);
  BOOST_CHECK(!s.entry(2).recursion);
  // f calls g again: g's target is entry 2's b -> a recursion too, its bit
  // set; the boundary stays the lowest set bit (entry 1).
  BOOST_CHECK(s.process(call(0x2010, 0x3000)).recursion);
  BOOST_CHECK(s.entry(2).recursion);
  // The inner g returns into the inner f at 0x2015 == g's entry's return
  // address, but entry 2 lies above the boundary: no match.
  BOOST_CHECK_EQUAL(s.process(ret(0x3050, 0x2015)).pops, 0u);
  BOOST_CHECK(s.skip());
  // Inner f returns into g (0x3015): nothing. g returns to f (0x2015):
  // nothing. The outer f returns to main (0x1015): entry 1 matches; it and
  // g are flushed.
  BOOST_CHECK_EQUAL(s.process(ret(0x2050, 0x3015)).pops, 0u);
  BOOST_CHECK_EQUAL(s.process(ret(0x3050, 0x2015)).pops, 0u);
  const DcrStackOp op = s.process(ret(0x2050, 0x1015));
  BOOST_CHECK(op.resync);
  BOOST_CHECK_EQUAL(op.pops, 2u);
  BOOST_CHECK_EQUAL(s.size(), 1u);
  BOOST_CHECK(!s.skip());
  BOOST_CHECK(!s.snapshot().recursion);
}

BOOST_AUTO_TEST_CASE(overflow_refuses_push_and_resyncs_on_return_to_an_entry) {
  DcrStack s(4);
  s.process(call(0x100, 0x1000));   // ret 0x105
  s.process(call(0x1010, 0x2000));  // ret 0x1015
  s.process(call(0x2010, 0x3000));  // ret 0x2015
  s.process(call(0x3010, 0x4000));  // ret 0x3015
  BOOST_CHECK_EQUAL(s.size(), 4u);
  DcrStackOp op = s.process(call(0x4010, 0x5000));  // full
  BOOST_CHECK(op.overflow);
  BOOST_CHECK_EQUAL(op.pushes, 0u);
  BOOST_CHECK(s.skip());
  BOOST_CHECK(s.overflowed());
  BOOST_CHECK(s.snapshot().overflow && s.snapshot().skip && !s.snapshot().recursion);
  // The lost frame returns to 0x4015: matches no entry's return address.
  BOOST_CHECK_EQUAL(s.process(ret(0x5050, 0x4015)).pops, 0u);
  // Then the frame of entry 3 returns to 0x3015: entry 3 goes.
  op = s.process(ret(0x4050, 0x3015));
  BOOST_CHECK(op.resync);
  BOOST_CHECK_EQUAL(op.pops, 1u);
  BOOST_CHECK(!s.skip());
  BOOST_CHECK_EQUAL(s.size(), 3u);
  // A loop push on a full stack overflows too.
  s.process(call(0x3010, 0x4000));
  BOOST_CHECK(s.process(back(0x4040, 0x4010)).overflow);
  // A later return to a deeper caller (0x1015, entry 1) flushes entries 1..3.
  BOOST_CHECK_EQUAL(s.process(ret(0x4050, 0x1015)).pops, 3u);
  BOOST_CHECK_EQUAL(s.size(), 1u);
  // start_interval clears the overflow flag.
  s.start_interval();
  BOOST_CHECK(!s.overflowed());
}

BOOST_AUTO_TEST_CASE(stable_bits_and_signature_run_from_bottom) {
  DcrStack s(8);
  s.process(call(0x100, 0x1000));
  s.process(call(0x1010, 0x2000));
  s.start_interval();
  BOOST_CHECK_EQUAL(s.snapshot().depth, 2u);
  // Pop f and push it again: the new entry is unstable (depth 1) although
  // its hash equals the old one's.
  const uint32_t h = s.entry(1).hash;
  s.process(ret(0x2050, 0x1015));
  s.process(call(0x1010, 0x2000));
  BOOST_CHECK_EQUAL(s.entry(1).hash, h);
  BOOST_CHECK_EQUAL(s.snapshot().depth, 1u);
  BOOST_CHECK_EQUAL(s.snapshot().hash, s.entry(0).hash);
  // An empty stack: depth 0 and the empty hash.
  DcrStack e(2);
  BOOST_CHECK_EQUAL(e.snapshot().depth, 0u);
  BOOST_CHECK_EQUAL(e.snapshot().hash, DcrStack::kEmptyHash);
}

BOOST_AUTO_TEST_CASE(signature_table_lru_eviction) {
  DcrSigTable t(2);
  // Uses: A@0 -> slot 0 id 0; B@1 -> slot 1 id 1; A@2 hit (stamp 2);
  // C@3 misses, LRU is B (stamp 1) -> slot 1 id 2, evicted;
  // B@4 misses, LRU is A (stamp 2 < 3) -> slot 0 id 3.
  DcrLookup l = t.lookup(0xA);
  BOOST_CHECK(!l.hit && !l.evicted && l.slot == 0 && l.phase == 0);
  l = t.lookup(0xB);
  BOOST_CHECK(!l.hit && !l.evicted && l.slot == 1 && l.phase == 1);
  l = t.lookup(0xA);
  BOOST_CHECK(l.hit && l.slot == 0 && l.phase == 0);
  l = t.lookup(0xC);
  BOOST_CHECK(!l.hit && l.evicted && l.slot == 1 && l.phase == 2);
  l = t.lookup(0xB);
  BOOST_CHECK(!l.hit && l.evicted && l.slot == 0 && l.phase == 3);
  l = t.lookup(0xC);
  BOOST_CHECK(l.hit && l.phase == 2);
  BOOST_CHECK_EQUAL(t.uses(), 6u);
  t.clear();
  l = t.lookup(0xC);
  BOOST_CHECK(!l.hit && l.slot == 0 && l.phase == 0);
}

BOOST_AUTO_TEST_CASE(phase_ids_wrap_after_65536_new_phases) {
  DcrSigTable t(4);
  for (uint32_t i = 0; i < 65536; ++i) BOOST_REQUIRE_EQUAL(t.lookup(0x1000 + i).phase, i);
  const DcrLookup l = t.lookup(0xdeadbeef);  // the 65,537th signature
  BOOST_CHECK(!l.hit && l.evicted);
  BOOST_CHECK_EQUAL(l.phase, 0);
  BOOST_CHECK_EQUAL(t.next_id(), 1);
}

BOOST_AUTO_TEST_CASE(markov_predictor_training_through_the_tracker) {
  namespace f = dcr_flag;
  DcrAlgo a;
  DcrSnapshot A, B;
  A.hash = 0x1111;
  B.hash = 0x2222;
  // Phases A=0, B=1 alternate. Predictions: 0 (untrained); 1 (slot 1
  // untrained; slot 0 := 1); 1 (slot 0; slot 1 := 0); 0; 1 ...
  std::vector<DcrResult> r;
  for (int i = 0; i < 6; ++i) r.push_back(a.classify(i % 2 ? B : A));
  BOOST_CHECK_EQUAL(r[0].predicted, 0);
  BOOST_CHECK_EQUAL(r[1].predicted, 1);
  BOOST_CHECK_EQUAL(r[2].predicted, 1);
  BOOST_CHECK_EQUAL(r[3].predicted, 0);
  BOOST_CHECK_EQUAL(r[4].predicted, 1);
  BOOST_CHECK_EQUAL(r[0].flags & (f::kScored | f::kCorrect), 0);
  BOOST_CHECK_EQUAL(r[1].flags & (f::kScored | f::kCorrect), f::kScored);  // predicted 0, got 1
  BOOST_CHECK_EQUAL(r[2].flags & (f::kScored | f::kCorrect), f::kScored);  // predicted 1, got 0
  BOOST_CHECK_EQUAL(r[3].flags & (f::kScored | f::kCorrect), f::kScored | f::kCorrect);
  BOOST_CHECK_EQUAL(r[4].flags & (f::kScored | f::kCorrect), f::kScored | f::kCorrect);
  BOOST_CHECK_EQUAL(a.stats().scored, 5u);
  BOOST_CHECK_EQUAL(a.stats().correct, 3u);
  // clear_table: ids restart, nothing scored, the first interval "changes".
  a.clear_table();
  const DcrResult c = a.classify(B);
  BOOST_CHECK_EQUAL(c.phase, 0);
  BOOST_CHECK_EQUAL(c.flags, f::kNew | f::kChanged);
}

BOOST_AUTO_TEST_CASE(interval_ends_at_boundary_without_drift) {
  DcrParams p;
  p.interval = 100;
  DcrAlgo a(p);
  // 60 -> 60: no end; 120: end (count 20); 80: no; 140: end (count 40);
  // 99 -> 139: end (39); 61 -> 100: end (0).
  const uint16_t insns[] = {60, 60, 60, 60, 99, 61};
  const bool want[] = {false, true, false, true, true, true};
  for (int i = 0; i < 6; ++i)
    BOOST_CHECK_EQUAL(a.step(br(0x10, 0x20, false, insns[i])).has_value(), want[i]);
  BOOST_CHECK_EQUAL(a.counter().count(), 0u);
  BOOST_CHECK_THROW(DcrAlgo(DcrParams{32, 64, 256, 0}), std::invalid_argument);
  BOOST_CHECK_THROW(DcrStack(0), std::invalid_argument);
  BOOST_CHECK_THROW(DcrSigTable(0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(restart_clears_stack_and_count_but_keeps_the_table) {
  DcrParams p;
  p.interval = 100;
  DcrAlgo a(p);
  a.step(call(0x100, 0x1000, 50));
  a.step(call(0x1010, 0x2000, 50));  // interval 1 ends: phase 0 (empty signature)
  a.step(call(0x2010, 0x3000, 50));
  BOOST_CHECK_EQUAL(a.stack().size(), 3u);
  a.restart();
  BOOST_CHECK_EQUAL(a.stack().size(), 0u);
  BOOST_CHECK_EQUAL(a.counter().count(), 0u);
  // Next interval: empty stack again -> the empty signature's phase 0, a hit.
  BOOST_CHECK(!a.step(br(0x10, 0x20, false, 99)));
  auto r = a.step(br(0x10, 0x20, false, 1));
  BOOST_REQUIRE(r);
  BOOST_CHECK_EQUAL(r->phase, 0);
  BOOST_CHECK_EQUAL(r->flags & dcr_flag::kNew, 0);
}

BOOST_AUTO_TEST_CASE(count_then_apply_later_equals_record) {
  // The cycle model counts a record's instructions when it enters the input
  // buffer (count) and applies its stack operation when it leaves it
  // (apply), up to two records later; the interval ends and the stack must
  // be those of record() (= apply then count) whenever the stack operations
  // run before the snapshot of an interval end they precede.
  DcrParams p;
  p.interval = 25;
  DcrAlgo a(p), b(p);
  const BranchRecord recs[] = {call(0x100, 0x1000, 7),  call(0x1010, 0x2000, 9), back(0x2040, 0x2010, 11),
                               back(0x2040, 0x2010, 3), br(0x2040, 0x2010, false, 30), ret(0x2050, 0x1015, 2),
                               call(0x1010, 0x2000, 13), back(0x2040, 0x2010, 12)};
  std::vector<bool> ends;
  for (const auto& r : recs) ends.push_back(b.count(r));
  unsigned n = 0;
  for (size_t i = 0; i < std::size(recs); ++i) {
    const bool e = a.record(recs[i]);
    b.apply(recs[i]);
    BOOST_CHECK_EQUAL(e, ends[i]);
    BOOST_CHECK_EQUAL(a.stack().size(), b.stack().size());
    if (e) {
      ++n;
      const DcrSnapshot sa = a.close_interval(), sb = b.close_interval();
      BOOST_CHECK_EQUAL(sa.hash, sb.hash);
      BOOST_CHECK_EQUAL(sa.depth, sb.depth);
      BOOST_CHECK(a.classify(sa) == b.classify(sb));
    }
  }
  BOOST_CHECK_EQUAL(n, 3u);  // 7+9+11 = 27 -> 2; +3+30 = 35 -> 10; +2+13 = 25 -> 0; +12
  BOOST_CHECK_EQUAL(a.stats().records, b.stats().records);
  BOOST_CHECK_EQUAL(a.stats().pushes, b.stats().pushes);
  BOOST_CHECK_EQUAL(a.stats().pops, b.stats().pops);
  BOOST_CHECK_EQUAL(a.counter().count(), b.counter().count());
}

BOOST_AUTO_TEST_SUITE_END()
