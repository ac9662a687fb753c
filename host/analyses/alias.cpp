// Memory aliasing by abstract execution (paper 004 section 3.3); see alias.h.
#include "alias.h"

#include <unicorn/unicorn.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

namespace hwprof::analyses {

namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kAddrLimit = uint64_t{1} << 47;  // user half of the canonical address space
constexpr uint64_t kNoExit = 1;  // never mapped: pages start at 4096 * k with seeded 40-bit values, and page 0 is refused
constexpr uint64_t kValueMask = (uint64_t{1} << 40) - 8;  // seeded values: 40-bit, 8-aligned (sums stay below 2^47)

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

const int kGprs[] = {UC_X86_REG_RAX, UC_X86_REG_RBX, UC_X86_REG_RCX, UC_X86_REG_RDX, UC_X86_REG_RSI,
                     UC_X86_REG_RDI, UC_X86_REG_RBP, UC_X86_REG_R8,  UC_X86_REG_R9,  UC_X86_REG_R10,
                     UC_X86_REG_R11, UC_X86_REG_R12, UC_X86_REG_R13, UC_X86_REG_R14, UC_X86_REG_R15,
                     UC_X86_REG_FS_BASE, UC_X86_REG_GS_BASE};

}  // namespace

struct AbstractExec::Impl {
  uc_engine* uc = nullptr;
  uc_hook h_unmapped = 0, h_mem = 0, h_sys = 0;
  const CodeImage* code = nullptr;
  AbstractStats* stats = nullptr;
  uint64_t key = 0, sys_count = 0;
  std::unordered_set<uint64_t> pages, code_pages;
  std::vector<MemAccess>* out = nullptr;
  uint32_t in_insn = 0;  // accesses of the current instruction

  uint64_t word(uint64_t addr) const { return mix(key ^ mix(addr >> 3)) & kValueMask; }

  // Pages holding program code are mapped once, read and execute only,
  // with the code bytes (zeros elsewhere), and stay mapped: they do not
  // depend on the key, and Unicorn's translated blocks stay valid (unmapping
  // executed pages crashes Unicorn 2.0.1 in its block chaining). Other pages
  // hold seeded words and are unmapped at every reset().
  bool map_page(uint64_t base, bool fetch) {
    if (pages.count(base) || code_pages.count(base)) return true;
    if (base == 0 || base >= kAddrLimit || pages.size() >= kMaxPages) return false;
    uint8_t buf[kPage];
    bool any_code = false;
    for (uint64_t o = 0; o < kPage; o += 8) {
      const uint64_t v = word(base + o);
      std::memcpy(buf + o, &v, 8);
    }
    for (uint64_t o = 0; o < kPage;) {  // code bytes where the program has code
      size_t n = 0;
      if (code->bytes(base + o, n)) {
        any_code = true;
        break;
      }
      ++o;
    }
    if (any_code) std::memset(buf, 0, kPage);
    for (uint64_t o = 0; o < kPage;) {  // code bytes where the program has code
      size_t n = 0;
      const uint8_t* p = code->bytes(base + o, n);
      if (!p) {
        ++o;
        continue;
      }
      const size_t k = std::min<uint64_t>(n, kPage - o);
      std::memcpy(buf + o, p, k);
      o += k;
      any_code = true;
    }
    if (fetch && !any_code) return false;  // never execute seeded data
    if (uc_mem_map(uc, base, kPage, any_code ? UC_PROT_READ | UC_PROT_EXEC : UC_PROT_READ | UC_PROT_WRITE) !=
        UC_ERR_OK)
      return false;
    uc_mem_write(uc, base, buf, kPage);
    (any_code ? code_pages : pages).insert(base);
    ++stats->pages;
    return true;
  }

  static bool on_unmapped(uc_engine*, uc_mem_type type, uint64_t address, int size, int64_t, void* user) {
    Impl* self = static_cast<Impl*>(user);
    const uint64_t last = address + static_cast<uint64_t>(std::max(size, 1)) - 1;
    const bool fetch = type == UC_MEM_FETCH_UNMAPPED;
    for (uint64_t b = address & ~(kPage - 1); b <= (last & ~(kPage - 1)); b += kPage)
      if (!self->map_page(b, fetch)) {
        ++self->stats->refused;
        return false;
      }
    return true;
  }

  static void on_mem(uc_engine* uc, uc_mem_type type, uint64_t address, int size, int64_t, void* user) {
    Impl* self = static_cast<Impl*>(user);
    if (!self->out) return;
    if (++self->in_insn > kMaxAccesses) {
      ++self->stats->truncated;
      self->out = nullptr;
      uc_emu_stop(uc);
      return;
    }
    self->out->push_back(MemAccess{address, static_cast<uint32_t>(size), type == UC_MEM_WRITE});
    ++self->stats->accesses;
  }

  static void on_syscall(uc_engine* uc, void* user) {
    Impl* self = static_cast<Impl*>(user);
    ++self->stats->syscalls;
    const uint64_t v = mix(self->key ^ 0x5ca11ull ^ mix(++self->sys_count)) & kValueMask;
    uc_reg_write(uc, UC_X86_REG_RAX, &v);
  }
};

