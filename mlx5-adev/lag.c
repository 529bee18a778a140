// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's lag/lag.c: LAG peers are the ports with the same system image
 * GUID (namespace MLX5_SHIM), and RoCE LAG: when every port of an adapter in legacy mode is
 * a slave of one bond (active-backup, or a hash mode: 802.3ad, balance-xor), and the bond
 * holds nothing else, the ports' rdma devices go and port 0 gets one rdma device for them
 * all (its client registers mlx5_shim_bond_<n>, as mlx5_ib does mlx5_bond_<n>); when the
 * bond loses a port or goes, the LAG is deactivated and every port gets its own back.
 *
 * The LAG's RoCE port stands on the active slave's netdev in active-backup and on port 0's
 * in the hash modes (mlx5_shim_lag_get_roce_netdev(), as mlx5_lag_get_roce_netdev()).
 *
 * As mlx5_lag_netdev_event(), a netdevice notifier (under RTNL) tracks the ports' netdevs,
 * their bonds and which of them the bond transmits on, and queues the work that acts, as
 * mlx5_queue_bond_work(): activation removes and adds auxiliary devices under the
 * functions' locks, and adding a device takes RTNL in its client (register_netdev,
 * ib_core), so it cannot run in the notifier. The order is mlx5_shim_lag_lock, then a
 * function's lock, then RTNL.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "mlx5_shim_priv.h"

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

int mlx5_shim_lag_lookup(const struct mlx5_shim_lag_match *m, char *buf, size_t size)
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
int mlx5_shim_lag_lookup(const struct mlx5_shim_lag_match *m, char *buf, size_t size)
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

/* ---- RoCE LAG ------------------------------------------------------------------- */

/* activation and deactivation of every adapter's LAG; taken before a function's lock */
static DEFINE_MUTEX(mlx5_shim_lag_lock);

/*
 * The port whose Ethernet netdev @ndev is, or NULL: the netdev's parent is the eth device
 * of a port, whose parent is on the mlx5_shim bus (a port's only children are its
 * auxiliary devices; an SF's netdev sits one level lower, below the SF device). Under
 * RTNL: while the netdev is registered, its auxiliary device and port exist.
 */
static struct mlx5_shim_port *mlx5_shim_lag_port_of(struct net_device *ndev)
{
	struct device *parent = ndev->dev.parent;

	if (!parent || !parent->parent || parent->parent->bus != &mlx5_shim_bus)
		return NULL;
	if (to_mlx5_shim_adev(to_auxiliary_dev(parent))->kind != MLX5_SHIM_ADEV_ETH)
		return NULL;
	return to_mlx5_shim_port(parent->parent);
}

/* as mlx5_handle_changeupper(): active-backup, or a hash mode (802.3ad, balance-xor) */
static bool mlx5_shim_lag_tx_type_ok(enum netdev_lag_tx_type tx_type)
{
	return tx_type == NETDEV_LAG_TX_TYPE_ACTIVEBACKUP || tx_type == NETDEV_LAG_TX_TYPE_HASH;
}

/* Under RTNL: is every port of @adapter, and nothing else, a slave of one bond? */
static bool mlx5_shim_lag_bonded(struct mlx5_shim_adapter *adapter)
{
	struct net_device *upper = NULL, *u, *lower;
	struct mlx5_shim_port *port;
	struct list_head *iter;
	unsigned int i, n = 0;

	if (adapter->num_ports < 2)
		return false;
	for (i = 0; i < adapter->num_ports; i++) {
		port = &adapter->ports[i];
		if (!port->lag_ndev || !mlx5_shim_lag_tx_type_ok(port->lag_tx_type))
			return false;
		/* RoCE LAG is a legacy-mode LAG, as mlx5_lag_is_roce_lag() */
		if (READ_ONCE(port->func.esw_mode) != MLX5_SHIM_ESW_LEGACY)
			return false;
		u = netdev_master_upper_dev_get(port->lag_ndev);
		if (!u || !netif_is_lag_master(u) || (upper && u != upper))
			return false;
		upper = u;
	}
	netdev_for_each_lower_dev(upper, lower, iter)
		n++;
	return n == adapter->num_ports;
}

