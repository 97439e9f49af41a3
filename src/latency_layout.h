/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * Internal (not installed): the values of each bin of the recorder's
 * log-linear layout, for the core (latency.c, which also has the inverse,
 * bin_of()) and the read side (latency_report.c), so that neither object
 * needs the other. The layout and its error bound: docs/latency.md.
 */
#ifndef D1_SRC_LATENCY_LAYOUT_H
#define D1_SRC_LATENCY_LAYOUT_H

#include "d1/latency.h"

_Static_assert(D1_LAT_EXACT_LOG2 == 10u && D1_LAT_SUB_LOG2 == 6u && D1_LAT_OCTAVES == 15u,
               "bin_of() and its table, and the dump's \"layout\", assume 10, 6, 15");

/* Bin @idx holds @lo .. @hi; above the last bin: D1_LAT_TOP + 1 .. UINT32_MAX. */
static inline void d1_lat_bin_bounds(uint32_t idx, uint32_t *lo, uint32_t *hi)
{
	uint32_t l, h;

	if (idx < D1_LAT_EXACT) {
		l = idx;
		h = idx;
	} else if (idx < D1_LAT_NBINS) {
		uint32_t j = idx - D1_LAT_EXACT;
		uint32_t s = j / D1_LAT_SUB + (D1_LAT_EXACT_LOG2 - D1_LAT_SUB_LOG2);

		l = (D1_LAT_SUB + j % D1_LAT_SUB) << s;
		h = l + ((1u << s) - 1u);
	} else {
		l = D1_LAT_TOP + 1u;
		h = UINT32_MAX;
	}
	*lo = l;
	*hi = h;
}

#endif /* D1_SRC_LATENCY_LAYOUT_H */
