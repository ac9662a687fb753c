// Lock-step tests of the board shell (rtl/board/hwprof_board_core.sv with
// the path profiler behind it) against its cycle model
// (sim_models/board/board_core.h). The host side is a test double built on
// the link codec (sim_models/board/link_codec.h): it drives the UART RX line
// bit by bit from frames, decodes the TX line into frames, and every cycle
// the TX line and every signal the shell drives toward the units are
// compared between the RTL and the model.
#include <gtest/gtest.h>

#include <verilated.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vboard_core_ext.h"
#include "Vboard_core_path.h"
#include "Vboard_core_pb.h"
#include "Vboard_core_rd.h"
#include "board_core.h"
#include "link_codec.h"
#include "path_profiler.h"
#include "rap_replay.h"
#include "record_gen.h"
#include "rtl_harness.h"
#include "scoreboard.h"
#include "sim_env.h"

namespace {

using namespace hwprof;
using model::board::BoardCore;
using model::board::PathUnits;
using model::board::ToUnits;

constexpr unsigned kCpb = 4;        // clocks per bit (ClkHz 460800 / Baud 115200)
constexpr unsigned kRxBytes = 64;   // RxBytes
constexpr unsigned kQueue = 2, kDepth = 4, kMaxLen = 8, kSets = 4, kWays = 2;
constexpr unsigned kTmoClks = 640 * kCpb;

constexpr unsigned kBbvCounters = 4, kBbvSigW = 4, kBbvEntries = 2, kBbvMarkov = 4, kBbvInterval = 300,
                   kBbvThreshold = 4;

constexpr unsigned kRapGroups = 3, kRapQueue = 16;
constexpr unsigned kDcrDepth = 4, kDcrSig = 4, kDcrMarkov = 4, kDcrInterval = 300;

/// Builds: 0 the path profiler, 1 path + BBV (Vboard_core_pb), 2 RAP + DCR
/// (Vboard_core_rd), 3 path + BBV and an extra unit (Vboard_core_ext:
/// ExtUnit = 1, kind 6, no parameters; the test's ExtDouble below).
link::BoardInfo expected_info(int variant = 0) {
  link::BoardInfo bi;
  bi.board = 3;
  bi.clk_hz = 460800;
  bi.baud = 115200;
  bi.rxbuf = kRxBytes;
  if (variant == 2) {
    bi.units.push_back({0, 2, {32, kRapGroups, kRapQueue, 8, 4, 40, 4}});
    bi.units.push_back({1, 3, {kDcrDepth, kDcrSig, kDcrMarkov, kDcrInterval}});
    return bi;
  }
  bi.units.push_back({0, 1, {kQueue, kDepth, kMaxLen, kSets, kWays, 32}});
  if (variant == 1 || variant == 3)
    bi.units.push_back({1, 4, {kBbvCounters, kBbvSigW, kBbvEntries, kBbvMarkov, kBbvInterval, kBbvThreshold}});
  if (variant == 3) bi.units.push_back({2, 6, {}});
  return bi;
}

model::RapEngineConfig rap_config() {
  model::RapEngineConfig c;
  c.range_bits = 32;
  c.groups = kRapGroups;
  c.queue_depth = kRapQueue;
  return c;
}

model::DcrParams dcr_params() {
  model::DcrParams d;
  d.depth = kDcrDepth;
  d.sig_entries = kDcrSig;
  d.markov_entries = kDcrMarkov;
  d.interval = kDcrInterval;
  return d;
}

std::unique_ptr<model::board::Units> units_model(int variant) {
  if (variant == 2) return std::make_unique<model::board::RapDcrUnits>(rap_config(), dcr_params());
  PathUnits path(kQueue, kDepth, kMaxLen, kSets, kWays);
  if (variant == 0) return std::make_unique<PathUnits>(path);
  model::DetectorParams p;
  p.mode = model::DetectorMode::Bbv;
  p.counters = kBbvCounters;
  p.sig_w = kBbvSigW;
  p.entries = kBbvEntries;
  p.markov_entries = kBbvMarkov;
  p.interval = kBbvInterval;
  p.threshold = kBbvThreshold;
  return std::make_unique<model::board::PathBbvUnits>(path, p);
}

/// A test double of the extra unit (hwprof_board_core ExtUnit; the SoC in a
/// board build): registers 0 CTRL (bit 0 start), 1 TAKEN (records taken,
/// read-only), 2 and 3 scratch; once started it offers its records in order,
/// each until taken, with a gap after each (0-3 clocks, one in four 0-799:
/// a seeded generator). One instance drives the RTL's ext_* inputs, another is the
/// model's extra unit: both see the same edges.
class ExtDouble : public model::board::ExtUnit {
 public:
  ExtDouble(std::vector<link::LinkRecord> recs, uint64_t seed) : recs_(std::move(recs)), seed_(seed) { reset(); }
  void reset() override {
    start_ = false;
    pos_ = 0;
    gap_ = 0;
    scratch_ = {0, 0};
    rng_.seed(seed_);
  }
  bool rec_valid() const override { return start_ && pos_ < recs_.size() && gap_ == 0; }
  link::LinkRecord rec() const override { return recs_.empty() ? link::LinkRecord{} : recs_[std::min(pos_, recs_.size() - 1)]; }
  uint32_t csr_rdata(uint8_t addr) const override {
    switch (addr & 3u) {
      case 0: return start_;
      case 1: return static_cast<uint32_t>(pos_);
      default: return scratch_[addr & 1u];
    }
  }
  void step(bool rec_ready, bool csr_we, uint8_t csr_addr, uint32_t csr_wdata) override {
    if (rec_valid() && rec_ready) {
      ++pos_;
      // Mostly back to back, now and then a pause as long as a few host records.
      gap_ = static_cast<unsigned>(rng_() % 4 == 0 ? rng_() % 800 : rng_() % 4);
    } else if (gap_ != 0) {
      --gap_;
    }
    if (csr_we) {
      if ((csr_addr & 3u) == 0) start_ = (csr_wdata & 1u) != 0;
      if ((csr_addr & 3u) >= 2) scratch_[csr_addr & 1u] = csr_wdata;
    }
  }
  size_t taken() const { return pos_; }

 private:
  std::vector<link::LinkRecord> recs_;
  uint64_t seed_;
  bool start_ = false;
  size_t pos_ = 0;
  unsigned gap_ = 0;
  std::array<uint32_t, 2> scratch_{};
  std::mt19937_64 rng_;
};

/// The bench: RTL and model in lock step, a host double on the line.
/// bbv: the path profiler and the BBV detector (Vboard_core_pb), else the
/// path profiler alone (Vboard_core_path).
class Bench {
 public:
  virtual ~Bench() = default;
  virtual void send_bytes(const std::vector<uint8_t>& bytes, unsigned gap_bits = 0) = 0;
  void send(uint8_t type, uint8_t seq, const std::vector<uint8_t>& payload, unsigned gap_bits = 0) {
    send_bytes(link::build_frame(type, seq, payload), gap_bits);
  }
  void idle(uint64_t n) { run(n, false); }
  bool next_frame(link::Frame& f, uint64_t max_clocks = 200000) {
    run(max_clocks, true);
    if (frames_.empty()) return false;
    f = frames_.front();
    frames_.pop_front();
    return true;
  }
  link::Frame expect_frame(uint64_t max_clocks = 200000) {
    link::Frame f;
    EXPECT_TRUE(next_frame(f, max_clocks)) << "no answer within " << max_clocks << " clocks";
    return f;
  }
  link::Frame request(uint8_t type, uint8_t seq, const std::vector<uint8_t>& payload) {
    send(type, seq, payload);
    return expect_frame();
  }
  virtual bool failed() const = 0;
  /// From now on the RTL alone (the model is no longer stepped or compared).
  virtual void stop_lockstep() = 0;

