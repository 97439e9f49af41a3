/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * d1_wdt_format_state(): one line of text for a watchdog state, no libc
 * (bounded appends, src/fmt.h). Its own object, so a kernel that never
 * prints the state does not link it (it is in d1drivers_report).
 */
#include <stddef.h>

#include "d1/wdt.h"
#include "fmt.h"

d1_err_t d1_wdt_format_state(const struct d1_wdt_state *st, char *buf, size_t len)
{
	struct d1_fmt b;

	if (st == NULL || buf == NULL || len == 0u) {
		return D1_EINVAL;
	}
	d1_fmt_init(&b, buf, len);
	d1_fmt_s(&b, st->name != NULL ? st->name : "wdt?");
	d1_fmt_s(&b, st->running ? ": running, " : ": stopped, ");
	if (st->timeout_ms == D1_WDT_TIMEOUT_UNKNOWN) {
		d1_fmt_s(&b, "unknown timeout (index ");
		d1_fmt_u64(&b, st->interval_index);
		d1_fmt_s(&b, ")");
	} else {
		d1_fmt_u64(&b, st->timeout_ms);
		d1_fmt_s(&b, " ms");
	}
	if (st->losc) {
		d1_fmt_s(&b, " (LOSC)");
	}
	switch (st->action) {
	case D1_WDT_ACTION_RESET:
		d1_fmt_s(&b, ", reset mode");
		break;
	case D1_WDT_ACTION_IRQ:
		d1_fmt_s(&b, ", interrupt mode");
		break;
	default:
		d1_fmt_s(&b, ", no-action mode (cfg ");
		d1_fmt_u64(&b, st->cfg_mode);
		d1_fmt_s(&b, ")");
		break;
	}
	if (st->irq_pending) {
		d1_fmt_s(&b, ", irq pending");
	}
	return b.full ? D1_ERANGE : D1_OK;
}
