// Lock-step tests of rtl/ingress/hwprof_rvfi_ingress.sv against its cycle
// model (sim_models/ingress/rvfi_ingress.h): directed cases per instruction
// class (instructions built by encoders written here, independent of the
// decoder), back-to-back records, overflow with a counted drop, traps,
// interrupts, events, order gaps, count saturation, val records, the same
// with two retirement channels (NRET 2: both channels in one clock, channel 1
// alone, a trap beside a branch, gaps between the channels, one free FIFO
// slot for two records), seeded random RVFI streams with backpressure for
// NRET 1 and 2, NRET 2 against NRET 1 on the same retirements serialized, and
// a scoreboard self-check. The real stream (a program on PicoRV32) is
// lock-stepped in tb/soc/soc_test.cpp.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vrvfi_ingress_d1.h"
#include "Vrvfi_ingress_d2.h"
#include "Vrvfi_ingress_d4.h"
#include "Vrvfi_ingress_n2_d2_v2.h"
#include "Vrvfi_ingress_n2_d4.h"
#include "gtest_util.h"
#include "harness.h"
#include "lockstep.h"
#include "rvfi_ingress.h"

namespace hwprof::tb {

using model::BranchKind;
using model::BranchRecord;
using model::RvfiIngress;
using model::RvfiRetire;

/// A Verilated build of the ingress: its parameters.
struct IngressBuild {
  unsigned depth = 4, nret = 1, val_depth = 4;
  std::string name() const {
    return (nret > 1 ? "nret" + std::to_string(nret) + "_" : std::string()) + "depth" + std::to_string(depth) +
           (val_depth != 4 ? "_val" + std::to_string(val_depth) : std::string());
  }
};

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

/// Channel k (w bits) of a packed RVFI port.
template <typename T>
void put(T& port, unsigned k, unsigned w, uint64_t v) {
  const uint64_t m = w >= 64 ? ~0ull : (1ull << w) - 1;
  const unsigned sh = k * w;
  port = static_cast<T>((static_cast<uint64_t>(port) & ~(m << sh)) | ((v & m) << sh));
}
template <std::size_t N>
void put(VlWide<N>& port, unsigned k, unsigned w, uint64_t v) {  // 64-bit channels (rvfi_order, NRET 2)
  for (unsigned b = 0; b < w; b += 32) port[(k * w + b) / 32] = static_cast<uint32_t>(v >> b);
}

template <typename V>
class IngressRtlT final : public IngressRtl {
 public:
  IngressRtlT(const SimEnv& env, const std::string& name, uint64_t seed, unsigned nret)
      : h_(env, name, seed), nret_(nret) {}
  void reset() override {
    auto& t = h_.top();
    t.rvfi_valid_i = 0;
    t.out_ready_i = 0;
    t.val_ready_i = 0;
    t.val_en_i = 0;
    t.ev_sel_i = 0;
    t.event_i = 0;
    h_.reset();
  }
  RvfiIngress::Out step(const RvfiIngress::In& in) override {
    auto& t = h_.top();
    t.ev_sel_i = in.ev_sel;
    t.val_en_i = in.val_en;
    for (unsigned k = 0; k < nret_; ++k) {
      const RvfiRetire& r = k ? in.rvfi1 : in.rvfi;
      put(t.rvfi_valid_i, k, 1, r.valid);
      put(t.rvfi_order_i, k, 64, r.order);
      put(t.rvfi_insn_i, k, 32, r.insn);
      put(t.rvfi_trap_i, k, 1, r.trap);
      put(t.rvfi_halt_i, k, 1, r.halt);
      put(t.rvfi_intr_i, k, 1, r.intr);
      put(t.rvfi_pc_rdata_i, k, 32, r.pc_rdata);
      put(t.rvfi_pc_wdata_i, k, 32, r.pc_wdata);
      put(t.rvfi_mem_rmask_i, k, 4, r.mem_rmask);
      put(t.rvfi_mem_wmask_i, k, 4, r.mem_wmask);
      put(t.rvfi_mem_addr_i, k, 32, r.mem_addr);
      put(t.event_i, k, 1, r.event);
    }
    t.out_ready_i = in.out_ready;
    t.val_ready_i = in.val_ready;
    h_.eval();
    RvfiIngress::Out o;
    o.out_valid = t.out_valid_o;
    o.out_data = BranchRecord::unpack({t.out_data_o[0], t.out_data_o[1], t.out_data_o[2]});
    o.val_valid = t.val_valid_o;
    o.val_data = t.val_data_o;
    o.retired = t.retired_o;
    o.records = t.records_o;
    o.dropped = t.dropped_o;
    o.traps = t.traps_o;
    o.intrs = t.intrs_o;
    o.order_gaps = t.order_gaps_o;
    o.vals = t.vals_o;
    o.val_dropped = t.val_dropped_o;
    o.halted = t.halted_o;
    h_.tick();
    return o;
  }
  uint64_t cycles() const override { return h_.cycle(); }
  void flush_wave() override { h_.flush(); }
  std::string wave_path() const override { return h_.wave_path(); }

