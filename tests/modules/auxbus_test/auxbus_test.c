// SPDX-License-Identifier: GPL-2.0-only
/*
 * In-kernel checks of the auxiliary bus API (bundled and kernel backends).
 *
 * All checks run when the module loads; each prints one KTAP line to the kernel log,
 * prefixed "auxbus_test: KTAP ", and the plan and a summary line end the report. The
 * module loads even when checks fail (the case script reads the report, then unloads it).
 * tests/cases/bus-10-inkernel.sh turns the lines into subtests.
 *
 * Every check compares against a value the code under test must produce, so a broken
 * bus makes it print "not ok" (or crash the guest, which fails the case too).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait_bit.h>

static unsigned int t_num, t_failed;

static __printf(2, 3) void t_report(bool ok, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	t_num++;
	if (!ok)
		t_failed++;
	pr_info("KTAP %sok %u %pV\n", ok ? "" : "not ", t_num, &vaf);
	va_end(args);
}

static __printf(1, 2) void t_skip(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	t_num++;
	pr_info("KTAP ok %u %pV\n", t_num, &vaf);
	va_end(args);
}

#define T_EQ(name, expected, actual) do {					\
	const char *__n = (name);						\
	long __e = (long)(expected), __a = (long)(actual);			\
	t_report(__e == __a, "%s", __n);					\
	if (__e != __a)								\
		pr_info("KTAP # %s: expected %ld, got %ld\n", __n, __e, __a);	\
} while (0)

/* Checks the kernel's own bus cannot pass without WARN_ON() or a stack dump. */
#ifdef AUXBUS_BACKEND_KERNEL
#define T_KERNEL_BUS	true
#else
#define T_KERNEL_BUS	false
#endif

/* ---- devices owned by this module ---------------------------------------------- */

static struct device *t_parent;		/* root device: never bound to a driver */

struct t_adev {
	struct auxiliary_device auxdev;
	int *released;
};

static int t_releases;
/* t_adev devices not released yet: the module's exit waits for them */
static atomic_t t_live = ATOMIC_INIT(0);

static void t_adev_release(struct device *dev)
{
	struct t_adev *t = container_of(dev, struct t_adev, auxdev.dev);

	WRITE_ONCE(*t->released, *t->released + 1);
	kfree(t);
	if (atomic_dec_and_test(&t_live))
		wake_up_var(&t_live);
}

/*
 * t_released(want): the release count once it reaches @want, or after 6 s. A release can
 * run late: CONFIG_DEBUG_KOBJECT_RELEASE delays each by 1 to 4 s.
 */
static int t_released(int want)
{
	int i;

	for (i = 0; i < 300 && READ_ONCE(t_releases) < want; i++)
		msleep(20);
	return READ_ONCE(t_releases);
}

/* Allocate and init (not add) a device; NULL when auxiliary_device_init() fails. */
static struct auxiliary_device *t_adev_init(const char *name, u32 id, int *ret)
{
	struct t_adev *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t) {
		*ret = -ENOMEM;
		return NULL;
	}
	t->released = &t_releases;
	atomic_inc(&t_live);
	t->auxdev.name = name;
	t->auxdev.id = id;
	t->auxdev.dev.parent = t_parent;
	t->auxdev.dev.release = t_adev_release;
	*ret = auxiliary_device_init(&t->auxdev);
	if (*ret) {
		kfree(t);
		atomic_dec(&t_live);
		return NULL;
	}
	return &t->auxdev;
}

static struct auxiliary_device *t_adev_new(const char *name, u32 id, int *ret)
{
	struct auxiliary_device *auxdev = t_adev_init(name, id, ret);

	if (!auxdev)
		return NULL;
	*ret = auxiliary_device_add(auxdev);
	if (*ret) {
		auxiliary_device_uninit(auxdev);
		return NULL;
	}
	return auxdev;
}

static void t_adev_del(struct auxiliary_device *auxdev)
{
	if (!auxdev)
		return;
	auxiliary_device_delete(auxdev);
	auxiliary_device_uninit(auxdev);
}

/* ---- a test driver with counters ------------------------------------------------ */

struct t_counts {
	int probes, removes, shutdowns, suspends, resumes, rt_suspends, rt_resumes;
	kernel_ulong_t last_data;
	int probe_ret;
};

static struct t_counts cnt;

