// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark (not a test): add+bind, then unbind+delete, N auxiliary devices, timed.
 *
 * The same source is built twice (see Kbuild): auxbus_bench_bundled against the bundled
 * bus (coexisting auxbus.ko) and auxbus_bench_kernel against the kernel's built-in bus,
 * so one boot of a kernel with CONFIG_AUXILIARY_BUS (6.1) measures both. Parameter n is
 * the device count; the result is one kernel-log line:
 *
 *   auxbus_bench_<variant>: n=<n> add_bind_ns=<t1> unbind_del_ns=<t2>
 *
 * The benchmark runs at load and leaves nothing behind; the load succeeds so that it runs
 * once (busybox modprobe retries a failed finit_module() with init_module(), which would
 * run it twice) and the module is removed again with rmmod.
 * tests/bench/run.sh loads each variant at n=1000, 10000 and 100000 and prints the table;
 * make bench boots with QEMU's -icount shift=0, so each ns of the guest's clock is one
 * executed instruction.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
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

#ifdef AUXBUS_BACKEND_KERNEL
#include <linux/sysfs.h>

static unsigned int mimic;
module_param(mimic, uint, 0444);
MODULE_PARM_DESC(mimic, "profile only, built-in bus: add the bundled bus's own steps: 1 its name lookup (sysfs_get_dirent) before each add, 2 a bus notifier, 3 both");

static DEFINE_MUTEX(bench_mimic_lock);

/* as the bundled bus's notifier: irq sysfs cleanup (a mutex, nothing to free) per removal */
static int bench_mimic_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	if (action == BUS_NOTIFY_REMOVED_DEVICE) {
		mutex_lock(&bench_mimic_lock);
		mutex_unlock(&bench_mimic_lock);
	}
	return NOTIFY_DONE;
}

static struct notifier_block bench_mimic_nb = {
	.notifier_call = bench_mimic_notify,
};

static void bench_nop_release(struct device *dev)
{
}
#endif

static int bench_probe(struct auxiliary_device *auxdev, const struct auxiliary_device_id *id)
{
	return 0;
}

static const struct auxiliary_device_id bench_ids[] = {
	{ .name = KBUILD_MODNAME ".dev" },
	{ }
};

static struct auxiliary_driver bench_driver = {
	.probe = bench_probe,
	.id_table = bench_ids,
};

/* devices whose release has not run: their memory is the array, freed only after the last */
static atomic_t bench_live = ATOMIC_INIT(0);

static void bench_release(struct device *dev)
{
	if (atomic_dec_and_test(&bench_live))
		wake_up_var(&bench_live);
}

static int __init bench_init(void)
{
	struct auxiliary_device *adevs;
	struct device *root;
	unsigned int i, added = 0;
	u64 t0, t1, t2, s0, s1, s2;
	char (*names)[48] = NULL;
#ifdef AUXBUS_BACKEND_KERNEL
	typeof(((struct device *)NULL)->bus) bus = NULL;	/* const from 6.4 */
#endif
	int ret;

	if (!n || n > 100000)
		return -EINVAL;
	adevs = kvcalloc(n, sizeof(*adevs), GFP_KERNEL);
	if (!adevs)
		return -ENOMEM;
	root = root_device_register(KBUILD_MODNAME);
	if (IS_ERR(root)) {
		ret = PTR_ERR(root);
		goto err_free;
	}
	ret = auxiliary_driver_register(&bench_driver);
	if (ret)
		goto err_root;
#ifdef AUXBUS_BACKEND_KERNEL
	if (mimic & 1) {
		/* the names, formatted before the clock starts: the bundled bus has them already */
		names = kvcalloc(n, sizeof(*names), GFP_KERNEL);
		if (!names) {
			ret = -ENOMEM;
			goto err_drv;
		}
		for (i = 0; i < n; i++)
			snprintf(names[i], sizeof(names[i]), "%s.dev.%u", KBUILD_MODNAME, i);
	}
	if (mimic & 2) {
		/* the bus type is the kernel's own (static): take it from a device's init */
		struct auxiliary_device probe = {
			.name = "probe", .dev.parent = root, .dev.release = bench_nop_release,
		};

		ret = auxiliary_device_init(&probe);
		if (ret)
			goto err_names;
		bus = probe.dev.bus;
		auxiliary_device_uninit(&probe);
		ret = bus_register_notifier(bus, &bench_mimic_nb);
		if (ret)
			goto err_names;
	}
#endif

	bench_settle();
	s0 = bench_self_ns();
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		adevs[i].name = "dev";
		adevs[i].id = i;
		adevs[i].dev.parent = root;
		adevs[i].dev.release = bench_release;
		atomic_inc(&bench_live);
		ret = auxiliary_device_init(&adevs[i]);
		if (ret) {
			atomic_dec(&bench_live);
			break;
		}
#ifdef AUXBUS_BACKEND_KERNEL
		if (names) {
			struct kernfs_node *kn = sysfs_get_dirent(root->kobj.sd, names[i]);

			if (kn)
				sysfs_put(kn);
		}
#endif
		ret = auxiliary_device_add(&adevs[i]);
		if (ret) {
			auxiliary_device_uninit(&adevs[i]);
			break;
		}
		added++;
		bench_extra(extra_loops);
	}
	t1 = ktime_get_ns();
	s1 = bench_self_ns();
	for (i = 0; i < added; i++) {
		auxiliary_device_delete(&adevs[i]);
		auxiliary_device_uninit(&adevs[i]);
	}
	t2 = ktime_get_ns();
	s2 = bench_self_ns();

	if (added == n)
		pr_info("n=%u add_bind_ns=%llu unbind_del_ns=%llu self_ns=%llu %llu\n", n,
			t1 - t0, t2 - t1, s1 - s0, s2 - s1);
	else
		pr_err("only %u of %u devices added: %d\n", added, n, ret);

#ifdef AUXBUS_BACKEND_KERNEL
	if (bus)
		bus_unregister_notifier(bus, &bench_mimic_nb);
#endif
	kvfree(names);
	auxiliary_driver_unregister(&bench_driver);
	root_device_unregister(root);
	wait_var_event(&bench_live, !atomic_read(&bench_live));
	kvfree(adevs);
	return added == n ? 0 : ret;

#ifdef AUXBUS_BACKEND_KERNEL
err_names:
	kvfree(names);
err_drv:
	auxiliary_driver_unregister(&bench_driver);
#endif
err_root:
	root_device_unregister(root);
err_free:
	kvfree(adevs);
	return ret;
}
module_init(bench_init);

static void __exit bench_exit(void)
{
}
module_exit(bench_exit);

MODULE_DESCRIPTION("auxiliary bus add/bind/unbind/delete benchmark (test only)");
MODULE_LICENSE("GPL");