 private:
  Harness<V> h_;
  unsigned nret_;
};

template <>
struct LockstepTraits<RvfiIngress> {
  static std::string retire(const RvfiRetire& r) {
    char b[200];
    std::snprintf(b, sizeof b,
                  "valid=%d order=%llu insn=%08x pc=%08x next=%08x trap=%d halt=%d intr=%d r=%x w=%x addr=%08x "
                  "ev=%d",
                  r.valid, static_cast<unsigned long long>(r.order), r.insn, r.pc_rdata, r.pc_wdata, r.trap, r.halt,
                  r.intr, r.mem_rmask, r.mem_wmask, r.mem_addr, r.event);
    return b;
  }
  static std::string describe(const RvfiIngress::In& in) {
    char b[80];
    std::snprintf(b, sizeof b, " sel=%u ready=%d val_en=%d val_ready=%d", in.ev_sel, in.out_ready, in.val_en,
                  in.val_ready);
    return "ch0 " + retire(in.rvfi) + (in.rvfi1.valid ? " | ch1 " + retire(in.rvfi1) : std::string()) + b;
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
            {"val_valid", e.val_valid, a.val_valid},
            {"val_data", e.val_data, a.val_data, e.val_valid},
            {"retired", e.retired, a.retired},
            {"records", e.records, a.records},
            {"dropped", e.dropped, a.dropped},
            {"traps", e.traps, a.traps},
            {"intrs", e.intrs, a.intrs},
            {"order_gaps", e.order_gaps, a.order_gaps},
            {"vals", e.vals, a.vals},
            {"val_dropped", e.val_dropped, a.val_dropped},
            {"halted", e.halted, a.halted}};
  }
};

using IngressLockstep = Lockstep<RvfiIngress, IngressRtl>;

inline std::unique_ptr<IngressLockstep> make_ingress(const IngressBuild& b, const SimEnv& env,
                                                     const std::string& name, uint64_t seed) {
  std::unique_ptr<IngressRtl> rtl;
  auto is = [&](unsigned d, unsigned n, unsigned v) { return b.depth == d && b.nret == n && b.val_depth == v; };
  if (is(4, 1, 4)) rtl = std::make_unique<IngressRtlT<Vrvfi_ingress_d4>>(env, name, seed, 1);
  if (is(2, 1, 4)) rtl = std::make_unique<IngressRtlT<Vrvfi_ingress_d2>>(env, name, seed, 1);
  if (is(1, 1, 4)) rtl = std::make_unique<IngressRtlT<Vrvfi_ingress_d1>>(env, name, seed, 1);
  if (is(4, 2, 4)) rtl = std::make_unique<IngressRtlT<Vrvfi_ingress_n2_d4>>(env, name, seed, 2);
  if (is(2, 2, 2)) rtl = std::make_unique<IngressRtlT<Vrvfi_ingress_n2_d2_v2>>(env, name, seed, 2);
  if (!rtl) throw std::invalid_argument("no RVFI ingress build " + b.name());
  auto l = std::make_unique<IngressLockstep>(RvfiIngress(b.depth, b.nret, b.val_depth), std::move(rtl),
                                             "rvfi_ingress", seed, env);
  l->reset();
  return l;
}
inline std::unique_ptr<IngressLockstep> make_ingress(unsigned depth, const SimEnv& env, const std::string& name,
                                                     uint64_t seed) {
  return make_ingress(IngressBuild{depth, 1, 4}, env, name, seed);
}

}  // namespace hwprof::tb

