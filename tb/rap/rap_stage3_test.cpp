// Stage lock-step tests of the RAP engine's match tables and counter SRAM
// (issue 5; paper 001 section 4, Fig. 6; spec 4.2; docs/rap_engine.md), each
// against a C++ reference written here from the module headers, not from the
// RTL:
//   * TCAM: ONE reference table (TcamTable: entries {valid, pdepth, prefix};
//     entry e matches key k when valid and the top 2*pdepth bits of k equal
//     its prefix) with two thin cycle wrappers:
//       - TcamFfModel, rtl/rap/hwprof_rap_tcam.sv: match combinational on key_i,
//         set/inv/clear at the edge (set wins over inv of the same entry,
//         clear over both), registered read port (the entry as before the
//         edge);
//       - TcamRamModel, rtl/rap/hwprof_rap_tcam_ram.sv: match from the key given one
//         cycle ahead (key_next_i) ANDed with the current valid bits; after a
//         set, busy_o for 2^SliceW + 1 cycles with last_o in the last, match
//         of the entry being written undefined while busy (not compared),
//         every other entry compared every cycle; clear abandons the write.
//     Random set/inv/clear/search sequences (keys aimed at entries, near
//     misses, random), resets mid-stream, illegal pdepths (> RangeW/2) at a
//     low rate; directed cases by hand: depth 0 matches everything, depth H
//     only its value, set + inv of one entry (set wins), clear in mid-write,
//     the busy window, the read port.
//   * Counter SRAM, rtl/rap/hwprof_rap_counter_ram.sv: an array of 4 * Groups
//     counters with the header's zero/clear/write semantics and write-first
//     registered reads on both ports (port B not compared for a counter
//     zeroed and not written since: undefined there); random writes, zeroes, clears and
//     resets with reads of the written row / counter at the same edge (the
//     forwarding case) at a high rate. hwprof_ram_2p reads X (a random value under
//     -x-assign unique) on a same-address read during a write, so a missing
//     forward is a mismatch.
// Every output is compared every cycle (data masked where the header leaves
// it undefined) through the scoreboard (tb/common/cycle_check.h): the first
// mismatch prints the cycle, the seed, the inputs and the last cycles of
// history, and leaves the failure waveform with rtl.* / model.* / mismatch.*
// at that cycle. SEED / SEEDS / TRACE as in sim_env.h.
#include <gtest/gtest.h>

#include <unistd.h>
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "Vrap_counter_ram_g127_c40.h"
#include "Vrap_counter_ram_g1_c33.h"
#include "Vrap_counter_ram_g8_c40.h"
#include "Vrap_tcam_ram_w32_g16_s4.h"
#include "Vrap_tcam_ram_w8_g4_s8.h"
#include "Vrap_tcam_ram_w8_g8_s2.h"
#include "Vrap_tcam_ram_w8_g8_s4.h"
#include "Vrap_tcam_w32_g16.h"
#include "Vrap_tcam_w8_g8.h"
#include "cycle_check.h"
#include "gtest_util.h"
#include "harness.h"
#include "sim_env.h"

using hwprof::tb::Harness;
using hwprof::tb::SimEnv;

namespace {

// ------------------------------------------------------------ port helpers

/// Bits [lsb, lsb + width) of a Verilated port of any width (width <= 64).
template <typename T>
uint64_t get_bits(const T& port, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  if constexpr (std::is_integral_v<T>) {
    v = uint64_t(port) >> lsb;
  } else {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned b = lsb + i;
      if ((port.m_storage[b / 32] >> (b % 32)) & 1u) v |= uint64_t{1} << i;
    }
  }
  return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
}

