// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_eth: Ethernet client of mlx5_shim_core.
 *
 * Binds mlx5_shim_core.eth.<id> (a NIC netdev) and mlx5_shim_core.eth-rep.<id> (switchdev
 * mode). Frames transmitted on a port leave on the simulated wire and arrive on the peer
 * port's netdev; carrier follows link events.
 *
 * A port's netdev is created once, by the eth device, and kept across eswitch mode changes:
 * in switchdev mode it is the uplink representor (phys_port_name "p<port>", the adapter's
 * switch id), as mainline's mlx5e_vport_uplink_rep_load() takes over the uplink netdev with
 * mlx5e_netdev_change_profile() since 7a9fb35e8c3a ("net/mlx5e: Do not reload ethernet
 * ports when changing eswitch mode", v5.13). Its ifindex, namespace, addresses and traffic
 * stay; here the profile change is the mode change event.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "mlx5_shim.h"

static bool sf_netdev = true;
module_param(sf_netdev, bool, 0644);
MODULE_PARM_DESC(sf_netdev, "register a netdev for sub-function eth devices (default: yes)");

/*
 * @lock orders the carrier updates: port events (under the core's function lock), probe
 * at driver load (under neither), ndo_open (under RTNL) and the PM callbacks each read
 * the link state and set the carrier from it; without one lock a late writer with an
 * old link state would leave the carrier wrong until the next event.
 *
 * @unregistered: the core's batched teardown of SFs unregistered @netdev (@dl's dellink,
 * under RTNL and @lock); from then on nothing but free_netdev() touches it.
 */
struct mlx5_shim_eth {
	struct mlx5_shim_adev *madev;
	struct net_device *netdev;	/* NULL for SFs when sf_netdev=0 */
	struct notifier_block nb;
	struct mlx5_shim_dellink dl;	/* registered while @netdev is */
	struct mutex lock;		/* carrier updates; see above */
	bool wired;
	bool rep;			/* uplink representor: switchdev mode, READ_ONCE */
	bool unregistered;		/* see above */
	atomic64_t tx_packets, tx_bytes, tx_dropped;
	atomic64_t rx_packets, rx_bytes, rx_dropped;
};

struct mlx5_shim_eth_priv {
	struct mlx5_shim_eth *eth;
};

static struct mlx5_shim_eth *netdev_to_eth(struct net_device *netdev)
{
	return ((struct mlx5_shim_eth_priv *)netdev_priv(netdev))->eth;
}

static void mlx5_shim_eth_update_carrier(struct mlx5_shim_eth *eth, bool link_up)
{
	lockdep_assert_held(&eth->lock);
	if (!eth->netdev || eth->unregistered)
		return;
	if (eth->wired && link_up)
		netif_carrier_on(eth->netdev);
	else
		netif_carrier_off(eth->netdev);
}

static int mlx5_shim_eth_open(struct net_device *netdev)
{
	struct mlx5_shim_eth *eth = netdev_to_eth(netdev);
	struct mlx5_shim_caps caps;

	mutex_lock(&eth->lock);
	mlx5_shim_query_caps(eth->madev, &caps);
	mlx5_shim_eth_update_carrier(eth, caps.link_up);
	mutex_unlock(&eth->lock);
	netif_start_queue(netdev);
	return 0;
}

static int mlx5_shim_eth_stop(struct net_device *netdev)
{
	netif_stop_queue(netdev);
	return 0;
}

static netdev_tx_t mlx5_shim_eth_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	struct mlx5_shim_eth *eth = netdev_to_eth(netdev);
	unsigned int len = skb->len;

	skb_tx_timestamp(skb);
	if (mlx5_shim_wire_xmit(eth->madev, skb)) {
		atomic64_inc(&eth->tx_dropped);
	} else {
		atomic64_inc(&eth->tx_packets);
		atomic64_add(len, &eth->tx_bytes);
	}
	return NETDEV_TX_OK;
}

/* the peer port transmitted @skb; softirq context, under RCU */
static void mlx5_shim_eth_rx(void *ctx, struct sk_buff *skb)
{
	struct mlx5_shim_eth *eth = ctx;
	unsigned int len = skb->len;

	if (!netif_carrier_ok(eth->netdev) || !netif_device_present(eth->netdev)) {
		kfree_skb(skb);
		atomic64_inc(&eth->rx_dropped);
		return;
	}
	/*
	 * Scrubs the skb when it crosses a netns, checks MTU and IFF_UP, eth_type_trans();
	 * a frame it drops is counted in the core's rx_dropped, which dev_get_stats() adds.
	 */
	if (dev_forward_skb(eth->netdev, skb) == NET_RX_SUCCESS) {
		atomic64_inc(&eth->rx_packets);
		atomic64_add(len, &eth->rx_bytes);
	}
}

static void mlx5_shim_eth_get_stats64(struct net_device *netdev,
				      struct rtnl_link_stats64 *stats)
{
	struct mlx5_shim_eth *eth = netdev_to_eth(netdev);

