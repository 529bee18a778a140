// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core: a simulated mlx5-style adapter and its auxiliary devices.
 *
 * Adapters are created and deleted through the control files of the mlx5_shim bus, the
 * way netdevsim does it (drivers/net/netdevsim/bus.c); sysfs, not debugfs, so that they
 * exist under kernel lockdown and with debugfs=off:
 *
 *   /sys/bus/mlx5_shim/new_device   "ID [ports=N] [caps=eth,rdma,vnet|none]"
 *   /sys/bus/mlx5_shim/del_device   "ID"
 *
 * (and the test counter /sys/kernel/debug/mlx5_shim/sf_teardown, read only: how many
 * batched SF teardowns ran and how many netdevs they unregistered; see
 * mlx5_shim_sf_dellink_all()).
 *
 * Every port is a struct device on the mlx5_shim bus (mlx5_shim<ID>p<PORT>) bound to
 * the mlx5_shim_core driver, the way a PCI function is bound to mlx5_core. A bound port
 * exposes the auxiliary devices its capabilities and eswitch mode support, chosen from
 * mlx5_shim_adev_devices[] as mainline's drivers/net/ethernet/mellanox/mlx5/core/dev.c
 * chooses from mlx5_adev_devices[], and has its own control files in
 * /sys/kernel/debug/mlx5_shim/<port>/: caps, esw_mode, link, pm, sf_add, sf_del, sfs, lag,
 * and the test knob fail_attach.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/error-injection.h>
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/overflow.h>
#include <linux/pm.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <net/devlink.h>

#include "mlx5_shim.h"

#define MLX5_SHIM_MAX_ADAPTER_ID	65535
#define MLX5_SHIM_MAX_PORTS		4
#define MLX5_SHIM_MAX_SFS		1024	/* per port */
#define MLX5_SHIM_MAX_SFNUM		65535
#define MLX5_SHIM_CMD_MAX		128	/* longest accepted control-file write */
#define MLX5_SHIM_GUID_BASE		0x02c9030000000000ULL
#define MLX5_SHIM_PORT_NAME		"mlx5_shim%up%u"	/* adapter id, port index */

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

struct mlx5_shim_wire_ep {
	mlx5_shim_rx_t rx;
	void *ctx;
};

struct mlx5_shim_port;

/*
 * A function: a port ("PCI function") or a sub-function. @lock serializes its set of
 * auxiliary devices (rescan, attach/detach) and its state; clients' callbacks run
 * under it, so the services clients call never take it.
 */
struct mlx5_shim_func {
	struct mutex lock;		/* see above */
	struct device *device;		/* parent of the function's auxiliary devices */
	struct mlx5_shim_adev *adev[MLX5_SHIM_ADEV_NUM];
	int adev_idx;			/* id of all its auxiliary devices */
	u32 caps;
	enum mlx5_shim_esw_mode esw_mode;
	bool link_up;
	bool detached;
	bool disable_all;
	u32 fail_attach;		/* test knob: the next attach fails at this device */
	struct mlx5_shim_port *pf;	/* the port it is, or whose SF it is */
	u64 guid;
	u32 adapter;
	u32 port;
	u32 sfnum;
	bool is_sf;
	u8 mac[ETH_ALEN];
	struct mlx5_shim_func *peer;	/* other end of the wire */
	spinlock_t ep_lock;		/* writers of @ep */
	struct mlx5_shim_wire_ep __rcu *ep;
	struct blocking_notifier_head nh;
};

struct mlx5_shim_adapter;

struct mlx5_shim_port {
	struct device dev;
	struct mlx5_shim_adapter *adapter;
	struct mlx5_shim_func func;
	struct mutex sf_lock;		/* @sfs and @num_sfs */
	struct xarray sfs;		/* sfnum -> struct mlx5_shim_adev */
	unsigned int num_sfs;
	struct mutex dellink_lock;	/* @dellinks; held across a batched teardown */
	struct list_head dellinks;	/* struct mlx5_shim_dellink of its and its SFs' clients */
	struct dentry *ddir;
	struct devlink *devlink;	/* NULL where the kernel has no CONFIG_NET_DEVLINK */
	bool bound;			/* under mlx5_shim_registry_lock */
	bool sleep_detached;		/* under func.lock: system suspend detached it */
	int probe_err;
};

struct mlx5_shim_adapter {
	struct list_head list;
	struct kref ref;		/* one for the list, one per port device */
	u32 id;
	u64 guid;
	unsigned int num_ports;
	struct mlx5_shim_port ports[];
};

static DEFINE_IDA(mlx5_shim_adev_ida);
/*
 * Objects whose release runs this module's code: adapters (their last port's release) and
 * auxiliary devices. A device's last reference can go after its unregister returned (sysfs
 * readers, CONFIG_DEBUG_KOBJECT_RELEASE), so module exit waits for them, as netdevsim's bus
 * waits for nsim_bus_devs: one reference for the module itself, one per object.
 */
static refcount_t mlx5_shim_objs = REFCOUNT_INIT(1);
static DECLARE_COMPLETION(mlx5_shim_objs_released);

static void mlx5_shim_obj_get(void)
{
	refcount_inc(&mlx5_shim_objs);
}

static void mlx5_shim_obj_put(void)
{
	if (refcount_dec_and_test(&mlx5_shim_objs))
		complete(&mlx5_shim_objs_released);
}

/* create/delete of adapters */
static DEFINE_MUTEX(mlx5_shim_adapters_lock);
/* readers of the adapter list (LAG lookups run in probe, under other locks) */
static DEFINE_SPINLOCK(mlx5_shim_registry_lock);
static LIST_HEAD(mlx5_shim_adapters);
static struct dentry *mlx5_shim_ddir;
/* new_device and del_device act only while set (under mlx5_shim_adapters_lock) */
static bool mlx5_shim_bus_enable;
/* batched SF teardowns that unregistered netdevs, and those netdevs (sf_teardown) */
static atomic_t mlx5_shim_sf_batches = ATOMIC_INIT(0);
static atomic_t mlx5_shim_sf_batched_netdevs = ATOMIC_INIT(0);

static struct mlx5_shim_port *to_mlx5_shim_port(struct device *dev)
{
	return container_of(dev, struct mlx5_shim_port, dev);
}

/* ---- the table of auxiliary device kinds ---------------------------------------- */

static bool is_eth_supported(const struct mlx5_shim_func *func)
{
	return (func->caps & MLX5_SHIM_CAP_ETH) && func->esw_mode == MLX5_SHIM_ESW_LEGACY;
}

static bool is_eth_rep_supported(const struct mlx5_shim_func *func)
{
	return (func->caps & MLX5_SHIM_CAP_ETH) && func->esw_mode == MLX5_SHIM_ESW_SWITCHDEV;
}

static bool is_rdma_supported(const struct mlx5_shim_func *func)
{
	return (func->caps & MLX5_SHIM_CAP_RDMA) && func->esw_mode == MLX5_SHIM_ESW_LEGACY;
}

static bool is_rdma_rep_supported(const struct mlx5_shim_func *func)
{
	return (func->caps & MLX5_SHIM_CAP_RDMA) && func->esw_mode == MLX5_SHIM_ESW_SWITCHDEV;
}

static bool is_vnet_supported(const struct mlx5_shim_func *func)
{
	return func->caps & MLX5_SHIM_CAP_VNET;
}

