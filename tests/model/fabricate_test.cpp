// Trace fabrication (paper 004 section 3; host/analyses/fabricate.h;
// docs/analyses.md, "Trace fabrication") against:
//   * the profile database of a hand-written trace, counted by hand
//     (branches, histograms, blocks, conflicts, sampling windows);
//   * GuessTarget and the conditional-branch draw against their histograms;
//   * walks through hand-assembled x86-64 code with the records written out
//     by hand, and every way a tracelet can end early;
//   * determinism: the same seed gives the same tracelets, tracelet i does
//     not depend on how many are asked for;
//   * walks through a real shipped program (the ELF files its load map
//     names): every record lies in mapped code and agrees with the
//     instruction decoded there, the code between two records is straight
//     line with the recorded instruction and event counts, returns go where
//     the tracelet's calls said, and the written trace validates.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "fabricate.h"
#include "loadmap.h"
#include "recorder.h"
#include "trace.h"

#ifndef HWPROF_TRACE_DIR
#error "HWPROF_TRACE_DIR must point at tests/traces"
#endif

using namespace hwprof;
using analyses::BlockEnd;
using analyses::CodeImage;
using analyses::Fabricator;
using analyses::ProfileDb;
using analyses::TraceletEnd;
using trace::Kind;
using trace::Record;

