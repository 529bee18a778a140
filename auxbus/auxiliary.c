// SPDX-License-Identifier: GPL-2.0-only
/*
 * The auxiliary bus as a module: mainline drivers/base/auxiliary.c and
 * auxiliary_sysfs.c (the newest API, with the later fixes) for kernels without
 * CONFIG_AUXILIARY_BUS, or beside the kernel's own bus (AUXBUS_COEXIST).
 * auxiliary_device_create() and its helpers are in auxiliary_create.c.
 *
 * Copyright (c) 2019-2020 Intel Corporation
 * Copyright (c) 2024, NVIDIA CORPORATION & AFFILIATES (sysfs irqs)
 *
 * Please see Documentation/driver-api/auxiliary_bus.rst for more information.
 */

#define pr_fmt(fmt) "%s:%s: " fmt, KBUILD_MODNAME, __func__

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/error-injection.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/pm_domain.h>
#include <linux/pm_runtime.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/auxiliary_bus.h>

#include "auxbus.h"

#ifdef AUXBUS_BACKEND_BUNDLED

/**
 * DOC: PURPOSE
 *
 * A parent driver splits its device into sub-functions (auxiliary devices) that
 * other drivers, often in other subsystems, bind to: a NIC's RDMA and Ethernet
 * parts, an audio DSP's firmware clients. The parent and the auxiliary drivers
 * share a header and talk through exported, namespaced symbols; the bus only
 * matches devices to drivers by name and runs the driver model for them.
 */

static const struct auxiliary_device_id *auxiliary_match_id(const struct auxiliary_device_id *id,
							    const struct auxiliary_device *auxdev)
{
	const char *auxdev_name = dev_name(&auxdev->dev);
	const char *p = strrchr(auxdev_name, '.');
	int match_size;

	if (!p)
		return NULL;
	match_size = p - auxdev_name;

	for (; id->name[0]; id++) {
		/* use dev_name(&auxdev->dev) prefix before last '.' char to match to */
		if (strlen(id->name) == match_size &&
		    !strncmp(auxdev_name, id->name, match_size))
			return id;
	}
	return NULL;
}

static int auxiliary_match(struct device *dev, auxbus_const_match_drv struct device_driver *drv)
{
	struct auxiliary_device *auxdev = to_auxiliary_dev(dev);
	const struct auxiliary_driver *auxdrv = to_auxiliary_drv(drv);

	return !!auxiliary_match_id(auxdrv->id_table, auxdev);
}

static int auxiliary_uevent(auxbus_const_uevent_dev struct device *dev,
			    struct kobj_uevent_env *env)
{
	const char *name, *p;

	name = dev_name(dev);
	p = strrchr(name, '.');

	return add_uevent_var(env, "MODALIAS=%s%.*s", AUXBUS_MODULE_PREFIX,
			      (int)(p - name), name);
}

/*
 * No "modalias" attribute: mainline's bus has none (the uevent file carries MODALIAS, which
 * is what udev and mdev read), and every sysfs file costs each device add and delete.
 */

static const struct dev_pm_ops auxiliary_dev_pm_ops = {
	SET_RUNTIME_PM_OPS(pm_generic_runtime_suspend, pm_generic_runtime_resume, NULL)
	SET_SYSTEM_SLEEP_PM_OPS(pm_generic_suspend, pm_generic_resume)
};

static int auxiliary_bus_probe(struct device *dev)
{
	const struct auxiliary_driver *auxdrv = to_auxiliary_drv(dev->driver);
	struct auxiliary_device *auxdev = to_auxiliary_dev(dev);
	int ret;

	ret = auxbus_pm_domain_attach(dev);
	if (ret) {
		dev_warn(dev, "Failed to attach to PM Domain : %d\n", ret);
		return ret;
	}

	ret = auxdrv->probe(auxdev, auxiliary_match_id(auxdrv->id_table, auxdev));
	if (ret)
		auxbus_pm_domain_detach(dev);

	return ret;
}

static void auxiliary_bus_remove(struct device *dev)
{
	const struct auxiliary_driver *auxdrv = to_auxiliary_drv(dev->driver);
	struct auxiliary_device *auxdev = to_auxiliary_dev(dev);

	if (auxdrv->remove)
		auxdrv->remove(auxdev);
	auxbus_pm_domain_detach(dev);
}

AUXBUS_BUS_REMOVE_WRAPPER(auxiliary_bus_remove)

/*
 * Unbound devices have no driver to call: 784b2c48ac12 ("driver core: auxiliary bus:
 * Fix auxiliary bus shutdown null auxdrv ptr"), v5.11-rc1.
 */
