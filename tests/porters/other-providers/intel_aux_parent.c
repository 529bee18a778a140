// SPDX-License-Identifier: GPL-2.0-only
/*
 * A parent on intel_auxiliary.ko's bus, as ice is for irdma: one device,
 * intel_aux_parent.rdma.0, under a root device of its own. Test-only.
 */
#include <linux/completion.h>
#include <linux/slab.h>
#include "intel_auxiliary_bus.h"

static struct device *intel_aux_root;
static struct auxiliary_device *intel_aux_adev;
static DECLARE_COMPLETION(intel_aux_released);

static void intel_aux_parent_release(struct device *dev)
{
	kfree(to_auxiliary_dev(dev));
	complete(&intel_aux_released);
}

static int __init intel_aux_parent_init(void)
{
	struct auxiliary_device *adev;
	int ret;

	intel_aux_root = root_device_register(KBUILD_MODNAME);
	if (IS_ERR(intel_aux_root))
		return PTR_ERR(intel_aux_root);
	adev = kzalloc(sizeof(*adev), GFP_KERNEL);
	if (!adev) {
		ret = -ENOMEM;
		goto err_root;
	}
	adev->name = "rdma";
	adev->dev.parent = intel_aux_root;
	adev->dev.release = intel_aux_parent_release;
	ret = auxiliary_device_init(adev);
	if (ret) {
		kfree(adev);
		goto err_root;
	}
	ret = auxiliary_device_add(adev);
	if (ret)
		goto err_uninit;
	intel_aux_adev = adev;
	return 0;

err_uninit:
	auxiliary_device_uninit(adev);
	wait_for_completion(&intel_aux_released);
err_root:
	root_device_unregister(intel_aux_root);
	return ret;
}
module_init(intel_aux_parent_init);

/* the release callback is this module's: wait for it before the module goes */
static void __exit intel_aux_parent_exit(void)
{
	auxiliary_device_delete(intel_aux_adev);
	auxiliary_device_uninit(intel_aux_adev);
	wait_for_completion(&intel_aux_released);
	root_device_unregister(intel_aux_root);
}
module_exit(intel_aux_parent_exit);

MODULE_DESCRIPTION("auxbus tests: a parent on the stand-in for Intel's auxiliary bus");
MODULE_LICENSE("GPL");
