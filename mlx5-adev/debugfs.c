// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_core: the debugfs fault and test knobs. Per port, in
 * /sys/kernel/debug/mlx5_shim/<port>/: caps, esw_mode, link, pm, fail_attach, sf_add,
 * sf_del, sfs and lag; for the module, sf_teardown.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>

#include "mlx5_shim_priv.h"

static struct dentry *mlx5_shim_ddir;

/*
 * One command per write: the whole command at offset 0, at most MLX5_SHIM_CMD_MAX
 * bytes, copied with a NUL terminator, no NUL inside; -EINVAL and nothing changed
 * otherwise. A second write on the same open file is at an offset and is rejected.
 */
static ssize_t mlx5_shim_ctrl_write(struct file *file, const char __user *ubuf, size_t count,
				    loff_t *ppos, int (*store)(void *data, char *cmd))
{
	char *buf;
	int err;

	if (*ppos != 0 || !count || count > MLX5_SHIM_CMD_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (strlen(buf) != count)
		err = -EINVAL;
	else
		err = store(file->private_data, strim(buf));
	kfree(buf);
	if (err)
		return err;
	*ppos += count;
	return count;
}

#define MLX5_SHIM_CTRL_WO(name)							\
static ssize_t name##_write(struct file *file, const char __user *ubuf,		\
			    size_t count, loff_t *ppos)				\
{										\
	return mlx5_shim_ctrl_write(file, ubuf, count, ppos, name##_store);	\
}										\
static const struct file_operations name##_fops = {				\
	.owner = THIS_MODULE,							\
	.open = simple_open,							\
	.write = name##_write,							\
	.llseek = default_llseek,						\
}

#define MLX5_SHIM_CTRL_RW(name)							\
static ssize_t name##_write(struct file *file, const char __user *ubuf,		\
			    size_t count, loff_t *ppos)				\
{										\
	return mlx5_shim_ctrl_write(file, ubuf, count, ppos, name##_store);	\
}										\
static ssize_t name##_read(struct file *file, char __user *ubuf,		\
			   size_t count, loff_t *ppos)				\
{										\
	char buf[64];								\
	int len;								\
										\
	len = name##_show(file->private_data, buf, sizeof(buf));		\
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);		\
}										\
static const struct file_operations name##_fops = {				\
	.owner = THIS_MODULE,							\
	.open = simple_open,							\
	.read = name##_read,							\
	.write = name##_write,							\
	.llseek = default_llseek,						\
}

static int caps_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	struct mlx5_shim_func *func = &port->func;
	u32 caps;
	int err;

	err = mlx5_shim_parse_caps(cmd, &caps);
	if (err)
		return err;
	mutex_lock(&func->lock);
	if (func->detached)
		err = -EBUSY;
	else if (caps != func->caps)
		err = mlx5_shim_change_locked(func, caps, func->esw_mode,
					      MLX5_SHIM_EVENT_CAPS_CHANGE);
	mutex_unlock(&func->lock);
	return err;
}

static int caps_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;

	return mlx5_shim_format_caps(READ_ONCE(port->func.caps), buf, size);
}

MLX5_SHIM_CTRL_RW(caps);

/*
 * The knobs that devlink's SF ports depend on (esw_mode, sf_add, sf_del) take the devlink
 * instance lock, as devlink's own commands do: it guards the SF ports (sf/devlink.c).
 */
static void mlx5_shim_port_devl_lock(struct mlx5_shim_port *port)
{
#ifdef MLX5_SHIM_HAVE_SF_PORTS
	devl_lock(port->devlink);
#endif
}

static void mlx5_shim_port_devl_unlock(struct mlx5_shim_port *port)
{
#ifdef MLX5_SHIM_HAVE_SF_PORTS
	devl_unlock(port->devlink);
#endif
}

/* Under the instance lock: an SF port owns @sfnum, its SF is devlink's to add and delete */
static bool mlx5_shim_sfnum_has_port(struct mlx5_shim_port *port, u32 sfnum)
{
#ifdef MLX5_SHIM_HAVE_SF_PORTS
	return mlx5_shim_devlink_sf_port_exists(port, sfnum);
#else
	return false;
#endif
}