static void auxiliary_bus_shutdown(struct device *dev)
{
	const struct auxiliary_driver *auxdrv = NULL;
	struct auxiliary_device *auxdev;

	if (dev->driver) {
		auxdrv = to_auxiliary_drv(dev->driver);
		auxdev = to_auxiliary_dev(dev);
	}

	if (auxdrv && auxdrv->shutdown)
		auxdrv->shutdown(auxdev);
}

/* /sys/bus/<AUXBUS_BUS_NAME>/devices, for the duplicate name check */
static struct kernfs_node *auxiliary_bus_devices_kn;

static auxbus_const_bus struct bus_type auxiliary_bus_type = {
	.name = AUXBUS_BUS_NAME,
	.probe = auxiliary_bus_probe,
	.remove = AUXBUS_BUS_REMOVE(auxiliary_bus_remove),
	.shutdown = auxiliary_bus_shutdown,
	.match = auxiliary_match,
	.uevent = auxiliary_uevent,
	.pm = &auxiliary_dev_pm_ops,
};

/**
 * auxiliary_device_init - check auxiliary_device and initialize
 * @auxdev: auxiliary device struct
 *
 * This is the second step in the three-step process to register an
 * auxiliary_device.
 *
 * When this function returns an error code, then the device_initialize will
 * *not* have been performed, and the caller will be responsible to free any
 * memory allocated for the auxiliary_device in the error path directly.
 *
 * It returns 0 on success.  On success, the device_initialize has been
 * performed.  After this point any error unwinding will need to include a call
 * to auxiliary_device_uninit().  In this post-initialize error scenario, a call
 * to the device's .release callback will be triggered, and all memory clean-up
 * is expected to be handled there.
 *
 * Return: 0, or -EINVAL (NULL parent or name, with a message in the log).
 */
