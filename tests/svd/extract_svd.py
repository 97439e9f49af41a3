#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Extracts CCU/TIMER/UART/PLIC/CLINT registers, fields and IRQs from a D1 SVD into a CSV table.
"""Usage: extract_svd.py <path/to/d1_unofficial.svd> <out.csv>

Produces rows ``peripheral,base,register,offset,field,lsb,width``:
  * one register row per (expanded) register, with field/lsb/width empty;
  * one row per (expanded) field of that register;
  * ``IRQ:<name>`` rows with the interrupt number (decimal) in the offset column;
  * for dim'ed peripherals (UART[%s]) ``INSTANCE:<name>`` rows with the
    absolute instance base address in the offset column.
Register offsets are relative to the peripheral base (first instance for
dim'ed peripherals). Lines beginning with '#' are comments.
Only the Python standard library is used.
"""

import csv
import io
import re
import sys
import xml.etree.ElementTree as ET

WANTED = ("CCU", "TIMER", "UART", "PLIC", "CLINT")

CSV_PREAMBLE = (
    "# SPDX-License-Identifier: MIT\n"
    "# Extracted from d1_unofficial.svd (d1-pac project, MIT) by tests/svd/extract_svd.py\n"
)


def parse_int(text):
    """Parse an SVD scaledNonNegativeInteger (0x.., #binary, decimal)."""
    t = text.strip().lower()
    if t.startswith("0x"):
        return int(t, 16)
    if t.startswith("#"):
        return int(t[1:].replace("x", "0"), 2)
    if t.startswith("0b"):
        return int(t[2:], 2)
    mult = 1
    if t and t[-1] in "kmg":
        mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[t[-1]]
        t = t[:-1]
    return int(t, 10) * mult


def text(elem, tag):
    child = elem.find(tag)
    if child is None or child.text is None:
        return None
    return child.text.strip()


def dim_indices(elem):
    """Return the list of index strings for a dim'ed element, or None."""
    dim = text(elem, "dim")
    if dim is None:
        return None
    n = parse_int(dim)
    idx = text(elem, "dimIndex")
    if idx is None:
        return [str(i) for i in range(n)]
    idx = idx.replace(" ", "")
    m = re.fullmatch(r"(\d+)-(\d+)", idx)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        out = [str(i) for i in range(lo, hi + 1)]
    else:
        m = re.fullmatch(r"([A-Za-z])-([A-Za-z])", idx)
        if m:
            out = [chr(c) for c in range(ord(m.group(1)), ord(m.group(2)) + 1)]
        else:
            out = idx.split(",")
    if len(out) != n:
        raise ValueError("dimIndex %r does not match dim %d for %s"
                         % (idx, n, text(elem, "name")))
    return out


def expand(elem):
    """Yield (name, index_number) for an element, expanding dim arrays.

    index_number is the position in the array (0..dim-1), used to multiply
    dimIncrement. Non-array elements yield (name, 0).
    """
    name = text(elem, "name")
    indices = dim_indices(elem)
    if indices is None:
        yield name, 0, 0
        return
    inc = parse_int(text(elem, "dimIncrement") or "0")
    for i, ix in enumerate(indices):
        yield name.replace("%s", ix), i * inc, i


def field_range(field):
    """Return (lsb, width) for a field in any of the three SVD forms."""
    br = text(field, "bitRange")
    if br is not None:
        m = re.fullmatch(r"\[\s*(\w+)\s*:\s*(\w+)\s*\]", br)
        if not m:
            raise ValueError("bad bitRange %r" % br)
        msb, lsb = parse_int(m.group(1)), parse_int(m.group(2))
        return lsb, msb - lsb + 1
    if text(field, "bitOffset") is not None:
        lsb = parse_int(text(field, "bitOffset"))
        width = parse_int(text(field, "bitWidth") or "1")
        return lsb, width
    if text(field, "lsb") is not None:
        lsb = parse_int(text(field, "lsb"))
        msb = parse_int(text(field, "msb"))
        return lsb, msb - lsb + 1
    raise ValueError("field %s has no bit position" % text(field, "name"))


