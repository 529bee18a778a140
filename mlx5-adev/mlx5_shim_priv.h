/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mlx5_shim_core's private header: what the objects of the module share.
 *
 * The module is split as mainline's drivers/net/ethernet/mellanox/mlx5/core/ is:
 * main.c (module init/exit, the port driver), dev.c (device kinds, rescan, attach/detach),
 * events.c, eswitch.c, lag.c, sf/dev.c and sf/driver.c (sub-functions), bus.c (the
 * mlx5_shim bus and its adapters, as netdevsim's bus.c), devlink.c, wire.c and debugfs.c.
 */
#ifndef _MLX5_SHIM_PRIV_H
#define _MLX5_SHIM_PRIV_H

#include <linux/device.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/workqueue.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <net/devlink.h>

#include "mlx5_shim.h"

struct dentry;

#define MLX5_SHIM_MAX_ADAPTER_ID	65535
#define MLX5_SHIM_MAX_PORTS		4
#define MLX5_SHIM_MAX_SFS		1024	/* per port */
#define MLX5_SHIM_MAX_SFNUM		65535
#define MLX5_SHIM_CMD_MAX		128	/* longest accepted control-file write */
#define MLX5_SHIM_GUID_BASE		0x02c9030000000000ULL
#define MLX5_SHIM_PORT_NAME		"mlx5_shim%up%u"	/* adapter id, port index */

struct mlx5_shim_wire_ep {
	mlx5_shim_rx_t rx;
	void *ctx;
	bool eth;			/* a port's Ethernet netdev (mlx5_shim_wire_set_caps()) */
	struct rcu_head rcu;		/* mlx5_shim_vport_sf_unplug() frees it with kfree_rcu() */
};

struct mlx5_shim_port;

/*
 * An eswitch vport: one per SF device of a port (it lives and dies with it), the SF end and
 * the representor end of the SF's wire. @loaded, @enabled, @priv and @sf_func are under the
 * port function's @rep_lock; @ep_lock guards the writers of the two endpoints.
 */
struct mlx5_shim_vport {
	struct mlx5_shim_port *port;
	u32 sfnum;
	bool enabled;			/* the SF is active */
	bool loaded;			/* its representor exists */
	bool unplugged;			/* the SF is going: no SF end attaches any more */
	void *priv;			/* the representor driver's, from load */
	struct mlx5_shim_func *sf_func;	/* the SF's function, while its driver has one */
	spinlock_t ep_lock;		/* writers of @sf_ep and @rep_ep */
	struct mlx5_shim_wire_ep __rcu *sf_ep;
	struct mlx5_shim_wire_ep __rcu *rep_ep;
};

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
	bool lag_disable_ib;		/* lag.c: no rdma device (LAG moves it to port 0) */
	bool lag_roce;			/* lag.c: its rdma device is the LAG's */
	u32 fail_attach;		/* test knob: the next attach fails at this device */
	struct mlx5_shim_port *pf;	/* the port it is, or whose SF it is */
	u64 guid;
	u32 adapter;
	u32 port;
	u32 sfnum;
	bool is_sf;
	u8 mac[ETH_ALEN];
	struct mlx5_shim_func *peer;	/* other end of the wire */
	struct mlx5_shim_vport *vport;	/* an SF's: the other end of its wire is a representor */
	struct mutex rep_lock;		/* a port's: the representor driver and its vports */
	const struct mlx5_shim_rep_ops *rep_ops;
	void *rep_ctx;
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
	struct xarray sf_ports;		/* devlink port index -> SF port; sf/devlink.c */
	unsigned int num_sf_ports;	/* written under the devlink instance lock */
	bool bound;			/* under mlx5_shim_registry_lock */
	bool sleep_detached;		/* under func.lock: system suspend detached it */
	struct net_device *lag_ndev;	/* lag.c, under RTNL: its eth netdev, or NULL */
	enum netdev_lag_tx_type lag_tx_type;	/* lag.c, under RTNL: its bond's, when enslaved */
	bool lag_tx_enabled;		/* lag.c, under RTNL: its bond transmits on it */
	int probe_err;
};

/*
 * lag.c: the LAG of an adapter's ports, as mlx5's struct mlx5_lag. The netdevice notifier
 * (under RTNL) decides whether the ports are bonded, all in legacy mode, and queues @work,
 * which activates or deactivates the LAG under mlx5_shim_lag_lock and the functions' locks,
 * out of RTNL. An eswitch mode change ends the LAG first and decides again after it.
 */
