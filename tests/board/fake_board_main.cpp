// hwprof_fake_board: the protocol-level fake board (fake_board.h) behind a
// pseudo-terminal, so that `hwprof board ... --port /dev/pts/N` talks to it
// as to a real board. Prints the pty's path on stdout, then serves until
// killed (or --exit-after-idle). The line is paced at --baud (each byte
// costs 10 bit times, both directions share one clock: an approximation of
// the full-duplex UART), and faults can be injected:
//   --fault rx-drop:N   drop the N-th byte from the host (0-based)
//   --fault rx-flip:N   flip bit 3 of the N-th byte from the host
//   --fault rx-noise:N  insert 0x00 0x7e 0x55 before the N-th byte from the host
//   --fault tx-drop:N / tx-flip:N / tx-noise:N   the same on the bytes to the host
//   --fault tx-mute:N   send nothing from the N-th byte to the host on (a dead line)
//   --fault dump-crc:1  corrupt the first DUMP's data after its CRC-32 (a board bug)
//   --fault reset:N     power-on reset of the board after N records
//   --fault res-tx-flip:K / res-tx-drop:K   flip a bit of / drop a byte of the entry of the K-th
//                       RESULT_DATA answer with an entry (1-based)
//   --fault res-rx-drop:K  lose the K-th RESULTS frame from the host
//   --fault res-rx-flip:K  flip a bit of the unit byte of the K-th RESULTS frame on the line
// Units (docs/boards.md order and parameters): --units path,rap,dcr,bbv
// (default path) with --path, --rap, --dcr, --bbv setting their parameters.
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "fake_board.h"

using namespace hwprof;

