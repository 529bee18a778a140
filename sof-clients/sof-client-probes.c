// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_probes: probes client of the simulated SOF DSP, after mainline's
 * sound/soc/sof/sof-client-probes.c.
 *
 * As mainline, the messages to the DSP's probe module are the IPC the firmware speaks
 * (sof_shim_client_get_ipc_type()): struct sof_probes_ipc_ops, in sof-client-probes-ipc3.c
 * and sof-client-probes-ipc4.c.
 *
 * It registers an ASoC component with one compress capture DAI and a card with one DAI link
 * ("Compress Probe Capture"): opening /dev/snd/comprC<card>D0 starts the extractor stream.
 * The debugfs files that connect probe points are in sof-client-probes-debugfs.c.
 *
 * Removal (del_device, unbind) with the stream open: the compress core keeps no reference
 * to the card for an open file (snd_compr_open() drops it, and the file is not in the card's
 * files list), so the card, its compress device and the runtime the file still points to
 * would be freed under it. As snd_card_disconnect_sync() does for PCM, the client marks
 * itself disconnected (new opens fail with -ENODEV, the stream ends as an xrun: read and
 * SNDRV_COMPRESS_AVAIL fail with -EPIPE, poll with EPOLLERR, triggers with -ENODEV) and
 * waits for the stream to be closed before its card goes.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <sound/compress_driver.h>
#include <sound/soc.h>
#include <auxbus/sof-shim.h>
#include <auxbus/sof-shim-probes.h>

#include "sof-client-probes.h"

#define SOF_PROBES_SUSPEND_DELAY_MS	3000
#define SOF_PROBES_NUM_DAI_LINKS	1
#define SOF_PROBES_DAI_NAME		"Probe Extraction CPU DAI"

static struct sof_shim_client_dev *sof_probes_dai_to_cdev(struct snd_soc_dai *dai)
{
	struct snd_soc_card *card = snd_soc_component_get_drvdata(dai->component);

	return snd_soc_card_get_drvdata(card);
}

static int sof_probes_compr_startup(struct snd_compr_stream *cstream, struct snd_soc_dai *dai)
{
	struct sof_shim_client_dev *cdev = sof_probes_dai_to_cdev(dai);
	struct sof_probes_priv *priv = cdev->data;
	int ret;

	mutex_lock(&priv->stream_lock);
	if (priv->disconnected || sof_shim_client_get_fw_state(cdev) == SOF_SHIM_FW_CRASHED) {
		ret = -ENODEV;
		goto err_unlock;
	}

	/*
	 * Pin this module too: module_get_upon_open only pins a component's module for
	 * compress streams since 5.11 (5.10's soc-compress never takes it).
	 */
	if (!try_module_get(THIS_MODULE)) {
		ret = -ENODEV;
		goto err_unlock;
	}

	ret = sof_shim_client_core_module_get(cdev);
	if (ret)
		goto err_put_self;

	/*
	 * The DSP stays in D0 while the stream is open: D3 loses the firmware, and with it the
	 * extractor and the probe points
	 */
	ret = pm_runtime_resume_and_get(&cdev->auxdev.dev);
	if (ret < 0)
		goto err_put_core;

	ret = priv->host_ops->startup(cdev, cstream, dai, &priv->extractor_stream_tag);
	if (ret) {
		dev_err(dai->dev, "Failed to startup probe stream: %d\n", ret);
		priv->extractor_stream_tag = SOF_PROBES_INVALID_NODE_ID;
		goto err_put_pm;
	}
	priv->cstream = cstream;
	mutex_unlock(&priv->stream_lock);
	return 0;

err_put_pm:
	pm_runtime_mark_last_busy(&cdev->auxdev.dev);
	pm_runtime_put_autosuspend(&cdev->auxdev.dev);
err_put_core:
	sof_shim_client_core_module_put(cdev);
err_put_self:
	module_put(THIS_MODULE);
err_unlock:
	mutex_unlock(&priv->stream_lock);
	return ret;
}

