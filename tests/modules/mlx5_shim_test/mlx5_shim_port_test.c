// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_port_test: an ib_core client that changes a port from inside
 * ib_register_device(). For an mlx5_shim_<n> ib_device registered after it loaded, its
 * add() brings the netdev named by ifname up: a NETDEV_UP before mlx5_shim_rdma marks the
 * device live (review mlx5.md B14). It then waits for the NETDEV_CHANGE that linkwatch sends
 * for the device, so no late event can stand in for the catch-up under test. Its remove()
 * (at rmmod) logs ib_core's cached port state, what kernel ULPs read, once the port events
 * dispatched so far have run; mlx5-rdma checks that it caught up with the netdev.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

static char *ifname;
module_param(ifname, charp, 0444);
MODULE_PARM_DESC(ifname, "netdev to bring up from add() of an mlx5_shim ib_device");

/* the devices ib_register_client() adds are not changed: only those registered later */
static bool mlx5_shim_port_test_loaded;

/* the netdev add() brought up, and its NETDEV_CHANGE once every other notifier had it */
static struct net_device *mlx5_shim_port_test_ndev;
static DECLARE_COMPLETION(mlx5_shim_port_test_changed);

static int mlx5_shim_port_test_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	if (event == NETDEV_CHANGE &&
	    netdev_notifier_info_to_dev(ptr) == READ_ONCE(mlx5_shim_port_test_ndev))
		complete(&mlx5_shim_port_test_changed);
	return NOTIFY_DONE;
}

/* the lowest priority: called after mlx5_shim_rdma's notifier */
static struct notifier_block mlx5_shim_port_test_nb = {
	.notifier_call = mlx5_shim_port_test_event,
	.priority = INT_MIN,
};

static bool mlx5_shim_port_test_ours(struct ib_device *ibdev)
{
	return !strncmp(dev_name(&ibdev->dev), "mlx5_shim_", strlen("mlx5_shim_"));
}

static int mlx5_shim_port_test_add(struct ib_device *ibdev)
{
	struct net_device *ndev;
	int err = -ENODEV;

	if (!mlx5_shim_port_test_ours(ibdev))
		return -EOPNOTSUPP;	/* not ours: no client data */
	if (!READ_ONCE(mlx5_shim_port_test_loaded) || !ifname)
		return 0;
	rtnl_lock();
	ndev = __dev_get_by_name(&init_net, ifname);
	if (ndev) {
		reinit_completion(&mlx5_shim_port_test_changed);
		WRITE_ONCE(mlx5_shim_port_test_ndev, ndev);
		err = dev_open(ndev, NULL);
		/* an UP device's linkwatch event is a NETDEV_CHANGE, sent from a work item */
		if (!err)
			linkwatch_fire_event(ndev);
	}
	rtnl_unlock();
	pr_info("%s: %s up from add(): %d\n", dev_name(&ibdev->dev), ifname, err);
	if (!err && !wait_for_completion_timeout(&mlx5_shim_port_test_changed, 10 * HZ))
		pr_info("%s: no NETDEV_CHANGE for %s within 10 s\n", dev_name(&ibdev->dev), ifname);
	WRITE_ONCE(mlx5_shim_port_test_ndev, NULL);
	return 0;
}

static void mlx5_shim_port_test_remove(struct ib_device *ibdev, void *client_data)
{
	enum ib_port_state state;
	int err;

	/* the port events dispatched so far update the cache from ib_wq */
	flush_workqueue(ib_wq);
	err = ib_get_cached_port_state(ibdev, 1, &state);
	if (err)
		pr_info("%s: cached port state: %d\n", dev_name(&ibdev->dev), err);
	else
		pr_info("%s: cached port state %d\n", dev_name(&ibdev->dev), state);
}

static struct ib_client mlx5_shim_port_test_client = {
	.name = "mlx5_shim_port_test",
	.add = mlx5_shim_port_test_add,
	.remove = mlx5_shim_port_test_remove,
};

static int __init mlx5_shim_port_test_init(void)
{
	int err = register_netdevice_notifier(&mlx5_shim_port_test_nb);

	if (err)
		return err;
	err = ib_register_client(&mlx5_shim_port_test_client);
	if (err) {
		unregister_netdevice_notifier(&mlx5_shim_port_test_nb);
		return err;
	}
	WRITE_ONCE(mlx5_shim_port_test_loaded, true);
	return 0;
}

static void __exit mlx5_shim_port_test_exit(void)
{
	ib_unregister_client(&mlx5_shim_port_test_client);
	unregister_netdevice_notifier(&mlx5_shim_port_test_nb);
}

module_init(mlx5_shim_port_test_init);
module_exit(mlx5_shim_port_test_exit);

MODULE_DESCRIPTION("mlx5 shim test: a port change while an mlx5_shim_rdma device registers");
MODULE_LICENSE("GPL");