static const struct mlx5_shim_adev_device {
	const char *suffix;
	bool (*is_supported)(const struct mlx5_shim_func *func);
} mlx5_shim_adev_devices[MLX5_SHIM_ADEV_NUM] = {
	[MLX5_SHIM_ADEV_ETH] = { .suffix = "eth", .is_supported = is_eth_supported },
	[MLX5_SHIM_ADEV_ETH_REP] = { .suffix = "eth-rep", .is_supported = is_eth_rep_supported },
	[MLX5_SHIM_ADEV_RDMA] = { .suffix = "rdma", .is_supported = is_rdma_supported },
	[MLX5_SHIM_ADEV_RDMA_REP] = { .suffix = "rdma-rep", .is_supported = is_rdma_rep_supported },
	[MLX5_SHIM_ADEV_VNET] = { .suffix = "vnet", .is_supported = is_vnet_supported },
};

static void mlx5_shim_adev_release(struct device *dev)
{
	struct mlx5_shim_adev *madev = to_mlx5_shim_adev(to_auxiliary_dev(dev));

	kfree(madev);
	mlx5_shim_obj_put();
}

static void mlx5_shim_fill_adev(struct mlx5_shim_adev *madev, struct mlx5_shim_func *func)
{
	madev->func = func;
	madev->guid = func->guid;
	madev->adapter = func->adapter;
	madev->port = func->port;
	madev->sfnum = func->sfnum;
	madev->is_sf = func->is_sf;
}

static struct mlx5_shim_adev *mlx5_shim_add_adev(struct mlx5_shim_func *func, int idx)
{
	struct mlx5_shim_adev *madev;
	struct auxiliary_device *adev;
	int err;

	madev = kzalloc(sizeof(*madev), GFP_KERNEL);
	if (!madev)
		return ERR_PTR(-ENOMEM);
	mlx5_shim_obj_get();	/* put by the release, or below */

	mlx5_shim_fill_adev(madev, func);
	madev->kind = idx;
	adev = &madev->adev;
	adev->name = mlx5_shim_adev_devices[idx].suffix;
	adev->id = func->adev_idx;
	adev->dev.parent = func->device;
	adev->dev.release = mlx5_shim_adev_release;

	err = auxiliary_device_init(adev);
	if (err)
		goto err_free_madev;

	err = auxiliary_device_add(adev);
	if (err)
		goto err_uninit_adev;

	return madev;

err_uninit_adev:
	auxiliary_device_uninit(adev);	/* release frees madev */
	return ERR_PTR(err);
err_free_madev:
	kfree(madev);
	mlx5_shim_obj_put();
	return ERR_PTR(err);
}

static void mlx5_shim_del_adev(struct mlx5_shim_adev *madev)
{
	auxiliary_device_delete(&madev->adev);
	auxiliary_device_uninit(&madev->adev);
}

/*
 * Add what became supported and remove what stopped being supported (everything when
 * disable_all is set), removing in reverse table order, as
 * mlx5_rescan_drivers_locked() does.
 */
static int mlx5_shim_rescan_locked(struct mlx5_shim_func *func)
{
	struct mlx5_shim_adev *madev;
	int i, err = 0;

	lockdep_assert_held(&func->lock);
	if (func->detached)
		return 0;

	for (i = MLX5_SHIM_ADEV_NUM - 1; i >= 0; i--) {
		if (!func->adev[i])
			continue;
		if (!func->disable_all && mlx5_shim_adev_devices[i].is_supported(func))
			continue;
		mlx5_shim_del_adev(func->adev[i]);
		func->adev[i] = NULL;
	}
	if (func->disable_all)
		return 0;

	for (i = 0; i < MLX5_SHIM_ADEV_NUM; i++) {
		if (func->adev[i] || !mlx5_shim_adev_devices[i].is_supported(func))
			continue;
		madev = mlx5_shim_add_adev(func, i);
		if (IS_ERR(madev)) {
			err = PTR_ERR(madev);
			dev_warn(func->device, "adding %s failed: %d\n",
				 mlx5_shim_adev_devices[i].suffix, err);
			break;
		}
		func->adev[i] = madev;
	}
	return err;
}

static void mlx5_shim_disable_all_locked(struct mlx5_shim_func *func)
{
	func->disable_all = true;
	func->detached = false;
	mlx5_shim_rescan_locked(func);
}

static void mlx5_shim_snapshot(struct mlx5_shim_func *func, struct mlx5_shim_caps *caps)
{
	caps->caps = READ_ONCE(func->caps);
	caps->esw_mode = READ_ONCE(func->esw_mode);
	caps->link_up = READ_ONCE(func->link_up);
	ether_addr_copy(caps->mac, func->mac);
}

static void mlx5_shim_notify(struct mlx5_shim_func *func, enum mlx5_shim_event event)
{
	struct mlx5_shim_caps caps;

	mlx5_shim_snapshot(func, &caps);
	blocking_notifier_call_chain(&func->nh, event, &caps);
}

/* Call the bound driver's suspend(); true when the device is kept, suspended. */
static bool mlx5_shim_suspend_adev(struct mlx5_shim_adev *madev)
{
	const struct auxiliary_driver *adrv;
	int err;

	device_lock(&madev->adev.dev);
	adrv = madev->adev.dev.driver ? to_auxiliary_drv(madev->adev.dev.driver) : NULL;
	if (adrv && adrv->suspend) {
		err = adrv->suspend(&madev->adev, PMSG_SUSPEND);
		if (err)
			dev_warn(&madev->adev.dev, "suspend failed: %d\n", err);
		madev->suspended = true;
	}
	device_unlock(&madev->adev.dev);
	return madev->suspended;
}

/* Call the bound driver's resume(); on failure the device stays suspended. */
static int mlx5_shim_resume_adev(struct mlx5_shim_adev *madev)
{
	const struct auxiliary_driver *adrv;
	int err = 0;

	device_lock(&madev->adev.dev);
	adrv = madev->adev.dev.driver ? to_auxiliary_drv(madev->adev.dev.driver) : NULL;
	if (adrv && adrv->resume)
		err = adrv->resume(&madev->adev);
	if (!err)
		madev->suspended = false;
	device_unlock(&madev->adev.dev);
	return err;
}

/*
 * Detach, as mlx5_detach_device(): with @suspend, devices whose driver can suspend keep
 * existing and get suspend(); every other device is deleted. Attach undoes it.
 */
static void mlx5_shim_detach_locked(struct mlx5_shim_func *func, bool suspend)
{
	struct mlx5_shim_adev *madev;
	int i;

	lockdep_assert_held(&func->lock);
	for (i = MLX5_SHIM_ADEV_NUM - 1; i >= 0; i--) {
		madev = func->adev[i];
		if (!madev)
			continue;
		if (suspend && mlx5_shim_adev_devices[i].is_supported(func) &&
		    mlx5_shim_suspend_adev(madev))
			continue;
		mlx5_shim_del_adev(madev);
		func->adev[i] = NULL;
	}
	func->detached = true;
}

/*
 * Attach, as mlx5_attach_device(): add the supported devices that are missing and resume
 * the suspended ones, in table order. All or nothing: when a device fails, the ones this
 * attach added are deleted and the ones it resumed are suspended again, in reverse order,
 * so the function is left detached as it was and a later attach retries.
 */
static int mlx5_shim_attach_locked(struct mlx5_shim_func *func)
{
	struct mlx5_shim_adev *madev;
	unsigned long added = 0;
	u32 fail_at, n = 0;
	int i, err = 0;

	lockdep_assert_held(&func->lock);
	fail_at = func->fail_attach;
	WRITE_ONCE(func->fail_attach, 0);
	for (i = 0; i < MLX5_SHIM_ADEV_NUM; i++) {
		madev = func->adev[i];
		if (madev && !madev->suspended)
			continue;
		if (!madev && !mlx5_shim_adev_devices[i].is_supported(func))
			continue;
		if (++n == fail_at) {
			err = -EIO;
			break;
		}
		if (madev) {
			err = mlx5_shim_resume_adev(madev);
			if (err)
				break;
			continue;
		}
		madev = mlx5_shim_add_adev(func, i);
		if (IS_ERR(madev)) {
			err = PTR_ERR(madev);
			break;
		}
		func->adev[i] = madev;
		__set_bit(i, &added);
	}
	if (err)
		goto err_detach;
	func->detached = false;
	return 0;

err_detach:
	dev_err(func->device, "attach: %s failed: %d\n", mlx5_shim_adev_devices[i].suffix, err);
	while (--i >= 0) {
		madev = func->adev[i];
		if (!madev)
			continue;
		if (__test_and_clear_bit(i, &added)) {
			mlx5_shim_del_adev(madev);
			func->adev[i] = NULL;
		} else if (!madev->suspended && !mlx5_shim_suspend_adev(madev)) {
			/* resumed, but its driver can no longer suspend: delete it */
			mlx5_shim_del_adev(madev);
			func->adev[i] = NULL;
		}
	}
	return err;
}

