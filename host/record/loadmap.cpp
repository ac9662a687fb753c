// hwprof record: load maps (see loadmap.h and docs/recorder.md).
#include "loadmap.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace hwprof::record {

namespace {

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

uint64_t unhex(const nlohmann::json& j, const std::string& file, const char* what) {
  if (!j.is_string()) throw std::runtime_error(file + ": field '" + what + "': expected a hex string");
  const std::string s = j.get<std::string>();
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), &end, 16);
  if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || *end != '\0' || errno != 0)
    throw std::runtime_error(file + ": field '" + what + "': bad hex value '" + s + "'");
  return v;
}

std::string prot_string(uint32_t f) {
  std::string s = "---";
  if (f & PF_R) s[0] = 'r';
  if (f & PF_W) s[1] = 'w';
  if (f & PF_X) s[2] = 'x';
  return s;
}

uint32_t prot_flags(const std::string& s) {
  uint32_t f = 0;
  if (s.size() == 3) {
    if (s[0] == 'r') f |= PF_R;
    if (s[1] == 'w') f |= PF_W;
    if (s[2] == 'x') f |= PF_X;
  }
  return f;
}

const char* type_name(unsigned t) {
  switch (t) {
    case ET_EXEC: return "EXEC";
    case ET_DYN: return "DYN";
    case ET_REL: return "REL";
    case ET_CORE: return "CORE";
    default: return "?";
  }
}

}  // namespace

ElfInfo read_elf(const std::string& path) {
  ElfInfo info;
  if (elf_version(EV_CURRENT) == EV_NONE) {
    info.error = "libelf initialisation failed";
    return info;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    info.error = std::string("cannot open: ") + std::strerror(errno);
    return info;
  }
  Elf* e = elf_begin(fd, ELF_C_READ, nullptr);
  if (!e || elf_kind(e) != ELF_K_ELF) {
    info.error = "not an ELF file";
    if (e) elf_end(e);
    ::close(fd);
    return info;
  }
  GElf_Ehdr eh;
  if (!gelf_getehdr(e, &eh)) {
    info.error = std::string("bad ELF header: ") + elf_errmsg(-1);
    elf_end(e);
    ::close(fd);
    return info;
  }
  info.type = eh.e_type;
  info.machine = eh.e_machine;
  info.is64 = gelf_getclass(e) == ELFCLASS64;
  info.entry = eh.e_entry;
  size_t nph = 0;
  if (elf_getphdrnum(e, &nph) != 0) nph = 0;
  size_t rawsize = 0;
  const char* raw = elf_rawfile(e, &rawsize);
  for (size_t i = 0; i < nph; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e, static_cast<int>(i), &ph)) continue;
    if (ph.p_type == PT_LOAD) {
      info.loads.push_back({ph.p_vaddr, ph.p_memsz, ph.p_offset, ph.p_filesz, ph.p_flags});
    } else if (ph.p_type == PT_INTERP && raw && ph.p_offset + ph.p_filesz <= rawsize) {
      info.interp.assign(raw + ph.p_offset, strnlen(raw + ph.p_offset, ph.p_filesz));
    } else if (ph.p_type == PT_NOTE && info.build_id.empty()) {
      Elf_Data* d = elf_getdata_rawchunk(e, static_cast<int64_t>(ph.p_offset), ph.p_filesz, ELF_T_NHDR);
      if (!d) continue;
      size_t off = 0, name_off = 0, desc_off = 0;
      GElf_Nhdr nh;
      while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
        const char* base = static_cast<const char*>(d->d_buf);
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && std::memcmp(base + name_off, "GNU", 4) == 0) {
          static const char* digits = "0123456789abcdef";
          for (size_t k = 0; k < nh.n_descsz; ++k) {
            unsigned char c = static_cast<unsigned char>(base[desc_off + k]);
            info.build_id += digits[c >> 4];
            info.build_id += digits[c & 15];
          }
          break;
        }
      }
    }
  }
  elf_end(e);
  ::close(fd);
  if (info.loads.empty()) {
    info.error = "no PT_LOAD segment";
    return info;
  }
  info.ok = true;
  return info;
}

std::string elf_isa(const ElfInfo& e) {
  if (!e.ok) return {};
  if (e.machine == EM_X86_64 && e.is64) return "x86_64";
  if (e.machine == EM_RISCV && e.is64) return "riscv64";
  return {};
}

bool bias_from_mapping(const ElfInfo& elf, uint64_t offset, uint64_t addr, uint64_t page_size,
                       uint64_t& bias) {
  const uint64_t mask = ~(page_size - 1);
  for (const ElfSegment& s : elf.loads) {
    if ((s.offset & mask) == offset) {
      bias = addr - (s.vaddr & mask);
      return true;
    }
  }
  return false;
}

bool LoadedObject::contains(uint64_t addr) const {
  for (const MappedRange& r : ranges)
    if (addr >= r.start && addr < r.end) return true;
  return false;
}

bool LoadedObject::contains_exec(uint64_t addr) const {
  for (const MappedRange& r : ranges)
    if ((r.flags & PF_X) && addr >= r.start && addr < r.end) return true;
  return false;
}

int LoadMap::find(uint64_t addr) const {
  for (size_t i = objects.size(); i-- > 0;) {
    if (!objects[i].unloaded && objects[i].contains(addr)) return static_cast<int>(i);
  }
  return -1;
}

