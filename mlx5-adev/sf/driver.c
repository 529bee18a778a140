// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's sf/dev/driver.c: what the SF driver's probe and remove call
 * to bring the function behind a sub-function device up and down (namespace MLX5_SHIM).
 * The SF driver itself is the client module mlx5_shim_sf.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/export.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "../mlx5_shim_priv.h"

/**
 * mlx5_shim_sf_load() - bring up the function behind a sub-function device
 * @sf: an mlx5_shim_core.sf.<id> device, being probed by the caller
 *
 * Creates the SF's own function and its nested auxiliary devices (an eth device
 * whose parent is @sf), as a mainline SF driver's probe creates an mlx5_core_dev.
 *
 * Return: the function, to give to mlx5_shim_sf_unload(), or an ERR_PTR().
 */
struct mlx5_shim_func *mlx5_shim_sf_load(struct mlx5_shim_adev *sf)
{
	struct mlx5_shim_func *func;
	int err;

	if (sf->kind != MLX5_SHIM_ADEV_SF)
		return ERR_PTR(-EINVAL);

	func = kzalloc(sizeof(*func), GFP_KERNEL);
	if (!func)
		return ERR_PTR(-ENOMEM);
	mutex_init(&func->lock);	/* its own lock class: nests in the port's SF table */
	mlx5_shim_func_init(func, &sf->adev.dev, sf->guid, sf->adapter, sf->port,
			    MLX5_SHIM_CAP_ETH);
	func->is_sf = true;
	func->sfnum = sf->sfnum;
	func->pf = sf->func->pf;
	func->vport = &container_of(sf, struct mlx5_shim_sf_dev, madev)->vport;
	eth_random_addr(func->mac);

	err = ida_alloc(&mlx5_shim_adev_ida, GFP_KERNEL);
	if (err < 0)
		goto err_free_func;
	func->adev_idx = err;

	/* its link: whether its wire has a representor end */
	mlx5_shim_eswitch_vport_set_sf(func->vport, func);
	mutex_lock(&func->lock);
	func->disable_all = false;
	err = mlx5_shim_rescan_locked(func);
	if (err)
		mlx5_shim_disable_all_locked(func);
	mutex_unlock(&func->lock);
	if (err)
		goto err_clear_sf;
	return func;

err_clear_sf:
	mlx5_shim_eswitch_vport_set_sf(func->vport, NULL);
	ida_free(&mlx5_shim_adev_ida, func->adev_idx);
err_free_func:
	mutex_destroy(&func->lock);
	kfree(func);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_sf_load, "MLX5_SHIM");

/**
 * mlx5_shim_sf_unload() - remove a sub-function's nested devices and free its function
 * @func: returned by mlx5_shim_sf_load()
 */
void mlx5_shim_sf_unload(struct mlx5_shim_func *func)
{
	mutex_lock(&func->lock);
	mlx5_shim_disable_all_locked(func);
	mutex_unlock(&func->lock);
	mlx5_shim_eswitch_vport_set_sf(func->vport, NULL);
	ida_free(&mlx5_shim_adev_ida, func->adev_idx);
	mutex_destroy(&func->lock);
	kfree(func);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_sf_unload, "MLX5_SHIM");
