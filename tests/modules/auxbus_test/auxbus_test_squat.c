// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-only: registers an empty bus under a given name, so that
 * tests/cases/bus-80-name-taken.sh can check that auxbus.ko refuses to load,
 * says why and leaves nothing behind when its bus name is already taken.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/module.h>

static char *name = "auxiliary";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "name of the bus to register (default: auxiliary)");

static struct bus_type squat_bus;

static int __init squat_init(void)
{
	squat_bus.name = name;
	return bus_register(&squat_bus);
}
module_init(squat_init);

static void __exit squat_exit(void)
{
	/*
	 * Wait for the bus's release before the module goes (compat.h): before v6.3
	 * bus_release() writes squat_bus.p, and under CONFIG_DEBUG_KOBJECT_RELEASE it runs
	 * seconds later (debugk: a page fault in bus_release after rmmod).
	 */
	auxbus_bus_unregister_sync(&squat_bus);
}
module_exit(squat_exit);

MODULE_DESCRIPTION("auxbus tests: occupy a bus name");
MODULE_LICENSE("GPL");
