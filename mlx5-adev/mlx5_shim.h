/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mlx5 shim: the services mlx5_shim_core offers to its auxiliary clients.
 *
 * mlx5_shim_core simulates an mlx5-style adapter: every port is a "PCI function" (a
 * struct device on the mlx5_shim bus, bound to the mlx5_shim_core driver) that exposes
 * auxiliary devices mlx5_shim_core.<kind>.<id> for the kinds its simulated firmware
 * supports (eth, eth-rep, rdma, rdma-rep, vnet) and sub-functions (sf). Clients bind
 * those devices and use the exports below, namespace "MLX5_SHIM".
 */
#ifndef _MLX5_SHIM_H
#define _MLX5_SHIM_H

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/skbuff.h>
#include <linux/sysfs.h>
#include <linux/types.h>

/*
 * LAG peer lookup walks the auxiliary bus with auxiliary_find_device() where the bus
 * has it (the bundled bus; kernels before its removal); elsewhere the core's own
 * registry of adapters answers.
 */
#if defined(AUXBUS_BACKEND_BUNDLED) || defined(AUXBUS_HAVE_KERNEL_AUX_FIND_DEVICE)
#define MLX5_SHIM_LAG_BY_BUS 1
#endif

/*
 * Auxiliary device kinds, in the order a rescan adds them (it removes in reverse).
 * The index is also the slot in the core's mlx5_shim_adev_devices[] table.
 */
enum mlx5_shim_adev_kind {
	MLX5_SHIM_ADEV_ETH,
	MLX5_SHIM_ADEV_ETH_REP,
	MLX5_SHIM_ADEV_RDMA,
	MLX5_SHIM_ADEV_RDMA_REP,
	MLX5_SHIM_ADEV_VNET,
	MLX5_SHIM_ADEV_NUM,
	/* sub-function devices are not in the rescan table */
	MLX5_SHIM_ADEV_SF = MLX5_SHIM_ADEV_NUM,
};

/* simulated firmware capabilities */
#define MLX5_SHIM_CAP_ETH	BIT(0)
#define MLX5_SHIM_CAP_RDMA	BIT(1)
#define MLX5_SHIM_CAP_VNET	BIT(2)
#define MLX5_SHIM_CAP_ALL	(MLX5_SHIM_CAP_ETH | MLX5_SHIM_CAP_RDMA | MLX5_SHIM_CAP_VNET)

enum mlx5_shim_esw_mode {
	MLX5_SHIM_ESW_LEGACY,
	MLX5_SHIM_ESW_SWITCHDEV,
};

/* port events, delivered through mlx5_shim_register_notifier() */
enum mlx5_shim_event {
	MLX5_SHIM_EVENT_LINK_UP,
	MLX5_SHIM_EVENT_LINK_DOWN,
	MLX5_SHIM_EVENT_MODE_CHANGE,
	MLX5_SHIM_EVENT_CAPS_CHANGE,
};

struct mlx5_shim_func;

/**
 * struct mlx5_shim_adev - an auxiliary device of mlx5_shim_core
 * @adev: the auxiliary device; mlx5_shim_core.<kind>.<id>
 * @func: the function (port or sub-function) it belongs to; core private
 * @kind: which entry of enum mlx5_shim_adev_kind
 * @guid: system image GUID, shared by the ports of one adapter
 * @adapter: adapter id given to new_device
 * @port: port index on the adapter
 * @sfnum: SF number for sub-functions and the devices of a sub-function
 * @is_sf: the device is a sub-function or belongs to one
 * @lag: an rdma device of port 0 that stands for the LAG of all the adapter's ports
 *	 (bonded in one bond, as mlx5's RoCE LAG); its client registers one RDMA device
 *	 for them
 * @suspended: the core suspended its driver on detach; core private
 *
 * The identity fields never change during the device's life, so clients may read them
 * without locks.
 */
struct mlx5_shim_adev {
	struct auxiliary_device adev;
	struct mlx5_shim_func *func;
	enum mlx5_shim_adev_kind kind;
	u64 guid;
	u32 adapter;
	u32 port;
	u32 sfnum;
	bool is_sf;
	bool lag;
	bool suspended;
};

static inline struct mlx5_shim_adev *to_mlx5_shim_adev(struct auxiliary_device *adev)
{
	return container_of(adev, struct mlx5_shim_adev, adev);
}

/**
 * struct mlx5_shim_caps - a snapshot of a function's state
 * @caps: MLX5_SHIM_CAP_* bits
 * @esw_mode: eswitch mode
 * @link_up: the port's link is up
 * @mac: the function's permanent MAC address
 */