namespace {

Record rec(Kind k, uint64_t pc, uint64_t target, bool taken, unsigned ilen, uint32_t insns, uint32_t events = 0) {
  Record r;
  r.kind = k;
  r.pc = pc;
  r.target = target;
  r.taken = taken;
  r.ilen = static_cast<uint8_t>(ilen);
  r.insns = insns;
  r.events = events;
  return r;
}

ProfileDb profile_of(const std::vector<Record>& rs, analyses::Sampling s = {}) {
  ProfileDb db(s);
  for (const Record& r : rs) db.add(r);
  db.finish();
  return db;
}

// A hand-assembled x86-64 routine at 0x1000:
//   1000: 8b 07           mov eax, [rdi]     (memory operand: one event)
//   1002: ff c9           dec ecx
//   1004: 75 fa           jne 0x1000         (br, backward)
//   1006: e8 05 00 00 00  call 0x1010
//   100b: eb f3           jmp 0x1000
//   100d: 90 90 90        nop x3
//   1010: 90              nop
//   1011: c3              ret
const std::vector<uint8_t> kLoop = {0x8b, 0x07, 0xff, 0xc9, 0x75, 0xfa, 0xe8, 0x05, 0x00, 0x00,
                                    0x00, 0xeb, 0xf3, 0x90, 0x90, 0x90, 0x90, 0xc3};

CodeImage loop_image() {
  CodeImage c("x86_64");
  BOOST_TEST_REQUIRE(c.add_region(0x1000, kLoop, 0));
  BOOST_TEST_REQUIRE(c.add_region(0x2000, {0xe9, 0xfb, 0x0f, 0x00, 0x00}, 1));  // jmp 0x3000 (unmapped)
  BOOST_TEST_REQUIRE(c.add_region(0x4000, {0x90, 0xf4}, 1));                    // nop; hlt
  BOOST_TEST_REQUIRE(c.add_region(0x5000, {0x90, 0x06}, 1));                    // nop; (bad) in 64-bit mode
  BOOST_TEST_REQUIRE(c.add_region(0x6000, {0xff, 0xe0}, 1));                    // jmp rax
  return c;
}

bool same(const std::vector<Record>& a, const std::vector<Record>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fabricate)

BOOST_AUTO_TEST_CASE(ProfileDbCountsHandWrittenTrace) {
  // The routine above run by hand: three taken jne, one not taken, the call,
  // the return, the jmp back, one more taken jne; then an indirect jump to
  // two places and a ret seen with two successors.
  const std::vector<Record> rs = {
      rec(Kind::Br, 0x1004, 0x1000, true, 2, 3, 1),   // first record: no block before it is known
      rec(Kind::Br, 0x1004, 0x1000, true, 2, 3, 1),   // block 0x1000
      rec(Kind::Br, 0x1004, 0x1000, true, 2, 3, 1),   // block 0x1000
      rec(Kind::Br, 0x1004, 0x1000, false, 2, 3, 1),  // block 0x1000
      rec(Kind::Call, 0x1006, 0x1010, true, 5, 1),    // block 0x1006
      rec(Kind::Ret, 0x1011, 0x100b, true, 1, 2),     // block 0x1010
      rec(Kind::Jmp, 0x100b, 0x1000, true, 2, 1),     // block 0x100b
      rec(Kind::Br, 0x1004, 0x1000, true, 2, 3, 1),   // block 0x1000
      rec(Kind::Ijmp, 0x6000, 0x7000, true, 2, 4, 2), // block 0x1000 (4 insns: a different entry)
      rec(Kind::Ijmp, 0x6000, 0x7100, true, 2, 5),    // block 0x7000
      rec(Kind::Ijmp, 0x6000, 0x7000, true, 2, 5),    // block 0x7100
      rec(Kind::Ret, 0x1011, 0x9000, true, 1, 1),     // block 0x7000
      rec(Kind::Jmp, 0x1011, 0x1000, true, 2, 1),     // conflict: 0x1011 is a ret
  };
  ProfileDb db(analyses::Sampling{1, 100});
  for (const Record& r : rs) db.add(r);
  Record val;
  val.kind = Kind::Val;
  val.value = 5;
  val.weight = 1;
  db.add(val);  // ignored
  db.finish();

  BOOST_TEST(db.records() == rs.size());
  BOOST_TEST(db.sampled_records() == rs.size());
  BOOST_TEST(db.instructions() == 3u * 5 + 1 + 2 + 1 + 4 + 5 + 5 + 1 + 1);
  BOOST_TEST(db.conflicts() == 1u);
  BOOST_TEST(db.branches().size() == 5u);

  const auto* br = db.branch(0x1004);
  BOOST_TEST_REQUIRE(br);
  BOOST_TEST((br->kind == Kind::Br));
  BOOST_TEST(br->execs == 5u);
  BOOST_TEST(br->taken == 4u);
  BOOST_TEST(br->not_taken == 1u);
  BOOST_TEST(br->static_target == 0x1000u);
  BOOST_TEST(br->ilen == 2);
  BOOST_TEST(br->insns == 15u);
  BOOST_TEST(br->events == 5u);
  BOOST_TEST(br->targets.empty());

  const auto* call = db.branch(0x1006);
  BOOST_TEST_REQUIRE(call);
  BOOST_TEST(call->taken == 1u);
  BOOST_TEST(call->static_target == 0x1010u);

  const auto* ij = db.branch(0x6000);
  BOOST_TEST_REQUIRE(ij);
  BOOST_TEST(ij->execs == 3u);
  BOOST_TEST(ij->events == 2u);
  BOOST_TEST_REQUIRE(ij->targets.size() == 2u);
  BOOST_TEST(ij->targets[0].target == 0x7000u);
  BOOST_TEST(ij->targets[0].count == 2u);
  BOOST_TEST(ij->targets[0].cum == 2u);
  BOOST_TEST(ij->targets[1].target == 0x7100u);
  BOOST_TEST(ij->targets[1].cum == 3u);

  const auto* ret = db.branch(0x1011);
  BOOST_TEST_REQUIRE(ret);
  BOOST_TEST((ret->kind == Kind::Ret));  // the conflicting jmp changed nothing
  BOOST_TEST(ret->execs == 2u);
  BOOST_TEST_REQUIRE(ret->targets.size() == 2u);
  BOOST_TEST(ret->targets[0].target == 0x100bu);
  BOOST_TEST(ret->targets[1].target == 0x9000u);

  BOOST_TEST(db.branch(0x100b) != nullptr);
  BOOST_TEST(db.branch(0x1000) == nullptr);

  // Blocks: start = the previous record's next; count and instructions.
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> want = {
      {0x1000, {5, 16}}, {0x1006, {1, 1}}, {0x1010, {1, 2}}, {0x100b, {1, 1}},
      {0x7000, {2, 6}},  {0x7100, {1, 5}}, {0x9000, {1, 1}}};
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> got;
  uint64_t prev = 0;
  for (const auto& b : db.blocks()) {
    BOOST_TEST(b.start >= prev);  // sorted
    prev = b.start;
    got[b.start] = {b.count, b.insns};
  }
  BOOST_TEST((got == want));
}

BOOST_AUTO_TEST_CASE(SamplingKeepsEveryKthWindow) {
  // Windows of 2 records, every 2nd window: records 0,1 and 4,5 count.
  std::vector<Record> rs;
  for (int i = 0; i < 7; ++i) rs.push_back(rec(Kind::Jmp, 0x100 + 0x10 * uint64_t(i), 0x1000 + 0x10 * uint64_t(i), true, 2, uint32_t(i + 1)));
  const ProfileDb db = profile_of(rs, analyses::Sampling{2, 2});
  BOOST_TEST(db.records() == 7u);
  BOOST_TEST(db.sampled_records() == 4u);
  BOOST_TEST(db.sampled_instructions() == 1u + 2 + 5 + 6);
  BOOST_TEST(db.instructions() == 28u);
  for (int i = 0; i < 7; ++i) BOOST_TEST((db.branch(0x100 + 0x10 * uint64_t(i)) != nullptr) == (i / 2 % 2 == 0));
  // Blocks of sampled records whose predecessor is known: records 1, 4, 5.
  BOOST_TEST_REQUIRE(db.blocks().size() == 3u);
  BOOST_TEST(db.blocks()[0].start == 0x1000u);  // before record 1
  BOOST_TEST(db.blocks()[1].start == 0x1030u);  // before record 4 (record 3 was not sampled; its next is known)
  BOOST_TEST(db.blocks()[2].start == 0x1040u);
  BOOST_TEST(db.blocks()[1].insns == 5u);
}

BOOST_AUTO_TEST_CASE(RestartSeparatesTracelets) {
  // Two tracelets of a fabricated trace: no block joins the first one's last
  // successor to the second one's first record.
  ProfileDb db;
  db.add(rec(Kind::Jmp, 0x100, 0x200, true, 2, 1));
  db.add(rec(Kind::Jmp, 0x210, 0x300, true, 2, 3));  // block 0x200
  db.restart();
  db.add(rec(Kind::Jmp, 0x500, 0x600, true, 2, 7));  // no block 0x300
  db.add(rec(Kind::Jmp, 0x610, 0x700, true, 2, 2));  // block 0x600
  db.finish();
  BOOST_TEST_REQUIRE(db.blocks().size() == 2u);
  BOOST_TEST(db.blocks()[0].start == 0x200u);
  BOOST_TEST(db.blocks()[1].start == 0x600u);
  BOOST_TEST(db.branches().size() == 4u);
}

BOOST_AUTO_TEST_CASE(GuessTargetFollowsTheHistogram) {
  ProfileDb db = profile_of({rec(Kind::Ret, 0x10, 0xa0, true, 1, 1), rec(Kind::Ret, 0x10, 0xb0, true, 1, 1),
                             rec(Kind::Ret, 0x10, 0xb0, true, 1, 1), rec(Kind::Ret, 0x10, 0xb0, true, 1, 1),
                             rec(Kind::Ret, 0x10, 0xc0, true, 1, 1), rec(Kind::Ret, 0x10, 0xc0, true, 1, 1),
                             rec(Kind::Ret, 0x10, 0xc0, true, 1, 1), rec(Kind::Ret, 0x10, 0xc0, true, 1, 1),
                             rec(Kind::Ret, 0x10, 0xc0, true, 1, 1), rec(Kind::Ret, 0x10, 0xc0, true, 1, 1)});
  const auto& h = db.branch(0x10)->targets;
  std::mt19937_64 rng(7);
  std::map<uint64_t, int> n;
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) ++n[analyses::guess_target(h, rng)];
  BOOST_TEST(n.size() == 3u);  // nothing outside the histogram
  // Shares 1/10, 3/10, 6/10; the binomial standard deviation is at most 0.0016.
  BOOST_TEST(std::abs(n[0xa0] / double(draws) - 0.1) < 0.01);
  BOOST_TEST(std::abs(n[0xb0] / double(draws) - 0.3) < 0.01);
  BOOST_TEST(std::abs(n[0xc0] / double(draws) - 0.6) < 0.01);

