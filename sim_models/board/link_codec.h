// Board link protocol v1 (docs/board_protocol.md): the frame format, its
// CRCs, the record encoding of the RECORDS payload and the INFO block. Pure
// C++17, no I/O: shared by the host (host/lib/board_link.*), the board's
// cycle model (sim_models/board/) and the test doubles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "branch_record.h"
#include "dcr_algo.h"
#include "detector_algo.h"
#include "rap_engine.h"

namespace hwprof::link {

// ---------------------------------------------------------------------------
// Constants

inline constexpr uint8_t kSof = 0x7E;           ///< start of frame
inline constexpr uint8_t kProto = 1;            ///< protocol version (INFO)
inline constexpr size_t kHeaderBytes = 4;       ///< SOF, type, seq, len
inline constexpr size_t kCrcBytes = 2;          ///< CRC-16, little-endian
inline constexpr size_t kMaxPayload = 255;      ///< len is one byte
inline constexpr size_t kMaxFrame = kHeaderBytes + kMaxPayload + kCrcBytes;
inline constexpr unsigned kTimeoutByteTimes = 64;  ///< inter-byte timeout, in byte times
inline constexpr unsigned kMaxInFlight = 8;        ///< RECORDS frames unanswered at most
inline constexpr unsigned kMaxVarintBytes = 5;     ///< LEB128 varints of the RECORDS payload
inline constexpr char kMagic[4] = {'H', 'W', 'P', 'F'};

/// Frame types. Host-to-board types are 0x01..0x7F; answers have bit 7 set.
enum class Type : uint8_t {
  Info = 0x01,
  Open = 0x02,
  RegWrite = 0x03,
  RegRead = 0x04,
  Records = 0x05,
  Flush = 0x06,
  Dump = 0x07,
  Results = 0x08,
  LinkStatus = 0x09,
  InfoData = 0x81,    ///< answer to INFO: session, ID block
  Ack = 0x82,         ///< answer to OPEN, REG_WRITE, RECORDS: session, free u16, status u8
  Data = 0x84,        ///< answer to REG_READ: session, data u32
  Flushed = 0x86,     ///< answer to FLUSH: session, records u32, busy_cycles u32, idle_cycles u32
  DumpData = 0x87,    ///< DUMP: session, index u16, whole entries
  DumpEnd = 0x88,     ///< DUMP: session, entries u32, crc32 u32
  ResultData = 0x89,  ///< answer to RESULTS: session, count u8, more u8, entries
  LinkStatusData = 0x8A,  ///< session, crc_errors u16, timeouts u16, naks u16, dup u16, expect u8
  Nak = 0xFE,         ///< session, expect u8, reason u8
  Error = 0xFF,       ///< session, code u8
};
const char* type_name(uint8_t type);

enum class NakReason : uint8_t { OutOfOrder = 1, NoRoom = 2, BadType = 3, BadLength = 4, BadUnit = 5 };
enum class ErrorCode : uint8_t { NoSession = 1, RecordError = 2 };
const char* nak_name(uint8_t reason);
const char* error_name(uint8_t code);

/// INFO `board` values.
enum class BoardId : uint8_t { IceBreaker = 1, Ulx3s = 2, Virtual = 3 };
/// INFO unit `kind` values.
/// Soc: the SoC of a `SOC=picorv32` build (PicoRV32, its memory, the RVFI
/// ingress; params MemWords, Rv32imc, IngressDepth, IngressValDepth,
/// ConsoleDepth; docs/soc.md).
enum class UnitKind : uint8_t { PathProfiler = 1, Rap = 2, Dcr = 3, Bbv = 4, PathPhase = 5, Soc = 6 };
const char* board_name(uint8_t board);
const char* unit_kind_name(uint8_t kind);

// ---------------------------------------------------------------------------
// Checksums

/// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no xorout.
/// Pass a previous result as `crc` to continue over more bytes.
uint16_t crc16(const uint8_t* p, size_t n, uint16_t crc = 0xFFFF);
/// CRC-32/ISO-HDLC (zlib): reflected poly 0xEDB88320, init and xorout
/// 0xFFFFFFFF. `crc` continues a previous result (0 to start).
uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc = 0);

// ---------------------------------------------------------------------------
// Little-endian fields and varints

void put_u8(std::vector<uint8_t>& b, uint8_t v);
void put_u16(std::vector<uint8_t>& b, uint16_t v);
void put_u32(std::vector<uint8_t>& b, uint32_t v);

/// Reads little-endian fields from a payload; any read past the end sets
/// ok() false (and returns 0).
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  explicit Reader(const std::vector<uint8_t>& v) : p_(v.data()), n_(v.size()) {}
  uint8_t u8();
  uint16_t u16();
  uint32_t u32();
  size_t left() const { return ok_ ? n_ - pos_ : 0; }
  size_t pos() const { return pos_; }
  bool ok() const { return ok_; }
  const uint8_t* here() const { return p_ + pos_; }
  void skip(size_t k);

 private:
  const uint8_t* p_;
  size_t n_, pos_ = 0;
  bool ok_ = true;
};

