/// hwprof_path_stack_fv: formal harness of hwprof_path_stack (make formal,
/// formal/path_stack.sby, docs/verification.md). Every input is free (the
/// record's class, operations, extension fields, addresses and counts, the
/// output's ready); the design is reset in the first cycle and never again.
/// The properties are inside the RTL under `ifdef FORMAL`
/// (rtl/path_profiler/hwprof_path_stack.sv): the front end does not honour
/// hierarchical references from a harness into the design.
`default_nettype none

module hwprof_path_stack_fv #(
  parameter int unsigned Depth = 4,
  parameter int unsigned MaxLen = 4,
  /// 1: narrow data (addresses 0..3, counts 0..1) for the bounded storage
  /// check, whose solver time grows fast with the data width; entries still
  /// differ in start, length, directions, extension and incomplete.
  parameter bit Narrow = 0
) (
  input wire logic                  clk_i,
  input wire logic                  rst_ni,
  input wire logic                  in_valid_i,
  input wire hwprof_pkg::path_rec_t in_data_i,
  input wire logic                  out_ready_i
);
  localparam int unsigned LenW = $clog2(MaxLen + 1);
  localparam int unsigned CountW = $clog2(Depth + 1);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
  always_comb begin
    if (init_q) assume (!rst_ni);
    else assume (rst_ni);
  end

  if (Narrow) begin : gen_narrow
    always_comb begin
      assume (in_data_i.pc < 4 && in_data_i.next < 4);
      assume (in_data_i.insns < 2 && in_data_i.events < 2);
    end
  end

  logic                               in_ready, out_valid;
  logic [hwprof_pkg::AddrW-1:0]       out_start;
  logic [LenW-1:0]                    out_length;
  logic [MaxLen-1:0]                  out_dirs;
  logic [hwprof_pkg::DescEventsW-1:0] out_events;
  logic [hwprof_pkg::DescInsnsW-1:0]  out_insns;
  logic [hwprof_pkg::ExtW-1:0]        out_ext;
  logic                               out_incomplete, out_split, out_frame_end;
  logic [CountW-1:0]                  out_depth, count;
  logic [31:0] st_records, st_emitted, st_incomplete, st_splits, st_overflows, st_empty_pops, st_stalls;

  hwprof_path_stack #(.Depth(Depth), .MaxLen(MaxLen)) dut (
    .clk_i, .rst_ni, .in_valid_i, .in_ready_o(in_ready), .in_data_i,
    .out_valid_o(out_valid), .out_ready_i, .out_start_o(out_start), .out_length_o(out_length),
    .out_dirs_o(out_dirs), .out_events_o(out_events), .out_insns_o(out_insns), .out_ext_o(out_ext),
    .out_incomplete_o(out_incomplete), .out_split_o(out_split), .out_frame_end_o(out_frame_end),
    .out_depth_o(out_depth), .count_o(count),
    .stat_records_o(st_records), .stat_emitted_o(st_emitted), .stat_incomplete_o(st_incomplete),
    .stat_splits_o(st_splits), .stat_overflows_o(st_overflows), .stat_empty_pops_o(st_empty_pops),
    .stat_stall_cycles_o(st_stalls));

  // Port-level: the ready rule.
  always_comb begin
    if (!init_q) assert (in_ready == (!out_valid || out_ready_i));
  end
endmodule

`default_nettype wire
