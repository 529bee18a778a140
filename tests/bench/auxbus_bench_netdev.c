// SPDX-License-Identifier: GPL-2.0-only
/*
 * The floor of the SF benchmark (tests/cases/mlx5-bench.sh; test only): bare netdevs, as the
 * dummy driver makes them, created and destroyed one at a time through debugfs files in the
 * same way as the shim's sf_add/sf_del, so that both sides pay the same shell and write:
 *
 *   echo I >/sys/kernel/debug/auxbus_bench_netdev/add    alloc_netdev + register_netdev
 *   echo I >/sys/kernel/debug/auxbus_bench_netdev/del    unregister_netdev + free_netdev
 *
 * No device, no driver, no bus: a netdev's own cost, what an SF's netdev cannot go below.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/xarray.h>

static DEFINE_XARRAY(bnd_devs);
static struct dentry *bnd_dir;

static netdev_tx_t bnd_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	dev_kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops bnd_netdev_ops = {
	.ndo_start_xmit = bnd_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static int bnd_add(unsigned int i)
{
	struct net_device *netdev;
	char name[IFNAMSIZ];
	int err;

	snprintf(name, IFNAMSIZ, "bnd%u", i);
	netdev = alloc_netdev(0, name, NET_NAME_PREDICTABLE, ether_setup);
	if (!netdev)
		return -ENOMEM;
	netdev->netdev_ops = &bnd_netdev_ops;
	eth_hw_addr_random(netdev);
	err = xa_insert(&bnd_devs, i, netdev, GFP_KERNEL);
	if (err)
		goto err_free;
	err = register_netdev(netdev);
	if (err)
		goto err_erase;
	return 0;

err_erase:
	xa_erase(&bnd_devs, i);
err_free:
	free_netdev(netdev);
	return err;
}

static int bnd_del(unsigned int i)
{
	struct net_device *netdev = xa_erase(&bnd_devs, i);

	if (!netdev)
		return -ENOENT;
	unregister_netdev(netdev);
	free_netdev(netdev);
	return 0;
}

static int bnd_write(const char __user *buf, size_t count, int (*op)(unsigned int i))
{
	unsigned int i;
	int err;

	err = kstrtouint_from_user(buf, count, 0, &i);
	return err ?: op(i);
}

static ssize_t bnd_add_write(struct file *file, const char __user *buf, size_t count,
			     loff_t *ppos)
{
	return bnd_write(buf, count, bnd_add) ?: count;
}

static ssize_t bnd_del_write(struct file *file, const char __user *buf, size_t count,
			     loff_t *ppos)
{
	return bnd_write(buf, count, bnd_del) ?: count;
}

static const struct file_operations bnd_add_fops = {
	.owner = THIS_MODULE,
	.write = bnd_add_write,
};

static const struct file_operations bnd_del_fops = {
	.owner = THIS_MODULE,
	.write = bnd_del_write,
};

static int __init bnd_init(void)
{
	bnd_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("add", 0200, bnd_dir, NULL, &bnd_add_fops);
	debugfs_create_file("del", 0200, bnd_dir, NULL, &bnd_del_fops);
	return 0;
}
module_init(bnd_init);

static void __exit bnd_exit(void)
{
	struct net_device *netdev;
	unsigned long i;

	debugfs_remove_recursive(bnd_dir);
	xa_for_each(&bnd_devs, i, netdev) {
		xa_erase(&bnd_devs, i);
		unregister_netdev(netdev);
		free_netdev(netdev);
	}
}
module_exit(bnd_exit);

MODULE_DESCRIPTION("auxbus benchmark floor: bare netdevs created and destroyed one at a time (test only)");
MODULE_LICENSE("GPL");