  analyses::BranchProfile b;
  b.taken = 1;
  b.not_taken = 3;
  int taken = 0;
  for (int i = 0; i < draws; ++i) taken += analyses::guess_taken(b, rng);
  BOOST_TEST(std::abs(taken / double(draws) - 0.25) < 0.01);
  b.taken = 0;
  for (int i = 0; i < 1000; ++i) BOOST_TEST_REQUIRE(!analyses::guess_taken(b, rng));
  b.taken = 5;
  b.not_taken = 0;
  for (int i = 0; i < 1000; ++i) BOOST_TEST_REQUIRE(analyses::guess_taken(b, rng));
  const std::vector<analyses::TargetCount> one = {{0x42, 9, 9}};
  for (int i = 0; i < 100; ++i) BOOST_TEST_REQUIRE(analyses::guess_target(one, rng) == 0x42u);

  // uniform_below: in range, each value about equally often, and fixed for
  // a fixed generator state on every standard library.
  int c3[3] = {};
  for (int i = 0; i < 30000; ++i) ++c3[analyses::uniform_below(rng, 3)];
  for (int v : c3) BOOST_TEST(std::abs(v - 10000) < 600);
  BOOST_TEST(analyses::uniform_below(rng, 1) == 0u);
  // For a power of two nothing is rejected: the draw modulo n. The 10,000th
  // draw of a default-constructed mt19937_64 is fixed by the standard.
  std::mt19937_64 fixed;
  fixed.discard(9999);
  BOOST_TEST(analyses::uniform_below(fixed, uint64_t{1} << 40) == 9981545732273789042ull % (uint64_t{1} << 40));
}

