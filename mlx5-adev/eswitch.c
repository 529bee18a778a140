// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's eswitch.c: the eswitch mode of a port function. A mode
 * change rescans the function's auxiliary devices (legacy: eth and rdma; switchdev: eth,
 * eth-rep and rdma-rep, see dev.c) and tells its clients: the eth netdev stays and becomes
 * the uplink representor, only representors and the RDMA device come and go. Set
 * through devlink (devlink.c) and the debugfs knob esw_mode (debugfs.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/xarray.h>

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

/* ---- vports: SF representors, as mlx5's eswitch_offloads.c ------------------------ */

void mlx5_shim_eswitch_vport_init(struct mlx5_shim_vport *vport, struct mlx5_shim_port *port,
				  u32 sfnum)
{
	vport->port = port;
	vport->sfnum = sfnum;
	spin_lock_init(&vport->ep_lock);
}

/* The SF's own function learns whether its wire has a representor end: its link. */
static void mlx5_shim_vport_sf_link(struct mlx5_shim_vport *vport)
{
	struct mlx5_shim_func *sf = vport->sf_func;
	bool up = !!rcu_access_pointer(vport->rep_ep);

	lockdep_assert_held(&vport->port->func.rep_lock);
	if (!sf || READ_ONCE(sf->link_up) == up)
		return;
	WRITE_ONCE(sf->link_up, up);
	mlx5_shim_notify(sf, up ? MLX5_SHIM_EVENT_LINK_UP : MLX5_SHIM_EVENT_LINK_DOWN);
}

static void mlx5_shim_vport_load(struct mlx5_shim_vport *vport)
{
	struct mlx5_shim_func *pf = &vport->port->func;
	void *priv;

	lockdep_assert_held(&pf->rep_lock);
	if (vport->loaded || !vport->enabled || !pf->rep_ops)
		return;
	priv = pf->rep_ops->load(vport, pf->rep_ctx);
	if (IS_ERR(priv)) {
		dev_warn(pf->device, "representor of sfnum %u: %ld\n", vport->sfnum,
			 PTR_ERR(priv));
		return;
	}
	vport->priv = priv;
	vport->loaded = true;
	mlx5_shim_vport_sf_link(vport);
}

static void mlx5_shim_vport_unload(struct mlx5_shim_vport *vport)
{
	struct mlx5_shim_func *pf = &vport->port->func;

	lockdep_assert_held(&pf->rep_lock);
	if (!vport->loaded)
		return;
	pf->rep_ops->unload(vport, vport->priv);
	vport->loaded = false;
	vport->priv = NULL;
	mlx5_shim_vport_sf_link(vport);
}

/* The SF became active (its device is about to be added): it gets a representor. */
void mlx5_shim_eswitch_vport_enable(struct mlx5_shim_vport *vport)
{
	struct mlx5_shim_func *pf = &vport->port->func;

	mutex_lock(&pf->rep_lock);
	vport->enabled = true;
	mlx5_shim_vport_load(vport);
	mutex_unlock(&pf->rep_lock);
}

/* The SF goes: its representor with it. */
void mlx5_shim_eswitch_vport_disable(struct mlx5_shim_vport *vport)
{
	struct mlx5_shim_func *pf = &vport->port->func;

	mutex_lock(&pf->rep_lock);
	mlx5_shim_vport_unload(vport);
	vport->enabled = false;
	mutex_unlock(&pf->rep_lock);
}

/* The SF driver brought its function up (@func) or down (NULL). */
void mlx5_shim_eswitch_vport_set_sf(struct mlx5_shim_vport *vport, struct mlx5_shim_func *func)
{
	struct mlx5_shim_func *pf = &vport->port->func;

	mutex_lock(&pf->rep_lock);
	vport->sf_func = func;
	if (func)
		WRITE_ONCE(func->link_up, !!rcu_access_pointer(vport->rep_ep));
	mutex_unlock(&pf->rep_lock);
}

/* the SF's end: mlx5_shim_wire_attach() and friends of an SF's eth device */
int mlx5_shim_vport_sf_attach(struct mlx5_shim_vport *vport, mlx5_shim_rx_t rx, void *ctx)
{
	struct mlx5_shim_func *pf = &vport->port->func;
	int err;

	mutex_lock(&pf->rep_lock);
	if (vport->unplugged)
		err = -ENOLINK;
	else
		err = mlx5_shim_wire_ep_attach(&vport->ep_lock, &vport->sf_ep, rx, ctx);
	if (!err && vport->loaded && pf->rep_ops->link)
		pf->rep_ops->link(vport, vport->priv, true);
	mutex_unlock(&pf->rep_lock);
	return err;
}

/* Tell the representor, if any, that the SF end leaves; under the representor lock. */
static void mlx5_shim_vport_sf_link_down(struct mlx5_shim_vport *vport)
{
	struct mlx5_shim_func *pf = &vport->port->func;

	lockdep_assert_held(&pf->rep_lock);
	if (vport->loaded && pf->rep_ops->link && rcu_access_pointer(vport->sf_ep))
		pf->rep_ops->link(vport, vport->priv, false);
}

/*
 * Take the SF end off the wire; under the representor lock, so that a representor's load
 * (mlx5_shim_vport_peer_attached()) sees it on or off, not in between.
 */
static struct mlx5_shim_wire_ep *mlx5_shim_vport_sf_ep_take(struct mlx5_shim_vport *vport)
{
	lockdep_assert_held(&vport->port->func.rep_lock);
	return mlx5_shim_wire_ep_take(&vport->ep_lock, &vport->sf_ep);
}

/*
 * Sleeps for the receivers in flight, unless mlx5_shim_vport_sf_unplug() ran first. The end
 * comes off under the representor lock, with the link-down it signals, so that a
 * representor loaded after it finds no SF end (and no carrier); only the wait is outside.
 */
void mlx5_shim_vport_sf_detach(struct mlx5_shim_vport *vport)
{
	struct mlx5_shim_func *pf = &vport->port->func;
	struct mlx5_shim_wire_ep *ep;

	mutex_lock(&pf->rep_lock);
	mlx5_shim_vport_sf_link_down(vport);
	ep = mlx5_shim_vport_sf_ep_take(vport);
	mutex_unlock(&pf->rep_lock);
	if (ep) {
		synchronize_rcu();
		kfree(ep);
	}
}

/*
 * The SF is about to be deleted with others (mlx5_shim_sf_del_all()): take its end off the
 * wire now, without waiting. The endpoint is freed after a grace period; the caller waits
 * for one (synchronize_rcu()) before the SF's clients are removed, so one wait covers the
 * whole batch and the clients' mlx5_shim_wire_detach() finds nothing to wait for. As
 * unregister_netdevice_many() pays one grace period for many netdevs.
 */
void mlx5_shim_vport_sf_unplug(struct mlx5_shim_vport *vport)
{
	struct mlx5_shim_func *pf = &vport->port->func;
	struct mlx5_shim_wire_ep *ep;

	mutex_lock(&pf->rep_lock);
	mlx5_shim_vport_sf_link_down(vport);
	vport->unplugged = true;
	ep = mlx5_shim_vport_sf_ep_take(vport);
	mutex_unlock(&pf->rep_lock);
	if (ep)
		kfree_rcu(ep, rcu);
}

int mlx5_shim_vport_sf_xmit(struct mlx5_shim_vport *vport, struct sk_buff *skb)
{
	return mlx5_shim_wire_ep_deliver(&vport->rep_ep, skb);
}

/**
 * mlx5_shim_eswitch_register_vport_reps() - become the representor driver of a port
 * @madev: the port's eth-rep device, being probed by the caller
 * @ops: load, unload and link callbacks
 * @ctx: passed to @ops->load
 *
 * As mlx5_eswitch_register_vport_reps(): @ops->load runs for every active SF of the port
 * now and for every SF activated later, @ops->unload when an SF goes and for all of them
 * at mlx5_shim_eswitch_unregister_vport_reps().
 *
 * Context: process context; takes the port's SF lock and representor lock.
 * Return: 0, or -EBUSY when the port has a representor driver.
 */
int mlx5_shim_eswitch_register_vport_reps(struct mlx5_shim_adev *madev,
					  const struct mlx5_shim_rep_ops *ops, void *ctx)
{
	struct mlx5_shim_port *port = madev->func->pf;
	struct mlx5_shim_func *pf = &port->func;
	struct mlx5_shim_adev *sf;
	unsigned long sfnum;
	int err = 0;

	mutex_lock(&port->sf_lock);
	mutex_lock(&pf->rep_lock);
	if (pf->rep_ops) {
		err = -EBUSY;
		goto out_unlock;
	}
	pf->rep_ops = ops;
	pf->rep_ctx = ctx;
	xa_for_each(&port->sfs, sfnum, sf)
		mlx5_shim_vport_load(&container_of(sf, struct mlx5_shim_sf_dev, madev)->vport);
out_unlock:
	mutex_unlock(&pf->rep_lock);
	mutex_unlock(&port->sf_lock);
	return err;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_eswitch_register_vport_reps, "MLX5_SHIM");

/**
 * mlx5_shim_eswitch_unregister_vport_reps() - unload every representor, register no more
 * @madev: the device given to mlx5_shim_eswitch_register_vport_reps()
 *
 * Context: process context; takes the port's SF lock and representor lock.
 */
void mlx5_shim_eswitch_unregister_vport_reps(struct mlx5_shim_adev *madev)
{
	struct mlx5_shim_port *port = madev->func->pf;
	struct mlx5_shim_func *pf = &port->func;
	struct mlx5_shim_adev *sf;
	unsigned long sfnum;

	mutex_lock(&port->sf_lock);
	mutex_lock(&pf->rep_lock);
	xa_for_each(&port->sfs, sfnum, sf)
		mlx5_shim_vport_unload(&container_of(sf, struct mlx5_shim_sf_dev, madev)->vport);
	pf->rep_ops = NULL;
	pf->rep_ctx = NULL;
	mutex_unlock(&pf->rep_lock);
	mutex_unlock(&port->sf_lock);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_eswitch_unregister_vport_reps, "MLX5_SHIM");

/**
 * mlx5_shim_vport_sfnum() - the SF number of a vport
 * @vport: given to &mlx5_shim_rep_ops.load
 *
 * Return: its sfnum.
 */
u32 mlx5_shim_vport_sfnum(const struct mlx5_shim_vport *vport)
{
	return vport->sfnum;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_vport_sfnum, "MLX5_SHIM");

/**
 * mlx5_shim_vport_peer_attached() - is the SF's own netdev on the vport's wire?
 * @vport: given to &mlx5_shim_rep_ops.load
 *
 * Context: in the &mlx5_shim_rep_ops callbacks, where it cannot change.
 * Return: true when the SF end is attached.
 */
bool mlx5_shim_vport_peer_attached(struct mlx5_shim_vport *vport)
{
	return !!rcu_access_pointer(vport->sf_ep);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_vport_peer_attached, "MLX5_SHIM");

/**
 * mlx5_shim_vport_wire_attach() - the representor becomes the receiving end of the vport
 * @vport: given to &mlx5_shim_rep_ops.load, called from it
 * @rx: called for every frame the SF transmits (softirq, under RCU)
 * @ctx: passed to @rx
 *
 * Return: 0, -ENOMEM or -EBUSY.
 */
int mlx5_shim_vport_wire_attach(struct mlx5_shim_vport *vport, mlx5_shim_rx_t rx, void *ctx)
{
	return mlx5_shim_wire_ep_attach(&vport->ep_lock, &vport->rep_ep, rx, ctx);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_vport_wire_attach, "MLX5_SHIM");

/**
 * mlx5_shim_vport_wire_detach() - stop receiving; waits for receivers in flight
 * @vport: given to mlx5_shim_vport_wire_attach(); from &mlx5_shim_rep_ops.unload
 *
 * Context: process context; sleeps.
 */
void mlx5_shim_vport_wire_detach(struct mlx5_shim_vport *vport)
{
	mlx5_shim_wire_ep_detach(&vport->ep_lock, &vport->rep_ep);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_vport_wire_detach, "MLX5_SHIM");

/**
 * mlx5_shim_vport_wire_xmit() - send a frame from the representor to the SF
 * @vport: a loaded vport
 * @skb: the frame; always consumed
 *
 * Context: as mlx5_shim_wire_xmit().
 * Return: 0, or -ENOLINK when the SF's netdev is not attached.
 */
int mlx5_shim_vport_wire_xmit(struct mlx5_shim_vport *vport, struct sk_buff *skb)
{
	int err = mlx5_shim_wire_ep_deliver(&vport->sf_ep, skb);

	if (err)
		kfree_skb(skb);
	return err;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_vport_wire_xmit, "MLX5_SHIM");
