/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-or-later */
/**
 * @file ccu_regs.h
 * @brief Register map of the D1 clock control unit (CCU), base 0x02001000.
 *
 * Only the registers the drivers and ports need. Offsets are relative to
 * the CCU base. Sources: d1_unofficial.svd peripheral CCU (pll_cpu_ctrl,
 * pll_peri_ctrl, psi_clk, apb%s_clk, uart_bgr, riscv_clk: positions and
 * enumerations); Linux drivers/clk/sunxi-ng/ccu-sun20i-d1.c (PLL N = field
 * + 1, minimum 12; mux parents); U-Boot (APB1 / UART gate-then-reset
 * order, PLL bring-up); docs/hardware-facts.md "CCU".
 *
 * Naming (for the SVD cross-check): SVD register `<reg>` is
 * `D1_CCU_<REG>_OFFSET` (upper-cased; `apb%s_clk` is APB0_CLK / APB1_CLK,
 * fields shared as D1_CCU_APB_CLK_*); SVD field `<f>` is
 * `D1_CCU_<REG>_<F>_LSB` / `_BITS` with a leading `pll_` or `factor_`
 * removed from the field name (`pll_n` -> N, `factor_m` -> M,
 * `uart%s_gating` -> GATING(n)). The SVD calls PLL_PERI0 `pll_peri_ctrl`.
 */
#ifndef D1_CCU_REGS_H
#define D1_CCU_REGS_H

/** @defgroup d1_ccu_regs CCU registers
 * @{ */

/* --- PLL_CPU (0x000) --- */
#define D1_CCU_PLL_CPU_CTRL_OFFSET           0x000u      /**< PLL_CPU control (SVD pll_cpu_ctrl). */
#define D1_CCU_PLL_CPU_CTRL_EN_LSB           31u         /**< PLL enable. */
#define D1_CCU_PLL_CPU_CTRL_EN_BITS          0x80000000u /**< PLL enable mask. */
#define D1_CCU_PLL_CPU_CTRL_LDO_EN_LSB       30u         /**< LDO enable. */
#define D1_CCU_PLL_CPU_CTRL_LDO_EN_BITS      0x40000000u /**< LDO enable mask. */
#define D1_CCU_PLL_CPU_CTRL_LOCK_ENABLE_LSB  29u         /**< Lock detector enable. */
#define D1_CCU_PLL_CPU_CTRL_LOCK_ENABLE_BITS 0x20000000u /**< Lock detector enable mask. */
#define D1_CCU_PLL_CPU_CTRL_LOCK_LSB         28u         /**< Lock status, read-only. */
#define D1_CCU_PLL_CPU_CTRL_LOCK_BITS        0x10000000u /**< Lock status mask. */
#define D1_CCU_PLL_CPU_CTRL_OUTPUT_GATE_LSB  27u         /**< Output gate (Linux: the enable). */
#define D1_CCU_PLL_CPU_CTRL_OUTPUT_GATE_BITS 0x08000000u /**< Output gate mask. */
#define D1_CCU_PLL_CPU_CTRL_LOCK_TIME_LSB    24u /**< Lock time (units undocumented; kept). */
#define D1_CCU_PLL_CPU_CTRL_LOCK_TIME_BITS   0x07000000u /**< Lock time mask. */
#define D1_CCU_PLL_CPU_CTRL_N_LSB            8u          /**< N - 1 (N = field + 1, >= 12). */
#define D1_CCU_PLL_CPU_CTRL_N_BITS           0xFF00u     /**< N mask. */
#define D1_CCU_PLL_CPU_CTRL_M_LSB            0u          /**< M - 1 (input divider; SVD pll_m). */
#define D1_CCU_PLL_CPU_CTRL_M_BITS           0x3u        /**< M mask. */

