// SPDX-License-Identifier: GPL-2.0-only
/*
 * A client on intel_auxiliary.ko's bus, as irdma is for ice: it binds intel_aux_parent.rdma.
 * Its alias is that bus's (intel_auxiliary:), given by hand: a MODULE_DEVICE_TABLE(auxiliary)
 * would get modpost's auxiliary: alias, the other bus's. Test-only.
 */
#include "intel_auxiliary_bus.h"

static const struct auxiliary_device_id intel_aux_client_ids[] = {
	{ .name = "intel_aux_parent.rdma" },
	{ }
};
MODULE_ALIAS("intel_auxiliary:intel_aux_parent.rdma");

static int intel_aux_client_probe(struct auxiliary_device *adev,
				  const struct auxiliary_device_id *id)
{
	dev_info(&adev->dev, "bound by %s\n", id->name);
	return 0;
}

static struct auxiliary_driver intel_aux_client_drv = {
	.name = "rdma",
	.probe = intel_aux_client_probe,
	.id_table = intel_aux_client_ids,
};
module_auxiliary_driver(intel_aux_client_drv);

MODULE_DESCRIPTION("auxbus tests: a client on the stand-in for Intel's auxiliary bus");
MODULE_LICENSE("GPL");
