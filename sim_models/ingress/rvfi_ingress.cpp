#include "rvfi_ingress.h"

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

void RvfiIngress::reset() {
  fifo_.reset();
  rec_.reset();
  retired_ = records_ = dropped_ = traps_ = intrs_ = order_gaps_ = 0;
  order_next_ = 0;
  order_seen_ = halted_ = false;
  s1_ = {};
  s1_sel_ = 0;
}

RvfiIngress::Out RvfiIngress::step(const In& in) {
  Out o;
  o.retired = retired_;
  o.records = records_;
  o.dropped = dropped_;
  o.traps = traps_;
  o.intrs = intrs_;
  o.order_gaps = order_gaps_;
  o.halted = halted_;
  // s2: the retirement registered in s1 last edge makes its record (the
  // functional algorithm, with the event selection of its own cycle),
  // offered to the FIFO in this edge; dropped when the FIFO is full.
  const RvfiRetire& r = s1_;
  BranchRecord b;
  const bool make = r.valid && rec_.retire(r, static_cast<RvfiEvents>(s1_sel_ & 3), b);
  auto f = fifo_.step({make, b, in.out_ready});
  o.out_valid = f.out_valid;
  o.out_data = f.out_data;
  auto inc = [](uint32_t& c, bool en) { c = static_cast<uint32_t>(sat_add(32, c, en ? 1 : 0)); };
  inc(retired_, r.valid);
  inc(records_, make);
  inc(dropped_, make && !f.in_ready);
  inc(traps_, r.valid && r.trap);
  inc(intrs_, r.valid && r.intr);
  inc(order_gaps_, r.valid && order_seen_ && r.order != order_next_);
  if (r.valid) {
    order_next_ = r.order + 1;
    order_seen_ = true;
    if (r.halt) halted_ = true;
  }
  // s1: this cycle's retirement.
  s1_ = in.rvfi;
  s1_sel_ = in.ev_sel;
  return o;
}

}  // namespace hwprof::model
