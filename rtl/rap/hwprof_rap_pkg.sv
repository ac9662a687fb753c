// hwprof_rap_pkg: types and helpers shared by the RAP engine's units
// (docs/rap_engine.md): the prefix mask of a tree depth (the TCAMs' ternary
// mask and the engine's split prefix), the node count of a tree, and the
// statistics events and counters that the engine
// reports to its register block (hwprof_rap_regs).
`default_nettype none

package hwprof_rap_pkg;

  /// Mask of the top 2 * depth bits of a range_w-bit value (the prefix of a
  /// node at that depth), in the low range_w bits of the result; the caller
  /// truncates to range_w bits. depth 0..range_w / 2, range_w 2..64 (64: the
  /// 2-D engine's interleaved keys, docs/rap2d.md).
  function automatic logic [63:0] prefix_mask(int unsigned range_w, int unsigned depth);
    return ~(64'hffff_ffff_ffff_ffff >> (2 * depth)) >> (64 - range_w);
  endfunction

  /// Nodes of a tree with `groups` child groups: the root plus four per group.
  function automatic logic [31:0] nodes_of(int unsigned groups);
    return 32'(groups) * 32'd4 + 32'd1;
  endfunction

  // Statistics: each counter has a one-bit event (the engine's strobe of the
  // cycle) and a 32-bit saturating count (hwprof_stat_bank, same field order).
  // Tree statistics: shown through the register port's snapshot in a pass.
  typedef struct packed {logic pairs, splits, skipped, sched_passes, cap_passes, merges;} tree_events_t;
  typedef struct packed {logic [31:0] pairs, splits, skipped, sched_passes, cap_passes, merges;} tree_stats_t;
  // Flow statistics: always shown live.
  typedef struct packed {logic raw, stall_flush, stall_cap, stall_sched, in_stall, stall_tcam;} flow_events_t;
  typedef struct packed {logic [31:0] raw, stall_flush, stall_cap, stall_sched, in_stall, stall_tcam;} flow_stats_t;

endpackage

`default_nettype wire
