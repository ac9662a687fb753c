// Profile-guided trace fabrication (paper 004 section 3); see fabricate.h and
// docs/analyses.md, "Trace fabrication".
#include "fabricate.h"

#include <elf.h>
#include <fcntl.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "hpt_algo.h"
#include "trace_source.h"

namespace hwprof::analyses {

using trace::Kind;
using trace::Record;

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool is_direct(Kind k) { return k == Kind::Br || k == Kind::Jmp || k == Kind::Call; }
bool has_histogram(Kind k) { return k == Kind::Ijmp || k == Kind::Icall || k == Kind::Ret; }

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

// ================================================================ randomness

uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  // Draws below 2^64 mod n would make the low residues likelier: reject them.
  const uint64_t reject = (0 - n) % n;
  for (;;) {
    const uint64_t x = rng();
    if (x >= reject) return x % n;
  }
}

std::mt19937_64 tracelet_rng(uint64_t seed, uint64_t index) {
  return std::mt19937_64(splitmix64(splitmix64(seed) ^ index));
}

// ========================================================== profile database

ProfileDb::ProfileDb(Sampling s) : sampling_(s) {
  if (sampling_.every == 0) sampling_.every = 1;
  if (sampling_.window == 0) sampling_.window = 1;
}

size_t ProfileDb::PcTargetHash::operator()(const PcTarget& k) const {
  return static_cast<size_t>(splitmix64(k.pc) ^ k.target);
}

void ProfileDb::add(const Record& r) {
  if (!r.is_branch()) return;
  if (finished_) throw std::logic_error("ProfileDb::add after finish()");
  const uint64_t idx = records_++;
  insns_ += r.insns;
  const bool had_prev = have_prev_;
  const uint64_t block_start = prev_next_;
  have_prev_ = true;
  prev_next_ = r.next();
  if ((idx / sampling_.window) % sampling_.every != 0) return;
  ++sampled_;
  sampled_insns_ += r.insns;
  if (had_prev) {
    BlockProfile& bl = block_map_[block_start];
    bl.start = block_start;
    ++bl.count;
    bl.insns += r.insns;
  }
  auto [it, fresh] = branches_.try_emplace(r.pc);
  BranchProfile& b = it->second;
  if (fresh) {
    b.kind = r.kind;
    b.ilen = r.ilen;
    b.static_target = is_direct(r.kind) ? r.target : 0;
  } else if (b.kind != r.kind || b.ilen != r.ilen || (is_direct(r.kind) && b.static_target != r.target)) {
    ++conflicts_;
    return;
  }
  ++b.execs;
  b.insns += r.insns;
  b.events += r.events;
  if (r.kind == Kind::Br && !r.taken)
    ++b.not_taken;
  else
    ++b.taken;
  if (has_histogram(r.kind)) ++hist_[PcTarget{r.pc, r.target}];
}

void ProfileDb::finish() {
  if (finished_) return;
  finished_ = true;
  for (const auto& [k, n] : hist_) branches_[k.pc].targets.push_back({k.target, n, 0});
  hist_.clear();
  for (auto& [pc, b] : branches_) {
    std::sort(b.targets.begin(), b.targets.end(),
              [](const TargetCount& x, const TargetCount& y) { return x.target < y.target; });
    uint64_t cum = 0;
    for (auto& t : b.targets) t.cum = cum += t.count;
  }
  blocks_.reserve(block_map_.size());
  for (const auto& [s, bl] : block_map_) blocks_.push_back(bl);
  std::sort(blocks_.begin(), blocks_.end(),
            [](const BlockProfile& x, const BlockProfile& y) { return x.start < y.start; });
  block_map_.clear();
}

const BranchProfile* ProfileDb::branch(uint64_t pc) const {
  auto it = branches_.find(pc);
  return it == branches_.end() ? nullptr : &it->second;
}

ProfileDb build_profile(const std::string& trace_path, Sampling s, const std::function<void(uint64_t)>& progress,
                        const std::vector<uint64_t>& segments) {
  ProfileDb db(s);
  uint64_t n = 0, branches = 0;
  size_t seg = 0;
  uint64_t seg_end = segments.empty() ? UINT64_MAX : segments[0];
  trace::for_each(trace_path, [&](const Record& r) {
    if (r.is_branch()) {
      while (branches == seg_end && seg < segments.size()) {  // (skips empty segments)
        db.restart();
        seg_end = ++seg < segments.size() ? seg_end + segments[seg] : UINT64_MAX;
      }
      ++branches;
    }
    db.add(r);
    if ((++n & 0xffff) == 0 && progress) progress(n);
  });
  db.finish();
  return db;
}

