/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file mmio.h
 * @brief The one register-access seam of d1drivers.
 *
 * Every register access in `src/` goes through d1_mmio_read32() and
 * d1_mmio_write32() (or, for byte-wide register files only, d1_mmio_read8()
 * and d1_mmio_write8()). Nothing else in the library touches memory by address.
 *
 * Target build: a volatile, naturally aligned 32-bit load/store. All D1
 * peripheral registers used here are 32 bits wide (the UART is
 * `reg-io-width = 4`, the CLINT accepts 32-bit accesses only).
 *
 * Ordering on the C906: RVWMO lets the hart reorder accesses to different
 * device addresses unless the region's attributes say otherwise, and the
 * C906's default attributes for the D1 peripheral space are not given by any
 * public source we have. We take the safe reading and order every access
 * like Linux's readl()/writel() on RISC-V: `fence w,o` before a store (prior
 * memory writes are visible before the device sees the store) and `fence i,r`
 * after a load (the device read completes before later memory reads). This
 * is what makes "acknowledge the timer, then complete at the PLIC" land in
 * that order. Define `D1_MMIO_NO_FENCE` to drop the fences (for measurement
 * only).
 *
 * Hooked build: when the library is compiled with `D1_MMIO_HOOKED`, both
 * calls forward to d1_mmio_hook_read32() / d1_mmio_hook_write32(), which a
 * test or simulator supplies (tests/model/ has a simulated bus).
 */
#ifndef D1_MMIO_H
#define D1_MMIO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Simulator-supplied 32-bit register read (used only when compiled with D1_MMIO_HOOKED).
 * @param addr Byte address of the register.
 * @return The register value.
 */
uint32_t d1_mmio_hook_read32(uintptr_t addr);

/**
 * @brief Simulator-supplied 32-bit register write (used only when compiled with D1_MMIO_HOOKED).
 * @param addr  Byte address of the register.
 * @param value Value to store.
 */
void d1_mmio_hook_write32(uintptr_t addr, uint32_t value);

#ifdef D1_MMIO_HOOKED

/**
 * @brief Read a 32-bit device register.
 * @param addr Byte address (4-byte aligned).
 * @return The register value.
 */
static inline uint32_t d1_mmio_read32(uintptr_t addr)
{
	return d1_mmio_hook_read32(addr);
}

/**
 * @brief Write a 32-bit device register.
 * @param addr  Byte address (4-byte aligned).
 * @param value Value to store.
 */
static inline void d1_mmio_write32(uintptr_t addr, uint32_t value)
{
	d1_mmio_hook_write32(addr, value);
}

#else /* !D1_MMIO_HOOKED */

/**
 * @brief Read a 32-bit device register.
 * @param addr Byte address (4-byte aligned).
 * @return The register value.
 */
static inline uint32_t d1_mmio_read32(uintptr_t addr)
{
	uint32_t v = *(volatile const uint32_t *)addr;
#if defined(__riscv) && !defined(D1_MMIO_NO_FENCE)
	__asm__ volatile("fence i,r" ::: "memory");
#endif
	return v;
}

/**
 * @brief Write a 32-bit device register.
 * @param addr  Byte address (4-byte aligned).
 * @param value Value to store.
 */
static inline void d1_mmio_write32(uintptr_t addr, uint32_t value)
{
#if defined(__riscv) && !defined(D1_MMIO_NO_FENCE)
	__asm__ volatile("fence w,o" ::: "memory");
#endif
	*(volatile uint32_t *)addr = value;
}

#endif /* D1_MMIO_HOOKED */

/**
 * @brief Read-modify-write: clear @p clear bits, then set @p set bits.
 *
 * Not atomic: callers that share a register between contexts wrap it in
 * d1_port_critical_enter()/d1_port_critical_exit().
 * @param addr  Byte address (4-byte aligned).
 * @param clear Bits to clear.
 * @param set   Bits to set (after clearing).
 */
static inline void d1_mmio_modify32(uintptr_t addr, uint32_t clear, uint32_t set)
{
	d1_mmio_write32(addr, (d1_mmio_read32(addr) & ~clear) | set);
}

/*
 * 8-bit accesses: only for byte-wide register files such as the plain
 * ns16550a of the QEMU `virt` machine (reg-shift 0, reg-io-width 1), where a
 * 32-bit access to a register at an unaligned byte offset is rejected by the
 * device model (access fault). Every D1 register is accessed 32 bits wide.
 */

/**
 * @brief Simulator-supplied 8-bit register read (used only when compiled with D1_MMIO_HOOKED).
 * @param addr Byte address of the register.
 * @return The register value.
 */
uint8_t d1_mmio_hook_read8(uintptr_t addr);

/**
 * @brief Simulator-supplied 8-bit register write (used only when compiled with D1_MMIO_HOOKED).
 * @param addr  Byte address of the register.
 * @param value Value to store.
 */
void d1_mmio_hook_write8(uintptr_t addr, uint8_t value);

#ifdef D1_MMIO_HOOKED

/**
 * @brief Read an 8-bit device register.
 * @param addr Byte address.
 * @return The register value.
 */
static inline uint8_t d1_mmio_read8(uintptr_t addr)
{
	return d1_mmio_hook_read8(addr);
}

/**
 * @brief Write an 8-bit device register.
 * @param addr  Byte address.
 * @param value Value to store.
 */
static inline void d1_mmio_write8(uintptr_t addr, uint8_t value)
{
	d1_mmio_hook_write8(addr, value);
}

#else /* !D1_MMIO_HOOKED */

/**
 * @brief Read an 8-bit device register (same fences as d1_mmio_read32()).
 * @param addr Byte address.
 * @return The register value.
 */
static inline uint8_t d1_mmio_read8(uintptr_t addr)
{
	uint8_t v = *(volatile const uint8_t *)addr;
#if defined(__riscv) && !defined(D1_MMIO_NO_FENCE)
	__asm__ volatile("fence i,r" ::: "memory");
#endif
	return v;
}

/**
 * @brief Write an 8-bit device register (same fences as d1_mmio_write32()).
 * @param addr  Byte address.
 * @param value Value to store.
 */
static inline void d1_mmio_write8(uintptr_t addr, uint8_t value)
{
#if defined(__riscv) && !defined(D1_MMIO_NO_FENCE)
	__asm__ volatile("fence w,o" ::: "memory");
#endif
	*(volatile uint8_t *)addr = value;
}

#endif /* D1_MMIO_HOOKED */

#ifdef __cplusplus
}
#endif

#endif /* D1_MMIO_H */