uint64_t low_mask(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

unsigned depth_w(unsigned range_w) {  // $clog2(RangeW / 2 + 1)
  unsigned h = range_w / 2 + 1, b = 0;
  while ((1u << b) < h) ++b;
  return b;
}

/// The RAM TCAM's search key port (key_next_i) instead of key_i.
template <typename T, typename = void>
struct HasKeyNext : std::false_type {};
template <typename T>
struct HasKeyNext<T, std::void_t<decltype(std::declval<T&>().key_next_i)>> : std::true_type {};
template <typename T>
constexpr bool kHasKeyNext = HasKeyNext<T>::value;

// ------------------------------------------------------------ TCAM reference

/// The TCAM table (docs/rap_engine.md "TCAM"; paper 001 Fig. 6), written once.
class TcamTable {
 public:
  struct Entry {
    bool valid = false;
    bool known = false;  ///< pdepth / prefix defined (set since the last reset)
    unsigned pdepth = 0;
    uint32_t prefix = 0;  ///< left-aligned, bits below 2*pdepth zero
  };
  TcamTable(unsigned range_w, unsigned groups) : w_(range_w), e_(groups) {}

  unsigned range_w() const { return w_; }
  unsigned groups() const { return unsigned(e_.size()); }
  const Entry& at(unsigned i) const { return e_[i]; }
  uint32_t vmask() const { return uint32_t(low_mask(w_)); }
  /// The top 2*pdepth bits (all RangeW bits for an illegal pdepth > RangeW/2).
  uint32_t mask(unsigned pdepth) const {
    const unsigned n = std::min(2 * pdepth, w_);
    return n == 0 ? 0u : uint32_t((low_mask(n) << (w_ - n)) & vmask());
  }
  bool match(unsigned i, uint32_t key) const {
    return e_[i].valid && (key & mask(e_[i].pdepth)) == e_[i].prefix;
  }
  /// One edge: set (entry := {1, pdepth, prefix}) wins over inv of the same
  /// entry; clear invalidates every entry and wins over both (an entry set at
  /// a clear's edge is invalid and its contents are not relied on).
  void edge(bool clear, bool set, unsigned set_idx, unsigned set_pdepth, uint32_t set_prefix, bool inv,
            unsigned inv_idx) {
    if (clear) {
      for (auto& e : e_) e.valid = false;
      if (set) e_[set_idx].known = false;
      return;
    }
    if (inv) e_[inv_idx].valid = false;
    if (set) e_[set_idx] = Entry{true, true, set_pdepth, set_prefix & mask(set_pdepth)};
  }
  void reset() {
    for (auto& e : e_) e = Entry{};
  }

 private:
  unsigned w_;
  std::vector<Entry> e_;
};

struct TcamIn {
  bool clear = false, set = false, inv = false;
  unsigned set_idx = 0, set_pdepth = 0, inv_idx = 0, rd_idx = 0, sel_pdepth = 0;
  uint32_t set_prefix = 0;
  uint32_t key = 0;  ///< key_i (FF) or key_next_i (RAM)
  std::string str() const {
    std::ostringstream s;
    s << "clear=" << clear << " set=" << set << " idx=" << set_idx << " pd=" << set_pdepth << " pfx=0x" << std::hex
      << set_prefix << std::dec << " inv=" << inv << " idx=" << inv_idx << " key=0x" << std::hex << key << std::dec
      << " rd=" << rd_idx << " sel=" << sel_pdepth;
    return s.str();
  }
};
struct TcamOut {
  uint64_t match = 0, match_care = 0, valid = 0, sel = 0;
  std::vector<int> pdepth;  ///< -1: not compared (invalid entry)
  /// RTL only: pdepth_hot_o per entry (H bits), compared with the one-hot of
  /// the model's pdepth wherever that is compared.
  std::vector<uint64_t> pdepth_hot;
  unsigned h = 0;  ///< H = RangeW / 2 (RTL side)
  bool rd_care = false;     ///< rd_valid defined
  bool rd_valid = false;
  bool rd_data_care = false;  ///< the entry read is known (FF TCAM: rd_pdepth / rd_prefix defined)
  bool rd_prefix_care = false;  ///< rd_pdepth / rd_prefix defined (see TcamRamModel)
  unsigned rd_pdepth = 0;
  uint32_t rd_prefix = 0;
  bool busy = false, last = false;
};

/// Outputs that depend only on the table: valid, sel, pdepth.
void tcam_common_out(const TcamTable& t, const TcamIn& in, TcamOut& o) {
  o.pdepth.assign(t.groups(), -1);
  for (unsigned e = 0; e < t.groups(); ++e) {
    const auto& x = t.at(e);
    if (!x.valid) continue;
    o.valid |= uint64_t{1} << e;
    if (x.pdepth == in.sel_pdepth) o.sel |= uint64_t{1} << e;
    o.pdepth[e] = int(x.pdepth);
  }
}

/// Read port: the entry at rd_idx as before the edge, shown after it.
struct TcamReadReg {
  bool defined = false, valid = false, known = false;
  bool prefix_undef = false;  ///< RAM variant: the read met a set of its entry
  unsigned pdepth = 0;
  uint32_t prefix = 0;
  void out(TcamOut& o) const {
    o.rd_care = defined;
    o.rd_valid = valid;
    o.rd_data_care = defined && known;
    o.rd_prefix_care = o.rd_data_care && !prefix_undef;
    o.rd_pdepth = pdepth;
    o.rd_prefix = prefix;
  }
  void load(const TcamTable& t, unsigned idx) {
    const auto& x = t.at(idx);
    defined = true;
    prefix_undef = false;
    valid = x.valid;
    known = x.known;
    pdepth = x.pdepth;
    prefix = x.prefix;
  }
};

/// Cycle wrapper for rap_tcam (flip-flop): search combinational on key_i.
class TcamFfModel {
 public:
  TcamFfModel(unsigned range_w, unsigned groups) : t_(range_w, groups) {}
  static constexpr bool kRam = false;
  void reset() {
    t_.reset();
    rd_ = TcamReadReg{};
  }
  TcamOut step(const TcamIn& in) {
    TcamOut o;
    tcam_common_out(t_, in, o);
    o.match_care = low_mask(t_.groups());
    for (unsigned e = 0; e < t_.groups(); ++e)
      if (t_.match(e, in.key)) o.match |= uint64_t{1} << e;
    rd_.out(o);
    rd_.load(t_, in.rd_idx);
    t_.edge(in.clear, in.set, in.set_idx, in.set_pdepth, in.set_prefix, in.inv, in.inv_idx);
    return o;
  }
  const TcamTable& table() const { return t_; }
  bool busy() const { return false; }
  unsigned slice_w() const { return 0; }

 private:
  TcamTable t_;
  TcamReadReg rd_;
};

/// Cycle wrapper for rap_tcam_ram: key one cycle ahead, busy window after set.
class TcamRamModel {
 public:
  TcamRamModel(unsigned range_w, unsigned groups, unsigned slice_w) : t_(range_w, groups), s_(slice_w) {}
  static constexpr bool kRam = true;
  void reset() {
    t_.reset();
    rd_ = TcamReadReg{};
    left_ = 0;
    key_q_ = 0;
  }
  TcamOut step(const TcamIn& in) {
    TcamOut o;
    tcam_common_out(t_, in, o);
    o.busy = left_ > 0;
    o.last = left_ == 1;
    o.match_care = low_mask(t_.groups());
    if (o.busy) o.match_care = 0;  // the read ports serve the rewrite: undefined
    for (unsigned e = 0; e < t_.groups(); ++e)
      if (t_.match(e, key_q_)) o.match |= uint64_t{1} << e;
    rd_.out(o);
    rd_.load(t_, in.rd_idx);
    // The prefixes sit in an hwprof_ram_2p whose read of the address written at
    // the same edge is undefined, so rd_prefix_o is not compared when
    // rd_idx_i == set_idx_i at a set's edge (the module header says so: the
    // engine reads only while dumping).
    if (in.set && in.rd_idx == in.set_idx) rd_.prefix_undef = true;
    // The write window: 2^SliceW RAM writes and one refresh cycle.
    if (in.clear) {
      left_ = 0;  // abandoned
    } else if (in.set) {
      left_ = (1u << s_) + 1;
    } else if (left_ > 0) {
      --left_;
    }
    key_q_ = in.key;
    t_.edge(in.clear, in.set, in.set_idx, in.set_pdepth, in.set_prefix, in.inv, in.inv_idx);
    return o;
  }
  const TcamTable& table() const { return t_; }
  bool busy() const { return left_ > 0; }
  unsigned slice_w() const { return s_; }

 private:
  TcamTable t_;
  unsigned s_;
  TcamReadReg rd_;
  unsigned left_ = 0;
  uint32_t key_q_ = 0;
};

template <typename Top>
void tcam_idle(Top& t) {
  t.clear_i = 0;
  t.set_i = 0;
  t.set_idx_i = 0;
  t.set_pdepth_i = 0;
  t.set_prefix_i = 0;
  t.inv_i = 0;
  t.inv_idx_i = 0;
  t.rd_idx_i = 0;
  t.sel_pdepth_i = 0;
  if constexpr (kHasKeyNext<Top>) {
    t.key_next_i = 0;
  } else {
    t.key_i = 0;
  }
}

/// Drives one cycle's inputs (clock low) and reads the outputs.
template <typename Top>
TcamOut tcam_drive(Harness<Top>& h, const TcamIn& in, unsigned range_w, unsigned groups) {
  auto& t = h.top();
  t.clear_i = in.clear;
  t.set_i = in.set;
  t.set_idx_i = in.set_idx;
  t.set_pdepth_i = in.set_pdepth;
  t.set_prefix_i = in.set_prefix;
  t.inv_i = in.inv;
  t.inv_idx_i = in.inv_idx;
  t.rd_idx_i = in.rd_idx;
  t.sel_pdepth_i = in.sel_pdepth;
  if constexpr (kHasKeyNext<Top>) {
    t.key_next_i = in.key;
  } else {
    t.key_i = in.key;
  }
  h.eval();
  TcamOut o;
  const unsigned dw = depth_w(range_w);
  o.match = get_bits(t.match_o, 0, groups);
  o.valid = get_bits(t.valid_o, 0, groups);
  o.sel = get_bits(t.sel_o, 0, groups);
  o.pdepth.resize(groups);
  for (unsigned e = 0; e < groups; ++e) o.pdepth[e] = int(get_bits(t.pdepth_o, e * dw, dw));
  o.h = range_w / 2;
  o.pdepth_hot.resize(groups);
  for (unsigned e = 0; e < groups; ++e) o.pdepth_hot[e] = get_bits(t.pdepth_hot_o, e * o.h, o.h);
  o.rd_valid = t.rd_valid_o;
  o.rd_pdepth = unsigned(t.rd_pdepth_o);
  o.rd_prefix = uint32_t(t.rd_prefix_o);
  if constexpr (kHasKeyNext<Top>) {  // the RAM variant
    o.busy = t.busy_o;
    o.last = t.last_o;
  }
  return o;
}

/// The one-hot copy hwprof_rap_tcam_flags keeps of a pdepth (none for a
/// pdepth >= H, which only the illegal-input tests write).
uint64_t pdepth_hot_of(int pdepth, unsigned h) { return unsigned(pdepth) < h ? uint64_t(1) << pdepth : 0; }

/// Compares every output the model defines; returns "" when equal.
std::string tcam_compare(const TcamOut& got, const TcamOut& exp, bool ram) {
  std::ostringstream s;
  auto hex = [](uint64_t v) {
    std::ostringstream x;
    x << "0x" << std::hex << v;
    return x.str();
  };
  if ((got.match & exp.match_care) != (exp.match & exp.match_care))
    s << " match rtl " << hex(got.match) << " model " << hex(exp.match) << " (care " << hex(exp.match_care) << ")";
  if (got.valid != exp.valid) s << " valid rtl " << hex(got.valid) << " model " << hex(exp.valid);
  if (got.sel != exp.sel) s << " sel rtl " << hex(got.sel) << " model " << hex(exp.sel);
  for (size_t e = 0; e < exp.pdepth.size(); ++e)
    if (exp.pdepth[e] >= 0 && got.pdepth[e] != exp.pdepth[e])
      s << " pdepth[" << e << "] rtl " << got.pdepth[e] << " model " << exp.pdepth[e];
  for (size_t e = 0; e < got.pdepth_hot.size(); ++e)
    if (exp.pdepth[e] >= 0 && got.pdepth_hot[e] != pdepth_hot_of(exp.pdepth[e], got.h))
      s << " pdepth_hot[" << e << "] rtl " << hex(got.pdepth_hot[e]) << " model "
        << hex(pdepth_hot_of(exp.pdepth[e], got.h));
  if (exp.rd_care && got.rd_valid != exp.rd_valid) s << " rd_valid rtl " << got.rd_valid << " model " << exp.rd_valid;
  if (exp.rd_prefix_care && got.rd_pdepth != exp.rd_pdepth)
    s << " rd_pdepth rtl " << got.rd_pdepth << " model " << exp.rd_pdepth;
  if (exp.rd_prefix_care && got.rd_prefix != exp.rd_prefix)
    s << " rd_prefix rtl " << hex(got.rd_prefix) << " model " << hex(exp.rd_prefix);
  if (ram && (got.busy != exp.busy || got.last != exp.last))
    s << " busy/last rtl " << got.busy << "/" << got.last << " model " << exp.busy << "/" << exp.last;
  return s.str();
}

/// The scoreboard's fields of one TCAM cycle (the same compares as
/// tcam_compare). `match` is one field: its bits the model leaves undefined
/// (the RAM variant's entry being written) show the RTL's value in
/// model.match too, so only the defined bits can differ.
struct TcamFieldNames {
  hwprof::tb::FieldNames pdepth, pdepth_hot;
  explicit TcamFieldNames(unsigned groups) : pdepth("pdepth", groups), pdepth_hot("pdepth_hot", groups) {}
};
std::vector<hwprof::tb::Field> tcam_fields(const TcamOut& got, const TcamOut& exp, bool ram,
                                           const TcamFieldNames& n) {
  std::vector<hwprof::tb::Field> f;
  f.reserve(8 + 2 * exp.pdepth.size());
  f.push_back({"match", (exp.match & exp.match_care) | (got.match & ~exp.match_care), got.match});
  f.push_back({"valid", exp.valid, got.valid});
  f.push_back({"sel", exp.sel, got.sel});
  f.push_back({"rd_valid", exp.rd_valid, got.rd_valid, exp.rd_care});
  f.push_back({"rd_pdepth", exp.rd_pdepth, got.rd_pdepth, exp.rd_prefix_care});
  f.push_back({"rd_prefix", exp.rd_prefix, got.rd_prefix, exp.rd_prefix_care});
  if (ram) {
    f.push_back({"busy", exp.busy, got.busy});
    f.push_back({"last", exp.last, got.last});
  }
  for (size_t e = 0; e < exp.pdepth.size(); ++e)
    f.push_back({n.pdepth[unsigned(e)], uint64_t(exp.pdepth[e] < 0 ? 0 : exp.pdepth[e]), uint64_t(got.pdepth[e]),
                 exp.pdepth[e] >= 0});
  for (size_t e = 0; e < got.pdepth_hot.size(); ++e)
    f.push_back({n.pdepth_hot[unsigned(e)], exp.pdepth[e] < 0 ? 0 : pdepth_hot_of(exp.pdepth[e], got.h),
                 got.pdepth_hot[e], exp.pdepth[e] >= 0});
  return f;
}

/// Coverage of a random TCAM run.
struct TcamCov {
  uint64_t cycles = 0, sets = 0, set_inv_same = 0, clears = 0, clears_busy = 0, resets = 0, illegal_pd = 0,
           hits = 0, multi_hits = 0, near_miss = 0, busy_cycles = 0, rd_collide = 0, sel_hits = 0;
};

template <typename Top, typename Model>
void tcam_lockstep(Model proto, unsigned cycles_per_seed, unsigned default_seeds) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : default_seeds;
  const unsigned range_w = proto.table().range_w(), groups = proto.table().groups();
  const unsigned h_max = range_w / 2, dw = depth_w(range_w);
  TcamCov cov;
  for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
    SCOPED_TRACE("SEED=" + std::to_string(s));
    std::mt19937_64 rng(s);
    Harness<Top> h(env, hwprof::tb::current_test_name(), s);
    const TcamFieldNames names(groups);
    hwprof::tb::CycleCheck chk(Model::kRam ? "rap_tcam_ram" : "rap_tcam", s);  // after h: binds to it
    tcam_idle(h.top());
    h.reset();
    Model m = proto;
    m.reset();
    // Per-seed rates: sparse or dense control, so both quiet searching and
    // heavy churn are covered.
    // Clears, resets and invalidations rarer when a write takes long
    // (SliceW 8: 257 cycles), so the table still fills between them.
    const unsigned slow = std::max(1u, (1u << proto.slice_w()) / 16);
    const unsigned set_pct = (s % 3 == 0) ? 5 : 30, inv_pm = ((s % 2 == 0) ? 50 : 200) / slow;
    for (unsigned c = 0; c < cycles_per_seed; ++c) {
      if (rng() % (3000 * slow) == 0) {  // asynchronous reset mid-stream
        h.reset(1 + unsigned(rng() % 3));
        m.reset();
        ++cov.resets;
      }
      const TcamTable& tab = m.table();
      TcamIn in;
      in.clear = rng() % (250 * slow) == 0;
      if (!m.busy() && unsigned(rng() % 100) < set_pct) {  // no set while busy (RAM)
        in.set = true;
        in.set_idx = unsigned(rng() % groups);
        if (rng() % 25 == 0) {
          in.set_pdepth = h_max + 1 + unsigned(rng() % ((1u << dw) - h_max));  // illegal: > RangeW/2
          in.set_pdepth = std::min(in.set_pdepth, (1u << dw) - 1);
          if (in.set_pdepth > h_max) ++cov.illegal_pd;
        } else {
          in.set_pdepth = unsigned(rng() % (h_max + 1));
        }
        in.set_prefix = uint32_t(rng()) & tab.vmask();
        ++cov.sets;
      }
      if (unsigned(rng() % 1000) < inv_pm) {
        in.inv = true;
        in.inv_idx = (in.set && rng() % 3 == 0) ? in.set_idx : unsigned(rng() % groups);
        if (in.set && in.inv_idx == in.set_idx) ++cov.set_inv_same;
      }
      if (in.clear) {
        ++cov.clears;
        if (m.busy()) ++cov.clears_busy;
      }
      // Search key: aimed at a valid entry (inside its range, or one bit off
      // inside the compared bits), or random.
      std::vector<unsigned> live;
      for (unsigned e = 0; e < groups; ++e)
        if (tab.at(e).valid) live.push_back(e);
      const unsigned r = unsigned(rng() % 10);
      in.key = uint32_t(rng()) & tab.vmask();
      if (!live.empty() && r < 8) {
        const auto& x = tab.at(live[rng() % live.size()]);
        const uint32_t mk = tab.mask(x.pdepth);
        in.key = x.prefix | (in.key & ~mk);
        if (r >= 6 && mk != 0) {  // near miss: flip one compared bit
          unsigned b;
          do b = unsigned(rng() % range_w);
          while (!((mk >> b) & 1u));
          in.key ^= 1u << b;
          ++cov.near_miss;
        }
      }
      in.rd_idx = unsigned(rng() % groups);
      in.sel_pdepth = unsigned(rng() % (1u << dw));
      const bool collide = in.set && in.rd_idx == in.set_idx;
      const TcamOut got = tcam_drive(h, in, range_w, groups);
      const TcamOut exp = m.step(in);
      ASSERT_TRUE(chk(h.cycle(), in.str(), tcam_fields(got, exp, Model::kRam, names)))
          << "model's view:" << tcam_compare(got, exp, Model::kRam);
      if (collide) ++cov.rd_collide;
      const uint64_t hits = exp.match & exp.match_care;
      if (hits) ++cov.hits;
      if (hits & (hits - 1)) ++cov.multi_hits;
      if (exp.sel) ++cov.sel_hits;
      if (exp.busy) ++cov.busy_cycles;
      ++cov.cycles;
      h.tick();
    }
  }
  std::printf(
      "[tcam RangeW=%u Groups=%u SliceW=%u] cycles %llu sets %llu set+inv same %llu clears %llu (busy %llu) "
      "resets %llu illegal pdepth %llu hit cycles %llu multi-hit %llu near-miss keys %llu sel %llu busy %llu "
      "rd/set collisions %llu\n",
      range_w, groups, proto.slice_w(), (unsigned long long)cov.cycles, (unsigned long long)cov.sets,
      (unsigned long long)cov.set_inv_same, (unsigned long long)cov.clears, (unsigned long long)cov.clears_busy,
      (unsigned long long)cov.resets, (unsigned long long)cov.illegal_pd, (unsigned long long)cov.hits,
      (unsigned long long)cov.multi_hits, (unsigned long long)cov.near_miss, (unsigned long long)cov.sel_hits,
      (unsigned long long)cov.busy_cycles, (unsigned long long)cov.rd_collide);
  if (!env.seeds || env.seeds >= default_seeds) {  // coverage of the default sweep
    EXPECT_GT(cov.sets, 100u);
    EXPECT_GT(cov.set_inv_same, 5u);
    EXPECT_GT(cov.clears, 5u);
    EXPECT_GT(cov.resets, 0u);
    EXPECT_GT(cov.illegal_pd, 0u);
    EXPECT_GT(cov.hits, (cov.cycles - cov.busy_cycles) / 4);  // match is compared outside the write window
    EXPECT_GT(cov.multi_hits, 10u);
    EXPECT_GT(cov.near_miss, 100u);
    EXPECT_GT(cov.rd_collide, 5u);
    if (Model::kRam) {
      EXPECT_GT(cov.busy_cycles, cov.cycles / 10);
      EXPECT_GT(cov.clears_busy, 0u);
    }
  }
}