static void mlx5_shim_func_init(struct mlx5_shim_func *func, struct device *device, u64 guid,
				u32 adapter, u32 port, u32 caps)
{
	func->device = device;
	func->guid = guid;
	func->adapter = adapter;
	func->port = port;
	func->caps = caps;
	func->esw_mode = MLX5_SHIM_ESW_LEGACY;
	func->link_up = true;
	func->disable_all = true;	/* until bound */
	spin_lock_init(&func->ep_lock);
	BLOCKING_INIT_NOTIFIER_HEAD(&func->nh);
}

/* ---- services for clients (namespace MLX5_SHIM) ---------------------------------- */

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

struct mlx5_shim_lag_match {
	u64 guid;
	u32 port;
};

#ifdef MLX5_SHIM_LAG_BY_BUS
/*
 * Lifetime: the bus walk holds a reference on each device it tests and
 * auxiliary_find_device() returns its match with one, but a device's reference on its
 * parent ends in device_del(), not at its release: a concurrent del_device can free the
 * port (and its adapter) while we still hold one of its auxiliary devices. So neither
 * the match nor the result touches dev->parent. The device's own name tells it is ours
 * (mlx5_shim_core.<kind>.<id>; only this module gives such names), and its identity
 * fields, which live as long as the device, tell the port and give the port's name.
 */
static int mlx5_shim_lag_match(struct device *dev, const void *data)
{
	const struct mlx5_shim_lag_match *m = data;
	struct mlx5_shim_adev *madev;

	if (strncmp(dev_name(dev), KBUILD_MODNAME ".", strlen(KBUILD_MODNAME ".")))
		return 0;
	madev = to_mlx5_shim_adev(to_auxiliary_dev(dev));
	return !madev->is_sf && madev->guid == m->guid && madev->port != m->port;
}

static int mlx5_shim_lag_lookup(const struct mlx5_shim_lag_match *m, char *buf, size_t size)
{
	struct auxiliary_device *peer;
	struct mlx5_shim_adev *madev;

	peer = auxiliary_find_device(NULL, m, mlx5_shim_lag_match);
	if (!peer)
		return -ENODEV;
	madev = to_mlx5_shim_adev(peer);
	snprintf(buf, size, MLX5_SHIM_PORT_NAME, madev->adapter, madev->port);
	put_device(&peer->dev);
	return 0;
}
#else
/*
 * Lifetime: an adapter on the list is alive (the list holds a reference) and
 * mlx5_shim_adapter_del() takes it off under mlx5_shim_registry_lock before it
 * unregisters the ports, so the ports and their names are valid while the lock is held.
 */
static int mlx5_shim_lag_lookup(const struct mlx5_shim_lag_match *m, char *buf, size_t size)
{
	struct mlx5_shim_adapter *adapter;
	int err = -ENODEV;
	unsigned int i;

	spin_lock(&mlx5_shim_registry_lock);
	list_for_each_entry(adapter, &mlx5_shim_adapters, list) {
		if (adapter->guid != m->guid)
			continue;
		for (i = 0; i < adapter->num_ports && err; i++) {
			if (i == m->port || !adapter->ports[i].bound)
				continue;
			strscpy(buf, dev_name(&adapter->ports[i].dev), size);
			err = 0;
		}
	}
	spin_unlock(&mlx5_shim_registry_lock);
	return err;
}
#endif

/**
 * mlx5_shim_lag_peer() - find the LAG peer: another port with the same system image GUID
 * @madev: a port-level device of mlx5_shim_core
 * @buf: receives the peer port's device name
 * @size: size of @buf
 *
 * Uses auxiliary_find_device() where the bus has it (MLX5_SHIM_LAG_BY_BUS), the core's
 * registry of adapters otherwise.
 *
 * Return: 0 when found, -ENODEV when not, -EINVAL for sub-functions.
 */
int mlx5_shim_lag_peer(struct mlx5_shim_adev *madev, char *buf, size_t size)
{
	struct mlx5_shim_lag_match m = { .guid = madev->guid, .port = madev->port };

	if (madev->is_sf)
		return -EINVAL;
	return mlx5_shim_lag_lookup(&m, buf, size);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_lag_peer, "MLX5_SHIM");

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
	eth_random_addr(func->mac);

	err = ida_alloc(&mlx5_shim_adev_ida, GFP_KERNEL);
	if (err < 0)
		goto err_free_func;
	func->adev_idx = err;

	mutex_lock(&func->lock);
	func->disable_all = false;
	err = mlx5_shim_rescan_locked(func);
	if (err)
		mlx5_shim_disable_all_locked(func);
	mutex_unlock(&func->lock);
	if (err)
		goto err_free_idx;
	return func;

err_free_idx:
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
	ida_free(&mlx5_shim_adev_ida, func->adev_idx);
	mutex_destroy(&func->lock);
	kfree(func);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_sf_unload, "MLX5_SHIM");

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

/* ---- reporting clients (mlx5_shim_rdma, mlx5_shim_vdpa) ---------------------- */

/**
 * mlx5_shim_client_event() - port event notifier of a reporting client
 * @nb: &mlx5_shim_client.nb
 * @event: an enum mlx5_shim_event, not needed: the snapshot tells all
 * @data: the function's state after the event, a const struct mlx5_shim_caps
 *
 * Counts the event and records the link state and eswitch mode it brings.
 *
 * Return: NOTIFY_OK.
 */
static int mlx5_shim_client_event(struct notifier_block *nb, unsigned long event,
				  void *data)
{
	struct mlx5_shim_client *client = container_of(nb, struct mlx5_shim_client, nb);
	const struct mlx5_shim_caps *caps = data;

	atomic_inc(&client->events);
	WRITE_ONCE(client->link_up, caps->link_up);
	WRITE_ONCE(client->esw_mode, caps->esw_mode);
	return NOTIFY_OK;
}

/**
 * mlx5_shim_client_probe() - &auxiliary_driver.probe of a reporting client
 * @adev: the auxiliary device, a struct mlx5_shim_adev
 * @id: the matching entry of the client's id table
 *
 * Allocates the client's state, takes the function's current link state and eswitch
 * mode, sets the state as drvdata and registers for port events.
 *
 * Return: 0, or a negative errno with nothing left allocated or registered.
 */
int mlx5_shim_client_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct mlx5_shim_adev *madev = to_mlx5_shim_adev(adev);
	struct mlx5_shim_client *client;
	struct mlx5_shim_caps caps;
	int err;

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return -ENOMEM;
	client->madev = madev;
	mlx5_shim_query_caps(madev, &caps);
	client->link_up = caps.link_up;
	client->esw_mode = caps.esw_mode;
	auxiliary_set_drvdata(adev, client);

	client->nb.notifier_call = mlx5_shim_client_event;
	err = mlx5_shim_register_notifier(madev, &client->nb);
	if (err)
		goto err_free_client;
	return 0;

err_free_client:
	kfree(client);
	return err;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_probe, "MLX5_SHIM");
