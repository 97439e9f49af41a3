#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Library code size per object and per use profile, from a real link.

For each profile (a set of public headers), a generated program takes the
address of every public function those headers declare, and is linked
against the cross-built libd1drivers.a (the core a device links) and
libd1drivers_report.a (the optional read side) with --gc-sections. The linker map
then says exactly which library sections a kernel using that profile pulls
in: the figure is the sum of the .text/.rodata/.data/.bss input sections
that come from the library archive (the generated program and the port
stubs are not counted).

Usage: size_profiles.py <build/d1 dir> <include dir>
"""
import os
import re
import subprocess
import sys
import tempfile

DRIVERS = ["timer.h", "wdt.h", "ccu.h", "uart.h", "plic.h", "time.h"]
REC_CORE = ["d1_lat_init", "d1_lat_reset", "d1_lat_record", "d1_lat_missed", "d1_lat_dump"]
# What a kernel's tick, watchdog, console and IRQ glue typically call.
TICK = ["d1_timer_init", "d1_timer_set_period_hz", "d1_timer_irq_enable", "d1_timer_start",
        "d1_timer_isr", "d1_timer_stop"]
KERNEL = TICK + ["d1_wdt_init", "d1_wdt_takeover", "d1_wdt_feed", "d1_plic_init",
                 "d1_plic_set_priority", "d1_plic_enable", "d1_plic_disable", "d1_plic_isr",
                 "d1_ccu_init", "d1_ccu_uart_clock_hz", "d1_ccu_uart_enable", "d1_uart_init",
                 "d1_uart_configure", "d1_uart_putc", "d1_uart_irq_start", "d1_uart_isr",
                 "d1_time_delay_us"]
# The same with the UART in byte mode, as the NuttX and RT-Thread consoles
# use it by default (the OS's upper half keeps the buffers; bursts through
# getn/putn, putc for the polled console).
KERNEL_BYTE = [f for f in KERNEL if f not in ("d1_uart_irq_start", "d1_uart_isr")] + [
    "d1_uart_irq_set", "d1_uart_irq_poll", "d1_uart_getn", "d1_uart_putn"]
# A profile: public headers (every function they declare) and single functions.
PROFILES = [
    ("tick calls only", TICK),
    ("kernel calls, five drivers", KERNEL),
    ("kernel calls, UART byte mode", KERNEL_BYTE),
    ("kernel calls + recorder core", KERNEL + REC_CORE),
    ("all of timer.h", ["timer.h"]),
    ("all of timer.h + wdt.h", ["timer.h", "wdt.h"]),
    ("all five drivers' headers", DRIVERS),
    ("  + recorder core", DRIVERS + REC_CORE),
    ("  + report (d1drivers_report)", DRIVERS + REC_CORE + ["d1_wdt_format_state", "d1_lat_summarize",
                                                            "d1_lat_report_text", "d1_lat_report_json"]),
    ("everything public", None),
]

DECL = re.compile(r"^(?!static)[A-Za-z_][\w \*]*?\b(d1_[a-z0-9_]+)\s*\(", re.M)
SKIP = re.compile(r"^d1_(mmio_hook|port|time_hook|bench_hook)")


def declared(inc, header):
    """Public functions a header declares (not the port or simulator hooks)."""
    with open(os.path.join(inc, header), encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    return [m.group(1) for m in DECL.finditer(text) if not SKIP.search(m.group(1))]


def public_functions(inc, items):
    """(every header, the functions of a profile): headers expand to all they declare."""
    headers = sorted(f for f in os.listdir(inc) if f.endswith(".h"))
    names = []
    for item in headers if items is None else items:
        for n in declared(inc, item) if item.endswith(".h") else [item]:
            if n not in names:
                names.append(n)
    return headers, names


def link(builddir, inc, tmp, files, names):
    src = os.path.join(tmp, "p.c")
    with open(src, "w", encoding="utf-8") as f:
        f.write("#include <stdint.h>\n#include <stddef.h>\n")
        for h in files:
            f.write('#include "d1/%s"\n' % h)
        f.write("void d1_port_delay_us(uint32_t us) { (void)us; }\n")
        f.write("uintptr_t d1_port_critical_enter(void) { return 0; }\n")
        f.write("void d1_port_critical_exit(uintptr_t s) { (void)s; }\n")
        f.write("void *memset(void *d, int c, size_t n);\nvoid *memcpy(void *d, const void *s, size_t n);\n")
        f.write("void *memset(void *d, int c, size_t n) { unsigned char *p = d; while (n--) *p++ = (unsigned char)c; return d; }\n")
        f.write("void *memcpy(void *d, const void *s, size_t n) { unsigned char *p = d; const unsigned char *q = s; while (n--) *p++ = *q++; return d; }\n")
        f.write("const void *volatile keep[] = {\n")
        for n in names:
            f.write("\t(const void *)(uintptr_t)%s,\n" % n)
        f.write("};\nvoid _start(void);\nvoid _start(void) { for (;;) (void)keep[0]; }\n")
    elf = os.path.join(tmp, "p.elf")
    mapf = os.path.join(tmp, "p.map")
    cmd = ["riscv64-unknown-elf-gcc", "-march=rv64imafdc_zicsr_zifencei", "-mabi=lp64d",
           "-mcmodel=medany", "-Os", "-ffreestanding", "-nostdlib", "-I", inc, src,
           os.path.join(builddir, "src", "libd1drivers_report.a"),
           os.path.join(builddir, "src", "libd1drivers.a"), "-lgcc", "-Wl,--gc-sections",
           "-Wl,-e,_start", "-Wl,-Map," + mapf, "-o", elf]
    subprocess.run(cmd, check=True)
    return mapf


def sum_library_sections(mapf):
    """Sizes of input sections whose file is an object of either archive."""
    out = {"text": 0, "rodata": 0, "data": 0, "bss": 0}
    with open(mapf, encoding="utf-8") as f:
        lines = f.read().split("\n")
    # Only the part after "Linker script and memory map" lists kept sections.
    start = next(i for i, l in enumerate(lines) if l.startswith("Linker script and memory map"))
    pending = None
    for line in lines[start:]:
        m = re.match(r"^ (\.[\w.$]+)\s*$", line)
        if m:
            pending = m.group(1)
            continue
        m = re.match(r"^ (\.[\w.$]+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", line)
        if not m:
            pending = None
            continue
        sec = m.group(1) or pending
        pending = None
        if sec is None or not re.search(r"libd1drivers(_report)?\.a", m.group(4)):
            continue
        size = int(m.group(3), 16)
        for kind in ("text", "rodata", "data", "bss"):
            if sec == "." + kind or sec.startswith("." + kind + ".") or \
               (kind == "data" and sec.startswith(".sdata")) or \
               (kind == "bss" and sec.startswith(".sbss")) or \
               (kind == "rodata" and sec.startswith(".srodata")):
                out[kind] += size
                break
    return out


def main():
    builddir, inc = sys.argv[1], os.path.join(sys.argv[2], "d1")
    print("%-30s %6s %7s %7s %5s %5s  %s" % ("profile", ".text", ".rodata", "text*", ".data", ".bss",
                                            "functions"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, headers in PROFILES:
            files, names = public_functions(inc, headers)
            s = sum_library_sections(link(builddir, sys.argv[2], tmp, files, names))
            print("%-30s %6d %7d %7d %5d %5d  %d" % (name, s["text"], s["rodata"], s["text"] + s["rodata"],
                                                    s["data"], s["bss"], len(names)))
    print("text* = .text + .rodata, the 'text' column of riscv64-unknown-elf-size")


if __name__ == "__main__":
    main()
