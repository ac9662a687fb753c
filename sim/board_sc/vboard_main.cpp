// hwprof_vboard: the SystemC virtual board. hwprof_board_core (rtl/board/,
// Verilated with --sc: the board shell and the path profiler) inside a
// SystemC model with
//  - its clock (24 MHz) and a power-on reset;
//  - a UART line model: the host's bytes are shifted onto uart_rx_i at the
//    board's baud rate (start bit, 8 data bits LSB first, stop bit), and
//    uart_tx_o is sampled in the middle of each bit back into bytes;
//  - a pseudo-terminal bridge (posix_openpt): the host's side is the pty,
//    whose path is printed on stdout, so `hwprof board run --port
//    /dev/pts/N` talks to the simulation exactly as to a real board.
// Usage: hwprof_vboard [--board virtual|ulx3s|ulx3s-soc] [--baud 3000000|115200] [--wave FILE.fst]
//                      [--exit-after-idle SECONDS]
// --board ulx3s: the ULX3S build's units (path, RAP at Groups 31, DCR, BBV)
// as board 2, 3,000,000 baud only. --board ulx3s-soc (builds with the SoC,
// HWPROF_VBOARD_SOC): the same with the PicoRV32 SoC unit
// (hwprof_board_soc, 128 KB of RAM; `hwprof board soc`).
// Simulated time runs as fast as the host allows; when the line has been
// quiet for 1000 byte times the model waits for the host in wall time.
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <systemc>
#include <type_traits>
#include <utility>
#include <verilated.h>
#include <verilated_fst_sc.h>

#include "Vvboard_115200.h"
#include "Vvboard_3000000.h"
#include "Vvboard_ulx3s.h"
#if HWPROF_VBOARD_SOC
#include "Vvboard_ulx3s_soc.h"
#endif

namespace {

constexpr double kClkHz = 24e6;

struct Options {
  uint32_t baud = 3000000;
  std::string wave;
  double exit_idle = 0;
};

double wall_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Whether the Verilated top has hwprof_board_core's port for an extra unit
/// (ext_*: idle here; hwprof_board_soc drives it from its SoC inside).
template <typename T, typename = void>
struct HasExtPort : std::false_type {};
template <typename T>
struct HasExtPort<T, std::void_t<decltype(std::declval<T&>().ext_rec_valid_i)>> : std::true_type {};

/// The line model and the pty bridge around one Verilated board core.
template <typename Top>
struct VirtualBoard : sc_core::sc_module {
  SC_HAS_PROCESS(VirtualBoard);

  sc_core::sc_clock clk{"clk", sc_core::sc_time(1e12 / kClkHz, sc_core::SC_PS)};
  sc_core::sc_signal<bool> rst_n{"rst_n"};
  sc_core::sc_signal<bool> rx{"rx", true};  // host -> board (uart_rx_i), idle high
  sc_core::sc_signal<bool> tx{"tx"};  // board -> host (uart_tx_o)
  std::unique_ptr<Top> top;
  std::vector<std::unique_ptr<sc_core::sc_interface>> probes;

  int master = -1;
  const Options& opt;
  sc_core::sc_time bit;
  std::deque<uint8_t> to_board;
  double last_activity = wall_s();
  uint64_t rx_bytes = 0, tx_bytes = 0;

  template <typename Port>
  void bind_probe(Port& p) {
    using T = typename std::remove_reference_t<Port>::data_type;
    auto s = std::make_unique<sc_core::sc_signal<T>>();
    p(*s);
    probes.push_back(std::move(s));
  }

  VirtualBoard(sc_core::sc_module_name n, int master_fd, const Options& o)
      : sc_core::sc_module(n), master(master_fd), opt(o), bit(sc_core::sc_time(1e12 / o.baud, sc_core::SC_PS)) {
    top = std::make_unique<Top>("core");
    top->clk_i(clk);
    top->rst_ni(rst_n);
    top->uart_rx_i(rx);
    top->uart_tx_o(tx);
    bind_probe(top->probe_unit_rst_o);
    bind_probe(top->probe_rec_valid_o);
    bind_probe(top->probe_rec_ready_o);
    bind_probe(top->probe_rec_data_o);
    bind_probe(top->probe_csr_we_o);
    bind_probe(top->probe_csr_addr_o);
    bind_probe(top->probe_csr_wdata_o);
    bind_probe(top->probe_dump_start_o);
    bind_probe(top->probe_dump_ready_o);
    bind_probe(top->probe_res_ready_o);
    if constexpr (HasExtPort<Top>::value) {  // no extra unit: its inputs stay 0
      bind_probe(top->ext_rec_valid_i);
      bind_probe(top->ext_rec_ready_o);
      bind_probe(top->ext_rec_data_i);
      bind_probe(top->ext_rst_no);
      bind_probe(top->ext_csr_we_o);
      bind_probe(top->ext_csr_addr_o);
      bind_probe(top->ext_csr_wdata_o);
      bind_probe(top->ext_csr_rdata_i);
    }
    SC_THREAD(reset_thread);
    SC_THREAD(line_to_board);
    SC_THREAD(line_to_host);
    SC_THREAD(pty_poll);
  }

  void reset_thread() {
    rst_n.write(false);
    wait(10 * clk.period());
    rst_n.write(true);
  }