def find_by_name(parent, tag, name):
    for e in parent.findall(tag):
        if text(e, "name") == name:
            return e
    return None


def effective_children(elem, siblings_parent, tag):
    """Children of elem, falling back to its derivedFrom source if absent."""
    src = elem.get("derivedFrom")
    if src is None or siblings_parent is None:
        return elem
    base = find_by_name(siblings_parent, tag, src)
    if base is None:
        raise ValueError("derivedFrom %r not found" % src)
    return base


def collect_registers(container, base_off, prefix, out):
    """Append (reg_name, offset, [(field, lsb, width), ...]) tuples to out."""
    for child in container:
        if child.tag == "register":
            reg = child
            fsrc = reg
            if reg.get("derivedFrom") is not None:
                fsrc = find_by_name(container, "register", reg.get("derivedFrom"))
                if fsrc is None:
                    raise ValueError("register derivedFrom not found")
            off0 = parse_int(text(reg, "addressOffset"))
            fields_elem = fsrc.find("fields")
            for rname, rinc, _ in expand(reg):
                fields = []
                if fields_elem is not None:
                    for f in fields_elem.findall("field"):
                        lsb0, width = field_range(f)
                        for fname, finc, _ in expand(f):
                            fields.append((fname.lower(), lsb0 + finc, width))
                out.append(((prefix + rname).lower(), base_off + off0 + rinc,
                            fields))
        elif child.tag == "cluster":
            coff = parse_int(text(child, "addressOffset"))
            for cname, cinc, _ in expand(child):
                collect_registers(child, base_off + coff + cinc,
                                  prefix + cname + "_", out)


def extract(svd_path):
    root = ET.parse(svd_path).getroot()
    periphs = root.find("peripherals")
    rows = []
    for p in periphs.findall("peripheral"):
        raw_name = text(p, "name")
        pname = re.sub(r"\[?%s\]?", "", raw_name)
        if pname not in WANTED:
            continue
        src = effective_children(p, periphs, "peripheral")
        base = parse_int(text(p, "baseAddress"))
        key_base = "0x%08X" % base

        regs_elem = p.find("registers")
        if regs_elem is None:
            regs_elem = src.find("registers")
        regs = []
        if regs_elem is not None:
            collect_registers(regs_elem, 0, "", regs)
        for rname, off, fields in regs:
            rows.append((pname, key_base, 0, off, rname, -1, "", "", ""))
            for fname, lsb, width in fields:
                rows.append((pname, key_base, 0, off, rname, lsb, fname,
                             str(lsb), str(width)))

        irqs = p.findall("interrupt") or src.findall("interrupt")
        for irq in irqs:
            num = parse_int(text(irq, "value"))
            rows.append((pname, key_base, 1, num, "IRQ:" + text(irq, "name"),
                         -1, "", "", ""))

        for iname, inc, _ in (expand(p) if text(p, "dim") else []):
            iname = re.sub(r"[\[\]]", "", iname)  # UART[0] -> UART0
            rows.append((pname, key_base, 2, base + inc, "INSTANCE:" + iname,
                         -1, "", "", ""))

    # peripheral, kind (regs, IRQs, instances), offset, register, lsb, field
    rows.sort(key=lambda r: (r[0], r[2], r[3], r[4], r[5], r[6]))
    out = []
    for pname, key_base, kind, off, reg, _lsb, field, lsb, width in rows:
        if kind == 0:
            off_s = "0x%04X" % off
        elif kind == 1:
            off_s = str(off)
        else:
            off_s = "0x%08X" % off
        out.append((pname, key_base, reg, off_s, field, lsb, width))
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    rows = extract(argv[1])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("peripheral", "base", "register", "offset", "field", "lsb",
                "width"))
    w.writerows(rows)
    with open(argv[2], "w", encoding="utf-8", newline="\n") as fh:
        fh.write(CSV_PREAMBLE)
        fh.write(buf.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
