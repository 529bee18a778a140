// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: the control files and each DSP's sysfs knobs. DSPs are created and deleted
 * at run time through the driver's control files, as netdevsim's bus.c does:
 *
 *   echo "ID [clients=ipc_flood:2,probes,msg_injector,kernel_injector|none] \
 *	[ipc_delay_us=N] [ipc=3|4] [mailbox=BYTES] [fw_inline=0|1]" \
 *	> /sys/bus/platform/drivers/snd_sof_shim/new_device
 *   echo ID > /sys/bus/platform/drivers/snd_sof_shim/del_device
 *
 * Each DSP is a platform device snd_sof_shim.ID bound to this driver. Its "firmware" (the
 * clients= list; default ipc_flood:2,probes) decides which auxiliary client devices exist:
 * snd_sof_shim.ipc_flood.<n>, snd_sof_shim.hda-probes.<n>, and, not in the default firmware,
 * snd_sof_shim.msg_injector.<n> and snd_sof_shim.kernel_injector.<n>. ipc= is the IPC
 * the firmware speaks, IPC3 by default; as in mainline, an IPC4 firmware has no IPC flood
 * test (default clients there: probes). mailbox= is the size of the DSP's mailboxes, the
 * largest message or reply (SOF_SHIM_IPC_MSG_MIN..SOF_SHIM_IPC_MSG_MAX, by default the
 * largest): a small one makes IPC4 large config transfers take several blocks. fw_inline=1:
 * the firmware answers in the sender's context, with no thread to switch to (the IPC
 * benchmark's lower bound, not SOF's design). Per DSP, in sysfs:
 *   fw_state	read the firmware state; write "crash", "boot" or "hang" (the next IPC
 *		times out, which marks the firmware crashed). Runtime or system suspend
 *		powers the DSP off and loses the firmware (boot_not_started); resume boots
 *		it again. Writing resumes a suspended DSP first; keep it in D0 with
 *		power/control "on" to look at a crashed firmware (as SOF_DBG_RETAIN_CTX).
 *   ipc_delay_us	how long the DSP takes to answer one IPC
 *   notify	write N: the DSP sends N SOF_IPC_TEST_NOTIFY (IPC3; IPC4: -EOPNOTSUPP)
 *   ipc_stats	counters; dropped: messages and notifications of a firmware that
 *		crashed since, fw_handled: messages the running firmware acted on
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sof-shim-priv.h"

#define SOF_SHIM_MAX_ID			1023
#define SOF_SHIM_CTRL_MAX_BYTES		256

struct sof_shim_entry {
	struct list_head list;
	u32 id;
	bool deleting;		/* del_device is removing it; the id is still taken */
	struct platform_device *pdev;
};

static LIST_HEAD(sof_shim_list);
static DEFINE_MUTEX(sof_shim_list_mutex);
struct dentry *sof_shim_debugfs_top;

static const char * const sof_shim_fw_state_names[] = {
	[SOF_SHIM_FW_BOOT_NOT_STARTED] = "boot_not_started",
	[SOF_SHIM_DSPLESS_MODE] = "dspless_mode",
	[SOF_SHIM_FW_BOOT_PREPARE] = "boot_prepare",
	[SOF_SHIM_FW_BOOT_IN_PROGRESS] = "boot_in_progress",
	[SOF_SHIM_FW_BOOT_FAILED] = "boot_failed",
	[SOF_SHIM_FW_BOOT_READY_FAILED] = "boot_ready_failed",
	[SOF_SHIM_FW_BOOT_READY_OK] = "boot_ready_ok",
	[SOF_SHIM_FW_BOOT_COMPLETE] = "boot_complete",
	[SOF_SHIM_FW_CRASHED] = "crashed",
};

/* ---- per-DSP sysfs ---- */

static ssize_t fw_state_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", sof_shim_fw_state_names[READ_ONCE(sdev->fw_state)]);
}

static ssize_t fw_state_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);
	int ret, err;

	/* a suspended DSP has no firmware: power it up (which boots it) to act on it */
	ret = pm_runtime_resume_and_get(dev);
	if (ret < 0)
		return ret;

	mutex_lock(&sdev->state_mutex);
	if (sysfs_streq(buf, "crash")) {
		if (READ_ONCE(sdev->fw_state) != SOF_SHIM_FW_BOOT_COMPLETE)
			ret = -EBUSY;
		else
			sof_shim_fw_crash(sdev);
	} else if (sysfs_streq(buf, "hang")) {
		ret = sof_shim_fw_hang(sdev);
	} else if (sysfs_streq(buf, "boot")) {
		ret = sof_shim_fw_boot(sdev);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&sdev->state_mutex);

	pm_runtime_mark_last_busy(dev);
	err = pm_runtime_put_autosuspend(dev);
	if (err < 0 && err != -EAGAIN && err != -EBUSY)
		dev_dbg(dev, "fw_state: idle failed: %d\n", err);

	return ret ? ret : count;
}
static DEVICE_ATTR_RW(fw_state);

