// An independent second implementation of the path-stack rules, written
// from docs/path_stack.md ("Classes", "PPCR", "The algorithm", "Emitted
// descriptor") without PathStackAlgo's code, compared record by record with
// the functional model on every shipped trace and on seeded random streams.
//
// The reference classifies BranchRecord fields itself, decodes the raw PPCR
// word itself and keeps its stack in a std::deque whose front is the top of
// stack (the RTL's shift-register view). It also builds a path profile keyed
// by (start, length, dirs) with count/insns/events sums and counts of
// incomplete, split and overflow, which is compared with the profile of the
// model's emissions.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "branch_record.h"
#include "path_stack_algo.h"
#include "trace_source.h"

#ifndef HWPROF_TRACE_DIR
#error "HWPROF_TRACE_DIR must point at tests/traces"
#endif

namespace {

using hwprof::model::BranchRecord;

// ------------------------------------------------------------ reference

namespace ref {

// class codes (docs/path_stack.md "Classes")
constexpr int FWD = 0, BACK = 1, CALL = 2, RETN = 3, IND = 4;

int class_of(const BranchRecord& b) {
  // trace::Kind codes: br 0, jmp 1, ijmp 2, call 3, icall 4, ret 5
  if (b.kind == 3 || b.kind == 4) return CALL;
  if (b.kind == 5) return RETN;
  if (b.kind == 2) return IND;
  const bool back_edge = b.taken && b.target <= b.pc;  // both uint32_t: unsigned AddrW compare
  return back_edge ? BACK : FWD;
}

uint32_t next_of(const BranchRecord& b) {
  if (b.taken) return b.target;
  return static_cast<uint32_t>((uint64_t{b.pc} + b.ilen) & 0xffffffffu);
}

struct Frame {
  uint32_t start = 0;
  unsigned len = 0;
  uint32_t dirs = 0;
  uint32_t events = 0;  // 16 b saturating
  uint32_t insns = 0;   // 24 b saturating
  unsigned ext = 0;
  bool incomplete = false;
};

struct Out {
  Frame f;
  bool split = false;
  bool frame_end = false;
  unsigned depth = 0;
};

struct Counters {
  uint64_t records = 0, emitted = 0, incomplete = 0, splits = 0, overflows = 0, empty_pops = 0;
};

uint32_t add_sat(uint32_t a, uint32_t b, uint32_t max) { return a + b > max ? max : a + b; }

class Stack {
 public:
  Stack(uint32_t ppcr, unsigned depth, unsigned maxlen) : ppcr_(ppcr), depth_(depth), maxlen_(maxlen) {}

  /// One record; returns true and fills `o` when it emits.
  bool step(const BranchRecord& b, Out& o) {
    ++c_.records;
    const int cls = class_of(b);
    const unsigned field = (ppcr_ >> (cls * 4)) & 0xfu;
    bool do_update = field & 1u, do_count = field & 2u, do_pop = field & 4u, do_push = field & 8u;
    const bool ext_loops = (ppcr_ >> 20) & 1u;
    const unsigned max_ext = (ppcr_ >> 21) & 3u;
    const uint32_t nxt = next_of(b);

    // 1. loop extension (an empty stack counts as ext = 0)
    const unsigned top_ext = frames_.empty() ? 0u : frames_.front().ext;
    const bool extending = cls == BACK && ext_loops && top_ext < max_ext;
    if (extending) {
      do_update = true;
      do_count = false;
      do_pop = false;
      do_push = false;
    }
    // 2. missing top of stack
    if ((do_update || do_count) && frames_.empty()) {
      Frame f;
      f.start = b.pc;
      f.incomplete = true;
      frames_.push_front(f);
    }
    bool emitted = false;
    // 3. update / update-count
    if (do_update) {
      Frame& t = frames_.front();
      if (b.taken) t.dirs |= uint32_t{1} << t.len;
      t.len += 1;
      t.events = add_sat(t.events, b.events, 0xffffu);
      t.insns = add_sat(t.insns, b.insns, 0xffffffu);
      if (extending) t.ext += 1;
      if (t.len == maxlen_ && !do_pop) {
        o = Out{t, true, false, static_cast<unsigned>(frames_.size())};
        emitted = true;
        Frame fresh;
        fresh.start = nxt;
        t = fresh;
      }
    } else if (do_count) {
      Frame& t = frames_.front();
      t.events = add_sat(t.events, b.events, 0xffffu);
      t.insns = add_sat(t.insns, b.insns, 0xffffffu);
    }
    // 4. pop
    if (do_pop) {
      if (frames_.empty()) {
        ++c_.empty_pops;
      } else {
        o = Out{frames_.front(), false, !do_push, static_cast<unsigned>(frames_.size())};
        emitted = true;
        frames_.pop_front();
      }
    }
    // 5. push
    if (do_push) {
      if (frames_.size() == depth_) {
        frames_.pop_back();
        ++c_.overflows;
      }
      Frame f;
      f.start = nxt;
      frames_.push_front(f);
    }
    if (emitted) {
      ++c_.emitted;
      c_.incomplete += o.f.incomplete;
      c_.splits += o.split;
    }
    return emitted;
  }

