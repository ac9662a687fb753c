// Memory aliasing on a real run (docs/analyses.md, "Memory aliasing";
// scripts/bench_alias.py): reads valgrind lackey's instruction and data
// address stream of a program (`--tool=lackey --trace-mem=yes`) and the
// address map valgrind prints with -d, and computes
//   * the real alias profile: (store, load) pairs by real addresses, windows
//     of 256, 512 and 1024 instructions (004 section 3.3, Fig. 7);
//   * the same stream decorated with symbolic addresses: abstract execution
//     (alias.h) of each chunk of --chunk instructions from a fresh random
//     state, and its alias profile;
//   * optionally (--fab TRACE) the alias profile of a fabricated trace
//     (hwprof fabricate's TRACE.alias), with pcs made comparable as (object
//     file name, file offset);
//   * M_a between them (bi-directional, 004 footnote 3);
//   * the memory-dependence study: each chunk as a tracelet through the
//     critical-path analysis with memory dependences (a) off, (b) by the same
//     address expression, (c) from abstract execution, (d) from the real
//     addresses: CPI, share of critical-path cycles on memory edges, and the
//     agreement of binary criticality with (d).
// One JSON object on stdout.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "alias.h"
#include "critpath.h"
#include "fabricate.h"
#include "loadmap.h"
#include "timing.h"
#include "trace.h"

using namespace hwprof;
using namespace hwprof::analyses;

