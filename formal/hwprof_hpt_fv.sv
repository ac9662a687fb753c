/// hwprof_hpt_fv: formal harness of hwprof_hpt (make formal, formal/hpt.sby,
/// docs/verification.md). Every input is free: descriptors (keys from a small
/// space so that they repeat and collide in a set, metrics below 2^AccW),
/// the dump handshake and register writes (CTRL metric / index / skew /
/// policy, CMD clear / dump / clear_stats, STATUS, illegal values); the
/// design is reset in the first cycle and never again. The properties (a
/// reference table checked at every commit and every dumped entry) are
/// inside the RTL under `ifdef FORMAL (rtl/path_profiler/hwprof_hpt.sv): the
/// front end does not honour hierarchical references from a harness.
`default_nettype none

module hwprof_hpt_fv #(
  parameter int unsigned Sets = 2,
  parameter int unsigned Ways = 2,
  /// The accumulator width the sby file sets with HWPROF_FV_HPT_ACCW.
  parameter int unsigned AccW = 3
) (
  input wire logic        clk_i,
  input wire logic        rst_ni,
  input wire logic        in_valid_i,
  // Keys from a small space, wired narrow (the upper bits are constant 0):
  // start 0x0..0x1f, length 0..1, dirs 0..1 (64 keys); metrics < 2^AccW.
  input wire logic [4:0]  in_start_i,
  input wire logic        in_length_i,
  input wire logic        in_dirs_i,
  input wire logic [AccW-1:0] in_events_i,
  input wire logic [AccW-1:0] in_insns_i,
  input wire logic        in_incomplete_i,
  input wire logic        dump_ready_i,
  input wire logic        csr_we_i,
  input wire logic [hwprof_hpt_reg_pkg::HptAddrW-1:0] csr_addr_i,
  input wire logic [31:0] csr_wdata_i
);
  localparam int unsigned SetW = (Sets > 1) ? $clog2(Sets) : 1;
  localparam int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1;

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
  end

  logic              in_ready, dump_valid, dump_busy;
  logic [SetW-1:0]   dump_set;
  logic [WayW-1:0]   dump_way;
  logic [31:0]       dump_start, dump_dirs, dump_acc, csr_rdata;
  logic [5:0]        dump_length;

  hwprof_hpt #(.Sets(Sets), .Ways(Ways)) dut (
    .clk_i, .rst_ni, .in_valid_i, .in_ready_o(in_ready), .in_start_i(32'(in_start_i)), .in_length_i(6'(in_length_i)),
    .in_dirs_i(32'(in_dirs_i)), .in_events_i(16'(in_events_i)), .in_insns_i(24'(in_insns_i)), .in_incomplete_i,
    .dump_valid_o(dump_valid), .dump_ready_i, .dump_set_o(dump_set), .dump_way_o(dump_way),
    .dump_start_o(dump_start), .dump_length_o(dump_length), .dump_dirs_o(dump_dirs),
    .dump_acc_o(dump_acc), .dump_busy_o(dump_busy),
    .csr_we_i, .csr_addr_i, .csr_wdata_i, .csr_rdata_o(csr_rdata));

  // Port level: intake pauses exactly while a dump walk is busy; a dumped
  // accumulator fits the narrow width.
  always_comb begin
    if (!init_q) begin
      assert (in_ready == !dump_busy);
      if (dump_valid) assert (dump_busy && 32'(dump_acc) < (32'd1 << AccW));
    end
  end
endmodule

`default_nettype wire
