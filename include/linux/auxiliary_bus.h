/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The auxiliary bus API of the newest mainline kernel, on every kernel the auxbus
 * bundle supports (5.10 .. 7.x), for both backends:
 *
 * - AUXBUS_BACKEND_BUNDLED: the bus is auxbus.ko. Full definitions here; the exported
 *   symbols carry an "auxbus_" prefix. With AUXBUS_COEXIST (the kernel has its own
 *   CONFIG_AUXILIARY_BUS) the bus is /sys/bus/auxbus and the uevent MODALIAS prefix is
 *   "auxbus:", so both buses live side by side.
 * - AUXBUS_BACKEND_KERNEL: the kernel's own header (#include_next) plus whatever this
 *   kernel lacks of the newest API, exported by auxbus.ko in "kernel" mode.
 *
 * Including this header imports the symbol namespace "AUXBUS" (mainline clients build
 * unchanged). The bundle's Kbuild (or include/auxbus/client.mk for third-party modules)
 * defines the backend and the AUXBUS_HAVE_* feature flags. It needs nothing else of the
 * bundle (include/auxbus/compat.h is the bundle's private header) and defines only the
 * upstream names and AUXBUS_*, auxbus_* ones.
 *
 * Please see Documentation/driver-api/auxiliary_bus.rst for more information.
 */
#ifndef _AUXBUS_LINUX_AUXILIARY_BUS_H
#define _AUXBUS_LINUX_AUXILIARY_BUS_H

#if !defined(AUXBUS_BACKEND_BUNDLED) && !defined(AUXBUS_BACKEND_KERNEL)
#error "auxbus: no backend defined; build with the bundle's Kbuild or include/auxbus/client.mk"
#endif

#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>

#ifdef AUXBUS_BACKEND_KERNEL

#include_next <linux/auxiliary_bus.h>

#define AUXBUS_BUS_NAME			"auxiliary"
#define AUXBUS_MODULE_PREFIX		AUXILIARY_MODULE_PREFIX

/*
 * What the kernel's bus lacks, provided by auxbus.ko ("kernel" mode). The symbols carry
 * an auxbus_ prefix so they can never clash with a later kernel's own. What the kernel
 * has is a macro to itself, so that a driver's "#ifndef <function>" compat finds every
 * function of the API on every kernel, native or not.
 *
 * The sysfs irqs/ helpers are always the bundle's while the kernel's version still has
 * the unbind/rebind bug (irq_dir_exists stays true after the devm group is gone).
 */
#if !defined(AUXBUS_HAVE_KERNEL_AUX_SYSFS_IRQ) || defined(AUXBUS_HAVE_KERNEL_AUX_IRQ_DIR_EXISTS)
#define AUXBUS_COMPAT_SYSFS_IRQ
#define auxiliary_device_sysfs_irq_add		auxbus_auxiliary_device_sysfs_irq_add
#define auxiliary_device_sysfs_irq_remove	auxbus_auxiliary_device_sysfs_irq_remove
int auxiliary_device_sysfs_irq_add(struct auxiliary_device *auxdev, int irq);
void auxiliary_device_sysfs_irq_remove(struct auxiliary_device *auxdev, int irq);
#else
#define auxiliary_device_sysfs_irq_add		auxiliary_device_sysfs_irq_add
#define auxiliary_device_sysfs_irq_remove	auxiliary_device_sysfs_irq_remove
#endif

#ifndef AUXBUS_HAVE_KERNEL_AUX_CREATE
#define AUXBUS_COMPAT_CREATE
#define auxiliary_device_create			auxbus_auxiliary_device_create
#define auxiliary_device_destroy		auxbus_auxiliary_device_destroy
#define __devm_auxiliary_device_create		auxbus___devm_auxiliary_device_create
struct auxiliary_device *auxiliary_device_create(struct device *dev, const char *modname,
						 const char *devname, void *platform_data,
						 int id);
void auxiliary_device_destroy(void *auxdev);
struct auxiliary_device *__devm_auxiliary_device_create(struct device *dev,
							const char *modname,
							const char *devname,
							void *platform_data, int id);
#define devm_auxiliary_device_create(dev, devname, platform_data) \
	__devm_auxiliary_device_create(dev, KBUILD_MODNAME, devname, platform_data, 0)
#else
#define auxiliary_device_create			auxiliary_device_create
#define auxiliary_device_destroy		auxiliary_device_destroy
#define __devm_auxiliary_device_create		__devm_auxiliary_device_create
#endif

#ifndef AUXBUS_HAVE_KERNEL_AUX_FIND_DEVICE
#define AUXBUS_COMPAT_FIND_DEVICE
#define auxiliary_find_device			auxbus_auxiliary_find_device
struct auxiliary_device *auxiliary_find_device(struct device *start, const void *data,
					       int (*match)(struct device *dev,
							    const void *data));
#else
#define auxiliary_find_device			auxiliary_find_device
#endif

#ifndef AUXBUS_HAVE_KERNEL_DEV_IS_AUX
#define AUXBUS_COMPAT_DEV_IS_AUX
#define dev_is_auxiliary			auxbus_dev_is_auxiliary
bool dev_is_auxiliary(struct device *dev);
#else
#define dev_is_auxiliary			dev_is_auxiliary
#endif

#else /* AUXBUS_BACKEND_BUNDLED */

/* The kernel's own header must never be seen as well: claim its include guard. */
#define _AUXILIARY_BUS_H_

#include <linux/mutex.h>
#include <linux/xarray.h>

/*
 * struct auxiliary_device_id was added to mod_devicetable.h by 7de3697e9cbd ("Add auxiliary
 * bus support"), v5.11, together with AUXILIARY_NAME_SIZE: that macro tells whether the kernel
 * (or a driver's own compat code, written the same way) has it already.
 */
#ifndef AUXILIARY_NAME_SIZE
#define AUXILIARY_NAME_SIZE 32

struct auxiliary_device_id {
	char name[AUXILIARY_NAME_SIZE];
	kernel_ulong_t driver_data;
};
#endif
#ifndef AUXILIARY_MODULE_PREFIX
#define AUXILIARY_MODULE_PREFIX "auxiliary:"
#endif

/*
 * modpost of kernels before v5.11 ignores the auxiliary device table
 * (AUXBUS_HAVE_AUXILIARY_DEVICE_ID comes from the kernel's mod_devicetable.h, see
 * include/auxbus/Kbuild.include), and the coexisting bus has its own MODALIAS prefix:
 * AUXILIARY_DEVICE_TABLE() then adds MODULE_ALIAS() lines, and include/auxbus/client.mk
 * writes the aliases of a plain MODULE_DEVICE_TABLE(auxiliary, ...) into the module.
 */
#ifndef AUXBUS_HAVE_AUXILIARY_DEVICE_ID
#define AUXBUS_NEED_MODULE_ALIAS
#endif

/*
 * LINUX_BACKPORT()-style prefix on every export, as the backports project does: the kernel
 * (coexisting bus) or another provider of the bus (MLNX_OFED's or Intel's auxiliary.ko,
 * which export the unprefixed names) may be loaded; auxbus.ko then still loads, finds the
 * other provider and says which one it is (auxbus/auxiliary.c).
 */
#define auxiliary_device_init			auxbus_auxiliary_device_init
#define __auxiliary_device_add			auxbus___auxiliary_device_add
#define __auxiliary_driver_register		auxbus___auxiliary_driver_register
#define auxiliary_driver_unregister		auxbus_auxiliary_driver_unregister
#define auxiliary_find_device			auxbus_auxiliary_find_device
#define auxiliary_device_sysfs_irq_add		auxbus_auxiliary_device_sysfs_irq_add
#define auxiliary_device_sysfs_irq_remove	auxbus_auxiliary_device_sysfs_irq_remove
#define auxiliary_device_create			auxbus_auxiliary_device_create
#define auxiliary_device_destroy		auxbus_auxiliary_device_destroy
#define __devm_auxiliary_device_create		auxbus___devm_auxiliary_device_create
#define dev_is_auxiliary			auxbus_dev_is_auxiliary

#ifdef AUXBUS_COEXIST
#define AUXBUS_BUS_NAME			"auxbus"
#define AUXBUS_MODULE_PREFIX		"auxbus:"
#define AUXBUS_NEED_MODULE_ALIAS
#else
#define AUXBUS_BUS_NAME			"auxiliary"
#define AUXBUS_MODULE_PREFIX		AUXILIARY_MODULE_PREFIX
#endif

/**
 * DOC: DEVICE_LIFESPAN
 *
 * The registering (parent) driver allocates the memory of an auxiliary_device and
 * owns it: it is freed in the release() callback the parent supplies, which runs
 * when the last reference to the device is dropped, not when the parent calls
 * auxiliary_device_delete().
 *
 * Embed the auxiliary_device in a parent-defined structure that also points at the
 * shared object(s) the auxiliary driver needs; the auxiliary driver reaches them with
 * container_of() from the auxiliary_device its probe() receives. Shared objects must
 * live at least as long as the auxiliary_device, and an auxiliary driver may only rely
 * on them while the device is registered on the bus.
 *
 * The parent must unregister all its auxiliary devices before its own remove()
 * completes, e.g. with devm_add_action_or_reset() on the parent device, and every
 * operation on an auxiliary device must keep working (if only to return an error)
 * after the parent has unregistered it.
 */

/**
 * struct auxiliary_device - auxiliary device object.
 * @dev: Device,
 *       The release and parent fields of the device structure must be filled
 *       in
 * @name: Match name found by the auxiliary device driver,
 * @id: unique identitier if multiple devices of the same name are exported,
 * @sysfs: embedded struct which hold all sysfs related fields,
 * @sysfs.irqs: irqs xarray contains irq indices which are used by the device,
 * @sysfs.lock: Synchronize irq sysfs creation,
 * @sysfs.irq_dir_exists: whether "irqs" directory exists,
 *
 * An auxiliary_device is one part of its parent device's functionality. Its
 * @name, prefixed with the registering driver's KBUILD_MODNAME, is the match
 * name ("foo_mod.foo_dev") that drivers list in their id_table; the match name
 * plus @id ("foo_mod.foo_dev.3") is the device's name on the bus and must be
 * unique: a duplicate makes auxiliary_device_add() fail.
 *
 * Registering is a three-step process:
 *
 * 1. Allocate the auxiliary_device (usually embedded in a parent structure) and
 *    fill in @name, @id, dev.release (or dev.type->release) and dev.parent.
 * 2. Call auxiliary_device_init(). It validates the fields and initializes the
 *    device. From here on every error path must call auxiliary_device_uninit(),
 *    which drops the reference and lets release() free the memory.
 * 3. Call auxiliary_device_add(). It names the device and adds it to the bus.
 *
 * .. code-block:: c
 *
 *	my_aux_dev->name = MY_DEVICE_NAME;
 *	my_aux_dev->id = my_unique_id_alloc(xxx);
 *	my_aux_dev->dev.release = my_aux_dev_release;
 *	my_aux_dev->dev.parent = my_dev;
 *
 *	if (auxiliary_device_init(my_aux_dev))
 *		goto fail;
 *
 *	if (auxiliary_device_add(my_aux_dev)) {
 *		auxiliary_device_uninit(my_aux_dev);
 *		goto fail;
 *	}
 *
 * Unregistering mirrors it: auxiliary_device_delete(), then
 * auxiliary_device_uninit().
 */
struct auxiliary_device {
	struct device dev;
	const char *name;
	u32 id;
	struct {
		struct xarray irqs;
		struct mutex lock; /* Synchronize irq sysfs creation */
		bool irq_dir_exists;
	} sysfs;
};

/**
 * struct auxiliary_driver - Definition of an auxiliary bus driver
 * @probe: Called when a matching device is added to the bus.
 * @remove: Called when device is removed from the bus.
 * @shutdown: Called at shut-down time to quiesce the device.
 * @suspend: Not called by the bus; a parent driver may call it for its devices (as SOF's
 *	does on system sleep). The bus's power management calls @driver.pm.
 * @resume: Not called by the bus; the counterpart of @suspend.
 * @name: Driver name.
 * @driver: Core driver structure.
 * @id_table: Table of devices this driver should match on the bus.
 *
 * Auxiliary drivers follow the driver model: the core matches devices against
 * @id_table and calls @probe and @remove, and @shutdown at shut-down; power management
 * goes through @driver.pm (neither this bus nor mainline's calls @suspend or @resume).
 * Register with auxiliary_driver_register() or module_auxiliary_driver(); declare the
 * id table with AUXILIARY_DEVICE_TABLE() or by hand:
 *
 * .. code-block:: c
 *
 *	static const struct auxiliary_device_id my_auxiliary_id_table[] = {
 *		{ .name = "foo_mod.foo_dev" },
 *		{},
 *	};
 *	MODULE_DEVICE_TABLE(auxiliary, my_auxiliary_id_table);
 *
 *	static struct auxiliary_driver my_drv = {
 *		.name = "myauxiliarydrv",
 *		.id_table = my_auxiliary_id_table,
 *		.probe = my_drv_probe,
 *		.remove = my_drv_remove
 *	};
 */
struct auxiliary_driver {
	int (*probe)(struct auxiliary_device *auxdev, const struct auxiliary_device_id *id);
	void (*remove)(struct auxiliary_device *auxdev);
	void (*shutdown)(struct auxiliary_device *auxdev);
	int (*suspend)(struct auxiliary_device *auxdev, pm_message_t state);
	int (*resume)(struct auxiliary_device *auxdev);
	const char *name;
	struct device_driver driver;
	const struct auxiliary_device_id *id_table;
};

static inline void *auxiliary_get_drvdata(struct auxiliary_device *auxdev)
{
	return dev_get_drvdata(&auxdev->dev);
}

static inline void auxiliary_set_drvdata(struct auxiliary_device *auxdev, void *data)
{
	dev_set_drvdata(&auxdev->dev, data);
}

static inline struct auxiliary_device *to_auxiliary_dev(struct device *dev)
{
	return container_of(dev, struct auxiliary_device, dev);
}

static inline const struct auxiliary_driver *to_auxiliary_drv(const struct device_driver *drv)
{
	return container_of(drv, struct auxiliary_driver, driver);
}

int auxiliary_device_init(struct auxiliary_device *auxdev);
int __auxiliary_device_add(struct auxiliary_device *auxdev, const char *modname);
#define auxiliary_device_add(auxdev) __auxiliary_device_add(auxdev, KBUILD_MODNAME)

#ifdef CONFIG_SYSFS
int auxiliary_device_sysfs_irq_add(struct auxiliary_device *auxdev, int irq);
void auxiliary_device_sysfs_irq_remove(struct auxiliary_device *auxdev,
				       int irq);
#else /* CONFIG_SYSFS */
static inline int
auxiliary_device_sysfs_irq_add(struct auxiliary_device *auxdev, int irq)
{
	return 0;
}

static inline void
auxiliary_device_sysfs_irq_remove(struct auxiliary_device *auxdev, int irq) {}
#endif

static inline void auxiliary_device_uninit(struct auxiliary_device *auxdev)
{
	mutex_destroy(&auxdev->sysfs.lock);
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

struct auxiliary_device *auxiliary_device_create(struct device *dev,
						 const char *modname,
						 const char *devname,
						 void *platform_data,
						 int id);
void auxiliary_device_destroy(void *auxdev);

struct auxiliary_device *__devm_auxiliary_device_create(struct device *dev,
							const char *modname,
							const char *devname,
							void *platform_data,
							int id);

#define devm_auxiliary_device_create(dev, devname, platform_data)     \
	__devm_auxiliary_device_create(dev, KBUILD_MODNAME, devname,  \
				       platform_data, 0)

bool dev_is_auxiliary(struct device *dev);

/**
 * module_auxiliary_driver() - Helper macro for registering an auxiliary driver
 * @__auxiliary_driver: auxiliary driver struct
 *
 * Helper macro for auxiliary drivers which do not do anything special in
 * module init/exit. This eliminates a lot of boilerplate. Each module may only
 * use this macro once, and calling it replaces module_init() and module_exit()
 *
 * .. code-block:: c
 *
 *	module_auxiliary_driver(my_drv);
 */
#define module_auxiliary_driver(__auxiliary_driver) \
	module_driver(__auxiliary_driver, auxiliary_driver_register, auxiliary_driver_unregister)

/*
 * Removed from mainline by 0ebe74c53b8b ("drivers/base: Remove unused
 * auxiliary_find_device"), v6.13; kept in the bundled bus for out-of-tree users.
 */
struct auxiliary_device *auxiliary_find_device(struct device *start,
					       const void *data,
					       int (*match)(struct device *dev, const void *data));

#endif /* AUXBUS_BACKEND_BUNDLED */

/*
 * A client written for mainline has no MODULE_IMPORT_NS("AUXBUS"); importing
 * it here makes including the header enough. MODULE_INFO(import_ns, "NS") is the form
 * every kernel from 5.4 on reads (MODULE_IMPORT_NS() stringified its argument before
 * v6.13). auxbus.ko itself (AUXBUS_CORE) does not import its own namespace.
 */
#ifndef AUXBUS_CORE
MODULE_INFO(import_ns, "AUXBUS");
#endif

#define __AUXBUS_CAT_(a, b)	a##b
#define __AUXBUS_CAT(a, b)	__AUXBUS_CAT_(a, b)
#define __AUXBUS_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, n, ...) n
#define __AUXBUS_NARG(...)	__AUXBUS_NARG_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define __AUXBUS_FE_1(m, i, a)		m(i, a)
#define __AUXBUS_FE_2(m, i, a, ...)	m(i, a) __AUXBUS_FE_1(m, (i) + 1, __VA_ARGS__)
#define __AUXBUS_FE_3(m, i, a, ...)	m(i, a) __AUXBUS_FE_2(m, (i) + 1, __VA_ARGS__)
#define __AUXBUS_FE_4(m, i, a, ...)	m(i, a) __AUXBUS_FE_3(m, (i) + 1, __VA_ARGS__)
#define __AUXBUS_FE_5(m, i, a, ...)	m(i, a) __AUXBUS_FE_4(m, (i) + 1, __VA_ARGS__)
#define __AUXBUS_FE_6(m, i, a, ...)	m(i, a) __AUXBUS_FE_5(m, (i) + 1, __VA_ARGS__)
#define __AUXBUS_FE_7(m, i, a, ...)	m(i, a) __AUXBUS_FE_6(m, (i) + 1, __VA_ARGS__)
#define __AUXBUS_FE_8(m, i, a, ...)	m(i, a) __AUXBUS_FE_7(m, (i) + 1, __VA_ARGS__)
#define __AUXBUS_FOREACH(m, ...) \
	__AUXBUS_CAT(__AUXBUS_FE_, __AUXBUS_NARG(__VA_ARGS__))(m, 0, __VA_ARGS__)

#define __AUXBUS_ID_ENTRY(i, n)	{ .name = n, .driver_data = (i) },
#define __AUXBUS_ID_CHECK(i, n) \
	static_assert(sizeof(n) <= AUXILIARY_NAME_SIZE, "auxiliary id name too long: " n);
#ifdef AUXBUS_NEED_MODULE_ALIAS
#define __AUXBUS_ID_ALIAS(i, n)	MODULE_ALIAS(AUXBUS_MODULE_PREFIX n);
#else
#define __AUXBUS_ID_ALIAS(i, n)
#endif
/* on the coexisting bus, no table for modpost: its "auxiliary:" aliases are the kernel bus's */
#ifdef AUXBUS_COEXIST
#define __AUXBUS_DEVICE_TABLE(var)
#else
#define __AUXBUS_DEVICE_TABLE(var)	MODULE_DEVICE_TABLE(auxiliary, var)
#endif

/**
 * AUXILIARY_DEVICE_TABLE() - declare an auxiliary driver's id table
 * @var: name of the table (a static const struct auxiliary_device_id array)
 * @...: one to eight match names, string literals "<parent module>.<function>"
 *
 * Defines @var with one entry per name (driver_data is the index of the name), the
 * terminator, MODULE_DEVICE_TABLE(auxiliary, @var), and the MODULE_ALIAS() lines that
 * modprobe autoload needs where modpost cannot derive them from the table: kernels
 * before v5.11 (modpost ignores the auxiliary table) and the coexisting bundled bus
 * (MODALIAS prefix "auxbus:"; there only these, so the kernel bus's devices never load
 * the module). Each name must fit AUXILIARY_NAME_SIZE with its NUL.
 *
 * .. code-block:: c
 *
 *	AUXILIARY_DEVICE_TABLE(my_ids, "foo_mod.foo_dev", "foo_mod.bar_dev");
 */
#define AUXILIARY_DEVICE_TABLE(var, ...)				\
	__AUXBUS_FOREACH(__AUXBUS_ID_CHECK, __VA_ARGS__)		\
	static const struct auxiliary_device_id var[] = {		\
		__AUXBUS_FOREACH(__AUXBUS_ID_ENTRY, __VA_ARGS__)	\
		{ }							\
	};								\
	__AUXBUS_FOREACH(__AUXBUS_ID_ALIAS, __VA_ARGS__)		\
	__AUXBUS_DEVICE_TABLE(var)

#endif /* _AUXBUS_LINUX_AUXILIARY_BUS_H */