/* --- PLL_PERI0 (0x020) --- */
#define D1_CCU_PLL_PERI_CTRL_OFFSET           0x020u /**< PLL_PERI0 control (SVD pll_peri_ctrl). */
#define D1_CCU_PLL_PERI_CTRL_EN_LSB           31u    /**< PLL enable. */
#define D1_CCU_PLL_PERI_CTRL_EN_BITS          0x80000000u /**< PLL enable mask. */
#define D1_CCU_PLL_PERI_CTRL_LDO_EN_LSB       30u         /**< LDO enable. */
#define D1_CCU_PLL_PERI_CTRL_LDO_EN_BITS      0x40000000u /**< LDO enable mask. */
#define D1_CCU_PLL_PERI_CTRL_LOCK_ENABLE_LSB  29u         /**< Lock detector enable. */
#define D1_CCU_PLL_PERI_CTRL_LOCK_ENABLE_BITS 0x20000000u /**< Lock detector enable mask. */
#define D1_CCU_PLL_PERI_CTRL_LOCK_LSB         28u         /**< Lock status, read-only. */
#define D1_CCU_PLL_PERI_CTRL_LOCK_BITS        0x10000000u /**< Lock status mask. */
#define D1_CCU_PLL_PERI_CTRL_OUTPUT_GATE_LSB  27u         /**< Output gate. */
#define D1_CCU_PLL_PERI_CTRL_OUTPUT_GATE_BITS 0x08000000u /**< Output gate mask. */
#define D1_CCU_PLL_PERI_CTRL_SDM_EN_LSB       24u         /**< Sigma-delta modulation enable. */
#define D1_CCU_PLL_PERI_CTRL_SDM_EN_BITS      0x01000000u /**< SDM enable mask. */
#define D1_CCU_PLL_PERI_CTRL_P1_LSB           20u         /**< P1 - 1: 800M output = 4X / P1. */
#define D1_CCU_PLL_PERI_CTRL_P1_BITS          0x700000u   /**< P1 mask. */
#define D1_CCU_PLL_PERI_CTRL_P0_LSB           16u         /**< P0 - 1: 2X output = 4X / P0. */
#define D1_CCU_PLL_PERI_CTRL_P0_BITS          0x70000u    /**< P0 mask. */
#define D1_CCU_PLL_PERI_CTRL_N_LSB            8u          /**< N - 1. */
#define D1_CCU_PLL_PERI_CTRL_N_BITS           0xFF00u     /**< N mask. */
#define D1_CCU_PLL_PERI_CTRL_INPUT_DIV2_LSB   1u   /**< M - 1 (input /2; SVD pll_input_div2). */
#define D1_CCU_PLL_PERI_CTRL_INPUT_DIV2_BITS  0x2u /**< Input divider mask. */

/* --- PSI_AHB (0x510) --- */
#define D1_CCU_PSI_CLK_OFFSET           0x510u     /**< PSI / AHB clock (SVD psi_clk). */
#define D1_CCU_PSI_CLK_M_LSB            0u         /**< M - 1. */
#define D1_CCU_PSI_CLK_M_BITS           0x3u       /**< M mask. */
#define D1_CCU_PSI_CLK_N_LSB            8u         /**< Divide by 2^N. */
#define D1_CCU_PSI_CLK_N_BITS           0x300u     /**< N mask. */
#define D1_CCU_PSI_CLK_CLK_SRC_SEL_LSB  24u        /**< 0 OSC24M, 1 LOSC, 2 IOSC, 3 PERI0(1X). */
#define D1_CCU_PSI_CLK_CLK_SRC_SEL_BITS 0x3000000u /**< Source mask. */

/* --- APB0 / APB1 (0x520 / 0x524) --- */
#define D1_CCU_APB0_CLK_OFFSET          0x520u /**< APB0 clock (SVD apb%s_clk, n = 0). */
#define D1_CCU_APB1_CLK_OFFSET          0x524u /**< APB1 clock (SVD apb%s_clk, n = 1); feeds the UARTs. */
#define D1_CCU_APB_CLK_M_LSB            0u         /**< M - 1 (divide by 1..32). */
#define D1_CCU_APB_CLK_M_BITS           0x1Fu      /**< M mask. */
#define D1_CCU_APB_CLK_N_LSB            8u         /**< Divide by 2^N. */
#define D1_CCU_APB_CLK_N_BITS           0x300u     /**< N mask. */
#define D1_CCU_APB_CLK_CLK_SRC_SEL_LSB  24u        /**< 0 OSC24M, 1 LOSC, 2 PSI, 3 PERI0(1X). */
#define D1_CCU_APB_CLK_CLK_SRC_SEL_BITS 0x3000000u /**< Source mask. */

