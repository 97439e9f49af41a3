/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's <nuttx/fs/fs.h> in the host tests of ports/nuttx:
 * only the path from an open file to its driver (filep->f_inode->
 * i_private, which the serial upper half sets to the uart_dev_t).
 */
#ifndef D1_TEST_NUTTX_FS_H
#define D1_TEST_NUTTX_FS_H

struct inode {
	void *i_private;
};

struct file {
	struct inode *f_inode;
};

#endif
