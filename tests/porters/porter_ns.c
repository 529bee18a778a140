// SPDX-License-Identifier: GPL-2.0-only
/*
 * A client written for v5.11..v6.12: MODULE_IMPORT_NS() with a bare identifier, which is
 * what those kernels' macro takes (string literals since v6.13), and explicit module
 * init/exit instead of module_auxiliary_driver().
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/version.h>
#include <linux/auxiliary_bus.h>

#include "porter_parent.h"

static u32 last_cookie;

static int porter_ns_probe(struct auxiliary_device *auxdev, const struct auxiliary_device_id *id)
{
	last_cookie = porter_parent_cookie(auxdev);
	dev_info(&auxdev->dev, "cookie %#x\n", last_cookie);
	return 0;
}

static void porter_ns_remove(struct auxiliary_device *auxdev)
{
	last_cookie = 0;
}

static const struct auxiliary_device_id porter_ns_ids[] = {
	{ .name = "porter_parent.ns" },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, porter_ns_ids);

static struct auxiliary_driver porter_ns_drv = {
	.name = "ns",
	.id_table = porter_ns_ids,
	.probe = porter_ns_probe,
	.remove = porter_ns_remove,
};

static int __init porter_ns_init(void)
{
	pr_info("porter_ns: loading\n");
	return auxiliary_driver_register(&porter_ns_drv);
}

static void __exit porter_ns_exit(void)
{
	auxiliary_driver_unregister(&porter_ns_drv);
}

module_init(porter_ns_init);
module_exit(porter_ns_exit);

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
MODULE_IMPORT_NS(PORTER_PARENT);
#else
MODULE_IMPORT_NS("PORTER_PARENT");
#endif
MODULE_DESCRIPTION("Porters' corpus: old-syntax namespace import (test)");
MODULE_LICENSE("GPL");
