// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_ipc_msg_injector: IPC message injector client of the simulated SOF DSP, after
 * mainline's sound/soc/sof/sof-client-ipc-msg-injector.c.
 *
 * debugfs, in the DSP's directory:
 *   ipc_msg_inject	write a raw IPC message (header first, hdr.size bytes, at most the
 *			DSP's maximum payload) in one write at offset 0: it is sent to the
 *			DSP; read back the reply of the last message that succeeded.
 *
 * Unlike mainline, whose write returns 0 for a write at a non-zero offset and sends whatever
 * fits the buffer: a write at a non-zero offset, an empty one, one shorter than the header,
 * longer than the maximum payload or whose size differs from its header's fails with -EINVAL
 * and sends nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <auxbus/sof-shim.h>

#define SOF_IPC_CLIENT_SUSPEND_DELAY_MS	3000

struct sof_msg_inject_priv {
	struct dentry *dfs_file;
	size_t max_msg_size;
	struct mutex lock;	/* tx_buffer, rx_buffer */
	void *tx_buffer;
	void *rx_buffer;
};

static int sof_msg_inject_dfs_open(struct inode *inode, struct file *file)
{
	struct sof_shim_client_dev *cdev = inode->i_private;

	if (sof_shim_client_get_fw_state(cdev) == SOF_SHIM_FW_CRASHED)
		return -ENODEV;

	return simple_open(inode, file);
}

/* the reply to the last message that succeeded: as many bytes as its header says */
static ssize_t sof_msg_inject_dfs_read(struct file *file, char __user *buffer,
				       size_t count, loff_t *ppos)
{
	struct sof_shim_client_dev *cdev = file->private_data;
	struct sof_msg_inject_priv *priv = cdev->data;
	struct sof_shim_ipc_reply *rhdr = priv->rx_buffer;
	ssize_t ret;

	mutex_lock(&priv->lock);
	ret = simple_read_from_buffer(buffer, count, ppos, priv->rx_buffer,
				      min_t(size_t, rhdr->hdr.size, priv->max_msg_size));
	mutex_unlock(&priv->lock);
	return ret;
}

static int sof_msg_inject_send_message(struct sof_shim_client_dev *cdev)
{
	struct sof_msg_inject_priv *priv = cdev->data;
	struct device *dev = &cdev->auxdev.dev;
	int ret, err;

	/* on failure it has dropped the usage count it took: no put */
	ret = pm_runtime_resume_and_get(dev);
	if (ret < 0) {
		dev_err_ratelimited(dev, "debugfs write failed to resume %d\n", ret);
		return ret;
	}

	/* send the message */
	ret = sof_shim_client_ipc_tx_message(cdev, priv->tx_buffer, priv->rx_buffer,
					     priv->max_msg_size);
	if (ret)
		dev_err(dev, "IPC message send failed: %d\n", ret);

	pm_runtime_mark_last_busy(dev);
	err = pm_runtime_put_autosuspend(dev);
	if (err < 0)
		dev_err_ratelimited(dev, "debugfs write failed to idle %d\n", err);

	return ret;
}

static ssize_t sof_msg_inject_dfs_write(struct file *file, const char __user *buffer,
					size_t count, loff_t *ppos)
{
	struct sof_shim_client_dev *cdev = file->private_data;
	struct sof_msg_inject_priv *priv = cdev->data;
	struct sof_shim_ipc_hdr *hdr = priv->tx_buffer;
	struct device *dev = &cdev->auxdev.dev;
	int ret;

	if (*ppos) {
		dev_err_ratelimited(dev, "write at offset %lld refused\n", *ppos);
		return -EINVAL;
	}
	if (count < sizeof(*hdr) || count > priv->max_msg_size) {
		dev_err_ratelimited(dev, "message of %zu bytes refused: %zu..%zu\n", count,
				    sizeof(*hdr), priv->max_msg_size);
		return -EINVAL;
	}

	mutex_lock(&priv->lock);
	if (copy_from_user(priv->tx_buffer, buffer, count)) {
		ret = -EFAULT;
		goto out_unlock;
	}
	if (hdr->size != count) {
		dev_err_ratelimited(dev, "message of %zu bytes says it has %u\n", count, hdr->size);
		ret = -EINVAL;
		goto out_unlock;
	}

	memset(priv->rx_buffer, 0, priv->max_msg_size);
	ret = sof_msg_inject_send_message(cdev);
	if (!ret) {
		*ppos += count;
		ret = count;
	}
out_unlock:
	mutex_unlock(&priv->lock);
	return ret;
}

static const struct file_operations sof_msg_inject_fops = {
	.owner = THIS_MODULE,
	.open = sof_msg_inject_dfs_open,
	.read = sof_msg_inject_dfs_read,
	.write = sof_msg_inject_dfs_write,
	.llseek = default_llseek,
};

static int sof_msg_inject_probe(struct auxiliary_device *auxdev,
				const struct auxiliary_device_id *id)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);
	struct dentry *debugfs_root = sof_shim_client_get_debugfs_root(cdev);
	struct device *dev = &auxdev->dev;
	struct sof_msg_inject_priv *priv;

	/* IPC3 messages only, so far: an IPC4 firmware would refuse every one of them */
	if (sof_shim_client_get_ipc_type(cdev) != SOF_SHIM_IPC_TYPE_3) {
		dev_err(dev, "IPC4 firmware: this client speaks IPC3 only (not implemented yet)\n");
		return -EOPNOTSUPP;
	}

	/* allocate memory for client data */
	priv = devm_kzalloc(dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;

	priv->max_msg_size = sof_shim_client_get_ipc_max_payload_size(cdev);
	priv->tx_buffer = devm_kmalloc(dev, priv->max_msg_size, GFP_KERNEL);
	priv->rx_buffer = devm_kzalloc(dev, priv->max_msg_size, GFP_KERNEL);
	if (!priv->tx_buffer || !priv->rx_buffer)
		return -ENOMEM;
	mutex_init(&priv->lock);
	cdev->data = priv;

	priv->dfs_file = debugfs_create_file("ipc_msg_inject", 0644, debugfs_root, cdev,
					     &sof_msg_inject_fops);

	/* enable runtime PM */
	pm_runtime_set_autosuspend_delay(dev, SOF_IPC_CLIENT_SUSPEND_DELAY_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_idle(dev);

	return 0;
}

static void sof_msg_inject_remove(struct auxiliary_device *auxdev)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);
	struct sof_msg_inject_priv *priv = cdev->data;

	pm_runtime_disable(&auxdev->dev);
	pm_runtime_dont_use_autosuspend(&auxdev->dev);

	/* waits for a write in progress */
	debugfs_remove(priv->dfs_file);
}

AUXILIARY_DEVICE_TABLE(sof_msg_inject_client_id_table, "snd_sof_shim.ipc_msg_injector");

static struct auxiliary_driver sof_msg_inject_client_drv = {
	.probe = sof_msg_inject_probe,
	.remove = sof_msg_inject_remove,
	.id_table = sof_msg_inject_client_id_table,
};

module_auxiliary_driver(sof_msg_inject_client_drv);

MODULE_DESCRIPTION("SOF shim IPC message injector client (auxbus bundle)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("SND_SOC_SOF_SHIM_CLIENT");