AbstractExec::AbstractExec(const CodeImage& code) : impl_(new Impl) {
  if (code.isa() != "x86_64") {
    delete impl_;
    throw std::runtime_error("abstract execution: only x86_64 is supported (isa '" + code.isa() + "')");
  }
  impl_->code = &code;
  impl_->stats = &stats_;
  if (uc_open(UC_ARCH_X86, UC_MODE_64, &impl_->uc) != UC_ERR_OK) {
    delete impl_;
    throw std::runtime_error("abstract execution: uc_open failed");
  }
  uc_hook_add(impl_->uc, &impl_->h_unmapped, UC_HOOK_MEM_UNMAPPED, reinterpret_cast<void*>(&Impl::on_unmapped),
              impl_, 1, 0);
  uc_hook_add(impl_->uc, &impl_->h_mem, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, reinterpret_cast<void*>(&Impl::on_mem),
              impl_, 1, 0);
  uc_hook_add(impl_->uc, &impl_->h_sys, UC_HOOK_INSN, reinterpret_cast<void*>(&Impl::on_syscall), impl_, 1, 0,
              UC_X86_INS_SYSCALL);
  reset(0);
}

AbstractExec::~AbstractExec() {
  if (impl_->uc) uc_close(impl_->uc);
  delete impl_;
}

void AbstractExec::reset(uint64_t key) {
  Impl& m = *impl_;
  for (uint64_t b : m.pages) uc_mem_unmap(m.uc, b, kPage);
  m.pages.clear();
  m.key = mix(key);
  m.sys_count = 0;
  int k = 0;
  for (int r : kGprs) {
    const uint64_t v = mix(m.key ^ 0x7e9ull ^ mix(static_cast<uint64_t>(++k))) & kValueMask;
    uc_reg_write(m.uc, r, &v);
  }
  const uint64_t sp = (mix(m.key ^ 0x57acull) & kValueMask) & ~uint64_t{0xf};
  uc_reg_write(m.uc, UC_X86_REG_RSP, &sp);
  for (int x = 0; x < 16; ++x) {
    uint64_t v[2] = {mix(m.key ^ 0x100ull ^ mix(x * 2 + 1)), mix(m.key ^ 0x100ull ^ mix(x * 2 + 2))};
    uc_reg_write(m.uc, UC_X86_REG_XMM0 + x, v);
  }
}

bool AbstractExec::step(uint64_t pc, unsigned len, std::vector<MemAccess>& out) {
  Impl& m = *impl_;
  ++stats_.insns;
  if (len == 0) {
    ++stats_.failed;
    return false;
  }
  m.out = &out;
  m.in_insn = 0;
  const uc_err e = uc_emu_start(m.uc, pc, kNoExit, 0, 1);  // stop by count only: an exit address makes Unicorn 2.0.1 invalidate blocks there and assert
  m.out = nullptr;
  if (e != UC_ERR_OK) {
    ++stats_.failed;
    return false;
  }
  return true;
}

uint64_t AbstractExec::reg(int r) const {
  uint64_t v = 0;
  uc_reg_read(impl_->uc, r, &v);
  return v;
}

void AbstractExec::set_reg(int r, uint64_t v) { uc_reg_write(impl_->uc, r, &v); }

uint64_t AbstractExec::seed_word(uint64_t addr) const { return impl_->word(addr); }

// ================================================================ aliasing

int64_t AliasTracker::add(uint64_t idx, const MemAccess* a, size_t n) {
  int64_t prod = -1;
  for (size_t k = 0; k < n; ++k)
    if (!a[k].write)
      for (uint32_t b = 0; b < a[k].size; ++b) {
        auto it = last_.find(a[k].addr + b);
        if (it != last_.end() && it->second < idx) prod = std::max<int64_t>(prod, static_cast<int64_t>(it->second));
      }
  for (size_t k = 0; k < n; ++k)
    if (a[k].write)
      for (uint32_t b = 0; b < a[k].size; ++b) last_[a[k].addr + b] = idx;
  return prod;
}

void AliasTracker::prune(uint64_t below) {
  for (auto it = last_.begin(); it != last_.end();) it = it->second < below ? last_.erase(it) : std::next(it);
}

TraceletAliases abstract_aliases(AbstractExec& ex, uint64_t key, const std::vector<InsnRef>& insns) {
  TraceletAliases t;
  t.insns = insns.size();
  t.seed_pc = insns.empty() ? 0 : insns[0].pc;
  ex.reset(key);
  AliasTracker tr;
  std::vector<MemAccess> acc;
  for (size_t k = 0; k < insns.size(); ++k) {
    acc.clear();
    ex.step(insns[k].pc, insns[k].len, acc);
    if (acc.empty()) continue;
    ++t.memory_insns;
    const int64_t p = tr.add(k, acc.data(), acc.size());
    if (p >= 0) t.pairs.emplace_back(static_cast<uint32_t>(k), static_cast<uint32_t>(p));
  }
  return t;
}

