// SPDX-License-Identifier: GPL-2.0-only
/*
 * Harness self-test: a module whose load takes two mutexes in both orders, so that
 * the debug kernel's lockdep reports a possible circular locking dependency (no
 * deadlock happens: one thread, one order after the other). Loaded only by
 * tests/cases/selftest-lockdep.sh, which the harness expects to see fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(selftest_lock_a);
static DEFINE_MUTEX(selftest_lock_b);

static int __init selftest_lockdep_init(void)
{
	mutex_lock(&selftest_lock_a);
	mutex_lock(&selftest_lock_b);
	mutex_unlock(&selftest_lock_b);
	mutex_unlock(&selftest_lock_a);

	/* the other order, on purpose: lockdep sees A -> B and B -> A */
	mutex_lock(&selftest_lock_b);
	mutex_lock(&selftest_lock_a);
	mutex_unlock(&selftest_lock_a);
	mutex_unlock(&selftest_lock_b);
	pr_info("took A then B, and B then A\n");
	return 0;
}
module_init(selftest_lockdep_init);

static void __exit selftest_lockdep_exit(void)
{
}
module_exit(selftest_lockdep_exit);

MODULE_DESCRIPTION("auxbus harness self-test: deliberate lock-order inversion");
MODULE_LICENSE("GPL");