static int t_probe(struct auxiliary_device *auxdev, const struct auxiliary_device_id *id)
{
	cnt.probes++;
	cnt.last_data = id ? id->driver_data : (kernel_ulong_t)-1;
	if (cnt.probe_ret)
		return cnt.probe_ret;
	auxiliary_set_drvdata(auxdev, &cnt);
	return 0;
}

static void t_remove(struct auxiliary_device *auxdev)
{
	cnt.removes++;
}

static void t_shutdown(struct auxiliary_device *auxdev)
{
	cnt.shutdowns++;
}

static int __maybe_unused t_pm_suspend(struct device *dev)
{
	cnt.suspends++;
	return 0;
}

static int __maybe_unused t_pm_resume(struct device *dev)
{
	cnt.resumes++;
	return 0;
}

static int __maybe_unused t_rt_suspend(struct device *dev)
{
	cnt.rt_suspends++;
	return 0;
}

static int __maybe_unused t_rt_resume(struct device *dev)
{
	cnt.rt_resumes++;
	return 0;
}

static const struct dev_pm_ops t_pm_ops = {
	SET_SYSTEM_SLEEP_PM_OPS(t_pm_suspend, t_pm_resume)
	SET_RUNTIME_PM_OPS(t_rt_suspend, t_rt_resume, NULL)
};

/*
 * Match names: dotted, a prefix pair, and the longest name that fits the table
 * (AUXILIARY_NAME_SIZE - 1 characters: "auxbus_test." is 12 of them).
 */
#define T_LONG_FN	"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
#define T_FN_LEN	(AUXILIARY_NAME_SIZE - 1 - 12)
static char t_long_fn[AUXILIARY_NAME_SIZE];	/* function part, fits: SIZE-1 total */
static char t_toolong_fn[AUXILIARY_NAME_SIZE + 1];	/* one longer: SIZE total */

static struct auxiliary_device_id t_ids[] = {
	{ .name = "auxbus_test.dev", .driver_data = 10 },
	{ .name = "auxbus_test.a.b", .driver_data = 11 },
	{ .name = "auxbus_test.pre", .driver_data = 12 },
	{ .name = "", .driver_data = 13 },	/* the long name, filled in at init */
	{ .name = "auxbus_test.runtime", .driver_data = 14 },
	{ .name = "auxbus_test.irq", .driver_data = 15 },
	{ }
};

static struct auxiliary_driver t_drv = {
	.name = "drv",
	.probe = t_probe,
	.remove = t_remove,
	.shutdown = t_shutdown,
	.driver.pm = &t_pm_ops,
	.id_table = t_ids,
};

static bool t_bound(struct auxiliary_device *auxdev)
{
	return auxdev && auxdev->dev.driver == &t_drv.driver;
}

static __printf(1, 2) bool t_path_exists(const char *fmt, ...)
{
	struct path path;
	va_list args;
	char *p;
	int ret;

	va_start(args, fmt);
	p = kvasprintf(GFP_KERNEL, fmt, args);
	va_end(args);
	if (!p)
		return false;
	ret = kern_path(p, LOOKUP_FOLLOW, &path);
	kfree(p);
	if (ret)
		return false;
	path_put(&path);
	return true;
}

/* ---- the checks ------------------------------------------------------------------- */

static void t_validation(void)
{
	static const struct auxiliary_device_id ids[] = { { .name = "auxbus_test.x" }, { } };
	struct auxiliary_driver bad = { .name = "bad" };
	struct auxiliary_device *auxdev;
	struct t_adev *t;
	int ret, rel;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return;
	t->auxdev.name = "noparent";
	T_EQ("init rejects a NULL parent with -EINVAL", -EINVAL, auxiliary_device_init(&t->auxdev));
	t->auxdev.name = NULL;
	t->auxdev.dev.parent = t_parent;
	T_EQ("init rejects a NULL name with -EINVAL", -EINVAL, auxiliary_device_init(&t->auxdev));
	kfree(t);

	rel = t_releases;
	auxdev = t_adev_init("nomod", 0, &ret);
	T_EQ("init succeeds with parent and name", 0, ret);
	if (auxdev) {
#if !defined(AUXBUS_BACKEND_KERNEL) || defined(AUXBUS_COMPAT_SYSFS_IRQ)
		/* the kernel's own irqs/ code WARNs on a device without sysfs directory */
		T_EQ("irq add on a device not yet added fails with -ENODEV", -ENODEV,
		     auxiliary_device_sysfs_irq_add(auxdev, 40));
#else
		t_skip("irq add on a device not yet added # SKIP the kernel's irqs/ code WARNs");
#endif
		T_EQ("add rejects a NULL modname with -EINVAL", -EINVAL,
		     __auxiliary_device_add(auxdev, NULL));
		auxiliary_device_uninit(auxdev);
	}
	T_EQ("uninit after a failed add releases the device", rel + 1, t_released(rel + 1));

	if (T_KERNEL_BUS) {
		/* the kernel's bus WARNs here, and guests run with panic_on_warn */
		t_skip("driver without probe is rejected # SKIP WARN_ON in the kernel's bus");
		t_skip("driver without id_table is rejected # SKIP WARN_ON in the kernel's bus");
	} else {
		bad.id_table = ids;
		T_EQ("driver without probe is rejected with -EINVAL", -EINVAL,
		     auxiliary_driver_register(&bad));
		bad.id_table = NULL;
		bad.probe = t_probe;
		T_EQ("driver without id_table is rejected with -EINVAL", -EINVAL,
		     auxiliary_driver_register(&bad));
	}
}