namespace {

std::string base_name(const std::string& p) {
  const auto s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

/// Object ids by file name, so that both address spaces give the same key.
struct Keys {
  std::map<std::string, uint64_t> ids;
  /// The file's real name (symlinks resolved: the recorder's map has the
  /// name the program opened, e.g. libbz2.so.1.0; valgrind the file's).
  uint64_t id(const std::string& path) {
    std::error_code ec;
    const auto real = std::filesystem::canonical(path, ec);
    return ids.emplace(base_name(ec ? path : real.string()), ids.size() + 1).first->second;
  }
};

struct Seg {
  uint64_t start, end, offset, obj;
  std::string path;
  bool exec;
};

/// valgrind -d: "aspacem (a,b,c) /path" names files; "aspacem  N: file S-E size perms d= i= o=OFF (a,b)" maps them.
std::vector<Seg> read_vg_map(const std::string& path, Keys& keys) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot open the valgrind map");
  std::unordered_map<std::string, std::string> names;
  std::map<uint64_t, Seg> segs;
  std::string line;
  while (std::getline(f, line)) {
    const auto a = line.find("aspacem ");
    if (a == std::string::npos) continue;
    std::string rest = line.substr(a + 8);
    while (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    if (rest.size() > 1 && rest[0] == '(') {
      const auto close = rest.find(") /");
      if (close == std::string::npos) continue;
      const std::string id = rest.substr(1, close - 1);
      const auto c2 = id.rfind(',');
      names[id.substr(0, c2)] = rest.substr(close + 2);
      continue;
    }
    const auto fpos = rest.find(": file ");
    if (fpos == std::string::npos) continue;
    uint64_t s = 0, e = 0, size = 0, off = 0;
    char perms[16] = {};
    if (std::sscanf(rest.c_str() + fpos + 7, "%lx-%lx %lu %15s", &s, &e, &size, perms) != 4) continue;
    const auto o = rest.find(" o=");
    const auto p = rest.rfind('(');
    if (o == std::string::npos || p == std::string::npos) continue;
    off = std::stoull(rest.substr(o + 3));
    const std::string id = rest.substr(p + 1, rest.find(')', p) - p - 1);
    auto it = names.find(id);
    if (it == names.end()) continue;
    segs[s] = Seg{s, e + 1, off, keys.id(it->second), it->second, std::strchr(perms, 'x') != nullptr};
  }
  std::vector<Seg> v;
  for (auto& [s, g] : segs) v.push_back(g);
  if (v.empty()) throw std::runtime_error(path + ": no file mappings (run valgrind with -d)");
  return v;
}

const Seg* find_seg(const std::vector<Seg>& v, uint64_t a) {
  auto it = std::upper_bound(v.begin(), v.end(), a, [](uint64_t x, const Seg& s) { return x < s.start; });
  if (it == v.begin()) return nullptr;
  --it;
  return a < it->end ? &*it : nullptr;
}

struct Dyn {
  uint64_t pc;
  uint8_t len;
  uint32_t a0, a1;  // accesses [a0, a1) of the chunk
};

struct Mode {
  const char* name;
  std::unique_ptr<CritAnalyzer> an;
};

double agreement(const std::unordered_map<uint64_t, StaticCrit>& ref, const std::unordered_map<uint64_t, StaticCrit>& x) {
  uint64_t all = 0, same = 0;
  for (const auto& [pc, c] : ref) {
    auto it = x.find(pc);
    const bool b = it != x.end() && it->second.binary();
    all += c.dynamic;
    same += (b == c.binary()) ? c.dynamic : 0;
  }
  return all ? 100.0 * double(same) / double(all) : 100.0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string lackey, vgmap, fab;
  uint64_t chunk = 1000, max_insns = UINT64_MAX, seed = 1, check = 0;
  double miss_rate = 0.02, mispredict = 0.05;
  bool no_study = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + ": needs a value");
      return argv[++i];
    };
    if (a == "--lackey") lackey = val();
    else if (a == "--vgmap") vgmap = val();
    else if (a == "--fab") fab = val();
    else if (a == "--chunk") chunk = std::stoull(val());
    else if (a == "--max-insns") max_insns = std::stoull(val());
    else if (a == "--seed") seed = std::stoull(val());
    else if (a == "--miss-rate") miss_rate = std::stod(val());
    else if (a == "--mispredict-rate") mispredict = std::stod(val());
    else if (a == "--no-study") no_study = true;
    else if (a == "--check") check = std::stoull(val());
    else {
      std::cerr << "usage: bench_alias --lackey LACKEY_OUT --vgmap VALGRIND_D_STDERR [--fab FABRICATED_TRACE] "
                   "[--chunk 1000] [--max-insns N] [--seed 1] [--miss-rate 0.02] [--mispredict-rate 0.05] "
                   "[--no-study] [--check N]\n";
      return 2;
    }
  }
  if (lackey.empty() || vgmap.empty() || chunk == 0) {
    std::cerr << "bench_alias: --lackey and --vgmap are required\n";
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  try {
    Keys keys;
    const std::vector<Seg> segs = read_vg_map(vgmap, keys);
    CodeImage code("x86_64");
    for (const Seg& s : segs) {
      if (!s.exec) continue;
      std::ifstream f(s.path, std::ios::binary);
      if (!f) throw std::runtime_error(s.path + ": cannot read");
      std::vector<uint8_t> b(s.end - s.start);
      f.seekg(static_cast<std::streamoff>(s.offset));
      f.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
      b.resize(static_cast<size_t>(f.gcount()));
      if (!b.empty()) code.add_region(s.start, std::move(b), static_cast<int>(s.obj));
    }
    auto key = [&](uint64_t pc) -> uint64_t {
      const Seg* s = find_seg(segs, pc);
      return s ? (s->obj << 40) | (s->offset + (pc - s->start)) : pc;
    };

    AbstractExec ex(code);
    InsnDecoder dec("x86_64");
    CritOptions co;
    co.tracelet_len = UINT64_MAX;  // flushed per chunk
    co.seed = seed;
    co.rates.global_mispredict = mispredict;
    co.rates.miss_rate = miss_rate;
    std::vector<Mode> modes;
    const char* names[] = {"none", "expression", "abstract", "real"};
    for (int m = 0; m < 4; ++m) {
      CritOptions c = co;
      c.machine.mem_deps = m != 0;
      c.machine.explicit_mem_deps = m >= 2;
      modes.push_back(Mode{names[m], no_study ? nullptr : std::make_unique<CritAnalyzer>(c)});
    }

    AliasProfile real, deco;
    AliasTracker real_tr;
    std::vector<uint64_t> pc_ring(4096);
    uint64_t g = 0;  // global instruction index
    uint64_t chunks = 0, loads_real = 0, undecodable = 0, real_in_chunk = 0;
    std::vector<Dyn> dyn;
    std::vector<MemAccess> acc;
    std::vector<InsnRef> refs;
    std::vector<int64_t> pos;
    std::vector<uint64_t> real_dist, abs_dist;
    std::vector<std::vector<MemAccess>> chk_acc;  // --check: the first N instructions' accesses
    std::vector<int64_t> chk_got;

    auto run_chunk = [&]() {
      if (dyn.empty()) return;
      const uint64_t base = g;
      real_dist.assign(dyn.size(), 0);
      for (size_t k = 0; k < dyn.size(); ++k) {
        const uint64_t gi = base + k;
        pc_ring[gi % pc_ring.size()] = dyn[k].pc;
        const int64_t p = real_tr.add(gi, acc.data() + dyn[k].a0, dyn[k].a1 - dyn[k].a0);
        if (gi < check) {  // brute force later
          chk_acc.emplace_back(acc.begin() + dyn[k].a0, acc.begin() + dyn[k].a1);
          chk_got.push_back(p);
        }
        if (p >= 0) {
          const uint64_t d = gi - static_cast<uint64_t>(p);
          ++loads_real;
          if (d < pc_ring.size()) real.add(key(pc_ring[static_cast<uint64_t>(p) % pc_ring.size()]), key(dyn[k].pc), d);
          if (static_cast<uint64_t>(p) >= base) {
            real_dist[k] = d;
            ++real_in_chunk;
          }
        }
      }
      real.instructions += dyn.size();
      if (real_tr.size() > (size_t{1} << 22)) real_tr.prune(base + dyn.size() > 4096 ? base + dyn.size() - 4096 : 0);
      refs.clear();
      for (const Dyn& d : dyn) refs.push_back(InsnRef{d.pc, d.len});
      const TraceletAliases ta = abstract_aliases(ex, tracelet_rng(seed ^ 0xa11a5ull, chunks)(), refs);
      abs_dist.assign(dyn.size(), 0);
      for (const auto& [l, s] : ta.pairs) {
        deco.add(key(dyn[s].pc), key(dyn[l].pc), l - s);
        abs_dist[l] = l - s;
      }
      deco.instructions += dyn.size();
      if (!no_study) {
        pos.assign(dyn.size(), -1);
        std::vector<const StaticInsn*> si(dyn.size(), nullptr);
        int64_t n = 0;
        for (size_t k = 0; k < dyn.size(); ++k) {
          size_t avail = 0;
          const uint8_t* b = code.bytes(dyn[k].pc, avail);
          si[k] = b ? dec.decode(dyn[k].pc, b, avail) : nullptr;
          if (si[k]) pos[k] = n++;
          else ++undecodable;
        }
        for (int m = 0; m < 4; ++m) {
          const std::vector<uint64_t>* dist = m == 2 ? &abs_dist : m == 3 ? &real_dist : nullptr;
          for (size_t k = 0; k < dyn.size(); ++k) {
            if (!si[k]) continue;
            uint64_t d = 0;
            if (dist && (*dist)[k]) {
              const size_t s = k - (*dist)[k];
              if (pos[s] >= 0) d = static_cast<uint64_t>(pos[k] - pos[s]);
            }
            modes[m].an->add(*si[k], d);
          }
          modes[m].an->flush();
        }
      }
      g += dyn.size();
      ++chunks;
      dyn.clear();
      acc.clear();
    };

    std::ifstream in(lackey);
    if (!in) throw std::runtime_error(lackey + ": cannot open");
    std::string line;
    uint64_t seen = 0;
    while (std::getline(in, line)) {
      if (line.size() < 4) continue;
      if (line[0] == 'I' && line[1] == ' ') {
        if (seen >= max_insns) break;
        if (dyn.size() == chunk) run_chunk();
        uint64_t a = 0;
        unsigned sz = 0;
        if (std::sscanf(line.c_str() + 2, " %lx,%u", &a, &sz) != 2) continue;
        dyn.push_back(Dyn{a, static_cast<uint8_t>(sz), static_cast<uint32_t>(acc.size()),
                          static_cast<uint32_t>(acc.size())});
        ++seen;
      } else if (line[0] == ' ' && (line[1] == 'L' || line[1] == 'S' || line[1] == 'M') && !dyn.empty()) {
        uint64_t a = 0;
        unsigned sz = 0;
        if (std::sscanf(line.c_str() + 3, "%lx,%u", &a, &sz) != 2) continue;
        if (line[1] != 'S') acc.push_back(MemAccess{a, sz, false});
        if (line[1] != 'L') acc.push_back(MemAccess{a, sz, true});
        dyn.back().a1 = static_cast<uint32_t>(acc.size());
      }
    }
    run_chunk();

    // The fabricated trace's aliases, in the same keys.
    AliasProfile fabp;
    nlohmann::json fabj = nullptr;
    if (!fab.empty()) {
      const record::LoadMap map = record::LoadMap::read(fab + ".map");
      std::vector<uint64_t> layout;
      {
        std::ifstream mf(fab + ".map");
        const nlohmann::json mj = nlohmann::json::parse(mf);
        layout = mj.at("fabricated").at("tracelet_records").get<std::vector<uint64_t>>();
      }
      const std::vector<TraceletAliases> al = read_alias_file(fab + ".alias");
      std::vector<trace::Record> recs;
      trace::for_each(fab, [&](const trace::Record& r) {
        if (r.is_branch()) recs.push_back(r);
      });
      std::vector<uint64_t> needed;
      for (const auto& r : recs) needed.push_back(r.pc);
      for (const auto& t : al) needed.push_back(t.seed_pc);
      CodeImage fcode(map.isa.empty() ? "x86_64" : map.isa);
      load_code(fcode, map, fab + ".map", needed, LoadCodeOptions{false});
      auto fkey = [&](uint64_t pc) -> uint64_t {
        const int o = map.find(pc);
        if (o < 0) return pc;
        for (const auto& rg : map.objects[size_t(o)].ranges)
          if (pc >= rg.start && pc < rg.end) return (keys.id(map.objects[size_t(o)].host_path) << 40) | (rg.offset + (pc - rg.start));
        return pc;
      };
      size_t at = 0;
      uint64_t bad = 0;
      for (size_t t = 0; t < layout.size() && t < al.size(); ++t) {
        std::vector<InsnRef> ins;
        if (!tracelet_insns(fcode, al[t].seed_pc, recs.data() + at, layout[t], ins) || ins.size() != al[t].insns) {
          ++bad;
        } else {
          for (const auto& [l, s] : al[t].pairs) fabp.add(fkey(ins[s].pc), fkey(ins[l].pc), l - s);
        }
        fabp.instructions += al[t].insns;
        at += layout[t];
      }
      fabj = {{"trace", fab}, {"tracelets", al.size()}, {"mismatched_tracelets", bad}, {"instructions", fabp.instructions}};
    }

    nlohmann::json j;
    if (check) {  // the youngest earlier writer of any byte read, by scanning back over every instruction
      uint64_t bad = 0, aliasing = 0;
      for (size_t i = 0; i < chk_acc.size(); ++i) {
        int64_t want = -1;
        for (size_t b = i; b-- > 0 && want < 0;)
          for (const MemAccess& w : chk_acc[b])
            for (const MemAccess& r : chk_acc[i])
              if (w.write && !r.write && w.addr < r.addr + r.size && r.addr < w.addr + w.size) want = int64_t(b);
        aliasing += want >= 0;
        bad += want != chk_got[i];
      }
      j["check"] = {{"instructions", chk_acc.size()}, {"aliasing_loads", aliasing}, {"mismatches", bad}};
    }
    j["lackey"] = lackey;
    j["instructions"] = g;
    j["chunk"] = chunk;
    j["chunks"] = chunks;
    j["real_aliasing_loads"] = loads_real;
    j["real_aliasing_loads_in_chunk"] = real_in_chunk;
    const AbstractStats& as = ex.stats();
    j["abstract"] = {{"emulated", as.insns}, {"failed", as.failed}, {"accesses", as.accesses}, {"pages", as.pages},
                     {"refused", as.refused}, {"truncated", as.truncated}, {"syscalls", as.syscalls}};
    nlohmann::json w = nlohmann::json::array();
    for (size_t k = 0; k < kAliasWindows.size(); ++k) {
      nlohmann::json x = {{"window", kAliasWindows[k]},
                          {"real_pairs", real.total(k)},
                          {"abstract_pairs", deco.total(k)},
                          {"M_a_recall", alias_overlap(real, deco, k)},
                          {"M_a_precision", alias_overlap(deco, real, k)},
                          {"M_a", alias_overlap_bidir(real, deco, k)}};
      if (!fab.empty()) {
        x["fab_pairs"] = fabp.total(k);
        x["fab_M_a_recall"] = alias_overlap(real, fabp, k);
        x["fab_M_a_precision"] = alias_overlap(fabp, real, k);
        x["fab_M_a"] = alias_overlap_bidir(real, fabp, k);
      }
      w.push_back(x);
    }
    j["windows"] = w;
    j["fabricated"] = fabj;
    if (!no_study) {
      nlohmann::json st = nlohmann::json::object();
      const auto& ref = modes[3].an->db();
      for (auto& m : modes) {
        const CritAnalyzer& a = *m.an;
        uint64_t binary = 0;
        for (const auto& [pc, c] : a.db()) binary += c.binary();
        nlohmann::json edges = nlohmann::json::object();
        for (int e = 0; e < kNumEdges; ++e)
          edges[to_string(Edge(e))] = a.path_cycles() ? double(a.edge_cycles()[e]) / double(a.path_cycles()) : 0.0;
        st[m.name] = {{"cpi", a.instructions() ? double(a.cycles()) / double(a.instructions()) : 0.0},
                      {"path_cycles", a.path_cycles()},
                      {"mem_edges", a.mem_edges()},
                      {"mem_share", a.path_cycles() ? double(a.mem_cycles()) / double(a.path_cycles()) : 0.0},
                      {"binary_critical", binary},
                      {"agreement_with_real", agreement(ref, a.db())},
                      {"edges", edges}};
      }
      j["study"] = st;
      j["study"]["undecodable"] = undecodable;
      j["study"]["machine"] = {{"miss_rate", miss_rate}, {"mispredict_rate", mispredict}, {"seed", seed}};
    }
    j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << j.dump() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "bench_alias: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
