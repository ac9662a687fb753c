// The Hot Path Table of paper 000 section 5 as fixed by hwprof-spec.md
// section 3.2 and docs/hpt.md: the control register, the index fold, the
// metrics, the replacement policies and HptAlgo, which inserts one
// descriptor at a time. Written once: the cycle model (hpt.h) commits
// through it, the CLI and the accuracy study run it directly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hpt_regs.h"
#include "path_profile.h"
#include "path_stack_algo.h"

namespace hwprof::model {

enum class HptIndex : unsigned { Plb = 0, Pb = 1 };
enum class HptMetric : unsigned { Freq = 0, Events = 1, Insns = 2 };
/// Replacement policies (docs/hpt.md, "Replacement").
enum class HptPolicy : unsigned {
  Lfu = 0,    ///< the paper: the new entry starts at its own metric
  Ss = 1,     ///< Space-Saving: the new entry inherits the victim's count
  Erode = 2,  ///< the victim loses the metric; the path enters when it is worn out
};
inline constexpr unsigned kHptPolicies = 3;
/// CTRL.policy code 3: `lfu+prob` (lfu with the probation area), legal only
/// in a build with a probation area (docs/hpt.md, "Policies in CTRL").
inline constexpr unsigned kHptPolicyLfuProb = 3;


/// Admission filters (docs/hpt.md, "Candidate policies"). Model-only so
/// far: not in the CTRL register (HptCtrl::pack ignores them).
enum class HptAdmit : unsigned {
  None = 0,
  /// TinyLFU: on a miss with a full set the newcomer enters only if its
  /// count-min estimate is above the victim's (needs HptSketch rows > 0).
  Sketch = 1,
  /// Probation area: on a miss with a full set the newcomer's count goes to
  /// a small table of {fingerprint, count} (Space-Saving inside it); it
  /// enters, starting at that count, once the count is above the victim's
  /// accumulator (needs HptProbation sets > 0).
  Probation = 2,
};

/// Geometry of the probation area: `sets` x `ways` entries of a
/// `fp_bits` fingerprint and a `count_bits` saturating count (count 0 =
/// empty). sets = 0: none.
struct HptProbation {
  unsigned sets = 0;         ///< power of two, 1..65536
  unsigned ways = 4;         ///< 1..64
  unsigned fp_bits = 12;     ///< 1..32
  unsigned count_bits = 16;  ///< 1..32
  uint64_t storage_bits() const { return uint64_t{sets} * ways * (fp_bits + count_bits); }
  /// The recommended geometry (docs/hpt.md): 128 x 4 x (12 + 14) bits.
  static constexpr HptProbation recommended() { return HptProbation{128, 4, 12, 14}; }
};

/// Geometry of the admission filter's count-min sketch: `rows` hash rows
/// of `cols` saturating counters of `bits` bits; every completed descriptor
/// increments its counters (conservative update: only those at the row
/// minimum), and after `period` increments every counter is halved. rows =
/// 0: no sketch.
struct HptSketch {
  unsigned rows = 0;
  unsigned cols = 0;     ///< power of two, 2..65536
  unsigned bits = 4;     ///< 1..16
  unsigned period = 0;   ///< increments between halvings; 0 = never halve
  /// Storage: the counters plus the period counter.
  uint64_t storage_bits() const;
};

/// The HPT control register HPT_CTRL (docs/hpt.md, "Registers"); fields and
/// reset value from hpt_regs.h (data/regs/hpt.json).
struct HptCtrl {
  static constexpr unsigned kMetricLsb = kHptCtrlMetricLsb;
  static constexpr unsigned kPolicyLsb = kHptCtrlPolicyLsb;
  static constexpr uint32_t kMetricMax = (1u << kHptCtrlMetricW) - 1;
  static constexpr uint32_t kPolicyMax = (1u << kHptCtrlPolicyW) - 1;
  /// Bits that hold state: every field up to policy, the highest.
  static constexpr uint32_t kMask = (1u << (kHptCtrlPolicyLsb + kHptCtrlPolicyW)) - 1;

  HptIndex index = HptIndex::Plb;
  bool skew = true;  ///< each way folds with its own rotations (docs/hpt.md, "Index")
  HptMetric metric = HptMetric::Freq;
  HptPolicy policy = HptPolicy::Erode;
  // Admission options (docs/hpt.md, "Candidate policies"). In the CTRL
  // register only as policy code 3 = lfu + Probation (no inherit); pack()
  // ignores every other combination and unpack() leaves them off.
  HptAdmit admit = HptAdmit::None;  ///< admission filter on a miss with a full set
  bool inherit = false;             ///< a replacing path starts at victim.acc + m (lfu + inherit = ss)