bool tracelet_insns(const CodeImage& code, uint64_t seed_pc, const trace::Record* recs, size_t n,
                    std::vector<InsnRef>& out) {
  out.clear();
  uint64_t pc = seed_pc;
  for (size_t r = 0; r < n; ++r) {
    const trace::Record& rec = recs[r];
    if (!rec.is_branch()) continue;
    for (uint64_t k = 0; k + 1 < rec.insns; ++k) {
      const record::InsnInfo in = code.decode(pc);
      if (!in.valid || in.is_cf || pc == rec.pc) return false;
      out.push_back(InsnRef{pc, in.len});
      pc += in.len;
    }
    if (pc != rec.pc) return false;
    out.push_back(InsnRef{rec.pc, rec.ilen});
    pc = rec.next();
  }
  return true;
}

// ================================================================ profiles

void AliasProfile::add(uint64_t store_pc, uint64_t load_pc, uint64_t dist) {
  if (dist >= kAliasWindows.back()) return;
  auto& c = pairs[{store_pc, load_pc}];
  for (size_t w = 0; w < kAliasWindows.size(); ++w) c[w] += dist < kAliasWindows[w];
}

uint64_t AliasProfile::total(size_t w) const {
  uint64_t s = 0;
  for (const auto& [k, c] : pairs) s += c[w];
  return s;
}

double alias_overlap(const AliasProfile& a, const AliasProfile& b, size_t w) {
  if (a.instructions == 0) return 100.0;
  double sum = 0, num = 0;
  const double ia = double(a.instructions), ib = b.instructions ? double(b.instructions) : 1.0;
  for (const auto& [k, c] : a.pairs) {
    if (!c[w]) continue;
    const double ra = double(c[w]) / ia;
    sum += ra;
    auto it = b.pairs.find(k);
    if (it != b.pairs.end()) num += std::min(ra, double(it->second[w]) / ib);
  }
  return sum > 0 ? 100.0 * num / sum : 100.0;
}

double alias_overlap_bidir(const AliasProfile& a, const AliasProfile& b, size_t w) {
  return 0.5 * (alias_overlap(a, b, w) + alias_overlap(b, a, w));
}

// ================================================================ side file

void write_alias_file(const std::string& path, const std::string& trace_name,
                      const std::vector<TraceletAliases>& tracelets) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) throw std::runtime_error(path + ": cannot write");
    f << "#hwprof-alias v1 tracelets=" << tracelets.size() << "\n";
    f << "# " << trace_name
      << ": per tracelet 't INDEX PAIRS MEMORY_INSNS', then 'LOAD STORE' per aliasing load (instruction offsets "
         "from the tracelet's seed; docs/formats.md)\n";
    for (size_t i = 0; i < tracelets.size(); ++i) {
      f << "t " << i << " " << tracelets[i].pairs.size() << " " << tracelets[i].memory_insns << " "
        << tracelets[i].insns << " " << std::hex << tracelets[i].seed_pc << std::dec << "\n";
      for (const auto& [l, s] : tracelets[i].pairs) f << l << " " << s << "\n";
    }
    if (!f.flush()) throw std::runtime_error(path + ": write failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error(path + ": cannot rename");
}

std::vector<TraceletAliases> read_alias_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot open the alias file");
  std::vector<TraceletAliases> v;
  std::string line;
  uint64_t ln = 0, want = 0, expect = 0;
  bool header = false;
  auto bad = [&](const std::string& why) { return std::runtime_error(path + ":" + std::to_string(ln) + ": " + why); };
  while (std::getline(f, line)) {
    ++ln;
    if (!header) {
      if (line.rfind("#hwprof-alias v1 tracelets=", 0) != 0) throw bad("not an alias file (#hwprof-alias v1 header)");
      want = std::stoull(line.substr(27));
      header = true;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    if (line[0] == 't') {
      char t;
      uint64_t idx, pairs, mem, n, seed;
      if (!(is >> t >> idx >> pairs >> mem >> n >> std::hex >> seed) || idx != v.size() || mem > n)
        throw bad("bad tracelet line '" + line + "'");
      if (!v.empty() && v.back().pairs.size() != expect)
        throw bad("tracelet " + std::to_string(v.size() - 1) + " has another number of pairs than its line says");
      expect = pairs;
      v.emplace_back();
      v.back().memory_insns = mem;
      v.back().insns = n;
      v.back().seed_pc = seed;
      v.back().pairs.reserve(pairs);
      continue;
    }
    uint64_t l, s;
    if (v.empty() || !(is >> l >> s) || s >= l || l >= v.back().insns) throw bad("bad pair '" + line + "'");
    if (!v.back().pairs.empty() && v.back().pairs.back().first >= l) throw bad("loads out of order");
    v.back().pairs.emplace_back(static_cast<uint32_t>(l), static_cast<uint32_t>(s));
  }
  if (!header) throw std::runtime_error(path + ": empty alias file");
  if (!v.empty() && v.back().pairs.size() != expect)
    throw std::runtime_error(path + ": the last tracelet has another number of pairs than its line says");
  if (v.size() != want) throw std::runtime_error(path + ": " + std::to_string(v.size()) + " tracelets, header says " +
                                                 std::to_string(want));
  return v;
}

}  // namespace hwprof::analyses
