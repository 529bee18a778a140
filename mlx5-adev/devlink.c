// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core, as mlx5's devlink.c: one devlink instance per function (port). Its SF
 * ports are in sf/devlink.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <net/devlink.h>

#include "mlx5_shim_priv.h"

/*
 * devlink: one instance per function (port), named mlx5_shim/<port> after its bus and
 * device, as mlx5's devlink.c gives one to every PCI function. `devlink dev eswitch set
 * ... mode switchdev|legacy` changes the eswitch mode as the debugfs knob esw_mode does;
 * `devlink dev reload` removes and re-adds the function's auxiliary devices.
 */
#if IS_ENABLED(CONFIG_NET_DEVLINK)
/*
 * devlink_alloc() takes the device and devlink_register() no longer does since
 * 919d13a7e455 ("devlink: Set device as early as possible"), v5.15; devlink_register()
 * returns void since db4278c55fa5 ("devlink: Make devlink_register to be void"), v5.16.
 */
#ifdef AUXBUS_HAVE_DEVLINK_ALLOC_NODEV
#define mlx5_shim_devlink_alloc(ops, size, dev)	devlink_alloc(ops, size)
#define mlx5_shim_devlink_register(dl, dev)	devlink_register(dl, dev)
#elif defined(AUXBUS_HAVE_DEVLINK_REGISTER_INT)
#define mlx5_shim_devlink_alloc(ops, size, dev)	devlink_alloc(ops, size, dev)
#define mlx5_shim_devlink_register(dl, dev)	devlink_register(dl)
#else
#define mlx5_shim_devlink_alloc(ops, size, dev)	devlink_alloc(ops, size, dev)
#define mlx5_shim_devlink_register(dl, dev)	({ devlink_register(dl); 0; })
#endif

static int mlx5_shim_devlink_eswitch_mode_get(struct devlink *devlink, u16 *mode)
{
	struct mlx5_shim_port *port = mlx5_shim_devlink_port(devlink);

	*mode = READ_ONCE(port->func.esw_mode) == MLX5_SHIM_ESW_SWITCHDEV ?
		DEVLINK_ESWITCH_MODE_SWITCHDEV : DEVLINK_ESWITCH_MODE_LEGACY;
	return 0;
}

/* As mlx5_devlink_eswitch_mode_set(): the current mode again is no error. */
static int mlx5_shim_devlink_eswitch_mode_set(struct devlink *devlink, u16 mode,
					      struct netlink_ext_ack *extack)
{
	struct mlx5_shim_port *port = mlx5_shim_devlink_port(devlink);
	struct mlx5_shim_func *func = &port->func;
	enum mlx5_shim_esw_mode esw_mode;
	int err = 0;

	switch (mode) {
	case DEVLINK_ESWITCH_MODE_LEGACY:
		esw_mode = MLX5_SHIM_ESW_LEGACY;
		break;
	case DEVLINK_ESWITCH_MODE_SWITCHDEV:
		esw_mode = MLX5_SHIM_ESW_SWITCHDEV;
		break;
	default:
		NL_SET_ERR_MSG_MOD(extack, "Unsupported eswitch mode");
		return -EOPNOTSUPP;
	}
	if (esw_mode == MLX5_SHIM_ESW_LEGACY && mlx5_shim_num_sf_ports(port)) {
		NL_SET_ERR_MSG_MOD(extack, "The function has SF ports: delete the SF ports first");
		return -EBUSY;
	}
	if (esw_mode == READ_ONCE(func->esw_mode))
		return 0;
	mlx5_shim_lag_disable_change(port);
	mutex_lock(&func->lock);
	if (func->detached) {
		NL_SET_ERR_MSG_MOD(extack, "The function is detached");
		err = -EBUSY;
	} else if (esw_mode != func->esw_mode) {
		err = mlx5_shim_eswitch_mode_set_locked(func, esw_mode);
		if (err)
			NL_SET_ERR_MSG_MOD(extack, "Rescan for the new mode failed");
	}
	mutex_unlock(&func->lock);
	mlx5_shim_lag_enable_change(port);
	return err;
}

#ifdef AUXBUS_HAVE_DEVLINK_RELOAD_ACTION
/*
 * `devlink dev reload` (action driver_reinit), as mlx5_devlink_reload_down/up(): down
 * removes the function's auxiliary devices (a detach without suspend), up adds them back.
 * Refused, as mlx5 refuses it, while LAG is active and while the function has SFs (mlx5
 * refused reload with SFs allocated before it learned to unload them), and, since the
 * clients make their netdevs in init_net, with a namespace change.
 */
static int mlx5_shim_devlink_reload_down(struct devlink *devlink, bool netns_change,
					 enum devlink_reload_action action,
					 enum devlink_reload_limit limit,
					 struct netlink_ext_ack *extack)
{
	struct mlx5_shim_port *port = mlx5_shim_devlink_port(devlink);
	struct mlx5_shim_func *func = &port->func;
	int err = 0;

	if (netns_change) {
		NL_SET_ERR_MSG_MOD(extack, "Network namespace change is not supported");
		return -EOPNOTSUPP;
	}
	if (mlx5_shim_lag_is_active(port)) {
		NL_SET_ERR_MSG_MOD(extack, "reload is unsupported in Lag mode");
		return -EOPNOTSUPP;
	}
	if (READ_ONCE(port->num_sfs) || READ_ONCE(port->num_sf_ports)) {
		NL_SET_ERR_MSG_MOD(extack, "reload is unsupported when SFs are allocated");
		return -EOPNOTSUPP;
	}
	mutex_lock(&func->lock);
	if (func->detached) {
		NL_SET_ERR_MSG_MOD(extack, "The function is detached");
		err = -EBUSY;
	} else {
		mlx5_shim_detach_locked(func, false);
	}
	mutex_unlock(&func->lock);
	return err;
}

