// WaveCompare's implementation, header-only so that every binary that
// includes the harness links without a new source file (the FST API comes
// with the Verilated runtime, verilated_fst_c.cpp). Include only through
// wave_compare.h.
#pragma once

#include <gtkwave/fstapi.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace hwprof::sim {

namespace wave_detail {

inline unsigned bits_of(uint64_t v) {
  unsigned b = 1;
  while (b < 64 && (v >> b) != 0) ++b;
  return b;
}

/// FST-safe name component: letters, digits, '_' and '[' ']' kept.
inline std::string clean(const std::string& s) {
  std::string o;
  for (char c : s) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '[' || c == ']') ? c : '_';
  return o.empty() ? "_" : o;
}

inline std::vector<std::string> split_dots(const std::string& n) {
  std::vector<std::string> v;
  size_t p = 0;
  for (;;) {
    size_t q = n.find('.', p);
    v.push_back(clean(n.substr(p, q == std::string::npos ? q : q - p)));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return v;
}

/// "a.b[3][7:0]" -> "a.b[3]": the name without a trailing bit range.
inline std::string base_name(const std::string& n) {
  if (n.empty() || n.back() != ']') return n;
  const size_t o = n.rfind('[');
  if (o == std::string::npos || n.find(':', o) == std::string::npos) return n;
  return n.substr(0, o);
}

inline std::string bin(uint64_t v, unsigned w) {
  std::string s(w, '0');
  for (unsigned i = 0; i < w; ++i)
    if ((v >> i) & 1) s[w - 1 - i] = '1';
  return s;
}

struct Event {
  uint64_t time;
  fstHandle h;
  unsigned w;
  uint64_t v;
  bool x;
};

struct MergeCtx {
  void* w = nullptr;
  std::vector<fstHandle> map;       // input handle -> output handle
  std::vector<bool> real;           // input handle is a real
  const std::vector<Event>* ev = nullptr;
  size_t next = 0;
  bool have_time = false;
  uint64_t cur = 0;

  void time(uint64_t t) {
    if (!have_time || t != cur) {
      fstWriterEmitTimeChange(w, t);
      cur = t;
      have_time = true;
    }
  }
  void emit(const Event& e) {
    time(e.time);
    const std::string s = e.x ? std::string(e.w, 'x') : bin(e.v, e.w);
    fstWriterEmitValueChange(w, e.h, s.c_str());
  }
  /// Compare events up to and including time t.
  void flush_until(uint64_t t) {
    while (next < ev->size() && (*ev)[next].time <= t) emit((*ev)[next++]);
  }
};

inline void on_value(void* u, uint64_t time, fstHandle h, const unsigned char* val) {
  auto* c = static_cast<MergeCtx*>(u);
  c->flush_until(time);
  c->time(time);
  if (h < c->map.size() && c->map[h]) fstWriterEmitValueChange(c->w, c->map[h], val);
}

inline void on_value_varlen(void* u, uint64_t time, fstHandle h, const unsigned char* val, uint32_t len) {
  auto* c = static_cast<MergeCtx*>(u);
  c->flush_until(time);
  c->time(time);
  if (h < c->map.size() && c->map[h]) fstWriterEmitVariableLengthValueChange(c->w, c->map[h], val, len);
}

/// Scope tree of the comparison variables.
struct Node {
  std::map<std::string, Node> kids;
  std::vector<std::pair<std::string, std::pair<size_t, int>>> vars;  // leaf name -> (field, kind)
};

}  // namespace wave_detail


inline size_t WaveCompare::index_of(const char* name) {
  if (next_guess_ < vars_.size() && vars_[next_guess_].name == name) return next_guess_++;
  std::string n = name;
  auto it = index_.find(n);
  size_t i;
  if (it == index_.end()) {
    i = vars_.size();
    vars_.emplace_back();
    vars_.back().name = n;
    index_.emplace(n, i);
  } else {
    i = it->second;
  }
  next_guess_ = i + 1;
  return i;
}

inline void WaveCompare::begin(uint64_t cycle) {
  cur_ = cycle;
  cur_any_ = false;
  next_guess_ = 0;
  cycles_.push_back(cycle);
}

