// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_rdma: RDMA client of mlx5_shim_core.
 *
 * Binds mlx5_shim_core.rdma.<id> and mlx5_shim_core.rdma-rep.<id> (switchdev mode). It
 * does not register with the RDMA core: it consumes the parent's services and reports
 * what it sees in sysfs, in the bound device's directory:
 *   rdma_port, rdma_guid, rdma_mode, rdma_lag_peer, rdma_events, rdma_state, rdma_pm
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#include "mlx5_shim.h"

static MLX5_SHIM_CLIENT_ATTR(rdma_port, mlx5_shim_client_port_show);
static MLX5_SHIM_CLIENT_ATTR(rdma_guid, mlx5_shim_client_guid_show);
static MLX5_SHIM_CLIENT_ATTR(rdma_events, mlx5_shim_client_events_show);
static MLX5_SHIM_CLIENT_ATTR(rdma_pm, mlx5_shim_client_pm_show);

static MLX5_SHIM_CLIENT_STATE_ATTR(rdma_state, "active", "down");

static ssize_t rdma_mode_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_client *rdma = dev_to_mlx5_shim_client(dev);

	return sysfs_emit(buf, "%s\n",
			  rdma->madev->kind == MLX5_SHIM_ADEV_RDMA_REP ? "rdma-rep" : "rdma");
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
	.probe = mlx5_shim_client_probe,
	.remove = mlx5_shim_client_remove,
	.suspend = mlx5_shim_client_suspend,
	.resume = mlx5_shim_client_resume,
	.id_table = mlx5_shim_rdma_id_table,
};
module_auxiliary_driver(mlx5_shim_rdma_driver);

MODULE_DESCRIPTION("mlx5 shim: RDMA client (reports state, no RDMA core)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("MLX5_SHIM");
