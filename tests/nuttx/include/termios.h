/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's <termios.h> in the host tests of ports/nuttx: the
 * fields and c_cflag bits the serial glue names, with NuttX's values
 * (include/termios.h at 4ebc8a7291df: CSIZE bits 4-5, CSTOPB bit 6, PARENB
 * bit 8, PARODD bit 9, CCTS_OFLOW bit 29, CRTS_IFLOW bit 31; c_speed holds
 * the rate in bits per second). It shadows the host's <termios.h>.
 */
#ifndef D1_TEST_NUTTX_TERMIOS_H
#define D1_TEST_NUTTX_TERMIOS_H

#define CSIZE      (3u << 4)
#define CS5        (0u << 4)
#define CS6        (1u << 4)
#define CS7        (2u << 4)
#define CS8        (3u << 4)
#define CSTOPB     (1u << 6)
#define CREAD      (1u << 7)
#define PARENB     (1u << 8)
#define PARODD     (1u << 9)
#define HUPCL      (1u << 10)
#define CLOCAL     (1u << 11)
#define CCTS_OFLOW (1u << 29)
#define CRTS_IFLOW (1u << 31)
#define CRTSCTS    (CCTS_OFLOW | CRTS_IFLOW)

#define NCCS 12

typedef unsigned long speed_t;
typedef unsigned int tcflag_t;
typedef unsigned char cc_t;

struct termios {
	tcflag_t c_iflag;
	tcflag_t c_oflag;
	tcflag_t c_cflag;
	tcflag_t c_lflag;
	cc_t c_cc[NCCS];
	speed_t c_speed;
};

/* NuttX's non-POSIX pair, and the POSIX names it maps onto them. */
speed_t cfgetspeed(const struct termios *termiosp);
int cfsetspeed(struct termios *termiosp, speed_t speed);
#define cfgetispeed(termiosp)        cfgetspeed(termiosp)
#define cfgetospeed(termiosp)        cfgetspeed(termiosp)
#define cfsetispeed(termiosp, speed) cfsetspeed(termiosp, speed)
#define cfsetospeed(termiosp, speed) cfsetspeed(termiosp, speed)

#endif
