// Directed tests of the path-stack functional model (PathStackAlgo, Ppcr,
// PathRecord) against paper 000 section 3 (Tables 1 and 2, extended paths,
// overflow), hwprof-spec.md sections 2 and 3.1 and docs/path_stack.md.
//
// Every expected descriptor below is written out by hand from the tables and
// the algorithm steps of docs/path_stack.md; nothing is computed by the model
// or by a helper that mirrors it. The comments next to each record give the
// hand trace (stack top first).
#include <boost/test/unit_test.hpp>

#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include "branch_record.h"
#include "path_stack_algo.h"

using namespace hwprof::model;

namespace {

// trace::Kind codes (spec section 2).
constexpr uint8_t kBr = 0, kJmp = 1, kIjmp = 2, kCall = 3, kIcall = 4, kRet = 5;

BranchRecord mk(uint8_t kind, uint32_t pc, uint32_t target, bool taken, uint8_t ilen, uint16_t insns,
                uint8_t events) {
  return BranchRecord{kind, pc, target, taken, ilen, insns, events};
}
BranchRecord br(uint32_t pc, uint32_t tgt, bool taken, uint16_t insns = 1, uint8_t events = 0) {
  return mk(kBr, pc, tgt, taken, 2, insns, events);
}
BranchRecord jmp(uint32_t pc, uint32_t tgt, uint16_t insns = 1, uint8_t events = 0) {
  return mk(kJmp, pc, tgt, true, 2, insns, events);
}
BranchRecord ijmp(uint32_t pc, uint32_t tgt, uint16_t insns = 1, uint8_t events = 0) {
  return mk(kIjmp, pc, tgt, true, 2, insns, events);
}
BranchRecord call(uint32_t pc, uint32_t tgt, uint16_t insns = 1, uint8_t events = 0) {
  return mk(kCall, pc, tgt, true, 5, insns, events);
}
BranchRecord ret(uint32_t pc, uint32_t tgt, uint16_t insns = 1, uint8_t events = 0) {
  return mk(kRet, pc, tgt, true, 1, insns, events);
}

PathEntry P(uint32_t start, unsigned len, uint32_t dirs, unsigned events, unsigned insns, unsigned ext = 0,
            bool inc = false) {
  PathEntry e;
  e.start = start;
  e.length = static_cast<uint8_t>(len);
  e.dirs = dirs;
  e.events = static_cast<uint16_t>(events);
  e.insns = insns;
  e.ext = static_cast<uint8_t>(ext);
  e.incomplete = inc;
  return e;
}

struct Flags {
  bool split = false;
  bool frame_end = false;
  unsigned depth = 0;
};
Flags F(unsigned depth, bool frame_end = false, bool split = false) { return Flags{split, frame_end, depth}; }

Emission E(const PathEntry& p, const Flags& f) {
  Emission e;
  e.path = p;
  e.split = f.split;
  e.frame_end = f.frame_end;
  e.depth = f.depth;
  return e;
}

std::string entry_str(const PathEntry& p) { return E(p, Flags{}).str(); }
std::string opt_str(const std::optional<Emission>& e) { return e ? e->str() : std::string("(none)"); }

/// A path stack plus the PPCR its records are classified with.
struct Rig {
  PathStackAlgo algo;
  Ppcr ppcr;
  int n = 0;  // records processed, for messages
  explicit Rig(uint32_t ppcr_value, unsigned depth = 16, unsigned max_len = 32) : algo(depth, max_len) {
    ppcr.value = ppcr_value;
  }