  /// True for lfu + the probation area, no inherit: CTRL.policy code 3.
  constexpr bool is_lfu_prob() const { return policy == HptPolicy::Lfu && admit == HptAdmit::Probation && !inherit; }
  constexpr uint32_t pack() const {
    return (index == HptIndex::Pb ? kHptCtrlIndex : 0u) | (skew ? kHptCtrlSkew : 0u) |
           unsigned(metric) << kMetricLsb |
           (is_lfu_prob() ? kHptPolicyLfuProb : unsigned(policy)) << kPolicyLsb;
  }
  /// False when the metric or the policy field holds an undefined code;
  /// policy code 3 (lfu+prob) is legal only with a probation area (`prob`).
  static bool legal(uint32_t v, bool prob = false);
  static HptCtrl unpack(uint32_t v);
  /// The reset value: plb, skewed, frequency, erode (what measures best).
  static uint32_t reset_value() { return HptCtrl{}.pack(); }

  static HptIndex parse_index(const std::string& s);
  static HptMetric parse_metric(const std::string& s);
  static HptPolicy parse_policy(const std::string& s);
  /// A policy name with its model-only options: "lfu", "ss", "erode", each
  /// optionally followed by "+inherit" and/or "+tlfu" (the sketch filter) or
  /// "+prob" (the probation area), e.g. "erode+tlfu", "lfu+prob". Sets
  /// policy, inherit and admit; throws std::invalid_argument on others.
  static void parse_policy_name(const std::string& s, HptCtrl& c);
  /// The name parse_policy_name() reads back.
  std::string policy_name() const;
};
static_assert(HptCtrl{}.pack() == kHptCtrlReset, "HptCtrl defaults must be the CTRL reset value");
const char* to_string(HptIndex i);
const char* to_string(HptMetric m);
const char* to_string(HptPolicy p);

struct HptEntry {
  bool valid = false;
  PathKey key;
  uint32_t acc = 0;
  bool operator==(const HptEntry& o) const { return valid == o.valid && (!valid || (key == o.key && acc == o.acc)); }
};

/// What one insert did.
enum class HptOutcome : unsigned {
  Ignored = 0,  ///< incomplete descriptor
  Hit = 1,
  Fill = 2,     ///< miss into the lowest invalid way
  Replace = 3,  ///< miss that evicted the victim
  Reject = 4,   ///< erode: miss that only wore the victim down; or refused by the admission filter
};

struct HptResult {
  HptOutcome outcome = HptOutcome::Ignored;
  unsigned set = 0;
  unsigned way = 0;
  bool saturated = false;  ///< the accumulator clipped at 2^32-1
};

/// Statistics (the RTL's 32-bit saturating counters show these saturated).
struct HptStats {
  uint64_t descs = 0;  ///< completed descriptors inserted
  uint64_t hits = 0;
  uint64_t fills = 0;  ///< misses that filled an invalid way
  uint64_t replacements = 0;
  uint64_t rejects = 0;  ///< erode: misses that did not enter
  uint64_t saturations = 0;
  uint64_t ignored = 0;  ///< incomplete descriptors
};

class HptAlgo {
 public:
  /// sets: a power of two in 1..65536; ways in 1..4096; sketch, prob: the
  /// admission filters' geometry (none by default: the options then act as
  /// the plain policy); throws std::invalid_argument.
  HptAlgo(unsigned sets = 128, unsigned ways = 4, const HptSketch& sketch = {}, const HptProbation& prob = {});

  /// Storage of a table in bits: Sets x Ways entries of valid (1) + key
  /// (70) + accumulator (32), plus the sketch's and the probation area's.
  static uint64_t storage_bits(unsigned sets, unsigned ways, const HptSketch& sketch = {},
                               const HptProbation& prob = {});
  static constexpr unsigned kEntryBits = 1 + 70 + 32;
  /// The column of `k` in sketch row `row` of a sketch with 2^col_bits
  /// columns: the index fold (docs/hpt.md, "Index", plb) with the skewed
  /// rotations of way row + 1, XOR a per-row constant.
  static unsigned sketch_col(const PathKey& k, unsigned col_bits, unsigned row);
  /// The sketch's estimate of `k` (the minimum over its rows); 0 without a sketch.
  unsigned estimate(const PathKey& k) const;
  const HptSketch& sketch() const { return sketch_; }
  /// Counter (row, col) of the sketch.
  unsigned sketch_counter(unsigned row, unsigned col) const { return cms_[size_t{row} * sketch_.cols + col]; }
  /// Increments since the last halving.
  unsigned sketch_increments() const { return cms_count_; }

