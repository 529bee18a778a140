// SPDX-License-Identifier: GPL-2.0-only
/*
 * A client that carries its own compat header (porter_compat.h) for the auxiliary bus API,
 * included before the kernel's headers are complete: on 5.10 it defines struct
 * auxiliary_device_id itself, and the bus header must not define it again.
 */
#include "porter_compat.h"

#include <linux/module.h>
#include <linux/slab.h>

struct porter_compat {
	const char *name;
	unsigned long data;
};

static int porter_compat_probe(struct auxiliary_device *adev,
			       const struct auxiliary_device_id *id)
{
	struct porter_compat *pc;

	pc = devm_kzalloc(&adev->dev, sizeof(*pc), GFP_KERNEL);
	if (!pc)
		return -ENOMEM;
	pc->name = id->name;
	pc->data = id->driver_data;
	auxiliary_set_drvdata(adev, pc);
	dev_info(&adev->dev, "matched %s (%lu), name size %d\n", pc->name, pc->data,
		 AUXILIARY_NAME_SIZE);
	return 0;
}

static const struct auxiliary_device_id porter_compat_ids[] = {
	{ .name = "porter_parent.compat", .driver_data = 3 },
	{}
};
MODULE_DEVICE_TABLE(auxiliary, porter_compat_ids);

static struct auxiliary_driver porter_compat_driver = {
	.probe = porter_compat_probe,
	.id_table = porter_compat_ids,
};
module_auxiliary_driver(porter_compat_driver);

MODULE_DESCRIPTION("Porters' corpus: client with its own compat shims (test)");
MODULE_LICENSE("GPL");
