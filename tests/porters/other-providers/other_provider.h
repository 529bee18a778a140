/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What matters of another vendor's out-of-tree auxiliary bus to auxbus.ko: it registers the
 * bus "auxiliary" and exports the unprefixed API. Test-only stand-in; nothing binds to it.
 */
#include <linux/device.h>
#include <linux/module.h>

static struct bus_type other_bus = {
	.name = "auxiliary",
};

#ifdef OTHER_PROVIDER_EXPORTS
/* MLNX_OFED's exports the bus API under the upstream names */
int auxiliary_device_init(struct device *dev);
int auxiliary_device_init(struct device *dev)
{
	return -ENODEV;
}
EXPORT_SYMBOL_GPL(auxiliary_device_init);
#endif

static int __init other_init(void)
{
	return bus_register(&other_bus);
}
module_init(other_init);

static void __exit other_exit(void)
{
	bus_unregister(&other_bus);
}
module_exit(other_exit);

MODULE_LICENSE("GPL");
