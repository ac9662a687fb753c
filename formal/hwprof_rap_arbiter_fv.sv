/// hwprof_rap_arbiter_fv: formal harness of hwprof_rap_arbiter (make formal,
/// formal/rap_arbiter.sby, docs/verification.md "RAP engine"). Combinational:
/// every match vector and every table of pdepths, with the one assumption
/// that a matching entry's pdepth is a parent depth (< H), as in every TCAM
/// entry the engine writes. Asserts:
///   * hit_o = some entry matches (else the root is the longest match);
///   * pdepth_o is the deepest pdepth with a match: no matching entry is
///     deeper, and some matching entry has that pdepth;
///   * Legal = 1 (a correct table: at most one match per pdepth, which the
///     disjoint prefixes of one depth guarantee): idx_o is that entry, the
///     only one at pdepth_o (one-hot winner);
///   * Legal = 0 (any table): idx_o is the OR of the indices matching at
///     pdepth_o, the documented rule for an illegal table.
`default_nettype none

module hwprof_rap_arbiter_fv #(
  parameter int unsigned RangeW = 8,
  parameter int unsigned Groups = 6,
  parameter bit Legal = 1
) (
  input wire logic [Groups-1:0] match_i,
  input wire logic [Groups*$clog2(RangeW / 2 + 1)-1:0] pdepth_i
);
  localparam int unsigned H = RangeW / 2;
  localparam int unsigned IdxW = (Groups > 1) ? $clog2(Groups) : 1;
  localparam int unsigned DepthW = $clog2(RangeW / 2 + 1);

  logic              hit;
  logic [IdxW-1:0]   idx;
  logic [DepthW-1:0] pdepth;
  // The one-hot copy of the pdepths, as hwprof_rap_tcam_flags keeps it.
  logic [Groups*H-1:0] pdepth_hot;
  always_comb begin
    for (int unsigned e = 0; e < Groups; e++)
      for (int unsigned d = 0; d < H; d++)
        pdepth_hot[e*H + d] = pdepth_i[e*DepthW +: DepthW] == DepthW'(d);
  end
  hwprof_rap_arbiter #(.RangeW(RangeW), .Groups(Groups)) dut (
    .match_i, .pdepth_i, .pdepth_hot_i(pdepth_hot), .hit_o(hit), .idx_o(idx), .pdepth_o(pdepth));

  function automatic logic [DepthW-1:0] pd(int unsigned e);
    return pdepth_i[e*DepthW +: DepthW];
  endfunction

  logic             any, some_at;
  logic [IdxW-1:0]  or_at;
  logic [DepthW:0]  n_at;
  always_comb begin
    any = 1'b0;
    some_at = 1'b0;
    or_at = '0;
    n_at = '0;
    for (int unsigned e = 0; e < Groups; e++) begin
      if (match_i[e]) begin
        assume (32'(pd(e)) < H);
        any = 1'b1;
        if (pd(e) == pdepth) begin
          some_at = 1'b1;
          or_at = or_at | IdxW'(e);
          n_at = n_at + 1'b1;
        end
      end
    end
    if (Legal) begin
      for (int unsigned e = 0; e < Groups; e++)
        for (int unsigned f = e + 1; f < Groups; f++)
          assume (!(match_i[e] && match_i[f] && pd(e) == pd(f)));
    end

    assert (hit == any);
    if (hit) begin
      assert (some_at);
      for (int unsigned e = 0; e < Groups; e++)
        if (match_i[e]) assert (pd(e) <= pdepth);
      if (Legal) begin
        assert (32'(idx) < Groups);
        assert (match_i[idx] && pd(32'(idx)) == pdepth);
        assert (n_at == 1);
      end else begin
        assert (idx == or_at);
      end
    end
    cover (hit && pdepth == DepthW'(H - 1) && n_at == 1 && match_i[0]);
    cover (hit && 32'(idx) == Groups - 1 && $countones(match_i) == 3);
    cover (!hit);
  end

endmodule

`default_nettype wire
