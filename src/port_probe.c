/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/*
 * Default of the optional port hook d1_port_probe32() (d1/port.h): no
 * fault-safe access is available, so nothing is accessed. Weak, in its own
 * object: a port's definition replaces it.
 */
#include "d1/port.h"

// NOLINTNEXTLINE(readability-non-const-parameter): d1/port.h's signature; a port's probe writes it
__attribute__((weak)) d1_err_t d1_port_probe32(uintptr_t addr, bool write, uint32_t *value)
{
	(void)addr;
	(void)write;
	(void)value;
	return D1_ENOTSUP;
}