using hwprof::tb::IngressBuild;
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

class Ingress : public ::testing::TestWithParam<IngressBuild> {
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
  const unsigned depth = GetParam().depth;
  auto l = hwprof::tb::make_ingress(GetParam(), env, name, env.seed);
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
  const unsigned depth = GetParam().depth;
  auto l = hwprof::tb::make_ingress(GetParam(), env, name, env.seed);
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
// instruction words; bubbles with probability idle%. Loads and stores carry
// a data address (from a generator of their own, so the stream of the other
// fields is the same with and without it). fill() gives one clock of Nret
// channels: consecutive retirements, channel 0 the older, each a bubble with
// probability idle% (so channel 1 alone happens too).
class RvfiGen {
 public:
  explicit RvfiGen(uint64_t seed) : rng_(seed), addr_rng_(seed ^ 0xadd7u) {}
  void fill(RvfiIngress::In& in, int idle_pct, unsigned nret) {
    in.rvfi = next(idle_pct);
    in.rvfi1 = nret > 1 ? next(idle_pct) : RvfiRetire{};
  }
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
        r.mem_addr = static_cast<uint32_t>(addr_rng_());
        break;
      case 4:
        r.insn = enc_sw(reg(), reg());
        r.mem_wmask = static_cast<uint8_t>(1 + rng_() % 15);
        r.mem_addr = static_cast<uint32_t>(addr_rng_());
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
  std::mt19937_64 rng_, addr_rng_;
  uint64_t order_ = 0;
  uint32_t pc_ = 0x80000000u;
};

TEST_P(Ingress, RandomStreamsLockstepWithBackpressure) {
  const IngressBuild b = GetParam();
  const unsigned seeds = env.seeds ? env.seeds : 32;
  uint64_t pairs = 0, vals = 0;
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    auto l = hwprof::tb::make_ingress(b, env, name, seed);
    RvfiGen gen(seed);
    Throttle stall(seed * 7 + 2, env.stall_for(seed));
    Throttle val_stall(seed * 11 + 5, env.stall_for(seed + 1));
    std::mt19937_64 rng(seed * 13);
    const int idle = env.idle_for(seed);
    uint8_t sel = static_cast<uint8_t>(seed % 4);
    bool val_en = seed % 4 != 1;
    uint64_t delivered = 0;
    RvfiIngress::Out o;
    try {
      for (unsigned c = 0; c < 4000; ++c) {
        if (c % 1000 == 999) {
          sel = static_cast<uint8_t>(rng() % 4);
          val_en = rng() % 4 != 0;
        }
        RvfiIngress::In in;
        in.ev_sel = sel;
        gen.fill(in, idle, b.nret);
        in.out_ready = !stall();
        in.val_en = val_en;
        in.val_ready = !val_stall();
        pairs += in.rvfi.valid && in.rvfi1.valid;
        o = l->step(in);
        if (c == 2000 && s % 4 == 3) l->reset();  // reset mid-stream
      }
      for (unsigned c = 0; c < 2 * std::max(b.depth, b.val_depth) + 3; ++c) {
        RvfiIngress::In in;
        in.ev_sel = sel;
        in.out_ready = in.val_ready = true;
        o = l->step(in);
        delivered += o.out_valid;
      }
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
    vals += o.vals;
    EXPECT_GT(o.records, 0u) << "seed " << seed;
    EXPECT_FALSE(o.out_valid) << "seed " << seed;
    EXPECT_FALSE(o.val_valid) << "seed " << seed;
  }
  if (!env.seeds || env.seeds >= 8) {
    EXPECT_GT(vals, 0u);
    if (b.nret > 1) EXPECT_GT(pairs, 1000u);  // both channels in one clock, often
  }
}

INSTANTIATE_TEST_SUITE_P(Depths, Ingress,
                         ::testing::Values(IngressBuild{4, 1, 4}, IngressBuild{2, 1, 4}, IngressBuild{1, 1, 4},
                                           IngressBuild{4, 2, 4}, IngressBuild{2, 2, 2}),
                         [](const auto& i) { return i.param.name(); });

// ------------------------------------------------------------ val records

// Loads and stores that do not trap make val records of their data address
// (val_en on); val_en off makes none. Every build, channel 0.
TEST_P(Ingress, MakesValRecordsOfLoadsAndStores) {
  auto l = hwprof::tb::make_ingress(GetParam(), env, name, env.seed);
  std::vector<uint32_t> got;
  uint64_t ord = 0;
  auto run = [&](RvfiRetire r, bool en) {
    RvfiIngress::In in;
    in.rvfi = r;
    in.out_ready = in.val_ready = true;
    in.val_en = en;
    auto o = l->step(in);
    if (o.val_valid) got.push_back(o.val_data);
    return o;
  };
  RvfiRetire ld = ret(ord++, enc_lw(1, 2), 0x0, 0x4);
  ld.mem_rmask = 0xf;
  ld.mem_addr = 0x80001000;
  RvfiRetire st = ret(ord++, enc_sw(1, 2), 0x4, 0x8);
  st.mem_wmask = 0x1;
  st.mem_addr = 0x10000000;
  RvfiRetire tr = ret(ord++, enc_lw(1, 2), 0x8, 0xc);  // a misaligned load: traps
  tr.mem_rmask = 0xf;
  tr.mem_addr = 0x80001002;
  tr.trap = true;
  RvfiRetire alu = ret(ord++, enc_addi(1, 1, 1), 0xc, 0x10);
  alu.mem_addr = 0x1234;  // no access: ignored
  RvfiRetire off = ret(ord++, enc_lw(1, 2), 0x10, 0x14);
  off.mem_rmask = 0x3;
  off.mem_addr = 0x5678;
  run(ld, true);
  run(st, true);
  run(tr, true);
  run(alu, true);
  run(off, false);
  RvfiIngress::Out o;
  for (int i = 0; i < 4; ++i) o = run({}, false);
  EXPECT_EQ(got, (std::vector<uint32_t>{0x80001000, 0x10000000}));
  EXPECT_EQ(o.vals, 2u);
  EXPECT_EQ(o.val_dropped, 0u);
}

// A val consumer that never takes: the val FIFO keeps the first ValDepth
// val records, the rest are dropped and counted; the branch side is not
// affected.
TEST_P(Ingress, FullValFifoDropsAndCountsValRecords) {
  const IngressBuild b = GetParam();
  auto l = hwprof::tb::make_ingress(b, env, name, env.seed);
  const unsigned n = 9;
  for (unsigned i = 0; i < n; ++i) {
    RvfiIngress::In in;
    in.rvfi = ret(i, enc_sw(1, 2), 4 * i, 4 * i + 4);
    in.rvfi.mem_wmask = 0xf;
    in.rvfi.mem_addr = 0x100 + i;
    in.val_en = true;
    in.out_ready = true;
    l->step(in);
  }
  RvfiIngress::In idle;
  l->step(idle);
  auto o = l->step(idle);
  EXPECT_EQ(o.vals, n);
  EXPECT_EQ(o.val_dropped, n - b.val_depth);
  EXPECT_EQ(o.records, 0u);
  idle.val_ready = true;
  for (unsigned i = 0; i < b.val_depth; ++i) {
    o = l->step(idle);
    ASSERT_TRUE(o.val_valid);
    EXPECT_EQ(o.val_data, 0x100 + i);
  }
  o = l->step(idle);
  EXPECT_FALSE(o.val_valid);
}

// ------------------------------------------------------------------ NRET 2

// Two retirement channels; channel 0 the older. Records and val records
// leave one per clock in program order.
class IngressNret2 : public ::testing::Test {
 protected:
  SimEnv env = SimEnv::from_env();
  std::string name = hwprof::tb::current_test_name();
  std::unique_ptr<IngressLockstep> l;
  std::vector<BranchRecord> recs;
  std::vector<uint32_t> vals;
  RvfiIngress::Out last;

