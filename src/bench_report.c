/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * The bench's run line (d1/bench.h): the one writer every OS's bench prints,
 * read by one parser (tests/os/benchrun.py). Report side: it summarizes the
 * recorders (d1_lat_summarize()).
 */
#include "d1/bench.h"
#include "fmt.h"

static void put_pair(struct d1_fmt *o, const char *name, const struct d1_lat_summary *s)
{
	d1_fmt_s(o, name);
	d1_fmt_u64(o, s->samples);
	d1_fmt_s(o, " samples + ");
	d1_fmt_u64(o, s->missed);
	d1_fmt_s(o, " missed");
}

/* counts of a clock_hz clock in whole microseconds, rounded down */
static uint64_t to_us(uint64_t counts, uint32_t clock_hz)
{
	return counts / clock_hz * 1000000u + counts % clock_hz * 1000000u / clock_hz;
}

d1_err_t d1_bench_report_run(const struct d1_bench *b, uint64_t elapsed, char *buf, size_t len,
                             size_t *written)
{
	struct d1_lat_summary si, sw;
	struct d1_bench_stats st;
	struct d1_fmt o;

	if (written != NULL) {
		*written = 0u;
	}
	if (b == NULL || buf == NULL || len == 0u) {
		return D1_EINVAL;
	}
	if (!b->started || d1_lat_summarize(b->irq, &si) != D1_OK) {
		buf[0] = '\0';
		return D1_ESTATE;
	}
	(void)d1_bench_get_stats(b, &st);
	d1_fmt_init(&o, buf, len);
	d1_fmt_s(&o, "run: ");
	d1_fmt_u64(&o, st.boundaries);
	d1_fmt_s(&o, " boundaries, ");
	put_pair(&o, "irq ", &si);
	if (b->wake != NULL && d1_lat_summarize(b->wake, &sw) == D1_OK) {
		put_pair(&o, ", wake ", &sw);
		d1_fmt_s(&o, " (");
		d1_fmt_u64(&o, st.late_wake);
		d1_fmt_s(&o, " late, ");
		d1_fmt_u64(&o, st.spurious_wake);
		d1_fmt_s(&o, " spurious)");
	} else {
		d1_fmt_s(&o, ", wake none");
	}
	d1_fmt_s(&o, ", spurious interrupts ");
	d1_fmt_u64(&o, st.spurious_irq);
	d1_fmt_s(&o, ", dropped ");
	d1_fmt_u64(&o, st.dropped);
	d1_fmt_s(&o, ", ");
	d1_fmt_u64(&o, to_us(elapsed, si.clock_hz));
	d1_fmt_s(&o, " us of time CSR (ideal ");
	uint64_t ideal;
	if (__builtin_mul_overflow(b->period, b->periods, &ideal)) {
		ideal = UINT64_MAX;
	}
	d1_fmt_u64(&o, to_us(ideal, si.clock_hz));
	d1_fmt_s(&o, " us)");
	if (written != NULL) {
		*written = o.pos;
	}
	return o.full ? D1_ERANGE : D1_OK;
}
