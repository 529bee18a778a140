// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_rdma: RDMA client of mlx5_shim_core.
 *
 * Binds mlx5_shim_core.rdma.<id> and mlx5_shim_core.rdma-rep.<id> (switchdev mode). Where
 * the target kernel has CONFIG_INFINIBAND it registers an ib_device with the kernel's own
 * ib_core, as mlx5_ib does for a RoCE function: named mlx5_shim_<n> (never mlx5_<n>, the
 * names of mainline's mlx5_ib), one port, link layer Ethernet, RoCE v2. The port's netdev
 * is its function's Ethernet netdev (mlx5_shim_eth: the eth device's, or in switchdev mode
 * the uplink representor's), given to ib_core with ib_device_set_netdev() as rxe does: the
 * port is ACTIVE while that netdev is up with carrier and DOWN otherwise, and ib_core fills
 * the port's GID table from the netdev's MAC and addresses. The device answers the verbs
 * that describe it (query_device, query_port, query_pkey, port immutable data, link layer);
 * every verb that would create a resource (PD, CQ, QP, MR) answers -EOPNOTSUPP. It has no
 * management datagrams (no MAD/CM) and no user verbs (no uverbs context).
 *
 * With LAG active (lag.c: every port of the adapter in one bond) the core gives port 0 one
 * rdma device flagged as the LAG's (mlx5_shim_adev.lag) and the other ports none, as mlx5
 * with RoCE LAG: its ib_device is named mlx5_shim_bond_<n> (mlx5_ib: mlx5_bond_<n>), and
 * its port's netdev is the slave the core names (mlx5_shim_lag_get_roce_netdev(), as
 * mlx5_ib asks mlx5_lag_get_roce_netdev()): the bond's active slave in active-backup, moving
 * with it on a failover, port 0's netdev in the hash modes; ib_core's RoCE GID management
 * fills the GID table from the bond's addresses.
 *
 * Where the kernel has no CONFIG_INFINIBAND it still builds and binds, registers no
 * ib_device and says so in its log and its modinfo description.
 *
 * Either way it reports what it sees in sysfs, in the bound device's directory:
 *   rdma_port, rdma_guid, rdma_mode, rdma_lag_peer, rdma_events, rdma_state, rdma_pm
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#if IS_ENABLED(CONFIG_INFINIBAND)
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/spinlock.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#endif

#include "mlx5_shim.h"
#include "mlx5_shim_client.h"

#if IS_ENABLED(CONFIG_INFINIBAND)

#define MLX5_SHIM_IB_PORT	1
#define MLX5_SHIM_IB_GIDS	16
#define MLX5_SHIM_IB_VENDOR_ID	0x02c9	/* Mellanox */

/**
 * struct mlx5_shim_ib - the ib_device of a bound rdma device
 * @ibdev: the ib_device, registered from probe to remove
 * @madev: the bound auxiliary device
 * @nb: netdevice notifier: finds the function's Ethernet netdev, follows its state
 * @lock: guards @netdev against query_port()
 * @netdev: the port's netdev, also given to ib_core; NULL while the function has none.
 *	    Written under RTNL (the notifier) and @lock; it holds no reference of its own:
 *	    ib_core holds one while it is set, and it is cleared on NETDEV_UNREGISTER.
 * @live: the ib_device is registered: port events may be dispatched (ib_core queues
 *	  work on the device for each). Written under RTNL, read in the notifier.
 */
struct mlx5_shim_ib {
	struct ib_device ibdev;
	struct mlx5_shim_adev *madev;
	struct notifier_block nb;
	spinlock_t lock;		/* guards @netdev */
	struct net_device *netdev;
	bool live;
};

static struct mlx5_shim_ib *to_mlx5_shim_ib(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mlx5_shim_ib, ibdev);
}

/* objects ib_core allocates for the driver: none is ever made, every create fails */
struct mlx5_shim_ib_pd {
	struct ib_pd ibpd;
};

struct mlx5_shim_ib_cq {
	struct ib_cq ibcq;
};

#ifdef AUXBUS_HAVE_IB_CORE_ALLOCS_QP
struct mlx5_shim_ib_qp {
	struct ib_qp ibqp;
};
#endif

/* the port's netdev with a reference, or NULL */
static struct net_device *mlx5_shim_ib_get_netdev(struct mlx5_shim_ib *ib)
{
	struct net_device *ndev;

	spin_lock_bh(&ib->lock);
	ndev = ib->netdev;
	if (ndev)
		dev_hold(ndev);
	spin_unlock_bh(&ib->lock);
	return ndev;
}

