# SPDX-License-Identifier: Apache-2.0
"""SCons site_init for the RT-Thread D1 BSP builds of scripts/os/rtthread.sh
(scons --site-dir=scripts/os/rtthread_site).

Drops ./mksdimg.sh from the BSP's POST_ACTION (rtconfig.py): its prebuilt
mkimage needs libssl.so.1.1, which Debian 12 does not have, so the step
fails after rtthread.elf and rtthread.bin were written and scons exits
non-zero. objcopy and size stay. No RT-Thread file is edited: SCons runs
this file before SConstruct; RT-Thread's building.py reloads rtconfig
(importlib.reload) later, so the reload is wrapped to drop the step again.

Builds the BSP's release configuration (rtconfig.py's own flags for
BUILD != 'debug': `-O2 -Os`, no `-ggdb`) instead of its shipped `debug`
(`-O0 -ggdb`), so that RT-Thread's figures come from an optimised kernel
as NuttX's (`-Os`) and Linux's (`-O2`) do; D1_RTT_BUILD=debug keeps the
shipped flags (docs/rtsmart.md "Build flags").

Also puts $RTT_ROOT/tools first on sys.path: building.py appends it last,
so a system module of the same name (Debian's python3-kconfiglib installs
menuconfig.py and kconfiglib.py) would shadow RT-Thread's own.
"""
import importlib
import os
import sys

_reload = importlib.reload


BUILD = os.environ.get('D1_RTT_BUILD', 'release')
if BUILD not in ('release', 'debug'):
    sys.exit("site_init: D1_RTT_BUILD must be release or debug, not %r" % BUILD)


def _release(m):
    """rtconfig.py's flags as its BUILD != 'debug' branch sets them."""
    if BUILD != 'release' or getattr(m, 'BUILD', None) != 'debug':
        return
    for name in ('CFLAGS', 'CXXFLAGS'):
        if hasattr(m, name):
            setattr(m, name, getattr(m, name).replace(' -O0 -ggdb', ' -O2 -Os'))
    if hasattr(m, 'AFLAGS'):
        m.AFLAGS = m.AFLAGS.replace(' -ggdb', '')
    m.BUILD = 'release'
    # the flags in the build log (scripts/os/rtthread.sh's build-<image>.log)
    print('site_init: BUILD release, CFLAGS:' + getattr(m, 'CFLAGS', ''), flush=True)


def _no_mksdimg(m):
    if getattr(m, '__name__', '') == 'rtconfig' and hasattr(m, 'POST_ACTION'):
        m.POST_ACTION = m.POST_ACTION.replace('./mksdimg.sh\n', '')
        _release(m)
    return m


def _reload_rtconfig(m):
    return _no_mksdimg(_reload(m))


importlib.reload = _reload_rtconfig
if os.environ.get('RTT_ROOT'):
    sys.path.insert(0, os.path.join(os.environ['RTT_ROOT'], 'tools'))
sys.path.insert(0, os.getcwd())
import rtconfig  # noqa: E402  (the BSP's, from the directory scons runs in)

_no_mksdimg(rtconfig)
