# The test program of tests/plugin: a few functions whose instruction,
# block and call counts are known by hand (see test_stats.c). Built with
# riscv64-linux-gnu-gcc -nostdlib -static together with tiny2.S.
	.text
	.globl	_start
	.type	_start, @function
_start:
	li	s0, 0
	li	s1, 3
1:	call	work		# 3 calls, the loop's back-edge targets this
	addi	s0, s0, 1
	blt	s0, s1, 1b
	call	helper		# this file's local helper
	li	a0, 3
	call	rec		# recursion: 3 activations
	call	other		# tiny2.S, which calls its own local helper
	li	t2, 0
	call	spin		# a loop whose head is the function's entry
	call	fall		# falls through into `tail`
	li	a0, 0
	li	a7, 93		# exit(0)
	ecall
	.size	_start, .-_start

	.type	work, @function
work:
	addi	t0, t0, 1
	andi	t1, s0, 1
	beqz	t1, 2f
	addi	t0, t0, 2
2:	ret
	.size	work, .-work

	.type	helper, @function
helper:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	call	work
	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
	.size	helper, .-helper

	.type	rec, @function
rec:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	addi	a0, a0, -1
	beqz	a0, 3f
	call	rec
3:	ld	ra, 8(sp)
	addi	sp, sp, 16
	ret
	.size	rec, .-rec

	.type	spin, @function
spin:
	addi	t2, t2, 1
	li	t3, 4
	blt	t2, t3, spin
	ret
	.size	spin, .-spin

	.type	fall, @function
fall:
	li	a1, 5
	addi	a1, a1, 1
	.size	fall, .-fall
# No .type and no .size: a NOTYPE symbol, extended to the next symbol.
tail:
	addi	a1, a1, 2
	ret