// ------------------------------------------------------------ TCAM directed helpers

/// A directed TCAM bench: drives the DUT and the model together and checks
/// every cycle's outputs against the model, plus the caller's hand checks.
template <typename Top, typename Model>
class TcamBench {
 public:
  explicit TcamBench(Model m)
      : env_(SimEnv::from_env()),
        h_(env_, hwprof::tb::current_test_name(), env_.seed),
        names_(m.table().groups()),
        chk_(Model::kRam ? "rap_tcam_ram" : "rap_tcam", env_.seed),  // after h_: binds to it
        m_(std::move(m)) {
    tcam_idle(h_.top());
    h_.reset();
    m_.reset();
  }
  /// One cycle: returns the RTL outputs (after checking them against the model).
  TcamOut cycle(const TcamIn& in) {
    const TcamOut got = tcam_drive(h_, in, m_.table().range_w(), m_.table().groups());
    const TcamOut exp = m_.step(in);
    EXPECT_TRUE(chk_(h_.cycle(), in.str(), tcam_fields(got, exp, Model::kRam, names_)));
    h_.tick();
    return got;
  }
  /// Sets an entry and (RAM) waits for the write to finish.
  void set(unsigned idx, unsigned pdepth, uint32_t prefix) {
    TcamIn in;
    in.set = true;
    in.set_idx = idx;
    in.set_pdepth = pdepth;
    in.set_prefix = prefix;
    cycle(in);
    while (m_.busy()) cycle(TcamIn{});
  }
  /// The match vector for key (RAM: the key is given a cycle ahead).
  uint64_t search(uint32_t key) {
    TcamIn in;
    in.key = key;
    if (Model::kRam) cycle(in);
    return cycle(in).match;
  }
  Harness<Top>& h() { return h_; }