 protected:
  /// Runs max_clocks, or until a frame arrives when until_frame.
  virtual void run(uint64_t max_clocks, bool until_frame) = 0;
  std::deque<link::Frame> frames_;
};

template <typename V>
class BenchT : public Bench {
 public:
  /// ext_recs: the extra unit's records (variant 3).
  BenchT(uint64_t seed, const std::string& name, int variant, const std::vector<link::LinkRecord>& ext_recs = {})
      : seed_(seed),
        n_(expected_info(variant).units.size()),
        h_(tb::SimEnv::from_env().options(), name, seed),
        model_(BoardCore::Config{kCpb, kRxBytes, link::encode_info(expected_info(variant))}, units_model(variant),
               variant == 3 ? std::make_unique<ExtDouble>(ext_recs, seed) : nullptr) {
    if (variant == 3) ext_ = std::make_unique<ExtDouble>(ext_recs, seed);
    h_.top().uart_rx_i = 1;
    h_.reset(3);
    model_.reset();
  }

  /// Queue bytes on the host's TX (the board's RX line), gap idle bit times
  /// before them.
  void send_bytes(const std::vector<uint8_t>& bytes, unsigned gap_bits = 0) override {
    for (unsigned i = 0; i < gap_bits; ++i) line_.push_back(1);
    for (uint8_t b : bytes) {
      line_.push_back(0);
      for (int i = 0; i < 8; ++i) line_.push_back((b >> i) & 1);
      line_.push_back(1);
    }
  }
  bool failed() const override { return failed_; }
  void stop_lockstep() override { lockstep_ = false; }
  const BoardCore& model() const { return model_; }

 protected:
  void run(uint64_t max_clocks, bool until_frame) override {
    for (uint64_t i = 0; i < max_clocks && !failed_; ++i) {
      if (until_frame && !frames_.empty()) return;
      step();
    }
  }

 private:
  void step() {
    bool rx = true;
    if (!line_.empty()) {
      rx = line_.front() != 0;
      if (++bit_clk_ == kCpb) {
        bit_clk_ = 0;
        line_.pop_front();
      }
    }
    auto& t = h_.top();
    t.uart_rx_i = rx;
    h_.eval();
    if (ext_) {
      // The RTL's extra unit: held in reset while ext_rst_no is low; its
      // outputs are functions of its state and of ext_csr_addr_o (a register).
      if (!t.ext_rst_no) ext_->reset();
      t.ext_rec_valid_i = ext_->rec_valid();
      pack_rec(ext_->rec(), t.ext_rec_data_i);
      t.ext_csr_rdata_i = ext_->csr_rdata(t.ext_csr_addr_o);
      h_.eval();
    }
    const bool rtl_tx = t.uart_tx_o;
    const ToUnits rtl = rtl_to_units();
    if (std::getenv("BOARD_DEBUG") && cycle_ + 12 > std::strtoull(std::getenv("BOARD_DEBUG"), nullptr, 10) &&
        cycle_ < std::strtoull(std::getenv("BOARD_DEBUG"), nullptr, 10) + 2)
      std::fprintf(stderr, "cycle %llu model %s\n", (unsigned long long)cycle_, model_.ctrl().debug().c_str());
    const bool ext_rst_n = t.ext_rst_no, ext_ready = t.ext_rec_ready_o, ext_we = t.ext_csr_we_o;
    const uint8_t ext_addr = t.ext_csr_addr_o;
    const uint32_t ext_wdata = t.ext_csr_wdata_o;
    auto ext_edge = [&] {
      if (ext_ && ext_rst_n) ext_->step(ext_ready, ext_we, ext_addr, ext_wdata);
    };
    if (!lockstep_) {
      h_.tick();
      ext_edge();
      host_rx(rtl_tx);
      ++cycle_;
      return;
    }
    const BoardCore::Out m = model_.step(rx);
    compare(rtl_tx, rtl, m);
    h_.tick();
    ext_edge();
    host_rx(m.tx);
    ++cycle_;
  }

  /// board_rec_t into the Verilated port (the layout rtl_to_units reads).
  static void pack_rec(const link::LinkRecord& r, VlWide<5>& w) {
    for (int i = 0; i < 5; ++i) w[i] = 0;
    auto put = [&](unsigned lsb, unsigned width, uint64_t v) {
      for (unsigned i = 0; i < width; ++i)
        if ((v >> i) & 1) w[(lsb + i) / 32] |= 1u << ((lsb + i) % 32);
    };
    put(0, 16, r.weight);
    put(16, 32, r.value);
    put(48, 8, r.br.events);
    put(56, 16, r.br.insns);
    put(72, 4, r.br.ilen);
    put(76, 1, r.br.taken);
    put(77, 32, r.br.target);
    put(109, 32, r.br.pc);
    put(141, 3, r.br.kind);
    put(144, 1, r.val);
  }

  ToUnits rtl_to_units() {
    auto& t = h_.top();
    ToUnits r;
    r.unit_rst = t.probe_unit_rst_o;
    auto bitv = [&](uint32_t v) {
      std::vector<bool> out(n_);
      for (size_t u = 0; u < n_; ++u) out[u] = (v >> u) & 1;
      return out;
    };
    r.rec_valid = bitv(t.probe_rec_valid_o);
    // board_rec_t: {is_val, br(97 bits), value 32, weight 16} = 146 bits,
    // packed MSB first: weight at bits 15:0.
    const auto& w = t.probe_rec_data_o;  // VlWide<5>
    auto bits = [&](unsigned lsb, unsigned width) {
      uint64_t v = 0;
      for (unsigned i = 0; i < width; ++i) {
        const unsigned b = lsb + i;
        v |= uint64_t((w[b / 32] >> (b % 32)) & 1) << i;
      }
      return v;
    };
    r.rec.weight = static_cast<uint16_t>(bits(0, 16));
    r.rec.value = static_cast<uint32_t>(bits(16, 32));
    // branch_rec_t {kind 3, pc 32, target 32, taken 1, ilen 4, insns 16, events 8}
    r.rec.br.events = static_cast<uint8_t>(bits(48, 8));
    r.rec.br.insns = static_cast<uint16_t>(bits(56, 16));
    r.rec.br.ilen = static_cast<uint8_t>(bits(72, 4));
    r.rec.br.taken = bits(76, 1) != 0;
    r.rec.br.target = static_cast<uint32_t>(bits(77, 32));
    r.rec.br.pc = static_cast<uint32_t>(bits(109, 32));
    r.rec.br.kind = static_cast<uint8_t>(bits(141, 3));
    r.rec.val = bits(144, 1) != 0;
    r.csr_we = bitv(t.probe_csr_we_o);
    r.csr_addr = t.probe_csr_addr_o;
    r.csr_wdata = t.probe_csr_wdata_o;
    r.dump_start = bitv(t.probe_dump_start_o);
    r.dump_ready = bitv(t.probe_dump_ready_o);
    r.res_ready = bitv(t.probe_res_ready_o);
    return r;
  }

