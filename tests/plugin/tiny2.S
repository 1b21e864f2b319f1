# Second file of the tests/plugin program: a local `helper` with the same
# name as tiny.S's, which must stay a separate function.
	.text
	.globl	other
	.type	other, @function
other:
	mv	s2, ra
	call	helper
	mv	ra, s2
	ret
	.size	other, .-other

	.type	helper, @function
helper:
	addi	t4, t4, 1
	ret
	.size	helper, .-helper
