// Lock-step tests of rtl/ingress/hwprof_rvfi_ingress.sv against its cycle
// model (sim_models/ingress/rvfi_ingress.h): directed cases per instruction
// class (instructions built by encoders written here, independent of the
// decoder), back-to-back records, overflow with a counted drop, traps,
// interrupts, events, order gaps, count saturation, seeded random RVFI
// streams with backpressure, and a scoreboard self-check. The real stream
// (a program on PicoRV32) is lock-stepped in tb/soc/soc_test.cpp.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vrvfi_ingress_d1.h"
#include "Vrvfi_ingress_d2.h"
#include "Vrvfi_ingress_d4.h"
#include "gtest_util.h"
#include "harness.h"
#include "lockstep.h"
#include "rvfi_ingress.h"

namespace hwprof::tb {

using model::BranchKind;
using model::BranchRecord;
using model::RvfiIngress;
using model::RvfiRetire;

/// The Verilated ingress behind the model's In/Out.
class IngressRtl {
 public:
  virtual ~IngressRtl() = default;
  virtual void reset() = 0;
  virtual RvfiIngress::Out step(const RvfiIngress::In& in) = 0;
  virtual uint64_t cycles() const = 0;
  virtual void flush_wave() = 0;
  virtual std::string wave_path() const = 0;
};

template <typename V>
class IngressRtlT final : public IngressRtl {
 public:
  IngressRtlT(const SimEnv& env, const std::string& name, uint64_t seed) : h_(env, name, seed) {}
  void reset() override {
    auto& t = h_.top();
    t.rvfi_valid_i = 0;
    t.out_ready_i = 0;
    t.ev_sel_i = 0;
    t.event_i = 0;
    h_.reset();
  }
  RvfiIngress::Out step(const RvfiIngress::In& in) override {
    auto& t = h_.top();
    const RvfiRetire& r = in.rvfi;
    t.ev_sel_i = in.ev_sel;
    t.rvfi_valid_i = r.valid;
    t.rvfi_order_i = r.order;
    t.rvfi_insn_i = r.insn;
    t.rvfi_trap_i = r.trap;
    t.rvfi_halt_i = r.halt;
    t.rvfi_intr_i = r.intr;
    t.rvfi_pc_rdata_i = r.pc_rdata;
    t.rvfi_pc_wdata_i = r.pc_wdata;
    t.rvfi_mem_rmask_i = r.mem_rmask;
    t.rvfi_mem_wmask_i = r.mem_wmask;
    t.event_i = r.event;
    t.out_ready_i = in.out_ready;
    h_.eval();
    RvfiIngress::Out o;
    o.out_valid = t.out_valid_o;
    o.out_data = BranchRecord::unpack({t.out_data_o[0], t.out_data_o[1], t.out_data_o[2]});
    o.retired = t.retired_o;
    o.records = t.records_o;
    o.dropped = t.dropped_o;
    o.traps = t.traps_o;
    o.intrs = t.intrs_o;
    o.order_gaps = t.order_gaps_o;
    o.halted = t.halted_o;
    h_.tick();
    return o;
  }
  uint64_t cycles() const override { return h_.cycle(); }
  void flush_wave() override { h_.flush(); }
  std::string wave_path() const override { return h_.wave_path(); }