  void compare(bool rtl_tx, const ToUnits& r, const BoardCore::Out& m) {
    std::string err;
    std::vector<tb::Field> fields;  // the waveform's comparison (docs/debugging.md), when traced
    auto chk = [&](const char* what, uint64_t a, uint64_t b) {
      if (wave_.compare) fields.push_back({what, b, a});
      if (a != b && err.empty()) err = std::string(what) + ": rtl " + std::to_string(a) + " model " + std::to_string(b);
    };
    const ToUnits& e = m.to;
    chk("uart_tx_o", rtl_tx, m.tx);
    chk("unit_rst", r.unit_rst, e.unit_rst);
    bool any_valid = false;
    for (size_t u = 0; u < n_; ++u) {
      chk("rec_valid", r.rec_valid[u], e.rec_valid[u]);
      chk("csr_we", r.csr_we[u], e.csr_we[u]);
      chk("dump_start", r.dump_start[u], e.dump_start[u]);
      chk("dump_ready", r.dump_ready[u], e.dump_ready[u]);
      chk("res_ready", r.res_ready[u], e.res_ready[u]);
      any_valid = any_valid || e.rec_valid[u];
    }
    if (any_valid) {
      chk("rec.val", r.rec.val, e.rec.val);
      if (e.rec.val) {
        chk("rec.value", r.rec.value, e.rec.value);
        chk("rec.weight", r.rec.weight, e.rec.weight);
      } else {
        chk("rec.kind", r.rec.br.kind, e.rec.br.kind);
        chk("rec.pc", r.rec.br.pc, e.rec.br.pc);
        chk("rec.target", r.rec.br.target, e.rec.br.target);
        chk("rec.taken", r.rec.br.taken, e.rec.br.taken);
        chk("rec.ilen", r.rec.br.ilen, e.rec.br.ilen);
        chk("rec.insns", r.rec.br.insns, e.rec.br.insns);
        chk("rec.events", r.rec.br.events, e.rec.br.events);
      }
    }
    chk("csr_addr", r.csr_addr, e.csr_addr);
    chk("csr_wdata", r.csr_wdata, e.csr_wdata);
    if (wave_.compare) wave_.compare->record(h_.cycle(), fields);
    if (!err.empty() && !failed_) {
      failed_ = true;
      h_.flush();
      std::string note;
      if (wave_.compare) wave_.compare->set_marker(h_.cycle());
      tb::fail_wave_mismatch(wave_, h_.cycle(), "board_core", note);
      ADD_FAILURE() << "lock-step mismatch at cycle " << cycle_ << " (seed " << seed_ << "): " << err
                    << "\n  replay: SEED=" << seed_ << " TRACE=1 ctest -R <test>\n  waveform: harness cycle "
                    << h_.cycle() << " (the reset cycles included)\n" << note;
    }
  }

  /// The host's UART receiver on the board's TX line (mid-bit sampling).
  void host_rx(bool tx) {
    switch (hs_) {
      case 0:
        if (!tx) {
          hs_ = 1;
          hc_ = kCpb / 2;
        }
        break;
      case 1:
        if (--hc_ == 0) {
          hs_ = tx ? 0 : 2;
          hc_ = kCpb;
          hb_ = 0;
          hbyte_ = 0;
        }
        break;
      case 2:
        if (--hc_ == 0) {
          hbyte_ = static_cast<uint8_t>(hbyte_ | (tx << hb_));
          hc_ = kCpb;
          if (++hb_ == 8) hs_ = 3;
        }
        break;
      default:
        if (--hc_ == 0) {
          hs_ = 0;
          if (tx && parser_.push(hbyte_) == link::FrameParser::Event::Frame) frames_.push_back(parser_.frame());
        }
        break;
    }
  }

