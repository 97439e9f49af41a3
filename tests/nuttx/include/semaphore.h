/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stand-in for NuttX's <semaphore.h> in the host test of d1bench
 * (tests/nuttx/test_nuttx_d1bench.c implements it on the models). The
 * calls are renamed so that they never bind to the host C library's.
 */
#ifndef D1_TEST_NUTTX_SEMAPHORE_H
#define D1_TEST_NUTTX_SEMAPHORE_H

#include <time.h>

typedef struct {
	int count;
	int live; /* between sem_init() and sem_destroy() */
} sem_t;

#define sem_init      nx_sem_init
#define sem_destroy   nx_sem_destroy
#define sem_wait      nx_sem_wait
#define sem_clockwait nx_sem_clockwait
#define sem_trywait   nx_sem_trywait
#define sem_post      nx_sem_post
#define sem_getvalue  nx_sem_getvalue

int sem_init(sem_t *sem, int pshared, unsigned int value);
int sem_destroy(sem_t *sem);
int sem_wait(sem_t *sem);
int sem_clockwait(sem_t *sem, clockid_t clockid, const struct timespec *abstime);
int sem_trywait(sem_t *sem);
int sem_post(sem_t *sem);
int sem_getvalue(sem_t *sem, int *sval);

#endif