namespace {

struct Fault {
  std::string what;
  uint64_t at = 0;
  bool done = false;
};

int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void sleep_until(int64_t t) {
  const int64_t d = t - now_us();
  if (d > 0) std::this_thread::sleep_for(std::chrono::microseconds(d));
}

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr, "hwprof_fake_board: %s\n", msg);
  std::fprintf(stderr,
               "usage: hwprof_fake_board [--baud N] [--rxbuf N] [--drain N] [--units path,rap,dcr,bbv] "
               "[--path q,s,l,sets,ways,aw] [--rap w,g,q,mb,bd,cw,ts] [--dcr d,s,m,i] [--bbv c,s,e,m,i,t] "
               "[--board ID] [--magic XXXX] [--proto N] [--fault KIND:N]... [--exit-after-idle SECONDS]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  auto cfg = fake::default_fake_config();
  uint32_t baud = 0;
  std::vector<Fault> faults;
  double exit_idle = 0;
  std::string units = "path";
  std::map<std::string, std::vector<uint32_t>> params = {{"path", {4, 16, 32, 128, 4, 32}},
                                                         {"rap", {32, 31, 1024, 8, 4, 40, 4}},
                                                         {"dcr", {32, 64, 256, 1000000}},
                                                         {"bbv", {32, 10, 32, 256, 1000000, 128}}};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value for " + a).c_str());
      return argv[++i];
    };
    if (a == "--baud") baud = static_cast<uint32_t>(std::stoul(val()));
    else if (a == "--rxbuf") cfg.info.rxbuf = static_cast<uint16_t>(std::stoul(val()));
    else if (a == "--drain") cfg.drain_bytes = std::stoul(val());
    else if (a == "--board") cfg.info.board = static_cast<uint8_t>(std::stoul(val()));
    else if (a == "--proto") cfg.info.proto = static_cast<uint8_t>(std::stoul(val()));
    else if (a == "--magic") cfg.magic = val();
    else if (a == "--exit-after-idle") exit_idle = std::stod(val());
    else if (a == "--units") units = val();
    else if (a == "--path" || a == "--rap" || a == "--dcr" || a == "--bbv") {
      std::vector<uint32_t> p;
      std::string s = val();
      size_t pos = 0;
      while (pos <= s.size()) {
        const size_t c = s.find(',', pos);
        p.push_back(static_cast<uint32_t>(std::stoul(s.substr(pos, c - pos))));
        if (c == std::string::npos) break;
        pos = c + 1;
      }
      params[a.substr(2)] = p;
    } else if (a == "--fault") {
      const std::string s = val();
      const size_t c = s.find(':');
      if (c == std::string::npos) usage("--fault KIND:N");
      faults.push_back({s.substr(0, c), std::stoull(s.substr(c + 1))});
    } else {
      usage(("unknown option " + a).c_str());
    }
  }
  if (baud) cfg.info.baud = baud;
  {
    // The units in the board's order (path, rap, dcr, bbv), indices 0, 1, ...
    const std::pair<const char*, link::UnitKind> kinds[] = {{"path", link::UnitKind::PathProfiler},
                                                            {"rap", link::UnitKind::Rap},
                                                            {"dcr", link::UnitKind::Dcr},
                                                            {"bbv", link::UnitKind::Bbv}};
    const size_t sizes[] = {6, 7, 4, 6};
    cfg.info.units.clear();
    const std::string list = "," + units + ",";
    for (size_t k = 0; k < 4; ++k) {
      if (list.find(std::string(",") + kinds[k].first + ",") == std::string::npos) continue;
      const auto& p = params[kinds[k].first];
      if (p.size() != sizes[k]) usage((std::string("--") + kinds[k].first + " takes " + std::to_string(sizes[k]) +
                                       " values").c_str());
      cfg.info.units.push_back({static_cast<uint8_t>(cfg.info.units.size()), static_cast<uint8_t>(kinds[k].second), p});
    }
    if (cfg.info.units.empty()) usage("--units: none of path, rap, dcr, bbv");
  }
  for (auto& f : faults)
    if (f.what == "dump-crc") {
      cfg.corrupt_dump = true;
      f.done = true;
    } else if (f.what == "res-tx-flip" || f.what == "res-tx-drop" || f.what == "res-rx-drop" ||
               f.what == "res-rx-flip") {
      (f.what == "res-tx-flip"   ? cfg.res_tx_flip
       : f.what == "res-tx-drop" ? cfg.res_tx_drop
       : f.what == "res-rx-drop" ? cfg.res_rx_drop
                                 : cfg.res_rx_flip) = static_cast<unsigned>(f.at);
      f.done = true;
    }
  if (cfg.magic.size() != 4) usage("--magic takes 4 characters");
  fake::FakeBoard board(cfg);

  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    std::perror("hwprof_fake_board: posix_openpt");
    return 1;
  }
  const std::string slave = ptsname(master);
  // Keep the slave open ourselves: the master then never sees a hang-up when
  // the host closes and reopens it (host disconnect and reconnect), and the
  // line starts raw (no echo, no line editing) before the host configures it.
  const int keep = open(slave.c_str(), O_RDWR | O_NOCTTY);
  termios t{};
  tcgetattr(keep, &t);
  cfmakeraw(&t);
  tcsetattr(keep, TCSANOW, &t);
  std::printf("%s\n", slave.c_str());
  std::fflush(stdout);

  const int64_t byte_us_x1000 = baud ? int64_t{10} * 1'000'000'000 / baud : 0;  // ns per byte
  int64_t line_ns = now_us() * 1000;  // the line's clock (ns)
  uint64_t rx_count = 0, tx_count = 0;
  int64_t last_byte = now_us(), last_activity = now_us();
  const int64_t gap_us = std::max<int64_t>(1000, baud ? int64_t{64} * 10 * 1'000'000 / baud : 0);
  std::vector<uint8_t> out;
  auto fault = [&](const char* kind, uint64_t n) {
    for (auto& f : faults)
      if (!f.done && f.what == kind && f.at == n) {
        f.done = true;
        return true;
      }
    return false;
  };
  bool muted = false;
  auto send = [&](std::vector<uint8_t>& bytes) {
    std::vector<uint8_t> line;
    for (uint8_t b : bytes) {
      if (fault("tx-mute", tx_count)) muted = true;
      if (muted) {
        ++tx_count;
        continue;
      }
      if (fault("tx-noise", tx_count)) line.insert(line.end(), {0x00, 0x7e, 0x55});
      if (fault("tx-drop", tx_count)) {
        ++tx_count;
        continue;
      }
      if (fault("tx-flip", tx_count)) b ^= 0x08;
      line.push_back(b);
      ++tx_count;
    }
    // Paced in chunks of 32 bytes, each written when the line would have
    // carried it.
    for (size_t off = 0; off < line.size();) {
      const size_t k = std::min<size_t>(32, line.size() - off);
      if (baud) {
        line_ns = std::max(line_ns, now_us() * 1000) + static_cast<int64_t>(k) * byte_us_x1000;
        sleep_until(line_ns / 1000);
      }
      size_t done = 0;
      while (done < k) {
        const ssize_t w = write(master, line.data() + off + done, k - done);
        if (w > 0) done += static_cast<size_t>(w);
        else std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      off += k;
    }
    bytes.clear();
  };

  uint8_t buf[512];
  for (;;) {
    pollfd pf{master, POLLIN, 0};
    const int r = poll(&pf, 1, 1);
    const int64_t now = now_us();
    if (r > 0 && (pf.revents & POLLIN)) {
      const ssize_t n = read(master, buf, sizeof buf);
      if (n > 0) {
        if (baud) {
          line_ns = std::max(line_ns, now * 1000) + n * byte_us_x1000;
          sleep_until(line_ns / 1000);
        }
        for (ssize_t i = 0; i < n; ++i) {
          uint8_t b = buf[i];
          if (fault("rx-noise", rx_count)) {
            for (uint8_t x : {0x00, 0x7e, 0x55}) board.rx(x, out);
          }
          if (fault("rx-drop", rx_count)) {
            ++rx_count;
            continue;
          }
          if (fault("rx-flip", rx_count)) b ^= 0x08;
          ++rx_count;
          board.rx(b, out);
          for (auto& f : faults)
            if (!f.done && f.what == "reset" && board.records() >= f.at && board.session()) {
              f.done = true;
              board.power_on_reset();
            }
        }
        last_byte = last_activity = now_us();
      }
    } else if (now - last_byte > gap_us) {
      board.idle_timeout();
      last_byte = now;
    }
    board.tick();
    if (!out.empty()) send(out);
    if (exit_idle > 0 && now_us() - last_activity > static_cast<int64_t>(exit_idle * 1e6)) break;
  }
  close(keep);
  close(master);
  return 0;
}
