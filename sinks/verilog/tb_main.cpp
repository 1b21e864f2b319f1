// Verilator testbench for BytePrinter.sv: feeds a trace file byte by byte,
// one byte per clock while in_valid is high, with in_valid toggled
// irregularly (a fixed pseudo-random pattern) and a reset at the start.
//   Vtb +tb_trace=FILE [+ltpipe=unix:SOCK +ltpipe_elf=... | +ltpipe_file=F]
#include <cstdint>
#include <cstdio>
#include <vector>

#include "VBytePrinter.h"
#include "verilated.h"

int main(int argc, char **argv)
{
	VerilatedContext ctx;
	ctx.commandArgs(argc, argv);
	const char *arg = ctx.commandArgsPlusMatch("tb_trace=");
	if (!arg || !*arg) {
		fprintf(stderr, "usage: Vtb +tb_trace=FILE [+ltpipe...]\n");
		return 1;
	}
	const char *path = arg + sizeof("+tb_trace=") - 1;
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	std::vector<uint8_t> data;
	uint8_t chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		data.insert(data.end(), chunk, chunk + n);
	fclose(f);

	VBytePrinter top(&ctx);
	uint32_t lcg = 12345;
	size_t i = 0;
	uint64_t cycle = 0;
	while (i < data.size()) {
		top.clk = 0;
		top.reset = cycle < 4;
		lcg = lcg * 1103515245u + 12345u;
		// About 60% of cycles valid, in irregular runs.
		bool valid = !top.reset && ((lcg >> 16) % 5) < 3;
		// During reset in_valid is high with garbage: must be ignored.
		top.in_valid = valid || top.reset;
		// Garbage on the data lines when not valid: must be ignored.
		top.in_byte = valid ? data[i] : (uint8_t)(lcg >> 8);
		top.eval();
		top.clk = 1;
		top.eval();
		if (valid)
			i++;
		cycle++;
	}
	top.final();
	fprintf(stderr, "tb: %zu bytes in %llu cycles\n", data.size(),
	        (unsigned long long)cycle);
	return 0;
}
