// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-only: holds a reference to any device until told to drop it, so that a case can make a
 * device's release come after its driver's module exit started, deterministically (the kernel's
 * own holders, an open file or CONFIG_DEBUG_KOBJECT_RELEASE, leave it to chance).
 *
 *   echo /sys/bus/vdpa/devices/vdpa0 >/sys/kernel/debug/auxbus_test_hold/hold
 *   echo 1 >/sys/kernel/debug/auxbus_test_hold/drop      (puts every reference held)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/kernfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <uapi/linux/magic.h>

#define HOLD_MAX 8

static struct dentry *hold_dir;
static DEFINE_MUTEX(hold_lock);
static struct device *held[HOLD_MAX];

/* The device whose sysfs directory is @name, with a reference taken; an ERR_PTR otherwise. */
static struct device *hold_find(const char *name)
{
	struct kobject *kobj = NULL;
	struct kernfs_node *kn;
	struct path path;
	int ret;

	ret = kern_path(name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &path);
	if (ret)
		return ERR_PTR(ret);
	/* a sysfs inode's private data is its kernfs node; a kobject directory's, its kobject */
	kn = d_inode(path.dentry)->i_private;
	if (path.dentry->d_sb->s_magic == SYSFS_MAGIC && kn && kernfs_type(kn) == KERNFS_DIR)
		kobj = kobject_get_unless_zero(kn->priv);
	path_put(&path);
	if (!kobj)
		return ERR_PTR(-ENODEV);
	if (!kobj->kset || strcmp(kobject_name(&kobj->kset->kobj), "devices")) {
		kobject_put(kobj);
		return ERR_PTR(-ENOTTY);
	}
	return kobj_to_dev(kobj);
}

static ssize_t hold_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct device *dev;
	char *name;
	int i;

	name = strndup_user(ubuf, min_t(size_t, count + 1, PATH_MAX));
	if (IS_ERR(name))
		return PTR_ERR(name);
	strim(name);
	dev = hold_find(name);
	if (IS_ERR(dev)) {
		pr_err("%s: not a device's sysfs directory: %pe\n", name, dev);
		kfree(name);
		return PTR_ERR(dev);
	}
	kfree(name);

	mutex_lock(&hold_lock);
	for (i = 0; i < HOLD_MAX && held[i]; i++)
		;
	if (i < HOLD_MAX)
		held[i] = dev;
	mutex_unlock(&hold_lock);
	if (i == HOLD_MAX) {
		put_device(dev);
		return -ENOSPC;
	}
	pr_info("holding %s\n", dev_name(dev));
	return count;
}

static void hold_drop_all(void)
{
	int i;

	mutex_lock(&hold_lock);
	for (i = 0; i < HOLD_MAX; i++) {
		if (!held[i])
			continue;
		pr_info("dropping %s\n", dev_name(held[i]));
		put_device(held[i]);
		held[i] = NULL;
	}
	mutex_unlock(&hold_lock);
}

static ssize_t drop_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	hold_drop_all();
	return count;
}

static const struct file_operations hold_fops = {
	.owner = THIS_MODULE,
	.write = hold_write,
};

static const struct file_operations drop_fops = {
	.owner = THIS_MODULE,
	.write = drop_write,
};

static int __init hold_init(void)
{
	hold_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("hold", 0200, hold_dir, NULL, &hold_fops);
	debugfs_create_file("drop", 0200, hold_dir, NULL, &drop_fops);
	return 0;
}
module_init(hold_init);

static void __exit hold_exit(void)
{
	debugfs_remove_recursive(hold_dir);
	hold_drop_all();
}
module_exit(hold_exit);

MODULE_DESCRIPTION("auxbus tests: hold a device's reference");
MODULE_LICENSE("GPL");
