// Cycle models of rtl/board/hwprof_board_rec_decoder.sv (the RECORDS byte
// stream to records, one byte every other cycle at most) and
// hwprof_board_fanout.sv (one record to every unit that takes its kind).
#pragma once

#include <cstdint>
#include <vector>

#include "link_codec.h"

namespace hwprof::model::board {

using BoardRec = link::LinkRecord;

class RecDecoder {
 public:
  void reset() {
    rdp_ = ov_ = err_ = false;
    fld_ = nb_ = 0;
    acc_ = 0;
    tag_ = 0;
    prev_ = 0;
  }
  bool out_valid() const { return ov_; }
  const BoardRec& out() const { return rec_; }
  bool busy() const { return rdp_ || fld_ != 0; }
  bool err() const { return err_; }
  bool rd(bool avail, bool clear) const { return avail && !rdp_ && !ov_ && !err_ && !clear; }

  void step(bool clear, bool avail, uint8_t b, bool out_ready) {
    const bool rd_now = rd(avail, clear);
    bool ov = ov_ && !out_ready;
    bool err = err_;
    if (rdp_) {
      const uint64_t acc_new = acc_ | (uint64_t(b & 0x7F) << (7 * nb_));
      const uint32_t unzig = static_cast<uint32_t>((acc_new >> 1) & 0xFFFFFFFFu) ^ (0u - uint32_t(acc_new & 1));
      if (fld_ == 0) {
        tag_ = b;
        fld_ = 1;
        acc_ = 0;
        nb_ = 0;
        if ((b & 7) == 7 || ((b & 7) == 6 && b != 6)) err = true;
      } else if (b & 0x80) {
        acc_ = acc_new;
        if (nb_ == 4) err = true;
        nb_ = (nb_ + 1) & 7;
      } else {
        acc_ = 0;
        nb_ = 0;
        const unsigned fld = fld_;
        fld_ = (fld_ + 1) & 7;
        if ((tag_ & 7) == 6) {
          rec_.val = true;
          if (fld == 1) {
            if (acc_new >> 32) err = true;
            rec_.value = static_cast<uint32_t>(acc_new);
          } else {
            if (acc_new >> 16) err = true;
            rec_.weight = static_cast<uint16_t>(acc_new);
            fld_ = 0;
            ov = true;
          }
        } else {
          rec_.val = false;
          rec_.br.kind = tag_ & 7;
          rec_.br.taken = (tag_ >> 3) & 1;
          rec_.br.ilen = tag_ >> 4;
          switch (fld) {
            case 1:
              if (acc_new >> 32) err = true;
              rec_.br.pc = prev_ + unzig;
              break;
            case 2:
              if (acc_new >> 32) err = true;
              rec_.br.target = rec_.br.pc + unzig;
              break;
            case 3:
              if (acc_new >> 16) err = true;
              rec_.br.insns = static_cast<uint16_t>(acc_new);
              break;
            default:
              if (acc_new >> 8) err = true;
              rec_.br.events = static_cast<uint8_t>(acc_new);
              fld_ = 0;
              ov = true;
              prev_ = rec_.br.next();
              break;
          }
        }
      }
    }
    if (err) ov = false;
    rdp_ = rd_now;
    ov_ = ov;
    err_ = err;
    if (clear) {
      rdp_ = ov_ = err_ = false;
      fld_ = nb_ = 0;
      acc_ = 0;
      prev_ = 0;
    }
  }

 private:
  bool rdp_ = false, ov_ = false, err_ = false;
  unsigned fld_ = 0, nb_ = 0;
  uint64_t acc_ = 0;
  uint8_t tag_ = 0;
  uint32_t prev_ = 0;
  BoardRec rec_{};
};

class Fanout {
 public:
  Fanout(std::vector<bool> takes_branch, std::vector<bool> takes_val)
      : br_(std::move(takes_branch)), val_(std::move(takes_val)), taken_(br_.size(), false) {}
  void reset() { taken_.assign(br_.size(), false); }
  size_t n() const { return br_.size(); }
  bool wants(size_t u, bool is_val) const { return is_val ? val_[u] : br_[u]; }
  bool unit_valid(size_t u, bool in_valid, bool is_val) const { return in_valid && wants(u, is_val) && !taken_[u]; }
  bool in_ready(bool in_valid, bool is_val, const std::vector<bool>& unit_ready) const {
    if (!in_valid) return false;
    for (size_t u = 0; u < n(); ++u)
      if (wants(u, is_val) && !taken_[u] && !unit_ready[u]) return false;
    return true;
  }
  void step(bool clear, bool in_valid, bool is_val, const std::vector<bool>& unit_ready) {
    const bool done = in_ready(in_valid, is_val, unit_ready);
    for (size_t u = 0; u < n(); ++u)
      if (unit_valid(u, in_valid, is_val) && unit_ready[u]) taken_[u] = true;
    if (done || clear) taken_.assign(n(), false);
  }

 private:
  std::vector<bool> br_, val_, taken_;
};

}  // namespace hwprof::model::board
