// C++ twins of the RTL primitives' arithmetic (rtl/prim/, docs/prim.md):
// saturating counters, priority picks and arg-min with the same tie-breaks,
// so every model writes each rule once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hwprof::model {

/// All ones in the low w bits (w = 0..64); hwprof_prim_pkg::mask_of.
constexpr uint64_t mask_of(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

/// acc + x saturated at the w-bit maximum (acc < 2^w); hwprof_prim_pkg::sat_add.
constexpr uint64_t sat_add(unsigned w, uint64_t acc, uint64_t x) {
  const uint64_t max = mask_of(w);
  return x > max - acc ? max : acc + x;
}
template <unsigned W>
constexpr uint64_t sat_add(uint64_t acc, uint64_t x) {
  static_assert(W >= 1 && W <= 64, "sat_add: width 1..64");
  return sat_add(W, acc, x);
}

/// acc + 1 saturated at the w-bit maximum; hwprof_prim_pkg::sat_inc.
constexpr uint64_t sat_inc(unsigned w, uint64_t acc) { return sat_add(w, acc, 1); }
template <unsigned W>
constexpr uint64_t sat_inc(uint64_t acc) {
  return sat_add<W>(acc, 1);
}

/// A 64-bit count shown in a 32-bit register: saturates at 2^32 - 1.
constexpr uint32_t sat32(uint64_t v) { return static_cast<uint32_t>(v > 0xffffffffu ? 0xffffffffu : v); }

/// Index of the lowest set bit of v, -1 when v == 0 (hwprof_lzc, HighFirst 0).
constexpr int lowest_set(uint64_t v) {
  if (v == 0) return -1;
  int i = 0;
  while (!((v >> i) & 1)) ++i;
  return i;
}
/// Index of the highest set bit of v, -1 when v == 0 (hwprof_lzc, HighFirst 1).
constexpr int highest_set(uint64_t v) {
  int i = -1;
  for (int b = 0; b < 64; ++b)
    if ((v >> b) & 1) i = b;
  return i;
}

/// At most one bit set ($onehot0).
constexpr bool onehot0(uint64_t v) { return (v & (v - 1)) == 0; }

/// Value v placed in the register field at bits lsb+w-1..lsb (truncated to w
/// bits), for the generated ...Lsb/...W constants of the <unit>_regs.h headers.
inline constexpr uint32_t reg_field(uint32_t v, unsigned lsb, unsigned w) {
  return (w >= 32 ? v : v & ((1u << w) - 1)) << lsb;
}

/// Result of argmin / argmax: valid when any candidate was valid.
template <typename T>
struct Pick {
  bool valid = false;
  unsigned idx = 0;
  T val{};
};

/// Minimum (argmax: maximum) of the candidates with valid[i]; the lowest
/// index wins ties (hwprof_argmin_tree). vals.size() == valid.size().
template <typename T>
Pick<T> argmin(const std::vector<T>& vals, const std::vector<bool>& valid, bool argmax = false) {
  Pick<T> p;
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!valid[i]) continue;
    const bool better = argmax ? vals[i] > p.val : vals[i] < p.val;
    if (!p.valid || better) p = {true, static_cast<unsigned>(i), vals[i]};
  }
  return p;
}

}  // namespace hwprof::model