/* Under RTNL: follow a change of the adapter's ports or their bond. */
static void mlx5_shim_lag_update(struct mlx5_shim_adapter *adapter)
{
	struct mlx5_shim_lag *lag = &adapter->lag;
	bool want = mlx5_shim_lag_bonded(adapter);

	if (want == lag->want)
		return;
	WRITE_ONCE(lag->want, want);
	if (lag->registered)
		schedule_work(&lag->work);
}

/* Under RTNL: a port joined bond @upper; say why that gives no LAG, if it does not. */
static void mlx5_shim_lag_explain(struct mlx5_shim_port *port, struct net_device *ndev,
				  struct net_device *upper)
{
	struct mlx5_shim_port *p;
	struct net_device *lower;
	struct list_head *iter;

	if (!mlx5_shim_lag_tx_type_ok(port->lag_tx_type)) {
		dev_info(&port->dev,
			 "%s in %s: no LAG: the bond's mode is not active-backup, 802.3ad or balance-xor\n",
			 netdev_name(ndev), netdev_name(upper));
		return;
	}
	netdev_for_each_lower_dev(upper, lower, iter) {
		p = mlx5_shim_lag_port_of(lower);
		if (p && p->adapter == port->adapter)
			continue;
		dev_info(&port->dev, "%s in %s: no LAG: the bond holds %s, not a port of this adapter\n",
			 netdev_name(ndev), netdev_name(upper), netdev_name(lower));
		return;
	}
	netdev_for_each_lower_dev(upper, lower, iter) {
		p = mlx5_shim_lag_port_of(lower);
		if (READ_ONCE(p->func.esw_mode) == MLX5_SHIM_ESW_LEGACY)
			continue;
		dev_info(&port->dev, "%s in %s: no LAG: %s is in switchdev mode, RoCE LAG is legacy only\n",
			 netdev_name(ndev), netdev_name(upper), netdev_name(lower));
		return;
	}
}

