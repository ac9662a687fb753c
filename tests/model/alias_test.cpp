// Memory aliasing by abstract execution (host/analyses/alias.h; paper 004
// section 3.3; docs/analyses.md, "Memory aliasing"): hand-built tracelets
// whose aliasing is known, the byte tracker against brute force, M_a by
// hand, the alias side file, and explicit memory dependences in the timing
// model.
#include <boost/test/unit_test.hpp>

#include <unicorn/x86.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "alias.h"
#include "critpath.h"
#include "fabricate.h"
#include "timing.h"
#include "trace.h"

using namespace hwprof;
using analyses::AbstractExec;
using analyses::AliasProfile;
using analyses::AliasTracker;
using analyses::CodeImage;
using analyses::InsnRef;
using analyses::MemAccess;
using trace::Kind;
using trace::Record;

namespace {

constexpr uint64_t kBase = 0x400000;

// Hand-assembled (GNU as, Intel syntax), at kBase:
//  stack: 00 push rbx; 01 push rbp; 02 mov rbx, rdi; 05 mov rbp, rsi;
//         08 mov [rsp-0x10], rax; 0d call f (1b); 12 mov rcx, [rsp-0x10];
//         17 pop rbp; 18 pop rbx; 19 jmp stack
//  f:     1b mov rdx, [rsp]; 1f ret
//  arr:   20 mov [rdi], eax; 22 add rdi, 4; 26 mov [rdi], ecx; 28 mov edx, [rdi-4];
//         2b mov rsi, rdi; 2e mov r8d, [rsi]; 31 mov r9d, [rsi+4]; 35 jmp arr
//  ptr:   37 mov rax, [rdi]; 3a mov [rax+8], rcx; 3e mov rdx, [rdi]; 41 mov r9, [rdx+8];
//         45 mov r10, [rdx+0x10]; 49 add qword [rdi], 8; 4d mov r11, [rdi];
//         50 mov r11, [r11]; 53 jmp ptr
const std::vector<uint8_t> kCode = {
    0x53, 0x55, 0x48, 0x89, 0xfb, 0x48, 0x89, 0xf5, 0x48, 0x89, 0x44, 0x24, 0xf0, 0xe8, 0x09, 0x00, 0x00, 0x00,
    0x48, 0x8b, 0x4c, 0x24, 0xf0, 0x5d, 0x5b, 0xeb, 0xe5, 0x48, 0x8b, 0x14, 0x24, 0xc3, 0x89, 0x07, 0x48, 0x83,
    0xc7, 0x04, 0x89, 0x0f, 0x8b, 0x57, 0xfc, 0x48, 0x89, 0xfe, 0x44, 0x8b, 0x06, 0x44, 0x8b, 0x4e, 0x04, 0xeb,
    0xe9, 0x48, 0x8b, 0x07, 0x48, 0x89, 0x48, 0x08, 0x48, 0x8b, 0x17, 0x4c, 0x8b, 0x4a, 0x08, 0x4c, 0x8b, 0x52,
    0x10, 0x48, 0x83, 0x07, 0x08, 0x4c, 0x8b, 0x1f, 0x4d, 0x8b, 0x1b, 0xeb, 0xe2};

Record rec(Kind k, uint64_t pc, uint64_t target, unsigned ilen, uint32_t insns) {
  Record r;
  r.kind = k;
  r.pc = kBase + pc;
  r.target = kBase + target;
  r.taken = true;
  r.ilen = static_cast<uint8_t>(ilen);
  r.insns = insns;
  return r;
}

CodeImage image() {
  CodeImage c("x86_64");
  BOOST_REQUIRE(c.add_region(kBase, kCode, 0));
  return c;
}

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

/// "(load,store) ..." for messages.
std::string str(const Pairs& p) {
  std::string s;
  for (const auto& [l, st] : p) s += "(" + std::to_string(l) + "," + std::to_string(st) + ") ";
  return s;
}

Pairs aliases_of(const CodeImage& c, uint64_t seed_off, const std::vector<Record>& recs, uint64_t key,
                 size_t* n_insns = nullptr) {
  std::vector<InsnRef> insns;
  BOOST_REQUIRE(analyses::tracelet_insns(c, kBase + seed_off, recs.data(), recs.size(), insns));
  if (n_insns) *n_insns = insns.size();
  AbstractExec ex(c);
  const auto t = analyses::abstract_aliases(ex, key, insns);
  BOOST_TEST(ex.stats().failed == 0u);
  return t.pairs;
}

/// Brute force: for each instruction, the youngest earlier one that wrote a
/// byte it reads.
std::vector<int64_t> brute(const std::vector<std::vector<MemAccess>>& v) {
  std::vector<int64_t> r(v.size(), -1);
  for (size_t i = 0; i < v.size(); ++i)
    for (const MemAccess& rd : v[i]) {
      if (rd.write) continue;
      for (size_t j = i; j-- > 0;) {
        bool hit = false;
        for (const MemAccess& w : v[j])
          if (w.write && w.addr < rd.addr + rd.size && rd.addr < w.addr + w.size) hit = true;
        if (hit) {
          r[i] = std::max<int64_t>(r[i], static_cast<int64_t>(j));
          break;
        }
      }
    }
  return r;
}

analyses::StaticInsn insn(bool load, bool store, std::vector<uint8_t> src, std::vector<uint8_t> dst) {
  analyses::StaticInsn s;
  s.load = load;
  s.store = store;
  for (uint8_t r : src) s.src[s.nsrc++] = r;
  for (uint8_t r : dst) s.dst[s.ndst++] = r;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(alias)

// push/pop of callee-saved registers, a spill across a call, the return
// address: 11 instructions, every pair by hand (offsets in the tracelet).
BOOST_AUTO_TEST_CASE(StackSaveRestore) {
  const CodeImage c = image();
  const std::vector<Record> recs = {rec(Kind::Call, 0x0d, 0x1b, 5, 6), rec(Kind::Ret, 0x1f, 0x12, 1, 2),
                                    rec(Kind::Jmp, 0x19, 0x00, 2, 4)};
  size_t n = 0;
  const Pairs p = aliases_of(c, 0, recs, 7, &n);
  BOOST_TEST(n == 12u);
  // 6 mov rdx,[rsp] and 7 ret read the return address of 5 call; 8 reloads
  // the spill of 4 (rsp changed twice in between); 9 pop rbp / 10 pop rbx
  // restore 1 push rbp / 0 push rbx.
  const Pairs want = {{6, 5}, {7, 5}, {8, 4}, {9, 1}, {10, 0}};
  BOOST_TEST(str(p) == str(want));
  // Another key: other values, the same aliasing.
  BOOST_TEST(str(aliases_of(c, 0, recs, 12345)) == str(want));
}

// An array walked with a moving pointer and a copy of it: loads through other
// expressions than their stores'; two iterations.
BOOST_AUTO_TEST_CASE(ArrayWalk) {
  const CodeImage c = image();
  const std::vector<Record> recs = {rec(Kind::Jmp, 0x35, 0x20, 2, 8), rec(Kind::Jmp, 0x35, 0x20, 2, 8)};
  const Pairs p = aliases_of(c, 0x20, recs, 3);
  // 3 [rdi-4] reads 0's [rdi]; 5 [rsi] reads 2's [rdi]; 6 [rsi+4] reads
  // nothing stored. Second iteration (rdi 4 further): 8 writes where 2 did,
  // so 11 reads 8 (the youngest), 13 reads 10, 14 nothing.
  const Pairs want = {{3, 0}, {5, 2}, {11, 8}, {13, 10}};
  BOOST_TEST(str(p) == str(want));
}

// A pointer loaded from memory, stored through, reloaded and used again;
// a read-modify-write of the pointer itself.
BOOST_AUTO_TEST_CASE(PointerUpdate) {
  const CodeImage c = image();
  const std::vector<Record> recs = {rec(Kind::Jmp, 0x53, 0x37, 2, 9)};
  const Pairs p = aliases_of(c, 0x37, recs, 99);
  // 3 [rdx+8] reads 1's [rax+8] (rdx reloaded from the same cell as rax);
  // 4 [rdx+16] nothing; 5 add [rdi] reads the seeded cell (no store yet);
  // 6 reads 5's write; 7 [r11] = old pointer + 8 = 1's cell.
  const Pairs want = {{3, 1}, {6, 5}, {7, 1}};
  BOOST_TEST(str(p) == str(want));
}

// Lazily seeded memory: a load returns the seeded word of its address, the
// same for the same key; registers and words differ with the key; code
// pages hold the code.
BOOST_AUTO_TEST_CASE(LazySeededMemory) {
  const CodeImage c = image();
  AbstractExec ex(c);
  ex.reset(5);
  const uint64_t rdi = ex.reg(UC_X86_REG_RDI), rsp = ex.reg(UC_X86_REG_RSP);
  BOOST_TEST(rdi % 8 == 0u);
  BOOST_TEST(rsp % 16 == 0u);
  BOOST_TEST(rsp < (uint64_t{1} << 47));
  std::vector<MemAccess> acc;
  BOOST_TEST(ex.step(kBase + 0x37, 3, acc));  // mov rax, [rdi]
  BOOST_TEST_REQUIRE(acc.size() == 1u);
  BOOST_TEST(acc[0].addr == rdi);
  BOOST_TEST(acc[0].size == 8u);
  BOOST_TEST(!acc[0].write);
  BOOST_TEST(ex.reg(UC_X86_REG_RAX) == ex.seed_word(rdi));
  const uint64_t w5 = ex.seed_word(rdi);
  ex.reset(5);
  BOOST_TEST(ex.reg(UC_X86_REG_RDI) == rdi);
  BOOST_TEST(ex.seed_word(rdi) == w5);
  ex.reset(6);
  BOOST_TEST(ex.reg(UC_X86_REG_RDI) != rdi);
  BOOST_TEST(ex.seed_word(rdi) != w5);
  // A load from the code reads the program's bytes: mov rax, [rsp] with rsp
  // pointed at the code.
  ex.set_reg(UC_X86_REG_RSP, kBase);
  acc.clear();
  BOOST_TEST(ex.step(kBase + 0x1b, 4, acc));
  uint64_t want = 0;
  for (int k = 7; k >= 0; --k) want = want << 8 | kCode[size_t(k)];
  BOOST_TEST(ex.reg(UC_X86_REG_RDX) == want);
  // A store into the code is refused (the step fails), the code stays.
  acc.clear();
  ex.set_reg(UC_X86_REG_RDI, kBase);
  BOOST_TEST(!ex.step(kBase + 0x20, 2, acc));  // mov [rdi], eax
  BOOST_TEST(ex.stats().failed == 1u);
}

// The tracker against brute force on random access sequences (sizes 1-16,
// overlapping, mixed reads and writes, read-modify-writes).
BOOST_AUTO_TEST_CASE(TrackerEqualsBruteForce) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    const size_t n = 1 + rng() % 120;
    const uint64_t span = 8 + rng() % 200;
    std::vector<std::vector<MemAccess>> v(n);
    for (auto& a : v) {
      const int k = static_cast<int>(rng() % 3);
      for (int j = 0; j < k; ++j)
        a.push_back(MemAccess{0x1000 + rng() % span, static_cast<uint32_t>(1u << (rng() % 5)), (rng() & 1) != 0});
      std::stable_sort(a.begin(), a.end(), [](const MemAccess& x, const MemAccess& y) { return !x.write && y.write; });
    }
    const std::vector<int64_t> want = brute(v);
    AliasTracker t;
    for (size_t i = 0; i < n; ++i) BOOST_TEST_REQUIRE(t.add(i, v[i].data(), v[i].size()) == want[i]);
  }
}

