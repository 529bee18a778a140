// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_sf: sub-function driver of mlx5_shim_core.
 *
 * Binds mlx5_shim_core.sf.<id> and brings up the SF's own function, which registers a
 * nested mlx5_shim_core.eth.<id> device below the SF device, as mainline's SF driver
 * (mlx5_core.sf) does. The SF number is in the device's sfnum attribute.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/err.h>
#include <linux/module.h>

#include "mlx5_shim.h"

static int mlx5_shim_sf_probe(struct auxiliary_device *adev, const struct auxiliary_device_id *id)
{
	struct mlx5_shim_func *func;

	func = mlx5_shim_sf_load(to_mlx5_shim_adev(adev));
	if (IS_ERR(func))
		return PTR_ERR(func);
	auxiliary_set_drvdata(adev, func);
	return 0;
}

static void mlx5_shim_sf_remove(struct auxiliary_device *adev)
{
	mlx5_shim_sf_unload(auxiliary_get_drvdata(adev));
}

AUXILIARY_DEVICE_TABLE(mlx5_shim_sf_id_table, "mlx5_shim_core.sf");

static struct auxiliary_driver mlx5_shim_sf_driver = {
	.probe = mlx5_shim_sf_probe,
	.remove = mlx5_shim_sf_remove,
	.id_table = mlx5_shim_sf_id_table,
};
module_auxiliary_driver(mlx5_shim_sf_driver);

MODULE_DESCRIPTION("mlx5 shim: sub-function driver");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("MLX5_SHIM");