  std::optional<Emission> run(const BranchRecord& r) {
    ++n;
    return algo.process(PathRecord::classify(r, ppcr));
  }
  /// Processes `r`, which must emit nothing.
  void none(const BranchRecord& r) {
    auto got = run(r);
    BOOST_CHECK_MESSAGE(!got, "record " << n << " (" << r.str() << "): expected no emission, got " << opt_str(got));
  }
  /// Processes `r`, which must emit exactly `want`.
  void emits(const BranchRecord& r, const Emission& want) {
    auto got = run(r);
    BOOST_CHECK_MESSAGE(got && *got == want, "record " << n << " (" << r.str() << "): expected " << want.str()
                                                        << ", got " << opt_str(got));
  }
  /// The stack must hold exactly `want` (top first).
  void stack(std::initializer_list<PathEntry> want) {
    BOOST_REQUIRE_MESSAGE(algo.occupancy() == want.size(), "after record " << n << ": occupancy "
                                                                           << algo.occupancy() << ", expected "
                                                                           << want.size());
    unsigned i = 0;
    for (const PathEntry& w : want) {
      BOOST_CHECK_MESSAGE(algo.entry(i) == w, "after record " << n << ": entry " << i << " is "
                                                              << entry_str(algo.entry(i)) << ", expected "
                                                              << entry_str(w));
      ++i;
    }
  }
  void stats(uint64_t records, uint64_t emitted, uint64_t incomplete, uint64_t splits, uint64_t overflows,
             uint64_t empty_pops) {
    const PathStackStats& s = algo.stats();
    BOOST_CHECK_EQUAL(s.records, records);
    BOOST_CHECK_EQUAL(s.emitted, emitted);
    BOOST_CHECK_EQUAL(s.incomplete, incomplete);
    BOOST_CHECK_EQUAL(s.splits, splits);
    BOOST_CHECK_EQUAL(s.overflows, overflows);
    BOOST_CHECK_EQUAL(s.empty_pops, empty_pops);
  }
};

void check_ops(const PathOps& got, bool upd, bool updc, bool pop, bool push, const std::string& what) {
  BOOST_CHECK_MESSAGE(got.upd == upd && got.updc == updc && got.pop == pop && got.push == push,
                      what << ": ops " << got.bits() << " expected upd=" << upd << " updc=" << updc
                           << " pop=" << pop << " push=" << push);
}

// The control-flow graph used by the BL and WPP walks (addresses hex):
//   main   0x1000: br 1000->1010 (T), call 1012->100, ..., br 1020->1000 (back edge)
//   R      0x100 : br 104->120 (T), br 124->140 (NT, next 126), jmp 12a->130,
//          loop 0x130: br 134->138 (dir varies), br 13c->130 (back edge; NT = exit, next 13e),
//          call 140->200, br 148->150 (T), ijmp 152->300
//          block 0x300: br 304->310 (NT), ret 308->1017
//   S      0x200 : br 204->210 (T), ret 214->145
// insns/events differ per record so that every sum is checkable.
const BranchRecord kR1 = br(0x1000, 0x1010, true, 3, 1);
const BranchRecord kR2 = call(0x1012, 0x100, 2, 0);
const BranchRecord kR3 = br(0x104, 0x120, true, 2, 1);
const BranchRecord kR4 = br(0x124, 0x140, false, 3, 0);
const BranchRecord kR5 = jmp(0x12a, 0x130, 4, 2);
const BranchRecord kR6 = br(0x134, 0x138, true, 2, 0);   // iteration 1
const BranchRecord kR7 = br(0x13c, 0x130, true, 3, 1);   //   back edge
const BranchRecord kR8 = br(0x134, 0x138, false, 2, 1);  // iteration 2
const BranchRecord kR9 = br(0x13c, 0x130, true, 3, 0);
const BranchRecord kR10 = br(0x134, 0x138, true, 2, 2);  // iteration 3
const BranchRecord kR11 = br(0x13c, 0x130, true, 3, 0);
const BranchRecord kR12 = br(0x134, 0x138, false, 1, 0);  // iteration 4 (last)
const BranchRecord kR13 = br(0x13c, 0x130, false, 3, 1);  //   loop exit (not taken)
const BranchRecord kR14 = call(0x140, 0x200, 2, 3);
const BranchRecord kR15 = br(0x204, 0x210, true, 4, 0);
const BranchRecord kR16 = ret(0x214, 0x145, 2, 1);
const BranchRecord kR17 = br(0x148, 0x150, true, 2, 0);
const BranchRecord kR18 = ijmp(0x152, 0x300, 1, 2);
const BranchRecord kR19 = br(0x304, 0x310, false, 2, 0);
const BranchRecord kR20 = ret(0x308, 0x1017, 1, 1);
const BranchRecord kR21 = br(0x1020, 0x1000, true, 2, 0);

// The loop used by the extended-path tests: routine at 0x100 called from
// 0x50; loop head 0x110 with an inner forward br 114->118 (directions
// 1,0,1,1,0,1,1) and a back edge br 11c->110 taken in iterations 1..6, not
// taken in iteration 7; then ret 120->55. insns = 1 per record, events = 1 on
// each taken back edge only.
std::vector<BranchRecord> ext_loop_records() {
  std::vector<BranchRecord> v;
  v.push_back(call(0x50, 0x100, 1, 0));
  v.push_back(br(0x104, 0x110, true, 1, 0));
  const bool d[7] = {true, false, true, true, false, true, true};
  for (int k = 0; k < 7; ++k) {
    v.push_back(br(0x114, 0x118, d[k], 1, 0));
    v.push_back(br(0x11c, 0x110, k < 6, 1, k < 6 ? 1 : 0));
  }
  v.push_back(ret(0x120, 0x55, 1, 0));
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(path_stack_algo)

// ---------------------------------------------------------------- classes

BOOST_AUTO_TEST_CASE(ClassifiesEveryKindAsSpecSection2) {
  struct Case {
    BranchRecord r;
    BranchClass cls;
    uint32_t next;
    const char* what;
  };
  const Case cases[] = {
      {br(0x100, 0x180, true), BranchClass::Forward, 0x180, "br taken, target > pc"},
      {br(0x100, 0x80, true), BranchClass::Backward, 0x80, "br taken, target < pc"},
      {br(0x100, 0x100, true), BranchClass::Backward, 0x100, "br taken, target == pc"},
      {br(0x100, 0x80, false), BranchClass::Forward, 0x102, "br not taken, target < pc"},
      {br(0x100, 0x100, false), BranchClass::Forward, 0x102, "br not taken, target == pc"},
      {br(0x100, 0x180, false), BranchClass::Forward, 0x102, "br not taken, target > pc"},
      {jmp(0x100, 0x180), BranchClass::Forward, 0x180, "jmp target > pc"},
      {jmp(0x100, 0x80), BranchClass::Backward, 0x80, "jmp target < pc"},
      {jmp(0x100, 0x100), BranchClass::Backward, 0x100, "jmp target == pc (self loop)"},
      // unsigned AddrW compare: 0x80000000 > 0x7fffffff
      {jmp(0x80000000u, 0x7fffffffu), BranchClass::Backward, 0x7fffffffu, "jmp, unsigned compare (back)"},
      {jmp(0x7fffffffu, 0x80000000u), BranchClass::Forward, 0x80000000u, "jmp, unsigned compare (fwd)"},
      {ijmp(0x100, 0x80), BranchClass::Indirect, 0x80, "ijmp backward target"},
      {ijmp(0x100, 0x180), BranchClass::Indirect, 0x180, "ijmp forward target"},
      {call(0x100, 0x80), BranchClass::Call, 0x80, "call backward target"},
      {call(0x100, 0x180), BranchClass::Call, 0x180, "call forward target"},
      {mk(kIcall, 0x100, 0x50, true, 3, 1, 0), BranchClass::Call, 0x50, "icall"},
      {ret(0x100, 0x80), BranchClass::Return, 0x80, "ret backward target"},
      {ret(0x100, 0x180), BranchClass::Return, 0x180, "ret forward target"},
      // 32-bit wrap of next = pc + ilen
      {br(0xfffffffeu, 0x10, false), BranchClass::Forward, 0x0, "br not taken, next wraps to 0"},
      {mk(kBr, 0xfffffffdu, 0x10, false, 7, 1, 0), BranchClass::Forward, 0x4, "br not taken ilen 7, next wraps"},
      {mk(kBr, 0xfffffff0u, 0x10, true, 7, 1, 0), BranchClass::Backward, 0x10, "br taken across the wrap: back"},
  };
  Ppcr bl;  // reset value
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.what) {
      BOOST_CHECK(classify(c.r) == c.cls);
      BOOST_CHECK_EQUAL(c.r.next(), c.next);
      const PathRecord p = PathRecord::classify(c.r, bl);
      BOOST_CHECK(p.cls == c.cls);
      BOOST_CHECK_EQUAL(p.next, c.next);
      BOOST_CHECK_EQUAL(p.pc, c.r.pc);
      BOOST_CHECK_EQUAL(p.taken, c.r.taken);
    }
  }
  BOOST_CHECK_EQUAL(std::string(class_name(BranchClass::Forward)), "forward");
  BOOST_CHECK_EQUAL(std::string(class_name(BranchClass::Indirect)), "indirect");
}