static int mlx5_shim_ib_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
				     struct ib_udata *udata)
{
	struct mlx5_shim_ib *ib = to_mlx5_shim_ib(ibdev);

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->sys_image_guid = cpu_to_be64(ib->madev->guid);
	attr->vendor_id = MLX5_SHIM_IB_VENDOR_ID;
	attr->max_pkeys = 1;
	attr->page_size_cap = PAGE_SIZE;
	return 0;
}

static int mlx5_shim_ib_query_port(struct ib_device *ibdev, auxbus_ib_port_t port,
				   struct ib_port_attr *attr)
{
	struct net_device *ndev = mlx5_shim_ib_get_netdev(to_mlx5_shim_ib(ibdev));
	bool up = ndev && netif_running(ndev) && netif_carrier_ok(ndev);

	memset(attr, 0, sizeof(*attr));
	attr->gid_tbl_len = MLX5_SHIM_IB_GIDS;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = 1U << 30;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = ndev ? iboe_get_mtu(ndev->mtu) : IB_MTU_256;
	attr->active_width = IB_WIDTH_1X;
	attr->active_speed = IB_SPEED_SDR;
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP : IB_PORT_PHYS_STATE_DISABLED;
	if (ndev)
		dev_put(ndev);
	return 0;
}

static int mlx5_shim_ib_get_port_immutable(struct ib_device *ibdev, auxbus_ib_port_t port,
					   struct ib_port_immutable *immutable)
{
	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = MLX5_SHIM_IB_GIDS;
	/* RoCE v2 alone: no management datagrams (max_mad_size 0), so no MAD or CM QPs */
	immutable->core_cap_flags = RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP;
	immutable->max_mad_size = 0;
	return 0;
}

static enum rdma_link_layer mlx5_shim_ib_get_link_layer(struct ib_device *ibdev,
							auxbus_ib_port_t port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int mlx5_shim_ib_query_pkey(struct ib_device *ibdev, auxbus_ib_port_t port, u16 index,
				   u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = 0xffff;		/* the default partition, full membership */
	return 0;
}

/* ---- verbs that create resources: none is supported --------------------------- */

static int mlx5_shim_ib_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int mlx5_shim_ib_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

/*
 * ib_core allocates the QP for create_qp() since 514aee660df4 ("RDMA: Globally allocate and
 * release QP memory"), v5.15; before, the driver returned one it allocated.
 */
#ifdef AUXBUS_HAVE_IB_CORE_ALLOCS_QP
static int mlx5_shim_ib_create_qp(struct ib_qp *qp, struct ib_qp_init_attr *init,
				  struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}
#else
static struct ib_qp *mlx5_shim_ib_create_qp(struct ib_pd *pd, struct ib_qp_init_attr *init,
					    struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}
#endif

static int mlx5_shim_ib_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
				  struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int mlx5_shim_ib_destroy_qp(struct ib_qp *qp, struct ib_udata *udata)
{
	return 0;
}

static int mlx5_shim_ib_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
				  const struct ib_send_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int mlx5_shim_ib_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
				  const struct ib_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

/*
 * create_cq() takes the whole uverbs attribute bundle instead of its udata since
 * dd6d7f8574d7 ("RDMA: Pass entire uverbs attr bundle to create cq function"), v6.11.
 */
#ifdef AUXBUS_HAVE_IB_CREATE_CQ_ATTRS
static int mlx5_shim_ib_create_cq(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
				  struct uverbs_attr_bundle *attrs)
#else
static int mlx5_shim_ib_create_cq(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
				  struct ib_udata *udata)
#endif
{
	return -EOPNOTSUPP;
}

static int mlx5_shim_ib_destroy_cq(struct ib_cq *cq, struct ib_udata *udata)
{
	return 0;
}

static int mlx5_shim_ib_poll_cq(struct ib_cq *cq, int num_entries, struct ib_wc *wc)
{
	return 0;
}

static int mlx5_shim_ib_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags)
{
	return -EOPNOTSUPP;
}

static struct ib_mr *mlx5_shim_ib_get_dma_mr(struct ib_pd *pd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

/*
 * reg_user_mr() takes a DMA handle (struct ib_dmah) since a272019a46c9 ("IB: Extend
 * UVERBS_METHOD_REG_MR to get DMAH"), v6.17, of the series of d83edab562a4 ("RDMA/core:
 * Introduce a DMAH object and its alloc/free APIs").
 */
#ifdef AUXBUS_HAVE_IB_REG_USER_MR_DMAH
static struct ib_mr *mlx5_shim_ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
					      u64 virt, int access, struct ib_dmah *dmah,
					      struct ib_udata *udata)
