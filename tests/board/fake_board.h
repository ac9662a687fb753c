// A protocol-level fake board for the link tests: it speaks
// docs/board_protocol.md with the shared codec (link_codec.h) and runs the
// units' C++ cycle models (the path profiler: model::PathProfiler; the RAP
// engine: model::RapEngine; the DCR tracker: model::DcrTracker; the BBV
// detector: model::PhaseDetector; the models the lock-step tests hold equal
// to the RTL). As on the board, a result unit holds its result until the
// host has taken it with RESULTS and sent its next new frame, and takes no
// record meanwhile (the buffer fills, the host's credit runs out). Byte in, bytes out, no
// I/O: tests/board/fake_board_main.cpp puts it behind a pseudo-terminal with
// line pacing and fault injection. A test double, not the board's model
// (that is sim_models/board/).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "dcr_tracker.h"
#include "link_codec.h"
#include "path_profiler.h"
#include "phase_detector.h"
#include "rap_engine.h"

namespace hwprof::fake {

/// Bytes of one path-profiler DUMP entry (docs/boards.md): set u16, way u8,
/// start u32, length u8, dirs u32, acc u32.
inline constexpr size_t kPathDumpEntryBytes = 16;
/// RAP DUMP entry: last u8, slot_valid u8, depth u8, prefix u32, cnt0..3 u40.
inline constexpr size_t kRapDumpEntryBytes = 27;

struct FakeBoardConfig {
  link::BoardInfo info;    ///< units: kinds 1..4 (path, RAP, DCR, BBV)
  size_t drain_bytes = 0;  ///< record bytes taken from the buffer per tick() (0: all)
  bool corrupt_dump = false;   ///< flip a data byte of the DUMP after computing its CRC-32 (a board bug)
  std::string magic = "HWPF";  ///< INFO magic (another one: not an hwprof board)
  /// Line faults on the results (1-based counts, 0: none): flip a bit of an
  /// entry byte / drop an entry byte of the K-th RESULT_DATA answer with an
  /// entry on its way to the host; lose the K-th RESULTS frame from the host
  /// (as a dropped byte would).
  unsigned res_tx_flip = 0, res_tx_drop = 0, res_rx_drop = 0;
  /// Flip a bit of the unit byte of the K-th RESULTS frame from the host on
  /// the line (its CRC then fails: the board drops it).
  unsigned res_rx_flip = 0;
};

/// The default: a virtual board (id 3), 25 MHz, 3 Mbaud, 1024-byte buffer,
/// one path profiler (queue 4, stack 16, MaxLen 32, HPT 128x4, AddrW 32).
FakeBoardConfig default_fake_config();

class FakeBoard {
 public:
  explicit FakeBoard(FakeBoardConfig cfg);
  /// One byte from the host; answers are appended to `out`.
  void rx(uint8_t byte, std::vector<uint8_t>& out);
  /// The inter-byte timeout (64 byte times without a byte).
  void idle_timeout() { parser_.timeout(); }
  /// Lets the units take record bytes from the buffer (drain_bytes per call).
  void tick();
  /// Power-on reset: session 0, everything cleared.
  void power_on_reset();

  uint64_t records() const { return records_; }
  uint16_t session() const { return session_; }

 private:
  struct Unit {
    link::UnitInfo info;
    std::unique_ptr<model::PathProfiler> path;
    std::unique_ptr<model::RapEngine> rap;
    std::unique_ptr<model::DcrTracker> dcr;
    std::unique_ptr<model::PhaseDetector> bbv;
    bool taken = true;           ///< the current record is in this unit
    bool have_prev = false;      ///< RAP: a branch record before (code events)
    uint32_t prev_next = 0;      ///< RAP: its next address
    bool res_valid = false;      ///< DCR/BBV: a result is offered (held)
    std::vector<uint8_t> res;    ///< its entry bytes
    void reset();
    /// One cycle with a record offered (or not); false while not taken.
    bool offer(const link::LinkRecord* r, bool res_ready);
    uint32_t csr(bool we, uint8_t addr, uint32_t data);
  };
  void execute(const link::Frame& f, std::vector<uint8_t>& out);
  void answer(uint8_t type, uint8_t seq, const std::vector<uint8_t>& body, std::vector<uint8_t>& out);
  void nak(uint8_t seq, link::NakReason r, std::vector<uint8_t>& out);
  /// Takes up to `max` bytes of whole records from the buffer into the units
  /// (0: everything).
  void drain(size_t max);
  /// Offers the current record until every unit took it; false when a unit
  /// holding a result refuses it.
  bool feed();
  /// A new frame was executed: the result sent last leaves its unit.
  void release_result();
  Unit* unit(uint8_t id);
  uint16_t free_bytes() const { return static_cast<uint16_t>(cfg_.info.rxbuf - buf_.size()); }
  void reset_link();

  FakeBoardConfig cfg_;
  std::vector<Unit> units_;
  link::FrameParser parser_;
  link::RecordDecoder dec_;
  std::deque<uint8_t> buf_;
  uint16_t session_ = 0;
  uint8_t expect_ = 0;
  bool record_error_ = false;
  uint8_t last_type_ = 0;               ///< type of the frame executed last
  std::vector<uint8_t> last_answer_;    ///< its answer bytes (resent for a retransmission)
  uint64_t records_ = 0, busy_ = 0, idle_ = 0;
  bool have_cur_ = false;    ///< a decoded record not yet in every unit
  link::LinkRecord cur_{};
  int res_sent_ = -1;        ///< unit whose result was sent last (released by the next new frame)
  std::vector<uint8_t> clean_answer_;  ///< the answer before a line fault (what a retransmission gets)
  unsigned res_answers_ = 0, res_frames_ = 0;
  unsigned line_pos_ = 0, line_res_ = 0;  ///< bytes since the last SOF on the line; RESULTS frames seen there
  bool line_in_res_ = false;  ///< RESULT_DATA with an entry sent, RESULTS frames received
  uint16_t naks_ = 0, dups_ = 0;
};

}  // namespace hwprof::fake
