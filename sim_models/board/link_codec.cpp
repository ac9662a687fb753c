#include "link_codec.h"

#include <stdexcept>

namespace hwprof::link {

const char* type_name(uint8_t t) {
  switch (t) {
    case 0x01: return "INFO";
    case 0x02: return "OPEN";
    case 0x03: return "REG_WRITE";
    case 0x04: return "REG_READ";
    case 0x05: return "RECORDS";
    case 0x06: return "FLUSH";
    case 0x07: return "DUMP";
    case 0x08: return "RESULTS";
    case 0x09: return "LINK_STATUS";
    case 0x81: return "INFO_DATA";
    case 0x82: return "ACK";
    case 0x84: return "DATA";
    case 0x86: return "FLUSHED";
    case 0x87: return "DUMP_DATA";
    case 0x88: return "DUMP_END";
    case 0x89: return "RESULT_DATA";
    case 0x8A: return "LINK_STATUS_DATA";
    case 0xFE: return "NAK";
    case 0xFF: return "ERROR";
    default: return "unknown";
  }
}

const char* nak_name(uint8_t r) {
  switch (r) {
    case 1: return "OutOfOrder";
    case 2: return "NoRoom";
    case 3: return "BadType";
    case 4: return "BadLength";
    case 5: return "BadUnit";
    default: return "unknown";
  }
}

const char* error_name(uint8_t c) {
  switch (c) {
    case 1: return "NoSession";
    case 2: return "RecordError";
    default: return "unknown";
  }
}

const char* board_name(uint8_t b) {
  switch (b) {
    case 1: return "icebreaker";
    case 2: return "ulx3s";
    case 3: return "virtual";
    default: return "unknown";
  }
}

const char* unit_kind_name(uint8_t k) {
  switch (k) {
    case 1: return "path";
    case 2: return "rap";
    case 3: return "dcr";
    case 4: return "bbv";
    case 5: return "path_phase";
    case 6: return "soc";
    default: return "unknown";
  }
}

uint16_t crc16(const uint8_t* p, size_t n, uint16_t crc) {
  for (size_t i = 0; i < n; ++i) {
    crc = static_cast<uint16_t>(crc ^ (uint16_t{p[i]} << 8));
    for (int b = 0; b < 8; ++b)
      crc = (crc & 0x8000) ? static_cast<uint16_t>((crc << 1) ^ 0x1021) : static_cast<uint16_t>(crc << 1);
  }
  return crc;
}

uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc) {
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int b = 0; b < 8; ++b) crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
  }
  return ~crc;
}

