// Cycle model of rtl/board/hwprof_board_ctrl.sv: sessions and sequence
// numbers, commit/rollback of RECORDS frames, the register/dump/results
// bridge, the link counters and every answer frame (see the RTL header for
// the decision order). The answer queue is hwprof_fifo_sync (SyncFifo).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "link_codec.h"
#include "sync_fifo.h"

namespace hwprof::model::board {

using Entry = std::array<uint8_t, 32>;

class Ctrl {
 public:
  struct Config {
    unsigned nunits = 1;
    std::vector<uint8_t> dump_bytes;  ///< per unit, 0: no dump
    std::vector<uint8_t> res_bytes;   ///< per unit, 0: no results
    std::vector<uint8_t> id;          ///< the ID block
  };
  /// Inputs of one cycle.
  struct In {
    // frame receiver (registered outputs)
    bool hdr_valid = false;
    uint8_t type = 0, seq = 0, len = 0;
    bool pay_valid = false;
    bool end_valid = false;
    uint64_t pl = 0;
    bool crc_err = false, tmo = false;
    // buffer, decoder, fan-out
    bool buf_empty = true;
    uint16_t buf_free = 0;
    bool dec_valid = false, dec_busy = false, dec_err = false;
    bool rec_take = false;
    // units
    std::vector<uint32_t> csr_rdata;
    std::vector<bool> dump_valid, dump_busy, res_valid;
    std::vector<Entry> dump_data, res_data;
    // transmitter
    bool tx_busy = false;
    bool tx_take = false;
  };
  struct Out {
    bool buf_we = false, buf_commit = false, buf_rollback = false, buf_clear = false;
    bool dec_clear = false;
    bool unit_rst = false;
    std::vector<bool> csr_we, dump_start, dump_ready, res_ready;
    uint8_t csr_addr = 0;
    uint32_t csr_wdata = 0;
    bool tx_start = false;
    uint8_t tx_type = 0, tx_seq = 0, tx_len = 0;
    uint8_t tx_pay = 0;
  };

  explicit Ctrl(Config cfg) : cfg_(std::move(cfg)), q_(8) { reset(); }

  void reset() {
    st_ = Idle;
    lk_ = LAck;
    session_ = 0;
    expect_ = 0;
    wr_en_ = false;
    crc_errs_ = tmos_ = naks_ = dups_ = 0;
    records_ = busy_ = idle_ = 0;
    res_pend_ = false;
    res_unit_ = 0;
    unit_rst_ = false;
    csr_we_.assign(cfg_.nunits, false);
    dump_start_.assign(cfg_.nunits, false);
    csr_addr_ = 0;
    csr_wdata_ = 0;
    ext_ = ExtNone;
    pidx_ = 0;
    dwait_ = 0;
    q_.reset();
  }

  /// Outputs toward the units that do not depend on the units' outputs of
  /// the same cycle (everything but dump_ready and res_ready).
  bool unit_rst() const { return unit_rst_; }
  const std::vector<bool>& csr_we() const { return csr_we_; }
  uint8_t csr_addr() const { return csr_addr_; }
  uint32_t csr_wdata() const { return csr_wdata_; }
  const std::vector<bool>& dump_start() const { return dump_start_; }
  /// Unit u's dump_ready is this and its dump_valid.
  bool dump_want(unsigned u) const { return st_ == DumpWait && dwait_ == 0 && unit_ == u; }
  uint16_t session() const { return session_; }
  /// Debug view: state, dwait, expect.
  std::string debug() const {
    return "st " + std::to_string(int(st_)) + " lk " + std::to_string(int(lk_)) + " dwait " + std::to_string(dwait_) +
           " expect " + std::to_string(expect_) + " res_pend " + std::to_string(res_pend_);
  }

