/* SPDX-License-Identifier: Apache-2.0 */
/* Links against d1::drivers and exercises a call that touches no register. */
#include <stdio.h>

#include "d1/memmap.h"
#include "d1/port.h"
#include "d1/timer.h"

void d1_port_delay_us(uint32_t us)
{
	(void)us;
}

uintptr_t d1_port_critical_enter(void)
{
	return 0;
}

void d1_port_critical_exit(uintptr_t state)
{
	(void)state;
}

int main(void)
{
	struct d1_timer t;
	struct d1_timer_achieved a;

	if (d1_timer_init(&t, D1_TIMER_BASE, 1, D1_OSC24M_HZ, D1_LOSC_HZ) != D1_OK ||
	    d1_timer_set_period_hz(&t, 1000, &a) != D1_OK || a.clocks != 24000u) {
		return 1;
	}
	printf("consumer: %s, 1 kHz = %llu clocks\n", d1_strerror(D1_OK),
	       (unsigned long long)a.clocks);
	return 0;
}
