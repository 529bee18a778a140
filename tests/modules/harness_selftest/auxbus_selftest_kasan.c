// SPDX-License-Identifier: GPL-2.0-only
/*
 * Harness self-test: a module whose load reads freed memory, so that the
 * debug kernel's KASAN reports a use-after-free. Loaded only by
 * tests/cases/selftest-kasan.sh, which the harness expects to see fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>

static noinline int selftest_kasan_read_freed(void)
{
	char *p;
	int v;

	p = kmalloc(64, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p[0] = 0x5a;
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	v = READ_ONCE(p[0]);	/* use after free, on purpose */
	pr_info("read %#x from freed memory\n", v);
	return 0;
}

static int __init selftest_kasan_init(void)
{
	return selftest_kasan_read_freed();
}
module_init(selftest_kasan_init);

static void __exit selftest_kasan_exit(void)
{
}
module_exit(selftest_kasan_exit);

MODULE_DESCRIPTION("auxbus harness self-test: deliberate use-after-free");
MODULE_LICENSE("GPL");