  void build(unsigned depth, unsigned val_depth) {
    l = hwprof::tb::make_ingress(IngressBuild{depth, 2, val_depth}, env, name, env.seed);
  }
  /// One clock: channel 0 `a`, channel 1 `b`; outputs collected.
  RvfiIngress::Out clock(const RvfiRetire& a, const RvfiRetire& b, bool ready = true, bool val_en = true) {
    RvfiIngress::In in;
    in.rvfi = a;
    in.rvfi1 = b;
    in.out_ready = in.val_ready = ready;
    in.val_en = val_en;
    last = l->step(in);
    if (last.out_valid && ready) recs.push_back(last.out_data);
    if (last.val_valid && ready) vals.push_back(last.val_data);
    return last;
  }
  void drain(unsigned n = 8) {
    for (unsigned i = 0; i < n; ++i) clock({}, {});
  }
};

TEST_F(IngressNret2, TwoBranchesInOneClockLeaveInProgramOrder) {
  build(4, 4);
  const uint32_t P = 0x80000100;
  clock(ret(0, enc_addi(1, 0, 5), P - 4, P), {});
  // beq taken to P + 64, then at P + 64 jal x1 to P + 64 + 2048.
  clock(ret(1, enc_b(0, 1, 2, 64), P, P + 64), ret(2, enc_jal(1, 2048), P + 64, P + 2112));
  drain();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].kind, static_cast<uint8_t>(BranchKind::Br));
  EXPECT_EQ(recs[0].pc, P);
  EXPECT_EQ(recs[0].target, P + 64);
  EXPECT_TRUE(recs[0].taken);
  EXPECT_EQ(recs[0].insns, 2u);  // the addi and the branch
  EXPECT_EQ(recs[1].kind, static_cast<uint8_t>(BranchKind::Call));
  EXPECT_EQ(recs[1].pc, P + 64);
  EXPECT_EQ(recs[1].target, P + 2112);
  EXPECT_EQ(recs[1].insns, 1u);  // counts from the first record
  EXPECT_EQ(last.records, 2u);
  EXPECT_EQ(last.retired, 3u);
  EXPECT_EQ(last.dropped, 0u);
  EXPECT_EQ(last.order_gaps, 0u);
}