BOOST_AUTO_TEST_CASE(WalksHandAssembledCodeAsWrittenOut) {
  CodeImage code = loop_image();
  // The jne always taken, no ret profile (the call stack gives it).
  ProfileDb db = profile_of({rec(Kind::Br, 0x1004, 0x1000, true, 2, 3, 1), rec(Kind::Br, 0x1004, 0x1000, true, 2, 3, 1)});
  analyses::FabricateOptions o;
  o.tracelet_len = 20;
  Fabricator fab(db, code, o);
  std::mt19937_64 rng(1);
  std::vector<Record> out;
  const auto res = fab.walk(0x1006, rng, out);
  // call, nop + ret (to the call's return address), jmp, then the loop: five
  // times mov + dec + jne (3 instructions, one event), then one mov left over.
  std::vector<Record> want = {rec(Kind::Call, 0x1006, 0x1010, true, 5, 1), rec(Kind::Ret, 0x1011, 0x100b, true, 1, 2),
                              rec(Kind::Jmp, 0x100b, 0x1000, true, 2, 1)};
  for (int i = 0; i < 5; ++i) want.push_back(rec(Kind::Br, 0x1004, 0x1000, true, 2, 3, 1));
  BOOST_TEST(same(out, want));
  BOOST_TEST((res.end == TraceletEnd::Length));
  BOOST_TEST(res.records == 8u);
  BOOST_TEST(res.walked == 20u);
  BOOST_TEST(fab.stats().instructions == 19u);
  BOOST_TEST(fab.stats().tail == 1u);
  BOOST_TEST(fab.stats().events == 5u);
  BOOST_TEST(fab.stats().ret_popped == 1u);
  BOOST_TEST(fab.stats().br_profiled == 5u);

  // The same from the block before the jne with a never-taken profile: the
  // walk falls through into the call.
  ProfileDb nt = profile_of({rec(Kind::Br, 0x1004, 0x1000, false, 2, 3, 1), rec(Kind::Br, 0x1004, 0x1000, false, 2, 3, 1)});
  Fabricator fab2(nt, code, o);
  out.clear();
  fab2.walk(0x1000, rng, out);
  BOOST_TEST_REQUIRE(out.size() >= 3u);
  BOOST_TEST(same({out.begin(), out.begin() + 3},
                  {rec(Kind::Br, 0x1004, 0x1000, false, 2, 3, 1), rec(Kind::Call, 0x1006, 0x1010, true, 5, 1),
                   rec(Kind::Ret, 0x1011, 0x100b, true, 1, 2)}));
}