BOOST_AUTO_TEST_CASE(ClassifiedRecordCarriesOpsExtensionAndCounts) {
  const BranchRecord back = mk(kJmp, 0x400, 0x3f0, true, 2, 0xbeef, 0xa5);
  const BranchRecord fwd = mk(kBr, 0x400, 0x3f0, false, 6, 7, 3);

  Ppcr ext3;
  ext3.value = 0x007D6AD1;  // BL | ext_loops | max_ext 3
  PathRecord p = PathRecord::classify(back, ext3);
  BOOST_CHECK(p.cls == BranchClass::Backward);
  check_ops(p.ops, true, false, true, true, "ext3 backward");
  BOOST_CHECK(p.ext_try);
  BOOST_CHECK_EQUAL(int(p.max_ext), 3);
  BOOST_CHECK_EQUAL(p.pc, 0x400u);
  BOOST_CHECK_EQUAL(p.next, 0x3f0u);
  BOOST_CHECK(p.taken);
  BOOST_CHECK_EQUAL(p.insns, 0xbeefu);
  BOOST_CHECK_EQUAL(int(p.events), 0xa5);

  // ext_try only for the backward class
  p = PathRecord::classify(fwd, ext3);
  BOOST_CHECK(p.cls == BranchClass::Forward);
  BOOST_CHECK(!p.ext_try);
  BOOST_CHECK_EQUAL(p.next, 0x406u);
  BOOST_CHECK(!p.taken);
  BOOST_CHECK_EQUAL(p.insns, 7u);
  BOOST_CHECK_EQUAL(int(p.events), 3);
  BOOST_CHECK(!PathRecord::classify(ret(0x10, 0x5), ext3).ext_try);
  BOOST_CHECK(!PathRecord::classify(ijmp(0x10, 0x5), ext3).ext_try);

  // BL: ext_loops = 0, so no backward record tries to extend
  Ppcr bl;
  p = PathRecord::classify(back, bl);
  BOOST_CHECK(!p.ext_try);
  BOOST_CHECK_EQUAL(int(p.max_ext), 0);

  // ext_loops = 1, max_ext = 0: tries, may never extend
  Ppcr ext0;
  ext0.value = 0x001D6AD1;
  p = PathRecord::classify(back, ext0);
  BOOST_CHECK(p.ext_try);
  BOOST_CHECK_EQUAL(int(p.max_ext), 0);
}

// ------------------------------------------------------------------- PPCR

BOOST_AUTO_TEST_CASE(PresetValuesAndTheirDecodeMatchTables1And2) {
  BOOST_CHECK_EQUAL(Ppcr::kBl, 0x000D6AD1u);
  BOOST_CHECK_EQUAL(Ppcr::kWpp, 0x000DEED1u);
  BOOST_CHECK_EQUAL(Ppcr{}.value, 0x000D6AD1u);  // reset value is BL
  BOOST_CHECK_EQUAL(Ppcr::ext(0), 0x001D6AD1u);
  BOOST_CHECK_EQUAL(Ppcr::ext(1), 0x003D6AD1u);
  BOOST_CHECK_EQUAL(Ppcr::ext(2), 0x005D6AD1u);
  BOOST_CHECK_EQUAL(Ppcr::ext(3), 0x007D6AD1u);
  BOOST_CHECK_EQUAL(Ppcr::preset("bl"), 0x000D6AD1u);
  BOOST_CHECK_EQUAL(Ppcr::preset("wpp"), 0x000DEED1u);
  BOOST_CHECK_EQUAL(Ppcr::preset("ext"), 0x003D6AD1u);  // default max_ext 1
  BOOST_CHECK_EQUAL(Ppcr::preset("ext", 3), 0x007D6AD1u);
  BOOST_CHECK_EQUAL(Ppcr::preset("ext", 0), 0x001D6AD1u);
  BOOST_CHECK_THROW(Ppcr::preset("ext", 4), std::invalid_argument);
  BOOST_CHECK_THROW(Ppcr::preset("BL"), std::invalid_argument);
  BOOST_CHECK_THROW(Ppcr::preset(""), std::invalid_argument);

  // Table 1 (BL):      update  update-count  pop  push
  Ppcr bl;
  bl.value = 0x000D6AD1;
  check_ops(bl.ops(BranchClass::Call), false, true, false, true, "BL call");
  check_ops(bl.ops(BranchClass::Return), false, true, true, false, "BL return");
  check_ops(bl.ops(BranchClass::Forward), true, false, false, false, "BL forward");
  check_ops(bl.ops(BranchClass::Backward), true, false, true, true, "BL backward");
  check_ops(bl.ops(BranchClass::Indirect), true, false, true, true, "BL indirect");
  BOOST_CHECK(!bl.ext_loops());
  BOOST_CHECK_EQUAL(bl.max_ext(), 0u);

  // Table 2 (WPP)
  Ppcr wpp;
  wpp.value = 0x000DEED1;
  check_ops(wpp.ops(BranchClass::Call), false, true, true, true, "WPP call");
  check_ops(wpp.ops(BranchClass::Return), false, true, true, true, "WPP return");
  check_ops(wpp.ops(BranchClass::Forward), true, false, false, false, "WPP forward");
  check_ops(wpp.ops(BranchClass::Backward), true, false, true, true, "WPP backward");
  check_ops(wpp.ops(BranchClass::Indirect), true, false, true, true, "WPP indirect");
  BOOST_CHECK(!wpp.ext_loops());

  // extended: BL operations, ext_loops = 1, max_ext from bits 22:21
  for (unsigned m = 0; m < 4; ++m) {
    Ppcr x;
    x.value = 0x001D6AD1u | m << 21;
    check_ops(x.ops(BranchClass::Call), false, true, false, true, "ext call");
    check_ops(x.ops(BranchClass::Return), false, true, true, false, "ext return");
    check_ops(x.ops(BranchClass::Forward), true, false, false, false, "ext forward");
    check_ops(x.ops(BranchClass::Backward), true, false, true, true, "ext backward");
    check_ops(x.ops(BranchClass::Indirect), true, false, true, true, "ext indirect");
    BOOST_CHECK(x.ext_loops());
    BOOST_CHECK_EQUAL(x.max_ext(), m);
  }

  // Reserved bits 31:23 do not change the decode.
  Ppcr r;
  r.value = 0xFF800000u | 0x000DEED1u;
  check_ops(r.ops(BranchClass::Call), false, true, true, true, "reserved bits set, call");
  BOOST_CHECK(!r.ext_loops());
  BOOST_CHECK_EQUAL(r.max_ext(), 0u);

  // PathOps bit order: upd 0, updc 1, pop 2, push 3
  BOOST_CHECK_EQUAL((PathOps{true, false, false, false}.bits()), 1u);
  BOOST_CHECK_EQUAL((PathOps{false, true, false, false}.bits()), 2u);
  BOOST_CHECK_EQUAL((PathOps{false, false, true, false}.bits()), 4u);
  BOOST_CHECK_EQUAL((PathOps{false, false, false, true}.bits()), 8u);
  for (unsigned b = 0; b < 16; ++b) BOOST_CHECK_EQUAL(PathOps::from_bits(b).bits(), b);
}