uint64_t guess_target(const std::vector<TargetCount>& h, std::mt19937_64& rng) {
  const uint64_t x = uniform_below(rng, h.back().cum);
  auto it = std::upper_bound(h.begin(), h.end(), x, [](uint64_t v, const TargetCount& t) { return v < t.cum; });
  return it->target;
}

bool guess_taken(const BranchProfile& b, std::mt19937_64& rng) {
  return uniform_below(rng, b.taken + b.not_taken) < b.taken;
}

// ================================================================ code image

CodeImage::CodeImage(std::string isa) : isa_(std::move(isa)) {
  if (isa_ != "x86_64" && isa_ != "riscv64") throw std::runtime_error("unsupported isa '" + isa_ + "'");
}

bool CodeImage::add_region(uint64_t start, std::vector<uint8_t> bytes, int obj) {
  if (bytes.empty()) return true;
  const uint64_t end = start + bytes.size();
  for (const Region& r : regions_)
    if (start < r.start + r.bytes.size() && r.start < end) return false;
  Region reg{start, std::move(bytes), obj};
  auto pos = std::upper_bound(regions_.begin(), regions_.end(), start,
                              [](uint64_t a, const Region& r) { return a < r.start; });
  regions_.insert(pos, std::move(reg));
  cache_.clear();
  return true;
}

const uint8_t* CodeImage::bytes(uint64_t addr, size_t& n) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                             [](uint64_t a, const Region& r) { return a < r.start; });
  if (it == regions_.begin()) return nullptr;
  --it;
  const uint64_t off = addr - it->start;
  if (off >= it->bytes.size()) return nullptr;
  n = it->bytes.size() - off;
  return it->bytes.data() + off;
}

int CodeImage::object_of(uint64_t addr) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                             [](uint64_t a, const Region& r) { return a < r.start; });
  if (it == regions_.begin()) return -1;
  --it;
  return addr - it->start < it->bytes.size() ? it->obj : -1;
}

uint64_t CodeImage::mapped_bytes() const {
  uint64_t n = 0;
  for (const Region& r : regions_) n += r.bytes.size();
  return n;
}

bool CodeImage::is_trap(const uint8_t* p, unsigned len) const {
  if (isa_ == "x86_64") {
    if (len == 1) return p[0] == 0xf4 || p[0] == 0xcc || p[0] == 0xf1;  // hlt, int3, int1
    if (len == 2) return p[0] == 0x0f && (p[1] == 0x0b || p[1] == 0xff);  // ud2, ud0
    if (len >= 3) return p[0] == 0x0f && p[1] == 0xb9;                 // ud1
    return false;
  }
  if (len == 2) return (p[0] | p[1] << 8) == 0x9002 || (p[0] | p[1]) == 0;  // c.ebreak, defined illegal 0
  if (len == 4) return (p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24) == 0x00100073;  // ebreak
  return false;
}

record::InsnInfo CodeImage::decode(uint64_t pc) const {
  size_t n = 0;
  const uint8_t* p = bytes(pc, n);
  if (!p) return {};
  return record::decode_insn(isa_, pc, p, n);
}

const CodeBlock& CodeImage::block(uint64_t pc) {
  auto it = cache_.find(pc);
  if (it != cache_.end()) return it->second;
  CodeBlock b;
  uint64_t a = pc;
  for (;;) {
    size_t n = 0;
    const uint8_t* p = bytes(a, n);
    if (!p) {
      b.end = BlockEnd::Unmapped;
      break;
    }
    const record::InsnInfo in = record::decode_insn(isa_, a, p, n);
    if (!in.valid || in.len == 0 || in.len > n) {
      b.end = BlockEnd::Undecodable;
      break;
    }
    if (is_trap(p, in.len)) {
      b.end = BlockEnd::Trap;
      break;
    }
    if (in.is_cf) {
      b.end = BlockEnd::Branch;
      b.cf = in;
      break;
    }
    ++b.plain;
    b.plain_mem += in.mem;
    a += in.len;
    if (b.plain == kMaxBlock) {
      b.end = BlockEnd::Long;
      break;
    }
  }
  b.end_pc = a;
  return cache_.emplace(pc, b).first->second;
}

