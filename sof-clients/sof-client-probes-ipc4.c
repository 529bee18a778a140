// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_probes: the IPC4 probe messages, as mainline's
 * sound/soc/sof/sof-client-probes-ipc4.c: the probe module is created (init instance, with
 * its extraction DMA: an HDA host input gateway) and deleted with module messages; points
 * are connected, listed and disconnected with large config set and get of its
 * SOF_SHIM_IPC4_PROBE_POINTS and SOF_SHIM_IPC4_PROBE_POINTS_DISCONNECT parameters.
 *
 * As mainline, each message first finds the probe module by its UUID in the firmware's manifest
 * (sof_shim_client_ipc4_find_module(), once; then kept) and takes its module id from there: a
 * firmware without it fails them with -ENODEV. Mainline's points_info is a stub (an empty
 * list, "Firmware side implementation needed first"); the simulated firmware answers a large
 * config get of SOF_SHIM_IPC4_PROBE_POINTS with struct sof_shim_ipc4_probe_info, so the list
 * here is the firmware's.
 */
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <auxbus/sof-shim.h>
#include <auxbus/sof-shim-probes.h>

#include "sof-client-probes.h"

/*
 * The probe module's manifest entry, looked up by its UUID on first use and kept (mainline's
 * sof_ipc4_probe_get_module_info(), same message); NULL when the firmware has no such module.
 */
static const struct sof_shim_ipc4_fw_module *
sof_ipc4_probe_get_module_info(struct sof_shim_client_dev *cdev)
{
	struct sof_probes_priv *priv = cdev->data;
	struct device *dev = &cdev->auxdev.dev;
	static const guid_t probe_uuid =
		GUID_INIT(0x7CAD0808, 0xAB10, 0xCD23,
			  0xEF, 0x45, 0x12, 0xAB, 0x34, 0xCD, 0x56, 0xEF);

	if (!priv->ipc_priv) {
		const struct sof_shim_ipc4_fw_module *fw_module =
			sof_shim_client_ipc4_find_module(cdev, &probe_uuid);

		if (!fw_module) {
			dev_err(dev, "%s: no matching uuid found\n", __func__);
			return NULL;
		}
		priv->ipc_priv = fw_module;
	}
	return priv->ipc_priv;
}

/* instance 0 of the module */
static u32 ipc4_probes_primary(const struct sof_shim_ipc4_fw_module *mentry)
{
	return mentry->man4_module_entry.id |
	       SOF_SHIM_IPC4_MSG_DIR(SOF_SHIM_IPC4_MSG_REQUEST) |
	       SOF_SHIM_IPC4_MSG_TARGET(SOF_SHIM_IPC4_MODULE_MSG);
}

static int ipc4_probes_init(struct sof_shim_client_dev *cdev, u32 stream_tag,
			    size_t buffer_size)
{
	const struct sof_shim_ipc4_fw_module *mentry = sof_ipc4_probe_get_module_info(cdev);
	struct sof_shim_ipc4_probe_cfg cfg;
	struct sof_shim_ipc4_msg msg;

	if (!mentry)
		return -ENODEV;

	memset(&cfg, 0, sizeof(cfg));
	cfg.gtw_cfg.node_id = SOF_SHIM_IPC4_PROBE_NODE_ID_INDEX(stream_tag - 1) |
		SOF_SHIM_IPC4_PROBE_NODE_ID_TYPE(SOF_SHIM_IPC4_DMA_HDA_HOST_INPUT);
	cfg.gtw_cfg.dma_buffer_size = buffer_size;

	msg.primary = ipc4_probes_primary(mentry);
	msg.primary |= SOF_SHIM_IPC4_MSG_TYPE_SET(SOF_SHIM_IPC4_MOD_INIT_INSTANCE);
	msg.extension = SOF_SHIM_IPC4_MOD_EXT_DST_MOD_INSTANCE(SOF_SHIM_IPC4_INVALID_PIPELINE_ID);
	msg.extension |= SOF_SHIM_IPC4_MOD_EXT_CORE_ID(0);
	msg.extension |= SOF_SHIM_IPC4_MOD_EXT_PARAM_SIZE(sizeof(cfg) / sizeof(u32));
	msg.data_size = sizeof(cfg);
	msg.data_ptr = &cfg;

	return sof_shim_client_ipc_tx_message_no_reply(cdev, &msg);
}

static int ipc4_probes_deinit(struct sof_shim_client_dev *cdev)
{
	const struct sof_shim_ipc4_fw_module *mentry = sof_ipc4_probe_get_module_info(cdev);
	struct sof_shim_ipc4_msg msg;

	if (!mentry)
		return -ENODEV;

	msg.primary = ipc4_probes_primary(mentry);
	msg.primary |= SOF_SHIM_IPC4_MSG_TYPE_SET(SOF_SHIM_IPC4_MOD_DELETE_INSTANCE);
	msg.extension = SOF_SHIM_IPC4_MOD_EXT_DST_MOD_INSTANCE(SOF_SHIM_IPC4_INVALID_PIPELINE_ID);
	msg.extension |= SOF_SHIM_IPC4_MOD_EXT_CORE_ID(0);
	msg.data_size = 0;
	msg.data_ptr = NULL;

	return sof_shim_client_ipc_tx_message_no_reply(cdev, &msg);
}

