// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's sf/devlink.c: SF ports of a function's devlink instance.
 *
 *   devlink port add mlx5_shim/<port> flavour pcisf pfnum <port index> sfnum <N>
 *   devlink port function set mlx5_shim/<port>/<index> state active|inactive
 *   devlink port del mlx5_shim/<port>/<index>
 *
 * A new SF port is inactive: no SF device exists. Activating it adds the SF's auxiliary
 * device mlx5_shim_core.sf.<id> (as the debugfs knob sf_add does), deactivating deletes
 * it, and deleting an active port deactivates it first (as mlx5_devlink_sf_port_del()
 * disables the SF's HCA before freeing it). Its opstate is attached while a driver
 * (mlx5_shim_sf) is bound to the SF device, detached otherwise. SF ports exist only in
 * switchdev mode; the function stays in switchdev mode while it has any. They go with
 * their devlink instance.
 *
 * devlink calls every SF port operation with the instance lock held, which protects
 * @sf_ports and @num_sf_ports of the port.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/devlink.h>

#include "../mlx5_shim_priv.h"

#ifdef MLX5_SHIM_HAVE_SF_PORTS

/* SF ports' devlink port indexes: above the function's own ports, one per sfnum */
#define MLX5_SHIM_SF_PORT_INDEX_BASE	0x10000

struct mlx5_shim_sf_port {
	struct devlink_port dl_port;
	struct mlx5_shim_port *port;
	u32 sfnum;
	bool active;
};

static struct mlx5_shim_sf_port *to_sf_port(struct devlink_port *dl_port)
{
	return container_of(dl_port, struct mlx5_shim_sf_port, dl_port);
}

static int mlx5_shim_sf_port_activate(struct mlx5_shim_sf_port *sf_port,
				      struct netlink_ext_ack *extack)
{
	int err;

	if (sf_port->active)
		return 0;
	err = mlx5_shim_sf_add(sf_port->port, sf_port->sfnum);
	if (err == -EEXIST)
		NL_SET_ERR_MSG_MOD(extack, "An SF with this sfnum exists (debugfs sf_add)");
	else if (err == -ENOSPC)
		NL_SET_ERR_MSG_MOD(extack, "The port has its maximum of SFs (max_sfs)");
	else if (err)
		NL_SET_ERR_MSG_MOD(extack, "Adding the SF device failed");
	if (err)
		return err;
	sf_port->active = true;
	return 0;
}

/* Delete the SF device; the debugfs knobs leave an SF port's SF alone (debugfs.c). */
static void mlx5_shim_sf_port_deactivate(struct mlx5_shim_sf_port *sf_port)
{
	if (!sf_port->active)
		return;
	mlx5_shim_sf_del(sf_port->port, sf_port->sfnum);
	sf_port->active = false;
}

static void mlx5_shim_sf_port_free(struct mlx5_shim_sf_port *sf_port)
{
	struct mlx5_shim_port *port = sf_port->port;

	devl_port_unregister(&sf_port->dl_port);
	xa_erase(&port->sf_ports, sf_port->dl_port.index);
	WRITE_ONCE(port->num_sf_ports, port->num_sf_ports - 1);
	kfree(sf_port);
}

int mlx5_shim_devlink_sf_port_fn_state_get(struct devlink_port *dl_port,
					   enum devlink_port_fn_state *state,
					   enum devlink_port_fn_opstate *opstate,
					   struct netlink_ext_ack *extack)
{
	struct mlx5_shim_sf_port *sf_port = to_sf_port(dl_port);
	struct mlx5_shim_port *port = sf_port->port;
	struct mlx5_shim_adev *madev;
	bool attached;

	/* as mlx5_sf_to_devlink_opstate(): attached while a driver has the SF (in use) */
	mutex_lock(&port->sf_lock);
	madev = xa_load(&port->sfs, sf_port->sfnum);
	attached = madev && READ_ONCE(madev->adev.dev.driver);
	mutex_unlock(&port->sf_lock);
	*state = sf_port->active ? DEVLINK_PORT_FN_STATE_ACTIVE : DEVLINK_PORT_FN_STATE_INACTIVE;
	*opstate = attached ? DEVLINK_PORT_FN_OPSTATE_ATTACHED : DEVLINK_PORT_FN_OPSTATE_DETACHED;
	return 0;
}

int mlx5_shim_devlink_sf_port_fn_state_set(struct devlink_port *dl_port,
					   enum devlink_port_fn_state state,
					   struct netlink_ext_ack *extack)
{
	struct mlx5_shim_sf_port *sf_port = to_sf_port(dl_port);

	switch (state) {
	case DEVLINK_PORT_FN_STATE_ACTIVE:
		return mlx5_shim_sf_port_activate(sf_port, extack);
	case DEVLINK_PORT_FN_STATE_INACTIVE:
		mlx5_shim_sf_port_deactivate(sf_port);
		return 0;
	default:
		NL_SET_ERR_MSG_MOD(extack, "Unsupported state");
		return -EOPNOTSUPP;
	}
}

/* As mlx5_devlink_sf_port_del(): an active SF is deactivated, then its port deleted. */
static int mlx5_shim_sf_port_del_port(struct mlx5_shim_sf_port *sf_port)
{
	mlx5_shim_sf_port_deactivate(sf_port);
	mlx5_shim_sf_port_free(sf_port);
	return 0;
}

/*
 * The SF port operations moved from struct devlink_ops to struct devlink_port_ops, which
 * the driver gives when it registers the port, and port_del() takes the port instead of
 * its index: 216aa67f3e98 ("devlink: move port_fn_state_get/set() to devlink_port_ops")
 * and 216ba9f4adc8 ("devlink: move port_del() to devlink_port_ops"), v6.5.
 */
#ifdef AUXBUS_HAVE_DEVLINK_PORT_OPS
static int mlx5_shim_sf_port_del(struct devlink *devlink, struct devlink_port *dl_port,
				 struct netlink_ext_ack *extack)
{
	return mlx5_shim_sf_port_del_port(to_sf_port(dl_port));
}

static const struct devlink_port_ops mlx5_shim_sf_port_ops = {
	.port_del = mlx5_shim_sf_port_del,
	.port_fn_state_get = mlx5_shim_devlink_sf_port_fn_state_get,
	.port_fn_state_set = mlx5_shim_devlink_sf_port_fn_state_set,
};

static int mlx5_shim_sf_port_register(struct devlink *devlink, struct mlx5_shim_sf_port *sf_port,
				      unsigned int index)
{
	return devl_port_register_with_ops(devlink, &sf_port->dl_port, index,
					   &mlx5_shim_sf_port_ops);
}
#else
int mlx5_shim_devlink_sf_port_del(struct devlink *devlink, unsigned int port_index,
				  struct netlink_ext_ack *extack)
{
	struct mlx5_shim_port *port = mlx5_shim_devlink_port(devlink);
	struct mlx5_shim_sf_port *sf_port;

	sf_port = xa_load(&port->sf_ports, port_index);
	if (!sf_port) {
		NL_SET_ERR_MSG_MOD(extack, "No SF port with this index");
		return -ENODEV;
	}
	return mlx5_shim_sf_port_del_port(sf_port);
}

static int mlx5_shim_sf_port_register(struct devlink *devlink, struct mlx5_shim_sf_port *sf_port,
				      unsigned int index)
{
	return devl_port_register(devlink, &sf_port->dl_port, index);
}
#endif

/* As mlx5_sf_new_check_attr(), and mlx5_devlink_sf_port_new()'s eswitch mode check. */
static int mlx5_shim_sf_port_check(struct mlx5_shim_port *port,
				   const struct devlink_port_new_attrs *attrs,
				   struct netlink_ext_ack *extack)
{
	if (attrs->flavour != DEVLINK_PORT_FLAVOUR_PCI_SF) {
		NL_SET_ERR_MSG_MOD(extack, "Driver supports only SF port addition");
		return -EOPNOTSUPP;
	}
	if (attrs->port_index_valid) {
		NL_SET_ERR_MSG_MOD(extack,
				   "Driver does not support user defined port index assignment");
		return -EOPNOTSUPP;
	}
	if (!attrs->sfnum_valid) {
		NL_SET_ERR_MSG_MOD(extack,
				   "User must provide unique sfnum. Driver does not support auto assignment");
		return -EOPNOTSUPP;
	}
	if (attrs->controller_valid && attrs->controller) {
		NL_SET_ERR_MSG_MOD(extack, "External controller is unsupported");
		return -EOPNOTSUPP;
	}
	if (attrs->pfnum != port->func.port) {
		NL_SET_ERR_MSG_MOD(extack, "Invalid pfnum supplied");
		return -EOPNOTSUPP;
	}
	if (attrs->sfnum > MLX5_SHIM_MAX_SFNUM) {
		NL_SET_ERR_MSG_MOD(extack, "sfnum out of range (0 to 65535)");
		return -EINVAL;
	}
	if (READ_ONCE(port->func.esw_mode) != MLX5_SHIM_ESW_SWITCHDEV) {
		NL_SET_ERR_MSG_MOD(extack,
				   "Port add is only supported in eswitch switchdev mode or SF ports are disabled.");
		return -EOPNOTSUPP;
	}
	return 0;
}

static struct mlx5_shim_sf_port *
mlx5_shim_sf_port_add(struct devlink *devlink, const struct devlink_port_new_attrs *attrs,
		      struct netlink_ext_ack *extack)
{
	struct mlx5_shim_port *port = mlx5_shim_devlink_port(devlink);
	unsigned int index = MLX5_SHIM_SF_PORT_INDEX_BASE + attrs->sfnum;
	struct mlx5_shim_sf_port *sf_port;
	int err;

	err = mlx5_shim_sf_port_check(port, attrs, extack);
	if (err)
		return ERR_PTR(err);
	if (xa_load(&port->sf_ports, index)) {
		NL_SET_ERR_MSG_MOD(extack, "SF already exist. Choose different sfnum");
		return ERR_PTR(-EEXIST);
	}

	sf_port = kzalloc(sizeof(*sf_port), GFP_KERNEL);
	if (!sf_port)
		return ERR_PTR(-ENOMEM);
	sf_port->port = port;
	sf_port->sfnum = attrs->sfnum;
	err = xa_insert(&port->sf_ports, index, sf_port, GFP_KERNEL);
	if (err)
		goto err_free_sf_port;
	devlink_port_attrs_pci_sf_set(&sf_port->dl_port, 0, attrs->pfnum, attrs->sfnum, false);
	err = mlx5_shim_sf_port_register(devlink, sf_port, index);
	if (err)
		goto err_erase_sf_port;
	WRITE_ONCE(port->num_sf_ports, port->num_sf_ports + 1);
	return sf_port;

err_erase_sf_port:
	xa_erase(&port->sf_ports, index);
err_free_sf_port:
	kfree(sf_port);
	NL_SET_ERR_MSG_MOD(extack, "Registering the SF port failed");
	return ERR_PTR(err);
}

/*
 * port_new() gives the new port instead of its index since 5ff9424ea03a ("devlink: bring
 * port new reply back"), v6.5, with the port operations above.
 */
#ifdef AUXBUS_HAVE_DEVLINK_PORT_OPS
int mlx5_shim_devlink_sf_port_new(struct devlink *devlink,
				  const struct devlink_port_new_attrs *attrs,
				  struct netlink_ext_ack *extack,
				  struct devlink_port **dl_port)
{
	struct mlx5_shim_sf_port *sf_port = mlx5_shim_sf_port_add(devlink, attrs, extack);

	if (IS_ERR(sf_port))
		return PTR_ERR(sf_port);
	*dl_port = &sf_port->dl_port;
	return 0;
}
#else
int mlx5_shim_devlink_sf_port_new(struct devlink *devlink,
				  const struct devlink_port_new_attrs *attrs,
				  struct netlink_ext_ack *extack,
				  unsigned int *new_port_index)
{
	struct mlx5_shim_sf_port *sf_port = mlx5_shim_sf_port_add(devlink, attrs, extack);

	if (IS_ERR(sf_port))
		return PTR_ERR(sf_port);
	*new_port_index = sf_port->dl_port.index;
	return 0;
}
#endif

/*
 * Under the instance lock: an SF port of @port has @sfnum. Its SF is devlink's: the debugfs
 * knobs sf_add and sf_del refuse it, so that the port's state stays that of its SF.
 */
bool mlx5_shim_devlink_sf_port_exists(struct mlx5_shim_port *port, u32 sfnum)
{
	devl_assert_locked(port->devlink);
	return xa_load(&port->sf_ports, MLX5_SHIM_SF_PORT_INDEX_BASE + sfnum);
}

/*
 * Before the devlink instance goes: unregister and free every SF port. Their SF devices
 * stay for the port's remove(), which deletes all its SFs in one batch.
 */
void mlx5_shim_devlink_sf_ports_del_all(struct mlx5_shim_port *port)
{
	struct mlx5_shim_sf_port *sf_port;
	unsigned long index;

	devl_lock(port->devlink);
	xa_for_each(&port->sf_ports, index, sf_port)
		mlx5_shim_sf_port_free(sf_port);
	devl_unlock(port->devlink);
}
#endif /* MLX5_SHIM_HAVE_SF_PORTS */
