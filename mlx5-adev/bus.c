// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core: the mlx5_shim bus and its adapters, as netdevsim's bus.c. An adapter
 * is created by a write of "ID [ports=N] [caps=...]" to /sys/bus/mlx5_shim/new_device and
 * deleted by "ID" to del_device; each of its ports is a device on the bus, bound to the
 * port driver of main.c as a PCI function is bound to mlx5_core.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/xarray.h>

#include "mlx5_shim_priv.h"

/* create/delete of adapters */
static DEFINE_MUTEX(mlx5_shim_adapters_lock);
/* readers of the adapter list (LAG lookups run in probe, under other locks) */
DEFINE_SPINLOCK(mlx5_shim_registry_lock);
LIST_HEAD(mlx5_shim_adapters);
/* new_device and del_device act only while set (under mlx5_shim_adapters_lock) */
static bool mlx5_shim_bus_enable;

static ssize_t sys_image_guid_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%016llx\n", to_mlx5_shim_port(dev)->func.guid);
}
static DEVICE_ATTR_RO(sys_image_guid);

static ssize_t port_index_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_mlx5_shim_port(dev)->func.port);
}
static DEVICE_ATTR_RO(port_index);

static ssize_t adapter_id_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_mlx5_shim_port(dev)->func.adapter);
}
static DEVICE_ATTR_RO(adapter_id);

static struct attribute *mlx5_shim_port_attrs[] = {
	&dev_attr_sys_image_guid.attr,
	&dev_attr_port_index.attr,
	&dev_attr_adapter_id.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_port);

static void mlx5_shim_adapter_free(struct kref *ref)
{
	struct mlx5_shim_adapter *adapter = container_of(ref, struct mlx5_shim_adapter, ref);
	unsigned int i;

	for (i = 0; i < adapter->num_ports; i++) {
		WARN_ON(!list_empty(&adapter->ports[i].dellinks));
		mutex_destroy(&adapter->ports[i].dellink_lock);
		xa_destroy(&adapter->ports[i].sfs);
		xa_destroy(&adapter->ports[i].sf_ports);
		mutex_destroy(&adapter->ports[i].sf_lock);
		mutex_destroy(&adapter->ports[i].func.lock);
		if (adapter->ports[i].func.adev_idx >= 0)
			ida_free(&mlx5_shim_adev_ida, adapter->ports[i].func.adev_idx);
	}
	kfree(adapter);
	mlx5_shim_obj_put();
}

static void mlx5_shim_port_release(struct device *dev)
{
	kref_put(&to_mlx5_shim_port(dev)->adapter->ref, mlx5_shim_adapter_free);
}

static const struct device_type mlx5_shim_port_type = {
	.groups = mlx5_shim_port_groups,
	.release = mlx5_shim_port_release,
};

static struct mlx5_shim_adapter *mlx5_shim_adapter_find(u32 id)
{
	struct mlx5_shim_adapter *adapter;

	lockdep_assert_held(&mlx5_shim_adapters_lock);
	list_for_each_entry(adapter, &mlx5_shim_adapters, list)
		if (adapter->id == id)
			return adapter;
	return NULL;
}

static void mlx5_shim_adapter_del(struct mlx5_shim_adapter *adapter)
{
	int i;

	lockdep_assert_held(&mlx5_shim_adapters_lock);
	spin_lock(&mlx5_shim_registry_lock);
	list_del(&adapter->list);
	spin_unlock(&mlx5_shim_registry_lock);
	for (i = adapter->num_ports - 1; i >= 0; i--)
		device_unregister(&adapter->ports[i].dev);
	kref_put(&adapter->ref, mlx5_shim_adapter_free);
}

static int mlx5_shim_adapter_new(u32 id, unsigned int num_ports, u32 caps)
{
	struct mlx5_shim_adapter *adapter;
	struct mlx5_shim_port *port;
	unsigned int i, added = 0;
	int err;

	adapter = kzalloc(struct_size(adapter, ports, num_ports), GFP_KERNEL);
	if (!adapter)
		return -ENOMEM;
	kref_init(&adapter->ref);
	mlx5_shim_obj_get();	/* put by mlx5_shim_adapter_free() */
	adapter->id = id;
	adapter->guid = MLX5_SHIM_GUID_BASE | id;
	adapter->num_ports = num_ports;

	for (i = 0; i < num_ports; i++) {
		port = &adapter->ports[i];
		port->adapter = adapter;
		mutex_init(&port->func.lock);
		mutex_init(&port->sf_lock);
		xa_init(&port->sfs);
		xa_init(&port->sf_ports);
		mutex_init(&port->dellink_lock);
		INIT_LIST_HEAD(&port->dellinks);
		mlx5_shim_func_init(&port->func, &port->dev, adapter->guid, id, i, caps);
		port->func.pf = port;
		port->func.mac[0] = 0x02;
		port->func.mac[1] = 0x5e;
		port->func.mac[2] = id >> 8;
		port->func.mac[3] = id & 0xff;
		port->func.mac[4] = i;
		if ((i ^ 1) < num_ports)
			port->func.peer = &adapter->ports[i ^ 1].func;
		port->func.adev_idx = -1;
		device_initialize(&port->dev);
		kref_get(&adapter->ref);	/* put by mlx5_shim_port_release() */
		port->dev.bus = &mlx5_shim_bus;
		port->dev.type = &mlx5_shim_port_type;
	}
	for (i = 0; i < num_ports; i++) {
		port = &adapter->ports[i];
		err = ida_alloc(&mlx5_shim_adev_ida, GFP_KERNEL);
		if (err < 0)
			goto err_put_ports;
		port->func.adev_idx = err;
		err = dev_set_name(&port->dev, MLX5_SHIM_PORT_NAME, id, i);
		if (err)
			goto err_put_ports;
	}

	mutex_lock(&mlx5_shim_adapters_lock);
	if (!mlx5_shim_bus_enable) {
		err = -ENODEV;
		goto err_unlock;
	}
	if (mlx5_shim_adapter_find(id)) {
		err = -EEXIST;
		goto err_unlock;
	}
	spin_lock(&mlx5_shim_registry_lock);
	list_add_tail(&adapter->list, &mlx5_shim_adapters);
	spin_unlock(&mlx5_shim_registry_lock);

	for (added = 0; added < num_ports; added++) {
		port = &adapter->ports[added];
		err = device_add(&port->dev);
		if (err)
			goto err_del_ports;
		if (port->probe_err || !port->dev.driver) {
			err = port->probe_err ? port->probe_err : -ENODEV;
			added++;
			goto err_del_ports;
		}
	}
	mutex_unlock(&mlx5_shim_adapters_lock);
	return 0;

err_del_ports:
	spin_lock(&mlx5_shim_registry_lock);
	list_del(&adapter->list);
	spin_unlock(&mlx5_shim_registry_lock);
	while (added--)
		device_del(&adapter->ports[added].dev);
err_unlock:
	mutex_unlock(&mlx5_shim_adapters_lock);
err_put_ports:
	for (i = 0; i < num_ports; i++)
		put_device(&adapter->ports[i].dev);
	kref_put(&adapter->ref, mlx5_shim_adapter_free);
	return err;
}