  /// One edge: returns the outputs of the cycle, commits the state.
  Out step(const In& in) {
    Out o;
    o.csr_we = csr_we_;
    o.dump_start = dump_start_;
    o.dump_ready.assign(cfg_.nunits, false);
    o.res_ready.assign(cfg_.nunits, false);
    o.csr_addr = csr_addr_;
    o.csr_wdata = csr_wdata_;
    o.unit_rst = unit_rst_;

    const auto qo = q_.step_peek();
    const bool q_valid = qo.out_valid, q_ready = qo.in_ready;
    const uint8_t pl_unit = static_cast<uint8_t>(in.pl & 0xFF);
    const unsigned pl_u = pl_unit & umask();
    const bool drained = (in.buf_empty && !in.dec_valid && !in.dec_busy) || in.dec_err;
    const uint8_t status = static_cast<uint8_t>(((in.buf_empty && !in.dec_valid && !in.dec_busy) ? 0 : 2) | (in.dec_err ? 1 : 0));
    const bool seq_ok = in.seq == expect_;
    const bool is_dup = in.seq == static_cast<uint8_t>(expect_ - 1);
    const bool type_ok = in.type >= 1 && in.type <= 9;
    const bool ev = in.end_valid && (st_ == Idle || in.type == 2) && q_ready;
    const bool abort = ev && in.type == 2;
    uint8_t exp_len = 0;
    switch (in.type) {
      case 2: exp_len = 2; break;
      case 3: exp_len = 6; break;
      case 4: exp_len = 2; break;
      case 7: exp_len = 1; break;
      case 8: exp_len = 2; break;
      default: break;
    }
    const bool len_ok = in.type == 5 ? true : in.len == exp_len;  // an empty RECORDS frame is a credit poll
    bool unit_ok = true;
    if (in.type == 3 || in.type == 4 || in.type == 8) unit_ok = pl_unit < cfg_.nunits;
    if (in.type == 7) unit_ok = pl_unit < cfg_.nunits && dump_bytes(pl_u) != 0;

    // next state
    State st = st_;
    Long lk = lk_;
    uint16_t session = session_;
    uint8_t expect = expect_;
    bool wr_en = wr_en_;
    uint16_t crc_errs = static_cast<uint16_t>(crc_errs_ + (in.crc_err && crc_errs_ != 0xFFFF));
    uint16_t tmos = static_cast<uint16_t>(tmos_ + (in.tmo && tmos_ != 0xFFFF));
    uint16_t naks = naks_, dups = dups_;
    uint32_t records = records_ + in.rec_take, busy = busy_ + in.dec_valid, idle = idle_ + in.buf_empty;
    uint8_t cmd_type = cmd_type_, cmd_seq = cmd_seq_;
    unsigned unit = unit_;
    bool res_pend = res_pend_;
    unsigned res_unit = res_unit_;
    bool unit_rst = false;
    std::vector<bool> csr_we(cfg_.nunits, false), dump_start(cfg_.nunits, false);
    uint8_t csr_addr = csr_addr_;
    uint32_t csr_wdata = csr_wdata_, rdata = rdata_, dcnt = dcnt_, dcrc = dcrc_;
    unsigned dwait = dwait_;
    Entry entry = entry_;
    uint8_t rmax = rmax_;
    bool q_push = false;
    uint32_t q_in = 0;
    auto qv = [](unsigned code, uint8_t seq, uint8_t arg) { return (code << 16) | (unsigned(seq) << 8) | arg; };

    if (in.hdr_valid) wr_en = in.type == 5 && in.len <= in.buf_free;
    if (in.end_valid || in.crc_err || in.tmo) wr_en = false;

    if (ev) {
      if (in.type == 2) {
        if (in.len != 2 || (in.pl & 0xFFFF) == 0) {
          q_push = true;
          q_in = qv(QNak, in.seq, 4);
        } else {
          session = static_cast<uint16_t>(in.pl & 0xFFFF);
          expect = static_cast<uint8_t>(in.seq + 1);
          crc_errs = tmos = naks = dups = 0;
          records = busy = idle = 0;
          res_pend = false;
          unit_rst = true;
          o.buf_clear = true;
          o.dec_clear = true;
          q_push = true;
          q_in = qv(QAck, in.seq, 0);
        }
      } else if (session_ == 0) {
        if (in.type == 1 && in.len == 0) {
          cmd_seq = in.seq;
          lk = LInfo;
          st = Send;
        } else {
          q_push = true;
          q_in = qv(QErr, in.seq, 1);
        }
      } else if (!(seq_ok || is_dup)) {
        q_push = true;
        q_in = qv(QNak, in.seq, 1);
      } else if (!type_ok) {
        q_push = true;
        q_in = qv(QNak, in.seq, 3);
      } else if (!len_ok) {
        q_push = true;
        q_in = qv(QNak, in.seq, 4);
      } else if (!unit_ok) {
        q_push = true;
        q_in = qv(QNak, in.seq, 5);
      } else if (in.type == 5) {
        if (is_dup) {
          q_push = true;
          q_in = qv(QAck, in.seq, 0);
        } else if (in.dec_err) {
          q_push = true;
          q_in = qv(QErr, in.seq, 2);
        } else if (!wr_en_) {
          q_push = true;
          q_in = qv(QNak, in.seq, 2);
        } else {
          o.buf_commit = true;
          q_push = true;
          q_in = qv(QAck, in.seq, 0);
        }
      } else {
        cmd_type = in.type;
        cmd_seq = in.seq;
        unit = pl_u;
        switch (in.type) {
          case 1: lk = LInfo; st = Send; break;
          case 9: lk = LLinkStatus; st = Send; break;
          case 3:
            csr_addr = static_cast<uint8_t>(in.pl >> 8);
            csr_wdata = static_cast<uint32_t>(in.pl >> 16);
            lk = LAck;
            st = is_dup ? Send : Drain;
            break;
          case 4:
            csr_addr = static_cast<uint8_t>(in.pl >> 8);
            lk = LData;
            st = Drain;
            break;
          case 6: lk = LFlushed; st = Drain; break;
          case 7: st = Drain; break;
          default:
            lk = LResult;
            if (is_dup) {
              st = Send;
            } else {
              res_unit = pl_u;
              rmax = static_cast<uint8_t>(in.pl >> 8);
              dwait = 2;
              st = ResWait;
            }
            break;
        }
      }
      if (seq_ok && session_ != 0 && in.type != 2 && type_ok && len_ok && unit_ok &&
          !(in.type == 5 && (in.dec_err || !wr_en_))) {
        expect = static_cast<uint8_t>(expect_ + 1);
        if (res_pend_) {
          o.res_ready[res_unit_] = true;
          res_pend = false;
        }
      }
      if (session_ != 0 && is_dup && !seq_ok && type_ok && len_ok && unit_ok)
        dups = static_cast<uint16_t>(dups_ + (dups_ != 0xFFFF));
      if (q_push && (q_in >> 16) == QNak) naks = static_cast<uint16_t>(naks_ + (naks_ != 0xFFFF));
    }

    if (abort) {
      st = Idle;
    } else switch (st_) {
      case Drain:
        if (drained) {
          switch (cmd_type_) {
            case 3:
              csr_we[unit_] = true;
              st = Send;
              break;
            case 4: st = RegRd; break;
            case 7:
              dump_start[unit_] = true;
              dcnt = 0;
              dcrc = 0xFFFFFFFFu;
              dwait = 3;
              st = DumpWait;
              break;
            default: st = (cmd_type_ == 6 && in.dec_err) ? Idle : Send; break;
          }
          if (cmd_type_ == 6 && in.dec_err) {
            q_push = true;
            q_in = qv(QErr, cmd_seq_, 2);
          }
        }
        break;
      case RegRd:
        rdata = in.csr_rdata[unit_];
        st = Send;
        break;
      case DumpWait:
        if (dwait_ != 0) {
          dwait = dwait_ - 1;
        } else if (in.dump_valid[unit_]) {
          o.dump_ready[unit_] = true;
          entry = in.dump_data[unit_];
          lk = LDumpData;
          st = Send;
        } else if (!in.dump_busy[unit_]) {
          lk = LDumpEnd;
          st = Send;
        }
        break;
      case ResWait:
        if (dwait_ != 0) {
          dwait = dwait_ - 1;
        } else {
          res_pend = res_bytes(res_unit_) != 0 && in.res_valid[res_unit_] && rmax_ != 0;
          st = Send;
        }
        break;
      case SendWait:
        if (!in.tx_busy) {
          if (lk_ == LDumpData) {
            dcnt = dcnt_ + 1;
            st = DumpWait;
          } else {
            st = Idle;
          }
        }
        break;
      default: break;
    }

    // transmit side
    o.tx_pay = pay_byte(in);
    if (st_ == SendWait && lk_ == LDumpData && in.tx_take && pidx_ >= 4) {
      dcrc = link_crc32_byte(dcrc, o.tx_pay);
    }
    const bool q_pop = q_valid && !in.tx_busy;
    const bool start_long = !q_valid && !in.tx_busy && st_ == Send;
    uint8_t l_type = 0, l_len = 0;
    std::array<uint8_t, 16> l_bytes{};
    unsigned l_ext = ExtNone;
    long_answer(in, l_type, l_len, l_bytes, l_ext);
    o.tx_start = q_pop || start_long;
    uint8_t q_type = 0, q_len = 0;
    const unsigned qcode = q_valid ? (qo.out_data >> 16) & 3 : 0;
    if (qcode == QAck) { q_type = 0x82; q_len = 5; }
    else if (qcode == QNak) { q_type = 0xFE; q_len = 4; }
    else { q_type = 0xFF; q_len = 3; }
    o.tx_type = q_pop ? q_type : l_type;
    o.tx_seq = q_pop ? static_cast<uint8_t>(qo.out_data >> 8) : cmd_seq_;
    o.tx_len = q_pop ? q_len : l_len;

    std::array<uint8_t, 16> ans = ans_;
    unsigned ext = ext_;
    uint8_t pidx = static_cast<uint8_t>(pidx_ + in.tx_take);
    if (q_pop) {
      ans.fill(0);
      ans[0] = static_cast<uint8_t>(session_);
      ans[1] = static_cast<uint8_t>(session_ >> 8);
      const uint8_t arg = static_cast<uint8_t>(qo.out_data);
      if (qcode == QAck) {
        ans[2] = static_cast<uint8_t>(in.buf_free);
        ans[3] = static_cast<uint8_t>(in.buf_free >> 8);
        ans[4] = status;
      } else if (qcode == QNak) {
        ans[2] = expect_;
        ans[3] = arg;
      } else {
        ans[2] = arg;
      }
      ext = ExtNone;
      pidx = 0;
    } else if (start_long) {
      ans = l_bytes;
      ext = l_ext;
      pidx = 0;
    }
    if (start_long) st = SendWait;

    // the answer queue
    q_.commit(q_push, q_in, q_pop);

    // commit
    o.buf_we = in.pay_valid && wr_en_;
    o.buf_rollback = (in.end_valid && !o.buf_commit) || in.crc_err || in.tmo;
    st_ = st;
    lk_ = lk;
    session_ = session;
    expect_ = expect;
    wr_en_ = wr_en;
    crc_errs_ = crc_errs;
    tmos_ = tmos;
    naks_ = naks;
    dups_ = dups;
    records_ = records;
    busy_ = busy;
    idle_ = idle;
    cmd_type_ = cmd_type;
    cmd_seq_ = cmd_seq;
    unit_ = unit;
    res_pend_ = res_pend;
    res_unit_ = res_unit;
    unit_rst_ = unit_rst;
    csr_we_ = csr_we;
    dump_start_ = dump_start;
    csr_addr_ = csr_addr;
    csr_wdata_ = csr_wdata;
    rdata_ = rdata;
    dcnt_ = dcnt;
    dcrc_ = dcrc;
    dwait_ = dwait;
    entry_ = entry;
    rmax_ = rmax;
    ans_ = ans;
    ext_ = ext;
    pidx_ = pidx;
    return o;
  }

