/* SPDX-License-Identifier: Apache-2.0 */
/*
 * M-mode probe of the emulated D1's PLIC privilege gate (-bios none, loaded
 * at 0x40000000). It drops to S-mode and tries six PLIC accesses, first
 * with PLIC_CTRL.S_PER = 0 (its reset value), then with S_PER = 1; the
 * M-mode trap handler records which ones faulted (load/store access fault)
 * and skips them. Expected from the openC906 RTL (plic_top.v, plic_ctrl.v,
 * plic_kid_busif.v, plic_hreg_busif.v):
 *   bit0 S-context enable read   0x10002080   faults unless S_PER
 *   bit1 priority read           0x10000130   faults unless S_PER
 *   bit2 S threshold read        0x10201000   never faults for S-mode
 *   bit3 M threshold read        0x10200000   faults unless S_PER
 *   bit4 PLIC_CTRL read          0x101ffffc   always faults (M-mode only)
 *   bit5 S-context enable write  0x10002080   faults unless S_PER
 * so 0x3B with S_PER = 0 and 0x10 with S_PER = 1. Exit through the
 * machine's test finisher (0x100000): 0x5555 = pass, else fail with code
 * (phase-0 bits << 8 | phase-1 bits), of which QEMU's status keeps the low
 * 8 bits; any other trap than these faults and the two ecalls fails with
 * 0xEE.
 */
	.equ PLIC, 0x10000000
	.equ FINISHER, 0x100000

	.section .text
	.globl _start
_start:
	la	t0, mtrap
	csrw	mtvec, t0
	/* One PMP entry opening everything to S-mode (QEMU 7.2 refuses an
	 * mret to S-mode while no PMP entry is set). */
	li	t0, -1
	csrw	pmpaddr0, t0
	li	t0, 0x1f		/* NAPOT | X | W | R */
	csrw	pmpcfg0, t0
	li	s1, 0			/* phase: 0 = S_PER off, 1 = on */
	li	s2, 0
enter_s:
	li	t1, (3 << 11)
	csrc	mstatus, t1
	li	t0, (1 << 11)		/* MPP = S */
	csrs	mstatus, t0
	la	t0, s_code
	csrw	mepc, t0
	mret

	/* Each access is a 4-byte instruction (t0/t1 are not RVC registers). */
	.macro	probe_lw addr, bit
	li	a4, 0
	li	t0, \addr
	lw	t1, 0(t0)
	slli	a4, a4, \bit
	or	s3, s3, a4
	.endm

s_code:
	li	s3, 0
	probe_lw (PLIC + 0x2080), 0
	probe_lw (PLIC + 4 * 76), 1
	probe_lw (PLIC + 0x201000), 2
	probe_lw (PLIC + 0x200000), 3
	probe_lw (PLIC + 0x1ffffc), 4
	li	a4, 0
	li	t0, (PLIC + 0x2080)
	sw	zero, 0(t0)
	slli	a4, a4, 5
	or	s3, s3, a4
	ecall

	.balign	4
mtrap:
	csrr	t5, mcause
	li	t6, 9			/* environment call from S-mode */
	beq	t5, t6, from_s
	li	t6, 5			/* load access fault */
	beq	t5, t6, fault
	li	t6, 7			/* store/AMO access fault */
	beq	t5, t6, fault
	li	t0, FINISHER		/* anything else: fail with 0xEE */
	li	t1, 0x00EE3333
	sw	t1, 0(t0)
2:	j	2b
fault:
	li	a4, 1			/* record, skip the access */
	csrr	t6, mepc
	addi	t6, t6, 4
	csrw	mepc, t6
	mret
from_s:
	bnez	s1, check
	mv	s2, s3
	li	s1, 1
	li	t0, (PLIC + 0x1ffffc)
	li	t1, 1
	sw	t1, 0(t0)		/* S_PER = 1, from M-mode */
	j	enter_s
check:
	li	t0, 0x3b
	bne	s2, t0, fail
	li	t0, 0x10
	bne	s3, t0, fail
	li	t0, FINISHER
	li	t1, 0x5555
	sw	t1, 0(t0)
fail:
	slli	t1, s2, 8
	or	t1, t1, s3
	slli	t1, t1, 16
	li	t2, 0x3333
	or	t1, t1, t2
	li	t0, FINISHER
	sw	t1, 0(t0)
1:	j	1b
