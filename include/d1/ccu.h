/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file ccu.h
 * @brief D1 clock control unit: rates decoded from the live registers, bus
 *        gates and resets of every block, APB1 configuration, PLL_CPU change.
 *
 * Ask the CCU instead of assuming 24 MHz: d1_ccu_uart_clock_hz() for a
 * UART's input clock, D1_CCU_CLK_OSC24M for the Timer's. Register facts,
 * formulas, sequences and the unknowns behind the tunables below:
 * docs/clocks-and-watchdog.md "CCU". Rates are exact, rounded down to 1 Hz.
 * *_BGR updates run in a critical section; PLL_CPU, RISCV_CLK and APB1 have
 * one owner (the port's clock setup), which serialises its calls.
 */
#ifndef D1_CCU_H
#define D1_CCU_H

#include <stdbool.h>
#include <stdint.h>

#include "d1/ccu_regs.h"
#include "d1/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup d1_ccu CCU driver
 * @{ */

/** Clocks whose rate d1_ccu_get_rate() decodes. */
enum d1_ccu_clk {
	D1_CCU_CLK_OSC24M = 0,     /**< 24 MHz OSC24M (the handle's osc24m_hz); feeds the Timer. */
	D1_CCU_CLK_LOSC = 1,       /**< 32.768 kHz oscillator. */
	D1_CCU_CLK_IOSC = 2,       /**< Internal RC, nominal D1_CCU_IOSC_HZ (inexact). */
	D1_CCU_CLK_PLL_CPU = 3,    /**< PLL_CPU output. */
	D1_CCU_CLK_PERI0_4X = 4,   /**< PLL_PERI0(4X). */
	D1_CCU_CLK_PERI0_2X = 5,   /**< PLL_PERI0(2X). */
	D1_CCU_CLK_PERI0_1X = 6,   /**< PLL_PERI0(1X). */
	D1_CCU_CLK_PERI0_800M = 7, /**< PLL_PERI0(800M). */
	D1_CCU_CLK_PSI_AHB = 8,    /**< PSI / AHB. */
	D1_CCU_CLK_APB0 = 9,       /**< APB0. */
	D1_CCU_CLK_APB1 = 10,      /**< APB1 (UART input clock). */
	D1_CCU_CLK_RISCV = 11,     /**< C906 core clock (RISCV_CLK). */
	D1_CCU_CLK_RISCV_AXI = 12, /**< C906 AXI clock. */
};

/** Number of enum d1_ccu_clk values. */
#define D1_CCU_CLK_COUNT 13u

/** APB1 source; the values are the APB CLK_SRC_SEL field values (SVD apb%s_clk). */
enum d1_ccu_apb_src {
	D1_CCU_APB_SRC_OSC24M = 0,   /**< 24 MHz OSC24M (what U-Boot selects for the UARTs). */
	D1_CCU_APB_SRC_LOSC = 1,     /**< 32.768 kHz. */
	D1_CCU_APB_SRC_PSI = 2,      /**< PSI clock. */
	D1_CCU_APB_SRC_PERI0_1X = 3, /**< PLL_PERI0(1X). */
};

/** Bus gate / reset pairs: the rows of D1_CCU_BUS_LIST (ccu_regs.h), in its order. */
enum d1_ccu_bus {
	D1_CCU_BUS_DE = 0,           /**< SVD de_bgr: gating / rst. */
	D1_CCU_BUS_DI = 1,           /**< SVD di_bgr: gating / rst. */
	D1_CCU_BUS_G2D = 2,          /**< SVD g2d_bgr: gating / rst. */
	D1_CCU_BUS_CE = 3,           /**< SVD ce_bgr: gating / rst. */
	D1_CCU_BUS_VE = 4,           /**< SVD ve_bgr: gating / rst. */
	D1_CCU_BUS_DMA = 5,          /**< SVD dma_bgr: gating / rst. */
	D1_CCU_BUS_MSGBOX0 = 6,      /**< SVD msgbox_bgr: msgbox0_gating / msgbox0_rst. */
	D1_CCU_BUS_MSGBOX1 = 7,      /**< SVD msgbox_bgr: msgbox1_gating / msgbox1_rst. */
	D1_CCU_BUS_MSGBOX2 = 8,      /**< SVD msgbox_bgr: msgbox2_gating / msgbox2_rst. */
	D1_CCU_BUS_SPINLOCK = 9,     /**< SVD spinlock_bgr: gating / rst. */
	D1_CCU_BUS_HSTIMER = 10,     /**< SVD hstimer_bgr: gating / rst. */
	D1_CCU_BUS_DBGSYS = 11,      /**< SVD dbgsys_bgr: gating / rst. */
	D1_CCU_BUS_PWM = 12,         /**< SVD pwm_bgr: gating / rst. */
	D1_CCU_BUS_IOMMU = 13,       /**< SVD iommu_bgr: gating. */
	D1_CCU_BUS_DRAM = 14,        /**< SVD dram_bgr: gating / rst. */
	D1_CCU_BUS_SMHC0 = 15,       /**< SVD smhc_bgr: smhc0_gating / smhc0_rst. */
	D1_CCU_BUS_SMHC1 = 16,       /**< SVD smhc_bgr: smhc1_gating / smhc1_rst. */
	D1_CCU_BUS_SMHC2 = 17,       /**< SVD smhc_bgr: smhc2_gating / smhc2_rst. */
	D1_CCU_BUS_UART0 = 18,       /**< SVD uart_bgr: uart0_gating / uart0_rst. */
	D1_CCU_BUS_UART1 = 19,       /**< SVD uart_bgr: uart1_gating / uart1_rst. */
	D1_CCU_BUS_UART2 = 20,       /**< SVD uart_bgr: uart2_gating / uart2_rst. */
	D1_CCU_BUS_UART3 = 21,       /**< SVD uart_bgr: uart3_gating / uart3_rst. */
	D1_CCU_BUS_UART4 = 22,       /**< SVD uart_bgr: uart4_gating / uart4_rst. */
	D1_CCU_BUS_UART5 = 23,       /**< SVD uart_bgr: uart5_gating / uart5_rst. */
	D1_CCU_BUS_TWI0 = 24,        /**< SVD twi_bgr: twi0_gating / twi0_rst. */
	D1_CCU_BUS_TWI1 = 25,        /**< SVD twi_bgr: twi1_gating / twi1_rst. */
	D1_CCU_BUS_TWI2 = 26,        /**< SVD twi_bgr: twi2_gating / twi2_rst. */
	D1_CCU_BUS_TWI3 = 27,        /**< SVD twi_bgr: twi3_gating / twi3_rst. */
	D1_CCU_BUS_SPI0 = 28,        /**< SVD spi_bgr: spi0_gating / spi0_rst. */
	D1_CCU_BUS_SPI1 = 29,        /**< SVD spi_bgr: spi1_gating / spi1_rst. */
	D1_CCU_BUS_EMAC = 30,        /**< SVD emac_bgr: gating / rst. */
	D1_CCU_BUS_IRTX = 31,        /**< SVD irtx_bgr: gating / rst. */
	D1_CCU_BUS_GPADC = 32,       /**< SVD gpadc_bgr: gating / rst. */
	D1_CCU_BUS_THS = 33,         /**< SVD ths_bgr: gating / rst. */
	D1_CCU_BUS_I2S0 = 34,        /**< SVD i2s_bgr: i2s0_gating / i2s0_rst. */
	D1_CCU_BUS_I2S1 = 35,        /**< SVD i2s_bgr: i2s1_gating / i2s1_rst. */
	D1_CCU_BUS_I2S2 = 36,        /**< SVD i2s_bgr: i2s2_gating / i2s2_rst. */
	D1_CCU_BUS_OWA = 37,         /**< SVD owa_bgr: gating / rst. */
	D1_CCU_BUS_DMIC = 38,        /**< SVD dmic_bgr: gating / rst. */
	D1_CCU_BUS_AUDIO_CODEC = 39, /**< SVD audio_codec_bgr: gating / rst. */
	D1_CCU_BUS_USB_OHCI0 = 40,   /**< SVD usb_bgr: usbohci0_gating / usbohci0_rst. */
	D1_CCU_BUS_USB_OHCI1 = 41,   /**< SVD usb_bgr: usbohci1_gating / usbohci1_rst. */
	D1_CCU_BUS_USB_EHCI0 = 42,   /**< SVD usb_bgr: usbehci0_gating / usbehci0_rst. */
	D1_CCU_BUS_USB_EHCI1 = 43,   /**< SVD usb_bgr: usbehci1_gating / usbehci1_rst. */
	D1_CCU_BUS_USB_OTG0 = 44,    /**< SVD usb_bgr: usbotg0_gating / usbotg0_rst. */
	D1_CCU_BUS_LRADC = 45,       /**< SVD lradc_bgr: gating / rst. */
	D1_CCU_BUS_DPSS_TOP = 46,    /**< SVD dpss_top_bgr: gating / rst. */
	D1_CCU_BUS_DSI = 47,         /**< SVD dsi_bgr: gating / rst. */
	D1_CCU_BUS_TCONLCD = 48,     /**< SVD tconlcd_bgr: gating / rst. */
	D1_CCU_BUS_TCONTV = 49,      /**< SVD tcontv_bgr: gating / rst. */
	D1_CCU_BUS_LVDS = 50,        /**< SVD lvds_bgr: rst. */
	D1_CCU_BUS_TVE_TOP = 51,     /**< SVD tve_bgr: top_gating / top_rst. */
	D1_CCU_BUS_TVE = 52,         /**< SVD tve_bgr: gating / rst. */
	D1_CCU_BUS_TVD_TOP = 53,     /**< SVD tvd_bgr: top_gating / top_rst. */
	D1_CCU_BUS_TVD = 54,         /**< SVD tvd_bgr: gating / rst. */
	D1_CCU_BUS_LEDC = 55,        /**< SVD ledc_bgr: gating / rst. */
	D1_CCU_BUS_CSI = 56,         /**< SVD csi_bgr: gating / rst. */
	D1_CCU_BUS_TPADC = 57,       /**< SVD tpadc_bgr: gating / rst. */
	D1_CCU_BUS_DSP = 58,         /**< SVD dsp_bgr: rst. */
	D1_CCU_BUS_DSP_CFG = 59,     /**< SVD dsp_bgr: cfg_gating / cfg_rst. */
	D1_CCU_BUS_DSP_DBG = 60,     /**< SVD dsp_bgr: dbg_rst. */
	D1_CCU_BUS_RISCV_CFG = 61,   /**< SVD riscv_cfg_bgr: gating / rst. */
};

/** Number of enum d1_ccu_bus values. */
#define D1_CCU_BUS_COUNT 62u

/** Number of UARTs with a gate/reset in UART_BGR. */
#define D1_CCU_UART_COUNT 6u

/** Nominal rate of the internal RC oscillator (SVD "CLK16M_RC"); not exact. */
#define D1_CCU_IOSC_HZ 16000000u

/** Smallest PLL_CPU N (Linux ccu-sun20i-d1.c `_SUNXI_CCU_MULT_MIN(8, 8, 12)`). */
#define D1_CCU_PLL_CPU_N_MIN 12u
/** Largest PLL_CPU N the 8-bit field encodes. */
#define D1_CCU_PLL_CPU_N_MAX 256u

#ifndef D1_CCU_PLL_CPU_MAX_HZ_DEFAULT
/** Default ceiling for d1_ccu_set_pll_cpu() (Linux sun20i-d1.dtsi top OPP;
 *  the true maximum is unknown). */
#define D1_CCU_PLL_CPU_MAX_HZ_DEFAULT 1008000000u
#endif

#ifndef D1_CCU_PLL_LOCK_TIMEOUT_US
/** Budget for PLL_CPU's LOCK bit, us (the lock time is unknown). */
#define D1_CCU_PLL_LOCK_TIMEOUT_US 10000u
#endif

#ifndef D1_CCU_PLL_LOCK_POLL_US
/** Poll interval while waiting for LOCK, us: 1..D1_CCU_PLL_LOCK_TIMEOUT_US
 *  (checked at compile time by ccu.c). */
#define D1_CCU_PLL_LOCK_POLL_US 10u
#endif

#ifndef D1_CCU_PLL_SETTLE_US
/** Settle time after LOCK before the output is used (U-Boot waits ~20 us). */
#define D1_CCU_PLL_SETTLE_US 20u
#endif

#ifndef D1_CCU_APB_MAX_HZ
/** Ceiling for d1_ccu_apb1_config(), Hz (the APB1 maximum is unknown). */
#define D1_CCU_APB_MAX_HZ 100000000u
#endif

/** The CCU. Owned by the caller; fields are private. */
struct d1_ccu {
	uintptr_t base;      /**< CCU base (physical or ioremapped). */
	uint32_t osc24m_hz;  /**< OSC24M rate, Hz. */
	uint32_t losc_hz;    /**< LOSC rate, Hz. */
	uint32_t iosc_hz;    /**< Internal RC nominal rate, Hz. */
	uint64_t cpu_max_hz; /**< Ceiling for d1_ccu_set_pll_cpu(), Hz. */
};

/**
 * @brief Initialise the handle. Touches no register.
 * @param c       Handle to fill.
 * @param base    CCU base (D1_CCU_BASE or its mapping), non-zero, 4-byte
 *                aligned.
 * @param osc24m_hz OSC24M rate, Hz (D1_OSC24M_HZ), non-zero.
 * @return D1_OK; D1_EINVAL for a NULL handle, zero or unaligned base or
 *         zero rate. Every other call returns D1_EINVAL for a handle that
 *         fails these checks (nothing accessed).
 */
d1_err_t d1_ccu_init(struct d1_ccu *c, uintptr_t base, uint32_t osc24m_hz);

/**
 * @brief Change the ceiling d1_ccu_set_pll_cpu() enforces (default
 *        D1_CCU_PLL_CPU_MAX_HZ_DEFAULT). The caller answers for the core
 *        voltage at the new rate. Touches no register.
 * @param c      Initialised handle.
 * @param max_hz New ceiling, Hz: between OSC24M * D1_CCU_PLL_CPU_N_MIN and
 *               OSC24M * D1_CCU_PLL_CPU_N_MAX.
 * @return D1_OK; D1_EINVAL bad handle; D1_ERANGE outside that range.
 */
d1_err_t d1_ccu_set_cpu_limit(struct d1_ccu *c, uint64_t max_hz);

/**
 * @brief Rate of a clock, decoded from the live registers (reads only).
 * @param c   Initialised handle.
 * @param clk Which clock.
 * @param hz  Rate, Hz (rounded down); 0 on error.
 * @return D1_OK; D1_EINVAL bad handle/id/NULL @p hz; D1_ESTATE a PLL on the
 *         path is disabled or its output gate closed; D1_ENOTSUP the path
 *         uses a source this driver does not decode (PLL_AUDIO1, reserved mux
 *         values).
 */
d1_err_t d1_ccu_get_rate(const struct d1_ccu *c, enum d1_ccu_clk clk, uint64_t *hz);

/**
 * @brief Input clock of UARTn (APB1), for the UART driver's divisor.
 * @param c    Initialised handle.
 * @param uart 0..5.
 * @param hz   Rate, Hz; 0 on error.
 * @return As d1_ccu_get_rate(); D1_EINVAL for a bad UART number; D1_ERANGE
 *         when APB1 runs above UINT32_MAX Hz (only reachable with an
 *         oscillator rate far above the D1's 24 MHz).
 */
d1_err_t d1_ccu_uart_clock_hz(const struct d1_ccu *c, unsigned uart, uint32_t *hz);

/**
 * @brief Open UARTn's bus clock gate, then de-assert its reset:
 *        d1_ccu_bus_enable(c, D1_CCU_BUS_UART0 + uart).
 * @param c    Initialised handle.
 * @param uart 0..5.
 * @return D1_OK; D1_EINVAL bad handle or UART number.
 */
d1_err_t d1_ccu_uart_enable(const struct d1_ccu *c, unsigned uart);

/**
 * @brief Assert UARTn's reset, then close its gate:
 *        d1_ccu_bus_disable(c, D1_CCU_BUS_UART0 + uart).
 * @param c    Initialised handle.
 * @param uart 0..5.
 * @return D1_OK; D1_EINVAL bad handle or UART number.
 */
d1_err_t d1_ccu_uart_disable(const struct d1_ccu *c, unsigned uart);

/**
 * @brief Whether UARTn is clocked and out of reset:
 *        d1_ccu_bus_is_enabled(c, D1_CCU_BUS_UART0 + uart, on).
 * @param c    Initialised handle.
 * @param uart 0..5.
 * @param on   true when gate open and reset de-asserted.
 * @return D1_OK; D1_EINVAL bad handle, UART number or NULL @p on.
 */
d1_err_t d1_ccu_uart_is_enabled(const struct d1_ccu *c, unsigned uart, bool *on);

/**
 * @brief Clock a block and release its reset (gate, then reset, in one
 *        critical section; other instances' bits kept).
 * @param c   Initialised handle.
 * @param bus Which gate/reset pair.
 * @return D1_OK; D1_EINVAL bad handle or @p bus (nothing written).
 */
d1_err_t d1_ccu_bus_enable(const struct d1_ccu *c, enum d1_ccu_bus bus);

/**
 * @brief Put a block in reset and stop its bus clock (reset, then gate).
 *        Refused for D1_CCU_BUS_DRAM and D1_CCU_BUS_RISCV_CFG.
 * @param c   Initialised handle.
 * @param bus Which gate/reset pair.
 * @return D1_OK; D1_EINVAL bad handle or @p bus; D1_EBUSY a block the running
 *         system needs (nothing written in either case).
 */
d1_err_t d1_ccu_bus_disable(const struct d1_ccu *c, enum d1_ccu_bus bus);

/**
 * @brief Whether a block is clocked and out of reset (one read).
 * @param c   Initialised handle.
 * @param bus Which gate/reset pair.
 * @param on  true when its gate (if it has one) is open and its reset (if it
 *            has one) de-asserted.
 * @return D1_OK; D1_EINVAL bad handle, @p bus or NULL @p on.
 */
d1_err_t d1_ccu_bus_is_enabled(const struct d1_ccu *c, enum d1_ccu_bus bus, bool *on);

/**
 * @brief Configure APB1 (the UARTs' clock: their baud changes with it). The
 *        rate never exceeds the higher of the old and new rates meanwhile.
 * @param c          Initialised handle.
 * @param src        Source.
 * @param div_m      Divider 1..32.
 * @param div_p_log2 Second divider exponent 0..3 (divide by 1, 2, 4, 8).
 * @param hz         Optional: resulting rate, Hz.
 * @return D1_OK; D1_EINVAL bad handle/src/divider; D1_ESTATE the source is
 *         not running (PLL off); D1_ERANGE above D1_CCU_APB_MAX_HZ. On error
 *         nothing is written.
 */
d1_err_t d1_ccu_apb1_config(const struct d1_ccu *c, enum d1_ccu_apb_src src, unsigned div_m,
                            unsigned div_p_log2, uint32_t *hz);

/**
 * @brief Change PLL_CPU to N = hz / OSC24M (rounded down), M = 1, without
 *        ever leaving the core on an unlocked PLL (the core is parked on
 *        OSC24M meanwhile; sequence: docs/clocks-and-watchdog.md). Not a
 *        critical section: it waits up to D1_CCU_PLL_LOCK_TIMEOUT_US.
 * @param c           Initialised handle.
 * @param hz          Requested rate, Hz.
 * @param achieved_hz Optional: the rate programmed (OSC24M * N), Hz. Written
 *                    on D1_OK only; left untouched on every error,
 *                    D1_ETIMEDOUT included (the PLL never gave that rate).
 * @return D1_OK; D1_EINVAL bad handle; D1_ERANGE when N would be below
 *         D1_CCU_PLL_CPU_N_MIN or above D1_CCU_PLL_CPU_N_MAX, or the rate
 *         above the handle's ceiling (nothing written); D1_ETIMEDOUT when
 *         LOCK did not set within D1_CCU_PLL_LOCK_TIMEOUT_US: PLL_CPU is
 *         left enabled with the new N, its output gate closed, and a core
 *         that ran from PLL_CPU is left on the 24 MHz oscillator (a core on
 *         another source stays there).
 */
d1_err_t d1_ccu_set_pll_cpu(const struct d1_ccu *c, uint64_t hz, uint64_t *achieved_hz);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* D1_CCU_H */
