/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Model state behind the stand-in NuttX headers (tests/nuttx/include/).
 */
#ifndef D1_TEST_NX_STANDIN_H
#define D1_TEST_NX_STANDIN_H

#include <stdint.h>

/* Model time of the time CSR: a real time in picoseconds; the CSR counts
 * 24 MHz edges of it, from csr_base, shifted by phase_ps. Every read
 * samples, then advances real time by step_ps (d1_time_hook_now()). */
struct nx_standin_clock {
	uint64_t t_ps;
	uint64_t step_ps;
	uint64_t phase_ps;
	uint64_t csr_base;
	uint64_t reads;
	uint64_t last_read_ps; /* Real time of the latest sample. */
};

extern struct nx_standin_clock nx_clock;

/* Interrupt masking model: depth of up_irq_save() nesting. */
extern unsigned nx_irq_depth;
extern uint64_t nx_irq_saves;

void nx_standin_reset(void);

#endif
