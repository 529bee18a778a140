/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mlx5 shim: the library of the reporting clients, mlx5_shim_rdma and mlx5_shim_vdpa.
 *
 * Both follow their device's port events and power transitions (beside the device they
 * register with ib_core or vdpa) and report them in sysfs. The state they keep, their
 * driver callbacks and their sysfs show functions are the same, so each of the two
 * modules includes this header (once, from its only source file) and gets its own copy:
 * a library of the clients', not services of mlx5_shim_core. It is a header, not an
 * object linked into both modules, because kbuild warns about an object in two modules
 * ("is added to multiple modules", 6.12 and later); it is not a module of its own, so
 * that loading and unloading the clients stays as it was.
 */
#ifndef _MLX5_SHIM_CLIENT_H
#define _MLX5_SHIM_CLIENT_H

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/error-injection.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#include "mlx5_shim.h"

/**
 * struct mlx5_shim_client - what a reporting client keeps about its bound device
 * @madev: the bound device
 * @nb: its port event notifier, registered from probe to remove
 * @events: port events seen
 * @suspends: suspend() calls
 * @resumes: resume() calls
 * @suspended: between suspend() and resume()
 * @lock: orders probe's query of the state with the events' updates of it
 * @link_up: the port's link state, from probe and the last event
 * @esw_mode: the eswitch mode, from probe and the last event
 * @priv: the client driver's own state (mlx5_shim_rdma: its ib_device); set and cleared
 *	  by the client between mlx5_shim_client_probe() and mlx5_shim_client_remove()
 *
 * Allocated by mlx5_shim_client_probe(), freed by mlx5_shim_client_remove(); it is the
 * auxiliary device's drvdata in between.
 */
struct mlx5_shim_client {
	struct mlx5_shim_adev *madev;
	struct notifier_block nb;
	atomic_t events;
	atomic_t suspends;
	atomic_t resumes;
	bool suspended;
	spinlock_t lock;		/* @link_up and @esw_mode */
	bool link_up;
	enum mlx5_shim_esw_mode esw_mode;
	void *priv;
};

/**
 * dev_to_mlx5_shim_client() - the state of a bound reporting client
 * @dev: the auxiliary device's struct device; only while a reporting client is bound
 *
 * Return: the state mlx5_shim_client_probe() set as the device's drvdata.
 */
static inline struct mlx5_shim_client *dev_to_mlx5_shim_client(struct device *dev)
{
	return auxiliary_get_drvdata(to_auxiliary_dev(dev));
}

/**
 * MLX5_SHIM_CLIENT_ATTR() - a read-only sysfs file of a reporting client
 * @_name: the file's name; the attribute is dev_attr_<_name>
 * @_show: one of the mlx5_shim_client_*_show() functions above
 *
 * DEVICE_ATTR_RO() with a show function shared by the clients, which name the same
 * value with their own prefix (rdma_port, vdpa_port).
 */
#define MLX5_SHIM_CLIENT_ATTR(_name, _show) \
	struct device_attribute dev_attr_##_name = __ATTR(_name, 0444, _show, NULL)

/**
 * struct mlx5_shim_client_state_attr - a client's <prefix>_state sysfs file
 * @attr: the attribute; its show is mlx5_shim_client_state_show()
 * @up: the client's word for a running device with its link up
 * @down: its word for a running device with its link down
 */
struct mlx5_shim_client_state_attr {
	struct device_attribute attr;
	const char *up;
	const char *down;
};

/**
 * MLX5_SHIM_CLIENT_STATE_ATTR() - a reporting client's read-only state file
 * @_name: the file's name; the attribute is dev_attr_<_name>, listed as
 *	   &dev_attr_<_name>.attr.attr
 * @_up: what it reads while the device runs with its link up
 * @_down: what it reads while the device runs with its link down
 */
#define MLX5_SHIM_CLIENT_STATE_ATTR(_name, _up, _down)					\
	struct mlx5_shim_client_state_attr dev_attr_##_name = {				\
		.attr = __ATTR(_name, 0444, mlx5_shim_client_state_show, NULL),		\
		.up = _up,								\
		.down = _down,								\
	}