  const std::deque<Frame>& frames() const { return frames_; }
  const Counters& counters() const { return c_; }

 private:
  uint32_t ppcr_;
  unsigned depth_, maxlen_;
  std::deque<Frame> frames_;  // front = top of stack
  Counters c_;
};

/// Path profile of complete descriptors (incomplete ones only counted).
struct Profile {
  struct Sums {
    uint64_t count = 0, insns = 0, events = 0;
    bool operator==(const Sums& o) const { return count == o.count && insns == o.insns && events == o.events; }
  };
  std::map<std::tuple<uint32_t, unsigned, uint32_t>, Sums> paths;
  uint64_t incomplete = 0, split = 0, overflow = 0;

  void add(uint32_t start, unsigned len, uint32_t dirs, uint32_t insns, uint32_t events, bool inc, bool split_) {
    if (split_) ++split;
    if (inc) {
      ++incomplete;
      return;
    }
    Sums& s = paths[{start, len, dirs}];
    ++s.count;
    s.insns += insns;
    s.events += events;
  }
  bool operator==(const Profile& o) const {
    return paths == o.paths && incomplete == o.incomplete && split == o.split && overflow == o.overflow;
  }
};

}  // namespace ref

// ------------------------------------------------------------ comparison

std::string out_str(const ref::Out& o) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "start=%x len=%u dirs=%x events=%u insns=%u ext=%u%s%s%s depth=%u", o.f.start,
                o.f.len, o.f.dirs, o.f.events, o.f.insns, o.f.ext, o.f.incomplete ? " incomplete" : "",
                o.split ? " split" : "", o.frame_end ? " frame_end" : "", o.depth);
  return buf;
}

bool same_entry(const ref::Frame& r, const hwprof::model::PathEntry& m) {
  return r.start == m.start && r.len == m.length && r.dirs == m.dirs && r.events == m.events &&
         r.insns == m.insns && r.ext == m.ext && r.incomplete == m.incomplete;
}

bool same(const ref::Out& r, const hwprof::model::Emission& m) {
  return same_entry(r.f, m.path) && r.split == m.split && r.frame_end == m.frame_end && r.depth == m.depth;
}

struct Config {
  std::string name;
  uint32_t ppcr;
  unsigned depth;
  unsigned maxlen;
};

std::string cfg_str(const Config& c) {
  char buf[120];
  std::snprintf(buf, sizeof buf, "%s ppcr=%08x depth=%u maxlen=%u", c.name.c_str(), c.ppcr, c.depth, c.maxlen);
  return buf;
}

