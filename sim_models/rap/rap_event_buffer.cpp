#include "rap_event_buffer.h"

#include <stdexcept>
#include <string>

namespace hwprof::model {

void RapEventBuffer::set_depth(unsigned depth) {
  if (depth > kRapBufMaxDepth)
    throw std::invalid_argument("RAP event buffer depth must be 0.." + std::to_string(kRapBufMaxDepth) + ", got " +
                                std::to_string(depth));
  depth_ = depth;
  q_.clear();
}

int RapEventBuffer::match(uint64_t value, uint32_t weight) const {
  for (size_t i = q_.size(); i-- > 0;)
    if (q_[i].value == value && uint64_t{q_[i].weight} + weight <= 0xffffffffu) return static_cast<int>(i);
  return -1;
}

std::optional<RapPair> RapEventBuffer::push(uint64_t value, uint32_t weight) {
  const int m = match(value, weight);
  if (m >= 0) {
    q_[static_cast<size_t>(m)].weight += weight;
    return std::nullopt;
  }
  if (depth_ == 0) return RapPair{value, weight};
  std::optional<RapPair> out;
  if (q_.size() >= depth_) {
    out = q_.front();
    q_.pop_front();
  }
  q_.push_back({value, weight});
  return out;
}

std::optional<RapPair> RapEventBuffer::pop_oldest() {
  if (q_.empty()) return std::nullopt;
  const RapPair p = q_.front();
  q_.pop_front();
  return p;
}

}  // namespace hwprof::model

// ---------------------------------------------------------------- dump helpers (rap_replay.h)

#include <algorithm>

#include "rap_replay.h"

namespace hwprof::model {

std::vector<RapDumpNode> rap_dump_nodes(const std::vector<RapDumpBeat>& beats, unsigned range_bits) {
  std::vector<RapDumpNode> v;
  for (size_t b = 0; b < beats.size(); ++b) {
    const RapDumpBeat& x = beats[b];
    if (b == 0) {
      v.push_back({0, 0, x.count[0]});
      continue;
    }
    if (!x.valid) continue;
    const unsigned sh = range_bits - 2 * x.depth;
    for (uint64_t c = 0; c < 4; ++c) v.push_back({x.prefix | c << sh, x.depth, x.count[c]});
  }
  std::sort(v.begin(), v.end(), [](const RapDumpNode& a, const RapDumpNode& b) {
    return a.prefix != b.prefix ? a.prefix < b.prefix : a.depth < b.depth;
  });
  return v;
}

template <class V>
std::vector<RapDumpNode> rap_tree_nodes(const RapTreeT<V>& t) {
  std::vector<RapDumpNode> v;
  for (const auto& n : t.nodes()) v.push_back({n.prefix, n.depth, n.count});
  return v;
}
template std::vector<RapDumpNode> rap_tree_nodes(const RapTree& t);
template std::vector<RapDumpNode> rap_tree_nodes(const RapTree64& t);

}  // namespace hwprof::model