static ssize_t ipc_delay_us_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(sdev->ipc_delay_us));
}

static ssize_t ipc_delay_us_store(struct device *dev, struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);
	u32 val;
	int ret;

	ret = kstrtou32(buf, 0, &val);
	if (ret)
		return ret;
	if (val > SOF_SHIM_MAX_IPC_DELAY_US)
		return -EINVAL;
	WRITE_ONCE(sdev->ipc_delay_us, val);
	return count;
}
static DEVICE_ATTR_RW(ipc_delay_us);

static ssize_t notify_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);
	u32 i, n;
	int ret;

	ret = kstrtou32(buf, 0, &n);
	if (ret)
		return ret;
	if (!n || n > 1000)
		return -EINVAL;
	if (sdev->fw.ipc_type == SOF_SHIM_IPC_TYPE_4)
		return -EOPNOTSUPP;
	for (i = 0; i < n; i++) {
		ret = sof_shim_dsp_notify(sdev, SOF_SHIM_IPC_GLB_TEST_MSG |
					  SOF_SHIM_IPC_TEST_NOTIFY, &i, sizeof(i));
		if (ret)
			return ret;
	}
	flush_work(&sdev->rx_work);
	return count;
}
static DEVICE_ATTR_WO(notify);

static ssize_t ipc_stats_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);
	u64 fw_handled;

	spin_lock_irq(&sdev->ipc_lock);
	fw_handled = sdev->fw_handled;
	spin_unlock_irq(&sdev->ipc_lock);

	return sysfs_emit(buf,
			  "tx %lld\nmismatch %lld\ntimeout %lld\ndsp_reject %lld\nrx %lld\n"
			  "runtime_suspend %d\nruntime_resume %d\n"
			  "system_suspend %d\nsystem_resume %d\n"
			  "dropped %lld\nfw_handled %llu\n",
			  (long long)atomic64_read(&sdev->stat_tx),
			  (long long)atomic64_read(&sdev->stat_mismatch),
			  (long long)atomic64_read(&sdev->stat_timeout),
			  (long long)atomic64_read(&sdev->stat_dsp_reject),
			  (long long)atomic64_read(&sdev->stat_rx),
			  atomic_read(&sdev->stat_runtime_suspend),
			  atomic_read(&sdev->stat_runtime_resume),
			  atomic_read(&sdev->stat_system_suspend),
			  atomic_read(&sdev->stat_system_resume),
			  (long long)atomic64_read(&sdev->stat_dropped), fw_handled);
}
static DEVICE_ATTR_RO(ipc_stats);

static ssize_t clients_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "ipc_flood:%u,probes:%u,msg_injector:%u,kernel_injector:%u\n",
			  sdev->fw.num_clients[SOF_SHIM_FN_IPC_FLOOD],
			  sdev->fw.num_clients[SOF_SHIM_FN_PROBES],
			  sdev->fw.num_clients[SOF_SHIM_FN_IPC_MSG_INJECTOR],
			  sdev->fw.num_clients[SOF_SHIM_FN_KERNEL_INJECTOR]);
}
static DEVICE_ATTR_RO(clients);

static struct attribute *sof_shim_dev_attrs[] = {
	&dev_attr_fw_state.attr,
	&dev_attr_ipc_delay_us.attr,
	&dev_attr_notify.attr,
	&dev_attr_ipc_stats.attr,
	&dev_attr_clients.attr,
	NULL
};
ATTRIBUTE_GROUPS(sof_shim_dev);

/* ---- control files: new_device, del_device ---- */

