/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Board header of d1-lib-panel (NuttX installs it as <arch/board/board.h>).
 * The board has no LEDs driven by NuttX (CONFIG_ARCH_LEDS is off), so this
 * only gives the LED_* event numbers the common code may name.
 */
#ifndef D1LIB_PANEL_BOARD_H
#define D1LIB_PANEL_BOARD_H

#define LED_STARTED      0
#define LED_HEAPALLOCATE 1
#define LED_IRQSENABLED  2
#define LED_STACKCREATED 3
#define LED_INIRQ        4
#define LED_SIGNAL       5
#define LED_ASSERTION    6
#define LED_PANIC        7

#endif /* D1LIB_PANEL_BOARD_H */