BOOST_AUTO_TEST_CASE(LegalRejectsUpdateWithUpdateCountInEveryClass) {
  BOOST_CHECK(Ppcr::legal(0x000D6AD1));
  BOOST_CHECK(Ppcr::legal(0x000DEED1));
  BOOST_CHECK(Ppcr::legal(0x007D6AD1));
  BOOST_CHECK(Ppcr::legal(0));                      // no operation at all is legal
  BOOST_CHECK(Ppcr::legal(0xFF800000u | 0x000D6AD1));  // reserved bits never make it illegal
  BOOST_CHECK(Ppcr::legal(0xFFFFFFFFu & ~0x33333u));   // every class pop+push, all fields set
  for (unsigned c = 0; c < 5; ++c) {
    BOOST_TEST_CONTEXT("class " << c) {
      // update + update-count in class c alone
      BOOST_CHECK(!Ppcr::legal(0x3u << (4 * c)));
      BOOST_CHECK(!Ppcr::legal(0xFu << (4 * c)));
      // ... on top of an otherwise legal preset
      const uint32_t bl_cleared = 0x000D6AD1u & ~(0xFu << (4 * c));
      BOOST_CHECK(!Ppcr::legal(bl_cleared | 0x3u << (4 * c)));
      BOOST_CHECK(!Ppcr::legal(bl_cleared | 0xBu << (4 * c)));
      // each one alone is fine
      BOOST_CHECK(Ppcr::legal(bl_cleared | 0x1u << (4 * c)));
      BOOST_CHECK(Ppcr::legal(bl_cleared | 0x2u << (4 * c)));
      BOOST_CHECK(Ppcr::legal(bl_cleared | 0xEu << (4 * c)));
      BOOST_CHECK(Ppcr::legal(bl_cleared | 0xDu << (4 * c)));
    }
  }
}

// ---------------------------------------------------------------- BL walk

BOOST_AUTO_TEST_CASE(BlWalkOfAHandBuiltControlFlowGraph) {
  Rig g(0x000D6AD1);
  // main: empty stack, so the first update creates {start 1000, incomplete}
  g.none(kR1);  // main {1000 len1 dirs 1 ins3 ev1 inc}
  g.stack({P(0x1000, 1, 0b1, 1, 3, 0, true)});
  g.none(kR2);  // call: update-count main (ins 5), push {100}
  g.stack({P(0x100, 0, 0, 0, 0), P(0x1000, 1, 0b1, 1, 5, 0, true)});
  // R: forward branches before the loop
  g.none(kR3);  // {100 len1 dirs 1 ins2 ev1}
  g.none(kR4);  // not taken: {100 len2 dirs 01 ins5 ev1}
  g.none(kR5);  // jmp fwd: {100 len3 dirs 101 ins9 ev3}
  g.stack({P(0x100, 3, 0b101, 3, 9), P(0x1000, 1, 0b1, 1, 5, 0, true)});
  // loop iteration 1: entry + first iteration form one path
  g.none(kR6);  // {100 len4 dirs 1101 ins11 ev3}
  g.emits(kR7, E(P(0x100, 5, 0b11101, 4, 14), F(2)));
  g.stack({P(0x130, 0, 0, 0, 0), P(0x1000, 1, 0b1, 1, 5, 0, true)});
  // iterations 2 and 3: one path each
  g.none(kR8);
  g.emits(kR9, E(P(0x130, 2, 0b10, 1, 5), F(2)));
  g.none(kR10);
  g.emits(kR11, E(P(0x130, 2, 0b11, 2, 5), F(2)));
  // last iteration: exit not taken, continues the path
  g.none(kR12);  // {130 len1 dirs 0 ins1 ev0}
  g.none(kR13);  // {130 len2 dirs 00 ins4 ev1}
  g.stack({P(0x130, 2, 0b00, 1, 4), P(0x1000, 1, 0b1, 1, 5, 0, true)});
  // call S: update-count adds the call record's insns/events to the caller
  g.none(kR14);
  g.stack({P(0x200, 0, 0, 0, 0), P(0x130, 2, 0b00, 4, 6), P(0x1000, 1, 0b1, 1, 5, 0, true)});
  g.none(kR15);  // S {200 len1 dirs 1 ins4}
  // return: the callee's path gets the return's counts and ends its frame
  g.emits(kR16, E(P(0x200, 1, 0b1, 1, 6), F(3, true)));
  g.stack({P(0x130, 2, 0b00, 4, 6), P(0x1000, 1, 0b1, 1, 5, 0, true)});
  // caller continues its path, then an indirect jump terminates it
  g.none(kR17);  // {130 len3 dirs 100 ins8 ev4}
  g.emits(kR18, E(P(0x130, 4, 0b1100, 6, 9), F(2)));
  g.stack({P(0x300, 0, 0, 0, 0), P(0x1000, 1, 0b1, 1, 5, 0, true)});
  g.none(kR19);  // {300 len1 dirs 0 ins2}
  g.emits(kR20, E(P(0x300, 1, 0b0, 1, 3), F(2, true)));
  g.stack({P(0x1000, 1, 0b1, 1, 5, 0, true)});
  // main's back edge ends its (incomplete) path
  g.emits(kR21, E(P(0x1000, 2, 0b11, 1, 7, 0, true), F(1)));
  g.stack({P(0x1000, 0, 0, 0, 0)});
  g.stats(21, 7, 1, 0, 0, 0);
}

BOOST_AUTO_TEST_CASE(DocWorkedExample) {
  // docs/path_stack.md "Worked example" (BL)
  Rig g(0x000D6AD1);
  g.none(call(0x50, 0x100));
  g.stack({P(0x100, 0, 0, 0, 0), P(0x50, 0, 0, 0, 1, 0, true)});
  g.none(br(0x104, 0x120, false));
  g.emits(br(0x124, 0x110, true), E(P(0x100, 2, 0b10, 0, 2), F(2)));
  g.none(br(0x124, 0x110, false));
  g.emits(ret(0x130, 0x55), E(P(0x110, 1, 0b0, 0, 2), F(2, true)));
  g.stack({P(0x50, 0, 0, 0, 1, 0, true)});
  g.stats(5, 2, 0, 0, 0, 0);
}

// --------------------------------------------------------------- WPP walk

