// hwprof_path_stack_wrap: synthesis wrapper for hwprof_path_stack. All DUT inputs come
// from registers loaded over one serial pin and all DUT outputs land in
// registers folded into one serial pin (hwprof_synth_io_shell), so the Fmax that
// nextpnr reports is the core's register-to-register Fmax and the design
// fits every package. Measurement harness only: see docs/synthesis.md.
`default_nettype none

module hwprof_path_stack_wrap #(
  /// Number of stack entries; passed to hwprof_path_stack.
  parameter int unsigned Depth = 16,
  /// Maximum branches per path; passed to hwprof_path_stack.
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

  localparam int unsigned RecW    = hwprof_pkg::PathRecW;
  localparam int unsigned AddrW   = hwprof_pkg::AddrW;
  localparam int unsigned EventsW = hwprof_pkg::DescEventsW;
  localparam int unsigned InsnsW  = hwprof_pkg::DescInsnsW;
  localparam int unsigned ExtW    = hwprof_pkg::ExtW;
  localparam int unsigned LenW    = $clog2(MaxLen + 1);
  localparam int unsigned CountW  = $clog2(Depth + 1);
  localparam int unsigned StatW   = 32;
  // DUT inputs: in_valid_i, out_ready_i, in_data_i.
  localparam int unsigned InW     = 2 + RecW;
  // DUT outputs: in_ready_o, out_valid_o, the descriptor, count_o and the
  // seven statistics counters.
  localparam int unsigned OutW    = 2 + AddrW + LenW + MaxLen + EventsW + InsnsW + ExtW + 3
                                    + CountW + CountW + 7 * StatW;

  logic                  dut_rst_n;
  logic [InW-1:0]        dut_in;
  logic [OutW-1:0]       dut_out;

  logic                  in_valid, in_ready, out_valid, out_ready;
  hwprof_pkg::path_rec_t in_data;
  logic [AddrW-1:0]      start;
  logic [LenW-1:0]       length;
  logic [MaxLen-1:0]     dirs;
  logic [EventsW-1:0]    events;
  logic [InsnsW-1:0]     insns;
  logic [ExtW-1:0]       ext;
  logic                  incomplete, split, frame_end;
  logic [CountW-1:0]     depth, count;
  logic [StatW-1:0]      st_records, st_emitted, st_incomplete, st_splits;
  logic [StatW-1:0]      st_overflows, st_empty_pops, st_stall;

  assign {in_valid, out_ready, in_data} = dut_in;
  assign dut_out = {in_ready, out_valid, start, length, dirs, events, insns, ext,
                    incomplete, split, frame_end, depth, count,
                    st_records, st_emitted, st_incomplete, st_splits,
                    st_overflows, st_empty_pops, st_stall};

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

  hwprof_path_stack #(
    .Depth (Depth),
    .MaxLen(MaxLen)
  ) u_dut (
    .clk_i,
    .rst_ni             (dut_rst_n),
    .in_valid_i         (in_valid),
    .in_ready_o         (in_ready),
    .in_data_i          (in_data),
    .out_valid_o        (out_valid),
    .out_ready_i        (out_ready),
    .out_start_o        (start),
    .out_length_o       (length),
    .out_dirs_o         (dirs),
    .out_events_o       (events),
    .out_insns_o        (insns),
    .out_ext_o          (ext),
    .out_incomplete_o   (incomplete),
    .out_split_o        (split),
    .out_frame_end_o    (frame_end),
    .out_depth_o        (depth),
    .count_o            (count),
    .stat_records_o     (st_records),
    .stat_emitted_o     (st_emitted),
    .stat_incomplete_o  (st_incomplete),
    .stat_splits_o      (st_splits),
    .stat_overflows_o   (st_overflows),
    .stat_empty_pops_o  (st_empty_pops),
    .stat_stall_cycles_o(st_stall)
  );

endmodule

`default_nettype wire
