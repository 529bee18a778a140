// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's eswitch.c: the eswitch mode of a port function. A mode
 * change rescans the function's auxiliary devices (legacy: eth and rdma; switchdev: eth,
 * eth-rep and rdma-rep, see dev.c) and tells its clients: the eth netdev stays and becomes
 * the uplink representor, only representors and the RDMA device come and go. Set
 * through devlink (devlink.c) and the debugfs knob esw_mode (debugfs.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "mlx5_shim_priv.h"

static const char * const mlx5_shim_mode_names[] = {
	[MLX5_SHIM_ESW_LEGACY] = "legacy",
	[MLX5_SHIM_ESW_SWITCHDEV] = "switchdev",
};

/* Return: the enum mlx5_shim_esw_mode named @name, or -EINVAL. */
int mlx5_shim_eswitch_parse_mode(const char *name)
{
	int mode;

	mode = match_string(mlx5_shim_mode_names, ARRAY_SIZE(mlx5_shim_mode_names), name);
	return mode < 0 ? -EINVAL : mode;
}

const char *mlx5_shim_eswitch_mode_name(enum mlx5_shim_esw_mode mode)
{
	return mlx5_shim_mode_names[mode];
}

/*
 * Change the mode of a port function: rescan its devices for the new mode and notify
 * its clients; on failure the old mode and its devices are restored.
 */
int mlx5_shim_eswitch_mode_set_locked(struct mlx5_shim_func *func,
				      enum mlx5_shim_esw_mode mode)
{
	lockdep_assert_held(&func->lock);
	return mlx5_shim_change_locked(func, func->caps, mode, MLX5_SHIM_EVENT_MODE_CHANGE);
}