ALLOW_ERROR_INJECTION(mlx5_shim_client_probe, ERRNO);

/**
 * mlx5_shim_client_remove() - &auxiliary_driver.remove of a reporting client
 * @adev: the auxiliary device
 *
 * Unregisters the port event notifier and frees what mlx5_shim_client_probe() allocated.
 */
void mlx5_shim_client_remove(struct auxiliary_device *adev)
{
	struct mlx5_shim_client *client = auxiliary_get_drvdata(adev);

	mlx5_shim_unregister_notifier(client->madev, &client->nb);
	kfree(client);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_remove, "MLX5_SHIM");

/**
 * mlx5_shim_client_probe_subsys() - probe of a reporting client with a subsystem device
 * @adev: the auxiliary device, a struct mlx5_shim_adev
 * @id: the matching entry of the client's id table
 * @add: registers the client's device with its subsystem (ib_core, vdpa) and keeps its
 *	 state in &mlx5_shim_client.priv; returns 0 or a negative errno with nothing left
 *	 registered
 *
 * mlx5_shim_client_probe(), then @add.
 *
 * Return: 0, or a negative errno with nothing left allocated or registered.
 */
int mlx5_shim_client_probe_subsys(struct auxiliary_device *adev,
				  const struct auxiliary_device_id *id,
				  int (*add)(struct mlx5_shim_client *client))
{
	int err;

	err = mlx5_shim_client_probe(adev, id);
	if (err)
		return err;
	err = add(auxiliary_get_drvdata(adev));
	if (err)
		goto err_client_remove;
	return 0;

err_client_remove:
	mlx5_shim_client_remove(adev);
	return err;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_probe_subsys, "MLX5_SHIM");

/**
 * mlx5_shim_client_remove_subsys() - remove of a reporting client with a subsystem device
 * @adev: the auxiliary device
 * @remove: unregisters and frees what the probe's @add made
 *
 * @remove, then mlx5_shim_client_remove().
 */
void mlx5_shim_client_remove_subsys(struct auxiliary_device *adev,
				    void (*remove)(struct mlx5_shim_client *client))
{
	remove(auxiliary_get_drvdata(adev));
	mlx5_shim_client_remove(adev);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_remove_subsys, "MLX5_SHIM");

/**
 * mlx5_shim_client_suspend() - &auxiliary_driver.suspend of a reporting client
 * @adev: the auxiliary device
 * @state: the PM transition, not needed
 *
 * Marks the client suspended and counts the call.
 *
 * Return: 0.
 */
int mlx5_shim_client_suspend(struct auxiliary_device *adev, pm_message_t state)
{
	struct mlx5_shim_client *client = auxiliary_get_drvdata(adev);

	WRITE_ONCE(client->suspended, true);
	atomic_inc(&client->suspends);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_suspend, "MLX5_SHIM");

/**
 * mlx5_shim_client_resume() - &auxiliary_driver.resume of a reporting client
 * @adev: the auxiliary device
 *
 * Marks the client running again and counts the call.
 *
 * Return: 0.
 */
int mlx5_shim_client_resume(struct auxiliary_device *adev)
{
	struct mlx5_shim_client *client = auxiliary_get_drvdata(adev);

	WRITE_ONCE(client->suspended, false);
	atomic_inc(&client->resumes);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_resume, "MLX5_SHIM");

/**
 * mlx5_shim_client_port_show() - show the port index of a reporting client's device
 * @dev: the bound auxiliary device
 * @attr: the attribute, not needed
 * @buf: the sysfs page
 *
 * Return: the length of "<port>\n".
 */
ssize_t mlx5_shim_client_port_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_mlx5_shim_client(dev)->madev->port);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_port_show, "MLX5_SHIM");

/**
 * mlx5_shim_client_guid_show() - show the system image GUID of a reporting client's device
 * @dev: the bound auxiliary device
 * @attr: the attribute, not needed
 * @buf: the sysfs page
 *
 * Return: the length of the GUID as 16 hex digits and a newline.
 */
ssize_t mlx5_shim_client_guid_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%016llx\n", dev_to_mlx5_shim_client(dev)->madev->guid);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_guid_show, "MLX5_SHIM");

/**
 * mlx5_shim_client_events_show() - show how many port events a reporting client saw
 * @dev: the bound auxiliary device
 * @attr: the attribute, not needed
 * @buf: the sysfs page
 *
 * Return: the length of "<events>\n".
 */
ssize_t mlx5_shim_client_events_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&dev_to_mlx5_shim_client(dev)->events));
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_events_show, "MLX5_SHIM");

/**
 * mlx5_shim_client_pm_show() - show a reporting client's suspend() and resume() counts
 * @dev: the bound auxiliary device
 * @attr: the attribute, not needed
 * @buf: the sysfs page
 *
 * Return: the length of "suspends <n> resumes <n>\n".
 */
ssize_t mlx5_shim_client_pm_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_client *client = dev_to_mlx5_shim_client(dev);

	return sysfs_emit(buf, "suspends %d resumes %d\n", atomic_read(&client->suspends),
			  atomic_read(&client->resumes));
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_pm_show, "MLX5_SHIM");

/**
 * mlx5_shim_client_state_show() - show a reporting client's state
 * @dev: the bound auxiliary device
 * @attr: &mlx5_shim_client_state_attr.attr, which names the client's words
 * @buf: the sysfs page
 *
 * Return: the length of "suspended\n", or of the client's word for the link state.
 */
ssize_t mlx5_shim_client_state_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	const struct mlx5_shim_client_state_attr *sattr =
		container_of(attr, struct mlx5_shim_client_state_attr, attr);
	struct mlx5_shim_client *client = dev_to_mlx5_shim_client(dev);

	if (READ_ONCE(client->suspended))
		return sysfs_emit(buf, "suspended\n");
	return sysfs_emit(buf, "%s\n", READ_ONCE(client->link_up) ? sattr->up : sattr->down);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_client_state_show, "MLX5_SHIM");

/* ---- sub-function devices ----------------------------------------------------- */

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
	kfree(madev);
	mlx5_shim_obj_put();
}

static int mlx5_shim_sf_add(struct mlx5_shim_port *port, u32 sfnum)
{
	struct mlx5_shim_adev *madev;
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

	madev = kzalloc(sizeof(*madev), GFP_KERNEL);
	if (!madev) {
		err = -ENOMEM;
		goto err_unlock;
	}
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
	err = auxiliary_device_add(&madev->adev);
	if (err)
		goto err_erase_sf;
	port->num_sfs++;
	mutex_unlock(&port->sf_lock);
	return 0;

err_erase_sf:
	xa_erase(&port->sfs, sfnum);
err_uninit_adev:
	auxiliary_device_uninit(&madev->adev);
	mutex_unlock(&port->sf_lock);
	return err;
err_free_id:
	ida_free(&mlx5_shim_adev_ida, madev->adev.id);
err_free_madev:
	kfree(madev);
	mlx5_shim_obj_put();
err_unlock:
	mutex_unlock(&port->sf_lock);
	return err;
}

static void mlx5_shim_sf_del_locked(struct mlx5_shim_port *port, struct mlx5_shim_adev *madev)
{
	lockdep_assert_held(&port->sf_lock);
	xa_erase(&port->sfs, madev->sfnum);
	port->num_sfs--;
	mlx5_shim_del_adev(madev);
}

static int mlx5_shim_sf_del(struct mlx5_shim_port *port, u32 sfnum)
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

static void mlx5_shim_sf_del_all(struct mlx5_shim_port *port)
{
	struct mlx5_shim_adev *madev;
	unsigned long sfnum;

	mutex_lock(&port->sf_lock);
	mlx5_shim_sf_dellink_all(port);
	xa_for_each(&port->sfs, sfnum, madev)
		mlx5_shim_sf_del_locked(port, madev);
	mutex_unlock(&port->sf_lock);
}

