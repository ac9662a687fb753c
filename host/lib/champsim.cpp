// ChampSim trace import (docs/champsim.md).
#include "champsim.h"

#include <sys/stat.h>

#include <lzma.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace hwprof::trace {

namespace {

// ChampSim's special register numbers (inc/trace_instruction.h).
constexpr uint8_t kRegStackPointer = 6;
constexpr uint8_t kRegFlags = 25;
constexpr uint8_t kRegInstructionPointer = 26;

// Shadow call stack used to learn call lengths from return addresses.
constexpr size_t kShadowDepth = 4096;  // older entries are dropped
constexpr size_t kShadowSearch = 64;   // entries a return may look down

// ChampSim's branch types (inc/instruction.h), in ChampSim's order.
enum class CsType { DirectJump, Indirect, Conditional, DirectCall, IndirectCall, Return, Other, NotBranch };

struct Instr {
  uint64_t ip = 0;
  bool is_branch_byte = false;
  bool taken_byte = false;
  bool has_mem = false;  // any non-zero memory operand
  CsType type = CsType::NotBranch;
  bool taken = false;  // effective outcome (ChampSim forces taken for unconditional types)
};

uint64_t le64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Decodes one 64-byte input_instr and classifies it exactly as ChampSim's
// ooo_model_instr constructor does (register 0 = no register).
Instr decode(const uint8_t* p) {
  Instr in;
  in.ip = le64(p);
  in.is_branch_byte = p[8] != 0;
  in.taken_byte = p[9] != 0;
  const uint8_t* dst = p + 10;  // 2 destination registers
  const uint8_t* src = p + 12;  // 4 source registers
  for (int i = 0; i < 6; ++i)   // 2 destination + 4 source memory addresses
    if (le64(p + 16 + 8 * i) != 0) in.has_mem = true;

  bool writes_sp = false, writes_ip = false;
  for (int i = 0; i < 2; ++i) {
    writes_sp |= dst[i] == kRegStackPointer;
    writes_ip |= dst[i] == kRegInstructionPointer;
  }
  bool reads_sp = false, reads_flags = false, reads_ip = false, reads_other = false;
  for (int i = 0; i < 4; ++i) {
    uint8_t r = src[i];
    if (r == 0) continue;
    if (r == kRegStackPointer)
      reads_sp = true;
    else if (r == kRegFlags)
      reads_flags = true;
    else if (r == kRegInstructionPointer)
      reads_ip = true;
    else
      reads_other = true;
  }

  if (!reads_sp && !reads_flags && writes_ip && !reads_other)
    in.type = CsType::DirectJump;
  else if (!reads_sp && !reads_ip && !reads_flags && writes_ip && reads_other)
    in.type = CsType::Indirect;
  else if (!reads_sp && reads_ip && !writes_sp && writes_ip && (reads_flags || reads_other))
    in.type = CsType::Conditional;
  else if (reads_sp && reads_ip && writes_sp && writes_ip && !reads_flags && !reads_other)
    in.type = CsType::DirectCall;
  else if (reads_sp && reads_ip && writes_sp && writes_ip && !reads_flags && reads_other)
    in.type = CsType::IndirectCall;
  else if (reads_sp && !reads_ip && writes_sp && writes_ip)
    in.type = CsType::Return;
  else if (writes_ip)
    in.type = CsType::Other;
  else
    in.type = CsType::NotBranch;

  switch (in.type) {
    case CsType::Conditional:
    case CsType::Other: in.taken = in.taken_byte; break;
    case CsType::NotBranch: in.taken = false; break;
    default: in.taken = true; break;
  }
  return in;
}

bool is_branch(const Instr& in) { return in.type != CsType::NotBranch; }

// Output kind of a branch instance.
Kind kind_of(const Instr& in) {
  switch (in.type) {
    case CsType::DirectJump: return Kind::Jmp;
    case CsType::Indirect: return Kind::Ijmp;
    case CsType::Conditional: return Kind::Br;
    case CsType::DirectCall: return Kind::Call;
    case CsType::IndirectCall: return Kind::Icall;
    case CsType::Return: return Kind::Ret;
    case CsType::Other: return in.taken ? Kind::Ijmp : Kind::Br;
    case CsType::NotBranch: break;
  }
  return Kind::Br;  // unreachable for branches
}

std::string lzma_reason(lzma_ret r) {
  switch (r) {
    case LZMA_FORMAT_ERROR: return "not an xz stream (bad header)";
    case LZMA_OPTIONS_ERROR: return "unsupported xz options";
    case LZMA_DATA_ERROR: return "corrupt xz data";
    case LZMA_BUF_ERROR: return "truncated xz stream (unexpected end of file)";
    case LZMA_MEM_ERROR: return "out of memory while decompressing";
    case LZMA_MEMLIMIT_ERROR: return "xz memory limit reached";
    default: return "xz decoder error " + std::to_string(static_cast<int>(r));
  }
}

// Sequential reader of 64-byte records from a raw or xz-compressed file.
class ChampSimSource {
 public:
  explicit ChampSimSource(const std::string& path) : path_(path), raw_(1 << 20), out_(1 << 20) {
    if (path == "-")
      throw TraceError("-: ChampSim import reads its input twice and needs a file, not stdin");
    f_.reset(std::fopen(path.c_str(), "rb"));
    if (!f_) throw TraceError(path + ": cannot open: " + std::strerror(errno));
    struct stat st;
    if (fstat(fileno(f_.get()), &st) == 0 && S_ISREG(st.st_mode)) file_size_ = static_cast<uint64_t>(st.st_size);
    raw_len_ = read_file(raw_.data(), raw_.size());
    detect();
  }
  ~ChampSimSource() {
    if (xz_) lzma_end(&strm_);
  }
  ChampSimSource(const ChampSimSource&) = delete;
  ChampSimSource& operator=(const ChampSimSource&) = delete;

