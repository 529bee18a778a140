// SPDX-License-Identifier: GPL-2.0-only
/*
 * Harness self-test: a module whose load calls a function through a pointer
 * of another function type, so that a kCFI kernel (CONFIG_CFI_CLANG, the
 * debugc kernel) reports "CFI failure at ..." and traps. Loaded only by
 * tests/cases/selftest-cfi.sh, which the harness expects to see fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

typedef int (*selftest_cfi_int_fn)(int v);

/* takes a long: its kCFI type hash is not that of int (*)(int) */
static noinline int selftest_cfi_long_target(long v)
{
	return v == 42 ? 0 : -EINVAL;
}

static int __init selftest_cfi_init(void)
{
	/* through void *: no cast between function types for the compiler to see */
	selftest_cfi_int_fn fn = (selftest_cfi_int_fn)(void *)selftest_cfi_long_target;
	int ret;

	OPTIMIZER_HIDE_VAR(fn);
	ret = fn(42);	/* indirect call of the wrong type, on purpose */
	pr_info("the wrong-type indirect call returned %d\n", ret);
	return ret;
}
module_init(selftest_cfi_init);

static void __exit selftest_cfi_exit(void)
{
}
module_exit(selftest_cfi_exit);

MODULE_DESCRIPTION("auxbus harness self-test: deliberate kCFI type mismatch");
MODULE_LICENSE("GPL");
