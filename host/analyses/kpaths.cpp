// k-iteration path profiling: k-SF construction (002 Fig. 11), k-SF to
// k-IPF conversion (Fig. 12), pruning, the activation rule and the raw
// stream reader. See kpaths.h and docs/analyses.md.
#include "kpaths.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

namespace hwprof::analyses {

// ------------------------------------------------------------------ k-SF

KSlabForest::KSlabForest(unsigned k) : k_(k), chunk_(k >= 2 ? k - 1 : 1) {
  if (k < 1 || k > kMaxK)
    throw std::invalid_argument("k must be between 1 and " + std::to_string(kMaxK) + " (got " +
                                std::to_string(k) + ")");
}

uint32_t KSlabForest::child(uint32_t parent, Label r) {
  for (uint32_t prev = kNil, x = nodes_[parent].first_child; x != kNil; prev = x, x = nodes_[x].next_sibling) {
    ++stats_.sibling_steps;
    if (nodes_[x].label == r) {
      if (prev != kNil) {  // move to front
        nodes_[prev].next_sibling = nodes_[x].next_sibling;
        nodes_[x].next_sibling = nodes_[parent].first_child;
        nodes_[parent].first_child = x;
      }
      return x;
    }
  }
  const uint32_t first = nodes_[parent].first_child;
  const uint32_t x = nodes_.add(KsfNode{0, r, kNil, first});
  nodes_[parent].first_child = x;
  return x;
}

void KSlabForest::add(KsfCursor& c, Label r) {
  ++stats_.items;
  if (c.n % chunk_ == 0) {  // line 6: a chunk starts
    c.beta = c.tau;         // line 7
    ++stats_.root_lookups;  // line 8: find(R, r)
    auto it = roots_.find(r);
    if (it == roots_.end()) {  // line 10
      c.tau = nodes_.add(KsfNode{0, r, kNil, kNil});
      roots_.emplace(r, c.tau);
    } else {
      c.tau = it->second;
    }
  } else {
    c.tau = child(c.tau, r);  // lines 13-18
  }
  if (c.beta != kNil) {
    c.beta = child(c.beta, r);  // lines 21-26
    ++nodes_[c.beta].count;     // line 27
  } else {
    ++nodes_[c.tau].count;  // line 29
  }
  ++c.n;  // line 31
}

uint32_t KSlabForest::root(Label r) const {
  auto it = roots_.find(r);
  return it == roots_.end() ? kNil : it->second;
}

std::vector<uint32_t> KSlabForest::roots() const {
  std::vector<uint32_t> v;
  v.reserve(roots_.size());
  for (const auto& kv : roots_) v.push_back(kv.second);
  std::sort(v.begin(), v.end(), [&](uint32_t a, uint32_t b) { return nodes_[a].label < nodes_[b].label; });
  return v;
}

std::vector<std::pair<std::vector<Label>, uint64_t>> KSlabForest::node_paths() const {
  std::vector<std::pair<std::vector<Label>, uint64_t>> out;
  std::vector<Label> prefix;
  auto by_label = [&](uint32_t a, uint32_t b) { return nodes_[a].label < nodes_[b].label; };
  // Iterative DFS: (node, depth) on a stack.
  std::vector<std::pair<uint32_t, size_t>> stack;
  auto roots_v = roots();
  for (auto it = roots_v.rbegin(); it != roots_v.rend(); ++it) stack.push_back({*it, 0});
  while (!stack.empty()) {
    auto [x, depth] = stack.back();
    stack.pop_back();
    prefix.resize(depth);
    prefix.push_back(nodes_[x].label);
    out.push_back({prefix, nodes_[x].count});
    std::vector<uint32_t> ch;
    for (uint32_t c = nodes_[x].first_child; c != kNil; c = nodes_[c].next_sibling) ch.push_back(c);
    std::sort(ch.begin(), ch.end(), by_label);
    for (auto it = ch.rbegin(); it != ch.rend(); ++it) stack.push_back({*it, depth + 1});
  }
  return out;
}

// ----------------------------------------------------------------- k-IPF

namespace {

// join_subtree (Fig. 12) into the linked build form.
template <typename Temp>
void join_subtree(const KSlabForest& f, const std::vector<Label>* relabel, NodePool<Temp>& t, uint32_t rho,
                  uint32_t gamma, unsigned d) {
  const KsfNode& r = f.node(rho);
  const Label lab = relabel ? (*relabel)[r.label] : r.label;
  uint32_t delta = kNil;
  for (uint32_t x = t[gamma].first_child; x != kNil; x = t[x].next_sibling)
    if (t[x].label == lab) {
      delta = x;
      break;
    }
  if (delta == kNil) {  // lines 2-4
    const uint32_t first = t[gamma].first_child;
    delta = t.add(Temp{r.count, lab, kNil, first});
    t[gamma].first_child = delta;
  } else {
    t[delta].count += r.count;  // line 6
  }
  if (d > 1)  // lines 8-12
    for (uint32_t s = r.first_child; s != kNil; s = f.node(s).next_sibling)
      join_subtree(f, relabel, t, s, delta, d - 1);
}

}  // namespace

KIpf KIpf::from_ksf(const KSlabForest& f, const std::vector<Label>* relabel) {
  // Lines 1-7: s(r) for every label r, as (label, node) pairs sorted by label.
  std::vector<std::pair<Label, uint32_t>> s;
  s.reserve(f.size());
  for (uint32_t i = 0; i < f.size(); ++i) {
    const Label l = f.node(i).label;
    s.push_back({relabel ? (*relabel)[l] : l, i});
  }
  std::sort(s.begin(), s.end());
  // Lines 8-13: the dummy root's children are looked up once per label
  // (every node of s(r) joins under the same k-IPF root), then each node's
  // subtree is joined with depth k (Fig. 12, join_subtree(rho, phi, k)).
  NodePool<Temp> t;
  std::vector<uint32_t> roots;
  for (size_t i = 0; i < s.size();) {
    const Label r = s[i].first;
    const uint32_t delta = t.add(Temp{0, r, kNil, kNil});
    roots.push_back(delta);
    for (; i < s.size() && s[i].first == r; ++i) {
      const KsfNode& rho = f.node(s[i].second);
      t[delta].count += rho.count;
      if (f.k() > 1)
        for (uint32_t c = rho.first_child; c != kNil; c = f.node(c).next_sibling)
          join_subtree(f, relabel, t, c, delta, f.k() - 1);
    }
  }
  return layout(f.k(), t, roots, nullptr);
}

KIpf KIpf::layout(unsigned k, const NodePool<Temp>& t, const std::vector<uint32_t>& roots,
                  const std::vector<char>* keep) {
  KIpf out;
  out.k_ = k;
  auto order = [&](std::vector<uint32_t>& v) {
    std::sort(v.begin(), v.end(), [&](uint32_t a, uint32_t b) {
      if (t[a].count != t[b].count) return t[a].count > t[b].count;
      return t[a].label < t[b].label;
    });
  };
  std::vector<uint32_t> temp_of;  // new index -> temp index
  std::vector<uint32_t> level;
  for (uint32_t r : roots)
    if (!keep || (*keep)[r]) level.push_back(r);
  order(level);
  for (uint32_t r : level) {
    out.nodes_.push_back(IpfNode{t[r].count, t[r].label, kNil, kNil, 0, 1});
    temp_of.push_back(r);
  }
  out.num_roots_ = static_cast<uint32_t>(level.size());
  std::vector<uint32_t> ch;
  for (uint32_t i = 0; i < out.nodes_.size(); ++i) {
    ch.clear();
    for (uint32_t c = t[temp_of[i]].first_child; c != kNil; c = t[c].next_sibling)
      if (!keep || (*keep)[c]) ch.push_back(c);
    if (ch.empty()) continue;
    order(ch);
    out.nodes_[i].first_child = static_cast<uint32_t>(out.nodes_.size());
    out.nodes_[i].num_children = static_cast<uint32_t>(ch.size());
    const uint32_t lvl = out.nodes_[i].level + 1;
    for (uint32_t c : ch) {
      out.nodes_.push_back(IpfNode{t[c].count, t[c].label, i, kNil, 0, lvl});
      temp_of.push_back(c);
    }
  }
  return out;
}

uint32_t KIpf::root_of(uint32_t i) const {
  while (nodes_[i].parent != kNil) i = nodes_[i].parent;
  return i;
}

std::vector<Label> KIpf::path(uint32_t i) const {
  std::vector<Label> p;
  for (; i != kNil; i = nodes_[i].parent) p.push_back(nodes_[i].label);
  std::reverse(p.begin(), p.end());
  return p;
}

double KIpf::share_parent(uint32_t i) const {
  const uint32_t p = nodes_[i].parent;
  if (p == kNil || nodes_[p].count == 0) return 1.0;
  return double(nodes_[i].count) / double(nodes_[p].count);
}

double KIpf::share_root(uint32_t i) const {
  const uint64_t rc = nodes_[root_of(i)].count;
  return rc ? double(nodes_[i].count) / double(rc) : 1.0;
}

uint32_t KIpf::find(const std::vector<Label>& seq) const {
  if (seq.empty() || seq.size() > k_) return kNil;
  uint32_t first = 0, n = num_roots_, at = kNil;
  for (Label l : seq) {
    at = kNil;
    for (uint32_t c = first; c < first + n; ++c)
      if (nodes_[c].label == l) {
        at = c;
        break;
      }
    if (at == kNil) return kNil;
    first = nodes_[at].first_child;
    n = nodes_[at].num_children;
  }
  return at;
}

std::vector<uint64_t> KIpf::level_sizes() const {
  std::vector<uint64_t> v;
  for (const auto& n : nodes_) {
    if (v.size() < n.level) v.resize(n.level, 0);
    ++v[n.level - 1];
  }
  return v;
}

std::vector<uint32_t> KIpf::hottest(unsigned lvl, size_t n) const {
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].level == lvl) v.push_back(i);
  auto cmp = [&](uint32_t a, uint32_t b) {
    if (nodes_[a].count != nodes_[b].count) return nodes_[a].count > nodes_[b].count;
    return a < b;  // forest order: parents first, siblings by count
  };
  if (n && n < v.size()) {
    std::partial_sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n), v.end(), cmp);
    v.resize(n);
  } else {
    std::sort(v.begin(), v.end(), cmp);
  }
  return v;
}

