// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's events.c: a function's port events (link up/down, eswitch
 * mode and capability changes), delivered to its clients through a notifier chain, and
 * the snapshot of its state they read (namespace MLX5_SHIM).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/error-injection.h>
#include <linux/etherdevice.h>
#include <linux/export.h>
#include <linux/notifier.h>

#include "mlx5_shim_priv.h"

static void mlx5_shim_snapshot(struct mlx5_shim_func *func, struct mlx5_shim_caps *caps)
{
	caps->caps = READ_ONCE(func->caps);
	caps->esw_mode = READ_ONCE(func->esw_mode);
	caps->link_up = READ_ONCE(func->link_up);
	ether_addr_copy(caps->mac, func->mac);
}

void mlx5_shim_notify(struct mlx5_shim_func *func, enum mlx5_shim_event event)
{
	struct mlx5_shim_caps caps;

	mlx5_shim_snapshot(func, &caps);
	blocking_notifier_call_chain(&func->nh, event, &caps);
}

/**
 * mlx5_shim_query_caps() - read a function's capabilities and state
 * @madev: an auxiliary device of mlx5_shim_core, bound to the caller
 * @caps: filled with a snapshot; it may change right after, events tell when
 *
 * Context: any; takes no locks.
 */
void mlx5_shim_query_caps(struct mlx5_shim_adev *madev, struct mlx5_shim_caps *caps)
{
	mlx5_shim_snapshot(madev->func, caps);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_query_caps, "MLX5_SHIM");

/**
 * mlx5_shim_register_notifier() - receive the port events of a function
 * @madev: an auxiliary device of mlx5_shim_core, bound to the caller
 * @nb: notifier; called with an enum mlx5_shim_event and a const struct mlx5_shim_caps *
 *
 * Callbacks run in process context with the function's lock held: they must not call
 * back into control paths of the core. Unregister before the driver's remove() returns.
 *
 * Return: 0 or a negative errno.
 */
int mlx5_shim_register_notifier(struct mlx5_shim_adev *madev, struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&madev->func->nh, nb);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_register_notifier, "MLX5_SHIM");
ALLOW_ERROR_INJECTION(mlx5_shim_register_notifier, ERRNO);

/**
 * mlx5_shim_unregister_notifier() - stop receiving port events
 * @madev: the device given to mlx5_shim_register_notifier()
 * @nb: the notifier given to it
 */
void mlx5_shim_unregister_notifier(struct mlx5_shim_adev *madev, struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&madev->func->nh, nb);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_unregister_notifier, "MLX5_SHIM");