/**
 * mlx5_shim_client_event() - port event notifier of a reporting client
 * @nb: &mlx5_shim_client.nb
 * @event: an enum mlx5_shim_event, not needed: the snapshot tells all
 * @data: the function's state after the event, a const struct mlx5_shim_caps
 *
 * Counts the event and records the link state and eswitch mode it brings.
 *
 * Return: NOTIFY_OK.
 */
static int mlx5_shim_client_event(struct notifier_block *nb, unsigned long event,
				  void *data)
{
	struct mlx5_shim_client *client = container_of(nb, struct mlx5_shim_client, nb);
	const struct mlx5_shim_caps *caps = data;

	atomic_inc(&client->events);
	spin_lock(&client->lock);
	WRITE_ONCE(client->link_up, caps->link_up);
	WRITE_ONCE(client->esw_mode, caps->esw_mode);
	spin_unlock(&client->lock);
	return NOTIFY_OK;
}

/**
 * mlx5_shim_client_probe() - &auxiliary_driver.probe of a reporting client
 * @adev: the auxiliary device, a struct mlx5_shim_adev
 * @id: the matching entry of the client's id table
 *
 * Allocates the client's state, sets it as drvdata, registers for port events and then
 * takes the function's current link state and eswitch mode: an event from then on comes
 * after that update (the probe need not run under the function's lock).
 *
 * Return: 0, or a negative errno with nothing left allocated or registered.
 */
static noinline int mlx5_shim_client_probe(struct auxiliary_device *adev,
					   const struct auxiliary_device_id *id)
{
	struct mlx5_shim_adev *madev = to_mlx5_shim_adev(adev);
	struct mlx5_shim_client *client;
	struct mlx5_shim_caps caps;
	int err;

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return -ENOMEM;
	client->madev = madev;
	spin_lock_init(&client->lock);
	auxiliary_set_drvdata(adev, client);

	client->nb.notifier_call = mlx5_shim_client_event;
	err = mlx5_shim_register_notifier(madev, &client->nb);
	if (err)
		goto err_free_client;
	spin_lock(&client->lock);
	mlx5_shim_query_caps(madev, &caps);
	WRITE_ONCE(client->link_up, caps.link_up);
	WRITE_ONCE(client->esw_mode, caps.esw_mode);
	spin_unlock(&client->lock);
	return 0;

err_free_client:
	kfree(client);
	return err;
}

ALLOW_ERROR_INJECTION(mlx5_shim_client_probe, ERRNO);

/**
 * mlx5_shim_client_remove() - &auxiliary_driver.remove of a reporting client
 * @adev: the auxiliary device
 *
 * Unregisters the port event notifier and frees what mlx5_shim_client_probe() allocated.
 */
static void mlx5_shim_client_remove(struct auxiliary_device *adev)
{
	struct mlx5_shim_client *client = auxiliary_get_drvdata(adev);

	mlx5_shim_unregister_notifier(client->madev, &client->nb);
	kfree(client);
}

/**
 * mlx5_shim_client_probe_subsys() - probe of a reporting client with a subsystem device
 * @adev: the auxiliary device, a struct mlx5_shim_adev
 * @id: the matching entry of the client's id table
 * @add: registers the client's device with its subsystem (ib_core, vdpa) and keeps its
 *	 state in &mlx5_shim_client.priv; returns 0 or a negative errno with nothing left
 *	 registered
 *
 * mlx5_shim_client_probe(), then @add.
 *
 * Return: 0, or a negative errno with nothing left allocated or registered.
 */
static int mlx5_shim_client_probe_subsys(struct auxiliary_device *adev,
					 const struct auxiliary_device_id *id,
					 int (*add)(struct mlx5_shim_client *client))
{
	int err;

	err = mlx5_shim_client_probe(adev, id);
	if (err)
		return err;
	err = add(auxiliary_get_drvdata(adev));
	if (err)
		goto err_client_remove;
	return 0;

err_client_remove:
	mlx5_shim_client_remove(adev);
	return err;
}

/**
 * mlx5_shim_client_remove_subsys() - remove of a reporting client with a subsystem device
 * @adev: the auxiliary device
 * @remove: unregisters and frees what the probe's @add made
 *
 * @remove, then mlx5_shim_client_remove().
 */
