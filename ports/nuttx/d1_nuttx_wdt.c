/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NuttX watchdog glue on the library's d1_wdt driver (riscv_wdt,
 * 0x06011000, the instance U-Boot may leave running at 16 s: see
 * include/d1/wdt.h and docs/clocks-and-watchdog.md).
 *
 * At boot the inherited state is read back and logged ("riscv_wdt:
 * running, 16000 ms, reset mode"), then taken over on purpose with
 * d1_wdt_takeover(STOP); the instance is then offered as a watchdog
 * lower-half (reset mode) for /dev/watchdogN.
 *
 * The hardware has no readable counter, so getstatus reports timeleft as
 * the timeout minus the system time since the last start/feed, measured
 * with the NuttX tick (an estimate to one tick, never longer than the
 * hardware's real time left plus one tick).
 */
#include <nuttx/config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <syslog.h>

#include <nuttx/arch.h>
#include <nuttx/clock.h>
#include <nuttx/irq.h>
#include <nuttx/timers/watchdog.h>

#include "d1/memmap.h"
#include "d1/wdt.h"
#include "d1_nuttx.h"

/* Default timeout until WDIOC_SETTIMEOUT: the longest the hardware has. */
#define D1_NX_WDT_DEFAULT_MS D1_WDT_TIMEOUT_MAX_MS

struct d1_nx_wdt_lower {
	const struct watchdog_ops_s *ops; /* Must be first (struct watchdog_lowerhalf_s). */
	struct d1_wdt w;
	uint32_t timeout_ms; /* As programmed (rounded up to the table). */
	clock_t last_feed;   /* System tick of the last start/feed. */
	bool active;
};

static struct d1_nx_wdt_lower g_d1_wdt;

static int d1_nx_wdt_start(struct watchdog_lowerhalf_s *lower)
{
	struct d1_nx_wdt_lower *lo = (struct d1_nx_wdt_lower *)lower;
	uint32_t achieved = 0;
	irqstate_t flags;
	d1_err_t err;

	flags = enter_critical_section();
	err = d1_wdt_start(&lo->w, lo->timeout_ms, D1_WDT_ACTION_RESET, &achieved);
	if (err == D1_OK) {
		lo->timeout_ms = achieved;
		lo->last_feed = clock_systime_ticks();
		lo->active = true;
	}
	leave_critical_section(flags);
	return d1_nuttx_errno(err);
}

static int d1_nx_wdt_stop(struct watchdog_lowerhalf_s *lower)
{
	struct d1_nx_wdt_lower *lo = (struct d1_nx_wdt_lower *)lower;
	irqstate_t flags;
	d1_err_t err;

	flags = enter_critical_section();
	err = d1_wdt_stop(&lo->w);
	if (err == D1_OK)
		lo->active = false;
	leave_critical_section(flags);
	return d1_nuttx_errno(err);
}

static int d1_nx_wdt_keepalive(struct watchdog_lowerhalf_s *lower)
{
	struct d1_nx_wdt_lower *lo = (struct d1_nx_wdt_lower *)lower;
	irqstate_t flags;
	d1_err_t err;

	flags = enter_critical_section();
	err = d1_wdt_feed(&lo->w);
	if (err == D1_OK)
		lo->last_feed = clock_systime_ticks();
	leave_critical_section(flags);
	return d1_nuttx_errno(err);
}

static int d1_nx_wdt_getstatus(struct watchdog_lowerhalf_s *lower, struct watchdog_status_s *status)
{
	struct d1_nx_wdt_lower *lo = (struct d1_nx_wdt_lower *)lower;
	struct d1_wdt_state st;
	irqstate_t flags;
	uint64_t elapsed_ms;
	d1_err_t err;

	flags = enter_critical_section();
	err = d1_wdt_get_state(&lo->w, &st);
	if (err == D1_OK) {
		/* Report what the hardware says, not what we believe. */
		status->flags = 0;
		if (st.running)
			status->flags |= WDFLAGS_ACTIVE;
		if (st.action == D1_WDT_ACTION_RESET)
			status->flags |= WDFLAGS_RESET;
		status->timeout = st.timeout_ms;
		status->timeleft = 0;
		if (st.running) {
			elapsed_ms = (uint64_t)TICK2MSEC(clock_systime_ticks() - lo->last_feed);
			if (elapsed_ms < st.timeout_ms)
				status->timeleft = (uint32_t)(st.timeout_ms - elapsed_ms);
		}
	}
	leave_critical_section(flags);
	return d1_nuttx_errno(err);
}

static int d1_nx_wdt_settimeout(struct watchdog_lowerhalf_s *lower, uint32_t timeout)
{
	struct d1_nx_wdt_lower *lo = (struct d1_nx_wdt_lower *)lower;
	uint32_t achieved = 0;
	irqstate_t flags;
	d1_err_t err;

	flags = enter_critical_section();
	err = d1_wdt_set_timeout(&lo->w, timeout, &achieved);
	if (err == D1_OK) {
		lo->timeout_ms = achieved;
		if (lo->active)
			lo->last_feed = clock_systime_ticks(); /* set_timeout feeds */
	}
	leave_critical_section(flags);
	return d1_nuttx_errno(err);
}

static const struct watchdog_ops_s g_d1_wdt_ops = {
        .start = d1_nx_wdt_start,
        .stop = d1_nx_wdt_stop,
        .keepalive = d1_nx_wdt_keepalive,
        .getstatus = d1_nx_wdt_getstatus,
        .settimeout = d1_nx_wdt_settimeout,
        .capture = NULL, /* Reset mode only; IRQ mode (PLIC 147) not wired. */
        .ioctl = NULL,
};

int d1_nuttx_wdt_initialize(const char *path)
{
	struct d1_nx_wdt_lower *lo = &g_d1_wdt;
	struct d1_wdt_state st;
	char line[D1_WDT_STATE_STR_MAX];
	d1_err_t err;

	lo->ops = &g_d1_wdt_ops;
	lo->active = false;
	lo->timeout_ms = D1_NX_WDT_DEFAULT_MS;
	lo->last_feed = 0;

	err = d1_wdt_init(&lo->w, D1_WDT_RISCV, D1_RISCV_WDT_BASE);
	if (err != D1_OK)
		return d1_nuttx_errno(err);

	/* Say what firmware left, then stop it on purpose. */
	err = d1_wdt_get_state(&lo->w, &st);
	if (err == D1_OK) {
		(void)d1_wdt_format_state(&st, line, sizeof(line));
		syslog(LOG_INFO, "%s\n", line);
	}
	err = d1_wdt_takeover(&lo->w, D1_WDT_TAKEOVER_STOP, 0u, NULL, NULL);
	if (err != D1_OK)
		return d1_nuttx_errno(err);

#ifdef CONFIG_WATCHDOG
	if (path != NULL && watchdog_register(path, (struct watchdog_lowerhalf_s *)lo) == NULL)
		return -EEXIST;
#else
	(void)path;
#endif
	return OK;
}
