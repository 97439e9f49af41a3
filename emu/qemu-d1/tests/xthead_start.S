/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Start and M-mode trap handler of the xthead boot test (xthead.c).
 */
    .section .text.start
    .globl _start
_start:
    la sp, stack_top
    call main_c
1:  j 1b

    .text
    .globl trap_init
trap_init:
    la t0, trap
    csrw mtvec, t0
    ret

    /* S-mode part: Sv39 on, returns to M-mode by ecall. */
    .globl s_entry
s_entry:
    nop
    ecall
2:  j 2b

    .align 4
trap:                       /* keeps every register but its own cause */
    csrw mscratch, t0
    la t0, save_t1
    sd t1, 0(t0)
    csrr t0, mcause
    la t1, last_cause
    sd t0, 0(t1)
    la t1, resume_pc
    ld t0, 0(t1)
    beqz t0, 3f
    csrw mepc, t0
    sd zero, 0(t1)
    li t0, 3 << 11
    csrs mstatus, t0        /* MPP = M */
    j 4f
3:  csrr t0, mepc
    addi t0, t0, 4
    csrw mepc, t0
4:  la t0, save_t1
    ld t1, 0(t0)
    csrr t0, mscratch
    mret

    .data
    .align 3
    .globl last_cause, resume_pc
last_cause: .dword 0
resume_pc:  .dword 0
save_t1:    .dword 0

    .bss
    .align 4
    .space 4096
stack_top:
