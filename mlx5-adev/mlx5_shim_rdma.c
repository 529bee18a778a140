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

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "mlx5_shim.h"

struct mlx5_shim_rdma {
	struct mlx5_shim_adev *madev;
	struct notifier_block nb;
	atomic_t events;
	atomic_t suspends;
	atomic_t resumes;
	bool suspended;
	bool link_up;
};

static struct mlx5_shim_rdma *dev_to_rdma(struct device *dev)
{
	return auxiliary_get_drvdata(to_auxiliary_dev(dev));
}

static ssize_t rdma_port_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_rdma(dev)->madev->port);
}
static DEVICE_ATTR_RO(rdma_port);

static ssize_t rdma_guid_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%016llx\n", dev_to_rdma(dev)->madev->guid);
}
static DEVICE_ATTR_RO(rdma_guid);

static ssize_t rdma_mode_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_rdma *rdma = dev_to_rdma(dev);

	return sysfs_emit(buf, "%s\n",
			  rdma->madev->kind == MLX5_SHIM_ADEV_RDMA_REP ? "rdma-rep" : "rdma");
}
static DEVICE_ATTR_RO(rdma_mode);

static ssize_t rdma_lag_peer_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	char name[64];

	if (mlx5_shim_lag_peer(dev_to_rdma(dev)->madev, name, sizeof(name)))
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s\n", name);
}
static DEVICE_ATTR_RO(rdma_lag_peer);

static ssize_t rdma_events_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&dev_to_rdma(dev)->events));
}
static DEVICE_ATTR_RO(rdma_events);

static ssize_t rdma_state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_rdma *rdma = dev_to_rdma(dev);

	if (READ_ONCE(rdma->suspended))
		return sysfs_emit(buf, "suspended\n");
	return sysfs_emit(buf, "%s\n", READ_ONCE(rdma->link_up) ? "active" : "down");
}
static DEVICE_ATTR_RO(rdma_state);

static ssize_t rdma_pm_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_rdma *rdma = dev_to_rdma(dev);

	return sysfs_emit(buf, "suspends %d resumes %d\n", atomic_read(&rdma->suspends),
			  atomic_read(&rdma->resumes));
}
static DEVICE_ATTR_RO(rdma_pm);

static struct attribute *mlx5_shim_rdma_attrs[] = {
	&dev_attr_rdma_port.attr,
	&dev_attr_rdma_guid.attr,
	&dev_attr_rdma_mode.attr,
	&dev_attr_rdma_lag_peer.attr,
	&dev_attr_rdma_events.attr,
	&dev_attr_rdma_state.attr,
	&dev_attr_rdma_pm.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_rdma);

static int mlx5_shim_rdma_event(struct notifier_block *nb, unsigned long event, void *data)
{
	struct mlx5_shim_rdma *rdma = container_of(nb, struct mlx5_shim_rdma, nb);
	const struct mlx5_shim_caps *caps = data;

	atomic_inc(&rdma->events);
	WRITE_ONCE(rdma->link_up, caps->link_up);
	return NOTIFY_OK;
}

static int mlx5_shim_rdma_probe(struct auxiliary_device *adev,
				const struct auxiliary_device_id *id)
{
	struct mlx5_shim_adev *madev = to_mlx5_shim_adev(adev);
	struct mlx5_shim_rdma *rdma;
	struct mlx5_shim_caps caps;
	int err;

	rdma = kzalloc(sizeof(*rdma), GFP_KERNEL);
	if (!rdma)
		return -ENOMEM;
	rdma->madev = madev;
	mlx5_shim_query_caps(madev, &caps);
	rdma->link_up = caps.link_up;
	auxiliary_set_drvdata(adev, rdma);

	rdma->nb.notifier_call = mlx5_shim_rdma_event;
	err = mlx5_shim_register_notifier(madev, &rdma->nb);
	if (err)
		goto err_free_rdma;
	return 0;

err_free_rdma:
	kfree(rdma);
	return err;
}

static void mlx5_shim_rdma_remove(struct auxiliary_device *adev)
{
	struct mlx5_shim_rdma *rdma = auxiliary_get_drvdata(adev);

	mlx5_shim_unregister_notifier(rdma->madev, &rdma->nb);
	kfree(rdma);
}

static int mlx5_shim_rdma_suspend(struct auxiliary_device *adev, pm_message_t state)
{
	struct mlx5_shim_rdma *rdma = auxiliary_get_drvdata(adev);

	WRITE_ONCE(rdma->suspended, true);
	atomic_inc(&rdma->suspends);
	return 0;
}

static int mlx5_shim_rdma_resume(struct auxiliary_device *adev)
{
	struct mlx5_shim_rdma *rdma = auxiliary_get_drvdata(adev);

	WRITE_ONCE(rdma->suspended, false);
	atomic_inc(&rdma->resumes);
	return 0;
}

AUXILIARY_DEVICE_TABLE(mlx5_shim_rdma_id_table, "mlx5_shim_core.rdma", "mlx5_shim_core.rdma-rep");

static struct auxiliary_driver mlx5_shim_rdma_driver = {
	.driver = {
		.dev_groups = mlx5_shim_rdma_groups,
	},
	.probe = mlx5_shim_rdma_probe,
	.remove = mlx5_shim_rdma_remove,
	.suspend = mlx5_shim_rdma_suspend,
	.resume = mlx5_shim_rdma_resume,
	.id_table = mlx5_shim_rdma_id_table,
};
module_auxiliary_driver(mlx5_shim_rdma_driver);

MODULE_DESCRIPTION("mlx5 shim: RDMA client (reports state, no RDMA core)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("MLX5_SHIM");
