// Critical-path analysis (paper 004 sections 2.1 and 4.2); see critpath.h.
#include "critpath.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace hwprof::analyses {

using trace::Kind;
using trace::Record;

// ================================================================ the path

CriticalPath critical_path(const std::vector<Timed>& t) {
  CriticalPath p;
  const uint64_t n = t.size();
  p.critical.assign(n, 0);
  if (n == 0) return p;
  PathNode at{Stage::C, n - 1};
  for (;;) {
    p.nodes.push_back(at);
    if (at.stage == Stage::E) p.critical[at.insn] = 1;
    const Timed& x = t[at.insn];
    const Pred& pr = x.pred(at.stage);
    if (pr.edge == Edge::None) {
      if (at.stage != Stage::D || at.insn != 0) throw std::logic_error("critical_path: a node other than D[0] has no edge");
      break;
    }
    const PathNode src{source_stage(pr.edge), pr.src};
    if (dest_stage(pr.edge) != at.stage || src.insn >= n || src.insn > at.insn ||
        (src.insn == at.insn && static_cast<int>(src.stage) >= static_cast<int>(at.stage)))
      throw std::logic_error("critical_path: malformed edge");
    const uint64_t ts = t[src.insn].at(src.stage), td = x.at(at.stage);
    if (ts > td) throw std::logic_error("critical_path: an edge goes back in time");
    p.edges.push_back(pr.edge);
    ++p.edge_count[static_cast<int>(pr.edge)];
    p.edge_cycles[static_cast<int>(pr.edge)] += td - ts;
    if (pr.edge == Edge::EE && x.mem_edge) {
      ++p.mem_edges;
      p.mem_cycles += td - ts;
    }
    at = src;
  }
  std::reverse(p.nodes.begin(), p.nodes.end());
  std::reverse(p.edges.begin(), p.edges.end());
  p.length = t[n - 1].c - t[0].d;
  return p;
}

// ================================================================ events

double EventRates::mispredict_rate(const StaticInsn& s) const {
  if (!s.is_cf || !(s.kind == Kind::Br || s.kind == Kind::Ijmp || s.kind == Kind::Icall)) return 0.0;
  if (global_mispredict >= 0) return global_mispredict;
  auto it = mispredict.find(s.pc);
  return it == mispredict.end() ? 0.0 : it->second;
}

std::unordered_map<uint64_t, double> profile_mispredict_rates(const ProfileDb& db) {
  std::unordered_map<uint64_t, double> r;
  for (const auto& [pc, b] : db.branches()) {
    if (b.kind == Kind::Br) {
      const uint64_t all = b.taken + b.not_taken;
      if (all) r[pc] = double(std::min(b.taken, b.not_taken)) / double(all);
    } else if (b.kind == Kind::Ijmp || b.kind == Kind::Icall) {
      uint64_t all = 0, top = 0;
      for (const TargetCount& tc : b.targets) {
        all += tc.count;
        top = std::max(top, tc.count);
      }
      if (all) r[pc] = double(all - top) / double(all);
    }
  }
  return r;
}

bool draw(std::mt19937_64& rng, double p) {
  const uint64_t x = rng() >> 11;  // 53 bits
  if (!(p > 0)) return false;
  if (p >= 1) return true;
  return double(x) < p * 9007199254740992.0;  // 2^53
}

// ================================================================ database

CritAnalyzer::CritAnalyzer(const CritOptions& o) : o_(o), model_(o.machine) {
  if (o_.tracelet_len == 0) throw std::invalid_argument("tracelet length must be at least 1");
  timed_.reserve(std::min<uint64_t>(o_.tracelet_len, 1u << 20));
}

void CritAnalyzer::add(const StaticInsn& s, uint64_t mem_dist) {
  if (timed_.empty()) rng_ = tracelet_rng(o_.seed, tracelets_);
  const bool mp = s.is_cf && draw(rng_, o_.rates.mispredict_rate(s));
  const bool miss = s.load && draw(rng_, o_.rates.miss_rate);
  add(s, mp, miss, mem_dist);
}

void CritAnalyzer::add(const StaticInsn& s, bool mispredict, bool miss, uint64_t mem_dist) {
  timed_.push_back(model_.step(s, mispredict, miss, mem_dist));
  pcs_.push_back(s.pc);
  mispredicts_ += timed_.back().mispredict;
  misses_ += timed_.back().miss;
  if (timed_.size() >= o_.tracelet_len) analyse();
}

void CritAnalyzer::flush() {
  if (!timed_.empty()) analyse();
}

void CritAnalyzer::analyse() {
  CriticalPath p = critical_path(timed_);
  for (size_t k = 0; k < timed_.size(); ++k) {
    StaticCrit& sc = db_[pcs_[k]];
    ++sc.dynamic;
    sc.critical += p.critical[k];
  }
  for (int e = 0; e < kNumEdges; ++e) {
    edge_count_[e] += p.edge_count[e];
    edge_cycles_[e] += p.edge_cycles[e];
  }
  mem_edges_ += p.mem_edges;
  mem_cycles_ += p.mem_cycles;
  ++tracelets_;
  insns_ += timed_.size();
  cycles_ += model_.cycles();
  path_cycles_ += p.length;
  last_path_ = std::move(p);
  last_timed_.swap(timed_);
  timed_.clear();
  pcs_.clear();
  model_.reset();
}