std::vector<int> load_code(CodeImage& code, const record::LoadMap& map, const std::string& map_path,
                           const std::vector<uint64_t>& needed, const LoadCodeOptions& opt) {
  const size_t nobj = map.objects.size();
  std::vector<char> need(nobj, 0);
  for (uint64_t a : needed)
    for (size_t i = 0; i < nobj; ++i)
      if (!need[i] && map.objects[i].contains_exec(a)) need[i] = 1;
  // Objects still mapped at the end first (they own overlapping ranges).
  std::vector<int> order;
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < nobj; ++i)
      if (need[i] && map.objects[i].unloaded == (pass == 1)) order.push_back(static_cast<int>(i));
  if (elf_version(EV_CURRENT) == EV_NONE) throw std::runtime_error("libelf initialisation failed");
  std::vector<int> loaded;
  for (int i : order) {
    const record::LoadedObject& o = map.objects[static_cast<size_t>(i)];
    const std::string file = o.host_path.empty() ? o.path : o.host_path;
    const std::string who = map_path + ": object '" + o.path + "'";
    const record::ElfInfo info = record::read_elf(file);
    if (!info.ok) throw std::runtime_error(who + ": ELF file '" + file + "': " + info.error);
    if (opt.check_build_id && !o.elf.build_id.empty() && info.build_id != o.elf.build_id)
      throw std::runtime_error(who + ": ELF file '" + file + "' has build id " +
                               (info.build_id.empty() ? std::string("(none)") : info.build_id) +
                               " but the map says " + o.elf.build_id +
                               ": it is not the file that ran (--ignore-build-id uses it anyway)");
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(who + ": cannot open '" + file + "': " + std::strerror(errno));
    Elf* e = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    size_t size = 0;
    const char* raw = e ? elf_rawfile(e, &size) : nullptr;
    if (!raw) {
      if (e) elf_end(e);
      ::close(fd);
      throw std::runtime_error(who + ": ELF file '" + file + "': cannot read: " + elf_errmsg(-1));
    }
    for (const record::MappedRange& r : o.ranges) {
      if (!(r.flags & PF_X) || r.offset >= size || r.end <= r.start) continue;
      const uint64_t len = std::min<uint64_t>(r.end - r.start, size - r.offset);
      std::vector<uint8_t> bytes(reinterpret_cast<const uint8_t*>(raw) + r.offset,
                                 reinterpret_cast<const uint8_t*>(raw) + r.offset + len);
      code.add_region(r.start, std::move(bytes), i);  // an overlapped (unloaded) range is dropped
    }
    elf_end(e);
    ::close(fd);
    loaded.push_back(i);
  }
  return loaded;
}

ProfileCheck check_profile(const ProfileDb& db, const CodeImage& code) {
  ProfileCheck c;
  auto bad = [&](uint64_t pc, const std::string& what) {
    if (c.first_bad.empty() || pc < c.first_bad_pc) {
      c.first_bad_pc = pc;
      c.first_bad = what;
    }
  };
  for (const auto& [pc, b] : db.branches()) {
    ++c.branches;
    const std::string k(trace::kind_name(b.kind));
    if (code.object_of(pc) < 0) {
      ++c.unmapped;
      bad(pc, "the trace has a " + k + " at " + hex(pc) + ", outside the mapped code");
      continue;
    }
    const record::InsnInfo in = code.decode(pc);
    std::string why;
    if (!in.valid)
      why = "undecodable bytes";
    else if (!in.is_cf)
      why = "no control-flow instruction";
    else if (in.kind != b.kind)
      why = "a " + std::string(trace::kind_name(in.kind));
    else if (in.len != b.ilen)
      why = "an instruction of " + std::to_string(in.len) + " bytes (the trace says " + std::to_string(b.ilen) + ")";
    else if (is_direct(b.kind) && in.target != b.static_target)
      why = "target " + hex(in.target) + " (the trace says " + hex(b.static_target) + ")";
    if (!why.empty()) {
      ++c.mismatched;
      bad(pc, "the trace has a " + k + " at " + hex(pc) + ", the ELF file has " + why);
    }
  }
  return c;
}

// ================================================================ fabrication

const char* to_string(TraceletEnd e) {
  static const char* const names[] = {"length", "unmapped", "undecodable", "trap", "unprofiled_indirect",
                                      "unprofiled_return"};
  return names[static_cast<int>(e)];
}