/* ---- control files ------------------------------------------------------------- */

/*
 * One command per write: the whole command at offset 0, at most MLX5_SHIM_CMD_MAX
 * bytes, copied with a NUL terminator, no NUL inside; -EINVAL and nothing changed
 * otherwise. A second write on the same open file is at an offset and is rejected.
 */
static ssize_t mlx5_shim_ctrl_write(struct file *file, const char __user *ubuf, size_t count,
				    loff_t *ppos, int (*store)(void *data, char *cmd))
{
	char *buf;
	int err;

	if (*ppos != 0 || !count || count > MLX5_SHIM_CMD_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (strlen(buf) != count)
		err = -EINVAL;
	else
		err = store(file->private_data, strim(buf));
	kfree(buf);
	if (err)
		return err;
	*ppos += count;
	return count;
}

#define MLX5_SHIM_CTRL_WO(name)							\
static ssize_t name##_write(struct file *file, const char __user *ubuf,		\
			    size_t count, loff_t *ppos)				\
{										\
	return mlx5_shim_ctrl_write(file, ubuf, count, ppos, name##_store);	\
}										\
static const struct file_operations name##_fops = {				\
	.owner = THIS_MODULE,							\
	.open = simple_open,							\
	.write = name##_write,							\
	.llseek = default_llseek,						\
}

#define MLX5_SHIM_CTRL_RW(name)							\
static ssize_t name##_write(struct file *file, const char __user *ubuf,		\
			    size_t count, loff_t *ppos)				\
{										\
	return mlx5_shim_ctrl_write(file, ubuf, count, ppos, name##_store);	\
}										\
static ssize_t name##_read(struct file *file, char __user *ubuf,		\
			   size_t count, loff_t *ppos)				\
{										\
	char buf[64];								\
	int len;								\
										\
	len = name##_show(file->private_data, buf, sizeof(buf));		\
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);		\
}										\
static const struct file_operations name##_fops = {				\
	.owner = THIS_MODULE,							\
	.open = simple_open,							\
	.read = name##_read,							\
	.write = name##_write,							\
	.llseek = default_llseek,						\
}

static const char * const mlx5_shim_cap_names[] = { "eth", "rdma", "vnet" };

/* "eth,rdma,vnet" or "none"; every name known and given once */
static int mlx5_shim_parse_caps(char *s, u32 *caps)
{
	char *name;
	u32 bit;
	int i;

	*caps = 0;
	if (!strcmp(s, "none"))
		return 0;
	while ((name = strsep(&s, ","))) {
		i = match_string(mlx5_shim_cap_names, ARRAY_SIZE(mlx5_shim_cap_names), name);
		if (i < 0)
			return -EINVAL;
		bit = BIT(i);
		if (*caps & bit)
			return -EINVAL;
		*caps |= bit;
	}
	return 0;
}

static int mlx5_shim_format_caps(u32 caps, char *buf, size_t size)
{
	int i, len = 0;

	for (i = 0; i < ARRAY_SIZE(mlx5_shim_cap_names); i++)
		if (caps & BIT(i))
			len += scnprintf(buf + len, size - len, "%s%s", len ? "," : "",
					 mlx5_shim_cap_names[i]);
	if (!len)
		len = scnprintf(buf, size, "none");
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}

/* Apply a change of caps or mode with a rescan; on failure, restore and rescan back. */
static int mlx5_shim_change_locked(struct mlx5_shim_func *func, u32 caps,
				   enum mlx5_shim_esw_mode mode, enum mlx5_shim_event event)
{
	u32 old_caps = func->caps;
	enum mlx5_shim_esw_mode old_mode = func->esw_mode;
	int err;

	WRITE_ONCE(func->caps, caps);
	WRITE_ONCE(func->esw_mode, mode);
	err = mlx5_shim_rescan_locked(func);
	if (err) {
		WRITE_ONCE(func->caps, old_caps);
		WRITE_ONCE(func->esw_mode, old_mode);
		mlx5_shim_rescan_locked(func);
		return err;
	}
	mlx5_shim_notify(func, event);
	return 0;
}

static int caps_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	struct mlx5_shim_func *func = &port->func;
	u32 caps;
	int err;

	err = mlx5_shim_parse_caps(cmd, &caps);
	if (err)
		return err;
	mutex_lock(&func->lock);
	if (func->detached)
		err = -EBUSY;
	else if (caps != func->caps)
		err = mlx5_shim_change_locked(func, caps, func->esw_mode,
					      MLX5_SHIM_EVENT_CAPS_CHANGE);
	mutex_unlock(&func->lock);
	return err;
}

static int caps_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;

	return mlx5_shim_format_caps(READ_ONCE(port->func.caps), buf, size);
}

MLX5_SHIM_CTRL_RW(caps);

static const char * const mlx5_shim_mode_names[] = {
	[MLX5_SHIM_ESW_LEGACY] = "legacy",
	[MLX5_SHIM_ESW_SWITCHDEV] = "switchdev",
};

static int esw_mode_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	struct mlx5_shim_func *func = &port->func;
	int mode, err;

	mode = match_string(mlx5_shim_mode_names, ARRAY_SIZE(mlx5_shim_mode_names), cmd);
	if (mode < 0)
		return -EINVAL;
	mutex_lock(&func->lock);
	if (func->detached)
		err = -EBUSY;
	else if (mode == func->esw_mode)
		err = -EALREADY;
	else
		err = mlx5_shim_change_locked(func, func->caps, mode, MLX5_SHIM_EVENT_MODE_CHANGE);
	mutex_unlock(&func->lock);
	return err;
}

static int esw_mode_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;

	return scnprintf(buf, size, "%s\n", mlx5_shim_mode_names[READ_ONCE(port->func.esw_mode)]);
}

MLX5_SHIM_CTRL_RW(esw_mode);

static int link_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	struct mlx5_shim_func *func = &port->func;
	bool up;

	if (!strcmp(cmd, "up"))
		up = true;
	else if (!strcmp(cmd, "down"))
		up = false;
	else
		return -EINVAL;
	mutex_lock(&func->lock);
	if (up != func->link_up) {
		WRITE_ONCE(func->link_up, up);
		mlx5_shim_notify(func, up ? MLX5_SHIM_EVENT_LINK_UP : MLX5_SHIM_EVENT_LINK_DOWN);
	}
	mutex_unlock(&func->lock);
	return 0;
}

static int link_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;

	return scnprintf(buf, size, "%s\n", READ_ONCE(port->func.link_up) ? "up" : "down");
}

MLX5_SHIM_CTRL_RW(link);

/* "suspend"/"detach" detach the port's devices (with/without suspend), "attach" undoes */
static int pm_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	struct mlx5_shim_func *func = &port->func;
	bool attach;
	int err = 0;

	if (!strcmp(cmd, "attach"))
		attach = true;
	else if (!strcmp(cmd, "suspend") || !strcmp(cmd, "detach"))
		attach = false;
	else
		return -EINVAL;
	mutex_lock(&func->lock);
	if (attach != func->detached)
		err = -EALREADY;
	else if (attach)
		err = mlx5_shim_attach_locked(func);
	else
		mlx5_shim_detach_locked(func, !strcmp(cmd, "suspend"));
	mutex_unlock(&func->lock);
	return err;
}

static int pm_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;
	bool detached = READ_ONCE(port->func.detached);

	return scnprintf(buf, size, "%s\n", detached ? "detached" : "attached");
}

MLX5_SHIM_CTRL_RW(pm);

/*
 * Test knob: "N" makes the next attach fail with -EIO at the Nth device it would add or
 * resume (1 is the first), after attaching the ones before it; "0" disarms it.
 */