/* the connected points; *desc is allocated (free it) when *num_desc > 0 */
static int ipc4_probes_points_info(struct sof_shim_client_dev *cdev,
				   struct sof_shim_probe_point_desc **desc, size_t *num_desc)
{
	const struct sof_shim_ipc4_fw_module *mentry = sof_ipc4_probe_get_module_info(cdev);
	struct sof_shim_ipc4_probe_info *info;
	struct sof_shim_ipc4_msg msg;
	size_t i, n;
	int ret;

	*desc = NULL;
	*num_desc = 0;
	if (!mentry)
		return -ENODEV;

	msg.primary = ipc4_probes_primary(mentry);
	msg.extension = SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID(SOF_SHIM_IPC4_PROBE_POINTS);
	msg.data_size = struct_size(info, points, SOF_SHIM_PROBE_MAX_POINTS);
	msg.data_ptr = kzalloc(msg.data_size, GFP_KERNEL);
	if (!msg.data_ptr)
		return -ENOMEM;

	ret = sof_shim_client_ipc_set_get_data(cdev, &msg, false);
	if (ret)
		goto exit;

	info = msg.data_ptr;
	n = info->num_elems;
	if (msg.data_size < sizeof(*info) || n > SOF_SHIM_PROBE_MAX_POINTS ||
	    msg.data_size != struct_size(info, points, n)) {
		dev_err(&cdev->auxdev.dev, "probe points info: %zu bytes for %zu points\n",
			msg.data_size, n);
		ret = -EPROTO;
		goto exit;
	}
	if (!n)
		goto exit;

	*desc = kcalloc(n, sizeof(**desc), GFP_KERNEL);
	if (!*desc) {
		ret = -ENOMEM;
		goto exit;
	}
	for (i = 0; i < n; i++) {
		(*desc)[i].buffer_id = info->points[i].point_id;
		(*desc)[i].purpose = info->points[i].purpose;
		(*desc)[i].stream_tag = info->points[i].stream_tag;
	}
	*num_desc = n;

exit:
	kfree(msg.data_ptr);
	return ret;
}

static int ipc4_probes_points_add(struct sof_shim_client_dev *cdev,
				  const struct sof_shim_probe_point_desc *desc, size_t num_desc)
{
	const struct sof_shim_ipc4_fw_module *mentry = sof_ipc4_probe_get_module_info(cdev);
	struct sof_shim_ipc4_probe_point *points;
	struct sof_shim_ipc4_msg msg;
	size_t i;
	int ret;

	if (!mentry)
		return -ENODEV;

	points = kcalloc(num_desc, sizeof(*points), GFP_KERNEL);
	if (!points)
		return -ENOMEM;

	for (i = 0; i < num_desc; i++) {
		points[i].point_id = desc[i].buffer_id;
		points[i].purpose = desc[i].purpose;
		points[i].stream_tag = desc[i].stream_tag;
	}

	msg.primary = ipc4_probes_primary(mentry);
	msg.extension = SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID(SOF_SHIM_IPC4_PROBE_POINTS);
	msg.data_size = sizeof(*points) * num_desc;
	msg.data_ptr = points;

	ret = sof_shim_client_ipc_set_get_data(cdev, &msg, true);

	kfree(points);
	return ret;
}

static int ipc4_probes_points_remove(struct sof_shim_client_dev *cdev, const u32 *buffer_id,
				     size_t num_buffer_id)
{
	const struct sof_shim_ipc4_fw_module *mentry = sof_ipc4_probe_get_module_info(cdev);
	struct sof_shim_ipc4_msg msg;
	u32 *probe_point_ids;
	int ret;

	if (!mentry)
		return -ENODEV;

	probe_point_ids = kmemdup(buffer_id, num_buffer_id * sizeof(*probe_point_ids),
				  GFP_KERNEL);
	if (!probe_point_ids)
		return -ENOMEM;

	msg.primary = ipc4_probes_primary(mentry);
	msg.extension = SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID(SOF_SHIM_IPC4_PROBE_POINTS_DISCONNECT);
	msg.data_size = num_buffer_id * sizeof(*probe_point_ids);
	msg.data_ptr = probe_point_ids;

	ret = sof_shim_client_ipc_set_get_data(cdev, &msg, true);

	kfree(probe_point_ids);
	return ret;
}

const struct sof_probes_ipc_ops ipc4_probe_ops = {
	.init = ipc4_probes_init,
	.deinit = ipc4_probes_deinit,
	.points_info = ipc4_probes_points_info,
	.points_add = ipc4_probes_points_add,
	.points_remove = ipc4_probes_points_remove,
};
