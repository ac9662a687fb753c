#include "path_frontend_rtl.h"

#include <fmt/core.h>

#include <stdexcept>

#include "Vpath_classifier.h"
#include "Vpath_frontend_q2_d4_l8.h"
#include "Vpath_frontend_q4_d16_l32.h"
#include "Vpath_stack_d16_l32.h"
#include "Vpath_stack_d1_l1.h"
#include "Vpath_stack_d4_l8.h"
#include "rtl_base.h"

namespace hwprof::tb {

using model::Emission;
using model::PathClassifier;
using model::PathFrontend;
using model::PathRecord;
using model::PathStack;

std::string PathConfig::name() const { return fmt::format("q{}_d{}_l{}", queue_depth, depth, max_len); }

namespace {

template <typename W>
void put_words(W& dst, const std::array<uint32_t, 3>& w) {
  for (int i = 0; i < 3; ++i) dst[i] = w[i];
}
template <typename W>
void put_words(W& dst, const std::array<uint32_t, 4>& w) {
  for (int i = 0; i < 4; ++i) dst[i] = w[i];
}

// The descriptor ports: out_* on path_stack, desc_* on path_frontend.
#define HWPROF_READ_DESC(t, p)                                                         \
  [&] {                                                                                \
    Emission e;                                                                        \
    e.path.start = t.p##start_o;                                                       \
    e.path.length = static_cast<uint8_t>(t.p##length_o);                               \
    e.path.dirs = static_cast<uint32_t>(t.p##dirs_o);                                  \
    e.path.events = static_cast<uint16_t>(t.p##events_o);                              \
    e.path.insns = t.p##insns_o;                                                       \
    e.path.ext = static_cast<uint8_t>(t.p##ext_o);                                     \
    e.path.incomplete = t.p##incomplete_o;                                             \
    e.split = t.p##split_o;                                                            \
    e.frame_end = t.p##frame_end_o;                                                    \
    e.depth = t.p##depth_o;                                                            \
    return e;                                                                          \
  }()

template <typename V>
class PathClassifierRtlT final : public RtlBase<PathClassifier, V> {
 public:
  using RtlBase<PathClassifier, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.in_valid_i = 0;
    t.out_ready_i = 0;
    this->h_.reset();
  }
  PathClassifier::Out step(const PathClassifier::In& in) override {
    auto& t = this->h_.top();
    t.ppcr_i = in.ppcr;
    t.in_valid_i = in.in_valid;
    put_words(t.in_data_i, in.in_data.pack());
    t.out_ready_i = in.out_ready;
    this->h_.eval();
    PathClassifier::Out o;
    o.in_ready = t.in_ready_o;
    o.out_valid = t.out_valid_o;
    o.out_data = PathRecord::unpack({t.out_data_o[0], t.out_data_o[1], t.out_data_o[2], t.out_data_o[3]});
    this->h_.tick();
    return o;
  }
};

template <typename V>
class PathStackRtlT final : public RtlBase<PathStack, V> {
 public:
  using RtlBase<PathStack, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.in_valid_i = 0;
    t.out_ready_i = 0;
    this->h_.reset();
  }
  PathStack::Out step(const PathStack::In& in) override {
    auto& t = this->h_.top();
    t.in_valid_i = in.in_valid;
    put_words(t.in_data_i, in.in_data.pack());
    t.out_ready_i = in.out_ready;
    this->h_.eval();
    PathStack::Out o;
    o.in_ready = t.in_ready_o;
    o.out_valid = t.out_valid_o;
    o.out = HWPROF_READ_DESC(t, out_);
    o.count = t.count_o;
    o.stats = {t.stat_records_o,  t.stat_emitted_o,    t.stat_incomplete_o,  t.stat_splits_o,
               t.stat_overflows_o, t.stat_empty_pops_o, t.stat_stall_cycles_o};
    this->h_.tick();
    return o;
  }
};

template <typename V>
class PathFrontendRtlT final : public RtlBase<PathFrontend, V> {
 public:
  using RtlBase<PathFrontend, V>::RtlBase;
  void reset() override {
    auto& t = this->h_.top();
    t.rec_valid_i = 0;
    t.desc_ready_i = 0;
    t.csr_we_i = 0;
    t.csr_addr_i = 0;
    t.csr_wdata_i = 0;
    this->h_.reset();
  }
  PathFrontend::Out step(const PathFrontend::In& in) override {
    auto& t = this->h_.top();
    t.rec_valid_i = in.rec_valid;
    put_words(t.rec_data_i, in.rec_data.pack());
    t.desc_ready_i = in.desc_ready;
    t.csr_we_i = in.csr_we;
    t.csr_addr_i = in.csr_addr & 0xf;
    t.csr_wdata_i = in.csr_wdata;
    this->h_.eval();
    PathFrontend::Out o;
    o.rec_ready = t.rec_ready_o;
    o.desc_valid = t.desc_valid_o;
    o.desc = HWPROF_READ_DESC(t, desc_);
    o.csr_rdata = t.csr_rdata_o;
    this->h_.tick();
    return o;
  }
};

template <typename T>
std::unique_ptr<T> started(std::unique_ptr<T> p) {
  p->reset();
  return p;
}

void add_emission_fields(std::vector<Field>& f, const Emission& e, const Emission& a, bool v) {
  f.push_back({"desc.start", e.path.start, a.path.start, v});
  f.push_back({"desc.length", e.path.length, a.path.length, v});
  f.push_back({"desc.dirs", e.path.dirs, a.path.dirs, v});
  f.push_back({"desc.events", e.path.events, a.path.events, v});
  f.push_back({"desc.insns", e.path.insns, a.path.insns, v});
  f.push_back({"desc.ext", e.path.ext, a.path.ext, v});
  f.push_back({"desc.incomplete", e.path.incomplete, a.path.incomplete, v});
  f.push_back({"desc.split", e.split, a.split, v});
  f.push_back({"desc.frame_end", e.frame_end, a.frame_end, v});
  f.push_back({"desc.depth", e.depth, a.depth, v});
}

}  // namespace

std::unique_ptr<PathClassifierRtl> make_path_classifier_rtl(const SimEnv& env, const std::string& wave_name,
                                                            uint64_t seed) {
  return started<PathClassifierRtl>(std::make_unique<PathClassifierRtlT<Vpath_classifier>>(env, wave_name, seed));
}

const std::vector<PathConfig>& path_stack_configs() {
  static const std::vector<PathConfig> c = {{0, 16, 32}, {0, 4, 8}, {0, 1, 1}};
  return c;
}

std::unique_ptr<PathStackRtl> make_path_stack_rtl(const PathConfig& cfg, const SimEnv& env,
                                                  const std::string& wave_name, uint64_t seed) {
  std::unique_ptr<PathStackRtl> p;
  if (cfg.depth == 16 && cfg.max_len == 32)
    p = std::make_unique<PathStackRtlT<Vpath_stack_d16_l32>>(env, wave_name, seed);
  else if (cfg.depth == 4 && cfg.max_len == 8)
    p = std::make_unique<PathStackRtlT<Vpath_stack_d4_l8>>(env, wave_name, seed);
  else if (cfg.depth == 1 && cfg.max_len == 1)
    p = std::make_unique<PathStackRtlT<Vpath_stack_d1_l1>>(env, wave_name, seed);
  else
    throw std::invalid_argument(fmt::format("path_stack depth {} MaxLen {} has no RTL build (Verilated: 16/32, "
                                            "4/8, 1/1)",
                                            cfg.depth, cfg.max_len));
  return started(std::move(p));
}

const std::vector<PathConfig>& path_frontend_configs() {
  static const std::vector<PathConfig> c = {{4, 16, 32}, {2, 4, 8}};
  return c;
}

std::unique_ptr<PathFrontendRtl> make_path_frontend_rtl(const PathConfig& cfg, const SimEnv& env,
                                                        const std::string& wave_name, uint64_t seed) {
  std::unique_ptr<PathFrontendRtl> p;
  if (cfg.queue_depth == 4 && cfg.depth == 16 && cfg.max_len == 32)
    p = std::make_unique<PathFrontendRtlT<Vpath_frontend_q4_d16_l32>>(env, wave_name, seed);
  else if (cfg.queue_depth == 2 && cfg.depth == 4 && cfg.max_len == 8)
    p = std::make_unique<PathFrontendRtlT<Vpath_frontend_q2_d4_l8>>(env, wave_name, seed);
  else
    throw std::invalid_argument(fmt::format("path_frontend queue {} depth {} MaxLen {} has no RTL build "
                                            "(Verilated: q4 d16 l32, q2 d4 l8)",
                                            cfg.queue_depth, cfg.depth, cfg.max_len));
  return started(std::move(p));
}

PathClassifierLockstep make_path_classifier_lockstep(const SimEnv& env, const std::string& name, uint64_t seed) {
  return {PathClassifier{}, make_path_classifier_rtl(env, name, seed), "path_classifier", seed, env};
}

PathStackLockstep make_path_stack_lockstep(const PathConfig& cfg, const SimEnv& env, const std::string& name,
                                           uint64_t seed) {
  return {PathStack(cfg.depth, cfg.max_len), make_path_stack_rtl(cfg, env, name, seed), "path_stack", seed, env};
}

PathFrontendLockstep make_path_frontend_lockstep(const PathConfig& cfg, const SimEnv& env, const std::string& name,
                                                 uint64_t seed) {
  return {PathFrontend(cfg.queue_depth, cfg.depth, cfg.max_len), make_path_frontend_rtl(cfg, env, name, seed),
          "path_frontend", seed, env};
}

std::string LockstepTraits<PathClassifier>::describe(const PathClassifier::In& in) {
  return fmt::format("ppcr={:08x} in_valid={} in_data={{{}}} out_ready={}", in.ppcr, int(in.in_valid),
                     in.in_data.str(), int(in.out_ready));
}

std::vector<Field> LockstepTraits<PathClassifier>::fields(const PathClassifier::Out& e, const PathClassifier::Out& a) {
  const bool v = e.out_valid;
  const auto& x = e.out_data;
  const auto& y = a.out_data;
  return {
      {"in_ready", e.in_ready, a.in_ready},
      {"out_valid", e.out_valid, a.out_valid},
      {"out.cls", unsigned(x.cls), unsigned(y.cls), v},
      {"out.ops", x.ops.bits(), y.ops.bits(), v},
      {"out.ext_try", x.ext_try, y.ext_try, v},
      {"out.max_ext", x.max_ext, y.max_ext, v},
      {"out.pc", x.pc, y.pc, v},
      {"out.next", x.next, y.next, v},
      {"out.taken", x.taken, y.taken, v},
      {"out.insns", x.insns, y.insns, v},
      {"out.events", x.events, y.events, v},
  };
}

std::string LockstepTraits<PathStack>::describe(const PathStack::In& in) {
  return fmt::format("in_valid={} in_data={{{}}} out_ready={}", int(in.in_valid), in.in_data.str(),
                     int(in.out_ready));
}

std::vector<Field> LockstepTraits<PathStack>::fields(const PathStack::Out& e, const PathStack::Out& a) {
  std::vector<Field> f = {
      {"in_ready", e.in_ready, a.in_ready},
      {"out_valid", e.out_valid, a.out_valid},
      {"count", e.count, a.count},
      {"stat.records", e.stats.records, a.stats.records},
      {"stat.emitted", e.stats.emitted, a.stats.emitted},
      {"stat.incomplete", e.stats.incomplete, a.stats.incomplete},
      {"stat.splits", e.stats.splits, a.stats.splits},
      {"stat.overflows", e.stats.overflows, a.stats.overflows},
      {"stat.empty_pops", e.stats.empty_pops, a.stats.empty_pops},
      {"stat.stall_cycles", e.stats.stall_cycles, a.stats.stall_cycles},
  };
  add_emission_fields(f, e.out, a.out, e.out_valid);
  return f;
}

std::string LockstepTraits<PathFrontend>::describe(const PathFrontend::In& in) {
  return fmt::format("rec_valid={} rec_data={{{}}} desc_ready={} csr_we={} csr_addr={} csr_wdata={:08x}",
                     int(in.rec_valid), in.rec_data.str(), int(in.desc_ready), int(in.csr_we), in.csr_addr,
                     in.csr_wdata);
}

std::vector<Field> LockstepTraits<PathFrontend>::fields(const PathFrontend::Out& e, const PathFrontend::Out& a) {
  std::vector<Field> f = {
      {"rec_ready", e.rec_ready, a.rec_ready},
      {"desc_valid", e.desc_valid, a.desc_valid},
      {"csr_rdata", e.csr_rdata, a.csr_rdata},
  };
  add_emission_fields(f, e.desc, a.desc, e.desc_valid);
  return f;
}

}  // namespace hwprof::tb
