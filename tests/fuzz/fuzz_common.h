/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared pieces of the libFuzzer harnesses (tests/fuzz/, docs/reliability.md
 * "Fuzzing"): the input decoder, the per-call bookkeeping on the simulated
 * bus (tests/model/sim.h) and the checks every target makes after every
 * public call:
 *  - a call returning an error wrote no register, unless its documentation
 *    says otherwise (error.h: only bounded waits that time out part-way, and
 *    the documented exceptions each harness names);
 *  - no call waits without bound: the bus accesses of one call are counted
 *    as they happen (the call is aborted past FZ_MAX_ACCESSES), and the
 *    model time it took, its `time` CSR reads and its longest
 *    d1_port_delay_us() request (port.h: < 20 ms) are checked against the
 *    bound its documentation gives;
 *  - critical sections are balanced (sim aborts on an unbalanced exit; the
 *    depth is 0 after each call).
 * A violation prints what failed and abort()s: libFuzzer reports it as a
 * crash and writes the input to its -artifact_prefix.
 */
#ifndef D1_FUZZ_COMMON_H
#define D1_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "d1/error.h"

/* Bus accesses one public call may make before it counts as an unbounded
 * wait (far above any documented budget the harnesses allow). */
#define FZ_MAX_ACCESSES 4000000u
/* Bus accesses one input may make in total by default; past it the
 * harness stops executing operations (keeps every input fast; not a
 * finding). fz_set_input_budget() changes it for a target. */
#define FZ_INPUT_ACCESS_BUDGET 3000000u
/* Longest single d1_port_delay_us() request the library may make (port.h). */
#define FZ_DELAY_US_MAX 20000u
/* Model ticks per microsecond (SIM_HZ / 1e6). */
#define FZ_TICKS_PER_US 24u

/* The operation running now, for the failure message. */
extern const char *fz_op;

void fz_fail(const char *file, int line, const char *fmt, ...)
        __attribute__((format(printf, 3, 4), noreturn));
#define FZ_FAIL(...) fz_fail(__FILE__, __LINE__, __VA_ARGS__)
#define FZ_CHECK(cond, ...)                                                                        \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fz_fail(__FILE__, __LINE__, __VA_ARGS__);                                  \
		}                                                                                  \
	} while (0)

/* The fuzz input, consumed front to back; reads past the end give 0. */
struct fz_in {
	const uint8_t *p;
	size_t n;
	size_t i;
};

void fz_in_init(struct fz_in *in, const uint8_t *data, size_t size);
bool fz_more(const struct fz_in *in);
uint8_t fz_u8(struct fz_in *in);
uint16_t fz_u16(struct fz_in *in);
uint32_t fz_u32(struct fz_in *in);
uint64_t fz_u64(struct fz_in *in);
bool fz_bool(struct fz_in *in);
/* One byte picks an entry of @p tab (n entries); bytes >= n give a raw
 * 32-bit value from the input instead (valid and arbitrary values both). */
uint32_t fz_pick32(struct fz_in *in, const uint32_t *tab, size_t n);
uint64_t fz_pick64(struct fz_in *in, const uint64_t *tab, size_t n);

/* sim_reset() and the harness's bus trace (call before mapping models). */
void fz_sim_reset(void);
/* Mark the start and end of one public call. */
void fz_begin(const char *op);
void fz_end(void);
/* Measured over the last fz_begin() .. fz_end(). */
uint64_t fz_call_writes(void);   /* every write, mapped or not */
uint64_t fz_call_accesses(void); /* reads and writes */
uint64_t fz_call_ticks(void);    /* model time */
uint64_t fz_call_time_reads(void);
/* Writes made while excluding (e.g. by an interrupt handler the model runs
 * between two accesses of a call) do not count as the call's writes. */
void fz_exclude(bool on);
/* Total bus accesses since fz_sim_reset() (for FZ_INPUT_ACCESS_BUDGET). */
uint64_t fz_input_accesses(void);
bool fz_over_budget(void);
void fz_set_input_budget(uint64_t accesses);

/* The common checks after a call: balanced critical sections, the longest
 * delay request, model time within @p max_ticks. */
void fz_check_call(uint64_t max_ticks);
/* A call that returned @p err wrote nothing unless @p err is D1_OK or one
 * of the codes in @p allowed_mask (bit -err set: e.g. FZ_ERRBIT(D1_ETIMEDOUT)). */
#define FZ_ERRBIT(e) (1u << (unsigned)(-(int)(e)))
void fz_check_err_writes(int err, unsigned allowed_mask);
/* The call made no bus access at all (pure functions, "touches no register"). */
void fz_check_no_access(void);
/* The call wrote nothing (getters). */
void fz_check_no_write(void);

#endif /* D1_FUZZ_COMMON_H */
