// The Markov next-phase predictor shared by the DCR tracker and the phase
// detectors (hwprof-spec.md section 5; paper 003 section 4.3; docs/phase.md
// "Next-phase prediction"). RTL: rtl/phase/hwprof_markov_predictor.sv.
//
// MarkovAlgo is the algorithm, written once; MarkovPredictor is the cycle
// model of the RTL (one update per clock, result one clock later) and
// commits every update through MarkovAlgo.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace hwprof::model {

/// What one interval end yields.
struct MarkovResult {
  uint16_t predicted = 0;  ///< predicted phase id of the next interval
  bool scored = false;     ///< a prediction for this interval existed
  bool correct = false;    ///< ... and it equalled this interval's phase
  bool operator==(const MarkovResult& o) const {
    return predicted == o.predicted && scored == o.scored && correct == o.correct;
  }
};

/// A table of `entries` (a power of two) slots indexed by phase id modulo
/// entries, no tag and no history bits. Each slot, once trained, holds the
/// phase that followed the last interval whose phase mapped to it.
/// update(p), at the end of an interval whose phase is p:
///   1. score: scored = a prediction exists (any update since clear);
///      correct = scored and that prediction == p;
///   2. train: if a previous interval exists, slot[prev % entries] := p;
///   3. predict: slot[p % entries] if trained, else p (an untrained slot
///      predicts that the phase stays); this is the prediction scored at the
///      next update. Training comes first, so with prev % entries ==
///      p % entries the prediction is p.
class MarkovAlgo {
 public:
  static constexpr unsigned kDefaultEntries = 256;

  explicit MarkovAlgo(unsigned entries = kDefaultEntries) : slots_(entries), trained_(entries) {
    if (entries == 0 || (entries & (entries - 1)) != 0)
      throw std::invalid_argument("markov: entries must be a power of two >= 1");
  }
  unsigned entries() const { return static_cast<unsigned>(slots_.size()); }

  void clear() {
    std::fill(trained_.begin(), trained_.end(), false);
    have_prev_ = false;
    have_pred_ = false;
  }

  MarkovResult update(uint16_t phase) {
    MarkovResult r;
    r.scored = have_pred_;
    r.correct = have_pred_ && pred_ == phase;
    if (have_prev_) {
      slots_[index(prev_)] = phase;
      trained_[index(prev_)] = true;
    }
    const unsigned i = index(phase);
    r.predicted = trained_[i] ? slots_[i] : phase;
    prev_ = phase;
    have_prev_ = true;
    pred_ = r.predicted;
    have_pred_ = true;
    return r;
  }

  /// Slot contents, for tests: {trained, phase}.
  bool trained(unsigned slot) const { return trained_.at(slot); }
  uint16_t slot(unsigned s) const { return slots_.at(s); }

 private:
  unsigned index(uint16_t phase) const { return phase & (entries() - 1); }

  std::vector<uint16_t> slots_;
  std::vector<bool> trained_;
  uint16_t prev_ = 0, pred_ = 0;
  bool have_prev_ = false, have_pred_ = false;
};

/// Cycle model of markov_predictor.sv. In one cycle: clear_i forgets the
/// table and the history and discards an update offered in the same cycle;
/// otherwise an update with upd_valid is committed. The result of an update
/// appears on the outputs one cycle later (res_valid for one cycle). clear
/// does not cancel a result already computed (it appears as usual).
class MarkovPredictor {
 public:
  struct In {
    bool clear = false;
    bool upd_valid = false;
    uint16_t upd_phase = 0;
  };
  struct Out {
    bool res_valid = false;
    uint16_t res_pred = 0;  ///< meaningful with res_valid
    bool res_scored = false;
    bool res_correct = false;
  };

  explicit MarkovPredictor(unsigned entries = MarkovAlgo::kDefaultEntries) : algo_(entries) {}
  void reset() {
    algo_.clear();
    out_ = {};
  }
  Out step(const In& in) {
    const Out o = out_;
    out_ = {};
    if (in.clear) {
      algo_.clear();
    } else if (in.upd_valid) {
      const MarkovResult r = algo_.update(in.upd_phase);
      out_ = {true, r.predicted, r.scored, r.correct};
    }
    return o;
  }
  const MarkovAlgo& algo() const { return algo_; }

 private:
  MarkovAlgo algo_;
  Out out_;
};

}  // namespace hwprof::model
