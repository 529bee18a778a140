// SPDX-License-Identifier: GPL-2.0-only
/*
 * Harness self-test: a module whose load hits WARN_ON(). Loaded only by
 * tests/cases/selftest-warn.sh, which the harness expects to see fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/module.h>

static bool trigger = true;
module_param(trigger, bool, 0444);
MODULE_PARM_DESC(trigger, "hit WARN_ON() at load (default: true)");

static int __init selftest_warn_init(void)
{
	pr_info("deliberate WARN_ON for the harness self-test\n");
	WARN_ON(trigger);
	return 0;
}
module_init(selftest_warn_init);

static void __exit selftest_warn_exit(void)
{
}
module_exit(selftest_warn_exit);

MODULE_DESCRIPTION("auxbus harness self-test: deliberate kernel warning");
MODULE_LICENSE("GPL");