Fabricator::Fabricator(const ProfileDb& db, CodeImage& code, FabricateOptions o) : db_(db), code_(code), o_(o) {
  if (o_.tracelet_len == 0) throw std::invalid_argument("tracelet length must be at least 1");
  if (o_.max_call_depth == 0) o_.max_call_depth = 1;
  for (const BlockProfile& b : db_.blocks()) {
    const uint64_t w = o_.weight == SeedWeight::Insns ? b.insns : b.count;
    if (w == 0) continue;
    if (code_.object_of(b.start) < 0) {
      unmapped_seed_weight_ += w;
      continue;
    }
    seeds_.push_back(b.start);
    total_ += w;
    cum_.push_back(total_);
  }
  if (seeds_.empty())
    throw std::runtime_error("no profiled block starts in mapped code (is the load map the trace's own?)");
}

uint64_t Fabricator::pick_seed(std::mt19937_64& rng) const {
  const uint64_t x = uniform_below(rng, total_);
  const size_t i = static_cast<size_t>(std::upper_bound(cum_.begin(), cum_.end(), x) - cum_.begin());
  return seeds_[i];
}

TraceletResult Fabricator::tracelet(uint64_t index, std::vector<Record>& out) {
  std::mt19937_64 rng = tracelet_rng(o_.seed, index);
  const uint64_t start = pick_seed(rng);
  return walk(start, rng, out);
}

TraceletResult Fabricator::walk(uint64_t start, std::mt19937_64& rng, std::vector<Record>& out) {
  TraceletResult res;
  uint64_t pc = start;
  res.seed_pc = pc;
  stack_.clear();
  uint64_t left = o_.tracelet_len;  // instructions still to walk
  uint64_t insns = 0, events = 0;   // since the last record
  auto push_return = [&](uint64_t a) {
    if (stack_.size() == o_.max_call_depth) {
      stack_.erase(stack_.begin());
      ++stats_.call_overflows;
    }
    stack_.push_back(a);
  };
  TraceletEnd end = TraceletEnd::Length;
  while (left > 0) {
    const CodeBlock& b = code_.block(pc);
    const uint64_t take = std::min<uint64_t>(b.plain, left);
    insns += take;
    left -= take;
    if (left == 0) break;  // the tracelet ends inside or right after the straight-line code
    events += b.plain_mem;
    if (b.end == BlockEnd::Long) {
      pc = b.end_pc;
      continue;
    }
    if (b.end != BlockEnd::Branch) {
      end = b.end == BlockEnd::Unmapped ? TraceletEnd::Unmapped
            : b.end == BlockEnd::Trap   ? TraceletEnd::Trap
                                        : TraceletEnd::Undecodable;
      res.end_pc = b.end_pc;
      break;
    }
    // The control-flow instruction at the end of the block.
    const record::InsnInfo& cf = b.cf;
    const uint64_t at = b.end_pc, fall = at + cf.len;
    const BranchProfile* bp = db_.branch(at);
    if (bp && bp->kind != cf.kind) bp = nullptr;  // the profile and the code disagree: ignore the profile
    Record r;
    r.kind = cf.kind;
    r.pc = at;
    r.ilen = cf.len;
    r.taken = true;
    uint64_t next = 0;
    switch (cf.kind) {
      case Kind::Br: {
        bool t;
        if (cf.target == fall) {
          t = false;  // as the recorder: a br to its own fall-through is never taken
        } else if (bp && bp->taken + bp->not_taken > 0) {
          t = guess_taken(*bp, rng);
          ++stats_.br_profiled;
        } else {
          t = cf.target <= at;  // no profile: backward taken, forward not taken
          ++stats_.br_static;
        }
        r.target = cf.target;
        r.taken = t;
        next = t ? cf.target : fall;
        break;
      }
      case Kind::Jmp:
        next = r.target = cf.target;
        break;
      case Kind::Call:
        push_return(fall);
        next = r.target = cf.target;
        break;
      case Kind::Ijmp:
      case Kind::Icall:
        if (!bp || bp->targets.empty()) {
          end = TraceletEnd::UnprofiledIndirect;
          break;
        }
        next = r.target = guess_target(bp->targets, rng);
        ++stats_.indirect_guessed;
        if (cf.kind == Kind::Icall) push_return(fall);
        break;
      case Kind::Ret:
        if (!stack_.empty()) {
          next = stack_.back();
          stack_.pop_back();
          ++stats_.ret_popped;
        } else if (bp && !bp->targets.empty()) {
          next = guess_target(bp->targets, rng);
          ++stats_.ret_guessed;
        } else {
          end = TraceletEnd::UnprofiledReturn;
          break;
        }
        r.target = next;
        break;
      default:
        throw std::logic_error("fabricate: decoder returned a non-branch kind");
    }
    if (end != TraceletEnd::Length) {
      res.end_pc = at;
      break;
    }
    --left;
    r.insns = static_cast<uint32_t>(std::min<uint64_t>(insns + 1, UINT32_MAX));
    r.events = static_cast<uint32_t>(std::min<uint64_t>(events + cf.mem, UINT32_MAX));
    out.push_back(r);
    ++res.records;
    res.walked += insns + 1;
    ++stats_.records;
    ++stats_.kinds[static_cast<int>(r.kind)];
    stats_.instructions += r.insns;
    stats_.events += r.events;
    const int obj = code_.object_of(at);
    if (obj >= 0) {
      if (stats_.object_insns.size() <= static_cast<size_t>(obj)) stats_.object_insns.resize(size_t(obj) + 1);
      stats_.object_insns[static_cast<size_t>(obj)] += r.insns;
    }
    insns = events = 0;
    pc = next;
  }
  res.walked += insns;
  stats_.tail += insns;
  res.end = end;
  ++stats_.tracelets;
  ++stats_.ends[static_cast<int>(end)];
  return res;
}