 private:
  Harness<V> h_;
};

template <>
struct LockstepTraits<RvfiIngress> {
  static std::string describe(const RvfiIngress::In& in) {
    const RvfiRetire& r = in.rvfi;
    char b[200];
    std::snprintf(b, sizeof b,
                  "valid=%d order=%llu insn=%08x pc=%08x next=%08x trap=%d halt=%d intr=%d r=%x w=%x ev=%d sel=%u "
                  "ready=%d",
                  r.valid, static_cast<unsigned long long>(r.order), r.insn, r.pc_rdata, r.pc_wdata, r.trap, r.halt,
                  r.intr, r.mem_rmask, r.mem_wmask, r.event, in.ev_sel, in.out_ready);
    return b;
  }
  static std::vector<Field> fields(const RvfiIngress::Out& e, const RvfiIngress::Out& a) {
    const bool v = e.out_valid;
    return {{"out_valid", e.out_valid, a.out_valid},
            {"out.kind", e.out_data.kind, a.out_data.kind, v},
            {"out.pc", e.out_data.pc, a.out_data.pc, v},
            {"out.target", e.out_data.target, a.out_data.target, v},
            {"out.taken", e.out_data.taken, a.out_data.taken, v},
            {"out.ilen", e.out_data.ilen, a.out_data.ilen, v},
            {"out.insns", e.out_data.insns, a.out_data.insns, v},
            {"out.events", e.out_data.events, a.out_data.events, v},
            {"retired", e.retired, a.retired},
            {"records", e.records, a.records},
            {"dropped", e.dropped, a.dropped},
            {"traps", e.traps, a.traps},
            {"intrs", e.intrs, a.intrs},
            {"order_gaps", e.order_gaps, a.order_gaps},
            {"halted", e.halted, a.halted}};
  }
};

using IngressLockstep = Lockstep<RvfiIngress, IngressRtl>;

inline std::unique_ptr<IngressLockstep> make_ingress(unsigned depth, const SimEnv& env, const std::string& name,
                                                     uint64_t seed) {
  std::unique_ptr<IngressRtl> rtl;
  if (depth == 4) rtl = std::make_unique<IngressRtlT<Vrvfi_ingress_d4>>(env, name, seed);
  if (depth == 2) rtl = std::make_unique<IngressRtlT<Vrvfi_ingress_d2>>(env, name, seed);
  if (depth == 1) rtl = std::make_unique<IngressRtlT<Vrvfi_ingress_d1>>(env, name, seed);
  if (!rtl) throw std::invalid_argument("no RVFI ingress build of depth " + std::to_string(depth));
  auto l = std::make_unique<IngressLockstep>(RvfiIngress(depth), std::move(rtl), "rvfi_ingress", seed, env);
  l->reset();
  return l;
}

}  // namespace hwprof::tb

using hwprof::tb::IngressLockstep;
using hwprof::tb::LockstepMismatch;
using hwprof::tb::SimEnv;
using hwprof::tb::Throttle;
using namespace hwprof::model;

