/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in for RT-Thread's components/finsh/finsh.h: the host tests call a
 * command's function directly (the real macro adds a shell table entry). */
#ifndef __FINSH_H__
#define __FINSH_H__

#define MSH_CMD_EXPORT(command, desc) typedef int rtt_host_msh_##command##_t

#endif