static void t_names_and_match(void)
{
	struct auxiliary_device *a, *dotted, *prefix, *longer, *fits, *toolong;
	struct auxiliary_driver dup = {
		.name = "drv", .probe = t_probe, .id_table = t_ids,
	};
	int ret, rel;

	T_EQ("driver name is <modname>.<name>", 0,
	     strcmp(t_drv.driver.name, KBUILD_MODNAME ".drv"));

	cnt = (struct t_counts){ };
	a = t_adev_new("dev", 7, &ret);
	T_EQ("device add succeeds", 0, ret);
	T_EQ("device name is <modname>.<name>.<id>", 0,
	     a ? strcmp(dev_name(&a->dev), "auxbus_test.dev.7") : -1);
	t_report(t_bound(a), "device binds to the driver listing its match name");
	T_EQ("probe gets the matching id entry", 10, cnt.last_data);
	t_report(a && auxiliary_get_drvdata(a) == &cnt, "drvdata set in probe reads back");
	t_report(a && dev_is_auxiliary(&a->dev), "dev_is_auxiliary() is true for it");
	t_report(!dev_is_auxiliary(t_parent), "dev_is_auxiliary() is false for its parent");

	rel = t_releases;
	if (T_KERNEL_BUS) {
		t_skip("duplicate name and id is rejected %s",
		       "# SKIP sysfs dumps a stack on the kernel's bus");
	} else {
		struct auxiliary_device *b = t_adev_new("dev", 7, &ret);

		T_EQ("duplicate name and id is rejected with -EEXIST", -EEXIST, ret);
		t_adev_del(b);
	}
	T_EQ("the rejected duplicate is released (no leak)", T_KERNEL_BUS ? rel : rel + 1,
	     t_released(T_KERNEL_BUS ? rel : rel + 1));

	/* a second driver of the same name: driver_register() fails, name is freed */
	ret = auxiliary_driver_register(&dup);
	T_EQ("second driver with the same name is rejected with -EBUSY", -EBUSY, ret);
	if (!ret)
		auxiliary_driver_unregister(&dup);

	dotted = t_adev_new("a.b", 0, &ret);
	t_report(t_bound(dotted), "match name with a dot binds (last '.' splits the id)");
	T_EQ("dotted match name gets its id entry", 11, cnt.last_data);

	prefix = t_adev_new("prefix", 0, &ret);
	t_report(prefix && !t_bound(prefix),
		 "id 'auxbus_test.pre' does not match 'auxbus_test.prefix'");
	longer = t_adev_new("pr", 0, &ret);
	t_report(longer && !t_bound(longer),
		 "id 'auxbus_test.pre' does not match 'auxbus_test.pr'");

	fits = t_adev_new(t_long_fn, 1, &ret);
	t_report(t_bound(fits), "match name of AUXILIARY_NAME_SIZE-1 (%d) characters binds",
		 AUXILIARY_NAME_SIZE - 1);
	toolong = t_adev_new(t_toolong_fn, 1, &ret);
	t_report(toolong && !t_bound(toolong),
		 "match name of AUXILIARY_NAME_SIZE (%d) characters does not bind to its prefix",
		 AUXILIARY_NAME_SIZE);

	/* remove only when bound */
	cnt.removes = 0;
	t_adev_del(prefix);
	T_EQ("deleting an unbound device calls no remove()", 0, cnt.removes);
	t_adev_del(dotted);
	T_EQ("deleting a bound device calls remove() once", 1, cnt.removes);
	t_adev_del(longer);
	t_adev_del(fits);
	t_adev_del(toolong);
	t_adev_del(a);
}

