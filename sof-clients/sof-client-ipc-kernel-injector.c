// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_ipc_kernel_injector: IPC kernel injector client of the simulated SOF DSP,
 * after mainline's sound/soc/sof/sof-client-ipc-kernel-injector.c.
 *
 * debugfs, in the DSP's directory:
 *   kernel_ipc_msg_inject	write a raw IPC message (header first, hdr.size bytes, at most
 *				the DSP's maximum payload) in one write at offset 0: the host
 *				receives it as if the DSP had sent it
 *				(sof_shim_client_ipc_rx_message()), and every client's handler
 *				of its type runs before the write returns.
 *
 * Unlike mainline, whose write returns 0 at a non-zero offset and hands on whatever fits: a
 * write at a non-zero offset, an empty one, one shorter than the header, longer than the
 * maximum payload or whose size differs from its header's fails with -EINVAL and injects
 * nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <auxbus/sof-shim.h>

#define SOF_IPC_CLIENT_SUSPEND_DELAY_MS	3000

struct sof_kernel_inject_priv {
	struct dentry *kernel_dfs_file;
	size_t max_msg_size;
	struct mutex lock;	/* kernel_buffer */
	void *kernel_buffer;
};

static ssize_t sof_kernel_msg_inject_dfs_write(struct file *file, const char __user *buffer,
					       size_t count, loff_t *ppos)
{
	struct sof_shim_client_dev *cdev = file->private_data;
	struct sof_kernel_inject_priv *priv = cdev->data;
	struct sof_shim_ipc_hdr *hdr = priv->kernel_buffer;
	struct device *dev = &cdev->auxdev.dev;
	int ret, err;

	if (*ppos || count < sizeof(*hdr) || count > priv->max_msg_size) {
		dev_err_ratelimited(dev, "write of %zu bytes at %lld refused\n", count, *ppos);
		return -EINVAL;
	}

	mutex_lock(&priv->lock);
	if (copy_from_user(priv->kernel_buffer, buffer, count)) {
		ret = -EFAULT;
		goto out_unlock;
	}
	if (hdr->size != count) {
		dev_err_ratelimited(dev, "message of %zu bytes says it has %u\n", count, hdr->size);
		ret = -EINVAL;
		goto out_unlock;
	}

	/* on failure it has dropped the usage count it took: no put */
	ret = pm_runtime_resume_and_get(dev);
	if (ret < 0) {
		dev_err_ratelimited(dev, "debugfs write failed to resume %d\n", ret);
		goto out_unlock;
	}

	ret = sof_shim_client_ipc_rx_message(cdev, hdr, priv->kernel_buffer);

	pm_runtime_mark_last_busy(dev);
	err = pm_runtime_put_autosuspend(dev);
	if (err < 0)
		dev_err_ratelimited(dev, "debugfs write failed to idle %d\n", err);
	if (!ret) {
		*ppos += count;
		ret = count;
	}
out_unlock:
	mutex_unlock(&priv->lock);
	return ret;
}

static const struct file_operations sof_kernel_msg_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sof_kernel_msg_inject_dfs_write,
	.llseek = default_llseek,
};

static int sof_kernel_msg_inject_probe(struct auxiliary_device *auxdev,
				       const struct auxiliary_device_id *id)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);
	struct dentry *debugfs_root = sof_shim_client_get_debugfs_root(cdev);
	struct device *dev = &auxdev->dev;
	struct sof_kernel_inject_priv *priv;

	/* its notifications are IPC3 messages, which an IPC4 firmware's clients do not read */
	if (sof_shim_client_get_ipc_type(cdev) != SOF_SHIM_IPC_TYPE_3) {
		dev_err(dev, "IPC4 firmware: this client injects IPC3 notifications only\n");
		return -EOPNOTSUPP;
	}

	priv = devm_kzalloc(dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;

	priv->max_msg_size = sof_shim_client_get_ipc_max_payload_size(cdev);
	priv->kernel_buffer = devm_kmalloc(dev, priv->max_msg_size, GFP_KERNEL);
	if (!priv->kernel_buffer)
		return -ENOMEM;
	mutex_init(&priv->lock);
	cdev->data = priv;

	priv->kernel_dfs_file = debugfs_create_file("kernel_ipc_msg_inject", 0644, debugfs_root,
						    cdev, &sof_kernel_msg_inject_fops);

	/* enable runtime PM */
	pm_runtime_set_autosuspend_delay(dev, SOF_IPC_CLIENT_SUSPEND_DELAY_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_idle(dev);

	return 0;
}

static void sof_kernel_msg_inject_remove(struct auxiliary_device *auxdev)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);
	struct sof_kernel_inject_priv *priv = cdev->data;

	pm_runtime_disable(&auxdev->dev);
	pm_runtime_dont_use_autosuspend(&auxdev->dev);

	/* waits for a write in progress */
	debugfs_remove(priv->kernel_dfs_file);
}

AUXILIARY_DEVICE_TABLE(sof_kernel_msg_inject_client_id_table, "snd_sof_shim.kernel_injector");

static struct auxiliary_driver sof_kernel_msg_inject_client_drv = {
	.probe = sof_kernel_msg_inject_probe,
	.remove = sof_kernel_msg_inject_remove,
	.id_table = sof_kernel_msg_inject_client_id_table,
};

module_auxiliary_driver(sof_kernel_msg_inject_client_drv);

MODULE_DESCRIPTION("SOF shim IPC kernel injector client (auxbus bundle)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("SND_SOC_SOF_SHIM_CLIENT");