// Abstract execution against the emulated addresses by brute force: the
// hand-built tracelets, with a recorder of every access.
BOOST_AUTO_TEST_CASE(AbstractPairsEqualBruteForceOnTheirAddresses) {
  const CodeImage c = image();
  const std::vector<std::vector<Record>> all = {
      {rec(Kind::Call, 0x0d, 0x1b, 5, 6), rec(Kind::Ret, 0x1f, 0x12, 1, 2), rec(Kind::Jmp, 0x19, 0x00, 2, 4),
       rec(Kind::Call, 0x0d, 0x1b, 5, 6)},
      {rec(Kind::Jmp, 0x35, 0x20, 2, 8), rec(Kind::Jmp, 0x35, 0x20, 2, 8), rec(Kind::Jmp, 0x35, 0x20, 2, 8)},
      {rec(Kind::Jmp, 0x53, 0x37, 2, 9), rec(Kind::Jmp, 0x53, 0x37, 2, 9)}};
  const uint64_t seeds[] = {0, 0x20, 0x37};
  for (size_t t = 0; t < all.size(); ++t) {
    std::vector<InsnRef> insns;
    BOOST_REQUIRE(analyses::tracelet_insns(c, kBase + seeds[t], all[t].data(), all[t].size(), insns));
    AbstractExec ex(c);
    ex.reset(t);
    std::vector<std::vector<MemAccess>> v(insns.size());
    for (size_t k = 0; k < insns.size(); ++k) ex.step(insns[k].pc, insns[k].len, v[k]);
    const std::vector<int64_t> want = brute(v);
    Pairs wp;
    for (size_t k = 0; k < want.size(); ++k)
      if (want[k] >= 0) wp.emplace_back(uint32_t(k), uint32_t(want[k]));
    AbstractExec ex2(c);
    const auto got = analyses::abstract_aliases(ex2, t, insns);
    BOOST_TEST(str(got.pairs) == str(wp));
    BOOST_TEST(got.insns == insns.size());
    BOOST_TEST(got.seed_pc == kBase + seeds[t]);
  }
}

