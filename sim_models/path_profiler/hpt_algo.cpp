#include "hpt_algo.h"

#include "prim.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace hwprof::model {

namespace {

// Rotates the low `bits` bits of x left by r.
uint32_t rotl_bits(uint32_t x, unsigned r, unsigned bits) {
  if (bits == 0) return 0;
  r %= bits;
  const uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
  x &= mask;
  return r == 0 ? x : ((x << r) | (x >> (bits - r))) & mask;
}

}  // namespace

bool HptCtrl::legal(uint32_t v, bool prob) {
  const unsigned metric = v >> kMetricLsb & kMetricMax;
  const unsigned policy = v >> kPolicyLsb & kPolicyMax;
  return metric <= unsigned(HptMetric::Insns) && (policy < kHptPolicies || (prob && policy == kHptPolicyLfuProb));
}

HptCtrl HptCtrl::unpack(uint32_t v) {
  HptCtrl c;
  c.index = (v & kHptCtrlIndex) ? HptIndex::Pb : HptIndex::Plb;
  c.skew = (v & kHptCtrlSkew) != 0;
  c.metric = static_cast<HptMetric>(v >> kMetricLsb & kMetricMax);
  const unsigned policy = v >> kPolicyLsb & kPolicyMax;
  if (policy == kHptPolicyLfuProb) {
    c.policy = HptPolicy::Lfu;
    c.admit = HptAdmit::Probation;
  } else {
    c.policy = static_cast<HptPolicy>(policy);
  }
  return c;
}

HptIndex HptCtrl::parse_index(const std::string& s) {
  if (s == "plb") return HptIndex::Plb;
  if (s == "pb") return HptIndex::Pb;
  throw std::invalid_argument("unknown HPT index '" + s + "' (plb, pb)");
}
HptMetric HptCtrl::parse_metric(const std::string& s) {
  if (s == "freq" || s == "frequency") return HptMetric::Freq;
  if (s == "events") return HptMetric::Events;
  if (s == "insns" || s == "instructions") return HptMetric::Insns;
  throw std::invalid_argument("unknown HPT metric '" + s + "' (freq, events, insns)");
}
HptPolicy HptCtrl::parse_policy(const std::string& s) {
  if (s == "lfu") return HptPolicy::Lfu;
  if (s == "ss") return HptPolicy::Ss;
  if (s == "erode") return HptPolicy::Erode;
  throw std::invalid_argument("unknown HPT policy '" + s + "' (lfu, ss, erode)");
}
void HptCtrl::parse_policy_name(const std::string& s, HptCtrl& c) {
  size_t plus = s.find('+');
  c.policy = parse_policy(s.substr(0, plus));
  c.inherit = false;
  c.admit = HptAdmit::None;
  while (plus != std::string::npos) {
    const size_t next = s.find('+', plus + 1);
    const std::string opt = s.substr(plus + 1, next == std::string::npos ? std::string::npos : next - plus - 1);
    if (opt == "inherit") c.inherit = true;
    else if (opt == "tlfu") c.admit = HptAdmit::Sketch;
    else if (opt == "prob") c.admit = HptAdmit::Probation;
    else throw std::invalid_argument("unknown HPT policy option '" + opt + "' in '" + s + "' (inherit, tlfu, prob)");
    plus = next;
  }
}

std::string HptCtrl::policy_name() const {
  std::string n = to_string(policy);
  if (inherit) n += "+inherit";
  if (admit == HptAdmit::Sketch) n += "+tlfu";
  if (admit == HptAdmit::Probation) n += "+prob";
  return n;
}

uint64_t HptSketch::storage_bits() const {
  if (rows == 0) return 0;
  unsigned pbits = 0;
  while ((uint64_t{1} << pbits) < uint64_t{period}) ++pbits;
  return uint64_t{rows} * cols * bits + pbits;
}

