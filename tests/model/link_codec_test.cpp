// The board link codec (sim_models/board/link_codec.*) against hand-written
// frames (docs/board_protocol.md, "Worked examples"; every byte below was
// written out by hand from the field tables, the CRCs with an independent
// CRC routine).
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <random>

#include "link_codec.h"

using namespace hwprof;
using namespace hwprof::link;

namespace {

std::vector<uint8_t> bytes(std::initializer_list<int> l) {
  std::vector<uint8_t> v;
  for (int x : l) v.push_back(static_cast<uint8_t>(x));
  return v;
}

// Feeds bytes; returns the good frames.
std::vector<Frame> parse(FrameParser& p, const std::vector<uint8_t>& in) {
  std::vector<Frame> out;
  for (uint8_t b : in)
    if (p.push(b) == FrameParser::Event::Frame) out.push_back(p.frame());
  return out;
}

LinkRecord branch(uint8_t kind, uint32_t pc, uint32_t target, bool taken, uint8_t ilen, uint16_t insns,
                  uint8_t events) {
  LinkRecord r;
  r.br.kind = kind;
  r.br.pc = pc;
  r.br.target = target;
  r.br.taken = taken;
  r.br.ilen = ilen;
  r.br.insns = insns;
  r.br.events = events;
  return r;
}

LinkRecord val(uint32_t value, uint16_t weight) {
  LinkRecord r;
  r.val = true;
  r.value = value;
  r.weight = weight;
  return r;
}

// The three records of the worked RECORDS example.
const std::vector<LinkRecord> kExampleRecords = {
    branch(0, 0x1000, 0x1040, true, 2, 5, 1),   // br taken: tag 28, pc +0x1000, target +0x40
    branch(0, 0x1030, 0x1000, false, 4, 3, 0),  // br not taken: pc -0x10 from 0x1040, target -0x30
    val(0x1a2b3c, 3),                           // val
};
const std::vector<uint8_t> kExamplePayload =
    bytes({0x28, 0x80, 0x40, 0x80, 0x01, 0x05, 0x01, 0x40, 0x1f, 0x5f, 0x03, 0x00, 0x06, 0xbc, 0xd6, 0x68, 0x03});

}  // namespace

BOOST_AUTO_TEST_SUITE(LinkCodec)

BOOST_AUTO_TEST_CASE(CheckValues) {
  const char* s = "123456789";
  const auto* p = reinterpret_cast<const uint8_t*>(s);
  BOOST_TEST(crc16(p, 9) == 0x29B1);
  BOOST_TEST(crc32(p, 9) == 0xCBF43926u);
  // Continuation gives the same value as one pass.
  BOOST_TEST(crc16(p + 4, 5, crc16(p, 4)) == 0x29B1);
  BOOST_TEST(crc32(p + 4, 5, crc32(p, 4)) == 0xCBF43926u);
  BOOST_TEST(crc16(p, 0) == 0xFFFF);
  BOOST_TEST(crc32(p, 0) == 0u);
}

BOOST_AUTO_TEST_CASE(ZigzagAndVarints) {
  BOOST_TEST(zigzag(0, 32) == 0u);
  BOOST_TEST(zigzag(0xFFFFFFFFu, 32) == 1u);
  BOOST_TEST(zigzag(1, 32) == 2u);
  BOOST_TEST(zigzag(0xFFFFFFFEu, 32) == 3u);
  BOOST_TEST(zigzag(0x7FFFFFFFu, 32) == 0xFFFFFFFEu);
  BOOST_TEST(zigzag(0x80000000u, 32) == 0xFFFFFFFFu);
  BOOST_TEST(zigzag(0xFFFFF, 20) == 1u);  // -1 in 20 bits
  for (uint64_t z : {0ull, 1ull, 2ull, 3ull, 0xFFFFFFFEull, 0xFFFFFFFFull}) BOOST_TEST(zigzag(unzigzag(z, 32), 32) == z);
  std::vector<uint8_t> b;
  put_varint(b, 0);
  put_varint(b, 127);
  put_varint(b, 128);
  put_varint(b, 0xFFFFFFFFu);
  BOOST_TEST(b == bytes({0x00, 0x7f, 0x80, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f}), boost::test_tools::per_element());
  size_t used = 0;
  uint64_t v = 0;
  BOOST_TEST((get_varint(b.data() + 4, 5, used, v) == DecodeStatus::Ok));
  BOOST_TEST(used == 5u);
  BOOST_TEST(v == 0xFFFFFFFFu);
  BOOST_TEST((get_varint(b.data() + 4, 3, used, v) == DecodeStatus::NeedMore));
  const auto six = bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x00});
  BOOST_TEST((get_varint(six.data(), six.size(), used, v) == DecodeStatus::Error));
}