struct mlx5_shim_lag {
	struct work_struct work;	/* set up while port 0 is bound */
	bool want;			/* written under RTNL: every port in one bond */
	bool registered;		/* under RTNL: port 0 bound, @work may be queued */
	bool active;			/* written under mlx5_shim_lag_lock */
	unsigned int mode_changes;	/* under mlx5_shim_lag_lock: ports changing eswitch mode */
};

struct mlx5_shim_adapter {
	struct list_head list;
	struct mlx5_shim_lag lag;
	struct kref ref;		/* one for the list, one per port device */
	u32 id;
	u64 guid;
	unsigned int num_ports;
	struct mlx5_shim_port ports[];
};

/* an SF device and its vport, which share a life */
struct mlx5_shim_sf_dev {
	struct mlx5_shim_adev madev;
	struct mlx5_shim_vport vport;
};

static inline struct mlx5_shim_port *to_mlx5_shim_port(struct device *dev)
{
	return container_of(dev, struct mlx5_shim_port, dev);
}

struct mlx5_shim_lag_match {
	u64 guid;
	u32 port;
};

/* main.c */
void mlx5_shim_obj_get(void);
void mlx5_shim_obj_put(void);

/* dev.c */
extern struct ida mlx5_shim_adev_ida;
void mlx5_shim_fill_adev(struct mlx5_shim_adev *madev, struct mlx5_shim_func *func);
void mlx5_shim_del_adev(struct mlx5_shim_adev *madev);
int mlx5_shim_rescan_locked(struct mlx5_shim_func *func);
void mlx5_shim_disable_all_locked(struct mlx5_shim_func *func);
void mlx5_shim_detach_locked(struct mlx5_shim_func *func, bool suspend);
int mlx5_shim_attach_locked(struct mlx5_shim_func *func);
void mlx5_shim_func_init(struct mlx5_shim_func *func, struct device *device, u64 guid,
			 u32 adapter, u32 port, u32 caps);
int mlx5_shim_change_locked(struct mlx5_shim_func *func, u32 caps,
			    enum mlx5_shim_esw_mode mode, enum mlx5_shim_event event);
int mlx5_shim_parse_caps(char *s, u32 *caps);
int mlx5_shim_format_caps(u32 caps, char *buf, size_t size);

/* events.c */
void mlx5_shim_notify(struct mlx5_shim_func *func, enum mlx5_shim_event event);

/* eswitch.c */
int mlx5_shim_eswitch_parse_mode(const char *name);
const char *mlx5_shim_eswitch_mode_name(enum mlx5_shim_esw_mode mode);
int mlx5_shim_eswitch_mode_set_locked(struct mlx5_shim_func *func,
				      enum mlx5_shim_esw_mode mode);
void mlx5_shim_eswitch_vport_init(struct mlx5_shim_vport *vport, struct mlx5_shim_port *port,
				  u32 sfnum);
void mlx5_shim_eswitch_vport_enable(struct mlx5_shim_vport *vport);
void mlx5_shim_eswitch_vport_disable(struct mlx5_shim_vport *vport);
void mlx5_shim_eswitch_vport_set_sf(struct mlx5_shim_vport *vport, struct mlx5_shim_func *func);
int mlx5_shim_vport_sf_attach(struct mlx5_shim_vport *vport, mlx5_shim_rx_t rx, void *ctx);
void mlx5_shim_vport_sf_detach(struct mlx5_shim_vport *vport);
void mlx5_shim_vport_sf_unplug(struct mlx5_shim_vport *vport);
int mlx5_shim_vport_sf_xmit(struct mlx5_shim_vport *vport, struct sk_buff *skb);

/* lag.c */
int mlx5_shim_lag_lookup(const struct mlx5_shim_lag_match *m, char *buf, size_t size);
int mlx5_shim_lag_init(void);
void mlx5_shim_lag_exit(void);
void mlx5_shim_lag_port_add(struct mlx5_shim_port *port);
void mlx5_shim_lag_port_remove(struct mlx5_shim_port *port);
bool mlx5_shim_lag_is_active(struct mlx5_shim_port *port);
void mlx5_shim_lag_disable_change(struct mlx5_shim_port *port);
void mlx5_shim_lag_enable_change(struct mlx5_shim_port *port);

