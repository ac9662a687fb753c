#include "path_stack_algo.h"

#include "prim.h"

#include <fmt/core.h>

#include <stdexcept>

namespace hwprof::model {

bool Ppcr::legal(uint32_t v) {
  for (int c = 0; c < kNumClasses; ++c) {
    const PathOps o = PathOps::from_bits(v >> (kOpsW * c) & 0xf);
    if (o.upd && o.updc) return false;
  }
  return true;
}

uint32_t Ppcr::preset(const std::string& mode, unsigned max_ext) {
  if (mode == "bl") return kBl;
  if (mode == "wpp") return kWpp;
  if (mode == "ext") {
    if (max_ext > kMaxExtMax) throw std::invalid_argument("max_ext must be 0..3 (a 2-bit PPCR field), got " +
                                                 std::to_string(max_ext));
    return ext(max_ext);
  }
  throw std::invalid_argument("unknown path mode '" + mode + "' (bl, wpp, ext)");
}

PathRecord PathRecord::classify(const BranchRecord& r, const Ppcr& ppcr) {
  PathRecord p;
  p.cls = model::classify(r);
  p.ops = ppcr.ops(p.cls);
  p.ext_try = p.cls == BranchClass::Backward && ppcr.ext_loops();
  p.max_ext = static_cast<uint8_t>(ppcr.max_ext());
  p.pc = r.pc;
  p.next = r.next();
  p.taken = r.taken;
  p.insns = r.insns;
  p.events = r.events;
  return p;
}

// Bit layout of hwprof_pkg::path_rec_t (MSB first): cls 98:96, ops 95:92
// (push pop updc upd), ext_try 91, max_ext 90:89, pc 88:57, next 56:25,
// taken 24, insns 23:8, events 7:0.
namespace {
void put(std::array<uint32_t, 4>& w, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; ++i)
    if (v >> i & 1) w[(lsb + i) / 32] |= 1u << ((lsb + i) % 32);
}
uint64_t get(const std::array<uint32_t, 4>& w, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) v |= uint64_t{w[(lsb + i) / 32] >> ((lsb + i) % 32) & 1} << i;
  return v;
}
}  // namespace

std::array<uint32_t, 4> PathRecord::pack() const {
  std::array<uint32_t, 4> w{};
  put(w, 0, 8, events);
  put(w, 8, 16, insns);
  put(w, 24, 1, taken);
  put(w, 25, 32, next);
  put(w, 57, 32, pc);
  put(w, 89, 2, max_ext);
  put(w, 91, 1, ext_try);
  put(w, 92, 4, ops.bits());
  put(w, 96, 3, static_cast<unsigned>(cls));
  return w;
}

PathRecord PathRecord::unpack(const std::array<uint32_t, 4>& w) {
  PathRecord p;
  p.events = static_cast<uint8_t>(get(w, 0, 8));
  p.insns = static_cast<uint16_t>(get(w, 8, 16));
  p.taken = get(w, 24, 1);
  p.next = static_cast<uint32_t>(get(w, 25, 32));
  p.pc = static_cast<uint32_t>(get(w, 57, 32));
  p.max_ext = static_cast<uint8_t>(get(w, 89, 2));
  p.ext_try = get(w, 91, 1);
  p.ops = PathOps::from_bits(static_cast<unsigned>(get(w, 92, 4)));
  p.cls = static_cast<BranchClass>(get(w, 96, 3));
  return p;
}

std::string PathRecord::str() const {
  return fmt::format("{} ops={}{}{}{} ext_try={} max_ext={} pc={:x} next={:x} taken={} insns={} events={}",
                     class_name(cls), ops.upd ? "U" : "-", ops.updc ? "C" : "-", ops.pop ? "P" : "-",
                     ops.push ? "S" : "-", int(ext_try), int(max_ext), pc, next, int(taken), insns, int(events));
}

bool PathRecord::operator==(const PathRecord& o) const {
  return cls == o.cls && ops == o.ops && ext_try == o.ext_try && max_ext == o.max_ext && pc == o.pc &&
         next == o.next && taken == o.taken && insns == o.insns && events == o.events;
}

std::string Emission::str() const {
  return fmt::format("start={:x} len={} dirs={:x} events={} insns={} ext={}{}{}{} depth={}", path.start, path.length,
                     path.dirs, path.events, path.insns, int(path.ext), path.incomplete ? " incomplete" : "",
                     split ? " split" : "", frame_end ? " frame_end" : "", depth);
}

PathStackAlgo::PathStackAlgo(unsigned depth, unsigned max_len) : depth_(depth), max_len_(max_len) {
  if (depth < 1) throw std::invalid_argument("path stack depth must be >= 1");
  if (max_len < 1 || max_len > kMaxMaxLen)
    throw std::invalid_argument("path MaxLen must be 1..32, got " + std::to_string(max_len));
  stack_.reserve(depth);
}

void PathStackAlgo::reset() {
  stack_.clear();
  stats_ = {};
  last_ops_ = {};
}

void PathStackAlgo::push_entry(const PathEntry& e) {
  if (stack_.size() == depth_) {
    stack_.erase(stack_.begin());  // the bottom entry falls off
    ++stats_.overflows;
  }
  stack_.push_back(e);
}

std::optional<Emission> PathStackAlgo::process(const PathRecord& r) {
  ++stats_.records;
  PathOps ops = r.ops;
  // 1. Loop extension: update only while the top entry may still extend.
  const unsigned tos_ext = stack_.empty() ? 0 : stack_.back().ext;
  const bool extend = r.ext_try && tos_ext < r.max_ext;
  if (extend) ops = {true, false, false, false};
  last_ops_ = ops;

  std::optional<Emission> out;
  // 2. Missing top of stack.
  if ((ops.upd || ops.updc) && stack_.empty()) {
    PathEntry e;
    e.start = r.pc;
    e.incomplete = true;
    stack_.push_back(e);
  }
  // 3. update / update-count.
  if (ops.upd || ops.updc) {
    PathEntry& t = stack_.back();
    t.events = static_cast<uint16_t>(sat_add(kDescEventsW, t.events, r.events));
    t.insns = static_cast<uint32_t>(sat_add(kDescInsnsW, t.insns, r.insns));
    if (ops.upd) {
      if (r.taken) t.dirs |= 1u << t.length;
      ++t.length;
      if (extend) ++t.ext;
      if (t.length == max_len_ && !ops.pop) {
        out = Emission{t, true, false, occupancy()};
        t = PathEntry{};
        t.start = r.next;
      }
    }
  }
  // 4. pop.
  if (ops.pop) {
    if (stack_.empty()) {
      ++stats_.empty_pops;
    } else {
      out = Emission{stack_.back(), false, !ops.push, occupancy()};
      stack_.pop_back();
    }
  }
  // 5. push.
  if (ops.push) {
    PathEntry e;
    e.start = r.next;
    push_entry(e);
  }
  if (out) {
    ++stats_.emitted;
    if (out->path.incomplete) ++stats_.incomplete;
    if (out->split) ++stats_.splits;
  }
  return out;
}

}  // namespace hwprof::model
