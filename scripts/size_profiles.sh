#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Library size per object and per "profile": link, from the d1 preset's
# libd1drivers.a (-ffunction-sections objects), only what a kernel calling
# the listed public functions needs (--gc-sections, libc symbols left
# unresolved), and print the archive members pulled in and the .text size.
# Usage: scripts/size_profiles.sh [build/d1]   (after cmake --build --preset d1)
set -eu
B=${1:-build/d1}
LIB=$B/src/libd1drivers.a
[ -f "$LIB" ] || { echo "no $LIB: run cmake --preset d1 && cmake --build --preset d1" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "== per object (riscv64-unknown-elf-size, text includes .rodata) =="
riscv64-unknown-elf-size -t "$LIB" | sed 's/ (ex [^)]*)//'

profile() {
	name=$1
	shift
	us=""
	for f in "$@"; do us="$us -u $f"; done
	# shellcheck disable=SC2086
	riscv64-unknown-elf-ld -o "$TMP/$name.elf" --gc-sections -e 0 $us \
		--unresolved-symbols=ignore-all -Map "$TMP/$name.map" "$LIB"
	objs=$(grep -oE 'libd1drivers\.a\([a-z_0-9]+\.c\.obj\)' "$TMP/$name.map" |
		sed 's/.*(\(.*\)\.c\.obj)/\1/' | sort -u | tr '\n' ' ')
	text=$(riscv64-unknown-elf-size "$TMP/$name.elf" | awk 'NR == 2 { print $1 }')
	printf '%-16s %6s B  %s\n' "$name" "$text" "$objs"
}

TIMER="d1_timer_init d1_timer_set_period_hz d1_timer_irq_enable d1_timer_start d1_timer_isr d1_timer_stop"
WDT="d1_wdt_init d1_wdt_takeover d1_wdt_feed"
PLIC="d1_plic_init d1_plic_set_priority d1_plic_enable d1_plic_isr"
CCU="d1_ccu_init d1_ccu_uart_clock_hz d1_ccu_uart_enable"
UART="d1_uart_init d1_uart_configure d1_uart_putc d1_uart_isr"
echo "== profiles (linked .text, objects pulled in) =="
# shellcheck disable=SC2086
{
	profile timer-only $TIMER
	profile timer+wdt $TIMER $WDT
	profile timer+wdt+fmt $TIMER $WDT d1_wdt_get_state d1_wdt_format_state
	profile plic-only $PLIC
	profile all-five $TIMER $WDT $PLIC $CCU $UART
	profile all+recorder $TIMER $WDT $PLIC $CCU $UART d1_lat_init d1_lat_record d1_lat_report_text
}