static int sof_shim_parse_clients(char *val, struct sof_shim_fw_config *fw)
{
	char *tok, *name, *num;
	u32 n;
	int ret;

	memset(fw->num_clients, 0, sizeof(fw->num_clients));
	if (!strcmp(val, "none"))
		return 0;

	while ((tok = strsep(&val, ",")) != NULL) {
		name = strsep(&tok, ":");
		num = tok;
		n = 1;
		if (num) {
			ret = kstrtou32(num, 10, &n);
			if (ret || !n)
				return -EINVAL;
		}
		if (n > SOF_SHIM_FN_MAX_INSTANCES)
			return -EINVAL;
		if (!strcmp(name, "ipc_flood"))
			fw->num_clients[SOF_SHIM_FN_IPC_FLOOD] = n;
		else if (!strcmp(name, "probes") && n == 1)
			/* one extractor per DSP, and probe_points lives in the DSP's directory */
			fw->num_clients[SOF_SHIM_FN_PROBES] = n;
		else if (!strcmp(name, "msg_injector") && n == 1)
			/* ipc_msg_inject lives in the DSP's directory */
			fw->num_clients[SOF_SHIM_FN_IPC_MSG_INJECTOR] = n;
		else if (!strcmp(name, "kernel_injector") && n == 1)
			/* kernel_ipc_msg_inject lives in the DSP's directory */
			fw->num_clients[SOF_SHIM_FN_KERNEL_INJECTOR] = n;
		else
			return -EINVAL;
	}
	return 0;
}

static int sof_shim_parse_new(char *buf, u32 *id, struct sof_shim_fw_config *fw)
{
	bool clients_given = false;
	char *tok, *val;
	int ret;

	tok = strsep(&buf, " \t\n");
	if (!tok || !*tok)
		return -EINVAL;
	ret = kstrtou32(tok, 10, id);
	if (ret || *id > SOF_SHIM_MAX_ID)
		return -EINVAL;

	/* default firmware: two IPC flood clients (tandem test) and one probes client */
	fw->num_clients[SOF_SHIM_FN_IPC_FLOOD] = 2;
	fw->num_clients[SOF_SHIM_FN_PROBES] = 1;
	fw->ipc_delay_us = 0;
	fw->ipc_type = SOF_SHIM_IPC_TYPE_3;
	fw->mailbox_bytes = SOF_SHIM_IPC_MSG_MAX;

	while ((tok = strsep(&buf, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "clients")) {
			ret = sof_shim_parse_clients(val, fw);
		} else if (!strcmp(tok, "ipc_delay_us")) {
			ret = kstrtou32(val, 10, &fw->ipc_delay_us);
			if (!ret && fw->ipc_delay_us > SOF_SHIM_MAX_IPC_DELAY_US)
				ret = -EINVAL;
		} else if (!strcmp(tok, "ipc")) {
			if (!strcmp(val, "3")) {
				fw->ipc_type = SOF_SHIM_IPC_TYPE_3;
			} else if (!strcmp(val, "4")) {
				fw->ipc_type = SOF_SHIM_IPC_TYPE_4;
			} else {
				pr_err("new_device: ipc=%s: the firmware speaks IPC 3 or 4\n", val);
				ret = -EINVAL;
			}
		} else if (!strcmp(tok, "fw_inline")) {
			ret = kstrtobool(val, &fw->fw_inline);
		} else if (!strcmp(tok, "mailbox")) {
			ret = kstrtou32(val, 10, &fw->mailbox_bytes);
			if (ret || fw->mailbox_bytes < SOF_SHIM_IPC_MSG_MIN ||
			    fw->mailbox_bytes > SOF_SHIM_IPC_MSG_MAX) {
				pr_err("new_device: mailbox=%s: %u..%u bytes\n", val,
				       SOF_SHIM_IPC_MSG_MIN, SOF_SHIM_IPC_MSG_MAX);
				ret = -EINVAL;
			}
		} else {
			ret = -EINVAL;
		}
		if (ret)
			return ret;
		if (!strcmp(tok, "clients"))
			clients_given = true;
	}

	/* mainline registers the IPC flood test for IPC3 firmware only */
	if (fw->ipc_type == SOF_SHIM_IPC_TYPE_4) {
		if (!clients_given)
			fw->num_clients[SOF_SHIM_FN_IPC_FLOOD] = 0;
		if (fw->num_clients[SOF_SHIM_FN_IPC_FLOOD]) {
			pr_err("new_device: ipc_flood: the IPC flood test is IPC3 only\n");
			return -EINVAL;
		}
	}
	return 0;
}

static struct sof_shim_entry *sof_shim_find(u32 id)
{
	struct sof_shim_entry *e;

	list_for_each_entry(e, &sof_shim_list, list)
		if (e->id == id)
			return e;
	return NULL;
}