TEST_F(IngressNret2, BranchInChannel1AloneIsOneRetirement) {
  build(4, 4);
  const uint32_t P = 0x80000200;
  clock({}, ret(0, enc_caddi(10, 3), P - 2, P));
  clock({}, ret(1, enc_cb(true, 2, -32), P, P + 2));  // c.bnez not taken
  drain();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].kind, static_cast<uint8_t>(BranchKind::Br));
  EXPECT_EQ(recs[0].pc, P);
  EXPECT_EQ(recs[0].target, P - 32);
  EXPECT_FALSE(recs[0].taken);
  EXPECT_EQ(recs[0].ilen, 2u);
  EXPECT_EQ(recs[0].insns, 2u);
  EXPECT_EQ(last.retired, 2u);
  EXPECT_EQ(last.order_gaps, 0u);
}

// A trapping branch in channel 0 makes no record; channel 1's record counts
// it. A trapping branch in channel 1 beside a branch in channel 0: the next
// record counts the trapped one.
TEST_F(IngressNret2, TrapInChannel0BesideBranchInChannel1) {
  build(4, 4);
  RvfiRetire t = ret(0, enc_jal(1, 6), 0x200, 0x10);  // misaligned target: traps
  t.trap = true;
  clock(t, ret(1, enc_b(0, 0, 0, 8), 0x10, 0x18));
  RvfiRetire t2 = ret(3, enc_b(0, 0, 0, 8), 0x1c, 0x24);
  t2.trap = true;
  clock(ret(2, enc_jal(0, 4), 0x18, 0x1c), t2);
  clock(ret(4, enc_jal(0, 8), 0x24, 0x2c), {});
  drain();
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].pc, 0x10u);
  EXPECT_EQ(recs[0].insns, 2u);  // the trapped jal and the branch
  EXPECT_EQ(recs[1].pc, 0x18u);
  EXPECT_EQ(recs[1].insns, 1u);
  EXPECT_EQ(recs[2].pc, 0x24u);
  EXPECT_EQ(recs[2].insns, 2u);  // the trapped branch and the jal
  EXPECT_EQ(last.traps, 2u);
  EXPECT_EQ(last.records, 3u);
}

