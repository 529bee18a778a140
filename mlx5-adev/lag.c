// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's lag/lag.c finds the other port of a device: LAG peers are
 * the ports with the same system image GUID (namespace MLX5_SHIM).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "mlx5_shim_priv.h"

#ifdef MLX5_SHIM_LAG_BY_BUS
/*
 * Lifetime: the bus walk holds a reference on each device it tests and
 * auxiliary_find_device() returns its match with one, but a device's reference on its
 * parent ends in device_del(), not at its release: a concurrent del_device can free the
 * port (and its adapter) while we still hold one of its auxiliary devices. So neither
 * the match nor the result touches dev->parent. The device's own name tells it is ours
 * (mlx5_shim_core.<kind>.<id>; only this module gives such names), and its identity
 * fields, which live as long as the device, tell the port and give the port's name.
 */
static int mlx5_shim_lag_match(struct device *dev, const void *data)
{
	const struct mlx5_shim_lag_match *m = data;
	struct mlx5_shim_adev *madev;

	if (strncmp(dev_name(dev), KBUILD_MODNAME ".", strlen(KBUILD_MODNAME ".")))
		return 0;
	madev = to_mlx5_shim_adev(to_auxiliary_dev(dev));
	return !madev->is_sf && madev->guid == m->guid && madev->port != m->port;
}

int mlx5_shim_lag_lookup(const struct mlx5_shim_lag_match *m, char *buf, size_t size)
{
	struct auxiliary_device *peer;
	struct mlx5_shim_adev *madev;

	peer = auxiliary_find_device(NULL, m, mlx5_shim_lag_match);
	if (!peer)
		return -ENODEV;
	madev = to_mlx5_shim_adev(peer);
	snprintf(buf, size, MLX5_SHIM_PORT_NAME, madev->adapter, madev->port);
	put_device(&peer->dev);
	return 0;
}
#else
/*
 * Lifetime: an adapter on the list is alive (the list holds a reference) and
 * mlx5_shim_adapter_del() takes it off under mlx5_shim_registry_lock before it
 * unregisters the ports, so the ports and their names are valid while the lock is held.
 */
int mlx5_shim_lag_lookup(const struct mlx5_shim_lag_match *m, char *buf, size_t size)
{
	struct mlx5_shim_adapter *adapter;
	int err = -ENODEV;
	unsigned int i;

	spin_lock(&mlx5_shim_registry_lock);
	list_for_each_entry(adapter, &mlx5_shim_adapters, list) {
		if (adapter->guid != m->guid)
			continue;
		for (i = 0; i < adapter->num_ports && err; i++) {
			if (i == m->port || !adapter->ports[i].bound)
				continue;
			strscpy(buf, dev_name(&adapter->ports[i].dev), size);
			err = 0;
		}
	}
	spin_unlock(&mlx5_shim_registry_lock);
	return err;
}
#endif

/**
 * mlx5_shim_lag_peer() - find the LAG peer: another port with the same system image GUID
 * @madev: a port-level device of mlx5_shim_core
 * @buf: receives the peer port's device name
 * @size: size of @buf
 *
 * Uses auxiliary_find_device() where the bus has it (MLX5_SHIM_LAG_BY_BUS), the core's
 * registry of adapters otherwise.
 *
 * Return: 0 when found, -ENODEV when not, -EINVAL for sub-functions.
 */
int mlx5_shim_lag_peer(struct mlx5_shim_adev *madev, char *buf, size_t size)
{
	struct mlx5_shim_lag_match m = { .guid = madev->guid, .port = madev->port };

	if (madev->is_sf)
		return -EINVAL;
	return mlx5_shim_lag_lookup(&m, buf, size);
}
EXPORT_SYMBOL_NS_GPL(mlx5_shim_lag_peer, "MLX5_SHIM");