  /// Shifts the host's bytes onto uart_rx_i at the baud rate.
  void line_to_board() {
    for (;;) {
      if (to_board.empty()) {
        wait(bit);
        continue;
      }
      const uint8_t b = to_board.front();
      to_board.pop_front();
      rx.write(false);
      wait(bit);
      for (int i = 0; i < 8; ++i) {
        rx.write(((b >> i) & 1) != 0);
        wait(bit);
      }
      rx.write(true);
      wait(bit);
      ++rx_bytes;
      last_activity = wall_s();
    }
  }

  /// Samples uart_tx_o in the middle of each bit into bytes for the host.
  void line_to_host() {
    for (;;) {
      wait(tx.negedge_event());
      wait(bit / 2);
      if (tx.read()) continue;  // a glitch, not a start bit
      uint8_t b = 0;
      for (int i = 0; i < 8; ++i) {
        wait(bit);
        if (tx.read()) b = static_cast<uint8_t>(b | (1u << i));
      }
      wait(bit);  // stop bit (a framing error would show as a CRC error)
      ssize_t w;
      do w = ::write(master, &b, 1);
      while (w < 0 && errno == EAGAIN);
      ++tx_bytes;
      last_activity = wall_s();
    }
  }

  /// Moves the host's bytes from the pty into the line model once per byte
  /// time; when the line has been quiet for 1000 byte times (the board is
  /// idle), waits for the host in wall time.
  void pty_poll() {
    uint64_t quiet = 0;
    for (;;) {
      wait(10 * bit);
      uint8_t buf[256];
      const bool idle = to_board.empty() && tx.read();
      pollfd pf{master, POLLIN, 0};
      const int r = ::poll(&pf, 1, idle && quiet > 1000 ? 5 : 0);
      if (r > 0 && (pf.revents & POLLIN)) {
        const ssize_t n = ::read(master, buf, sizeof buf);
        if (n > 0) {
          to_board.insert(to_board.end(), buf, buf + n);
          quiet = 0;
          last_activity = wall_s();
          continue;
        }
      }
      quiet = idle ? quiet + 1 : 0;
      if (opt.exit_idle > 0 && wall_s() - last_activity > opt.exit_idle) sc_core::sc_stop();
    }
  }
};

int open_pty(std::string& slave, int& keep) {
  const int m = posix_openpt(O_RDWR | O_NOCTTY);
  if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0) {
    std::perror("hwprof_vboard: posix_openpt");
    std::exit(1);
  }
  slave = ptsname(m);
  // Keep the slave open: no hang-up when the host closes and reopens it, and
  // a raw line before the host configures it.
  keep = ::open(slave.c_str(), O_RDWR | O_NOCTTY);
  termios t{};
  tcgetattr(keep, &t);
  cfmakeraw(&t);
  tcsetattr(keep, TCSANOW, &t);
  return m;
}

template <typename Top>
int run(const Options& o) {
  std::string slave;
  int keep = -1;
  const int master = open_pty(slave, keep);
  VirtualBoard<Top> vb("vboard", master, o);
  std::unique_ptr<VerilatedFstSc> fst;
  if (!o.wave.empty()) {
    Verilated::traceEverOn(true);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    fst = std::make_unique<VerilatedFstSc>();
    vb.top->trace(fst.get(), 99);
    fst->open(o.wave.c_str());
  }
  std::printf("%s\n", slave.c_str());
  std::fflush(stdout);
  sc_core::sc_start();
  if (fst) fst->close();
  std::fprintf(stderr, "hwprof_vboard: %.6f s simulated, %llu bytes in, %llu bytes out\n",
               sc_core::sc_time_stamp().to_seconds(), static_cast<unsigned long long>(vb.rx_bytes),
               static_cast<unsigned long long>(vb.tx_bytes));
  ::close(keep);
  ::close(master);
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  Options o;
  std::string board = "virtual";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--baud" && i + 1 < argc) o.baud = static_cast<uint32_t>(std::stoul(argv[++i]));
    else if (a == "--board" && i + 1 < argc) board = argv[++i];
    else if (a == "--wave" && i + 1 < argc) o.wave = argv[++i];
    else if (a == "--exit-after-idle" && i + 1 < argc) o.exit_idle = std::stod(argv[++i]);
    else if (a.rfind("+verilator", 0) == 0) continue;
    else {
      std::fprintf(stderr, "usage: hwprof_vboard [--board virtual|ulx3s|ulx3s-soc] [--baud 3000000|115200] "
                           "[--wave FILE.fst] [--exit-after-idle S]\n");
      return 2;
    }
  }
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_INSTANCE_EXISTS_, sc_core::SC_DO_NOTHING);
  if (board == "ulx3s" || board == "ulx3s-soc") {
    if (o.baud != 3000000) {
      std::fprintf(stderr, "hwprof_vboard: --board %s: built for 3000000 baud only\n", board.c_str());
      return 2;
    }
    if (board == "ulx3s") return run<Vvboard_ulx3s>(o);
#if HWPROF_VBOARD_SOC
    return run<Vvboard_ulx3s_soc>(o);
#else
    std::fprintf(stderr, "hwprof_vboard: --board ulx3s-soc: this build has no SoC (PicoRV32 was not in the venv "
                         "when CMake ran)\n");
    return 2;
#endif
  }
  if (board != "virtual") {
    std::fprintf(stderr, "hwprof_vboard: --board %s: virtual, ulx3s or ulx3s-soc\n", board.c_str());
    return 2;
  }
  if (o.baud == 3000000) return run<Vvboard_3000000>(o);
  if (o.baud == 115200) return run<Vvboard_115200>(o);
  std::fprintf(stderr, "hwprof_vboard: --baud %u: built for 3000000 and 115200 only\n", o.baud);
  return 2;
}
