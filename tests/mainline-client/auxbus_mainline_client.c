// SPDX-License-Identifier: GPL-2.0-only
/*
 * A client written only against mainline's auxiliary bus API (v7.x): no namespace
 * import, no bundle macro, a plain MODULE_DEVICE_TABLE(auxiliary, ...). Built against
 * the installed bundle, it must build, load, bind its devices and pass its checks.
 *
 * On load it creates MC_NDEV devices "auxbus_mainline_client.func.<n>" under a root
 * device with auxiliary_device_create(), registers its driver, and prints one KTAP line
 * per check to the kernel log ("auxbus_mainline_client: KTAP ..."). Unloading removes
 * everything.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>

#define MC_NDEV 2

static struct device *mc_root;
static struct auxiliary_device *mc_adev[MC_NDEV];
static int mc_probed, mc_irq_ret = -1;
static unsigned int mc_num, mc_failed;

static void mc_report(bool ok, const char *what)
{
	mc_num++;
	if (!ok)
		mc_failed++;
	pr_info("KTAP %sok %u %s\n", ok ? "" : "not ", mc_num, what);
}

static int mc_probe(struct auxiliary_device *auxdev, const struct auxiliary_device_id *id)
{
	if (!dev_is_auxiliary(&auxdev->dev) || id->driver_data != 7)
		return -EINVAL;
	mc_irq_ret = auxiliary_device_sysfs_irq_add(auxdev, 200 + auxdev->id);
	if (mc_irq_ret)
		return mc_irq_ret;
	auxiliary_set_drvdata(auxdev, &mc_probed);
	mc_probed++;
	return 0;
}

static void mc_remove(struct auxiliary_device *auxdev)
{
	auxiliary_device_sysfs_irq_remove(auxdev, 200 + auxdev->id);
	mc_probed--;
}

static const struct auxiliary_device_id mc_id_table[] = {
	{ .name = "auxbus_mainline_client.func", .driver_data = 7 },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, mc_id_table);

static struct auxiliary_driver mc_driver = {
	.name = "drv",
	.probe = mc_probe,
	.remove = mc_remove,
	.id_table = mc_id_table,
};

static void mc_destroy_all(void)
{
	int i;

	for (i = 0; i < MC_NDEV; i++) {
		if (mc_adev[i])
			auxiliary_device_destroy(mc_adev[i]);
		mc_adev[i] = NULL;
	}
}

static int __init mc_init(void)
{
	bool ok = true;
	int i, ret;

	mc_root = root_device_register(KBUILD_MODNAME);
	if (IS_ERR(mc_root))
		return PTR_ERR(mc_root);

	ret = auxiliary_driver_register(&mc_driver);
	if (ret)
		goto err_root;

	pr_info("KTAP version 1\n");
	for (i = 0; i < MC_NDEV; i++) {
		mc_adev[i] = auxiliary_device_create(mc_root, KBUILD_MODNAME, "func", NULL, i);
		ok &= !!mc_adev[i];
	}
	mc_report(ok, "auxiliary_device_create() makes the devices");
	ok = true;
	for (i = 0; i < MC_NDEV; i++)
		ok &= mc_adev[i] && mc_adev[i]->dev.driver == &mc_driver.driver &&
		      auxiliary_get_drvdata(mc_adev[i]) == &mc_probed;
	mc_report(ok && mc_probed == MC_NDEV, "the driver binds every device");
	mc_report(mc_irq_ret == 0, "auxiliary_device_sysfs_irq_add() in probe");
	mc_report(!dev_is_auxiliary(mc_root), "dev_is_auxiliary() is false for the root device");
	mc_report(!strcmp(mc_driver.driver.name, KBUILD_MODNAME ".drv"),
		  "driver name is <modname>.<name>");
	pr_info("KTAP 1..%u\n", mc_num);
	pr_info("KTAP # done: %u failed\n", mc_failed);
	return 0;

err_root:
	root_device_unregister(mc_root);
	return ret;
}
module_init(mc_init);

static void __exit mc_exit(void)
{
	mc_destroy_all();
	auxiliary_driver_unregister(&mc_driver);
	root_device_unregister(mc_root);
}
module_exit(mc_exit);

MODULE_DESCRIPTION("Client written against the mainline auxiliary bus API only (test)");
MODULE_LICENSE("GPL");
