/* SPDX-License-Identifier: Apache-2.0 */
/*
 * d1test M-mode shim: a stand-in for OpenSBI on the emulated D1 (-bios),
 * used where a test must choose what the firmware leaves, e.g. the PLIC's
 * S_PER bit (mshim.c). Entered in M-mode at 0x40000000 from the machine's
 * reset vector with a0 = hart id, a1 = device tree, a2 = struct
 * fw_dynamic_info (QEMU include/hw/riscv/boot_opensbi.h: magic, version,
 * next_addr, next_mode, options, boot_hart, each 8 bytes on rv64), and
 * enters the payload at next_addr in S-mode with a0/a1 as OpenSBI would.
 *
 * SBI: none. Every ecall from S-mode returns SBI_ERR_NOT_SUPPORTED (-2,
 * SBI spec 3.2), which the bare-metal port treats as a v0.1 firmware; a
 * System Reset call (EID 0x53525354) parks the hart. Any other trap into
 * M-mode parks the hart with mcause in a known place (mshim_fatal_cause).
 */
	.option norvc
	.section .text.start, "ax", %progbits
	.globl _start
_start:
	csrw	mie, zero
	csrci	mstatus, 0x8			/* MIE = 0 */
	la	sp, __mshim_stack_top
	la	t0, mshim_trap
	csrw	mtvec, t0
	mv	s0, a0
	mv	s1, a1
	ld	s2, 16(a2)			/* fw_dynamic_info.next_addr */
	call	mshim_main			/* S_PER, PMP, delegation, counters */
	csrw	mepc, s2
	li	t0, 0x1800			/* mstatus.MPP */
	csrc	mstatus, t0
	li	t0, 0x0800			/* MPP = S */
	csrs	mstatus, t0
	mv	a0, s0
	mv	a1, s1
	mret

	.balign 4
mshim_trap:
	/* Only a0/a1 are written back to the caller (the SBI return pair). */
	csrr	a0, mcause
	li	a1, 9				/* environment call from S-mode */
	bne	a0, a1, mshim_fatal
	li	a1, 0x53525354			/* SRST: park */
	beq	a7, a1, mshim_park
	csrr	a0, mepc
	addi	a0, a0, 4
	csrw	mepc, a0
	li	a0, -2				/* SBI_ERR_NOT_SUPPORTED */
	li	a1, 0
	mret
mshim_fatal:
	la	a1, mshim_fatal_cause
	sd	a0, 0(a1)
mshim_park:
	csrw	mie, zero
1:	wfi
	j	1b

	.section .bss
	.balign 8
	.globl mshim_fatal_cause
mshim_fatal_cause:
	.dword	0