 private:
  SimEnv env_;
  Harness<Top> h_;
  TcamFieldNames names_;
  hwprof::tb::CycleCheck chk_;
  Model m_;
};

// Directed, by hand (RangeW 8: H = 4).
template <typename Top, typename Model>
void tcam_directed_depths(Model m) {
  TcamBench<Top, Model> b(std::move(m));
  // Entry 3: pdepth 0, prefix 0xA5 (stored as 0): the root group, matches every key.
  b.set(3, 0, 0xA5);
  for (uint32_t k : {0x00u, 0x5Au, 0xA5u, 0xFFu}) EXPECT_EQ(b.search(k), 1u << 3) << "key " << k;
  // Entry 1: pdepth 4 (= H), prefix 0x6C: matches 0x6C only (plus entry 3).
  b.set(1, 4, 0x6C);
  EXPECT_EQ(b.search(0x6C), (1u << 3) | (1u << 1));
  for (uint32_t k : {0x6Du, 0x6Eu, 0x64u, 0xECu, 0x2Cu}) EXPECT_EQ(b.search(k), 1u << 3) << "key " << k;
  // Entry 2: pdepth 2, prefix 0xB7 -> range 0xB0..0xBF.
  b.set(2, 2, 0xB7);
  for (uint32_t k : {0xB0u, 0xB7u, 0xBFu}) EXPECT_EQ(b.search(k), (1u << 3) | (1u << 2)) << "key " << k;
  for (uint32_t k : {0xAFu, 0xC0u, 0x30u}) EXPECT_EQ(b.search(k), 1u << 3) << "key " << k;
  // Entry 0: pdepth 1, prefix 0x80 -> 0x80..0xBF: the key 0xB4 hits three depths.
  b.set(0, 1, 0x80);
  EXPECT_EQ(b.search(0xB4), (1u << 3) | (1u << 2) | (1u << 0));
  // Read port: entry 2 shows {1, 2, 0xB0} (bits below 2*pdepth zeroed).
  TcamIn in;
  in.rd_idx = 2;
  b.cycle(in);
  const TcamOut o = b.cycle(TcamIn{});
  EXPECT_TRUE(o.rd_valid);
  EXPECT_EQ(o.rd_pdepth, 2u);
  EXPECT_EQ(o.rd_prefix, 0xB0u);
  // sel / valid / pdepth vectors.
  in = TcamIn{};
  in.sel_pdepth = 2;
  const TcamOut v = b.cycle(in);
  EXPECT_EQ(v.valid, 0x0Fu);
  EXPECT_EQ(v.sel, 1u << 2);
  EXPECT_EQ(v.pdepth[1], 4);
  EXPECT_EQ(v.pdepth[3], 0);
}

