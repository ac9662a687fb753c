// hwprof_pkg: types shared by every hwprof core: the branch record of
// hwprof-spec.md section 2 and its kind encoding.
`default_nettype none

package hwprof_pkg;

  /// Address width of the branch record (low AddrW bits of real addresses).
  /// A package constant, not a module parameter, because packed struct
  /// typedefs cannot depend on module parameters.
  localparam int unsigned AddrW = 32;
  /// Saturating width of the per-record instruction count.
  localparam int unsigned InsnsW = 16;
  /// Saturating width of the per-record event count.
  localparam int unsigned EventsW = 8;

  /// Branch kind, encoded as in the trace library (host/lib/trace.h).
  typedef enum logic [2:0] {
    KindBr    = 3'd0,  // conditional direct branch
    KindJmp   = 3'd1,  // unconditional direct jump
    KindIjmp  = 3'd2,  // indirect jump
    KindCall  = 3'd3,  // direct call
    KindIcall = 3'd4,  // indirect call
    KindRet   = 3'd5   // return
  } kind_e;

  /// One retired control-flow instruction (hwprof-spec.md section 2).
  typedef struct packed {
    kind_e               kind;
    logic [AddrW-1:0]    pc;
    logic [AddrW-1:0]    target;
    logic                taken;
    logic [3:0]          ilen;
    logic [InsnsW-1:0]   insns;
    logic [EventsW-1:0]  events;
  } branch_rec_t;

  localparam int unsigned BranchRecW = $bits(branch_rec_t);

  // ---------------------------------------------------------------------
  // Path profiler (docs/path_stack.md).

  /// Path-stack class of a branch record (paper 000 Table 1).
  typedef enum logic [2:0] {
    ClsForward  = 3'd0,
    ClsBackward = 3'd1,
    ClsCall     = 3'd2,
    ClsReturn   = 3'd3,
    ClsIndirect = 3'd4
  } path_class_e;

  /// Path-stack operations of one class; PPCR bits 4c+3..4c.
  typedef struct packed {
    logic push;
    logic pop;
    logic updc;  // update-count
    logic upd;   // update
  } path_ops_t;

  localparam int unsigned NumClasses = 5;
  /// Width of the PPCR. Its fields, reset value (BL) and presets are in
  /// hwprof_path_reg_pkg, generated from data/regs/path.json.
  localparam int unsigned PpcrW = 32;

  /// Saturating widths of the descriptor's counters and of its extension
  /// counter.
  localparam int unsigned DescEventsW = 16;
  localparam int unsigned DescInsnsW = 24;
  localparam int unsigned ExtW = 2;

  /// A classified record: what the classifier stage hands the path stack.
  typedef struct packed {
    path_class_e         cls;
    path_ops_t           ops;
    logic                ext_try;  // backward class and PPCR.ext_loops
    logic [ExtW-1:0]     max_ext;
    logic [AddrW-1:0]    pc;
    logic [AddrW-1:0]    next;
    logic                taken;
    logic [InsnsW-1:0]   insns;
    logic [EventsW-1:0]  events;
  } path_rec_t;

  localparam int unsigned PathRecW = $bits(path_rec_t);

endpackage

`default_nettype wire