int auxiliary_device_init(struct auxiliary_device *auxdev)
{
	struct device *dev = &auxdev->dev;

	if (!dev->parent) {
		pr_err("auxiliary_device has a NULL dev->parent\n");
		return -EINVAL;
	}

	if (!auxdev->name) {
		pr_err("auxiliary_device has a NULL name\n");
		return -EINVAL;
	}

	dev->bus = &auxiliary_bus_type;
	device_initialize(&auxdev->dev);
	mutex_init(&auxdev->sysfs.lock);
	xa_init(&auxdev->sysfs.irqs);
	auxdev->sysfs.irq_dir_exists = false;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(auxiliary_device_init, "AUXBUS");

/**
 * __auxiliary_device_add - add an auxiliary bus device
 * @auxdev: auxiliary bus device to add to the bus
 * @modname: name of the parent device's driver module
 *
 * This is the third step in the three-step process to register an
 * auxiliary_device.
 *
 * This function must be called after a successful call to
 * auxiliary_device_init(), which will perform the device_initialize.  This
 * means that if this returns an error code, then a call to
 * auxiliary_device_uninit() must be performed so that the .release callback
 * will be triggered to free the memory associated with the auxiliary_device.
 *
 * The expectation is that users will call the "auxiliary_device_add" macro so
 * that the caller's KBUILD_MODNAME is automatically inserted for the modname
 * parameter.  Only if a user requires a custom name would this version be
 * called directly.
 *
 * Return: 0; -EINVAL for a NULL @modname; the error of dev_set_name() or
 * device_add() (-EEXIST for a duplicate name and id).
 */
int __auxiliary_device_add(struct auxiliary_device *auxdev, const char *modname)
{
	struct device *dev = &auxdev->dev;
	struct kernfs_node *other;
	int ret;

	if (!modname) {
		dev_err(dev, "auxiliary device modname is NULL\n");
		return -EINVAL;
	}

	ret = dev_set_name(dev, "%s.%s.%d", modname, auxdev->name, auxdev->id);
	if (ret) {
		dev_err(dev, "auxiliary device dev_set_name failed: %d\n", ret);
		return ret;
	}

	/*
	 * A duplicate name would fail in device_add() too, but only after sysfs has
	 * dumped a stack for the duplicate file name: say it plainly instead. The
	 * bus's devices/ directory links every device by name; kernfs finds a name
	 * there in O(log n), where bus_find_device_by_name() walks the whole bus and
	 * made adding n devices O(n^2) (tests/bench: 18x the built-in bus at 10,000).
	 */
	other = sysfs_get_dirent(auxiliary_bus_devices_kn, dev_name(dev));
	if (other) {
		sysfs_put(other);
		dev_err(dev, "adding auxiliary device failed: name and id already in use\n");
		return -EEXIST;
	}

	ret = device_add(dev);
	if (ret)
		dev_err(dev, "adding auxiliary device failed!: %d\n", ret);

	return ret;
}
EXPORT_SYMBOL_NS_GPL(__auxiliary_device_add, "AUXBUS");
ALLOW_ERROR_INJECTION(__auxiliary_device_add, ERRNO);

/**
 * auxiliary_find_device - auxiliary device iterator for locating a particular device.
 * @start: Device to begin with
 * @data: Data to pass to match function
 * @match: Callback function to check device
 *
 * This function returns a reference to a device that is 'found'
 * for later use, as determined by the @match callback.
 *
 * The callback should return 0 if the device doesn't match and non-zero
 * if it does.  If the callback returns non-zero, this function will
 * return to the caller and not iterate over any more devices.
 *
 * Removed from mainline in v6.13; kept here for out-of-tree users.
 *
 * Return: the device with a reference the caller drops with put_device(), or NULL.
 */
struct auxiliary_device *auxiliary_find_device(struct device *start,
					       const void *data,
					       int (*match)(struct device *dev, const void *data))
{
	struct device *dev;

	dev = bus_find_device(&auxiliary_bus_type, start, data, match);
	if (!dev)
		return NULL;

	return to_auxiliary_dev(dev);
}
EXPORT_SYMBOL_NS_GPL(auxiliary_find_device, "AUXBUS");

/**
 * __auxiliary_driver_register - register a driver for auxiliary bus devices
 * @auxdrv: auxiliary_driver structure
 * @owner: owning module/driver
 * @modname: KBUILD_MODNAME for parent driver
 *
 * The expectation is that users will call the "auxiliary_driver_register"
 * macro so that the caller's KBUILD_MODNAME is automatically inserted for the
 * modname parameter.  Only if a user requires a custom name would this version
 * be called directly.
 *
 * The driver's name is "<modname>.<auxdrv->name>", or "<modname>" without a name.
 * It is freed again when driver_register() fails: 4afa0c22eed3 ("driver core:
 * auxiliary bus: Fix memory leak when driver_register() fail"), v5.14.
 *
 * Return: 0; -EINVAL without probe() or id_table (with a message in the log, not
 * the WARN mainline prints); -ENOMEM; or the error of driver_register().
 */
int __auxiliary_driver_register(struct auxiliary_driver *auxdrv,
				struct module *owner, const char *modname)
{
	int ret;

	if (!auxdrv->probe || !auxdrv->id_table) {
		pr_err("%s: auxiliary driver without %s\n", modname,
		       auxdrv->probe ? "id_table" : "probe()");
		return -EINVAL;
	}

	if (auxdrv->name)
		auxdrv->driver.name = kasprintf(GFP_KERNEL, "%s.%s", modname,
						auxdrv->name);
	else
		auxdrv->driver.name = kasprintf(GFP_KERNEL, "%s", modname);
	if (!auxdrv->driver.name)
		return -ENOMEM;

	auxdrv->driver.owner = owner;
	auxdrv->driver.bus = &auxiliary_bus_type;
	auxdrv->driver.mod_name = modname;

	ret = driver_register(&auxdrv->driver);
	if (ret) {
		kfree(auxdrv->driver.name);
		auxdrv->driver.name = NULL;
	}

	return ret;
}
EXPORT_SYMBOL_NS_GPL(__auxiliary_driver_register, "AUXBUS");
ALLOW_ERROR_INJECTION(__auxiliary_driver_register, ERRNO);

/**
 * auxiliary_driver_unregister - unregister a driver
 * @auxdrv: auxiliary_driver structure
 *
 * Unbinds the driver from all its devices (calling remove()) and frees the name
 * __auxiliary_driver_register() allocated.
 */
void auxiliary_driver_unregister(struct auxiliary_driver *auxdrv)
{
	driver_unregister(&auxdrv->driver);
	kfree(auxdrv->driver.name);
}
EXPORT_SYMBOL_NS_GPL(auxiliary_driver_unregister, "AUXBUS");

/**
 * dev_is_auxiliary - whether a device sits on this auxiliary bus
 * @dev: device to test
 *
 * Return: true when @dev is an auxiliary device of this bus.
 */
bool dev_is_auxiliary(struct device *dev)
{
	return dev->bus == &auxiliary_bus_type;
}
EXPORT_SYMBOL_NS_GPL(dev_is_auxiliary, "AUXBUS");

/* Is there a bus of that name already (the kernel's built-in one, another provider's)? */
static bool auxiliary_bus_name_taken(void)
{
	struct path path;

	if (kern_path("/sys/bus/" AUXBUS_BUS_NAME, LOOKUP_FOLLOW, &path))
		return false;
	path_put(&path);
	return true;
}

/*
 * Other out-of-tree providers of the auxiliary bus, by module name. MLNX_OFED's auxiliary.ko
 * (and Intel's, before its rename) registers the bus "auxiliary" and exports the unprefixed
 * API (which is why every export of the bundled bus carries the auxbus_ prefix: the module
 * loader would otherwise refuse auxbus.ko with "exports duplicate symbol" before it could say
 * anything). Intel's intel_auxiliary.ko registers "intel_auxiliary" with intel_ exports: it
 * coexists, and auxbus.ko only says so.
 */
static const struct {
	const char *module;
	const char *who;
} auxiliary_other_providers[] = {
	{
		.module = "auxiliary",
		.who = "MLNX_OFED's (mlnx-ofa_kernel) or Intel's pre-2022 out-of-tree auxiliary.ko",
	},
	{
		.module = "intel_auxiliary",
		.who = "Intel's out-of-tree drivers' (ice, irdma) intel_auxiliary.ko",
	},
};

/* The first other provider that is loaded as a module ("initstate": loadable modules only). */
static int auxiliary_other_provider(void)
{
	const char *name;
	struct path path;
	char p[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(auxiliary_other_providers); i++) {
		name = auxiliary_other_providers[i].module;
		snprintf(p, sizeof(p), "/sys/module/%s/initstate", name);
		if (!kern_path(p, LOOKUP_FOLLOW, &path)) {
			path_put(&path);
			return i;
		}
	}
	return -1;
}

static int auxiliary_bus_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	if (action == BUS_NOTIFY_REMOVED_DEVICE)
		auxiliary_device_sysfs_irq_cleanup(to_auxiliary_dev(data));
	return NOTIFY_DONE;
}