inline void WaveCompare::field(const char* name, uint64_t e, uint64_t a, bool care) {
  size_t i = index_of(name);
  // The same name twice in one cycle: the second is "<name>_1" and so on.
  for (unsigned k = 1; vars_[i].stamp == cycles_.size(); ++k) {
    const std::string alt = std::string(name) + "_" + std::to_string(k);
    auto it = index_.find(alt);
    if (it == index_.end()) {
      i = vars_.size();
      vars_.emplace_back();
      vars_.back().name = alt;
      index_.emplace(alt, i);
    } else {
      i = it->second;
    }
  }
  vars_[i].stamp = cycles_.size();
  Var& v = vars_[i];
  const bool bad = care && e != a;
  cur_any_ |= bad;
  v.ever_mismatched |= bad;
  if (bad && v.first_bad == UINT64_MAX) v.first_bad = cur_;
  v.width = std::max({v.width, wave_detail::bits_of(e), wave_detail::bits_of(a)});
  if (!v.ch.empty()) {
    const Change& l = v.ch.back();
    if (l.e == e && l.a == a && l.care == care) return;
  }
  v.ch.push_back({cur_, e, a, care});
}

inline void WaveCompare::end() {
  if (any_.empty() || any_.back().second != cur_any_) any_.emplace_back(cur_, cur_any_);
}

inline std::string WaveCompare::signal_name(const std::string& scope, size_t i) const {
  const Var& v = vars_[i];
  std::string s = scope;
  for (const auto& p : wave_detail::split_dots(v.name)) s += "." + p;
  if (scope != "mismatch" && v.width > 1) s += "[" + std::to_string(v.width - 1) + ":0]";
  return s;
}

