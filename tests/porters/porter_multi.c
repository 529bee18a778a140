// SPDX-License-Identifier: GPL-2.0-only
/*
 * One driver for two functions of the parent, told apart by driver_data, with a
 * shutdown() callback; no pr_fmt.
 */
#include <linux/auxiliary_bus.h>
#include <linux/kernel.h>
#include <linux/module.h>

enum { MULTI_A, MULTI_B };

static unsigned int bound[2];

static int porter_multi_probe(struct auxiliary_device *adev,
			      const struct auxiliary_device_id *id)
{
	if (id->driver_data > MULTI_B)
		return -EINVAL;
	bound[id->driver_data]++;
	auxiliary_set_drvdata(adev, &bound[id->driver_data]);
	pr_info("porter_multi: %s is function %lu\n", dev_name(&adev->dev), id->driver_data);
	return 0;
}

static void porter_multi_remove(struct auxiliary_device *adev)
{
	unsigned int *n = auxiliary_get_drvdata(adev);

	(*n)--;
}

static void porter_multi_shutdown(struct auxiliary_device *adev)
{
	pr_info("porter_multi: shutdown %s\n", dev_name(&adev->dev));
}

static const struct auxiliary_device_id porter_multi_ids[] = {
	{ .name = "porter_parent.multi_a", .driver_data = MULTI_A },
	{ .name = "porter_parent.multi_b", .driver_data = MULTI_B },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, porter_multi_ids);

static struct auxiliary_driver porter_multi_driver = {
	.name = "multi",
	.probe = porter_multi_probe,
	.remove = porter_multi_remove,
	.shutdown = porter_multi_shutdown,
	.id_table = porter_multi_ids,
};
module_auxiliary_driver(porter_multi_driver);

MODULE_DESCRIPTION("Porters' corpus: one driver, two functions (test)");
MODULE_LICENSE("GPL");
