/* SPDX-License-Identifier: Apache-2.0 */
/* M-mode entry for the Timer-ISR instruction count on QEMU virt (-bios none). */
	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, stack_top
	call	main
1:	wfi
	j	1b

/*
 * uint64_t measure_call(uint32_t (*fn)(void *), void *arg): instret around
 * one call. csrr reads N, then retires (N+1); jalr (N+2); the k instructions
 * of fn up to and including its ret (N+2+k); the second csrr reads that.
 * So the result is k + 2.
 */
	.text
	.globl measure_call
measure_call:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	mv	t1, a0
	mv	a0, a1
	csrr	s0, instret
	jalr	t1
	csrr	t0, instret
	sub	a0, t0, s0
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret

	.globl stub_ret
stub_ret:
	ret
