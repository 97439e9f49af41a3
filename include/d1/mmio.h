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
 * Ordering (docs/design.md "MMIO ordering", with the sources): no public
 * source says the D1 peripheral window is strongly ordered in every mode the
 * ports use (with the MMU off the C906 takes the attributes from Allwinner's
 * sysmap.h, which is not published), and under RVWMO only a FENCE with I/O
 * bits on both sides orders two device accesses. So every access through
 * this seam carries one fence after it: a store `fence o,iorw`, a load
 * `fence i,iorw`. Each device access is thereby ordered before every later
 * device or memory access of the hart: "acknowledge at the device, then
 * sample" and "acknowledge at the device, then complete at the PLIC" hold
 * without anything else (d1_mmio_order() is the explicit form for code
 * that orders accesses made outside the seam). No block driven here is a bus
 * master, so the `fence w,o` before a store that Linux uses for DMA doorbells
 * is not needed. `D1_MMIO_NO_FENCE` drops the fences (measurement only).
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

/*
 * The fences (RVWMO: I/O accesses are in the I and O sets of a FENCE, memory
 * accesses in R and W; see docs/design.md "MMIO ordering"). One instruction
 * each; the hooked build and D1_MMIO_NO_FENCE have none.
 */
#if defined(__riscv) && !defined(D1_MMIO_NO_FENCE) && !defined(D1_MMIO_HOOKED)
/** After a device load: ordered before every later access. */
#define D1_MMIO_FENCE_AFTER_LOAD() __asm__ volatile("fence i,iorw" ::: "memory")
/** After a device store: ordered before every later access. */
#define D1_MMIO_FENCE_AFTER_STORE() __asm__ volatile("fence o,iorw" ::: "memory")
/** Every earlier access before every later one. */
#define D1_MMIO_FENCE_ORDER() __asm__ volatile("fence iorw,iorw" ::: "memory")
#else
/** Compiler barrier only (hooked or unfenced build). */
#define D1_MMIO_FENCE_AFTER_LOAD()  __asm__ volatile("" ::: "memory")
/** Compiler barrier only (hooked or unfenced build). */
#define D1_MMIO_FENCE_AFTER_STORE() __asm__ volatile("" ::: "memory")
/** Compiler barrier only (hooked or unfenced build). */
#define D1_MMIO_FENCE_ORDER()       __asm__ volatile("" ::: "memory")
#endif

/**
 * @brief Order every earlier device and memory access of this hart before
 *        every later one (`fence iorw,iorw`).
 *
 * Accesses through d1_mmio_read32()/d1_mmio_write32() are already ordered
 * (each carries its own fence). Call this only where a device access made
 * outside the seam (an OS accessor, a raw pointer) must be ordered against
 * one made through it, e.g. a handler that acknowledges its device with the
 * OS's relaxed accessor before d1_plic_complete().
 */
static inline void d1_mmio_order(void)
{
	D1_MMIO_FENCE_ORDER();
}

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
	D1_MMIO_FENCE_AFTER_LOAD();
	return v;
}

/**
 * @brief Write a 32-bit device register.
 * @param addr  Byte address (4-byte aligned).
 * @param value Value to store.
 */
static inline void d1_mmio_write32(uintptr_t addr, uint32_t value)
{
	*(volatile uint32_t *)addr = value;
	D1_MMIO_FENCE_AFTER_STORE();
}

#endif /* D1_MMIO_HOOKED */

/**
 * @brief Read-modify-write: clear @p clear bits, then set @p set bits.
 *
 * Not atomic: callers that share a register between contexts wrap it in
 * d1_port_critical_enter()/d1_port_critical_exit().
 * @param addr  Byte address (4-byte aligned).
 * @param clear Bits to clear.
 * @param set   Bits to set (applied after @p clear).
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
	D1_MMIO_FENCE_AFTER_LOAD();
	return v;
}

/**
 * @brief Write an 8-bit device register (same fences as d1_mmio_write32()).
 * @param addr  Byte address.
 * @param value Value to store.
 */
static inline void d1_mmio_write8(uintptr_t addr, uint8_t value)
{
	*(volatile uint8_t *)addr = value;
	D1_MMIO_FENCE_AFTER_STORE();
}

#endif /* D1_MMIO_HOOKED */

#ifdef __cplusplus
}
#endif

#endif /* D1_MMIO_H */