// Set and inv of the same entry at one edge: set wins; inv of another entry
// at the same edge takes effect; clear wins over both.
template <typename Top, typename Model>
void tcam_directed_set_inv(Model m) {
  TcamBench<Top, Model> b(std::move(m));
  b.set(0, 1, 0x40);
  b.set(1, 1, 0x80);
  EXPECT_EQ(b.search(0x45), 1u << 0);
  TcamIn in;
  in.set = true;
  in.set_idx = 0;
  in.set_pdepth = 2;
  in.set_prefix = 0x50;
  in.inv = true;
  in.inv_idx = 0;
  b.cycle(in);
  while (b.cycle(TcamIn{}).busy) {
  }
  EXPECT_EQ(b.search(0x55), 1u << 0) << "set must win over inv of the same entry";
  EXPECT_EQ(b.search(0x45), 0u) << "the old prefix must be gone";
  // Set entry 2 and invalidate entry 1 at one edge: both happen.
  in = TcamIn{};
  in.set = true;
  in.set_idx = 2;
  in.set_pdepth = 1;
  in.set_prefix = 0xC0;
  in.inv = true;
  in.inv_idx = 1;
  TcamOut o = b.cycle(in);
  o = b.cycle(TcamIn{});
  EXPECT_EQ(o.valid, 0b101u);
  while (b.cycle(TcamIn{}).busy) {
  }
  EXPECT_EQ(b.search(0xC3), 1u << 2);
  EXPECT_EQ(b.search(0x83), 0u);
  // Clear: everything invalid at the edge.
  in = TcamIn{};
  in.clear = true;
  b.cycle(in);
  o = b.cycle(TcamIn{});
  EXPECT_EQ(o.valid, 0u);
  EXPECT_EQ(b.search(0xC3), 0u);
  EXPECT_EQ(b.search(0x55), 0u);
}

// ------------------------------------------------------------ counter SRAM reference

struct CramIn {
  bool clear = false, zero = false, we = false;
  unsigned zero_row = 0, wrow = 0, wcol = 0, ra = 0, rb_row = 0, rb_col = 0;
  uint64_t wdata = 0;
  std::string str() const {
    std::ostringstream s;
    s << "clear=" << clear << " zero=" << zero << " row=" << zero_row << " we=" << we << " (" << wrow << "," << wcol
      << ")=0x" << std::hex << wdata << std::dec << " ra=" << ra << " rb=(" << rb_row << "," << rb_col << ")";
    return s.str();
  }
};
struct CramOut {
  bool defined = false;
  uint64_t rowa[4] = {0, 0, 0, 0};
  uint64_t cntb = 0;
  /// Port B read a counter written since its last zero and not written at
  /// the read's edge (else cntb is undefined: port B has neither the zero
  /// bits nor forwarding).
  bool cntb_defined = false;
};

/// The scoreboard's fields of one counter SRAM cycle (every row counter of
/// port A and port B's counter, once the registered reads are defined).
std::vector<hwprof::tb::Field> cram_fields(const CramOut& got, const CramOut& exp) {
  static const char* const kRowa[4] = {"rowa_0", "rowa_1", "rowa_2", "rowa_3"};
  std::vector<hwprof::tb::Field> f;
  f.reserve(5);
  for (unsigned k = 0; k < 4; ++k) f.push_back({kRowa[k], exp.rowa[k], got.rowa[k], exp.defined});
  f.push_back({"cntb", exp.cntb, got.cntb, exp.defined && exp.cntb_defined});
  return f;
}

/// Counter SRAM reference (rap_counter_ram header): 4 * Groups counters, zero
/// after reset; one edge applies clear (all zero; a write at the clear's edge
/// is dropped), else zero of a row, then the write (a write wins over a zero
/// of its row); both reads then see the counters as after the edge ("write
/// first"), registered. Port B is defined only for a counter written since
/// its last zero (reset, clear, its row's zero) and not written at the edge
/// that reads it.
class CramModel {
 public:
  CramModel(unsigned groups, unsigned cnt_w) : w_(cnt_w), c_(4 * groups, 0), written_(4 * groups, false) {}
  void reset() {
    std::fill(c_.begin(), c_.end(), 0);
    std::fill(written_.begin(), written_.end(), false);
    out_ = CramOut{};
  }
  CramOut step(const CramIn& in) {
    const CramOut o = out_;
    const bool b_collides = in.we && !in.clear && in.wrow == in.rb_row && in.wcol == in.rb_col;
    if (in.clear) {
      std::fill(c_.begin(), c_.end(), 0);
      std::fill(written_.begin(), written_.end(), false);
    } else {
      if (in.zero)
        for (unsigned k = 0; k < 4; ++k) {
          c_[4 * in.zero_row + k] = 0;
          written_[4 * in.zero_row + k] = false;
        }
      if (in.we) {
        c_[4 * in.wrow + in.wcol] = in.wdata & low_mask(w_);
        written_[4 * in.wrow + in.wcol] = true;
      }
    }
    out_.defined = true;
    for (unsigned k = 0; k < 4; ++k) out_.rowa[k] = c_[4 * in.ra + k];
    out_.cntb = c_[4 * in.rb_row + in.rb_col];
    out_.cntb_defined = written_[4 * in.rb_row + in.rb_col] && !b_collides;
    return o;
  }
  uint64_t at(unsigned row, unsigned col) const { return c_[4 * row + col]; }

