#include "serial.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

namespace hwprof::link {

int64_t Channel::now_us() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

FdChannel::FdChannel(int fd, bool own, std::string name, uint32_t baud)
    : fd_(fd), own_(own), name_(std::move(name)), baud_(baud) {}

FdChannel::~FdChannel() {
  if (own_ && fd_ >= 0) ::close(fd_);
}

void FdChannel::write(const uint8_t* p, size_t n) {
  while (n) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        pollfd pf{fd_, POLLOUT, 0};
        ::poll(&pf, 1, 100);
        continue;
      }
      throw std::runtime_error(name_ + ": write failed: " + std::strerror(errno));
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

size_t FdChannel::read(uint8_t* p, size_t n, int64_t timeout_us) {
  const int64_t deadline = now_us() + timeout_us;
  for (;;) {
    const int64_t left = deadline - now_us();
    pollfd pf{fd_, POLLIN, 0};
    const int ms = left <= 0 ? 0 : static_cast<int>((left + 999) / 1000);
    const int r = ::poll(&pf, 1, ms);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(name_ + ": poll failed: " + std::strerror(errno));
    }
    if (r == 0) return 0;
    if (pf.revents & POLLIN) {
      const ssize_t k = ::read(fd_, p, n);
      if (k > 0) return static_cast<size_t>(k);
      if (k == 0) throw std::runtime_error(name_ + ": the device hung up (unplugged?)");
      if (errno == EINTR || errno == EAGAIN) continue;
      throw std::runtime_error(name_ + ": read failed: " + std::strerror(errno));
    }
    if (pf.revents & (POLLHUP | POLLERR | POLLNVAL))
      throw std::runtime_error(name_ + ": the device hung up (unplugged?)");
  }
}

void FdChannel::drain_input() {
  uint8_t buf[256];
  while (read(buf, sizeof buf, 0) > 0) {
  }
}

bool baud_constant(uint32_t baud, unsigned& speed) {
  switch (baud) {
#define HWPROF_B(n) \
  case n:           \
    speed = B##n;   \
    return true;
    HWPROF_B(9600)
    HWPROF_B(19200)
    HWPROF_B(38400)
    HWPROF_B(57600)
    HWPROF_B(115200)
    HWPROF_B(230400)
    HWPROF_B(460800)
    HWPROF_B(500000)
    HWPROF_B(576000)
    HWPROF_B(921600)
    HWPROF_B(1000000)
    HWPROF_B(1152000)
    HWPROF_B(1500000)
    HWPROF_B(2000000)
    HWPROF_B(2500000)
    HWPROF_B(3000000)
    HWPROF_B(3500000)
    HWPROF_B(4000000)
#undef HWPROF_B
    default:
      return false;
  }
}

namespace {
int open_port(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0) return fd;
  const int e = errno;
  if (e == ENOENT || e == ENODEV || e == ENXIO)
    throw std::runtime_error(path + ": no such device (" + std::strerror(e) + "; is the board plugged in? see `ls /dev/ttyUSB* /dev/ttyACM*`)");
  if (e == EACCES || e == EPERM)
    throw std::runtime_error(path + ": permission denied (add yourself to group dialout, then log in again)");
  if (e == EBUSY) throw std::runtime_error(path + ": device busy (another program has it open)");
  throw std::runtime_error(path + ": cannot open: " + std::strerror(e));
}
}  // namespace

SerialPort::SerialPort(const std::string& path, uint32_t baud) : FdChannel(open_port(path), true, path, baud) {
  unsigned speed = 0;
  if (!baud_constant(baud, speed)) throw std::runtime_error(path + ": baud rate " + std::to_string(baud) + " not supported");
  termios t{};
  if (::tcgetattr(fd_, &t) != 0) {
    if (errno == ENOTTY) throw std::runtime_error(path + ": not a serial port");
    throw std::runtime_error(path + ": tcgetattr failed: " + std::strerror(errno));
  }
  ::cfmakeraw(&t);
  t.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | PARENB | CRTSCTS | CSIZE);
  t.c_cflag |= CS8 | CLOCAL | CREAD;
  t.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  if (::cfsetispeed(&t, speed) != 0 || ::cfsetospeed(&t, speed) != 0 || ::tcsetattr(fd_, TCSANOW, &t) != 0)
    throw std::runtime_error(path + ": baud rate " + std::to_string(baud) + " not supported (" + std::strerror(errno) +
                             ")");
  ::tcflush(fd_, TCIOFLUSH);
}

}  // namespace hwprof::link