  /// Reads the next record into `rec`; false at a clean end of input.
  bool next(uint8_t* rec) {
    size_t n = fill(rec, kChampSimRecordBytes);
    if (n == 0) return false;
    if (n < kChampSimRecordBytes)
      throw TraceError(path_ + ": byte " + std::to_string(offset_) + (xz_ ? " (uncompressed)" : "") +
                       ": record " + std::to_string(count_ + 1) + ": field 'record': truncated ChampSim record (" +
                       std::to_string(n) + " of " + std::to_string(kChampSimRecordBytes) +
                       " bytes): the " + (xz_ ? "decompressed " : "") + "size " + std::to_string(offset_ + n) +
                       " is not a multiple of " + std::to_string(kChampSimRecordBytes));
    offset_ += n;
    ++count_;
    return true;
  }
  uint64_t raw_consumed() const { return raw_consumed_; }
  uint64_t file_size() const { return file_size_; }

 private:
  size_t read_file(uint8_t* dst, size_t n) {
    size_t got = std::fread(dst, 1, n, f_.get());
    if (got < n && std::ferror(f_.get())) throw TraceError(path_ + ": read error: " + std::strerror(errno));
    if (got == 0) eof_ = true;
    return got;
  }

  void detect() {
    const uint8_t* b = raw_.data();
    auto starts = [&](std::initializer_list<uint8_t> m) {
      if (raw_len_ < m.size()) return false;
      size_t i = 0;
      for (uint8_t c : m)
        if (b[i++] != c) return false;
      return true;
    };
    if (starts({0xfd, '7', 'z', 'X', 'Z', 0x00})) {
      lzma_ret r = lzma_stream_decoder(&strm_, UINT64_MAX, LZMA_CONCATENATED);
      if (r != LZMA_OK) throw TraceError(path_ + ": cannot start the xz decoder: " + lzma_reason(r));
      xz_ = true;
      strm_.next_in = raw_.data();
      strm_.avail_in = raw_len_;
      return;
    }
    std::string what;
    if (starts({0x1f, 0x8b, 0x08})) what = "gzip (decompress it with gunzip)";
    if (starts({0x28, 0xb5, 0x2f, 0xfd})) what = "zstd (decompress it with unzstd)";
    if (starts({'B', 'Z', 'h'})) what = "bzip2 (decompress it with bunzip2)";
    if (!what.empty())
      throw TraceError(path_ + ": byte 0: field 'format': this ChampSim trace is compressed with " + what +
                       "; the importer reads xz-compressed and uncompressed traces");
  }

  // Fills dst with up to n bytes of (decompressed) input; fewer only at end.
  size_t fill(uint8_t* dst, size_t n) {
    size_t got = 0;
    while (got < n) {
      if (pos_ == len_ && !refill()) break;
      size_t k = std::min(n - got, len_ - pos_);
      std::memcpy(dst + got, out_.data() + pos_, k);
      pos_ += k;
      got += k;
    }
    return got;
  }