static struct notifier_block auxiliary_bus_nb = {
	.notifier_call = auxiliary_bus_notify,
};

int auxiliary_bus_init(void)
{
	int other, ret;

	other = auxiliary_other_provider();
	if (auxiliary_bus_name_taken()) {
		/* the other providers' bus is "auxiliary", never the coexisting "auxbus" */
		if (other >= 0 && !strcmp(AUXBUS_BUS_NAME, "auxiliary"))
			pr_err("a bus named '%s' is registered already, by module %s: %s. The bundle's clients cannot use that bus. Unload it and the drivers that use it (modprobe -r %s), or remove that package, then load auxbus again.\n",
			       AUXBUS_BUS_NAME, auxiliary_other_providers[other].module,
			       auxiliary_other_providers[other].who,
			       auxiliary_other_providers[other].module);
		else
			pr_err("a bus named '%s' is registered already (by no known other provider of the bus): this auxbus.ko was built for a kernel without CONFIG_AUXILIARY_BUS; rebuild it for this kernel (AUXBUS_BACKEND=auto)\n",
			       AUXBUS_BUS_NAME);
		return -EEXIST;
	}
	if (other >= 0)
		pr_warn("module %s is loaded (%s): its devices are on its own bus, and the bundle's clients do not bind them\n",
			auxiliary_other_providers[other].module,
			auxiliary_other_providers[other].who);

	ret = bus_register(&auxiliary_bus_type);
	if (ret) {
		pr_err("cannot register the bus '%s': %d\n", AUXBUS_BUS_NAME, ret);
		return ret;
	}

	auxiliary_bus_devices_kn = sysfs_get_dirent(bus_get_kset(&auxiliary_bus_type)->kobj.sd,
						    "devices");
	if (!auxiliary_bus_devices_kn) {
		pr_err("no devices directory for the bus '%s'\n", AUXBUS_BUS_NAME);
		ret = -ENOENT;
		goto err_bus_unregister;
	}

	ret = bus_register_notifier(&auxiliary_bus_type, &auxiliary_bus_nb);
	if (ret) {
		pr_err("cannot register the bus notifier: %d\n", ret);
		goto err_put_devices_kn;
	}
	return 0;

err_put_devices_kn:
	sysfs_put(auxiliary_bus_devices_kn);
err_bus_unregister:
	auxbus_bus_unregister_sync(&auxiliary_bus_type);
	return ret;
}

void auxiliary_bus_exit(void)
{
	bus_unregister_notifier(&auxiliary_bus_type, &auxiliary_bus_nb);
	sysfs_put(auxiliary_bus_devices_kn);
	auxbus_bus_unregister_sync(&auxiliary_bus_type);
}

#endif /* AUXBUS_BACKEND_BUNDLED */
