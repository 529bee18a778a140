// SPDX-License-Identifier: GPL-2.0-only
/*
 * A client from the first auxiliary bus series and the out-of-tree auxiliary.ko of that
 * time, where remove() returned int: the body is kept and adapted with a wrapper, because
 * 8142a46c50d2 ("driver core: auxiliary bus: make remove function return void") changed
 * the callback before v5.11 was released and every kernel and the bundle since take void.
 */
#include <linux/auxiliary_bus.h>
#include <linux/module.h>
#include <linux/device.h>

static int porter_legacy_probe(struct auxiliary_device *adev,
			       const struct auxiliary_device_id *id)
{
	dev_info(&adev->dev, "legacy client bound\n");
	return 0;
}

static int porter_legacy_remove(struct auxiliary_device *adev)
{
	dev_info(&adev->dev, "legacy client unbound\n");
	return 0;
}

/* the porter's adaptation: the int-returning callback, called from a void one */
#define PORTER_VOID_REMOVE(fn)					\
static void fn##_void(struct auxiliary_device *adev)		\
{								\
	fn(adev);						\
}

PORTER_VOID_REMOVE(porter_legacy_remove)

static const struct auxiliary_device_id porter_legacy_id_table[] = {
	{ .name = "porter_parent.legacy", },
	{ },
};
MODULE_DEVICE_TABLE(auxiliary, porter_legacy_id_table);

static struct auxiliary_driver porter_legacy_driver = {
	.name = "legacy",
	.probe = porter_legacy_probe,
	.remove = porter_legacy_remove_void,
	.id_table = porter_legacy_id_table,
};
module_auxiliary_driver(porter_legacy_driver);

MODULE_DESCRIPTION("Porters' corpus: int-returning remove() adapted (test)");
MODULE_LICENSE("GPL");