inline bool WaveCompare::merge(const std::string& in_fst, const std::string& out_fst, std::string* err) const {
  auto fail = [err](const std::string& m) {
    if (err) *err = m;
    return false;
  };
  void* r = fstReaderOpen(in_fst.c_str());
  if (!r) return fail("cannot read " + in_fst);
  void* w = fstWriterCreate(out_fst.c_str(), 1);
  if (!w) {
    fstReaderClose(r);
    return fail("cannot write " + out_fst);
  }
  fstWriterSetPackType(w, FST_WR_PT_LZ4);
  fstWriterSetTimescale(w, fstReaderGetTimescale(r));
  fstWriterSetTimezero(w, fstReaderGetTimezero(r));

  wave_detail::MergeCtx ctx;
  ctx.w = w;
  const uint64_t nvars = fstReaderGetVarCount(r);
  ctx.map.assign(nvars + 2, 0);
  ctx.real.assign(nvars + 2, false);
  // Copy the hierarchy.
  fstReaderIterateHierRewind(r);
  uint64_t in_handle_max = 0;
  std::vector<std::string> path;
  rtl_names_.clear();
  while (fstHier* h = fstReaderIterateHier(r)) {
    switch (h->htyp) {
      case FST_HT_SCOPE:
        fstWriterSetScope(w, static_cast<fstScopeType>(h->u.scope.typ), h->u.scope.name, h->u.scope.component);
        path.push_back(h->u.scope.name);
        break;
      case FST_HT_UPSCOPE:
        fstWriterSetUpscope(w);
        if (!path.empty()) path.pop_back();
        break;
      case FST_HT_VAR: {
        std::string gname;
        for (const auto& p : path) gname += p + ".";
        for (const char* c = h->u.var.name; *c; ++c)
          if (*c != ' ') gname += *c;
        rtl_names_.emplace(wave_detail::base_name(gname), gname);
        const fstHandle ih = h->u.var.handle;
        if (ih >= ctx.map.size()) ctx.map.resize(ih + 1, 0), ctx.real.resize(ih + 1, false);
        const fstHandle alias = h->u.var.is_alias ? ctx.map[ih] : 0;
        const fstHandle oh = fstWriterCreateVar(w, static_cast<fstVarType>(h->u.var.typ),
                                                static_cast<fstVarDir>(h->u.var.direction), h->u.var.length,
                                                h->u.var.name, alias);
        if (!h->u.var.is_alias) ctx.map[ih] = oh;
        in_handle_max = std::max<uint64_t>(in_handle_max, ih);
        break;
      }
      case FST_HT_ATTRBEGIN:
        fstWriterSetAttrBegin(w, static_cast<fstAttrType>(h->u.attr.typ), h->u.attr.subtype, h->u.attr.name,
                              h->u.attr.arg);
        break;
      case FST_HT_ATTREND:
        fstWriterSetAttrEnd(w);
        break;
      default:
        break;
    }
  }

  // The comparison variables: rtl.*, model.*, mismatch.* per field, cmp.*.
  std::vector<std::array<fstHandle, 3>> hv(vars_.size());
  const char* scopes[3] = {"rtl", "model", "mismatch"};
  for (int k = 0; k < 3; ++k) {
    wave_detail::Node root;
    for (size_t i = 0; i < vars_.size(); ++i) {
      auto parts = wave_detail::split_dots(vars_[i].name);
      wave_detail::Node* n = &root;
      for (size_t p = 0; p + 1 < parts.size(); ++p) n = &n->kids[parts[p]];
      n->vars.push_back({parts.back(), {i, k}});
    }
    fstWriterSetScope(w, FST_ST_VCD_MODULE, scopes[k], nullptr);
    std::function<void(const wave_detail::Node&)> emit = [&](const wave_detail::Node& n) {
      for (const auto& v : n.vars) {
        const size_t i = v.second.first;
        const unsigned width = k == 2 ? 1 : vars_[i].width;
        std::string nm = v.first;
        if (width > 1) nm += " [" + std::to_string(width - 1) + ":0]";
        hv[i][k] = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, width, nm.c_str(), 0);
      }
      for (const auto& kv : n.kids) {
        fstWriterSetScope(w, FST_ST_VCD_MODULE, kv.first.c_str(), nullptr);
        emit(kv.second);
        fstWriterSetUpscope(w);
      }
    };
    emit(root);
    fstWriterSetUpscope(w);
  }
  fstWriterSetScope(w, FST_ST_VCD_MODULE, "cmp", nullptr);
  const fstHandle h_any = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, "mismatch", 0);
  const fstHandle h_cycle = fstWriterCreateVar(w, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 32, "cycle [31:0]", 0);
  fstWriterSetUpscope(w);

  // Comparison events, time ordered.
  std::vector<wave_detail::Event> ev;
  for (size_t i = 0; i < vars_.size(); ++i) {
    const Var& v = vars_[i];
    bool last_bad = false, first = true;
    for (const Change& c : v.ch) {
      const uint64_t t = c.cycle * kWaveTicksPerCycle;
      ev.push_back({t, hv[i][0], v.width, c.a, false});
      ev.push_back({t, hv[i][1], v.width, c.e, !c.care});
      const bool bad = c.care && c.e != c.a;
      if (first || bad != last_bad) ev.push_back({t, hv[i][2], 1, bad ? 1u : 0u, false});
      first = false;
      last_bad = bad;
    }
  }
  for (const auto& a : any_) ev.push_back({a.first * kWaveTicksPerCycle, h_any, 1, a.second ? 1u : 0u, false});
  for (uint64_t c : cycles_) ev.push_back({c * kWaveTicksPerCycle, h_cycle, 32, c & 0xffffffffu, false});
  std::stable_sort(ev.begin(), ev.end(), [](const wave_detail::Event& a, const wave_detail::Event& b) { return a.time < b.time; });
  ctx.ev = &ev;

  fstReaderSetFacProcessMaskAll(r);
  fstReaderIterBlocksSetNativeDoublesOnCallback(r, 0);
  fstReaderIterBlocks2(r, wave_detail::on_value, wave_detail::on_value_varlen, &ctx, nullptr);
  ctx.flush_until(UINT64_MAX);
  fstReaderClose(r);
  fstWriterClose(w);
  (void)in_handle_max;
  return true;
}