namespace {

// ------------------------------------------------------------------ encoders
// RV32I / RV32C encodings from the ISA manual's formats, written here so that
// the directed tests do not share code with the decoder under test.
uint32_t enc_b(unsigned f3, unsigned rs1, unsigned rs2, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
         (((u >> 1) & 0xf) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}
uint32_t enc_jal(unsigned rd, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3ff) << 21) | (((u >> 11) & 1) << 20) |
         (((u >> 12) & 0xff) << 12) | (rd << 7) | 0x6f;
}
uint32_t enc_jalr(unsigned rd, unsigned rs1, int32_t imm) {
  return ((static_cast<uint32_t>(imm) & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | 0x67;
}
uint32_t enc_addi(unsigned rd, unsigned rs1, int32_t imm) {
  return ((static_cast<uint32_t>(imm) & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | 0x13;
}
uint32_t enc_lw(unsigned rd, unsigned rs1) { return (rs1 << 15) | (2u << 12) | (rd << 7) | 0x03; }
uint32_t enc_sw(unsigned rs2, unsigned rs1) { return (rs2 << 20) | (rs1 << 15) | (2u << 12) | 0x23; }
// C.J (link = 0) / C.JAL (link = 1).
uint32_t enc_cj(bool link, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  const uint32_t f = (((u >> 11) & 1) << 10) | (((u >> 4) & 1) << 9) | (((u >> 8) & 3) << 7) | (((u >> 10) & 1) << 6) |
                     (((u >> 6) & 1) << 5) | (((u >> 7) & 1) << 4) | (((u >> 1) & 7) << 1) | ((u >> 5) & 1);
  return ((link ? 1u : 5u) << 13) | (f << 2) | 1;
}
// C.BEQZ (bnez = 0) / C.BNEZ (bnez = 1) on x8+rs1p.
uint32_t enc_cb(bool bnez, unsigned rs1p, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return ((bnez ? 7u : 6u) << 13) | (((u >> 8) & 1) << 12) | (((u >> 3) & 3) << 10) | (rs1p << 7) |
         (((u >> 6) & 3) << 5) | (((u >> 1) & 3) << 3) | (((u >> 5) & 1) << 2) | 1;
}
uint32_t enc_cjr(unsigned rs1) { return (8u << 12) | (rs1 << 7) | 2; }
uint32_t enc_cjalr(unsigned rs1) { return (9u << 12) | (rs1 << 7) | 2; }
uint32_t enc_caddi(unsigned rd, int imm) { return (static_cast<uint32_t>(rd) << 7) | ((imm & 0x1f) << 2) | 1; }

// A retirement at `pc` going to `next`.
RvfiRetire ret(uint64_t order, uint32_t insn, uint32_t pc, uint32_t next) {
  RvfiRetire r;
  r.valid = true;
  r.order = order;
  r.insn = insn;
  r.pc_rdata = pc;
  r.pc_wdata = next;
  return r;
}

struct Expect {
  BranchKind kind;
  uint32_t pc, target;
  bool taken;
  uint8_t ilen;
};

class Ingress : public ::testing::TestWithParam<unsigned> {
 protected:
  SimEnv env = SimEnv::from_env();
  std::string name = hwprof::tb::current_test_name();
};

// Every instruction class once, each record checked against the values the
// encoders put in (kind from the x1/x5 hints, static target, taken, ilen,
// insns since the previous record).
TEST_P(Ingress, ClassifiesEveryControlTransferByTheLinkHints) {
  auto l = hwprof::tb::make_ingress(GetParam(), env, name, env.seed);
  struct Step {
    uint32_t insn;
    uint32_t pc, next;
    bool rec;
    Expect e;
  };
  const uint32_t P = 0x80000100;
  std::vector<Step> prog = {
      {enc_addi(1, 0, 5), P, P + 4, false, {}},
      {enc_b(0, 1, 2, 64), P + 4, P + 68, true, {BranchKind::Br, P + 4, P + 68, true, 4}},
      {enc_b(1, 1, 2, -32), P + 68, P + 72, true, {BranchKind::Br, P + 68, P + 36, false, 4}},
      {enc_jal(1, 2048), P + 72, P + 2120, true, {BranchKind::Call, P + 72, P + 2120, true, 4}},
      {enc_jal(5, -2048), P + 2120, P + 72, true, {BranchKind::Call, P + 2120, P + 72, true, 4}},
      {enc_jal(0, 0x7fffe), P, P + 0x7fffe, true, {BranchKind::Jmp, P, P + 0x7fffe, true, 4}},
      {enc_jal(7, -0x100000), P + 0x100000, P, true, {BranchKind::Jmp, P + 0x100000, P, true, 4}},
      {enc_jalr(0, 1, 0), P, P + 0x40, true, {BranchKind::Ret, P, P + 0x40, true, 4}},
      {enc_jalr(0, 5, 8), P, P + 0x48, true, {BranchKind::Ret, P, P + 0x48, true, 4}},
      {enc_jalr(3, 1, 0), P, P + 0x40, true, {BranchKind::Ret, P, P + 0x40, true, 4}},
      {enc_jalr(1, 6, 0), P, P + 0x300, true, {BranchKind::Icall, P, P + 0x300, true, 4}},
      {enc_jalr(5, 1, 0), P, P + 0x304, true, {BranchKind::Icall, P, P + 0x304, true, 4}},
      {enc_jalr(1, 1, 0), P, P + 0x308, true, {BranchKind::Icall, P, P + 0x308, true, 4}},
      {enc_jalr(0, 6, 0), P, P + 0x30c, true, {BranchKind::Ijmp, P, P + 0x30c, true, 4}},
      {enc_caddi(10, 3), P, P + 2, false, {}},
      {enc_cj(false, -2), P + 2, P, true, {BranchKind::Jmp, P + 2, P, true, 2}},
      {enc_cj(false, 2046), P, P + 2046, true, {BranchKind::Jmp, P, P + 2046, true, 2}},
      {enc_cj(true, -2048), P, P - 2048, true, {BranchKind::Call, P, P - 2048, true, 2}},
      {enc_cb(false, 2, 254), P, P + 254, true, {BranchKind::Br, P, P + 254, true, 2}},
      {enc_cb(true, 7, -256), P, P + 2, true, {BranchKind::Br, P, P - 256, false, 2}},
      {enc_cjr(1), P, P + 0x20, true, {BranchKind::Ret, P, P + 0x20, true, 2}},
      {enc_cjr(5), P, P + 0x20, true, {BranchKind::Ret, P, P + 0x20, true, 2}},
      {enc_cjr(7), P, P + 0x24, true, {BranchKind::Ijmp, P, P + 0x24, true, 2}},
      {enc_cjalr(7), P, P + 0x28, true, {BranchKind::Icall, P, P + 0x28, true, 2}},
      {enc_cjalr(1), P, P + 0x2c, true, {BranchKind::Icall, P, P + 0x2c, true, 2}},
      {0x00100073, P, P + 4, false, {}},  // ebreak (not trapping here): no record
      {0x9002, P, P + 2, false, {}},      // c.ebreak
      {enc_lw(3, 2), P, P + 4, false, {}},
      {enc_b(5, 3, 4, 4), P, P + 4, true, {BranchKind::Br, P, P + 4, true, 4}},
  };
  std::vector<BranchRecord> got;
  uint64_t order = 0;
  std::vector<Expect> want;
  std::vector<unsigned> want_insns;
  unsigned since = 0;
  for (const auto& s : prog) {
    ++since;
    if (s.rec) {
      want.push_back(s.e);
      want_insns.push_back(since);
      since = 0;
    }
    auto o = l->step({0, ret(order++, s.insn, s.pc, s.next), true});
    if (o.out_valid) got.push_back(o.out_data);
    o = l->step({0, {}, true});  // a bubble: Depth 1 takes one record every other clock
    if (o.out_valid) got.push_back(o.out_data);
  }
  for (int i = 0; i < 4; ++i) {
    auto o = l->step({0, {}, true});
    if (o.out_valid) got.push_back(o.out_data);
  }
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE("record " + std::to_string(i) + ": " + got[i].str());
    EXPECT_EQ(got[i].kind, static_cast<uint8_t>(want[i].kind));
    EXPECT_EQ(got[i].pc, want[i].pc);
    EXPECT_EQ(got[i].target, want[i].target);
    EXPECT_EQ(got[i].taken, want[i].taken);
    EXPECT_EQ(got[i].ilen, want[i].ilen);
    EXPECT_EQ(got[i].insns, want_insns[i]);
  }
  l->step({0, {}, false});
  auto o = l->step({0, {}, false});
  EXPECT_EQ(o.records, want.size());
  EXPECT_EQ(o.dropped, 0u);
  EXPECT_EQ(o.retired, prog.size());
}

// A record every cycle with the consumer always ready: none lost (Depth >= 2
// sustains one per clock; Depth 1 takes one every other clock and drops the
// rest, counted).
TEST_P(Ingress, BackToBackBranchesOnePerClock) {
  const unsigned depth = GetParam();
  auto l = hwprof::tb::make_ingress(depth, env, name, env.seed);
  const unsigned n = 200;
  unsigned out = 0;
  for (unsigned i = 0; i < n + 4; ++i) {
    RvfiRetire r;
    if (i < n) r = ret(i, enc_b(0, 1, 1, 8), 0x1000 + 8 * i, 0x1008 + 8 * i);
    auto o = l->step({0, r, true});
    if (o.out_valid) {
      EXPECT_EQ(o.out_data.insns, 1u);
      ++out;
    }
  }
  auto o = l->step({0, {}, true});
  EXPECT_EQ(o.records, n);
  EXPECT_EQ(o.dropped + out, n);
  if (depth >= 2) EXPECT_EQ(o.dropped, 0u);
  else EXPECT_EQ(o.dropped, n / 2);
}

// A consumer that never takes: the FIFO fills with the first Depth records,
// every later record is dropped and counted; draining then yields exactly
// the first Depth records in order.
TEST_P(Ingress, FullFifoDropsAndCountsRecords) {
  const unsigned depth = GetParam();
  auto l = hwprof::tb::make_ingress(depth, env, name, env.seed);
  const unsigned n = 10;
  for (unsigned i = 0; i < n; ++i) l->step({0, ret(i, enc_jal(0, 16), 0x100 * i, 0x100 * i + 16), false});
  l->step({0, {}, false});  // the last retirement through s2
  auto o = l->step({0, {}, false});
  EXPECT_EQ(o.records, n);
  EXPECT_EQ(o.dropped, n - depth);
  for (unsigned i = 0; i < depth; ++i) {
    o = l->step({0, {}, true});
    ASSERT_TRUE(o.out_valid);
    EXPECT_EQ(o.out_data.pc, 0x100 * i);
  }
  o = l->step({0, {}, true});
  EXPECT_FALSE(o.out_valid);
}

// A trapping branch makes no record; its count goes to the next record. An
// interrupt-entry retirement is decoded as usual and counted. Halt is sticky.
TEST_P(Ingress, TrapMakesNoRecordAndIntrIsCounted) {
  auto l = hwprof::tb::make_ingress(GetParam(), env, name, env.seed);
  std::vector<BranchRecord> got;
  auto run = [&](RvfiRetire r) {
    auto o = l->step({0, r, true});
    if (o.out_valid) got.push_back(o.out_data);
    return o;
  };
  RvfiRetire t = ret(0, enc_jal(1, 6), 0x200, 0x10);  // misaligned target: traps
  t.trap = true;
  run(t);
  RvfiRetire in = ret(1, enc_addi(1, 1, 1), 0x10, 0x14);
  in.intr = true;
  run(in);
  run(ret(2, enc_jal(0, 8), 0x14, 0x1c));
  RvfiRetire h = ret(3, 0x00100073, 0x1c, 0x20);
  h.trap = h.halt = true;
  run(h);
  RvfiRetire ib = ret(4, enc_b(0, 0, 0, 8), 0x20, 0x28);
  ib.intr = true;
  run(ib);
  auto o = run({});
  o = run({});
  o = run({});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].pc, 0x14u);
  EXPECT_EQ(got[0].insns, 3u);  // the trapped jal, the handler's addi, the jmp
  EXPECT_EQ(got[1].insns, 2u);  // the trapped ebreak, the branch
  EXPECT_EQ(o.traps, 2u);
  EXPECT_EQ(o.intrs, 2u);
  EXPECT_TRUE(o.halted);
}

// Events per ev_sel: loads, stores, both, or the core's event_i.
TEST_P(Ingress, CountsSelectedEventsSinceThePreviousRecord) {
  for (uint8_t sel = 0; sel < 4; ++sel) {
    auto l = hwprof::tb::make_ingress(GetParam(), env, name, env.seed + sel);
    std::vector<BranchRecord> got;
    uint64_t ord = 0;
    auto run = [&](RvfiRetire r) {
      auto o = l->step({sel, r, true});
      if (o.out_valid) got.push_back(o.out_data);
    };
    RvfiRetire ld = ret(ord++, enc_lw(1, 2), 0x0, 0x4);
    ld.mem_rmask = 0xf;
    RvfiRetire st = ret(ord++, enc_sw(1, 2), 0x4, 0x8);
    st.mem_wmask = 0x3;
    RvfiRetire ev = ret(ord++, enc_addi(1, 1, 1), 0x8, 0xc);
    ev.event = true;
    RvfiRetire br = ret(ord++, enc_b(0, 0, 0, 8), 0xc, 0x14);
    br.event = true;
    for (const auto& r : {ld, ld, st, ev, br}) run(r);
    run({});
    run({});
    run({});
    ASSERT_EQ(got.size(), 1u);
    const unsigned want[4] = {3, 2, 1, 2};
    EXPECT_EQ(got[0].events, want[sel]) << "ev_sel " << unsigned(sel);
    EXPECT_EQ(got[0].insns, 5u);
  }
}

// Gaps in rvfi_order are counted; insns and events saturate.
TEST_P(Ingress, CountsOrderGapsAndSaturatesCounts) {
  auto l = hwprof::tb::make_ingress(GetParam(), env, name, env.seed);
  l->step({0, ret(10, enc_addi(1, 1, 1), 0, 4), true});
  l->step({0, ret(11, enc_addi(1, 1, 1), 4, 8), true});
  l->step({0, ret(13, enc_addi(1, 1, 1), 8, 12), true});
  l->step({0, ret(13, enc_addi(1, 1, 1), 8, 12), true});
  l->step({0, {}, true});
  auto o = l->step({0, {}, true});
  EXPECT_EQ(o.order_gaps, 2u);
  uint64_t ord = 14;
  for (unsigned i = 0; i < 70000; ++i) {
    RvfiRetire r = ret(ord++, enc_lw(1, 2), 0, 4);
    r.mem_rmask = 1;
    l->step({0, r, true});
  }
  l->step({0, ret(ord++, enc_jal(0, 8), 4, 12), true});
  l->step({0, {}, true});
  o = l->step({0, {}, true});
  ASSERT_TRUE(o.out_valid);
  EXPECT_EQ(o.out_data.insns, 0xffffu);
  EXPECT_EQ(o.out_data.events, 0xffu);
}

// ------------------------------------------------------------------ random

// A random retirement stream: a program counter walking through ALU, memory
// and control instructions (32-bit and compressed, every link-register
// combination), occasional traps, interrupts, order gaps and fully random
// instruction words; bubbles with probability idle%.
class RvfiGen {
 public:
  explicit RvfiGen(uint64_t seed) : rng_(seed) {}
  RvfiRetire next(int idle_pct) {
    RvfiRetire r;
    if (static_cast<int>(rng_() % 100) < idle_pct) return r;
    r.valid = true;
    r.order = order_++;
    if (rng_() % 64 == 0) order_ += 1 + rng_() % 3;
    r.pc_rdata = pc_;
    const unsigned link[4] = {1, 5, 0, 6};
    auto reg = [&] { return rng_() % 4 ? link[rng_() % 4] : static_cast<unsigned>(rng_() % 32); };
    const int32_t off = static_cast<int32_t>(rng_() % 4096) * 2 - 4096;
    uint32_t next = pc_ + 4;
    switch (rng_() % 12) {
      case 0: case 1: case 2:
        r.insn = enc_addi(reg(), reg(), static_cast<int>(rng_() % 4096) - 2048);
        break;
      case 3:
        r.insn = enc_lw(reg(), reg());
        r.mem_rmask = static_cast<uint8_t>(1 + rng_() % 15);
        break;
      case 4:
        r.insn = enc_sw(reg(), reg());
        r.mem_wmask = static_cast<uint8_t>(1 + rng_() % 15);
        break;
      case 5: {
        r.insn = enc_b(static_cast<unsigned>(rng_() % 8), reg(), reg(), off);
        next = rng_() % 2 ? pc_ + static_cast<uint32_t>(off) : pc_ + 4;
        break;
      }
      case 6:
        r.insn = enc_jal(reg(), off * 64);
        next = pc_ + static_cast<uint32_t>(off * 64);
        break;
      case 7:
        r.insn = enc_jalr(reg(), reg(), off / 2);
        next = static_cast<uint32_t>(rng_()) & ~1u;
        break;
      case 8: {  // compressed
        const int32_t coff = (static_cast<int32_t>(rng_() % 2048) - 1024) & ~1;
        next = pc_ + 2;
        switch (rng_() % 6) {
          case 0: r.insn = enc_cj(rng_() % 2, coff); next = pc_ + static_cast<uint32_t>(coff); break;
          case 1: {
            const int32_t b = (static_cast<int32_t>(rng_() % 512) - 256) & ~1;
            r.insn = enc_cb(rng_() % 2, static_cast<unsigned>(rng_() % 8), b);
            if (rng_() % 2) next = pc_ + static_cast<uint32_t>(b);
            break;
          }
          case 2: r.insn = enc_cjr(1 + static_cast<unsigned>(rng_() % 31)); next = static_cast<uint32_t>(rng_()) & ~1u; break;
          case 3: r.insn = enc_cjalr(1 + static_cast<unsigned>(rng_() % 31)); next = static_cast<uint32_t>(rng_()) & ~1u; break;
          default: r.insn = static_cast<uint32_t>(rng_() & 0xffff) | (rng_() % 2 ? 0u : 0x0000u); if ((r.insn & 3) == 3) r.insn &= ~1u; break;
        }
        break;
      }
      case 9:  // any word
        r.insn = static_cast<uint32_t>(rng_());
        next = static_cast<uint32_t>(rng_());
        break;
      default:
        r.insn = enc_addi(reg(), reg(), 1);
        break;
    }
    r.pc_wdata = next;
    r.trap = rng_() % 50 == 0;
    r.intr = rng_() % 50 == 0;
    r.halt = r.trap && rng_() % 4 == 0;
    r.event = rng_() % 3 == 0;
    if (r.trap) next = 0x80000000u;
    pc_ = next;
    return r;
  }

 private:
  std::mt19937_64 rng_;
  uint64_t order_ = 0;
  uint32_t pc_ = 0x80000000u;
};

TEST_P(Ingress, RandomStreamsLockstepWithBackpressure) {
  const unsigned depth = GetParam();
  const unsigned seeds = env.seeds ? env.seeds : 32;
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    auto l = hwprof::tb::make_ingress(depth, env, name, seed);
    RvfiGen gen(seed);
    Throttle stall(seed * 7 + 2, env.stall_for(seed));
    std::mt19937_64 rng(seed * 13);
    const int idle = env.idle_for(seed);
    uint8_t sel = static_cast<uint8_t>(seed % 4);
    uint64_t delivered = 0;
    RvfiIngress::Out o;
    try {
      for (unsigned c = 0; c < 4000; ++c) {
        if (c % 1000 == 999) sel = static_cast<uint8_t>(rng() % 4);
        o = l->step({sel, gen.next(idle), !stall()});
        if (c == 2000 && s % 4 == 3) l->reset();  // reset mid-stream
      }
      for (unsigned c = 0; c < 2 * depth + 3; ++c) {
        o = l->step({sel, {}, true});
        delivered += o.out_valid;
      }
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
    EXPECT_GT(o.records, 0u) << "seed " << seed;
    EXPECT_FALSE(o.out_valid) << "seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(Depths, Ingress, ::testing::Values(4u, 2u, 1u),
                         [](const auto& i) { return "depth" + std::to_string(i.param); });

// The scoreboard catches a model that differs from the RTL (one entry
// shallower): the drop counts diverge under backpressure.
TEST(IngressHarness, ScoreboardReportsFirstMismatchOfFaultyModel) {
  SimEnv env = SimEnv::from_env();
  auto l = hwprof::tb::make_ingress(4, env, hwprof::tb::current_test_name(), env.seed);
  l->model() = RvfiIngress(3);
  RvfiGen gen(env.seed);
  try {
    for (unsigned c = 0; c < 2000; ++c) l->step({0, gen.next(0), c % 5 == 0});
    FAIL() << "the faulty model was not caught";
  } catch (const LockstepMismatch& e) {
    const std::string r = e.what();
    EXPECT_NE(r.find("lock-step mismatch in rvfi_ingress at cycle"), std::string::npos) << r;
  }
}

}  // namespace