static int fail_attach_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	u32 n;

	if (kstrtou32(cmd, 10, &n) || n > MLX5_SHIM_ADEV_NUM)
		return -EINVAL;
	mutex_lock(&port->func.lock);
	WRITE_ONCE(port->func.fail_attach, n);
	mutex_unlock(&port->func.lock);
	return 0;
}

static int fail_attach_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;

	return scnprintf(buf, size, "%u\n", READ_ONCE(port->func.fail_attach));
}

MLX5_SHIM_CTRL_RW(fail_attach);

static int mlx5_shim_parse_sfnum(const char *cmd, u32 *sfnum)
{
	if (kstrtou32(cmd, 10, sfnum) || *sfnum > MLX5_SHIM_MAX_SFNUM)
		return -EINVAL;
	return 0;
}

static int sf_add_store(void *data, char *cmd)
{
	u32 sfnum;
	int err;

	err = mlx5_shim_parse_sfnum(cmd, &sfnum);
	if (err)
		return err;
	return mlx5_shim_sf_add(data, sfnum);
}

MLX5_SHIM_CTRL_WO(sf_add);

static int sf_del_store(void *data, char *cmd)
{
	u32 sfnum;
	int err;

	err = mlx5_shim_parse_sfnum(cmd, &sfnum);
	if (err)
		return err;
	return mlx5_shim_sf_del(data, sfnum);
}

MLX5_SHIM_CTRL_WO(sf_del);

static int sfs_show(struct seq_file *s, void *unused)
{
	struct mlx5_shim_port *port = s->private;
	struct mlx5_shim_adev *madev;
	unsigned long sfnum;

	mutex_lock(&port->sf_lock);
	xa_for_each(&port->sfs, sfnum, madev)
		seq_printf(s, "%lu %s\n", sfnum, dev_name(&madev->adev.dev));
	mutex_unlock(&port->sf_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sfs);

static int sf_teardown_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "batches %d\nnetdevs %d\n", atomic_read(&mlx5_shim_sf_batches),
		   atomic_read(&mlx5_shim_sf_batched_netdevs));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sf_teardown);

static int lag_show(struct seq_file *s, void *unused)
{
	struct mlx5_shim_port *port = s->private;
	struct mlx5_shim_lag_match m = { .guid = port->func.guid, .port = port->func.port };
	char name[64];

	if (mlx5_shim_lag_lookup(&m, name, sizeof(name)))
		seq_puts(s, "none\n");
	else
		seq_printf(s, "%s\n", name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lag);

static void mlx5_shim_port_debugfs_init(struct mlx5_shim_port *port)
{
	struct dentry *d;

	d = debugfs_create_dir(dev_name(&port->dev), mlx5_shim_ddir);
	debugfs_create_file("caps", 0600, d, port, &caps_fops);
	debugfs_create_file("esw_mode", 0600, d, port, &esw_mode_fops);
	debugfs_create_file("link", 0600, d, port, &link_fops);
	debugfs_create_file("pm", 0600, d, port, &pm_fops);
	debugfs_create_file("fail_attach", 0600, d, port, &fail_attach_fops);
	debugfs_create_file("sf_add", 0200, d, port, &sf_add_fops);
	debugfs_create_file("sf_del", 0200, d, port, &sf_del_fops);
	debugfs_create_file("sfs", 0400, d, port, &sfs_fops);
	debugfs_create_file("lag", 0400, d, port, &lag_fops);
	port->ddir = d;
}

/* ---- ports: the mlx5_shim bus and the mlx5_shim_core driver -------------------- */

static ssize_t sys_image_guid_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%016llx\n", to_mlx5_shim_port(dev)->func.guid);
}
static DEVICE_ATTR_RO(sys_image_guid);

static ssize_t port_index_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_mlx5_shim_port(dev)->func.port);
}
static DEVICE_ATTR_RO(port_index);

static ssize_t adapter_id_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_mlx5_shim_port(dev)->func.adapter);
}
static DEVICE_ATTR_RO(adapter_id);

static struct attribute *mlx5_shim_port_attrs[] = {
	&dev_attr_sys_image_guid.attr,
	&dev_attr_port_index.attr,
	&dev_attr_adapter_id.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_port);

static void mlx5_shim_adapter_free(struct kref *ref)
{
	struct mlx5_shim_adapter *adapter = container_of(ref, struct mlx5_shim_adapter, ref);
	unsigned int i;

	for (i = 0; i < adapter->num_ports; i++) {
		WARN_ON(!list_empty(&adapter->ports[i].dellinks));
		mutex_destroy(&adapter->ports[i].dellink_lock);
		xa_destroy(&adapter->ports[i].sfs);
		mutex_destroy(&adapter->ports[i].sf_lock);
		mutex_destroy(&adapter->ports[i].func.lock);
		if (adapter->ports[i].func.adev_idx >= 0)
			ida_free(&mlx5_shim_adev_ida, adapter->ports[i].func.adev_idx);
	}
	kfree(adapter);
	mlx5_shim_obj_put();
}

static void mlx5_shim_port_release(struct device *dev)
{
	kref_put(&to_mlx5_shim_port(dev)->adapter->ref, mlx5_shim_adapter_free);
}

static const struct device_type mlx5_shim_port_type = {
	.groups = mlx5_shim_port_groups,
	.release = mlx5_shim_port_release,
};

/* defined with its control files, below */
static struct bus_type mlx5_shim_bus;

/*
 * devlink: one instance per function (port), named mlx5_shim/<port> after its bus and
 * device, as mlx5's devlink.c gives one to every PCI function. `devlink dev eswitch set
 * ... mode switchdev|legacy` changes the eswitch mode as the debugfs knob esw_mode does.
 */
#if IS_ENABLED(CONFIG_NET_DEVLINK)
/*
 * devlink_alloc() takes the device and devlink_register() no longer does since
 * 919d13a7e455 ("devlink: Set device as early as possible"), v5.15; devlink_register()
 * returns void since db4278c55fa5 ("devlink: Make devlink_register to be void"), v5.16.
 */
#ifdef AUXBUS_HAVE_DEVLINK_ALLOC_NODEV
#define mlx5_shim_devlink_alloc(ops, size, dev)	devlink_alloc(ops, size)
#define mlx5_shim_devlink_register(dl, dev)	devlink_register(dl, dev)
#elif defined(AUXBUS_HAVE_DEVLINK_REGISTER_INT)
#define mlx5_shim_devlink_alloc(ops, size, dev)	devlink_alloc(ops, size, dev)
#define mlx5_shim_devlink_register(dl, dev)	devlink_register(dl)
#else
#define mlx5_shim_devlink_alloc(ops, size, dev)	devlink_alloc(ops, size, dev)
#define mlx5_shim_devlink_register(dl, dev)	({ devlink_register(dl); 0; })
#endif

static struct mlx5_shim_port *mlx5_shim_devlink_port(struct devlink *devlink)
{
	return *(struct mlx5_shim_port **)devlink_priv(devlink);
}

static int mlx5_shim_devlink_eswitch_mode_get(struct devlink *devlink, u16 *mode)
{
	struct mlx5_shim_port *port = mlx5_shim_devlink_port(devlink);

	*mode = READ_ONCE(port->func.esw_mode) == MLX5_SHIM_ESW_SWITCHDEV ?
		DEVLINK_ESWITCH_MODE_SWITCHDEV : DEVLINK_ESWITCH_MODE_LEGACY;
	return 0;
}

/* As mlx5_devlink_eswitch_mode_set(): the current mode again is no error. */
static int mlx5_shim_devlink_eswitch_mode_set(struct devlink *devlink, u16 mode,
					      struct netlink_ext_ack *extack)
{
	struct mlx5_shim_port *port = mlx5_shim_devlink_port(devlink);
	struct mlx5_shim_func *func = &port->func;
	enum mlx5_shim_esw_mode esw_mode;
	int err = 0;

