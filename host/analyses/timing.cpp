// Trace-driven out-of-order timing model (paper 004 section 4.1); see timing.h.
#include "timing.h"

#include <capstone/capstone.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "recorder.h"

namespace hwprof::analyses {

using trace::Kind;

// ================================================================ names

const char* to_string(OpClass c) {
  static const char* const n[] = {"int_alu", "int_mul", "int_div", "fp", "fp_div", "branch", "nop"};
  return n[static_cast<int>(c)];
}

const char* to_string(Edge e) {
  static const char* const n[] = {"D-D", "D-E", "E-C", "C-C", "E-E", "C-D", "E-D", "none"};
  return n[static_cast<int>(e)];
}

Stage source_stage(Edge e) {
  switch (e) {
    case Edge::DD: case Edge::DE: return Stage::D;
    case Edge::EC: case Edge::EE: case Edge::ED: return Stage::E;
    default: return Stage::C;  // CC, CD
  }
}

Stage dest_stage(Edge e) {
  switch (e) {
    case Edge::DD: case Edge::CD: case Edge::ED: return Stage::D;
    case Edge::DE: case Edge::EE: return Stage::E;
    default: return Stage::C;  // EC, CC
  }
}

// ================================================================ machine

std::string MachineConfig::check() const {
  if (fetch == 0) return "fetch width: must be at least 1";
  if (issue == 0) return "issue width: must be at least 1";
  if (mem_ports == 0) return "memory ports: must be at least 1";
  if (commit == 0) return "commit width: must be at least 1";
  if (rob == 0) return "ROB size: must be at least 1";
  if (fetch > 1024 || issue > 1024 || commit > 1024) return "widths: at most 1024";
  if (rob > (1u << 20)) return "ROB size: at most 1048576";
  const uint32_t l[] = {lat.int_alu, lat.int_mul, lat.int_div, lat.fp, lat.fp_div, lat.branch, lat.load_hit,
                        lat.load_miss, lat.store};
  for (uint32_t x : l)
    if (x == 0 || x > 100000) return "latencies: must be in 1..100000";
  if (mispredict_penalty > 100000) return "mispredict penalty: at most 100000";
  return {};
}

uint32_t MachineConfig::latency(const StaticInsn& s, bool miss) const {
  uint32_t op = 0;
  switch (s.cls) {
    case OpClass::IntAlu: op = lat.int_alu; break;
    case OpClass::IntMul: op = lat.int_mul; break;
    case OpClass::IntDiv: op = lat.int_div; break;
    case OpClass::Fp: op = lat.fp; break;
    case OpClass::FpDiv: op = lat.fp_div; break;
    case OpClass::Branch: op = lat.branch; break;
    case OpClass::Nop: op = 1; break;
  }
  if (s.load) {
    const uint32_t mem = miss ? lat.load_miss : lat.load_hit;
    const bool folded = s.cls == OpClass::IntAlu || s.cls == OpClass::Nop || s.cls == OpClass::Branch;
    return folded ? mem : mem + op;
  }
  if (s.store && (s.cls == OpClass::IntAlu || s.cls == OpClass::Nop)) return lat.store;
  return op;
}

// ================================================================ model

TimingModel::TimingModel(const MachineConfig& m) : m_(m) {
  const std::string bad = m_.check();
  if (!bad.empty()) throw std::invalid_argument("timing model: " + bad);
  ring_.resize(std::max({m_.fetch, m_.commit, m_.rob}) + 1);
  reset();
}

void TimingModel::reset() {
  n_ = last_c_ = prune_below_ = 0;
  for (RegState& r : regs_) r = RegState{};
  issue_.clear();
  stores_.clear();
}

size_t TimingModel::MemKeyHash::operator()(const MemKey& k) const {
  uint64_t h = (k.expr | uint64_t{k.base} << 32 | uint64_t{k.index} << 40) * 0x9e3779b97f4a7c15ull;
  h ^= (k.vbase + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
  h ^= (k.vindex + 0x12345ull) * 0x94d049bb133111ebull;
  return static_cast<size_t>(h ^ (h >> 29));
}

TimingModel::MemKey TimingModel::mem_key(const StaticInsn& s) const {
  auto ver = [&](uint8_t r) { return r == 0 ? 0 : regs_[r].valid ? regs_[r].idx : UINT64_MAX; };
  return MemKey{s.addr_expr, s.addr_base, s.addr_index, ver(s.addr_base), ver(s.addr_index)};
}

Timed TimingModel::step(const StaticInsn& s, bool mispredict, bool miss, uint64_t mem_dist) {
  Timed t;
  t.mispredict = mispredict && s.is_cf;
  t.miss = miss && s.load;
  t.lat = m_.latency(s, t.miss);
  const uint64_t i = n_;
  // ---- D: first candidate in priority order wins ties (strictly later replaces).
  auto take = [](uint64_t& best, Pred& p, bool have, uint64_t at, Edge e, uint64_t src) {
    if (have && (p.edge == Edge::None || at > best)) {
      best = at;
      p = Pred{e, src};
    }
  };
  if (i > 0) {
    const Slot& prev = back(1);
    take(t.d, t.pd, prev.mispredict, prev.e + prev.lat + m_.mispredict_penalty, Edge::ED, i - 1);
    take(t.d, t.pd, i >= m_.rob, i >= m_.rob ? back(m_.rob).c + 1 : 0, Edge::CD, i - m_.rob);
    take(t.d, t.pd, i >= m_.fetch, i >= m_.fetch ? back(m_.fetch).d + 1 : 0, Edge::DD, i - m_.fetch);
    take(t.d, t.pd, true, prev.d, Edge::DD, i - 1);
  }
  // ---- E: the youngest latest producer, else dispatch; then an issue slot.
  bool have_ee = false;
  uint64_t ee_at = 0, ee_src = 0;
  for (unsigned k = 0; k < s.nsrc; ++k) {
    const RegState& r = regs_[s.src[k]];
    if (!r.valid) continue;
    if (!have_ee || r.ready > ee_at || (r.ready == ee_at && r.idx > ee_src)) {
      have_ee = true;
      ee_at = r.ready;
      ee_src = r.idx;
    }
  }
  const bool memdep = m_.mem_deps && !m_.explicit_mem_deps && s.addr_expr != 0 && (s.load || s.store);
  const MemKey key = memdep ? mem_key(s) : MemKey{};
  bool ee_mem = false;
  auto mem_producer = [&](uint64_t ready, uint64_t idx) {
    if (!have_ee || ready > ee_at || (ready == ee_at && idx > ee_src)) {
      have_ee = true;
      ee_at = ready;
      ee_src = idx;
      ee_mem = true;
    }
  };
  if (memdep && s.load) {
    const auto it = stores_.find(key);
    if (it != stores_.end()) mem_producer(it->second.ready, it->second.idx);
  }
  if (m_.mem_deps && m_.explicit_mem_deps && s.load && mem_dist > 0 && mem_dist <= i && mem_dist <= m_.rob) {
    const Slot& st = back(mem_dist);
    if (st.store) mem_producer(st.e + st.lat, i - mem_dist);
  }
  const uint64_t ready = std::max(t.d + 1, have_ee ? ee_at : 0);
  const bool mem = s.load || s.store;
  uint64_t e = ready;
  for (;; ++e) {
    const auto it = issue_.find(e);
    if (it == issue_.end() || (it->second.all < m_.issue && (!mem || it->second.mem < m_.mem_ports))) break;
  }
  Issue& slot = issue_[e];
  ++slot.all;
  slot.mem += mem;
  t.e = e;
  t.pe = (have_ee && ee_at == e) ? Pred{Edge::EE, ee_src} : Pred{Edge::DE, i};
  t.mem_edge = have_ee && ee_at == e && ee_mem;
  // ---- C
  t.c = t.e + t.lat;
  t.pc = Pred{Edge::EC, i};
  if (i > 0) {
    take(t.c, t.pc, i >= m_.commit, i >= m_.commit ? back(m_.commit).c + 1 : 0, Edge::CC, i - m_.commit);
    take(t.c, t.pc, true, back(1).c, Edge::CC, i - 1);
  }
  // ---- retire into the state
  if (memdep && s.store) stores_[key] = RegState{true, i, t.e + t.lat};
  for (unsigned k = 0; k < s.ndst; ++k) regs_[s.dst[k]] = RegState{true, i, t.e + t.lat};
  ring_[i % ring_.size()] = Slot{t.d, t.e, t.c, t.lat, t.mispredict, s.store};
  ++n_;
  last_c_ = t.c;
  // Issue cycles before this dispatch can no longer be taken (D never decreases).
  if ((n_ & 4095) == 0 && t.d > prune_below_) {
    for (auto it = issue_.begin(); it != issue_.end();)
      it = it->first <= t.d ? issue_.erase(it) : std::next(it);
    // A store whose data was ready by this dispatch can never decide a later load's E (>= D + 1).
    for (auto it = stores_.begin(); it != stores_.end();)
      it = it->second.ready <= t.d ? stores_.erase(it) : std::next(it);
    prune_below_ = t.d;
  }
  return t;
}

// ================================================================ decoding

namespace {

/// Canonical register ids by name family (x86): sub-registers -> full register.
std::string x86_family(std::string n) {
  static const char* const legacy[][5] = {  // full register first
      {"rax", "al", "ah", "ax", "eax"}, {"rbx", "bl", "bh", "bx", "ebx"}, {"rcx", "cl", "ch", "cx", "ecx"},
      {"rdx", "dl", "dh", "dx", "edx"}, {"rsi", "sil", "si", "esi", ""},  {"rdi", "dil", "di", "edi", ""},
      {"rbp", "bpl", "bp", "ebp", ""},  {"rsp", "spl", "sp", "esp", ""}};
  for (const auto& f : legacy)
    for (const char* x : f)
      if (*x && n == x) return f[0];
  if (n == "eflags" || n == "rflags" || n == "flags") return "flags";
  if (n.size() >= 2 && n[0] == 'r' && n[1] >= '0' && n[1] <= '9') {  // r8..r15 with b/w/d
    while (!n.empty() && (n.back() == 'b' || n.back() == 'w' || n.back() == 'd')) n.pop_back();
    return n;
  }
  if (n.size() > 3 && (n.compare(0, 3, "xmm") == 0 || n.compare(0, 3, "ymm") == 0 || n.compare(0, 3, "zmm") == 0))
    return "vec" + n.substr(3);
  return n;
}

bool has_prefix(const char* s, const char* p) { return std::strncmp(s, p, std::strlen(p)) == 0; }

}  // namespace

struct InsnDecoder::Impl {
  csh h = 0;
  cs_insn* insn = nullptr;
  uint8_t canon[X86_REG_ENDING] = {};  // capstone reg -> canonical id (0 = ignored)
  std::vector<std::string> names{""};
  uint8_t intern(const std::string& n) {
    for (size_t k = 1; k < names.size(); ++k)
      if (names[k] == n) return static_cast<uint8_t>(k);
    if (names.size() >= 256) throw std::logic_error("InsnDecoder: more than 255 register families");
    names.push_back(n);
    return static_cast<uint8_t>(names.size() - 1);
  }
};

InsnDecoder::InsnDecoder(std::string isa) : isa_(std::move(isa)), impl_(std::make_unique<Impl>()) {
  if (isa_ == "x86_64") {
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &impl_->h) != CS_ERR_OK) throw std::runtime_error("capstone: cs_open failed");
    cs_option(impl_->h, CS_OPT_DETAIL, CS_OPT_ON);
    impl_->insn = cs_malloc(impl_->h);
    for (unsigned r = 1; r < X86_REG_ENDING; ++r) {
      const char* n = cs_reg_name(impl_->h, r);
      if (!n || r == X86_REG_RIP || r == X86_REG_EIP || r == X86_REG_IP || r == X86_REG_FPSW) continue;
      impl_->canon[r] = impl_->intern(x86_family(n));
    }
  } else if (isa_ == "riscv64") {
    for (int r = 1; r < 32; ++r) impl_->intern("x" + std::to_string(r));  // ids 1..31
    for (int r = 0; r < 32; ++r) impl_->intern("f" + std::to_string(r));  // ids 32..63
  } else {
    throw std::runtime_error("timing model: unsupported isa '" + isa_ + "'");
  }
}