/* sf/dev.c */
extern atomic_t mlx5_shim_sf_batches;
extern atomic_t mlx5_shim_sf_batched_netdevs;
int mlx5_shim_sf_add(struct mlx5_shim_port *port, u32 sfnum);
int mlx5_shim_sf_del(struct mlx5_shim_port *port, u32 sfnum);
void mlx5_shim_sf_del_all(struct mlx5_shim_port *port);

/* bus.c */
extern struct bus_type mlx5_shim_bus;
extern spinlock_t mlx5_shim_registry_lock;
extern struct list_head mlx5_shim_adapters;
void mlx5_shim_adapters_enable(void);
void mlx5_shim_adapters_del_all(void);

/* devlink.c */
int mlx5_shim_devlink_add(struct mlx5_shim_port *port);
void mlx5_shim_devlink_del(struct mlx5_shim_port *port);
#if IS_ENABLED(CONFIG_NET_DEVLINK)
/* the port (function) of a devlink instance: its priv is a pointer to the port */
static inline struct mlx5_shim_port *mlx5_shim_devlink_port(struct devlink *devlink)
{
	return *(struct mlx5_shim_port **)devlink_priv(devlink);
}
#endif

/*
 * sf/devlink.c: SF ports, where devlink has port_new and the instance-locked port API (see
 * include/auxbus/Kbuild.include); not on 5.10, nor without CONFIG_NET_DEVLINK.
 */
#if IS_ENABLED(CONFIG_NET_DEVLINK) && defined(AUXBUS_HAVE_DEVLINK_PORT_NEW) && \
	defined(AUXBUS_HAVE_DEVL_PORT_REGISTER)
#define MLX5_SHIM_HAVE_SF_PORTS 1

#ifdef AUXBUS_HAVE_DEVLINK_PORT_OPS
int mlx5_shim_devlink_sf_port_new(struct devlink *devlink,
				  const struct devlink_port_new_attrs *attrs,
				  struct netlink_ext_ack *extack,
				  struct devlink_port **dl_port);
#else
int mlx5_shim_devlink_sf_port_new(struct devlink *devlink,
				  const struct devlink_port_new_attrs *attrs,
				  struct netlink_ext_ack *extack,
				  unsigned int *new_port_index);
int mlx5_shim_devlink_sf_port_del(struct devlink *devlink, unsigned int port_index,
				  struct netlink_ext_ack *extack);
#endif
int mlx5_shim_devlink_sf_port_fn_state_get(struct devlink_port *dl_port,
					   enum devlink_port_fn_state *state,
					   enum devlink_port_fn_opstate *opstate,
					   struct netlink_ext_ack *extack);
int mlx5_shim_devlink_sf_port_fn_state_set(struct devlink_port *dl_port,
					   enum devlink_port_fn_state state,
					   struct netlink_ext_ack *extack);
void mlx5_shim_devlink_sf_ports_del_all(struct mlx5_shim_port *port);
bool mlx5_shim_devlink_sf_port_exists(struct mlx5_shim_port *port, u32 sfnum);
#endif

/* The port's SF ports, counted under the devlink instance lock that guards them */
static inline unsigned int mlx5_shim_num_sf_ports(struct mlx5_shim_port *port)
{
#ifdef MLX5_SHIM_HAVE_SF_PORTS
	devl_assert_locked(port->devlink);
	return port->num_sf_ports;
#else
	return 0;	/* none without devlink's port_new */
#endif
}

/* wire.c */
int mlx5_shim_wire_ep_attach(spinlock_t *lock, struct mlx5_shim_wire_ep __rcu **slot,
			     mlx5_shim_rx_t rx, void *ctx);
struct mlx5_shim_wire_ep *mlx5_shim_wire_ep_take(spinlock_t *lock,
						 struct mlx5_shim_wire_ep __rcu **slot);
void mlx5_shim_wire_ep_detach(spinlock_t *lock, struct mlx5_shim_wire_ep __rcu **slot);
int mlx5_shim_wire_ep_deliver(struct mlx5_shim_wire_ep __rcu **slot, struct sk_buff *skb);
int mlx5_shim_wire_set_caps(struct mlx5_shim_func *func, u32 caps);

/* debugfs.c */
void mlx5_shim_debugfs_init(void);
void mlx5_shim_debugfs_exit(void);
void mlx5_shim_port_debugfs_init(struct mlx5_shim_port *port);
void mlx5_shim_port_debugfs_exit(struct mlx5_shim_port *port);

#endif /* _MLX5_SHIM_PRIV_H */
