/*
 * Copyright (c) 2006-2026, RT-Thread Development Team
 *
 * SPDX-License-Identifier: Apache-2.0
 *
 * Change Logs:
 * Date           Author       Notes
 * 2026-12-06     d1drivers    user-process wake-up latency bench
 */

/*
 * d1ubench [periods=20000] [period_us=1000] [load]: the task wake-up
 * latency of a user process under RT-Smart, through the d1bench device
 * (../d1_rt_ubench.h): block in read() until each period boundary, read
 * the `time` CSR at once, hand it back with write(). The kernel accounts
 * it with the same bench core as every other bench and prints the report
 * when the device is closed.
 *
 * Static, libc-free (RT-Thread's userapps SDK is not used): its own start
 * code and RT-Smart 5.0's system-call numbers (components/lwp/
 * lwp_syscall.c, table func_table: exit 1, read 2, write 3, open 5,
 * close 6; ecall with the number in a7, arguments in a0..a5, result in
 * a0). The loader requires the entry at USER_LOAD_VADDR 0x200000000 and
 * enters user mode with a0 = the argument block (argc, argv[]) and the
 * stack top in a3 (lwp_gcc.S arch_start_umode), not in sp. Built by
 * scripts/os/rtthread.sh --smart with user.ld.
 */

#include <stdint.h>

#include "../d1_rt_ubench.h"

#define SYS_EXIT  1
#define SYS_READ  2
#define SYS_WRITE 3
#define SYS_OPEN  5
#define SYS_CLOSE 6
#define O_RDWR    02

__asm__(".section .text.start, \"ax\", @progbits\n"
        ".globl _start\n"
        "_start:\n"
        "    mv sp, a3\n"
        "    andi sp, sp, -16\n"
        "    call d1ubench_main\n"
        "    li a7, 1\n"
        "    ecall\n"
        "1:  j 1b\n"
        ".text\n");

long d1ubench_main(long *args);

static long sys3(long nr, long x, long y, long z)
{
    register long a0 __asm__("a0") = x;
    register long a1 __asm__("a1") = y;
    register long a2 __asm__("a2") = z;
    register long a7 __asm__("a7") = nr;

    __asm__ volatile("ecall" : "+r"(a0), "+r"(a7) : "r"(a1), "r"(a2) : "memory");
    return a0;
}

static uint64_t time_now(void)
{
    uint64_t t;

    __asm__ volatile("rdtime %0" : "=r"(t) : : "memory");
    return t;
}

static unsigned long length(const char *s)
{
    unsigned long n = 0;

    while (s[n] != '\0')
    {
        n++;
    }
    return n;
}

static void say(const char *s)
{
    (void)sys3(SYS_WRITE, 1, (long)s, (long)length(s));
}

/* "d1ubench: WHAT failed (ERR)\n" on the console */
static void fail(const char *what, long err)
{
    char num[24];
    int i = (int)sizeof(num);
    unsigned long v = err < 0 ? (unsigned long)-err : (unsigned long)err;

    num[--i] = '\0';
    num[--i] = ')';
    do
    {
        num[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    if (err < 0)
    {
        num[--i] = '-';
    }
    num[--i] = '(';
    say("d1ubench: ");
    say(what);
    say(" failed ");
    say(&num[i]);
    say("\n");
}

/* A decimal argument, all of it, 0..UINT32_MAX; 0 (false) otherwise. */
static int arg_u32(const char *s, uint32_t *out)
{
    uint64_t v = 0;

    if (*s == '\0')
    {
        return 0;
    }
    for (; *s != '\0'; s++)
    {
        if (*s < '0' || *s > '9')
        {
            return 0;
        }
        v = v * 10u + (uint64_t)(*s - '0');
        if (v > UINT32_MAX)
        {
            return 0;
        }
    }
    *out = (uint32_t)v;
    return 1;
}

static int same(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b)
    {
        a++;
        b++;
    }
    return *a == *b;
}

long d1ubench_main(long *args)
{
    long argc = args[0];
    char **argv = (char **)&args[1];
    struct d1_ubench_start req = {D1_UBENCH_MAGIC, 20000u, 1000u, 0u};
    uint64_t seen;
    uint64_t now;
    long fd;
    long n;
    long rc = 0;

    if (argc > 3 && same(argv[3], "load"))
    {
        req.load = 1u;
    }
    if (argc > 4 || (argc > 3 && req.load == 0u) ||
        (argc > 1 && !arg_u32(argv[1], &req.periods)) ||
        (argc > 2 && !arg_u32(argv[2], &req.period_us)) ||
        req.periods == 0u || req.period_us == 0u || req.period_us > 100000u)
    {
        say("usage: d1ubench [periods] [period_us 1..100000] [load]\n");
        return 2;
    }
    fd = sys3(SYS_OPEN, (long)D1_UBENCH_PATH, O_RDWR, 0);
    if (fd < 0)
    {
        fail("open " D1_UBENCH_PATH, fd);
        return 1;
    }
    n = sys3(SYS_WRITE, fd, (long)&req, (long)sizeof(req));
    if (n != (long)sizeof(req))
    {
        fail("start", n);
        (void)sys3(SYS_CLOSE, fd, 0, 0);
        return 1;
    }
    for (;;)
    {
        n = sys3(SYS_READ, fd, (long)&seen, (long)sizeof(seen));
        now = time_now();
        if (n == 0)
        {
            break; /* the run's last boundary is accounted */
        }
        if (n != (long)sizeof(seen))
        {
            fail("read (waiting for a boundary)", n);
            rc = 1;
            break;
        }
        n = sys3(SYS_WRITE, fd, (long)&now, (long)sizeof(now));
        if (n != (long)sizeof(now))
        {
            fail("write (the wake-up time)", n);
            rc = 1;
            break;
        }
    }
    /* the device prints the reports */
    n = sys3(SYS_CLOSE, fd, 0, 0);
    if (n != 0)
    {
        fail("close", n);
        rc = 1;
    }
    return rc;
}
