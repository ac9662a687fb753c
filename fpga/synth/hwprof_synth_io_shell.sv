// hwprof_synth_io_shell: registered serial I/O around a core under synthesis, so
// that nextpnr measures the core register to register and a core with
// hundreds of port bits fits any package in five pins (clk, rst_n, sin,
// load, sout). Used only by the synthesis wrappers that fpga/synth/synth.py
// generates; it is a measurement harness, not a product interface.
//
// Input side: sin_i is registered, then shifted into a chain of InW flops
// (one bit per clock, the newest bit at index 0). While load_i (registered)
// is high, the chain is copied into the input register stage dut_in_o, so
// every DUT input is driven straight from a flop (no logic in front of it).
//
// Output side: every DUT output bit is registered (out_q, no logic behind the
// DUT), then folded into a multiple-input signature register (MISR): bit k of
// the signature takes bit k+1 XOR out_q[k], bit 0 leaves on sout_o. Each
// output bit reaches the pin through its own chain position, so no output is
// constant or equal to another as far as synthesis can prove, nothing is
// optimised away, and the signature path is one LUT deep with no high-fanout
// net (a parallel-load shift register would put load_q on OutW muxes).
//
// Reset: rst_ni (pin) is synchronised (asynchronous assert, synchronous
// release) and handed to the DUT as dut_rst_no. The shell's own flops carry
// no reset: they are data only, and leaving them plain keeps them out of the
// reset net's timing.
`default_nettype none

module hwprof_synth_io_shell #(
  /// Number of DUT input bits (>= 1).
  parameter int unsigned InW = 8,
  /// Number of DUT output bits (>= 1).
  parameter int unsigned OutW = 8
) (
  /// Clock of the shell and the DUT.
  input  wire logic             clk_i,
  /// Asynchronous active-low reset from the pin.
  input  wire logic             rst_ni,
  // Serial pins.
  /// Serial input, one DUT input bit per clock.
  input  wire logic             sin_i,
  /// Copy the input chain to the DUT inputs (level, sampled every clock).
  input  wire logic             load_i,
  /// Serial output: the oldest bit of the output signature.
  output logic                  sout_o,
  // DUT side.
  /// Synchronised active-low reset for the DUT.
  output logic                  dut_rst_no,
  /// DUT inputs, straight from the input register stage.
  output logic [InW-1:0]        dut_in_o,
  /// DUT outputs, registered in the cycle they appear.
  input  wire logic [OutW-1:0]  dut_out_i
);

  initial begin
    if (InW < 1) $fatal(1, "hwprof_synth_io_shell: InW must be >= 1");
    if (OutW < 1) $fatal(1, "hwprof_synth_io_shell: OutW must be >= 1");
  end

  // Reset synchroniser: the only flops with a reset.
  logic [1:0] rst_sync_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rst_sync_q <= '0;
    end else begin
      rst_sync_q <= {rst_sync_q[0], 1'b1};
    end
  end
  assign dut_rst_no = rst_sync_q[1];

  // Input pins registered once, so no path starts at a pad.
  logic sin_q, load_q;
  always_ff @(posedge clk_i) begin
    sin_q  <= sin_i;
    load_q <= load_i;
  end

  // Input chain and input register stage.
  logic [InW-1:0] chain_q, chain_d, in_q;
  if (InW == 1) begin : gen_chain_one
    assign chain_d = sin_q;
  end else begin : gen_chain_many
    assign chain_d = {chain_q[InW-2:0], sin_q};
  end
  // In chunks of at most 256 bits: one flip-flop cell thousands of bits wide
  // (the RAP arbiter's 2,816 inputs) exhausts the WebAssembly Yosys's call
  // stack in synth_ecp5's techmap.
  for (genvar c = 0; c < InW; c += 256) begin : gen_in_chunk
    localparam int unsigned ChW = (InW - c > 256) ? 256 : InW - c;
    always_ff @(posedge clk_i) begin
      chain_q[c +: ChW] <= chain_d[c +: ChW];
      if (load_q) in_q[c +: ChW] <= chain_q[c +: ChW];
    end
  end
  assign dut_in_o = in_q;

  // Output register stage and signature.
  logic [OutW-1:0] out_q, sig_q, sig_d;
  if (OutW == 1) begin : gen_sig_one
    assign sig_d = out_q;
  end else begin : gen_sig_many
    assign sig_d = {1'b0, sig_q[OutW-1:1]} ^ out_q;
  end
  always_ff @(posedge clk_i) begin
    out_q <= dut_out_i;
    sig_q <= sig_d;
  end
  assign sout_o = sig_q[0];

endmodule

`default_nettype wire