// ================================================================ quality

BlProfiler::BlProfiler(unsigned depth, unsigned max_len) : algo_(depth, max_len), ppcr_{model::Ppcr::kBl} {}

void BlProfiler::add(const Record& r) {
  if (!r.is_branch()) return;
  const auto rec = model::PathRecord::classify(hwprof::trace::branch_record(r), ppcr_);
  if (auto e = algo_.process(rec)) profile_.add(*e);
}

void BlProfiler::restart() { algo_.reset(); }

model::PathProfile bl_profile(const std::string& trace_path) {
  BlProfiler p;
  trace::for_each(trace_path, [&](const Record& r) { p.add(r); });
  return p.profile();
}

double flow_overlap(const model::PathProfile& real, const model::PathProfile& fab) {
  return model::path_overlap(model::exact_weights(real, model::HptMetric::Freq),
                             model::exact_weights(fab, model::HptMetric::Freq));
}

// ================================================================ output map

void write_fabricated_map(const std::string& src, const std::string& dst, const FabricatedMapInfo& info) {
  using nlohmann::json;
  std::ifstream f(src);
  if (!f) throw std::runtime_error(src + ": cannot open: " + std::strerror(errno));
  json j;
  try {
    f >> j;
  } catch (const json::exception& e) {
    throw std::runtime_error(src + ": not valid JSON: " + e.what());
  }
  j["trace"] = info.trace;
  j["instructions"] = info.instructions;
  j["unmapped_insns"] = 0;
  if (j.contains("objects") && j["objects"].is_array()) {
    auto& objs = j["objects"];
    for (size_t i = 0; i < objs.size(); ++i)
      objs[i]["insns"] = i < info.object_insns.size() ? info.object_insns[i] : 0;
  }
  j["fabricated"] = {{"source_trace", info.source_trace},
                     {"tracelets", info.tracelets},
                     {"tracelet_len", info.tracelet_len},
                     {"seed", info.seed},
                     {"sample_every", info.sampling.every},
                     {"sample_window", info.sampling.window},
                     {"seed_weight", info.weight},
                     {"tracelet_records", info.tracelet_records}};
  auto& early = j["fabricated"]["ended_early"] = json::array();
  for (const auto& [i, t] : info.early)
    early.push_back({{"tracelet", i}, {"end", to_string(t.end)}, {"seed", hex(t.seed_pc)}, {"at", hex(t.end_pc)}});
  if (!j.contains("notes") || !j["notes"].is_array()) j["notes"] = json::array();
  j["notes"].push_back("fabricated by hwprof fabricate from " + info.source_trace + ": " +
                       std::to_string(info.tracelets) + " tracelets of " + std::to_string(info.tracelet_len) +
                       " instructions, seed " + std::to_string(info.seed) +
                       "; instructions and insns count the fabricated trace");
  const std::string tmp = dst + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream o(tmp);
    if (!o) throw std::runtime_error(dst + ": cannot create: " + std::strerror(errno));
    o << j.dump(1) << "\n";
    o.close();
    if (!o) {
      std::remove(tmp.c_str());
      throw std::runtime_error(dst + ": write error");
    }
  }
  if (std::rename(tmp.c_str(), dst.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(dst + ": cannot rename into place: " + std::strerror(err));
  }
}

}  // namespace hwprof::analyses