// Channel 1 must follow channel 0, channel 0 the previous cycle's last
// retirement (channel 1 alone: the previous cycle's last).
TEST_F(IngressNret2, CountsOrderGapsBetweenAndAcrossChannels) {
  build(4, 4);
  auto alu = [](uint64_t o) { return ret(o, enc_addi(1, 1, 1), 0, 4); };
  clock(alu(10), alu(11));  // the first is not checked
  clock(alu(12), alu(14));  // channel 1 skips 13: 1
  clock(alu(15), {});       // follows channel 1 of the previous clock
  clock({}, alu(16));       // channel 1 alone follows channel 0 of the previous clock
  clock(alu(18), alu(19));  // channel 0 skips 17: 2
  clock(alu(20), alu(20));  // channel 1 repeats channel 0: 3
  clock({}, {});
  auto o = clock({}, {});
  EXPECT_EQ(o.order_gaps, 3u);
  EXPECT_EQ(o.retired, 10u);
}

// Two records in one clock with one free FIFO slot: the older enters, the
// younger is dropped and counted; the next record counts from the dropped
// one.
TEST_F(IngressNret2, OneFreeSlotKeepsOlderAndDropsYoungerRecord) {
  build(2, 2);
  auto jal = [](uint64_t o, uint32_t pc) { return ret(o, enc_jal(0, 16), pc, pc + 16); };
  clock(jal(0, 0x100), {}, false);                    // A enters (1 of 2)
  clock(jal(1, 0x200), jal(2, 0x300), false);         // B enters (full), C dropped
  clock(ret(3, enc_addi(1, 1, 1), 0x400, 0x404), jal(4, 0x404), false);  // D dropped (full)
  clock({}, {}, false);  // D through s2
  auto o = clock({}, {}, false);  // the counters show it
  EXPECT_EQ(o.records, 4u);
  EXPECT_EQ(o.dropped, 2u);
  drain(3);
  clock(jal(5, 0x500), {});
  drain();
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].pc, 0x100u);
  EXPECT_EQ(recs[1].pc, 0x200u);
  EXPECT_EQ(recs[2].pc, 0x500u);
  EXPECT_EQ(recs[2].insns, 1u);  // counts from D, which was dropped
  EXPECT_EQ(last.dropped, 2u);
  EXPECT_EQ(last.records, 5u);
}

TEST_F(IngressNret2, TwoValRecordsPerClockInProgramOrder) {
  build(4, 4);
  auto mem = [](uint64_t o, uint32_t pc, bool store, uint32_t addr) {
    RvfiRetire r = ret(o, store ? enc_sw(1, 2) : enc_lw(1, 2), pc, pc + 4);
    (store ? r.mem_wmask : r.mem_rmask) = 0xf;
    r.mem_addr = addr;
    return r;
  };
  clock(mem(0, 0x0, false, 0x1000), mem(1, 0x4, true, 0x2000));
  RvfiRetire t = mem(2, 0x8, false, 0x2002);
  t.trap = true;
  clock(t, mem(3, 0x10, false, 0x3000));
  clock({}, mem(4, 0x14, true, 0x4000));
  clock(ret(5, enc_addi(1, 1, 1), 0x18, 0x1c), ret(6, enc_b(0, 0, 0, 8), 0x1c, 0x24));
  clock(mem(7, 0x24, false, 0x5000), mem(8, 0x28, true, 0x6000), true, false);  // val_en off
  drain();
  EXPECT_EQ(vals, (std::vector<uint32_t>{0x1000, 0x2000, 0x3000, 0x4000}));
  EXPECT_EQ(last.vals, 4u);
  EXPECT_EQ(last.val_dropped, 0u);
  EXPECT_EQ(last.records, 1u);
}

// Val FIFO of 2: a pair with one free slot keeps the older; a pair with the
// FIFO full loses both.
TEST_F(IngressNret2, FullValFifoKeepsOlderAndDropsYounger) {
  build(2, 2);
  auto ld = [](uint64_t o, uint32_t addr) {
    RvfiRetire r = ret(o, enc_lw(1, 2), 4 * static_cast<uint32_t>(o), 4 * static_cast<uint32_t>(o) + 4);
    r.mem_rmask = 0x3;
    r.mem_addr = addr;
    return r;
  };
  clock(ld(0, 0xa0), {}, false);
  clock(ld(1, 0xa1), ld(2, 0xa2), false);
  clock(ld(3, 0xa3), ld(4, 0xa4), false);
  clock({}, {}, false);  // the last pair through s2
  auto o = clock({}, {}, false);
  EXPECT_EQ(o.vals, 5u);
  EXPECT_EQ(o.val_dropped, 3u);
  drain();
  EXPECT_EQ(vals, (std::vector<uint32_t>{0xa0, 0xa1}));
}

