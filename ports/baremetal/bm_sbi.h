/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Minimal SBI client (RISC-V SBI specification v1.0/v2.0): the calls the
 * bare-metal port needs from the firmware that started it in S-mode.
 */
#ifndef BM_SBI_H
#define BM_SBI_H

#include <stdbool.h>
#include <stdint.h>

/* Extension IDs (SBI spec: chapter 4 Base, 6 Timer, 10 System Reset, 5 Legacy). */
#define BM_SBI_EXT_LEGACY_SET_TIMER 0x00u
#define BM_SBI_EXT_LEGACY_PUTCHAR   0x01u
#define BM_SBI_EXT_LEGACY_SHUTDOWN  0x08u
#define BM_SBI_EXT_BASE             0x10u
#define BM_SBI_EXT_TIME             0x54494D45u /* "TIME" */
#define BM_SBI_EXT_SRST             0x53525354u /* "SRST" */

/* System Reset: reset types and reasons (SBI spec 10.1). */
#define BM_SBI_SRST_SHUTDOWN       0u
#define BM_SBI_SRST_COLD_REBOOT    1u
#define BM_SBI_SRST_REASON_NONE    0u
#define BM_SBI_SRST_REASON_FAILURE 1u

/** Result of an SBI call: a0 = error (0 = success), a1 = value. */
struct bm_sbiret {
	long error;
	long value;
};

struct bm_sbiret bm_sbi_call(uint32_t eid, uint32_t fid, uint64_t a0, uint64_t a1, uint64_t a2);

/** Probe the extensions used below once; call before the others. */
void bm_sbi_init(void);

/** SBI spec version (major << 24 | minor), 0 for a pre-v0.2 firmware. */
uint32_t bm_sbi_spec_version(void);
/** Implementation ID (1 = OpenSBI) and version. */
long bm_sbi_impl_id(void);
long bm_sbi_impl_version(void);
bool bm_sbi_has_time(void);
bool bm_sbi_has_srst(void);

/** Program the next S-mode timer event at absolute `time` @p when (clears STIP). */
void bm_sbi_set_timer(uint64_t when);

/** Legacy console putchar (SBI v0.1, extension 0x01): early/fallback console only. */
void bm_sbi_putchar(int ch);

/**
 * Shut the system down reporting @p failure (SRST; legacy shutdown as fallback).
 * Under QEMU virt, OpenSBI's test-device driver turns "no reason" into exit
 * status 0 and "system failure" into a non-zero status.
 */
__attribute__((noreturn)) void bm_sbi_shutdown(bool failure);

/** Cold reboot through SRST (used on the board after a watchdog policy test). */
__attribute__((noreturn)) void bm_sbi_reboot(void);

#endif /* BM_SBI_H */
