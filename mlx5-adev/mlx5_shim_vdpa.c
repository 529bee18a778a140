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

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "mlx5_shim.h"

struct mlx5_shim_vdpa {
	struct mlx5_shim_adev *madev;
	struct notifier_block nb;
	atomic_t events;
	atomic_t suspends;
	atomic_t resumes;
	bool suspended;
	bool link_up;
	enum mlx5_shim_esw_mode esw_mode;
};

static struct mlx5_shim_vdpa *dev_to_vdpa(struct device *dev)
{
	return auxiliary_get_drvdata(to_auxiliary_dev(dev));
}

static ssize_t vdpa_port_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_vdpa(dev)->madev->port);
}
static DEVICE_ATTR_RO(vdpa_port);

static ssize_t vdpa_guid_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%016llx\n", dev_to_vdpa(dev)->madev->guid);
}
static DEVICE_ATTR_RO(vdpa_guid);

static ssize_t vdpa_mac_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_caps caps;

	mlx5_shim_query_caps(dev_to_vdpa(dev)->madev, &caps);
	return sysfs_emit(buf, "%pM\n", caps.mac);
}
static DEVICE_ATTR_RO(vdpa_mac);

static ssize_t vdpa_esw_mode_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	bool switchdev = READ_ONCE(dev_to_vdpa(dev)->esw_mode) == MLX5_SHIM_ESW_SWITCHDEV;

	return sysfs_emit(buf, "%s\n", switchdev ? "switchdev" : "legacy");
}
static DEVICE_ATTR_RO(vdpa_esw_mode);

static ssize_t vdpa_events_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&dev_to_vdpa(dev)->events));
}
static DEVICE_ATTR_RO(vdpa_events);

static ssize_t vdpa_state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_vdpa *vdpa = dev_to_vdpa(dev);

	if (READ_ONCE(vdpa->suspended))
		return sysfs_emit(buf, "suspended\n");
	return sysfs_emit(buf, "%s\n", READ_ONCE(vdpa->link_up) ? "running" : "link-down");
}
static DEVICE_ATTR_RO(vdpa_state);

static ssize_t vdpa_pm_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_vdpa *vdpa = dev_to_vdpa(dev);

	return sysfs_emit(buf, "suspends %d resumes %d\n", atomic_read(&vdpa->suspends),
			  atomic_read(&vdpa->resumes));
}
static DEVICE_ATTR_RO(vdpa_pm);

static struct attribute *mlx5_shim_vdpa_attrs[] = {
	&dev_attr_vdpa_port.attr,
	&dev_attr_vdpa_guid.attr,
	&dev_attr_vdpa_mac.attr,
	&dev_attr_vdpa_esw_mode.attr,
	&dev_attr_vdpa_events.attr,
	&dev_attr_vdpa_state.attr,
	&dev_attr_vdpa_pm.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_vdpa);

static int mlx5_shim_vdpa_event(struct notifier_block *nb, unsigned long event, void *data)
{
	struct mlx5_shim_vdpa *vdpa = container_of(nb, struct mlx5_shim_vdpa, nb);
	const struct mlx5_shim_caps *caps = data;

	atomic_inc(&vdpa->events);
	WRITE_ONCE(vdpa->link_up, caps->link_up);
	WRITE_ONCE(vdpa->esw_mode, caps->esw_mode);
	return NOTIFY_OK;
}

static int mlx5_shim_vdpa_probe(struct auxiliary_device *adev,
				const struct auxiliary_device_id *id)
{
	struct mlx5_shim_adev *madev = to_mlx5_shim_adev(adev);
	struct mlx5_shim_vdpa *vdpa;
	struct mlx5_shim_caps caps;
	int err;

	vdpa = kzalloc(sizeof(*vdpa), GFP_KERNEL);
	if (!vdpa)
		return -ENOMEM;
	vdpa->madev = madev;
	mlx5_shim_query_caps(madev, &caps);
	vdpa->link_up = caps.link_up;
	vdpa->esw_mode = caps.esw_mode;
	auxiliary_set_drvdata(adev, vdpa);

	vdpa->nb.notifier_call = mlx5_shim_vdpa_event;
	err = mlx5_shim_register_notifier(madev, &vdpa->nb);
	if (err)
		goto err_free_vdpa;
	return 0;

err_free_vdpa:
	kfree(vdpa);
	return err;
}

static void mlx5_shim_vdpa_remove(struct auxiliary_device *adev)
{
	struct mlx5_shim_vdpa *vdpa = auxiliary_get_drvdata(adev);

	mlx5_shim_unregister_notifier(vdpa->madev, &vdpa->nb);
	kfree(vdpa);
}

static int mlx5_shim_vdpa_suspend(struct auxiliary_device *adev, pm_message_t state)
{
	struct mlx5_shim_vdpa *vdpa = auxiliary_get_drvdata(adev);

	WRITE_ONCE(vdpa->suspended, true);
	atomic_inc(&vdpa->suspends);
	return 0;
}

static int mlx5_shim_vdpa_resume(struct auxiliary_device *adev)
{
	struct mlx5_shim_vdpa *vdpa = auxiliary_get_drvdata(adev);

	WRITE_ONCE(vdpa->suspended, false);
	atomic_inc(&vdpa->resumes);
	return 0;
}

AUXILIARY_DEVICE_TABLE(mlx5_shim_vdpa_id_table, "mlx5_shim_core.vnet");

static struct auxiliary_driver mlx5_shim_vdpa_driver = {
	.driver = {
		.dev_groups = mlx5_shim_vdpa_groups,
	},
	.probe = mlx5_shim_vdpa_probe,
	.remove = mlx5_shim_vdpa_remove,
	.suspend = mlx5_shim_vdpa_suspend,
	.resume = mlx5_shim_vdpa_resume,
	.id_table = mlx5_shim_vdpa_id_table,
};
module_auxiliary_driver(mlx5_shim_vdpa_driver);

MODULE_DESCRIPTION("mlx5 shim: vDPA net client (reports state, no vDPA core)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("MLX5_SHIM");
