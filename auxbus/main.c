// SPDX-License-Identifier: GPL-2.0-only
/*
 * auxbus.ko: module glue. Which implementation is active is in `modinfo auxbus`
 * (auxbus_mode, auxbus_bus) and in /sys/module/auxbus/parameters/{mode,bus}:
 *
 *   bundled  the bus "auxiliary" itself, for kernels without CONFIG_AUXILIARY_BUS
 *   coexist  a second bus "auxbus" (uevent prefix "auxbus:") beside the kernel's own
 *   kernel   compat library only: the kernel's bus plus the API it lacks
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "auxbus.h"

#if defined(AUXBUS_BACKEND_KERNEL)
#define AUXBUS_MODE	"kernel"
#define AUXBUS_DESC	"auxiliary bus API compat library for the kernel's built-in bus"
#elif defined(AUXBUS_COEXIST)
#define AUXBUS_MODE	"coexist"
#define AUXBUS_DESC	"auxiliary bus (bundled, bus 'auxbus' beside the kernel's own)"
#else
#define AUXBUS_MODE	"bundled"
#define AUXBUS_DESC	"auxiliary bus (bundled, bus 'auxiliary')"
#endif

static int auxbus_param_set_ro(const char *val, const struct kernel_param *kp)
{
	pr_err("parameter %s is read-only\n", kp->name);
	return -EPERM;
}

static int auxbus_param_get_str(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", (const char *)kp->arg);
}

static const struct kernel_param_ops auxbus_param_ro_ops = {
	.set = auxbus_param_set_ro,
	.get = auxbus_param_get_str,
};

module_param_cb(mode, &auxbus_param_ro_ops, AUXBUS_MODE, 0444);
MODULE_PARM_DESC(mode, "implementation in use: bundled, coexist or kernel (read-only)");
module_param_cb(bus, &auxbus_param_ro_ops, AUXBUS_BUS_NAME, 0444);
MODULE_PARM_DESC(bus, "name of the bus under /sys/bus/ (read-only)");

static int __init auxbus_init(void)
{
	int ret;

#ifdef AUXBUS_BACKEND_BUNDLED
	ret = auxiliary_bus_init();
#else
	ret = auxbus_kernel_compat_init();
#endif
	if (!ret)
		pr_info("mode %s, bus '%s', MODALIAS prefix '%s'\n", AUXBUS_MODE,
			AUXBUS_BUS_NAME, AUXBUS_MODULE_PREFIX);
	return ret;
}
module_init(auxbus_init);

static void __exit auxbus_exit(void)
{
#ifdef AUXBUS_BACKEND_BUNDLED
	auxiliary_bus_exit();
#else
	auxbus_kernel_compat_exit();
#endif
	auxbus_create_exit();
}
module_exit(auxbus_exit);

MODULE_DESCRIPTION(AUXBUS_DESC);
MODULE_LICENSE("GPL");
MODULE_INFO(auxbus_mode, AUXBUS_MODE);
MODULE_INFO(auxbus_bus, AUXBUS_BUS_NAME);
MODULE_INFO(auxbus_modalias_prefix, AUXBUS_MODULE_PREFIX);
/* dkms.conf's PACKAGE_VERSION (Kbuild): /sys/module/auxbus/version, which auxbus/lsaux shows */
#ifdef AUXBUS_VERSION
MODULE_VERSION(AUXBUS_VERSION);
#endif