/// zigzag over an `bits`-bit two's-complement value (bits 1..64):
/// 0, -1, 1, -2 ... -> 0, 1, 2, 3 ...; result < 2^bits.
uint64_t zigzag(uint64_t v, unsigned bits);
/// Inverse of zigzag(); `z` < 2^bits; result modulo 2^bits.
uint64_t unzigzag(uint64_t z, unsigned bits);
/// Appends the LEB128 encoding of v.
void put_varint(std::vector<uint8_t>& b, uint64_t v);

enum class DecodeStatus { Ok, NeedMore, Error };
/// Reads one LEB128 varint of at most `max_bytes` bytes from p[0..n).
/// NeedMore when the bytes end inside it; Error when it runs longer.
DecodeStatus get_varint(const uint8_t* p, size_t n, size_t& used, uint64_t& v, unsigned max_bytes = kMaxVarintBytes);

// ---------------------------------------------------------------------------
// Frames

struct Frame {
  uint8_t type = 0;
  uint8_t seq = 0;
  std::vector<uint8_t> payload;
};

/// The bytes of a frame on the line. Throws std::invalid_argument for a
/// payload longer than kMaxPayload.
std::vector<uint8_t> build_frame(uint8_t type, uint8_t seq, const std::vector<uint8_t>& payload);
inline std::vector<uint8_t> build_frame(Type type, uint8_t seq, const std::vector<uint8_t>& payload) {
  return build_frame(static_cast<uint8_t>(type), seq, payload);
}

/// Incremental receiver of the byte stream: hunts for SOF outside a frame,
/// reads the header and `len` payload bytes, checks the CRC. A frame with a
/// wrong CRC is dropped and counted, and the hunt for SOF restarts with the
/// next byte (the dropped frame's bytes are not searched again, as on the
/// board). The caller reports the inter-byte timeout (64 byte times without
/// a byte inside a frame) with timeout().
class FrameParser {
 public:
  enum class Event { None, Frame, CrcError };
  /// Takes one byte. Frame: a good frame is in frame() (valid until the
  /// next push). CrcError: a frame was dropped.
  Event push(uint8_t byte);
  /// Inter-byte timeout: drops a partial frame (counted if one was open).
  void timeout();
  /// Back to hunting, no counters touched.
  void reset();
  bool in_frame() const { return state_ != State::Hunt; }
  const Frame& frame() const { return frame_; }

  uint64_t crc_errors = 0;   ///< frames dropped for a wrong CRC
  uint64_t timeouts = 0;     ///< partial frames dropped by timeout()
  uint64_t discarded = 0;    ///< bytes skipped while hunting for SOF
  uint64_t frames = 0;       ///< good frames

 private:
  enum class State { Hunt, Type, Seq, Len, Payload, CrcLo, CrcHi };
  State state_ = State::Hunt;
  Frame frame_;
  uint8_t len_ = 0;
  uint8_t crc_lo_ = 0;
  uint16_t crc_ = 0xFFFF;
};

// ---------------------------------------------------------------------------
// Records (RECORDS payload)

/// One record as the units take it: a branch record (addresses folded to
/// AddrW bits, insns and events saturated to 16 and 8 bits) or a val record
/// (value folded to AddrW bits, weight saturated to 16 bits, the RAP
/// engine's event weight).
struct LinkRecord {
  bool val = false;
  model::BranchRecord br{};  ///< branch records
  uint32_t value = 0;        ///< val records
  uint16_t weight = 0;       ///< val records
  bool operator==(const LinkRecord& o) const {
    return val == o.val && (val ? value == o.value && weight == o.weight : br == o.br);
  }
  bool operator!=(const LinkRecord& o) const { return !(*this == o); }
};

/// 2^bits - 1 for bits 1..32.
inline uint32_t addr_mask(unsigned addr_w) {
  return addr_w >= 32 ? 0xFFFFFFFFu : (uint32_t{1} << addr_w) - 1u;
}

/// Encoder state of a record stream (prev_next runs across frames; 0 after OPEN).
class RecordEncoder {
 public:
  explicit RecordEncoder(unsigned addr_w = 32) : addr_w_(addr_w) {}
  void reset() { prev_next_ = 0; }
  /// Appends the record's bytes (at most 1 + 4 * 5). The record's fields
  /// must already fit their widths (a wider field throws std::invalid_argument).
  void encode(const LinkRecord& r, std::vector<uint8_t>& out);
  /// Bytes encode() would append, without changing the state.
  size_t size(const LinkRecord& r) const;
  uint32_t prev_next() const { return prev_next_; }
  unsigned addr_w() const { return addr_w_; }