BOOST_AUTO_TEST_CASE(WppWalkEndsPathsAtCallsAndReturns) {
  Rig g(0x000DEED1);
  auto depth1 = [&] { BOOST_CHECK_EQUAL(g.algo.occupancy(), 1u); };
  g.none(kR1);  // {1000 len1 dirs1 ins3 ev1 inc}
  depth1();
  // call: update-count, pop (emits the caller's path), push the callee
  g.emits(kR2, E(P(0x1000, 1, 0b1, 1, 5, 0, true), F(1)));
  g.stack({P(0x100, 0, 0, 0, 0)});
  g.none(kR3);
  g.none(kR4);
  g.none(kR5);
  g.none(kR6);
  g.emits(kR7, E(P(0x100, 5, 0b11101, 4, 14), F(1)));
  depth1();
  g.none(kR8);
  g.emits(kR9, E(P(0x130, 2, 0b10, 1, 5), F(1)));
  g.none(kR10);
  g.emits(kR11, E(P(0x130, 2, 0b11, 2, 5), F(1)));
  g.none(kR12);
  g.none(kR13);
  // the call ends the last iteration's path, with the call's counts
  g.emits(kR14, E(P(0x130, 2, 0b00, 4, 6), F(1)));
  g.stack({P(0x200, 0, 0, 0, 0)});
  g.none(kR15);
  // the return ends the callee's path and pushes the return target
  g.emits(kR16, E(P(0x200, 1, 0b1, 1, 6), F(1)));
  g.stack({P(0x145, 0, 0, 0, 0)});
  g.none(kR17);  // {145 len1 dirs1 ins2}
  g.emits(kR18, E(P(0x145, 2, 0b11, 2, 3), F(1)));
  g.none(kR19);
  g.emits(kR20, E(P(0x300, 1, 0b0, 1, 3), F(1)));
  g.stack({P(0x1017, 0, 0, 0, 0)});
  g.emits(kR21, E(P(0x1017, 1, 0b1, 0, 2), F(1)));
  g.stack({P(0x1000, 0, 0, 0, 0)});
  g.stats(21, 9, 1, 0, 0, 0);
}

// --------------------------------------------------------- extended paths

BOOST_AUTO_TEST_CASE(ExtendedLoopPathsSpanOneBackEdge) {
  Rig g(0x003D6AD1);  // ext, max_ext = 1
  const auto v = ext_loop_records();
  size_t i = 0;
  g.none(v[i++]);  // call: caller {50 inc ins1}, push {100}
  g.none(v[i++]);  // {100 len1 dirs 1 ins1}
  g.none(v[i++]);  // it1 br d=1: len2 dirs 11
  g.none(v[i++]);  // it1 back edge, ext 0 < 1: update only, ext 1: len3 dirs 111 ev1
  g.stack({P(0x100, 3, 0b111, 1, 3, 1), P(0x50, 0, 0, 0, 1, 0, true)});
  g.none(v[i++]);  // it2 br d=0: len4 dirs 0111
  // it2 back edge, ext 1 == max: BL operations, path spans one back edge
  g.emits(v[i++], E(P(0x100, 5, 0b10111, 2, 5, 1), F(2)));
  g.stack({P(0x110, 0, 0, 0, 0, 0), P(0x50, 0, 0, 0, 1, 0, true)});  // ext reset on push
  g.none(v[i++]);  // it3 d=1: {110 len1 dirs 1}
  g.none(v[i++]);  // it3 back edge extends: len2 dirs 11 ext1 ev1
  g.stack({P(0x110, 2, 0b11, 1, 2, 1), P(0x50, 0, 0, 0, 1, 0, true)});
  g.none(v[i++]);  // it4 d=1: len3 dirs 111
  g.emits(v[i++], E(P(0x110, 4, 0b1111, 2, 4, 1), F(2)));
  g.none(v[i++]);  // it5 d=0
  g.none(v[i++]);  // it5 back edge extends
  g.none(v[i++]);  // it6 d=1
  g.emits(v[i++], E(P(0x110, 4, 0b1110, 2, 4, 1), F(2)));
  g.none(v[i++]);  // it7 d=1: {110 len1 dirs 1}
  g.none(v[i++]);  // it7 exit (not taken, forward): len2 dirs 01
  g.emits(v[i++], E(P(0x110, 2, 0b01, 0, 3, 0), F(2, true)));
  BOOST_REQUIRE_EQUAL(i, v.size());
  g.stack({P(0x50, 0, 0, 0, 1, 0, true)});
  g.stats(v.size(), 4, 0, 0, 0, 0);
}

BOOST_AUTO_TEST_CASE(ExtendedLoopPathsSpanThreeBackEdges) {
  Rig g(0x007D6AD1);  // ext, max_ext = 3
  const auto v = ext_loop_records();
  size_t i = 0;
  g.none(v[i++]);  // call
  g.none(v[i++]);  // {100 len1 dirs 1}
  g.none(v[i++]);  // it1 d=1  len2 dirs 11
  g.none(v[i++]);  // back, ext->1: len3 dirs 111 ev1
  g.none(v[i++]);  // it2 d=0  len4 dirs 0111
  g.none(v[i++]);  // back, ext->2: len5 dirs 10111 ev2
  g.none(v[i++]);  // it3 d=1  len6 dirs 110111
  g.none(v[i++]);  // back, ext->3: len7 dirs 1110111 ev3
  g.stack({P(0x100, 7, 0b1110111, 3, 7, 3), P(0x50, 0, 0, 0, 1, 0, true)});
  g.none(v[i++]);  // it4 d=1  len8 dirs 11110111
  // it4 back edge with ext 3 == max: terminates; spans 3 back edges
  g.emits(v[i++], E(P(0x100, 9, 0b111110111, 4, 9, 3), F(2)));
  g.stack({P(0x110, 0, 0, 0, 0, 0), P(0x50, 0, 0, 0, 1, 0, true)});
  g.none(v[i++]);  // it5 d=0: {110 len1 dirs 0}
  g.none(v[i++]);  // back, ext->1: len2 dirs 10 ev1
  g.none(v[i++]);  // it6 d=1: len3 dirs 110
  g.none(v[i++]);  // back, ext->2: len4 dirs 1110 ev2
  g.none(v[i++]);  // it7 d=1: len5 dirs 11110
  g.none(v[i++]);  // exit, not taken: len6 dirs 011110
  g.stack({P(0x110, 6, 0b011110, 2, 6, 2), P(0x50, 0, 0, 0, 1, 0, true)});
  // the return ends the extended path with ext = 2
  g.emits(v[i++], E(P(0x110, 6, 0b011110, 2, 7, 2), F(2, true)));
  BOOST_REQUIRE_EQUAL(i, v.size());
  g.stats(v.size(), 2, 0, 0, 0, 0);
}

BOOST_AUTO_TEST_CASE(ExtendedWithMaxExtZeroIsBl) {
  // ext_loops = 1 with max_ext = 0 never extends: same descriptors as BL.
  Rig g(0x001D6AD1);
  const auto v = ext_loop_records();
  size_t i = 0;
  g.none(v[i++]);
  g.none(v[i++]);
  g.none(v[i++]);
  g.emits(v[i++], E(P(0x100, 3, 0b111, 1, 3), F(2)));  // entry + first iteration
  const bool d[6] = {false, true, true, false, true, true};
  for (int k = 0; k < 5; ++k) {
    g.none(v[i++]);
    g.emits(v[i++], E(P(0x110, 2, (d[k] ? 1u : 0u) | 2u, 1, 2), F(2)));
  }
  g.none(v[i++]);                                              // it7 d=1
  g.none(v[i++]);                                              // exit
  g.emits(v[i++], E(P(0x110, 2, 0b01, 0, 3), F(2, true)));     // last iteration + exit
  BOOST_REQUIRE_EQUAL(i, v.size());
}

