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
 *
 * The eth-rep device (switchdev mode) registers the port's SF representors, as
 * mlx5e_vport_rep_load() does: one netdev per active SF, phys_port_name "pf<port>sf<sfnum>",
 * the uplink's switch id, and the two ends of a wire with the SF's own netdev: what one sends
 * the other receives, and both have carrier while both exist.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>

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
	bool rep;			/* uplink in switchdev mode or SF representor */
	struct mlx5_shim_vport *vport;	/* an SF representor's vport */
	bool vport_up;			/* under @lock: the SF's netdev is on the vport's wire */
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

/* the link: the port's, or for an SF representor whether the SF's netdev is on the wire */
static bool mlx5_shim_eth_link_up(struct mlx5_shim_eth *eth)
{
	struct mlx5_shim_caps caps;

	lockdep_assert_held(&eth->lock);
	if (eth->vport)
		return eth->vport_up;
	mlx5_shim_query_caps(eth->madev, &caps);
	return caps.link_up;
}

static int mlx5_shim_eth_open(struct net_device *netdev)
{
	struct mlx5_shim_eth *eth = netdev_to_eth(netdev);

	mutex_lock(&eth->lock);
	mlx5_shim_eth_update_carrier(eth, mlx5_shim_eth_link_up(eth));
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
	if (eth->vport ? mlx5_shim_vport_wire_xmit(eth->vport, skb) :
			 mlx5_shim_wire_xmit(eth->madev, skb)) {
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
	 * A frame from an end without a netdev (a vdpa device's transmit ring) arrives as a
	 * NIC's receive makes it, on our netdev; dev_forward_skb() reads skb->dev's netns.
	 */
	if (!skb->dev)
		skb->dev = eth->netdev;
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

/*
 * Representors name their port, as mainline's do: "p0" for the uplink, "pf0sf5" for SF 5
 * of PF 0 (mlx5e_rep_get_phys_port_name()).
 */
static int mlx5_shim_eth_get_phys_port_name(struct net_device *netdev, char *buf, size_t len)
{
	struct mlx5_shim_eth *eth = netdev_to_eth(netdev);
	int n;

	if (!READ_ONCE(eth->rep))
		return -EOPNOTSUPP;
	if (eth->vport)
		n = snprintf(buf, len, "pf%usf%u", eth->madev->port,
			     mlx5_shim_vport_sfnum(eth->vport));
	else
		n = snprintf(buf, len, "p%u", eth->madev->port);
	if (n >= len)
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
	/*
	 * A port's wired netdev goes in remove(), after its receiver (a grace period of its
	 * own). An SF's is batched all the same: a frame its representor sends meanwhile finds
	 * it closed (dev_forward_skb() drops it), and remove() detaches before freeing it.
	 */
	if ((eth->wired && !eth->madev->is_sf) || eth->unregistered)
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

/* ---- SF representors, as mlx5e_vport_rep_load() / mlx5e_vport_rep_unload() ---------- */

static void *mlx5_shim_eth_rep_load(struct mlx5_shim_vport *vport, void *ctx)
{
	struct mlx5_shim_eth *uplink = ctx;	/* the eth-rep device's */
	struct mlx5_shim_adev *madev = uplink->madev;
	struct mlx5_shim_eth_priv *priv;
	struct net_device *netdev;
	struct mlx5_shim_eth *eth;
	char name[IFNAMSIZ];
	int err;

	eth = kzalloc(sizeof(*eth), GFP_KERNEL);
	if (!eth)
		return ERR_PTR(-ENOMEM);
	eth->madev = madev;
	eth->vport = vport;
	eth->rep = true;
	mutex_init(&eth->lock);

	if (snprintf(name, IFNAMSIZ, "mlx5s%up%upf%usf%u", madev->adapter, madev->port,
		     madev->port, mlx5_shim_vport_sfnum(vport)) >= IFNAMSIZ)
		strscpy(name, "eth%d", IFNAMSIZ);
	netdev = alloc_netdev(sizeof(*priv), name, NET_NAME_PREDICTABLE, ether_setup);
	if (!netdev) {
		err = -ENOMEM;
		goto err_free_eth;
	}
	priv = netdev_priv(netdev);
	priv->eth = eth;
	eth->netdev = netdev;
	SET_NETDEV_DEV(netdev, &madev->adev.dev);
	netdev->netdev_ops = &mlx5_shim_eth_netdev_ops;
	eth_hw_addr_random(netdev);
	netif_carrier_off(netdev);

	err = register_netdev(netdev);
	if (err)
		goto err_free_netdev;
	err = mlx5_shim_vport_wire_attach(vport, mlx5_shim_eth_rx, eth);
	if (err)
		goto err_unregister_netdev;
	mutex_lock(&eth->lock);
	eth->wired = true;
	eth->vport_up = mlx5_shim_vport_peer_attached(vport);
	mlx5_shim_eth_update_carrier(eth, eth->vport_up);
	mutex_unlock(&eth->lock);
	return eth;

err_unregister_netdev:
	unregister_netdev(netdev);
err_free_netdev:
	free_netdev(netdev);
err_free_eth:
	mutex_destroy(&eth->lock);
	kfree(eth);
	return ERR_PTR(err);
}

static void mlx5_shim_eth_rep_unload(struct mlx5_shim_vport *vport, void *priv)
{
	struct mlx5_shim_eth *eth = priv;

	mlx5_shim_vport_wire_detach(vport);
	unregister_netdev(eth->netdev);
	free_netdev(eth->netdev);
	mutex_destroy(&eth->lock);
	kfree(eth);
}

static void mlx5_shim_eth_rep_link(struct mlx5_shim_vport *vport, void *priv, bool up)
{
	struct mlx5_shim_eth *eth = priv;

	mutex_lock(&eth->lock);
	eth->vport_up = up;
	mlx5_shim_eth_update_carrier(eth, up);
	mutex_unlock(&eth->lock);
}

static const struct mlx5_shim_rep_ops mlx5_shim_eth_rep_ops = {
	.load = mlx5_shim_eth_rep_load,
	.unload = mlx5_shim_eth_rep_unload,
	.link = mlx5_shim_eth_rep_link,
};

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
	if (madev->kind == MLX5_SHIM_ADEV_ETH_REP) {
		/* the uplink netdev is the eth device's; this one holds the SF representors */
		err = mlx5_shim_eswitch_register_vport_reps(madev, &mlx5_shim_eth_rep_ops, eth);
		if (err)
			goto err_free_eth;
		return 0;
	}

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

	if (eth->madev->kind == MLX5_SHIM_ADEV_ETH_REP) {
		mlx5_shim_eswitch_unregister_vport_reps(eth->madev);
		goto out_free;
	}
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

	if (eth->netdev) {
		netif_device_attach(eth->netdev);
		mutex_lock(&eth->lock);
		mlx5_shim_eth_update_carrier(eth, mlx5_shim_eth_link_up(eth));
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
