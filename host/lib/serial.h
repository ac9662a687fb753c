// Byte channels for the board link (host/lib/board_link.h): a serial port
// (termios: raw 8N1, any standard baud rate up to 4,000,000, no flow
// control) and any other file descriptor (a pseudo-terminal, a socket).
// Errors are std::runtime_error with a message that names the device and
// says what to do (missing device, no permission, not a terminal, a baud
// rate the driver refuses).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hwprof::link {

/// A bidirectional byte stream with a read timeout.
class Channel {
 public:
  virtual ~Channel() = default;
  /// Writes every byte (blocking). Throws std::runtime_error on failure.
  virtual void write(const uint8_t* p, size_t n) = 0;
  /// Reads up to n bytes, waiting at most timeout_us for the first one.
  /// Returns the bytes read, 0 on timeout. Throws on failure or hang-up.
  virtual size_t read(uint8_t* p, size_t n, int64_t timeout_us) = 0;
  /// Discards bytes received and not read yet.
  virtual void drain_input() {}
  /// Microseconds on the channel's clock (steady clock by default; a
  /// simulated channel runs its own).
  virtual int64_t now_us() const;
  /// The line rate in bits/s (0: unknown or unpaced), for the host's timeouts.
  virtual uint32_t baud() const { return 0; }
};

/// A channel on an open file descriptor (closed on destruction when owned).
class FdChannel : public Channel {
 public:
  FdChannel(int fd, bool own, std::string name, uint32_t baud = 0);
  ~FdChannel() override;
  FdChannel(const FdChannel&) = delete;
  FdChannel& operator=(const FdChannel&) = delete;
  void write(const uint8_t* p, size_t n) override;
  size_t read(uint8_t* p, size_t n, int64_t timeout_us) override;
  void drain_input() override;
  uint32_t baud() const override { return baud_; }
  int fd() const { return fd_; }
  const std::string& name() const { return name_; }

 protected:
  int fd_;
  bool own_;
  std::string name_;
  uint32_t baud_;
};

/// A serial port (or pseudo-terminal) in raw mode: 8 data bits, no parity,
/// one stop bit, no flow control, `baud` bits/s.
class SerialPort : public FdChannel {
 public:
  /// Opens and configures `path`. Throws std::runtime_error: "DEV: no such
  /// device", "DEV: permission denied (add yourself to group dialout)",
  /// "DEV: not a serial port", "DEV: baud rate N not supported".
  SerialPort(const std::string& path, uint32_t baud);
};

/// The termios speed constant of a baud rate; false if there is none.
bool baud_constant(uint32_t baud, unsigned& speed);

}  // namespace hwprof::link
