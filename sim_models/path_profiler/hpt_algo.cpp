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

bool HptCtrl::legal(uint32_t v) {
  const unsigned metric = v >> kMetricLsb & kMetricMax;
  const unsigned policy = v >> kPolicyLsb & kPolicyMax;
  return metric <= unsigned(HptMetric::Insns) && policy < kHptPolicies;
}

HptCtrl HptCtrl::unpack(uint32_t v) {
  HptCtrl c;
  c.index = (v & kHptCtrlIndex) ? HptIndex::Pb : HptIndex::Plb;
  c.skew = (v & kHptCtrlSkew) != 0;
  c.metric = static_cast<HptMetric>(v >> kMetricLsb & kMetricMax);
  c.policy = static_cast<HptPolicy>(v >> kPolicyLsb & kPolicyMax);
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

HptAlgo::HptAlgo(unsigned sets, unsigned ways) : sets_(sets), ways_(ways), set_bits_(0) {
  if (sets == 0 || (sets & (sets - 1)) != 0 || sets > (1u << 16))
    throw std::invalid_argument("HPT sets must be a power of two in 1..65536");
  if (ways == 0 || ways > 4096) throw std::invalid_argument("HPT ways must be in 1..4096");
  while ((1u << set_bits_) < sets) ++set_bits_;
  table_.resize(size_t{sets} * ways);
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
  if (hit_way < ways_) {
    r.outcome = HptOutcome::Hit;
    r.way = hit_way;
    ++stats_.hits;
  } else if (free_way < ways_) {
    r.outcome = HptOutcome::Fill;
    r.way = free_way;
    ++stats_.fills;
  } else {
    r.way = min_way;
    r.set = sets_of[r.way];
    HptEntry& v = table_[size_t{r.set} * ways_ + r.way];
    if (ctrl.policy == HptPolicy::Erode && v.acc > m) {
      r.outcome = HptOutcome::Reject;
      v.acc -= m;
      ++stats_.rejects;
      return r;
    }
    r.outcome = HptOutcome::Replace;
    ++stats_.replacements;
  }
  r.set = sets_of[r.way];
  HptEntry& x = table_[size_t{r.set} * ways_ + r.way];
  // Hits add to the entry; ss inherits the victim's count; lfu, erode and
  // fills start from zero.
  uint32_t base = 0;
  if (r.outcome == HptOutcome::Hit || (r.outcome == HptOutcome::Replace && ctrl.policy == HptPolicy::Ss))
    base = x.acc;
  x.valid = true;
  x.key = key;
  const uint64_t sum = uint64_t{base} + m;
  r.saturated = sum > 0xffffffffu;
  x.acc = sat32(sum);
  if (r.saturated) ++stats_.saturations;
  return r;
}

void HptAlgo::clear() {
  for (auto& x : table_) x = HptEntry{};
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