// ================================================================ intervals

IntervalRule::IntervalRule(uint64_t n) : n_(n), boundary_(n) {
  if (n == 0) throw std::invalid_argument("interval length must be at least 1");
}

bool IntervalRule::add(uint64_t insns) {
  count_ += insns;
  if (count_ < boundary_) return false;
  boundary_ += n_;
  return true;
}

// ================================================================ instruction stream

const char* to_string(Skip s) {
  static const char* const n[] = {"segment_start", "unmapped", "undecodable", "mismatch"};
  return n[static_cast<int>(s)];
}

const InsnStream::Block& InsnStream::block(uint64_t start) {
  auto it = cache_.find(start);
  if (it != cache_.end()) return it->second;
  Block b;
  uint64_t a = start;
  for (;;) {
    size_t n = 0;
    const uint8_t* p = code_.bytes(a, n);
    if (!p) {
      b.why = Skip::Unmapped;
      break;
    }
    const StaticInsn* s = dec_.decode(a, p, n);
    if (!s) {
      b.why = Skip::Undecodable;
      break;
    }
    b.insns.push_back(s);
    if (s->is_cf) {
      b.ok = true;
      break;
    }
    if (b.insns.size() > (size_t{1} << 22)) {  // no branch in 4 M instructions: not what any record says
      b.why = Skip::Mismatch;
      break;
    }
    a += s->len;
  }
  if (!b.ok) b.insns.clear();
  return cache_.emplace(start, std::move(b)).first->second;
}

const std::vector<const StaticInsn*>* InsnStream::next(const Record& r, Skip& why) {
  if (!r.is_branch()) return nullptr;
  const bool had = have_prev_;
  const uint64_t start = prev_next_;
  have_prev_ = true;
  prev_next_ = r.next();
  Skip w = Skip::SegmentStart;
  if (had) {
    const Block& b = block(start);
    if (!b.ok)
      w = b.why;
    else if (b.insns.back()->pc != r.pc || b.insns.size() != r.insns || b.insns.back()->kind != r.kind)
      w = Skip::Mismatch;
    else
      return &b.insns;
  }
  ++skip_records_[static_cast<int>(w)];
  skip_insns_[static_cast<int>(w)] += r.insns;
  why = w;
  return nullptr;
}

// ================================================================ whole run

CritRun run_critpath(const std::string& trace_path, InsnStream& in, CritAnalyzer& an, TimingModel& stream,
                     const CritOptions& o, uint64_t interval, const std::vector<uint64_t>& segments,
                     const std::function<void(uint64_t)>& progress,
                     const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>* aliases) {
  CritRun run;
  IntervalRule rule(interval ? interval : 1);
  std::mt19937_64 srng = tracelet_rng(o.seed, std::numeric_limits<uint64_t>::max());
  size_t seg = 0;
  uint64_t seg_end = segments.empty() ? UINT64_MAX : segments[0];
  uint64_t prev_cycles = 0, in_interval = 0, n = 0;
  uint64_t seg_off = 0;  // instructions of the current segment before this record (alias offsets)
  size_t alias_at = 0;
  uint64_t valid_from = 0;  // stores at lower offsets were not modelled
  trace::for_each(trace_path, [&](const Record& r) {
    if ((++n & 0xffff) == 0 && progress) progress(n);
    if (!r.is_branch()) return;
    while (run.records == seg_end && seg < segments.size()) {  // a new tracelet of a fabricated trace
      in.restart();
      an.flush();
      seg_end = ++seg < segments.size() ? seg_end + segments[seg] : UINT64_MAX;
      seg_off = 0;
      alias_at = 0;
      valid_from = 0;
    }
    ++run.records;
    run.instructions += r.insns;
    Skip why;
    const std::vector<std::pair<uint32_t, uint32_t>>* al =
        aliases && seg < aliases->size() ? &(*aliases)[seg] : nullptr;
    if (const auto* v = in.next(r, why)) {
      uint64_t off = seg_off;
      for (const StaticInsn* s : *v) {
        uint64_t dist = 0;
        if (al) {
          while (alias_at < al->size() && (*al)[alias_at].first < off) ++alias_at;
          if (alias_at < al->size() && (*al)[alias_at].first == off && (*al)[alias_at].second >= valid_from)
            dist = off - (*al)[alias_at].second;
        }
        ++off;
        an.add(*s, dist);
        const bool mp = s->is_cf && draw(srng, o.rates.mispredict_rate(*s));
        const bool miss = s->load && draw(srng, o.rates.miss_rate);
        stream.step(*s, mp, miss, dist);
      }
      run.modelled += v->size();
      in_interval += v->size();
    }
    else
      valid_from = seg_off + r.insns;  // a skipped block: no store before it is in the models
    seg_off += r.insns;
    if (interval) {
      if (rule.add(r.insns)) {
        const uint64_t cyc = stream.cycles() - prev_cycles;
        prev_cycles = stream.cycles();
        run.interval_cpi.push_back(in_interval ? double(cyc) / double(in_interval)
                                               : std::numeric_limits<double>::quiet_NaN());
        in_interval = 0;
        run.tail_insns = 0;
      } else {
        run.tail_insns += r.insns;
      }
    }
  });
  an.flush();
  run.stream_cycles = stream.cycles();
  return run;
}

}  // namespace hwprof::analyses
