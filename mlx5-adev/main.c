// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core: a simulated mlx5-style adapter and its auxiliary devices.
 *
 * Adapters are created and deleted through the control files of the mlx5_shim bus, the
 * way netdevsim does it (drivers/net/netdevsim/bus.c); sysfs, not debugfs, so that they
 * exist under kernel lockdown and with debugfs=off:
 *
 *   /sys/bus/mlx5_shim/new_device   "ID [ports=N] [caps=eth,rdma,vnet|none]"
 *   /sys/bus/mlx5_shim/del_device   "ID"
 *
 * (and the test counter /sys/kernel/debug/mlx5_shim/sf_teardown, read only: how many
 * batched SF teardowns ran and how many netdevs they unregistered; see
 * mlx5_shim_sf_dellink_all()).
 *
 * Every port is a struct device on the mlx5_shim bus (mlx5_shim<ID>p<PORT>) bound to
 * the mlx5_shim_core driver, the way a PCI function is bound to mlx5_core. A bound port
 * exposes the auxiliary devices its capabilities and eswitch mode support, chosen from
 * mlx5_shim_adev_devices[] as mainline's drivers/net/ethernet/mellanox/mlx5/core/dev.c
 * chooses from mlx5_adev_devices[], and has its own control files in
 * /sys/kernel/debug/mlx5_shim/<port>/: caps, esw_mode, link, pm, sf_add, sf_del, sfs, lag,
 * and the test knob fail_attach.
 *
 * This file, as mlx5's main.c: module init and exit, probe and remove of the port driver,
 * and system sleep. The other parts are listed in mlx5_shim_priv.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "mlx5_shim_priv.h"

/*
 * Objects whose release runs this module's code: adapters (their last port's release) and
 * auxiliary devices. A device's last reference can go after its unregister returned (sysfs
 * readers, CONFIG_DEBUG_KOBJECT_RELEASE), so module exit waits for them, as netdevsim's bus
 * waits for nsim_bus_devs: one reference for the module itself, one per object.
 */
static refcount_t mlx5_shim_objs = REFCOUNT_INIT(1);
static DECLARE_COMPLETION(mlx5_shim_objs_released);

void mlx5_shim_obj_get(void)
{
	refcount_inc(&mlx5_shim_objs);
}

void mlx5_shim_obj_put(void)
{
	if (refcount_dec_and_test(&mlx5_shim_objs))
		complete(&mlx5_shim_objs_released);
}

static int mlx5_shim_port_probe(struct device *dev)
{
	struct mlx5_shim_port *port = to_mlx5_shim_port(dev);
	struct mlx5_shim_func *func = &port->func;
	int err;

	mutex_lock(&func->lock);
	func->disable_all = false;
	func->detached = false;
	err = mlx5_shim_rescan_locked(func);
	if (err)
		mlx5_shim_disable_all_locked(func);
	mutex_unlock(&func->lock);
	if (!err) {
		/* last: it makes the function visible to devlink's users */
		err = mlx5_shim_devlink_add(port);
		if (err) {
			dev_err(dev, "devlink registration failed: %d\n", err);
			mutex_lock(&func->lock);
			mlx5_shim_disable_all_locked(func);
			mutex_unlock(&func->lock);
		}
	}
	port->probe_err = err;
	if (err)
		return err;

	spin_lock(&mlx5_shim_registry_lock);
	port->bound = true;
	spin_unlock(&mlx5_shim_registry_lock);
	mlx5_shim_lag_port_add(port);
	mlx5_shim_port_debugfs_init(port);
	return 0;
}

static int mlx5_shim_port_remove(struct device *dev)
{
	struct mlx5_shim_port *port = to_mlx5_shim_port(dev);
	struct mlx5_shim_func *func = &port->func;

	/* first: waits for control-file writers in flight (they take the devlink lock) */
	mlx5_shim_port_debugfs_exit(port);
	/* waits for devlink commands in flight, then none come */
	mlx5_shim_devlink_del(port);
	spin_lock(&mlx5_shim_registry_lock);
	port->bound = false;
	spin_unlock(&mlx5_shim_registry_lock);
	/* unbound: no LAG activation includes it any more */
	mlx5_shim_lag_port_remove(port);

	mlx5_shim_sf_del_all(port);
	mutex_lock(&func->lock);
	mlx5_shim_disable_all_locked(func);
	mutex_unlock(&func->lock);
	return 0;
}

/*
 * System sleep: detach with suspend and attach, as mlx5's PCI suspend/resume do. Resume
 * attaches only what suspend detached: a port the user detached through its pm control
 * file stays detached until the user attaches it.
 */
static int __maybe_unused mlx5_shim_port_suspend(struct device *dev)
{
	struct mlx5_shim_port *port = to_mlx5_shim_port(dev);
	struct mlx5_shim_func *func = &port->func;

	mutex_lock(&func->lock);
	if (!func->detached) {
		mlx5_shim_detach_locked(func, true);
		port->sleep_detached = true;
	}
	mutex_unlock(&func->lock);
	return 0;
}

static int __maybe_unused mlx5_shim_port_resume(struct device *dev)
{
	struct mlx5_shim_port *port = to_mlx5_shim_port(dev);
	struct mlx5_shim_func *func = &port->func;
	int err = 0;

	mutex_lock(&func->lock);
	if (port->sleep_detached) {
		/* on failure the port stays detached; its pm file can retry */
		err = mlx5_shim_attach_locked(func);
		port->sleep_detached = false;
	}
	mutex_unlock(&func->lock);
	return err;
}

static SIMPLE_DEV_PM_OPS(mlx5_shim_port_pm_ops, mlx5_shim_port_suspend, mlx5_shim_port_resume);

static struct device_driver mlx5_shim_driver = {
	.name = KBUILD_MODNAME,
	.bus = &mlx5_shim_bus,
	.owner = THIS_MODULE,
	.probe = mlx5_shim_port_probe,
	.remove = mlx5_shim_port_remove,
	.pm = &mlx5_shim_port_pm_ops,
};

static int __init mlx5_shim_core_init(void)
{
	int err;

	err = bus_register(&mlx5_shim_bus);
	if (err)
		return err;
	/* before any port: it tracks the ports' netdevs from their registration */
	err = mlx5_shim_lag_init();
	if (err)
		goto err_unregister_bus;
	err = driver_register(&mlx5_shim_driver);
	if (err)
		goto err_lag_exit;

	mlx5_shim_debugfs_init();
	mlx5_shim_adapters_enable();
	return 0;

err_lag_exit:
	mlx5_shim_lag_exit();
err_unregister_bus:
	auxbus_bus_unregister_sync(&mlx5_shim_bus);
	return err;
}

static void __exit mlx5_shim_core_exit(void)
{
	/*
	 * No new adapters, and the existing ones deleted (the control files themselves go
	 * with the bus, after the adapters, as netdevsim's). Each port's remove() removes
	 * its own debugfs directory.
	 */
	mlx5_shim_adapters_del_all();
	mlx5_shim_debugfs_exit();

	driver_unregister(&mlx5_shim_driver);
	mlx5_shim_lag_exit();
	auxbus_bus_unregister_sync(&mlx5_shim_bus);
	/* releases still pending run this module's code */
	if (!refcount_dec_and_test(&mlx5_shim_objs))
		wait_for_completion(&mlx5_shim_objs_released);
	ida_destroy(&mlx5_shim_adev_ida);
}

module_init(mlx5_shim_core_init);
module_exit(mlx5_shim_core_exit);

MODULE_DESCRIPTION("mlx5 shim: simulated adapter, parent of auxiliary devices");
MODULE_LICENSE("GPL");