BOOST_AUTO_TEST_CASE(UnprofiledBranchesAndEarlyEnds) {
  CodeImage code = loop_image();
  // Only a jmp at 0x100b is profiled (so there is a seed).
  ProfileDb db = profile_of({rec(Kind::Jmp, 0x100b, 0x1000, true, 2, 1), rec(Kind::Jmp, 0x100b, 0x1000, true, 2, 1)});
  analyses::FabricateOptions o;
  o.tracelet_len = 12;
  Fabricator fab(db, code, o);
  BOOST_TEST(fab.seeds() == 1u);  // block 0x1000
  std::mt19937_64 rng(1);
  std::vector<Record> out;
  // Unprofiled backward jne: static guess "taken".
  auto r = fab.walk(0x1000, rng, out);
  BOOST_TEST((r.end == TraceletEnd::Length));
  BOOST_TEST(out.size() == 4u);
  for (const auto& x : out) BOOST_TEST(x.taken);
  BOOST_TEST(fab.stats().br_static == 4u);
  // A ret with an empty call stack and no histogram.
  out.clear();
  r = fab.walk(0x1010, rng, out);
  BOOST_TEST((r.end == TraceletEnd::UnprofiledReturn));
  BOOST_TEST(r.end_pc == 0x1011u);
  BOOST_TEST(out.empty());
  BOOST_TEST(r.walked == 1u);  // the nop
  // Into unmapped code, a trap, undecodable bytes, an unprofiled jmp rax.
  out.clear();
  r = fab.walk(0x2000, rng, out);
  BOOST_TEST((r.end == TraceletEnd::Unmapped));
  BOOST_TEST(r.end_pc == 0x3000u);
  BOOST_TEST(same(out, {rec(Kind::Jmp, 0x2000, 0x3000, true, 5, 1)}));
  r = fab.walk(0x4000, rng, out);
  BOOST_TEST((r.end == TraceletEnd::Trap));
  BOOST_TEST(r.end_pc == 0x4001u);
  r = fab.walk(0x5000, rng, out);
  BOOST_TEST((r.end == TraceletEnd::Undecodable));
  BOOST_TEST(r.end_pc == 0x5001u);
  r = fab.walk(0x6000, rng, out);
  BOOST_TEST((r.end == TraceletEnd::UnprofiledIndirect));
  BOOST_TEST(fab.stats().ends[int(TraceletEnd::Unmapped)] == 1u);
  BOOST_TEST(fab.stats().ends[int(TraceletEnd::Trap)] == 1u);
  BOOST_TEST(fab.stats().ends[int(TraceletEnd::Undecodable)] == 1u);
  BOOST_TEST(fab.stats().ends[int(TraceletEnd::UnprofiledIndirect)] == 1u);
  BOOST_TEST((code.block(0x4000).end == BlockEnd::Trap));
  BOOST_TEST(code.object_of(0x3000) == -1);
  BOOST_TEST(code.object_of(0x1011) == 0);
  BOOST_TEST(code.object_of(0x1012) == -1);
  BOOST_TEST(!code.add_region(0x1010, {0x90, 0x90, 0x90}, 2));  // overlaps the routine
}