 private:
  enum State { Idle, Drain, RegRd, DumpWait, ResWait, Send, SendWait };
  enum Long { LInfo, LAck, LData, LFlushed, LDumpData, LDumpEnd, LResult, LLinkStatus };
  enum { QAck = 0, QNak = 1, QErr = 2 };
  enum { ExtNone = 0, ExtId = 1, ExtDump = 2, ExtRes = 3 };

  /// The answer queue: SyncFifo with a peek of the cycle's outputs.
  class Queue {
   public:
    explicit Queue(unsigned depth) : f_(depth) {}
    void reset() { f_.reset(); }
    SyncFifo<uint32_t>::Out step_peek() {
      SyncFifo<uint32_t> copy = f_;
      return copy.step({});
    }
    void commit(bool push, uint32_t data, bool pop) {
      SyncFifo<uint32_t>::In i;
      i.in_valid = push;
      i.in_data = data;
      i.out_ready = pop;
      f_.step(i);
    }

   private:
    SyncFifo<uint32_t> f_;
  };

  static uint32_t link_crc32_byte(uint32_t c, uint8_t b) {
    c ^= b;
    for (int i = 0; i < 8; ++i) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    return c;
  }

  unsigned umask() const {
    unsigned w = 1;
    while ((1u << w) < cfg_.nunits) ++w;
    return cfg_.nunits > 1 ? (1u << w) - 1 : 1u;
  }
  uint8_t dump_bytes(unsigned u) const { return u < cfg_.nunits ? cfg_.dump_bytes[u] : 0; }
  uint8_t res_bytes(unsigned u) const { return u < cfg_.nunits ? cfg_.res_bytes[u] : 0; }