// tracelet_insns refuses records that do not fit the code.
BOOST_AUTO_TEST_CASE(TraceletInsnsChecksTheCode) {
  const CodeImage c = image();
  std::vector<InsnRef> v;
  const std::vector<Record> bad = {rec(Kind::Jmp, 0x35, 0x20, 2, 7)};  // 8 instructions, not 7
  BOOST_TEST(!analyses::tracelet_insns(c, kBase + 0x20, bad.data(), bad.size(), v));
  const std::vector<Record> ok = {rec(Kind::Jmp, 0x35, 0x20, 2, 8)};
  BOOST_TEST(analyses::tracelet_insns(c, kBase + 0x20, ok.data(), ok.size(), v));
  BOOST_TEST(v.size() == 8u);
  BOOST_TEST(v[3].pc == kBase + 0x28);
  BOOST_TEST(v[3].len == 3u);
}

// M_a by hand: A = {(1,2): 6, (3,4): 2} over 100 instructions, B = {(1,2): 3,
// (5,6): 3} over 100: M_a(A,B) = 3/8, M_a(B,A) = 3/6, bi-directional 43.75%.
// A profile that calls everything aliasing is caught by the reverse direction.
BOOST_AUTO_TEST_CASE(OverlapByHand) {
  AliasProfile a, b;
  a.instructions = b.instructions = 100;
  for (int k = 0; k < 6; ++k) a.add(1, 2, 10);
  for (int k = 0; k < 2; ++k) a.add(3, 4, 300);  // only windows 512 and 1024
  for (int k = 0; k < 3; ++k) b.add(1, 2, 10);
  for (int k = 0; k < 3; ++k) b.add(5, 6, 10);
  b.add(7, 8, 5000);  // beyond every window: not counted
  BOOST_TEST(a.total(0) == 6u);
  BOOST_TEST(a.total(1) == 8u);
  BOOST_TEST(b.total(2) == 6u);
  BOOST_TEST(analyses::alias_overlap(a, b, 1) == 37.5, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(analyses::alias_overlap(b, a, 1) == 50.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(analyses::alias_overlap_bidir(a, b, 1) == 43.75, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(analyses::alias_overlap(a, b, 0) == 50.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(analyses::alias_overlap_bidir(a, a, 2) == 100.0, boost::test_tools::tolerance(1e-9));
  AliasProfile everything = a;  // a's pairs ten times over, plus many more
  for (auto& [k, v] : everything.pairs)
    for (auto& x : v) x *= 10;
  for (int k = 0; k < 50; ++k) everything.add(100 + k, 200 + k, 1);
  BOOST_TEST(analyses::alias_overlap(a, everything, 1) == 100.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(analyses::alias_overlap_bidir(a, everything, 1) < 60.0);
}

// The side file round trip and its errors.
BOOST_AUTO_TEST_CASE(AliasFileRoundTrip) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("alias_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string f = (dir / "x.alias").string();
  std::vector<analyses::TraceletAliases> v(3);
  v[0].pairs = {{3, 0}, {5, 2}};
  v[0].memory_insns = 5;
  v[0].insns = 8;
  v[0].seed_pc = 0x400020;
  v[2].pairs = {{7, 1}};
  v[2].memory_insns = 7;
  v[2].insns = 9;
  v[2].seed_pc = 0x400037;
  analyses::write_alias_file(f, "x.hwpt.zst", v);
  const auto r = analyses::read_alias_file(f);
  BOOST_TEST_REQUIRE(r.size() == 3u);
  for (size_t k = 0; k < 3; ++k) {
    BOOST_TEST(str(r[k].pairs) == str(v[k].pairs));
    BOOST_TEST(r[k].insns == v[k].insns);
    BOOST_TEST(r[k].memory_insns == v[k].memory_insns);
    BOOST_TEST(r[k].seed_pc == v[k].seed_pc);
  }
  auto bad = [&](const std::string& text, const std::string& msg) {
    { std::ofstream(f) << text; }
    try {
      analyses::read_alias_file(f);
      BOOST_ERROR("accepted: " + text);
    } catch (const std::runtime_error& e) {
      BOOST_TEST(std::string(e.what()).find(msg) != std::string::npos, e.what());
    }
  };
  bad("hello\n", "not an alias file");
  bad("#hwprof-alias v1 tracelets=2\nt 0 0 0 5 400000\n", "1 tracelets, header says 2");
  bad("#hwprof-alias v1 tracelets=1\nt 0 1 1 5 400000\n3 3\n", ":3: bad pair");
  bad("#hwprof-alias v1 tracelets=1\nt 0 1 1 5 400000\n7 3\n", ":3: bad pair");  // load beyond the tracelet
  bad("#hwprof-alias v1 tracelets=1\nt 0 2 1 5 400000\n3 1\n", "another number of pairs");
  bad("#hwprof-alias v1 tracelets=1\nt 1 0 0 5 400000\n", ":2: bad tracelet line");
  fs::remove_all(dir);
}

// Explicit memory dependences in the timing model: a load `dist` back from
// its store waits for the store's data (an E-E edge flagged as memory); none
// with dist 0, beyond the ROB, or when the source is not a store; the
// critical path counts the memory edge's cycles.
BOOST_AUTO_TEST_CASE(ExplicitMemDepInTheTimingModel) {
  analyses::MachineConfig m;
  m.fetch = m.issue = m.mem_ports = m.commit = 100;
  m.rob = 1000;
  m.explicit_mem_deps = true;
  analyses::StaticInsn div = insn(false, false, {}, {1});
  div.cls = analyses::OpClass::IntDiv;                           // 0: r1 = ... (20 cycles)
  const analyses::StaticInsn st = insn(false, true, {1, 2}, {});  // 1: [r2] = r1
  const analyses::StaticInsn ld = insn(true, false, {3}, {4});    // 2: r4 = [r3]
  const analyses::StaticInsn use = insn(false, false, {4}, {5});  // 3: r5 = r4 + .
  for (int mode = 0; mode < 3; ++mode) {
    analyses::TimingModel tm(m);
    std::vector<analyses::Timed> t;
    t.push_back(tm.step(div, false, false));
    t.push_back(tm.step(st, false, false));
    t.push_back(tm.step(ld, false, false, mode == 0 ? 1 : mode == 1 ? 0 : 2));  // mode 2: "store" is the divide
    t.push_back(tm.step(use, false, false));
    // div E 1, store E 21 (lat 1), load: through memory E 22, else 1.
    BOOST_TEST(t[1].e == 21u);
    BOOST_TEST(t[2].e == (mode == 0 ? 22u : 1u));
    BOOST_TEST(t[2].mem_edge == (mode == 0));
    const auto p = analyses::critical_path(t);
    BOOST_TEST(p.mem_edges == (mode == 0 ? 1u : 0u));
    BOOST_TEST(p.mem_cycles == (mode == 0 ? 1u : 0u));
    BOOST_TEST(p.critical[2] == (mode == 0 ? 1 : 0));
  }
  // The expression rule is off under explicit dependences: same expression, no edge.
  analyses::StaticInsn st2 = st, ld2 = ld;
  st2.addr_expr = ld2.addr_expr = 7;
  st2.addr_base = ld2.addr_base = 2;
  ld2.src[0] = 2;
  analyses::TimingModel tm(m);
  tm.step(div, false, false);
  tm.step(st2, false, false);
  BOOST_TEST(tm.step(ld2, false, false).e == 1u);
  m.explicit_mem_deps = false;
  analyses::TimingModel tm2(m);
  tm2.step(div, false, false);
  tm2.step(st2, false, false);
  const analyses::Timed x = tm2.step(ld2, false, false);
  BOOST_TEST(x.e == 22u);
  BOOST_TEST(x.mem_edge);
  // Beyond the ROB: ignored.
  m.explicit_mem_deps = true;
  m.rob = 1;
  analyses::TimingModel tm3(m);
  tm3.step(div, false, false);
  tm3.step(st, false, false);
  tm3.step(use, false, false);
  BOOST_TEST(!tm3.step(ld, false, false, 2).mem_edge);  // the store, 2 back, beyond a ROB of 1
}

BOOST_AUTO_TEST_SUITE_END()
