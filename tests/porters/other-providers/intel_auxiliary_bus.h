/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Intel's layout (the out-of-tree ice, i40e and iavf drivers' src/linux/auxiliary_bus.h): the
 * same API, every export renamed with an intel_ prefix, and its own modalias prefix.
 */
#ifndef INTEL_AUXILIARY_BUS_H
#define INTEL_AUXILIARY_BUS_H

#define AUX_PREFIX(func) intel_ ## func

#define auxiliary_device_init AUX_PREFIX(auxiliary_device_init)
#define __auxiliary_device_add AUX_PREFIX(__auxiliary_device_add)
#define auxiliary_find_device AUX_PREFIX(auxiliary_find_device)
#define __auxiliary_driver_register AUX_PREFIX(__auxiliary_driver_register)
#define auxiliary_driver_unregister AUX_PREFIX(auxiliary_driver_unregister)

#include "other_provider.h"

#undef AUXILIARY_MODULE_PREFIX
#define AUXILIARY_MODULE_PREFIX "intel_auxiliary:"

#endif /* INTEL_AUXILIARY_BUS_H */