  void long_answer(const In& in, uint8_t& type, uint8_t& len, std::array<uint8_t, 16>& b, unsigned& ext) const {
    b.fill(0);
    b[0] = static_cast<uint8_t>(session_);
    b[1] = static_cast<uint8_t>(session_ >> 8);
    ext = ExtNone;
    const uint8_t status = static_cast<uint8_t>(((in.buf_empty && !in.dec_valid && !in.dec_busy) ? 0 : 2) | (in.dec_err ? 1 : 0));
    auto put32 = [&](unsigned k, uint32_t v) {
      for (unsigned i = 0; i < 4; ++i) b[k + i] = static_cast<uint8_t>(v >> (8 * i));
    };
    switch (lk_) {
      case LInfo:
        type = 0x81;
        len = static_cast<uint8_t>(2 + cfg_.id.size());
        ext = ExtId;
        break;
      case LAck:
        type = 0x82;
        len = 5;
        b[2] = static_cast<uint8_t>(in.buf_free);
        b[3] = static_cast<uint8_t>(in.buf_free >> 8);
        b[4] = status;
        break;
      case LData:
        type = 0x84;
        len = 6;
        put32(2, rdata_);
        break;
      case LFlushed:
        type = 0x86;
        len = 14;
        put32(2, records_);
        put32(6, busy_);
        put32(10, idle_);
        break;
      case LDumpData:
        type = 0x87;
        len = static_cast<uint8_t>(4 + dump_bytes(unit_));
        b[2] = static_cast<uint8_t>(dcnt_);
        b[3] = static_cast<uint8_t>(dcnt_ >> 8);
        ext = ExtDump;
        break;
      case LDumpEnd:
        type = 0x88;
        len = 10;
        put32(2, dcnt_);
        put32(6, ~dcrc_);
        break;
      case LResult:
        type = 0x89;
        len = static_cast<uint8_t>(4 + (res_pend_ ? res_bytes(res_unit_) : 0));
        b[2] = res_pend_;
        b[3] = res_pend_;
        ext = ExtRes;
        break;
      default:
        type = 0x8A;
        len = 11;
        b[2] = static_cast<uint8_t>(crc_errs_);
        b[3] = static_cast<uint8_t>(crc_errs_ >> 8);
        b[4] = static_cast<uint8_t>(tmos_);
        b[5] = static_cast<uint8_t>(tmos_ >> 8);
        b[6] = static_cast<uint8_t>(naks_);
        b[7] = static_cast<uint8_t>(naks_ >> 8);
        b[8] = static_cast<uint8_t>(dups_);
        b[9] = static_cast<uint8_t>(dups_ >> 8);
        b[10] = expect_;
        break;
    }
  }