  bool refill() {
    pos_ = len_ = 0;
    if (!xz_) {
      if (raw_len_ == 0 && !eof_) raw_len_ = read_file(raw_.data(), raw_.size());
      if (raw_len_ == 0) return false;
      std::swap(raw_, out_);
      len_ = raw_len_;
      raw_consumed_ += raw_len_;
      raw_len_ = 0;
      return true;
    }
    if (xz_done_) return false;
    while (len_ == 0) {
      if (strm_.avail_in == 0 && !eof_) {
        raw_len_ = read_file(raw_.data(), raw_.size());
        strm_.next_in = raw_.data();
        strm_.avail_in = raw_len_;
      }
      strm_.next_out = out_.data();
      strm_.avail_out = out_.size();
      uint64_t before = strm_.total_in;
      lzma_ret r = lzma_code(&strm_, eof_ && strm_.avail_in == 0 ? LZMA_FINISH : LZMA_RUN);
      raw_consumed_ += strm_.total_in - before;
      len_ = out_.size() - strm_.avail_out;
      if (r == LZMA_STREAM_END) {
        xz_done_ = true;
        break;
      }
      if (r != LZMA_OK)
        throw TraceError(path_ + ": byte " + std::to_string(strm_.total_in) + ": field 'xz': " + lzma_reason(r));
    }
    return len_ > 0;
  }

  std::string path_;
  std::unique_ptr<FILE, int (*)(FILE*)> f_{nullptr, &std::fclose};
  uint64_t file_size_ = 0;
  std::vector<uint8_t> raw_, out_;
  size_t raw_len_ = 0;  // raw mode: bytes waiting in raw_
  size_t pos_ = 0, len_ = 0;
  bool eof_ = false;
  bool xz_ = false, xz_done_ = false;
  lzma_stream strm_ = LZMA_STREAM_INIT;
  uint64_t offset_ = 0, count_ = 0, raw_consumed_ = 0;
};

using LenHist = std::array<uint32_t, kMaxIlen + 1>;  // saturating counts

// Most frequent length of a histogram (ties to the shorter); 0 if empty.
unsigned mode(const LenHist& h) {
  unsigned best = 0;
  for (unsigned l = 1; l <= kMaxIlen; ++l)
    if (h[l] > (best ? h[best] : 0)) best = l;
  return best;
}

struct IpInfo {
  LenHist len{};
  uint64_t target = 0;
  bool has_target = false;
  uint8_t ilen = 0;  // mode of len, computed after pass 1
};

struct Learned {
  std::unordered_map<uint64_t, IpInfo> ips;  // branch ips only
  std::array<LenHist, kNumKinds> kind_len{};
  LenHist all_len{};
  unsigned kind_mode[kNumKinds] = {};
  unsigned all_mode = 0;

  void observe_len(uint64_t ip, Kind k, uint64_t len) {
    if (len < 1 || len > kMaxIlen) return;
    for (LenHist* h : {&ips[ip].len, &kind_len[static_cast<size_t>(k)], &all_len})
      if ((*h)[len] != UINT32_MAX) ++(*h)[len];
  }
  void finish() {
    for (auto& [ip, info] : ips) info.ilen = static_cast<uint8_t>(mode(info.len));
    for (int k = 0; k < kNumKinds; ++k) kind_mode[k] = mode(kind_len[k]);
    all_mode = mode(all_len);
  }
};

// Runs `fn(cur, next)` for every instruction that has a successor; returns the
// number of instructions read.
template <typename Fn>
uint64_t for_each_pair(const std::string& path, uint64_t progress_base,
                       const std::function<void(uint64_t, uint64_t)>& progress, Fn fn) {
  ChampSimSource src(path);
  uint8_t buf[kChampSimRecordBytes];
  uint64_t n = 0;
  if (!src.next(buf)) return 0;
  Instr cur = decode(buf);
  n = 1;
  while (src.next(buf)) {
    Instr nxt = decode(buf);
    fn(cur, nxt);
    cur = nxt;
    if ((++n & 0xffff) == 0 && progress) progress(progress_base + src.raw_consumed(), 2 * src.file_size());
  }
  if (progress) progress(progress_base + src.raw_consumed(), 2 * src.file_size());
  return n;
}

}  // namespace