/// Runs `recs` through the reference and the model; returns an empty string
/// when every record's emission (all fields), the counters, the final stack
/// and the profiles agree, else a description of the first difference.
std::string compare(const std::vector<BranchRecord>& recs, const Config& cfg, ref::Counters* counters_out) {
  ref::Stack rs(cfg.ppcr, cfg.depth, cfg.maxlen);
  hwprof::model::PathStackAlgo ms(cfg.depth, cfg.maxlen);
  hwprof::model::Ppcr ppcr;
  ppcr.value = cfg.ppcr;
  ref::Profile rp, mp;
  ref::Out ro;
  struct Report {  // hands the reference's counters back however compare() returns
    const ref::Stack& rs;
    ref::Counters* out;
    ~Report() { *out = rs.counters(); }
  } report{rs, counters_out};
  for (size_t i = 0; i < recs.size(); ++i) {
    const BranchRecord& b = recs[i];
    const bool r_emit = rs.step(b, ro);
    const auto m = ms.process(hwprof::model::PathRecord::classify(b, ppcr));
    if (r_emit != m.has_value() || (r_emit && !same(ro, *m))) {
      std::ostringstream s;
      s << cfg_str(cfg) << ": record " << i << " (" << b.str() << ", class " << ref::class_of(b)
        << "): reference " << (r_emit ? out_str(ro) : "(none)") << ", model " << (m ? m->str() : "(none)")
        << "\n  preceding records:";
      for (size_t j = i >= 8 ? i - 8 : 0; j < i; ++j) s << "\n    " << j << ": " << recs[j].str();
      return s.str();
    }
    if (r_emit) {
      rp.add(ro.f.start, ro.f.len, ro.f.dirs, ro.f.insns, ro.f.events, ro.f.incomplete, ro.split);
      mp.add(m->path.start, m->path.length, m->path.dirs, m->path.insns, m->path.events, m->path.incomplete,
             m->split);
    }
  }
  const ref::Counters& rc = rs.counters();
  const hwprof::model::PathStackStats& mc = ms.stats();
  rp.overflow = rc.overflows;
  mp.overflow = mc.overflows;
  std::ostringstream s;
  if (rc.records != mc.records || rc.emitted != mc.emitted || rc.incomplete != mc.incomplete ||
      rc.splits != mc.splits || rc.overflows != mc.overflows || rc.empty_pops != mc.empty_pops) {
    s << cfg_str(cfg) << ": counters differ: reference records/emitted/incomplete/splits/overflows/empty_pops "
      << rc.records << "/" << rc.emitted << "/" << rc.incomplete << "/" << rc.splits << "/" << rc.overflows << "/"
      << rc.empty_pops << ", model " << mc.records << "/" << mc.emitted << "/" << mc.incomplete << "/"
      << mc.splits << "/" << mc.overflows << "/" << mc.empty_pops;
    return s.str();
  }
  if (rs.frames().size() != ms.occupancy()) {
    s << cfg_str(cfg) << ": final occupancy reference " << rs.frames().size() << ", model " << ms.occupancy();
    return s.str();
  }
  for (unsigned i = 0; i < ms.occupancy(); ++i)
    if (!same_entry(rs.frames()[i], ms.entry(i))) {
      s << cfg_str(cfg) << ": final stack entry " << i << " differs";
      return s.str();
    }
  if (!(rp == mp)) {
    s << cfg_str(cfg) << ": profiles differ (" << rp.paths.size() << " vs " << mp.paths.size() << " paths)";
    return s.str();
  }
  return {};
}

