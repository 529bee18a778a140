// SPDX-License-Identifier: GPL-2.0-only
/*
 * A network client the way NIC drivers are written: networking headers (whose inlines call
 * pr_*() and net_*_ratelimited()) included after the bus header, no pr_fmt of its own,
 * netdev_*() logging, and the parent's namespace imported in the old syntax where the
 * kernel takes it.
 */
#include <linux/auxiliary_bus.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/version.h>

#include "porter_parent.h"

struct porter_net_priv {
	u32 cookie;
};

static netdev_tx_t porter_net_xmit(struct sk_buff *skb, struct net_device *ndev)
{
	ndev->stats.tx_packets++;
	ndev->stats.tx_bytes += skb->len;
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops porter_net_ops = {
	.ndo_start_xmit = porter_net_xmit,
	.ndo_validate_addr = eth_validate_addr,
	.ndo_set_mac_address = eth_mac_addr,
};

static int porter_net_probe(struct auxiliary_device *adev,
			    const struct auxiliary_device_id *id)
{
	struct porter_net_priv *priv;
	struct net_device *ndev;
	int err;

	ndev = alloc_etherdev(sizeof(*priv));
	if (!ndev)
		return -ENOMEM;
	priv = netdev_priv(ndev);
	priv->cookie = porter_parent_cookie(adev);
	ndev->netdev_ops = &porter_net_ops;
	SET_NETDEV_DEV(ndev, &adev->dev);
	eth_hw_addr_random(ndev);
	strscpy(ndev->name, "porter%d", sizeof(ndev->name));

	err = register_netdev(ndev);
	if (err) {
		pr_err("porter_net: register_netdev failed: %d\n", err);
		free_netdev(ndev);
		return err;
	}
	auxiliary_set_drvdata(adev, ndev);
	netdev_info(ndev, "parent cookie %#x\n", priv->cookie);
	return 0;
}

static void porter_net_remove(struct auxiliary_device *adev)
{
	struct net_device *ndev = auxiliary_get_drvdata(adev);

	unregister_netdev(ndev);
	free_netdev(ndev);
}

static const struct auxiliary_device_id porter_net_id_table[] = {
	{ .name = "porter_parent.eth" },
	{ },
};
MODULE_DEVICE_TABLE(auxiliary, porter_net_id_table);

static struct auxiliary_driver porter_net_driver = {
	.name = "eth",
	.probe = porter_net_probe,
	.remove = porter_net_remove,
	.id_table = porter_net_id_table,
};
module_auxiliary_driver(porter_net_driver);

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
MODULE_IMPORT_NS(PORTER_PARENT);
#else
MODULE_IMPORT_NS("PORTER_PARENT");
#endif
MODULE_DESCRIPTION("Porters' corpus: Ethernet client of porter_parent (test)");
MODULE_LICENSE("GPL");
