/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file ccu_regs.h
 * @brief Register map of the D1 clock control unit (CCU), base 0x02001000.
 *
 * Only the registers the drivers and ports need. Offsets are relative to
 * the CCU base. Sources: d1_unofficial.svd peripheral CCU (pll_cpu_ctrl,
 * pll_peri_ctrl, psi_clk, apb%s_clk, uart_bgr, riscv_clk: positions and
 * enumerations); Linux drivers/clk/sunxi-ng/ccu-sun20i-d1.c (PLL N = field
 * + 1, minimum 12; mux parents); U-Boot (APB1 / UART gate-then-reset
 * order, PLL bring-up); d1-hardware.md "CCU".
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

#define D1_CCU_WINDOW 0x1000u /**< Size of the CCU register window (dtsi `reg`). */
/** @} */

#endif /* D1_CCU_REGS_H */
