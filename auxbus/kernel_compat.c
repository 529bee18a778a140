// SPDX-License-Identifier: GPL-2.0-only
/*
 * auxbus.ko in "kernel" mode: the parts of the newest auxiliary bus API that the
 * running kernel's built-in bus lacks, built on top of that bus. Which parts are
 * compiled is decided in include/linux/auxiliary_bus.h from the kernel's own header
 * (AUXBUS_COMPAT_*):
 *
 * - auxiliary_device_sysfs_irq_add/remove (6.11; and where the kernel's version still
 *   loses irqs/ on unbind/rebind). 6.1's struct auxiliary_device has no sysfs state,
 *   so the state lives here, keyed by device. As on the bundled bus, irqs/ belongs to
 *   the binding that made it (a devres action frees it and the entries left in it);
 *   one made while no driver is bound goes when the device leaves the bus (notifier).
 * - auxiliary_device_create/destroy, __devm_auxiliary_device_create (6.16): in
 *   auxiliary_create.c, shared with the bundled bus.
 * - auxiliary_find_device (removed in 6.13) and dev_is_auxiliary (7.x): these need the
 *   kernel's bus_type, which is not exported; auxbus.ko learns it from a driver it
 *   registers with auxiliary_driver_register() (drv->driver.bus).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

#include "auxbus.h"

#ifdef AUXBUS_BACKEND_KERNEL

/* The kernel's auxiliary bus_type (const since v6.4, as struct device_driver has it). */
static typeof(((struct device_driver *)NULL)->bus) auxbus_kernel_bus;

static int auxbus_busprobe_probe(struct auxiliary_device *auxdev,
				 const struct auxiliary_device_id *id)
{
	return -ENODEV;
}

static const struct auxiliary_device_id auxbus_busprobe_ids[] = {
	{ .name = "auxbus.busprobe" },
	{ }
};

static struct auxiliary_driver auxbus_busprobe_driver = {
	.name = "busprobe",
	.probe = auxbus_busprobe_probe,
	.id_table = auxbus_busprobe_ids,
};

#ifdef AUXBUS_COMPAT_SYSFS_IRQ

#define AUXILIARY_MAX_IRQ_NAME 11

struct auxiliary_irq_info {
	struct device_attribute sysfs_attr;
	char name[AUXILIARY_MAX_IRQ_NAME];
};

/* Per-device irqs/ state the kernel's struct auxiliary_device may not hold. */
struct auxbus_irq_dev {
	struct list_head node;
	struct auxiliary_device *auxdev;
	struct xarray irqs;
};

static LIST_HEAD(auxbus_irq_devs);
static DEFINE_MUTEX(auxbus_irq_lock);	/* auxbus_irq_devs and each xarray */

static struct attribute *auxiliary_irq_attrs[] = {
	NULL
};

static const struct attribute_group auxiliary_irqs_group = {
	.name = "irqs",
	.attrs = auxiliary_irq_attrs,
};

static struct auxbus_irq_dev *auxbus_irq_dev_find(struct auxiliary_device *auxdev)
{
	struct auxbus_irq_dev *idev;

	list_for_each_entry(idev, &auxbus_irq_devs, node)
		if (idev->auxdev == auxdev)
			return idev;
	return NULL;
}

/* Called with auxbus_irq_lock held: remove the entries, the directory and the state. */
static void auxbus_irq_dev_free(struct auxbus_irq_dev *idev)
{
	struct kobject *kobj = &idev->auxdev->dev.kobj;
	struct auxiliary_irq_info *info;
	unsigned long irq;

	xa_for_each(&idev->irqs, irq, info) {
		sysfs_remove_file_from_group(kobj, &info->sysfs_attr.attr,
					     auxiliary_irqs_group.name);
		xa_erase(&idev->irqs, irq);
		kfree(info);
	}
	xa_destroy(&idev->irqs);
	sysfs_remove_group(kobj, &auxiliary_irqs_group);
	list_del(&idev->node);
	kfree(idev);
}