std::vector<std::string> shipped_traces() {
  std::vector<std::string> v;
  for (const auto& e : std::filesystem::directory_iterator(HWPROF_TRACE_DIR)) {
    const std::string p = e.path().string();
    const std::string suffix = ".hwpt.zst";
    if (e.is_regular_file() && p.size() > suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0)
      v.push_back(p);
  }
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<BranchRecord> load(const std::string& path) {
  std::vector<BranchRecord> v;
  auto src = hwprof::trace::branch_source(path);
  BranchRecord b;
  while (src(b)) v.push_back(b);
  return v;
}

// ------------------------------------------------------- random streams

uint32_t legal_random_ppcr(std::mt19937_64& rng) {
  uint32_t v = 0;
  for (int c = 0; c < 5; ++c) {
    unsigned nib;
    do nib = static_cast<unsigned>(rng() & 0xf);
    while ((nib & 3u) == 3u);
    v |= nib << (4 * c);
  }
  v |= static_cast<uint32_t>(rng() & 7u) << 20;      // ext_loops, max_ext
  if (rng() % 4 == 0) v |= static_cast<uint32_t>(rng()) & 0xff800000u;  // reserved bits are ignored
  return v;
}

/// A random but program-like stream: routines with forward branches, loops,
/// calls and returns (matched while the simulated call stack lasts, then
/// returns into lost frames), indirect jumps, deep call chains, runs of
/// returns, saturating counts and addresses around the 32-bit wrap.
std::vector<BranchRecord> random_stream(std::mt19937_64& rng, size_t n) {
  std::vector<BranchRecord> v;
  v.reserve(n + 64);
  std::vector<uint32_t> callers;  // return addresses
  auto rnd = [&](uint64_t k) { return static_cast<uint32_t>(rng() % k); };
  auto func_base = [&] { return rnd(4) == 0 ? 0xffffff00u : 0x1000u * (1 + rnd(12)); };
  uint32_t base = func_base();
  uint32_t pc = base;
  auto counts = [&](BranchRecord& b) {
    const uint32_t r = rnd(100);
    b.insns = static_cast<uint16_t>(r < 3 ? 0xffff : 1 + rnd(20));
    b.events = static_cast<uint8_t>(r < 3 ? 0xff : (rnd(3) == 0 ? rnd(4) : 0));
  };
  auto emit = [&](uint8_t kind, uint32_t at, uint32_t target, bool taken, uint8_t ilen) {
    BranchRecord b{kind, at, target, taken, ilen, 1, 0};
    counts(b);
    v.push_back(b);
    pc = b.next();
  };
  auto do_call = [&] {
    const uint32_t at = pc + 4 * rnd(8);
    const uint8_t ilen = static_cast<uint8_t>(rnd(2) ? 5 : 2);
    callers.push_back(at + ilen);
    base = func_base();
    emit(static_cast<uint8_t>(rnd(4) == 0 ? 4 : 3), at, base, true, ilen);
  };
  auto do_ret = [&] {
    const uint32_t to = callers.empty() ? 0x1000u * (1 + rnd(12)) + 4 * rnd(64) : callers.back();
    if (!callers.empty()) callers.pop_back();
    emit(5, pc + 4 * rnd(8), to, true, 1);
  };
  while (v.size() < n) {
    const uint32_t a = rnd(1000);
    const uint8_t ilen = static_cast<uint8_t>(1 + rnd(15));
    if (a < 330) {  // forward br, taken or not
      const uint32_t at = pc + 2 * rnd(16);
      emit(0, at, at + 1 + rnd(64), rnd(2) == 0, ilen);
    } else if (a < 400) {  // not-taken br with a backward target (forward class)
      const uint32_t at = pc + 2 * rnd(16);
      emit(0, at, at - rnd(64), false, ilen);
    } else if (a < 520) {  // back edge: br or jmp, target <= pc (== pc sometimes)
      const uint32_t at = pc + 2 * rnd(32);
      const uint32_t tgt = rnd(8) == 0 ? at : at - 1 - rnd(64);
      emit(static_cast<uint8_t>(rnd(3) == 0 ? 1 : 0), at, tgt, true, ilen);
    } else if (a < 570) {  // forward jmp
      const uint32_t at = pc + 2 * rnd(16);
      emit(1, at, at + 1 + rnd(64), true, ilen);
    } else if (a < 620) {  // ijmp anywhere
      emit(2, pc + 2 * rnd(16), rnd(2) ? pc + rnd(256) : pc - rnd(256), true, ilen);
    } else if (a < 780) {
      do_call();
    } else if (a < 950) {
      do_ret();
    } else if (a < 965) {  // deep call chain with a little work in each frame
      const uint32_t k = 5 + rnd(40);
      for (uint32_t i = 0; i < k; ++i) {
        do_call();
        if (rnd(2)) emit(0, pc + 4, pc + 0x10, rnd(2) == 0, 2);
      }
    } else if (a < 985) {  // run of returns, possibly beyond every frame
      const uint32_t k = 2 + rnd(30);
      for (uint32_t i = 0; i < k; ++i) {
        do_ret();
        if (rnd(3) == 0) emit(0, pc + 2, pc + 0x20, rnd(2) == 0, 2);
      }
    } else if (a < 990) {  // saturation burst: call/ret pairs with maximal counts
      const uint32_t k = 200 + rnd(200);
      const uint32_t at = pc + 8;
      for (uint32_t i = 0; i < k; ++i) {
        v.push_back(BranchRecord{3, at, 0x9000, true, 5, 0xffff, 0xff});
        v.push_back(BranchRecord{5, 0x9010, at + 5, true, 1, 0xffff, 0xff});
      }
      pc = at + 5;
    } else {  // a long forward run (splits) in the current routine
      const uint32_t k = 20 + rnd(60);
      for (uint32_t i = 0; i < k; ++i) emit(0, pc + 2, pc + 8, rnd(2) == 0, 2);
    }
  }
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(path_stack_reference)

// The reference itself, on the worked example of docs/path_stack.md (BL),
// checked by hand, so that agreement with the model means something.
BOOST_AUTO_TEST_CASE(ReferenceReproducesTheDocWorkedExample) {
  ref::Stack s(0x000D6AD1, 16, 32);
  ref::Out o;
  const BranchRecord call{3, 0x50, 0x100, true, 5, 1, 0};
  const BranchRecord b1{0, 0x104, 0x120, false, 2, 1, 0};
  const BranchRecord b2{0, 0x124, 0x110, true, 2, 1, 0};
  const BranchRecord b3{0, 0x124, 0x110, false, 2, 1, 0};
  const BranchRecord ret{5, 0x130, 0x55, true, 1, 1, 0};
  BOOST_CHECK(!s.step(call, o));
  BOOST_CHECK_EQUAL(s.frames().size(), 2u);
  BOOST_CHECK(s.frames()[1].incomplete);
  BOOST_CHECK_EQUAL(s.frames()[1].start, 0x50u);
  BOOST_CHECK(!s.step(b1, o));
  BOOST_REQUIRE(s.step(b2, o));
  BOOST_CHECK_EQUAL(out_str(o), "start=100 len=2 dirs=2 events=0 insns=2 ext=0 depth=2");
  BOOST_CHECK(!s.step(b3, o));
  BOOST_REQUIRE(s.step(ret, o));
  BOOST_CHECK_EQUAL(out_str(o), "start=110 len=1 dirs=0 events=0 insns=2 ext=0 frame_end depth=2");
  BOOST_CHECK_EQUAL(s.frames().size(), 1u);
  BOOST_CHECK_EQUAL(s.counters().emitted, 2u);
}

BOOST_AUTO_TEST_CASE(MatchesTheModelOnEveryShippedTrace) {
  const auto traces = shipped_traces();
  BOOST_REQUIRE_MESSAGE(traces.size() >= 4, "expected the shipped traces in " HWPROF_TRACE_DIR);
  const Config configs[] = {
      {"bl", 0x000D6AD1, 16, 32},       {"wpp", 0x000DEED1, 16, 32},     {"ext1", 0x003D6AD1, 16, 32},
      {"ext3", 0x007D6AD1, 16, 32},     {"bl", 0x000D6AD1, 4, 8},        {"wpp", 0x000DEED1, 4, 8},
      {"ext1", 0x003D6AD1, 4, 8},       {"ext3", 0x007D6AD1, 4, 8},
  };
  for (const std::string& path : traces) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto recs = load(path);
    BOOST_REQUIRE_MESSAGE(recs.size() > 100000, path << ": only " << recs.size() << " records");
    for (const Config& c : configs) {
      ref::Counters k;
      const std::string diff = compare(recs, c, &k);
      BOOST_CHECK_MESSAGE(diff.empty(), path << ": " << diff);
      BOOST_CHECK_MESSAGE(k.emitted > 0, path << ": " << cfg_str(c) << " emitted nothing");
      BOOST_TEST_MESSAGE(path << " " << cfg_str(c) << ": " << recs.size() << " records, " << k.emitted
                              << " emitted, " << k.incomplete << " incomplete, " << k.splits << " splits, "
                              << k.overflows << " overflows");
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    BOOST_TEST_MESSAGE(path << ": " << recs.size() << " records, " << std::size(configs) << " configs in " << s
                            << " s");
  }
}

BOOST_AUTO_TEST_CASE(MatchesTheModelOnRandomStreams) {
  const unsigned depths[] = {1, 2, 4, 16};
  const unsigned maxlens[] = {1, 3, 8, 32};
  ref::Counters sum;
  for (unsigned seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    Config c;
    switch (seed % 6) {
      case 0: c = {"bl", 0x000D6AD1, 0, 0}; break;
      case 1: c = {"wpp", 0x000DEED1, 0, 0}; break;
      case 2: c = {"ext1", 0x003D6AD1, 0, 0}; break;
      case 3: c = {"ext3", 0x007D6AD1, 0, 0}; break;
      case 4: c = {"ext2", 0x005D6AD1, 0, 0}; break;
      default: c = {"custom", legal_random_ppcr(rng), 0, 0}; break;
    }
    c.depth = depths[(seed / 6) % 4];
    c.maxlen = maxlens[(seed / 24) % 4];
    c.name += " seed " + std::to_string(seed);
    const auto recs = random_stream(rng, 2000);
    ref::Counters k;
    const std::string diff = compare(recs, c, &k);
    BOOST_CHECK_MESSAGE(diff.empty(), diff);
    sum.records += k.records;
    sum.emitted += k.emitted;
    sum.incomplete += k.incomplete;
    sum.splits += k.splits;
    sum.overflows += k.overflows;
    sum.empty_pops += k.empty_pops;
  }
  // the streams did exercise every kind of event
  BOOST_CHECK_GE(sum.records, 400000u);
  BOOST_CHECK_GT(sum.emitted, 100000u);
  BOOST_CHECK_GT(sum.incomplete, 1000u);
  BOOST_CHECK_GT(sum.splits, 1000u);
  BOOST_CHECK_GT(sum.overflows, 1000u);
  BOOST_CHECK_GT(sum.empty_pops, 100u);
  BOOST_TEST_MESSAGE("random streams: " << sum.records << " records, " << sum.emitted << " emitted, "
                                        << sum.incomplete << " incomplete, " << sum.splits << " splits, "
                                        << sum.overflows << " overflows, " << sum.empty_pops << " empty pops");
}

BOOST_AUTO_TEST_SUITE_END()