	switch (mode) {
	case DEVLINK_ESWITCH_MODE_LEGACY:
		esw_mode = MLX5_SHIM_ESW_LEGACY;
		break;
	case DEVLINK_ESWITCH_MODE_SWITCHDEV:
		esw_mode = MLX5_SHIM_ESW_SWITCHDEV;
		break;
	default:
		NL_SET_ERR_MSG_MOD(extack, "Unsupported eswitch mode");
		return -EOPNOTSUPP;
	}
	mutex_lock(&func->lock);
	if (func->detached) {
		NL_SET_ERR_MSG_MOD(extack, "The function is detached");
		err = -EBUSY;
	} else if (esw_mode != func->esw_mode) {
		err = mlx5_shim_change_locked(func, func->caps, esw_mode,
					      MLX5_SHIM_EVENT_MODE_CHANGE);
		if (err)
			NL_SET_ERR_MSG_MOD(extack, "Rescan for the new mode failed");
	}
	mutex_unlock(&func->lock);
	return err;
}

static const struct devlink_ops mlx5_shim_devlink_ops = {
	.eswitch_mode_get = mlx5_shim_devlink_eswitch_mode_get,
	.eswitch_mode_set = mlx5_shim_devlink_eswitch_mode_set,
};

static int mlx5_shim_devlink_add(struct mlx5_shim_port *port)
{
	struct devlink *devlink;
	int err;

	devlink = mlx5_shim_devlink_alloc(&mlx5_shim_devlink_ops, sizeof(port), &port->dev);
	if (!devlink)
		return -ENOMEM;
	*(struct mlx5_shim_port **)devlink_priv(devlink) = port;
	err = mlx5_shim_devlink_register(devlink, &port->dev);
	if (err) {
		devlink_free(devlink);
		return err;
	}
	port->devlink = devlink;
	return 0;
}

static void mlx5_shim_devlink_del(struct mlx5_shim_port *port)
{
	devlink_unregister(port->devlink);
	devlink_free(port->devlink);
	port->devlink = NULL;
}

#define MLX5_SHIM_DEVLINK	"yes"
#else
static int mlx5_shim_devlink_add(struct mlx5_shim_port *port)
{
	return 0;
}

static void mlx5_shim_devlink_del(struct mlx5_shim_port *port)
{
}

#define MLX5_SHIM_DEVLINK	"no: the kernel has no CONFIG_NET_DEVLINK"
#endif

static int mlx5_shim_port_probe(struct device *dev)
{
	struct mlx5_shim_port *port = to_mlx5_shim_port(dev);
	struct mlx5_shim_func *func = &port->func;
	int err;

	mutex_lock(&func->lock);
	func->disable_all = false;
	func->detached = false;
	err = mlx5_shim_rescan_locked(func);
	if (err)
		mlx5_shim_disable_all_locked(func);
	mutex_unlock(&func->lock);
	if (!err) {
		/* last: it makes the function visible to devlink's users */
		err = mlx5_shim_devlink_add(port);
		if (err) {
			dev_err(dev, "devlink registration failed: %d\n", err);
			mutex_lock(&func->lock);
			mlx5_shim_disable_all_locked(func);
			mutex_unlock(&func->lock);
		}
	}
	port->probe_err = err;
	if (err)
		return err;

	spin_lock(&mlx5_shim_registry_lock);
	port->bound = true;
	spin_unlock(&mlx5_shim_registry_lock);
	mlx5_shim_port_debugfs_init(port);
	return 0;
}

static int mlx5_shim_port_remove(struct device *dev)
{
	struct mlx5_shim_port *port = to_mlx5_shim_port(dev);
	struct mlx5_shim_func *func = &port->func;

	/* first: waits for devlink commands in flight, then none come */
	mlx5_shim_devlink_del(port);
	/* waits for control-file writers in flight */
	debugfs_remove_recursive(port->ddir);
	port->ddir = NULL;
	spin_lock(&mlx5_shim_registry_lock);
	port->bound = false;
	spin_unlock(&mlx5_shim_registry_lock);

	mlx5_shim_sf_del_all(port);
	mutex_lock(&func->lock);
	mlx5_shim_disable_all_locked(func);
	mutex_unlock(&func->lock);
	return 0;
}

/*
 * System sleep: detach with suspend and attach, as mlx5's PCI suspend/resume do. Resume
 * attaches only what suspend detached: a port the user detached through its pm control
 * file stays detached until the user attaches it.
 */
static int __maybe_unused mlx5_shim_port_suspend(struct device *dev)
{
	struct mlx5_shim_port *port = to_mlx5_shim_port(dev);
	struct mlx5_shim_func *func = &port->func;

	mutex_lock(&func->lock);
	if (!func->detached) {
		mlx5_shim_detach_locked(func, true);
		port->sleep_detached = true;
	}
	mutex_unlock(&func->lock);
	return 0;
}

static int __maybe_unused mlx5_shim_port_resume(struct device *dev)
{
	struct mlx5_shim_port *port = to_mlx5_shim_port(dev);
	struct mlx5_shim_func *func = &port->func;
	int err = 0;

	mutex_lock(&func->lock);
	if (port->sleep_detached) {
		/* on failure the port stays detached; its pm file can retry */
		err = mlx5_shim_attach_locked(func);
		port->sleep_detached = false;
	}
	mutex_unlock(&func->lock);
	return err;
}

static SIMPLE_DEV_PM_OPS(mlx5_shim_port_pm_ops, mlx5_shim_port_suspend, mlx5_shim_port_resume);

static struct device_driver mlx5_shim_driver = {
	.name = KBUILD_MODNAME,
	.bus = &mlx5_shim_bus,
	.owner = THIS_MODULE,
	.probe = mlx5_shim_port_probe,
	.remove = mlx5_shim_port_remove,
	.pm = &mlx5_shim_port_pm_ops,
};

/* ---- adapters ------------------------------------------------------------------- */

static struct mlx5_shim_adapter *mlx5_shim_adapter_find(u32 id)
{
	struct mlx5_shim_adapter *adapter;

	lockdep_assert_held(&mlx5_shim_adapters_lock);
	list_for_each_entry(adapter, &mlx5_shim_adapters, list)
		if (adapter->id == id)
			return adapter;
	return NULL;
}

static void mlx5_shim_adapter_del(struct mlx5_shim_adapter *adapter)
{
	int i;

	lockdep_assert_held(&mlx5_shim_adapters_lock);
	spin_lock(&mlx5_shim_registry_lock);
	list_del(&adapter->list);
	spin_unlock(&mlx5_shim_registry_lock);
	for (i = adapter->num_ports - 1; i >= 0; i--)
		device_unregister(&adapter->ports[i].dev);
	kref_put(&adapter->ref, mlx5_shim_adapter_free);
}