BOOST_AUTO_TEST_CASE(HandWrittenFrames) {
  // INFO, seq 0, no payload.
  BOOST_TEST(build_frame(Type::Info, 0, {}) == bytes({0x7e, 0x01, 0x00, 0x00, 0xac, 0xfb}),
             boost::test_tools::per_element());
  // OPEN, seq 5, session 0x1234.
  BOOST_TEST(build_frame(Type::Open, 5, bytes({0x34, 0x12})) == bytes({0x7e, 0x02, 0x05, 0x02, 0x34, 0x12, 0x88, 0x7c}),
             boost::test_tools::per_element());
  // ACK, seq 6: session 0x1234, free 1000, status 0.
  std::vector<uint8_t> ack;
  put_u16(ack, 0x1234);
  put_u16(ack, 1000);
  put_u8(ack, 0);
  BOOST_TEST(build_frame(Type::Ack, 6, ack) == bytes({0x7e, 0x82, 0x06, 0x05, 0x34, 0x12, 0xe8, 0x03, 0x00, 0xd9, 0x8e}),
             boost::test_tools::per_element());
  // RECORDS, seq 6, the three example records.
  auto rec = bytes({0x7e, 0x05, 0x06, 0x11});
  rec.insert(rec.end(), kExamplePayload.begin(), kExamplePayload.end());
  rec.push_back(0xb0);
  rec.push_back(0xcb);
  BOOST_TEST(build_frame(Type::Records, 6, kExamplePayload) == rec, boost::test_tools::per_element());
  // An empty RECORDS frame, seq 7 (the host's credit poll).
  BOOST_TEST(build_frame(Type::Records, 7, {}) == bytes({0x7e, 0x05, 0x07, 0x00, 0xfb, 0xbe}),
             boost::test_tools::per_element());
  // RESULTS, seq 8, unit 2, max 1; its RESULT_DATA with one DCR entry
  // (phase 3, pred 4, depth 2, flags 0x05, hash 0x811c9dc5), and with none.
  BOOST_TEST(build_frame(Type::Results, 8, bytes({0x02, 0x01})) == bytes({0x7e, 0x08, 0x08, 0x02, 0x02, 0x01, 0xc1, 0x8e}),
             boost::test_tools::per_element());
  const auto res = bytes({0x34, 0x12, 0x01, 0x01, 0x03, 0x00, 0x04, 0x00, 0x02, 0x05, 0xc5, 0x9d, 0x1c, 0x81});
  auto res_frame = bytes({0x7e, 0x89, 0x08, 0x0e});
  res_frame.insert(res_frame.end(), res.begin(), res.end());
  res_frame.push_back(0xe5);
  res_frame.push_back(0x45);
  BOOST_TEST(build_frame(Type::ResultData, 8, res) == res_frame, boost::test_tools::per_element());
  BOOST_TEST(build_frame(Type::ResultData, 9, bytes({0x34, 0x12, 0x00, 0x00})) ==
                 bytes({0x7e, 0x89, 0x09, 0x04, 0x34, 0x12, 0x00, 0x00, 0x04, 0x7b}),
             boost::test_tools::per_element());
  // The entry layouts (docs/boards.md): the DCR entry above, a BBV entry
  // (phase 2, pred 7, distance 0x123, changed + scored), a RAP beat (last,
  // slot valid, depth 3, prefix 0x12340000, counters 1, 2^32 + 5, 0, 2^40 - 1).
  {
    model::DcrResult d;
    BOOST_TEST(get_dcr_result(res.data() + 4, 10, d));
    BOOST_TEST(d.phase == 3);
    BOOST_TEST(d.predicted == 4);
    BOOST_TEST(d.sig_depth == 2);
    BOOST_TEST(d.flags == 5);
    BOOST_TEST(d.sig_hash == 0x811c9dc5u);
    BOOST_TEST(!get_dcr_result(res.data() + 4, 9, d));
    std::vector<uint8_t> back;
    put_dcr_result(back, d);
    BOOST_TEST(back == std::vector<uint8_t>(res.begin() + 4, res.end()), boost::test_tools::per_element());
    model::DetectorResult b;
    b.phase = 2;
    b.predicted = 7;
    b.distance = 0x123;
    b.changed = true;
    b.scored = true;
    std::vector<uint8_t> bb;
    put_bbv_result(bb, b);
    BOOST_TEST(bb == bytes({0x02, 0x00, 0x07, 0x00, 0x23, 0x01, 0x05}), boost::test_tools::per_element());
    model::DetectorResult b2;
    BOOST_TEST(get_bbv_result(bb.data(), bb.size(), b2));
    BOOST_TEST((b2 == b));
    model::RapDumpBeat r;
    r.valid = true;
    r.depth = 3;
    r.prefix = 0x12340000u;
    r.count[0] = 1;
    r.count[1] = (uint64_t{1} << 32) + 5;
    r.count[3] = (uint64_t{1} << 40) - 1;
    std::vector<uint8_t> rb;
    put_rap_beat(rb, r, true);
    BOOST_TEST(rb == bytes({0x01, 0x01, 0x03, 0x00, 0x00, 0x34, 0x12, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00,
                            0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff}),
               boost::test_tools::per_element());
    model::RapDumpBeat r2;
    bool last = false;
    BOOST_TEST(get_rap_beat(rb.data(), rb.size(), r2, last));
    BOOST_TEST(last);
    BOOST_TEST((r2.valid == r.valid && r2.depth == r.depth && r2.prefix == r.prefix));
    for (int k = 0; k < 4; ++k) BOOST_TEST(r2.count[k] == r.count[k]);
  }
  {
    FrameParser fp;
    Frame got;
    for (uint8_t x : res_frame)
      if (fp.push(x) == FrameParser::Event::Frame) got = fp.frame();
    BOOST_TEST(got.type == 0x89);
    BOOST_TEST(got.seq == 8);
    BOOST_TEST(got.payload == res, boost::test_tools::per_element());
  }
  BOOST_CHECK_THROW(build_frame(Type::Records, 0, std::vector<uint8_t>(256)), std::invalid_argument);
  BOOST_CHECK_NO_THROW(build_frame(Type::Records, 0, std::vector<uint8_t>(255)));

  // The parser takes them back, whatever the noise before them.
  FrameParser p;
  auto line = bytes({0x00, 0x55, 0xff});
  line.insert(line.end(), rec.begin(), rec.end());
  const auto ackf = build_frame(Type::Ack, 6, ack);
  line.insert(line.end(), ackf.begin(), ackf.end());
  const auto got = parse(p, line);
  BOOST_REQUIRE(got.size() == 2u);
  BOOST_TEST(got[0].type == 0x05);
  BOOST_TEST(got[0].seq == 6);
  BOOST_TEST(got[0].payload == kExamplePayload, boost::test_tools::per_element());
  BOOST_TEST(got[1].type == 0x82);
  BOOST_TEST(got[1].payload == ack, boost::test_tools::per_element());
  BOOST_TEST(p.discarded == 3u);
  BOOST_TEST(p.crc_errors == 0u);
}

