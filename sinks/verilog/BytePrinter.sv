// Drop-in replacement for rocket-chip's BytePrinter black box (same module
// name and ports): instead of $fwrite-ing the trace encoder's bytes, it
// hands them to the ltpipe DPI-C sink (ltpipe_dpi.c), which streams them to
// `ltpipe serve` or writes a (zstd) trace file. Standard SystemVerilog
// DPI-C only, so Verilator and VCS both work.
//
// Plusargs (read once, at time 0):
//   +ltpipe=unix:/path/sock      stream to a daemon (or tcp:HOST:PORT)
//   +ltpipe_file=trace.lt.zst    write a file instead (.zst: compressed)
//   +ltpipe_elf=/abs/prog.elf    program, as the daemon sees it (streaming)
//   +ltpipe_session=NAME         session name (default sim-PID[-N])
//   +ltpipe_opts=k=v;k=v         mode=bt|bp, format=..., bp_entries=N,
//                                addr_bits=N, hart=N, recv=SPEC (repeat),
//                                zstd=LEVEL
// Neither +ltpipe nor +ltpipe_file: the bytes are dropped. The stream is
// flushed and ended (the daemon writes complete outputs) in the final
// block, i.e. on $finish; a simulation killed before that leaves outputs
// marked incomplete.
module BytePrinter(
  input       clk,
  input       reset,
  input       in_valid,
  input [7:0] in_byte
);
  import "DPI-C" function int ltpipe_dpi_open(input string sock,
    input string file, input string elf, input string session,
    input string opts);
  import "DPI-C" function void ltpipe_dpi_put(input int h, input byte b);
  import "DPI-C" function void ltpipe_dpi_close(input int h);

  int h = -1;
  string sock, file, elf, session, opts;

  initial begin
    if (!$value$plusargs("ltpipe=%s", sock)) sock = "";
    if (!$value$plusargs("ltpipe_file=%s", file)) file = "";
    if (!$value$plusargs("ltpipe_elf=%s", elf)) elf = "";
    if (!$value$plusargs("ltpipe_session=%s", session)) session = "";
    if (!$value$plusargs("ltpipe_opts=%s", opts)) opts = "";
    h = ltpipe_dpi_open(sock, file, elf, session, opts);
  end

  always @(posedge clk) begin
    if (!reset && in_valid && h >= 0)
      ltpipe_dpi_put(h, in_byte);
  end

  final begin
    if (h >= 0)
      ltpipe_dpi_close(h);
  end
endmodule
