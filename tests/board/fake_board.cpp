#include "fake_board.h"

#include <algorithm>
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
    const auto& q = u.params;
    switch (static_cast<UnitKind>(u.kind)) {
      case UnitKind::PathProfiler:
        if (q.size() != 6) throw std::invalid_argument("path profiler unit needs 6 parameters");
        x.path = std::make_unique<model::PathProfiler>(q[0], q[1], q[2], q[3], q[4]);
        break;
      case UnitKind::Rap:
        x.rap = std::make_unique<model::RapEngine>(link::rap_config_of(u));
        break;
      case UnitKind::Dcr:
        x.dcr = std::make_unique<model::DcrTracker>(link::dcr_params_of(u));
        break;
      case UnitKind::Bbv:
        x.bbv = std::make_unique<model::PhaseDetector>(link::bbv_params_of(u));
        break;
      default:
        break;
    }
    units_.push_back(std::move(x));
  }
  power_on_reset();
}

void FakeBoard::Unit::reset() {
  if (path) path->reset();
  if (rap) rap->reset();
  if (dcr) dcr->reset();
  if (bbv) bbv->reset();
  taken = true;
  have_prev = false;
  prev_next = 0;
  res_valid = false;
  res.clear();
}

bool FakeBoard::Unit::offer(const LinkRecord* r, bool res_ready) {
  if (path) {
    model::PathProfiler::In in;
    in.rec_valid = r && !r->val;
    if (r) in.rec_data = r->br;
    return path->step(in).rec_ready || !in.rec_valid;
  }
  if (rap) {
    model::RapEngine::In in;
    const bool need = r && (r->val || have_prev);
    in.ev_valid = need;
    if (need) {
      in.ev_value = r->val ? r->value : prev_next;
      in.ev_weight = r->val ? r->weight : r->br.insns;
    }
    const bool ok = rap->step(in).ev_ready || !need;
    if (ok && r && !r->val) {
      have_prev = true;
      prev_next = r->br.next();
    }
    return ok;
  }
  if (dcr) {
    model::DcrTracker::In in;
    in.rec_valid = r && !r->val;
    if (r) in.rec = r->br;
    in.res_ready = res_ready;
    const auto o = dcr->step(in);
    res_valid = o.res_valid && !res_ready;
    res.clear();
    if (res_valid) put_dcr_result(res, o.res);
    return o.rec_ready || !in.rec_valid;
  }
  if (bbv) {
    model::PhaseDetector::In in;
    in.rec_valid = r && !r->val;
    if (r) in.rec_data = r->br;
    in.res_ready = res_ready;
    const auto o = bbv->step(in);
    res_valid = o.res_valid && !res_ready;
    res.clear();
    if (res_valid) put_bbv_result(res, o.res);
    return o.rec_ready || !in.rec_valid;
  }
  return true;
}

uint32_t FakeBoard::Unit::csr(bool we, uint8_t addr, uint32_t data) {
  if (path) {
    model::PathProfiler::In in;
    in.csr_we = we;
    in.csr_addr = addr & 31u;
    in.csr_wdata = data;
    return path->step(in).csr_rdata;
  }
  if (rap) {
    model::RapEngine::In in;
    in.csr_we = we;
    in.csr_addr = addr & 31u;
    in.csr_wdata = data;
    return rap->step(in).csr_rdata;
  }
  if (dcr) {
    model::DcrTracker::In in;
    in.csr_we = we;
    in.csr_addr = addr & 15u;
    in.csr_wdata = data;
    const auto o = dcr->step(in);
    res_valid = o.res_valid;
    return o.csr_rdata;
  }
  if (bbv) {
    model::PhaseDetector::In in;
    in.csr_we = we;
    in.csr_addr = addr & 15u;
    in.csr_wdata = data;
    const auto o = bbv->step(in);
    res_valid = o.res_valid;
    return o.csr_rdata;
  }
  return 0;
}

void FakeBoard::power_on_reset() {
  session_ = 0;
  parser_.reset();
  reset_link();
}

