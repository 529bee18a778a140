// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's dev.c: the table of auxiliary device kinds, the rescan that
 * adds and removes a function's devices as its capabilities and eswitch mode change, and
 * detach/attach (suspend/resume of the devices). Also the functions' capabilities.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "mlx5_shim_priv.h"

/* ids of the auxiliary devices: one per port function, SF function and SF device */
DEFINE_IDA(mlx5_shim_adev_ida);

/* ---- the table of auxiliary device kinds ---------------------------------------- */

/*
 * The eth device stays in both eswitch modes: in switchdev mode its netdev takes the role
 * of the uplink representor (the eth client changes its "profile" on the mode change
 * event) and keeps its ifindex, namespace, addresses and traffic, as mainline's since
 * 7a9fb35e8c3a ("net/mlx5e: Do not reload ethernet ports when changing eswitch mode",
 * v5.13). The eth-rep device then holds only the SF (vport) representors.
 */
static bool is_eth_supported(const struct mlx5_shim_func *func)
{
	return func->caps & MLX5_SHIM_CAP_ETH;
}

static bool is_eth_rep_supported(const struct mlx5_shim_func *func)
{
	return (func->caps & MLX5_SHIM_CAP_ETH) && func->esw_mode == MLX5_SHIM_ESW_SWITCHDEV;
}

static bool is_rdma_supported(const struct mlx5_shim_func *func)
{
	/* lag.c: LAG takes it from every port and gives one to port 0 (lag_roce) */
	return (func->caps & MLX5_SHIM_CAP_RDMA) && func->esw_mode == MLX5_SHIM_ESW_LEGACY &&
	       !func->lag_disable_ib;
}

static bool is_rdma_rep_supported(const struct mlx5_shim_func *func)
{
	return (func->caps & MLX5_SHIM_CAP_RDMA) && func->esw_mode == MLX5_SHIM_ESW_SWITCHDEV;
}

static bool is_vnet_supported(const struct mlx5_shim_func *func)
{
	return func->caps & MLX5_SHIM_CAP_VNET;
}

static const struct mlx5_shim_adev_device {
	const char *suffix;
	bool (*is_supported)(const struct mlx5_shim_func *func);
} mlx5_shim_adev_devices[MLX5_SHIM_ADEV_NUM] = {
	[MLX5_SHIM_ADEV_ETH] = { .suffix = "eth", .is_supported = is_eth_supported },
	[MLX5_SHIM_ADEV_ETH_REP] = { .suffix = "eth-rep", .is_supported = is_eth_rep_supported },
	[MLX5_SHIM_ADEV_RDMA] = { .suffix = "rdma", .is_supported = is_rdma_supported },
	[MLX5_SHIM_ADEV_RDMA_REP] = { .suffix = "rdma-rep", .is_supported = is_rdma_rep_supported },
	[MLX5_SHIM_ADEV_VNET] = { .suffix = "vnet", .is_supported = is_vnet_supported },
};

static void mlx5_shim_adev_release(struct device *dev)
{
	struct mlx5_shim_adev *madev = to_mlx5_shim_adev(to_auxiliary_dev(dev));

	kfree(madev);
	mlx5_shim_obj_put();
}

void mlx5_shim_fill_adev(struct mlx5_shim_adev *madev, struct mlx5_shim_func *func)
{
	madev->func = func;
	madev->guid = func->guid;
	madev->adapter = func->adapter;
	madev->port = func->port;
	madev->sfnum = func->sfnum;
	madev->is_sf = func->is_sf;
}

static struct mlx5_shim_adev *mlx5_shim_add_adev(struct mlx5_shim_func *func, int idx)
{
	struct mlx5_shim_adev *madev;
	struct auxiliary_device *adev;
	int err;

	madev = kzalloc(sizeof(*madev), GFP_KERNEL);
	if (!madev)
		return ERR_PTR(-ENOMEM);
	mlx5_shim_obj_get();	/* put by the release, or below */

	mlx5_shim_fill_adev(madev, func);
	madev->kind = idx;
	madev->lag = idx == MLX5_SHIM_ADEV_RDMA && func->lag_roce;	/* lag.c */
	adev = &madev->adev;
	adev->name = mlx5_shim_adev_devices[idx].suffix;
	adev->id = func->adev_idx;
	adev->dev.parent = func->device;
	adev->dev.release = mlx5_shim_adev_release;