  uint64_t seed_;
  size_t n_;
  std::unique_ptr<ExtDouble> ext_;  // the RTL's extra unit (variant 3)
  sim::Harness<V> h_;
  tb::WaveBinding wave_ = tb::fail_wave_bind("board_core");  // after h_: binds to it
  BoardCore model_;
  std::deque<uint8_t> line_;
  unsigned bit_clk_ = 0;
  uint64_t cycle_ = 0;
  bool failed_ = false;
  bool lockstep_ = true;
  link::FrameParser parser_;
  int hs_ = 0;
  unsigned hc_ = 0, hb_ = 0;
  uint8_t hbyte_ = 0;
};

std::vector<uint8_t> u16le(uint16_t v) { return {uint8_t(v), uint8_t(v >> 8)}; }
uint16_t rd16(const link::Frame& f, size_t k) { return uint16_t(f.payload.at(k) | (f.payload.at(k + 1) << 8)); }
uint32_t rd32(const link::Frame& f, size_t k) {
  return uint32_t(f.payload.at(k)) | uint32_t(f.payload.at(k + 1)) << 8 | uint32_t(f.payload.at(k + 2)) << 16 |
         uint32_t(f.payload.at(k + 3)) << 24;
}

constexpr uint16_t kSession = 0xBEEF;

/// OPEN with seq; checks the ACK.
void open(Bench& b, uint8_t seq, uint16_t session = kSession) {
  const link::Frame f = b.request(0x02, seq, u16le(session));
  ASSERT_EQ(f.type, 0x82);
  ASSERT_EQ(f.seq, seq);
  ASSERT_EQ(rd16(f, 0), session);
  ASSERT_EQ(rd16(f, 2), kRxBytes);
}

struct DumpResult {
  std::vector<model::Hpt::DumpEntry> entries;
  uint32_t count = 0, crc = 0, crc_calc = 0;
};

DumpResult dump(Bench& b, uint8_t seq) {
  DumpResult r;
  b.send(0x07, seq, {0});
  std::vector<uint8_t> all;
  for (;;) {
    link::Frame f = b.expect_frame(400000);
    if (f.type == 0x88) {
      r.count = rd32(f, 2);
      r.crc = rd32(f, 6);
      break;
    }
    if (f.type != 0x87) {
      ADD_FAILURE() << "unexpected answer type " << int(f.type) << " during a dump";
      break;
    }
    EXPECT_EQ(rd16(f, 2), r.entries.size());
    EXPECT_EQ(f.payload.size(), 4u + 16u);
    model::Hpt::DumpEntry e;
    e.set = rd16(f, 4);
    e.way = f.payload.at(6);
    e.key.start = rd32(f, 7);
    e.key.length = f.payload.at(11);
    e.key.dirs = rd32(f, 12);
    e.acc = rd32(f, 16);
    r.entries.push_back(e);
    all.insert(all.end(), f.payload.begin() + 4, f.payload.end());
  }
  r.crc_calc = link::crc32(all.data(), all.size());
  return r;
}

/// The path profiler model fed the records directly, then dumped.
std::vector<model::Hpt::DumpEntry> direct_dump(const std::vector<model::BranchRecord>& recs) {
  model::PathProfiler pp(kQueue, kDepth, kMaxLen, kSets, kWays);
  pp.reset();
  size_t k = 0;
  for (int guard = 0; k < recs.size() && guard < 10000000; ++guard) {
    model::PathProfiler::In in;
    in.rec_valid = true;
    in.rec_data = recs[k];
    if (pp.step(in).rec_ready) ++k;
  }
  for (int i = 0; i < 50; ++i) pp.step({});
  model::PathProfiler::In cmd;
  cmd.csr_we = true;
  cmd.csr_addr = model::kHptCsrBase + 2;
  cmd.csr_wdata = 2;
  pp.step(cmd);
  std::vector<model::Hpt::DumpEntry> out;
  for (int i = 0; i < 100000; ++i) {
    model::PathProfiler::In in;
    in.dump_ready = true;
    const auto o = pp.step(in);
    if (o.dump_valid) out.push_back(o.dump);
    if (!o.dump_busy && i > 4) break;
  }
  return out;
}

/// Streams records in RECORDS frames with credit and go-back-N on NAK.
/// Returns the number of frames sent. max_payload: bytes per frame at most.
void stream(Bench& b, uint8_t& seq, const std::vector<model::BranchRecord>& recs, size_t max_payload,
            std::mt19937_64* noise = nullptr) {
  link::RecordEncoder enc;
  std::vector<std::vector<uint8_t>> payloads;
  std::vector<uint8_t> cur;
  for (const auto& r : recs) {
    link::LinkRecord lr;
    lr.br = r;
    std::vector<uint8_t> one;
    enc.encode(lr, one);
    if (cur.size() + one.size() > max_payload) {
      payloads.push_back(cur);
      cur.clear();
    }
    cur.insert(cur.end(), one.begin(), one.end());
  }
  if (!cur.empty()) payloads.push_back(cur);
  size_t credit = kRxBytes;
  const std::vector<uint8_t>* last = nullptr;
  for (const auto& p : payloads) {
    // Not enough credit and nothing unanswered: poll it by repeating the
    // last frame (a duplicate is answered with an ACK and the current free).
    while (p.size() > credit && last) {
      b.idle(200);
      link::Frame f = b.request(0x05, static_cast<uint8_t>(seq - 1), *last);
      if (b.failed() || f.type != 0x82) {
        ADD_FAILURE() << "expected an ACK, got type " << int(f.type);
        return;
      }
      credit = rd16(f, 2);
    }
    last = &p;
    if (noise) {
      std::vector<uint8_t> junk;
      for (unsigned i = (*noise)() % 4; i > 0; --i) {
        uint8_t x = static_cast<uint8_t>((*noise)());
        junk.push_back(x == link::kSof ? 0x55 : x);
      }
      b.send_bytes(junk, (*noise)() % 8);
    }
    b.send(0x05, seq++, p, 0);
    credit -= p.size();
    // wait until the frame is on the line and its ACK back
    link::Frame f = b.expect_frame();
    if (b.failed() || f.type != 0x82) {
      ADD_FAILURE() << "expected an ACK, got type " << int(f.type);
      return;
    }
    EXPECT_EQ(f.seq, static_cast<uint8_t>(seq - 1));
    credit = rd16(f, 2);
  }
}

std::vector<model::BranchRecord> gen(uint64_t seed, size_t n) {
  tb::RecordGen g(seed);
  std::vector<model::BranchRecord> v;
  for (size_t i = 0; i < n; ++i) v.push_back(g.next());
  return v;
}

TEST(BoardShell, InfoBeforeOpenAndNoSession) {
  BenchT<Vboard_core_path> b(tb::SimEnv::from_env().seed, "board_info", 0);
  link::Frame f = b.request(0x01, 7, {});
  ASSERT_EQ(f.type, 0x81);
  EXPECT_EQ(f.seq, 7);
  EXPECT_EQ(rd16(f, 0), 0);
  link::BoardInfo bi;
  std::string err;
  ASSERT_TRUE(link::decode_info(f.payload.data() + 2, f.payload.size() - 2, bi, err)) << err;
  EXPECT_TRUE(bi == expected_info());
  // Anything but INFO and OPEN without a session: ERROR NoSession.
  f = b.request(0x04, 1, {0, 0});
  ASSERT_EQ(f.type, 0xFF);
  EXPECT_EQ(f.payload.at(2), 1);
  f = b.request(0x05, 0, {0x00, 0, 0, 0, 0});
  ASSERT_EQ(f.type, 0xFF);
  EXPECT_EQ(f.payload.at(2), 1);
  EXPECT_FALSE(b.failed());
}

TEST(BoardShell, OpenRegWriteReadAndNaks) {
  BenchT<Vboard_core_path> b(tb::SimEnv::from_env().seed, "board_regs", 0);
  open(b, 40);
  uint8_t seq = 41;
  // HPT CTRL (word 16): write, read back.
  link::Frame f = b.request(0x03, seq, {0, 16, 0x05, 0, 0, 0});
  ASSERT_EQ(f.type, 0x82);
  EXPECT_EQ(f.seq, seq);
  ++seq;
  f = b.request(0x04, seq, {0, 16});
  ASSERT_EQ(f.type, 0x84);
  const uint32_t ctrl = rd32(f, 2);
  ++seq;
  // A repeated REG_READ reads again (no side effect), a repeated REG_WRITE is ACKed, not executed.
  f = b.request(0x04, static_cast<uint8_t>(seq - 1), {0, 16});
  ASSERT_EQ(f.type, 0x84);
  EXPECT_EQ(rd32(f, 2), ctrl);
  // NAKs: out of order, bad type, bad length, bad unit; no room.
  f = b.request(0x04, static_cast<uint8_t>(seq + 5), {0, 16});
  ASSERT_EQ(f.type, 0xFE);
  EXPECT_EQ(f.payload.at(2), seq);
  EXPECT_EQ(f.payload.at(3), 1);
  f = b.request(0x33, seq, {});
  ASSERT_EQ(f.type, 0xFE);
  EXPECT_EQ(f.payload.at(3), 3);
  f = b.request(0x04, seq, {0, 16, 1});
  ASSERT_EQ(f.type, 0xFE);
  EXPECT_EQ(f.payload.at(3), 4);
  f = b.request(0x04, seq, {3, 16});
  ASSERT_EQ(f.type, 0xFE);
  EXPECT_EQ(f.payload.at(3), 5);
  f = b.request(0x07, seq, {1});
  ASSERT_EQ(f.type, 0xFE);
  EXPECT_EQ(f.payload.at(3), 5);
  std::vector<uint8_t> big(200, 0);
  f = b.request(0x05, seq, big);
  ASSERT_EQ(f.type, 0xFE);
  EXPECT_EQ(f.payload.at(3), 2);
  // RESULTS on a unit without results: no entry.
  f = b.request(0x08, seq, {0, 4});
  ASSERT_EQ(f.type, 0x89);
  EXPECT_EQ(f.payload.at(2), 0);
  ++seq;
  // LINK_STATUS: 6 NAKs, 1 duplicate, expect.
  f = b.request(0x09, seq, {});
  ASSERT_EQ(f.type, 0x8A);
  EXPECT_EQ(rd16(f, 2), 0);
  EXPECT_EQ(rd16(f, 4), 0);
  EXPECT_EQ(rd16(f, 6), 6);
  EXPECT_EQ(rd16(f, 8), 1);
  EXPECT_EQ(f.payload.at(10), static_cast<uint8_t>(seq + 1));
  ++seq;
  // An empty RECORDS frame (the host's credit poll after RESULTS): executed
  // (expect advances), answered with an ACK carrying the free bytes and the
  // status; repeated, the same ACK.
  f = b.request(0x05, seq, {});
  ASSERT_EQ(f.type, 0x82);
  EXPECT_EQ(f.seq, seq);
  EXPECT_EQ(rd16(f, 2), 64);
  EXPECT_EQ(f.payload.at(4), 0);
  f = b.request(0x05, seq, {});
  ASSERT_EQ(f.type, 0x82);
  EXPECT_EQ(rd16(f, 2), 64);
  ++seq;
  f = b.request(0x09, seq, {});
  ASSERT_EQ(f.type, 0x8A);
  EXPECT_EQ(f.payload.at(10), static_cast<uint8_t>(seq + 1));
  EXPECT_FALSE(b.failed());
}

TEST(BoardShell, RecordsThroughTheShellGiveTheDirectDump) {
  const uint64_t seed = tb::SimEnv::from_env().seed;
  BenchT<Vboard_core_path> b(seed, "board_records", 0);
  open(b, 0);
  uint8_t seq = 1;
  const auto recs = gen(seed, 400);
  stream(b, seq, recs, 40);
  link::Frame f = b.request(0x06, seq++, {});
  ASSERT_EQ(f.type, 0x86);
  EXPECT_EQ(rd32(f, 2), recs.size());
  const DumpResult d = dump(b, seq++);
  EXPECT_EQ(d.count, d.entries.size());
  EXPECT_EQ(d.crc, d.crc_calc);
  const auto direct = direct_dump(recs);
  ASSERT_FALSE(direct.empty());
  ASSERT_EQ(d.entries.size(), direct.size());
  for (size_t i = 0; i < direct.size(); ++i) EXPECT_TRUE(d.entries[i] == direct[i]) << "entry " << i;
  // A repeated DUMP runs the walk again: the same entries and CRC.
  const DumpResult d2 = dump(b, static_cast<uint8_t>(seq - 1));
  EXPECT_EQ(d2.crc, d.crc);
  EXPECT_EQ(d2.entries.size(), d.entries.size());
  EXPECT_FALSE(b.failed());
}

TEST(BoardShell, WrongCrcDuplicateNoiseAndTimeoutNeverApplyRecordsTwice) {
  const uint64_t seed = tb::SimEnv::from_env().seed;
  BenchT<Vboard_core_path> b(seed, "board_faults", 0);
  open(b, 200);
  uint8_t seq = 201;
  std::mt19937_64 rng(seed);
  const auto recs = gen(seed + 1, 300);
  // First half with noise bytes between frames.
  const std::vector<model::BranchRecord> first(recs.begin(), recs.begin() + 150);
  stream(b, seq, first, 30, &rng);
  // A RECORDS frame with a flipped bit: dropped, never answered.
  link::RecordEncoder enc;
  {
    // The encoder must continue from the stream's prev_next: encode the
    // second half with a fresh encoder primed by the first half.
    for (const auto& r : first) {
      link::LinkRecord lr;
      lr.br = r;
      std::vector<uint8_t> tmp;
      enc.encode(lr, tmp);
    }
  }
  std::vector<uint8_t> p;
  link::LinkRecord lr;
  lr.br = recs[150];
  enc.encode(lr, p);
  std::vector<uint8_t> bad = link::build_frame(0x05, seq, p);
  bad[5] ^= 0x10;
  b.send_bytes(bad);
  link::Frame f;
  EXPECT_FALSE(b.next_frame(f, 3000));
  // The good frame; then the same frame again (its ACK "lost"): ACK, not applied.
  f = b.request(0x05, seq, p);
  ASSERT_EQ(f.type, 0x82);
  f = b.request(0x05, seq, p);
  ASSERT_EQ(f.type, 0x82);
  ++seq;
  // A partial frame, then silence: dropped by the inter-byte timeout.
  std::vector<uint8_t> part = link::build_frame(0x05, seq, p);
  part.resize(part.size() - 2);
  b.send_bytes(part);
  EXPECT_FALSE(b.next_frame(f, kTmoClks + 12 * 10 * kCpb * 4));
  // Noise with a stray SOF: its garbage frame times out or fails its CRC.
  b.send_bytes({0x7E, 0x05, 0x10});
  EXPECT_FALSE(b.next_frame(f, kTmoClks + 200));
  // The rest of the stream, primed encoder state continues from record 150.
  const std::vector<model::BranchRecord> rest(recs.begin() + 151, recs.end());
  {
    link::RecordEncoder e2;
    for (size_t i = 0; i <= 150; ++i) {
      link::LinkRecord x;
      x.br = recs[i];
      std::vector<uint8_t> tmp;
      e2.encode(x, tmp);
    }
    size_t i = 0;
    while (i < rest.size()) {
      std::vector<uint8_t> pay;
      while (i < rest.size() && pay.size() < 20) {
        link::LinkRecord x;
        x.br = rest[i++];
        e2.encode(x, pay);
      }
      f = b.request(0x05, seq++, pay);
      ASSERT_EQ(f.type, 0x82) << "seq " << int(seq - 1);
    }
  }
  f = b.request(0x06, seq++, {});
  ASSERT_EQ(f.type, 0x86);
  EXPECT_EQ(rd32(f, 2), recs.size());
  f = b.request(0x09, seq++, {});
  ASSERT_EQ(f.type, 0x8A);
  EXPECT_GE(rd16(f, 2), 1);  // the flipped bit (and maybe the stray SOF)
  EXPECT_GE(rd16(f, 4), 1);  // the partial frame
  EXPECT_EQ(rd16(f, 8), 1);  // the duplicate
  const DumpResult d = dump(b, seq++);
  const auto direct = direct_dump(recs);
  ASSERT_EQ(d.entries.size(), direct.size());
  for (size_t i = 0; i < direct.size(); ++i) EXPECT_TRUE(d.entries[i] == direct[i]) << "entry " << i;
  EXPECT_FALSE(b.failed());
}

TEST(BoardShell, RecordErrorStopsRecordsUntilOpen) {
  BenchT<Vboard_core_path> b(tb::SimEnv::from_env().seed, "board_recerr", 0);
  open(b, 0);
  // tag kind 7
  link::Frame f = b.request(0x05, 1, {0x07, 0, 0, 0, 0});
  ASSERT_EQ(f.type, 0x82);
  b.idle(200);
  f = b.request(0x05, 2, {0x00, 0, 0, 0, 0});
  ASSERT_EQ(f.type, 0xFF);
  EXPECT_EQ(f.payload.at(2), 2);
  f = b.request(0x06, 2, {});
  ASSERT_EQ(f.type, 0xFF);
  EXPECT_EQ(f.payload.at(2), 2);
  open(b, 9, 0x1234);
  f = b.request(0x05, 10, {0x00, 0, 0, 0, 0});
  ASSERT_EQ(f.type, 0x82);
  f = b.request(0x06, 11, {});
  ASSERT_EQ(f.type, 0x86);
  EXPECT_EQ(rd32(f, 2), 1u);
  EXPECT_FALSE(b.failed());
}

TEST(BoardShell, BackToBackRecordsFramesWithCredit) {
  const uint64_t seed = tb::SimEnv::from_env().seed;
  BenchT<Vboard_core_path> b(seed, "board_b2b", 0);
  open(b, 0);
  // Frames back to back (up to 8 unanswered) while credit allows.
  const auto recs = gen(seed + 7, 400);
  link::RecordEncoder enc;
  std::vector<std::vector<uint8_t>> pays;
  std::vector<uint8_t> cur;
  for (const auto& r : recs) {
    link::LinkRecord x;
    x.br = r;
    std::vector<uint8_t> one;
    enc.encode(x, one);
    if (cur.size() + one.size() > 12) {
      pays.push_back(cur);
      cur.clear();
    }
    cur.insert(cur.end(), one.begin(), one.end());
  }
  pays.push_back(cur);
  uint8_t seq = 1;
  size_t next = 0, acked = 0;
  std::map<uint8_t, size_t> sent_bytes;  // seq -> payload bytes sent after... (bytes of that frame)
  std::deque<std::pair<uint8_t, size_t>> unanswered;
  long credit = kRxBytes;
  while (acked < pays.size() && !b.failed()) {
    while (next < pays.size() && unanswered.size() < 8 && long(pays[next].size()) <= credit) {
      b.send(0x05, seq, pays[next]);
      unanswered.push_back({seq, pays[next].size()});
      credit -= long(pays[next].size());
      ++seq;
      ++next;
    }
    link::Frame f = b.expect_frame();
    ASSERT_EQ(f.type, 0x82);
    ASSERT_FALSE(unanswered.empty());
    ASSERT_EQ(f.seq, unanswered.front().first);
    unanswered.pop_front();
    ++acked;
    long after = 0;
    for (const auto& u : unanswered) after += long(u.second);
    credit = long(rd16(f, 2)) - after;
  }
  link::Frame f = b.request(0x06, seq++, {});
  ASSERT_EQ(f.type, 0x86);
  EXPECT_EQ(rd32(f, 2), recs.size());
  const DumpResult d = dump(b, seq++);
  const auto direct = direct_dump(recs);
  ASSERT_EQ(d.entries.size(), direct.size());
  for (size_t i = 0; i < direct.size(); ++i) EXPECT_TRUE(d.entries[i] == direct[i]) << "entry " << i;
  EXPECT_FALSE(b.failed());
}

}  // namespace

