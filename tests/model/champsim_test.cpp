// Unit tests of the ChampSim trace importer (host/lib/champsim.h,
// docs/champsim.md). Small ChampSim traces are built in memory with the
// register patterns ChampSim's classifier recognizes, xz-compressed with
// liblzma, imported, read back and compared field by field with expected
// records written out by hand.
#include <boost/test/unit_test.hpp>

#include <lzma.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "champsim.h"
#include "trace.h"

namespace fs = std::filesystem;
using hwprof::trace::ImportStats;
using hwprof::trace::Kind;
using hwprof::trace::Record;
using hwprof::trace::TraceError;

namespace {

// ChampSim register numbers.
constexpr uint8_t SP = 6, FLAGS = 25, IP = 26;
constexpr uint8_t RAX = 1, RBX = 2, RCX = 3;

struct CsInstr {
  uint64_t ip = 0;
  uint8_t is_branch = 0, taken = 0;
  uint8_t dst[2] = {0, 0};
  uint8_t src[4] = {0, 0, 0, 0};
  uint64_t dmem[2] = {0, 0};
  uint64_t smem[4] = {0, 0, 0, 0};
};

// Instruction builders, one per pattern of ChampSim's classifier.
CsInstr alu(uint64_t ip) { return CsInstr{ip, 0, 0, {RAX, 0}, {RBX, RCX, 0, 0}, {}, {}}; }
CsInstr load(uint64_t ip, uint64_t addr) {
  CsInstr i{ip, 0, 0, {RAX, 0}, {RBX, 0, 0, 0}, {}, {}};
  i.smem[0] = addr;
  return i;
}
CsInstr store(uint64_t ip, uint64_t addr) {
  CsInstr i{ip, 0, 0, {0, 0}, {RAX, RBX, 0, 0}, {}, {}};
  i.dmem[1] = addr;
  return i;
}
// jcc: writes IP, reads IP and FLAGS.
CsInstr jcc(uint64_t ip, bool taken) { return CsInstr{ip, 1, uint8_t(taken), {IP, 0}, {IP, FLAGS, 0, 0}, {}, {}}; }
// jrcxz-like: writes IP, reads IP and another register.
CsInstr jrcxz(uint64_t ip, bool taken) { return CsInstr{ip, 1, uint8_t(taken), {IP, 0}, {0, RCX, IP, 0}, {}, {}}; }
// jmp rel: writes IP, reads IP.
CsInstr jmp(uint64_t ip) { return CsInstr{ip, 1, 1, {IP, 0}, {IP, 0, 0, 0}, {}, {}}; }
// jmp reg: writes IP, reads another register (not IP).
CsInstr ijmp(uint64_t ip) { return CsInstr{ip, 1, 1, {0, IP}, {RAX, 0, 0, 0}, {}, {}}; }
// call rel: writes IP and SP, reads IP and SP.
CsInstr call(uint64_t ip) { return CsInstr{ip, 1, 1, {IP, SP}, {IP, SP, 0, 0}, {}, {}}; }
// call reg: writes IP and SP, reads IP, SP and another register.
CsInstr icall(uint64_t ip) { return CsInstr{ip, 1, 1, {SP, IP}, {SP, IP, RAX, 0}, {}, {}}; }
// ret: writes IP and SP, reads SP.
CsInstr ret(uint64_t ip) {
  CsInstr i{ip, 1, 1, {IP, SP}, {SP, 0, 0, 0}, {}, {}};
  i.smem[0] = 0x7ffff000;  // pops the return address
  return i;
}
// BRANCH_OTHER: writes IP, reads SP but does not write it (e.g. jmp [rsp]).
CsInstr other(uint64_t ip, bool taken) { return CsInstr{ip, 1, uint8_t(taken), {IP, 0}, {SP, 0, 0, 0}, {}, {}}; }

void put64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::string encode(const std::vector<CsInstr>& v) {
  std::string s;
  for (const CsInstr& i : v) {
    put64(s, i.ip);
    s.push_back(static_cast<char>(i.is_branch));
    s.push_back(static_cast<char>(i.taken));
    for (uint8_t r : i.dst) s.push_back(static_cast<char>(r));
    for (uint8_t r : i.src) s.push_back(static_cast<char>(r));
    for (uint64_t a : i.dmem) put64(s, a);
    for (uint64_t a : i.smem) put64(s, a);
  }
  BOOST_REQUIRE_EQUAL(s.size(), v.size() * 64);
  return s;
}

std::string xz(const std::string& raw) {
  std::vector<uint8_t> out(raw.size() + raw.size() / 2 + 1024);
  size_t pos = 0;
  lzma_ret r = lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(raw.data()),
                                       raw.size(), out.data(), &pos, out.size());
  BOOST_REQUIRE_EQUAL(r, LZMA_OK);
  return std::string(reinterpret_cast<const char*>(out.data()), pos);
}

struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::temp_directory_path() / ("hwprof_champsim_test_" + std::to_string(getpid()));
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::string p = (dir / name).string();
    std::ofstream f(p, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    BOOST_REQUIRE(f.good());
    return p;
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  // Nothing but the files the test wrote itself (no output, no temporaries).
  size_t count() const { return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator())); }
};

std::vector<Record> read_all(const std::string& path, std::string* isa = nullptr) {
  auto rd = hwprof::trace::Reader::open(path);
  if (isa) *isa = rd->header().isa;
  std::vector<Record> v;
  Record r;
  while (rd->next(r)) v.push_back(r);
  return v;
}

Record br(Kind k, uint64_t pc, uint64_t target, bool taken, unsigned ilen, uint32_t insns, uint32_t events) {
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

void check_records(const std::vector<Record>& got, const std::vector<Record>& want) {
  BOOST_REQUIRE_EQUAL(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    BOOST_TEST_CONTEXT("record " << i + 1) {
      BOOST_TEST(std::string(hwprof::trace::kind_name(got[i].kind)) == std::string(hwprof::trace::kind_name(want[i].kind)));
      BOOST_TEST(got[i].pc == want[i].pc, std::hex << "pc " << got[i].pc << " != " << want[i].pc);
      BOOST_TEST(got[i].target == want[i].target, std::hex << "target " << got[i].target << " != " << want[i].target);
      BOOST_TEST(got[i].taken == want[i].taken);
      BOOST_TEST(unsigned(got[i].ilen) == unsigned(want[i].ilen));
      BOOST_TEST(got[i].insns == want[i].insns);
      BOOST_TEST(got[i].events == want[i].events);
      BOOST_TEST(got[i].value == 0u);
      BOOST_TEST(got[i].weight == 0u);
    }
  }
}

// A loop of three iterations (taken, taken, not taken), a conditional that is
// never taken, a direct jump and a final instruction with no successor.
std::vector<CsInstr> loop_trace() {
  std::vector<CsInstr> t;
  for (int it = 0; it < 3; ++it) {
    t.push_back(alu(0x1000));           // 3 bytes
    t.push_back(load(0x1003, 0x8000));  // 4 bytes, memory event
    t.push_back(jcc(0x1007, it < 2));   // 2 bytes, back edge to 0x1000
  }
  t.push_back(store(0x1009, 0x8008));  // 5 bytes, memory event
  t.push_back(jcc(0x100e, false));     // 6 bytes, never taken
  t.push_back(jmp(0x1014));            // -> 0x2000, length never observable
  t.push_back(alu(0x2000));            // last instruction: no successor
  return t;
}

std::vector<Record> loop_expected() {
  return {
      br(Kind::Br, 0x1007, 0x1000, true, 2, 3, 1),
      br(Kind::Br, 0x1007, 0x1000, true, 2, 3, 1),
      br(Kind::Br, 0x1007, 0x1000, false, 2, 3, 1),  // static target learned from the taken instances
      br(Kind::Br, 0x100e, 0x1014, false, 6, 2, 1),  // never taken: target = pc + ilen
      br(Kind::Jmp, 0x1014, 0x2000, true, 2, 1, 0),  // ilen: all-kinds mode {2:1, 6:1} -> 2 (tie -> shorter)
  };
}

// Calls and returns (lengths learned from return addresses), an indirect
// call, an indirect jump, BRANCH_OTHER taken and not taken, and a call that
// never returns (length from the per-kind fallback).
std::vector<CsInstr> call_trace() {
  return {
      call(0x400000),              // -> 0x401000, returns to 0x400005: ilen 5
      load(0x401000, 0x9000),      //
      ret(0x401004),               // -> 0x400005
      icall(0x400005),             // -> 0x402000, returns to 0x400007: ilen 2
      ijmp(0x402000),              // -> 0x402100
      ret(0x402100),               // -> 0x400007
      alu(0x400007),               //
      other(0x40000a, true),       // -> 0x403000: ijmp
      other(0x403000, false),      // falls through to 0x403003: br, ilen 3
      call(0x403003),              // -> 0x401000, never returns
      load(0x401000, 0x9000),      //
      ret(0x401004),               // last instruction: no successor
  };
}

std::vector<Record> call_expected() {
  // All-kinds length histogram: {5:1 (call), 2:1 (icall), 3:1 (other)} -> 2.
  return {
      br(Kind::Call, 0x400000, 0x401000, true, 5, 1, 0),
      br(Kind::Ret, 0x401004, 0x400005, true, 2, 2, 2),  // ilen: all-kinds mode; load + ret's stack read
      br(Kind::Icall, 0x400005, 0x402000, true, 2, 1, 0),
      br(Kind::Ijmp, 0x402000, 0x402100, true, 2, 1, 0),  // ilen: all-kinds mode
      br(Kind::Ret, 0x402100, 0x400007, true, 2, 1, 1),
      br(Kind::Ijmp, 0x40000a, 0x403000, true, 2, 2, 0),  // BRANCH_OTHER taken
      br(Kind::Br, 0x403000, 0x403003, false, 3, 1, 0),   // BRANCH_OTHER not taken, never taken: pc + ilen
      br(Kind::Call, 0x403003, 0x401000, true, 5, 1, 0),  // ilen: per-kind (call) mode
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(champsim)

BOOST_AUTO_TEST_CASE(loop_xz) {
  TempDir tmp;
  std::string in = tmp.write("loop.champsimtrace.xz", xz(encode(loop_trace())));
  std::string out = tmp.path("loop.txt");
  ImportStats st = hwprof::trace::import_champsim(in, out);
  std::string isa;
  check_records(read_all(out, &isa), loop_expected());
  BOOST_TEST(isa == "x86_64");
  BOOST_TEST(st.instructions == 13u);
  BOOST_TEST(st.records == 5u);
  BOOST_TEST(st.kinds[static_cast<int>(Kind::Br)] == 4u);
  BOOST_TEST(st.kinds[static_cast<int>(Kind::Jmp)] == 1u);
  BOOST_TEST(st.ilen_per_ip == 4u);
  BOOST_TEST(st.ilen_per_kind == 0u);
  BOOST_TEST(st.ilen_global == 1u);
  BOOST_TEST(st.ilen_default == 0u);
  BOOST_TEST(st.target_fallback == 1u);
  BOOST_TEST(st.discontinuities == 0u);
  BOOST_TEST(st.is_branch_mismatch == 0u);
  BOOST_TEST(st.dropped_tail == 1u);
}

BOOST_AUTO_TEST_CASE(call_return_indirect_other) {
  TempDir tmp;
  std::string in = tmp.write("call.xz", xz(encode(call_trace())));
  std::string out = tmp.path("call.txt");
  ImportStats st = hwprof::trace::import_champsim(in, out, "riscv64");
  std::string isa;
  check_records(read_all(out, &isa), call_expected());
  BOOST_TEST(isa == "riscv64");
  BOOST_TEST(st.instructions == 12u);
  BOOST_TEST(st.records == 8u);
  BOOST_TEST(st.other_taken == 1u);
  BOOST_TEST(st.other_not_taken == 1u);
  BOOST_TEST(st.ilen_per_ip == 3u);    // call 0x400000, icall, other 0x403000
  BOOST_TEST(st.ilen_per_kind == 1u);  // call 0x403003
  BOOST_TEST(st.ilen_global == 4u);    // 2 rets, 2 ijmps
  BOOST_TEST(st.target_fallback == 1u);
  BOOST_TEST(st.dropped_tail == 2u);   // load and the final ret
}

// Raw (uncompressed) input and binary / zstd output give the same records.
BOOST_AUTO_TEST_CASE(raw_input_and_binary_output) {
  TempDir tmp;
  std::string raw = tmp.write("call.champsimtrace", encode(call_trace()));
  for (const char* name : {"call.hwpt", "call.hwpt.zst", "call.txt.zst"}) {
    BOOST_TEST_CONTEXT(name) {
      std::string out = tmp.path(name);
      hwprof::trace::import_champsim(raw, out);
      check_records(read_all(out), call_expected());
    }
  }
}

// Each register pattern of ChampSim's classifier, one at a time, including
// the rules that override the trace's own is_branch / branch_taken bytes.
BOOST_AUTO_TEST_CASE(classification) {
  TempDir tmp;
  CsInstr jmp_not_taken = jmp(0x10);  // direct jump: ChampSim forces taken
  jmp_not_taken.taken = 0;
  CsInstr unflagged_call = call(0x30);  // is_branch byte 0: still a call (registers decide)
  unflagged_call.is_branch = 0;
  CsInstr flagged_alu = alu(0x50);  // is_branch byte 1 without writing IP: not a branch
  flagged_alu.is_branch = 1;
  flagged_alu.taken = 1;
  std::vector<CsInstr> t = {
      jmp_not_taken,         // 0x10 -> 0x20
      jrcxz(0x20, true),     // conditional through reads_other -> 0x30
      unflagged_call,        // 0x30 -> 0x50
      flagged_alu,           // 0x50, 3 bytes
      jcc(0x53, false),      // falls through to 0x55
      alu(0x55),             // last
  };
  std::string in = tmp.write("cls.xz", xz(encode(t)));
  std::string out = tmp.path("cls.txt");
  ImportStats st = hwprof::trace::import_champsim(in, out);
  // Length histogram: {2:1} (jcc at 0x53) -> every other ilen is 2.
  check_records(read_all(out), {
                                   br(Kind::Jmp, 0x10, 0x20, true, 2, 1, 0),
                                   br(Kind::Br, 0x20, 0x30, true, 2, 1, 0),
                                   br(Kind::Call, 0x30, 0x50, true, 2, 1, 0),
                                   br(Kind::Br, 0x53, 0x55, false, 2, 2, 0),
                               });
  BOOST_TEST(st.is_branch_mismatch == 2u);
  BOOST_TEST(st.dropped_tail == 1u);
}

// A fall-through whose successor is not 1..15 bytes later teaches nothing and
// is counted; with no observation at all the fixed default length is used.
BOOST_AUTO_TEST_CASE(default_length_and_discontinuity) {
  TempDir tmp;
  std::vector<CsInstr> t = {
      jcc(0x100, false),  // successor 0x5000: not a length
      alu(0x5000),
      jmp(0x5003),  // -> 0x6000
      alu(0x6000),
  };
  std::string in = tmp.write("d.xz", xz(encode(t)));
  std::string out = tmp.path("d.txt");
  ImportStats st = hwprof::trace::import_champsim(in, out);
  unsigned d = hwprof::trace::kChampSimDefaultIlen;
  check_records(read_all(out), {
                                   br(Kind::Br, 0x100, 0x100 + d, false, d, 1, 0),
                                   br(Kind::Jmp, 0x5003, 0x6000, true, d, 2, 0),
                               });
  BOOST_TEST(st.ilen_default == 2u);
  BOOST_TEST(st.discontinuities == 1u);
  BOOST_TEST(st.target_fallback == 1u);
}

// A non-empty result file from zero or one instruction: header only.
BOOST_AUTO_TEST_CASE(empty_and_single) {
  TempDir tmp;
  std::string e = tmp.write("e.xz", xz(""));
  std::string one = tmp.write("one", encode({jmp(0x10)}));
  ImportStats s0 = hwprof::trace::import_champsim(e, tmp.path("e.txt"));
  ImportStats s1 = hwprof::trace::import_champsim(one, tmp.path("one.txt"));
  BOOST_TEST(read_all(tmp.path("e.txt")).empty());
  BOOST_TEST(read_all(tmp.path("one.txt")).empty());
  BOOST_TEST(s0.instructions == 0u);
  BOOST_TEST(s0.dropped_tail == 0u);
  BOOST_TEST(s1.instructions == 1u);
  BOOST_TEST(s1.dropped_tail == 1u);
}

BOOST_AUTO_TEST_CASE(progress_reports) {
  TempDir tmp;
  std::string in = tmp.write("p.xz", xz(encode(loop_trace())));
  uint64_t size = fs::file_size(in), last = 0, total = 0;
  int calls = 0;
  hwprof::trace::import_champsim(in, tmp.path("p.txt"), "x86_64", [&](uint64_t done, uint64_t all) {
    BOOST_TEST(done >= last);
    last = done;
    total = all;
    ++calls;
  });
  BOOST_TEST(calls >= 2);
  BOOST_TEST(total == 2 * size);
  BOOST_TEST(last == 2 * size);
}

// Malformed input: a TraceError naming the file and the byte offset, and no
// output file (nor temporary) left behind.
BOOST_AUTO_TEST_CASE(truncated_record) {
  TempDir tmp;
  std::string raw = encode(loop_trace()).substr(0, 64 * 3 + 40);
  struct Case {
    std::string name, bytes, where;
  };
  std::vector<Case> cases = {
      {"trunc.champsimtrace", raw, ": byte 192: record 4: field 'record'"},
      {"trunc.champsimtrace.xz", xz(raw), ": byte 192 (uncompressed): record 4: field 'record'"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      std::string in = tmp.write(c.name, c.bytes);
      std::string out = tmp.path(c.name + ".txt");
      size_t before = tmp.count();
      try {
        hwprof::trace::import_champsim(in, out);
        BOOST_ERROR("no TraceError");
      } catch (const TraceError& e) {
        std::string m = e.what();
        BOOST_TEST(m.find(in + c.where) == 0, "message: " << m);
        BOOST_TEST(m.find("40 of 64 bytes") != std::string::npos, "message: " << m);
      }
      BOOST_TEST(!fs::exists(out));
      BOOST_TEST(tmp.count() == before);
    }
  }
}

BOOST_AUTO_TEST_CASE(bad_xz) {
  TempDir tmp;
  std::string good = xz(encode(call_trace()));
  std::string cut = good.substr(0, good.size() - 20);  // stream ends early
  std::string flipped = good;
  flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 0x55);  // corrupt data
  std::string gz = std::string("\x1f\x8b\x08\x00", 4) + std::string(60, '\0');
  struct Case {
    std::string name, bytes, what;
  };
  std::vector<Case> cases = {
      {"cut.xz", cut, "field 'xz'"},
      {"flipped.xz", flipped, "field 'xz'"},
      {"t.gz", gz, "byte 0: field 'format'"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      std::string in = tmp.write(c.name, c.bytes);
      std::string out = tmp.path(c.name + ".hwpt");
      size_t before = tmp.count();
      try {
        hwprof::trace::import_champsim(in, out);
        BOOST_ERROR("no TraceError");
      } catch (const TraceError& e) {
        std::string m = e.what();
        BOOST_TEST(m.find(in + ": byte ") == 0, "message: " << m);
        BOOST_TEST(m.find(c.what) != std::string::npos, "message: " << m);
      }
      BOOST_TEST(!fs::exists(out));
      BOOST_TEST(tmp.count() == before);
    }
  }
  BOOST_CHECK_THROW(hwprof::trace::import_champsim(tmp.path("missing.xz"), tmp.path("m.txt")), TraceError);
  BOOST_CHECK_THROW(hwprof::trace::import_champsim("-", tmp.path("m.txt")), TraceError);
  BOOST_TEST(!fs::exists(tmp.path("m.txt")));
}

BOOST_AUTO_TEST_SUITE_END()
