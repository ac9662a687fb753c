#include "byte_io.h"

#include <sys/stat.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>

#include "trace.h"

namespace hwprof::trace {

namespace {
constexpr size_t kChunk = 1 << 20;
constexpr uint8_t kZstdMagic[4] = {0x28, 0xb5, 0x2f, 0xfd};
}  // namespace

ByteSource::ByteSource(const std::string& path) : path_(path) {
  if (path == "-") {
    f_ = stdin;
    path_ = "<stdin>";
  } else {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw TraceError(path + ": is a directory, not a trace file");
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) throw TraceError(path + ": cannot open: " + std::strerror(errno));
    own_ = true;
    if (stat(path.c_str(), &st) == 0) file_size_ = static_cast<uint64_t>(st.st_size);
  }
  raw_.resize(kChunk);
  buf_.resize(kChunk);
  // Fill the raw buffer once to sniff the zstd magic number.
  raw_len_ = read_raw(raw_.data(), raw_.size());
  if (raw_len_ >= 4 && std::memcmp(raw_.data(), kZstdMagic, 4) == 0) {
    zstd_ = ZSTD_createDStream();
    ZSTD_initDStream(static_cast<ZSTD_DStream*>(zstd_));
  } else {
    // Uncompressed: the raw buffer is the data buffer.
    std::swap(raw_, buf_);
    len_ = raw_len_;
    raw_consumed_ = raw_len_;
    raw_len_ = 0;
  }
}

ByteSource::~ByteSource() {
  if (zstd_) ZSTD_freeDStream(static_cast<ZSTD_DStream*>(zstd_));
  if (own_ && f_) std::fclose(f_);
}

size_t ByteSource::read_raw(uint8_t* dst, size_t n) {
  size_t got = std::fread(dst, 1, n, f_);
  if (got < n) {
    if (std::ferror(f_)) throw TraceError(path_ + ": read error: " + std::strerror(errno));
    raw_eof_ = true;
  }
  return got;
}

bool ByteSource::refill() {
  pos_ = len_ = 0;
  if (!zstd_) {
    if (raw_eof_) return false;
    len_ = read_raw(buf_.data(), buf_.size());
    raw_consumed_ += len_;
    return len_ > 0;
  }
  auto* ds = static_cast<ZSTD_DStream*>(zstd_);
  while (len_ == 0) {
    if (raw_pos_ == raw_len_) {
      if (raw_eof_) {
        if (!frame_done_)
          throw TraceError(path_ + ": compressed byte " + std::to_string(raw_consumed_) +
                           ": zstd stream is truncated");
        return false;
      }
      raw_len_ = read_raw(raw_.data(), raw_.size());
      raw_pos_ = 0;
      if (raw_len_ == 0) continue;
    }
    ZSTD_inBuffer in{raw_.data(), raw_len_, raw_pos_};
    ZSTD_outBuffer out{buf_.data(), buf_.size(), 0};
    size_t ret = ZSTD_decompressStream(ds, &out, &in);
    if (ZSTD_isError(ret))
      throw TraceError(path_ + ": compressed byte " + std::to_string(raw_consumed_) +
                       ": zstd error: " + ZSTD_getErrorName(ret));
    raw_consumed_ += in.pos - raw_pos_;
    raw_pos_ = in.pos;
    frame_done_ = (ret == 0);
    len_ = out.pos;
  }
  return true;
}

bool ByteSource::getline(std::string& line) {
  line.clear();
  if (pos_ == len_ && !refill()) return false;
  for (;;) {
    const uint8_t* start = buf_.data() + pos_;
    const void* nl = std::memchr(start, '\n', len_ - pos_);
    if (nl) {
      size_t n = static_cast<const uint8_t*>(nl) - start;
      line.append(reinterpret_cast<const char*>(start), n);
      pos_ += n + 1;
      offset_ += n + 1;
      return true;
    }
    line.append(reinterpret_cast<const char*>(start), len_ - pos_);
    offset_ += len_ - pos_;
    pos_ = len_;
    if (!refill()) return true;  // last line without '\n'
  }
}

ByteSink::ByteSink(FILE* f, bool compress) : f_(f) {
  buf_.resize(kChunk);
  if (compress) {
    auto* cs = ZSTD_createCStream();
    ZSTD_CCtx_setParameter(cs, ZSTD_c_compressionLevel, 12);
    zstd_ = cs;
    out_.resize(ZSTD_CStreamOutSize());
  }
}

ByteSink::~ByteSink() {
  if (zstd_) ZSTD_freeCStream(static_cast<ZSTD_CStream*>(zstd_));
}

void ByteSink::write(const char* p, size_t n) {
  while (n > 0) {
    if (len_ == buf_.size()) flush_buf();
    size_t k = std::min(n, buf_.size() - len_);
    std::memcpy(buf_.data() + len_, p, k);
    len_ += k;
    p += k;
    n -= k;
  }
}

void ByteSink::write_raw(const void* p, size_t n) {
  if (n && std::fwrite(p, 1, n, f_) != n) error_ = true;
}

void ByteSink::flush_buf() {
  if (!zstd_) {
    write_raw(buf_.data(), len_);
  } else {
    auto* cs = static_cast<ZSTD_CStream*>(zstd_);
    ZSTD_inBuffer in{buf_.data(), len_, 0};
    while (in.pos < in.size) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      size_t r = ZSTD_compressStream2(cs, &out, &in, ZSTD_e_continue);
      if (ZSTD_isError(r)) error_ = true;
      write_raw(out_.data(), out.pos);
      if (error_) break;
    }
  }
  len_ = 0;
}

bool ByteSink::finish() {
  flush_buf();
  if (zstd_) {
    auto* cs = static_cast<ZSTD_CStream*>(zstd_);
    ZSTD_inBuffer in{nullptr, 0, 0};
    for (;;) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      size_t r = ZSTD_compressStream2(cs, &out, &in, ZSTD_e_end);
      if (ZSTD_isError(r)) {
        error_ = true;
        break;
      }
      write_raw(out_.data(), out.pos);
      if (r == 0) break;
    }
  }
  if (std::fflush(f_) != 0) error_ = true;
  return !error_;
}

}  // namespace hwprof::trace
