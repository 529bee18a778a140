// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mainline's device creation helpers of drivers/base/auxiliary.c, eaa0d30216c1
 * ("driver core: auxiliary bus: add device creation helpers"), v6.16, with the
 * release() that drops the OF node reference. They use only the public API of the
 * bus (auxiliary_device_init(), __auxiliary_device_add(), auxiliary_device_uninit()
 * and auxiliary_device_delete()), so one body serves:
 *
 * - the bundled bus (AUXBUS_BACKEND_BUNDLED), on top of auxiliary.c;
 * - the kernel's bus where it lacks them (AUXBUS_BACKEND_KERNEL and
 *   AUXBUS_COMPAT_CREATE, decided in include/linux/auxiliary_bus.h).
 *
 * The exported names are those of include/linux/auxiliary_bus.h, as for the rest of
 * auxbus.ko: auxbus_-prefixed in coexist and kernel mode. In kernel mode on a kernel
 * that has the helpers, this file compiles to nothing.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "auxbus.h"

#if defined(AUXBUS_BACKEND_BUNDLED) || defined(AUXBUS_COMPAT_CREATE)

/*
 * Devices created here whose release() has not run: release() is this module's code, and
 * the last reference to a device can go after auxiliary_device_destroy() returned (held
 * elsewhere, or delayed by CONFIG_DEBUG_KOBJECT_RELEASE), so the module's exit waits for
 * them, as netdevsim's bus does for its devices.
 */
static atomic_t auxiliary_created = ATOMIC_INIT(0);

static void auxiliary_device_release(struct device *dev)
{
	struct auxiliary_device *auxdev = to_auxiliary_dev(dev);

	of_node_put(dev->of_node);
	kfree(auxdev);
	if (atomic_dec_and_test(&auxiliary_created))
		wake_up_var(&auxiliary_created);
}

void auxbus_create_exit(void)
{
	wait_var_event(&auxiliary_created, !atomic_read(&auxiliary_created));
}

/**
 * auxiliary_device_create - create a device on the auxiliary bus
 * @dev: parent device
 * @modname: module name used to create the auxiliary driver name.
 * @devname: auxiliary bus device name
 * @platform_data: auxiliary bus device platform data
 * @id: auxiliary bus device id
 *
 * Helper to create an auxiliary bus device: allocates it, initializes and adds it.
 * The device created matches driver 'modname.devname' on the auxiliary bus. The
 * parent need not be bound to a driver. Remove it with auxiliary_device_destroy().
 *
 * Return: the new device, or NULL on failure (nothing is left allocated).
 */
struct auxiliary_device *auxiliary_device_create(struct device *dev,
						 const char *modname,
						 const char *devname,
						 void *platform_data,
						 int id)
{
	struct auxiliary_device *auxdev;
	int ret;

	auxdev = kzalloc(sizeof(*auxdev), GFP_KERNEL);
	if (!auxdev)
		return NULL;
	atomic_inc(&auxiliary_created);

	auxdev->id = id;
	auxdev->name = devname;
	auxdev->dev.parent = dev;
	auxdev->dev.platform_data = platform_data;
	auxdev->dev.release = auxiliary_device_release;
	device_set_of_node_from_dev(&auxdev->dev, dev);

	ret = auxiliary_device_init(auxdev);
	if (ret) {
		of_node_put(auxdev->dev.of_node);
		kfree(auxdev);
		atomic_dec(&auxiliary_created);
		return NULL;
	}

	ret = __auxiliary_device_add(auxdev, modname);
	if (ret) {
		/* release() frees auxdev once the reference is dropped */
		auxiliary_device_uninit(auxdev);
		return NULL;
	}

	return auxdev;
}
EXPORT_SYMBOL_NS_GPL(auxiliary_device_create, "AUXBUS");

/**
 * auxiliary_device_destroy - remove an auxiliary device
 * @auxdev: pointer to the auxdev to be removed
 *
 * Helper to remove an auxiliary device created with
 * auxiliary_device_create(): deletes it and drops the creation reference.
 */
void auxiliary_device_destroy(void *auxdev)
{
	struct auxiliary_device *_auxdev = auxdev;

	auxiliary_device_delete(_auxdev);
	auxiliary_device_uninit(_auxdev);
}
EXPORT_SYMBOL_NS_GPL(auxiliary_device_destroy, "AUXBUS");

/**
 * __devm_auxiliary_device_create - create a managed device on the auxiliary bus
 * @dev: parent device
 * @modname: module name used to create the auxiliary driver name.
 * @devname: auxiliary bus device name
 * @platform_data: auxiliary bus device platform data
 * @id: auxiliary bus device id
 *
 * Device managed helper to create an auxiliary bus device: it is destroyed when
 * @dev's managed resources are released (its driver unbinds, or an enclosing
 * devres group is released).
 * The device created matches driver 'modname.devname' on the auxiliary bus.
 *
 * Return: the new device, or NULL on failure.
 */
struct auxiliary_device *__devm_auxiliary_device_create(struct device *dev,
							const char *modname,
							const char *devname,
							void *platform_data, int id)
{
	struct auxiliary_device *auxdev;
	int ret;

	auxdev = auxiliary_device_create(dev, modname, devname, platform_data, id);
	if (!auxdev)
		return NULL;

	ret = devm_add_action_or_reset(dev, auxiliary_device_destroy,
				       auxdev);
	if (ret)
		return NULL;

	return auxdev;
}
EXPORT_SYMBOL_NS_GPL(__devm_auxiliary_device_create, "AUXBUS");

#else

void auxbus_create_exit(void)
{
}

#endif /* AUXBUS_BACKEND_BUNDLED || AUXBUS_COMPAT_CREATE */
