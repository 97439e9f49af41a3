#!/bin/busybox sh
# SPDX-License-Identifier: Apache-2.0
# /init of the initramfs scripts/os/linux.sh builds: busybox's applets, the
# kernel's file systems, then a shell on the console (tests/os/linux_boot.py
# waits for the marker line and the prompt).
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
# Kernel messages stay in the log (dmesg) and off the console: a line
# printed on the 115,200-baud console holds the CPU ~3 ms with interrupts
# off (8250 console write), which the latency runs would record.
dmesg -n 1
export PATH=/bin:/sbin:/usr/bin:/usr/sbin PS1='d1# '
echo "d1-init: up $(cut -d' ' -f1 /proc/uptime) s, $(uname -r)"
exec setsid cttyhack sh
