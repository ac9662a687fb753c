/// hwprof_board_fanout: offers one record to every unit that takes its kind
/// (TakesBranch / TakesVal bit per unit) and waits for the slowest: unit u's
/// valid is in_valid_i & wants(u) & !taken(u); in_ready_o rises in the cycle
/// where every wanting unit has taken the record or takes it now; then the
/// taken bits clear for the next record. A unit that does not want the
/// record counts as having taken it (a record no unit wants passes in one
/// cycle). Valid toward the units never depends on their ready.
/// Model: sim_models/board/fanout.h (Fanout).
`default_nettype none

module hwprof_board_fanout #(
  /// Units.
  parameter int unsigned NUnits = 1,
  /// Bit u: unit u takes branch records.
  parameter logic [NUnits-1:0] TakesBranch = '1,
  /// Bit u: unit u takes val records.
  parameter logic [NUnits-1:0] TakesVal = '0
) (
  /// Clock.
  input  wire logic               clk_i,
  /// Asynchronous reset, active low.
  input  wire logic               rst_ni,
  /// Drop the taken bits (OPEN).
  input  wire logic               clear_i,
  /// A record is offered.
  input  wire logic               in_valid_i,
  /// Every unit has taken it.
  output logic                    in_ready_o,
  /// The record is a val record.
  input  wire logic               in_is_val_i,
  /// Per unit: the record is offered.
  output logic [NUnits-1:0]       unit_valid_o,
  /// Per unit: the unit takes it.
  input  wire logic [NUnits-1:0]  unit_ready_i
);

  logic [NUnits-1:0] taken_q, taken_d, wants, done;

  assign wants        = in_is_val_i ? TakesVal : TakesBranch;
  assign unit_valid_o = {NUnits{in_valid_i}} & wants & ~taken_q;
  assign done         = ~wants | taken_q | unit_ready_i;
  assign in_ready_o   = in_valid_i && (&done);

  always_comb begin
    taken_d = taken_q | (unit_valid_o & unit_ready_i);
    if (in_ready_o || clear_i) taken_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) taken_q <= '0;
    else         taken_q <= taken_d;
  end

endmodule

`default_nettype wire