const char* to_string(HptIndex i) { return i == HptIndex::Plb ? "plb" : "pb"; }
const char* to_string(HptMetric m) {
  switch (m) {
    case HptMetric::Freq: return "freq";
    case HptMetric::Events: return "events";
    case HptMetric::Insns: return "insns";
  }
  return "?";
}
const char* to_string(HptPolicy p) {
  switch (p) {
    case HptPolicy::Lfu: return "lfu";
    case HptPolicy::Ss: return "ss";
    case HptPolicy::Erode: return "erode";
  }
  return "?";
}

HptAlgo::HptAlgo(unsigned sets, unsigned ways, const HptSketch& sketch, const HptProbation& prob)
    : sets_(sets), ways_(ways), set_bits_(0), sketch_(sketch), prob_(prob) {
  if (sets == 0 || (sets & (sets - 1)) != 0 || sets > (1u << 16))
    throw std::invalid_argument("HPT sets must be a power of two in 1..65536");
  if (ways == 0 || ways > 4096) throw std::invalid_argument("HPT ways must be in 1..4096");
  while ((1u << set_bits_) < sets) ++set_bits_;
  table_.resize(size_t{sets} * ways);
  if (sketch.rows > 0) {
    if (sketch.rows > 16) throw std::invalid_argument("HPT sketch rows must be in 0..16");
    if (sketch.cols < 2 || (sketch.cols & (sketch.cols - 1)) != 0 || sketch.cols > (1u << 16))
      throw std::invalid_argument("HPT sketch columns must be a power of two in 2..65536");
    if (sketch.bits < 1 || sketch.bits > 16) throw std::invalid_argument("HPT sketch counters must be 1..16 bits");
    while ((1u << col_bits_) < sketch.cols) ++col_bits_;
    cms_.assign(size_t{sketch.rows} * sketch.cols, 0);
  }
  if (prob.sets > 0) {
    if ((prob.sets & (prob.sets - 1)) != 0 || prob.sets > (1u << 16))
      throw std::invalid_argument("HPT probation sets must be a power of two in 1..65536");
    if (prob.ways < 1 || prob.ways > 64) throw std::invalid_argument("HPT probation ways must be in 1..64");
    if (prob.fp_bits < 1 || prob.fp_bits > 32 || prob.count_bits < 1 || prob.count_bits > 32)
      throw std::invalid_argument("HPT probation fingerprints and counts must be 1..32 bits");
    while ((1u << prob_set_bits_) < prob.sets) ++prob_set_bits_;
    prob_fp_.assign(size_t{prob.sets} * prob.ways, 0);
    prob_count_.assign(size_t{prob.sets} * prob.ways, 0);
  }
}

uint64_t HptAlgo::storage_bits(unsigned sets, unsigned ways, const HptSketch& sketch, const HptProbation& prob) {
  return uint64_t{sets} * ways * kEntryBits + sketch.storage_bits() + prob.storage_bits();
}

unsigned HptAlgo::probation_set(const PathKey& k, unsigned set_bits) { return index(k, HptIndex::Plb, true, set_bits, 5); }

uint32_t HptAlgo::fingerprint(const PathKey& k, unsigned fp_bits) {
  // index() folds to at most 16 bits (Groups); wider fingerprints take two folds.
  if (fp_bits <= 16) return index(k, HptIndex::Plb, true, fp_bits, 3);
  const unsigned hi = fp_bits - 16;
  return index(k, HptIndex::Plb, true, 16, 3) | index(k, HptIndex::Plb, true, hi, 7) << 16;
}

uint32_t HptAlgo::probation_add(const PathKey& k, uint32_t m, size_t& at) {
  // The lowest non-empty way with the key's fingerprint adds m; else the
  // lowest way with the minimum count (an empty one first) takes the key
  // and adds m to the count it had (Space-Saving). Counts saturate.
  const size_t row = size_t{probation_set(k, prob_set_bits_)} * prob_.ways;
  const uint32_t fp = fingerprint(k, prob_.fp_bits);
  uint32_t* fps = &prob_fp_[row];
  uint32_t* cnt = &prob_count_[row];
  unsigned way = prob_.ways, min_way = 0;
  for (unsigned w = 0; w < prob_.ways; ++w) {
    if (cnt[w] != 0 && fps[w] == fp && way == prob_.ways) way = w;
    if (cnt[w] < cnt[min_way]) min_way = w;
  }
  if (way == prob_.ways) {
    way = min_way;
    fps[way] = fp;
  }
  const uint64_t max = prob_.count_bits >= 32 ? 0xffffffffull : (uint64_t{1} << prob_.count_bits) - 1;
  cnt[way] = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{cnt[way]} + m, max));
  at = row + way;
  return cnt[way];
}