  uint8_t pay_byte(const In& in) const {
    const unsigned start = ext_ == ExtId ? 2 : 4;
    if (ext_ == ExtNone || pidx_ < start) return ans_[pidx_ & 15];
    const unsigned k = pidx_ - start;
    switch (ext_) {
      case ExtId: return k < cfg_.id.size() ? cfg_.id[k] : 0;
      case ExtDump: return entry_[k & 31];
      default: return in.res_data[res_unit_][k & 31];
    }
  }

  Config cfg_;
  Queue q_;
  State st_ = Idle;
  Long lk_ = LAck;
  uint16_t session_ = 0;
  uint8_t expect_ = 0;
  bool wr_en_ = false;
  uint16_t crc_errs_ = 0, tmos_ = 0, naks_ = 0, dups_ = 0;
  uint32_t records_ = 0, busy_ = 0, idle_ = 0;
  uint8_t cmd_type_ = 0, cmd_seq_ = 0;
  unsigned unit_ = 0;
  bool res_pend_ = false;
  unsigned res_unit_ = 0;
  bool unit_rst_ = false;
  std::vector<bool> csr_we_, dump_start_;
  uint8_t csr_addr_ = 0;
  uint32_t csr_wdata_ = 0, rdata_ = 0, dcnt_ = 0, dcrc_ = 0;
  unsigned dwait_ = 0;
  Entry entry_{};
  uint8_t rmax_ = 0;
  std::array<uint8_t, 16> ans_{};
  unsigned ext_ = ExtNone;
  uint8_t pidx_ = 0;
};

}  // namespace hwprof::model::board