static int esw_mode_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	struct mlx5_shim_func *func = &port->func;
	int mode, err;

	mode = mlx5_shim_eswitch_parse_mode(cmd);
	if (mode < 0)
		return mode;
	mlx5_shim_port_devl_lock(port);
	if (mode == READ_ONCE(func->esw_mode)) {
		err = -EALREADY;
		goto out_unlock;
	}
	if (mode == MLX5_SHIM_ESW_LEGACY && mlx5_shim_num_sf_ports(port)) {
		err = -EBUSY;	/* devlink SF ports exist; sf/devlink.c */
		goto out_unlock;
	}
	mlx5_shim_lag_disable_change(port);
	mutex_lock(&func->lock);
	if (func->detached)
		err = -EBUSY;
	else if (mode == func->esw_mode)
		err = -EALREADY;
	else
		err = mlx5_shim_eswitch_mode_set_locked(func, mode);
	mutex_unlock(&func->lock);
	mlx5_shim_lag_enable_change(port);
out_unlock:
	mlx5_shim_port_devl_unlock(port);
	return err;
}

static int esw_mode_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;

	return scnprintf(buf, size, "%s\n",
			 mlx5_shim_eswitch_mode_name(READ_ONCE(port->func.esw_mode)));
}

MLX5_SHIM_CTRL_RW(esw_mode);

static int link_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	struct mlx5_shim_func *func = &port->func;
	bool up;

	if (!strcmp(cmd, "up"))
		up = true;
	else if (!strcmp(cmd, "down"))
		up = false;
	else
		return -EINVAL;
	mutex_lock(&func->lock);
	if (up != func->link_up) {
		WRITE_ONCE(func->link_up, up);
		mlx5_shim_notify(func, up ? MLX5_SHIM_EVENT_LINK_UP : MLX5_SHIM_EVENT_LINK_DOWN);
	}
	mutex_unlock(&func->lock);
	return 0;
}

static int link_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;

	return scnprintf(buf, size, "%s\n", READ_ONCE(port->func.link_up) ? "up" : "down");
}

MLX5_SHIM_CTRL_RW(link);

/* "suspend"/"detach" detach the port's devices (with/without suspend), "attach" undoes */
static int pm_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	struct mlx5_shim_func *func = &port->func;
	bool attach;
	int err = 0;

	if (!strcmp(cmd, "attach"))
		attach = true;
	else if (!strcmp(cmd, "suspend") || !strcmp(cmd, "detach"))
		attach = false;
	else
		return -EINVAL;
	mutex_lock(&func->lock);
	if (attach != func->detached)
		err = -EALREADY;
	else if (attach)
		err = mlx5_shim_attach_locked(func);
	else
		mlx5_shim_detach_locked(func, !strcmp(cmd, "suspend"));
	mutex_unlock(&func->lock);
	return err;
}

static int pm_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;
	bool detached = READ_ONCE(port->func.detached);

	return scnprintf(buf, size, "%s\n", detached ? "detached" : "attached");
}

MLX5_SHIM_CTRL_RW(pm);

/*
 * Test knob: "N" makes the next attach fail with -EIO at the Nth device it would add or
 * resume (1 is the first), after attaching the ones before it; "0" disarms it.
 */
static int fail_attach_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	u32 n;

	if (kstrtou32(cmd, 10, &n) || n > MLX5_SHIM_ADEV_NUM)
		return -EINVAL;
	mutex_lock(&port->func.lock);
	WRITE_ONCE(port->func.fail_attach, n);
	mutex_unlock(&port->func.lock);
	return 0;
}

static int fail_attach_show(void *data, char *buf, size_t size)
{
	struct mlx5_shim_port *port = data;

	return scnprintf(buf, size, "%u\n", READ_ONCE(port->func.fail_attach));
}

