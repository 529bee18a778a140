/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bus of another vendor's out-of-tree auxiliary.ko: upstream's drivers/base/auxiliary.c
 * of 5.11, as those packages copy it, cut to matching, uevents and the exports. The includer
 * names the bus (OTHER_BUS_NAME) and includes its layout's header first. Test-only.
 */
#ifndef OTHER_PROVIDER_BUS_H
#define OTHER_PROVIDER_BUS_H

#include <linux/slab.h>
#include <linux/string.h>

/*
 * The driver-core callbacks' signatures of the target kernel, detected by
 * include/auxbus/Kbuild.include: uevent() takes a const device since 2a81ada32f0e
 * ("driver core: make struct bus_type.uevent() take a const *"), v6.3; match() a const
 * driver since d69d80484598 ("driver core: have match() callback in struct bus_type take a
 * const *"), v6.11; remove() returns void since fc7a6209d571 ("bus: Make remove callback
 * return void"), v5.15.
 */
#ifdef AUXBUS_HAVE_BUS_UEVENT_CONST
#define other_uevent_const const
#else
#define other_uevent_const
#endif
#ifdef AUXBUS_HAVE_BUS_MATCH_CONST_DRV
#define other_match_const const
#else
#define other_match_const
#endif

static const struct auxiliary_device_id *auxiliary_match_id(const struct auxiliary_device_id *id,
							    const struct auxiliary_device *auxdev)
{
	const char *name = dev_name(&auxdev->dev);
	const char *p = strrchr(name, '.');
	size_t len;

	if (!p)
		return NULL;
	/* the device's name up to its last '.' is the id */
	len = p - name;
	for (; id->name[0]; id++) {
		if (strlen(id->name) == len && !strncmp(name, id->name, len))
			return id;
	}
	return NULL;
}

static int auxiliary_match(struct device *dev, other_match_const struct device_driver *drv)
{
	return !!auxiliary_match_id(to_auxiliary_drv(drv)->id_table, to_auxiliary_dev(dev));
}

static int auxiliary_uevent(other_uevent_const struct device *dev, struct kobj_uevent_env *env)
{
	const char *name = dev_name(dev);
	const char *p = strrchr(name, '.');

	return add_uevent_var(env, "MODALIAS=%s%.*s", AUXILIARY_MODULE_PREFIX,
			      (int)(p - name), name);
}

static int auxiliary_bus_probe(struct device *dev)
{
	struct auxiliary_driver *auxdrv = to_auxiliary_drv(dev->driver);
	struct auxiliary_device *auxdev = to_auxiliary_dev(dev);

	return auxdrv->probe(auxdev, auxiliary_match_id(auxdrv->id_table, auxdev));
}

static void auxiliary_bus_remove_dev(struct device *dev)
{
	struct auxiliary_driver *auxdrv = to_auxiliary_drv(dev->driver);

	if (auxdrv->remove)
		auxdrv->remove(to_auxiliary_dev(dev));
}

#ifdef AUXBUS_HAVE_BUS_REMOVE_VOID
#define auxiliary_bus_remove auxiliary_bus_remove_dev
#else
static int auxiliary_bus_remove(struct device *dev)
{
	auxiliary_bus_remove_dev(dev);
	return 0;
}
#endif

static struct bus_type auxiliary_bus_type = {
	.name = OTHER_BUS_NAME,
	.probe = auxiliary_bus_probe,
	.remove = auxiliary_bus_remove,
	.match = auxiliary_match,
	.uevent = auxiliary_uevent,
};

int auxiliary_device_init(struct auxiliary_device *auxdev)
{
	struct device *dev = &auxdev->dev;

	if (!dev->parent || !auxdev->name)
		return -EINVAL;
	dev->bus = &auxiliary_bus_type;
	device_initialize(dev);
	return 0;
}
EXPORT_SYMBOL_GPL(auxiliary_device_init);

int __auxiliary_device_add(struct auxiliary_device *auxdev, const char *modname)
{
	struct device *dev = &auxdev->dev;
	int ret;

	if (!modname)
		return -EINVAL;
	ret = dev_set_name(dev, "%s.%s.%d", modname, auxdev->name, auxdev->id);
	if (ret)
		return ret;
	return device_add(dev);
}
EXPORT_SYMBOL_GPL(__auxiliary_device_add);

struct auxiliary_device *auxiliary_find_device(struct device *start, const void *data,
					       int (*match)(struct device *dev, const void *data))
{
	struct device *dev = bus_find_device(&auxiliary_bus_type, start, data, match);

	return dev ? to_auxiliary_dev(dev) : NULL;
}
EXPORT_SYMBOL_GPL(auxiliary_find_device);

int __auxiliary_driver_register(struct auxiliary_driver *auxdrv, struct module *owner,
				const char *modname)
{
	int ret;

	if (WARN_ON(!auxdrv->probe) || WARN_ON(!auxdrv->id_table))
		return -EINVAL;
	if (auxdrv->name)
		auxdrv->driver.name = kasprintf(GFP_KERNEL, "%s.%s", modname, auxdrv->name);
	else
		auxdrv->driver.name = kasprintf(GFP_KERNEL, "%s", modname);
	if (!auxdrv->driver.name)
		return -ENOMEM;
	auxdrv->driver.owner = owner;
	auxdrv->driver.bus = &auxiliary_bus_type;
	auxdrv->driver.mod_name = modname;
	ret = driver_register(&auxdrv->driver);
	if (ret)
		kfree(auxdrv->driver.name);
	return ret;
}
EXPORT_SYMBOL_GPL(__auxiliary_driver_register);

void auxiliary_driver_unregister(struct auxiliary_driver *auxdrv)
{
	driver_unregister(&auxdrv->driver);
	kfree(auxdrv->driver.name);
}
EXPORT_SYMBOL_GPL(auxiliary_driver_unregister);

static int __init auxiliary_bus_init(void)
{
	return bus_register(&auxiliary_bus_type);
}
module_init(auxiliary_bus_init);

static void __exit auxiliary_bus_exit(void)
{
	bus_unregister(&auxiliary_bus_type);
}
module_exit(auxiliary_bus_exit);

MODULE_LICENSE("GPL");

#endif /* OTHER_PROVIDER_BUS_H */