int LoadMap::add(const std::string& path, const std::string& host_path, const std::string& role,
                 const ElfInfo& elf, uint64_t bias, uint64_t loaded_at) {
  LoadedObject o;
  o.path = path;
  o.host_path = host_path;
  o.role = role;
  o.bias = bias;
  o.loaded_at = loaded_at;
  o.elf = elf;
  const uint64_t mask = ~(page_size - 1);
  for (const ElfSegment& s : elf.loads) {
    if (s.memsz == 0) continue;
    MappedRange r;
    r.start = (s.vaddr & mask) + bias;
    r.end = ((s.vaddr + s.memsz + page_size - 1) & mask) + bias;
    r.offset = s.offset & mask;
    r.vaddr = s.vaddr & mask;
    r.flags = s.flags & (PF_R | PF_W | PF_X);
    o.ranges.push_back(r);
  }
  objects.push_back(std::move(o));
  return static_cast<int>(objects.size() - 1);
}

void LoadMap::write(const std::string& path) const {
  using nlohmann::json;
  json j;
  j["format"] = "hwprof-loadmap";
  j["version"] = 1;
  j["isa"] = isa;
  j["trace"] = trace;
  j["argv"] = argv;
  j["qemu"] = qemu_version;
  j["page_size"] = page_size;
  j["first_pc"] = hex(first_pc);
  j["instructions"] = instructions;
  j["unmapped_insns"] = unmapped_insns;
  json objs = json::array();
  for (const LoadedObject& o : objects) {
    json jo;
    jo["path"] = o.path;
    jo["host_path"] = o.host_path;
    jo["role"] = o.role;
    jo["elf_type"] = type_name(o.elf.type);
    jo["build_id"] = o.elf.build_id;
    jo["bias"] = hex(o.bias);
    jo["entry"] = hex(o.elf.entry + o.bias);
    jo["loaded_at"] = o.loaded_at;
    if (o.unloaded) jo["unloaded_at"] = o.unloaded_at;
    jo["insns"] = o.insns;
    json rs = json::array();
    for (const MappedRange& r : o.ranges) {
      rs.push_back({{"start", hex(r.start)},
                    {"end", hex(r.end)},
                    {"prot", prot_string(r.flags)},
                    {"offset", hex(r.offset)},
                    {"vaddr", hex(r.vaddr)}});
    }
    jo["ranges"] = rs;
    objs.push_back(jo);
  }
  j["objects"] = objs;
  j["notes"] = notes;

  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream f(tmp);
    if (!f) throw std::runtime_error(path + ": cannot create: " + std::strerror(errno));
    f << j.dump(1) << "\n";
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      throw std::runtime_error(path + ": write error");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot rename into place: " + std::strerror(err));
  }
}

LoadMap LoadMap::read(const std::string& path) {
  using nlohmann::json;
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  json j;
  try {
    f >> j;
  } catch (const json::exception& e) {
    throw std::runtime_error(path + ": not valid JSON: " + e.what());
  }
  try {
    if (j.value("format", "") != "hwprof-loadmap")
      throw std::runtime_error(path + ": field 'format': not an hwprof-loadmap");
    if (j.value("version", 0) != 1)
      throw std::runtime_error(path + ": field 'version': unsupported version");
    LoadMap m;
    m.isa = j.value("isa", "");
    m.trace = j.value("trace", "");
    if (j.contains("argv")) m.argv = j["argv"].get<std::vector<std::string>>();
    m.qemu_version = j.value("qemu", "");
    m.page_size = j.value("page_size", uint64_t{4096});
    if (j.contains("first_pc")) m.first_pc = unhex(j["first_pc"], path, "first_pc");
    m.instructions = j.value("instructions", uint64_t{0});
    m.unmapped_insns = j.value("unmapped_insns", uint64_t{0});
    for (const json& jo : j.at("objects")) {
      LoadedObject o;
      o.path = jo.at("path").get<std::string>();
      o.host_path = jo.value("host_path", o.path);
      o.role = jo.value("role", "lib");
      o.bias = unhex(jo.at("bias"), path, "bias");
      o.loaded_at = jo.value("loaded_at", uint64_t{0});
      if (jo.contains("unloaded_at")) {
        o.unloaded = true;
        o.unloaded_at = jo["unloaded_at"].get<uint64_t>();
      }
      o.insns = jo.value("insns", uint64_t{0});
      o.elf.build_id = jo.value("build_id", "");
      o.elf.entry = unhex(jo.at("entry"), path, "entry") - o.bias;
      for (const json& jr : jo.at("ranges")) {
        MappedRange r;
        r.start = unhex(jr.at("start"), path, "start");
        r.end = unhex(jr.at("end"), path, "end");
        r.offset = unhex(jr.at("offset"), path, "offset");
        r.vaddr = unhex(jr.at("vaddr"), path, "vaddr");
        r.flags = prot_flags(jr.at("prot").get<std::string>());
        o.ranges.push_back(r);
      }
      m.objects.push_back(std::move(o));
    }
    if (j.contains("notes")) m.notes = j["notes"].get<std::vector<std::string>>();
    return m;
  } catch (const json::exception& e) {
    throw std::runtime_error(path + ": malformed load map: " + e.what());
  }
}

}  // namespace hwprof::record