	stats->tx_packets = atomic64_read(&eth->tx_packets);
	stats->tx_bytes = atomic64_read(&eth->tx_bytes);
	stats->tx_dropped = atomic64_read(&eth->tx_dropped);
	stats->rx_packets = atomic64_read(&eth->rx_packets);
	stats->rx_bytes = atomic64_read(&eth->rx_bytes);
	stats->rx_dropped = atomic64_read(&eth->rx_dropped);
}

/* representors name their port, as mainline's uplink representor does ("p0") */
static int mlx5_shim_eth_get_phys_port_name(struct net_device *netdev, char *buf, size_t len)
{
	struct mlx5_shim_eth *eth = netdev_to_eth(netdev);

	if (!READ_ONCE(eth->rep))
		return -EOPNOTSUPP;
	if (snprintf(buf, len, "p%u", eth->madev->port) >= len)
		return -EOPNOTSUPP;
	return 0;
}

/* the switch id of representors: the adapter's system image GUID, as mlx5's */
static int mlx5_shim_eth_get_port_parent_id(struct net_device *netdev,
					    struct netdev_phys_item_id *ppid)
{
	struct mlx5_shim_eth *eth = netdev_to_eth(netdev);
	u64 guid = eth->madev->guid;

	if (!READ_ONCE(eth->rep))
		return -EOPNOTSUPP;
	ppid->id_len = sizeof(guid);
	memcpy(ppid->id, &guid, sizeof(guid));
	return 0;
}

