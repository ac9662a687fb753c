// hwprof record: real-program branch traces from qemu-user's execution log.
//
// qemu runs the program with one guest instruction per translation block and
// logs, into a named pipe that this process reads:
//   in_asm   "IN:" blocks with the address and bytes of every instruction at
//            its first translation (and at every retranslation);
//   exec     one "Trace N: ... [cs_base/pc/flags/cflags]" line per execution;
//   nochain  so that every execution goes through the logging path;
//   strace   syscalls (openat/mmap/munmap/close build the shared-library part
//            of the load map; rt_sigreturn and "--- SIGxxx" lines tell signal
//            delivery and return);
//   page     the memory layout after the binary load ("start_code", "entry"),
//            which gives the load biases of the executable and ld.so.
// Every instruction is decoded once per static pc (capstone for x86_64, a
// built-in decoder for riscv64); each executed control-flow instruction
// becomes one branch record, resolved by the pc executed next.
// docs/recorder.md describes the rules, the events metric and the limits.

#include "recorder.h"

#include <capstone/capstone.h>
#include <elf.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "loadmap.h"

namespace hwprof::record {

using trace::Kind;
using trace::Record;

// ============================================================== decoding

namespace {

bool is_link_reg(unsigned r) { return r == 1 || r == 5; }

int64_t sext(uint64_t v, unsigned bits) {
  const uint64_t m = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((v ^ m) - m);
}

InsnInfo decode_riscv(uint64_t pc, const uint8_t* b, size_t n) {
  InsnInfo info;
  if (n < 2) return info;
  const uint32_t lo = b[0] | (uint32_t{b[1]} << 8);
  if ((lo & 3) != 3) {
    // ---- compressed (RVC), RV64
    info.valid = true;
    info.len = 2;
    const uint32_t i = lo;
    const unsigned q = i & 3, f3 = (i >> 13) & 7;
    if (q == 1 && f3 == 5) {  // C.J
      uint64_t off = (((i >> 12) & 1) << 11) | (((i >> 11) & 1) << 4) | (((i >> 9) & 3) << 8) |
                     (((i >> 8) & 1) << 10) | (((i >> 7) & 1) << 6) | (((i >> 6) & 1) << 7) |
                     (((i >> 3) & 7) << 1) | (((i >> 2) & 1) << 5);
      info.is_cf = true;
      info.kind = Kind::Jmp;
      info.direct = true;
      info.target = pc + static_cast<uint64_t>(sext(off, 12));
    } else if (q == 1 && (f3 == 6 || f3 == 7)) {  // C.BEQZ / C.BNEZ
      uint64_t off = (((i >> 12) & 1) << 8) | (((i >> 10) & 3) << 3) | (((i >> 5) & 3) << 6) |
                     (((i >> 3) & 3) << 1) | (((i >> 2) & 1) << 5);
      info.is_cf = true;
      info.kind = Kind::Br;
      info.direct = true;
      info.target = pc + static_cast<uint64_t>(sext(off, 9));
    } else if (q == 2 && f3 == 4) {
      const unsigned rs1 = (i >> 7) & 31, rs2 = (i >> 2) & 31, bit12 = (i >> 12) & 1;
      if (rs2 == 0 && rs1 != 0) {
        info.is_cf = true;
        if (bit12 == 0)  // C.JR rs1  = jalr x0, 0(rs1)
          info.kind = is_link_reg(rs1) ? Kind::Ret : Kind::Ijmp;
        else  // C.JALR rs1 = jalr x1, 0(rs1)
          info.kind = Kind::Icall;
      }
    } else if (q == 0) {
      info.mem = (f3 == 1 || f3 == 2 || f3 == 3 || f3 == 5 || f3 == 6 || f3 == 7);  // C.FLD C.LW C.LD C.FSD C.SW C.SD
    } else if (q == 2) {
      info.mem = (f3 == 1 || f3 == 2 || f3 == 3 || f3 == 5 || f3 == 6 || f3 == 7);  // *SP loads and stores
    }
    return info;
  }
  if (n < 4) return info;
  const uint32_t i = lo | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24);
  if ((i & 0x1c) == 0x1c) return info;  // 48-bit and longer encodings: not supported
  info.valid = true;
  info.len = 4;
  const unsigned op = i & 0x7f, rd = (i >> 7) & 31, rs1 = (i >> 15) & 31;
  switch (op) {
    case 0x6f: {  // JAL
      uint64_t off = (((i >> 31) & 1) << 20) | (((i >> 21) & 0x3ff) << 1) | (((i >> 20) & 1) << 11) |
                     (((i >> 12) & 0xff) << 12);
      info.is_cf = true;
      info.kind = is_link_reg(rd) ? Kind::Call : Kind::Jmp;
      info.direct = true;
      info.target = pc + static_cast<uint64_t>(sext(off, 21));
      break;
    }
    case 0x67:  // JALR (RISC-V return-address-stack hints, unprivileged spec table 2.1)
      info.is_cf = true;
      if (is_link_reg(rd))
        info.kind = Kind::Icall;
      else if (is_link_reg(rs1))
        info.kind = Kind::Ret;
      else
        info.kind = Kind::Ijmp;
      break;
    case 0x63: {  // BRANCH
      uint64_t off = (((i >> 31) & 1) << 12) | (((i >> 25) & 0x3f) << 5) | (((i >> 8) & 0xf) << 1) |
                     (((i >> 7) & 1) << 11);
      info.is_cf = true;
      info.kind = Kind::Br;
      info.direct = true;
      info.target = pc + static_cast<uint64_t>(sext(off, 13));
      break;
    }
    case 0x03: case 0x07: case 0x23: case 0x27: case 0x2f:  // LOAD LOAD-FP STORE STORE-FP AMO
      info.mem = true;
      break;
    default:
      break;
  }
  return info;
}

class X86Decoder {
 public:
  X86Decoder() {
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &h_) != CS_ERR_OK) throw RecordError("capstone: cs_open failed");
    cs_option(h_, CS_OPT_DETAIL, CS_OPT_ON);
    insn_ = cs_malloc(h_);
  }
  ~X86Decoder() {
    if (insn_) cs_free(insn_, 1);
    cs_close(&h_);
  }
  X86Decoder(const X86Decoder&) = delete;
  X86Decoder& operator=(const X86Decoder&) = delete;

  InsnInfo decode(uint64_t pc, const uint8_t* bytes, size_t n) {
    InsnInfo info;
    const uint8_t* code = bytes;
    size_t size = n;
    uint64_t addr = pc;
    if (!cs_disasm_iter(h_, &code, &size, &addr, insn_)) return info;
    info.valid = true;
    info.len = static_cast<uint8_t>(insn_->size);
    const cs_detail* d = insn_->detail;
    const cs_x86& x = d->x86;
    bool g_jump = false, g_call = false, g_ret = false;
    for (unsigned k = 0; k < d->groups_count; ++k) {
      g_jump |= d->groups[k] == CS_GRP_JUMP;
      g_call |= d->groups[k] == CS_GRP_CALL;
      g_ret |= d->groups[k] == CS_GRP_RET;
    }
    const bool imm0 = x.op_count >= 1 && x.operands[0].type == X86_OP_IMM;
    const unsigned id = insn_->id;
    // capstone 4 leaves loop/loope/loopne out of CS_GRP_JUMP
    if (id == X86_INS_LOOP || id == X86_INS_LOOPE || id == X86_INS_LOOPNE) g_jump = true;
    if (g_ret) {
      info.is_cf = true;
      info.kind = Kind::Ret;
    } else if (g_call) {
      info.is_cf = true;
      if (id == X86_INS_CALL && imm0) {
        info.kind = Kind::Call;
        info.direct = true;
        info.target = static_cast<uint64_t>(x.operands[0].imm);
      } else {
        info.kind = Kind::Icall;  // register, memory, far
      }
    } else if (g_jump) {
      info.is_cf = true;
      if (id == X86_INS_JMP) {
        if (imm0) {
          info.kind = Kind::Jmp;
          info.direct = true;
          info.target = static_cast<uint64_t>(x.operands[0].imm);
        } else {
          info.kind = Kind::Ijmp;
        }
      } else if (id == X86_INS_LJMP) {
        info.kind = Kind::Ijmp;
      } else if (imm0) {  // jcc, jcxz/jecxz/jrcxz, loop/loope/loopne, xbegin
        info.kind = Kind::Br;
        info.direct = true;
        info.target = static_cast<uint64_t>(x.operands[0].imm);
      } else {
        info.is_cf = false;  // not expected from capstone; treat as ordinary
      }
    }
    if (id != X86_INS_LEA && id != X86_INS_NOP) {
      for (unsigned k = 0; k < x.op_count; ++k)
        if (x.operands[k].type == X86_OP_MEM) info.mem = true;
    }
    return info;
  }

 private:
  csh h_ = 0;
  cs_insn* insn_ = nullptr;
};

}  // namespace