InsnDecoder::~InsnDecoder() {
  if (impl_->insn) cs_free(impl_->insn, 1);
  if (impl_->h) cs_close(&impl_->h);
}

std::string InsnDecoder::disasm(uint64_t pc) const {
  auto it = text_.find(pc);
  return it == text_.end() ? std::string() : it->second;
}

uint32_t InsnDecoder::expr_id(const std::string& e) {
  return exprs_.emplace(e, static_cast<uint32_t>(exprs_.size() + 1)).first->second;
}

std::string InsnDecoder::reg_name(uint8_t id) const { return id < impl_->names.size() ? impl_->names[id] : "?"; }

namespace {

void add_reg(uint8_t* v, uint8_t& n, uint8_t id) {
  if (id == 0) return;
  for (unsigned k = 0; k < n; ++k)
    if (v[k] == id) return;
  if (n < kMaxRegs) v[n++] = id;
}

/// RISC-V registers and classes (ids: x1..x31 -> 1..31, f0..f31 -> 32..63).
void riscv_regs(StaticInsn& s, const uint8_t* b, std::string& text, bool& has_addr, int64_t& disp) {
  auto x = [](unsigned r) { return static_cast<uint8_t>(r); };
  auto f = [](unsigned r) { return static_cast<uint8_t>(32 + r); };
  const uint32_t lo = b[0] | (uint32_t{b[1]} << 8);
  if (s.len == 2) {
    const uint32_t i = lo;
    const unsigned q = i & 3, f3 = (i >> 13) & 7, r97 = ((i >> 7) & 7) + 8, r42 = ((i >> 2) & 7) + 8;
    const unsigned rd = (i >> 7) & 31, rs2 = (i >> 2) & 31;
    text = "c.q" + std::to_string(q) + "." + std::to_string(f3);
    if (q == 0) {
      if (f3 == 0) { add_reg(s.dst, s.ndst, x(r42)); add_reg(s.src, s.nsrc, x(2)); }
      else if (f3 <= 3) { add_reg(s.dst, s.ndst, f3 == 1 ? f(r42) : x(r42)); add_reg(s.src, s.nsrc, x(r97)); s.load = true; }
      else if (f3 >= 5) { add_reg(s.src, s.nsrc, x(r97)); add_reg(s.src, s.nsrc, f3 == 5 ? f(r42) : x(r42)); s.store = true; }
    } else if (q == 1) {
      if (f3 <= 1) { add_reg(s.dst, s.ndst, x(rd)); add_reg(s.src, s.nsrc, x(rd)); }
      else if (f3 <= 3) { add_reg(s.dst, s.ndst, x(rd)); if (f3 == 3 && rd == 2) add_reg(s.src, s.nsrc, x(2)); }
      else if (f3 == 4) {
        add_reg(s.dst, s.ndst, x(r97)); add_reg(s.src, s.nsrc, x(r97));
        if (((i >> 10) & 3) == 3) add_reg(s.src, s.nsrc, x(r42));
      } else if (f3 >= 6) add_reg(s.src, s.nsrc, x(r97));
    } else if (q == 2) {
      if (f3 == 0) { add_reg(s.dst, s.ndst, x(rd)); add_reg(s.src, s.nsrc, x(rd)); }
      else if (f3 <= 3) { add_reg(s.dst, s.ndst, f3 == 1 ? f(rd) : x(rd)); add_reg(s.src, s.nsrc, x(2)); s.load = true; }
      else if (f3 == 4) {
        if (rs2 == 0) { add_reg(s.src, s.nsrc, x(rd)); if ((i >> 12) & 1) add_reg(s.dst, s.ndst, x(1)); }
        else { add_reg(s.dst, s.ndst, x(rd)); add_reg(s.src, s.nsrc, x(rs2)); if ((i >> 12) & 1) add_reg(s.src, s.nsrc, x(rd)); }
      } else { add_reg(s.src, s.nsrc, x(2)); add_reg(s.src, s.nsrc, f3 == 5 ? f(rs2) : x(rs2)); s.store = true; }
    }
    return;
  }
  const uint32_t i = lo | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24);
  const unsigned op = i & 0x7f, rd = (i >> 7) & 31, rs1 = (i >> 15) & 31, rs2 = (i >> 20) & 31, f7 = i >> 25;
  text = "op" + std::to_string(op);
  switch (op) {
    case 0x37: case 0x17: case 0x6f: add_reg(s.dst, s.ndst, x(rd)); break;
    case 0x67: add_reg(s.dst, s.ndst, x(rd)); add_reg(s.src, s.nsrc, x(rs1)); break;
    case 0x63: add_reg(s.src, s.nsrc, x(rs1)); add_reg(s.src, s.nsrc, x(rs2)); break;
    case 0x03: add_reg(s.dst, s.ndst, x(rd)); add_reg(s.src, s.nsrc, x(rs1)); s.load = true; break;
    case 0x07: add_reg(s.dst, s.ndst, f(rd)); add_reg(s.src, s.nsrc, x(rs1)); s.load = true; break;
    case 0x23: add_reg(s.src, s.nsrc, x(rs1)); add_reg(s.src, s.nsrc, x(rs2)); s.store = true; break;
    case 0x27: add_reg(s.src, s.nsrc, x(rs1)); add_reg(s.src, s.nsrc, f(rs2)); s.store = true; break;
    default: break;
  }
  if (op == 0x03 || op == 0x07 || op == 0x23 || op == 0x27) {  // base rs1 + 12-bit offset
    const int32_t imm = op & 0x20 ? (static_cast<int32_t>(i & 0xfe000000) >> 20) | static_cast<int32_t>((i >> 7) & 31)
                                  : static_cast<int32_t>(i) >> 20;
    s.addr_base = x(rs1);
    has_addr = true;
    disp = imm;
  }
  switch (op) {
    case 0x13: case 0x1b: add_reg(s.dst, s.ndst, x(rd)); add_reg(s.src, s.nsrc, x(rs1)); break;
    case 0x33: case 0x3b:
      add_reg(s.dst, s.ndst, x(rd)); add_reg(s.src, s.nsrc, x(rs1)); add_reg(s.src, s.nsrc, x(rs2));
      if (f7 == 1) s.cls = ((i >> 12) & 7) < 4 ? OpClass::IntMul : OpClass::IntDiv;
      break;
    case 0x2f:
      add_reg(s.dst, s.ndst, x(rd)); add_reg(s.src, s.nsrc, x(rs1)); add_reg(s.src, s.nsrc, x(rs2));
      s.load = s.store = true;
      break;
    case 0x43: case 0x47: case 0x4b: case 0x4f:
      s.cls = OpClass::Fp;
      add_reg(s.dst, s.ndst, f(rd)); add_reg(s.src, s.nsrc, f(rs1)); add_reg(s.src, s.nsrc, f(rs2));
      add_reg(s.src, s.nsrc, f(i >> 27));
      break;
    case 0x53: {
      s.cls = (f7 >> 2) == 0x03 || (f7 >> 2) == 0x0b ? OpClass::FpDiv : OpClass::Fp;  // fdiv, fsqrt
      const unsigned g = f7 >> 2;
      const bool int_dst = g == 0x14 || g == 0x18 || g == 0x1c;  // fcmp, fcvt.int, fmv.x / fclass
      const bool int_src = g == 0x1a || g == 0x1e;               // fcvt.from int, fmv.f.x
      add_reg(s.dst, s.ndst, int_dst ? x(rd) : f(rd));
      add_reg(s.src, s.nsrc, int_src ? x(rs1) : f(rs1));
      if (!int_src && g != 0x0b && g != 0x08 && g != 0x18) add_reg(s.src, s.nsrc, f(rs2));
      break;
    }
    default: break;
  }
}

}  // namespace