namespace {

/// RESULTS of unit 1 until count 0; appends the entries.
void poll_results(Bench& b, uint8_t& seq, std::vector<model::DetectorResult>& out) {
  for (;;) {
    const link::Frame f = b.request(0x08, seq++, {1, 8});
    if (b.failed() || f.type != 0x89) {
      ADD_FAILURE() << "expected RESULT_DATA, got type " << int(f.type);
      return;
    }
    const uint8_t count = f.payload.at(2);
    EXPECT_EQ(f.payload.at(3), count);
    if (count == 0) return;
    EXPECT_EQ(f.payload.size(), 4u + 7u);
    model::DetectorResult r;
    r.phase = rd16(f, 4);
    r.predicted = rd16(f, 6);
    r.distance = rd16(f, 8);
    const uint8_t fl = f.payload.at(10);
    r.changed = fl & 1;
    r.matched = (fl >> 1) & 1;
    r.scored = (fl >> 2) & 1;
    r.correct = (fl >> 3) & 1;
    out.push_back(r);
  }
}

std::vector<model::DetectorResult> direct_results(const std::vector<model::BranchRecord>& recs) {
  model::DetectorParams p;
  p.mode = model::DetectorMode::Bbv;
  p.counters = kBbvCounters;
  p.sig_w = kBbvSigW;
  p.entries = kBbvEntries;
  p.markov_entries = kBbvMarkov;
  p.interval = kBbvInterval;
  p.threshold = kBbvThreshold;
  model::PhaseDetector det(p);
  std::vector<model::DetectorResult> out;
  size_t k = 0;
  for (int guard = 0; guard < 10000000 && (k < recs.size() || guard < int(recs.size()) * 4 + 20000); ++guard) {
    model::PhaseDetector::In in;
    in.rec_valid = k < recs.size();
    if (in.rec_valid) in.rec_data = recs[k];
    in.res_ready = true;
    const auto o = det.step(in);
    if (o.res_valid) out.push_back(o.res);
    if (in.rec_valid && o.rec_ready) ++k;
  }
  return out;
}

TEST(BoardShell, BbvResultsThroughTheShellEqualTheDetectorFedDirectly) {
  const uint64_t seed = tb::SimEnv::from_env().seed;
  BenchT<Vboard_core_pb> b(seed, "board_bbv", 1);
  link::Frame f = b.request(0x01, 0, {});
  ASSERT_EQ(f.type, 0x81);
  link::BoardInfo bi;
  std::string err;
  ASSERT_TRUE(link::decode_info(f.payload.data() + 2, f.payload.size() - 2, bi, err)) << err;
  EXPECT_TRUE(bi == expected_info(true));
  open(b, 0);
  uint8_t seq = 1;
  const auto recs = gen(seed + 3, 120);
  link::RecordEncoder enc;
  std::vector<model::DetectorResult> got;
  std::vector<uint8_t> last;
  size_t i = 0;
  uint16_t credit = kRxBytes;
  uint8_t status = 0;
  // Credit poll: the last RECORDS frame again (a duplicate: ACK, not applied).
  auto poll_credit = [&] {
    const link::Frame a = b.request(0x05, static_cast<uint8_t>(seq - 1), last);
    EXPECT_EQ(a.type, 0x82);
    if (a.type == 0x82) {
      credit = rd16(a, 2);
      status = a.payload.at(4);
    }
  };
  while (i < recs.size() && !b.failed()) {
    std::vector<uint8_t> pay;
    size_t j = i;
    link::RecordEncoder trial = enc;
    while (j < recs.size() && pay.size() < 16) {
      link::LinkRecord x;
      x.br = recs[j++];
      trial.encode(x, pay);
    }
    // The detector stalls while its result waits: take results, ask credit.
    while (pay.size() > credit && !b.failed()) {
      poll_results(b, seq, got);
      b.idle(300);
      poll_credit();
    }
    f = b.request(0x05, seq, pay);
    ASSERT_EQ(f.type, 0x82) << "seq " << int(seq);
    ++seq;
    last = pay;
    enc = trial;
    i = j;
    credit = rd16(f, 2);
    poll_results(b, seq, got);
  }
  // Until every record has entered the units (ACK status bit 1 clear).
  for (int k = 0; k < 200 && !b.failed(); ++k) {
    poll_results(b, seq, got);
    b.idle(300);
    poll_credit();
    if (!(status & 2)) break;
  }
  EXPECT_FALSE(status & 2);
  f = b.request(0x06, seq++, {});
  ASSERT_EQ(f.type, 0x86);
  EXPECT_EQ(rd32(f, 2), recs.size());
  for (int k = 0; k < 4; ++k) {
    b.idle(2000);
    poll_results(b, seq, got);
  }
  const auto direct = direct_results(recs);
  ASSERT_GE(direct.size(), 3u);
  for (size_t k = 0; k < std::min(got.size(), direct.size()); ++k)
    EXPECT_TRUE(got[k] == direct[k]) << "result " << k << ": board " << got[k].str() << " direct " << direct[k].str();
  ASSERT_EQ(got.size(), direct.size());
  EXPECT_FALSE(b.failed());
}

TEST(BoardShell, OpenAbortsAFlushBlockedByAnUntakenResult) {
  const uint64_t seed = tb::SimEnv::from_env().seed;
  BenchT<Vboard_core_pb> b(seed, "board_abort", 1);
  open(b, 0);
  uint8_t seq = 1;
  const auto recs = gen(seed + 5, 300);
  link::RecordEncoder enc;
  // Stream without taking results: the detector stalls, the buffer fills.
  size_t i = 0;
  bool full = false;
  while (i < recs.size() && !full && !b.failed()) {
    std::vector<uint8_t> pay;
    while (i < recs.size() && pay.size() < 16) {
      link::LinkRecord x;
      x.br = recs[i++];
      enc.encode(x, pay);
    }
    link::Frame f = b.request(0x05, seq, pay);
    if (f.type == 0xFE) {
      EXPECT_EQ(f.payload.at(3), 2);  // NoRoom
      full = true;
      break;
    }
    ASSERT_EQ(f.type, 0x82);
    ++seq;
    if (rd16(f, 2) < 16) full = true;
  }
  ASSERT_TRUE(full);
  // FLUSH cannot complete: no answer; a second FLUSH is dropped too.
  b.send(0x06, seq, {});
  link::Frame f;
  EXPECT_FALSE(b.next_frame(f, 20000));
  // OPEN aborts it and resets the units.
  open(b, 50, 0x4242);
  f = b.request(0x06, 51, {});
  ASSERT_EQ(f.type, 0x86);
  EXPECT_EQ(rd32(f, 2), 0u);
  EXPECT_FALSE(b.failed());
}

}  // namespace

