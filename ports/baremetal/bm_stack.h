/* SPDX-License-Identifier: Apache-2.0 */
/* Stack painting (start.S) and its high-water mark (board.c). */
#ifndef BM_STACK_H
#define BM_STACK_H

/* start.S fills the whole stack with this dword before the first call. */
#define BM_STACK_PAINT 0x5354414b50414e54 /* "STAKPANT" */

#ifndef __ASSEMBLER__
/** Print "stack: <used> of <size> bytes used" (deepest dword no longer painted). */
void bm_stack_report(void);
#endif

#endif /* BM_STACK_H */
