// hwprof symbolization (see symbolize.h and docs/formats.md, "Symbols").
#include "symbolize.h"

#include <cxxabi.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <unordered_set>
#include <stdexcept>

#include "loadmap.h"
#include "trace.h"

namespace hwprof::sym {

std::string hex(uint64_t a) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(a));
  return b;
}

namespace {

std::string basename_of(const std::string& p) {
  const auto s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

bool file_exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// One opened ELF file (the object itself or its separate debug file).
struct ElfFile {
  int fd = -1;
  Elf* elf = nullptr;
  Dwarf* dwarf = nullptr;
  bool open(const std::string& path, std::string& err) {
    if (elf_version(EV_CURRENT) == EV_NONE) {
      err = "libelf initialisation failed";
      return false;
    }
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      err = std::string("cannot open: ") + std::strerror(errno);
      return false;
    }
    elf = elf_begin(fd, ELF_C_READ, nullptr);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
      err = "not an ELF file";
      return false;
    }
    return true;
  }
  ~ElfFile() {
    if (dwarf) dwarf_end(dwarf);
    if (elf) elf_end(elf);
    if (fd >= 0) ::close(fd);
  }
};

// C++ (Itanium ABI) names demangled as perf and gdb show them; others as they are.
std::string demangle(const char* name) {
  if (name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !d) return name;
  std::string out(d);
  std::free(d);
  return out;
}

struct Func {
  uint64_t addr = 0, size = 0;
  std::string name;
};

struct CuRange {
  uint64_t lo = 0, hi = 0;  // [lo, hi)
  Dwarf_Off die = 0;
};

// The symbols and line tables of one object, loaded on first use.
struct Object {
  bool loaded = false;
  bool usable = false;  // the file is the one recorded (or no build id to check)
  std::vector<Func> funcs;  // sorted by addr
  std::unique_ptr<ElfFile> line_file;  // the file whose DWARF gives lines (may be null)
  std::vector<CuRange> cus;            // sorted by lo

  // Reads STT_FUNC/STT_GNU_IFUNC symbols of .symtab and .dynsym. Returns
  // true if the file has a .symtab.
  bool read_symbols(Elf* e) {
    bool has_symtab = false;
    Elf_Scn* scn = nullptr;
    while ((scn = elf_nextscn(e, scn)) != nullptr) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh)) continue;
      if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) continue;
      if (sh.sh_type == SHT_SYMTAB) has_symtab = true;
      Elf_Data* d = elf_getdata(scn, nullptr);
      if (!d || sh.sh_entsize == 0) continue;
      const size_t n = sh.sh_size / sh.sh_entsize;
      for (size_t i = 0; i < n; ++i) {
        GElf_Sym s;
        if (!gelf_getsym(d, static_cast<int>(i), &s)) continue;
        const int type = GELF_ST_TYPE(s.st_info);
        if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
        if (s.st_shndx == SHN_UNDEF || s.st_value == 0) continue;
        const char* name = elf_strptr(e, sh.sh_link, s.st_name);
        if (!name || !*name) continue;
        funcs.push_back({s.st_value, s.st_size, name});
      }
    }
    return has_symtab;
  }

  void finish_symbols() {
    for (auto& f : funcs) f.name = demangle(f.name.c_str());
    // Sort by address; at one address keep the first name with a size (the
    // .symtab's, read first when both tables are present).
    std::stable_sort(funcs.begin(), funcs.end(), [](const Func& a, const Func& b) { return a.addr < b.addr; });
    std::vector<Func> out;
    for (auto& f : funcs) {
      if (!out.empty() && out.back().addr == f.addr) {
        if (out.back().size == 0 && f.size != 0) out.back().size = f.size;
        continue;
      }
      out.push_back(std::move(f));
    }
    funcs.swap(out);
  }

  bool index_dwarf(std::unique_ptr<ElfFile> f) {
    f->dwarf = dwarf_begin_elf(f->elf, DWARF_C_READ, nullptr);
    if (!f->dwarf) return false;
    Dwarf_Off off = 0, next = 0;
    size_t hsize = 0;
    while (dwarf_nextcu(f->dwarf, off, &next, &hsize, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      if (dwarf_offdie(f->dwarf, off + hsize, &cu)) {
        Dwarf_Addr base = 0, lo = 0, hi = 0;
        ptrdiff_t o = 0;
        while ((o = dwarf_ranges(&cu, o, &base, &lo, &hi)) > 0)
          if (hi > lo) cus.push_back({lo, hi, off + hsize});
      }
      off = next;
    }
    if (cus.empty()) return false;
    std::sort(cus.begin(), cus.end(), [](const CuRange& a, const CuRange& b) { return a.lo < b.lo; });
    line_file = std::move(f);
    return true;
  }

  const Func* func(uint64_t a) const {
    auto it = std::upper_bound(funcs.begin(), funcs.end(), a, [](uint64_t v, const Func& f) { return v < f.addr; });
    if (it == funcs.begin()) return nullptr;
    --it;
    if (it->size && a >= it->addr + it->size) return nullptr;
    return &*it;
  }

  bool line(uint64_t a, std::string& file, unsigned& line) const {
    if (!line_file) return false;
    // CUs may overlap (rare); try every range that starts at or below a.
    auto it = std::upper_bound(cus.begin(), cus.end(), a, [](uint64_t v, const CuRange& c) { return v < c.lo; });
    while (it != cus.begin()) {
      --it;
      if (a >= it->hi) continue;
      Dwarf_Die cu;
      if (!dwarf_offdie(line_file->dwarf, it->die, &cu)) continue;
      Dwarf_Line* l = dwarf_getsrc_die(&cu, a);
      if (!l) continue;
      int ln = 0;
      const char* src = dwarf_linesrc(l, nullptr, nullptr);
      if (!src || dwarf_lineno(l, &ln) != 0 || ln <= 0) continue;
      file = src;
      line = static_cast<unsigned>(ln);
      return true;
    }
    return false;
  }
};

}  // namespace