/* devres: the binding that made irqs/ ends; the directory goes with what is left in it */
static void auxbus_irq_dir_release(void *data)
{
	struct auxbus_irq_dev *idev;

	mutex_lock(&auxbus_irq_lock);
	/* none when the device left the bus first (bus notifier) */
	idev = auxbus_irq_dev_find(data);
	if (idev)
		auxbus_irq_dev_free(idev);
	mutex_unlock(&auxbus_irq_lock);
}

/**
 * auxiliary_device_sysfs_irq_add - add a sysfs entry for the given IRQ
 * @auxdev: auxiliary bus device to add the sysfs entry.
 * @irq: The associated interrupt number.
 *
 * Compat version for the kernel's bus. Creates irqs/<irq> under the device (and
 * the irqs/ directory with the first entry). The entry stays until
 * auxiliary_device_sysfs_irq_remove(), or until the driver bound when the directory
 * was made unbinds: the directory goes then with the entries left in it, and the
 * next irq_add (a rebind's probe) makes it again; one made while no driver is bound
 * goes with the device. The driver must add each irq only once.
 *
 * Return: zero on success or an error code on failure (-ENODEV when the device is
 * not registered, -EBUSY when @irq was added already).
 */
int auxiliary_device_sysfs_irq_add(struct auxiliary_device *auxdev, int irq)
{
	struct device *dev = &auxdev->dev;
	struct auxiliary_irq_info *info;
	struct auxbus_irq_dev *idev;
	int ret;

	if (!device_is_registered(dev))
		return -ENODEV;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	sysfs_attr_init(&info->sysfs_attr.attr);
	snprintf(info->name, AUXILIARY_MAX_IRQ_NAME, "%d", irq);
	info->sysfs_attr.attr.name = info->name;

	mutex_lock(&auxbus_irq_lock);
	idev = auxbus_irq_dev_find(auxdev);
	if (!idev) {
		idev = kzalloc(sizeof(*idev), GFP_KERNEL);
		if (!idev) {
			ret = -ENOMEM;
			goto err_unlock;
		}
		ret = sysfs_create_group(&dev->kobj, &auxiliary_irqs_group);
		if (ret) {
			kfree(idev);
			goto err_unlock;
		}
		idev->auxdev = auxdev;
		xa_init(&idev->irqs);
		list_add(&idev->node, &auxbus_irq_devs);
		/*
		 * Tied to the bound driver (not to an unbound device: devres there would fail
		 * its next probe); on failure the action runs at once, the directory goes.
		 */
		if (dev->driver) {
			mutex_unlock(&auxbus_irq_lock);
			ret = devm_add_action_or_reset(dev, auxbus_irq_dir_release, auxdev);
			if (ret) {
				kfree(info);
				return ret;
			}
			mutex_lock(&auxbus_irq_lock);
			idev = auxbus_irq_dev_find(auxdev);
			if (!idev) {
				ret = -ENODEV;
				goto err_unlock;
			}
		}
	}

	ret = xa_insert(&idev->irqs, irq, info, GFP_KERNEL);
	if (ret)
		goto err_unlock;

	ret = sysfs_add_file_to_group(&dev->kobj, &info->sysfs_attr.attr,
				      auxiliary_irqs_group.name);
	if (ret)
		goto err_erase_irq;
	mutex_unlock(&auxbus_irq_lock);
	return 0;

err_erase_irq:
	xa_erase(&idev->irqs, irq);
err_unlock:
	mutex_unlock(&auxbus_irq_lock);
	kfree(info);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(auxiliary_device_sysfs_irq_add, "AUXBUS");

/**
 * auxiliary_device_sysfs_irq_remove - remove a sysfs entry for the given IRQ
 * @auxdev: auxiliary bus device to remove the sysfs entry from.
 * @irq: the IRQ to remove.
 *
 * Compat version for the kernel's bus; the driver calls it when it releases @irq.
 */
void auxiliary_device_sysfs_irq_remove(struct auxiliary_device *auxdev, int irq)
{
	struct auxiliary_irq_info *info = NULL;
	struct auxbus_irq_dev *idev;

	mutex_lock(&auxbus_irq_lock);
	idev = auxbus_irq_dev_find(auxdev);
	if (idev)
		info = xa_erase(&idev->irqs, irq);
	if (info)
		sysfs_remove_file_from_group(&auxdev->dev.kobj, &info->sysfs_attr.attr,
					     auxiliary_irqs_group.name);
	mutex_unlock(&auxbus_irq_lock);

	if (!info) {
		dev_err(&auxdev->dev, "IRQ %d doesn't exist\n", irq);
		return;
	}
	kfree(info);
}
EXPORT_SYMBOL_NS_GPL(auxiliary_device_sysfs_irq_remove, "AUXBUS");

static int auxbus_irq_bus_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct auxbus_irq_dev *idev;

	if (action != BUS_NOTIFY_REMOVED_DEVICE)
		return NOTIFY_DONE;

	mutex_lock(&auxbus_irq_lock);
	idev = auxbus_irq_dev_find(to_auxiliary_dev(data));
	if (idev)
		auxbus_irq_dev_free(idev);
	mutex_unlock(&auxbus_irq_lock);
	return NOTIFY_DONE;
}