  /// The probation set of `k` in a probation area of 2^set_bits sets: the
  /// index fold (plb) with the skewed rotations of way 5.
  static unsigned probation_set(const PathKey& k, unsigned set_bits);
  /// The fingerprint of `k` (fp_bits in 1..32): the index fold (plb) to
  /// fp_bits bits with the skewed rotations of way 3 (above 16 bits: the low
  /// 16 so, the rest a fold with way 7's rotations).
  static uint32_t fingerprint(const PathKey& k, unsigned fp_bits);
  const HptProbation& probation() const { return prob_; }
  /// Probation entry (set, way): its fingerprint and count (0 = empty).
  uint32_t probation_fp(unsigned set, unsigned way) const { return prob_fp_[size_t{set} * prob_.ways + way]; }
  uint32_t probation_count(unsigned set, unsigned way) const { return prob_count_[size_t{set} * prob_.ways + way]; }

  /// The set index of `k` in way `way` (docs/hpt.md, "Index").
  static unsigned index(const PathKey& k, HptIndex ix, bool skew, unsigned set_bits, unsigned way);
  /// The index in two steps, so that insert() folds a key once for all its
  /// ways: way w rotates chunk c by w*c mod b, which depends on c mod b
  /// only, and a rotation distributes over XOR; so the chunks are first
  /// XORed in b groups by c mod b (fold_groups), then each way rotates and
  /// XORs the b groups (index_of_groups). index() = the two in a row.
  struct Groups {
    uint32_t g[16] = {};
  };
  static Groups fold_groups(const PathKey& k, HptIndex ix, unsigned set_bits);
  static unsigned index_of_groups(const Groups& g, bool skew, unsigned set_bits, unsigned way);
  /// The metric of one descriptor.
  static uint32_t metric(const PathEntry& d, HptMetric m);

  /// Inserts one emitted descriptor under `ctrl`.
  HptResult insert(const Emission& e, const HptCtrl& ctrl);
  /// Invalidates every entry, zeroes the sketch and empties the probation
  /// area (statistics are kept).
  void clear();
  /// Zeroes the statistics.
  void clear_stats() { stats_ = HptStats{}; }
  /// Invalidates every entry and zeroes the statistics.
  void reset();

  unsigned sets() const { return sets_; }
  unsigned ways() const { return ways_; }
  unsigned set_bits() const { return set_bits_; }
  const HptEntry& entry(unsigned set, unsigned way) const { return table_[set * ways_ + way]; }
  const HptStats& stats() const { return stats_; }
  /// The valid entries in dump order (set-major, then way).
  std::vector<HptEntry> contents() const;

 private:
  unsigned sets_, ways_, set_bits_;
  std::vector<HptEntry> table_;
  std::vector<unsigned> sets_of_;  // scratch: each way's set of the current key
  HptStats stats_;
  HptSketch sketch_;
  unsigned col_bits_ = 0;
  std::vector<uint16_t> cms_;  // rows x cols counters
  unsigned cms_count_ = 0;    // increments since the last halving
  unsigned sketch_add(const PathKey& k);  // conservative increment; returns the new estimate
  HptProbation prob_;
  unsigned prob_set_bits_ = 0;
  std::vector<uint32_t> prob_fp_, prob_count_;  // sets x ways; count 0 = empty
  // Adds m to the key's probation entry (taking the minimum if it has
  // none); returns the entry's new count and its index in prob_count_.
  uint32_t probation_add(const PathKey& k, uint32_t m, size_t& at);
};

/// Overlap (spec section 8) between an exact weight list and a measured
/// one: sum over the exact paths of min(coverage in exact, coverage in
/// measured), in percent. Keys absent from `exact` contribute nothing.
struct WeightedPath {
  PathKey key;
  uint64_t weight = 0;
};
double path_overlap(const std::vector<WeightedPath>& exact, const std::vector<WeightedPath>& measured);
/// The oracle bound: the overlap of a table holding exactly the n heaviest
/// paths of `exact` with exact weights (= their share of the total).
double oracle_overlap(std::vector<WeightedPath> exact, size_t n);
/// The exact profile's weights under a metric.
std::vector<WeightedPath> exact_weights(const PathProfile& p, HptMetric m);
/// The HPT contents as weights.
std::vector<WeightedPath> hpt_weights(const HptAlgo& h);

}  // namespace hwprof::model
