// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: the simulated firmware's probe module (no mainline counterpart: a real DSP
 * runs it). It answers the PROBE IPCs (init/deinit, point add/info/remove) of IPC3 and the
 * probe module's IPC4 messages and large config parameters, and keeps the probe points the
 * extraction DMA (sof-shim-hda-probes.c) sends packets for.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sof-shim-priv.h"

static struct sof_shim_probe_point *
sof_shim_probes_find(struct sof_shim_probes_dsp *p, u32 buffer_id)
{
	u32 i;

	for (i = 0; i < p->num_points; i++)
		if (p->points[i].buffer_id == buffer_id)
			return &p->points[i];
	return NULL;
}

static void sof_shim_probes_insert(struct sof_shim_probes_dsp *p,
				   const struct sof_shim_probe_point_desc *d)
{
	u32 i = p->num_points;

	/* keep the points sorted by buffer_id: packets go round-robin in that order */
	while (i && p->points[i - 1].buffer_id > d->buffer_id) {
		p->points[i] = p->points[i - 1];
		i--;
	}
	p->points[i].buffer_id = d->buffer_id;
	p->points[i].purpose = d->purpose;
	p->points[i].stream_tag = d->stream_tag;
	p->points[i].seq = 0;
	p->num_points++;
}

static void sof_shim_probes_remove(struct sof_shim_probes_dsp *p, u32 buffer_id)
{
	u32 i;

	for (i = 0; i < p->num_points; i++) {
		if (p->points[i].buffer_id != buffer_id)
			continue;
		memmove(&p->points[i], &p->points[i + 1],
			(p->num_points - i - 1) * sizeof(p->points[0]));
		p->num_points--;
		return;
	}
}

static void sof_shim_probes_reset_locked(struct sof_shim_probes_dsp *p)
{
	p->inited = false;
	p->num_points = 0;
	p->cur_valid = false;
	p->have_last = false;
}

/* connect @n points, all or none (both IPC versions) */
static int sof_shim_probes_points_connect(struct sof_shim_probes_dsp *p,
					  const struct sof_shim_probe_point_desc *desc, u32 n)
{
	u32 i, j;

	if (!n || n > SOF_SHIM_PROBE_MAX_POINTS)
		return -EINVAL;
	if (p->num_points + n > SOF_SHIM_PROBE_MAX_POINTS)
		return -ENOSPC;

	for (i = 0; i < n; i++) {
		if (desc[i].purpose != SOF_SHIM_PROBE_PURPOSE_EXTRACTION)
			return -EINVAL;
		if (sof_shim_probes_find(p, desc[i].buffer_id))
			return -EEXIST;
		for (j = 0; j < i; j++)
			if (desc[j].buffer_id == desc[i].buffer_id)
				return -EEXIST;
	}
	for (i = 0; i < n; i++)
		sof_shim_probes_insert(p, &desc[i]);
	return 0;
}

/* disconnect @n points, all or none (both IPC versions) */
static int sof_shim_probes_points_disconnect(struct sof_shim_probes_dsp *p,
					     const u32 *buffer_id, u32 n)
{
	u32 i;

	if (!n || n > SOF_SHIM_PROBE_MAX_POINTS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!sof_shim_probes_find(p, buffer_id[i]))
			return -ENOENT;
	for (i = 0; i < n; i++)
		sof_shim_probes_remove(p, buffer_id[i]);
	return 0;
}

static int sof_shim_probes_point_add(struct sof_shim_probes_dsp *p, const void *req)
{
	const struct sof_shim_ipc_probe_point_add_params *msg = req;
	u32 n = msg->num_elems;

	if (!n || n > SOF_SHIM_PROBE_MAX_POINTS ||
	    msg->hdr.size != struct_size(msg, desc, n))
		return -EINVAL;
	if (!p->inited)
		return -EINVAL;
	return sof_shim_probes_points_connect(p, msg->desc, n);
}

static int sof_shim_probes_point_remove(struct sof_shim_probes_dsp *p, const void *req)
{
	const struct sof_shim_ipc_probe_point_remove_params *msg = req;
	u32 n = msg->num_elems;

	if (!n || n > SOF_SHIM_PROBE_MAX_POINTS ||
	    msg->hdr.size != struct_size(msg, buffer_id, n))
		return -EINVAL;
	return sof_shim_probes_points_disconnect(p, msg->buffer_id, n);
}

/**
 * sof_shim_probes_ipc() - the DSP handles one PROBE IPC
 * @sdev:		the DSP
 * @req:		the request (checked: size fits the mailbox)
 * @reply_buf:		reply buffer of SOF_SHIM_IPC_MSG_MAX bytes
 * @reply_bytes:	in: size of a plain reply; out: size of the reply written
 *
 * Return: 0 or the negative errno the firmware puts into the reply.
 */