std::string Location::sym() const {
  if (object.empty()) return "0x" + hex(addr);
  if (!function.empty()) return offset ? object + "!" + function + "+0x" + hex(offset) : object + "!" + function;
  return object + "+0x" + hex(elf_addr);
}

std::string Location::source() const {
  if (file.empty()) return {};
  return basename_of(file) + ":" + std::to_string(line);
}

struct Symbolizer::Impl {
  bool enabled = false;
  std::string map_path;
  record::LoadMap map;
  std::vector<Object> objects;  // parallel to map.objects
  std::vector<std::string> notes;
  std::set<std::string> noted;

  void note(const std::string& s) {
    if (noted.insert(s).second) notes.push_back(s);
  }

  int find(uint64_t a) const {
    int any = -1;
    for (size_t i = 0; i < map.objects.size(); ++i) {
      if (map.objects[i].contains_exec(a)) return static_cast<int>(i);
      if (any < 0 && map.objects[i].contains(a)) any = static_cast<int>(i);
    }
    return any;
  }

  void load(size_t i) {
    Object& ob = objects[i];
    ob.loaded = true;
    const record::LoadedObject& lo = map.objects[i];
    const std::string path = lo.host_path.empty() ? lo.path : lo.host_path;
    const std::string name = basename_of(lo.path);
    auto f = std::make_unique<ElfFile>();
    std::string err;
    if (!f->open(path, err)) {
      note("symbols: " + path + ": " + err + "; its addresses are shown as " + name + "+0xoffset");
      return;
    }
    const record::ElfInfo info = record::read_elf(path);
    if (!lo.elf.build_id.empty() && info.build_id != lo.elf.build_id) {
      note("symbols: " + path + ": build id " + (info.build_id.empty() ? "none" : info.build_id) +
           " differs from the recorded " + lo.elf.build_id + " (file changed since recording); its addresses are "
           "shown as " + name + "+0xoffset");
      return;
    }
    ob.usable = true;
    const bool has_symtab = ob.read_symbols(f->elf);
    // Separate debug file (Debian's *-dbgsym: /usr/lib/debug/.build-id/xx/rest.debug).
    std::unique_ptr<ElfFile> dbg;
    if (info.build_id.size() > 2) {
      const std::string dp =
          "/usr/lib/debug/.build-id/" + info.build_id.substr(0, 2) + "/" + info.build_id.substr(2) + ".debug";
      if (file_exists(dp)) {
        dbg = std::make_unique<ElfFile>();
        std::string e2;
        if (!dbg->open(dp, e2)) dbg.reset();
        else if (!has_symtab) ob.read_symbols(dbg->elf);
      }
    }
    ob.finish_symbols();
    bool lines = ob.index_dwarf(std::move(f));
    if (!lines && dbg) lines = ob.index_dwarf(std::move(dbg));
    if (ob.funcs.empty())
      note("symbols: " + path + ": no function symbols (stripped); its addresses are shown as " + name +
           "+0xoffset");
  }
};

Symbolizer::Symbolizer() : impl_(std::make_unique<Impl>()) {}
Symbolizer::~Symbolizer() = default;
Symbolizer::Symbolizer(Symbolizer&&) noexcept = default;
Symbolizer& Symbolizer::operator=(Symbolizer&&) noexcept = default;

Symbolizer Symbolizer::from_map(const std::string& map_path) {
  Symbolizer s;
  s.impl_->map_path = map_path;
  try {
    s.impl_->map = record::LoadMap::read(map_path);
  } catch (const std::exception& e) {
    s.impl_->note(std::string("symbols: no load map (") + e.what() + "); addresses are shown bare");
    return s;
  }
  s.impl_->objects.resize(s.impl_->map.objects.size());
  s.impl_->enabled = true;
  return s;
}

