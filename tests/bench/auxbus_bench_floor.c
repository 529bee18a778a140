// SPDX-License-Identifier: GPL-2.0-only
/*
 * The floor of the bus benchmark (not a test): the same add+bind, then unbind+delete, of N
 * devices as auxbus_bench.c, on a tiny bus of this module's own (match: always; probe and
 * release empty) with bare device_add()/device_del(): the driver core's cost of a bus device
 * and its binding, without an auxiliary bus's name, id and match by name. Same parameters
 * and result line:
 *
 *   auxbus_bench_floor: n=<n> add_bind_ns=<t1> unbind_del_ns=<t2>
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

static unsigned int n = 1000;
module_param(n, uint, 0444);
MODULE_PARM_DESC(n, "number of devices (1..100000)");

static unsigned long extra_loops;
module_param(extra_loops, ulong, 0444);
MODULE_PARM_DESC(extra_loops, "validation only: a loop of this many iterations (2 instructions each) per device add");

#include "bench_clock.h"
#include "bench_extra.h"

static int floor_match(struct device *dev, auxbus_const_match_drv struct device_driver *drv)
{
	return 1;
}

static struct bus_type floor_bus = {
	.name = "auxbus_bench_floor",
	.match = floor_match,
};

static int floor_probe(struct device *dev)
{
	return 0;
}

static struct device_driver floor_driver = {
	.name = "auxbus_bench_floor",
	.bus = &floor_bus,
	.probe = floor_probe,
};

/* devices whose release has not run: their memory is the array, freed only after the last */
static atomic_t floor_live = ATOMIC_INIT(0);

static void floor_release(struct device *dev)
{
	if (atomic_dec_and_test(&floor_live))
		wake_up_var(&floor_live);
}

static int __init floor_init(void)
{
	struct device *devs, *root;
	unsigned int i, added = 0;
	u64 t0, t1, t2, s0, s1, s2;
	int ret;

	if (!n || n > 100000)
		return -EINVAL;
	devs = kvcalloc(n, sizeof(*devs), GFP_KERNEL);
	if (!devs)
		return -ENOMEM;
	ret = bus_register(&floor_bus);
	if (ret)
		goto err_free;
	ret = driver_register(&floor_driver);
	if (ret)
		goto err_bus;
	root = root_device_register(KBUILD_MODNAME);
	if (IS_ERR(root)) {
		ret = PTR_ERR(root);
		goto err_drv;
	}

	bench_settle();
	s0 = bench_self_ns();
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		devs[i].parent = root;
		devs[i].bus = &floor_bus;
		devs[i].release = floor_release;
		atomic_inc(&floor_live);
		device_initialize(&devs[i]);
		ret = dev_set_name(&devs[i], "dev.%u", i);
		if (!ret)
			ret = device_add(&devs[i]);
		if (ret) {
			put_device(&devs[i]);
			break;
		}
		added++;
		bench_extra(extra_loops);
	}
	t1 = ktime_get_ns();
	s1 = bench_self_ns();
	for (i = 0; i < added; i++) {
		device_del(&devs[i]);
		put_device(&devs[i]);
	}
	t2 = ktime_get_ns();
	s2 = bench_self_ns();

	if (added == n)
		pr_info("n=%u add_bind_ns=%llu unbind_del_ns=%llu self_ns=%llu %llu\n", n,
			t1 - t0, t2 - t1, s1 - s0, s2 - s1);
	else
		pr_err("only %u of %u devices added: %d\n", added, n, ret);

	root_device_unregister(root);
	driver_unregister(&floor_driver);
	bus_unregister(&floor_bus);
	wait_var_event(&floor_live, !atomic_read(&floor_live));
	kvfree(devs);
	return added == n ? 0 : ret;

err_drv:
	driver_unregister(&floor_driver);
err_bus:
	bus_unregister(&floor_bus);
err_free:
	kvfree(devs);
	return ret;
}
module_init(floor_init);

static void __exit floor_exit(void)
{
}
module_exit(floor_exit);

MODULE_DESCRIPTION("auxbus benchmark floor: bare device_add/device_del on a bus of its own (test only)");
MODULE_LICENSE("GPL");
