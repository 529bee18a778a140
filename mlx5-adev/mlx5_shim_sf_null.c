// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_sf_null: test-only driver (built with AUXBUS_TESTS=y) for the SF benchmark.
 *
 * Binds mlx5_shim_core.sf.<id> and does nothing else: the SF benchmark's baseline of plain
 * devices with a bound driver, as the bus-core benchmark adds and binds its devices. The real
 * SF driver (mlx5_shim_sf) adds a nested eth device and binds it on top of this.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/module.h>

static int mlx5_shim_sf_null_probe(struct auxiliary_device *adev,
				   const struct auxiliary_device_id *id)
{
	return 0;
}

AUXILIARY_DEVICE_TABLE(mlx5_shim_sf_null_id_table, "mlx5_shim_core.sf");

static struct auxiliary_driver mlx5_shim_sf_null_driver = {
	.probe = mlx5_shim_sf_null_probe,
	.id_table = mlx5_shim_sf_null_id_table,
};
module_auxiliary_driver(mlx5_shim_sf_null_driver);

MODULE_DESCRIPTION("mlx5 shim: empty SF driver, the SF benchmark's baseline (test only)");
MODULE_LICENSE("GPL");