BOOST_AUTO_TEST_CASE(ExtensionOnAnEmptyStackAndAcrossCallsAndReturns) {
  Rig g(0x003D6AD1);  // max_ext 1
  // An empty stack counts as ext 0: the back edge extends into a new
  // incomplete entry.
  g.none(br(0x20, 0x10, true, 2, 1));
  g.stack({P(0x20, 1, 0b1, 1, 2, 1, true)});
  g.emits(br(0x20, 0x10, true, 3, 0), E(P(0x20, 2, 0b11, 1, 5, 1, true), F(1)));
  g.stack({P(0x10, 0, 0, 0, 0)});
  // ext belongs to the entry: a callee starts at ext 0 and may extend even
  // though the caller has used its extension ...
  g.none(br(0x1c, 0x10, true));  // caller extends: {10 len1 ext1}
  g.none(call(0x14, 0x400));
  g.none(br(0x404, 0x400, true));  // callee extends: {400 len1 ext1}
  g.stack({P(0x400, 1, 0b1, 0, 1, 1), P(0x10, 1, 0b1, 0, 2, 1)});
  // ... and a return does not extend (not implemented): it ends the frame.
  g.emits(ret(0x408, 0x19), E(P(0x400, 1, 0b1, 0, 2, 1), F(2, true)));
  // the caller keeps its ext: its next back edge terminates its path
  g.emits(br(0x1c, 0x10, true), E(P(0x10, 2, 0b11, 0, 3, 1), F(1)));
}

// ------------------------------------------------------------ MaxLen split

BOOST_AUTO_TEST_CASE(SplitsAForwardRunAtMaxLen) {
  Rig g(0x000D6AD1, 16, 4);
  g.none(call(0x10, 0x100));  // caller {10 inc ins1}, push {100}
  // 10 forward branches i = 0..9: pc 104 + 0x10 i, target pc + 0xc,
  // directions 1,0,1,1, 0,0,1,0, 1,1; insns i+1, events 1.
  const bool t[10] = {true, false, true, true, false, false, true, false, true, true};
  auto fb = [&](int k) {
    const uint32_t pc = 0x104 + 0x10 * k;
    return br(pc, pc + 0xc, t[k], static_cast<uint16_t>(k + 1), 1);
  };
  g.none(fb(0));
  g.none(fb(1));
  g.none(fb(2));
  g.stack({P(0x100, 3, 0b101, 3, 6), P(0x10, 0, 0, 0, 1, 0, true)});
  // 4th branch (pc 134, taken to 140) reaches MaxLen: split; next path starts at 140
  g.emits(fb(3), E(P(0x100, 4, 0b1101, 4, 10), F(2, false, true)));
  g.stack({P(0x140, 0, 0, 0, 0), P(0x10, 0, 0, 0, 1, 0, true)});
  g.none(fb(4));
  g.none(fb(5));
  g.none(fb(6));
  // 8th branch (pc 174, not taken, next 176)
  g.emits(fb(7), E(P(0x140, 4, 0b0100, 4, 26), F(2, false, true)));
  g.stack({P(0x176, 0, 0, 0, 0), P(0x10, 0, 0, 0, 1, 0, true)});
  g.none(fb(8));
  g.none(fb(9));
  g.stack({P(0x176, 2, 0b11, 2, 19), P(0x10, 0, 0, 0, 1, 0, true)});
  g.emits(ret(0x1a0, 0x15), E(P(0x176, 2, 0b11, 2, 20), F(2, true)));
  // 4 + 4 + 2 = 10 branches: none lost, none counted twice
  g.stats(12, 3, 0, 2, 0, 0);
}

BOOST_AUTO_TEST_CASE(ARecordThatReachesMaxLenAndPopsIsEmittedOnceByThePop) {
  Rig g(0x000D6AD1, 16, 4);
  g.none(call(0x10, 0x100));
  g.none(br(0x104, 0x110, true));
  g.none(br(0x114, 0x120, false));
  g.none(br(0x124, 0x130, true));
  // 4th branch is a back edge: update reaches MaxLen, the pop emits (split 0)
  g.emits(br(0x134, 0x100, true), E(P(0x100, 4, 0b1101, 0, 4), F(2)));
  g.stack({P(0x100, 0, 0, 0, 0), P(0x10, 0, 0, 0, 1, 0, true)});
  g.none(br(0x104, 0x110, false));
  g.none(br(0x114, 0x120, false));
  g.none(br(0x124, 0x130, false));
  // same with an indirect jump
  g.emits(ijmp(0x134, 0x500), E(P(0x100, 4, 0b1000, 0, 4), F(2)));
  g.stack({P(0x500, 0, 0, 0, 0), P(0x10, 0, 0, 0, 1, 0, true)});
  g.stats(9, 2, 0, 0, 0, 0);

  // An extending back edge has no pop: reaching MaxLen splits it, the new
  // entry starts at the target with ext 0.
  Rig x(0x003D6AD1, 16, 4);
  x.none(call(0x10, 0x100));
  x.none(br(0x104, 0x110, true));
  x.none(br(0x114, 0x120, true));
  x.none(br(0x124, 0x130, false));
  x.emits(br(0x134, 0x100, true), E(P(0x100, 4, 0b1011, 0, 4, 1), F(2, false, true)));
  x.stack({P(0x100, 0, 0, 0, 0, 0), P(0x10, 0, 0, 0, 1, 0, true)});
  // the fresh entry may extend again
  x.none(br(0x134, 0x100, true));
  x.stack({P(0x100, 1, 0b1, 0, 1, 1), P(0x10, 0, 0, 0, 1, 0, true)});
  x.stats(6, 1, 0, 1, 0, 0);
}

BOOST_AUTO_TEST_CASE(MaxLenOneSplitsEveryForwardBranch) {
  Rig g(0x000D6AD1, 16, 1);
  g.emits(br(0x10, 0x20, true), E(P(0x10, 1, 0b1, 0, 1, 0, true), F(1, false, true)));
  g.emits(br(0x24, 0x40, false), E(P(0x20, 1, 0b0, 0, 1), F(1, false, true)));
  g.stack({P(0x26, 0, 0, 0, 0)});
  g.emits(br(0x28, 0x26, true), E(P(0x26, 1, 0b1, 0, 1), F(1)));  // back edge: pop, not split
  g.stats(3, 3, 1, 2, 0, 0);
}

// ---------------------------------------------------------------- overflow