BOOST_AUTO_TEST_CASE(ParserDropsBadFrames) {
  const auto good = build_frame(Type::Open, 5, bytes({0x34, 0x12}));
  // Every single-bit flip of every byte after the SOF is caught: either a
  // CRC error or (for the len byte) a frame that is still open when the line
  // goes quiet. Never a good frame with other contents.
  for (size_t i = 1; i < good.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      FrameParser p;
      auto f = good;
      f[i] ^= static_cast<uint8_t>(1 << bit);
      const auto got = parse(p, f);
      BOOST_TEST(got.empty());
      p.timeout();
      BOOST_TEST(p.crc_errors + p.timeouts == 1u);
      // The next good frame is taken.
      const auto again = parse(p, good);
      BOOST_REQUIRE(again.size() == 1u);
      BOOST_TEST(again[0].payload == bytes({0x34, 0x12}), boost::test_tools::per_element());
    }
  // A dropped byte: the frame is incomplete, the inter-byte timeout drops it.
  {
    FrameParser p;
    auto f = good;
    f.erase(f.begin() + 4);
    BOOST_TEST(parse(p, f).empty());
    BOOST_TEST(p.in_frame());
    p.timeout();
    BOOST_TEST(p.timeouts == 1u);
    BOOST_TEST(!p.in_frame());
    BOOST_TEST(parse(p, good).size() == 1u);
  }
  // A timeout outside a frame counts nothing.
  {
    FrameParser p;
    p.timeout();
    BOOST_TEST(p.timeouts == 0u);
  }
}

