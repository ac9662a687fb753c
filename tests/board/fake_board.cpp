#include "fake_board.h"

#include <stdexcept>

namespace hwprof::fake {

using namespace hwprof::link;

FakeBoardConfig default_fake_config() {
  FakeBoardConfig c;
  c.info.board = static_cast<uint8_t>(BoardId::Virtual);
  c.info.clk_hz = 25'000'000;
  c.info.baud = 3'000'000;
  c.info.rxbuf = 1024;
  c.info.units.push_back({0, static_cast<uint8_t>(UnitKind::PathProfiler), {4, 16, 32, 128, 4, 32}});
  return c;
}

FakeBoard::FakeBoard(FakeBoardConfig cfg) : cfg_(std::move(cfg)) {
  for (const auto& u : cfg_.info.units) {
    Unit x;
    x.info = u;
    if (u.kind == static_cast<uint8_t>(UnitKind::PathProfiler)) {
      if (u.params.size() != 6) throw std::invalid_argument("path profiler unit needs 6 parameters");
      x.path = std::make_unique<model::PathProfiler>(u.params[0], u.params[1], u.params[2], u.params[3], u.params[4]);
    }
    units_.push_back(std::move(x));
  }
  power_on_reset();
}

void FakeBoard::power_on_reset() {
  session_ = 0;
  parser_.reset();
  reset_link();
}

void FakeBoard::reset_link() {
  const unsigned aw = cfg_.info.units.empty() || cfg_.info.units[0].params.size() < 6 ? 32 : cfg_.info.units[0].params[5];
  dec_ = RecordDecoder(aw);
  buf_.clear();
  record_error_ = false;
  last_type_ = 0;
  last_answer_.clear();
  records_ = busy_ = idle_ = 0;
  naks_ = dups_ = 0;
  for (auto& u : units_)
    if (u.path) u.path->reset();
}

FakeBoard::Unit* FakeBoard::unit(uint8_t id) {
  for (auto& u : units_)
    if (u.info.unit == id) return &u;
  return nullptr;
}

void FakeBoard::answer(uint8_t type, uint8_t seq, const std::vector<uint8_t>& body, std::vector<uint8_t>& out) {
  std::vector<uint8_t> p;
  put_u16(p, session_);
  p.insert(p.end(), body.begin(), body.end());
  const auto f = build_frame(type, seq, p);
  out.insert(out.end(), f.begin(), f.end());
}

void FakeBoard::nak(uint8_t seq, NakReason r, std::vector<uint8_t>& out) {
  ++naks_;
  answer(static_cast<uint8_t>(Type::Nak), seq, {expect_, static_cast<uint8_t>(r)}, out);
}

void FakeBoard::rx(uint8_t byte, std::vector<uint8_t>& out) {
  if (parser_.push(byte) != FrameParser::Event::Frame) return;
  const Frame f = parser_.frame();
  const auto t = static_cast<Type>(f.type);
  if (t == Type::Info && session_ == 0) {  // before OPEN: any seq, expect untouched
    execute(f, out);
    return;
  }
  if (t == Type::Open) {
    Reader r(f.payload);
    const uint16_t s = r.u16();
    if (!r.ok() || r.left() || s == 0) {
      answer(static_cast<uint8_t>(Type::Nak), f.seq, {expect_, static_cast<uint8_t>(NakReason::BadLength)}, out);
      return;
    }
    session_ = s;
    reset_link();
    expect_ = static_cast<uint8_t>(f.seq + 1);
    std::vector<uint8_t> b;
    put_u16(b, free_bytes());
    put_u8(b, static_cast<uint8_t>((record_error_ ? 1 : 0) | (buf_.empty() ? 0 : 2)));
    last_type_ = f.type;
    answer(static_cast<uint8_t>(Type::Ack), f.seq, b, out);
    last_answer_.assign(out.end() - static_cast<long>(kHeaderBytes + 2 + 3 + kCrcBytes), out.end());
    return;
  }
  if (session_ == 0) {
    answer(static_cast<uint8_t>(Type::Error), f.seq, {static_cast<uint8_t>(ErrorCode::NoSession)}, out);
    return;
  }
  if (f.seq == static_cast<uint8_t>(expect_ - 1)) {
    ++dups_;
    if (f.type == static_cast<uint8_t>(Type::Records) && last_type_ == f.type) {
      std::vector<uint8_t> b;
      put_u16(b, free_bytes());
      put_u8(b, static_cast<uint8_t>((record_error_ ? 1 : 0) | (buf_.empty() ? 0 : 2)));
      answer(static_cast<uint8_t>(Type::Ack), f.seq, b, out);
    } else {
      out.insert(out.end(), last_answer_.begin(), last_answer_.end());
    }
    return;
  }
  if (f.seq != expect_) {
    nak(f.seq, NakReason::OutOfOrder, out);
    return;
  }
  const size_t before = out.size();
  execute(f, out);
  if (out.size() > before) {
    // Executed (not NAKed): remember the answer for a retransmission.
    if (out[before + 1] != static_cast<uint8_t>(Type::Nak)) {
      expect_ = static_cast<uint8_t>(expect_ + 1);
      last_type_ = f.type;
      last_answer_.assign(out.begin() + static_cast<long>(before), out.end());
    }
  }
}

void FakeBoard::feed(const LinkRecord& r) {
  ++records_;
  for (auto& u : units_) {
    if (!u.path || r.val) continue;
    model::PathProfiler::In in;
    in.rec_valid = true;
    in.rec_data = r.br;
    for (unsigned guard = 0;; ++guard) {
      ++busy_;
      if (u.path->step(in).rec_ready) break;
      if (guard > 100000) throw std::runtime_error("fake board: path profiler hung");
    }
  }
}

void FakeBoard::drain(size_t max) {
  if (record_error_) {
    buf_.clear();
    return;
  }
  std::vector<uint8_t> tmp(buf_.begin(), buf_.end());
  size_t pos = 0;
  while (pos < tmp.size() && (max == 0 || pos < max)) {
    size_t used = 0;
    LinkRecord r;
    const auto s = dec_.decode(tmp.data() + pos, tmp.size() - pos, used, r);
    if (s == DecodeStatus::NeedMore) break;
    if (s == DecodeStatus::Error) {
      record_error_ = true;
      buf_.clear();
      return;
    }
    feed(r);
    pos += used;
  }
  buf_.erase(buf_.begin(), buf_.begin() + static_cast<long>(pos));
  if (buf_.empty()) ++idle_;
}

void FakeBoard::tick() { drain(cfg_.drain_bytes); }

void FakeBoard::execute(const Frame& f, std::vector<uint8_t>& out) {
  const uint8_t seq = f.seq;
  auto ack = [&] {
    std::vector<uint8_t> b;
    put_u16(b, free_bytes());
    put_u8(b, static_cast<uint8_t>((record_error_ ? 1 : 0) | (buf_.empty() ? 0 : 2)));
    answer(static_cast<uint8_t>(Type::Ack), seq, b, out);
  };
  auto error = [&](ErrorCode c) { answer(static_cast<uint8_t>(Type::Error), seq, {static_cast<uint8_t>(c)}, out); };
  Reader r(f.payload);
  switch (static_cast<Type>(f.type)) {
    case Type::Info: {
      auto id = encode_info(cfg_.info);
      for (size_t i = 0; i < 4; ++i) id[i] = static_cast<uint8_t>(cfg_.magic[i]);
      return answer(static_cast<uint8_t>(Type::InfoData), seq, id, out);
    }
    case Type::RegWrite:
    case Type::RegRead: {
      const uint8_t id = r.u8(), addr = r.u8();
      const uint32_t data = f.type == static_cast<uint8_t>(Type::RegWrite) ? r.u32() : 0;
      if (!r.ok() || r.left()) return nak(seq, NakReason::BadLength, out);
      Unit* u = unit(id);
      if (!u || !u->path) return nak(seq, NakReason::BadUnit, out);
      drain(0);
      model::PathProfiler::In in;
      in.csr_addr = addr & 31u;
      in.csr_we = f.type == static_cast<uint8_t>(Type::RegWrite);
      in.csr_wdata = data;
      const auto o = u->path->step(in);
      if (in.csr_we) return ack();
      std::vector<uint8_t> b;
      put_u32(b, o.csr_rdata);
      return answer(static_cast<uint8_t>(Type::Data), seq, b, out);
    }
    case Type::Records:
      if (record_error_) return error(ErrorCode::RecordError);
      if (f.payload.size() > free_bytes()) return nak(seq, NakReason::NoRoom, out);
      buf_.insert(buf_.end(), f.payload.begin(), f.payload.end());
      if (cfg_.drain_bytes == 0) drain(0);
      if (record_error_) return error(ErrorCode::RecordError);
      return ack();
    case Type::Flush: {
      drain(0);
      if (record_error_) return error(ErrorCode::RecordError);
      std::vector<uint8_t> b;
      put_u32(b, static_cast<uint32_t>(records_));
      put_u32(b, static_cast<uint32_t>(busy_));
      put_u32(b, static_cast<uint32_t>(idle_));
      return answer(static_cast<uint8_t>(Type::Flushed), seq, b, out);
    }
    case Type::Dump: {
      const uint8_t id = r.u8();
      if (!r.ok() || r.left()) return nak(seq, NakReason::BadLength, out);
      Unit* u = unit(id);
      if (!u || !u->path) return nak(seq, NakReason::BadUnit, out);
      drain(0);
      // The board starts the walk itself (HPT CMD.dump) and sends one entry
      // per DUMP_DATA frame; a repeated DUMP runs the walk again.
      std::vector<uint8_t> all;
      model::PathProfiler::In in;
      in.csr_we = true;
      in.csr_addr = model::hpt_csr(model::HptCsr::Cmd);
      in.csr_wdata = model::kHptCmdDump;
      u->path->step(in);
      in = {};
      in.dump_ready = true;
      for (unsigned guard = 0;; ++guard) {
        const auto o = u->path->step(in);
        if (o.dump_valid) {
          put_u16(all, static_cast<uint16_t>(o.dump.set));
          put_u8(all, static_cast<uint8_t>(o.dump.way));
          put_u32(all, o.dump.key.start);
          put_u8(all, o.dump.key.length);
          put_u32(all, o.dump.key.dirs);
          put_u32(all, o.dump.acc);
        }
        if (!o.dump_busy) break;
        if (guard > 100000000) throw std::runtime_error("fake board: dump hung");
      }
      const uint32_t crc = crc32(all.data(), all.size());
      if (cfg_.corrupt_dump && !all.empty()) all[all.size() / 2] ^= 0x10;
      const size_t n = all.size() / kPathDumpEntryBytes;
      for (size_t i = 0; i < n; ++i) {
        std::vector<uint8_t> b;
        put_u16(b, static_cast<uint16_t>(i));
        b.insert(b.end(), all.begin() + static_cast<long>(i * kPathDumpEntryBytes),
                 all.begin() + static_cast<long>((i + 1) * kPathDumpEntryBytes));
        answer(static_cast<uint8_t>(Type::DumpData), seq, b, out);
      }
      std::vector<uint8_t> e;
      put_u32(e, static_cast<uint32_t>(n));
      put_u32(e, crc);
      return answer(static_cast<uint8_t>(Type::DumpEnd), seq, e, out);
    }
    case Type::Results:
      return nak(seq, NakReason::BadUnit, out);  // no unit of this fake board has a result FIFO
    case Type::LinkStatus: {
      std::vector<uint8_t> b;
      put_u16(b, static_cast<uint16_t>(parser_.crc_errors));
      put_u16(b, static_cast<uint16_t>(parser_.timeouts));
      put_u16(b, naks_);
      put_u16(b, dups_);
      put_u8(b, expect_);
      return answer(static_cast<uint8_t>(Type::LinkStatusData), seq, b, out);
    }
    default:
      return nak(seq, NakReason::BadType, out);
  }
}

}  // namespace hwprof::fake
