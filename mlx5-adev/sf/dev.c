// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's sf/dev/dev.c: the sub-function devices of a port,
 * mlx5_shim_core.sf.<id>, each with its sfnum, added and deleted one by one or all at
 * once when their port goes (with one batched netdev teardown), and the clients' offer
 * of their netdevs to that batch (namespace MLX5_SHIM).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

#include "../mlx5_shim_priv.h"

/*
 * The per-port SF limit, MLX5_SHIM_MAX_SFS at most: a test reaches the limit (-ENOSPC)
 * with a few SFs instead of creating 1,024 of them.
 */
static unsigned int max_sfs = MLX5_SHIM_MAX_SFS;

static int max_sfs_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	if (n < 1 || n > MLX5_SHIM_MAX_SFS)
		return -EINVAL;
	WRITE_ONCE(max_sfs, n);
	return 0;
}

static const struct kernel_param_ops max_sfs_ops = {
	.set = max_sfs_set,
	.get = param_get_uint,
};
module_param_cb(max_sfs, &max_sfs_ops, &max_sfs, 0644);
MODULE_PARM_DESC(max_sfs, "SFs per port, 1 to 1024 (default 1024)");

/* batched SF teardowns that unregistered netdevs, and those netdevs (sf_teardown) */
atomic_t mlx5_shim_sf_batches = ATOMIC_INIT(0);
atomic_t mlx5_shim_sf_batched_netdevs = ATOMIC_INIT(0);

/**
 * mlx5_shim_register_dellink() - offer a client's netdevs to batched SF teardowns
 * @madev: an auxiliary device of mlx5_shim_core, being probed by or bound to the caller
 * @dl: its &mlx5_shim_dellink.dellink set; the core fills in the rest
 *
 * From here until mlx5_shim_unregister_dellink(), a teardown of many SFs that includes
 * @madev's function may call @dl->dellink; a port's own devices are not in those batches.
 * Register after the netdevs are registered.
 *
 * Context: process context; takes the port's dellink lock, not under RTNL.
 */
void mlx5_shim_register_dellink(struct mlx5_shim_adev *madev, struct mlx5_shim_dellink *dl)
{
	struct mlx5_shim_port *port = madev->func->pf;

	dl->madev = madev;
	mutex_lock(&port->dellink_lock);
	list_add_tail(&dl->node, &port->dellinks);
	mutex_unlock(&port->dellink_lock);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_register_dellink, "MLX5_SHIM");

/**
 * mlx5_shim_unregister_dellink() - withdraw from batched SF teardowns
 * @dl: given to mlx5_shim_register_dellink()
 *
 * Waits for a batch in flight: when it returns, @dl->dellink has either run, and the
 * netdevs it queued are completely unregistered (only free_netdev() is left), or it
 * will never run. Call it in remove() before unregistering or freeing the netdevs.
 *
 * Context: process context; takes the port's dellink lock, not under RTNL.
 */
void mlx5_shim_unregister_dellink(struct mlx5_shim_dellink *dl)
{
	struct mlx5_shim_port *port = dl->madev->func->pf;

	mutex_lock(&port->dellink_lock);
	list_del(&dl->node);
	mutex_unlock(&port->dellink_lock);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_unregister_dellink, "MLX5_SHIM");

static ssize_t sfnum_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_mlx5_shim_adev(to_auxiliary_dev(dev))->sfnum);
}
static DEVICE_ATTR_RO(sfnum);

static struct attribute *mlx5_shim_sf_attrs[] = {
	&dev_attr_sfnum.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_sf);

static void mlx5_shim_sf_release(struct device *dev)
{
	struct mlx5_shim_adev *madev = to_mlx5_shim_adev(to_auxiliary_dev(dev));

	ida_free(&mlx5_shim_adev_ida, madev->adev.id);
	kfree(container_of(madev, struct mlx5_shim_sf_dev, madev));
	mlx5_shim_obj_put();
}

/*
 * Add an SF device and enable its vport: in switchdev mode the SF gets a representor on
 * the port (eswitch.c) before its device is added, so that its netdev finds its wire's
 * other end there.
 */
int mlx5_shim_sf_add(struct mlx5_shim_port *port, u32 sfnum)
{
	struct mlx5_shim_adev *madev;
	struct mlx5_shim_sf_dev *sf;
	int err;

	mutex_lock(&port->sf_lock);
	if (xa_load(&port->sfs, sfnum)) {
		err = -EEXIST;
		goto err_unlock;
	}
	if (port->num_sfs >= READ_ONCE(max_sfs)) {
		err = -ENOSPC;
		goto err_unlock;
	}

	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf) {
		err = -ENOMEM;
		goto err_unlock;
	}
	madev = &sf->madev;
	mlx5_shim_eswitch_vport_init(&sf->vport, port, sfnum);
	mlx5_shim_obj_get();	/* put by the release, or below */
	mlx5_shim_fill_adev(madev, &port->func);
	madev->kind = MLX5_SHIM_ADEV_SF;
	madev->is_sf = true;
	madev->sfnum = sfnum;

	err = ida_alloc(&mlx5_shim_adev_ida, GFP_KERNEL);
	if (err < 0)
		goto err_free_madev;
	madev->adev.id = err;
	madev->adev.name = "sf";
	madev->adev.dev.parent = &port->dev;
	madev->adev.dev.groups = mlx5_shim_sf_groups;
	madev->adev.dev.release = mlx5_shim_sf_release;

	err = auxiliary_device_init(&madev->adev);
	if (err)
		goto err_free_id;
	/* from here on the release callback frees the id and madev */
	err = xa_err(xa_store(&port->sfs, sfnum, madev, GFP_KERNEL));
	if (err)
		goto err_uninit_adev;
	mlx5_shim_eswitch_vport_enable(&sf->vport);
	err = auxiliary_device_add(&madev->adev);
	if (err)
		goto err_disable_vport;
	port->num_sfs++;
	mutex_unlock(&port->sf_lock);
	return 0;