static int t_match_name(struct device *dev, const void *data)
{
	return !strcmp(dev_name(dev), data);
}

static void t_find_device(void)
{
	struct auxiliary_device *a, *b, *found;
	int ret;

	a = t_adev_new("find", 1, &ret);
	b = t_adev_new("find", 2, &ret);
	found = auxiliary_find_device(NULL, "auxbus_test.find.2", t_match_name);
	t_report(found && found == b, "auxiliary_find_device() finds the device by name");
	if (found)
		put_device(&found->dev);
	found = auxiliary_find_device(NULL, "auxbus_test.find.9", t_match_name);
	t_report(!found, "auxiliary_find_device() returns NULL without a match");
	if (found)
		put_device(&found->dev);
	t_adev_del(a);
	t_adev_del(b);
}

static void t_uevent(void)
{
	struct kobj_uevent_env *env;
	struct auxiliary_device *a;
	bool seen = false;
	int ret, i;

	a = t_adev_new("modalias", 3, &ret);
	env = kzalloc(sizeof(*env), GFP_KERNEL);
	if (!a || !env || !a->dev.bus->uevent) {
		t_report(false, "uevent carries MODALIAS=%sauxbus_test.modalias",
			 AUXBUS_MODULE_PREFIX);
		goto out;
	}
	ret = a->dev.bus->uevent(&a->dev, env);
	for (i = 0; !ret && i < env->envp_idx; i++)
		seen |= !strcmp(env->envp[i],
				"MODALIAS=" AUXBUS_MODULE_PREFIX "auxbus_test.modalias");
	t_report(seen, "uevent carries MODALIAS=%sauxbus_test.modalias", AUXBUS_MODULE_PREFIX);
out:
	kfree(env);
	t_adev_del(a);
}

static void t_shutdown_and_sleep(void)
{
	struct auxiliary_device *bound, *unbound;
	const struct dev_pm_ops *pm;
	int ret;

	cnt = (struct t_counts){ };
	bound = t_adev_new("dev", 20, &ret);
	unbound = t_adev_new("nodriver", 20, &ret);
	if (!bound || !unbound || !bound->dev.bus->shutdown) {
		t_report(false, "shutdown reaches bound drivers only");
		goto out;
	}
	/* the reboot path: device_shutdown() calls bus->shutdown() for every device */
	unbound->dev.bus->shutdown(&unbound->dev);
	bound->dev.bus->shutdown(&bound->dev);
	T_EQ("shutdown reaches bound drivers only (unbound: no call, no crash)", 1,
	     cnt.shutdowns);

	pm = bound->dev.bus->pm;
	if (!IS_ENABLED(CONFIG_PM_SLEEP) || !pm || !pm->suspend || !pm->resume) {
		t_skip("system sleep passes through # SKIP no CONFIG_PM_SLEEP");
	} else {
		pm->suspend(&bound->dev);
		pm->resume(&bound->dev);
		t_report(cnt.suspends == 1 && cnt.resumes == 1,
			 "system sleep passes through to the driver's dev_pm_ops");
	}
out:
	t_adev_del(unbound);
	t_adev_del(bound);
}

static void t_runtime_pm(void)
{
	struct auxiliary_device *a;
	int ret;

	if (!IS_ENABLED(CONFIG_PM)) {
		t_skip("runtime PM passes through # SKIP no CONFIG_PM");
		return;
	}
	cnt = (struct t_counts){ };
	a = t_adev_new("runtime", 0, &ret);
	if (!t_bound(a)) {
		t_report(false, "runtime PM passes through to the driver");
		goto out;
	}
	pm_runtime_enable(&a->dev);
	ret = pm_runtime_get_sync(&a->dev);
	T_EQ("runtime resume reaches the driver", 1, cnt.rt_resumes);
	pm_runtime_put_sync(&a->dev);
	T_EQ("runtime suspend reaches the driver", 1, cnt.rt_suspends);
	pm_runtime_disable(&a->dev);
out:
	t_adev_del(a);
}