InsnInfo decode_insn(const std::string& isa, uint64_t pc, const uint8_t* bytes, size_t n) {
  if (isa == "riscv64") return decode_riscv(pc, bytes, n);
  if (isa == "x86_64") {
    static thread_local std::unique_ptr<X86Decoder> dec;
    if (!dec) dec = std::make_unique<X86Decoder>();
    return dec->decode(pc, bytes, n);
  }
  throw RecordError("unsupported isa '" + isa + "'");
}

// ============================================================== helpers

namespace {

volatile sig_atomic_t g_interrupted = 0;
extern "C" void on_interrupt(int sig) { g_interrupted = sig; }

bool starts_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Parses hex digits at s[pos..]; advances pos. Returns false if none.
bool parse_hex(std::string_view s, size_t& pos, uint64_t& v) {
  size_t start = pos;
  v = 0;
  int h;
  while (pos < s.size() && (h = hexval(s[pos])) >= 0) {
    v = (v << 4) | static_cast<uint64_t>(h);
    ++pos;
  }
  return pos > start && pos - start <= 16;
}

/// strtoull/strtoll on a string_view token: decimal, 0x-hex, or NULL (= 0).
bool parse_num(std::string_view t, int64_t& v) {
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  if (t == "NULL") {
    v = 0;
    return true;
  }
  if (t.empty() || t.size() > 40) return false;
  std::string s(t);
  char* end = nullptr;
  errno = 0;
  if (s[0] == '-')
    v = std::strtoll(s.c_str(), &end, 0);
  else
    v = static_cast<int64_t>(std::strtoull(s.c_str(), &end, 0));
  return *end == '\0' && errno == 0;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string human(uint64_t v) {
  char b[32];
  if (v >= 1000000)
    std::snprintf(b, sizeof b, "%.2f M", v / 1e6);
  else if (v >= 10000)
    std::snprintf(b, sizeof b, "%.1f k", v / 1e3);
  else
    std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
  return b;
}

std::string with_commas(uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

std::string realpath_or(const std::string& p) {
  char* r = ::realpath(p.c_str(), nullptr);
  if (!r) return p;
  std::string s(r);
  std::free(r);
  return s;
}

std::string find_in_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string ps = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t b = 0;
  while (b <= ps.size()) {
    size_t e = ps.find(':', b);
    if (e == std::string::npos) e = ps.size();
    std::string dir = ps.substr(b, e - b);
    if (dir.empty()) dir = ".";
    std::string cand = dir + "/" + name;
    if (::access(cand.c_str(), X_OK) == 0) {
      struct stat st;
      if (::stat(cand.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return cand;
    }
    b = e + 1;
  }
  return {};
}

/// First line of `prog --version`, empty if it cannot run.
std::string tool_version(const std::string& prog) {
  std::string cmd = "'" + prog + "' --version 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return {};
  char buf[512];
  std::string line;
  if (std::fgets(buf, sizeof buf, p)) line = buf;
  while (std::fgets(buf, sizeof buf, p)) {
  }
  ::pclose(p);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

/// Temporary directory holding the named pipe; removed on destruction.
struct TempFifo {
  std::string dir, path;
  TempFifo() {
    const char* t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/hwprof-record.XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) throw RecordError(std::string("cannot create a temporary directory: ") + std::strerror(errno));
    dir = buf.data();
    path = dir + "/qemu.log";
    if (::mkfifo(path.c_str(), 0600) != 0) {
      int err = errno;
      ::rmdir(dir.c_str());
      throw RecordError("cannot create the named pipe " + path + ": " + std::strerror(err));
    }
  }
  ~TempFifo() {
    ::unlink(path.c_str());
    ::rmdir(dir.c_str());
  }
};

// ============================================================== log parser

/// Static instruction: decoded once per pc (and again at each retranslation).
struct Static {
  InsnInfo info;
  int obj = -1;  ///< index in LoadMap::objects, -1 if outside every object
};

/// A control-flow instruction waiting for the next executed pc.
struct Pending {
  bool valid = false;
  uint64_t pc = 0;
  InsnInfo info;
  uint64_t insns = 0, events = 0;  ///< the record's counts (this instruction included)
};

/// State saved when a signal handler is entered (see on_signal).
struct SigFrame {
  Pending stash;           ///< control-flow instruction interrupted before its successor ran
  size_t defer_index = 0;  ///< where its record goes in the deferred buffer
  bool have_cont = false;  ///< a non-control-flow instruction (rep string op) may resume
  uint64_t cont_pc = 0;
};

struct Counters {
  uint64_t insns = 0;             ///< counted instructions (main thread)
  uint64_t records = 0;
  uint64_t kinds[trace::kNumKinds] = {};
  uint64_t collapsed = 0;         ///< Trace lines merged into the instance before (rep iterations)
  uint64_t not_executed = 0;      ///< Trace lines undone by "Stopped execution of TB chain"
  uint64_t faulted = 0;           ///< instructions undone because they raised a fault signal
  uint64_t signals = 0;
  uint64_t sigreturns = 0;
  uint64_t anomalies = 0;         ///< direct branches whose successor was neither target nor fall-through
  uint64_t lost_records = 0;      ///< control-flow instructions whose successor never came
  uint64_t tail_insns = 0;        ///< instructions after the last record
  uint64_t other_threads = 0;     ///< instructions of threads other than the first (not recorded)
  uint64_t static_insns = 0;
  uint64_t retranslations = 0;
  uint64_t log_lines = 0;
  uint64_t log_bytes = 0;
};

class LogParser {
 public:
  LogParser(const std::string& isa, trace::Writer& w, LoadMap& map, uint64_t max_insns,
            const std::string& main_path, const ElfInfo& main_elf, const std::string& interp_path,
            const std::string& interp_host, const ElfInfo& interp_elf, const std::string& sysroot)
      : isa_(isa), w_(w), map_(map), max_(max_insns), main_path_(main_path), main_elf_(main_elf),
        interp_path_(interp_path), interp_host_(interp_host), interp_elf_(interp_elf), sysroot_(sysroot) {
    cache_.reserve(1 << 16);
  }

  /// Feeds raw log bytes.
  void feed(const char* p, size_t n) {
    c_.log_bytes += n;
    while (n > 0 && !stop_) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', n));
      if (!nl) {
        partial_.append(p, n);
        return;
      }
      size_t len = static_cast<size_t>(nl - p);
      if (!partial_.empty()) {
        partial_.append(p, len);
        line(partial_);
        partial_.clear();
      } else {
        line(std::string_view(p, len));
      }
      p += len + 1;
      n -= len + 1;
    }
  }

  /// End of the log (qemu exited or was stopped).
  void finish() {
    if (!stop_ && !partial_.empty()) {
      line(partial_);
      partial_.clear();
    }
    if (in_block_) end_block();
    if (pend_.valid) {
      ++c_.lost_records;
      c_.tail_insns += pend_.insns;
      pend_.valid = false;
    }
    for (SigFrame& f : frames_) {
      if (f.stash.valid) {
        ++c_.lost_records;
        c_.tail_insns += f.stash.insns;
        f.stash.valid = false;
      }
    }
    frames_.clear();
    deferring_ = 0;
    flush_deferred();
    c_.tail_insns += since_insns_;
    // Load-map checks.
    for (const LoadedObject& o : map_.objects) {
      if (o.role == "main" && cache_.find(o.elf.entry + o.bias) == cache_.end() && c_.insns > 0 && !stop_)
        map_.notes.push_back("the entry point of " + o.path + " (" + hex(o.elf.entry + o.bias) +
                             ") was never executed: its load bias may be wrong");
    }
  }

  bool stop() const { return stop_; }
  const Counters& counters() const { return c_; }
  uint64_t first_pc() const { return first_pc_; }

 private:
  // ---------------------------------------------------------------- lines
  void line(std::string_view l) {
    ++c_.log_lines;
    if (in_block_) {
      if (starts_with(l, "0x")) {
        block_line(l);
        return;
      }
      end_block();
      if (l.empty()) return;
    }
    if (starts_with(l, "Trace ")) {
      trace_line(l);
    } else if (starts_with(l, "IN:")) {
      in_block_ = true;
      block_bytes_.clear();
      block_pc_ = 0;
    } else if (starts_with(l, "Stopped execution of TB chain before")) {
      stopped_line(l);
    } else if (starts_with(l, "--- SIG")) {
      signal_line(l);
    } else if (starts_with(l, " = ")) {
      if (!pending_sys_.empty()) {
        std::string call = pending_sys_;
        pending_sys_.clear();
        syscall(call, l.substr(3));
      }
    } else if (!l.empty() && l[0] >= '0' && l[0] <= '9') {
      strace_line(l);
    } else if (starts_with(l, "page layout changed following binary load")) {
      after_binary_load_ = true;
    } else if (after_binary_load_ && (starts_with(l, "start_code ") || starts_with(l, "entry "))) {
      size_t sp = l.find("0x");
      uint64_t v = 0;
      if (sp != std::string_view::npos) {
        size_t pos = sp + 2;
        parse_hex(l, pos, v);
      }
      if (starts_with(l, "start_code ")) {
        start_code_ = v;
      } else {
        entry_ = v;
        have_entry_ = true;
        register_initial_objects();
      }
    }
  }

  // "0x40028fbb73:  e8 f8 0b 00 00           callq    0x40028fc770"
  // "0x40028fa7af:  00"                              (continuation)
  // "0x0000000000010078:  00000517          auipc   a0,0"   (riscv: one word)
  void block_line(std::string_view l) {
    size_t pos = 2;
    uint64_t addr = 0;
    if (!parse_hex(l, pos, addr) || pos >= l.size() || l[pos] != ':') return;
    ++pos;
    if (block_bytes_.empty()) {
      block_pc_ = addr;
    } else if (addr != block_pc_ + block_bytes_.size()) {
      end_block();
      in_block_ = true;
      block_pc_ = addr;
    }
    // Expect two spaces, then tokens separated by one space, ended by two
    // spaces or the end of the line.
    if (pos + 2 > l.size() || l[pos] != ' ' || l[pos + 1] != ' ') return;
    pos += 2;
    if (starts_with(l.substr(pos), "OBJD-T: ")) {  // qemu built without a disassembler: raw bytes
      pos += 8;
      int h1, h2;
      while (pos + 1 < l.size() && (h1 = hexval(l[pos])) >= 0 && (h2 = hexval(l[pos + 1])) >= 0) {
        block_bytes_.push_back(static_cast<uint8_t>(h1 * 16 + h2));
        pos += 2;
      }
      return;
    }
    while (pos < l.size()) {
      size_t s = pos;
      uint64_t v = 0;
      if (!parse_hex(l, pos, v)) break;
      size_t digits = pos - s;
      if (digits % 2 != 0 || (pos < l.size() && l[pos] != ' ')) break;
      for (size_t k = 0; k < digits / 2; ++k) block_bytes_.push_back(static_cast<uint8_t>(v >> (8 * k)));
      if (pos + 1 < l.size() && l[pos] == ' ' && l[pos + 1] == ' ') break;  // mnemonic follows
      if (pos < l.size()) ++pos;
    }
  }

  void end_block() {
    in_block_ = false;
    size_t off = 0;
    while (off < block_bytes_.size()) {
      const uint64_t pc = block_pc_ + off;
      InsnInfo info = decode_insn(isa_, pc, block_bytes_.data() + off, block_bytes_.size() - off);
      if (!info.valid || info.len == 0 || info.len > block_bytes_.size() - off) {
        info = InsnInfo{};
        info.len = static_cast<uint8_t>(std::min<size_t>(block_bytes_.size() - off, trace::kMaxIlen));
      }
      auto [it, inserted] = cache_.try_emplace(pc);
      if (inserted)
        ++c_.static_insns;
      else
        ++c_.retranslations;
      it->second.info = info;
      it->second.obj = map_.find(pc);
      off += info.len;
    }
    block_bytes_.clear();
  }

  // "Trace 0: 0x7f1354000200 [0000000000000000/00000040028fbb73/1040c0b3/00000201] sym"
  void trace_line(std::string_view l) {
    size_t pos = 6;
    unsigned cpu = 0;
    while (pos < l.size() && l[pos] >= '0' && l[pos] <= '9') cpu = cpu * 10 + static_cast<unsigned>(l[pos++] - '0');
    size_t br = l.find('[', pos);
    size_t sl = br == std::string_view::npos ? br : l.find('/', br);
    uint64_t pc = 0;
    if (sl == std::string_view::npos) throw RecordError("qemu log line " + std::to_string(c_.log_lines) + ": malformed Trace line: " + std::string(l));
    pos = sl + 1;
    if (!parse_hex(l, pos, pc)) throw RecordError("qemu log line " + std::to_string(c_.log_lines) + ": malformed Trace line: " + std::string(l));
    last_cpu_ = cpu;
    if (cpu != 0) {
      ++c_.other_threads;
      return;
    }
    execute(pc);
  }

  // ------------------------------------------------------------ execution
  void execute(uint64_t pc) {
    auto it = cache_.find(pc);
    if (it == cache_.end())
      throw RecordError("qemu log line " + std::to_string(c_.log_lines) + ": execution of " + hex(pc) +
                        " without its IN: block");
    const Static& s = it->second;
    if (first_pc_ == 0 && c_.insns == 0) {
      first_pc_ = pc;
      if (!have_entry_) register_initial_objects();
    }
    if (limit_reached_) {  // only a pending branch's successor was still needed
      if (pend_.valid) resolve(pc);
      stop_ = true;
      return;
    }
    if (resume_expected_) {
      resume_expected_ = false;
      if (resume(pc)) return;
    }
    if (pend_.valid) {
      resolve(pc);
    } else if (have_last_ && pc == last_pc_ && !last_cf_) {
      // Same instruction again with nothing in between: another iteration of a
      // rep-prefixed string instruction (or a re-execution); one instance.
      ++c_.collapsed;
      last_counted_ = false;
      return;
    }
    // Count it.
    ++c_.insns;
    ++since_insns_;
    since_events_ += s.info.mem ? 1 : 0;
    if (s.obj >= 0)
      ++map_.objects[static_cast<size_t>(s.obj)].insns;
    else
      ++map_.unmapped_insns;
    have_last_ = true;
    last_pc_ = pc;
    last_cf_ = s.info.is_cf;
    last_mem_ = s.info.mem;
    last_obj_ = s.obj;
    last_counted_ = true;
    if (s.info.is_cf) {
      pend_.valid = true;
      pend_.pc = pc;
      pend_.info = s.info;
      pend_.insns = since_insns_;
      pend_.events = since_events_;
      since_insns_ = since_events_ = 0;
    }
    if (max_ && c_.insns >= max_) {
      limit_reached_ = true;
      if (!pend_.valid) stop_ = true;
    }
  }

  /// Removes the last counted instruction (it did not complete).
  void undo_last() {
    --c_.insns;
    if (last_obj_ >= 0)
      --map_.objects[static_cast<size_t>(last_obj_)].insns;
    else
      --map_.unmapped_insns;
    if (pend_.valid && pend_.pc == last_pc_) {
      since_insns_ = pend_.insns - 1;
      since_events_ = pend_.events - (last_mem_ ? 1 : 0);
      pend_.valid = false;
    } else {
      --since_insns_;
      since_events_ -= last_mem_ ? 1 : 0;
    }
    last_counted_ = false;
    have_last_ = false;
    limit_reached_ = max_ && c_.insns >= max_;
  }

  Record make_record(const Pending& p, uint64_t next) {
    const InsnInfo& in = p.info;
    Record r;
    r.kind = in.kind;
    r.pc = p.pc;
    r.ilen = in.len;
    r.insns = static_cast<uint32_t>(std::min<uint64_t>(p.insns, UINT32_MAX));
    r.events = static_cast<uint32_t>(std::min<uint64_t>(p.events, UINT32_MAX));
    const uint64_t fall = p.pc + in.len;
    if (in.kind == Kind::Br) {
      r.target = in.target;
      r.taken = next != fall;
      if (next != fall && next != in.target) ++c_.anomalies;
    } else if (in.direct) {
      r.target = in.target;
      r.taken = true;
      if (next != in.target) ++c_.anomalies;
    } else {
      r.target = next;
      r.taken = true;
    }
    return r;
  }

  void resolve(uint64_t next) {
    Record r = make_record(pend_, next);
    pend_.valid = false;
    emit(r);
  }

  void emit(const Record& r) {
    ++c_.records;
    ++c_.kinds[static_cast<size_t>(r.kind)];
    if (deferring_ > 0) {
      deferred_.push_back(r);
      if (deferred_.size() > (size_t{1} << 20)) {  // a handler that never returns: give up on the stashed branches
        for (SigFrame& f : frames_) {
          if (f.stash.valid) {
            ++c_.lost_records;
            f.stash.valid = false;
          }
        }
        deferring_ = 0;
        flush_deferred();
      }
    } else {
      w_.write(r);
    }
  }

  void flush_deferred() {
    for (const Record& r : deferred_) w_.write(r);
    deferred_.clear();
  }

  // "Stopped execution of TB chain before 0x7f6f5c2d1e80 [0000004002891c1d] "
  void stopped_line(std::string_view l) {
    if (last_cpu_ != 0) return;
    size_t br = l.find('[');
    if (br == std::string_view::npos) return;
    size_t pos = br + 1;
    uint64_t pc = 0;
    if (!parse_hex(l, pos, pc)) return;
    if (have_last_ && last_counted_ && pc == last_pc_) {
      undo_last();
      ++c_.not_executed;
    }
  }

  // "--- SIGSEGV {si_signo=SIGSEGV, si_code=1, si_addr=0x0000000000000008} ---"
  void signal_line(std::string_view l) {
    if (last_cpu_ != 0) return;
    ++c_.signals;
    std::string_view name = l.substr(4);
    name = name.substr(0, name.find(' '));
    std::string_view code;
    size_t cp = l.find("si_code=");
    if (cp != std::string_view::npos) {
      code = l.substr(cp + 8);
      code = code.substr(0, code.find_first_of(",}"));
    }
    uint64_t fault_addr = 0;
    bool have_addr = false;
    size_t ap = l.find("si_addr=0x");
    if (ap != std::string_view::npos) {
      size_t pos = ap + 10;
      have_addr = parse_hex(l, pos, fault_addr);
    }
    const bool fault_sig = name == "SIGSEGV" || name == "SIGBUS" || name == "SIGFPE" || name == "SIGILL";
    const bool from_process = starts_with(code, "SI_") && code != "SI_KERNEL";
    SigFrame f;
    if (fault_sig && !from_process) {
      // Synchronous fault. If a control-flow instruction is pending, it
      // completed and its successor could not be fetched: the fault address
      // is that successor. Otherwise the last instruction raised the fault
      // and did not complete.
      if (pend_.valid) {
        if (have_addr) {
          resolve(fault_addr);
        } else {
          ++c_.lost_records;
          since_insns_ += pend_.insns;
          since_events_ += pend_.events;
          pend_.valid = false;
        }
      } else if (have_last_ && last_counted_) {
        undo_last();
        ++c_.faulted;
      }
    } else if (pend_.valid) {
      // Asynchronous signal right after a control-flow instruction: its
      // successor is where the handler returns to. Its record goes before the
      // handler's records.
      f.stash = pend_;
      f.defer_index = deferred_.size();
      pend_.valid = false;
      ++deferring_;
    } else if (have_last_) {
      f.have_cont = true;  // a rep string instruction may resume where it was interrupted
      f.cont_pc = last_pc_;
    }
    frames_.push_back(f);
    have_last_ = false;
  }

  /// First execution after rt_sigreturn. Returns true if this Trace line
  /// continues the interrupted instance and must not be counted.
  bool resume(uint64_t pc) {
    if (frames_.empty()) return false;
    SigFrame f = frames_.back();
    frames_.pop_back();
    bool cont = false;
    if (f.stash.valid) {
      Record r = make_record(f.stash, pc);
      --deferring_;
      ++c_.records;
      ++c_.kinds[static_cast<size_t>(r.kind)];
      const size_t at = std::min(f.defer_index, deferred_.size());
      deferred_.insert(deferred_.begin() + static_cast<std::ptrdiff_t>(at), r);
    } else if (f.have_cont && f.cont_pc == pc) {
      cont = true;
    }
    if (deferring_ == 0) flush_deferred();
    if (cont) {
      ++c_.collapsed;
      have_last_ = true;
      last_pc_ = pc;
      last_cf_ = false;
      last_counted_ = false;
    }
    return cont;
  }

  // ----------------------------------------------------------------- strace
  // "3866 openat(-100,"/lib/x86_64-linux-gnu/libc.so.6",O_RDONLY|O_CLOEXEC) = 4"
  // "3866 mmap(NULL,8192,PROT_READ|PROT_WRITE,...,-1,0)page layout changed following mmap"
  void strace_line(std::string_view l) {
    size_t pos = 0;
    while (pos < l.size() && l[pos] >= '0' && l[pos] <= '9') ++pos;
    if (pos >= l.size() || l[pos] != ' ') return;  // e.g. a page-dump line
    std::string_view rest = l.substr(pos + 1);
    size_t paren = rest.find('(');
    if (paren == std::string_view::npos || paren == 0) return;
    for (size_t k = 0; k < paren; ++k) {
      char c = rest[k];
      if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return;
    }
    size_t pl = rest.find("page layout changed");
    if (pl != std::string_view::npos) rest = rest.substr(0, pl);
    std::string_view name = rest.substr(0, paren);
    if (name == "rt_sigreturn" || name == "sigreturn") {
      if (last_cpu_ == 0) {
        resume_expected_ = true;
        ++c_.sigreturns;
      }
      return;
    }
    size_t eq = rest.rfind(" = ");
    if (eq == std::string_view::npos || rest.find(')') > eq) {
      if (name == "openat" || name == "open" || name == "mmap" || name == "munmap" || name == "close" ||
          name == "chdir")
        pending_sys_ = std::string(rest);
      else if (name == "execve" || name == "execveat")
        map_.notes.push_back("the program called " + std::string(name) +
                             ": the trace ends there (qemu does not follow exec)");
      return;
    }
    syscall(std::string(rest.substr(0, eq)), rest.substr(eq + 3));
  }

  static std::vector<std::string_view> split_args(std::string_view call) {
    std::vector<std::string_view> a;
    size_t open = call.find('('), close = call.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return a;
    std::string_view in = call.substr(open + 1, close - open - 1);
    size_t b = 0;
    bool quote = false;
    for (size_t k = 0; k < in.size(); ++k) {
      if (in[k] == '"') quote = !quote;
      if (in[k] == ',' && !quote) {
        a.push_back(in.substr(b, k - b));
        b = k + 1;
      }
    }
    a.push_back(in.substr(b));
    return a;
  }

  void syscall(const std::string& call, std::string_view result) {
    const std::string_view name = std::string_view(call).substr(0, call.find('('));
    int64_t ret = -1;
    {
      std::string_view r = result.substr(0, result.find(' '));
      if (!parse_num(r, ret)) return;
    }
    std::vector<std::string_view> a = split_args(call);
    if (name == "openat" || name == "open") {
      const size_t pi = name == "openat" ? 1 : 0;
      if (ret < 0 || a.size() <= pi) return;
      std::string_view p = a[pi];
      if (p.size() < 2 || p.front() != '"' || p.back() != '"') return;
      std::string path(p.substr(1, p.size() - 2));
      if (!path.empty() && path[0] != '/') {
        int64_t dirfd = -100;  // AT_FDCWD
        if (name == "openat") parse_num(a[0], dirfd);
        auto d = fds_.find(dirfd);
        path = (dirfd != -100 && d != fds_.end() ? d->second : guest_cwd()) + "/" + path;
      }
      fds_[ret] = path;
    } else if (name == "chdir") {
      if (ret == 0 && a.size() == 1 && a[0].size() >= 2 && a[0].front() == '"') {
        std::string dir(a[0].substr(1, a[0].size() - 2));
        cwd_ = dir[0] == '/' ? dir : guest_cwd() + "/" + dir;
      }
    } else if (name == "close") {
      int64_t fd = -1;
      if (ret == 0 && !a.empty() && parse_num(a[0], fd)) fds_.erase(fd);
    } else if (name == "mmap") {
      int64_t fd = -1, off = 0;
      if (a.size() != 6 || !parse_num(a[4], fd) || !parse_num(a[5], off)) return;
      if (fd < 0 || ret == -1) return;
      auto it = fds_.find(fd);
      if (it == fds_.end()) return;
      file_mmap(it->second, static_cast<uint64_t>(ret), static_cast<uint64_t>(off));
    } else if (name == "munmap") {
      int64_t addr = 0, len = 0;
      if (ret != 0 || a.size() != 2 || !parse_num(a[0], addr) || !parse_num(a[1], len)) return;
      munmap(static_cast<uint64_t>(addr), static_cast<uint64_t>(len));
    }
  }

  /// The guest's working directory (ours, unless it called chdir).
  std::string guest_cwd() {
    if (cwd_.empty()) {
      char buf[4096];
      cwd_ = ::getcwd(buf, sizeof buf) ? buf : ".";
    }
    return cwd_;
  }

  std::string host_path_of(const std::string& guest) const {
    if (!sysroot_.empty() && !guest.empty() && guest[0] == '/') {
      std::string p = sysroot_ + guest;
      if (::access(p.c_str(), F_OK) == 0) return realpath_or(p);
    }
    return realpath_or(guest);
  }

  const ElfInfo& elf_of(const std::string& host) {
    auto it = elf_cache_.find(host);
    if (it == elf_cache_.end()) it = elf_cache_.emplace(host, read_elf(host)).first;
    return it->second;
  }

  void file_mmap(const std::string& path, uint64_t addr, uint64_t off) {
    const std::string host = host_path_of(path);
    const ElfInfo& e = elf_of(host);
    if (!e.ok) return;
    uint64_t bias = 0;
    if (!bias_from_mapping(e, off, addr, map_.page_size, bias)) return;
    for (const LoadedObject& o : map_.objects)
      if (!o.unloaded && o.host_path == host && o.bias == bias) return;  // another segment of a known object
    add_object(path, host, "lib", e, bias);
  }

  void munmap(uint64_t addr, uint64_t len) {
    for (LoadedObject& o : map_.objects) {
      if (o.unloaded) continue;
      bool all = true, any_exec = false;
      for (const MappedRange& r : o.ranges) {
        if (!(r.flags & PF_X)) continue;
        any_exec = true;
        if (!(r.start >= addr && r.end <= addr + len)) all = false;
      }
      if (any_exec && all) {
        o.unloaded = true;
        o.unloaded_at = c_.insns;
      }
    }
  }

  int add_object(const std::string& path, const std::string& host, const std::string& role, const ElfInfo& e,
                 uint64_t bias) {
    int idx = map_.add(path, host, role, e, bias, c_.insns);
    const LoadedObject& o = map_.objects[static_cast<size_t>(idx)];
    for (auto& kv : cache_)
      if (kv.second.obj < 0 && o.contains(kv.first)) kv.second.obj = idx;
    return idx;
  }

  /// Main executable and dynamic loader, from the page dump after the binary
  /// load ("start_code" = first executable PT_LOAD + bias of the program,
  /// "entry" = ld.so's entry point, or the program's when it is static), or
  /// from the first executed pc if the dump is missing.
  void register_initial_objects() {
    if (initial_done_) return;
    initial_done_ = true;
    const uint64_t entry = have_entry_ ? entry_ : first_pc_;
    uint64_t main_bias = 0;
    if (main_elf_.type == ET_DYN) {
      bool ok = false;
      if (start_code_) {
        for (const ElfSegment& s : main_elf_.loads) {
          if (s.flags & PF_X) {  // first executable PT_LOAD
            main_bias = start_code_ - s.vaddr;
            ok = true;
            break;
          }
        }
      }
      if (!ok && interp_path_.empty() && entry) {
        main_bias = entry - main_elf_.entry;
        ok = true;
      }
      if (!ok) map_.notes.push_back("no start_code in qemu's page dump: the program's load bias is unknown");
    }
    add_object(main_path_, realpath_or(main_path_), "main", main_elf_, main_bias);
    if (!interp_path_.empty()) {
      if (interp_elf_.ok) {
        add_object(interp_path_, interp_host_, "interp", interp_elf_, entry - interp_elf_.entry);
      } else {
        map_.notes.push_back("dynamic loader " + interp_path_ + " could not be read: " + interp_elf_.error);
      }
    } else if (entry && entry != main_elf_.entry + main_bias) {
      map_.notes.push_back("entry " + hex(entry) + " does not match the program's e_entry + bias");
    }
  }

  // ---------------------------------------------------------------- state
  std::string isa_;
  trace::Writer& w_;
  LoadMap& map_;
  uint64_t max_;
  std::string main_path_;
  ElfInfo main_elf_;
  std::string interp_path_, interp_host_;
  ElfInfo interp_elf_;
  std::string sysroot_;

  Counters c_;
  std::string partial_;
  bool stop_ = false, limit_reached_ = false;

  bool in_block_ = false;
  uint64_t block_pc_ = 0;
  std::vector<uint8_t> block_bytes_;
  std::unordered_map<uint64_t, Static> cache_;

  unsigned last_cpu_ = 0;
  uint64_t first_pc_ = 0;
  uint64_t since_insns_ = 0, since_events_ = 0;
  Pending pend_;
  bool have_last_ = false, last_cf_ = false, last_mem_ = false, last_counted_ = false;
  uint64_t last_pc_ = 0;
  int last_obj_ = -1;

  std::vector<SigFrame> frames_;
  int deferring_ = 0;
  std::vector<Record> deferred_;
  bool resume_expected_ = false;

  std::string pending_sys_, cwd_;
  std::unordered_map<int64_t, std::string> fds_;
  std::unordered_map<std::string, ElfInfo> elf_cache_;
  bool after_binary_load_ = false, have_entry_ = false, initial_done_ = false;
  uint64_t start_code_ = 0, entry_ = 0;
};

/// Parses "qemu-x86_64 version 7.2.22 (...)" into major*100 + minor.
int qemu_version_number(const std::string& v) {
  size_t p = v.find("version ");
  if (p == std::string::npos) return 0;
  int major = 0, minor = 0;
  if (std::sscanf(v.c_str() + p + 8, "%d.%d", &major, &minor) < 1) return 0;
  return major * 100 + minor;
}

/// Restores the previous SIGINT/SIGTERM handlers when destroyed.
struct SignalGuard {
  struct sigaction old_int {}, old_term {};
  SignalGuard() {
    g_interrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: poll() returns EINTR
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
  }
  ~SignalGuard() {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
  }
};

/// Kills and reaps the child if it is still running when destroyed.
struct Child {
  pid_t pid = -1;
  bool reaped = false;
  int status = 0;
  void kill_and_reap() {
    if (pid > 0 && !reaped) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      reaped = true;
    }
  }
  bool poll_exit() {
    if (pid <= 0 || reaped) return reaped;
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) reaped = true;
    return reaped;
  }
  ~Child() { kill_and_reap(); }
};

}  // namespace