err_disable_vport:
	mlx5_shim_eswitch_vport_disable(&sf->vport);
	xa_erase(&port->sfs, sfnum);
err_uninit_adev:
	auxiliary_device_uninit(&madev->adev);
	mutex_unlock(&port->sf_lock);
	return err;
err_free_id:
	ida_free(&mlx5_shim_adev_ida, madev->adev.id);
err_free_madev:
	kfree(sf);
	mlx5_shim_obj_put();
err_unlock:
	mutex_unlock(&port->sf_lock);
	return err;
}

static void mlx5_shim_sf_del_locked(struct mlx5_shim_port *port, struct mlx5_shim_adev *madev)
{
	lockdep_assert_held(&port->sf_lock);
	/* the representor goes first, as mlx5 disables the vport before the SF's HCA */
	mlx5_shim_eswitch_vport_disable(&container_of(madev, struct mlx5_shim_sf_dev,
						      madev)->vport);
	xa_erase(&port->sfs, madev->sfnum);
	port->num_sfs--;
	mlx5_shim_del_adev(madev);
}

int mlx5_shim_sf_del(struct mlx5_shim_port *port, u32 sfnum)
{
	struct mlx5_shim_adev *madev;
	int err = -ENOENT;

	mutex_lock(&port->sf_lock);
	madev = xa_load(&port->sfs, sfnum);
	if (madev) {
		mlx5_shim_sf_del_locked(port, madev);
		err = 0;
	}
	mutex_unlock(&port->sf_lock);
	return err;
}

/*
 * Unregister the netdevs of all the port's SFs in one batch, as the core does for a dying
 * network namespace (default_device_exit_batch()): each client below an SF queues its
 * netdevs (&mlx5_shim_dellink.dellink) under one rtnl_lock(), and one
 * unregister_netdevice_many() unregisters them all, with its RCU grace periods paid once,
 * not once per netdev (unregister_netdev() alone waits for its own). The caller deletes
 * the SFs afterwards; their clients' remove() free the netdevs.
 *
 * Lock order: sf_lock, dellink_lock, RTNL. A client's remove() runs under its device's
 * lock and takes dellink_lock (mlx5_shim_unregister_dellink()), then RTNL, one after the
 * other; nothing here takes a device lock. dellink_lock is held until rtnl_unlock() has
 * run the unregistration's todo list, so a remove() that waited for it frees a netdev
 * nobody else touches any more.
 */
static void mlx5_shim_sf_dellink_all(struct mlx5_shim_port *port)
{
	struct mlx5_shim_dellink *dl;
	struct list_head *pos;
	unsigned int n = 0;
	LIST_HEAD(head);

	lockdep_assert_held(&port->sf_lock);
	mutex_lock(&port->dellink_lock);
	list_for_each_entry(dl, &port->dellinks, node)
		n += dl->madev->is_sf;
	if (!n)
		goto out_unlock;

	n = 0;
	rtnl_lock();
	list_for_each_entry(dl, &port->dellinks, node)
		if (dl->madev->is_sf)
			dl->dellink(dl, &head);
	list_for_each(pos, &head)
		n++;
	unregister_netdevice_many(&head);
	rtnl_unlock();
	if (n) {
		atomic_inc(&mlx5_shim_sf_batches);
		atomic_add(n, &mlx5_shim_sf_batched_netdevs);
	}
out_unlock:
	mutex_unlock(&port->dellink_lock);
}

/*
 * Delete all the port's SFs at the cost of a few grace periods, not a few per SF: their
 * wire ends come off first (mlx5_shim_vport_sf_unplug()), their netdevs go in one batch
 * (unregister_netdevice_many()), and one synchronize_rcu() then covers the receivers of
 * every unplugged end before the clients' remove() free what those receivers use.
 */
void mlx5_shim_sf_del_all(struct mlx5_shim_port *port)
{
	struct mlx5_shim_adev *madev;
	unsigned long sfnum;
	bool any = false;

	mutex_lock(&port->sf_lock);
	xa_for_each(&port->sfs, sfnum, madev) {
		mlx5_shim_vport_sf_unplug(&container_of(madev, struct mlx5_shim_sf_dev,
							madev)->vport);
		any = true;
	}
	mlx5_shim_sf_dellink_all(port);
	if (any)
		synchronize_rcu();
	xa_for_each(&port->sfs, sfnum, madev)
		mlx5_shim_sf_del_locked(port, madev);
	mutex_unlock(&port->sf_lock);
}