 private:
  unsigned w_;
  std::vector<uint64_t> c_;
  std::vector<bool> written_;
  CramOut out_;
};

template <typename Top>
void cram_idle(Top& t) {
  t.clear_i = 0;
  t.zero_i = 0;
  t.zero_row_i = 0;
  t.we_i = 0;
  t.wrow_i = 0;
  t.wcol_i = 0;
  t.wdata_i = 0;
  t.ra_i = 0;
  t.rb_row_i = 0;
  t.rb_col_i = 0;
}

template <typename Top>
CramOut cram_drive(Harness<Top>& h, const CramIn& in, unsigned cnt_w) {
  auto& t = h.top();
  t.clear_i = in.clear;
  t.zero_i = in.zero;
  t.zero_row_i = in.zero_row;
  t.we_i = in.we;
  t.wrow_i = in.wrow;
  t.wcol_i = in.wcol;
  t.wdata_i = in.wdata;
  t.ra_i = in.ra;
  t.rb_row_i = in.rb_row;
  t.rb_col_i = in.rb_col;
  h.eval();
  CramOut o;
  o.defined = true;
  for (unsigned k = 0; k < 4; ++k) o.rowa[k] = get_bits(t.rowa_o, k * cnt_w, cnt_w);
  o.cntb = uint64_t(t.cntb_o);
  return o;
}

template <typename Top>
void cram_lockstep(unsigned groups, unsigned cnt_w, unsigned cycles_per_seed, unsigned default_seeds) {
  const SimEnv env = SimEnv::from_env();
  const unsigned seeds = env.seeds ? env.seeds : default_seeds;
  uint64_t cycles = 0, fwd_a = 0, b_collide = 0, zero_write_same = 0, clears = 0, resets = 0, nonzero_reads = 0,
           zero_read_same = 0, cntb_checked = 0;
  for (uint64_t s = env.seed; s < env.seed + seeds; ++s) {
    SCOPED_TRACE("SEED=" + std::to_string(s));
    std::mt19937_64 rng(s);
    Harness<Top> h(env, hwprof::tb::current_test_name(), s);
    hwprof::tb::CycleCheck chk("rap_counter_ram", s);  // after h: binds to it
    cram_idle(h.top());
    h.reset();
    CramModel m(groups, cnt_w);
    m.reset();
    // A few hot rows so reads, writes and zeroes meet often, also in big tables.
    std::vector<unsigned> hot(3);
    for (auto& x : hot) x = unsigned(rng() % groups);
    auto row = [&]() { return rng() % 2 ? hot[rng() % hot.size()] : unsigned(rng() % groups); };
    const unsigned we_pct = (s % 2) ? 80 : 40;
    for (unsigned c = 0; c < cycles_per_seed; ++c) {
      if (rng() % 3000 == 0) {
        h.reset(1 + unsigned(rng() % 3));
        m.reset();
        ++resets;
      }
      CramIn in;
      in.clear = rng() % 400 == 0;
      in.we = unsigned(rng() % 100) < we_pct;
      in.wrow = row();
      in.wcol = unsigned(rng() % 4);
      const unsigned r = unsigned(rng() % 8);
      in.wdata = (r == 0 ? low_mask(cnt_w) : r == 1 ? m.at(in.wrow, in.wcol) + 1 : rng()) & low_mask(cnt_w);
      in.zero = rng() % 12 == 0;
      in.zero_row = (in.we && rng() % 3 == 0) ? in.wrow : row();
      // Reads: the written row / counter at the same edge at a high rate.
      in.ra = rng() % 2 ? in.wrow : row();
      if (rng() % 2) {
        in.rb_row = in.wrow;
        in.rb_col = rng() % 4 ? in.wcol : unsigned(rng() % 4);
      } else {
        in.rb_row = row();
        in.rb_col = unsigned(rng() % 4);
      }
      const CramOut got = cram_drive(h, in, cnt_w);
      const CramOut exp = m.step(in);
      ASSERT_TRUE(chk(h.cycle(), in.str(), cram_fields(got, exp)));
      const bool wr = in.we && !in.clear;
      if (wr && in.ra == in.wrow) ++fwd_a;
      if (wr && in.rb_row == in.wrow && in.rb_col == in.wcol) ++b_collide;
      if (wr && in.zero && in.zero_row == in.wrow) ++zero_write_same;
      if (in.zero && !in.clear && (in.ra == in.zero_row || in.rb_row == in.zero_row)) ++zero_read_same;
      if (in.clear) ++clears;
      for (unsigned k = 0; k < 4; ++k)
        if (exp.defined && exp.rowa[k] != 0) ++nonzero_reads;
      if (exp.defined && exp.cntb_defined) ++cntb_checked;
      ++cycles;
      h.tick();
    }
  }
  std::printf(
      "[counter_ram Groups=%u CntW=%u] cycles %llu forwarded A %llu B read at its write %llu write+zero same row %llu zero+read same "
      "row %llu clears %llu resets %llu nonzero reads %llu port B compared %llu\n",
      groups, cnt_w, (unsigned long long)cycles, (unsigned long long)fwd_a, (unsigned long long)b_collide,
      (unsigned long long)zero_write_same, (unsigned long long)zero_read_same, (unsigned long long)clears,
      (unsigned long long)resets, (unsigned long long)nonzero_reads, (unsigned long long)cntb_checked);
  if (!env.seeds || env.seeds >= default_seeds) {
    EXPECT_GT(fwd_a, cycles / 10);
    EXPECT_GT(b_collide, cycles / 10);  // undefined there, not compared: the model must say so
    EXPECT_GT(zero_write_same, 50u);
    EXPECT_GT(zero_read_same, 50u);
    EXPECT_GT(clears, 10u);
    EXPECT_GT(resets, 0u);
    EXPECT_GT(nonzero_reads, cycles);
    EXPECT_GT(cntb_checked, cycles / 4);
  }
}

}  // namespace

// ------------------------------------------------------------ TCAM tests

TEST(RapStage, TcamFfDirectedDepths) { tcam_directed_depths<Vrap_tcam_w8_g8>(TcamFfModel(8, 8)); }
TEST(RapStage, TcamRamDirectedDepths) { tcam_directed_depths<Vrap_tcam_ram_w8_g8_s4>(TcamRamModel(8, 8, 4)); }
TEST(RapStage, TcamRamDirectedDepthsSlice2) { tcam_directed_depths<Vrap_tcam_ram_w8_g8_s2>(TcamRamModel(8, 8, 2)); }
TEST(RapStage, TcamRamDirectedDepthsSlice8) { tcam_directed_depths<Vrap_tcam_ram_w8_g4_s8>(TcamRamModel(8, 4, 8)); }
TEST(RapStage, TcamFfSetWinsOverInv) { tcam_directed_set_inv<Vrap_tcam_w8_g8>(TcamFfModel(8, 8)); }
TEST(RapStage, TcamRamSetWinsOverInv) { tcam_directed_set_inv<Vrap_tcam_ram_w8_g8_s4>(TcamRamModel(8, 8, 4)); }

