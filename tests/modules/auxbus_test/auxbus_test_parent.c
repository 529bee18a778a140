// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-only parent: on load it registers the root device /sys/devices/auxbus_test_parent
 * and ndev auxiliary devices auxbus_test_parent.client.<0..ndev-1> under it (the
 * three-step init/add API, or auxiliary_device_create() with create=1); on unload it deletes
 * them, unbinding any driver first.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

static unsigned int ndev = 2;
module_param(ndev, uint, 0444);
MODULE_PARM_DESC(ndev, "number of auxiliary devices to create (0..16)");
static bool create;
module_param(create, bool, 0444);
MODULE_PARM_DESC(create, "create them with auxiliary_device_create() (default: init and add)");

static struct device *root;
static struct auxiliary_device *adevs[16];

/* devices whose release (this module's code) has not run: the exit waits for them */
static atomic_t tparent_live = ATOMIC_INIT(0);

static void tparent_release(struct device *dev)
{
	kfree(to_auxiliary_dev(dev));
	if (atomic_dec_and_test(&tparent_live))
		wake_up_var(&tparent_live);
}

static int tparent_add(unsigned int id)
{
	struct auxiliary_device *auxdev;
	int ret;

	if (create) {
		auxdev = auxiliary_device_create(root, KBUILD_MODNAME, "client", NULL, id);
		if (!auxdev)
			return -ENOMEM;
		adevs[id] = auxdev;
		return 0;
	}
	auxdev = kzalloc(sizeof(*auxdev), GFP_KERNEL);
	if (!auxdev)
		return -ENOMEM;
	atomic_inc(&tparent_live);
	auxdev->name = "client";
	auxdev->id = id;
	auxdev->dev.parent = root;
	auxdev->dev.release = tparent_release;

	ret = auxiliary_device_init(auxdev);
	if (ret) {
		kfree(auxdev);
		atomic_dec(&tparent_live);
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
		if (create) {
			auxiliary_device_destroy(adevs[i]);
		} else {
			auxiliary_device_delete(adevs[i]);
			auxiliary_device_uninit(adevs[i]);
		}
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
	wait_var_event(&tparent_live, !atomic_read(&tparent_live));
	return ret;
}
module_init(tparent_init);

static void __exit tparent_exit(void)
{
	tparent_del_all();
	root_device_unregister(root);
	wait_var_event(&tparent_live, !atomic_read(&tparent_live));
}
module_exit(tparent_exit);

MODULE_DESCRIPTION("Test-only auxiliary parent (auxbus bundle tests)");
MODULE_LICENSE("GPL");
