// libFuzzer harness: the board link codec (sim_models/board/link_codec,
// docs/board_protocol.md) on arbitrary bytes, as the host receives them from
// a board and as the board's model receives them from a host.
// Properties: nothing throws or crashes; every frame the parser accepts has
// at most 255 payload bytes and survives build_frame + a fresh parser
// unchanged; every record stream the decoder accepts re-encodes to records
// that decode back equal (with the same address width); an ID block that
// decodes re-encodes to one that decodes equal; DCR / BBV result entries and
// RAP dump beats decode, re-encode and decode equal (the DCR entry byte for
// byte).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "link_codec.h"

namespace {

using namespace hwprof::link;

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_link: %s\n", what);
  std::abort();
}

void frames(const uint8_t* data, size_t size) {
  FrameParser p;
  for (size_t i = 0; i < size; ++i) {
    if (p.push(data[i]) != FrameParser::Event::Frame) continue;
    const Frame f = p.frame();
    if (f.payload.size() > 255) finding("a frame with more than 255 payload bytes");
    const std::vector<uint8_t> bytes = build_frame(f.type, f.seq, f.payload);
    FrameParser q;
    bool got = false;
    for (const uint8_t b : bytes) {
      if (q.push(b) == FrameParser::Event::Frame) {
        got = true;
        if (q.frame().type != f.type || q.frame().seq != f.seq || q.frame().payload != f.payload)
          finding("a rebuilt frame parses differently");
      }
    }
    if (!got) finding("a rebuilt frame does not parse");
  }
}

void records(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const unsigned addr_w = 1 + data[0] % 32;
  RecordDecoder dec(addr_w);
  std::vector<LinkRecord> recs;
  dec.decode_payload(data + 1, size - 1, recs);  // records before an error are kept
  RecordEncoder enc(addr_w);
  std::vector<uint8_t> bytes;
  for (const LinkRecord& r : recs) enc.encode(r, bytes);
  RecordDecoder again(addr_w);
  std::vector<LinkRecord> back;
  if (!again.decode_payload(bytes.data(), bytes.size(), back)) finding("re-encoded records do not decode");
  if (back != recs) finding("re-encoded records decode differently");
}

void info(const uint8_t* data, size_t size) {
  BoardInfo bi;
  std::string error;
  if (!decode_info(data, size, bi, error)) {
    if (error.empty()) finding("an ID block refused without a reason");
    return;
  }
  const std::vector<uint8_t> bytes = encode_info(bi);
  BoardInfo back;
  if (!decode_info(bytes.data(), bytes.size(), back, error) || !(back == bi))
    finding("a re-encoded ID block decodes differently");
}

}  // namespace

void entries(const uint8_t* data, size_t size) {
  for (size_t i = 0; i + kDcrResultBytes <= size; i += kDcrResultBytes) {
    hwprof::model::DcrResult d;
    if (!get_dcr_result(data + i, size - i, d)) finding("a whole DCR entry does not decode");
    std::vector<uint8_t> b;
    put_dcr_result(b, d);
    if (b != std::vector<uint8_t>(data + i, data + i + kDcrResultBytes)) finding("a DCR entry re-encodes differently");
  }
  for (size_t i = 0; i + kBbvResultBytes <= size; i += kBbvResultBytes) {
    hwprof::model::DetectorResult r, r2;
    if (!get_bbv_result(data + i, size - i, r)) finding("a whole BBV entry does not decode");
    std::vector<uint8_t> b;
    put_bbv_result(b, r);
    if (!get_bbv_result(b.data(), b.size(), r2) || !(r2 == r)) finding("a BBV entry does not survive re-encoding");
  }
  for (size_t i = 0; i + kRapDumpBytes <= size; i += kRapDumpBytes) {
    hwprof::model::RapDumpBeat x, y;
    bool l1 = false, l2 = false;
    if (!get_rap_beat(data + i, size - i, x, l1)) finding("a whole RAP beat does not decode");
    std::vector<uint8_t> b;
    put_rap_beat(b, x, l1);
    if (!get_rap_beat(b.data(), b.size(), y, l2) || l1 != l2 || x.valid != y.valid || x.depth != y.depth ||
        x.prefix != y.prefix || x.count[0] != y.count[0] || x.count[1] != y.count[1] || x.count[2] != y.count[2] ||
        x.count[3] != y.count[3])
      finding("a RAP beat does not survive re-encoding");
  }
  if (size < kBbvResultBytes) {
    hwprof::model::DcrResult d;
    if (get_dcr_result(data, size, d)) finding("a short DCR entry decodes");
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  entries(data, size);
  frames(data, size);
  records(data, size);
  info(data, size);
  return 0;
}