BOOST_AUTO_TEST_CASE(FlowOverlapIsMfOfThePaper) {
  // 004 section 3.2.2: M_f = sum over P_r of min(c(p,P_r), c(p,P_f)).
  auto emit = [](model::PathProfile& p, uint32_t start, int n) {
    model::Emission e;
    e.path.start = start;
    e.path.length = 1;
    for (int i = 0; i < n; ++i) p.add(e);
  };
  model::PathProfile real, fab;
  emit(real, 0x10, 3);
  emit(real, 0x20, 1);
  emit(fab, 0x10, 1);
  emit(fab, 0x20, 1);
  emit(fab, 0x30, 2);  // not in the real profile: only dilutes
  // min(3/4, 1/4) + min(1/4, 1/4) = 0.5
  BOOST_TEST(analyses::flow_overlap(real, fab) == 50.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(analyses::flow_overlap(real, real) == 100.0, boost::test_tools::tolerance(1e-9));
}

// ------------------------------------------------------------ a real program

namespace {

struct Shipped {
  std::string trace, map_path;
  record::LoadMap map;
  ProfileDb db;
  CodeImage code{"x86_64"};
  bool ok = false;
};

// Loads a shipped trace, its map and its ELF files; ok = false (with a
// message) when this machine's files are not the ones that ran.
void load_shipped(Shipped& s, const std::string& name) {
  s.trace = std::string(HWPROF_TRACE_DIR) + "/" + name + ".hwpt.zst";
  s.map_path = s.trace + ".map";
  s.map = record::LoadMap::read(s.map_path);
  for (const auto& o : s.map.objects) {
    const auto e = record::read_elf(o.host_path);
    if (!e.ok || e.build_id != o.elf.build_id) {
      BOOST_TEST_MESSAGE("skipped: " << o.host_path << " is not the file " << name << " ran (build id)");
      return;
    }
  }
  trace::scan(s.trace);
  s.db = analyses::build_profile(s.trace, analyses::Sampling{});
  std::vector<uint64_t> needed;
  for (const auto& [pc, b] : s.db.branches()) needed.push_back(pc);
  analyses::load_code(s.code, s.map, s.map_path, needed);
  s.ok = true;
}

}  // namespace

BOOST_AUTO_TEST_CASE(SameSeedSameTracelets) {
  Shipped s;
  load_shipped(s, "gzip");
  if (!s.ok) return;
  analyses::FabricateOptions o;
  o.seed = 42;
  std::vector<Record> a, b, c, d;
  {
    Fabricator f(s.db, s.code, o);
    for (uint64_t i = 0; i < 50; ++i) f.tracelet(i, a);
  }
  {
    Fabricator f(s.db, s.code, o);
    for (uint64_t i = 0; i < 50; ++i) f.tracelet(i, b);
    f.tracelet(7, d);  // tracelet 7 again, alone
  }
  BOOST_TEST(a.size() > 5000u);
  BOOST_TEST(same(a, b));
  {
    o.seed = 43;
    Fabricator f(s.db, s.code, o);
    for (uint64_t i = 0; i < 50; ++i) f.tracelet(i, c);
  }
  BOOST_TEST(!same(a, c));
  // Tracelet 7 is the same whether or not 0..6 came first.
  std::vector<Record> seven;
  {
    o.seed = 42;
    Fabricator f(s.db, s.code, o);
    std::vector<Record> skip;
    for (uint64_t i = 0; i < 7; ++i) f.tracelet(i, skip);
    f.tracelet(7, seven);
  }
  BOOST_TEST(same(seven, d));
}

BOOST_AUTO_TEST_CASE(ShippedTraceletsAreConsistentWithTheCode) {
  for (const char* name : {"gzip", "bzip2", "sqlite3", "perl"}) {
    BOOST_TEST_CONTEXT(name) {
      Shipped s;
      load_shipped(s, name);
      if (!s.ok) continue;
      const auto chk = analyses::check_profile(s.db, s.code);
      BOOST_TEST(chk.mismatched == 0u, chk.first_bad);
      BOOST_TEST(chk.unmapped == 0u, chk.first_bad);

      analyses::FabricateOptions o;
      o.seed = 5;
      Fabricator fab(s.db, s.code, o);
      const std::string out_path =
          (std::filesystem::temp_directory_path() / ("hwprof_fab_test_" + std::string(name) + ".hwpt")).string();
      trace::Writer w(out_path, trace::Format::Binary, false, "x86_64");
      uint64_t n_records = 0, full = 0;
      for (uint64_t t = 0; t < 150; ++t) {
        std::vector<Record> out;
        const auto res = fab.tracelet(t, out);
        BOOST_TEST_REQUIRE(res.records == out.size());
        uint64_t in_records = 0;
        std::vector<uint64_t> calls;  // return addresses pushed in this tracelet
        uint64_t from = res.seed_pc;  // where the straight-line code before each record starts
        for (const Record& r : out) {
          BOOST_TEST_REQUIRE(trace::check_record(r).empty(), trace::check_record(r));
          // In mapped executable code of the map, and the same instruction there.
          const int obj = s.map.find(r.pc);
          BOOST_TEST_REQUIRE(obj >= 0);
          BOOST_TEST_REQUIRE(s.map.objects[size_t(obj)].contains_exec(r.pc));
          size_t n = 0;
          const uint8_t* p = s.code.bytes(r.pc, n);
          BOOST_TEST_REQUIRE(p != nullptr);
          const record::InsnInfo in = record::decode_insn("x86_64", r.pc, p, n);
          BOOST_TEST_REQUIRE(in.is_cf);
          BOOST_TEST_REQUIRE((in.kind == r.kind));
          BOOST_TEST_REQUIRE(unsigned(in.len) == unsigned(r.ilen));
          if (in.direct) BOOST_TEST_REQUIRE(r.target == in.target);  // br (taken or not), jmp, call
          if (r.kind == Kind::Br && r.target == r.pc + r.ilen) BOOST_TEST_REQUIRE(!r.taken);
          // A profiled successor: conditional branches only go a profiled way,
          // indirect ones only to a profiled target.
          const auto* bp = s.db.branch(r.pc);
          BOOST_TEST_REQUIRE(bp != nullptr);
          if (r.kind == Kind::Br) BOOST_TEST_REQUIRE((r.taken ? bp->taken : bp->not_taken) > 0u);
          if (r.kind == Kind::Ijmp || r.kind == Kind::Icall) {
            bool found = false;
            for (const auto& tc : bp->targets) found |= tc.target == r.target;
            BOOST_TEST_REQUIRE(found);
          }
          // Straight-line code from `from` to the branch: insns - 1 plain
          // instructions, events = memory operands including the branch's.
          uint64_t a = from, plain = 0, mem = 0;
          while (a != r.pc) {
            const uint8_t* q = s.code.bytes(a, n);
            BOOST_TEST_REQUIRE(q != nullptr);
            const record::InsnInfo x = record::decode_insn("x86_64", a, q, n);
            BOOST_TEST_REQUIRE((x.valid && !x.is_cf));
            ++plain;
            mem += x.mem;
            a += x.len;
            BOOST_TEST_REQUIRE(plain < r.insns);
          }
          BOOST_TEST_REQUIRE(plain + 1 == r.insns);
          BOOST_TEST_REQUIRE(mem + in.mem == r.events);
          // Returns go back to this tracelet's calls while it has any.
          if (r.kind == Kind::Call || r.kind == Kind::Icall) calls.push_back(r.pc + r.ilen);
          if (r.kind == Kind::Ret && !calls.empty()) {
            BOOST_TEST_REQUIRE(r.target == calls.back());
            calls.pop_back();
          }
          in_records += r.insns;
          from = r.next();
          w.write(r);
        }
        BOOST_TEST_REQUIRE(res.walked <= o.tracelet_len);
        BOOST_TEST_REQUIRE(in_records <= res.walked);
        if (res.end == TraceletEnd::Length) {
          BOOST_TEST_REQUIRE(res.walked == o.tracelet_len);
          ++full;
        }
        n_records += out.size();
      }
      w.commit();
      BOOST_TEST(full >= 145u);  // early ends are rare (the walk reaching _exit's hlt)
      const trace::Info info = trace::scan(out_path);  // the written trace validates
      BOOST_TEST(info.records == n_records);
      std::remove(out_path.c_str());
    }
  }
}

BOOST_AUTO_TEST_CASE(ShippedMfIsHigh) {
  // gzip, 1,000 tracelets (a third of the real trace's length): M_f well
  // above the floor the CLI test uses (80%); the benchmark measured 92.6% at
  // full length.
  Shipped s;
  load_shipped(s, "gzip");
  if (!s.ok) return;
  Fabricator fab(s.db, s.code, analyses::FabricateOptions{});
  analyses::BlProfiler fp;
  for (uint64_t t = 0; t < 1000; ++t) {
    std::vector<Record> out;
    fab.tracelet(t, out);
    fp.restart();
    for (const Record& r : out) fp.add(r);
  }
  const double mf = analyses::flow_overlap(analyses::bl_profile(s.trace), fp.profile());
  BOOST_TEST_MESSAGE("gzip M_f = " << mf);
  BOOST_TEST(mf > 85.0);
  BOOST_TEST(mf < 100.0);
}

BOOST_AUTO_TEST_SUITE_END()
