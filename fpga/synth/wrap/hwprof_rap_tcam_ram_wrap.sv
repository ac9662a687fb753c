// hwprof_rap_tcam_ram_wrap: synthesis wrapper for hwprof_rap_tcam_ram (the RAM-based TCAM).
// All DUT inputs come from registers loaded over one serial pin and all DUT
// outputs land in registers folded into one serial pin (hwprof_synth_io_shell), so
// the Fmax that nextpnr reports is the core's register-to-register Fmax and
// the design fits every package. Measurement harness only: see
// docs/synthesis.md.
`default_nettype none

module hwprof_rap_tcam_ram_wrap #(
  /// Value width; passed to hwprof_rap_tcam_ram.
  parameter int unsigned RangeW = 32,
  /// Entries (child groups); passed to hwprof_rap_tcam_ram.
  parameter int unsigned Groups = 128,
  /// Bits per key slice; passed to hwprof_rap_tcam_ram.
  parameter int unsigned SliceW = 4
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

  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1;
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1);
  // DUT inputs: clear_i, key_next_i, set_i, set_idx_i, set_pdepth_i,
  // set_prefix_i, inv_i, inv_idx_i, rd_idx_i, sel_pdepth_i.
  localparam int unsigned InW  = 1 + RangeW + 1 + IdxW + DepthW + RangeW + 1 + IdxW + IdxW + DepthW;
  // DUT outputs: match_o, pdepth_o, busy_o, last_o, rd_valid_o, rd_pdepth_o,
  // rd_prefix_o, valid_o, sel_o.
  localparam int unsigned OutW = Groups + Groups * DepthW + 2 + 1 + DepthW + RangeW + Groups + Groups;

  logic              dut_rst_n;
  logic [InW-1:0]    dut_in;
  logic [OutW-1:0]   dut_out;

  logic                     clear, set, inv, busy, last, rd_valid;
  logic [RangeW-1:0]        key_next, set_prefix, rd_prefix;
  logic [IdxW-1:0]          set_idx, inv_idx, rd_idx;
  logic [DepthW-1:0]        set_pdepth, sel_pdepth, rd_pdepth;
  logic [Groups-1:0]        match, valid, sel;
  logic [Groups*DepthW-1:0] pdepth;

  assign {clear, key_next, set, set_idx, set_pdepth, set_prefix, inv, inv_idx, rd_idx, sel_pdepth} = dut_in;
  assign dut_out = {match, pdepth, busy, last, rd_valid, rd_pdepth, rd_prefix, valid, sel};

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

  hwprof_rap_tcam_ram #(
    .RangeW(RangeW),
    .Groups(Groups),
    .SliceW(SliceW)
  ) u_dut (
    .clk_i,
    .rst_ni      (dut_rst_n),
    .clear_i     (clear),
    .key_next_i  (key_next),
    .match_o     (match),
    .pdepth_o    (pdepth),
    .set_i       (set),
    .set_idx_i   (set_idx),
    .set_pdepth_i(set_pdepth),
    .set_prefix_i(set_prefix),
    .inv_i       (inv),
    .inv_idx_i   (inv_idx),
    .busy_o      (busy),
    .last_o      (last),
    .rd_idx_i    (rd_idx),
    .rd_valid_o  (rd_valid),
    .rd_pdepth_o (rd_pdepth),
    .rd_prefix_o (rd_prefix),
    .valid_o     (valid),
    .sel_pdepth_i(sel_pdepth),
    .sel_o       (sel)
  );

endmodule

`default_nettype wire
