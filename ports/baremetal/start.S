/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bare-metal S-mode entry, for OpenSBI (fw_dynamic/fw_jump payload) and for
 * U-Boot's `go` / `booti`. Entered in S-mode with the MMU off, on one hart;
 * under OpenSBI a0 = hart id and a1 = device tree (Linux RISC-V boot protocol),
 * under U-Boot `go` a0/a1 are argc/argv: neither is relied on.
 */
#include "bm_stack.h"

	.option norvc
	.section .text.start, "ax", %progbits
	.globl _start
_start:
	/*
	 * RISC-V Linux Image header (Linux Documentation/arch/riscv/boot-image-header.rst),
	 * 64 bytes, so that U-Boot's `booti` accepts the raw binary too. code0 jumps
	 * over the header.
	 */
	j	bm_reset			/* code0 */
	.word	0				/* code1 */
	.dword	0x200000			/* text_offset from the start of DRAM */
	.dword	__image_end - _start		/* image_size (includes .bss) */
	.dword	0				/* flags: bit 0 = 0 little endian */
	.word	2				/* version 0.2 */
	.word	0				/* res1 */
	.dword	0				/* res2 */
	.ascii	"RISCV\0\0\0"			/* magic (deprecated) */
	.ascii	"RSC\x05"			/* magic2 */
	.word	0				/* res3 */

	/* The header above needs its 4-byte `j`; the code may be compressed. */
	.option rvc
bm_reset:
	/* Interrupts off until the C code has set the handlers up. */
	csrw	sie, zero
	csrci	sstatus, 0x2			/* SIE = 0 */
	/*
	 * FPU off (sstatus.FS = 0): the trap entry saves integer registers only,
	 * so any floating-point instruction must trap instead of silently
	 * corrupting a context. OpenSBI leaves FS enabled.
	 */
	li	t0, 0x6000
	csrc	sstatus, t0
	mv	s0, a0
	mv	s1, a1
	la	sp, __stack_top
	/*
	 * Paint the stack (nothing is on it yet) so that bm_stack_report() can
	 * measure its high-water mark: the deepest dword no longer holding the
	 * pattern. BM_STACK_SIZE (ld/<platform>.ld) is set from that figure.
	 */
	la	t0, __stack_bottom
	li	t2, BM_STACK_PAINT
1:	bgeu	t0, sp, 2f
	sd	t2, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	la	t0, bm_trap_entry
	csrw	stvec, t0			/* direct mode: all traps to one entry */
	mv	a0, s0
	mv	a1, s1
	call	bm_main
	/* bm_main returned its status in a0. */
	call	bm_exit
3:	wfi
	j	3b

/*
 * Trap entry. Interrupts do not nest: the hart clears SIE on entry and no
 * handler sets it. Exceptions can: d1_port_probe32() (port.c) may run in a
 * handler, and its access fault is a trap inside this one that returns
 * (bm_probe_fixup()). That inner trap writes sepc and sstatus.SPP/SPIE
 * again, so both are kept in this frame and written back before sret; the
 * address to resume at is bm_trap()'s return value. Only the caller-saved
 * integer registers are saved (the C handler preserves the rest by the
 * ABI; the FPU is off). 144 bytes keep sp 16-byte aligned.
 */
	.section .text.trap, "ax", %progbits
	.option rvc
	.balign	4
	.globl	bm_trap_entry
bm_trap_entry:
	addi	sp, sp, -144
	sd	ra, 0(sp)
	sd	t0, 8(sp)
	sd	t1, 16(sp)
	sd	t2, 24(sp)
	sd	t3, 32(sp)
	sd	t4, 40(sp)
	sd	t5, 48(sp)
	sd	t6, 56(sp)
	sd	a0, 64(sp)
	sd	a1, 72(sp)
	sd	a2, 80(sp)
	sd	a3, 88(sp)
	sd	a4, 96(sp)
	sd	a5, 104(sp)
	sd	a6, 112(sp)
	sd	a7, 120(sp)
	csrr	t0, sstatus
	sd	t0, 128(sp)
	csrr	a0, scause
	csrr	a1, sepc
	csrr	a2, stval
	call	bm_trap
	csrw	sepc, a0			/* where to resume (bm_trap) */
	ld	t0, 128(sp)
	csrw	sstatus, t0			/* SPP/SPIE as this trap found them */
	ld	ra, 0(sp)
	ld	t0, 8(sp)
	ld	t1, 16(sp)
	ld	t2, 24(sp)
	ld	t3, 32(sp)
	ld	t4, 40(sp)
	ld	t5, 48(sp)
	ld	t6, 56(sp)
	ld	a0, 64(sp)
	ld	a1, 72(sp)
	ld	a2, 80(sp)
	ld	a3, 88(sp)
	ld	a4, 96(sp)
	ld	a5, 104(sp)
	ld	a6, 112(sp)
	ld	a7, 120(sp)
	addi	sp, sp, 144
	sret