/* --- UART bus gate / reset (0x90C) --- */
#define D1_CCU_UART_BGR_OFFSET         0x90Cu      /**< UART bus gating + reset (SVD uart_bgr). */
#define D1_CCU_UART_BGR_GATING_LSB(n)  (n)         /**< UARTn bus clock gate, 1 = pass. */
#define D1_CCU_UART_BGR_GATING_BITS(n) (1u << (n)) /**< UARTn gate mask. */
#define D1_CCU_UART_BGR_RST_LSB(n)     (16u + (n)) /**< UARTn reset, 1 = de-asserted. */
#define D1_CCU_UART_BGR_RST_BITS(n)    (1u << (16u + (n))) /**< UARTn reset mask. */

/* --- RISC-V (C906) core clock (0xD00) --- */
#define D1_CCU_RISCV_CLK_OFFSET           0xD00u     /**< C906 core clock (SVD riscv_clk). */
#define D1_CCU_RISCV_CLK_DIV_CFG_LSB      0u         /**< M - 1: core = source / M. */
#define D1_CCU_RISCV_CLK_DIV_CFG_BITS     0x1Fu      /**< M mask. */
#define D1_CCU_RISCV_CLK_AXI_DIV_CFG_LSB  8u         /**< N - 1: AXI = core / N. */
#define D1_CCU_RISCV_CLK_AXI_DIV_CFG_BITS 0x300u     /**< AXI divider mask. */
#define D1_CCU_RISCV_CLK_CLK_SRC_SEL_LSB  24u        /**< Source, see D1_CCU_RISCV_SRC_*. */
#define D1_CCU_RISCV_CLK_CLK_SRC_SEL_BITS 0x7000000u /**< Source mask. */

/* --- mux values --- */
#define D1_CCU_PSI_SRC_OSC24M        0u /**< PSI source: 24 MHz OSC24M. */
#define D1_CCU_PSI_SRC_LOSC          1u /**< PSI source: 32.768 kHz. */
#define D1_CCU_PSI_SRC_IOSC          2u /**< PSI source: internal 16 MHz RC. */
#define D1_CCU_PSI_SRC_PERI0_1X      3u /**< PSI source: PLL_PERI0(1X). */
#define D1_CCU_RISCV_SRC_OSC24M      0u /**< Core source: 24 MHz OSC24M (the safe one). */
#define D1_CCU_RISCV_SRC_LOSC        1u /**< Core source: 32.768 kHz. */
#define D1_CCU_RISCV_SRC_IOSC        2u /**< Core source: internal 16 MHz RC. */
#define D1_CCU_RISCV_SRC_PERI0_800M  3u /**< Core source: PLL_PERI0(800M). */
#define D1_CCU_RISCV_SRC_PERI0_1X    4u /**< Core source: PLL_PERI0(1X). */
#define D1_CCU_RISCV_SRC_PLL_CPU     5u /**< Core source: PLL_CPU. */
#define D1_CCU_RISCV_SRC_AUDIO1_DIV2 6u /**< Core source: PLL_AUDIO1(DIV2) (not decoded). */

/* --- bus clock gates and resets: the 39 *_BGR registers --- */
/**
 * Every bus gate / reset pair of the CCU, one row per block instance:
 * X(NAME, SVD register, offset, SVD gate field, gate bit, SVD reset field,
 * reset bit). Gate bit 1 = bus clock passes; reset bit 1 = reset
 * de-asserted (SVD *_bgr field descriptions; the same layout as UART_BGR).
 * D1_CCU_BUS_NO_BIT: the register has no such bit for the block (iommu_bgr
 * has no reset, lvds_bgr and the DSP core / debug resets no gate).
 * enum d1_ccu_bus (ccu.h) names the rows in this order. Checked against the
 * SVD by tests/test_regs_svd.c: every offset and bit, and that every
 * *_bgr register and every gating / rst field the SVD lists is a row.
 */