#else
static struct ib_mr *mlx5_shim_ib_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
					      u64 virt, int access, struct ib_udata *udata)
#endif
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int mlx5_shim_ib_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	return 0;
}

static const struct ib_device_ops mlx5_shim_ib_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.query_device = mlx5_shim_ib_query_device,
	.query_port = mlx5_shim_ib_query_port,
	.get_port_immutable = mlx5_shim_ib_get_port_immutable,
	.get_link_layer = mlx5_shim_ib_get_link_layer,
	.query_pkey = mlx5_shim_ib_query_pkey,

	.alloc_pd = mlx5_shim_ib_alloc_pd,
	.dealloc_pd = mlx5_shim_ib_dealloc_pd,
	.create_qp = mlx5_shim_ib_create_qp,
	.modify_qp = mlx5_shim_ib_modify_qp,
	.destroy_qp = mlx5_shim_ib_destroy_qp,
	.post_send = mlx5_shim_ib_post_send,
	.post_recv = mlx5_shim_ib_post_recv,
	.create_cq = mlx5_shim_ib_create_cq,
	.destroy_cq = mlx5_shim_ib_destroy_cq,
	.poll_cq = mlx5_shim_ib_poll_cq,
	.req_notify_cq = mlx5_shim_ib_req_notify_cq,
	.get_dma_mr = mlx5_shim_ib_get_dma_mr,
	.reg_user_mr = mlx5_shim_ib_reg_user_mr,
	.dereg_mr = mlx5_shim_ib_dereg_mr,

	INIT_RDMA_OBJ_SIZE(ib_pd, mlx5_shim_ib_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, mlx5_shim_ib_cq, ibcq),
#ifdef AUXBUS_HAVE_IB_CORE_ALLOCS_QP
	INIT_RDMA_OBJ_SIZE(ib_qp, mlx5_shim_ib_qp, ibqp),
#endif
};

/*
 * Is @ndev the port's netdev? Its parent is the auxiliary device of the same function (a
 * sibling of ours: every child of a function's device is one of its auxiliary devices) of
 * the eth kind, for rdma and rdma-rep alike: in switchdev mode the eth device's netdev is
 * the uplink representor (the eth-rep device holds only the SF representors).
 */
static bool mlx5_shim_ib_is_port_netdev(struct mlx5_shim_ib *ib, struct net_device *ndev)
{
	struct device *parent = ndev->dev.parent;

	if (!parent || parent->bus != ib->madev->adev.dev.bus ||
	    parent->parent != ib->madev->adev.dev.parent)
		return false;
	return to_mlx5_shim_adev(to_auxiliary_dev(parent))->kind == MLX5_SHIM_ADEV_ETH;
}

static void mlx5_shim_ib_set_netdev(struct mlx5_shim_ib *ib, struct net_device *ndev)
{
	int err;

	/* takes ib_core's reference on @ndev (drops it on NULL); cannot fail for port 1 */
	err = ib_device_set_netdev(&ib->ibdev, ndev, MLX5_SHIM_IB_PORT);
	if (err) {
		dev_err(&ib->madev->adev.dev, "ib_device_set_netdev(%s): %d\n",
			ndev ? netdev_name(ndev) : "NULL", err);
		return;
	}
	spin_lock_bh(&ib->lock);
	ib->netdev = ndev;
	spin_unlock_bh(&ib->lock);
}

static void mlx5_shim_ib_port_event(struct mlx5_shim_ib *ib, enum ib_event_type type)
{
	struct ib_event event = {
		.device = &ib->ibdev,
		.element.port_num = MLX5_SHIM_IB_PORT,
		.event = type,
	};

	ib_dispatch_event(&event);
}

static enum ib_event_type mlx5_shim_ib_port_state_event(struct net_device *ndev)
{
	return netif_running(ndev) && netif_carrier_ok(ndev) ? IB_EVENT_PORT_ACTIVE :
							       IB_EVENT_PORT_ERR;
}

/* Dispatch the port's state when ib_core's cache of it differs from @ndev's. */
static void mlx5_shim_ib_port_sync(struct mlx5_shim_ib *ib, struct net_device *ndev)
{
	enum ib_event_type type = mlx5_shim_ib_port_state_event(ndev);
	enum ib_port_state cached;

	if (ib_get_cached_port_state(&ib->ibdev, MLX5_SHIM_IB_PORT, &cached))
		cached = IB_PORT_NOP;	/* not cached */
	if (type == IB_EVENT_PORT_ACTIVE ? cached != IB_PORT_ACTIVE : cached == IB_PORT_ACTIVE)
		mlx5_shim_ib_port_event(ib, type);
}

