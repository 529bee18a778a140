/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The API of another vendor's out-of-tree auxiliary bus, as that package's own
 * <linux/auxiliary_bus.h> declares it (upstream's of 5.11, cut to what the stand-ins use).
 * Test-only; Kbuild says what each stand-in models.
 */
#ifndef OTHER_PROVIDER_H
#define OTHER_PROVIDER_H

#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>

/*
 * mod_devicetable.h has the id type since 7de3697e9cbd ("Add auxiliary bus support"), v5.11,
 * with or without CONFIG_AUXILIARY_BUS
 */
#ifndef AUXILIARY_NAME_SIZE
#define AUXILIARY_NAME_SIZE 32
#define AUXILIARY_MODULE_PREFIX "auxiliary:"
struct auxiliary_device_id {
	char name[AUXILIARY_NAME_SIZE];
	kernel_ulong_t driver_data;
};
#endif

struct auxiliary_device {
	struct device dev;
	const char *name;
	u32 id;
};

struct auxiliary_driver {
	int (*probe)(struct auxiliary_device *auxdev, const struct auxiliary_device_id *id);
	void (*remove)(struct auxiliary_device *auxdev);
	const char *name;
	struct device_driver driver;
	const struct auxiliary_device_id *id_table;
};

#define to_auxiliary_dev(d)	container_of(d, struct auxiliary_device, dev)
#define to_auxiliary_drv(d)	container_of(d, struct auxiliary_driver, driver)

int auxiliary_device_init(struct auxiliary_device *auxdev);
int __auxiliary_device_add(struct auxiliary_device *auxdev, const char *modname);
#define auxiliary_device_add(auxdev) __auxiliary_device_add(auxdev, KBUILD_MODNAME)

static inline void auxiliary_device_uninit(struct auxiliary_device *auxdev)
{
	put_device(&auxdev->dev);
}

static inline void auxiliary_device_delete(struct auxiliary_device *auxdev)
{
	device_del(&auxdev->dev);
}

int __auxiliary_driver_register(struct auxiliary_driver *auxdrv, struct module *owner,
				const char *modname);
#define auxiliary_driver_register(auxdrv) \
	__auxiliary_driver_register(auxdrv, THIS_MODULE, KBUILD_MODNAME)
void auxiliary_driver_unregister(struct auxiliary_driver *auxdrv);
#define module_auxiliary_driver(__auxiliary_driver) \
	module_driver(__auxiliary_driver, auxiliary_driver_register, auxiliary_driver_unregister)

struct auxiliary_device *auxiliary_find_device(struct device *start, const void *data,
					       int (*match)(struct device *dev, const void *data));

#endif /* OTHER_PROVIDER_H */
