#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tie the stand-in RT-Thread headers (tests/rtthread/include) to a real
RT-Thread tree: every function prototype, typedef, macro value, enum
member list and struct field list declared in a stand-in must appear,
the same after whitespace and parameter-name normalisation, in the real
header it stands in for. A struct's stand-in fields must be an ordered
subsequence of the real fields (the stand-ins leave out what the glue does
not use). Deliberate differences are listed in EXEMPT with the reason.

usage: check_standins.py <stand-in include dir> [<RT-Thread root>]
The root may also come from $RTT_ROOT. Without one it exits 77 (skip):
CI has no RT-Thread tree (none is fetched or committed).
"""
import os
import re
import sys

# stand-in header -> real header(s), relative to the RT-Thread root
MAP = {
    'rtdef.h': ['include/rtdef.h'],
    'rtthread.h': ['include/rtthread.h'],
    'rthw.h': ['include/rthw.h'],
    'drivers/hwtimer.h': ['components/drivers/include/drivers/hwtimer.h'],
    'drivers/watchdog.h': ['components/drivers/include/drivers/watchdog.h'],
    'drivers/serial_v2.h': ['components/drivers/include/drivers/serial_v2.h'],
    'ipc/ringbuffer.h': ['components/drivers/include/ipc/ringbuffer.h'],
    'finsh.h': ['components/finsh/finsh.h'],
    'ioremap.h': ['components/mm/ioremap.h'],
}

# name -> why the stand-in differs on purpose
EXEMPT = {
    'rt_object': 'reduced to its name; the tests never see a real object',
    'INIT_DEVICE_EXPORT': 'host tests call the init functions directly',
    'INIT_BOARD_EXPORT': 'host tests call the init functions directly',
    'INIT_PREV_EXPORT': 'host tests call the init functions directly',
    'INIT_APP_EXPORT': 'host tests call the init functions directly',
    'rt_timer': 'opaque in the stand-in (only rt_timer_t pointers are used)',
    'MSH_CMD_EXPORT': 'host tests call the command function directly',
}

KEYWORDS = {'const', 'volatile', 'struct', 'enum', 'union', 'unsigned', 'signed', 'int', 'char',
            'short', 'long', 'void', 'float', 'double', 'static', 'extern', 'inline'}


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def logical_lines(text):
    return text.replace('\\\n', ' ')


def norm(s):
    s = re.sub(r'\s+', ' ', s).strip()
    s = re.sub(r'\s*([*(),\[\];:{}])\s*', r'\1', s)
    return s


def norm_param(p):
    p = p.strip()
    if p in ('', 'void', '...'):
        return p
    # function pointer: drop the pointer's name and the inner names
    m = re.match(r'(.*)\(\s*\*\s*\w*\s*\)\s*\((.*)\)\s*$', p, flags=re.S)
    if m:
        inner = ','.join(norm_param(x) for x in split_params(m.group(2)))
        return norm(m.group(1)) + '(*)(' + inner + ')'
    toks = re.findall(r'\w+|\*|\[|\]|\.\.\.', p)
    if len(toks) > 1 and re.match(r'\w+$', toks[-1]) and toks[-1] not in KEYWORDS:
        toks = toks[:-1]
    return norm(' '.join(toks))


def split_params(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == ',' and depth == 0:
            out.append(cur)
            cur = ''
            continue
        depth += ch == '('
        depth -= ch == ')'
        cur += ch
    out.append(cur)
    return out


def parse(text):
    text = logical_lines(strip_comments(text))
    # C++ linkage wrappers are not declarations
    text = re.sub(r'extern\s+"C"\s*\{', ' ', text)
    text = re.sub(r'#\s*ifdef\s+__cplusplus\s*\n\s*\}\s*\n\s*#\s*endif', ' ', text)
    decl = {'func': {}, 'macro': {}, 'typedef': {}, 'struct': {}, 'enum': {}}
    for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?[ \t]*(.*)$', text, re.M):
        decl['macro'].setdefault(m.group(1), []).append(norm((m.group(2) or '') + m.group(3)))
    body = re.sub(r'^[ \t]*#.*$', ' ', text, flags=re.M)
    for m in re.finditer(r'\b(struct|enum)\s+(\w+)?\s*\{(.*?)\}\s*(\w*)\s*;', body, re.S):
        kind, tag, inner, tdname = m.group(1), m.group(2), m.group(3), m.group(4)
        if kind == 'struct':
            fields = [norm(f) for f in inner.split(';') if f.strip()]
        else:
            fields = [norm(re.sub(r'=.*', '', f)) for f in inner.split(',') if f.strip()]
        for name in (tag, tdname):
            if name:
                decl[kind].setdefault(name, []).append(fields)
    flat = re.sub(r'\{[^{}]*\}', ' ', body)
    flat = re.sub(r'\{[^{}]*\}', ' ', flat)
    for m in re.finditer(r'typedef\s+([^;]*?)\b(\w+)\s*;', flat):
        decl['typedef'].setdefault(m.group(2), []).append(norm(m.group(1)))
    for m in re.finditer(r'(?:^|(?<=;))\s*([A-Za-z_][\w\s\*]*?)\b(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)\s*;',
                         flat):
        ret, name, params = m.group(1), m.group(2), m.group(3)
        if ret.strip().startswith('typedef') or ret.strip() in ('return', ''):
            continue
        sig = norm(ret) + ' ' + name + '(' + ','.join(norm_param(p) for p in split_params(params)) + ')'
        decl['func'].setdefault(name, []).append(norm(sig))
    return decl


def subsequence(small, big):
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    inc = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else os.environ.get('RTT_ROOT', '')
    if not root or not os.path.isdir(os.path.join(root, 'include')):
        print('SKIP: no RT-Thread tree (give its root as argument or $RTT_ROOT)')
        return 77
    bad = checked = 0
    for stand, reals in MAP.items():
        mine = parse(open(os.path.join(inc, stand)).read())
        real = {'func': {}, 'macro': {}, 'typedef': {}, 'struct': {}, 'enum': {}}
        for r in reals:
            for k, v in parse(open(os.path.join(root, r)).read()).items():
                for n, alts in v.items():
                    real[k].setdefault(n, []).extend(alts)
        for kind, items in mine.items():
            for name, alts in items.items():
                if name in EXEMPT:
                    print('exempt  %-8s %-28s %s' % (kind, name, EXEMPT[name]))
                    continue
                for mine_v in alts:
                    checked += 1
                    cands = real[kind].get(name, [])
                    if kind == 'struct':
                        ok = any(subsequence(mine_v, c) for c in cands)
                    else:
                        ok = mine_v in cands
                    if not ok:
                        bad += 1
                        print('MISMATCH %s %s %s\n  stand-in: %s\n  real:     %s' %
                              (stand, kind, name, mine_v, cands or '(not found)'))
    print('%d declarations checked against %s, %d mismatches' % (checked, root, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