unsigned HptAlgo::sketch_col(const PathKey& k, unsigned col_bits, unsigned row) {
  // Row r uses the skewed fold of way r + 1, XOR a constant that differs
  // per row, so rows disagree on which keys collide.
  const uint32_t salt = (0x9e3779b9u * (row + 1)) >> (32 - std::min(col_bits, 31u));
  return index_of_groups(fold_groups(k, HptIndex::Plb, col_bits), true, col_bits, row + 1) ^
         (salt & ((1u << col_bits) - 1));
}

unsigned HptAlgo::estimate(const PathKey& k) const {
  if (sketch_.rows == 0) return 0;
  unsigned est = 0xffff;
  for (unsigned r = 0; r < sketch_.rows; ++r)
    est = std::min<unsigned>(est, cms_[size_t{r} * sketch_.cols + sketch_col(k, col_bits_, r)]);
  return est;
}

unsigned HptAlgo::sketch_add(const PathKey& k) {
  // Conservative update: the counters at the key's minimum go up by one
  // (saturating), the others stay; then the period count, and a halving of
  // every counter when it reaches the period.
  const unsigned max = (1u << sketch_.bits) - 1;
  unsigned cols[16];
  unsigned est = 0xffff;
  for (unsigned r = 0; r < sketch_.rows; ++r) {
    cols[r] = sketch_col(k, col_bits_, r);
    est = std::min<unsigned>(est, cms_[size_t{r} * sketch_.cols + cols[r]]);
  }
  if (est < max) {
    for (unsigned r = 0; r < sketch_.rows; ++r) {
      uint16_t& c = cms_[size_t{r} * sketch_.cols + cols[r]];
      if (c == est) c = static_cast<uint16_t>(est + 1);
    }
    ++est;
  }
  if (sketch_.period != 0 && ++cms_count_ >= sketch_.period) {
    for (auto& c : cms_) c = static_cast<uint16_t>(c >> 1);
    cms_count_ = 0;
  }
  return est;
}

HptAlgo::Groups HptAlgo::fold_groups(const PathKey& k, HptIndex ix, unsigned set_bits) {
  Groups g;
  if (set_bits == 0) return g;
  // The folded vector (docs/hpt.md, "Index"): bits 29:0 = start[31:2],
  // 35:30 = length (zero under pb), 67:36 = dirs.
  const uint64_t lo = uint64_t{k.start >> 2} | uint64_t{ix == HptIndex::Plb ? k.length & 0x3fu : 0u} << 30 |
                      uint64_t{k.dirs} << 36;
  const uint32_t hi = k.dirs >> 28;  // bits 67:64
  const uint32_t mask = (1u << set_bits) - 1;
  // Chunk c = v[c*b+b-1 : c*b], the last one zero-extended; group c mod b.
  for (unsigned c = 0, lsb = 0, grp = 0; lsb < 68; ++c, lsb += set_bits, grp = grp + 1 == set_bits ? 0 : grp + 1) {
    uint32_t chunk;
    if (lsb >= 64)
      chunk = hi >> (lsb - 64);
    else if (lsb + set_bits > 64)
      chunk = static_cast<uint32_t>(lo >> lsb) | hi << (64 - lsb);
    else
      chunk = static_cast<uint32_t>(lo >> lsb);
    g.g[grp] ^= chunk & mask;
  }
  return g;
}

