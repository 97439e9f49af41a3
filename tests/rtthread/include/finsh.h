/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's components/finsh/finsh.h: the host tests call a
 * command's function directly; the real macro adds a shell table entry,
 * this one a pointer to the command (so it is used, as in the table). */
#ifndef __FINSH_H__
#define __FINSH_H__

#define MSH_CMD_EXPORT(command, desc)                                                              \
	int (*const rtt_host_msh_##command)(int, char **) __attribute__((used)) = command

#endif