// The busy window by hand (SliceW 4: 16 writes + 1 refresh = 17 busy cycles,
// last_o in the 17th); match_o is undefined while busy (the slice RAMs' read
// ports serve the read-modify-write); the new entry matches from the cycle
// after last_o, and the entries sharing its write granule (PackW 4: entries
// 0-3) are written back as they were.
TEST(RapStage, TcamRamBusyWindow) {
  TcamBench<Vrap_tcam_ram_w8_g8_s4, TcamRamModel> b(TcamRamModel(8, 8, 4));
  b.set(5, 1, 0x40);  // 0x40..0x7F
  b.set(1, 2, 0x50);  // 0x50..0x5F, the granule of entry 2
  b.set(3, 4, 0x6A);  // 0x6A only, the granule of entry 2
  TcamIn in;
  in.set = true;
  in.set_idx = 2;
  in.set_pdepth = 3;
  in.set_prefix = 0x68;  // 0x68..0x6B
  in.key = 0x69;
  TcamOut o = b.cycle(in);
  EXPECT_FALSE(o.busy);
  unsigned busy = 0, lasts = 0, last_at = 0;
  for (unsigned c = 1; c <= 20; ++c) {
    TcamIn q;
    q.key = 0x69;
    o = b.cycle(q);
    if (o.busy) ++busy;
    if (o.last) {
      ++lasts;
      last_at = c;
    }
    if (c >= 18) {
      EXPECT_EQ(o.match, (1u << 5) | (1u << 2)) << "cycle " << c;
    }
  }
  EXPECT_EQ(busy, 17u);
  EXPECT_EQ(lasts, 1u);
  EXPECT_EQ(last_at, 17u);
  EXPECT_EQ(b.search(0x55), (1u << 5) | (1u << 1));
  EXPECT_EQ(b.search(0x6A), (1u << 5) | (1u << 2) | (1u << 3));
  EXPECT_EQ(b.search(0x6C), 1u << 5);
  EXPECT_EQ(b.search(0x15), 0u);
}

// Clear in mid-write: busy drops at the clear's edge, every entry is invalid,
// and a new set afterwards takes the full window and matches correctly (the
// abandoned entry's half-written words do not leak into it).
TEST(RapStage, TcamRamClearMidWrite) {
  TcamBench<Vrap_tcam_ram_w8_g8_s4, TcamRamModel> b(TcamRamModel(8, 8, 4));
  b.set(0, 0, 0);
  TcamIn in;
  in.set = true;
  in.set_idx = 3;
  in.set_pdepth = 4;
  in.set_prefix = 0x3C;
  b.cycle(in);
  for (int c = 0; c < 6; ++c) EXPECT_TRUE(b.cycle(TcamIn{}).busy);
  in = TcamIn{};
  in.clear = true;
  EXPECT_TRUE(b.cycle(in).busy);
  TcamOut o = b.cycle(TcamIn{});
  EXPECT_FALSE(o.busy);
  EXPECT_EQ(o.valid, 0u);
  EXPECT_EQ(b.search(0x3C), 0u);
  // The same entry again, with another prefix, and a second entry.
  b.set(3, 4, 0xC3);
  b.set(4, 2, 0x30);
  EXPECT_EQ(b.search(0xC3), 1u << 3);
  EXPECT_EQ(b.search(0x3C), 1u << 4);
  EXPECT_EQ(b.search(0x3D), 1u << 4);
  // Clear at the edge of a set: clear wins (no write, entry invalid).
  in = TcamIn{};
  in.clear = true;
  in.set = true;
  in.set_idx = 1;
  in.set_pdepth = 0;
  b.cycle(in);
  o = b.cycle(TcamIn{});
  EXPECT_FALSE(o.busy);
  EXPECT_EQ(o.valid, 0u);
}

// Bad input: set_i while busy_o is illegal (module header); the RTL's
// no_set_while_busy assertion stops the simulation. A set at a clear's edge
// while busy is legal (the clear abandons the write; see ClearMidWrite).
using TcamRamBench8 = TcamBench<Vrap_tcam_ram_w8_g8_s4, TcamRamModel>;
void tcam_ram_set_while_busy() {
  dup2(STDERR_FILENO, STDOUT_FILENO);  // Verilator reports on stdout; the death test reads stderr
  TcamRamBench8 b(TcamRamModel(8, 8, 4));
  TcamIn in;
  in.set = true;
  in.set_idx = 1;
  b.cycle(in);  // starts the write: busy from the next cycle
  b.cycle(TcamIn{});
  in.set_idx = 2;
  b.cycle(in);  // illegal
  b.cycle(TcamIn{});
}
TEST(RapStage, TcamRamSetWhileBusyAsserts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tcam_ram_set_while_busy(), "no_set_while_busy");
}

// Read port (both variants): rd_idx_i at an edge shows the entry as before
// that edge in the next cycle (the RAM TCAM's prefix is undefined when the
// entry is set at the read's edge: its header says so, and that case is only
// checked on the flip-flop TCAM).
template <typename Top, typename Model>
void tcam_directed_read(Model m, bool check_read_during_set) {
  TcamBench<Top, Model> b(std::move(m));
  b.set(6, 3, 0x9F);  // stored 0x9C
  TcamIn in;
  in.rd_idx = 6;
  in.inv = true;
  in.inv_idx = 6;  // invalidated at the read's edge: the read shows it valid
  b.cycle(in);
  TcamOut o = b.cycle(TcamIn{});
  EXPECT_TRUE(o.rd_valid);
  EXPECT_EQ(o.rd_pdepth, 3u);
  EXPECT_EQ(o.rd_prefix, 0x9Cu);
  in = TcamIn{};
  in.rd_idx = 6;
  b.cycle(in);
  o = b.cycle(TcamIn{});
  EXPECT_FALSE(o.rd_valid);
  EXPECT_EQ(o.rd_pdepth, 3u);  // an invalid entry keeps its contents
  EXPECT_EQ(o.rd_prefix, 0x9Cu);
  if (!check_read_during_set) {
    b.set(6, 1, 0x7F);
  } else {
    // Set entry 6 anew while reading entry 6 at the same edge: the read shows
    // the old (invalid) entry.
    in = TcamIn{};
    in.rd_idx = 6;
    in.set = true;
    in.set_idx = 6;
    in.set_pdepth = 1;
    in.set_prefix = 0x7F;
    b.cycle(in);
    o = b.cycle(TcamIn{});
    EXPECT_FALSE(o.rd_valid);
    EXPECT_EQ(o.rd_pdepth, 3u);
    EXPECT_EQ(o.rd_prefix, 0x9Cu) << "the read must show the prefix as before the set's edge";
    while (b.cycle(TcamIn{}).busy) {
    }
  }
  in = TcamIn{};
  in.rd_idx = 6;
  b.cycle(in);
  o = b.cycle(TcamIn{});
  EXPECT_TRUE(o.rd_valid);
  EXPECT_EQ(o.rd_pdepth, 1u);
  EXPECT_EQ(o.rd_prefix, 0x40u);
}
TEST(RapStage, TcamFfReadPort) { tcam_directed_read<Vrap_tcam_w8_g8>(TcamFfModel(8, 8), true); }
TEST(RapStage, TcamRamReadPort) { tcam_directed_read<Vrap_tcam_ram_w8_g8_s4>(TcamRamModel(8, 8, 4), false); }