static int mlx5_shim_adapter_new(u32 id, unsigned int num_ports, u32 caps)
{
	struct mlx5_shim_adapter *adapter;
	struct mlx5_shim_port *port;
	unsigned int i, added = 0;
	int err;

	adapter = kzalloc(struct_size(adapter, ports, num_ports), GFP_KERNEL);
	if (!adapter)
		return -ENOMEM;
	kref_init(&adapter->ref);
	mlx5_shim_obj_get();	/* put by mlx5_shim_adapter_free() */
	adapter->id = id;
	adapter->guid = MLX5_SHIM_GUID_BASE | id;
	adapter->num_ports = num_ports;

	for (i = 0; i < num_ports; i++) {
		port = &adapter->ports[i];
		port->adapter = adapter;
		mutex_init(&port->func.lock);
		mutex_init(&port->sf_lock);
		xa_init(&port->sfs);
		mutex_init(&port->dellink_lock);
		INIT_LIST_HEAD(&port->dellinks);
		mlx5_shim_func_init(&port->func, &port->dev, adapter->guid, id, i, caps);
		port->func.pf = port;
		port->func.mac[0] = 0x02;
		port->func.mac[1] = 0x5e;
		port->func.mac[2] = id >> 8;
		port->func.mac[3] = id & 0xff;
		port->func.mac[4] = i;
		if ((i ^ 1) < num_ports)
			port->func.peer = &adapter->ports[i ^ 1].func;
		port->func.adev_idx = -1;
		device_initialize(&port->dev);
		kref_get(&adapter->ref);	/* put by mlx5_shim_port_release() */
		port->dev.bus = &mlx5_shim_bus;
		port->dev.type = &mlx5_shim_port_type;
	}
	for (i = 0; i < num_ports; i++) {
		port = &adapter->ports[i];
		err = ida_alloc(&mlx5_shim_adev_ida, GFP_KERNEL);
		if (err < 0)
			goto err_put_ports;
		port->func.adev_idx = err;
		err = dev_set_name(&port->dev, MLX5_SHIM_PORT_NAME, id, i);
		if (err)
			goto err_put_ports;
	}

	mutex_lock(&mlx5_shim_adapters_lock);
	if (!mlx5_shim_bus_enable) {
		err = -ENODEV;
		goto err_unlock;
	}
	if (mlx5_shim_adapter_find(id)) {
		err = -EEXIST;
		goto err_unlock;
	}
	spin_lock(&mlx5_shim_registry_lock);
	list_add_tail(&adapter->list, &mlx5_shim_adapters);
	spin_unlock(&mlx5_shim_registry_lock);

	for (added = 0; added < num_ports; added++) {
		port = &adapter->ports[added];
		err = device_add(&port->dev);
		if (err)
			goto err_del_ports;
		if (port->probe_err || !port->dev.driver) {
			err = port->probe_err ? port->probe_err : -ENODEV;
			added++;
			goto err_del_ports;
		}
	}
	mutex_unlock(&mlx5_shim_adapters_lock);
	return 0;

err_del_ports:
	spin_lock(&mlx5_shim_registry_lock);
	list_del(&adapter->list);
	spin_unlock(&mlx5_shim_registry_lock);
	while (added--)
		device_del(&adapter->ports[added].dev);
err_unlock:
	mutex_unlock(&mlx5_shim_adapters_lock);
err_put_ports:
	for (i = 0; i < num_ports; i++)
		put_device(&adapter->ports[i].dev);
	kref_put(&adapter->ref, mlx5_shim_adapter_free);
	return err;
}

/* "ID [ports=N] [caps=eth,rdma,vnet|none]" */
static int mlx5_shim_new_device(char *cmd)
{
	unsigned int num_ports = 2;
	bool have_ports = false, have_caps = false;
	u32 caps = MLX5_SHIM_CAP_ALL;
	char *tok, *val;
	u32 id;
	int err;

	tok = strsep(&cmd, " \t");
	if (!tok || kstrtou32(tok, 10, &id) || id > MLX5_SHIM_MAX_ADAPTER_ID)
		return -EINVAL;
	while ((tok = strsep(&cmd, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "ports") && !have_ports) {
			have_ports = true;
			if (kstrtouint(val, 10, &num_ports) || !num_ports ||
			    num_ports > MLX5_SHIM_MAX_PORTS)
				return -EINVAL;
		} else if (!strcmp(tok, "caps") && !have_caps) {
			have_caps = true;
			err = mlx5_shim_parse_caps(val, &caps);
			if (err)
				return err;
		} else {
			return -EINVAL;
		}
	}
	return mlx5_shim_adapter_new(id, num_ports, caps);
}

/* "ID" */
static int mlx5_shim_del_device(char *cmd)
{
	struct mlx5_shim_adapter *adapter = NULL;
	u32 id;
	int err = -ENOENT;

	if (kstrtou32(cmd, 10, &id) || id > MLX5_SHIM_MAX_ADAPTER_ID)
		return -EINVAL;
	mutex_lock(&mlx5_shim_adapters_lock);
	if (!mlx5_shim_bus_enable)
		err = -ENODEV;
	else
		adapter = mlx5_shim_adapter_find(id);
	if (adapter) {
		mlx5_shim_adapter_del(adapter);
		err = 0;
	}
	mutex_unlock(&mlx5_shim_adapters_lock);
	return err;
}

/*
 * The bus's control files take one command per write, as the debugfs ones: at most
 * MLX5_SHIM_CMD_MAX bytes, no NUL inside, surrounding white space ignored.
 */
static ssize_t mlx5_shim_bus_ctrl(const char *buf, size_t count, int (*cmd_fn)(char *cmd))
{
	char *cmd;
	int err;

	if (!count || count > MLX5_SHIM_CMD_MAX || strnlen(buf, count) != count)
		return -EINVAL;
	cmd = kstrndup(buf, count, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	err = cmd_fn(strim(cmd));
	kfree(cmd);
	return err ? err : count;
}

static ssize_t new_device_store(auxbus_const_bus_attr struct bus_type *bus, const char *buf,
				size_t count)
{
	return mlx5_shim_bus_ctrl(buf, count, mlx5_shim_new_device);
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(auxbus_const_bus_attr struct bus_type *bus, const char *buf,
				size_t count)
{
	return mlx5_shim_bus_ctrl(buf, count, mlx5_shim_del_device);
}
static BUS_ATTR_WO(del_device);

static struct attribute *mlx5_shim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_bus);

static struct bus_type mlx5_shim_bus = {
	.name = "mlx5_shim",
	.bus_groups = mlx5_shim_bus_groups,
};

static int __init mlx5_shim_core_init(void)
{
	int err;

	err = bus_register(&mlx5_shim_bus);
	if (err)
		return err;
	err = driver_register(&mlx5_shim_driver);
	if (err)
		goto err_unregister_bus;

	mlx5_shim_ddir = debugfs_create_dir("mlx5_shim", NULL);
	debugfs_create_file("sf_teardown", 0400, mlx5_shim_ddir, NULL, &sf_teardown_fops);
	mutex_lock(&mlx5_shim_adapters_lock);
	mlx5_shim_bus_enable = true;
	mutex_unlock(&mlx5_shim_adapters_lock);
	return 0;

err_unregister_bus:
	auxbus_bus_unregister_sync(&mlx5_shim_bus);
	return err;
}

static void __exit mlx5_shim_core_exit(void)
{
	struct mlx5_shim_adapter *adapter, *tmp;

	/*
	 * No new adapters: a command in flight holds the lock or finds the bus disabled (the
	 * control files themselves go with the bus, after the adapters, as netdevsim's).
	 * Each port's remove() removes its own debugfs directory.
	 */
	mutex_lock(&mlx5_shim_adapters_lock);
	mlx5_shim_bus_enable = false;
	list_for_each_entry_safe_reverse(adapter, tmp, &mlx5_shim_adapters, list)
		mlx5_shim_adapter_del(adapter);
	mutex_unlock(&mlx5_shim_adapters_lock);
	debugfs_remove_recursive(mlx5_shim_ddir);

	driver_unregister(&mlx5_shim_driver);
	auxbus_bus_unregister_sync(&mlx5_shim_bus);
	/* releases still pending run this module's code */
	if (!refcount_dec_and_test(&mlx5_shim_objs))
		wait_for_completion(&mlx5_shim_objs_released);
	ida_destroy(&mlx5_shim_adev_ida);
}

module_init(mlx5_shim_core_init);
module_exit(mlx5_shim_core_exit);

MODULE_DESCRIPTION("mlx5 shim: simulated adapter, parent of auxiliary devices");
MODULE_INFO(devlink, MLX5_SHIM_DEVLINK);
MODULE_LICENSE("GPL");
