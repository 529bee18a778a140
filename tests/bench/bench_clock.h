/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark thread's own CPU time, in ns: under make bench's -icount shift=0 the
 * instructions it executed (with the interrupts that hit it), without those of any other
 * task that ran meanwhile (ktime counts every task's). schedule() brings the running
 * task's sum_exec_runtime up to date (update_curr) and costs the same at every read.
 */
#ifndef AUXBUS_BENCH_CLOCK_H
#define AUXBUS_BENCH_CLOCK_H

#include <linux/rcupdate.h>
#include <linux/sched.h>

/*
 * Before the clock starts: run the RCU callbacks the previous runs queued, whose softirq
 * work would otherwise land on interrupt exits in this thread while it is measured.
 */
static void bench_settle(void)
{
	rcu_barrier();
}

static u64 bench_self_ns(void)
{
	schedule();
	return READ_ONCE(current->se.sum_exec_runtime);
}
#endif
