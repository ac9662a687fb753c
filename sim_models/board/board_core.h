// Cycle model of rtl/board/hwprof_board_shell.sv and hwprof_board_core.sv:
// the board shell composed exactly as the RTL instantiates its blocks
// (uart.h, link_frames.h, rxbuf.h, rec_decoder.h, ctrl.h), and the units
// behind it (hwprof_board_units: the path profiler model here).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "ctrl.h"
#include "dcr_tracker.h"
#include "link_codec.h"
#include "link_frames.h"
#include "path_profiler.h"
#include "phase_detector.h"
#include "rap_engine.h"
#include "rec_decoder.h"
#include "rxbuf.h"
#include "uart.h"

namespace hwprof::model::board {

/// What the shell drives toward the units in one cycle (the probe ports of
/// hwprof_board_core).
struct ToUnits {
  bool unit_rst = false;
  std::vector<bool> rec_valid;
  BoardRec rec{};
  std::vector<bool> csr_we;
  uint8_t csr_addr = 0;
  uint32_t csr_wdata = 0;
  std::vector<bool> dump_start, dump_ready, res_ready;
};

/// What the units return in one cycle.
struct FromUnits {
  std::vector<bool> rec_ready, dump_valid, dump_busy, res_valid;
  std::vector<uint32_t> csr_rdata;
  std::vector<Entry> dump_data, res_data;
  explicit FromUnits(size_t n = 0)
      : rec_ready(n), dump_valid(n), dump_busy(n), res_valid(n), csr_rdata(n), dump_data(n), res_data(n) {}
};

/// The units of a build (hwprof_board_units).
class Units {
 public:
  virtual ~Units() = default;
  virtual size_t n() const = 0;
  virtual void reset() = 0;
  virtual FromUnits step(const ToUnits& in) = 0;
  virtual std::unique_ptr<Units> clone() const = 0;
  virtual std::vector<bool> takes_val() const = 0;
  virtual std::vector<uint8_t> dump_bytes() const = 0;
  virtual std::vector<uint8_t> res_bytes() const = 0;
};

/// The path profiler alone (EnPath = 1): dump_start writes HPT CMD.dump;
/// entries as 16 bytes (set u16, way u8, start u32, length u8, dirs u32, acc u32).
class PathUnits : public Units {
 public:
  PathUnits(unsigned queue, unsigned depth, unsigned max_len, unsigned sets, unsigned ways)
      : pp_(queue, depth, max_len, sets, ways) {}
  size_t n() const override { return 1; }
  void reset() override { pp_.reset(); }
  std::unique_ptr<Units> clone() const override { return std::make_unique<PathUnits>(*this); }
  std::vector<bool> takes_val() const override { return {false}; }
  std::vector<uint8_t> dump_bytes() const override { return {16}; }
  std::vector<uint8_t> res_bytes() const override { return {0}; }
  FromUnits step(const ToUnits& in) override {
    PathProfiler::In i;
    i.rec_valid = in.rec_valid[0];
    i.rec_data = in.rec.br;
    i.dump_ready = in.dump_ready[0];
    i.csr_we = in.csr_we[0] || in.dump_start[0];
    i.csr_addr = in.dump_start[0] ? kHptCsrBase + 2 : (in.csr_addr & 31u);
    i.csr_wdata = in.dump_start[0] ? 2u : in.csr_wdata;
    const PathProfiler::Out o = pp_.step(i);
    FromUnits f(1);
    f.rec_ready[0] = o.rec_ready;
    f.dump_valid[0] = o.dump_valid;
    f.dump_busy[0] = o.dump_busy;
    f.csr_rdata[0] = o.csr_rdata;
    Entry& e = f.dump_data[0];
    e.fill(0);
    auto put = [&](unsigned k, uint32_t v, unsigned nb) {
      for (unsigned b = 0; b < nb; ++b) e[k + b] = static_cast<uint8_t>(v >> (8 * b));
    };
    put(0, o.dump.set, 2);
    put(2, o.dump.way, 1);
    put(3, o.dump.key.start, 4);
    put(7, o.dump.key.length & 63u, 1);
    put(8, o.dump.key.dirs, 4);
    put(12, o.dump.acc, 4);
    return f;
  }
  const PathProfiler& profiler() const { return pp_; }

