// Cycle models of rtl/board/hwprof_uart_rx.sv and hwprof_uart_tx.sv (8N1,
// LSB first). Each mirrors its RTL registers; step() = one rising edge.
#pragma once

#include <cstdint>

namespace hwprof::model::board {

/// hwprof_uart_rx: two-flop synchronizer, start bit checked after
/// ClksPerBit/2 clocks, data and stop bits sampled ClksPerBit apart; a byte
/// with a good stop bit gives a one-cycle valid the cycle after the sample.
class UartRx {
 public:
  explicit UartRx(unsigned clks_per_bit) : cpb_(clks_per_bit) {}
  void reset() {
    state_ = Idle;
    cnt_ = 0;
    bit_ = 0;
    valid_ = false;
    s1_ = s2_ = true;
  }
  bool valid() const { return valid_; }
  uint8_t data() const { return sh_; }
  void step(bool rx) {
    State st = state_;
    unsigned cnt = cnt_, bit = bit_;
    uint8_t sh = sh_;
    bool valid = false;
    switch (state_) {
      case Idle:
        if (!s2_) {
          st = Start;
          cnt = cpb_ / 2 - 1;
        }
        break;
      case Start:
        if (cnt_ == 0) {
          if (!s2_) {
            st = Data;
            cnt = cpb_ - 1;
            bit = 0;
          } else {
            st = Idle;
          }
        } else {
          cnt = cnt_ - 1;
        }
        break;
      case Data:
        if (cnt_ == 0) {
          sh = static_cast<uint8_t>((s2_ ? 0x80 : 0) | (sh_ >> 1));
          cnt = cpb_ - 1;
          bit = (bit_ + 1) & 7;
          if (bit_ == 7) st = Stop;
        } else {
          cnt = cnt_ - 1;
        }
        break;
      case Stop:
        if (cnt_ == 0) {
          valid = s2_;
          st = Idle;
        } else {
          cnt = cnt_ - 1;
        }
        break;
    }
    state_ = st;
    cnt_ = cnt;
    bit_ = bit;
    sh_ = sh;
    valid_ = valid;
    s2_ = s1_;
    s1_ = rx;
  }

 private:
  enum State { Idle, Start, Data, Stop };
  unsigned cpb_;
  State state_ = Idle;
  unsigned cnt_ = 0, bit_ = 0;
  uint8_t sh_ = 0;
  bool valid_ = false, s1_ = true, s2_ = true;
};

/// hwprof_uart_tx: ready while idle; a taken byte goes out as start bit, 8
/// data bits, stop bit, ClksPerBit clocks each.
class UartTx {
 public:
  explicit UartTx(unsigned clks_per_bit) : cpb_(clks_per_bit) {}
  void reset() {
    busy_ = false;
    cnt_ = 0;
    n_ = 0;
    sh_ = 0x3FF;
  }
  bool ready() const { return !busy_; }
  bool tx() const { return busy_ ? (sh_ & 1) != 0 : true; }
  void step(bool valid, uint8_t data) {
    if (!busy_) {
      if (valid) {
        busy_ = true;
        sh_ = static_cast<uint16_t>((1u << 9) | (unsigned(data) << 1));
        cnt_ = cpb_ - 1;
        n_ = 0;
      }
    } else if (cnt_ == 0) {
      cnt_ = cpb_ - 1;
      sh_ = static_cast<uint16_t>((1u << 9) | (sh_ >> 1));
      if (n_ == 9) busy_ = false;
      n_ = (n_ + 1) & 15;
    } else {
      --cnt_;
    }
  }

 private:
  unsigned cpb_;
  bool busy_ = false;
  unsigned cnt_ = 0, n_ = 0;
  uint16_t sh_ = 0x3FF;
};

}  // namespace hwprof::model::board
