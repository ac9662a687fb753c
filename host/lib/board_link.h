// The host side of the board link (docs/board_protocol.md): a session on a
// byte channel (a serial port, a pseudo-terminal, a test double), register
// access, the record stream (go-back-N with credits, at most 8 frames in
// flight), FLUSH, DUMP with its CRC-32 check, RESULTS and LINK_STATUS.
// Every failure is a LinkError naming what happened; a wrong byte on the
// line is retried or reported, never turned into a wrong result.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "link_codec.h"
#include "serial.h"

namespace hwprof::link {

class LinkError : public std::runtime_error {
 public:
  enum class Kind {
    Device,       ///< the port could not be used
    WrongBoard,   ///< not an hwprof board (magic) or another protocol version
    Timeout,      ///< no (good) answer after every retry
    Checksum,     ///< a dump's CRC-32 stayed wrong after every retry
    SessionLost,  ///< the board was reset (or another host opened it)
    Board,        ///< the board refused a command (NAK reason, RecordError)
    Protocol,     ///< an answer that breaks the protocol
  };
  LinkError(Kind k, const std::string& msg) : std::runtime_error(msg), kind(k) {}
  Kind kind;
};

struct LinkOptions {
  int64_t timeout_us = 200'000;  ///< answer timeout, plus the frames' own transmission time
  unsigned retries = 10;         ///< retransmissions of one frame before giving up
  unsigned window = kMaxInFlight;  ///< RECORDS frames unanswered at most (1..8)
  size_t max_payload = kMaxPayload;  ///< RECORDS payload bytes per frame
};

/// What the link saw; reported with errors and by `hwprof board run`.
struct LinkCounters {
  uint64_t frames_sent = 0;
  uint64_t retransmissions = 0;  ///< frames sent again (timeouts and NAKs)
  uint64_t timeouts = 0;         ///< answer timeouts
  uint64_t naks = 0;             ///< NAKs received
  uint64_t crc_errors = 0;       ///< frames from the board dropped for a wrong CRC
  uint64_t rx_timeouts = 0;      ///< partial frames from the board dropped (inter-byte timeout)
  uint64_t noise_bytes = 0;      ///< bytes outside frames
  uint64_t dump_retries = 0;     ///< DUMPs repeated (missing data, CRC-32 mismatch)
  uint64_t credit_polls = 0;     ///< RECORDS frames repeated or sent empty to learn the credit
  uint64_t results = 0;          ///< RESULTS frames sent
  uint64_t result_entries = 0;   ///< result entries received
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  std::string summary() const;
};

struct FlushInfo {
  uint32_t records = 0, busy_cycles = 0, idle_cycles = 0;
};

struct LinkStatus {
  uint16_t crc_errors = 0, timeouts = 0, naks = 0, dup = 0;
  uint8_t expect = 0;
};

struct ResultChunk {
  std::vector<uint8_t> entries;  ///< `count` whole entries
  unsigned count = 0;
  bool more = false;
};

class BoardLink {
 public:
  explicit BoardLink(Channel& ch, LinkOptions o = {});

  /// INFO: the board's ID block. Throws LinkError::WrongBoard for a wrong
  /// magic or protocol version.
  BoardInfo info();
  /// OPEN with `session` (0: a random non-zero one); drops stale input first.
  void open(uint16_t session = 0);
  void reg_write(uint8_t unit, uint8_t addr, uint32_t data);
  uint32_t reg_read(uint8_t unit, uint8_t addr);
  /// Streams records until `next` returns false. `progress(n)` is called with
  /// the records the board has acknowledged. `addr_w`: the board's AddrW.
  /// Returns the records sent.
  /// `starved` (builds with result units): called when the host has no
  /// credit for its next record and no frame unanswered; it takes the
  /// units' results (RESULTS, a unit with an untaken result takes no more
  /// records, docs/board_protocol.md "Flow control"), after which the
  /// credit is asked for with an empty RECORDS frame (poll()).
  uint64_t send_records(const std::function<bool(LinkRecord&)>& next, unsigned addr_w,
                        const std::function<void(uint64_t)>& progress = {},
                        const std::function<void()>& starved = {});
  /// An empty RECORDS frame (stop-and-wait): updates the credit; returns the
  /// ACK's status (bit 0 RecordError, bit 1 records not all in the units).
  uint8_t poll();
  FlushInfo flush();
  /// DUMP: the entry bytes of every DUMP_DATA frame in order, checked
  /// against DUMP_END's entry count and CRC-32 (retried on a mismatch).
  std::vector<uint8_t> dump(uint8_t unit, size_t entry_bytes, uint32_t& entries);
  ResultChunk results(uint8_t unit, uint8_t max, size_t entry_bytes);
  LinkStatus link_status();

  const LinkCounters& counters() const { return cnt_; }
  uint16_t session() const { return session_; }
  /// The channel's clock (microseconds).
  int64_t now_us() const { return ch_.now_us(); }
  bool is_open() const { return session_ != 0; }

 private:
  struct Pending {
    uint8_t seq;
    std::vector<uint8_t> bytes;
    size_t payload;
    size_t records;
    int64_t sent_at = 0;
    unsigned tries = 0;
  };
  void send(const std::vector<uint8_t>& f);
  /// Reads until a good frame or the deadline (channel clock). False on timeout.
  bool receive(Frame& f, int64_t deadline_us);
  /// Stops on ERROR or a foreign session (after OPEN).
  void check_answer(const Frame& f) const;
  /// Stop-and-wait: sends, waits for an answer of type `want` with this seq.
  Frame transact(Type t, const std::vector<uint8_t>& payload, Type want, const char* what);
  int64_t tx_time_us(size_t bytes) const;
  [[noreturn]] void fail_timeout(const std::string& what) const;

  Channel& ch_;
  LinkOptions opt_;
  LinkCounters cnt_;
  FrameParser parser_;
  std::vector<uint8_t> rx_;
  size_t rx_pos_ = 0;
  uint8_t seq_ = 0;
  uint16_t session_ = 0;
  int64_t credit_ = 0;  ///< payload bytes the host may still send
};

}  // namespace hwprof::link