static int sof_probes_compr_shutdown(struct snd_compr_stream *cstream, struct snd_soc_dai *dai)
{
	struct sof_shim_client_dev *cdev = sof_probes_dai_to_cdev(dai);
	struct sof_probes_priv *priv = cdev->data;
	const struct sof_probes_ipc_ops *ipc = priv->ipc_ops;
	struct sof_shim_probe_point_desc *desc;
	size_t num_desc, i;
	int ret;

	/* disconnect all probe points, then the extractor (skipped when the DSP is down) */
	if (sof_shim_client_get_fw_state(cdev) == SOF_SHIM_FW_BOOT_COMPLETE) {
		ret = ipc->points_info(cdev, &desc, &num_desc);
		if (ret < 0 && ret != -EINVAL) {
			dev_err(dai->dev, "Failed to get probe points: %d\n", ret);
		} else if (!ret) {
			for (i = 0; i < num_desc; i++)
				ipc->points_remove(cdev, &desc[i].buffer_id, 1);
			kfree(desc);
		}
		/* -EINVAL: no probe instance (the stream never got its parameters) */
		ret = ipc->deinit(cdev);
		if (ret < 0 && ret != -EINVAL)
			dev_err(dai->dev, "Failed to deinit probe: %d\n", ret);
	}

	priv->extractor_stream_tag = SOF_PROBES_INVALID_NODE_ID;
	snd_compr_free_pages(cstream);

	ret = priv->host_ops->shutdown(cdev, cstream, dai);
	pm_runtime_mark_last_busy(&cdev->auxdev.dev);
	pm_runtime_put_autosuspend(&cdev->auxdev.dev);

	/* a remove waiting for this close may go on (sof_probes_disconnect()) */
	mutex_lock(&priv->stream_lock);
	priv->cstream = NULL;
	wake_up(&priv->close_wq);
	mutex_unlock(&priv->stream_lock);

	sof_shim_client_core_module_put(cdev);
	module_put(THIS_MODULE);
	return ret;
}

static int sof_probes_compr_set_params(struct snd_compr_stream *cstream,
				       struct snd_compr_params *params, struct snd_soc_dai *dai)
{
	struct sof_shim_client_dev *cdev = sof_probes_dai_to_cdev(dai);
	struct snd_compr_runtime *rtd = cstream->runtime;
	struct sof_probes_priv *priv = cdev->data;
	int ret;

	if (READ_ONCE(priv->disconnected))
		return -ENODEV;

	/*
	 * The "DMA" is the simulated DSP writing memory: plain vmalloc pages, with no device
	 * (5.10's allocator would read a device pointer as GFP flags).
	 */
	cstream->dma_buffer.dev.type = SNDRV_DMA_TYPE_VMALLOC;
	cstream->dma_buffer.dev.dev = NULL;
	ret = snd_compr_malloc_pages(cstream, rtd->buffer_size);
	if (ret < 0)
		return ret;

	ret = priv->host_ops->set_params(cdev, cstream, params, dai);
	if (ret)
		return ret;

	ret = priv->ipc_ops->init(cdev, priv->extractor_stream_tag, rtd->dma_bytes);
	if (ret < 0) {
		dev_err(dai->dev, "Failed to init probe: %d\n", ret);
		return ret;
	}
	return 0;
}

static int sof_probes_compr_trigger(struct snd_compr_stream *cstream, int cmd,
				    struct snd_soc_dai *dai)
{
	struct sof_shim_client_dev *cdev = sof_probes_dai_to_cdev(dai);
	struct sof_probes_priv *priv = cdev->data;
	int ret;

	if (!READ_ONCE(priv->disconnected))
		return priv->host_ops->trigger(cdev, cstream, cmd, dai);

	/* the device is gone: stopping still stops the extraction, nothing starts */
	switch (cmd) {
	case SNDRV_PCM_TRIGGER_STOP:
	case SNDRV_PCM_TRIGGER_PAUSE_PUSH:
	case SNDRV_PCM_TRIGGER_SUSPEND:
		ret = priv->host_ops->trigger(cdev, cstream, SNDRV_PCM_TRIGGER_STOP, dai);
		if (ret)
			return ret;
		break;
	}
	return -ENODEV;
}

static int sof_probes_compr_pointer(struct snd_compr_stream *cstream,
				    struct auxbus_snd_compr_tstamp *tstamp,
				    struct snd_soc_dai *dai)
{
	struct sof_shim_client_dev *cdev = sof_probes_dai_to_cdev(dai);
	struct sof_probes_priv *priv = cdev->data;
	u64 copied_total;
	u32 byte_offset;
	int ret;

	ret = priv->host_ops->pointer(cdev, cstream, &copied_total, &byte_offset);
	if (ret)
		return ret;
	tstamp->copied_total = copied_total;
	tstamp->byte_offset = byte_offset;

