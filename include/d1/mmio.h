/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file mmio.h
 * @brief The one register-access seam: every register access in `src/` goes
 *        through these functions.
 *
 * Target build: a volatile, naturally aligned load or store followed by one
 * fence, so each device access is ordered before every later device or
 * memory access of the hart (the rule, its RVWMO and C906 sources and its
 * cost: docs/design.md "MMIO ordering"). `D1_MMIO_NO_FENCE` drops the fences
 * (measurement only). `D1_MMIO_HOOKED` forwards every access to the
 * d1_mmio_hook_*() functions a simulator supplies (tests/model/).
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

/* The fences (docs/design.md "MMIO ordering"); none when hooked or unfenced. */
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
 *        every later one (`fence iorw,iorw`). Needed only for device accesses
 *        made outside this seam (e.g. an OS accessor before
 *        d1_plic_complete()); accesses through the seam are already ordered.
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
 * @brief Read-modify-write: clear @p clear bits, then set @p set bits. Not
 *        atomic: wrap a shared register in d1_port_critical_enter()/exit().
 * @param addr  Byte address (4-byte aligned).
 * @param clear Bits to clear.
 * @param set   Bits to set (applied after @p clear).
 */
static inline void d1_mmio_modify32(uintptr_t addr, uint32_t clear, uint32_t set)
{
	d1_mmio_write32(addr, (d1_mmio_read32(addr) & ~clear) | set);
}

/* 8-bit accesses: only for byte-wide register files (QEMU virt ns16550a:
 * docs/uart-and-plic.md); every D1 register is accessed 32 bits wide. */

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
