#include "board_link.h"

#include <algorithm>
#include <deque>
#include <random>

namespace hwprof::link {

namespace {
std::string hex8(unsigned v) {
  const char* d = "0123456789abcdef";
  return std::string("0x") + d[(v >> 4) & 15] + d[v & 15];
}
}  // namespace

std::string LinkCounters::summary() const {
  return std::to_string(frames_sent) + " frames sent, " + std::to_string(retransmissions) + " retransmitted, " +
         std::to_string(timeouts) + " answer timeouts, " + std::to_string(naks) + " NAKs, " +
         std::to_string(crc_errors) + " CRC errors and " + std::to_string(rx_timeouts) +
         " truncated frames received, " + std::to_string(noise_bytes) + " noise bytes, " +
         std::to_string(dump_retries) + " dump retries";
}

BoardLink::BoardLink(Channel& ch, LinkOptions o) : ch_(ch), opt_(o) {
  opt_.window = std::clamp(opt_.window, 1u, kMaxInFlight);
  opt_.max_payload = std::clamp<size_t>(opt_.max_payload, 21, kMaxPayload);
}

int64_t BoardLink::tx_time_us(size_t bytes) const {
  const uint32_t b = ch_.baud();
  return b ? static_cast<int64_t>(bytes) * 10 * 1'000'000 / b + 1 : 0;
}

void BoardLink::send(const std::vector<uint8_t>& f) {
  ch_.write(f.data(), f.size());
  ++cnt_.frames_sent;
  cnt_.bytes_sent += f.size();
}

bool BoardLink::receive(Frame& f, int64_t deadline_us) {
  // The host's inter-byte timeout: a quarter of the answer timeout, at
  // least 64 byte times (a board, or a simulated one, may send an answer's
  // bytes slower than the line rate; a false SOF costs at most this).
  const int64_t gap = std::max<int64_t>(opt_.timeout_us / 4, tx_time_us(kTimeoutByteTimes));
  for (;;) {
    while (rx_pos_ < rx_.size()) {
      const uint64_t disc = parser_.discarded;
      const auto ev = parser_.push(rx_[rx_pos_++]);
      cnt_.noise_bytes += parser_.discarded - disc;
      if (ev == FrameParser::Event::CrcError) ++cnt_.crc_errors;
      if (ev == FrameParser::Event::Frame) {
        f = parser_.frame();
        return true;
      }
    }
    rx_.clear();
    rx_pos_ = 0;
    const int64_t now = ch_.now_us();
    if (now >= deadline_us) return false;
    uint8_t buf[512];
    const size_t n = ch_.read(buf, sizeof buf, std::min(gap, deadline_us - now));
    if (n == 0) {
      if (parser_.in_frame()) {
        parser_.timeout();
        ++cnt_.rx_timeouts;
      }
      continue;
    }
    cnt_.bytes_received += n;
    rx_.assign(buf, buf + n);
  }
}

void BoardLink::check_answer(const Frame& f) const {
  if (f.type == static_cast<uint8_t>(Type::Error)) {
    Reader r(f.payload);
    r.u16();
    const uint8_t code = r.u8();
    if (code == static_cast<uint8_t>(ErrorCode::NoSession))
      throw LinkError(LinkError::Kind::SessionLost,
                      "board reset detected (session lost; the board answered NoSession); the profile so far is "
                      "discarded");
    if (code == static_cast<uint8_t>(ErrorCode::RecordError))
      throw LinkError(LinkError::Kind::Board, "the board could not decode a record (ERROR RecordError)");
    throw LinkError(LinkError::Kind::Board, std::string("the board answered ERROR ") + error_name(code));
  }
  if (f.payload.size() < 2)
    throw LinkError(LinkError::Kind::Protocol,
                    std::string("answer ") + type_name(f.type) + " without a session field");
  const uint16_t s = static_cast<uint16_t>(f.payload[0] | f.payload[1] << 8);
  if (session_ && s != session_ && f.type != static_cast<uint8_t>(Type::InfoData))
    throw LinkError(LinkError::Kind::SessionLost,
                    "board reset detected (session lost: answer for session " + std::to_string(s) + ", ours is " +
                        std::to_string(session_) + "); the profile so far is discarded");
}

void BoardLink::fail_timeout(const std::string& what) const {
  throw LinkError(LinkError::Kind::Timeout, "no answer from the board to " + what + " after " +
                                                std::to_string(opt_.retries + 1) + " tries (" + cnt_.summary() +
                                                "); check the port, the baud rate and the bitstream");
}

Frame BoardLink::transact(Type t, const std::vector<uint8_t>& payload, Type want, const char* what) {
  uint8_t seq = seq_++;
  auto bytes = build_frame(t, seq, payload);
  unsigned resyncs = 0;
  for (unsigned attempt = 0; attempt <= opt_.retries; ++attempt) {
    if (attempt) ++cnt_.retransmissions;
    send(bytes);
    const int64_t deadline = ch_.now_us() + opt_.timeout_us + tx_time_us(bytes.size() + kMaxFrame);
    Frame f;
    bool resync = false;
    while (!resync && receive(f, deadline)) {
      if (session_ == 0 && f.seq != seq) continue;  // stale bytes of an earlier host
      if (t != Type::Info || f.type == static_cast<uint8_t>(Type::Error)) check_answer(f);
      if (f.seq != seq) continue;  // a late answer to an earlier frame
      if (f.type == static_cast<uint8_t>(want)) return f;
      const bool nak = f.type == static_cast<uint8_t>(Type::Nak);
      Reader r(f.payload);
      r.u16();
      const uint8_t expect = r.u8(), reason = r.u8();
      if (nak) ++cnt_.naks;
      // INFO to a board that holds another host's session follows its seq
      // rules: take the seq it expects (NAK) or the next one (the answer was
      // the repeated answer of that host's last frame) and ask again.
      if (t == Type::Info && !session_ && resyncs < 3) {
        seq = nak && reason == static_cast<uint8_t>(NakReason::OutOfOrder) ? expect : static_cast<uint8_t>(seq + 1);
        seq_ = static_cast<uint8_t>(seq + 1);
        bytes = build_frame(t, seq, payload);
        ++resyncs;
        --attempt;
        resync = true;
        continue;
      }
      if (nak)
        throw LinkError(LinkError::Kind::Board, std::string("the board refused ") + what + ": NAK " +
                                                    nak_name(reason) + " (expects seq " + std::to_string(expect) +
                                                    ", sent " + std::to_string(seq) + ")");
      throw LinkError(LinkError::Kind::Protocol, std::string("unexpected answer ") + type_name(f.type) + " (" +
                                                     hex8(f.type) + ") to " + what);
    }
    if (!resync) ++cnt_.timeouts;
  }
  fail_timeout(what);
}

BoardInfo BoardLink::info() {
  const Frame f = transact(Type::Info, {}, Type::InfoData, "INFO");
  BoardInfo i;
  std::string err;
  if (f.payload.size() < 2 || !decode_info(f.payload.data() + 2, f.payload.size() - 2, i, err))
    throw LinkError(LinkError::Kind::WrongBoard, "not an hwprof board: " + err);
  if (i.proto != kProto)
    throw LinkError(LinkError::Kind::WrongBoard, "the board speaks link protocol version " + std::to_string(i.proto) +
                                                     ", this hwprof speaks version " + std::to_string(kProto));
  return i;
}

void BoardLink::open(uint16_t session) {
  if (session == 0) {
    std::random_device rd;
    std::uniform_int_distribution<unsigned> d(1, 0xFFFF);
    session = static_cast<uint16_t>(d(rd));
  }
  ch_.drain_input();
  parser_.reset();
  rx_.clear();
  rx_pos_ = 0;
  session_ = 0;
  std::vector<uint8_t> p;
  put_u16(p, session);
  const Frame f = transact(Type::Open, p, Type::Ack, "OPEN");
  Reader r(f.payload);
  if (r.u16() != session)
    throw LinkError(LinkError::Kind::Protocol, "OPEN acknowledged with another session");
  credit_ = r.u16();
  session_ = session;
}

void BoardLink::reg_write(uint8_t unit, uint8_t addr, uint32_t data) {
  std::vector<uint8_t> p;
  put_u8(p, unit);
  put_u8(p, addr);
  put_u32(p, data);
  transact(Type::RegWrite, p, Type::Ack, "REG_WRITE");
}

uint32_t BoardLink::reg_read(uint8_t unit, uint8_t addr) {
  std::vector<uint8_t> p;
  put_u8(p, unit);
  put_u8(p, addr);
  const Frame f = transact(Type::RegRead, p, Type::Data, "REG_READ");
  Reader r(f.payload);
  r.u16();
  const uint32_t v = r.u32();
  if (!r.ok()) throw LinkError(LinkError::Kind::Protocol, "short DATA answer");
  return v;
}

uint8_t BoardLink::poll() {
  ++cnt_.credit_polls;
  const Frame f = transact(Type::Records, {}, Type::Ack, "RECORDS (credit poll)");
  Reader r(f.payload);
  r.u16();
  const uint16_t free = r.u16();
  const uint8_t status = r.u8();
  if (!r.ok()) throw LinkError(LinkError::Kind::Protocol, "short ACK answer");
  credit_ = free;
  return status;
}

uint64_t BoardLink::send_records(const std::function<bool(LinkRecord&)>& next, unsigned addr_w,
                                 const std::function<void(uint64_t)>& progress,
                                 const std::function<void()>& starved) {
  RecordEncoder enc(addr_w);
  std::deque<Pending> fl;  // in flight, oldest first
  size_t resend = 0;       // fl[resend..] must be (re)sent
  bool rewound = false;    // went back already for the current oldest frame
  LinkRecord cur;
  bool have = next(cur);
  std::vector<uint8_t> cur_bytes;
  if (have) enc.encode(cur, cur_bytes);
  uint64_t sent_records = 0, acked_records = 0;
  int64_t last_poll = 0;
  std::vector<uint8_t> last_frame;  // the last new RECORDS frame (repeated as a credit poll)
  auto in_flight_bytes = [&] {
    size_t s = 0;
    for (const auto& p : fl) s += p.bytes.size();
    return s;
  };
  auto sum_payload = [&] {
    int64_t s = 0;
    for (const auto& p : fl) s += static_cast<int64_t>(p.payload);
    return s;
  };
  auto pop_through = [&](size_t k) {  // the first k frames were executed
    for (size_t i = 0; i < k; ++i) {
      acked_records += fl.front().records;
      fl.pop_front();
    }
    resend = resend > k ? resend - k : 0;
    if (k) rewound = false;
  };

  while (have || !fl.empty()) {
    // Send: retransmissions first, then new frames while credit and window allow.
    for (; resend < fl.size(); ++resend) {
      ++cnt_.retransmissions;
      fl[resend].sent_at = ch_.now_us();
      send(fl[resend].bytes);
    }
    while (have && fl.size() < opt_.window) {
      std::vector<uint8_t> payload;
      size_t records = 0;
      const size_t room = static_cast<size_t>(std::min<int64_t>(credit_, static_cast<int64_t>(opt_.max_payload)));
      while (have && payload.size() + cur_bytes.size() <= room) {
        payload.insert(payload.end(), cur_bytes.begin(), cur_bytes.end());
        ++records;
        have = next(cur);
        cur_bytes.clear();
        if (have) enc.encode(cur, cur_bytes);
      }
      if (!records) {
        // No credit for the next record. With nothing in flight no ACK
        // will come by itself: ask for the credit by repeating the last
        // RECORDS frame (its duplicate is ACKed with the current free; an
        // empty RECORDS frame before the first one), at most every 2 ms.
        if (!fl.empty() || ch_.now_us() - last_poll < 2000) break;
        last_poll = ch_.now_us();
        if (starved) {
          // A unit holding a result may be what stops the buffer: take the
          // results, then ask for the credit with an empty RECORDS frame (a
          // new frame: the last one executed was a RESULTS).
          starved();
          poll();
          last_frame.clear();
          continue;
        }
        ++cnt_.credit_polls;
        if (!last_frame.empty()) {
          Pending p{static_cast<uint8_t>(seq_ - 1), last_frame, 0, 0};
          p.sent_at = ch_.now_us();
          send(p.bytes);
          fl.push_back(std::move(p));
          resend = fl.size();
          break;
        }
      }
      Pending p{seq_++, build_frame(Type::Records, static_cast<uint8_t>(seq_ - 1), payload), payload.size(), records};
      credit_ -= static_cast<int64_t>(payload.size());
      sent_records += records;
      p.sent_at = ch_.now_us();
      send(p.bytes);
      last_frame = p.bytes;
      fl.push_back(std::move(p));
      resend = fl.size();
      if (!records) break;
    }
    if (fl.empty()) {
      if (have) {
        // Waiting for the poll interval.
        Frame f;
        receive(f, ch_.now_us() + 1000);
      }
      continue;
    }

    // Receive one answer or time out.
    const int64_t deadline = fl.front().sent_at + opt_.timeout_us + tx_time_us(in_flight_bytes() + 2 * kMaxFrame);
    Frame f;
    if (!receive(f, deadline)) {
      ++cnt_.timeouts;
      if (++fl.front().tries > opt_.retries) fail_timeout("RECORDS");
      resend = 0;
      rewound = false;
      continue;
    }
    check_answer(f);
    Reader r(f.payload);
    r.u16();
    const size_t dist = static_cast<uint8_t>(f.seq - fl.front().seq);
    if (f.type == static_cast<uint8_t>(Type::Ack)) {
      const uint16_t free = r.u16();
      if (dist < fl.size()) {
        pop_through(dist + 1);
        credit_ = static_cast<int64_t>(free) - sum_payload();
        if (progress) progress(acked_records);
      } else if (dist >= 256 - kMaxInFlight - 1) {
        // The repeated answer of the frame before the oldest in flight.
        credit_ = static_cast<int64_t>(free) - sum_payload();
      }
      continue;
    }
    if (f.type == static_cast<uint8_t>(Type::Nak)) {
      ++cnt_.naks;
      const uint8_t expect = r.u8(), reason = r.u8();
      if (reason != static_cast<uint8_t>(NakReason::OutOfOrder) && reason != static_cast<uint8_t>(NakReason::NoRoom))
        throw LinkError(LinkError::Kind::Board, std::string("the board refused RECORDS: NAK ") + nak_name(reason));
      const size_t done = static_cast<uint8_t>(expect - fl.front().seq);
      if (done <= fl.size()) pop_through(done);
      if (!fl.empty() && !rewound) {
        if (++fl.front().tries > opt_.retries) fail_timeout("RECORDS (NAKed)");
        resend = 0;
        rewound = true;
      }
      continue;
    }
    throw LinkError(LinkError::Kind::Protocol,
                    std::string("unexpected answer ") + type_name(f.type) + " while streaming records");
  }
  if (progress) progress(acked_records);
  return sent_records;
}

FlushInfo BoardLink::flush() {
  const Frame f = transact(Type::Flush, {}, Type::Flushed, "FLUSH");
  Reader r(f.payload);
  r.u16();
  FlushInfo i;
  i.records = r.u32();
  i.busy_cycles = r.u32();
  i.idle_cycles = r.u32();
  if (!r.ok()) throw LinkError(LinkError::Kind::Protocol, "short FLUSHED answer");
  return i;
}

std::vector<uint8_t> BoardLink::dump(uint8_t unit, size_t entry_bytes, uint32_t& entries) {
  const uint8_t seq = seq_++;
  const auto bytes = build_frame(Type::Dump, seq, {unit});
  std::string why;
  for (unsigned attempt = 0; attempt <= opt_.retries; ++attempt) {
    if (attempt) {
      ++cnt_.retransmissions;
      ++cnt_.dump_retries;
    }
    send(bytes);
    std::vector<uint8_t> data;
    uint32_t got = 0;
    bool gap = false;
    int64_t deadline = ch_.now_us() + opt_.timeout_us + tx_time_us(bytes.size() + kMaxFrame);
    Frame f;
    bool ended = false;
    while (!ended && receive(f, deadline)) {
      check_answer(f);
      if (f.seq != seq) continue;
      deadline = ch_.now_us() + opt_.timeout_us + tx_time_us(kMaxFrame);
      Reader r(f.payload);
      r.u16();
      if (f.type == static_cast<uint8_t>(Type::DumpData)) {
        const uint16_t index = r.u16();
        const size_t n = r.left();
        if (index == 0) {  // a (re)sent dump starts over
          data.clear();
          got = 0;
          gap = false;
        }
        if (index != static_cast<uint16_t>(got) || n % entry_bytes) gap = true;
        data.insert(data.end(), r.here(), r.here() + n);
        got += static_cast<uint32_t>(n / entry_bytes);
      } else if (f.type == static_cast<uint8_t>(Type::DumpEnd)) {
        const uint32_t n = r.u32(), crc = r.u32();
        ended = true;
        if (gap || n != got) {
          why = "a dump data frame was lost";
        } else if (crc != crc32(data.data(), data.size())) {
          why = "CRC-32 mismatch";
        } else {
          entries = n;
          return data;
        }
      } else if (f.type == static_cast<uint8_t>(Type::Nak)) {
        ++cnt_.naks;
        r.u8();
        throw LinkError(LinkError::Kind::Board, std::string("the board refused DUMP of unit ") +
                                                    std::to_string(unit) + ": NAK " + nak_name(r.u8()));
      } else {
        throw LinkError(LinkError::Kind::Protocol, std::string("unexpected answer ") + type_name(f.type) + " to DUMP");
      }
    }
    if (!ended) {
      ++cnt_.timeouts;
      why = "no DUMP_END";
    }
  }
  throw LinkError(LinkError::Kind::Checksum, "dump of unit " + std::to_string(unit) + " failed after " +
                                                 std::to_string(opt_.retries + 1) + " tries (last: " + why + "; " +
                                                 cnt_.summary() + ")");
}

ResultChunk BoardLink::results(uint8_t unit, uint8_t max, size_t entry_bytes) {
  ++cnt_.results;
  const Frame f = transact(Type::Results, {unit, max}, Type::ResultData, "RESULTS");
  Reader r(f.payload);
  r.u16();
  ResultChunk c;
  c.count = r.u8();
  c.more = r.u8() != 0;
  if (!r.ok() || r.left() != c.count * entry_bytes)
    throw LinkError(LinkError::Kind::Protocol, "RESULT_DATA length does not match its count");
  c.entries.assign(r.here(), r.here() + r.left());
  cnt_.result_entries += c.count;
  return c;
}

LinkStatus BoardLink::link_status() {
  const Frame f = transact(Type::LinkStatus, {}, Type::LinkStatusData, "LINK_STATUS");
  Reader r(f.payload);
  r.u16();
  LinkStatus s;
  s.crc_errors = r.u16();
  s.timeouts = r.u16();
  s.naks = r.u16();
  s.dup = r.u16();
  s.expect = r.u8();
  return s;
}

}  // namespace hwprof::link