KIpf KIpf::pruned(double fraction) const {
  KIpf out;
  out.k_ = k_;
  if (fraction <= 0) {
    out = *this;
    return out;
  }
  // Breadth-first over the kept nodes (children stay in their order).
  std::vector<uint32_t> old_of, root_old;
  for (uint32_t r = 0; r < num_roots_; ++r) {
    IpfNode n = nodes_[r];
    n.first_child = kNil;
    n.num_children = 0;
    out.nodes_.push_back(n);
    old_of.push_back(r);
    root_old.push_back(r);
  }
  out.num_roots_ = num_roots_;
  for (uint32_t i = 0; i < out.nodes_.size(); ++i) {
    const IpfNode& o = nodes_[old_of[i]];
    const double root_count = double(nodes_[root_old[i]].count);
    bool any = false;
    for (uint32_t c = o.first_child; c < o.first_child + o.num_children; ++c) {
      const double cc = double(nodes_[c].count);
      if (cc < fraction * double(o.count) || cc < fraction * root_count) continue;
      if (!any) {
        out.nodes_[i].first_child = static_cast<uint32_t>(out.nodes_.size());
        any = true;
      }
      ++out.nodes_[i].num_children;
      IpfNode n = nodes_[c];
      n.parent = i;
      n.first_child = kNil;
      n.num_children = 0;
      out.nodes_.push_back(n);
      old_of.push_back(c);
      root_old.push_back(root_old[i]);
    }
  }
  return out;
}

