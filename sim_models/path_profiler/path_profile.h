// The exact path profile: every distinct completed path (key = start,
// length, dirs) with the number of times it was emitted and the sums of its
// instruction and event counts. Incomplete paths are counted, not profiled.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "path_stack_algo.h"

namespace hwprof::model {

struct PathKey {
  uint32_t start = 0;
  uint8_t length = 0;
  uint32_t dirs = 0;
  bool operator==(const PathKey& o) const { return start == o.start && length == o.length && dirs == o.dirs; }
  bool operator<(const PathKey& o) const {
    if (start != o.start) return start < o.start;
    if (length != o.length) return length < o.length;
    return dirs < o.dirs;
  }
};

struct PathKeyHash {
  size_t operator()(const PathKey& k) const {
    uint64_t h = (uint64_t{k.start} << 32 | k.dirs) * 0x9e3779b97f4a7c15ull;
    return static_cast<size_t>(h ^ (h >> 29) ^ k.length);
  }
};

struct PathCounts {
  uint64_t count = 0;   ///< times emitted
  uint64_t insns = 0;   ///< sum of the descriptors' instruction counts
  uint64_t events = 0;  ///< sum of the descriptors' event counts
};

struct PathProfileEntry {
  PathKey key;
  PathCounts counts;
};

class PathProfile {
 public:
  /// Adds one emitted descriptor (incomplete ones only bump incomplete()).
  void add(const Emission& e) {
    if (e.path.incomplete) {
      ++incomplete_;
      return;
    }
    auto& c = paths_[PathKey{e.path.start, e.path.length, e.path.dirs}];
    ++c.count;
    c.insns += e.path.insns;
    c.events += e.path.events;
    ++completed_;
  }
  uint64_t incomplete() const { return incomplete_; }
  uint64_t completed() const { return completed_; }
  size_t distinct() const { return paths_.size(); }
  /// Every path, by count (descending), then key (ascending).
  std::vector<PathProfileEntry> sorted() const;

 private:
  std::unordered_map<PathKey, PathCounts, PathKeyHash> paths_;
  uint64_t incomplete_ = 0;
  uint64_t completed_ = 0;
};

inline std::vector<PathProfileEntry> PathProfile::sorted() const {
  std::vector<PathProfileEntry> v;
  v.reserve(paths_.size());
  for (const auto& [k, c] : paths_) v.push_back({k, c});
  std::sort(v.begin(), v.end(), [](const PathProfileEntry& a, const PathProfileEntry& b) {
    if (a.counts.count != b.counts.count) return a.counts.count > b.counts.count;
    return a.key < b.key;
  });
  return v;
}

}  // namespace hwprof::model