 private:
  PathProfiler pp_;
};

/// The path profiler (index 0) and the BBV detector (index 1) (EnPath = 1,
/// EnBbv = 1): BBV result entries as 7 bytes (phase u16, pred u16,
/// distance u16, flags u8: changed, matched, scored, correct).
class PathBbvUnits : public Units {
 public:
  PathBbvUnits(const PathUnits& path, const DetectorParams& bbv) : path_(path), bbv_(bbv) {}
  size_t n() const override { return 2; }
  void reset() override {
    path_.reset();
    bbv_.reset();
  }
  std::unique_ptr<Units> clone() const override { return std::make_unique<PathBbvUnits>(*this); }
  std::vector<bool> takes_val() const override { return {false, false}; }
  std::vector<uint8_t> dump_bytes() const override { return {16, 0}; }
  std::vector<uint8_t> res_bytes() const override { return {0, 7}; }
  FromUnits step(const ToUnits& in) override {
    ToUnits p = in;
    p.rec_valid = {in.rec_valid[0]};
    p.csr_we = {in.csr_we[0]};
    p.dump_start = {in.dump_start[0]};
    p.dump_ready = {in.dump_ready[0]};
    p.res_ready = {in.res_ready[0]};
    const FromUnits fp = path_.step(p);
    PhaseDetector::In b;
    b.rec_valid = in.rec_valid[1];
    b.rec_data = in.rec.br;
    b.res_ready = in.res_ready[1];
    b.csr_we = in.csr_we[1];
    b.csr_addr = in.csr_addr & 15u;
    b.csr_wdata = in.csr_wdata;
    const PhaseDetector::Out ob = bbv_.step(b);
    FromUnits f(2);
    f.rec_ready = {fp.rec_ready[0], ob.rec_ready};
    f.dump_valid = {fp.dump_valid[0], false};
    f.dump_busy = {fp.dump_busy[0], false};
    f.res_valid = {false, ob.res_valid};
    f.csr_rdata = {fp.csr_rdata[0], ob.csr_rdata};
    f.dump_data[0] = fp.dump_data[0];
    Entry& e = f.res_data[1];
    e.fill(0);
    const DetectorResult& r = ob.res;
    e[0] = static_cast<uint8_t>(r.phase);
    e[1] = static_cast<uint8_t>(r.phase >> 8);
    e[2] = static_cast<uint8_t>(r.predicted);
    e[3] = static_cast<uint8_t>(r.predicted >> 8);
    e[4] = static_cast<uint8_t>(r.distance);
    e[5] = static_cast<uint8_t>(r.distance >> 8);
    e[6] = static_cast<uint8_t>((r.changed ? 1 : 0) | (r.matched ? 2 : 0) | (r.scored ? 4 : 0) | (r.correct ? 8 : 0));
    return f;
  }