	/* called with the compress device lock held, as snd_compr_stop_error() wants */
	if (READ_ONCE(priv->disconnected))
		snd_compr_stop_error(cstream, SNDRV_PCM_STATE_XRUN);
	return 0;
}

static const struct snd_soc_cdai_ops sof_probes_compr_ops = {
	.startup = sof_probes_compr_startup,
	.shutdown = sof_probes_compr_shutdown,
	.set_params = sof_probes_compr_set_params,
	.trigger = sof_probes_compr_trigger,
	.pointer = sof_probes_compr_pointer,
};

static int sof_probes_compr_copy(struct snd_soc_component *component,
				 struct snd_compr_stream *cstream,
				 char __user *buf, size_t count)
{
	struct snd_compr_runtime *rtd = cstream->runtime;
	unsigned int offset, n;
	void *ptr;
	int ret;

	if (count > rtd->buffer_size)
		count = rtd->buffer_size;

	div_u64_rem(rtd->total_bytes_transferred, rtd->buffer_size, &offset);
	ptr = rtd->dma_area + offset;
	n = rtd->buffer_size - offset;

	if (count < n) {
		ret = copy_to_user(buf, ptr, count);
	} else {
		ret = copy_to_user(buf, ptr, n);
		ret += copy_to_user(buf + n, rtd->dma_area, count - n);
	}

	if (ret)
		return count - ret;
	return count;
}

static const struct snd_compress_ops sof_probes_compressed_ops = {
	.copy = sof_probes_compr_copy,
};

static const struct snd_soc_dai_ops sof_probes_dai_ops = {
	AUXBUS_SND_SOC_DAI_OPS_COMPRESS_NEW(snd_soc_new_compress)
};

static struct snd_soc_dai_driver sof_probes_dai_drv[] = {
	{
		.name = SOF_PROBES_DAI_NAME,
		.ops = &sof_probes_dai_ops,
		AUXBUS_SND_SOC_DAI_DRV_COMPRESS_NEW(snd_soc_new_compress)
		.cops = &sof_probes_compr_ops,
		.capture = {
			.stream_name = "Probe Extraction",
			.channels_min = 1,
			.channels_max = 8,
			.rates = SNDRV_PCM_RATE_48000,
			.rate_min = 48000,
			.rate_max = 48000,
		},
	},
};

static const struct snd_soc_component_driver sof_probes_component = {
	.name = "snd_sof_shim_probes",
	.compress_ops = &sof_probes_compressed_ops,
	.module_get_upon_open = 1,
	/* the DAI is named by the driver, not after the device */
	AUXBUS_SND_SOC_COMPONENT_DAI_NAMING,
};

/* no idle bias: the card must not keep the client (its card->dev) resumed */
static int sof_probes_card_probe(struct snd_soc_card *card)
{
	auxbus_snd_soc_card_idle_bias_off(card);
	return 0;
}