/*
 * The LAG's port: any event may have moved its netdev (the core's notifier, which runs
 * first, tracks the bond's slaves; a slave going away is never the answer once its
 * NETDEV_UNREGISTER has reached the core), so follow mlx5_shim_lag_get_roce_netdev() on
 * each, and the state of whichever netdev the port stands on.
 */
static int mlx5_shim_ib_lag_netdev_event(struct mlx5_shim_ib *ib, unsigned long event,
					 struct net_device *ndev)
{
	struct net_device *roce = mlx5_shim_lag_get_roce_netdev(ib->madev);

	if (event == NETDEV_UNREGISTER && roce == ndev)
		roce = NULL;	/* not expected: the core forgets it first */
	if (roce != ib->netdev) {
		mlx5_shim_ib_set_netdev(ib, roce);
		if (roce && ib->live)
			mlx5_shim_ib_port_event(ib, mlx5_shim_ib_port_state_event(roce));
		return NOTIFY_DONE;
	}
	if (ndev != roce || !ib->live)
		return NOTIFY_DONE;
	if (event == NETDEV_UP || event == NETDEV_DOWN || event == NETDEV_CHANGE)
		mlx5_shim_ib_port_event(ib, mlx5_shim_ib_port_state_event(ndev));
	return NOTIFY_DONE;
}

/* under RTNL; registered while the ib_device is */
static int mlx5_shim_ib_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct mlx5_shim_ib *ib = container_of(nb, struct mlx5_shim_ib, nb);
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);

	if (ib->madev->lag)
		return mlx5_shim_ib_lag_netdev_event(ib, event, ndev);
	if (!mlx5_shim_ib_is_port_netdev(ib, ndev))
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_REGISTER:
		mlx5_shim_ib_set_netdev(ib, ndev);
		break;
	case NETDEV_UNREGISTER:
		if (ib->netdev == ndev)
			mlx5_shim_ib_set_netdev(ib, NULL);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		if (ib->netdev != ndev || !ib->live)
			break;
		mlx5_shim_ib_port_event(ib, mlx5_shim_ib_port_state_event(ndev));
		break;
	default:
		break;
	}
	return NOTIFY_DONE;
}

static int mlx5_shim_ib_add(struct mlx5_shim_client *client)
{
	struct mlx5_shim_adev *madev = client->madev;
	struct mlx5_shim_ib *ib;
	int err;

	ib = ib_alloc_device(mlx5_shim_ib, ibdev);
	if (!ib)
		return -ENOMEM;
	ib->madev = madev;
	spin_lock_init(&ib->lock);
	ib->ibdev.node_type = RDMA_NODE_IB_CA;
	ib->ibdev.phys_port_cnt = 1;
	ib->ibdev.num_comp_vectors = 1;
	ib->ibdev.node_guid = cpu_to_be64(madev->guid ^ ((u64)madev->is_sf << 63) ^
					  ((u64)madev->sfnum << 8) ^ madev->port);
	strscpy(ib->ibdev.node_desc, dev_name(&madev->adev.dev), sizeof(ib->ibdev.node_desc));
	ib->ibdev.dev.parent = &madev->adev.dev;
	ib_set_device_ops(&ib->ibdev, &mlx5_shim_ib_ops);

	/* replays NETDEV_REGISTER of the netdevs that exist: the port's netdev is set now */
	ib->nb.notifier_call = mlx5_shim_ib_netdev_event;
	err = register_netdevice_notifier(&ib->nb);
	if (err)
		goto err_dealloc_device;

	/* no DMA device: a software device, as rxe; ib_core fills the GID table from here on */
	err = ib_register_device(&ib->ibdev, madev->lag ? "mlx5_shim_bond_%d" : "mlx5_shim_%d",
				 NULL);
	if (err) {
		dev_err(&madev->adev.dev, "ib_register_device: %d\n", err);
		goto err_unregister_notifier;
	}
	rtnl_lock();
	ib->live = true;
	/* a netdev event between ib_register_device() and here was not dispatched: catch up */
	if (ib->netdev)
		mlx5_shim_ib_port_sync(ib, ib->netdev);
	dev_info(&madev->adev.dev, "ib_device %s%s, port netdev %s\n", dev_name(&ib->ibdev.dev),
		 madev->lag ? " (LAG)" : "", ib->netdev ? netdev_name(ib->netdev) : "none yet");
	rtnl_unlock();
	client->priv = ib;
	return 0;

err_unregister_notifier:
	unregister_netdevice_notifier(&ib->nb);
	mlx5_shim_ib_set_netdev(ib, NULL);
err_dealloc_device:
	ib_dealloc_device(&ib->ibdev);
	return err;
}