void put_u8(std::vector<uint8_t>& b, uint8_t v) { b.push_back(v); }
void put_u16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v));
  b.push_back(static_cast<uint8_t>(v >> 8));
}
void put_u32(std::vector<uint8_t>& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint8_t Reader::u8() {
  if (!ok_ || pos_ + 1 > n_) {
    ok_ = false;
    return 0;
  }
  return p_[pos_++];
}
uint16_t Reader::u16() {
  const uint16_t lo = u8();
  const uint16_t hi = u8();
  return ok_ ? static_cast<uint16_t>(lo | hi << 8) : 0;
}
uint32_t Reader::u32() {
  const uint32_t lo = u16();
  const uint32_t hi = u16();
  return ok_ ? lo | hi << 16 : 0;
}
void Reader::skip(size_t k) {
  if (!ok_ || pos_ + k > n_) {
    ok_ = false;
    return;
  }
  pos_ += k;
}

namespace {
uint64_t mask64(unsigned bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
}  // namespace

uint64_t zigzag(uint64_t v, unsigned bits) {
  const uint64_t m = mask64(bits);
  v &= m;
  const bool neg = (v >> (bits - 1)) & 1;
  return ((v << 1) ^ (neg ? m : 0)) & m;
}

uint64_t unzigzag(uint64_t z, unsigned bits) {
  const uint64_t m = mask64(bits);
  return ((z >> 1) ^ ((z & 1) ? m : 0)) & m;
}

void put_varint(std::vector<uint8_t>& b, uint64_t v) {
  while (v >= 0x80) {
    b.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  b.push_back(static_cast<uint8_t>(v));
}

DecodeStatus get_varint(const uint8_t* p, size_t n, size_t& used, uint64_t& v, unsigned max_bytes) {
  v = 0;
  for (unsigned i = 0; i < max_bytes; ++i) {
    if (i >= n) return DecodeStatus::NeedMore;
    v |= uint64_t{p[i] & 0x7Fu} << (7 * i);
    if (!(p[i] & 0x80)) {
      used = i + 1;
      return DecodeStatus::Ok;
    }
  }
  return DecodeStatus::Error;
}

std::vector<uint8_t> build_frame(uint8_t type, uint8_t seq, const std::vector<uint8_t>& payload) {
  if (payload.size() > kMaxPayload) throw std::invalid_argument("link frame payload longer than 255 bytes");
  std::vector<uint8_t> f;
  f.reserve(kHeaderBytes + payload.size() + kCrcBytes);
  f.push_back(kSof);
  f.push_back(type);
  f.push_back(seq);
  f.push_back(static_cast<uint8_t>(payload.size()));
  f.insert(f.end(), payload.begin(), payload.end());
  put_u16(f, crc16(f.data() + 1, f.size() - 1));
  return f;
}

FrameParser::Event FrameParser::push(uint8_t b) {
  switch (state_) {
    case State::Hunt:
      if (b == kSof) {
        state_ = State::Type;
        crc_ = 0xFFFF;
        frame_.payload.clear();
      } else {
        ++discarded;
      }
      return Event::None;
    case State::Type:
      frame_.type = b;
      crc_ = crc16(&b, 1, crc_);
      state_ = State::Seq;
      return Event::None;
    case State::Seq:
      frame_.seq = b;
      crc_ = crc16(&b, 1, crc_);
      state_ = State::Len;
      return Event::None;
    case State::Len:
      len_ = b;
      crc_ = crc16(&b, 1, crc_);
      state_ = len_ ? State::Payload : State::CrcLo;
      return Event::None;
    case State::Payload:
      frame_.payload.push_back(b);
      crc_ = crc16(&b, 1, crc_);
      if (frame_.payload.size() == len_) state_ = State::CrcLo;
      return Event::None;
    case State::CrcLo:
      crc_lo_ = b;
      state_ = State::CrcHi;
      return Event::None;
    case State::CrcHi: {
      state_ = State::Hunt;
      const uint16_t got = static_cast<uint16_t>(crc_lo_ | b << 8);
      if (got != crc_) {
        ++crc_errors;
        return Event::CrcError;
      }
      ++frames;
      return Event::Frame;
    }
  }
  return Event::None;
}

void FrameParser::timeout() {
  if (state_ != State::Hunt) ++timeouts;
  state_ = State::Hunt;
}

void FrameParser::reset() { state_ = State::Hunt; }

// ---------------------------------------------------------------------------

namespace {
bool fits(const LinkRecord& r, unsigned addr_w) {
  const uint32_t m = addr_mask(addr_w);
  if (r.val) return (r.value & ~m) == 0;
  return r.br.kind < 6 && r.br.ilen < 16 && (r.br.pc & ~m) == 0 && (r.br.target & ~m) == 0;
}
}  // namespace

void RecordEncoder::encode(const LinkRecord& r, std::vector<uint8_t>& out) {
  if (!fits(r, addr_w_)) throw std::invalid_argument("link record field wider than its width");
  const uint32_t m = addr_mask(addr_w_);
  if (r.val) {
    out.push_back(6);
    put_varint(out, r.value);
    put_varint(out, r.weight);
    return;
  }
  const auto& b = r.br;
  out.push_back(static_cast<uint8_t>(b.kind | (b.taken ? 8 : 0) | (b.ilen << 4)));
  put_varint(out, zigzag((b.pc - prev_next_) & m, addr_w_));
  put_varint(out, zigzag((b.target - b.pc) & m, addr_w_));
  put_varint(out, b.insns);
  put_varint(out, b.events);
  prev_next_ = b.next() & m;
}

size_t RecordEncoder::size(const LinkRecord& r) const {
  RecordEncoder copy = *this;
  std::vector<uint8_t> tmp;
  copy.encode(r, tmp);
  return tmp.size();
}

DecodeStatus RecordDecoder::decode(const uint8_t* p, size_t n, size_t& used, LinkRecord& out) {
  if (n == 0) return DecodeStatus::NeedMore;
  const uint8_t tag = p[0];
  const unsigned kind = tag & 7;
  size_t pos = 1;
  uint64_t f[4];
  const unsigned nf = kind == 6 ? 2 : 4;
  if (kind == 7) {
    error_ = "tag with kind 7";
    return DecodeStatus::Error;
  }
  if (kind == 6 && tag != 6) {
    error_ = "val tag with taken or ilen bits set";
    return DecodeStatus::Error;
  }
  for (unsigned i = 0; i < nf; ++i) {
    size_t u = 0;
    const DecodeStatus s = get_varint(p + pos, n - pos, u, f[i]);
    if (s == DecodeStatus::NeedMore) return s;
    if (s == DecodeStatus::Error) {
      error_ = "varint longer than 5 bytes";
      return s;
    }
    pos += u;
  }
  const uint64_t m = addr_mask(addr_w_);
  LinkRecord r;
  if (kind == 6) {
    if (f[0] > m || f[1] > 0xFFFF) {
      error_ = f[0] > m ? "val value wider than AddrW" : "val weight wider than 16 bits";
      return DecodeStatus::Error;
    }
    r.val = true;
    r.value = static_cast<uint32_t>(f[0]);
    r.weight = static_cast<uint16_t>(f[1]);
  } else {
    if (f[0] > m || f[1] > m) {
      error_ = "address delta wider than AddrW";
      return DecodeStatus::Error;
    }
    if (f[2] > 0xFFFF || f[3] > 0xFF) {
      error_ = f[2] > 0xFFFF ? "insns wider than 16 bits" : "events wider than 8 bits";
      return DecodeStatus::Error;
    }
    auto& b = r.br;
    b.kind = static_cast<uint8_t>(kind);
    b.taken = (tag & 8) != 0;
    b.ilen = static_cast<uint8_t>(tag >> 4);
    b.pc = static_cast<uint32_t>((prev_next_ + unzigzag(f[0], addr_w_)) & m);
    b.target = static_cast<uint32_t>((b.pc + unzigzag(f[1], addr_w_)) & m);
    b.insns = static_cast<uint16_t>(f[2]);
    b.events = static_cast<uint8_t>(f[3]);
    prev_next_ = b.next() & static_cast<uint32_t>(m);
  }
  used = pos;
  out = r;
  return DecodeStatus::Ok;
}

bool RecordDecoder::decode_payload(const uint8_t* p, size_t n, std::vector<LinkRecord>& out) {
  size_t pos = 0;
  while (pos < n) {
    size_t used = 0;
    LinkRecord r;
    const DecodeStatus s = decode(p + pos, n - pos, used, r);
    if (s == DecodeStatus::NeedMore) {
      error_ = "payload ends inside a record";
      return false;
    }
    if (s == DecodeStatus::Error) return false;
    out.push_back(r);
    pos += used;
  }
  return true;
}

// ---------------------------------------------------------------------------

std::vector<uint8_t> encode_info(const BoardInfo& info) {
  std::vector<uint8_t> b(kMagic, kMagic + 4);
  put_u8(b, info.proto);
  put_u8(b, info.board);
  put_u32(b, info.clk_hz);
  put_u32(b, info.baud);
  put_u16(b, info.rxbuf);
  put_u8(b, static_cast<uint8_t>(info.units.size()));
  for (const auto& u : info.units) {
    put_u8(b, u.unit);
    put_u8(b, u.kind);
    put_u8(b, static_cast<uint8_t>(u.params.size()));
    for (uint32_t p : u.params) put_u32(b, p);
  }
  return b;
}

bool decode_info(const uint8_t* p, size_t n, BoardInfo& info, std::string& error) {
  Reader r(p, n);
  if (n < 4 || p[0] != 'H' || p[1] != 'W' || p[2] != 'P' || p[3] != 'F') {
    error = "wrong magic (not an hwprof board)";
    return false;
  }
  r.skip(4);
  BoardInfo i;
  i.proto = r.u8();
  i.board = r.u8();
  i.clk_hz = r.u32();
  i.baud = r.u32();
  i.rxbuf = r.u16();
  const unsigned units = r.u8();
  for (unsigned k = 0; k < units && r.ok(); ++k) {
    UnitInfo u;
    u.unit = r.u8();
    u.kind = r.u8();
    const unsigned np = r.u8();
    for (unsigned j = 0; j < np && r.ok(); ++j) u.params.push_back(r.u32());
    i.units.push_back(u);
  }
  if (!r.ok()) {
    error = "truncated ID block";
    return false;
  }
  if (r.left()) {
    error = "bytes after the ID block";
    return false;
  }
  info = i;
  return true;
}

// ---------------------------------------------------------------------------
// Unit entries

void put_dcr_result(std::vector<uint8_t>& out, const model::DcrResult& r) {
  put_u16(out, r.phase);
  put_u16(out, r.predicted);
  put_u8(out, r.sig_depth);
  put_u8(out, r.flags);
  put_u32(out, r.sig_hash);
}

bool get_dcr_result(const uint8_t* p, size_t n, model::DcrResult& r) {
  if (n < kDcrResultBytes) return false;
  Reader rd(p, kDcrResultBytes);
  r.phase = rd.u16();
  r.predicted = rd.u16();
  r.sig_depth = rd.u8();
  r.flags = rd.u8();
  r.sig_hash = rd.u32();
  return rd.ok();
}

void put_bbv_result(std::vector<uint8_t>& out, const model::DetectorResult& r) {
  put_u16(out, r.phase);
  put_u16(out, r.predicted);
  put_u16(out, static_cast<uint16_t>(r.distance));
  put_u8(out, static_cast<uint8_t>((r.changed ? 1 : 0) | (r.matched ? 2 : 0) | (r.scored ? 4 : 0) |
                                   (r.correct ? 8 : 0)));
}

bool get_bbv_result(const uint8_t* p, size_t n, model::DetectorResult& r) {
  if (n < kBbvResultBytes) return false;
  Reader rd(p, kBbvResultBytes);
  r.phase = rd.u16();
  r.predicted = rd.u16();
  r.distance = rd.u16();
  const uint8_t f = rd.u8();
  r.changed = f & 1;
  r.matched = f & 2;
  r.scored = f & 4;
  r.correct = f & 8;
  return rd.ok();
}

void put_rap_beat(std::vector<uint8_t>& out, const model::RapDumpBeat& b, bool last) {
  put_u8(out, last ? 1 : 0);
  put_u8(out, b.valid ? 1 : 0);
  put_u8(out, static_cast<uint8_t>(b.depth));
  put_u32(out, b.prefix);
  for (uint64_t c : b.count) {
    put_u32(out, static_cast<uint32_t>(c));
    put_u8(out, static_cast<uint8_t>(c >> 32));
  }
}

bool get_rap_beat(const uint8_t* p, size_t n, model::RapDumpBeat& b, bool& last) {
  if (n < kRapDumpBytes) return false;
  Reader rd(p, kRapDumpBytes);
  last = rd.u8() & 1;
  b.valid = rd.u8() & 1;
  b.depth = rd.u8();
  b.prefix = rd.u32();
  for (auto& c : b.count) {
    const uint64_t lo = rd.u32();
    c = lo | uint64_t{rd.u8()} << 32;
  }
  return rd.ok();
}

namespace {
void need_params(const UnitInfo& u, size_t n, const char* what) {
  if (u.params.size() != n) throw std::invalid_argument(std::string(what) + " unit needs " + std::to_string(n) + " parameters");
}
}  // namespace

model::RapEngineConfig rap_config_of(const UnitInfo& u) {
  need_params(u, 7, "RAP");
  const auto& q = u.params;
  model::RapEngineConfig c;
  c.range_bits = q[0];
  c.groups = q[1];
  c.queue_depth = q[2];
  c.max_buf = q[3];
  c.buf_default = q[4];
  c.tcam_slice = q[6];
  return c;
}

model::DcrParams dcr_params_of(const UnitInfo& u) {
  need_params(u, 4, "DCR");
  const auto& q = u.params;
  model::DcrParams d;
  d.depth = q[0];
  d.sig_entries = q[1];
  d.markov_entries = q[2];
  d.interval = q[3];
  return d;
}

model::DetectorParams bbv_params_of(const UnitInfo& u) {
  need_params(u, 6, "BBV");
  const auto& q = u.params;
  model::DetectorParams d;
  d.mode = model::DetectorMode::Bbv;
  d.counters = q[0];
  d.sig_w = q[1];
  d.entries = q[2];
  d.markov_entries = q[3];
  d.interval = q[4];
  d.threshold = q[5];
  return d;
}

}  // namespace hwprof::link