static void t_irqs(void)
{
	const char *bus = AUXBUS_BUS_NAME;
	struct auxiliary_device *a, *u;
	int ret;

	cnt = (struct t_counts){ };
	a = t_adev_new("irq", 0, &ret);
	if (!t_bound(a)) {
		t_report(false, "irq device binds");
		goto out;
	}
	T_EQ("irq add succeeds", 0, auxiliary_device_sysfs_irq_add(a, 33));
	t_report(t_path_exists("/sys/bus/%s/devices/auxbus_test.irq.0/irqs/33", bus),
		 "irqs/33 exists");
	T_EQ("adding the same irq twice fails with -EBUSY", -EBUSY,
	     auxiliary_device_sysfs_irq_add(a, 33));

	device_release_driver(&a->dev);
	t_report(!t_bound(a), "device unbinds");
	/* added while bound: irqs/ and its entries belong to that binding */
	t_report(!t_path_exists("/sys/bus/%s/devices/auxbus_test.irq.0/irqs", bus),
		 "irqs/ goes with the binding, irqs/33 with it");
	ret = device_attach(&a->dev);
	t_report(t_bound(a), "device binds again");
	T_EQ("irq add after a rebind succeeds (pending mainline bug)", 0,
	     auxiliary_device_sysfs_irq_add(a, 34));
	T_EQ("irq 33 can be added again", 0, auxiliary_device_sysfs_irq_add(a, 33));
	t_report(t_path_exists("/sys/bus/%s/devices/auxbus_test.irq.0/irqs/34", bus) &&
		 t_path_exists("/sys/bus/%s/devices/auxbus_test.irq.0/irqs/33", bus),
		 "irqs/33 and irqs/34 exist after the rebind");

	auxiliary_device_sysfs_irq_remove(a, 33);
	t_report(!t_path_exists("/sys/bus/%s/devices/auxbus_test.irq.0/irqs/33", bus),
		 "irq remove deletes irqs/33");
	auxiliary_device_sysfs_irq_remove(a, 34);
	t_report(!t_path_exists("/sys/bus/%s/devices/auxbus_test.irq.0/irqs/34", bus),
		 "irq remove deletes irqs/34");
	/* left on purpose: freed when the device leaves the bus (kmemleak would see it) */
	T_EQ("irq add for cleanup on delete", 0, auxiliary_device_sysfs_irq_add(a, 35));

	/*
	 * irqs/ made while no driver is bound goes with the device: what the bus keeps of it
	 * must not outlive the device (freed before auxbus.ko unloads: KASAN would see a use)
	 */
	u = t_adev_new("irqnodrv", 0, &ret);
	T_EQ("irq add on a device no driver binds", 0,
	     u ? auxiliary_device_sysfs_irq_add(u, 37) : ret);
	t_report(t_path_exists("/sys/bus/%s/devices/auxbus_test.irqnodrv.0/irqs/37", bus),
		 "its irqs/37 exists");
	t_adev_del(u);
out:
	t_adev_del(a);
}

static int t_created_pdata = 42;

static void t_create_destroy(void)
{
	struct auxiliary_device *a, *found;
	void *grp;

	a = auxiliary_device_create(t_parent, KBUILD_MODNAME, "created", &t_created_pdata, 4);
	t_report(!!a, "auxiliary_device_create() with an unbound parent");
	if (!a)
		return;
	T_EQ("created device is named <modname>.<devname>.<id>", 0,
	     strcmp(dev_name(&a->dev), "auxbus_test.created.4"));
	t_report(a->dev.platform_data == &t_created_pdata, "created device carries platform_data");
	t_report(a->dev.parent == t_parent, "created device has the parent");
	auxiliary_device_destroy(a);
	found = auxiliary_find_device(NULL, "auxbus_test.created.4", t_match_name);
	t_report(!found, "auxiliary_device_destroy() removes it");
	if (found)
		put_device(&found->dev);

	a = auxiliary_device_create(t_parent, KBUILD_MODNAME, NULL, NULL, 0);
	t_report(!a, "auxiliary_device_create() without devname returns NULL");

	grp = devres_open_group(t_parent, NULL, GFP_KERNEL);
	if (!grp) {
		t_report(false, "devm_auxiliary_device_create() on an unbound parent");
		return;
	}
	a = devm_auxiliary_device_create(t_parent, "devm", NULL);
	t_report(a && !strcmp(dev_name(&a->dev), "auxbus_test.devm.0"),
		 "devm_auxiliary_device_create() on an unbound parent");
	devres_release_group(t_parent, grp);
	found = auxiliary_find_device(NULL, "auxbus_test.devm.0", t_match_name);
	t_report(!found, "releasing the parent's devres destroys the devm device");
	if (found)
		put_device(&found->dev);
}