// ---------------------------------------------------------- activations

Label PathIds::id(const model::PathKey& key) {
  auto [it, inserted] = map_.try_emplace(key, static_cast<Label>(keys_.size()));
  if (inserted) {
    if (keys_.size() >= kNil) throw std::length_error("more than 2^32-1 distinct paths");
    keys_.push_back(key);
  }
  return it->second;
}

void KpathsProfiler::add(const model::Emission& e) {
  ++stats_.descriptors;
  stats_.max_depth = std::max(stats_.max_depth, e.depth);
  if (e.path.incomplete) ++stats_.incomplete;
  else ++stats_.paths;
  const bool opened = activation_step(
      shadow_, e.depth, e.path.incomplete, e.frame_end, [&](KsfCursor& c) { ksf_.marker(c); },
      [&](KsfCursor& c) { ksf_.add(c, ids_.id(model::PathKey{e.path.start, e.path.length, e.path.dirs})); });
  stats_.activations += opened;
}

KpathsProfiler::Result KpathsProfiler::result() const {
  // BL count of every id: each item increments exactly one counter, on a
  // node labelled with the item (Fig. 11 lines 27 and 29).
  const auto& keys = ids_.keys();
  std::vector<uint64_t> count(keys.size(), 0);
  for (uint32_t i = 0; i < ksf_.size(); ++i) count[ksf_.node(i).label] += ksf_.node(i).count;
  std::vector<Label> by_rank(keys.size());
  for (Label i = 0; i < by_rank.size(); ++i) by_rank[i] = i;
  std::sort(by_rank.begin(), by_rank.end(), [&](Label a, Label b) {
    if (count[a] != count[b]) return count[a] > count[b];
    return keys[a] < keys[b];
  });
  Result r;
  std::vector<Label> rank(keys.size());
  r.keys.resize(keys.size());
  for (Label i = 0; i < by_rank.size(); ++i) {
    rank[by_rank[i]] = i;
    r.keys[i] = keys[by_rank[i]];
  }
  r.ipf = KIpf::from_ksf(ksf_, &rank);
  return r;
}

