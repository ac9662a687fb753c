#include "rvfi_ingress.h"

#include <stdexcept>

#include "prim.h"

namespace hwprof::model {

namespace {

uint32_t bits(uint32_t v, unsigned hi, unsigned lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }
uint32_t sext(uint32_t v, unsigned width) {
  const uint32_t m = 1u << (width - 1);
  return (v ^ m) - m;
}
bool is_link(uint32_t r) { return r == 1 || r == 5; }

}  // namespace

RvfiDecoded rvfi_decode(uint32_t insn, uint32_t pc, uint32_t pc_wdata) {
  RvfiDecoded d;
  d.target = pc_wdata;
  const bool is_c = bits(insn, 1, 0) != 3;
  d.ilen = is_c ? 2 : 4;
  const uint32_t rd = bits(insn, 11, 7), rs1 = bits(insn, 19, 15);
  if (!is_c) {
    switch (bits(insn, 6, 0)) {
      case 0x63: {  // BRANCH
        const uint32_t imm = (bits(insn, 31, 31) << 12) | (bits(insn, 7, 7) << 11) | (bits(insn, 30, 25) << 5) |
                             (bits(insn, 11, 8) << 1);
        d.ctl = true;
        d.kind = BranchKind::Br;
        d.target = pc + sext(imm, 13);
        break;
      }
      case 0x6f: {  // JAL
        const uint32_t imm = (bits(insn, 31, 31) << 20) | (bits(insn, 19, 12) << 12) | (bits(insn, 20, 20) << 11) |
                             (bits(insn, 30, 21) << 1);
        d.ctl = true;
        d.kind = is_link(rd) ? BranchKind::Call : BranchKind::Jmp;
        d.target = pc + sext(imm, 21);
        break;
      }
      case 0x67:  // JALR
        d.ctl = true;
        d.kind = is_link(rd) ? BranchKind::Icall : is_link(rs1) ? BranchKind::Ret : BranchKind::Ijmp;
        break;
      default:
        break;
    }
  } else {
    const uint32_t q = bits(insn, 1, 0), f3 = bits(insn, 15, 13), f4 = bits(insn, 15, 12);
    const uint32_t crs1 = bits(insn, 11, 7), crs2 = bits(insn, 6, 2);
    if (q == 1 && (f3 == 5 || f3 == 1)) {  // C.J, C.JAL
      const uint32_t imm = (bits(insn, 12, 12) << 11) | (bits(insn, 8, 8) << 10) | (bits(insn, 10, 9) << 8) |
                           (bits(insn, 6, 6) << 7) | (bits(insn, 7, 7) << 6) | (bits(insn, 2, 2) << 5) |
                           (bits(insn, 11, 11) << 4) | (bits(insn, 5, 3) << 1);
      d.ctl = true;
      d.kind = f3 == 1 ? BranchKind::Call : BranchKind::Jmp;
      d.target = pc + sext(imm, 12);
    } else if (q == 1 && (f3 == 6 || f3 == 7)) {  // C.BEQZ, C.BNEZ
      const uint32_t imm = (bits(insn, 12, 12) << 8) | (bits(insn, 6, 5) << 6) | (bits(insn, 2, 2) << 5) |
                           (bits(insn, 11, 10) << 3) | (bits(insn, 4, 3) << 1);
      d.ctl = true;
      d.kind = BranchKind::Br;
      d.target = pc + sext(imm, 9);
    } else if (q == 2 && f4 == 9 && crs1 != 0 && crs2 == 0) {  // C.JALR
      d.ctl = true;
      d.kind = BranchKind::Icall;
    } else if (q == 2 && f4 == 8 && crs1 != 0 && crs2 == 0) {  // C.JR
      d.ctl = true;
      d.kind = is_link(crs1) ? BranchKind::Ret : BranchKind::Ijmp;
    }
  }
  d.taken = d.kind != BranchKind::Br || pc_wdata == d.target;
  return d;
}

bool rvfi_event(const RvfiRetire& r, RvfiEvents sel) {
  switch (sel) {
    case RvfiEvents::MemAccess:
      return (r.mem_rmask | r.mem_wmask) & 0xf;
    case RvfiEvents::Loads:
      return r.mem_rmask & 0xf;
    case RvfiEvents::Stores:
      return r.mem_wmask & 0xf;
    case RvfiEvents::CoreEvent:
      return r.event;
  }
  return false;
}

bool rvfi_val(const RvfiRetire& r) { return !r.trap && ((r.mem_rmask | r.mem_wmask) & 0xf); }

bool RvfiRecorder::retire(const RvfiRetire& r, RvfiEvents sel, BranchRecord& out) {
  const uint32_t insns = static_cast<uint32_t>(sat_inc(kInsnsW, insns_));
  const uint32_t events = static_cast<uint32_t>(sat_add(kEventsW, events_, rvfi_event(r, sel) ? 1 : 0));
  const RvfiDecoded d = rvfi_decode(r.insn, r.pc_rdata, r.pc_wdata);
  if (!d.ctl || r.trap) {
    insns_ = insns;
    events_ = events;
    return false;
  }
  out.kind = static_cast<uint8_t>(d.kind);
  out.pc = r.pc_rdata;
  out.target = d.target;
  out.taken = d.taken;
  out.ilen = d.ilen;
  out.insns = static_cast<uint16_t>(insns);
  out.events = static_cast<uint8_t>(events);
  insns_ = events_ = 0;
  return true;
}

RvfiIngress::RvfiIngress(unsigned depth, unsigned nret, unsigned val_depth)
    : nret_(nret), fifo_(depth), val_fifo_(val_depth) {
  if (nret < 1 || nret > kMaxNret) throw std::invalid_argument("RvfiIngress: Nret must be 1 or 2");
}

void RvfiIngress::reset() {
  fifo_.reset();
  val_fifo_.reset();
  rec_.reset();
  retired_ = records_ = dropped_ = traps_ = intrs_ = order_gaps_ = vals_ = val_dropped_ = 0;
  order_next_ = 0;
  order_seen_ = halted_ = false;
  for (auto& r : s1_) r = {};
  s1_sel_ = 0;
  s1_val_en_ = false;
}

RvfiIngress::Out RvfiIngress::step(const In& in) {
  Out o;
  o.retired = retired_;
  o.records = records_;
  o.dropped = dropped_;
  o.traps = traps_;
  o.intrs = intrs_;
  o.order_gaps = order_gaps_;
  o.vals = vals_;
  o.val_dropped = val_dropped_;
  o.halted = halted_;
  // s2: the retirements registered in s1 last edge, channel 0 then channel
  // 1, through the functional algorithm (with the event selection of their
  // own cycle); their records and val records are offered to the FIFOs in
  // program order in this edge. With room for one only, the older enters
  // and the younger is dropped.
  BranchRecord recs[kMaxNret];
  uint32_t addrs[kMaxNret] = {};
  unsigned nrec = 0, nval = 0, valid = 0, traps = 0, intrs = 0, gaps = 0;
  for (unsigned k = 0; k < nret_; ++k) {
    const RvfiRetire& r = s1_[k];
    if (!r.valid) continue;
    if (rec_.retire(r, static_cast<RvfiEvents>(s1_sel_ & 3), recs[nrec])) ++nrec;
    if (s1_val_en_ && rvfi_val(r)) addrs[nval++] = r.mem_addr;
    ++valid;
    traps += r.trap;
    intrs += r.intr;
    gaps += order_seen_ && r.order != order_next_;
    order_next_ = r.order + 1;
    order_seen_ = true;
    if (r.halt) halted_ = true;
  }
  const auto f = fifo_.step({nrec > 0, recs[0], in.out_ready, false, nrec > 1, recs[1]});
  const auto v = val_fifo_.step({nval > 0, addrs[0], in.val_ready, false, nval > 1, addrs[1]});
  o.out_valid = f.out_valid;
  o.out_data = f.out_data;
  o.val_valid = v.out_valid;
  o.val_data = v.out_data;
  // Entries of n offered that the FIFO refused.
  auto refused = [](unsigned n, bool ready, bool ready1) { return n - (n > 0 && ready) - (n > 1 && ready1); };
  auto add = [](uint32_t& c, unsigned n) { c = static_cast<uint32_t>(sat_add(32, c, n)); };
  add(retired_, valid);
  add(records_, nrec);
  add(dropped_, refused(nrec, f.in_ready, f.in_ready1));
  add(traps_, traps);
  add(intrs_, intrs);
  add(order_gaps_, gaps);
  add(vals_, nval);
  add(val_dropped_, refused(nval, v.in_ready, v.in_ready1));
  // s1: this cycle's retirements.
  s1_[0] = in.rvfi;
  s1_[1] = nret_ > 1 ? in.rvfi1 : RvfiRetire{};
  s1_sel_ = in.ev_sel;
  s1_val_en_ = in.val_en;
  return o;
}

}  // namespace hwprof::model