// With nothing dropped, NRET 2 on a stream gives the same records, val
// records and counters as NRET 1 on the same retirements one per clock.
// The NRET 2 packing: each clock carries 0, 1 (on either channel) or 2
// consecutive retirements; a clock with two is followed by an idle one, so
// neither FIFO (Depth 4, consumers always ready) can overflow.
TEST(IngressNret2Serialized, SameRecordsAsNret1OnTheSameRetirements) {
  SimEnv env = SimEnv::from_env();
  const std::string name = hwprof::tb::current_test_name();
  const unsigned seeds = env.seeds ? env.seeds : 16;
  for (unsigned s = 0; s < seeds; ++s) {
    const uint64_t seed = env.seed + s;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::vector<RvfiRetire> stream;
    RvfiGen gen(seed);
    for (unsigned i = 0; i < 3000; ++i) stream.push_back(gen.next(0));
    const uint8_t sel = static_cast<uint8_t>(seed % 4);
    struct Got {
      std::vector<BranchRecord> recs;
      std::vector<uint32_t> vals;
      RvfiIngress::Out o;
    };
    auto run = [&](unsigned nret) {
      Got g;
      auto l = hwprof::tb::make_ingress(IngressBuild{4, nret, 4}, env, name + "_nret" + std::to_string(nret), seed);
      std::mt19937_64 rng(seed * 17 + 3);
      auto clock = [&](const RvfiRetire& a, const RvfiRetire& b) {
        RvfiIngress::In in;
        in.ev_sel = sel;
        in.rvfi = a;
        in.rvfi1 = b;
        in.out_ready = in.val_ready = in.val_en = true;
        g.o = l->step(in);
        if (g.o.out_valid) g.recs.push_back(g.o.out_data);
        if (g.o.val_valid) g.vals.push_back(g.o.val_data);
      };
      size_t i = 0;
      while (i < stream.size()) {
        if (nret == 1) {
          clock(stream[i++], {});
          continue;
        }
        switch (rng() % 5) {
          case 0: clock({}, {}); break;
          case 1: clock(stream[i++], {}); break;
          case 2: clock({}, stream[i++]); break;
          default:
            if (i + 1 < stream.size()) {
              clock(stream[i], stream[i + 1]);
              i += 2;
              clock({}, {});
            }
            break;
        }
      }
      for (int c = 0; c < 12; ++c) clock({}, {});
      return g;
    };
    Got one, two;
    try {
      one = run(1);
      two = run(2);
    } catch (const LockstepMismatch& e) {
      FAIL() << e.what();
    }
    ASSERT_EQ(one.o.dropped, 0u);  // the premise
    ASSERT_EQ(two.o.dropped, 0u);
    ASSERT_EQ(one.o.val_dropped, 0u);
    ASSERT_EQ(two.o.val_dropped, 0u);
    ASSERT_GT(one.recs.size(), 500u);
    ASSERT_GT(one.vals.size(), 100u);
    ASSERT_EQ(two.recs.size(), one.recs.size());
    for (size_t k = 0; k < one.recs.size(); ++k)
      ASSERT_EQ(two.recs[k], one.recs[k]) << "record " << k << ": " << two.recs[k].str() << " vs " << one.recs[k].str();
    EXPECT_EQ(two.vals, one.vals);
    EXPECT_EQ(two.o.retired, one.o.retired);
    EXPECT_EQ(two.o.retired, stream.size());
    EXPECT_EQ(two.o.records, one.o.records);
    EXPECT_EQ(two.o.traps, one.o.traps);
    EXPECT_EQ(two.o.intrs, one.o.intrs);
    EXPECT_EQ(two.o.order_gaps, one.o.order_gaps);
    EXPECT_EQ(two.o.vals, one.o.vals);
    EXPECT_EQ(two.o.halted, one.o.halted);
  }
}

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