BOOST_AUTO_TEST_CASE(OverflowDiscardsBottomEntriesAndReturnsCreateIncompletePaths) {
  Rig g(0x000D6AD1, 4, 32);
  // Frame k (k = 0..6) is a routine at B_k = 0x1000 (k+1); frame 0 is main.
  // In each frame: br B+4 -> B+0x10 taken, then (k < 6) call B+0x20 -> B_{k+1}.
  auto B = [](unsigned k) { return 0x1000u * (k + 1); };
  g.none(br(B(0) + 4, B(0) + 0x10, true));  // main {1004 len1 inc}
  g.none(call(B(0) + 0x20, B(1)));          // 2 entries
  g.none(br(B(1) + 4, B(1) + 0x10, true));
  g.none(call(B(1) + 0x20, B(2)));  // 3
  g.none(br(B(2) + 4, B(2) + 0x10, true));
  g.none(call(B(2) + 0x20, B(3)));  // 4 = Depth
  g.stack({P(0x4000, 0, 0, 0, 0), P(0x3000, 1, 1, 0, 2), P(0x2000, 1, 1, 0, 2), P(0x1004, 1, 1, 0, 2, 0, true)});
  BOOST_CHECK_EQUAL(g.algo.stats().overflows, 0u);
  g.none(br(B(3) + 4, B(3) + 0x10, true));
  g.none(call(B(3) + 0x20, B(4)));  // main's entry falls off
  BOOST_CHECK_EQUAL(g.algo.stats().overflows, 1u);
  g.stack({P(0x5000, 0, 0, 0, 0), P(0x4000, 1, 1, 0, 2), P(0x3000, 1, 1, 0, 2), P(0x2000, 1, 1, 0, 2)});
  g.none(br(B(4) + 4, B(4) + 0x10, true));
  g.none(call(B(4) + 0x20, B(5)));  // frame 1 falls off
  g.none(br(B(5) + 4, B(5) + 0x10, true));
  g.none(call(B(5) + 0x20, B(6)));  // frame 2 falls off
  g.none(br(B(6) + 4, B(6) + 0x10, true));
  g.stack({P(0x7000, 1, 1, 0, 1), P(0x6000, 1, 1, 0, 2), P(0x5000, 1, 1, 0, 2), P(0x4000, 1, 1, 0, 2)});
  BOOST_CHECK_EQUAL(g.algo.stats().overflows, 3u);
  // Six returns back to back, ret_k at B_k + 0x30 -> B_{k-1} + 0x25, events k.
  auto R = [&](unsigned k) { return ret(B(k) + 0x30, B(k - 1) + 0x25, 1, static_cast<uint8_t>(k)); };
  g.emits(R(6), E(P(0x7000, 1, 1, 6, 2), F(4, true)));
  g.emits(R(5), E(P(0x6000, 1, 1, 5, 3), F(3, true)));
  g.emits(R(4), E(P(0x5000, 1, 1, 4, 3), F(2, true)));
  g.emits(R(3), E(P(0x4000, 1, 1, 3, 3), F(1, true)));
  g.stack({});
  // frames 2 and 1 were lost: each return finds the stack empty, creates
  // {start = its own pc, incomplete}, updates its count and pops it.
  g.emits(R(2), E(P(0x3030, 0, 0, 2, 1, 0, true), F(1, true)));
  g.emits(R(1), E(P(0x2030, 0, 0, 1, 1, 0, true), F(1, true)));
  g.stack({});
  // back in main (lost too): the next branch starts an incomplete open path
  g.none(br(B(0) + 0x28, B(0) + 0x30, false));
  g.stack({P(0x1028, 1, 0, 0, 1, 0, true)});
  g.stats(20, 6, 2, 0, 3, 0);
}

BOOST_AUTO_TEST_CASE(DepthOneOverflowsOnEveryCall) {
  Rig g(0x000D6AD1, 1, 32);
  g.none(br(0x10, 0x20, true));   // {10 inc len1}
  g.none(call(0x24, 0x100));      // updc, push: {10} falls off
  g.stack({P(0x100, 0, 0, 0, 0)});
  g.none(br(0x104, 0x108, false));
  g.emits(ret(0x10a, 0x29), E(P(0x100, 1, 0, 0, 2), F(1, true)));
  g.none(br(0x30, 0x40, true));  // caller lost: incomplete
  g.stack({P(0x30, 1, 1, 0, 1, 0, true)});
  g.stats(5, 1, 0, 0, 1, 0);
}

// ------------------------------------------------------------- custom PPCR

BOOST_AUTO_TEST_CASE(PopOnAnEmptyStackEmitsNothingAndIsCounted) {
  // BL with the return class = pop only (nibble 3 = 0x4)
  const uint32_t v = 0x000D4AD1;
  BOOST_REQUIRE(Ppcr::legal(v));
  Rig g(v);
  check_ops(g.ppcr.ops(BranchClass::Return), false, false, true, false, "custom return");
  g.none(ret(0x10, 0x20));  // empty stack, no update: nothing to pop
  g.stack({});
  g.stats(1, 0, 0, 0, 0, 1);
  g.none(call(0x30, 0x100, 2, 1));  // caller {30 inc ins2 ev1}, push {100}
  g.none(br(0x104, 0x110, true, 3, 0));
  g.emits(ret(0x114, 0x35, 4, 4), E(P(0x100, 1, 1, 0, 3), F(2, true)));  // the return's counts are not added
  g.emits(ret(0x40, 0x50, 5, 5), E(P(0x30, 0, 0, 1, 2, 0, true), F(1, true)));
  g.none(ret(0x60, 0x70));
  g.stack({});
  g.stats(6, 2, 1, 0, 0, 2);
}

BOOST_AUTO_TEST_CASE(ClassesWithoutOperationsLeaveTheStackAlone) {
  // forward class with no operation (nibble 0 = 0), indirect = push only (8)
  Rig g(0x00086AD0);
  g.none(br(0x10, 0x20, true));  // no update: the stack stays empty
  g.stack({});
  g.none(ijmp(0x20, 0x300));  // push only
  g.stack({P(0x300, 0, 0, 0, 0)});
  g.none(br(0x304, 0x310, true));
  g.stack({P(0x300, 0, 0, 0, 0)});
  g.emits(br(0x314, 0x300, true, 2, 2), E(P(0x300, 1, 1, 2, 2), F(1)));
  g.stats(4, 1, 0, 0, 0, 0);
}

// ------------------------------------------------------------- saturation

