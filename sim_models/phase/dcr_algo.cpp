#include "dcr_algo.h"

#include <stdexcept>

namespace hwprof::model {

namespace {
uint32_t rotl(uint32_t x, unsigned s) { return (x << s) | (x >> (32 - s)); }
}  // namespace

// ------------------------------------------------------------------ stack

DcrStack::DcrStack(unsigned depth) : depth_(depth) {
  if (depth < 1 || depth > 255) throw std::invalid_argument("dcr: stack depth must be 1..255");
  st_.reserve(depth);
}

uint32_t DcrStack::hash_step(uint32_t h, DcrKind k, uint32_t a, uint32_t b) {
  return (rotl(h, 5) ^ a) + (rotl(b, 16) ^ (k == DcrKind::Loop ? kLoopSalt : kFuncSalt));
}

void DcrStack::push(DcrKind k, uint32_t a, uint32_t b, uint8_t ilen) {
  DcrEntry e;
  e.kind = k;
  e.a = a;
  e.b = b;
  e.ilen = ilen;
  e.stable = false;  // pushed entries start unstable
  e.recursion = false;
  e.hash = hash_step(st_.empty() ? kEmptyHash : st_.back().hash, k, a, b);
  st_.push_back(e);
}

DcrStackOp DcrStack::process(const BranchRecord& r) {
  DcrStackOp op;
  const BranchClass cls = classify(r);
  const unsigned n0 = size();
  if (cls == BranchClass::Call) {
    // Recursion: the deepest function entry whose b is the call's target.
    for (unsigned i = 0; i < n0; ++i) {
      if (st_[i].kind == DcrKind::Func && st_[i].b == r.target) {
        st_[i].recursion = true;
        skip_ = true;
        op.recursion = true;
        return op;
      }
    }
    if (skip_) return op;  // no push while skipping
    if (n0 == depth_) {
      skip_ = true;
      ovf_ = true;
      op.overflow = true;
      return op;
    }
    push(DcrKind::Func, r.pc, r.target, r.ilen);
    op.pushes = 1;
    return op;
  }
  if (cls == BranchClass::Return) {
    unsigned n1 = n0;
    if (skip_) {
      // Match against the function entries at or below the lowest entry with
      // its recursion bit set (all entries without one): the topmost whose
      // return address is the return's target; it and everything above go.
      unsigned limit = n0;  // exclusive
      for (unsigned i = 0; i < n0; ++i)
        if (st_[i].recursion) {
          limit = i + 1;
          break;
        }
      for (unsigned i = limit; i-- > 0;) {
        if (st_[i].kind == DcrKind::Func && st_[i].ret() == r.target) {
          n1 = i;
          skip_ = false;
          op.resync = true;
          break;
        }
      }
    } else {
      // Pop the loops above the top function entry, then the entry itself
      // (everything when no function entry is on the stack).
      n1 = 0;
      for (unsigned i = n0; i-- > 0;)
        if (st_[i].kind == DcrKind::Func) {
          n1 = i;
          break;
        }
    }
    st_.resize(n1);
    op.pops = n0 - n1;
    return op;
  }
  // br, jmp, ijmp. The stack is frozen in skip mode.
  if (skip_) return op;
  // Loop exit first: pop loops on top while next lies outside [a, b].
  const uint32_t next = r.next();
  while (!st_.empty() && st_.back().kind == DcrKind::Loop && (next < st_.back().a || next > st_.back().b)) {
    st_.pop_back();
    ++op.pops;
  }
  if (cls == BranchClass::Backward) {
    if (!st_.empty() && st_.back().kind == DcrKind::Loop && st_.back().a == r.target && st_.back().b == r.pc) {
      op.iteration = true;
    } else if (size() == depth_) {
      skip_ = true;
      ovf_ = true;
      op.overflow = true;
    } else {
      push(DcrKind::Loop, r.target, r.pc, 0);
      op.pushes = 1;
    }
  }
  return op;
}

DcrSnapshot DcrStack::snapshot() const {
  DcrSnapshot s;
  while (s.depth < size() && st_[s.depth].stable) ++s.depth;
  s.hash = s.depth == 0 ? kEmptyHash : st_[s.depth - 1].hash;
  for (const auto& e : st_) s.recursion = s.recursion || e.recursion;
  s.overflow = ovf_;
  s.skip = skip_;
  return s;
}

void DcrStack::start_interval() {
  for (auto& e : st_) e.stable = true;
  ovf_ = false;
}

void DcrStack::clear() {
  st_.clear();
  skip_ = false;
  ovf_ = false;
}

// -------------------------------------------------------- signature table

DcrSigTable::DcrSigTable(unsigned entries) : t_(entries) {
  if (entries < 1 || entries > 4096) throw std::invalid_argument("dcr: signature table entries must be 1..4096");
}

DcrLookup DcrSigTable::lookup(uint32_t hash) {
  DcrLookup l;
  const unsigned n = entries();
  unsigned hit = n, invalid = n, lru = n;
  for (unsigned i = 0; i < n; ++i) {
    const DcrSigEntry& e = t_[i];
    if (!e.valid) {
      if (invalid == n) invalid = i;
    } else {
      if (e.hash == hash && hit == n) hit = i;
      if (lru == n || e.stamp < t_[lru].stamp) lru = i;
    }
  }
  if (hit < n) {
    l.hit = true;
    l.slot = hit;
    l.phase = t_[hit].phase;
    t_[hit].stamp = uses_;
  } else {
    l.slot = invalid < n ? invalid : lru;
    l.evicted = invalid == n;
    l.phase = next_id_++;
    t_[l.slot] = DcrSigEntry{true, hash, l.phase, uses_};
  }
  ++uses_;
  return l;
}

void DcrSigTable::clear() {
  for (auto& e : t_) e = DcrSigEntry{};
  next_id_ = 0;
  uses_ = 0;
}

// ------------------------------------------------------------------ algo

DcrAlgo::DcrAlgo(const DcrParams& p)
    : p_(p), stack_(p.depth), table_(p.sig_entries), markov_(p.markov_entries), ic_(p.interval) {
  if (p.interval == 0) throw std::invalid_argument("dcr: the interval must be >= 1 instruction");
}

bool DcrAlgo::record(const BranchRecord& r) {
  apply(r);
  return count(r);
}

void DcrAlgo::apply(const BranchRecord& r) {
  const DcrStackOp op = stack_.process(r);
  ++stats_.records;
  stats_.pushes += op.pushes;
  stats_.pops += op.pops;
  stats_.overflows += op.overflow;
  stats_.recursions += op.recursion;
  stats_.resyncs += op.resync;
}

DcrSnapshot DcrAlgo::close_interval() {
  const DcrSnapshot s = stack_.snapshot();
  stack_.start_interval();
  return s;
}

DcrResult DcrAlgo::classify(const DcrSnapshot& s) {
  namespace f = dcr_flag;
  DcrResult res;
  const DcrLookup l = table_.lookup(s.hash);
  const MarkovResult m = markov_.update(l.phase);
  res.phase = l.phase;
  res.predicted = m.predicted;
  res.sig_depth = static_cast<uint8_t>(s.depth);
  res.sig_hash = s.hash;
  uint8_t fl = 0;
  if (!l.hit) fl |= f::kNew;
  if (l.evicted) fl |= f::kEvict;
  if (!have_prev_ || prev_phase_ != l.phase) fl |= f::kChanged;
  if (s.recursion) fl |= f::kRecursion;
  if (s.overflow) fl |= f::kOverflow;
  if (s.skip) fl |= f::kSkip;
  if (m.scored) fl |= f::kScored;
  if (m.correct) fl |= f::kCorrect;
  res.flags = fl;
  have_prev_ = true;
  prev_phase_ = l.phase;
  ++stats_.intervals;
  stats_.new_phases += !l.hit;
  stats_.evictions += l.evicted;
  stats_.scored += m.scored;
  stats_.correct += m.correct;
  return res;
}

std::optional<DcrResult> DcrAlgo::step(const BranchRecord& r) {
  if (!record(r)) return std::nullopt;
  return classify(close_interval());
}

void DcrAlgo::restart() {
  stack_.clear();
  ic_.restart();
}

void DcrAlgo::clear_table() {
  table_.clear();
  markov_.clear();
  have_prev_ = false;
  prev_phase_ = 0;
}

}  // namespace hwprof::model
