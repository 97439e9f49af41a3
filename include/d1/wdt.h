/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file wdt.h
 * @brief D1 watchdog driver: one handle per instance (timer-block WDT,
 *        riscv_wdt, R_WDOG); inherited state reported and taken over by an
 *        explicit policy.
 *
 * Hardware facts (the 0x16AA key, the feed value, the count clock, the
 * interval table, the write sequences) with their sources:
 * docs/clocks-and-watchdog.md "Watchdog". There is no readable counter: the
 * time left to expiry is not available.
 */
#ifndef D1_WDT_H
#define D1_WDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d1/error.h"
#include "d1/wdt_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_wdt Watchdog driver
 * @{ */

/** Which of the three D1 watchdog instances a handle drives. */
enum d1_wdt_id {
	D1_WDT_TIMER = 0, /**< Timer-block WDT, 0x020500A0, PLIC 79; the only one with SOFT_RST. */
	D1_WDT_RISCV =
	        1,    /**< riscv_wdt, 0x06011000, PLIC 147 (the one U-Boot may leave running). */
	D1_WDT_R = 2, /**< R_WDOG, 0x07020400 (RTC/CPUS domain). */
};

/** Number of watchdog instances. */
#define D1_WDT_COUNT 3u

/** Capability bit: the instance has a working SOFT_RST register. */
#define D1_WDT_CAP_SOFT_RESET 0x1u

/** What the watchdog does when it expires (CFG mode field). */
enum d1_wdt_action {
	D1_WDT_ACTION_NONE = 0,  /**< Read back only: CFG mode 0 or 3, no defined action. */
	D1_WDT_ACTION_RESET = 1, /**< Reset the whole system. */
	D1_WDT_ACTION_IRQ = 2,   /**< Raise the interrupt only. */
};

/** What d1_wdt_takeover() does with the watchdog firmware left behind. */
enum d1_wdt_policy {
	/** Stop it (whatever its state). */
	D1_WDT_TAKEOVER_STOP = 0,
	/** Keep it running in reset-system mode with the caller's timeout,
	 *  never unfed; starts it if it was stopped. */
	D1_WDT_TAKEOVER_KEEP = 1,
};

/** Shortest timeout the hardware offers, ms (interval index 0). */
#define D1_WDT_TIMEOUT_MIN_MS 500u
/** Longest timeout the hardware offers, ms (interval index 0xB). */
#define D1_WDT_TIMEOUT_MAX_MS 16000u
/** d1_wdt_state::timeout_ms of an interval index the table does not define. */
#define D1_WDT_TIMEOUT_UNKNOWN 0u
/** Buffer size that always holds d1_wdt_format_state() output. */
#define D1_WDT_STATE_STR_MAX 96u

/** State read back from the hardware by d1_wdt_get_state(). */
struct d1_wdt_state {
	const char *name;          /**< Instance name ("timer_wdt", "riscv_wdt", "r_wdog"). */
	bool running;              /**< MODE.EN is set. */
	uint32_t timeout_ms;       /**< Timeout in ms (rounded down), or D1_WDT_TIMEOUT_UNKNOWN. */
	enum d1_wdt_action action; /**< What expiry does. */
	uint8_t cfg_mode;          /**< Raw CFG mode field, 0..3. */
	uint8_t interval_index;    /**< Raw MODE interval field, 0..15. */
	bool losc;                 /**< Counting the 32.768 kHz LOSC (CFG.clk_src = 1). */
	bool irq_enabled;          /**< IRQ_EN set. */
	bool irq_pending;          /**< IRQ_STA set. */
};

/** One watchdog instance. Owned by the caller; fields are private. */
struct d1_wdt {
	uintptr_t base; /**< Instance base (physical or ioremapped). */
	uint8_t id;     /**< enum d1_wdt_id. */
	uint8_t caps;   /**< D1_WDT_CAP_* bits of this instance. */
};

/**
 * @brief Initialise a handle. Touches no register.
 * @param w    Handle to fill.
 * @param id   Which instance it is (decides its capabilities and name).
 * @param base Its base address (e.g. D1_RISCV_WDT_BASE, or the mapping),
 *             non-zero, 4-byte aligned.
 * @return D1_OK; D1_EINVAL for a NULL handle, an unknown id or a zero or
 *         unaligned base. Every other call returns D1_EINVAL (or does
 *         nothing) for a handle that fails these checks.
 */
d1_err_t d1_wdt_init(struct d1_wdt *w, enum d1_wdt_id id, uintptr_t base);

/**
 * @brief Name of an instance, for logs.
 * @param id Instance id.
 * @return "timer_wdt", "riscv_wdt", "r_wdog", or "wdt?" for an unknown id.
 */
const char *d1_wdt_name(enum d1_wdt_id id);

/**
 * @brief Capabilities of the handle's instance.
 * @param w Initialised handle (NULL or one that fails validation gives 0).
 * @return D1_WDT_CAP_* bits.
 */
unsigned d1_wdt_caps(const struct d1_wdt *w);

/**
 * @brief Map a timeout to the hardware table: the shortest supported value
 *        that is not shorter than the request. Touches no register.
 * @param timeout_ms  Requested timeout, ms (1..16000).
 * @param achieved_ms Optional: the timeout that will be programmed, ms.
 * @param index       Optional: its MODE interval index.
 * @return D1_OK; D1_EINVAL for 0 ms; D1_ERANGE above 16000 ms.
 */
d1_err_t d1_wdt_round_timeout(uint32_t timeout_ms, uint32_t *achieved_ms, unsigned *index);

/**
 * @brief Read the instance's state back from the hardware (4 reads, no write).
 * @param w  Initialised handle.
 * @param st Filled with what the hardware says.
 * @return D1_OK; D1_EINVAL for NULL arguments.
 */
d1_err_t d1_wdt_get_state(const struct d1_wdt *w, struct d1_wdt_state *st);

/**
 * @brief Format a state as one line, e.g.
 *        "riscv_wdt: running, 16000 ms, reset mode". No libc.
 * @param st  State from d1_wdt_get_state().
 * @param buf Destination; always NUL-terminated when @p len > 0.
 * @param len Size of @p buf in bytes (D1_WDT_STATE_STR_MAX always suffices).
 * @return D1_OK; D1_EINVAL for NULL arguments or @p len 0; D1_ERANGE when
 *         the line was truncated to fit.
 */
d1_err_t d1_wdt_format_state(const struct d1_wdt_state *st, char *buf, size_t len);

/**
 * @brief Take over whatever firmware left: read the inherited state, then
 *        stop (D1_WDT_TAKEOVER_STOP) or re-arm without a moment unwatched
 *        (D1_WDT_TAKEOVER_KEEP; sequence: docs/clocks-and-watchdog.md).
 * @param w           Initialised handle.
 * @param policy      What to do.
 * @param timeout_ms  KEEP: timeout to arm (rounded up as d1_wdt_round_timeout()).
 *                    STOP: ignored.
 * @param inherited   Optional: the state found before any write.
 * @param achieved_ms Optional: KEEP: the timeout armed; STOP: 0.
 * @return D1_OK; D1_EINVAL bad handle/policy, or KEEP with 0 ms; D1_ERANGE
 *         KEEP above 16000 ms. On error nothing is written.
 */
d1_err_t d1_wdt_takeover(struct d1_wdt *w, enum d1_wdt_policy policy, uint32_t timeout_ms,
                         struct d1_wdt_state *inherited, uint32_t *achieved_ms);

/**
 * @brief Arm the watchdog (a running one is re-armed without a moment
 *        unwatched; sequences: docs/clocks-and-watchdog.md), then clear
 *        IRQ_STA: an interval reached before this start is not pending
 *        after it. Does not touch IRQ_EN: use d1_wdt_irq_enable() for
 *        D1_WDT_ACTION_IRQ.
 * @param w           Initialised handle.
 * @param timeout_ms  Timeout, 1..16000 ms, rounded up to the table.
 * @param action      D1_WDT_ACTION_RESET or D1_WDT_ACTION_IRQ.
 * @param achieved_ms Optional: the timeout armed, ms.
 * @return D1_OK; D1_EINVAL bad handle/action or 0 ms; D1_ERANGE above
 *         16000 ms. On error nothing is written.
 */
d1_err_t d1_wdt_start(struct d1_wdt *w, uint32_t timeout_ms, enum d1_wdt_action action,
                      uint32_t *achieved_ms);

/**
 * @brief Change the timeout, keeping the run state and the action (a running
 *        one is fed before and after).
 *
 * A running watchdog is switched to the 24 MHz-derived clock if firmware
 * left it on the LOSC. A stopped one gets only its interval; its clock
 * source stays as it is until d1_wdt_start() selects the 24 MHz-derived
 * clock, so @p achieved_ms is in that clock (d1_wdt_get_state() meanwhile
 * decodes the source CFG holds).
 * @param w           Initialised handle.
 * @param timeout_ms  Timeout, 1..16000 ms, rounded up to the table.
 * @param achieved_ms Optional: the timeout programmed, ms.
 * @return As d1_wdt_start(), without the action check.
 */
d1_err_t d1_wdt_set_timeout(struct d1_wdt *w, uint32_t timeout_ms, uint32_t *achieved_ms);

/**
 * @brief Feed (restart the count): one write of #D1_WDT_FEED_VALUE to CTRL;
 *        any context, ISR included.
 * @param w Initialised handle.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_wdt_feed(const struct d1_wdt *w);

/**
 * @brief Stop the watchdog (MODE with EN clear). Safe when stopped.
 * @param w Initialised handle.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_wdt_stop(struct d1_wdt *w);

/**
 * @brief Enable or disable the instance's interrupt (IRQ_EN; no key needed).
 * @param w  Initialised handle.
 * @param on true to enable.
 * @return D1_OK or D1_EINVAL.
 */
d1_err_t d1_wdt_irq_enable(const struct d1_wdt *w, bool on);

/**
 * @brief Whether the interval was reached in interrupt mode (IRQ_STA).
 * @param w Initialised handle (NULL or invalid: false, no access).
 * @return true if pending.
 */
bool d1_wdt_irq_pending(const struct d1_wdt *w);

/**
 * @brief Acknowledge the interrupt (W1C of IRQ_STA). Does not feed.
 * @param w Initialised handle (NULL or invalid: nothing written).
 */
void d1_wdt_irq_ack(const struct d1_wdt *w);

/**
 * @brief Reset the SoC through SOFT_RST (timer-block instance only). Does
 *        not return on the hardware; D1_OK if it does (a model).
 * @param w Initialised handle.
 * @return D1_OK; D1_EINVAL bad handle; D1_ENOTSUP on an instance without
 *         SOFT_RST (nothing written).
 */
d1_err_t d1_wdt_soft_reset(const struct d1_wdt *w);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_WDT_H */
