// Cycle models of rtl/board/hwprof_board_link_rx.sv (frame receiver) and
// hwprof_board_link_tx.sv (frame transmitter).
#pragma once

#include <cstdint>

#include "link_codec.h"

namespace hwprof::model::board {

/// hwprof_board_link_rx: every output is a register (one-cycle pulses).
class LinkRx {
 public:
  explicit LinkRx(unsigned tmo_clks) : tmo_clks_(tmo_clks) {}
  void reset() {
    state_ = Hunt;
    tmo_cnt_ = 0;
    hdr_ = pay_ = end_ = err_ = tmo_ = false;
  }
  bool hdr_valid() const { return hdr_; }
  uint8_t type() const { return type_; }
  uint8_t seq() const { return seq_; }
  uint8_t len() const { return len_; }
  bool pay_valid() const { return pay_; }
  uint8_t pay_data() const { return pay_data_; }
  bool end_valid() const { return end_; }
  uint64_t pl() const { return pl_; }
  bool crc_err() const { return err_; }
  bool tmo() const { return tmo_; }

  void step(bool in_valid, uint8_t b) {
    hdr_ = pay_ = end_ = err_ = tmo_ = false;
    if (in_valid) {
      tmo_cnt_ = 0;
      switch (state_) {
        case Hunt:
          if (b == link::kSof) {
            state_ = Type;
            crc_ = 0xFFFF;
          }
          break;
        case Type:
          type_ = b;
          crc_ = link::crc16(&b, 1, crc_);
          state_ = Seq;
          break;
        case Seq:
          seq_ = b;
          crc_ = link::crc16(&b, 1, crc_);
          state_ = Len;
          break;
        case Len:
          len_ = b;
          crc_ = link::crc16(&b, 1, crc_);
          cnt_ = 0;
          hdr_ = true;
          state_ = b == 0 ? CrcLo : Pay;
          break;
        case Pay:
          crc_ = link::crc16(&b, 1, crc_);
          pay_ = true;
          pay_data_ = b;
          if (cnt_ < 6) pl_ = (pl_ & ~(uint64_t{0xFF} << (8 * cnt_))) | (uint64_t{b} << (8 * cnt_));
          if (static_cast<uint8_t>(cnt_ + 1) == len_) state_ = CrcLo;
          cnt_ = static_cast<uint8_t>(cnt_ + 1);
          break;
        case CrcLo:
          crclo_ = b;
          state_ = CrcHi;
          break;
        case CrcHi:
          if (static_cast<uint16_t>((b << 8) | crclo_) == crc_) end_ = true;
          else err_ = true;
          state_ = Hunt;
          break;
      }
    } else if (state_ != Hunt) {
      if (tmo_cnt_ == tmo_clks_ - 1) {
        tmo_ = true;
        tmo_cnt_ = 0;
        state_ = Hunt;
      } else {
        ++tmo_cnt_;
      }
    }
  }

 private:
  enum State { Hunt, Type, Seq, Len, Pay, CrcLo, CrcHi };
  unsigned tmo_clks_;
  State state_ = Hunt;
  uint8_t type_ = 0, seq_ = 0, len_ = 0, cnt_ = 0, crclo_ = 0, pay_data_ = 0;
  uint16_t crc_ = 0;
  uint64_t pl_ = 0;
  unsigned tmo_cnt_ = 0;
  bool hdr_ = false, pay_ = false, end_ = false, err_ = false, tmo_ = false;
};

/// hwprof_board_link_tx: pulls payload bytes by the caller's index.
class LinkTx {
 public:
  void reset() { state_ = Idle; }
  bool busy() const { return state_ != Idle; }
  bool out_valid() const { return state_ != Idle; }
  bool in_pay() const { return state_ == Pay; }
  /// The byte offered to the UART, given the caller's payload byte.
  uint8_t out_data(uint8_t pay) const {
    switch (state_) {
      case Sof: return link::kSof;
      case Type: return type_;
      case Seq: return seq_;
      case Len: return len_;
      case Pay: return pay;
      case CrcLo: return static_cast<uint8_t>(crc_ & 0xFF);
      case CrcHi: return static_cast<uint8_t>(crc_ >> 8);
      default: return 0;
    }
  }
  void step(bool start, uint8_t type, uint8_t seq, uint8_t len, uint8_t pay, bool uart_ready) {
    if (state_ == Idle) {
      if (start) {
        state_ = Sof;
        type_ = type;
        seq_ = seq;
        len_ = len;
        cnt_ = 0;
        crc_ = 0xFFFF;
      }
      return;
    }
    if (!uart_ready) return;
    const uint8_t b = out_data(pay);
    if (state_ == Type || state_ == Seq || state_ == Len || state_ == Pay) crc_ = link::crc16(&b, 1, crc_);
    switch (state_) {
      case Sof: state_ = Type; break;
      case Type: state_ = Seq; break;
      case Seq: state_ = Len; break;
      case Len: state_ = len_ == 0 ? CrcLo : Pay; break;
      case Pay:
        if (static_cast<uint8_t>(cnt_ + 1) == len_) state_ = CrcLo;
        cnt_ = static_cast<uint8_t>(cnt_ + 1);
        break;
      case CrcLo: state_ = CrcHi; break;
      default: state_ = Idle; break;
    }
  }

 private:
  enum State { Idle, Sof, Type, Seq, Len, Pay, CrcLo, CrcHi };
  State state_ = Idle;
  uint8_t type_ = 0, seq_ = 0, len_ = 0, cnt_ = 0;
  uint16_t crc_ = 0;
};

}  // namespace hwprof::model::board
