// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-only parent: on load it registers the root device /sys/devices/auxbus_test_parent
 * and ndev auxiliary devices auxbus_test_parent.client.<0..ndev-1> under it (the
 * three-step init/add API); on unload it deletes them, unbinding any driver first.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/slab.h>

static unsigned int ndev = 2;
module_param(ndev, uint, 0444);
MODULE_PARM_DESC(ndev, "number of auxiliary devices to create (0..16)");

static struct device *root;
static struct auxiliary_device *adevs[16];

static void tparent_release(struct device *dev)
{
	kfree(to_auxiliary_dev(dev));
}

static int tparent_add(unsigned int id)
{
	struct auxiliary_device *auxdev;
	int ret;

	auxdev = kzalloc(sizeof(*auxdev), GFP_KERNEL);
	if (!auxdev)
		return -ENOMEM;
	auxdev->name = "client";
	auxdev->id = id;
	auxdev->dev.parent = root;
	auxdev->dev.release = tparent_release;

	ret = auxiliary_device_init(auxdev);
	if (ret) {
		kfree(auxdev);
		return ret;
	}
	ret = auxiliary_device_add(auxdev);
	if (ret)
		goto err_uninit;
	adevs[id] = auxdev;
	return 0;

err_uninit:
	auxiliary_device_uninit(auxdev);
	return ret;
}

static void tparent_del_all(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(adevs); i++) {
		if (!adevs[i])
			continue;
		auxiliary_device_delete(adevs[i]);
		auxiliary_device_uninit(adevs[i]);
		adevs[i] = NULL;
	}
}

static int __init tparent_init(void)
{
	unsigned int i;
	int ret;

	if (ndev > ARRAY_SIZE(adevs))
		return -EINVAL;
	root = root_device_register(KBUILD_MODNAME);
	if (IS_ERR(root))
		return PTR_ERR(root);
	for (i = 0; i < ndev; i++) {
		ret = tparent_add(i);
		if (ret)
			goto err_del_all;
	}
	return 0;

err_del_all:
	tparent_del_all();
	root_device_unregister(root);
	return ret;
}
module_init(tparent_init);

static void __exit tparent_exit(void)
{
	tparent_del_all();
	root_device_unregister(root);
}
module_exit(tparent_exit);

MODULE_DESCRIPTION("Test-only auxiliary parent (auxbus bundle tests)");
MODULE_LICENSE("GPL");