static struct notifier_block auxbus_irq_nb = {
	.notifier_call = auxbus_irq_bus_notify,
};

static int auxbus_irq_compat_init(void)
{
	return bus_register_notifier(auxbus_kernel_bus, &auxbus_irq_nb);
}

static void auxbus_irq_compat_exit(void)
{
	struct auxbus_irq_dev *idev, *tmp;

	bus_unregister_notifier(auxbus_kernel_bus, &auxbus_irq_nb);
	mutex_lock(&auxbus_irq_lock);
	list_for_each_entry_safe(idev, tmp, &auxbus_irq_devs, node)
		auxbus_irq_dev_free(idev);
	mutex_unlock(&auxbus_irq_lock);
}

#else /* !AUXBUS_COMPAT_SYSFS_IRQ */

static int auxbus_irq_compat_init(void)
{
	return 0;
}

static void auxbus_irq_compat_exit(void)
{
}

#endif /* AUXBUS_COMPAT_SYSFS_IRQ */

#ifdef AUXBUS_COMPAT_FIND_DEVICE
/**
 * auxiliary_find_device - auxiliary device iterator for locating a particular device.
 * @start: Device to begin with
 * @data: Data to pass to match function
 * @match: Callback function to check device
 *
 * Compat version for kernels whose bus no longer has it (removed in v6.13).
 *
 * Return: the first device after @start for which @match returns non-zero, with a
 * reference the caller drops with put_device(); or NULL.
 */
struct auxiliary_device *auxiliary_find_device(struct device *start, const void *data,
					       int (*match)(struct device *dev,
							    const void *data))
{
	struct device *dev;

	dev = bus_find_device(auxbus_kernel_bus, start, data, match);
	if (!dev)
		return NULL;

	return to_auxiliary_dev(dev);
}
EXPORT_SYMBOL_NS_GPL(auxiliary_find_device, "AUXBUS");
#endif

#ifdef AUXBUS_COMPAT_DEV_IS_AUX
/**
 * dev_is_auxiliary - whether a device sits on the auxiliary bus
 * @dev: device to test
 *
 * Compat version of 97e6fabee5dc ("driver core: auxiliary bus: Introduce
 * dev_is_auxiliary()") for the kernel's bus.
 *
 * Return: true when @dev is on the kernel's auxiliary bus.
 */
bool dev_is_auxiliary(struct device *dev)
{
	return dev->bus == auxbus_kernel_bus;
}
EXPORT_SYMBOL_NS_GPL(dev_is_auxiliary, "AUXBUS");
#endif

int auxbus_kernel_compat_init(void)
{
	int ret;

	ret = auxiliary_driver_register(&auxbus_busprobe_driver);
	if (ret) {
		pr_err("cannot register a driver on the kernel's auxiliary bus: %d\n", ret);
		return ret;
	}
	auxbus_kernel_bus = auxbus_busprobe_driver.driver.bus;
	auxiliary_driver_unregister(&auxbus_busprobe_driver);

	ret = auxbus_irq_compat_init();
	if (ret)
		pr_err("cannot register the bus notifier: %d\n", ret);
	return ret;
}

void auxbus_kernel_compat_exit(void)
{
	auxbus_irq_compat_exit();
}

#endif /* AUXBUS_BACKEND_KERNEL */
