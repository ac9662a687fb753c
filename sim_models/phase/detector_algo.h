// The path-based phase detector of paper 000 section 6 and its BBV baseline
// (Sherwood et al.), as fixed by hwprof-spec.md section 3.3 and
// docs/phase_detector.md: the functional model, written once. The cycle
// model (phase_detector.h) commits every interval end through
// DetectorAlgo::end_interval, and run_detector() is the record-level
// reference the CLI and the tests use.
//
// The detector is source-agnostic: it is fed features {key, weight} and
// ticks {insns}. In one step a feature (optional) is accumulated before the
// tick; a tick that ends an interval (IntervalCounter, spec section 5)
// closes it: signature, table search, phase id, Markov prediction.
//   BBV mode:  per record, feature {pc, record.insns}, tick record.insns.
//   path mode: per record, the path stack's emission of that record (if any,
//              and not incomplete) as feature {path_key, path insns}, then
//              tick record.insns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "branch_record.h"
#include "interval.h"
#include "markov.h"
#include "path_stack_algo.h"

namespace hwprof::model {

enum class DetectorMode : uint8_t { Bbv = 0, Path = 1 };
/// "bbv" / "path"; throws std::invalid_argument otherwise.
DetectorMode detector_mode(const std::string& name);
const char* detector_mode_name(DetectorMode m);

/// Parameters (RTL parameters of phase_detector.sv) and the reset values of
/// the registers.
struct DetectorParams {
  DetectorMode mode = DetectorMode::Bbv;
  unsigned counters = 32;  ///< accumulators: a power of two, 2..128
  unsigned sig_w = 10;     ///< signature element width; scaled total 2^sig_w (4..16)
  unsigned entries = 32;   ///< signature table entries (1..64)
  unsigned markov_entries = MarkovAlgo::kDefaultEntries;
  uint32_t interval = IntervalCounter::kDefaultInterval;  ///< INTERVAL reset value (>= 1)
  uint32_t threshold = 128;                               ///< THRESHOLD reset value (legal range below)

  /// Throws std::invalid_argument naming the bad parameter.
  void validate() const;
  unsigned idx_w() const;  ///< log2(counters)
  /// Width of a distance: sig_w + 2 (a distance is at most 2^(sig_w+1)).
  unsigned dist_w() const { return sig_w + 2; }
  /// Distance reported when the table holds no valid entry: 2^dist_w - 1.
  uint32_t no_distance() const { return (1u << dist_w()) - 1; }
  /// THRESHOLD legal range: 1 .. 2^(sig_w+1).
  bool legal_threshold(uint32_t t) const { return t >= 1 && t <= (1u << (sig_w + 1)); }
  /// Cycles the RTL spends on an interval end before the result is offered
  /// (docs/phase_detector.md, "Cycle behaviour").
  uint64_t busy_cycles(bool allocated) const;
};

/// What one interval end yields.
struct DetectorResult {
  uint16_t phase = 0;      ///< phase id of the interval
  bool changed = false;    ///< phase differs from the previous interval's (true for the first)
  bool matched = false;    ///< a table entry was within the threshold
  uint32_t distance = 0;   ///< smallest distance to a valid entry; no_distance() when none
  uint16_t predicted = 0;  ///< Markov: predicted phase of the next interval
  bool scored = false;     ///< Markov: a prediction for this interval existed
  bool correct = false;    ///< ... and was right
  bool operator==(const DetectorResult& o) const {
    return phase == o.phase && changed == o.changed && matched == o.matched && distance == o.distance &&
           predicted == o.predicted && scored == o.scored && correct == o.correct;
  }
  bool operator!=(const DetectorResult& o) const { return !(*this == o); }
  std::string str() const;
};

/// One signature-table entry.
struct SigEntry {
  bool valid = false;
  uint16_t phase = 0;
  unsigned age = 0;  ///< 0 = most recently used; valid entries hold 0..valid-1
  std::vector<uint16_t> sig;
};

class DetectorAlgo {
 public:
  static constexpr uint32_t kAccMax = 0xffffffffu;  ///< accumulators saturate at 2^32-1

  explicit DetectorAlgo(const DetectorParams& p = {});
  const DetectorParams& params() const { return p_; }

  /// Restart (reset, CTRL.restart): accumulators, interval count, table,
  /// phase ids, previous phase and the Markov predictor are cleared.
  void restart();
  /// INTERVAL write (value >= 1; the caller rejects 0): restarts the count.
  void set_interval(uint32_t v);
  /// THRESHOLD write (a legal value; the caller rejects others).
  void set_threshold(uint32_t v) { threshold_ = v; }
  uint32_t interval() const { return interval_.interval(); }
  uint32_t threshold() const { return threshold_; }

  // ---- the pieces (also used by the tests) ----
  /// XOR-fold of the 32-bit key into idx_w bits (slices of idx_w bits from
  /// bit 0 up, the top slice zero-padded).
  static unsigned fold(uint32_t key, unsigned idx_w);
  /// Path key: start ^ rotl(dirs, 16) ^ (length << 26).
  static uint32_t path_key(const PathEntry& p);
  /// Scaled signature: T = sum(acc); T = 0 -> all zero; else element j =
  /// min(floor(acc[j] * 2^sig_w / T), 2^sig_w - 1).
  static std::vector<uint16_t> signature(const std::vector<uint32_t>& acc, unsigned sig_w);
  /// Manhattan distance.
  static uint32_t distance(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b);

  // ---- the stream ----
  /// acc[fold(key)] += weight (saturating).
  void feature(uint32_t key, uint32_t weight);
  /// Counts insns toward the interval; at a boundary closes the interval.
  std::optional<DetectorResult> tick(uint32_t insns);
  /// Closes the interval now (what tick does at a boundary).
  DetectorResult end_interval();
  /// Whether the last end_interval allocated a new entry.
  bool last_allocated() const { return last_alloc_; }

  const std::vector<uint32_t>& acc() const { return acc_; }
  const std::vector<SigEntry>& table() const { return table_; }
  uint16_t next_phase() const { return next_phase_; }
  uint64_t phases_allocated() const { return allocated_; }
  const IntervalCounter& interval_counter() const { return interval_; }

 private:
  void touch(unsigned m);

  DetectorParams p_;
  IntervalCounter interval_;
  uint32_t threshold_;
  std::vector<uint32_t> acc_;
  std::vector<SigEntry> table_;
  MarkovAlgo markov_;
  uint16_t next_phase_ = 0;
  uint64_t allocated_ = 0;
  bool have_prev_ = false;
  uint16_t prev_phase_ = 0;
  bool last_alloc_ = false;
};

/// Record-level functional reference: the whole detector of `p.mode` over a
/// record stream (path mode runs PathStackAlgo with `ppcr`, depth and
/// max_len). Returns every interval's result in order.
struct DetectorRunStats {
  uint64_t records = 0, features = 0, ignored = 0;
};
std::vector<DetectorResult> run_detector(const DetectorParams& p, const RecordSource& src, uint32_t ppcr = Ppcr::kBl,
                                         unsigned depth = 16, unsigned max_len = 32,
                                         DetectorRunStats* stats = nullptr);

}  // namespace hwprof::model