const StaticInsn* InsnDecoder::decode(uint64_t pc, const uint8_t* bytes, size_t n) {
  auto it = cache_.find(pc);
  if (it != cache_.end()) return &it->second;
  const record::InsnInfo info = record::decode_insn(isa_, pc, bytes, n);
  if (!info.valid || info.len == 0 || info.len > n) return nullptr;
  StaticInsn s;
  s.pc = pc;
  s.len = info.len;
  s.is_cf = info.is_cf;
  s.kind = info.kind;
  std::string text;
  if (isa_ == "x86_64") {
    const uint8_t* code = bytes;
    size_t size = n;
    uint64_t addr = pc;
    cs_insn* in = impl_->insn;
    if (!cs_disasm_iter(impl_->h, &code, &size, &addr, in)) return nullptr;
    text = std::string(in->mnemonic) + (in->op_str[0] ? " " : "") + in->op_str;
    const cs_x86& x = in->detail->x86;
    const unsigned id = in->id;
    // registers (explicit and implicit, including address registers)
    cs_regs rr, rw;
    uint8_t nr = 0, nw = 0;
    if (cs_regs_access(impl_->h, in, rr, &nr, rw, &nw) == CS_ERR_OK) {
      for (unsigned k = 0; k < nr; ++k)
        if (rr[k] < X86_REG_ENDING) add_reg(s.src, s.nsrc, impl_->canon[rr[k]]);
      for (unsigned k = 0; k < nw; ++k)
        if (rw[k] < X86_REG_ENDING) add_reg(s.dst, s.ndst, impl_->canon[rw[k]]);
    }
    // zero idioms (xor r, r and friends) do not read their register
    const bool zero_idiom = (id == X86_INS_XOR || id == X86_INS_SUB || id == X86_INS_PXOR || id == X86_INS_XORPS ||
                             id == X86_INS_XORPD || id == X86_INS_VPXOR || id == X86_INS_VXORPS) &&
                            x.op_count == 2 && x.operands[0].type == X86_OP_REG &&
                            x.operands[1].type == X86_OP_REG && x.operands[0].reg == x.operands[1].reg;
    if (zero_idiom) {
      const uint8_t r = impl_->canon[x.operands[0].reg];
      unsigned w = 0;
      for (unsigned k = 0; k < s.nsrc; ++k)
        if (s.src[k] != r) s.src[w++] = s.src[k];
      s.nsrc = static_cast<uint8_t>(w);
    }
    // memory
    if (id != X86_INS_LEA && id != X86_INS_NOP) {
      for (unsigned k = 0; k < x.op_count; ++k)
        if (x.operands[k].type == X86_OP_MEM) {
          if (x.operands[k].access & CS_AC_READ) s.load = true;
          if (x.operands[k].access & CS_AC_WRITE) s.store = true;
          if (!(x.operands[k].access & (CS_AC_READ | CS_AC_WRITE))) s.load = true;  // unknown: assume a read
        }
    }
    // the stack accesses capstone lists as no memory operand
    if (s.load || s.store) {  // the address expression of the (first) memory operand
      for (unsigned k = 0; k < x.op_count; ++k)
        if (x.operands[k].type == X86_OP_MEM) {
          const x86_op_mem& mm = x.operands[k].mem;
          const bool rip = mm.base == X86_REG_RIP || mm.base == X86_REG_EIP;
          s.addr_base = rip || mm.base >= X86_REG_ENDING ? 0 : impl_->canon[mm.base];
          s.addr_index = mm.index >= X86_REG_ENDING ? 0 : impl_->canon[mm.index];
          const int64_t disp = rip ? static_cast<int64_t>(pc + in->size + static_cast<uint64_t>(mm.disp)) : mm.disp;
          s.addr_expr = expr_id(std::to_string(mm.segment) + ":" + std::to_string(s.addr_base) + ":" +
                                std::to_string(s.addr_index) + ":" + std::to_string(mm.scale) + ":" +
                                std::to_string(disp));
          break;
        }
    }
    if (id == X86_INS_PUSH || id == X86_INS_CALL) s.store = true;
    if (id == X86_INS_POP || id == X86_INS_RET) s.load = true;
    // class
    const char* m = in->mnemonic;
    if (s.is_cf)
      s.cls = OpClass::Branch;
    else if (id == X86_INS_NOP)
      s.cls = OpClass::Nop;
    else if (id == X86_INS_MUL || id == X86_INS_IMUL || id == X86_INS_MULX)
      s.cls = OpClass::IntMul;
    else if (id == X86_INS_DIV || id == X86_INS_IDIV)
      s.cls = OpClass::IntDiv;
    else {
      const char* p = m[0] == 'v' ? m + 1 : m;
      const size_t L = std::strlen(p);
      const bool fp_suffix = L > 2 && (std::strcmp(p + L - 2, "ss") == 0 || std::strcmp(p + L - 2, "sd") == 0 ||
                                       std::strcmp(p + L - 2, "ps") == 0 || std::strcmp(p + L - 2, "pd") == 0);
      if (fp_suffix && (has_prefix(p, "div") || has_prefix(p, "sqrt")))
        s.cls = OpClass::FpDiv;
      else if ((fp_suffix && (has_prefix(p, "add") || has_prefix(p, "sub") || has_prefix(p, "mul") ||
                              has_prefix(p, "cvt") || has_prefix(p, "min") || has_prefix(p, "max") ||
                              has_prefix(p, "fmadd") || has_prefix(p, "fmsub") || has_prefix(p, "comi") ||
                              has_prefix(p, "ucomi") || has_prefix(p, "round"))) ||
               has_prefix(p, "pmul"))
        s.cls = OpClass::Fp;
      else if (m[0] == 'f' && (has_prefix(m, "fdiv") || has_prefix(m, "fsqrt")))
        s.cls = OpClass::FpDiv;
      else if (m[0] == 'f' && (has_prefix(m, "fadd") || has_prefix(m, "fsub") || has_prefix(m, "fmul") ||
                               has_prefix(m, "fcom") || has_prefix(m, "fucom")))
        s.cls = OpClass::Fp;
    }
  } else {
    s.cls = s.is_cf ? OpClass::Branch : OpClass::IntAlu;
    bool has_addr = false;
    int64_t disp = 0;
    riscv_regs(s, bytes, text, has_addr, disp);
    if (has_addr) s.addr_expr = expr_id("rv:" + std::to_string(s.addr_base) + ":" + std::to_string(disp));
    if (!s.is_cf && s.cls == OpClass::IntAlu && info.mem && !s.load && !s.store) s.load = true;
  }
  text_.emplace(pc, std::move(text));
  return &cache_.emplace(pc, s).first->second;
}

}  // namespace hwprof::analyses