unsigned HptAlgo::index_of_groups(const Groups& g, bool skew_on, unsigned set_bits, unsigned way) {
  if (set_bits == 0) return 0;
  uint32_t idx = 0;
  if (!skew_on) {
    for (unsigned r = 0; r < set_bits; ++r) idx ^= g.g[r];
    return idx;
  }
  // Group r (the chunks with c mod b = r) of way w rotates by w*r mod b.
  const unsigned step = way % set_bits;
  for (unsigned r = 0, rot = 0; r < set_bits; ++r, rot = (rot + step) % set_bits)
    idx ^= rotl_bits(g.g[r], rot, set_bits);
  return idx;
}

unsigned HptAlgo::index(const PathKey& k, HptIndex ix, bool skew_on, unsigned set_bits, unsigned way) {
  return index_of_groups(fold_groups(k, ix, set_bits), skew_on, set_bits, way);
}

uint32_t HptAlgo::metric(const PathEntry& d, HptMetric m) {
  switch (m) {
    case HptMetric::Freq: return 1;
    case HptMetric::Events: return d.events;
    case HptMetric::Insns: return d.insns;
  }
  return 1;
}

HptResult HptAlgo::insert(const Emission& e, const HptCtrl& ctrl) {
  HptResult r;
  if (e.path.incomplete) {
    ++stats_.ignored;
    return r;
  }
  ++stats_.descs;
  const PathKey key{e.path.start, e.path.length, e.path.dirs};
  const uint32_t m = metric(e.path, ctrl.metric);
  // The candidate entry of each way, at that way's index: the first hitting
  // way, else the first invalid way, else the minimum accumulator (strictly
  // less, so ties go to the lowest way).
  unsigned hit_way = ways_, free_way = ways_, min_way = 0;
  sets_of_.resize(ways_);
  auto& sets_of = sets_of_;
  const Groups groups = fold_groups(key, ctrl.index, set_bits_);
  const unsigned plain = index_of_groups(groups, false, set_bits_, 0);  // every way's index without skew
  for (unsigned w = 0; w < ways_; ++w) {
    const unsigned s = ctrl.skew ? index_of_groups(groups, true, set_bits_, w) : plain;
    sets_of[w] = s;
    const HptEntry& x = entry(s, w);
    if (x.valid && x.key == key && hit_way == ways_) hit_way = w;
    if (!x.valid && free_way == ways_) free_way = w;
    if (x.acc < entry(sets_of[min_way], min_way).acc) min_way = w;
  }
  // The admission filters' state moves first: the sketch counts every
  // completed descriptor (hit or miss); the probation area counts the misses
  // with a full set.
  unsigned est = 0;
  if (sketch_.rows > 0) est = sketch_add(key);
  uint64_t sum = m;  // the written accumulator before saturation
  if (hit_way < ways_) {
    r.outcome = HptOutcome::Hit;
    r.way = hit_way;
    ++stats_.hits;
    sum += entry(sets_of[hit_way], hit_way).acc;
  } else if (free_way < ways_) {
    r.outcome = HptOutcome::Fill;
    r.way = free_way;
    ++stats_.fills;
  } else {
    r.way = min_way;
    r.set = sets_of[r.way];
    HptEntry& v = table_[size_t{r.set} * ways_ + r.way];
    const bool erode = ctrl.policy == HptPolicy::Erode;
    const bool inherit = ctrl.policy == HptPolicy::Ss || ctrl.inherit;
    bool reject = false, wear = false;
    if (ctrl.admit == HptAdmit::Probation && prob_.sets > 0) {
      // The path's probation count c (this descriptor included) against
      // the victim: c > acc admits it with its count; else it is refused
      // (erode still wears the victim).
      size_t at;
      const uint32_t c = probation_add(key, m, at);
      if (c > v.acc) {
        prob_count_[at] = 0;  // the entry is emptied
        sum = uint64_t{c} + (inherit ? v.acc : 0u);  // starts at its count (+ the victim's under ss/inherit)
      } else {
        reject = true;
        wear = erode && v.acc > m;
      }
    } else {
      // TinyLFU: a newcomer whose estimate is not above the victim's is
      // refused and leaves the victim alone; an admitted one meets the
      // policy's own rule.
      const bool admit = ctrl.admit != HptAdmit::Sketch || sketch_.rows == 0 || est > estimate(v.key);
      if (!admit) reject = true;
      else if (erode && v.acc > m) reject = wear = true;
      if (!reject && inherit) sum += v.acc;
    }
    if (reject) {
      r.outcome = HptOutcome::Reject;
      if (wear) v.acc -= m;
      ++stats_.rejects;
      return r;
    }
    r.outcome = HptOutcome::Replace;
    ++stats_.replacements;
  }
  r.set = sets_of[r.way];
  HptEntry& x = table_[size_t{r.set} * ways_ + r.way];
  x.valid = true;
  x.key = key;
  r.saturated = sum > 0xffffffffu;
  x.acc = sat32(sum);
  if (r.saturated) ++stats_.saturations;
  return r;
}

