// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core: the simulated wire between the two ports of a pair (ports 0 and 1, 2 and
 * 3 of an adapter). A client's netdev attaches as the receiving end of its port and
 * transmits towards the peer port (namespace MLX5_SHIM).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/error-injection.h>
#include <linux/export.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "mlx5_shim_priv.h"

/**
 * mlx5_shim_wire_attach() - become the receiving end of a port's wire
 * @madev: an eth or eth-rep device of a port, bound to the caller
 * @rx: called for every frame the peer port transmits (softirq, under RCU)
 * @ctx: passed to @rx
 *
 * Return: 0; -ENOLINK when the function has no wire (single-port adapters,
 * sub-functions); -EBUSY when another endpoint is attached.
 */
int mlx5_shim_wire_attach(struct mlx5_shim_adev *madev, mlx5_shim_rx_t rx, void *ctx)
{
	struct mlx5_shim_func *func = madev->func;
	struct mlx5_shim_wire_ep *ep;

	if (!func->peer)
		return -ENOLINK;
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->rx = rx;
	ep->ctx = ctx;
	spin_lock(&func->ep_lock);
	if (rcu_access_pointer(func->ep)) {
		spin_unlock(&func->ep_lock);
		kfree(ep);
		return -EBUSY;
	}
	rcu_assign_pointer(func->ep, ep);
	spin_unlock(&func->ep_lock);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_wire_attach, "MLX5_SHIM");
ALLOW_ERROR_INJECTION(mlx5_shim_wire_attach, ERRNO);

/**
 * mlx5_shim_wire_detach() - stop receiving; waits for receivers in flight
 * @madev: the device given to mlx5_shim_wire_attach()
 *
 * Context: process context; sleeps (synchronize_rcu()).
 */
void mlx5_shim_wire_detach(struct mlx5_shim_adev *madev)
{
	struct mlx5_shim_func *func = madev->func;
	struct mlx5_shim_wire_ep *ep;

	spin_lock(&func->ep_lock);
	ep = rcu_dereference_protected(func->ep, lockdep_is_held(&func->ep_lock));
	RCU_INIT_POINTER(func->ep, NULL);
	spin_unlock(&func->ep_lock);
	if (!ep)
		return;
	synchronize_rcu();
	kfree(ep);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_wire_detach, "MLX5_SHIM");

/**
 * mlx5_shim_wire_xmit() - put a frame on the wire towards the peer port
 * @madev: an eth or eth-rep device of a port
 * @skb: the frame; always consumed
 *
 * Context: softirq or process context with BHs disabled (ndo_start_xmit).
 * Return: 0 when the peer's endpoint took the frame, -ENOLINK when there is no peer,
 * no endpoint on it, or either link is down.
 */
int mlx5_shim_wire_xmit(struct mlx5_shim_adev *madev, struct sk_buff *skb)
{
	struct mlx5_shim_func *func = madev->func;
	struct mlx5_shim_func *peer = func->peer;
	struct mlx5_shim_wire_ep *ep;
	int err = -ENOLINK;

	rcu_read_lock();
	if (peer && READ_ONCE(func->link_up) && READ_ONCE(peer->link_up)) {
		ep = rcu_dereference(peer->ep);
		if (ep) {
			ep->rx(ep->ctx, skb);
			err = 0;
		}
	}
	rcu_read_unlock();
	if (err)
		kfree_skb(skb);
	return err;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_wire_xmit, "MLX5_SHIM");