/* A bound parent: devm devices go away when the parent's driver unbinds. */
static struct auxiliary_device *t_pdev_child;

static int t_pdrv_probe(struct platform_device *pdev)
{
	t_pdev_child = devm_auxiliary_device_create(&pdev->dev, "pchild", NULL);
	return t_pdev_child ? 0 : -ENOMEM;
}

static struct platform_driver t_pdrv = {
	.driver.name = "auxbus_test_pparent",
	.probe = t_pdrv_probe,
};

static void t_devm_bound_parent(void)
{
	struct platform_device *pdev;
	struct auxiliary_device *found;

	if (platform_driver_register(&t_pdrv)) {
		t_report(false, "devm device of a bound parent");
		return;
	}
	pdev = platform_device_register_simple("auxbus_test_pparent", -1, NULL, 0);
	if (IS_ERR(pdev)) {
		t_report(false, "devm device of a bound parent");
		goto out_unregister_driver;
	}
	found = auxiliary_find_device(NULL, "auxbus_test.pchild.0", t_match_name);
	t_report(found && found == t_pdev_child && found->dev.parent == &pdev->dev,
		 "devm device of a bound parent exists");
	if (found)
		put_device(&found->dev);
	device_release_driver(&pdev->dev);
	found = auxiliary_find_device(NULL, "auxbus_test.pchild.0", t_match_name);
	t_report(!found, "unbinding the parent destroys its devm device");
	if (found)
		put_device(&found->dev);
	platform_device_unregister(pdev);
out_unregister_driver:
	platform_driver_unregister(&t_pdrv);
}

static void t_probe_failure(void)
{
	struct auxiliary_device *a;
	int ret;

	cnt = (struct t_counts){ .probe_ret = -ENODEV };
	a = t_adev_new("dev", 30, &ret);
	t_report(a && cnt.probes == 1 && !t_bound(a), "a failing probe leaves the device unbound");
	cnt.probe_ret = 0;
	t_adev_del(a);
	T_EQ("no remove() for a device whose probe failed", 0, cnt.removes);
}

static int __init auxbus_test_init(void)
{
	int ret;

	memset(t_long_fn, 0, sizeof(t_long_fn));
	memcpy(t_long_fn, T_LONG_FN, T_FN_LEN);
	memcpy(t_toolong_fn, T_LONG_FN, T_FN_LEN + 1);
	/* "auxbus_test." + T_FN_LEN characters: AUXILIARY_NAME_SIZE - 1, NUL-terminated */
	memcpy(t_ids[3].name, "auxbus_test.", 12);
	memcpy(t_ids[3].name + 12, t_long_fn, T_FN_LEN);

	t_parent = root_device_register("auxbus_test_root");
	if (IS_ERR(t_parent))
		return PTR_ERR(t_parent);

	ret = auxiliary_driver_register(&t_drv);
	if (ret) {
		root_device_unregister(t_parent);
		return ret;
	}

	pr_info("KTAP version 1\n");
	pr_info("KTAP # backend %s bus %s prefix %s name size %d\n",
		T_KERNEL_BUS ? "kernel" : "bundled", AUXBUS_BUS_NAME,
		AUXBUS_MODULE_PREFIX, AUXILIARY_NAME_SIZE);
	t_validation();
	t_names_and_match();
	t_find_device();
	t_uevent();
	t_shutdown_and_sleep();
	t_runtime_pm();
	t_irqs();
	t_probe_failure();
	t_create_destroy();
	t_devm_bound_parent();
	pr_info("KTAP 1..%u\n", t_num);
	pr_info("KTAP # done: %u failed\n", t_failed);
	return 0;
}
module_init(auxbus_test_init);

static void __exit auxbus_test_exit(void)
{
	auxiliary_driver_unregister(&t_drv);
	root_device_unregister(t_parent);
	wait_var_event(&t_live, !atomic_read(&t_live));
}
module_exit(auxbus_test_exit);

MODULE_DESCRIPTION("In-kernel checks of the auxiliary bus API (test only)");
MODULE_LICENSE("GPL");