BOOST_AUTO_TEST_CASE(RecordEncoding) {
  RecordEncoder enc;
  std::vector<uint8_t> b;
  for (const auto& r : kExampleRecords) enc.encode(r, b);
  BOOST_TEST(b == kExamplePayload, boost::test_tools::per_element());
  BOOST_TEST(enc.prev_next() == 0x1034u);  // the not-taken br: 0x1030 + 4
  RecordDecoder dec;
  std::vector<LinkRecord> out;
  BOOST_TEST(dec.decode_payload(b.data(), b.size(), out));
  BOOST_REQUIRE(out.size() == 3u);
  for (size_t i = 0; i < 3; ++i) BOOST_TEST((out[i] == kExampleRecords[i]));
  // prev_next runs across payloads: a branch at 0xfffffff0 after 0x1034
  // (delta -0x1044, zigzag 0x2087 = 87 41), target 0x10 (+0x20 modulo 2^32, 40).
  std::vector<uint8_t> b2;
  const auto far = branch(3, 0xfffffff0u, 0x10, true, 5, 1, 0);
  enc.encode(far, b2);
  BOOST_TEST(b2 == bytes({0x5b, 0x87, 0x41, 0x40, 0x01, 0x00}), boost::test_tools::per_element());
  out.clear();
  BOOST_TEST(dec.decode_payload(b2.data(), b2.size(), out));
  BOOST_REQUIRE(out.size() == 1u);
  BOOST_TEST((out[0] == far));
  // A record split anywhere: NeedMore, nothing consumed.
  for (size_t cut = 0; cut < 6; ++cut) {
    RecordDecoder d;
    size_t used = 0;
    LinkRecord r;
    BOOST_TEST((d.decode(kExamplePayload.data(), cut, used, r) == DecodeStatus::NeedMore));
    BOOST_TEST(d.prev_next() == 0u);
  }
  std::vector<LinkRecord> o2;
  RecordDecoder d2;
  BOOST_TEST(!d2.decode_payload(kExamplePayload.data(), 9, o2));  // ends inside record 2
  BOOST_TEST(o2.size() == 1u);
}

