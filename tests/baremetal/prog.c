/*
 * Bare-metal trap test: NECALL ecall exceptions (the handler skips the ecall), then
 * machine timer interrupts from the CLINT while main spins in a branchy loop, until
 * NTIMER interrupts have been handled (the first strikes mid-block, the third back to
 * back with the second). Exits through the SiFive test device: 0x5555 is
 * success, (code << 16) | 0x3333 makes qemu exit with status code.
 */
#include <stdint.h>

#define NECALL 3		/* ecall exceptions taken */
#define NTIMER 8		/* timer interrupts taken */
#define INTERVAL 1000		/* mtime ticks (10 MHz: 100 us) between timer interrupts */

#define CLINT_MTIMECMP ((volatile uint64_t *)0x2004000)
#define CLINT_MTIME ((volatile uint64_t *)0x200bff8)
#define TEST_DEVICE ((volatile uint32_t *)0x100000)

#define MCAUSE_INTERRUPT (1ull << 63)
#define CAUSE_ECALL_M 11
#define CAUSE_TIMER_M 7
#define MSTATUS_MIE (1u << 3)
#define MIE_MTIE (1u << 7)

static volatile unsigned int n_ecall;	/* ecall exceptions handled */
static volatile unsigned int n_timer;	/* timer interrupts handled */
static volatile unsigned int n_other;	/* traps of any other cause (must stay 0) */

uintptr_t trap_handler(uint64_t cause, uintptr_t epc);
void main(void);

/* Ends the qemu run with exit status code (0 = success); never returns. */
static void __attribute__((noreturn)) finish(unsigned int code)
{
	*TEST_DEVICE = code ? (code << 16) | 0x3333 : 0x5555;
	for (;;)
		;
}

/*
 * Called by trap_entry with mcause and mepc; returns the pc to resume at. An ecall is
 * skipped (always 4 bytes); an interrupt resumes where it struck.
 */
uintptr_t trap_handler(uint64_t cause, uintptr_t epc)
{
	if (cause == CAUSE_ECALL_M) {
		n_ecall++;
		return epc + 4;
	}
	if (cause == (MCAUSE_INTERRUPT | CAUSE_TIMER_M)) {
		n_timer++;
		/* The last interrupt disarms the timer so no further one is
		 * pending; the second leaves it due, so the third strikes
		 * right after the mret, before the epc's instruction runs. */
		if (n_timer == 2)
			*CLINT_MTIMECMP = *CLINT_MTIME;
		else
			*CLINT_MTIMECMP = n_timer < NTIMER ? *CLINT_MTIME + INTERVAL
			                                   : ~0ull;
		return epc;
	}
	n_other++;
	finish(3);
}

void main(void)
{
	uint32_t x = 1, spins = 0, odd = 0;
	int i;

	for (i = 0; i < NECALL; i++)
		__asm__ volatile("ecall" ::: "memory");
	if (n_ecall != NECALL)
		finish(1);

	/* Already due: the first interrupt strikes right after the csrs that
	 * enables it, in the middle of a straight line (a trap point that the
	 * one-address spike-2025 trap packet leaves to the decoder to find). */
	*CLINT_MTIMECMP = *CLINT_MTIME;
	__asm__ volatile("csrs mie, %0" ::"r"(MIE_MTIE));
	__asm__ volatile("csrs mstatus, %0" ::"r"(MSTATUS_MIE));
	while (n_timer < NTIMER) {
		/* A Collatz-like step: data-dependent branches for the trace to record. */
		if (x & 1) {
			x = 3 * x + 1;
			odd++;
		} else {
			x >>= 1;
		}
		if (x == 1)
			x = 27 + (spins & 63);
		spins++;
	}
	__asm__ volatile("csrc mstatus, %0" ::"r"(MSTATUS_MIE));
	if (n_timer != NTIMER || n_other || !odd)
		finish(2);
	finish(0);
}