namespace {

/// RESULTS of the DCR tracker (unit 1, 10-byte entries) until count 0.
void poll_dcr_results(Bench& b, uint8_t& seq, std::vector<model::DcrResult>& out) {
  for (;;) {
    const link::Frame f = b.request(0x08, seq++, {1, 8});
    if (b.failed() || f.type != 0x89) {
      ADD_FAILURE() << "expected RESULT_DATA, got type " << int(f.type);
      return;
    }
    const uint8_t count = f.payload.at(2);
    if (count == 0) return;
    EXPECT_EQ(f.payload.size(), 4u + 10u);
    model::DcrResult r;
    r.phase = rd16(f, 4);
    r.predicted = rd16(f, 6);
    r.sig_depth = f.payload.at(8);
    r.flags = f.payload.at(9);
    r.sig_hash = rd32(f, 10);
    out.push_back(r);
  }
}

/// Branch records with a val record in about every fifth place.
std::vector<link::LinkRecord> gen_mixed(uint64_t seed, size_t n) {
  tb::RecordGen g(seed);
  std::mt19937_64 rng(seed ^ 0x5a5a);
  std::vector<link::LinkRecord> v;
  for (size_t i = 0; i < n; ++i) {
    link::LinkRecord r;
    if (rng() % 5 == 0) {
      r.val = true;
      r.value = static_cast<uint32_t>(rng());
      r.weight = static_cast<uint16_t>(1 + rng() % 100);
    } else {
      r.br = g.next();
    }
    v.push_back(r);
  }
  return v;
}

}  // namespace