BOOST_AUTO_TEST_CASE(RecordErrors) {
  auto bad = [](const std::vector<uint8_t>& b, unsigned addr_w = 32) {
    RecordDecoder d(addr_w);
    size_t used = 0;
    LinkRecord r;
    return d.decode(b.data(), b.size(), used, r) == DecodeStatus::Error;
  };
  BOOST_TEST(bad(bytes({0x07, 0, 0, 1, 0})));                          // kind 7
  BOOST_TEST(bad(bytes({0x0e, 1, 1})));                                // val with taken bit
  BOOST_TEST(bad(bytes({0x28, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00})));  // 6-byte varint
  BOOST_TEST(bad(bytes({0x28, 0x80, 0x80, 0x80, 0x80, 0x20, 0, 1, 0})));  // pc delta >= 2^32
  BOOST_TEST(bad(bytes({0x28, 0, 0, 0x80, 0x80, 0x04, 0})));           // insns 0x10000
  BOOST_TEST(bad(bytes({0x28, 0, 0, 1, 0x80, 0x02})));                 // events 0x100
  BOOST_TEST(bad(bytes({0x06, 1, 0x80, 0x80, 0x04})));                 // weight 0x10000
  BOOST_TEST(bad(bytes({0x06, 0x80, 0x80, 0x40, 1}), 20));             // value 2^20 with AddrW 20
  BOOST_TEST(!bad(bytes({0x06, 0xff, 0xff, 0x3f, 1}), 20));            // value 2^20-1 fits
  RecordEncoder e(20);
  std::vector<uint8_t> b;
  BOOST_CHECK_THROW(e.encode(branch(0, 0x100000, 0, true, 1, 1, 0), b), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(RandomRoundTrip) {
  for (unsigned addr_w : {32u, 20u, 12u}) {
    std::mt19937_64 rng(addr_w);
    const uint32_t m = addr_mask(addr_w);
    std::vector<LinkRecord> in;
    uint32_t pc = 0x400 & m;
    for (int i = 0; i < 5000; ++i) {
      if (rng() % 8 == 0) {
        in.push_back(val(static_cast<uint32_t>(rng()) & m, static_cast<uint16_t>(rng())));
        continue;
      }
      const bool far = rng() % 16 == 0;
      pc = (far ? static_cast<uint32_t>(rng()) : pc + static_cast<uint32_t>(rng() % 64)) & m;
      const uint8_t kind = static_cast<uint8_t>(rng() % 6);
      const bool taken = kind != 0 || (rng() & 1);
      auto r = branch(kind, pc, static_cast<uint32_t>(rng()) & m, taken, static_cast<uint8_t>(1 + rng() % 15),
                      static_cast<uint16_t>(1 + rng() % 0xFFFF), static_cast<uint8_t>(rng()));
      in.push_back(r);
      pc = r.br.next() & m;
    }
    RecordEncoder enc(addr_w);
    RecordDecoder dec(addr_w);
    std::vector<LinkRecord> out;
    // Frames of whole records, at most 255 bytes each.
    std::vector<uint8_t> payload;
    for (const auto& r : in) {
      if (payload.size() + enc.size(r) > kMaxPayload) {
        BOOST_REQUIRE(dec.decode_payload(payload.data(), payload.size(), out));
        payload.clear();
      }
      enc.encode(r, payload);
    }
    BOOST_REQUIRE(dec.decode_payload(payload.data(), payload.size(), out));
    BOOST_REQUIRE(out.size() == in.size());
    for (size_t i = 0; i < in.size(); ++i) BOOST_TEST_REQUIRE((out[i] == in[i]), "record " << i);
  }
}

BOOST_AUTO_TEST_CASE(InfoBlock) {
  BoardInfo i;
  i.board = 3;
  i.clk_hz = 25'000'000;
  i.baud = 3'000'000;
  i.rxbuf = 4096;
  i.units.push_back({0, 1, {4, 16, 32, 128, 4, 32}});
  std::vector<uint8_t> answer = bytes({0x00, 0x00});  // session 0 before OPEN
  const auto id = encode_info(i);
  answer.insert(answer.end(), id.begin(), id.end());
  const auto expect = bytes({0x7e, 0x81, 0x00, 0x2e, 0x00, 0x00, 0x48, 0x57, 0x50, 0x46, 0x01, 0x03, 0x40, 0x78,
                             0x7d, 0x01, 0xc0, 0xc6, 0x2d, 0x00, 0x00, 0x10, 0x01, 0x00, 0x01, 0x06, 0x04, 0x00,
                             0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00,
                             0x04, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0xba, 0x0d});
  BOOST_TEST(build_frame(Type::InfoData, 0, answer) == expect, boost::test_tools::per_element());
  BoardInfo back;
  std::string err;
  BOOST_TEST(decode_info(id.data(), id.size(), back, err));
  BOOST_TEST((back == i));
  auto wrong = id;
  wrong[0] = 'X';
  BOOST_TEST(!decode_info(wrong.data(), wrong.size(), back, err));
  BOOST_TEST(err.find("magic") != std::string::npos);
  BOOST_TEST(!decode_info(id.data(), id.size() - 1, back, err));
  BOOST_TEST(err.find("truncated") != std::string::npos);
  auto longer = id;
  longer.push_back(0);
  BOOST_TEST(!decode_info(longer.data(), longer.size(), back, err));
}

BOOST_AUTO_TEST_CASE(PayloadReader) {
  const auto b = bytes({0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0x9a});
  Reader r(b);
  BOOST_TEST(r.u16() == 0x1234);
  BOOST_TEST(r.u32() == 0x12345678u);
  BOOST_TEST(r.u8() == 0x9a);
  BOOST_TEST(r.ok());
  BOOST_TEST(r.u8() == 0);
  BOOST_TEST(!r.ok());
}

BOOST_AUTO_TEST_SUITE_END()
