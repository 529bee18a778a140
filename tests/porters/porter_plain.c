// SPDX-License-Identifier: GPL-2.0-only
/*
 * The smallest client, as most drivers are: no pr_fmt, a plain device table and
 * module_auxiliary_driver().
 */
#include <linux/auxiliary_bus.h>
#include <linux/module.h>
#include <linux/printk.h>

static int plain_probe(struct auxiliary_device *adev, const struct auxiliary_device_id *id)
{
	pr_info("porter_plain: bound %s\n", dev_name(&adev->dev));
	return 0;
}

static void plain_remove(struct auxiliary_device *adev)
{
	pr_info("porter_plain: unbound %s\n", dev_name(&adev->dev));
}

static const struct auxiliary_device_id plain_id_table[] = {
	{ .name = "porter_parent.plain" },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, plain_id_table);

static struct auxiliary_driver plain_driver = {
	.probe = plain_probe,
	.remove = plain_remove,
	.id_table = plain_id_table,
};
module_auxiliary_driver(plain_driver);

MODULE_DESCRIPTION("Porters' corpus: minimal auxiliary client (test)");
MODULE_LICENSE("GPL");