// The RAP engine and the DCR tracker behind the shell (Vboard_core_rd), in
// lock step with the shell's model and RapDcrUnits: the records (branch and
// val) stream with credit, the DCR results are taken while they stream
// (RESULTS when the credit runs out, an empty RECORDS frame as the credit
// poll); the DCR results through the link equal the tracker model fed the
// branch records directly; the RAP engine is drained, flushed and idle and
// its N equals the engine model fed the same events directly; then (the RTL
// alone) the RAP dump through the link equals that model's tree.
TEST(BoardShell, RapAndDcrThroughTheShellEqualTheUnitsFedDirectly) {
  const uint64_t seed = tb::SimEnv::from_env().seed;
  BenchT<Vboard_core_rd> b(seed, "board_rap_dcr", 2);
  link::Frame f = b.request(0x01, 0, {});
  ASSERT_EQ(f.type, 0x81);
  link::BoardInfo bi;
  std::string err;
  ASSERT_TRUE(link::decode_info(f.payload.data() + 2, f.payload.size() - 2, bi, err)) << err;
  EXPECT_TRUE(bi == expected_info(2));
  open(b, 0);
  uint8_t seq = 1;
  const auto recs = gen_mixed(seed + 7, 200);
  link::RecordEncoder enc;
  std::vector<model::DcrResult> got;
  size_t i = 0;
  uint16_t credit = kRxBytes;
  uint8_t status = 0;
  // Credit poll after RESULTS: an empty RECORDS frame (a new frame).
  auto poll_credit = [&] {
    const link::Frame a = b.request(0x05, seq++, {});
    EXPECT_EQ(a.type, 0x82);
    if (a.type == 0x82) {
      credit = rd16(a, 2);
      status = a.payload.at(4);
    }
  };
  while (i < recs.size() && !b.failed()) {
    std::vector<uint8_t> pay;
    size_t j = i;
    link::RecordEncoder trial = enc;
    while (j < recs.size() && pay.size() < 16) trial.encode(recs[j++], pay);
    // The tracker stalls while its result waits: take results, ask credit.
    while (pay.size() > credit && !b.failed()) {
      poll_dcr_results(b, seq, got);
      b.idle(300);
      poll_credit();
    }
    f = b.request(0x05, seq, pay);
    ASSERT_EQ(f.type, 0x82) << "seq " << int(seq);
    ++seq;
    enc = trial;
    i = j;
    credit = rd16(f, 2);
  }
  for (int k = 0; k < 200 && !b.failed(); ++k) {
    poll_dcr_results(b, seq, got);
    b.idle(300);
    poll_credit();
    if (!(status & 2)) break;
  }
  EXPECT_FALSE(status & 2);
  f = b.request(0x06, seq++, {});
  ASSERT_EQ(f.type, 0x86);
  EXPECT_EQ(rd32(f, 2), recs.size());
  // The DCR tracker: the last interval's result, STATUS.busy clear.
  for (int k = 0; k < 50 && !b.failed(); ++k) {
    b.idle(500);
    poll_dcr_results(b, seq, got);
    f = b.request(0x04, seq++, {1, unsigned(model::DcrCsr::Status)});
    ASSERT_EQ(f.type, 0x84);
    if (!(rd32(f, 2) & 2u)) break;
  }
  f = b.request(0x04, seq++, {1, unsigned(model::DcrCsr::Intervals)});
  ASSERT_EQ(f.type, 0x84);
  EXPECT_EQ(rd32(f, 2), got.size());

  // The DCR tracker fed the branch records directly.
  std::vector<model::DcrResult> direct;
  {
    model::DcrTracker dcr(dcr_params());
    size_t k = 0;
    std::vector<model::BranchRecord> br;
    for (const auto& r : recs)
      if (!r.val) br.push_back(r.br);
    for (int guard = 0; guard < 1000000 && (k < br.size() || guard < int(br.size()) * 4 + 20000); ++guard) {
      model::DcrTracker::In in;
      in.rec_valid = k < br.size();
      if (in.rec_valid) in.rec = br[k];
      in.res_ready = true;
      const auto o = dcr.step(in);
      if (o.res_valid) direct.push_back(o.res);
      if (in.rec_valid && o.rec_ready) ++k;
    }
  }
  ASSERT_GE(direct.size(), 3u);
  ASSERT_EQ(got.size(), direct.size());
  for (size_t k = 0; k < direct.size(); ++k) EXPECT_TRUE(got[k] == direct[k]) << "DCR result " << k;

  // The RAP engine: every event out of its queue (RAW), flushed, idle (in
  // lock step: the register values are compared on the line).
  std::vector<model::RapEvent> evs;
  {
    bool prev = false;
    uint32_t prev_next = 0;
    for (const auto& r : recs) {
      if (r.val) {
        evs.push_back({r.value, r.weight});
      } else {
        if (prev) evs.push_back({prev_next, r.br.insns});
        prev = true;
        prev_next = r.br.next();
      }
    }
  }
  for (int k = 0; k < 100; ++k) {
    f = b.request(0x04, seq++, {0, unsigned(model::RapCsr::Raw)});
    ASSERT_EQ(f.type, 0x84);
    if (rd32(f, 2) == evs.size()) break;
    b.idle(500);
  }
  EXPECT_EQ(rd32(f, 2), evs.size());
  f = b.request(0x03, seq++, {0, unsigned(model::RapCsr::Cmd), uint8_t(model::kRapCmdFlush), 0, 0, 0});
  ASSERT_EQ(f.type, 0x82);
  for (int k = 0; k < 100; ++k) {
    f = b.request(0x04, seq++, {0, unsigned(model::RapCsr::Status)});
    ASSERT_EQ(f.type, 0x84);
    if (rd32(f, 2) & model::kRapStIdle) break;
    b.idle(500);
  }
  EXPECT_TRUE(rd32(f, 2) & model::kRapStIdle);
  f = b.request(0x04, seq++, {0, unsigned(model::RapCsr::NLo)});
  ASSERT_EQ(f.type, 0x84);
  const uint32_t n_lo = rd32(f, 2);
  EXPECT_FALSE(b.failed());

  // The RAP dump through the link (the RTL alone: the model does not place
  // groups in the RTL's slots) equals the engine model fed the same events
  // directly, with the registers at their reset values.
  b.stop_lockstep();
  b.send(0x07, seq, {0});
  std::vector<model::RapDumpBeat> beats;
  for (;;) {
    f = b.expect_frame(400000);
    if (f.type == 0x88) {
      EXPECT_EQ(rd32(f, 2), beats.size());
      break;
    }
    ASSERT_EQ(f.type, 0x87);
    ASSERT_EQ(f.payload.size(), 4u + 27u);
    model::RapDumpBeat x;
    x.valid = f.payload.at(5) & 1;
    x.depth = f.payload.at(6);
    x.prefix = rd32(f, 7);
    for (unsigned c = 0; c < 4; ++c) x.count[c] = rd32(f, 11 + 5 * c) | uint64_t{f.payload.at(15 + 5 * c)} << 32;
    beats.push_back(x);
  }
  ASSERT_FALSE(beats.empty());
  model::RapEngine eng(rap_config());
  size_t k = 0;
  const auto rr = model::replay_rap(
      eng,
      [&](model::RapEvent& e) {
        if (k == evs.size()) return false;
        e = evs[k++];
        return true;
      },
      model::RapReplayConfig{});
  EXPECT_EQ(rr.counters.n & 0xFFFFFFFFu, n_lo);
  EXPECT_GT(rr.counters.splits, 2u);
  const auto board_nodes = model::rap_dump_nodes(beats, 32);
  const auto direct_nodes = model::rap_tree_nodes(eng.tree());
  ASSERT_GT(direct_nodes.size(), 4u);
  ASSERT_EQ(board_nodes.size(), direct_nodes.size());
  for (size_t m = 0; m < direct_nodes.size(); ++m)
    EXPECT_TRUE(board_nodes[m] == direct_nodes[m]) << "RAP node " << m << ": board " << board_nodes[m].prefix << "/"
                                                   << board_nodes[m].depth << " " << board_nodes[m].count;
}

