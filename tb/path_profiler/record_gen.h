// Random and hand-written branch records for the path profiler lock-step
// tests (path stack, front end, whole profiler).
#pragma once

#include <cstdint>
#include <random>

#include "branch_record.h"
#include "path_stack_algo.h"

namespace hwprof::tb {

namespace kinds {
constexpr uint8_t kBr = 0, kJmp = 1, kIjmp = 2, kCall = 3, kIcall = 4, kRet = 5;
}  // namespace kinds
using namespace kinds;

inline model::BranchRecord rec(uint8_t kind, uint32_t pc, uint32_t target, bool taken, uint16_t insns = 1,
                               uint8_t events = 0, uint8_t ilen = 2) {
  model::BranchRecord r;
  r.kind = kind;
  r.pc = pc;
  r.target = target;
  r.taken = taken;
  r.ilen = ilen;
  r.insns = insns;
  r.events = events;
  return r;
}

// Random records over a small code region, so paths repeat, loops form and
// the stack walks up and down (calls and returns equally likely) with
// occasional deep call runs that overflow any stack.
class RecordGen {
 public:
  explicit RecordGen(uint64_t seed) : rng_(seed) {}
  model::BranchRecord next() {
    model::BranchRecord r;
    const unsigned roll = rng_() % 100;
    if (call_run_ > 0) {
      --call_run_;
      r.kind = kCall;
    } else if (roll < 2) {
      call_run_ = 5 + rng_() % 30;
      r.kind = kCall;
    } else if (roll < 45) {
      r.kind = kBr;
    } else if (roll < 55) {
      r.kind = kJmp;
    } else if (roll < 62) {
      r.kind = kIjmp;
    } else if (roll < 75) {
      r.kind = (rng_() & 1) ? kCall : kIcall;
    } else {
      r.kind = kRet;
    }
    r.pc = 0x1000 + static_cast<uint32_t>(rng_() % 64) * 4;
    switch (rng_() % 8) {
      case 0: r.target = r.pc; break;                                     // target == pc: backward
      case 1: r.target = 0xfffffff0u + static_cast<uint32_t>(rng_() % 16); break;  // next wraps
      default: r.target = 0x1000 + static_cast<uint32_t>(rng_() % 64) * 4;
    }
    r.taken = r.kind != kBr || (rng_() & 1);
    r.ilen = static_cast<uint8_t>(1 + rng_() % 15);
    // Mostly small counts, sometimes large ones to reach saturation.
    r.insns = static_cast<uint16_t>((rng_() % 16) ? 1 + rng_() % 20 : rng_());
    r.events = static_cast<uint8_t>((rng_() % 16) ? rng_() % 4 : rng_());
    return r;
  }
  uint32_t legal_ppcr() {
    switch (rng_() % 6) {
      case 0: return model::Ppcr::kBl;
      case 1: return model::Ppcr::kWpp;
      case 2: return model::Ppcr::ext(static_cast<unsigned>(rng_() % 4));
      default: {
        uint32_t v = static_cast<uint32_t>(rng_()) & model::Ppcr::kMask;
        for (unsigned c = 0; c < 5; ++c)
          if ((v >> (4 * c) & 3) == 3) v &= ~(1u << (4 * c + (rng_() & 1)));
        return v;
      }
    }
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  unsigned call_run_ = 0;
};

}  // namespace hwprof::tb
