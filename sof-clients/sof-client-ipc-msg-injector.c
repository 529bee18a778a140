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
 * On an IPC4 firmware, as mainline's ipc4 path: a message is its primary and extension words
 * (8 bytes, little endian) followed by at most the DSP's maximum payload; its reply reads
 * back as the reply's two words, followed by the payload for a large config get.
 *
 * Unlike mainline, whose write returns 0 for a write at a non-zero offset and sends whatever
 * fits the buffer: a write at a non-zero offset, an empty one, one shorter than the header,
 * longer than the maximum payload or (IPC3) whose size differs from its header's fails with
 * -EINVAL and sends nothing.
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

/**
 * struct sof_msg_inject_priv - the injector's state
 * @dfs_file:		debugfs ipc_msg_inject
 * @ipc_type:		the IPC the firmware speaks
 * @max_msg_size:	the DSP's maximum payload
 * @lock:		serialises writes and reads of the buffers
 * @tx_buffer:		IPC3: the message; IPC4: the message's payload
 * @rx_buffer:		IPC3: the reply; IPC4: the reply's payload
 * @ipc4_tx:		IPC4: the message
 * @ipc4_rx:		IPC4: the reply
 * @ipc4_rx_raw:	IPC4: the reply as read back, its two words and payload
 * @ipc4_rx_len:	IPC4: bytes in @ipc4_rx_raw
 */
struct sof_msg_inject_priv {
	struct dentry *dfs_file;
	enum sof_shim_ipc_type ipc_type;
	size_t max_msg_size;
	struct mutex lock;	/* all buffers */
	void *tx_buffer;
	void *rx_buffer;
	struct sof_shim_ipc4_msg ipc4_tx;
	struct sof_shim_ipc4_msg ipc4_rx;
	u8 *ipc4_rx_raw;
	size_t ipc4_rx_len;
};

/* the two words of an IPC4 message as the injector reads and writes them */
struct sof_msg_inject_ipc4_hdr {
	__le32 primary;
	__le32 extension;
} __packed;

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
	if (priv->ipc_type == SOF_SHIM_IPC_TYPE_4)
		ret = simple_read_from_buffer(buffer, count, ppos, priv->ipc4_rx_raw,
					      priv->ipc4_rx_len);
	else
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
	if (priv->ipc_type == SOF_SHIM_IPC_TYPE_4)
		ret = sof_shim_client_ipc_tx_message(cdev, &priv->ipc4_tx, &priv->ipc4_rx,
						     priv->max_msg_size);
	else
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

/* IPC4: primary, extension and payload in; the reply's words and payload back */
static ssize_t sof_msg_inject_ipc4_dfs_write(struct file *file, const char __user *buffer,
					     size_t count, loff_t *ppos)
{
	struct sof_shim_client_dev *cdev = file->private_data;
	struct sof_msg_inject_priv *priv = cdev->data;
	struct sof_shim_ipc4_msg *tx = &priv->ipc4_tx, *rx = &priv->ipc4_rx;
	struct device *dev = &cdev->auxdev.dev;
	struct sof_msg_inject_ipc4_hdr hdr;
	size_t data_size, rx_size;
	int ret;

	if (*ppos) {
		dev_err_ratelimited(dev, "write at offset %lld refused\n", *ppos);
		return -EINVAL;
	}
	if (count < sizeof(hdr) || count - sizeof(hdr) > priv->max_msg_size) {
		dev_err_ratelimited(dev, "IPC4 message of %zu bytes refused: %zu..%zu\n", count,
				    sizeof(hdr), sizeof(hdr) + priv->max_msg_size);
		return -EINVAL;
	}
	data_size = count - sizeof(hdr);

	mutex_lock(&priv->lock);
	/* copy the header first, then the payload */
	if (copy_from_user(&hdr, buffer, sizeof(hdr)) ||
	    copy_from_user(priv->tx_buffer, buffer + sizeof(hdr), data_size)) {
		ret = -EFAULT;
		goto out_unlock;
	}
	tx->primary = le32_to_cpu(hdr.primary);
	tx->extension = le32_to_cpu(hdr.extension);
	tx->data_size = data_size;
	tx->data_ptr = priv->tx_buffer;

	/* Initialize the reply storage; nothing to read back unless this one succeeds */
	rx->primary = 0;
	rx->extension = 0;
	rx->data_size = 0;
	rx->data_ptr = priv->rx_buffer;
	memset(priv->rx_buffer, 0, priv->max_msg_size);
	priv->ipc4_rx_len = 0;

	ret = sof_msg_inject_send_message(cdev);
	if (ret)
		goto out_unlock;

	hdr.primary = cpu_to_le32(rx->primary);
	hdr.extension = cpu_to_le32(rx->extension);
	memcpy(priv->ipc4_rx_raw, &hdr, sizeof(hdr));
	rx_size = 0;
	/* Only get large config have payload */
	if (SOF_SHIM_IPC4_MSG_IS_MODULE_MSG(rx->primary) &&
	    SOF_SHIM_IPC4_MSG_TYPE_GET(rx->primary) == SOF_SHIM_IPC4_MOD_LARGE_CONFIG_GET)
		rx_size = min(rx->data_size, priv->max_msg_size);
	memcpy(priv->ipc4_rx_raw + sizeof(hdr), priv->rx_buffer, rx_size);
	priv->ipc4_rx_len = sizeof(hdr) + rx_size;
	*ppos += count;
	ret = count;
out_unlock:
	mutex_unlock(&priv->lock);
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

	if (priv->ipc_type == SOF_SHIM_IPC_TYPE_4)
		return sof_msg_inject_ipc4_dfs_write(file, buffer, count, ppos);

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

	/* allocate memory for client data */
	priv = devm_kzalloc(dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;

	priv->ipc_type = sof_shim_client_get_ipc_type(cdev);
	priv->max_msg_size = sof_shim_client_get_ipc_max_payload_size(cdev);
	priv->tx_buffer = devm_kmalloc(dev, priv->max_msg_size, GFP_KERNEL);
	priv->rx_buffer = devm_kzalloc(dev, priv->max_msg_size, GFP_KERNEL);
	if (!priv->tx_buffer || !priv->rx_buffer)
		return -ENOMEM;
	if (priv->ipc_type == SOF_SHIM_IPC_TYPE_4) {
		priv->ipc4_rx_raw = devm_kzalloc(dev, sizeof(struct sof_msg_inject_ipc4_hdr) +
						 priv->max_msg_size, GFP_KERNEL);
		if (!priv->ipc4_rx_raw)
			return -ENOMEM;
	}
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

AUXILIARY_DEVICE_TABLE(sof_msg_inject_client_id_table, "snd_sof_shim.msg_injector");

static struct auxiliary_driver sof_msg_inject_client_drv = {
	.probe = sof_msg_inject_probe,
	.remove = sof_msg_inject_remove,
	.id_table = sof_msg_inject_client_id_table,
};

module_auxiliary_driver(sof_msg_inject_client_drv);

MODULE_DESCRIPTION("SOF shim IPC message injector client (auxbus bundle)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("SND_SOC_SOF_SHIM_CLIENT");