namespace {

/// The extra unit of hwprof_board_core (ExtUnit = 1; the SoC in a board
/// build, hwprof_board_soc) beside the path profiler and the BBV detector:
/// its records share the fan-out with the host's RECORDS stream
/// (hwprof_board_shell ExtRec: the decoder first, the source locked while a
/// record waits or is partly taken: the path profiler has taken it, the
/// detector holds an untaken result). Lock-step with the model on every
/// cycle while both sources offer at once, a mix of branch and val records
/// (val records no unit of this build takes pass in one cycle), the extra
/// unit's registers through REG_WRITE/REG_READ, OPEN in mid-stream resetting
/// it; the host takes the detector's results as it streams. Then the path
/// profiler's and the detector's RECORDS hold both sources' branch records
/// and FLUSHED only the host's.
TEST(BoardShell, ExtraUnitRecordsShareTheFanoutWithTheHostStream) {
  const uint64_t seed = tb::SimEnv::from_env().seed;
  const auto ext_recs = gen_mixed(seed + 11, 600);
  BenchT<Vboard_core_ext> b(seed, "board_ext", 3, ext_recs);
  link::Frame f = b.request(0x01, 0, {});
  ASSERT_EQ(f.type, 0x81);
  link::BoardInfo bi;
  std::string err;
  ASSERT_TRUE(link::decode_info(f.payload.data() + 2, f.payload.size() - 2, bi, err)) << err;
  EXPECT_TRUE(bi == expected_info(3));
  ASSERT_EQ(bi.units.size(), 3u);
  EXPECT_EQ(bi.units[2].kind, 6);

  uint8_t seq = 1;
  auto reg_write = [&](uint8_t unit, uint8_t addr, uint32_t v) {
    const link::Frame a =
        b.request(0x03, seq++, {unit, addr, uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)});
    EXPECT_EQ(a.type, 0x82);
  };
  auto reg_read = [&](uint8_t unit, uint8_t addr) {
    const link::Frame a = b.request(0x04, seq++, {unit, addr});
    EXPECT_EQ(a.type, 0x84);
    return a.payload.size() >= 6 ? rd32(a, 2) : 0u;
  };
  std::vector<model::DetectorResult> got;
  uint16_t credit = kRxBytes;
  uint8_t status = 0;
  // The credit poll: an empty RECORDS frame (executed, ACKed with the free bytes and the status).
  auto poll_credit = [&] {
    const link::Frame a = b.request(0x05, seq++, {});
    EXPECT_EQ(a.type, 0x82);
    if (a.type == 0x82) {
      credit = rd16(a, 2);
      status = a.payload.at(4);
    }
  };
  // Host records in frames of at most 16 bytes, taking the detector's results
  // whenever the credit runs out (the units wait for the host then).
  auto stream_taking_results = [&](const std::vector<model::BranchRecord>& recs) {
    link::RecordEncoder enc;
    size_t i = 0;
    credit = kRxBytes;
    while (i < recs.size() && !b.failed()) {
      std::vector<uint8_t> pay;
      size_t j = i;
      link::RecordEncoder trial = enc;
      while (j < recs.size() && pay.size() < 16) {
        link::LinkRecord x;
        x.br = recs[j++];
        trial.encode(x, pay);
      }
      for (int guard = 0; pay.size() > credit && !b.failed(); ++guard) {
        ASSERT_LT(guard, 1000) << "no credit";
        poll_results(b, seq, got);
        b.idle(300);
        poll_credit();
      }
      f = b.request(0x05, seq++, pay);
      ASSERT_EQ(f.type, 0x82);
      enc = trial;
      i = j;
      credit = rd16(f, 2);
      poll_results(b, seq, got);
    }
  };
  size_t ext_branches = 0;
  for (const auto& r : ext_recs) ext_branches += !r.val;

  for (int round = 0; round < 2; ++round) {
    open(b, seq++);
    got.clear();
    reg_write(2, 2, 0xA5A5'0000u + round);
    EXPECT_EQ(reg_read(2, 2), 0xA5A5'0000u + round);
    EXPECT_EQ(reg_read(2, 1), 0u) << "OPEN resets the extra unit";
    reg_write(2, 0, 1);  // start: its records now compete with the host's
    const auto host = gen(seed + 3 + round, round == 0 ? 20 : 150);
    stream_taking_results(host);
    // Every host record into the units (ACK status bit 1 clear) before a
    // register command, which waits for them.
    for (int guard = 0; !b.failed(); ++guard) {
      ASSERT_LT(guard, 200);
      poll_results(b, seq, got);
      poll_credit();
      if (!(status & 2)) break;
    }
    if (round == 0) {
      // Reset in mid-stream: OPEN while the extra unit still offers records.
      ASSERT_LT(reg_read(2, 1), ext_recs.size()) << "the extra unit finished before the host stream";
      continue;
    }
    for (int guard = 0; reg_read(2, 1) != ext_recs.size() && !b.failed(); ++guard) {
      ASSERT_LT(guard, 400) << "the extra unit's records were not all taken";
      poll_results(b, seq, got);
      b.idle(500);
    }
    poll_results(b, seq, got);
    f = b.request(0x06, seq++, {});
    ASSERT_EQ(f.type, 0x86);
    EXPECT_EQ(rd32(f, 2), host.size()) << "FLUSHED counts the host's records only";
    EXPECT_EQ(reg_read(0, static_cast<uint8_t>(model::PathCsr::Records)), host.size() + ext_branches);
    EXPECT_EQ(reg_read(1, static_cast<uint8_t>(model::DetCsr::Records)), host.size() + ext_branches);
    EXPECT_GT(got.size(), 3u);
  }
  // The mux saw both sources at once and held a waiting record's source.
  EXPECT_GT(b.model().ext_stats().both, 0u);
  EXPECT_GT(b.model().ext_stats().locked, 0u);
  EXPECT_FALSE(b.failed());
}

}  // namespace
