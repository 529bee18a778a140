// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_vdpa: vDPA (virtio net) client of mlx5_shim_core.
 *
 * Binds mlx5_shim_core.vnet.<id>. Its module name and id table never match mainline's
 * mlx5_vdpa (alias auxiliary:mlx5_core.vnet), and mlx5_vdpa never matches our devices.
 * It does not register with the vDPA core; it reports what it sees in sysfs, in the
 * bound device's directory: vdpa_port, vdpa_guid, vdpa_mac, vdpa_esw_mode, vdpa_events,
 * vdpa_state, vdpa_pm.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#include "mlx5_shim.h"

static MLX5_SHIM_CLIENT_ATTR(vdpa_port, mlx5_shim_client_port_show);
static MLX5_SHIM_CLIENT_ATTR(vdpa_guid, mlx5_shim_client_guid_show);
static MLX5_SHIM_CLIENT_ATTR(vdpa_events, mlx5_shim_client_events_show);
static MLX5_SHIM_CLIENT_ATTR(vdpa_pm, mlx5_shim_client_pm_show);

static MLX5_SHIM_CLIENT_STATE_ATTR(vdpa_state, "running", "link-down");

static ssize_t vdpa_mac_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_caps caps;

	mlx5_shim_query_caps(dev_to_mlx5_shim_client(dev)->madev, &caps);
	return sysfs_emit(buf, "%pM\n", caps.mac);
}
static DEVICE_ATTR_RO(vdpa_mac);

static ssize_t vdpa_esw_mode_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_client *vdpa = dev_to_mlx5_shim_client(dev);
	bool switchdev = READ_ONCE(vdpa->esw_mode) == MLX5_SHIM_ESW_SWITCHDEV;

	return sysfs_emit(buf, "%s\n", switchdev ? "switchdev" : "legacy");
}
static DEVICE_ATTR_RO(vdpa_esw_mode);

static struct attribute *mlx5_shim_vdpa_attrs[] = {
	&dev_attr_vdpa_port.attr,
	&dev_attr_vdpa_guid.attr,
	&dev_attr_vdpa_mac.attr,
	&dev_attr_vdpa_esw_mode.attr,
	&dev_attr_vdpa_events.attr,
	&dev_attr_vdpa_state.attr.attr,
	&dev_attr_vdpa_pm.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_vdpa);

AUXILIARY_DEVICE_TABLE(mlx5_shim_vdpa_id_table, "mlx5_shim_core.vnet");

static struct auxiliary_driver mlx5_shim_vdpa_driver = {
	.driver = {
		.dev_groups = mlx5_shim_vdpa_groups,
	},
	.probe = mlx5_shim_client_probe,
	.remove = mlx5_shim_client_remove,
	.suspend = mlx5_shim_client_suspend,
	.resume = mlx5_shim_client_resume,
	.id_table = mlx5_shim_vdpa_id_table,
};
module_auxiliary_driver(mlx5_shim_vdpa_driver);

MODULE_DESCRIPTION("mlx5 shim: vDPA net client (reports state, no vDPA core)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("MLX5_SHIM");