ImportStats import_champsim(const std::string& in, const std::string& out, const std::string& isa,
                            const std::function<void(uint64_t, uint64_t)>& progress) {
  // Pass 1: learn lengths (fall-throughs, return addresses) and taken targets
  // per static branch ip. Also validates the whole input before any output.
  Learned L;
  struct Frame {
    uint64_t ip;
    Kind kind;
  };
  std::deque<Frame> shadow;
  uint64_t file_size = 0;
  {
    struct stat st;
    if (in != "-" && stat(in.c_str(), &st) == 0) file_size = static_cast<uint64_t>(st.st_size);
  }
  for_each_pair(in, 0, progress, [&](const Instr& c, const Instr& n) {
    if (!is_branch(c)) return;
    Kind k = kind_of(c);
    if (!c.taken) {
      L.observe_len(c.ip, k, n.ip - c.ip);
      return;
    }
    IpInfo& info = L.ips[c.ip];
    if (!info.has_target) {
      info.target = n.ip;
      info.has_target = true;
    }
    if (k == Kind::Call || k == Kind::Icall) {
      if (shadow.size() == kShadowDepth) shadow.pop_front();
      shadow.push_back({c.ip, k});
    } else if (k == Kind::Ret && !shadow.empty()) {
      // The return address is call ip + call length: find the nearest frame
      // that it fits (1..15 bytes after the call), drop everything above it.
      size_t depth = std::min(shadow.size(), kShadowSearch);
      for (size_t i = 0; i < depth; ++i) {
        const Frame& f = shadow[shadow.size() - 1 - i];
        uint64_t d = n.ip - f.ip;
        if (d >= 1 && d <= kMaxIlen) {
          L.observe_len(f.ip, f.kind, d);
          shadow.resize(shadow.size() - 1 - i);
          return;
        }
      }
      shadow.pop_back();  // no frame fits: a return we cannot match
    }
  });
  L.finish();

  // Pass 2: write the records.
  ImportStats st;
  Format fmt;
  bool compress;
  format_from_name(out, fmt, compress);
  Writer w(out, fmt, compress, isa);
  uint64_t pend_insns = 0, pend_events = 0;
  st.instructions = for_each_pair(in, file_size, progress, [&](const Instr& c, const Instr& n) {
    ++pend_insns;
    if (c.has_mem) ++pend_events;
    if (c.is_branch_byte != is_branch(c)) ++st.is_branch_mismatch;
    if (!c.taken && !(n.ip >= c.ip && n.ip - c.ip <= kMaxIlen)) ++st.discontinuities;
    if (!is_branch(c)) return;

    Record r;
    r.kind = kind_of(c);
    r.pc = c.ip;
    r.taken = c.taken;
    auto it = L.ips.find(c.ip);
    const IpInfo* info = it == L.ips.end() ? nullptr : &it->second;
    size_t k = static_cast<size_t>(r.kind);
    if (info && info->ilen) {
      r.ilen = info->ilen;
      ++st.ilen_per_ip;
    } else if (L.kind_mode[k]) {
      r.ilen = static_cast<uint8_t>(L.kind_mode[k]);
      ++st.ilen_per_kind;
    } else if (L.all_mode) {
      r.ilen = static_cast<uint8_t>(L.all_mode);
      ++st.ilen_global;
    } else {
      r.ilen = kChampSimDefaultIlen;
      ++st.ilen_default;
    }
    if (c.taken) {
      r.target = n.ip;
    } else if (info && info->has_target) {
      r.target = info->target;
    } else {
      r.target = c.ip + r.ilen;
      ++st.target_fallback;
    }
    r.insns = static_cast<uint32_t>(std::min<uint64_t>(pend_insns, UINT32_MAX));
    r.events = static_cast<uint32_t>(std::min<uint64_t>(pend_events, UINT32_MAX));
    pend_insns = pend_events = 0;
    if (c.type == CsType::Other) ++(c.taken ? st.other_taken : st.other_not_taken);
    ++st.kinds[k];
    ++st.records;
    w.write(r);
  });
  // The last instruction has no successor (no target, no fall-through): it
  // and the instructions after the last record are not represented.
  if (st.instructions) st.dropped_tail = pend_insns + 1;
  w.commit();
  return st;
}

}  // namespace hwprof::trace