 private:
  PathUnits path_;
  PhaseDetector bbv_;
};

/// The RAP engine (index 0) and the DCR tracker (index 1) (EnPath = 0,
/// EnRap = 1, EnDcr = 1): the RAP adapter of hwprof_board_units (code
/// events from branch records: value = the previous branch record's next
/// address, weight = its insns, none for the first record after reset; value
/// events from val records) and DCR result entries as 10 bytes (phase u16,
/// pred u16, depth u8, flags u8, hash u32). The RAP dump is not modelled
/// (the cycle model does not place groups in the RTL's slots): dump_valid
/// and dump_busy stay low, so a lock-step test stops comparing before a RAP
/// DUMP.
class RapDcrUnits : public Units {
 public:
  RapDcrUnits(const RapEngineConfig& rap, const DcrParams& dcr) : rap_(rap), dcr_(dcr) {}
  size_t n() const override { return 2; }
  void reset() override {
    rap_.reset();
    dcr_.reset();
    have_prev_ = false;
    prev_next_ = 0;
  }
  std::unique_ptr<Units> clone() const override { return std::make_unique<RapDcrUnits>(*this); }
  std::vector<bool> takes_val() const override { return {true, false}; }
  std::vector<uint8_t> dump_bytes() const override { return {27, 0}; }
  std::vector<uint8_t> res_bytes() const override { return {0, 10}; }
  FromUnits step(const ToUnits& in) override {
    const bool need = in.rec.val || have_prev_;
    RapEngine::In r;
    r.ev_valid = in.rec_valid[0] && need;
    r.ev_value = in.rec.val ? in.rec.value : prev_next_;
    r.ev_weight = in.rec.val ? in.rec.weight : in.rec.br.insns;
    r.csr_we = in.csr_we[0] || in.dump_start[0];
    r.csr_addr = in.dump_start[0] ? unsigned(RapCsr::Cmd) : (in.csr_addr & 31u);
    r.csr_wdata = in.dump_start[0] ? kRapCmdDump : in.csr_wdata;
    r.dump_ready = in.dump_ready[0];
    const RapEngine::Out orap = rap_.step(r);
    const bool rap_ready = need ? orap.ev_ready : true;
    DcrTracker::In d;
    d.rec_valid = in.rec_valid[1];
    d.rec = in.rec.br;
    d.res_ready = in.res_ready[1];
    d.csr_we = in.csr_we[1];
    d.csr_addr = in.csr_addr & 15u;
    d.csr_wdata = in.csr_wdata;
    const DcrTracker::Out od = dcr_.step(d);
    FromUnits f(2);
    f.rec_ready = {rap_ready, od.rec_ready};
    f.dump_valid = {false, false};
    f.dump_busy = {false, false};
    f.res_valid = {false, od.res_valid};
    f.csr_rdata = {orap.csr_rdata, od.csr_rdata};
    f.dump_data[0].fill(0);
    Entry& e = f.res_data[1];
    e.fill(0);
    const DcrResult& x = od.res;
    e[0] = static_cast<uint8_t>(x.phase);
    e[1] = static_cast<uint8_t>(x.phase >> 8);
    e[2] = static_cast<uint8_t>(x.predicted);
    e[3] = static_cast<uint8_t>(x.predicted >> 8);
    e[4] = x.sig_depth;
    e[5] = x.flags;
    for (unsigned k = 0; k < 4; ++k) e[6 + k] = static_cast<uint8_t>(x.sig_hash >> (8 * k));
    if (in.rec_valid[0] && rap_ready && !in.rec.val) {
      have_prev_ = true;
      prev_next_ = in.rec.br.next();
    }
    return f;
  }

 private:
  RapEngine rap_;
  DcrTracker dcr_;
  bool have_prev_ = false;
  uint32_t prev_next_ = 0;
};

/// The extra unit of hwprof_board_core (ExtUnit = 1; hwprof_board_soc's SoC):
/// the last unit index, takes no records, has no dump and no results; its
/// record source shares the shell's fan-out with the decoder
/// (hwprof_board_shell ExtRec). rec_valid()/rec() and csr_rdata() are
/// functions of its state (register outputs in the RTL); step() is one edge
/// with the shell's outputs toward it.
class ExtUnit {
 public:
  virtual ~ExtUnit() = default;
  virtual void reset() = 0;
  virtual bool rec_valid() const = 0;
  virtual BoardRec rec() const = 0;
  virtual uint32_t csr_rdata(uint8_t addr) const = 0;
  virtual void step(bool rec_ready, bool csr_we, uint8_t csr_addr, uint32_t csr_wdata) = 0;
};

/// hwprof_board_shell + hwprof_board_units (hwprof_board_core), and the
/// extra unit when one is given (ExtUnit = 1).
class BoardCore {
 public:
  struct Config {
    unsigned clks_per_bit = 4;
    unsigned rx_bytes = 64;
    std::vector<uint8_t> id;  ///< the ID block
  };
  struct Out {
    bool tx = true;  ///< uart_tx_o in this cycle
    ToUnits to;      ///< the shell's outputs toward the units
  };

