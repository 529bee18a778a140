// SPDX-License-Identifier: GPL-2.0-only
/*
 * A parent driver of the corpus: a platform driver (its device registered by the module
 * itself, as a board file would) that splits its device into auxiliary devices for the
 * clients in other modules, the three-step way drivers did before auxiliary_device_create().
 * Its interface to the clients is exported in its own namespace, in the syntax of the
 * kernel it is built for.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/version.h>
#include <linux/wait_bit.h>

#include "porter_parent.h"

static const char * const porter_functions[] = {
	"plain", "eth", "ns", "compat", "legacy", "multi_a", "multi_b",
};

struct porter_parent {
	struct porter_parent_adev *adevs[ARRAY_SIZE(porter_functions)];
};

static struct platform_device *porter_pdev;

/* devices whose release (this module's code) has not run yet: the exit waits for them */
static atomic_t porter_live = ATOMIC_INIT(0);

u32 porter_parent_cookie(struct auxiliary_device *adev)
{
	return container_of(adev, struct porter_parent_adev, adev)->cookie;
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
EXPORT_SYMBOL_NS_GPL(porter_parent_cookie, PORTER_PARENT);
#else
EXPORT_SYMBOL_NS_GPL(porter_parent_cookie, "PORTER_PARENT");
#endif

static void porter_adev_release(struct device *dev)
{
	kfree(container_of(dev, struct porter_parent_adev, adev.dev));
	if (atomic_dec_and_test(&porter_live))
		wake_up_var(&porter_live);
}

static void porter_adev_del(void *data)
{
	struct auxiliary_device *adev = data;

	auxiliary_device_delete(adev);
	auxiliary_device_uninit(adev);
}

static int porter_add_adev(struct device *parent, const char *name, u32 cookie)
{
	struct porter_parent_adev *padev;
	int ret;

	padev = kzalloc(sizeof(*padev), GFP_KERNEL);
	if (!padev)
		return -ENOMEM;
	padev->cookie = cookie;
	padev->adev.name = name;
	padev->adev.id = 0;
	padev->adev.dev.parent = parent;
	padev->adev.dev.release = porter_adev_release;

	atomic_inc(&porter_live);
	ret = auxiliary_device_init(&padev->adev);
	if (ret) {
		kfree(padev);
		atomic_dec(&porter_live);
		return ret;
	}
	ret = auxiliary_device_add(&padev->adev);
	if (ret) {
		auxiliary_device_uninit(&padev->adev);
		return ret;
	}
	return devm_add_action_or_reset(parent, porter_adev_del, &padev->adev);
}

static int porter_probe(struct platform_device *pdev)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(porter_functions); i++) {
		ret = porter_add_adev(&pdev->dev, porter_functions[i], 0x5a00 + i);
		if (ret) {
			dev_err(&pdev->dev, "cannot add auxiliary device %s: %d\n",
				porter_functions[i], ret);
			return ret;
		}
	}
	dev_info(&pdev->dev, "%zu auxiliary devices\n", ARRAY_SIZE(porter_functions));
	return 0;
}

static struct platform_driver porter_driver = {
	.probe = porter_probe,
	.driver = {
		.name = "porter_parent",
	},
};

static int __init porter_init(void)
{
	int ret;

	ret = platform_driver_register(&porter_driver);
	if (ret)
		return ret;
	porter_pdev = platform_device_register_simple("porter_parent", -1, NULL, 0);
	if (IS_ERR(porter_pdev)) {
		platform_driver_unregister(&porter_driver);
		return PTR_ERR(porter_pdev);
	}
	return 0;
}

static void __exit porter_exit(void)
{
	platform_device_unregister(porter_pdev);
	platform_driver_unregister(&porter_driver);
	/* a delayed release (CONFIG_DEBUG_KOBJECT_RELEASE) must not run after the module is gone */
	wait_var_event(&porter_live, !atomic_read(&porter_live));
}

module_init(porter_init);
module_exit(porter_exit);
MODULE_DESCRIPTION("Porters' corpus: parent driver with auxiliary devices (test)");
MODULE_LICENSE("GPL");