void FakeBoard::reset_link() {
  unsigned aw = 32;  // the path profiler's AddrW (32 without one)
  for (const auto& u : cfg_.info.units)
    if (u.kind == static_cast<uint8_t>(UnitKind::PathProfiler) && u.params.size() == 6) aw = u.params[5];
  dec_ = RecordDecoder(aw);
  buf_.clear();
  record_error_ = false;
  last_type_ = 0;
  last_answer_.clear();
  records_ = busy_ = idle_ = 0;
  naks_ = dups_ = 0;
  have_cur_ = false;
  res_sent_ = -1;
  for (auto& u : units_) u.reset();
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
  // The line as the board's receiver sees it: a RESULTS frame is a SOF, the
  // type 0x08, seq, len 2, unit, max, CRC (a SOF inside another frame's
  // payload may be mistaken for one; a test double's approximation).
  if (byte == kSof && (!line_in_res_ || line_pos_ >= 7)) {
    line_pos_ = 0;
    line_in_res_ = false;
  } else {
    ++line_pos_;
    if (line_pos_ == 1 && byte == static_cast<uint8_t>(Type::Results)) {
      line_in_res_ = true;
      ++line_res_;
    }
    if (line_in_res_ && line_pos_ == 4 && line_res_ == cfg_.res_rx_flip) byte ^= 0x02;
  }
  if (parser_.push(byte) != FrameParser::Event::Frame) return;
  const Frame f = parser_.frame();
  if (f.type == static_cast<uint8_t>(Type::Results) && ++res_frames_ == cfg_.res_rx_drop) return;
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
    put_u8(b, static_cast<uint8_t>((record_error_ ? 1 : 0) | (buf_.empty() && !have_cur_ ? 0 : 2)));
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
      put_u8(b, static_cast<uint8_t>((record_error_ ? 1 : 0) | (buf_.empty() && !have_cur_ ? 0 : 2)));
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
  if (!(f.type == static_cast<uint8_t>(Type::Records) && f.payload.size() > free_bytes())) release_result();
  const size_t before = out.size();
  execute(f, out);
  if (out.size() > before) {
    // Executed (not NAKed): remember the answer for a retransmission.
    if (out[before + 1] != static_cast<uint8_t>(Type::Nak)) {
      expect_ = static_cast<uint8_t>(expect_ + 1);
      last_type_ = f.type;
      last_answer_.assign(out.begin() + static_cast<long>(before), out.end());
      if (!clean_answer_.empty()) last_answer_.swap(clean_answer_);
    }
    clean_answer_.clear();
  }
}

bool FakeBoard::feed() {
  for (auto& u : units_) {
    for (unsigned guard = 0; !u.taken; ++guard) {
      ++busy_;
      if (u.offer(&cur_, false)) {
        u.taken = true;
      } else if (u.res_valid) {
        return false;  // holds a result: takes nothing until the host has it
      }
      if (guard > 1000000) throw std::runtime_error("fake board: a unit hung");
    }
  }
  return true;
}

void FakeBoard::release_result() {
  if (res_sent_ < 0) return;
  units_[static_cast<size_t>(res_sent_)].offer(nullptr, true);
  res_sent_ = -1;
  if (cfg_.drain_bytes == 0) drain(0);
}

void FakeBoard::drain(size_t max) {
  if (record_error_) {
    buf_.clear();
    have_cur_ = false;
    return;
  }
  size_t used_bytes = 0;
  for (;;) {
    if (have_cur_) {
      if (!feed()) break;
      have_cur_ = false;
      ++records_;
    }
    if ((max && used_bytes >= max) || buf_.empty()) break;
    uint8_t tmp[64];
    const size_t k = std::min<size_t>(sizeof tmp, buf_.size());
    std::copy(buf_.begin(), buf_.begin() + static_cast<long>(k), tmp);
    size_t used = 0;
    const auto s = dec_.decode(tmp, k, used, cur_);
    if (s == DecodeStatus::NeedMore) break;
    if (s == DecodeStatus::Error) {
      record_error_ = true;
      buf_.clear();
      return;
    }
    buf_.erase(buf_.begin(), buf_.begin() + static_cast<long>(used));
    used_bytes += used;
    have_cur_ = true;
    for (auto& u : units_) u.taken = false;
  }
  if (buf_.empty() && !have_cur_) ++idle_;
}

void FakeBoard::tick() { drain(cfg_.drain_bytes); }