#define D1_CCU_BUS_NO_BIT 0xFFu /**< No gate (or no reset) bit for this row. */
/** The table (see above). */
#define D1_CCU_BUS_LIST(X)                                                                         \
	X(DE, "de_bgr", 0x60Cu, "gating", 0u, "rst", 16u)                                          \
	X(DI, "di_bgr", 0x62Cu, "gating", 0u, "rst", 16u)                                          \
	X(G2D, "g2d_bgr", 0x63Cu, "gating", 0u, "rst", 16u)                                        \
	X(CE, "ce_bgr", 0x68Cu, "gating", 0u, "rst", 16u)                                          \
	X(VE, "ve_bgr", 0x69Cu, "gating", 0u, "rst", 16u)                                          \
	X(DMA, "dma_bgr", 0x70Cu, "gating", 0u, "rst", 16u)                                        \
	X(MSGBOX0, "msgbox_bgr", 0x71Cu, "msgbox0_gating", 0u, "msgbox0_rst", 16u)                 \
	X(MSGBOX1, "msgbox_bgr", 0x71Cu, "msgbox1_gating", 1u, "msgbox1_rst", 17u)                 \
	X(MSGBOX2, "msgbox_bgr", 0x71Cu, "msgbox2_gating", 2u, "msgbox2_rst", 18u)                 \
	X(SPINLOCK, "spinlock_bgr", 0x72Cu, "gating", 0u, "rst", 16u)                              \
	X(HSTIMER, "hstimer_bgr", 0x73Cu, "gating", 0u, "rst", 16u)                                \
	X(DBGSYS, "dbgsys_bgr", 0x78Cu, "gating", 0u, "rst", 16u)                                  \
	X(PWM, "pwm_bgr", 0x7ACu, "gating", 0u, "rst", 16u)                                        \
	X(IOMMU, "iommu_bgr", 0x7BCu, "gating", 0u, "", D1_CCU_BUS_NO_BIT)                         \
	X(DRAM, "dram_bgr", 0x80Cu, "gating", 0u, "rst", 16u)                                      \
	X(SMHC0, "smhc_bgr", 0x84Cu, "smhc0_gating", 0u, "smhc0_rst", 16u)                         \
	X(SMHC1, "smhc_bgr", 0x84Cu, "smhc1_gating", 1u, "smhc1_rst", 17u)                         \
	X(SMHC2, "smhc_bgr", 0x84Cu, "smhc2_gating", 2u, "smhc2_rst", 18u)                         \
	X(UART0, "uart_bgr", D1_CCU_UART_BGR_OFFSET, "uart0_gating",                               \
	  D1_CCU_UART_BGR_GATING_LSB(0), "uart0_rst", D1_CCU_UART_BGR_RST_LSB(0))                  \
	X(UART1, "uart_bgr", D1_CCU_UART_BGR_OFFSET, "uart1_gating",                               \
	  D1_CCU_UART_BGR_GATING_LSB(1), "uart1_rst", D1_CCU_UART_BGR_RST_LSB(1))                  \
	X(UART2, "uart_bgr", D1_CCU_UART_BGR_OFFSET, "uart2_gating",                               \
	  D1_CCU_UART_BGR_GATING_LSB(2), "uart2_rst", D1_CCU_UART_BGR_RST_LSB(2))                  \
	X(UART3, "uart_bgr", D1_CCU_UART_BGR_OFFSET, "uart3_gating",                               \
	  D1_CCU_UART_BGR_GATING_LSB(3), "uart3_rst", D1_CCU_UART_BGR_RST_LSB(3))                  \
	X(UART4, "uart_bgr", D1_CCU_UART_BGR_OFFSET, "uart4_gating",                               \
	  D1_CCU_UART_BGR_GATING_LSB(4), "uart4_rst", D1_CCU_UART_BGR_RST_LSB(4))                  \
	X(UART5, "uart_bgr", D1_CCU_UART_BGR_OFFSET, "uart5_gating",                               \
	  D1_CCU_UART_BGR_GATING_LSB(5), "uart5_rst", D1_CCU_UART_BGR_RST_LSB(5))                  \
	X(TWI0, "twi_bgr", 0x91Cu, "twi0_gating", 0u, "twi0_rst", 16u)                             \
	X(TWI1, "twi_bgr", 0x91Cu, "twi1_gating", 1u, "twi1_rst", 17u)                             \
	X(TWI2, "twi_bgr", 0x91Cu, "twi2_gating", 2u, "twi2_rst", 18u)                             \
	X(TWI3, "twi_bgr", 0x91Cu, "twi3_gating", 3u, "twi3_rst", 19u)                             \
	X(SPI0, "spi_bgr", 0x96Cu, "spi0_gating", 0u, "spi0_rst", 16u)                             \
	X(SPI1, "spi_bgr", 0x96Cu, "spi1_gating", 1u, "spi1_rst", 17u)                             \
	X(EMAC, "emac_bgr", 0x97Cu, "gating", 0u, "rst", 16u)                                      \
	X(IRTX, "irtx_bgr", 0x9CCu, "gating", 0u, "rst", 16u)                                      \
	X(GPADC, "gpadc_bgr", 0x9ECu, "gating", 0u, "rst", 16u)                                    \
	X(THS, "ths_bgr", 0x9FCu, "gating", 0u, "rst", 16u)                                        \
	X(I2S0, "i2s_bgr", 0xA20u, "i2s0_gating", 0u, "i2s0_rst", 16u)                             \
	X(I2S1, "i2s_bgr", 0xA20u, "i2s1_gating", 1u, "i2s1_rst", 17u)                             \
	X(I2S2, "i2s_bgr", 0xA20u, "i2s2_gating", 2u, "i2s2_rst", 18u)                             \
	X(OWA, "owa_bgr", 0xA2Cu, "gating", 0u, "rst", 16u)                                        \
	X(DMIC, "dmic_bgr", 0xA4Cu, "gating", 0u, "rst", 16u)                                      \
	X(AUDIO_CODEC, "audio_codec_bgr", 0xA5Cu, "gating", 0u, "rst", 16u)                        \
	X(USB_OHCI0, "usb_bgr", 0xA8Cu, "usbohci0_gating", 0u, "usbohci0_rst", 16u)                \
	X(USB_OHCI1, "usb_bgr", 0xA8Cu, "usbohci1_gating", 1u, "usbohci1_rst", 17u)                \
	X(USB_EHCI0, "usb_bgr", 0xA8Cu, "usbehci0_gating", 4u, "usbehci0_rst", 20u)                \
	X(USB_EHCI1, "usb_bgr", 0xA8Cu, "usbehci1_gating", 5u, "usbehci1_rst", 21u)                \
	X(USB_OTG0, "usb_bgr", 0xA8Cu, "usbotg0_gating", 8u, "usbotg0_rst", 24u)                   \
	X(LRADC, "lradc_bgr", 0xA9Cu, "gating", 0u, "rst", 16u)                                    \
	X(DPSS_TOP, "dpss_top_bgr", 0xABCu, "gating", 0u, "rst", 16u)                              \
	X(DSI, "dsi_bgr", 0xB4Cu, "gating", 0u, "rst", 16u)                                        \
	X(TCONLCD, "tconlcd_bgr", 0xB7Cu, "gating", 0u, "rst", 16u)                                \
	X(TCONTV, "tcontv_bgr", 0xB9Cu, "gating", 0u, "rst", 16u)                                  \
	X(LVDS, "lvds_bgr", 0xBACu, "", D1_CCU_BUS_NO_BIT, "rst", 16u)                             \
	X(TVE_TOP, "tve_bgr", 0xBBCu, "top_gating", 0u, "top_rst", 16u)                            \
	X(TVE, "tve_bgr", 0xBBCu, "gating", 1u, "rst", 17u)                                        \
	X(TVD_TOP, "tvd_bgr", 0xBDCu, "top_gating", 0u, "top_rst", 16u)                            \
	X(TVD, "tvd_bgr", 0xBDCu, "gating", 1u, "rst", 17u)                                        \
	X(LEDC, "ledc_bgr", 0xBFCu, "gating", 0u, "rst", 16u)                                      \
	X(CSI, "csi_bgr", 0xC1Cu, "gating", 0u, "rst", 16u)                                        \
	X(TPADC, "tpadc_bgr", 0xC5Cu, "gating", 0u, "rst", 16u)                                    \
	X(DSP, "dsp_bgr", 0xC7Cu, "", D1_CCU_BUS_NO_BIT, "rst", 16u)                               \
	X(DSP_CFG, "dsp_bgr", 0xC7Cu, "cfg_gating", 1u, "cfg_rst", 17u)                            \
	X(DSP_DBG, "dsp_bgr", 0xC7Cu, "", D1_CCU_BUS_NO_BIT, "dbg_rst", 18u)                       \
	X(RISCV_CFG, "riscv_cfg_bgr", 0xD0Cu, "gating", 0u, "rst", 16u)

#define D1_CCU_WINDOW 0x1000u /**< Size of the CCU register window (dtsi `reg`). */
/** @} */

#endif /* D1_CCU_REGS_H */