struct mlx5_shim_caps {
	u32 caps;
	enum mlx5_shim_esw_mode esw_mode;
	bool link_up;
	u8 mac[ETH_ALEN];
};

/*
 * receive hook of a wire endpoint; called in softirq context under rcu_read_lock().
 * skb->dev is the sending netdev, or NULL when the sender has none (a vdpa device).
 */
typedef void (*mlx5_shim_rx_t)(void *ctx, struct sk_buff *skb);

void mlx5_shim_query_caps(struct mlx5_shim_adev *madev, struct mlx5_shim_caps *caps);
int mlx5_shim_register_notifier(struct mlx5_shim_adev *madev, struct notifier_block *nb);
void mlx5_shim_unregister_notifier(struct mlx5_shim_adev *madev, struct notifier_block *nb);
int mlx5_shim_wire_attach(struct mlx5_shim_adev *madev, mlx5_shim_rx_t rx, void *ctx);
void mlx5_shim_wire_detach(struct mlx5_shim_adev *madev);
int mlx5_shim_wire_xmit(struct mlx5_shim_adev *madev, struct sk_buff *skb);
int mlx5_shim_lag_peer(struct mlx5_shim_adev *madev, char *buf, size_t size);
struct net_device *mlx5_shim_lag_get_roce_netdev(struct mlx5_shim_adev *madev);
struct mlx5_shim_func *mlx5_shim_sf_load(struct mlx5_shim_adev *sf);
void mlx5_shim_sf_unload(struct mlx5_shim_func *func);

/* an eswitch vport: an active SF of a port in switchdev mode; eswitch.c */
struct mlx5_shim_vport;

/**
 * struct mlx5_shim_rep_ops - a representor driver's callbacks, as mlx5's
 *			      &struct mlx5_eswitch_rep_ops
 * @load: give @vport a representor; return the driver's state for it or an ERR_PTR()
 * @unload: remove the representor @load made; @priv is what it returned
 * @link: the vport's other end (the SF's own netdev) attached to the wire (@up) or left it
 *
 * Called in process context, serialized by the core; they may take RTNL.
 */
struct mlx5_shim_rep_ops {
	void *(*load)(struct mlx5_shim_vport *vport, void *ctx);
	void (*unload)(struct mlx5_shim_vport *vport, void *priv);
	void (*link)(struct mlx5_shim_vport *vport, void *priv, bool up);
};

int mlx5_shim_eswitch_register_vport_reps(struct mlx5_shim_adev *madev,
					  const struct mlx5_shim_rep_ops *ops, void *ctx);
void mlx5_shim_eswitch_unregister_vport_reps(struct mlx5_shim_adev *madev);
u32 mlx5_shim_vport_sfnum(const struct mlx5_shim_vport *vport);
bool mlx5_shim_vport_peer_attached(struct mlx5_shim_vport *vport);
int mlx5_shim_vport_wire_attach(struct mlx5_shim_vport *vport, mlx5_shim_rx_t rx, void *ctx);
void mlx5_shim_vport_wire_detach(struct mlx5_shim_vport *vport);
int mlx5_shim_vport_wire_xmit(struct mlx5_shim_vport *vport, struct sk_buff *skb);

/**
 * struct mlx5_shim_dellink - a client's netdevs, for the core's batched teardown of SFs
 * @dellink: queue the client's netdevs on @head with unregister_netdevice_queue(), as
 *	     &rtnl_link_ops.dellink does for a dying network namespace, and touch them no
 *	     more but to free them in remove(). Called under RTNL, at most once, only while
 *	     registered; it must not take a device lock.
 * @madev: core private: the device given to mlx5_shim_register_dellink()
 * @node: core private: on the port's list
 *
 * When many sub-functions go at once (their port goes: del_device, unbind, module
 * unload), the core calls @dellink of every registered client below those SFs under one
 * rtnl_lock(), unregisters what they queued with one unregister_netdevice_many() (its
 * RCU grace periods are paid once, not once per netdev) and only then deletes the
 * devices, whose remove() finds the netdevs unregistered and frees them. Anywhere else
 * (one SF deleted, a client unbound or unloaded) remove() unregisters them itself.
 */
struct mlx5_shim_dellink {
	void (*dellink)(struct mlx5_shim_dellink *dl, struct list_head *head);
	struct mlx5_shim_adev *madev;
	struct list_head node;
};

void mlx5_shim_register_dellink(struct mlx5_shim_adev *madev, struct mlx5_shim_dellink *dl);
void mlx5_shim_unregister_dellink(struct mlx5_shim_dellink *dl);

#endif /* _MLX5_SHIM_H */
