/* SPDX-License-Identifier: GPL-2.0-only */
/* Internal interfaces between the files of auxbus.ko. */
#ifndef _AUXBUS_INTERNAL_H
#define _AUXBUS_INTERNAL_H

#include <linux/auxiliary_bus.h>

#ifdef AUXBUS_BACKEND_BUNDLED
int auxiliary_bus_init(void);
void auxiliary_bus_exit(void);
void auxiliary_device_sysfs_irq_cleanup(struct auxiliary_device *auxdev);
#else
int auxbus_kernel_compat_init(void);
void auxbus_kernel_compat_exit(void);
#endif

/* auxiliary_create.c: waits for the release() of every device it created */
void auxbus_create_exit(void);

#endif /* _AUXBUS_INTERNAL_H */