static int sof_probes_client_probe(struct auxiliary_device *auxdev,
				   const struct auxiliary_device_id *id)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);
	struct dentry *dfsroot = sof_shim_client_get_debugfs_root(cdev);
	struct device *dev = &auxdev->dev;
	const struct sof_shim_probes_host_ops *ops = dev->platform_data;
	struct sof_probes_priv *priv;
	struct snd_soc_card *card;
	int ret;

	if (!ops) {
		dev_err(dev, "missing platform data\n");
		return -ENODEV;
	}
	if (!ops->startup || !ops->shutdown || !ops->set_params || !ops->trigger ||
	    !ops->pointer) {
		dev_err(dev, "missing platform callback(s)\n");
		return -ENODEV;
	}

	priv = devm_kzalloc(dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;
	priv->host_ops = ops;

	/* the probe module's messages: the IPC the firmware speaks */
	switch (sof_shim_client_get_ipc_type(cdev)) {
	case SOF_SHIM_IPC_TYPE_3:
		priv->ipc_ops = &ipc3_probe_ops;
		break;
	case SOF_SHIM_IPC_TYPE_4:
		priv->ipc_ops = &ipc4_probe_ops;
		break;
	default:
		dev_err(dev, "Matching IPC ops not found.\n");
		return -ENODEV;
	}
	priv->extractor_stream_tag = SOF_PROBES_INVALID_NODE_ID;
	mutex_init(&priv->stream_lock);
	init_waitqueue_head(&priv->close_wq);
	cdev->data = priv;

	ret = devm_snd_soc_register_component(dev, &sof_probes_component, sof_probes_dai_drv,
					      ARRAY_SIZE(sof_probes_dai_drv));
	if (ret < 0) {
		dev_err(dev, "failed to register SOF probes DAI driver %d\n", ret);
		return ret;
	}

	/*
	 * extraction DAI link: our compress DAI, the dummy codec, ourselves as platform. The
	 * CPU DAI is named with its component: every probes client's DAI has the same name.
	 */
	priv->cpu.name = dev_name(dev);
	priv->cpu.dai_name = SOF_PROBES_DAI_NAME;
	priv->codec.name = "snd-soc-dummy";
	priv->codec.dai_name = "snd-soc-dummy-dai";
	priv->platform.name = dev_name(dev);
	priv->link.name = "Compress Probe Capture";
	priv->link.id = 0;
	priv->link.cpus = &priv->cpu;
	priv->link.num_cpus = 1;
	priv->link.codecs = &priv->codec;
	priv->link.num_codecs = 1;
	priv->link.platforms = &priv->platform;
	priv->link.num_platforms = 1;
	priv->link.nonatomic = 1;

	card = &priv->card;
	card->dev = dev;
	card->name = "sof-shim-probes";
	card->owner = THIS_MODULE;
	card->num_links = SOF_PROBES_NUM_DAI_LINKS;
	card->dai_link = &priv->link;
	card->probe = sof_probes_card_probe;
	snd_soc_card_set_drvdata(card, cdev);

	ret = devm_snd_soc_register_card(dev, card);
	if (ret < 0) {
		dev_err(dev, "Probes card register failed %d\n", ret);
		return ret;
	}

	priv->points_file.cdev = cdev;
	priv->points_file.tkns_per_elem = 3;
	priv->points_file.send = sof_probes_points_add_tkns;
	priv->dfs_points = debugfs_create_file("probe_points", 0644, dfsroot, &priv->points_file,
					       &sof_probes_points_fops);
	priv->points_remove_file.cdev = cdev;
	priv->points_remove_file.tkns_per_elem = 1;
	priv->points_remove_file.send = sof_probes_points_remove_tkns;
	priv->dfs_points_remove = debugfs_create_file("probe_points_remove", 0200, dfsroot,
						      &priv->points_remove_file,
						      &sof_probes_points_remove_fops);

	/* runtime PM: autosuspend after 3 s, as in mainline */
	pm_runtime_set_autosuspend_delay(dev, SOF_PROBES_SUSPEND_DELAY_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_idle(dev);

	return 0;
}

/*
 * The card goes after remove() (devm), and with it what an open compress file still uses:
 * end the stream as an xrun, wake its reader and wait for the file to be closed. The
 * close runs in soc-compress under the card's pcm_mutex until its last access to the
 * card; taking that mutex once waits for it.
 */
static void sof_probes_disconnect(struct sof_probes_priv *priv)
{
	struct device *dev = priv->card.dev;

	mutex_lock(&priv->stream_lock);
	WRITE_ONCE(priv->disconnected, true);
	if (priv->cstream) {
		dev_warn(dev, "removed with a probes stream open: waiting for it to be closed\n");
		/* its next position update (poll, read, avail) reports the xrun */
		snd_compr_fragment_elapsed(priv->cstream);
	}
	mutex_unlock(&priv->stream_lock);

	while (!wait_event_timeout(priv->close_wq, !READ_ONCE(priv->cstream), 10 * HZ))
		dev_warn(dev, "still waiting for the probes stream to be closed\n");

	mutex_lock(&priv->card.pcm_mutex);
	mutex_unlock(&priv->card.pcm_mutex);
}

static void sof_probes_client_remove(struct auxiliary_device *auxdev)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);
	struct sof_probes_priv *priv = cdev->data;

	sof_probes_disconnect(priv);

	pm_runtime_disable(&auxdev->dev);
	pm_runtime_dont_use_autosuspend(&auxdev->dev);
	debugfs_remove(priv->dfs_points);
	debugfs_remove(priv->dfs_points_remove);
}

AUXILIARY_DEVICE_TABLE(sof_probes_client_id_table, "snd_sof_shim.hda-probes");

static struct auxiliary_driver sof_probes_client_drv = {
	.probe = sof_probes_client_probe,
	.remove = sof_probes_client_remove,
	.id_table = sof_probes_client_id_table,
};

module_auxiliary_driver(sof_probes_client_drv);

MODULE_DESCRIPTION("SOF shim probes client (auxbus bundle)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("SND_SOC_SOF_SHIM_CLIENT");
