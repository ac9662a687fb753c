#include "detector_algo.h"

#include <fmt/core.h>

#include <algorithm>
#include <stdexcept>

#include "prim.h"

namespace hwprof::model {

DetectorMode detector_mode(const std::string& name) {
  if (name == "bbv") return DetectorMode::Bbv;
  if (name == "path") return DetectorMode::Path;
  throw std::invalid_argument("detector mode must be bbv or path, not '" + name + "'");
}

const char* detector_mode_name(DetectorMode m) { return m == DetectorMode::Path ? "path" : "bbv"; }

void DetectorParams::validate() const {
  if (counters < 2 || counters > 128 || (counters & (counters - 1)) != 0)
    throw std::invalid_argument("detector: counters must be a power of two 2..128");
  if (sig_w < 4 || sig_w > 16) throw std::invalid_argument("detector: sig_w must be 4..16");
  if (entries < 1 || entries > 64) throw std::invalid_argument("detector: entries must be 1..64");
  if (interval < 1) throw std::invalid_argument("detector: interval must be >= 1");
  if (!legal_threshold(threshold)) throw std::invalid_argument("detector: threshold must be 1..2^(sig_w+1)");
}

unsigned DetectorParams::idx_w() const {
  unsigned w = 0;
  while ((1u << w) < counters) ++w;
  return w;
}

uint64_t DetectorParams::busy_cycles(bool allocated) const {
  // Wait 2, Sum N, Div N*(sig_w+1), Search E*N+3, Match 1, Touch 1,
  // Decide 1, Write N+1 (allocation only), Pred 1, Capt 1.
  const uint64_t n = counters, e = entries;
  return 2 + n + n * (sig_w + 1) + e * n + 3 + 1 + 1 + 1 + (allocated ? n + 1 : 0) + 1 + 1;
}

std::string DetectorResult::str() const {
  return fmt::format("phase={} changed={} matched={} distance={} predicted={} scored={} correct={}", phase,
                     int(changed), int(matched), distance, predicted, int(scored), int(correct));
}

DetectorAlgo::DetectorAlgo(const DetectorParams& p)
    : p_(p), interval_(p.interval), threshold_(p.threshold), markov_(p.markov_entries) {
  p_.validate();
  acc_.assign(p_.counters, 0);
  table_.assign(p_.entries, SigEntry{});
  restart();
}

void DetectorAlgo::restart() {
  interval_.restart();
  std::fill(acc_.begin(), acc_.end(), 0u);
  for (auto& e : table_) {
    e.valid = false;
    e.age = 0;
    e.phase = 0;
    e.sig.assign(p_.counters, 0);
  }
  markov_.clear();
  next_phase_ = 0;
  allocated_ = 0;
  have_prev_ = false;
  prev_phase_ = 0;
  last_alloc_ = false;
}

void DetectorAlgo::set_interval(uint32_t v) {
  interval_.set_interval(v);
  interval_.restart();
}

unsigned DetectorAlgo::fold(uint32_t key, unsigned idx_w) {
  unsigned h = 0;
  for (unsigned lsb = 0; lsb < 32; lsb += idx_w) h ^= (key >> lsb) & ((1u << idx_w) - 1);
  return h;
}

uint32_t DetectorAlgo::path_key(const PathEntry& p) {
  const uint32_t rot = (p.dirs << 16) | (p.dirs >> 16);
  return p.start ^ rot ^ (uint32_t(p.length) << 26);
}

std::vector<uint16_t> DetectorAlgo::signature(const std::vector<uint32_t>& acc, unsigned sig_w) {
  uint64_t total = 0;
  for (uint32_t a : acc) total += a;
  std::vector<uint16_t> s(acc.size(), 0);
  if (total == 0) return s;
  const uint64_t max = (uint64_t{1} << sig_w) - 1;
  for (size_t j = 0; j < acc.size(); ++j) {
    // acc[j] * 2^sig_w < 2^48: exact in 64 bits.
    const uint64_t q = (uint64_t{acc[j]} << sig_w) / total;
    s[j] = static_cast<uint16_t>(std::min(q, max));
  }
  return s;
}

uint32_t DetectorAlgo::distance(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
  uint32_t d = 0;
  for (size_t j = 0; j < a.size(); ++j) d += a[j] > b[j] ? a[j] - b[j] : b[j] - a[j];
  return d;
}

void DetectorAlgo::feature(uint32_t key, uint32_t weight) {
  uint32_t& a = acc_[fold(key, p_.idx_w())];
  a = sat32(uint64_t{a} + weight);  // saturates at kAccMax
}

std::optional<DetectorResult> DetectorAlgo::tick(uint32_t insns) {
  if (!interval_.step(insns)) return std::nullopt;
  return end_interval();
}

void DetectorAlgo::touch(unsigned m) {
  // Entries more recent than m age by one; m becomes the most recent. A
  // newly filled entry counts as older than every valid entry.
  const unsigned a = table_[m].valid ? table_[m].age : p_.entries;
  for (unsigned i = 0; i < p_.entries; ++i)
    if (i != m && table_[i].valid && table_[i].age < a) ++table_[i].age;
  table_[m].age = 0;
  table_[m].valid = true;
}

DetectorResult DetectorAlgo::end_interval() {
  DetectorResult r;
  const auto sig = signature(acc_, p_.sig_w);
  std::fill(acc_.begin(), acc_.end(), 0u);

  // Search: smallest distance among valid entries, ties to the lowest index.
  bool found = false;
  unsigned best = 0;
  uint32_t best_d = 0;
  for (unsigned i = 0; i < p_.entries; ++i) {
    if (!table_[i].valid) continue;
    const uint32_t d = distance(sig, table_[i].sig);
    if (!found || d < best_d) {
      found = true;
      best = i;
      best_d = d;
    }
  }
  r.distance = found ? best_d : p_.no_distance();
  r.matched = found && best_d < threshold_;
  if (r.matched) {
    // The matched entry keeps its signature (no update).
    r.phase = table_[best].phase;
    touch(best);
    last_alloc_ = false;
  } else {
    // Victim: the lowest invalid entry, else the least recently used.
    unsigned v = p_.entries;
    for (unsigned i = 0; i < p_.entries && v == p_.entries; ++i)
      if (!table_[i].valid) v = i;
    if (v == p_.entries)
      for (unsigned i = 0; i < p_.entries; ++i)
        if (table_[i].age == p_.entries - 1) v = i;
    r.phase = next_phase_++;
    ++allocated_;
    table_[v].phase = r.phase;
    table_[v].sig = sig;
    touch(v);
    last_alloc_ = true;
  }
  r.changed = !have_prev_ || prev_phase_ != r.phase;
  have_prev_ = true;
  prev_phase_ = r.phase;
  const MarkovResult m = markov_.update(r.phase);
  r.predicted = m.predicted;
  r.scored = m.scored;
  r.correct = m.correct;
  return r;
}

std::vector<DetectorResult> run_detector(const DetectorParams& p, const RecordSource& src, uint32_t ppcr,
                                         unsigned depth, unsigned max_len, DetectorRunStats* stats) {
  DetectorAlgo det(p);
  PathStackAlgo stack(depth, max_len);
  const Ppcr reg{ppcr};
  DetectorRunStats st;
  std::vector<DetectorResult> out;
  BranchRecord r;
  while (src(r)) {
    ++st.records;
    if (p.mode == DetectorMode::Bbv) {
      det.feature(r.pc, r.insns);
      ++st.features;
    } else if (auto e = stack.process(PathRecord::classify(r, reg))) {
      if (e->path.incomplete) {
        ++st.ignored;
      } else {
        det.feature(DetectorAlgo::path_key(e->path), e->path.insns);
        ++st.features;
      }
    }
    if (auto res = det.tick(r.insns)) out.push_back(*res);
  }
  if (stats) *stats = st;
  return out;
}

}  // namespace hwprof::model