MLX5_SHIM_CTRL_RW(fail_attach);

static int mlx5_shim_parse_sfnum(const char *cmd, u32 *sfnum)
{
	if (kstrtou32(cmd, 10, sfnum) || *sfnum > MLX5_SHIM_MAX_SFNUM)
		return -EINVAL;
	return 0;
}

static int sf_add_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	u32 sfnum;
	int err;

	err = mlx5_shim_parse_sfnum(cmd, &sfnum);
	if (err)
		return err;
	mlx5_shim_port_devl_lock(port);
	if (mlx5_shim_sfnum_has_port(port, sfnum))
		err = -EBUSY;
	else
		err = mlx5_shim_sf_add(port, sfnum);
	mlx5_shim_port_devl_unlock(port);
	return err;
}

MLX5_SHIM_CTRL_WO(sf_add);

static int sf_del_store(void *data, char *cmd)
{
	struct mlx5_shim_port *port = data;
	u32 sfnum;
	int err;

	err = mlx5_shim_parse_sfnum(cmd, &sfnum);
	if (err)
		return err;
	mlx5_shim_port_devl_lock(port);
	if (mlx5_shim_sfnum_has_port(port, sfnum))
		err = -EBUSY;
	else
		err = mlx5_shim_sf_del(port, sfnum);
	mlx5_shim_port_devl_unlock(port);
	return err;
}

MLX5_SHIM_CTRL_WO(sf_del);

static int sfs_show(struct seq_file *s, void *unused)
{
	struct mlx5_shim_port *port = s->private;
	struct mlx5_shim_adev *madev;
	unsigned long sfnum;

	mutex_lock(&port->sf_lock);
	xa_for_each(&port->sfs, sfnum, madev)
		seq_printf(s, "%lu %s\n", sfnum, dev_name(&madev->adev.dev));
	mutex_unlock(&port->sf_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sfs);

static int sf_teardown_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "batches %d\nnetdevs %d\n", atomic_read(&mlx5_shim_sf_batches),
		   atomic_read(&mlx5_shim_sf_batched_netdevs));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sf_teardown);

static int lag_show(struct seq_file *s, void *unused)
{
	struct mlx5_shim_port *port = s->private;
	struct mlx5_shim_lag_match m = { .guid = port->func.guid, .port = port->func.port };
	char name[64];

	if (mlx5_shim_lag_lookup(&m, name, sizeof(name)))
		seq_puts(s, "none\n");
	else
		seq_printf(s, "%s\n", name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lag);

void mlx5_shim_port_debugfs_init(struct mlx5_shim_port *port)
{
	struct dentry *d;

	d = debugfs_create_dir(dev_name(&port->dev), mlx5_shim_ddir);
	debugfs_create_file("caps", 0600, d, port, &caps_fops);
	debugfs_create_file("esw_mode", 0600, d, port, &esw_mode_fops);
	debugfs_create_file("link", 0600, d, port, &link_fops);
	debugfs_create_file("pm", 0600, d, port, &pm_fops);
	debugfs_create_file("fail_attach", 0600, d, port, &fail_attach_fops);
	debugfs_create_file("sf_add", 0200, d, port, &sf_add_fops);
	debugfs_create_file("sf_del", 0200, d, port, &sf_del_fops);
	debugfs_create_file("sfs", 0400, d, port, &sfs_fops);
	debugfs_create_file("lag", 0400, d, port, &lag_fops);
	port->ddir = d;
}

void mlx5_shim_port_debugfs_exit(struct mlx5_shim_port *port)
{
	debugfs_remove_recursive(port->ddir);
	port->ddir = NULL;
}

void mlx5_shim_debugfs_init(void)
{
	mlx5_shim_ddir = debugfs_create_dir("mlx5_shim", NULL);
	debugfs_create_file("sf_teardown", 0400, mlx5_shim_ddir, NULL, &sf_teardown_fops);
}

void mlx5_shim_debugfs_exit(void)
{
	debugfs_remove_recursive(mlx5_shim_ddir);
}