Symbolizer Symbolizer::for_trace(const std::string& trace, const std::string& map) {
  if (!map.empty()) return from_map(map);
  if (trace == "-" || !file_exists(trace + ".map")) return Symbolizer();
  return from_map(trace + ".map");
}

bool Symbolizer::enabled() const { return impl_->enabled; }
const std::string& Symbolizer::map_path() const { return impl_->map_path; }
const std::vector<std::string>& Symbolizer::notes() const { return impl_->notes; }

Location Symbolizer::lookup(uint64_t addr) {
  Location loc;
  loc.addr = addr;
  if (!impl_->enabled) return loc;
  const int i = impl_->find(addr);
  if (i < 0) return loc;
  const record::LoadedObject& lo = impl_->map.objects[size_t(i)];
  loc.object = basename_of(lo.path);
  loc.elf_addr = addr - lo.bias;
  Object& ob = impl_->objects[size_t(i)];
  if (!ob.loaded) impl_->load(size_t(i));
  if (!ob.usable) return loc;
  if (const Func* f = ob.func(loc.elf_addr)) {
    loc.function = f->name;
    loc.offset = loc.elf_addr - f->addr;
  }
  ob.line(loc.elf_addr, loc.file, loc.line);
  return loc;
}

// ---------------------------------------------------------------- FullAddrs

namespace {
constexpr uint64_t kFoldMask = (uint64_t{1} << FullAddrs::kFoldBits) - 1;
bool fold_less(uint64_t a, uint64_t b) {
  const uint64_t fa = a & kFoldMask, fb = b & kFoldMask;
  return fa != fb ? fa < fb : a < b;
}
}  // namespace

void FullAddrs::add(uint64_t full) {
  addrs_.push_back(full);
  sorted_ = false;
  // Keep memory bounded on long traces: compact now and then.
  if (addrs_.size() >= (uint64_t{1} << 22) && (addrs_.size() & (addrs_.size() - 1)) == 0) finish();
}

void FullAddrs::add_trace(const std::string& trace) {
  auto rd = trace::Reader::open(trace);
  trace::Record r;
  // Distinct addresses only (a hash set: a trace repeats its few thousand
  // addresses millions of times); sorted once at the end.
  std::unordered_set<uint64_t> seen;
  seen.reserve(1 << 16);
  auto put = [&](uint64_t a) {
    if (seen.insert(a).second) add(a);
  };
  uint64_t last_pc = ~uint64_t{0}, last_target = 0;
  while (rd->next(r)) {
    if (!r.is_branch()) {
      put(r.value);
      continue;
    }
    if (r.pc == last_pc && r.target == last_target) continue;  // a loop's record again
    last_pc = r.pc;
    last_target = r.target;
    put(r.pc);
    put(r.next());  // where paths and basic blocks start (executed addresses only)
  }
  finish();
}

void FullAddrs::finish() const {
  if (sorted_) return;
  std::sort(addrs_.begin(), addrs_.end(), fold_less);
  addrs_.erase(std::unique(addrs_.begin(), addrs_.end()), addrs_.end());
  sorted_ = true;
}

FullAddrs::Hit FullAddrs::full(uint64_t folded) const {
  finish();
  folded &= kFoldMask;
  auto it = std::lower_bound(addrs_.begin(), addrs_.end(), folded,
                             [](uint64_t a, uint64_t f) { return (a & kFoldMask) < f; });
  Hit h{folded, 0};
  for (auto j = it; j != addrs_.end() && (*j & kFoldMask) == folded; ++j) {
    if (h.candidates == 0) h.full = *j;
    ++h.candidates;
  }
  return h;
}

FullAddrs::Hit FullAddrs::range(uint64_t lo, uint64_t hi) const {
  finish();
  lo &= kFoldMask;
  hi &= kFoldMask;
  auto it = std::lower_bound(addrs_.begin(), addrs_.end(), lo,
                             [](uint64_t a, uint64_t f) { return (a & kFoldMask) < f; });
  std::set<uint64_t> uppers;
  uint64_t first = ~uint64_t{0}, last = 0;
  for (auto j = it; j != addrs_.end() && (*j & kFoldMask) <= hi; ++j) {
    uppers.insert(*j & ~kFoldMask);
    first = std::min(first, *j);
    last = std::max(last, *j);
  }
  Hit h{lo, unsigned(uppers.size()), lo, lo};
  if (!uppers.empty()) {
    h.full = *uppers.begin() | lo;
    h.first = first;
    h.last = last;
  }
  return h;
}

size_t FullAddrs::ambiguous() const {
  finish();
  size_t n = 0;
  for (size_t i = 1; i < addrs_.size(); ++i)
    if ((addrs_[i] & kFoldMask) == (addrs_[i - 1] & kFoldMask) &&
        (i < 2 || (addrs_[i - 1] & kFoldMask) != (addrs_[i - 2] & kFoldMask)))
      ++n;
  return n;
}

}  // namespace hwprof::sym
