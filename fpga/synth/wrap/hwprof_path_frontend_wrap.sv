// hwprof_path_frontend_wrap: synthesis wrapper for hwprof_path_frontend. All DUT inputs
// come from registers loaded over one serial pin and all DUT outputs land in
// registers folded into one serial pin (hwprof_synth_io_shell), so the Fmax that
// nextpnr reports is the core's register-to-register Fmax and the design
// fits every package. Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_path_frontend_wrap #(
  /// Records held by the branch queue; passed to hwprof_path_frontend.
  parameter int unsigned QueueDepth = 4,
  /// Number of path stack entries; passed to hwprof_path_frontend.
  parameter int unsigned Depth = 16,
  /// Maximum branches per path; passed to hwprof_path_frontend.
  parameter int unsigned MaxLen = 32
) (
  /// Clock.
  input  wire logic clk_i,
  /// Asynchronous active-low reset (synchronised inside).
  input  wire logic rst_ni,
  /// Serial input: DUT input bits, one per clock.
  input  wire logic sin_i,
  /// Load the shifted-in bits onto the DUT inputs.
  input  wire logic load_i,
  /// Serial output: signature of the DUT outputs.
  output logic      sout_o
);

  localparam int unsigned RecW    = hwprof_pkg::BranchRecW;
  localparam int unsigned AddrW   = hwprof_pkg::AddrW;
  localparam int unsigned EventsW = hwprof_pkg::DescEventsW;
  localparam int unsigned InsnsW  = hwprof_pkg::DescInsnsW;
  localparam int unsigned ExtW    = hwprof_pkg::ExtW;
  localparam int unsigned LenW    = $clog2(MaxLen + 1);
  localparam int unsigned CountW  = $clog2(Depth + 1);
  // DUT inputs: rec_valid_i, desc_ready_i, rec_data_i, csr_we_i,
  // csr_addr_i, csr_wdata_i.
  localparam int unsigned InW     = 2 + RecW + 1 + 4 + 32;
  // DUT outputs: rec_ready_o, desc_valid_o, the descriptor, csr_rdata_o.
  localparam int unsigned OutW    = 2 + AddrW + LenW + MaxLen + EventsW + InsnsW + ExtW + 3
                                    + CountW + 32;

  logic                    dut_rst_n;
  logic [InW-1:0]          dut_in;
  logic [OutW-1:0]         dut_out;

  logic                    rec_valid, rec_ready, desc_valid, desc_ready;
  hwprof_pkg::branch_rec_t rec_data;
  logic [AddrW-1:0]        start;
  logic [LenW-1:0]         length;
  logic [MaxLen-1:0]       dirs;
  logic [EventsW-1:0]      events;
  logic [InsnsW-1:0]       insns;
  logic [ExtW-1:0]         ext;
  logic                    incomplete, split, frame_end;
  logic [CountW-1:0]       depth;
  logic                    csr_we;
  logic [3:0]              csr_addr;
  logic [31:0]             csr_wdata, csr_rdata;

  assign {rec_valid, desc_ready, rec_data, csr_we, csr_addr, csr_wdata} = dut_in;
  assign dut_out = {rec_ready, desc_valid, start, length, dirs, events, insns, ext,
                    incomplete, split, frame_end, depth, csr_rdata};

  hwprof_synth_io_shell #(
    .InW (InW),
    .OutW(OutW)
  ) u_shell (
    .clk_i,
    .rst_ni,
    .sin_i,
    .load_i,
    .sout_o,
    .dut_rst_no(dut_rst_n),
    .dut_in_o  (dut_in),
    .dut_out_i (dut_out)
  );

  hwprof_path_frontend #(
    .QueueDepth(QueueDepth),
    .Depth     (Depth),
    .MaxLen    (MaxLen)
  ) u_dut (
    .clk_i,
    .rst_ni           (dut_rst_n),
    .rec_valid_i      (rec_valid),
    .rec_ready_o      (rec_ready),
    .rec_data_i       (rec_data),
    .desc_valid_o     (desc_valid),
    .desc_ready_i     (desc_ready),
    .desc_start_o     (start),
    .desc_length_o    (length),
    .desc_dirs_o      (dirs),
    .desc_events_o    (events),
    .desc_insns_o     (insns),
    .desc_ext_o       (ext),
    .desc_incomplete_o(incomplete),
    .desc_split_o     (split),
    .desc_frame_end_o (frame_end),
    .desc_depth_o     (depth),
    .csr_we_i         (csr_we),
    .csr_addr_i       (csr_addr),
    .csr_wdata_i      (csr_wdata),
    .csr_rdata_o      (csr_rdata)
  );

endmodule

`default_nettype wire