	err = auxiliary_device_init(adev);
	if (err)
		goto err_free_madev;

	err = auxiliary_device_add(adev);
	if (err)
		goto err_uninit_adev;

	return madev;

err_uninit_adev:
	auxiliary_device_uninit(adev);	/* release frees madev */
	return ERR_PTR(err);
err_free_madev:
	kfree(madev);
	mlx5_shim_obj_put();
	return ERR_PTR(err);
}

void mlx5_shim_del_adev(struct mlx5_shim_adev *madev)
{
	auxiliary_device_delete(&madev->adev);
	auxiliary_device_uninit(&madev->adev);
}

/*
 * Add what became supported and remove what stopped being supported (everything when
 * disable_all is set), removing in reverse table order, as
 * mlx5_rescan_drivers_locked() does.
 */
int mlx5_shim_rescan_locked(struct mlx5_shim_func *func)
{
	struct mlx5_shim_adev *madev;
	int i, err = 0;

	lockdep_assert_held(&func->lock);
	if (func->detached)
		return 0;

	for (i = MLX5_SHIM_ADEV_NUM - 1; i >= 0; i--) {
		if (!func->adev[i])
			continue;
		if (!func->disable_all && mlx5_shim_adev_devices[i].is_supported(func))
			continue;
		mlx5_shim_del_adev(func->adev[i]);
		func->adev[i] = NULL;
	}
	if (func->disable_all)
		return 0;

	for (i = 0; i < MLX5_SHIM_ADEV_NUM; i++) {
		if (func->adev[i] || !mlx5_shim_adev_devices[i].is_supported(func))
			continue;
		madev = mlx5_shim_add_adev(func, i);
		if (IS_ERR(madev)) {
			err = PTR_ERR(madev);
			dev_warn(func->device, "adding %s failed: %d\n",
				 mlx5_shim_adev_devices[i].suffix, err);
			break;
		}
		func->adev[i] = madev;
	}
	return err;
}

void mlx5_shim_disable_all_locked(struct mlx5_shim_func *func)
{
	func->disable_all = true;
	func->detached = false;
	mlx5_shim_rescan_locked(func);
}

/* Call the bound driver's suspend(); true when the device is kept, suspended. */
static bool mlx5_shim_suspend_adev(struct mlx5_shim_adev *madev)
{
	const struct auxiliary_driver *adrv;
	int err;

	device_lock(&madev->adev.dev);
	adrv = madev->adev.dev.driver ? to_auxiliary_drv(madev->adev.dev.driver) : NULL;
	if (adrv && adrv->suspend) {
		err = adrv->suspend(&madev->adev, PMSG_SUSPEND);
		if (err)
			dev_warn(&madev->adev.dev, "suspend failed: %d\n", err);
		madev->suspended = true;
	}
	device_unlock(&madev->adev.dev);
	return madev->suspended;
}

/* Call the bound driver's resume(); on failure the device stays suspended. */
static int mlx5_shim_resume_adev(struct mlx5_shim_adev *madev)
{
	const struct auxiliary_driver *adrv;
	int err = 0;

	device_lock(&madev->adev.dev);
	adrv = madev->adev.dev.driver ? to_auxiliary_drv(madev->adev.dev.driver) : NULL;
	if (adrv && adrv->resume)
		err = adrv->resume(&madev->adev);
	if (!err)
		madev->suspended = false;
	device_unlock(&madev->adev.dev);
	return err;
}

/*
 * Detach, as mlx5_detach_device(): with @suspend, devices whose driver can suspend keep
 * existing and get suspend(); every other device is deleted. Attach undoes it.
 */
void mlx5_shim_detach_locked(struct mlx5_shim_func *func, bool suspend)
{
	struct mlx5_shim_adev *madev;
	int i;

	lockdep_assert_held(&func->lock);
	for (i = MLX5_SHIM_ADEV_NUM - 1; i >= 0; i--) {
		madev = func->adev[i];
		if (!madev)
			continue;
		if (suspend && mlx5_shim_adev_devices[i].is_supported(func) &&
		    mlx5_shim_suspend_adev(madev))
			continue;
		mlx5_shim_del_adev(madev);
		func->adev[i] = NULL;
	}
	func->detached = true;
}

/*
 * Attach, as mlx5_attach_device(): add the supported devices that are missing and resume
 * the suspended ones, in table order. All or nothing: when a device fails, the ones this
 * attach added are deleted and the ones it resumed are suspended again, in reverse order,
 * so the function is left detached as it was and a later attach retries.
 */
