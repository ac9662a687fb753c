#include "hpt_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "Vhpt_s128_w4.h"
#include "Vhpt_s16_w8.h"
#include "Vhpt_s1_w4.h"
#include "Vhpt_s4_w2.h"
#include "rtl_base.h"

namespace hwprof::tb {

using model::Hpt;

std::string HptConfig::name() const { return fmt::format("s{}_w{}", sets, ways); }

namespace {

template <typename V>
class HptRtlT final : public RtlBase<Hpt, V> {
 public:
  using RtlBase<Hpt, V>::RtlBase;

  void reset() override {
    auto& t = this->h_.top();
    t.in_valid_i = 0;
    t.dump_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }

  Hpt::Out step(const Hpt::In& in) override {
    auto& t = this->h_.top();
    const auto& d = in.in_desc;
    t.in_valid_i = in.in_valid;
    t.in_start_i = d.start;
    t.in_length_i = d.length & 0x3f;
    t.in_dirs_i = d.dirs;
    t.in_events_i = d.events;
    t.in_insns_i = d.insns & 0xffffff;
    t.in_incomplete_i = d.incomplete;
    t.dump_ready_i = in.dump_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0xf;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    Hpt::Out o;
    o.in_ready = t.in_ready_o;
    o.dump_valid = t.dump_valid_o;
    o.dump = read_dump_port(t);
    o.dump_busy = t.dump_busy_o;
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

}  // namespace

const std::vector<HptConfig>& hpt_configs() {
  static const std::vector<HptConfig> c = {{128, 4}, {4, 2}, {1, 4}, {16, 8}};
  return c;
}

std::unique_ptr<HptRtl> make_hpt_rtl(const HptConfig& cfg, const SimEnv& env, const std::string& wave_name,
                                     uint64_t seed) {
  std::unique_ptr<HptRtl> p;
  if (cfg.sets == 128 && cfg.ways == 4)
    p = std::make_unique<HptRtlT<Vhpt_s128_w4>>(env, wave_name, seed);
  else if (cfg.sets == 4 && cfg.ways == 2)
    p = std::make_unique<HptRtlT<Vhpt_s4_w2>>(env, wave_name, seed);
  else if (cfg.sets == 1 && cfg.ways == 4)
    p = std::make_unique<HptRtlT<Vhpt_s1_w4>>(env, wave_name, seed);
  else if (cfg.sets == 16 && cfg.ways == 8)
    p = std::make_unique<HptRtlT<Vhpt_s16_w8>>(env, wave_name, seed);
  else
    throw std::invalid_argument(fmt::format(
        "hpt {} sets x {} ways has no RTL build (Verilated: 128x4, 4x2, 1x4, 16x8)", cfg.sets, cfg.ways));
  p->reset();
  return p;
}

HptLockstep make_hpt_lockstep(const HptConfig& cfg, const SimEnv& env, const std::string& name, uint64_t seed) {
  return {Hpt(cfg.sets, cfg.ways), make_hpt_rtl(cfg, env, name, seed), "hpt", seed, env};
}

std::string LockstepTraits<Hpt>::describe(const Hpt::In& in) {
  const auto& d = in.in_desc;
  return fmt::format(
      "in_valid={} in_desc={{start={:08x} length={} dirs={:08x} events={} insns={} incomplete={}}} dump_ready={} "
      "csr_we={} csr_addr={} csr_wdata={:08x}",
      int(in.in_valid), d.start, unsigned(d.length), d.dirs, d.events, d.insns, int(d.incomplete),
      int(in.dump_ready), int(in.csr_we), in.csr_addr, in.csr_wdata);
}

void add_dump_fields(std::vector<Field>& f, const Hpt::DumpEntry& e, const Hpt::DumpEntry& a, bool v) {
  f.push_back({"dump.set", e.set, a.set, v});
  f.push_back({"dump.way", e.way, a.way, v});
  f.push_back({"dump.start", e.key.start, a.key.start, v});
  f.push_back({"dump.length", e.key.length, a.key.length, v});
  f.push_back({"dump.dirs", e.key.dirs, a.key.dirs, v});
  f.push_back({"dump.acc", e.acc, a.acc, v});
}

std::vector<Field> LockstepTraits<Hpt>::fields(const Hpt::Out& e, const Hpt::Out& a) {
  std::vector<Field> f = {
      {"in_ready", e.in_ready, a.in_ready},
      {"dump_valid", e.dump_valid, a.dump_valid},
      {"dump_busy", e.dump_busy, a.dump_busy},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
  };
  add_dump_fields(f, e.dump, a.dump, e.dump_valid);
  return f;
}

}  // namespace hwprof::tb
