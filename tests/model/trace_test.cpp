// Trace library: text v1 and binary round trips, zstd, and located errors.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "trace.h"

using namespace hwprof::trace;

namespace {

std::string tmp_path(const std::string& name) {
  return std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/hwprof_model_test_" + name;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::vector<Record> read_all(const std::string& path) {
  std::vector<Record> v;
  for_each(path, [&](const Record& r) { v.push_back(r); });
  return v;
}

// Writes `text` to a temporary file called `name`, scans it and returns the
// TraceError message ("" if the file was valid).
std::string error_of(const std::string& text, const std::string& name = "bad.trace") {
  const std::string p = tmp_path(name);
  write_file(p, text);
  try {
    scan(p);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

// Checks that an error message contains `part`.
void has(const std::string& msg, const std::string& part) {
  BOOST_TEST_INFO("message: " << msg);
  BOOST_TEST(msg.find(part) != std::string::npos);
}

std::vector<Record> random_records(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::vector<Record> v;
  uint64_t pc = 0x40028fc7e1;
  for (size_t i = 0; i < n; ++i) {
    Record r;
    if (rng() % 10 == 0) {
      r.kind = Kind::Val;
      r.value = rng();
      r.weight = 1 + static_cast<uint32_t>(rng() % 1000);
    } else {
      r.kind = static_cast<Kind>(rng() % 6);
      r.pc = (rng() % 4 == 0) ? rng() : pc + rng() % 64;
      r.target = (rng() % 2) ? r.pc - rng() % 300 : r.pc + rng() % 300;
      r.taken = r.kind != Kind::Br || (rng() & 1);
      r.ilen = static_cast<uint8_t>(1 + rng() % 15);
      r.insns = 1 + static_cast<uint32_t>(rng() % ((rng() % 50 == 0) ? 0xffffffffull : 40));
      r.events = static_cast<uint32_t>(rng() % 5);
      pc = r.next();
    }
    v.push_back(r);
  }
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(trace_formats)

BOOST_AUTO_TEST_CASE(ReadsTheSpecExampleExactly) {
  const std::string p = tmp_path("spec.trace");
  write_file(p,
             "#hwprof-trace v1 isa=x86_64\n"
             "# comment lines start with '#'\n"
             "br 40028fc7e1 40028fc878 0 6 28 0\n"
             "call 4002825b73 4002826770 1 5 2 0\n"
             "val 1a2b3c 3\n"
             "val\tFF\n");
  auto v = read_all(p);
  BOOST_REQUIRE_EQUAL(v.size(), 4u);
  BOOST_TEST((v[0].kind == Kind::Br));
  BOOST_TEST(v[0].pc == 0x40028fc7e1ull);
  BOOST_TEST(v[0].target == 0x40028fc878ull);
  BOOST_TEST(!v[0].taken);
  BOOST_TEST(v[0].ilen == 6);
  BOOST_TEST(v[0].insns == 28u);
  BOOST_TEST(v[0].next() == 0x40028fc7e7ull);
  BOOST_TEST((v[1].kind == Kind::Call));
  BOOST_TEST(v[1].next() == 0x4002826770ull);
  BOOST_TEST((v[2].kind == Kind::Val));
  BOOST_TEST(v[2].value == 0x1a2b3cu);
  BOOST_TEST(v[2].weight == 3u);
  BOOST_TEST(v[3].value == 0xffu);
  BOOST_TEST(v[3].weight == 1u);  // default weight
  Info info = scan(p);
  BOOST_TEST(info.records == 4u);
  BOOST_TEST(info.instructions == 30u);
  BOOST_TEST(info.header.isa == "x86_64");
}

BOOST_AUTO_TEST_CASE(RoundTripsEveryFormat) {
  const auto recs = random_records(7, 20000);
  for (const char* name : {"rt.trace", "rt.trace.zst", "rt.hwpt", "rt.hwpt.zst"}) {
    const std::string p = tmp_path(name);
    Format f;
    bool z;
    format_from_name(p, f, z);
    {
      Writer w(p, f, z, "x86_64");
      for (const auto& r : recs) w.write(r);
      w.commit();
    }
    auto back = read_all(p);
    BOOST_REQUIRE_EQUAL(back.size(), recs.size());
    for (size_t i = 0; i < recs.size(); ++i) BOOST_REQUIRE_MESSAGE(back[i] == recs[i], name << " record " << i);
    auto rd = Reader::open(p);
    BOOST_TEST((rd->header().format == f));
    BOOST_TEST(rd->header().compressed == z);
    BOOST_TEST(rd->header().isa == "x86_64");
  }
}

BOOST_AUTO_TEST_CASE(WriterLeavesNothingBehindWithoutCommit) {
  const std::string p = tmp_path("nocommit.hwpt");
  std::remove(p.c_str());
  {
    Writer w(p, Format::Binary, false, "");
    w.write(random_records(1, 1)[0]);
  }
  BOOST_TEST(!std::ifstream(p).good());
}

BOOST_AUTO_TEST_CASE(TextErrorsNameFileLineAndField) {
  const std::string h = "#hwprof-trace v1\n";
  has(error_of(""), "bad.trace:1: empty file");
  has(error_of("br 1 2 0 4 1 0\n"), "bad.trace:1: missing header");
  has(error_of("#hwprof-trace v2\n"), "unsupported trace version 'v2'");
  has(error_of(h + "foo 1 2 1 4 1 0\n"), "bad.trace:2: field 'kind': unknown kind 'foo'");
  has(error_of(h + "br 1zz 2 1 4 1 0\n"), "bad.trace:2: field 'pc': '1zz' is not a hex number");
  has(error_of(h + "br 0x10 2 1 4 1 0\n"), "field 'pc': '0x10': addresses are hex without '0x'");
  has(error_of(h + "# c\nbr 1 2 1 4 1\n"), "bad.trace:3: field 'events': missing field");
  has(error_of(h + "br 1 2 1 4 0 0\n"), "bad.trace:2: field 'insns': must be >= 1");
  has(error_of(h + "br 1 2 2 4 1 0\n"), "field 'taken': '2' must be 0 or 1");
  has(error_of(h + "jmp 1 2 0 4 1 0\n"), "field 'taken': 0 is only legal for a conditional branch");
  has(error_of(h + "br 1 2 1 0 1 0\n"), "field 'ilen': 0 is not an instruction length");
  has(error_of(h + "br 1 2 1 16 1 0\n"), "field 'ilen': 16 is not an instruction length");
  has(error_of(h + "br 1 2 1 4 1 -3\n"), "field 'events': '-3' is not a decimal number");
  has(error_of(h + "br 1 2 1 4 99999999999 0\n"), "field 'insns': '99999999999' is out of range");
  has(error_of(h + "br  1 2 1 4 1 0\n"), "empty field (two separators in a row)");
  has(error_of(h + "br 1 2 1 4 1 0 \n"), "trailing separator");
  has(error_of(h + "br 1 2 1 4 1 0 7\n"), "too many fields");
  has(error_of(h + "val 12 0\n"), "field 'weight': must be >= 1");
  has(error_of(h + "val\n"), "a val record has 2 or 3 fields");
  // A good record after garbage does not rescue the file.
  has(error_of(h + "br 1 2 1 4 1 0\n%%garbage\nbr 1 2 1 4 1 0\n"), "bad.trace:3: field 'kind': unknown kind '%%garbage'");
}

BOOST_AUTO_TEST_CASE(BinaryErrorsNameByteOffsetAndField) {
  const std::string good = tmp_path("good.hwpt");
  {
    Writer w(good, Format::Binary, false, "x86_64");
    for (const auto& r : random_records(3, 100)) w.write(r);
    w.commit();
  }
  const std::string bytes = read_file(good);
  auto err = [](const std::string& data) { return error_of(data, "bad.hwpt"); };
  has(err(bytes.substr(0, bytes.size() / 2)), "unexpected end of file");
  has(err(bytes.substr(0, bytes.size() - 6)), "truncated");
  std::string bad_magic = bytes;
  bad_magic[1] = 'X';
  has(err(bad_magic), "bad.hwpt: byte 2: field 'magic': not an HWPT binary trace");
  std::string bad_ver = bytes;
  bad_ver[8] = 9;
  has(err(bad_ver), "unsupported binary trace version 9");
  std::string bad_kind = bytes;
  const size_t first = 8 + 2 + 6;  // magic, version, isa length, "x86_64"
  bad_kind[first] = static_cast<char>(0x47);  // kind code 7
  has(err(bad_kind), "byte " + std::to_string(first) + ": record 1: field 'kind': unknown kind code 7");
  std::string bad_ilen = bytes;
  bad_ilen[first] = static_cast<char>(bad_ilen[first] & 0x0f);  // ilen 0
  has(err(bad_ilen), "field 'ilen': 0 is not an instruction length");
  has(err(bytes + "x"), "data after the end marker");
}

// The ISA name: what one format accepts, the other can hold (a fuzzer found a
// 300-byte text name the binary writer could not write).
BOOST_AUTO_TEST_CASE(IsaNamesAreCheckedAlikeByBothReadersAndTheWriter) {
  const std::string rec = "br 1 2 1 4 1 0\n";
  has(error_of("#hwprof-trace v1 isa=" + std::string(256, 'I') + "\n" + rec),
      "bad.trace:1: field 'isa': isa name is 256 bytes (at most 255)");
  has(error_of("#hwprof-trace v1 isa=x\xfe\n" + rec), "field 'isa': isa name holds byte 0xfe");
  BOOST_TEST(error_of("#hwprof-trace v1 isa=" + std::string(255, 'I') + "\n" + rec) == "");
  // Binary: a blank inside the name would not survive the text header.
  std::string bin = std::string("HWPTRACE") + '\x01' + '\x03' + "a b" + '\xff' + '\x00' + "END!";
  has(error_of(bin, "bad.hwpt"), "bad.hwpt: byte 13: field 'isa': isa name holds byte 0x20");
  for (Format f : {Format::Text, Format::Binary}) {
    const std::string p = tmp_path("isa.out");
    std::string msg;
    try {
      Writer w(p, f, false, "riscv 32");
    } catch (const TraceError& e) {
      msg = e.what();
    }
    has(msg, "isa.out: isa name holds byte 0x20");
    BOOST_TEST(!std::ifstream(p).good());
  }
}

BOOST_AUTO_TEST_CASE(CorruptZstdIsReported) {
  const std::string p = tmp_path("z.hwpt.zst");
  {
    Writer w(p, Format::Binary, true, "");
    for (const auto& r : random_records(5, 5000)) w.write(r);
    w.commit();
  }
  const std::string bytes = read_file(p);
  write_file(p, bytes.substr(0, bytes.size() / 2));
  BOOST_CHECK_EXCEPTION(scan(p), TraceError, [](const TraceError& e) {
    std::string m = e.what();
    return m.find("truncated") != std::string::npos || m.find("unexpected end") != std::string::npos;
  });
}

BOOST_AUTO_TEST_SUITE_END()
