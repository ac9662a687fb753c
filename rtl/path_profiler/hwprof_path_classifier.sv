// hwprof_path_classifier: the first register stage of the path profiler front end.
// Turns a branch record into a classified record (hwprof_pkg::path_rec_t):
// its path-stack class, the class's operations read from the PPCR, the loop
// extension fields, and the address of the next instruction. See
// docs/path_stack.md, "Classes" and "Cycle behaviour".
//
// Classification (identical in model::classify and PathRecord::classify):
//   * call, icall -> ClsCall; ret -> ClsReturn; ijmp -> ClsIndirect;
//   * br, jmp (and the unused kind codes 6, 7, as in the model) taken with
//     target <= pc (unsigned, AddrW bits) -> ClsBackward, else ClsForward.
//   * ops = ppcr_i[4*cls +: 4] ({push, pop, updc, upd} = bits 3..0);
//     ext_try = (cls == ClsBackward) & ppcr_i[PathPpcrExtLoopsBit];
//     max_ext = ppcr_i[PathPpcrMaxExtLsb +: PathPpcrMaxExtW];
//     (field positions from hwprof_path_reg_pkg, data/regs/path.json);
//     next = taken ? target : pc + ilen (modulo 2^AddrW);
//     pc, taken, insns, events are copied.
//
// Handshake and ordering (identical in PathClassifier, path_classifier.h):
//   * in_ready_o = !valid_q | out_ready_i (combinational from out_ready_i):
//     a record per clock flows while the next stage accepts.
//   * On an input transfer the register takes the record classified with the
//     ppcr_i of that cycle, and valid_q <= 1 (a transfer and an output
//     transfer in the same cycle replace the record); otherwise an output
//     transfer empties the register.
//   * Latency one clock; the data register has no reset (only valid_q does).
`default_nettype none
`include "hwprof_assert.svh"

module hwprof_path_classifier (
  /// Clock.
  input  wire logic                          clk_i,
  /// Asynchronous active-low reset: empties the register.
  input  wire logic                          rst_ni,
  /// Current PPCR value; sampled with each record taken.
  input  wire logic [hwprof_pkg::PpcrW-1:0]  ppcr_i,
  // Input: branch records (from the branch queue).
  /// A record is offered.
  input  wire logic                          in_valid_i,
  /// The stage takes the record this cycle (!valid_q | out_ready_i).
  output logic                               in_ready_o,
  /// The record.
  input  wire hwprof_pkg::branch_rec_t       in_data_i,
  // Output: classified records (to the path stack).
  /// A classified record is held (registered).
  output logic                               out_valid_o,
  /// The next stage takes the record this cycle.
  input  wire logic                          out_ready_i,
  /// The classified record (registered; meaningful while out_valid_o).
  output hwprof_pkg::path_rec_t              out_data_o
);

  import hwprof_pkg::*;
  import hwprof_path_reg_pkg::*;

  initial begin
    if (PathPpcrMaxExtW != ExtW) $fatal(1, "hwprof_path_classifier: PPCR.max_ext must be ExtW bits");
  end

  logic        valid_q;
  path_rec_t   data_q, data_d;
  path_class_e cls;
  logic        in_go;

  assign in_ready_o = !valid_q | out_ready_i;
  assign in_go      = in_valid_i & in_ready_o;

  // Classification of the incoming record. Timing structure (no effect on
  // behaviour): the kind decides everything except backward vs forward, and
  // the target <= pc compare (a carry chain) only selects at the end.
  path_class_e kind_cls;   // class by kind; forward for br/jmp
  logic        is_brjmp;   // br, jmp or an unused kind code
  logic        backward;   // taken with target <= pc
  logic        is_bwd;     // class is backward

  always_comb begin
    unique case (in_data_i.kind)
      KindCall, KindIcall: begin kind_cls = ClsCall;     is_brjmp = 1'b0; end
      KindRet:             begin kind_cls = ClsReturn;   is_brjmp = 1'b0; end
      KindIjmp:            begin kind_cls = ClsIndirect; is_brjmp = 1'b0; end
      default:             begin kind_cls = ClsForward;  is_brjmp = 1'b1; end
    endcase
  end

  assign backward = in_data_i.taken && (in_data_i.target <= in_data_i.pc);
  assign is_bwd   = is_brjmp & backward;
  assign cls      = is_bwd ? ClsBackward : kind_cls;

  always_comb begin
    data_d.cls     = cls;
    data_d.ops     = is_bwd ? path_ops_t'(ppcr_i[4*ClsBackward +: 4]) :
                              path_ops_t'(ppcr_i[4*kind_cls +: 4]);
    data_d.ext_try = is_bwd & ppcr_i[PathPpcrExtLoopsBit];
    data_d.max_ext = ppcr_i[PathPpcrMaxExtLsb +: PathPpcrMaxExtW];
    data_d.pc      = in_data_i.pc;
    data_d.next    = in_data_i.taken ? in_data_i.target :
                     in_data_i.pc + AddrW'(in_data_i.ilen);
    data_d.taken   = in_data_i.taken;
    data_d.insns   = in_data_i.insns;
    data_d.events  = in_data_i.events;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else if (in_go) begin
      valid_q <= 1'b1;
    end else if (out_ready_i) begin
      valid_q <= 1'b0;
    end
  end

  // Data register: no reset (valid_q qualifies it).
  always_ff @(posedge clk_i) begin
    if (in_go) data_q <= data_d;
  end

  assign out_valid_o = valid_q;
  assign out_data_o  = data_q;

  // PPCR bits 31:23 are reserved (always 0 from hwprof_ppcr_reg).
  logic unused_ppcr;
  assign unused_ppcr = ^ppcr_i[PpcrW-1:PathPpcrMaxExtLsb+PathPpcrMaxExtW];

  `HWPROF_ASSERT(out_valid_held, out_valid_o && !out_ready_i |=> out_valid_o)
  `HWPROF_ASSERT(out_data_held, out_valid_o && !out_ready_i |=> $stable(out_data_o))

endmodule

`default_nettype wire