 private:
  unsigned addr_w_;
  uint32_t prev_next_ = 0;
};

/// Decoder state of a record stream. decode() reads one record from the
/// front of p[0..n): Ok (used bytes consumed, state advanced), NeedMore (the
/// bytes end inside the record; nothing consumed) or Error (a RecordError:
/// a tag with kind 7, a val tag other than 0x06, a varint longer than 5
/// bytes, a field wider than its width; `error` says which).
class RecordDecoder {
 public:
  explicit RecordDecoder(unsigned addr_w = 32) : addr_w_(addr_w) {}
  void reset() { prev_next_ = 0; }
  DecodeStatus decode(const uint8_t* p, size_t n, size_t& used, LinkRecord& out);
  /// Decodes a whole RECORDS payload (whole records only: a payload ending
  /// inside a record is an error). Returns false on error (state as after
  /// the last good record).
  bool decode_payload(const uint8_t* p, size_t n, std::vector<LinkRecord>& out);
  const std::string& error() const { return error_; }
  uint32_t prev_next() const { return prev_next_; }
  unsigned addr_w() const { return addr_w_; }

 private:
  unsigned addr_w_;
  uint32_t prev_next_ = 0;
  std::string error_;
};

// ---------------------------------------------------------------------------
// INFO block

struct UnitInfo {
  uint8_t unit = 0;  ///< the unit number REG_*, DUMP and RESULTS address
  uint8_t kind = 0;  ///< UnitKind
  std::vector<uint32_t> params;
  bool operator==(const UnitInfo& o) const { return unit == o.unit && kind == o.kind && params == o.params; }
};

struct BoardInfo {
  uint8_t proto = kProto;
  uint8_t board = 0;  ///< BoardId
  uint32_t clk_hz = 0;
  uint32_t baud = 0;
  uint16_t rxbuf = 0;
  std::vector<UnitInfo> units;
  bool operator==(const BoardInfo& o) const {
    return proto == o.proto && board == o.board && clk_hz == o.clk_hz && baud == o.baud && rxbuf == o.rxbuf &&
           units == o.units;
  }
};

/// The ID block (magic first; the INFO answer puts the session before it).
std::vector<uint8_t> encode_info(const BoardInfo& info);
/// Parses an ID block. Returns false with `error` set for a wrong magic, a
/// truncated block or trailing bytes. A protocol version other than kProto
/// is returned as read (the caller decides).
bool decode_info(const uint8_t* p, size_t n, BoardInfo& info, std::string& error);

// ---------------------------------------------------------------------------
// Unit entries (docs/boards.md, "Units, their indices, parameters and
// entries"): the DCR and BBV result entries of RESULT_DATA and the RAP
// engine's DUMP_DATA entry, little-endian.

inline constexpr size_t kDcrResultBytes = 10;  ///< phase u16, pred u16, depth u8, flags u8, hash u32
inline constexpr size_t kBbvResultBytes = 7;   ///< phase u16, pred u16, distance u16, flags u8
inline constexpr size_t kRapDumpBytes = 27;    ///< last u8, slot_valid u8, depth u8, prefix u32, cnt0..3 u40

void put_dcr_result(std::vector<uint8_t>& out, const model::DcrResult& r);
/// False when fewer than kDcrResultBytes bytes.
bool get_dcr_result(const uint8_t* p, size_t n, model::DcrResult& r);
/// flags: bit 0 changed, 1 matched, 2 scored, 3 correct (bits 7:4 zero;
/// ignored when read); the distance as its 16 low bits.
void put_bbv_result(std::vector<uint8_t>& out, const model::DetectorResult& r);
bool get_bbv_result(const uint8_t* p, size_t n, model::DetectorResult& r);
/// One dump beat (beat 0 the root, count[0] its counter); counters as their
/// 40 low bits; slot_valid and last as bit 0 (bits 7:1 zero; ignored when read).
void put_rap_beat(std::vector<uint8_t>& out, const model::RapDumpBeat& b, bool last);
bool get_rap_beat(const uint8_t* p, size_t n, model::RapDumpBeat& b, bool& last);

// The units' ID-block parameters as model configurations (docs/board_protocol.md,
// INFO block; the host and the fake board read them the same way). Each throws
// std::invalid_argument for a wrong number of parameters.
/// RAP: RangeW, Groups, QueueDepth, MaxBuf, BufDefault, CntW, TcamSlice.
model::RapEngineConfig rap_config_of(const UnitInfo& u);
/// DCR: Depth, SigEntries, MarkovEntries, IntervalReset.
model::DcrParams dcr_params_of(const UnitInfo& u);
/// BBV: Counters, SigW, Entries, MarkovEntries, IntervalInsns, Threshold.
model::DetectorParams bbv_params_of(const UnitInfo& u);

}  // namespace hwprof::link
