// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs "irqs/" directory of auxiliary devices: mainline drivers/base/auxiliary_sysfs.c
 * (a808878308a8 "driver core: auxiliary bus: show auxiliary device IRQs", v6.11), for
 * the bundled bus, with the pending unbind/rebind bug fixed.
 *
 * Mainline creates the directory with devm_device_add_group(): when the driver that
 * added the first irq unbinds, devres removes the directory but irq_dir_exists stays
 * true, so every later auxiliary_device_sysfs_irq_add() fails (-ENOENT) after a rebind.
 * Here, as the maintainers asked of the pending fix, the directory still belongs to the
 * binding (a devres action), but its release also frees the entries a driver left and
 * clears irq_dir_exists, so the next probe's irq_add creates it again. A directory made
 * while no driver is bound belongs to the device and goes when it leaves the bus.
 *
 * Copyright (c) 2024, NVIDIA CORPORATION & AFFILIATES
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "auxbus.h"

#if defined(AUXBUS_BACKEND_BUNDLED) && defined(CONFIG_SYSFS)

#define AUXILIARY_MAX_IRQ_NAME 11

struct auxiliary_irq_info {
	struct device_attribute sysfs_attr;
	char name[AUXILIARY_MAX_IRQ_NAME];
};

static struct attribute *auxiliary_irq_attrs[] = {
	NULL
};

static const struct attribute_group auxiliary_irqs_group = {
	.name = "irqs",
	.attrs = auxiliary_irq_attrs,
};

/* the entries' files and memory; sysfs.lock held */
static void auxiliary_irq_entries_free(struct auxiliary_device *auxdev)
{
	struct auxiliary_irq_info *info;
	unsigned long irq;

	xa_for_each(&auxdev->sysfs.irqs, irq, info) {
		sysfs_remove_file_from_group(&auxdev->dev.kobj, &info->sysfs_attr.attr,
					     auxiliary_irqs_group.name);
		xa_erase(&auxdev->sysfs.irqs, irq);
		kfree(info);
	}
}

/* devres: the binding that created irqs/ ends; the directory goes with what is left in it */
static void auxiliary_irq_dir_release(void *data)
{
	struct auxiliary_device *auxdev = data;

	mutex_lock(&auxdev->sysfs.lock);
	/* not when the device left the bus first: auxiliary_device_sysfs_irq_cleanup() */
	if (auxdev->sysfs.irq_dir_exists) {
		auxiliary_irq_entries_free(auxdev);
		sysfs_remove_group(&auxdev->dev.kobj, &auxiliary_irqs_group);
		auxdev->sysfs.irq_dir_exists = false;
	}
	mutex_unlock(&auxdev->sysfs.lock);
}

static int auxiliary_irq_dir_prepare(struct auxiliary_device *auxdev)
{
	int ret = 0;

	mutex_lock(&auxdev->sysfs.lock);
	if (auxdev->sysfs.irq_dir_exists) {
		mutex_unlock(&auxdev->sysfs.lock);
		return 0;
	}

	if (!device_is_registered(&auxdev->dev)) {
		mutex_unlock(&auxdev->sysfs.lock);
		return -ENODEV;
	}

	ret = sysfs_create_group(&auxdev->dev.kobj, &auxiliary_irqs_group);
	if (ret) {
		mutex_unlock(&auxdev->sysfs.lock);
		return ret;
	}
	auxdev->sysfs.irq_dir_exists = true;
	mutex_unlock(&auxdev->sysfs.lock);

	/*
	 * Not for an unbound device: devres there would fail its next probe ("Resources
	 * present before probing"); its irqs/ goes with the device. On failure the action
	 * runs at once: no directory is left without its release.
	 */
	if (!auxdev->dev.driver)
		return 0;
	return devm_add_action_or_reset(&auxdev->dev, auxiliary_irq_dir_release, auxdev);
}

/**
 * auxiliary_device_sysfs_irq_add - add a sysfs entry for the given IRQ
 * @auxdev: auxiliary bus device to add the sysfs entry.
 * @irq: The associated interrupt number.
 *
 * This function should be called after auxiliary device have successfully
 * received the irq.
 * The driver is responsible to add a unique irq for the auxiliary device. The
 * driver can invoke this function from multiple thread context safely for
 * unique irqs of the auxiliary devices. The driver must not invoke this API
 * multiple times if the irq is already added previously.
 *
 * The entry irqs/<irq> stays until auxiliary_device_sysfs_irq_remove(), or until the
 * driver bound when the directory was made unbinds: the directory goes then with the
 * entries left in it, and the next irq_add (a rebind's probe) makes it again. A
 * directory made while no driver is bound goes when the device leaves the bus.
 *
 * Return: zero on success or an error code on failure (-ENODEV when the device is
 * not registered, -EBUSY when @irq was added already).
 */
int auxiliary_device_sysfs_irq_add(struct auxiliary_device *auxdev, int irq)
{
	struct auxiliary_irq_info *info;
	struct device *dev = &auxdev->dev;
	int ret;

	ret = auxiliary_irq_dir_prepare(auxdev);
	if (ret)
		return ret;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;

	sysfs_attr_init(&info->sysfs_attr.attr);
	snprintf(info->name, AUXILIARY_MAX_IRQ_NAME, "%d", irq);

	ret = xa_insert(&auxdev->sysfs.irqs, irq, info, GFP_KERNEL);
	if (ret)
		goto err_free_info;

	info->sysfs_attr.attr.name = info->name;
	ret = sysfs_add_file_to_group(&dev->kobj, &info->sysfs_attr.attr,
				      auxiliary_irqs_group.name);
	if (ret)
		goto err_erase_irq;

	return 0;

err_erase_irq:
	xa_erase(&auxdev->sysfs.irqs, irq);
err_free_info:
	kfree(info);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(auxiliary_device_sysfs_irq_add, "AUXBUS");

/**
 * auxiliary_device_sysfs_irq_remove - remove a sysfs entry for the given IRQ
 * @auxdev: auxiliary bus device to remove the sysfs entry from.
 * @irq: the IRQ to remove.
 *
 * This function should be called to remove an IRQ sysfs entry.
 * The driver must invoke this API when IRQ is released by the device.
 */
void auxiliary_device_sysfs_irq_remove(struct auxiliary_device *auxdev, int irq)
{
	struct auxiliary_irq_info *info = xa_erase(&auxdev->sysfs.irqs, irq);
	struct device *dev = &auxdev->dev;

	if (!info) {
		dev_err(&auxdev->dev, "IRQ %d doesn't exist\n", irq);
		return;
	}
	sysfs_remove_file_from_group(&dev->kobj, &info->sysfs_attr.attr,
				     auxiliary_irqs_group.name);
	kfree(info);
}
EXPORT_SYMBOL_NS_GPL(auxiliary_device_sysfs_irq_remove, "AUXBUS");

/* The device left the bus (its sysfs directory is gone): free forgotten entries. */
void auxiliary_device_sysfs_irq_cleanup(struct auxiliary_device *auxdev)
{
	mutex_lock(&auxdev->sysfs.lock);
	auxiliary_irq_entries_free(auxdev);
	xa_destroy(&auxdev->sysfs.irqs);
	auxdev->sysfs.irq_dir_exists = false;
	mutex_unlock(&auxdev->sysfs.lock);
}

#elif defined(AUXBUS_BACKEND_BUNDLED)

void auxiliary_device_sysfs_irq_cleanup(struct auxiliary_device *auxdev)
{
}

#endif