  BoardCore(const Config& cfg, std::unique_ptr<Units> units, std::unique_ptr<ExtUnit> ext = nullptr)
      : units_(std::move(units)),
        ext_(std::move(ext)),
        urx_(cfg.clks_per_bit),
        utx_(cfg.clks_per_bit),
        lrx_(640 * cfg.clks_per_bit),
        buf_(cfg.rx_bytes),
        fan_(with_ext(std::vector<bool>(units_->n(), true), false), with_ext(units_->takes_val(), false)),
        ctrl_(Ctrl::Config{static_cast<unsigned>(units_->n() + (ext_ ? 1 : 0)), with_ext(units_->dump_bytes(), uint8_t{0}),
                           with_ext(units_->res_bytes(), uint8_t{0}), cfg.id}) {
    reset();
  }

  void reset() {
    urx_.reset();
    utx_.reset();
    lrx_.reset();
    buf_.reset();
    dec_.reset();
    fan_.reset();
    ctrl_.reset();
    ltx_.reset();
    units_->reset();
    if (ext_) ext_->reset();
    lock_ = lock_ext_ = false;
  }

  const Units& units() const { return *units_; }
  const Ctrl& ctrl() const { return ctrl_; }
  /// With an extra unit: cycles in which both sources offered a record, and
  /// cycles in which the source was locked (the tests' coverage of the mux).
  struct ExtStats {
    uint64_t both = 0, locked = 0;
  };
  const ExtStats& ext_stats() const { return ext_stats_; }