static void mlx5_shim_client_remove_subsys(struct auxiliary_device *adev,
					   void (*remove)(struct mlx5_shim_client *client))
{
	remove(auxiliary_get_drvdata(adev));
	mlx5_shim_client_remove(adev);
}

/**
 * mlx5_shim_client_suspend() - &auxiliary_driver.suspend of a reporting client
 * @adev: the auxiliary device
 * @state: the PM transition, not needed
 *
 * Marks the client suspended and counts the call.
 *
 * Return: 0.
 */
static int mlx5_shim_client_suspend(struct auxiliary_device *adev, pm_message_t state)
{
	struct mlx5_shim_client *client = auxiliary_get_drvdata(adev);

	WRITE_ONCE(client->suspended, true);
	atomic_inc(&client->suspends);
	return 0;
}

/**
 * mlx5_shim_client_resume() - &auxiliary_driver.resume of a reporting client
 * @adev: the auxiliary device
 *
 * Marks the client running again and counts the call.
 *
 * Return: 0.
 */
static int mlx5_shim_client_resume(struct auxiliary_device *adev)
{
	struct mlx5_shim_client *client = auxiliary_get_drvdata(adev);

	WRITE_ONCE(client->suspended, false);
	atomic_inc(&client->resumes);
	return 0;
}

/**
 * mlx5_shim_client_port_show() - show the port index of a reporting client's device
 * @dev: the bound auxiliary device
 * @attr: the attribute, not needed
 * @buf: the sysfs page
 *
 * Return: the length of "<port>\n".
 */
static ssize_t mlx5_shim_client_port_show(struct device *dev,
					  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_mlx5_shim_client(dev)->madev->port);
}

/**
 * mlx5_shim_client_guid_show() - show the system image GUID of a reporting client's device
 * @dev: the bound auxiliary device
 * @attr: the attribute, not needed
 * @buf: the sysfs page
 *
 * Return: the length of the GUID as 16 hex digits and a newline.
 */
static ssize_t mlx5_shim_client_guid_show(struct device *dev,
					  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%016llx\n", dev_to_mlx5_shim_client(dev)->madev->guid);
}

/**
 * mlx5_shim_client_events_show() - show how many port events a reporting client saw
 * @dev: the bound auxiliary device
 * @attr: the attribute, not needed
 * @buf: the sysfs page
 *
 * Return: the length of "<events>\n".
 */
static ssize_t mlx5_shim_client_events_show(struct device *dev,
					    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&dev_to_mlx5_shim_client(dev)->events));
}

/**
 * mlx5_shim_client_pm_show() - show a reporting client's suspend() and resume() counts
 * @dev: the bound auxiliary device
 * @attr: the attribute, not needed
 * @buf: the sysfs page
 *
 * Return: the length of "suspends <n> resumes <n>\n".
 */
static ssize_t mlx5_shim_client_pm_show(struct device *dev,
					struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_client *client = dev_to_mlx5_shim_client(dev);

	return sysfs_emit(buf, "suspends %d resumes %d\n", atomic_read(&client->suspends),
			  atomic_read(&client->resumes));
}

/**
 * mlx5_shim_client_state_show() - show a reporting client's state
 * @dev: the bound auxiliary device
 * @attr: &mlx5_shim_client_state_attr.attr, which names the client's words
 * @buf: the sysfs page
 *
 * Return: the length of "suspended\n", or of the client's word for the link state.
 */
static ssize_t mlx5_shim_client_state_show(struct device *dev,
					   struct device_attribute *attr, char *buf)
{
	const struct mlx5_shim_client_state_attr *sattr =
		container_of(attr, struct mlx5_shim_client_state_attr, attr);
	struct mlx5_shim_client *client = dev_to_mlx5_shim_client(dev);

	if (READ_ONCE(client->suspended))
		return sysfs_emit(buf, "suspended\n");
	return sysfs_emit(buf, "%s\n", READ_ONCE(client->link_up) ? sattr->up : sattr->down);
}

#endif /* _MLX5_SHIM_CLIENT_H */
