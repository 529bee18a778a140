// SPDX-License-Identifier: GPL-2.0-only
/*
 * Harness self-test: a module whose load sleeps uninterruptibly for @seconds, so
 * that the guest's runner cannot stop the case (a signal does not end an
 * uninterruptible sleep) and only the host's watchdog ends the boot. Loaded only
 * by tests/cases/selftest-hang.sh, which the harness expects to see fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>

static unsigned int seconds = 100;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long module init sleeps, uninterruptibly (default 100)");

static int __init selftest_hang_init(void)
{
	pr_info("sleeping %u s in module init, uninterruptibly\n", seconds);
	msleep(seconds * 1000);
	return 0;
}
module_init(selftest_hang_init);

static void __exit selftest_hang_exit(void)
{
}
module_exit(selftest_hang_exit);

MODULE_DESCRIPTION("auxbus harness self-test: deliberate hang in module init");
MODULE_LICENSE("GPL");