void HptAlgo::clear() {
  for (auto& x : table_) x = HptEntry{};
  std::fill(cms_.begin(), cms_.end(), uint16_t{0});
  std::fill(prob_count_.begin(), prob_count_.end(), 0u);
  cms_count_ = 0;
}

void HptAlgo::reset() {
  clear();
  stats_ = HptStats{};
}

std::vector<HptEntry> HptAlgo::contents() const {
  std::vector<HptEntry> v;
  for (const auto& x : table_)
    if (x.valid) v.push_back(x);
  return v;
}

double path_overlap(const std::vector<WeightedPath>& exact, const std::vector<WeightedPath>& measured) {
  uint64_t te = 0, tm = 0;
  for (const auto& p : exact) te += p.weight;
  std::unordered_map<PathKey, uint64_t, PathKeyHash> m;
  for (const auto& p : measured) {
    m[p.key] += p.weight;
    tm += p.weight;
  }
  if (te == 0 || tm == 0) return 0.0;
  // Exact arithmetic: min(w/te, v/tm) = min(w*tm, v*te) / (te*tm), summed in
  // 128 bits, so identical profiles give exactly 100 (a sum of doubles can
  // land above it).
  __extension__ using u128 = unsigned __int128;
  u128 sum = 0;
  for (const auto& p : exact) {
    auto it = m.find(p.key);
    if (it == m.end()) continue;
    sum += std::min(u128{p.weight} * tm, u128{it->second} * te);
  }
  return 100.0L * static_cast<long double>(sum) / (static_cast<long double>(te) * static_cast<long double>(tm));
}

double oracle_overlap(std::vector<WeightedPath> exact, size_t n) {
  // A table holding the n heaviest paths with exact weights has coverage
  // w/W_top >= w/W_all for each of them, so min() picks the exact share and
  // the overlap is the top n's share of the total.
  uint64_t total = 0;
  for (const auto& p : exact) total += p.weight;
  if (total == 0) return 0.0;
  const size_t k = std::min(n, exact.size());
  std::partial_sort(exact.begin(), exact.begin() + static_cast<long>(k), exact.end(),
                    [](const WeightedPath& a, const WeightedPath& b) { return a.weight > b.weight; });
  uint64_t top = 0;
  for (size_t i = 0; i < k; ++i) top += exact[i].weight;
  return 100.0 * double(top) / double(total);
}

std::vector<WeightedPath> exact_weights(const PathProfile& p, HptMetric m) {
  std::vector<WeightedPath> v;
  for (const auto& e : p.sorted()) {
    uint64_t w = e.counts.count;
    if (m == HptMetric::Events) w = e.counts.events;
    if (m == HptMetric::Insns) w = e.counts.insns;
    v.push_back({e.key, w});
  }
  return v;
}

std::vector<WeightedPath> hpt_weights(const HptAlgo& h) {
  std::vector<WeightedPath> v;
  for (const auto& x : h.contents()) v.push_back({x.key, x.acc});
  return v;
}

}  // namespace hwprof::model
