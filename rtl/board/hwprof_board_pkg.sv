/// hwprof_board_pkg: constants of the board link protocol (docs/board_protocol.md)
/// and the byte-serial CRC functions of the board shell.
`default_nettype none

package hwprof_board_pkg;

  /// Start of frame.
  localparam logic [7:0] Sof = 8'h7E;

  /// Host frame types.
  localparam logic [7:0] TypeInfo       = 8'h01;
  localparam logic [7:0] TypeOpen       = 8'h02;
  localparam logic [7:0] TypeRegWrite   = 8'h03;
  localparam logic [7:0] TypeRegRead    = 8'h04;
  localparam logic [7:0] TypeRecords    = 8'h05;
  localparam logic [7:0] TypeFlush      = 8'h06;
  localparam logic [7:0] TypeDump       = 8'h07;
  localparam logic [7:0] TypeResults    = 8'h08;
  localparam logic [7:0] TypeLinkStatus = 8'h09;

  /// Board answer types.
  localparam logic [7:0] AnsInfo       = 8'h81;
  localparam logic [7:0] AnsAck        = 8'h82;
  localparam logic [7:0] AnsData       = 8'h84;
  localparam logic [7:0] AnsFlushed    = 8'h86;
  localparam logic [7:0] AnsDumpData   = 8'h87;
  localparam logic [7:0] AnsDumpEnd    = 8'h88;
  localparam logic [7:0] AnsResultData = 8'h89;
  localparam logic [7:0] AnsLinkStatus = 8'h8A;
  localparam logic [7:0] AnsNak        = 8'hFE;
  localparam logic [7:0] AnsError      = 8'hFF;

  /// NAK reasons.
  localparam logic [7:0] NakOutOfOrder = 8'd1;
  localparam logic [7:0] NakNoRoom     = 8'd2;
  localparam logic [7:0] NakBadType    = 8'd3;
  localparam logic [7:0] NakBadLength  = 8'd4;
  localparam logic [7:0] NakBadUnit    = 8'd5;

  /// ERROR codes.
  localparam logic [7:0] ErrNoSession   = 8'd1;
  localparam logic [7:0] ErrRecordError = 8'd2;

  /// Unit kinds of the ID block.
  localparam logic [7:0] KindPath   = 8'd1;
  localparam logic [7:0] KindRap    = 8'd2;
  localparam logic [7:0] KindDcr    = 8'd3;
  localparam logic [7:0] KindBbv    = 8'd4;
  /// 5 is the path-phase detector's (reserved: no board builds it yet).
  localparam logic [7:0] KindSoc    = 8'd6;

  /// A decoded record of the RECORDS stream: a branch record, or a `val`
  /// record (value, weight) when is_val.
  typedef struct packed {
    logic                    is_val;
    hwprof_pkg::branch_rec_t br;
    logic [31:0]             value;
    logic [15:0]             weight;
  } board_rec_t;

  localparam int unsigned BoardRecW = $bits(board_rec_t);

  /// CRC-16/CCITT-FALSE (poly 0x1021, MSB first, no reflection) of one byte.
  function automatic logic [15:0] crc16_byte(logic [15:0] crc, logic [7:0] b);
    logic [15:0] c;
    c = crc ^ {b, 8'h00};
    for (int i = 0; i < 8; i++) begin
      c = c[15] ? ((c << 1) ^ 16'h1021) : (c << 1);
    end
    return c;
  endfunction

  /// CRC-32/ISO-HDLC (reflected poly 0xEDB88320) of one byte, on the running
  /// register (initial value 0xFFFFFFFF; the final xor is the caller's).
  function automatic logic [31:0] crc32_byte(logic [31:0] crc, logic [7:0] b);
    logic [31:0] c;
    c = crc ^ {24'h0, b};
    for (int i = 0; i < 8; i++) begin
      c = c[0] ? ((c >> 1) ^ 32'hEDB88320) : (c >> 1);
    end
    return c;
  endfunction

endpackage

`default_nettype wire