  /// One rising edge with uart_rx_i = rx.
  Out step(bool rx) {
    const size_t nu = units_->n();         // units of hwprof_board_units
    const size_t n = nu + (ext_ ? 1 : 0);  // and the extra unit, the last
    Out out;
    out.tx = utx_.tx();

    // Inputs of the control block that come from registers.
    Ctrl::In ci;
    ci.hdr_valid = lrx_.hdr_valid();
    ci.type = lrx_.type();
    ci.seq = lrx_.seq();
    ci.len = lrx_.len();
    ci.pay_valid = lrx_.pay_valid();
    ci.end_valid = lrx_.end_valid();
    ci.pl = lrx_.pl();
    ci.crc_err = lrx_.crc_err();
    ci.tmo = lrx_.tmo();
    ci.buf_empty = buf_.empty();
    ci.buf_free = buf_.free();
    ci.dec_valid = dec_.out_valid();
    ci.dec_busy = dec_.busy();
    ci.dec_err = dec_.err();
    ci.tx_busy = ltx_.busy();
    ci.tx_take = ltx_.in_pay() && utx_.ready();
    FromUnits dummy(n);
    ci.csr_rdata = dummy.csr_rdata;
    ci.dump_valid = dummy.dump_valid;
    ci.dump_busy = dummy.dump_busy;
    ci.res_valid = dummy.res_valid;
    ci.dump_data = dummy.dump_data;
    ci.res_data = dummy.res_data;

    // What the control block drives this cycle independently of the units.
    Ctrl probe = ctrl_;
    const Ctrl::Out po = probe.step(ci);

    // The fan-out's source (hwprof_board_shell ExtRec): the decoder, or the
    // extra unit when the decoder offers nothing; locked while a record is
    // partly taken.
    ToUnits& to = out.to;
    to.unit_rst = ctrl_.unit_rst();
    if (ext_ && to.unit_rst) ext_->reset();  // held in reset during the cycle
    const bool use_ext = ext_ && (lock_ ? lock_ext_ : !dec_.out_valid());
    if (ext_) {
      ext_stats_.both += dec_.out_valid() && ext_->rec_valid();
      ext_stats_.locked += lock_;
    }
    const bool fan_valid = use_ext ? ext_->rec_valid() : dec_.out_valid();
    to.rec = use_ext ? ext_->rec() : dec_.out();
    const bool is_val = to.rec.val;
    to.rec_valid.resize(n);
    for (size_t u = 0; u < n; ++u) to.rec_valid[u] = fan_.unit_valid(u, fan_valid, is_val);
    to.csr_we = ctrl_.csr_we();
    to.csr_addr = ctrl_.csr_addr();
    to.csr_wdata = ctrl_.csr_wdata();
    to.dump_start = ctrl_.dump_start();
    to.res_ready = po.res_ready;
    to.dump_ready.assign(n, false);
    bool want = false;
    for (size_t u = 0; u < n; ++u) want = want || ctrl_.dump_want(static_cast<unsigned>(u));
    if (want) {
      // dump_ready = want & dump_valid: the units' dump_valid is a register
      // output, so a copy stepped without ready shows it.
      auto copy = units_->clone();
      if (to.unit_rst) copy->reset();
      const FromUnits peek = copy->step(to);
      for (size_t u = 0; u < nu; ++u) to.dump_ready[u] = ctrl_.dump_want(static_cast<unsigned>(u)) && peek.dump_valid[u];
    }

    if (to.unit_rst) units_->reset();
    FromUnits fu = units_->step(to);
    if (to.unit_rst) units_->reset();
    if (ext_) {
      fu.rec_ready.push_back(true);
      fu.dump_valid.push_back(false);
      fu.dump_busy.push_back(false);
      fu.res_valid.push_back(false);
      fu.csr_rdata.push_back(ext_->csr_rdata(to.csr_addr));
      fu.dump_data.emplace_back();
      fu.res_data.emplace_back();
    }

    const bool fan_ready = fan_.in_ready(fan_valid, is_val, fu.rec_ready);
    const bool rec_take = fan_ready && !use_ext;  // the decoder's record
    ci.rec_take = rec_take;
    ci.csr_rdata = fu.csr_rdata;
    ci.dump_valid = fu.dump_valid;
    ci.dump_busy = fu.dump_busy;
    ci.res_valid = fu.res_valid;
    ci.dump_data = fu.dump_data;
    ci.res_data = fu.res_data;
    const Ctrl::Out co = ctrl_.step(ci);

    const bool rd = dec_.rd(!buf_.empty(), co.dec_clear);
    const uint8_t tx_byte = ltx_.out_data(co.tx_pay);
    const bool tx_valid = ltx_.out_valid();
    const bool uart_ready = utx_.ready();
    dec_.step(co.dec_clear, !buf_.empty(), buf_.rdata(), rec_take);
    fan_.step(co.dec_clear, fan_valid, is_val, fu.rec_ready);
    if (ext_) {
      // The extra unit resets with the units (ext_rst_no: no edge while it is
      // held); its edge sees the fan-out's ready and its register strobe.
      if (!to.unit_rst) ext_->step(fan_ready && use_ext, to.csr_we[n - 1], to.csr_addr, to.csr_wdata);
      if (to.unit_rst) ext_->reset();
      lock_ = fan_valid && !fan_ready && !co.dec_clear;
      lock_ext_ = use_ext;
    }
    buf_.step(co.buf_clear, co.buf_we, lrx_.pay_data(), co.buf_commit, co.buf_rollback, rd);
    ltx_.step(co.tx_start, co.tx_type, co.tx_seq, co.tx_len, co.tx_pay, uart_ready);
    utx_.step(tx_valid, tx_byte);
    lrx_.step(urx_.valid(), urx_.data());
    urx_.step(rx);
    return out;
  }

 private:
  /// v with the extra unit's entry appended (when there is one).
  template <typename T>
  std::vector<T> with_ext(std::vector<T> v, T x) const {
    if (ext_) v.push_back(x);
    return v;
  }

  std::unique_ptr<Units> units_;
  std::unique_ptr<ExtUnit> ext_;
  bool lock_ = false, lock_ext_ = false;  // hwprof_board_shell g_ext.lock_q / lock_ext_q
  ExtStats ext_stats_;
  UartRx urx_;
  UartTx utx_;
  LinkRx lrx_;
  RxBuf buf_;
  RecDecoder dec_;
  Fanout fan_;
  Ctrl ctrl_;
  LinkTx ltx_;
};

}  // namespace hwprof::model::board