void FakeBoard::execute(const Frame& f, std::vector<uint8_t>& out) {
  const uint8_t seq = f.seq;
  auto ack = [&] {
    std::vector<uint8_t> b;
    put_u16(b, free_bytes());
    put_u8(b, static_cast<uint8_t>((record_error_ ? 1 : 0) | (buf_.empty() && !have_cur_ ? 0 : 2)));
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
      if (!u) return nak(seq, NakReason::BadUnit, out);
      drain(0);
      if (!buf_.empty() || have_cur_) return;  // waits for a unit that holds a result: no answer
      const bool we = f.type == static_cast<uint8_t>(Type::RegWrite);
      const uint32_t v = u->csr(we, addr, data);
      if (we) return ack();
      std::vector<uint8_t> b;
      put_u32(b, v);
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
      if (!record_error_ && (!buf_.empty() || have_cur_)) return;  // no answer (as above)
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
      if (!u || !(u->path || u->rap)) return nak(seq, NakReason::BadUnit, out);
      drain(0);
      if (!buf_.empty() || have_cur_) return;  // no answer (as above)
      // The board starts the walk itself (HPT CMD.dump) and sends one entry
      // per DUMP_DATA frame; a repeated DUMP runs the walk again.
      std::vector<uint8_t> all;
      size_t entry = kPathDumpEntryBytes;
      if (u->rap) {
        // The RAP engine dumps only when idle. The cycle model does not place
        // groups in slots: the beats are made from its tree (root first, then
        // one beat per group of four children, in pre-order).
        entry = kRapDumpEntryBytes;
        if (u->rap->idle()) {
          const auto& t = u->rap->tree();
          const unsigned w = t.params().range_bits;
          struct Beat {
            uint32_t prefix;
            unsigned depth;
            uint64_t c[4];
          };
          std::vector<Beat> beats;
          uint64_t root = 0;
          for (const auto& n : t.nodes()) {
            if (n.depth == 0) {
              root = n.count;
              continue;
            }
            const unsigned sh = w - 2 * n.depth;
            const uint32_t parent = n.prefix & ~(3u << sh);
            const unsigned c = (n.prefix >> sh) & 3u;
            auto it = std::find_if(beats.begin(), beats.end(),
                                   [&](const Beat& b) { return b.prefix == parent && b.depth == n.depth; });
            if (it == beats.end()) {
              beats.push_back({parent, n.depth, {0, 0, 0, 0}});
              it = beats.end() - 1;
            }
            it->c[c] = n.count;
          }
          model::RapDumpBeat rb;
          rb.valid = true;
          rb.count[0] = root;
          put_rap_beat(all, rb, beats.empty());
          for (size_t i = 0; i < beats.size(); ++i) {
            model::RapDumpBeat g;
            g.valid = true;
            g.depth = beats[i].depth;
            g.prefix = beats[i].prefix;
            for (unsigned c = 0; c < 4; ++c) g.count[c] = beats[i].c[c];
            put_rap_beat(all, g, i + 1 == beats.size());
          }
        }
      } else {
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
      }
      const uint32_t crc = crc32(all.data(), all.size());
      if (cfg_.corrupt_dump && !all.empty()) all[all.size() / 2] ^= 0x10;
      const size_t n = all.size() / entry;
      for (size_t i = 0; i < n; ++i) {
        std::vector<uint8_t> b;
        put_u16(b, static_cast<uint16_t>(i));
        b.insert(b.end(), all.begin() + static_cast<long>(i * entry),
                 all.begin() + static_cast<long>((i + 1) * entry));
        answer(static_cast<uint8_t>(Type::DumpData), seq, b, out);
      }
      std::vector<uint8_t> e;
      put_u32(e, static_cast<uint32_t>(n));
      put_u32(e, crc);
      return answer(static_cast<uint8_t>(Type::DumpEnd), seq, e, out);
    }
    case Type::Results: {
      const uint8_t id = r.u8(), max = r.u8();
      if (!r.ok() || r.left()) return nak(seq, NakReason::BadLength, out);
      Unit* u = unit(id);
      if (!u) return nak(seq, NakReason::BadUnit, out);
      // (The entry sent before left its unit when this frame was executed.)
      // At most one entry: the unit's result output, held until the next new frame.
      for (int k = 0; k < 3; ++k) u->offer(nullptr, false);
      std::vector<uint8_t> b;
      if ((u->dcr || u->bbv) && u->res_valid && max) {
        b = {1, 1};
        b.insert(b.end(), u->res.begin(), u->res.end());
        res_sent_ = static_cast<int>(u - units_.data());
        ++res_answers_;
        if (res_answers_ == cfg_.res_tx_flip || res_answers_ == cfg_.res_tx_drop) {
          // A line fault on this answer: built with its CRC, then one entry
          // byte flipped or lost on its way.
          const size_t before = out.size();
          answer(static_cast<uint8_t>(Type::ResultData), seq, b, out);
          clean_answer_.assign(out.begin() + static_cast<long>(before), out.end());
          const size_t at = before + kHeaderBytes + 4 + 1;
          if (res_answers_ == cfg_.res_tx_flip) out[at] ^= 0x04;
          else out.erase(out.begin() + static_cast<long>(at));
          return;
        }
      } else {
        b = {0, 0};
      }
      return answer(static_cast<uint8_t>(Type::ResultData), seq, b, out);
    }
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