// ============================================================== record()

int record(const RecordOptions& opts) {
  using clock = std::chrono::steady_clock;
  if (opts.argv.empty()) throw RecordError("no program to record");
  if (opts.output.empty()) throw RecordError("no output trace path (-o)");
  if (opts.output == "-") throw RecordError("the recorder cannot write the trace to stdout (the program may use it)");

  // ---- program, isa, dynamic loader
  std::string prog = find_in_path(opts.argv[0]);
  if (prog.empty()) throw RecordError(opts.argv[0] + ": not found in PATH");
  if (::access(prog.c_str(), X_OK) != 0) throw RecordError(prog + ": " + std::strerror(errno));
  if (prog[0] != '/') {
    char cwd[4096];
    if (::getcwd(cwd, sizeof cwd)) prog = std::string(cwd) + "/" + prog;
  }
  const ElfInfo main_elf = read_elf(prog);
  if (!main_elf.ok)
    throw RecordError(prog + ": " + main_elf.error +
                      " (qemu-user runs ELF programs only; to record a script, record its interpreter)");
  const std::string elf_arch = elf_isa(main_elf);
  std::string isa = opts.isa;
  if (isa.empty()) isa = elf_arch;
  if (isa != "x86_64" && isa != "riscv64")
    throw RecordError(prog + ": unsupported isa '" + (isa.empty() ? "machine " + std::to_string(main_elf.machine) : isa) +
                      "' (supported: x86_64, riscv64)");
  if (!elf_arch.empty() && elf_arch != isa)
    throw RecordError(prog + ": is a " + elf_arch + " program, not " + isa);

  std::string sysroot = opts.sysroot;
  if (sysroot.empty()) {
    const char* e = std::getenv("QEMU_LD_PREFIX");
    if (e && *e) sysroot = e;
  }
  while (sysroot.size() > 1 && sysroot.back() == '/') sysroot.pop_back();
  std::string interp_host;
  ElfInfo interp_elf;
  if (!main_elf.interp.empty()) {
    interp_host = main_elf.interp;
    if (!sysroot.empty() && ::access((sysroot + main_elf.interp).c_str(), F_OK) == 0) interp_host = sysroot + main_elf.interp;
    interp_host = realpath_or(interp_host);
    interp_elf = read_elf(interp_host);
    if (!interp_elf.ok)
      throw RecordError(prog + ": its dynamic loader " + main_elf.interp + " cannot be read (" + interp_elf.error +
                        ")" + (isa != "x86_64" ? "; pass the guest's root with --sysroot" : ""));
  }

  // ---- qemu
  std::string qemu = opts.qemu;
  if (qemu.empty()) {
    const char* e = std::getenv("HWPROF_QEMU");
    qemu = (e && *e) ? e : "qemu-" + isa;
  }
  const std::string qemu_path = find_in_path(qemu);
  if (qemu_path.empty())
    throw RecordError(qemu + ": not found in PATH (install qemu-user: apt-get install qemu-user)");
  const std::string qemu_ver = tool_version(qemu_path);
  const int qv = qemu_version_number(qemu_ver);

  std::vector<std::string> args = {qemu_path};
  args.push_back(qv >= 801 ? "-one-insn-per-tb" : "-singlestep");
  args.insert(args.end(), {"-d", "in_asm,exec,nochain,page,strace", "-D", "", "-seed", std::to_string(opts.seed),
                           "-0", opts.argv[0]});
  const size_t log_arg = 5;
  if (!sysroot.empty()) args.insert(args.end(), {"-L", sysroot});
  args.push_back(prog);
  args.insert(args.end(), opts.argv.begin() + 1, opts.argv.end());

  // ---- outputs
  const std::string map_path = opts.map_path.empty() ? opts.output + ".map" : opts.map_path;
  trace::Format fmt;
  bool compress = false;
  trace::format_from_name(opts.output, fmt, compress);
  trace::Writer writer(opts.output, fmt, compress, isa);

  LoadMap map;
  map.isa = isa;
  {
    std::string base = opts.output;
    size_t sl = base.rfind('/');
    map.trace = sl == std::string::npos ? base : base.substr(sl + 1);
  }
  map.argv = opts.argv;
  map.argv[0] = prog;
  map.qemu_version = qemu_ver;
  map.page_size = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));

  LogParser parser(isa, writer, map, opts.max_insns, prog, main_elf, main_elf.interp, interp_host, interp_elf, sysroot);

  // ---- named pipe and child
  TempFifo fifo;
  args[log_arg] = fifo.path;
  int fd = ::open(fifo.path.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw RecordError("cannot open the named pipe: " + std::string(std::strerror(errno)));
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } fd_closer{fd};
  ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);  // fewer context switches; failure is harmless

  SignalGuard sig_guard;
  Child child;
  {
    std::vector<char*> cargv;
    for (std::string& a : args) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::fflush(nullptr);
    child.pid = ::fork();
    if (child.pid < 0) throw RecordError(std::string("fork: ") + std::strerror(errno));
    if (child.pid == 0) {
      for (const char* v : {"QEMU_LOG", "QEMU_LOG_FILENAME", "QEMU_STRACE", "QEMU_SINGLESTEP", "QEMU_RAND_SEED"})
        ::unsetenv(v);
      // qemu-user builds the guest's environment by pushing each variable on
      // the front of a list, so the guest sees it in reverse order (programs
      // that walk environ, like perl's $0 setup or getenv, then run
      // differently than natively). Hand qemu the reversed environment.
      std::vector<char*> envp;
      for (char** e = environ; *e; ++e) envp.push_back(*e);
      std::reverse(envp.begin(), envp.end());
      envp.push_back(nullptr);
      ::execve(cargv[0], cargv.data(), envp.data());
      std::fprintf(stderr, "hwprof record: cannot run %s: %s\n", cargv[0], std::strerror(errno));
      ::_exit(127);
    }
  }

  // ---- read loop
  const bool tty = ::isatty(2);
  const auto t0 = clock::now();
  auto last_progress = t0;
  std::vector<char> buf(1 << 20);
  bool limit_stop = false;
  auto progress = [&](bool final_line) {
    if (opts.quiet) return;
    const double dt = std::chrono::duration<double>(clock::now() - t0).count();
    const Counters& c = parser.counters();
    std::fprintf(stderr, "%shwprof record: %s insns, %s records, %.2f M insns/s%s", tty ? "\r" : "",
                 human(c.insns).c_str(), human(c.records).c_str(), dt > 0 ? c.insns / dt / 1e6 : 0.0,
                 tty && !final_line ? "   " : "\n");
    std::fflush(stderr);
  };
  bool printed_progress = false;
  for (;;) {
    if (g_interrupted) {
      child.kill_and_reap();
      if (printed_progress && tty) std::fputc('\n', stderr);
      throw RecordError(std::string("interrupted by ") + (g_interrupted == SIGINT ? "SIGINT" : "SIGTERM") +
                        ": no trace written");
    }
    struct pollfd pfd {fd, POLLIN, 0};
    int pr = ::poll(&pfd, 1, 200);
    if (pr < 0 && errno != EINTR) throw RecordError(std::string("poll: ") + std::strerror(errno));
    bool got = false;
    size_t got_bytes = 0;
    for (int rounds = 0; rounds < 64; ++rounds) {
      ssize_t n = ::read(fd, buf.data(), buf.size());
      if (n > 0) {
        got = true;
        got_bytes += static_cast<size_t>(n);
        parser.feed(buf.data(), static_cast<size_t>(n));
        if (parser.stop()) break;
      } else {
        if (n < 0 && errno != EAGAIN && errno != EINTR)
          throw RecordError(std::string("reading the qemu log: ") + std::strerror(errno));
        break;
      }
    }
    if (parser.stop()) {
      child.kill_and_reap();  // SIGKILL: a catchable signal would run guest code (handlers) we do not want
      limit_stop = true;
      break;
    }
    const auto now = clock::now();
    if (now - last_progress >= std::chrono::seconds(1)) {
      last_progress = now;
      progress(false);
      printed_progress = true;
    }
    // qemu writes its log line by line; waking up for every line makes both
    // processes ping-pong. Let the pipe fill a little before reading again.
    if (got && got_bytes < (size_t{256} << 10)) ::usleep(2000);
    if (!got && child.poll_exit()) {
      // qemu has exited: everything it wrote is in the pipe.
      for (;;) {
        ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n > 0) {
          parser.feed(buf.data(), static_cast<size_t>(n));
          if (parser.stop()) {
            limit_stop = true;
            break;
          }
        } else if (n < 0 && errno == EINTR) {
          continue;
        } else {
          break;
        }
      }
      break;
    }
  }
  parser.finish();
  if (printed_progress && tty) std::fputc('\n', stderr);

  const Counters& c = parser.counters();
  int status = 0;
  std::string why;
  if (limit_stop) {
    why = "stopped after " + with_commas(c.insns) + " instructions (--max-insns)";
  } else if (WIFEXITED(child.status)) {
    status = WEXITSTATUS(child.status);
    if (status != 0) why = "the program exited with status " + std::to_string(status);
  } else if (WIFSIGNALED(child.status)) {
    status = 128 + WTERMSIG(child.status);
    why = std::string("the program was killed by signal ") + std::to_string(WTERMSIG(child.status)) + " (" +
          strsignal(WTERMSIG(child.status)) + ")";
  }
  if (c.insns == 0)
    throw RecordError("no instruction was recorded: qemu could not run " + prog +
                      (why.empty() ? std::string() : " (" + why + ")") + "; see its messages above");
  if (c.records == 0) throw RecordError("no control-flow instruction was executed: nothing to write");

  map.first_pc = parser.first_pc();
  map.instructions = c.insns;
  if (c.other_threads)
    map.notes.push_back(with_commas(c.other_threads) +
                        " instructions of threads other than the main thread were not recorded");
  if (c.anomalies)
    map.notes.push_back(with_commas(c.anomalies) +
                        " direct branches were followed by neither their target nor their fall-through");
  writer.commit();
  map.write(map_path);

  if (!opts.quiet) {
    const double dt = std::chrono::duration<double>(clock::now() - t0).count();
    std::fprintf(stderr,
                 "hwprof record: %s: %s records (br %s, jmp %s, ijmp %s, call %s, icall %s, ret %s)\n"
                 "hwprof record: %s instructions (%s in records, %s after the last record), %s static; "
                 "%.1f s, %.2f M insns/s\n",
                 opts.output.c_str(), with_commas(c.records).c_str(), with_commas(c.kinds[0]).c_str(),
                 with_commas(c.kinds[1]).c_str(), with_commas(c.kinds[2]).c_str(), with_commas(c.kinds[3]).c_str(),
                 with_commas(c.kinds[4]).c_str(), with_commas(c.kinds[5]).c_str(), with_commas(c.insns).c_str(),
                 with_commas(c.insns - c.tail_insns).c_str(), with_commas(c.tail_insns).c_str(),
                 with_commas(c.static_insns).c_str(), dt, dt > 0 ? c.insns / dt / 1e6 : 0.0);
    std::fprintf(stderr,
                 "hwprof record: rep iterations merged %s, not-executed Trace lines %s, faults %s, signals %s, "
                 "unresolved branches %s\n",
                 with_commas(c.collapsed).c_str(), with_commas(c.not_executed).c_str(),
                 with_commas(c.faulted).c_str(), with_commas(c.signals).c_str(), with_commas(c.lost_records).c_str());
    std::fprintf(stderr, "hwprof record: load map %s: %zu objects\n", map_path.c_str(), map.objects.size());
    for (const std::string& n : map.notes) std::fprintf(stderr, "hwprof record: note: %s\n", n.c_str());
  }
  if (!why.empty() && (status != 0 || !opts.quiet)) std::fprintf(stderr, "hwprof record: %s\n", why.c_str());
  return status;
}

}  // namespace hwprof::record
