// hwprof_prim_pkg: width-generic helper functions for datapaths, used inline
// (combinational, no state). Functions take and return 64-bit values and the
// width as an argument, because a function cannot take a width parameter
// (no parameterized classes in the synthesis front end); the caller passes
// a constant width and truncates the result, and synthesis folds the rest:
//   cnt_d = CntW'(hwprof_prim_pkg::sat_add(64'(cnt_q), 64'(inc), CntW));
// C++ twins: sim_models/common/prim.h (hwprof::model::sat_add, mask_of, ...).
`default_nettype none

package hwprof_prim_pkg;

  /// All ones in the low w bits (w = 0..64).
  function automatic logic [63:0] mask_of(int unsigned w);
    if (w >= 64) return '1;
    return (64'd1 << w) - 64'd1;
  endfunction

  /// acc + x saturated at the w-bit maximum (acc < 2^w; x any 64-bit value).
  function automatic logic [63:0] sat_add(logic [63:0] acc, logic [63:0] x, int unsigned w);
    logic [64:0] sum;
    sum = {1'b0, acc} + {1'b0, x};
    if (sum > {1'b0, mask_of(w)}) return mask_of(w);
    return sum[63:0];
  endfunction

  /// acc + 1 saturated at the w-bit maximum (acc < 2^w).
  function automatic logic [63:0] sat_inc(logic [63:0] acc, int unsigned w);
    return sat_add(acc, 64'd1, w);
  endfunction

  /// Circular pointer increment: p + 1, wrapping from depth - 1 to 0
  /// (p < depth).
  function automatic logic [63:0] wrap_inc(logic [63:0] p, int unsigned depth);
    if (p == 64'(depth) - 64'd1) return '0;
    return p + 64'd1;
  endfunction

endpackage

`default_nettype wire
