// SPDX-License-Identifier: GPL-2.0-only
/*
 * Harness self-test: a module whose load allocates memory and forgets the pointer,
 * so that the debug kernel's kmemleak reports an unreferenced object at the end of
 * the boot. Loaded only by tests/cases/selftest-leak.sh, which the harness expects
 * to see fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static noinline int selftest_leak_alloc(void)
{
	char *p;

	p = kmalloc(128, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	memset(p, 0x6b, 128);
	OPTIMIZER_HIDE_VAR(p);
	pr_info("allocated 128 bytes and dropped the pointer\n");
	return 0;	/* p is leaked, on purpose */
}

static int __init selftest_leak_init(void)
{
	return selftest_leak_alloc();
}
module_init(selftest_leak_init);

static void __exit selftest_leak_exit(void)
{
}
module_exit(selftest_leak_exit);

MODULE_DESCRIPTION("auxbus harness self-test: deliberate memory leak");
MODULE_LICENSE("GPL");
