// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core: the simulated wire between the two ports of a pair (ports 0 and 1, 2 and
 * 3 of an adapter). A client's netdev attaches as the receiving end of its port and
 * transmits towards the peer port (namespace MLX5_SHIM). An SF's wire leads to its
 * representor instead (the vport's, eswitch.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/error-injection.h>
#include <linux/export.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "mlx5_shim_priv.h"

/* Put an endpoint into @slot; -EBUSY when one is there. */
int mlx5_shim_wire_ep_attach(spinlock_t *lock, struct mlx5_shim_wire_ep __rcu **slot,
			     mlx5_shim_rx_t rx, void *ctx)
{
	struct mlx5_shim_wire_ep *ep;

	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->rx = rx;
	ep->ctx = ctx;
	spin_lock(lock);
	if (rcu_access_pointer(*slot)) {
		spin_unlock(lock);
		kfree(ep);
		return -EBUSY;
	}
	rcu_assign_pointer(*slot, ep);
	spin_unlock(lock);
	return 0;
}

/*
 * Empty @slot; return its endpoint (or NULL), which receivers in flight may still be using
 * until a grace period has passed.
 */
struct mlx5_shim_wire_ep *mlx5_shim_wire_ep_take(spinlock_t *lock,
						 struct mlx5_shim_wire_ep __rcu **slot)
{
	struct mlx5_shim_wire_ep *ep;

	spin_lock(lock);
	ep = rcu_dereference_protected(*slot, lockdep_is_held(lock));
	RCU_INIT_POINTER(*slot, NULL);
	spin_unlock(lock);
	return ep;
}

/*
 * Empty @slot and free its endpoint after the receivers in flight; sleeps when there was
 * one, returns at once when the slot was empty (mlx5_shim_vport_sf_unplug()).
 */
void mlx5_shim_wire_ep_detach(spinlock_t *lock, struct mlx5_shim_wire_ep __rcu **slot)
{
	struct mlx5_shim_wire_ep *ep = mlx5_shim_wire_ep_take(lock, slot);

	if (!ep)
		return;
	synchronize_rcu();
	kfree(ep);
}

/* Hand @skb to the endpoint in @slot; 0, or -ENOLINK when there is none. */
int mlx5_shim_wire_ep_deliver(struct mlx5_shim_wire_ep __rcu **slot, struct sk_buff *skb)
{
	struct mlx5_shim_wire_ep *ep;
	int err = -ENOLINK;

	rcu_read_lock();
	ep = rcu_dereference(*slot);
	if (ep) {
		ep->rx(ep->ctx, skb);
		err = 0;
	}
	rcu_read_unlock();
	return err;
}

/*
 * A port's end of the wire: its Ethernet netdev's while the port has the eth capability,
 * whether or not that netdev exists yet; else the first other endpoint's (a vdpa device).
 */
static int mlx5_shim_port_wire_attach(struct mlx5_shim_func *func, bool eth,
				      mlx5_shim_rx_t rx, void *ctx)
{
	struct mlx5_shim_wire_ep *ep;
	int err = 0;

	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->rx = rx;
	ep->ctx = ctx;
	ep->eth = eth;
	spin_lock(&func->ep_lock);
	if (rcu_access_pointer(func->ep))
		err = -EBUSY;
	else if (!eth && (READ_ONCE(func->caps) & MLX5_SHIM_CAP_ETH))
		err = -EBUSY;	/* kept for the eth netdev */
	else
		rcu_assign_pointer(func->ep, ep);
	spin_unlock(&func->ep_lock);
	if (err)
		kfree(ep);
	return err;
}

/**
 * mlx5_shim_wire_set_caps() - change a port's capabilities, keeping its wire's owner
 * @func: a port function, under its @lock
 * @caps: the new MLX5_SHIM_CAP_* bits
 *
 * Adding eth while another kind of endpoint (a vdpa device) has the wire is refused: the
 * Ethernet netdev would have no wire. Under @ep_lock, so mlx5_shim_port_wire_attach() sees
 * either the old caps or the new ones.
 *
 * Return: 0, or -EBUSY with nothing changed.
 */
int mlx5_shim_wire_set_caps(struct mlx5_shim_func *func, u32 caps)
{
	struct mlx5_shim_wire_ep *ep;
	int err = 0;

	lockdep_assert_held(&func->lock);
	spin_lock(&func->ep_lock);
	ep = rcu_dereference_protected(func->ep, lockdep_is_held(&func->ep_lock));
	if ((caps & ~func->caps & MLX5_SHIM_CAP_ETH) && ep && !ep->eth)
		err = -EBUSY;
	else
		WRITE_ONCE(func->caps, caps);
	spin_unlock(&func->ep_lock);
	if (err)
		dev_warn(func->device, "caps: no eth while a vdpa device has the port's wire\n");
	return err;
}

/**
 * mlx5_shim_wire_attach() - become the receiving end of a function's wire
 * @madev: an eth device of a port or of an SF, or a port's vnet device, bound to the caller
 * @rx: called for every frame the other end transmits (softirq, under RCU)
 * @ctx: passed to @rx
 *
 * A port's wire leads to its peer port; an SF's to its representor (switchdev mode). A
 * port with the eth capability keeps its wire for its eth device.
 *
 * Return: 0; -ENOLINK when the function has no wire (single-port adapters); -EBUSY when
 * another endpoint is attached, or when @madev is not the eth device of a port that has
 * the eth capability.
 */
int mlx5_shim_wire_attach(struct mlx5_shim_adev *madev, mlx5_shim_rx_t rx, void *ctx)
{
	struct mlx5_shim_func *func = madev->func;

	if (func->vport)
		return mlx5_shim_vport_sf_attach(func->vport, rx, ctx);
	if (!func->peer)
		return -ENOLINK;
	return mlx5_shim_port_wire_attach(func, madev->kind == MLX5_SHIM_ADEV_ETH, rx, ctx);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_wire_attach, "MLX5_SHIM");
ALLOW_ERROR_INJECTION(mlx5_shim_wire_attach, ERRNO);

/**
 * mlx5_shim_wire_detach() - stop receiving; waits for receivers in flight
 * @madev: the device given to mlx5_shim_wire_attach()
 *
 * Context: process context; sleeps (synchronize_rcu()), unless the core already took the
 * endpoint off the wire and waited for its receivers, as a batched SF teardown does.
 */
void mlx5_shim_wire_detach(struct mlx5_shim_adev *madev)
{
	struct mlx5_shim_func *func = madev->func;

	if (func->vport)
		mlx5_shim_vport_sf_detach(func->vport);
	else
		mlx5_shim_wire_ep_detach(&func->ep_lock, &func->ep);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_wire_detach, "MLX5_SHIM");

/**
 * mlx5_shim_wire_xmit() - put a frame on the wire towards the other end
 * @madev: an eth device of a port or of an SF
 * @skb: the frame; always consumed
 *
 * Context: softirq or process context with BHs disabled (ndo_start_xmit).
 * Return: 0 when the other end took the frame, -ENOLINK when there is no other end,
 * no endpoint on it, or either link is down.
 */
int mlx5_shim_wire_xmit(struct mlx5_shim_adev *madev, struct sk_buff *skb)
{
	struct mlx5_shim_func *func = madev->func;
	struct mlx5_shim_func *peer = func->peer;
	int err = -ENOLINK;

	if (func->vport)
		err = mlx5_shim_vport_sf_xmit(func->vport, skb);
	else if (peer && READ_ONCE(func->link_up) && READ_ONCE(peer->link_up))
		err = mlx5_shim_wire_ep_deliver(&peer->ep, skb);
	if (err)
		kfree_skb(skb);
	return err;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_wire_xmit, "MLX5_SHIM");