static const struct net_device_ops mlx5_shim_eth_netdev_ops = {
	.ndo_open = mlx5_shim_eth_open,
	.ndo_stop = mlx5_shim_eth_stop,
	.ndo_start_xmit = mlx5_shim_eth_xmit,
	.ndo_get_stats64 = mlx5_shim_eth_get_stats64,
	.ndo_get_phys_port_name = mlx5_shim_eth_get_phys_port_name,
	.ndo_get_port_parent_id = mlx5_shim_eth_get_port_parent_id,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static int mlx5_shim_eth_event(struct notifier_block *nb, unsigned long event, void *data)
{
	struct mlx5_shim_eth *eth = container_of(nb, struct mlx5_shim_eth, nb);
	const struct mlx5_shim_caps *caps = data;

	switch (event) {
	case MLX5_SHIM_EVENT_MODE_CHANGE:
		/* the uplink netdev changes profile; it is not recreated */
		mutex_lock(&eth->lock);
		if (!eth->madev->is_sf)
			WRITE_ONCE(eth->rep, caps->esw_mode == MLX5_SHIM_ESW_SWITCHDEV);
		mutex_unlock(&eth->lock);
		break;
	case MLX5_SHIM_EVENT_LINK_UP:
	case MLX5_SHIM_EVENT_LINK_DOWN:
		mutex_lock(&eth->lock);
		mlx5_shim_eth_update_carrier(eth, caps->link_up);
		mutex_unlock(&eth->lock);
		break;
	default:
		break;
	}
	return NOTIFY_OK;
}

/* "mlx5s<adapter>p<port>" for ports, "mlx5s<a>p<p>s<sfnum>" for SFs when it fits */
static void mlx5_shim_eth_ifname(struct mlx5_shim_adev *madev, char *name)
{
	int len;

	if (madev->is_sf)
		len = snprintf(name, IFNAMSIZ, "mlx5s%up%us%u", madev->adapter, madev->port,
			       madev->sfnum);
	else
		len = snprintf(name, IFNAMSIZ, "mlx5s%up%u", madev->adapter, madev->port);
	if (len >= IFNAMSIZ)
		strscpy(name, "eth%d", IFNAMSIZ);
}

static int mlx5_shim_eth_create_netdev(struct mlx5_shim_eth *eth)
{
	struct mlx5_shim_adev *madev = eth->madev;
	struct mlx5_shim_eth_priv *priv;
	struct net_device *netdev;
	struct mlx5_shim_caps caps;
	char name[IFNAMSIZ];
	int err;

	mlx5_shim_eth_ifname(madev, name);
	netdev = alloc_netdev(sizeof(*priv), name, NET_NAME_PREDICTABLE, ether_setup);
	if (!netdev)
		return -ENOMEM;
	priv = netdev_priv(netdev);
	priv->eth = eth;
	eth->netdev = netdev;
	SET_NETDEV_DEV(netdev, &madev->adev.dev);
	netdev->netdev_ops = &mlx5_shim_eth_netdev_ops;
	mlx5_shim_query_caps(madev, &caps);
	eth_hw_addr_set(netdev, caps.mac);
	netif_carrier_off(netdev);

	err = register_netdev(netdev);
	if (err)
		goto err_free_netdev;

	err = mlx5_shim_wire_attach(madev, mlx5_shim_eth_rx, eth);
	if (!err)
		eth->wired = true;
	else if (err != -ENOLINK)
		goto err_unregister_netdev;
	mlx5_shim_register_dellink(madev, &eth->dl);
	return 0;

err_unregister_netdev:
	unregister_netdev(netdev);
err_free_netdev:
	free_netdev(netdev);
	eth->netdev = NULL;
	return err;
}

/*
 * The core deletes this device's SF together with many others: queue the netdev for their
 * one unregister_netdevice_many(). Under RTNL; see struct mlx5_shim_dellink.
 */
static void mlx5_shim_eth_dellink(struct mlx5_shim_dellink *dl, struct list_head *head)
{
	struct mlx5_shim_eth *eth = container_of(dl, struct mlx5_shim_eth, dl);

	ASSERT_RTNL();
	/* a wired netdev goes in remove(), after its receiver (a grace period of its own) */
	if (eth->wired || eth->unregistered)
		return;
	mutex_lock(&eth->lock);
	eth->unregistered = true;	/* no carrier updates from here on */
	mutex_unlock(&eth->lock);
	unregister_netdevice_queue(eth->netdev, head);
}

static void mlx5_shim_eth_destroy_netdev(struct mlx5_shim_eth *eth)
{
	if (!eth->netdev)
		return;
	/* waits for a batch in flight; afterwards @unregistered is final */
	mlx5_shim_unregister_dellink(&eth->dl);
	if (eth->wired)
		mlx5_shim_wire_detach(eth->madev);
	if (!eth->unregistered)
		unregister_netdev(eth->netdev);
	free_netdev(eth->netdev);
	eth->netdev = NULL;
}

static int mlx5_shim_eth_probe(struct auxiliary_device *adev,
			       const struct auxiliary_device_id *id)
{
	struct mlx5_shim_adev *madev = to_mlx5_shim_adev(adev);
	struct mlx5_shim_caps caps;
	struct mlx5_shim_eth *eth;
	int err;

	eth = kzalloc(sizeof(*eth), GFP_KERNEL);
	if (!eth)
		return -ENOMEM;
	eth->madev = madev;
	eth->dl.dellink = mlx5_shim_eth_dellink;
	mutex_init(&eth->lock);
	auxiliary_set_drvdata(adev, eth);
	if (madev->kind == MLX5_SHIM_ADEV_ETH_REP)
		return 0;	/* the uplink netdev is the eth device's */

	if (!madev->is_sf || sf_netdev) {
		err = mlx5_shim_eth_create_netdev(eth);
		if (err)
			goto err_free_eth;
	}

	eth->nb.notifier_call = mlx5_shim_eth_event;
	err = mlx5_shim_register_notifier(madev, &eth->nb);
	if (err)
		goto err_destroy_netdev;
	/* after registering: an event from here on comes after this update */
	mutex_lock(&eth->lock);
	mlx5_shim_query_caps(madev, &caps);
	WRITE_ONCE(eth->rep, !madev->is_sf && caps.esw_mode == MLX5_SHIM_ESW_SWITCHDEV);
	mlx5_shim_eth_update_carrier(eth, caps.link_up);
	mutex_unlock(&eth->lock);
	return 0;

err_destroy_netdev:
	mlx5_shim_eth_destroy_netdev(eth);
err_free_eth:
	mutex_destroy(&eth->lock);
	kfree(eth);
	return err;
}

static void mlx5_shim_eth_remove(struct auxiliary_device *adev)
{
	struct mlx5_shim_eth *eth = auxiliary_get_drvdata(adev);

	if (eth->madev->kind == MLX5_SHIM_ADEV_ETH_REP)
		goto out_free;
	mlx5_shim_unregister_notifier(eth->madev, &eth->nb);
	mlx5_shim_eth_destroy_netdev(eth);
out_free:
	mutex_destroy(&eth->lock);
	kfree(eth);
}

/* the parent detaches on system suspend: the netdev stays, marked absent */
static int mlx5_shim_eth_suspend(struct auxiliary_device *adev, pm_message_t state)
{
	struct mlx5_shim_eth *eth = auxiliary_get_drvdata(adev);

	if (eth->netdev) {
		netif_device_detach(eth->netdev);
		mutex_lock(&eth->lock);
		netif_carrier_off(eth->netdev);
		mutex_unlock(&eth->lock);
	}
	return 0;
}

static int mlx5_shim_eth_resume(struct auxiliary_device *adev)
{
	struct mlx5_shim_eth *eth = auxiliary_get_drvdata(adev);
	struct mlx5_shim_caps caps;

	if (eth->netdev) {
		netif_device_attach(eth->netdev);
		mutex_lock(&eth->lock);
		mlx5_shim_query_caps(eth->madev, &caps);
		mlx5_shim_eth_update_carrier(eth, caps.link_up);
		mutex_unlock(&eth->lock);
	}
	return 0;
}

AUXILIARY_DEVICE_TABLE(mlx5_shim_eth_id_table, "mlx5_shim_core.eth", "mlx5_shim_core.eth-rep");

static struct auxiliary_driver mlx5_shim_eth_driver = {
	.probe = mlx5_shim_eth_probe,
	.remove = mlx5_shim_eth_remove,
	.suspend = mlx5_shim_eth_suspend,
	.resume = mlx5_shim_eth_resume,
	.id_table = mlx5_shim_eth_id_table,
};
module_auxiliary_driver(mlx5_shim_eth_driver);

MODULE_DESCRIPTION("mlx5 shim: Ethernet and uplink representor netdevs");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("MLX5_SHIM");
