/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * porter_compat's own compat header, written the way out-of-tree drivers carry theirs: it
 * fills in what the headers it is built against lack, and stays out of the way where they
 * have it (#ifndef on the names the kernel's headers define).
 */
#ifndef PORTER_COMPAT_H
#define PORTER_COMPAT_H

#include <linux/mod_devicetable.h>
#include <linux/types.h>

/* 7de3697e9cbd ("Add auxiliary bus support"), v5.11: the id table type */
#ifndef AUXILIARY_NAME_SIZE
#define AUXILIARY_NAME_SIZE 32
#define AUXILIARY_MODULE_PREFIX "auxiliary:"
struct auxiliary_device_id {
	char name[AUXILIARY_NAME_SIZE];
	kernel_ulong_t driver_data;
};
#endif

#include <linux/auxiliary_bus.h>

/* eaa0d30216c1 ("driver core: auxiliary bus: add device creation helpers"), v6.16 */
#ifndef auxiliary_device_destroy
static inline void auxiliary_device_destroy(void *auxdev)
{
	struct auxiliary_device *adev = auxdev;

	auxiliary_device_delete(adev);
	auxiliary_device_uninit(adev);
}
#endif

/* 7de3697e9cbd ("Add auxiliary bus support"), v5.11 */
#ifndef module_auxiliary_driver
#define module_auxiliary_driver(__drv) \
	module_driver(__drv, auxiliary_driver_register, auxiliary_driver_unregister)
#endif

#endif