BOOST_AUTO_TEST_CASE(EventsAndInsnsSaturate) {
  // forward class = update-count only (legal custom setting), so counts grow
  // without the length reaching MaxLen.
  Rig g(0x000D6AD2);
  for (int i = 0; i < 256; ++i) g.none(br(0x10, 0x20, true, 0xffff, 0xff));
  // 256 * 255 = 65280 events, 256 * 65535 = 16776960 insns: not saturated yet
  g.stack({P(0x10, 0, 0, 65280, 16776960, 0, true)});
  g.none(br(0x10, 0x20, true, 0xffff, 0xff));
  // events 65535 exactly; insns 16842495 > 2^24-1 saturates
  g.stack({P(0x10, 0, 0, 65535, 0xffffff, 0, true)});
  for (int i = 0; i < 50; ++i) g.none(br(0x10, 0x20, true, 0xffff, 0xff));
  g.stack({P(0x10, 0, 0, 0xffff, 0xffffff, 0, true)});
  // a back edge (update) adds to saturated counts and emits them
  g.emits(br(0x30, 0x10, true, 5, 5), E(P(0x10, 1, 1, 0xffff, 0xffffff, 0, true), F(1)));

  // The same through BL calls: each call's update-count lands on the caller.
  Rig c(0x000D6AD1);
  c.none(br(0x10, 0x20, true, 1, 0));  // {10 len1 inc}
  for (int i = 0; i < 300; ++i) {
    c.none(call(0x24, 0x100, 0xffff, 0xff));
    c.emits(ret(0x100, 0x29, 1, 0), E(P(0x100, 0, 0, 0, 1), F(2, true)));
  }
  c.stack({P(0x10, 1, 1, 0xffff, 0xffffff, 0, true)});
}

// ------------------------------------------------------------------ misc

BOOST_AUTO_TEST_CASE(ResetInMidPathEmptiesStackAndStats) {
  Rig g(0x000D6AD1, 4, 8);
  g.none(kR1);
  g.none(kR2);
  g.none(kR3);
  g.none(kR4);
  g.emits(br(0x13c, 0x130, true), E(P(0x100, 3, 0b101, 1, 6), F(2)));
  for (int i = 0; i < 5; ++i) g.none(call(0x140, 0x200));
  BOOST_REQUIRE_EQUAL(g.algo.occupancy(), 4u);
  BOOST_REQUIRE_GT(g.algo.stats().overflows, 0u);
  g.algo.reset();
  BOOST_CHECK_EQUAL(g.algo.occupancy(), 0u);
  g.stats(0, 0, 0, 0, 0, 0);
  BOOST_CHECK_EQUAL(g.algo.depth(), 4u);
  BOOST_CHECK_EQUAL(g.algo.max_len(), 8u);
  // after reset the first record again finds no top of stack
  g.none(br(0x500, 0x510, false));
  g.stack({P(0x500, 1, 0, 0, 1, 0, true)});
  g.stats(1, 0, 0, 0, 0, 0);
}

BOOST_AUTO_TEST_CASE(RejectsBadParameters) {
  BOOST_CHECK_THROW(PathStackAlgo(0, 32), std::invalid_argument);
  BOOST_CHECK_THROW(PathStackAlgo(16, 0), std::invalid_argument);
  BOOST_CHECK_THROW(PathStackAlgo(16, 33), std::invalid_argument);
  BOOST_CHECK_NO_THROW(PathStackAlgo(1, 1));
  BOOST_CHECK_NO_THROW(PathStackAlgo(255, 32));
  PathStackAlgo a;
  BOOST_CHECK_EQUAL(a.depth(), 16u);
  BOOST_CHECK_EQUAL(a.max_len(), 32u);
}

BOOST_AUTO_TEST_CASE(MaxLen32UsesEveryDirectionBit) {
  Rig g(0x000D6AD1);
  // 32 forward branches alternating taken/not taken starting with taken:
  // dirs = 0x55555555, split at the 32nd
  for (int i = 0; i < 31; ++i) g.none(br(0x1000 + 4 * i, 0x2000, i % 2 == 0));
  g.emits(br(0x1000 + 4 * 31, 0x2000, false), E(P(0x1000, 32, 0x55555555u, 0, 32, 0, true), F(1, false, true)));
  g.stack({P(0x1000 + 4 * 31 + 2, 0, 0, 0, 0)});
  // 31 taken forward branches and a taken back edge: dirs all ones
  for (int i = 0; i < 31; ++i) g.none(br(0x3000 + 4 * i, 0x4000, true));
  g.emits(br(0x3000 + 4 * 31, 0x10, true), E(P(0x107e, 32, 0xffffffffu, 0, 32), F(1)));
}

// --------------------------------------------------------- record packing

BOOST_AUTO_TEST_CASE(PathRecordPacksAsDocumentedAndRoundTrips) {
  // one field at a time against the documented layout:
  // cls 98:96, ops 95:92, ext_try 91, max_ext 90:89, pc 88:57, next 56:25,
  // taken 24, insns 23:8, events 7:0
  using W = std::array<uint32_t, 4>;
  {
    PathRecord p;
    p.cls = BranchClass::Indirect;  // 4
    BOOST_CHECK((p.pack() == W{0, 0, 0, 4}));
  }
  {
    PathRecord p;
    p.ops = PathOps{false, true, false, true};  // 0b1010
    BOOST_CHECK((p.pack() == W{0, 0, 0xA0000000u, 0}));
  }
  {
    PathRecord p;
    p.ext_try = true;
    BOOST_CHECK((p.pack() == W{0, 0, 1u << 27, 0}));
  }
  {
    PathRecord p;
    p.max_ext = 3;
    BOOST_CHECK((p.pack() == W{0, 0, 3u << 25, 0}));
  }
  {
    PathRecord p;
    p.pc = 0xffffffffu;
    BOOST_CHECK((p.pack() == W{0, 0xfe000000u, 0x01ffffffu, 0}));
    p.pc = 0x80000001u;  // bit 0 -> 57, bit 31 -> 88
    BOOST_CHECK((p.pack() == W{0, 1u << 25, 1u << 24, 0}));
  }
  {
    PathRecord p;
    p.next = 0xffffffffu;
    BOOST_CHECK((p.pack() == W{0xfe000000u, 0x01ffffffu, 0, 0}));
  }
  {
    PathRecord p;
    p.taken = true;
    BOOST_CHECK((p.pack() == W{1u << 24, 0, 0, 0}));
  }
  {
    PathRecord p;
    p.insns = 0xbeef;
    p.events = 0x5a;
    BOOST_CHECK((p.pack() == W{0x00beef5au, 0, 0, 0}));
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 5000; ++i) {
    PathRecord p;
    p.cls = static_cast<BranchClass>(rng() % 5);
    p.ops = PathOps::from_bits(static_cast<unsigned>(rng() & 0xf));
    p.ext_try = rng() & 1;
    p.max_ext = static_cast<uint8_t>(rng() & 3);
    p.pc = static_cast<uint32_t>(rng());
    p.next = static_cast<uint32_t>(rng());
    p.taken = rng() & 1;
    p.insns = static_cast<uint16_t>(rng());
    p.events = static_cast<uint8_t>(rng());
    const W w = p.pack();
    BOOST_REQUIRE_MESSAGE(w[3] >> 3 == 0, "bits above 98 set: " << p.str());
    BOOST_REQUIRE_MESSAGE(PathRecord::unpack(w) == p, "round trip: " << p.str());
  }
}

BOOST_AUTO_TEST_SUITE_END()