static ssize_t new_device_store(struct device_driver *drv, const char *buf, size_t count)
{
	struct platform_device_info info = {
		.name = SOF_SHIM_DRV_NAME,
	};
	struct sof_shim_fw_config fw = {};
	struct sof_shim_entry *e, *old;
	struct platform_device *pdev;
	char *dup;
	u32 id;
	int ret;

	if (count > SOF_SHIM_CTRL_MAX_BYTES)
		return -E2BIG;
	dup = kmemdup_nul(buf, count, GFP_KERNEL);
	if (!dup)
		return -ENOMEM;
	ret = sof_shim_parse_new(dup, &id, &fw);
	kfree(dup);
	if (ret)
		return ret;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->id = id;

	mutex_lock(&sof_shim_list_mutex);
	old = sof_shim_find(id);
	if (old) {
		ret = -EEXIST;
		if (old->deleting) {
			pr_err("new_device: DSP %u is still being deleted\n", id);
			ret = -EBUSY;
		}
		goto err_unlock;
	}

	info.id = id;
	info.data = &fw;
	info.size_data = sizeof(fw);
	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		goto err_unlock;
	}

	/* probing is synchronous: a DSP that did not come up is not kept */
	device_lock(&pdev->dev);
	ret = pdev->dev.driver ? 0 : -ENODEV;
	device_unlock(&pdev->dev);
	if (ret) {
		platform_device_unregister(pdev);
		goto err_unlock;
	}

	e->pdev = pdev;
	list_add_tail(&e->list, &sof_shim_list);
	mutex_unlock(&sof_shim_list_mutex);
	return count;

err_unlock:
	mutex_unlock(&sof_shim_list_mutex);
	kfree(e);
	return ret;
}
static DRIVER_ATTR_WO(new_device);

static ssize_t del_device_store(struct device_driver *drv, const char *buf, size_t count)
{
	struct sof_shim_entry *e;
	u32 id;
	int ret;

	ret = kstrtou32(buf, 10, &id);
	if (ret)
		return ret;

	mutex_lock(&sof_shim_list_mutex);
	e = sof_shim_find(id);
	if (!e || e->deleting) {
		mutex_unlock(&sof_shim_list_mutex);
		return -ENOENT;
	}
	e->deleting = true;
	mutex_unlock(&sof_shim_list_mutex);

	/*
	 * Unbinds the DSP, every client device first. That takes a while, so the list mutex is
	 * not held; the entry keeps the id taken until the device is gone.
	 */
	platform_device_unregister(e->pdev);

	mutex_lock(&sof_shim_list_mutex);
	list_del(&e->list);
	mutex_unlock(&sof_shim_list_mutex);
	kfree(e);
	return count;
}
static DRIVER_ATTR_WO(del_device);

static struct attribute *sof_shim_drv_attrs[] = {
	&driver_attr_new_device.attr,
	&driver_attr_del_device.attr,
	NULL
};
ATTRIBUTE_GROUPS(sof_shim_drv);

static struct platform_driver sof_shim_driver = {
	.probe = sof_shim_probe,
	.driver = {
		.name = SOF_SHIM_DRV_NAME,
		.groups = sof_shim_drv_groups,
		.dev_groups = sof_shim_dev_groups,
		.pm = &sof_shim_pm_ops,
		/* new_device relies on a synchronous probe */
		.probe_type = PROBE_FORCE_SYNCHRONOUS,
	},
};

static int __init sof_shim_init(void)
{
	int ret;

	sof_shim_debugfs_top = debugfs_create_dir(SOF_SHIM_DRV_NAME, NULL);
	ret = platform_driver_register(&sof_shim_driver);
	if (ret)
		debugfs_remove_recursive(sof_shim_debugfs_top);
	return ret;
}

/*
 * Module exit mirrors init. The control files go first: unregistering the driver removes
 * new_device and del_device and waits for writes in progress (kernfs drains them), and it
 * unbinds every DSP. From then on nothing adds to or takes from sof_shim_list but this
 * function, which deletes the DSPs left (the lock is for the reader: no one contends).
 * Emptying the list first would let a new_device write slip in between and register a DSP
 * that outlives the module.
 */
static void __exit sof_shim_exit(void)
{
	struct sof_shim_entry *e, *tmp;

	platform_driver_unregister(&sof_shim_driver);

	mutex_lock(&sof_shim_list_mutex);
	list_for_each_entry_safe_reverse(e, tmp, &sof_shim_list, list) {
		list_del(&e->list);
		platform_device_unregister(e->pdev);
		kfree(e);
	}
	mutex_unlock(&sof_shim_list_mutex);

	debugfs_remove_recursive(sof_shim_debugfs_top);
	/* client devices' releases still pending run this module's code */
	sof_shim_client_devs_wait();
	sof_shim_client_ida_destroy();
}

module_init(sof_shim_init);
module_exit(sof_shim_exit);

MODULE_DESCRIPTION("Simulated SOF DSP: parent of SOF auxiliary clients (auxbus bundle)");
MODULE_LICENSE("GPL");