int sof_shim_probes_ipc(struct sof_shim_dev *sdev, const void *req, void *reply_buf,
			size_t *reply_bytes)
{
	const struct sof_shim_ipc_hdr *hdr = req;
	const struct sof_shim_ipc_probe_dma_add_params *init = req;
	struct sof_shim_ipc_probe_info_params *info = reply_buf;
	struct sof_shim_probes_dsp *p = &sdev->probes;
	struct sof_shim_probe_point_desc *desc;
	struct sof_shim_probe_dma *dma;
	int ret = 0;
	u32 i;

	spin_lock(&p->lock);
	switch (hdr->cmd & SOF_SHIM_CMD_TYPE_MASK) {
	case SOF_SHIM_IPC_PROBE_INIT:
		if (hdr->size != struct_size(init, dma, 1) || init->num_elems != 1) {
			ret = -EINVAL;
		} else if (p->inited) {
			ret = -EBUSY;
		} else {
			p->inited = true;
			p->stream_tag = init->dma[0].stream_tag;
			p->buffer_size = init->dma[0].dma_buffer_size;
		}
		break;
	case SOF_SHIM_IPC_PROBE_DEINIT:
		if (hdr->size != sizeof(*hdr) || !p->inited)
			ret = -EINVAL;
		else if (p->num_points)
			ret = -EBUSY;
		else
			sof_shim_probes_reset_locked(p);
		break;
	case SOF_SHIM_IPC_PROBE_DMA_INFO:
		info->num_elems = p->inited ? 1 : 0;
		dma = (struct sof_shim_probe_dma *)info->elems;
		if (p->inited) {
			dma->stream_tag = p->stream_tag;
			dma->dma_buffer_size = p->buffer_size;
		}
		*reply_bytes = sizeof(*info) + info->num_elems * sizeof(*dma);
		break;
	case SOF_SHIM_IPC_PROBE_POINT_ADD:
		ret = sof_shim_probes_point_add(p, req);
		break;
	case SOF_SHIM_IPC_PROBE_POINT_INFO:
		info->num_elems = p->num_points;
		desc = (struct sof_shim_probe_point_desc *)info->elems;
		for (i = 0; i < p->num_points; i++) {
			desc[i].buffer_id = p->points[i].buffer_id;
			desc[i].purpose = p->points[i].purpose;
			desc[i].stream_tag = p->points[i].stream_tag;
		}
		*reply_bytes = sizeof(*info) + p->num_points * sizeof(*desc);
		break;
	case SOF_SHIM_IPC_PROBE_POINT_REMOVE:
		ret = sof_shim_probes_point_remove(p, req);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	spin_unlock(&p->lock);
	return ret;
}

/**
 * sof_shim_probes_ipc4() - the IPC4 probe module: init or delete its instance
 * @sdev:	the DSP
 * @type:	SOF_SHIM_IPC4_MOD_INIT_INSTANCE or SOF_SHIM_IPC4_MOD_DELETE_INSTANCE
 * @data:	init: struct sof_shim_ipc4_probe_cfg, the extraction DMA (an HDA host input
 *		gateway, node index stream_tag - 1) and its buffer size
 * @bytes:	size of @data
 *
 * Context: ipc_lock held.
 * Return: 0, -EINVAL for a bad configuration, -EBUSY to init an instance that exists or
 * delete one with points connected, -ENODEV to delete one that does not exist.
 */
int sof_shim_probes_ipc4(struct sof_shim_dev *sdev, u32 type, const void *data, size_t bytes)
{
	const struct sof_shim_ipc4_probe_cfg *cfg = data;
	struct sof_shim_probes_dsp *p = &sdev->probes;
	u32 node_id, host_input;
	int ret = 0;

	spin_lock(&p->lock);
	switch (type) {
	case SOF_SHIM_IPC4_MOD_INIT_INSTANCE:
		if (bytes != sizeof(*cfg)) {
			ret = -EINVAL;
			break;
		}
		node_id = cfg->gtw_cfg.node_id;
		host_input = SOF_SHIM_IPC4_PROBE_NODE_ID_TYPE(SOF_SHIM_IPC4_DMA_HDA_HOST_INPUT);
		if (node_id != (SOF_SHIM_IPC4_PROBE_NODE_ID_INDEX(node_id) | host_input) ||
		    !cfg->gtw_cfg.dma_buffer_size) {
			ret = -EINVAL;
		} else if (p->inited) {
			ret = -EBUSY;
		} else {
			p->inited = true;
			p->stream_tag = SOF_SHIM_IPC4_PROBE_NODE_ID_INDEX(node_id) + 1;
			p->buffer_size = cfg->gtw_cfg.dma_buffer_size;
		}
		break;
	case SOF_SHIM_IPC4_MOD_DELETE_INSTANCE:
		if (bytes)
			ret = -EINVAL;
		else if (!p->inited)
			ret = -ENODEV;
		else if (p->num_points)
			ret = -EBUSY;
		else
			sof_shim_probes_reset_locked(p);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	spin_unlock(&p->lock);
	return ret;
}

/**
 * sof_shim_probes_ipc4_set() - the IPC4 probe module: a large config set, whole
 * @sdev:	the DSP
 * @param_id:	SOF_SHIM_IPC4_PROBE_POINTS (struct sof_shim_ipc4_probe_point array) or
 *		SOF_SHIM_IPC4_PROBE_POINTS_DISCONNECT (u32 point ids)
 * @data:	the parameter
 * @bytes:	its size
 *
 * Context: ipc_lock held.
 * Return: 0, -ENODEV without an instance, or as the IPC3 point add and remove.
 */
int sof_shim_probes_ipc4_set(struct sof_shim_dev *sdev, u32 param_id, const void *data,
			     size_t bytes)
{
	struct sof_shim_probe_point_desc desc[SOF_SHIM_PROBE_MAX_POINTS];
	const struct sof_shim_ipc4_probe_point *points = data;
	struct sof_shim_probes_dsp *p = &sdev->probes;
	u32 i, n;
	int ret;

	spin_lock(&p->lock);
	if (!p->inited) {
		ret = -ENODEV;
		goto out_unlock;
	}
	switch (param_id) {
	case SOF_SHIM_IPC4_PROBE_POINTS:
		n = bytes / sizeof(*points);
		if (bytes % sizeof(*points) || n > SOF_SHIM_PROBE_MAX_POINTS) {
			ret = -EINVAL;
			break;
		}
		for (i = 0; i < n; i++) {
			desc[i].buffer_id = points[i].point_id;
			desc[i].purpose = points[i].purpose;
			desc[i].stream_tag = points[i].stream_tag;
		}
		ret = sof_shim_probes_points_connect(p, desc, n);
		break;
	case SOF_SHIM_IPC4_PROBE_POINTS_DISCONNECT:
		if (bytes % sizeof(u32)) {
			ret = -EINVAL;
			break;
		}
		ret = sof_shim_probes_points_disconnect(p, data, bytes / sizeof(u32));
		break;
	default:
		ret = -EINVAL;
		break;
	}
out_unlock:
	spin_unlock(&p->lock);
	return ret;
}

/**
 * sof_shim_probes_ipc4_get() - the IPC4 probe module: a large config get, whole
 * @sdev:	the DSP
 * @param_id:	SOF_SHIM_IPC4_PROBE_POINTS: the connected points (struct
 *		sof_shim_ipc4_probe_info)
 * @data:	buffer for the parameter
 * @bytes:	in: size of @data; out: size of the parameter
 *
 * Context: ipc_lock held.
 * Return: 0, -ENODEV without an instance, -EINVAL for another parameter.
 */
int sof_shim_probes_ipc4_get(struct sof_shim_dev *sdev, u32 param_id, void *data, u32 *bytes)
{
	struct sof_shim_ipc4_probe_info *info = data;
	struct sof_shim_probes_dsp *p = &sdev->probes;
	int ret = 0;
	u32 i;

	spin_lock(&p->lock);
	if (!p->inited) {
		ret = -ENODEV;
	} else if (param_id != SOF_SHIM_IPC4_PROBE_POINTS ||
		   *bytes < struct_size(info, points, p->num_points)) {
		ret = -EINVAL;
	} else {
		info->num_elems = p->num_points;
		for (i = 0; i < p->num_points; i++) {
			info->points[i].point_id = p->points[i].buffer_id;
			info->points[i].purpose = p->points[i].purpose;
			info->points[i].stream_tag = p->points[i].stream_tag;
		}
		*bytes = struct_size(info, points, p->num_points);
	}
	spin_unlock(&p->lock);
	return ret;
}

/*
 * firmware (re)boot: the DSP forgets its probes; a running extractor stream stops (the
 * extraction work finds the extractor gone) and is reported as an xrun
 */
void sof_shim_probes_reset(struct sof_shim_dev *sdev)
{
	struct sof_shim_probes_dsp *p = &sdev->probes;

	spin_lock(&p->lock);
	sof_shim_probes_reset_locked(p);
	spin_unlock(&p->lock);
}