inline bool WaveCompare::write_gtkw(const std::string& gtkw, const std::string& fst) const {
  std::ofstream o(gtkw);
  if (!o) return false;
  const uint64_t mt = marker_ * kWaveTicksPerCycle;
  const uint64_t first = cycles_.empty() ? 0 : cycles_.front();
  const uint64_t view = has_marker_ ? (marker_ > first + 30 ? marker_ - 30 : first) : first;
  o << "[*] hwprof: lock-step comparison of " << (unit_.empty() ? "the unit" : unit_)
    << " (written by the test harness; docs/debugging.md)\n"
    << "[*] rtl.* = the RTL's outputs as the scoreboard read them, model.* = the model's expected values\n"
    << "[*] (x while the field is masked), mismatch.* = 1 where they differ, cmp.mismatch = any field\n";
  if (has_marker_) o << "[*] first mismatch at cycle " << marker_ << " = time " << mt << " (the marker)\n";
  o << "[dumpfile] \"" << fst << "\"\n"
    << "[savefile] \"" << gtkw << "\"\n"
    << "[timestart] " << view * kWaveTicksPerCycle << "\n"
    << "[size] 1600 900\n"
    << "[pos] -1 -1\n";
  // Zoom (log2 steps; -7.5 shows about 50 cycles in a 1600-pixel window) and
  // the primary marker, then the 26 named markers (unused).
  o << "*-7.500000 " << (has_marker_ ? static_cast<int64_t>(mt) : -1);
  for (int i = 0; i < 26; ++i) o << " -1";
  o << "\n[sst_width] 260\n[signals_width] 300\n[sst_expanded] 1\n[sst_vpaned_height] 200\n";
  o << "@200\n-lock-step compare" << (has_marker_ ? " (first mismatch at cycle " + std::to_string(marker_) + ")" : "")
    << "\n@28\ncmp.mismatch\n@24\ncmp.cycle[31:0]\n";
  // Fields by the cycle they first mismatched (the marker's first), then
  // the ones that always matched, in scoreboard order.
  std::vector<size_t> order;
  for (size_t i = 0; i < vars_.size(); ++i) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [this](size_t a, size_t b) { return vars_[a].first_bad < vars_[b].first_bad; });
  for (size_t i : order) {
    const Var& v = vars_[i];
    o << "@200\n-" << v.name;
    if (v.first_bad != UINT64_MAX)
      o << (has_marker_ && v.first_bad == marker_ ? " (MISMATCH)" : " (differs from cycle " + std::to_string(v.first_bad) + ")");
    o << "\n";
    // "+{alias} signal": GTKWave shows the alias, so the three rows read
    // "rtl x", "model x", "mismatch x" instead of three times "x".
    std::string n = vars_[i].name;  // no dots: GTKWave shows an alias after its last dot
    std::replace(n.begin(), n.end(), '.', '/');
    o << (vars_[i].width > 1 ? "@22\n" : "@28\n") << "+{rtl " << n << "} " << signal_name("rtl", i) << "\n"
      << "+{model " << n << "} " << signal_name("model", i) << "\n";
    o << "@28\n+{mismatch " << n << "} " << signal_name("mismatch", i) << "\n";
  }
  if (!layout_.empty()) {
    std::ifstream l(layout_);
    std::string line;
    bool header = false;
    unsigned dropped = 0;
    while (std::getline(l, line)) {
      if (line.empty() || line[0] == '[' || line[0] == '*') continue;  // comments, settings, markers
      if (!header) o << "@200\n-RTL (" << layout_.substr(layout_.find_last_of('/') + 1) << ")\n", header = true;
      if (line[0] != '@' && line[0] != '-' && line[0] != '#' && !rtl_names_.empty()) {
        // A signal: fitted to this configuration's width, or left out.
        auto it = rtl_names_.find(wave_detail::base_name(line));
        if (it == rtl_names_.end()) {
          ++dropped;
          continue;
        }
        line = it->second;
      }
      o << line << "\n";
    }
    if (dropped) o << "@200\n-(" << dropped << " signals of the saved layout are not in this configuration)\n";
  }
  return static_cast<bool>(o);
}

}  // namespace hwprof::sim
