/* SPDX-License-Identifier: Apache-2.0 */
#include "fuzz_common.h"

#include <stdarg.h>
#include <string.h>

#include "sim.h"

const char *fz_op = "setup";

static struct {
	uint64_t accesses; /* since fz_sim_reset() */
	uint64_t writes;
	uint64_t acc0, wr0, now0, treads0;
	uint64_t acc1, wr1, now1, treads1;
	bool in_call;
	bool excluding;
	uint64_t excluded; /* writes made while excluding */
	uint64_t ex0, ex1;
	uint64_t budget;
} fz;

void fz_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\nFUZZ INVARIANT VIOLATED (%s:%d) in %s: ", file, line, fz_op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void fz_in_init(struct fz_in *in, const uint8_t *data, size_t size)
{
	in->p = data;
	in->n = size;
	in->i = 0;
}

bool fz_more(const struct fz_in *in)
{
	return in->i < in->n;
}

uint8_t fz_u8(struct fz_in *in)
{
	return in->i < in->n ? in->p[in->i++] : 0u;
}

uint16_t fz_u16(struct fz_in *in)
{
	uint16_t v = fz_u8(in);

	return (uint16_t)(v | (uint16_t)(fz_u8(in) << 8));
}

uint32_t fz_u32(struct fz_in *in)
{
	uint32_t v = fz_u16(in);

	return v | (uint32_t)fz_u16(in) << 16;
}

uint64_t fz_u64(struct fz_in *in)
{
	uint64_t v = fz_u32(in);

	return v | (uint64_t)fz_u32(in) << 32;
}

bool fz_bool(struct fz_in *in)
{
	return (fz_u8(in) & 1u) != 0;
}

uint32_t fz_pick32(struct fz_in *in, const uint32_t *tab, size_t n)
{
	uint8_t k = fz_u8(in);

	return k < n ? tab[k] : fz_u32(in);
}

uint64_t fz_pick64(struct fz_in *in, const uint64_t *tab, size_t n)
{
	uint8_t k = fz_u8(in);

	return k < n ? tab[k] : fz_u64(in);
}

/* Every access of the simulated bus, mapped or not. */
static int verbose = -1;

static void trace(void *arg, bool write, uintptr_t addr, uint32_t value)
{
	(void)arg;
	if (verbose > 1) {
		fprintf(stderr, "fz:   t=%llu %s 0x%llx = 0x%x\n", (unsigned long long)sim_now(),
		        write ? "W" : "R", (unsigned long long)addr, value);
	}
	fz.accesses++;
	if (write) {
		fz.writes++;
		if (fz.excluding) {
			fz.excluded++;
		}
	}
	if (fz.in_call && fz.accesses - fz.acc0 > FZ_MAX_ACCESSES) {
		FZ_FAIL("unbounded wait: more than %u bus accesses in one call", FZ_MAX_ACCESSES);
	}
}

void fz_sim_reset(void)
{
	sim_reset();
	memset(&fz, 0, sizeof(fz));
	fz.budget = FZ_INPUT_ACCESS_BUDGET;
	sim_set_trace(trace, NULL);
	fz_op = "setup";
}

void fz_begin(const char *op)
{
	if (verbose < 0) {
		const char *v = getenv("FZ_VERBOSE");
		verbose = v == NULL ? 0 : v[0] == '2' ? 2 : 1;
	}
	if (verbose) {
		fprintf(stderr, "fz: t=%llu %s\n", (unsigned long long)sim_now(), op);
	}
	fz_op = op;
	fz.acc0 = fz.accesses;
	fz.wr0 = fz.writes;
	fz.ex0 = fz.excluded;
	fz.now0 = sim_now();
	fz.treads0 = sim_time_reads();
	fz.in_call = true;
}

void fz_end(void)
{
	fz.in_call = false;
	fz.acc1 = fz.accesses;
	fz.wr1 = fz.writes;
	fz.ex1 = fz.excluded;
	fz.now1 = sim_now();
	fz.treads1 = sim_time_reads();
}

uint64_t fz_call_writes(void)
{
	return (fz.wr1 - fz.wr0) - (fz.ex1 - fz.ex0);
}

void fz_exclude(bool on)
{
	fz.excluding = on;
}

uint64_t fz_call_accesses(void)
{
	return fz.acc1 - fz.acc0;
}

uint64_t fz_call_ticks(void)
{
	return fz.now1 - fz.now0;
}

uint64_t fz_call_time_reads(void)
{
	return fz.treads1 - fz.treads0;
}

uint64_t fz_input_accesses(void)
{
	return fz.accesses;
}

bool fz_over_budget(void)
{
	return fz.accesses > fz.budget;
}

void fz_set_input_budget(uint64_t accesses)
{
	fz.budget = accesses;
}

void fz_check_call(uint64_t max_ticks)
{
	FZ_CHECK(sim_critical_depth() == 0u, "critical section left open (depth %u)",
	         sim_critical_depth());
	FZ_CHECK(sim_delay_us_max() < FZ_DELAY_US_MAX,
	         "d1_port_delay_us(%llu): the library asks for < 20 ms (port.h)",
	         (unsigned long long)sim_delay_us_max());
	FZ_CHECK(fz_call_ticks() <= max_ticks,
	         "unbounded wait: the call took %llu model ticks, its documented bound is %llu",
	         (unsigned long long)fz_call_ticks(), (unsigned long long)max_ticks);
}

void fz_check_err_writes(int err, unsigned allowed_mask)
{
	if (err == D1_OK || err > 0 || err < -31 || (FZ_ERRBIT(err) & allowed_mask) != 0u) {
		return;
	}
	FZ_CHECK(fz_call_writes() == 0u, "returned %s after %llu register writes (error.h: none)",
	         d1_strerror(err), (unsigned long long)fz_call_writes());
}

void fz_check_no_access(void)
{
	FZ_CHECK(fz_call_accesses() == 0u, "touched %llu registers (documented: none)",
	         (unsigned long long)fz_call_accesses());
}

void fz_check_no_write(void)
{
	FZ_CHECK(fz_call_writes() == 0u, "a getter wrote %llu registers",
	         (unsigned long long)fz_call_writes());
}