static int mlx5_shim_lag_netdev_event(struct notifier_block *nb, unsigned long event,
				      void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct netdev_notifier_changelowerstate_info *lower_info;
	struct netdev_lag_lower_state_info *lower_state;
	struct netdev_notifier_changeupper_info *info;
	struct netdev_lag_upper_info *upper_info;
	struct mlx5_shim_port *port, *p;
	struct net_device *lower;
	struct list_head *iter;

	port = mlx5_shim_lag_port_of(ndev);
	switch (event) {
	case NETDEV_REGISTER:
		if (port)
			port->lag_ndev = ndev;
		break;
	case NETDEV_UNREGISTER:
		if (port && port->lag_ndev == ndev) {
			port->lag_ndev = NULL;
			mlx5_shim_lag_update(port->adapter);
		}
		break;
	case NETDEV_CHANGEUPPER:
		info = ptr;
		if (!netif_is_lag_master(info->upper_dev))
			break;
		if (port) {
			if (info->linking) {
				upper_info = info->upper_info;
				port->lag_tx_type = upper_info ? upper_info->tx_type :
							NETDEV_LAG_TX_TYPE_UNKNOWN;
				mlx5_shim_lag_explain(port, ndev, info->upper_dev);
			} else {
				port->lag_tx_enabled = false;
			}
			mlx5_shim_lag_update(port->adapter);
		}
		/* any netdev joining or leaving a bond of ports changes their LAG */
		netdev_for_each_lower_dev(info->upper_dev, lower, iter) {
			p = mlx5_shim_lag_port_of(lower);
			if (p)
				mlx5_shim_lag_update(p->adapter);
		}
		break;
	case NETDEV_CHANGELOWERSTATE:
		/*
		 * as mlx5_handle_changelowerstate(): bonding says which slaves transmit, also
		 * while it enslaves one, before the upper link exists; unlinking clears it
		 */
		lower_info = ptr;
		lower_state = lower_info->lower_state_info;
		if (port && port->lag_ndev == ndev && lower_state)
			port->lag_tx_enabled = lower_state->tx_enabled;
		break;
	default:
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block mlx5_shim_lag_nb = {
	.notifier_call = mlx5_shim_lag_netdev_event,
};

/* set a port's rdma flags and rescan: its rdma device goes or comes */
static void mlx5_shim_lag_set_ib(struct mlx5_shim_port *port, bool disable_ib, bool roce)
{
	struct mlx5_shim_func *func = &port->func;

	mutex_lock(&func->lock);
	func->lag_disable_ib = disable_ib;
	func->lag_roce = roce;
	mlx5_shim_rescan_locked(func);	/* warns itself on failure */
	mutex_unlock(&func->lock);
}

static bool mlx5_shim_lag_ports_bound(struct mlx5_shim_adapter *adapter)
{
	bool bound = true;
	unsigned int i;

	spin_lock(&mlx5_shim_registry_lock);
	for (i = 0; i < adapter->num_ports; i++)
		bound &= adapter->ports[i].bound;
	spin_unlock(&mlx5_shim_registry_lock);
	return bound;
}

/*
 * As mlx5_do_bond() with RoCE LAG: mlx5_lag_remove_devices() (every port's IB device
 * goes), activate, then port 0's IB device comes back as the LAG's.
 */
static void mlx5_shim_lag_activate(struct mlx5_shim_adapter *adapter)
{
	unsigned int i;

	lockdep_assert_held(&mlx5_shim_lag_lock);
	for (i = 0; i < adapter->num_ports; i++)
		mlx5_shim_lag_set_ib(&adapter->ports[i], true, false);
	mlx5_shim_lag_set_ib(&adapter->ports[0], false, true);
	WRITE_ONCE(adapter->lag.active, true);
	dev_info(&adapter->ports[0].dev, "LAG active: one RDMA device for the %u bonded ports\n",
		 adapter->num_ports);
}

/* as mlx5_disable_lag(): the LAG's IB device goes, every port gets its own back */
static void mlx5_shim_lag_deactivate(struct mlx5_shim_adapter *adapter)
{
	unsigned int i;

	lockdep_assert_held(&mlx5_shim_lag_lock);
	mlx5_shim_lag_set_ib(&adapter->ports[0], true, false);
	for (i = 0; i < adapter->num_ports; i++)
		mlx5_shim_lag_set_ib(&adapter->ports[i], false, false);
	WRITE_ONCE(adapter->lag.active, false);
	dev_info(&adapter->ports[0].dev, "LAG inactive: one RDMA device per port\n");
}

static void mlx5_shim_lag_work(struct work_struct *work)
{
	struct mlx5_shim_adapter *adapter = container_of(work, struct mlx5_shim_adapter,
							 lag.work);
	bool want = READ_ONCE(adapter->lag.want);

	mutex_lock(&mlx5_shim_lag_lock);
	/* a port being removed (not bound), or changing mode, ends the LAG and gets none */
	if (want && !adapter->lag.active && !adapter->lag.mode_changes &&
	    mlx5_shim_lag_ports_bound(adapter))
		mlx5_shim_lag_activate(adapter);
	else if (!want && adapter->lag.active)
		mlx5_shim_lag_deactivate(adapter);
	mutex_unlock(&mlx5_shim_lag_lock);
}

/* probe of a port, once it is bound: port 0 lets the LAG work be queued */
void mlx5_shim_lag_port_add(struct mlx5_shim_port *port)
{
	struct mlx5_shim_lag *lag = &port->adapter->lag;

	if (port->func.port == 0)
		INIT_WORK(&lag->work, mlx5_shim_lag_work);
	rtnl_lock();
	if (port->func.port == 0)
		lag->registered = true;
	if (lag->registered && lag->want)
		schedule_work(&lag->work);
	rtnl_unlock();
}

/*
 * remove() of a port, once it is no longer bound (so the work activates nothing): the
 * LAG ends, as mlx5_lag_remove_mdev() ends it; port 0 stops and waits for the work.
 */
void mlx5_shim_lag_port_remove(struct mlx5_shim_port *port)
{
	struct mlx5_shim_adapter *adapter = port->adapter;

	if (port->func.port == 0) {
		rtnl_lock();
		adapter->lag.registered = false;
		rtnl_unlock();
		cancel_work_sync(&adapter->lag.work);
	}
	mutex_lock(&mlx5_shim_lag_lock);
	if (adapter->lag.active)
		mlx5_shim_lag_deactivate(adapter);
	mutex_unlock(&mlx5_shim_lag_lock);
}

/**
 * mlx5_shim_lag_get_roce_netdev() - the netdev the LAG's RoCE port stands on
 * @madev: the rdma device of a port, flagged as the LAG's (&mlx5_shim_adev.lag), bound
 *
 * As mlx5_lag_get_roce_netdev(): in active-backup the netdev of the port the bond
 * transmits on (its active slave), the last port's while it transmits on none; in the
 * hash modes port 0's.
 *
 * Context: under RTNL, which every change of the answer holds; the caller's client
 * hears them all in its own netdevice notifier, which runs after the core's.
 * Return: the netdev, without a reference (valid while RTNL is held), or NULL.
 */
struct net_device *mlx5_shim_lag_get_roce_netdev(struct mlx5_shim_adev *madev)
{
	struct mlx5_shim_adapter *adapter = madev->func->pf->adapter;
	struct net_device *ndev = NULL;
	unsigned int i;

	ASSERT_RTNL();
	if (madev->is_sf || !adapter->num_ports)
		return NULL;
	if (adapter->ports[0].lag_tx_type != NETDEV_LAG_TX_TYPE_ACTIVEBACKUP)
		return adapter->ports[0].lag_ndev;
	for (i = 0; i < adapter->num_ports; i++)
		if (adapter->ports[i].lag_tx_enabled)
			ndev = adapter->ports[i].lag_ndev;
	return ndev ?: adapter->ports[adapter->num_ports - 1].lag_ndev;
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_lag_get_roce_netdev, "MLX5_SHIM");

/*
 * An eswitch mode change of @port, as mlx5_lag_disable_change(): the LAG ends before it, and
 * none starts until mlx5_shim_lag_enable_change(). Not under the function's lock.
 */
void mlx5_shim_lag_disable_change(struct mlx5_shim_port *port)
{
	struct mlx5_shim_adapter *adapter = port->adapter;

	mutex_lock(&mlx5_shim_lag_lock);
	adapter->lag.mode_changes++;
	if (adapter->lag.active)
		mlx5_shim_lag_deactivate(adapter);
	mutex_unlock(&mlx5_shim_lag_lock);
}

/* As mlx5_lag_enable_change(): decide again, with the port's new mode, and queue the work. */
void mlx5_shim_lag_enable_change(struct mlx5_shim_port *port)
{
	struct mlx5_shim_adapter *adapter = port->adapter;

	mutex_lock(&mlx5_shim_lag_lock);
	adapter->lag.mode_changes--;
	mutex_unlock(&mlx5_shim_lag_lock);
	rtnl_lock();
	WRITE_ONCE(adapter->lag.want, mlx5_shim_lag_bonded(adapter));
	if (adapter->lag.registered)
		schedule_work(&adapter->lag.work);
	rtnl_unlock();
}

/* LAG is active on @port's adapter; for refusals, not serialized with the LAG work */
bool mlx5_shim_lag_is_active(struct mlx5_shim_port *port)
{
	return READ_ONCE(port->adapter->lag.active);
}

int mlx5_shim_lag_init(void)
{
	return register_netdevice_notifier(&mlx5_shim_lag_nb);
}

void mlx5_shim_lag_exit(void)
{
	unregister_netdevice_notifier(&mlx5_shim_lag_nb);
}