int mlx5_shim_attach_locked(struct mlx5_shim_func *func)
{
	struct mlx5_shim_adev *madev;
	unsigned long added = 0;
	u32 fail_at, n = 0;
	int i, err = 0;

	lockdep_assert_held(&func->lock);
	fail_at = func->fail_attach;
	WRITE_ONCE(func->fail_attach, 0);
	for (i = 0; i < MLX5_SHIM_ADEV_NUM; i++) {
		madev = func->adev[i];
		if (madev && !madev->suspended)
			continue;
		if (!madev && !mlx5_shim_adev_devices[i].is_supported(func))
			continue;
		if (++n == fail_at) {
			err = -EIO;
			break;
		}
		if (madev) {
			err = mlx5_shim_resume_adev(madev);
			if (err)
				break;
			continue;
		}
		madev = mlx5_shim_add_adev(func, i);
		if (IS_ERR(madev)) {
			err = PTR_ERR(madev);
			break;
		}
		func->adev[i] = madev;
		__set_bit(i, &added);
	}
	if (err)
		goto err_detach;
	func->detached = false;
	return 0;

err_detach:
	dev_err(func->device, "attach: %s failed: %d\n", mlx5_shim_adev_devices[i].suffix, err);
	while (--i >= 0) {
		madev = func->adev[i];
		if (!madev)
			continue;
		if (__test_and_clear_bit(i, &added)) {
			mlx5_shim_del_adev(madev);
			func->adev[i] = NULL;
		} else if (!madev->suspended && !mlx5_shim_suspend_adev(madev)) {
			/* resumed, but its driver can no longer suspend: delete it */
			mlx5_shim_del_adev(madev);
			func->adev[i] = NULL;
		}
	}
	return err;
}

void mlx5_shim_func_init(struct mlx5_shim_func *func, struct device *device, u64 guid,
			 u32 adapter, u32 port, u32 caps)
{
	func->device = device;
	func->guid = guid;
	func->adapter = adapter;
	func->port = port;
	func->caps = caps;
	func->esw_mode = MLX5_SHIM_ESW_LEGACY;
	func->link_up = true;
	func->disable_all = true;	/* until bound */
	spin_lock_init(&func->ep_lock);
	mutex_init(&func->rep_lock);
	BLOCKING_INIT_NOTIFIER_HEAD(&func->nh);
}

static const char * const mlx5_shim_cap_names[] = { "eth", "rdma", "vnet" };

/* "eth,rdma,vnet" or "none"; every name known and given once */
int mlx5_shim_parse_caps(char *s, u32 *caps)
{
	char *name;
	u32 bit;
	int i;

	*caps = 0;
	if (!strcmp(s, "none"))
		return 0;
	while ((name = strsep(&s, ","))) {
		i = match_string(mlx5_shim_cap_names, ARRAY_SIZE(mlx5_shim_cap_names), name);
		if (i < 0)
			return -EINVAL;
		bit = BIT(i);
		if (*caps & bit)
			return -EINVAL;
		*caps |= bit;
	}
	return 0;
}

int mlx5_shim_format_caps(u32 caps, char *buf, size_t size)
{
	int i, len = 0;

	for (i = 0; i < ARRAY_SIZE(mlx5_shim_cap_names); i++)
		if (caps & BIT(i))
			len += scnprintf(buf + len, size - len, "%s%s", len ? "," : "",
					 mlx5_shim_cap_names[i]);
	if (!len)
		len = scnprintf(buf, size, "none");
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}

/* Apply a change of caps or mode with a rescan; on failure, restore and rescan back. */
int mlx5_shim_change_locked(struct mlx5_shim_func *func, u32 caps,
			    enum mlx5_shim_esw_mode mode, enum mlx5_shim_event event)
{
	u32 old_caps = func->caps;
	enum mlx5_shim_esw_mode old_mode = func->esw_mode;
	int err;

	err = mlx5_shim_wire_set_caps(func, caps);
	if (err)
		return err;
	WRITE_ONCE(func->esw_mode, mode);
	err = mlx5_shim_rescan_locked(func);
	if (err) {
		WRITE_ONCE(func->caps, old_caps);
		WRITE_ONCE(func->esw_mode, old_mode);
		mlx5_shim_rescan_locked(func);
		return err;
	}
	mlx5_shim_notify(func, event);
	return 0;
}