static void mlx5_shim_ib_remove(struct mlx5_shim_client *client)
{
	struct mlx5_shim_ib *ib = client->priv;

	client->priv = NULL;
	/* first: no port event is queued once ib_unregister_device() has flushed them */
	unregister_netdevice_notifier(&ib->nb);
	mlx5_shim_ib_set_netdev(ib, NULL);
	ib_unregister_device(&ib->ibdev);
	ib_dealloc_device(&ib->ibdev);
}

#define MLX5_SHIM_RDMA_DESC "mlx5 shim: RDMA client, a RoCE ib_device on its function's netdev"

#else /* !CONFIG_INFINIBAND */

static int mlx5_shim_ib_add(struct mlx5_shim_client *client)
{
	dev_info(&client->madev->adev.dev,
		 "kernel built without CONFIG_INFINIBAND: no ib_device registered\n");
	return 0;
}

static void mlx5_shim_ib_remove(struct mlx5_shim_client *client)
{
}

#define MLX5_SHIM_RDMA_DESC \
	"mlx5 shim: RDMA client; registers no ib_device (kernel built without CONFIG_INFINIBAND)"

#endif /* CONFIG_INFINIBAND */

static int mlx5_shim_rdma_probe(struct auxiliary_device *adev,
				const struct auxiliary_device_id *id)
{
	return mlx5_shim_client_probe_subsys(adev, id, mlx5_shim_ib_add);
}

static void mlx5_shim_rdma_remove(struct auxiliary_device *adev)
{
	mlx5_shim_client_remove_subsys(adev, mlx5_shim_ib_remove);
}

static MLX5_SHIM_CLIENT_ATTR(rdma_port, mlx5_shim_client_port_show);
static MLX5_SHIM_CLIENT_ATTR(rdma_guid, mlx5_shim_client_guid_show);
static MLX5_SHIM_CLIENT_ATTR(rdma_events, mlx5_shim_client_events_show);
static MLX5_SHIM_CLIENT_ATTR(rdma_pm, mlx5_shim_client_pm_show);

static MLX5_SHIM_CLIENT_STATE_ATTR(rdma_state, "active", "down");

static ssize_t rdma_mode_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_client *rdma = dev_to_mlx5_shim_client(dev);

	return sysfs_emit(buf, "%s\n",
			  rdma->madev->kind == MLX5_SHIM_ADEV_RDMA_REP ? "rdma-rep" :
			  rdma->madev->lag ? "rdma-lag" : "rdma");
}
static DEVICE_ATTR_RO(rdma_mode);

static ssize_t rdma_lag_peer_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	char name[64];

	if (mlx5_shim_lag_peer(dev_to_mlx5_shim_client(dev)->madev, name, sizeof(name)))
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s\n", name);
}
static DEVICE_ATTR_RO(rdma_lag_peer);

static struct attribute *mlx5_shim_rdma_attrs[] = {
	&dev_attr_rdma_port.attr,
	&dev_attr_rdma_guid.attr,
	&dev_attr_rdma_mode.attr,
	&dev_attr_rdma_lag_peer.attr,
	&dev_attr_rdma_events.attr,
	&dev_attr_rdma_state.attr.attr,
	&dev_attr_rdma_pm.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_rdma);

AUXILIARY_DEVICE_TABLE(mlx5_shim_rdma_id_table, "mlx5_shim_core.rdma", "mlx5_shim_core.rdma-rep");

static struct auxiliary_driver mlx5_shim_rdma_driver = {
	.driver = {
		.dev_groups = mlx5_shim_rdma_groups,
	},
	.probe = mlx5_shim_rdma_probe,
	.remove = mlx5_shim_rdma_remove,
	.suspend = mlx5_shim_client_suspend,
	.resume = mlx5_shim_client_resume,
	.id_table = mlx5_shim_rdma_id_table,
};
module_auxiliary_driver(mlx5_shim_rdma_driver);

MODULE_DESCRIPTION(MLX5_SHIM_RDMA_DESC);
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("MLX5_SHIM");