static int mlx5_shim_devlink_reload_up(struct devlink *devlink,
				       enum devlink_reload_action action,
				       enum devlink_reload_limit limit, u32 *actions_performed,
				       struct netlink_ext_ack *extack)
{
	struct mlx5_shim_port *port = mlx5_shim_devlink_port(devlink);
	struct mlx5_shim_func *func = &port->func;
	int err = 0;

	*actions_performed = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	mutex_lock(&func->lock);
	if (func->detached)
		err = mlx5_shim_attach_locked(func);
	mutex_unlock(&func->lock);
	if (err)
		NL_SET_ERR_MSG_MOD(extack, "Adding the function's devices back failed");
	return err;
}
#endif

static const struct devlink_ops mlx5_shim_devlink_ops = {
	.eswitch_mode_get = mlx5_shim_devlink_eswitch_mode_get,
	.eswitch_mode_set = mlx5_shim_devlink_eswitch_mode_set,
#ifdef AUXBUS_HAVE_DEVLINK_RELOAD_ACTION
	.reload_actions = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT),
	.reload_down = mlx5_shim_devlink_reload_down,
	.reload_up = mlx5_shim_devlink_reload_up,
#endif
#ifdef MLX5_SHIM_HAVE_SF_PORTS
	.port_new = mlx5_shim_devlink_sf_port_new,
#ifndef AUXBUS_HAVE_DEVLINK_PORT_OPS
	.port_del = mlx5_shim_devlink_sf_port_del,
	.port_fn_state_get = mlx5_shim_devlink_sf_port_fn_state_get,
	.port_fn_state_set = mlx5_shim_devlink_sf_port_fn_state_set,
#endif
#endif
};

int mlx5_shim_devlink_add(struct mlx5_shim_port *port)
{
	struct devlink *devlink;
	int err;

	devlink = mlx5_shim_devlink_alloc(&mlx5_shim_devlink_ops, sizeof(port), &port->dev);
	if (!devlink)
		return -ENOMEM;
	*(struct mlx5_shim_port **)devlink_priv(devlink) = port;
#if defined(AUXBUS_HAVE_DEVLINK_RELOAD_ACTION) && defined(AUXBUS_HAVE_DEVLINK_SET_FEATURES)
	devlink_set_features(devlink, DEVLINK_F_RELOAD);
#endif
	err = mlx5_shim_devlink_register(devlink, &port->dev);
	if (err) {
		devlink_free(devlink);
		return err;
	}
#if defined(AUXBUS_HAVE_DEVLINK_RELOAD_ACTION) && defined(AUXBUS_HAVE_DEVLINK_RELOAD_ENABLE)
	devlink_reload_enable(devlink);
#endif
	port->devlink = devlink;
	return 0;
}

/*
 * Unregistering waits for the commands in flight (or makes those that wait for the
 * instance lock find it unregistered), and no new ones come: then the SF ports go, whose
 * SF devices the port's remove() deletes afterwards, as mlx5's remove_one() unregisters its
 * devlink instance before its SF table goes.
 */
void mlx5_shim_devlink_del(struct mlx5_shim_port *port)
{
#if defined(AUXBUS_HAVE_DEVLINK_RELOAD_ACTION) && defined(AUXBUS_HAVE_DEVLINK_RELOAD_ENABLE)
	/* waits for a reload in flight */
	devlink_reload_disable(port->devlink);
#endif
	devlink_unregister(port->devlink);
#ifdef MLX5_SHIM_HAVE_SF_PORTS
	mlx5_shim_devlink_sf_ports_del_all(port);
#endif
	devlink_free(port->devlink);
	port->devlink = NULL;
}

#define MLX5_SHIM_DEVLINK	"yes"
#else
int mlx5_shim_devlink_add(struct mlx5_shim_port *port)
{
	return 0;
}

void mlx5_shim_devlink_del(struct mlx5_shim_port *port)
{
}

#define MLX5_SHIM_DEVLINK	"no: the kernel has no CONFIG_NET_DEVLINK"
#endif

#ifdef MLX5_SHIM_HAVE_SF_PORTS
#define MLX5_SHIM_DEVLINK_SF_PORTS	"yes"
#elif IS_ENABLED(CONFIG_NET_DEVLINK)
#define MLX5_SHIM_DEVLINK_SF_PORTS	\
	"no: the kernel's devlink lacks port_new (5.12) or devl_port_register() (5.18)"
#else
#define MLX5_SHIM_DEVLINK_SF_PORTS	"no: the kernel has no CONFIG_NET_DEVLINK"
#endif

#if IS_ENABLED(CONFIG_NET_DEVLINK) && defined(AUXBUS_HAVE_DEVLINK_RELOAD_ACTION)
#define MLX5_SHIM_DEVLINK_RELOAD	"yes"
#elif IS_ENABLED(CONFIG_NET_DEVLINK)
#define MLX5_SHIM_DEVLINK_RELOAD	"no: the kernel's devlink lacks reload actions (5.10)"
#else
#define MLX5_SHIM_DEVLINK_RELOAD	"no: the kernel has no CONFIG_NET_DEVLINK"
#endif

MODULE_INFO(devlink, MLX5_SHIM_DEVLINK);
MODULE_INFO(devlink_reload, MLX5_SHIM_DEVLINK_RELOAD);
MODULE_INFO(devlink_sf_ports, MLX5_SHIM_DEVLINK_SF_PORTS);