/* "ID [ports=N] [caps=eth,rdma,vnet|none]" */
static int mlx5_shim_new_device(char *cmd)
{
	unsigned int num_ports = 2;
	bool have_ports = false, have_caps = false;
	u32 caps = MLX5_SHIM_CAP_ALL;
	char *tok, *val;
	u32 id;
	int err;

	tok = strsep(&cmd, " \t");
	if (!tok || kstrtou32(tok, 10, &id) || id > MLX5_SHIM_MAX_ADAPTER_ID)
		return -EINVAL;
	while ((tok = strsep(&cmd, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "ports") && !have_ports) {
			have_ports = true;
			if (kstrtouint(val, 10, &num_ports) || !num_ports ||
			    num_ports > MLX5_SHIM_MAX_PORTS)
				return -EINVAL;
		} else if (!strcmp(tok, "caps") && !have_caps) {
			have_caps = true;
			err = mlx5_shim_parse_caps(val, &caps);
			if (err)
				return err;
		} else {
			return -EINVAL;
		}
	}
	return mlx5_shim_adapter_new(id, num_ports, caps);
}

/* "ID" */
static int mlx5_shim_del_device(char *cmd)
{
	struct mlx5_shim_adapter *adapter = NULL;
	u32 id;
	int err = -ENOENT;

	if (kstrtou32(cmd, 10, &id) || id > MLX5_SHIM_MAX_ADAPTER_ID)
		return -EINVAL;
	mutex_lock(&mlx5_shim_adapters_lock);
	if (!mlx5_shim_bus_enable)
		err = -ENODEV;
	else
		adapter = mlx5_shim_adapter_find(id);
	if (adapter) {
		mlx5_shim_adapter_del(adapter);
		err = 0;
	}
	mutex_unlock(&mlx5_shim_adapters_lock);
	return err;
}

/*
 * The bus's control files take one command per write, as the debugfs ones: at most
 * MLX5_SHIM_CMD_MAX bytes, no NUL inside, surrounding white space ignored.
 */
static ssize_t mlx5_shim_bus_ctrl(const char *buf, size_t count, int (*cmd_fn)(char *cmd))
{
	char *cmd;
	int err;

	if (!count || count > MLX5_SHIM_CMD_MAX || strnlen(buf, count) != count)
		return -EINVAL;
	cmd = kstrndup(buf, count, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	err = cmd_fn(strim(cmd));
	kfree(cmd);
	return err ? err : count;
}

static ssize_t new_device_store(auxbus_const_bus_attr struct bus_type *bus, const char *buf,
				size_t count)
{
	return mlx5_shim_bus_ctrl(buf, count, mlx5_shim_new_device);
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(auxbus_const_bus_attr struct bus_type *bus, const char *buf,
				size_t count)
{
	return mlx5_shim_bus_ctrl(buf, count, mlx5_shim_del_device);
}
static BUS_ATTR_WO(del_device);

static struct attribute *mlx5_shim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_bus);

struct bus_type mlx5_shim_bus = {
	.name = "mlx5_shim",
	.bus_groups = mlx5_shim_bus_groups,
};

/* Let new_device and del_device act (module init, once the port driver is registered). */
void mlx5_shim_adapters_enable(void)
{
	mutex_lock(&mlx5_shim_adapters_lock);
	mlx5_shim_bus_enable = true;
	mutex_unlock(&mlx5_shim_adapters_lock);
}

/*
 * Module exit: no new adapters (a command in flight holds the lock or finds the bus
 * disabled), and delete the existing ones, the newest first.
 */
void mlx5_shim_adapters_del_all(void)
{
	struct mlx5_shim_adapter *adapter, *tmp;

	mutex_lock(&mlx5_shim_adapters_lock);
	mlx5_shim_bus_enable = false;
	list_for_each_entry_safe_reverse(adapter, tmp, &mlx5_shim_adapters, list)
		mlx5_shim_adapter_del(adapter);
	mutex_unlock(&mlx5_shim_adapters_lock);
}
