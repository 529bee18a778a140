// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_probes: the IPC3 probe messages (SOF_SHIM_IPC_GLB_PROBE), as mainline's
 * sound/soc/sof/sof-client-probes-ipc3.c.
 */
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <auxbus/sof-shim.h>

#include "sof-client-probes.h"

static int ipc3_probes_init(struct sof_shim_client_dev *cdev, u32 stream_tag,
			    size_t buffer_size)
{
	struct sof_shim_ipc_probe_dma_add_params *msg;
	size_t size = struct_size(msg, dma, 1);
	struct sof_shim_ipc_reply reply;
	int ret;

	msg = kmalloc(size, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	msg->hdr.size = size;
	msg->hdr.cmd = SOF_SHIM_IPC_GLB_PROBE | SOF_SHIM_IPC_PROBE_INIT;
	msg->num_elems = 1;
	msg->dma[0].stream_tag = stream_tag;
	msg->dma[0].dma_buffer_size = buffer_size;

	ret = sof_shim_client_ipc_tx_message(cdev, msg, &reply, sizeof(reply));
	kfree(msg);
	return ret;
}

static int ipc3_probes_deinit(struct sof_shim_client_dev *cdev)
{
	struct sof_shim_ipc_hdr msg;
	struct sof_shim_ipc_reply reply;

	msg.size = sizeof(msg);
	msg.cmd = SOF_SHIM_IPC_GLB_PROBE | SOF_SHIM_IPC_PROBE_DEINIT;

	return sof_shim_client_ipc_tx_message(cdev, &msg, &reply, sizeof(reply));
}

/* the active probe points; *desc is allocated (free it) when *num_desc > 0 */
static int ipc3_probes_points_info(struct sof_shim_client_dev *cdev,
				   struct sof_shim_probe_point_desc **desc, size_t *num_desc)
{
	size_t max_msg_size = sof_shim_client_get_ipc_max_payload_size(cdev);
	struct sof_shim_ipc_probe_info_params *reply;
	struct sof_shim_ipc_hdr msg;
	size_t n;
	int ret;

	*desc = NULL;
	*num_desc = 0;

	reply = kzalloc(max_msg_size, GFP_KERNEL);
	if (!reply)
		return -ENOMEM;
	msg.size = sizeof(msg);
	msg.cmd = SOF_SHIM_IPC_GLB_PROBE | SOF_SHIM_IPC_PROBE_POINT_INFO;

	ret = sof_shim_client_ipc_tx_message(cdev, &msg, reply, max_msg_size);
	if (ret < 0)
		goto exit;

	n = reply->num_elems;
	if (n > (max_msg_size - sizeof(*reply)) / sizeof(**desc) ||
	    reply->rhdr.hdr.size != sizeof(*reply) + n * sizeof(**desc)) {
		ret = -EPROTO;
		goto exit;
	}
	if (!n)
		goto exit;

	*desc = kmemdup(reply->elems, n * sizeof(**desc), GFP_KERNEL);
	if (!*desc) {
		ret = -ENOMEM;
		goto exit;
	}
	*num_desc = n;

exit:
	kfree(reply);
	return ret;
}

/* the layout the probe point add and remove messages share */
struct sof_probes_points_msg {
	struct sof_shim_ipc_hdr hdr;
	u32 num_elems;
	u8 elems[];
} __packed;

static_assert(offsetof(struct sof_shim_ipc_probe_point_add_params, desc) ==
	      offsetof(struct sof_probes_points_msg, elems));
static_assert(offsetof(struct sof_shim_ipc_probe_point_remove_params, buffer_id) ==
	      offsetof(struct sof_probes_points_msg, elems));

/* send probe point message @cmd with @num_elems elements of @elem_size bytes each */
static int ipc3_probes_points_tx(struct sof_shim_client_dev *cdev, u32 cmd,
				 const void *elems, size_t elem_size, size_t num_elems)
{
	struct sof_probes_points_msg *msg;
	size_t size = struct_size(msg, elems, elem_size * num_elems);
	struct sof_shim_ipc_reply reply;
	int ret;

	if (size > sof_shim_client_get_ipc_max_payload_size(cdev))
		return -E2BIG;
	msg = kmalloc(size, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	msg->hdr.size = size;
	msg->hdr.cmd = SOF_SHIM_IPC_GLB_PROBE | cmd;
	msg->num_elems = num_elems;
	memcpy(msg->elems, elems, elem_size * num_elems);

	ret = sof_shim_client_ipc_tx_message(cdev, msg, &reply, sizeof(reply));
	kfree(msg);
	return ret;
}

static int ipc3_probes_points_add(struct sof_shim_client_dev *cdev,
				  const struct sof_shim_probe_point_desc *desc, size_t num_desc)
{
	return ipc3_probes_points_tx(cdev, SOF_SHIM_IPC_PROBE_POINT_ADD, desc, sizeof(*desc),
				     num_desc);
}

static int ipc3_probes_points_remove(struct sof_shim_client_dev *cdev,
				     const u32 *buffer_id, size_t num_buffer_id)
{
	return ipc3_probes_points_tx(cdev, SOF_SHIM_IPC_PROBE_POINT_REMOVE, buffer_id,
				     sizeof(*buffer_id), num_buffer_id);
}

const struct sof_probes_ipc_ops ipc3_probe_ops = {
	.init = ipc3_probes_init,
	.deinit = ipc3_probes_deinit,
	.points_info = ipc3_probes_points_info,
	.points_add = ipc3_probes_points_add,
	.points_remove = ipc3_probes_points_remove,
};
