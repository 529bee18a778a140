// SPDX-License-Identifier: GPL-2.0-only
/*
 * Harness self-test: a module whose load indexes a fixed-size array one past
 * its end, inside its structure (memory KASAN sees as valid), so that a UBSAN
 * kernel (CONFIG_UBSAN_BOUNDS, the debugc kernel) reports
 * array-index-out-of-bounds. Loaded only by tests/cases/selftest-ubsan.sh,
 * which the harness expects to see fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

static struct {
	int slot[4];
	int after;
} selftest_ubsan_table;

/* a plain load: UBSAN checks i < 4 here (an address, as READ_ONCE takes, may be one past) */
static noinline int selftest_ubsan_read(int i)
{
	return selftest_ubsan_table.slot[i];
}

static int __init selftest_ubsan_init(void)
{
	int i = ARRAY_SIZE(selftest_ubsan_table.slot);

	OPTIMIZER_HIDE_VAR(i);
	/* one past the end of slot[], on purpose */
	pr_info("read %d past the end of slot[]\n", selftest_ubsan_read(i));
	return 0;
}
module_init(selftest_ubsan_init);

static void __exit selftest_ubsan_exit(void)
{
}
module_exit(selftest_ubsan_exit);

MODULE_DESCRIPTION("auxbus harness self-test: deliberate out-of-bounds array index");
MODULE_LICENSE("GPL");