TEST(RapStage, TcamFfLockstepRange8Groups8) { tcam_lockstep<Vrap_tcam_w8_g8>(TcamFfModel(8, 8), 20000, 8); }
TEST(RapStage, TcamFfLockstepRange32Groups16) { tcam_lockstep<Vrap_tcam_w32_g16>(TcamFfModel(32, 16), 20000, 8); }
TEST(RapStage, TcamRamLockstepRange8Groups8Slice4) {
  tcam_lockstep<Vrap_tcam_ram_w8_g8_s4>(TcamRamModel(8, 8, 4), 20000, 8);
}
TEST(RapStage, TcamRamLockstepRange32Groups16Slice4) {
  tcam_lockstep<Vrap_tcam_ram_w32_g16_s4>(TcamRamModel(32, 16, 4), 20000, 8);
}
TEST(RapStage, TcamRamLockstepRange8Groups4Slice8) {
  tcam_lockstep<Vrap_tcam_ram_w8_g4_s8>(TcamRamModel(8, 4, 8), 40000, 8);
}
TEST(RapStage, TcamRamLockstepRange8Groups8Slice2) {
  tcam_lockstep<Vrap_tcam_ram_w8_g8_s2>(TcamRamModel(8, 8, 2), 20000, 8);
}

// ------------------------------------------------------------ counter SRAM tests

// Directed, by hand from the header (Groups 8, CntW 40).
TEST(RapStage, CounterRamDirected) {
  const SimEnv env = SimEnv::from_env();
  Harness<Vrap_counter_ram_g8_c40> h(env, hwprof::tb::current_test_name(), env.seed);
  hwprof::tb::CycleCheck chk("rap_counter_ram", env.seed);  // after h: binds to it
  cram_idle(h.top());
  h.reset();
  CramModel m(8, 40);
  m.reset();
  auto cyc = [&](const CramIn& in) {
    const CramOut got = cram_drive(h, in, 40);
    const CramOut exp = m.step(in);
    EXPECT_TRUE(chk(h.cycle(), in.str(), cram_fields(got, exp)));
    h.tick();
    return got;
  };
  auto rd = [&](unsigned ra, unsigned rb_row, unsigned rb_col) {
    CramIn in;
    in.ra = ra;
    in.rb_row = rb_row;
    in.rb_col = rb_col;
    cyc(in);
    return cyc(CramIn{});
  };
  // After reset every counter reads zero on port A (the RAM contents are
  // random); port B is undefined until a counter is written.
  for (unsigned r = 0; r < 8; ++r) {
    const CramOut o = rd(r, r, 3);
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(o.rowa[k], 0u) << "row " << r;
  }
  // Write first on port A: write (5, 2) := 1234 and read row 5 / counter
  // (5, 2) at the same edge (port B is undefined there: no forwarding).
  CramIn in;
  in.we = true;
  in.wrow = 5;
  in.wcol = 2;
  in.wdata = 1234;
  in.ra = 5;
  in.rb_row = 5;
  in.rb_col = 2;
  cyc(in);
  CramOut o = cyc(CramIn{});
  EXPECT_EQ(o.rowa[2], 1234u);
  EXPECT_EQ(o.rowa[0], 0u);
  EXPECT_EQ(rd(5, 5, 2).cntb, 1234u) << "port B one edge after the write";
  // Back-to-back read-modify-write of one counter (the engine's S1 / commit
  // pattern): cycle i writes (3, 1) := i and reads (3, 1) at the same edge, so
  // cycle i shows i - 1 (the write of the previous edge, forwarded on port
  // A; port B, reading the counter being written, is undefined).
  CramIn q;
  q.ra = 3;
  q.rb_row = 3;
  q.rb_col = 1;
  cyc(q);
  for (unsigned i = 1; i <= 50; ++i) {
    q.we = true;
    q.wrow = 3;
    q.wcol = 1;
    q.wdata = i;
    o = cyc(q);
    EXPECT_EQ(o.rowa[1], i - 1) << "step " << i;
    EXPECT_EQ(o.rowa[0] | o.rowa[2] | o.rowa[3], 0u);
  }
  o = cyc(CramIn{});
  EXPECT_EQ(o.rowa[1], 50u);
  EXPECT_EQ(rd(3, 3, 1).cntb, 50u);
  // Zero a row: row 3 and row 5 written; zero row 3 while writing (3, 0) := 7
  // at the same edge (the write wins for its counter) and reading row 3.
  in = CramIn{};
  in.zero = true;
  in.zero_row = 3;
  in.we = true;
  in.wrow = 3;
  in.wcol = 0;
  in.wdata = 7;
  in.ra = 3;
  in.rb_row = 3;
  in.rb_col = 0;
  cyc(in);
  o = cyc(CramIn{});
  EXPECT_EQ(o.rowa[0], 7u);
  EXPECT_EQ(o.rowa[1], 0u);
  o = rd(5, 5, 2);
  EXPECT_EQ(o.rowa[2], 1234u) << "a zero of row 3 must not touch row 5";
  EXPECT_EQ(o.cntb, 1234u) << "a zero of row 3 must not touch row 5";
  // A zeroed counter stays zero on port A until written (the RAM still
  // holds 50; port B is undefined there).
  o = rd(3, 3, 0);
  EXPECT_EQ(o.rowa[1], 0u);
  EXPECT_EQ(o.cntb, 7u);
  // Clear: every counter zero; a write at the clear's edge is dropped.
  in = CramIn{};
  in.clear = true;
  in.we = true;
  in.wrow = 6;
  in.wcol = 3;
  in.wdata = 99;
  in.ra = 6;
  in.rb_row = 5;
  in.rb_col = 2;
  cyc(in);
  o = cyc(CramIn{});
  EXPECT_EQ(o.rowa[3], 0u);
  for (unsigned r = 0; r < 8; ++r) {
    o = rd(r, r, r % 4);
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(o.rowa[k], 0u) << "row " << r;
  }
  // Widest value and a reset mid-stream: everything reads zero again.
  in = CramIn{};
  in.we = true;
  in.wrow = 7;
  in.wcol = 0;
  in.wdata = (uint64_t{1} << 40) - 1;
  cyc(in);
  o = rd(7, 7, 0);
  EXPECT_EQ(o.rowa[0], (uint64_t{1} << 40) - 1);
  EXPECT_EQ(o.cntb, (uint64_t{1} << 40) - 1);
  h.reset();
  m.reset();
  o = rd(7, 7, 0);
  EXPECT_EQ(o.rowa[0], 0u);
}

TEST(RapStage, CounterRamLockstepGroups8) { cram_lockstep<Vrap_counter_ram_g8_c40>(8, 40, 20000, 6); }
TEST(RapStage, CounterRamLockstepGroups1Cnt33) { cram_lockstep<Vrap_counter_ram_g1_c33>(1, 33, 20000, 6); }
TEST(RapStage, CounterRamLockstepGroups127) { cram_lockstep<Vrap_counter_ram_g127_c40>(127, 40, 20000, 6); }
