// Trace library: val records that carry the accessing instruction's pc
// (`val VALUE WEIGHT PC`, binary tag 0x0e; docs/formats.md, docs/rap2d.md):
// text and binary round trips mixed with old records, byte-exact binary
// encoding, old traces unchanged, and located errors.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "trace.h"

using namespace hwprof::trace;

namespace {

std::string tmp(const std::string& name) {
  return std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/hwprof_model_test_pc_" + name;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::vector<Record> all(const std::string& path) {
  std::vector<Record> v;
  for_each(path, [&](const Record& r) { v.push_back(r); });
  return v;
}

std::string err(const std::string& text, bool binary = false) {
  const std::string p = tmp(binary ? "bad.hwpt" : "bad.trace");
  std::ofstream(p, std::ios::binary) << text;
  try {
    scan(p);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

Record val(uint64_t v, uint32_t w) {
  Record r;
  r.kind = Kind::Val;
  r.value = v;
  r.weight = w;
  return r;
}

Record valpc(uint64_t v, uint32_t w, uint64_t pc) {
  Record r = val(v, w);
  r.pc = pc;
  r.has_pc = true;
  return r;
}

void write(const std::string& path, const std::vector<Record>& v) {
  Format f;
  bool z;
  format_from_name(path, f, z);
  Writer w(path, f, z, "x86_64");
  for (const Record& r : v) w.write(r);
  w.commit();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(trace_pc)

BOOST_AUTO_TEST_CASE(TextValWithPcParsesAndOldFormsStay) {
  const std::string p = tmp("a.trace");
  std::ofstream(p) << "#hwprof-trace v1 isa=x86_64\n"
                      "val 1a2b3c 3 4005d0\n"
                      "val ff\n"
                      "val 10 2\n"
                      "val\tFFFFFFFFFFFFFFFF\t1\tFFFFFFFFFFFFFFFF\n";
  const auto v = all(p);
  BOOST_TEST_REQUIRE(v.size() == 4u);
  BOOST_TEST((v[0] == valpc(0x1a2b3c, 3, 0x4005d0)));
  BOOST_TEST((v[1] == val(0xff, 1)));
  BOOST_TEST(!v[1].has_pc);
  BOOST_TEST((v[2] == val(0x10, 2)));
  BOOST_TEST((v[3] == valpc(~uint64_t{0}, 1, ~uint64_t{0})));
  const Info i = scan(p);
  BOOST_TEST(i.kinds[static_cast<int>(Kind::Val)] == 4u);
  BOOST_TEST(i.val_pcs == 2u);
  // A pc of 0 is a pc (has_pc), not "no pc".
  std::ofstream(p) << "#hwprof-trace v1\nval 5 1 0\n";
  const auto z = all(p);
  BOOST_TEST_REQUIRE(z.size() == 1u);
  BOOST_TEST(z[0].has_pc);
  BOOST_TEST(z[0].pc == 0u);
  BOOST_TEST((z[0] != val(5, 1)));
}

BOOST_AUTO_TEST_CASE(BinaryEncodingIsByteExact) {
  // tag 0x0e, value, weight, zigzag(pc - previous val pc); the delta chain
  // is separate from the branch records' prev_next.
  const std::string p = tmp("b.hwpt");
  Record br;
  br.kind = Kind::Br;
  br.pc = 0x10;
  br.target = 0x20;
  br.taken = true;
  br.ilen = 2;
  br.insns = 1;
  write(p, {valpc(0x05, 1, 0x100), br, valpc(0x06, 2, 0xfe), val(0x07, 1)});
  const std::string b = slurp(p);
  const std::string header = std::string("HWPTRACE") + '\x01' + '\x06' + "x86_64";
  std::string rec;
  rec += std::string("\x0e\x05\x01\x80\x04", 5);  // pc 0x100: zigzag 0x200 = 80 04
  rec += std::string("\x28\x20\x20\x01\x00", 5);  // br: tag 0x28 (taken, ilen 2), zigzag(0x10), zigzag(0x10), 1, 0
  rec += std::string("\x0e\x06\x02\x03", 4);      // pc 0xfe: delta -2 -> zigzag 3
  rec += std::string("\x06\x07\x01", 3);          // old form, unchanged
  const std::string end = std::string("\xff\x04", 2) + "END!";
  BOOST_TEST(b == header + rec + end);
  const auto v = all(p);
  BOOST_TEST_REQUIRE(v.size() == 4u);
  BOOST_TEST((v[0] == valpc(0x05, 1, 0x100)));
  BOOST_TEST((v[1] == br));
  BOOST_TEST((v[2] == valpc(0x06, 2, 0xfe)));
  BOOST_TEST((v[3] == val(0x07, 1)));
}

BOOST_AUTO_TEST_CASE(RandomMixedStreamsRoundTripEveryFormat) {
  std::mt19937_64 rng(23);
  std::vector<Record> v;
  uint64_t pc = 0x400000;
  for (int i = 0; i < 5000; ++i) {
    const unsigned k = rng() % 4;
    if (k == 0) {
      v.push_back(val(rng(), 1 + static_cast<uint32_t>(rng() % 1000)));
    } else if (k == 1) {
      v.push_back(valpc(rng(), 1 + static_cast<uint32_t>(rng() % 3), rng() % 8 ? pc + rng() % 64 : rng()));
    } else {
      Record r;
      r.kind = static_cast<Kind>(rng() % 6);
      r.pc = pc + rng() % 64;
      r.target = r.pc + rng() % 300;
      r.taken = r.kind != Kind::Br || (rng() & 1);
      r.ilen = static_cast<uint8_t>(1 + rng() % 15);
      r.insns = 1 + static_cast<uint32_t>(rng() % 40);
      pc = r.next();
      v.push_back(r);
    }
  }
  for (const std::string name : {"r.trace", "r.trace.zst", "r.hwpt", "r.hwpt.zst"}) {
    BOOST_TEST_CONTEXT(name) {
      const std::string p = tmp(name);
      write(p, v);
      const auto back = all(p);
      BOOST_TEST_REQUIRE(back.size() == v.size());
      for (size_t i = 0; i < v.size(); ++i) BOOST_TEST_REQUIRE((back[i] == v[i]), "record " << i);
    }
  }
}

BOOST_AUTO_TEST_CASE(ErrorsAreLocated) {
  const std::string h = "#hwprof-trace v1\n";
  auto has = [](const std::string& msg, const std::string& part) {
    BOOST_TEST_INFO("message: " << msg);
    BOOST_TEST(msg.find(part) != std::string::npos);
  };
  has(err(h + "val 1 1 4g\n"), "bad.trace:2: field 'pc': '4g' is not a hex number");
  has(err(h + "val 1 1 4 5\n"), "a val record has 2 or 3 fields");
  has(err(h + "val 1 0 4\n"), "field 'weight': must be >= 1");
  has(err(h + "val 1 1 10000000000000000\n"), "field 'pc'");
  // Binary: tag 0x0e with a truncated pc; tag 0x16 (ilen bits) is rejected.
  const std::string hb = std::string("HWPTRACE") + '\x01' + '\x00';
  has(err(hb + std::string("\x0e\x01\x01", 3), true), "field 'pc': unexpected end of file");
  has(err(hb + std::string("\x16\x01\x01", 3) + std::string("\xff\x01", 2) + "END!", true),
      "field 'tag': val record with ilen bits set");
  // The writer rejects a val record with a stray pc and a branch with has_pc.
  Record bad = val(1, 1);
  bad.pc = 4;
  BOOST_TEST(check_record(bad) == "field 'pc': a val record without a pc must have pc 0");
  Record b2;
  b2.kind = Kind::Jmp;
  b2.pc = 1;
  b2.target = 2;
  b2.taken = true;
  b2.ilen = 1;
  b2.insns = 1;
  BOOST_TEST(check_record(b2).empty());
  b2.has_pc = true;
  BOOST_TEST(check_record(b2) == "field 'pc': only val records carry has_pc");
}

BOOST_AUTO_TEST_CASE(ShippedValTraceStillReadsWithoutPcs) {
  const Info i = scan(std::string(HWPROF_TRACE_DIR) + "/val/gzip_mem.hwpt.zst");
  BOOST_TEST(i.kinds[static_cast<int>(Kind::Val)] > 0u);
  BOOST_TEST(i.val_pcs == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
