/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints the text report, the JSON line and the dump line of a known
 * distribution, for tests/check_latency_json.py and as a format example:
 * 24 MHz clock, samples 1..1000 once each plus one 5000 and three near 6000
 * (above the exact range), 2 missed periods, meta strings that need
 * escaping, measured as a timer interrupt (measurement "timer-irq", wake
 * "none").
 */
#include <stdint.h>
#include <stdio.h>

#include "d1/latency.h"

static struct d1_lat r;

/* A failed write sets stdout's error indicator, which main() checks. */
static void put(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	(void)fwrite(s, 1, n, stdout); /* checked through ferror(stdout) in main() */
}

int main(void)
{
	static const struct d1_lat_meta meta = {
	        .os = "baremetal",
	        .board = "lichee-rv-86",
	        .load = "demo \"known\" distribution\\1..1000",
	        .period_ns = 1000000u,
	        .measurement = "timer-irq",
	        .wake = "none",
	        .bench_instr_min = 97u,
	        .bench_instr_max = 104u,
	};
	char buf[D1_LAT_REPORT_SIZE];
	size_t n;
	uint32_t v;

	if (d1_lat_init(&r, 24000000u) != D1_OK) {
		return 1;
	}
	for (v = 1; v <= 1000u; v++) {
		d1_lat_record(&r, v);
	}
	d1_lat_record(&r, 5000u);
	d1_lat_record(&r, 6000u);
	d1_lat_record(&r, 6001u);
	d1_lat_record(&r, 6002u);
	d1_lat_missed(&r, 2u);
	if (d1_lat_report_text(&r, &meta, buf, sizeof(buf), &n) != D1_OK) {
		return 1;
	}
	put(NULL, buf, n);
	if (d1_lat_report_json(&r, &meta, buf, sizeof(buf), &n) != D1_OK) {
		return 1;
	}
	put(NULL, buf, n);
	if (d1_lat_dump(&r, &meta, put, NULL) != D1_OK) {
		return 1;
	}
	/* Everything reached stdout, or the run fails: no report lost silently. */
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
