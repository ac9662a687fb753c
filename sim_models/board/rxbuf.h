// Cycle model of rtl/board/hwprof_board_rxbuf.sv: ring of Bytes bytes with
// a speculative write pointer (commit / rollback of a frame).
#pragma once

#include <cstdint>
#include <vector>

namespace hwprof::model::board {

class RxBuf {
 public:
  explicit RxBuf(unsigned bytes) : bytes_(bytes), mem_(bytes, 0) {}
  void reset() { wcom_ = wspec_ = rptr_ = 0; }
  unsigned mask() const { return 2 * bytes_ - 1; }
  bool empty() const { return wcom_ == rptr_; }
  uint16_t free() const { return static_cast<uint16_t>(bytes_ - ((wcom_ - rptr_) & mask())); }
  uint8_t rdata() const { return rdata_; }
  void step(bool clear, bool we, uint8_t wdata, bool commit, bool rollback, bool re) {
    if (we) mem_[wspec_ % bytes_] = wdata;
    if (re) rdata_ = mem_[rptr_ % bytes_];
    unsigned wcom = wcom_, wspec = wspec_, rptr = rptr_;
    if (we) wspec = (wspec_ + 1) & mask();
    if (commit) wcom = wspec_;
    if (rollback) wspec = wcom_;
    if (re) rptr = (rptr_ + 1) & mask();
    if (clear) wcom = wspec = rptr = 0;
    wcom_ = wcom;
    wspec_ = wspec;
    rptr_ = rptr;
  }

 private:
  unsigned bytes_;
  std::vector<uint8_t> mem_;
  unsigned wcom_ = 0, wspec_ = 0, rptr_ = 0;
  uint8_t rdata_ = 0;
};

}  // namespace hwprof::model::board
