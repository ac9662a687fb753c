// A protocol-level fake board for the link tests: it speaks
// docs/board_protocol.md with the shared codec (link_codec.h) and runs the
// units' C++ cycle models (the path profiler: model::PathProfiler, the
// model the lock-step tests hold equal to the RTL). Byte in, bytes out, no
// I/O: tests/board/fake_board_main.cpp puts it behind a pseudo-terminal with
// line pacing and fault injection. A test double, not the board's model
// (that is sim_models/board/).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "link_codec.h"
#include "path_profiler.h"

namespace hwprof::fake {

/// Bytes of one path-profiler DUMP entry (docs/boards.md): set u16, way u8,
/// start u32, length u8, dirs u32, acc u32.
inline constexpr size_t kPathDumpEntryBytes = 16;

struct FakeBoardConfig {
  link::BoardInfo info;    ///< units: only kind 1 (path profiler) is modelled
  size_t drain_bytes = 0;  ///< record bytes taken from the buffer per tick() (0: all)
  bool corrupt_dump = false;   ///< flip a data byte of the DUMP after computing its CRC-32 (a board bug)
  std::string magic = "HWPF";  ///< INFO magic (another one: not an hwprof board)
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
  };
  void execute(const link::Frame& f, std::vector<uint8_t>& out);
  void answer(uint8_t type, uint8_t seq, const std::vector<uint8_t>& body, std::vector<uint8_t>& out);
  void nak(uint8_t seq, link::NakReason r, std::vector<uint8_t>& out);
  /// Takes up to `max` bytes of whole records from the buffer into the units
  /// (0: everything).
  void drain(size_t max);
  void feed(const link::LinkRecord& r);
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
  uint16_t naks_ = 0, dups_ = 0;
};

}  // namespace hwprof::fake
