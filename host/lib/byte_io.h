// Byte-level input and output for trace files: plain files, stdin/stdout and
// transparent zstd (de)compression. Internal to the trace library.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace hwprof::trace {

/// Sequential byte input. Detects a zstd frame by its magic number and
/// decompresses on the fly.
class ByteSource {
 public:
  /// Opens `path` ("-" = stdin); throws TraceError naming the file.
  explicit ByteSource(const std::string& path);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  /// Next byte, or -1 at end of input.
  int get() {
    if (pos_ == len_ && !refill()) return -1;
    ++offset_;
    return buf_[pos_++];
  }
  /// Next byte without consuming it, or -1 at end.
  int peek() {
    if (pos_ == len_ && !refill()) return -1;
    return buf_[pos_];
  }
  /// Reads a line (without '\n') into `line`; false at end of input.
  bool getline(std::string& line);
  /// Offset of the next byte in the decompressed stream.
  uint64_t offset() const { return offset_; }
  /// Bytes consumed from the file itself (compressed bytes if compressed).
  uint64_t raw_consumed() const { return raw_consumed_; }
  uint64_t file_size() const { return file_size_; }
  bool compressed() const { return zstd_ != nullptr; }
  const std::string& path() const { return path_; }

 private:
  bool refill();
  size_t read_raw(uint8_t* dst, size_t n);

  std::string path_;
  FILE* f_ = nullptr;
  bool own_ = false;
  void* zstd_ = nullptr;  // ZSTD_DStream*
  std::vector<uint8_t> raw_, buf_;
  size_t raw_pos_ = 0, raw_len_ = 0;
  size_t pos_ = 0, len_ = 0;
  uint64_t offset_ = 0, raw_consumed_ = 0, file_size_ = 0;
  bool raw_eof_ = false;
  bool frame_done_ = true;
};

/// Sequential byte output with optional zstd compression.
class ByteSink {
 public:
  ByteSink(FILE* f, bool compress);
  ~ByteSink();
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;
  void put(uint8_t b) {
    if (len_ == buf_.size()) flush_buf();
    buf_[len_++] = b;
  }
  void write(const char* p, size_t n);
  /// Flushes everything (ends the zstd frame); returns false on I/O error.
  bool finish();

 private:
  void flush_buf();
  void write_raw(const void* p, size_t n);
  FILE* f_;
  void* zstd_ = nullptr;  // ZSTD_CStream*
  std::vector<uint8_t> buf_, out_;
  size_t len_ = 0;
  bool error_ = false;
};

}  // namespace hwprof::trace