// ------------------------------------------------------------ raw stream

std::vector<RawItem> read_id_stream(std::istream& in, const std::string& name) {
  std::vector<RawItem> items;
  std::string line;
  uint64_t lineno = 0;
  auto shown = [](const std::string& tok) { return tok.size() > 40 ? tok.substr(0, 40) + "..." : tok; };
  while (std::getline(in, line)) {
    ++lineno;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i == line.size()) break;
      size_t j = i;
      while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
      const std::string tok = line.substr(i, j - i);
      i = j;
      if (tok == "*") {
        items.push_back({true, 0});
        continue;
      }
      bool digits = true;
      for (char ch : tok) digits = digits && ch >= '0' && ch <= '9';
      if (!digits)
        throw IdStreamError(name + ":" + std::to_string(lineno) + ": bad token '" + shown(tok) +
                            "' (expected a non-negative integer or '*')");
      uint64_t v = 0;
      for (char ch : tok) {
        const uint64_t dgt = uint64_t(ch - '0');
        if (v > (std::numeric_limits<uint64_t>::max() - dgt) / 10)
          throw IdStreamError(name + ":" + std::to_string(lineno) + ": id '" + shown(tok) +
                              "' is out of range (at most 18446744073709551615)");
        v = v * 10 + dgt;
      }
      items.push_back({false, v});
    }
  }
  if (in.bad()) throw IdStreamError(name + ": read error");
  return items;
}

std::vector<RawItem> read_id_stream_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw IdStreamError(path + ": cannot open: " + std::strerror(errno));
  return read_id_stream(f, path);
}

void RawKpaths::add(uint64_t value) {
  auto [it, inserted] = map_.try_emplace(value, static_cast<Label>(values_.size()));
  if (inserted) {
    if (values_.size() >= kNil) throw std::length_error("more than 2^32-1 distinct ids");
    values_.push_back(value);
  }
  ksf_.add(cursor_, it->second);
}

RawKpaths::Result RawKpaths::result() const {
  std::vector<Label> by_value(values_.size());
  for (Label i = 0; i < by_value.size(); ++i) by_value[i] = i;
  std::sort(by_value.begin(), by_value.end(), [&](Label a, Label b) { return values_[a] < values_[b]; });
  Result r;
  std::vector<Label> rank(values_.size());
  r.values.resize(values_.size());
  for (Label i = 0; i < by_value.size(); ++i) {
    rank[by_value[i]] = i;
    r.values[i] = values_[by_value[i]];
  }
  r.ipf = KIpf::from_ksf(ksf_, &rank);
  return r;
}

}  // namespace hwprof::analyses
