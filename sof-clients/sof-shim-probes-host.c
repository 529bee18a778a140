// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: probes on the simulated DSP, and the host side of probe extraction.
 *
 * The DSP side answers the PROBE IPCs (init/deinit, point add/info/remove). The extraction
 * "DMA" is a delayed work that, while the extractor stream runs and has probe points, writes
 * the packets of include/auxbus/sof-shim-probes.h into the compress ring buffer at its own
 * rate, SOF_SHIM_PROBES_DMA_RATE bytes a second, whatever the reader does: a reader that keeps
 * up can check every byte.
 *
 * A reader more than a buffer behind is overrun, as by mainline's HDA host DMA, which runs
 * cyclically without a read pointer from the host (hda_dsp_compr_bytes_transferred() only
 * adds up the DMA position; hda_probes_compr_pointer() reports it as copied_total): the DSP
 * overwrites the data, the position keeps growing, and nothing in SOF's probes path or the
 * compress core reports it or logs anything. The stream stays RUNNING; the reader sees an
 * avail (SNDRV_COMPRESS_AVAIL) above the buffer size, reads of at most a buffer of
 * overwritten data, and once it has caught up, the stream again, byte-exact at its read
 * position: the bytes in between are lost. SOF's probe packets (sync word, checksum) let a
 * parser find the next whole packet.
 *
 * A firmware crash takes the DSP's extractor with it: the work stops for good and the next
 * position update reports the stream to ALSA as an xrun (poll then fails with EPOLLERR and
 * read with -EPIPE), as a real DSP's dead DMA would; the reader has to stop and reopen.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <sound/compress_driver.h>
#include <sound/pcm.h>

#include "sof-shim-priv.h"

#define SOF_SHIM_PROBES_STREAM_TAG	1
/* the extraction DMA's rate, bytes a second (about 48 kHz, 16 bit, stereo and the headers) */
#define SOF_SHIM_PROBES_DMA_RATE	(128 * 1024)
/*
 * At most 40 ms of it in one go: a work that runs late ran late because the guest (the
 * machine that holds both DSP and reader) did not run, and a real DSP's reader would have
 * been running all along, so that time is not owed
 */
#define SOF_SHIM_PROBES_DMA_BURST	(SOF_SHIM_PROBES_DMA_RATE / 25)

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

/* start the next packet: the active point after the last one, in buffer_id order */
static bool sof_shim_probes_next_packet(struct sof_shim_probes_dsp *p)
{
	struct sof_shim_probe_point *pt;
	u32 i = 0;

	if (!p->num_points)
		return false;
	if (p->have_last)
		while (i < p->num_points && p->points[i].buffer_id <= p->last_buffer_id)
			i++;
	if (i == p->num_points)
		i = 0;

	pt = &p->points[i];
	p->cur_buffer_id = pt->buffer_id;
	p->cur_format = pt->purpose;
	p->cur_seq = pt->seq++;
	p->cur_checksum = sof_shim_probe_packet_word(pt->buffer_id, pt->purpose, p->cur_seq,
						     SOF_SHIM_PROBE_PACKET_WORDS - 1);
	p->cur_pos = 0;
	p->cur_valid = true;
	return true;
}

/* write up to @n bytes of the extraction stream at ring offset @off; returns bytes written */
static u32 sof_shim_probes_fill(struct sof_shim_probes_dsp *p, u8 *ring, u32 ring_size,
				u32 off, u32 n)
{
	u32 done = 0, w, word = 0;

	while (done < n) {
		if (!p->cur_valid && !sof_shim_probes_next_packet(p))
			break;

		w = p->cur_pos / 4;
		if (w == SOF_SHIM_PROBE_PACKET_WORDS - 1)
			word = p->cur_checksum;
		else
			word = sof_shim_probe_packet_word(p->cur_buffer_id, p->cur_format,
							  p->cur_seq, w);
		ring[off] = word >> (8 * (p->cur_pos % 4));
		if (++off == ring_size)
			off = 0;
		done++;

		if (++p->cur_pos == SOF_SHIM_PROBE_PACKET_BYTES) {
			p->cur_valid = false;
			p->have_last = true;
			p->last_buffer_id = p->cur_buffer_id;
		}
	}
	return done;
}

static void sof_shim_probes_work(struct work_struct *work)
{
	struct sof_shim_probes_dsp *p = container_of(to_delayed_work(work),
						     struct sof_shim_probes_dsp, work);
	struct sof_shim_dev *sdev = container_of(p, struct sof_shim_dev, probes);
	struct snd_compr_runtime *rt;
	u64 due, frag;
	u32 n, off, done;
	bool lost, elapsed;

	mutex_lock(&p->stream_mutex);
	if (!p->running || !p->cstream)
		goto out_unlock;

	/*
	 * A crash (and the reboot after it, which resets the probes) took the extractor away:
	 * stop for good and wake the reader, to whom the next pointer update reports an xrun.
	 */
	spin_lock(&p->lock);
	lost = !p->inited;
	spin_unlock(&p->lock);
	if (lost || READ_ONCE(sdev->fw_state) != SOF_SHIM_FW_BOOT_COMPLETE) {
		dev_err(sdev->dev, "firmware crashed: probe extraction stopped after %llu bytes\n",
			p->produced);
		p->running = false;
		p->xrun = true;
		snd_compr_fragment_elapsed(p->cstream);
		goto out_unlock;
	}

	rt = p->cstream->runtime;
	if (rt->dma_area && rt->buffer_size && rt->buffer_size <= U32_MAX) {
		/*
		 * What the DMA owes since it started, at its own rate, whether the reader took
		 * the data or not. At most a burst in one go; what it could not write then, or
		 * for want of probe points, is not owed any more.
		 */
		due = mul_u64_u32_div(ktime_to_ns(ktime_sub(ktime_get(), p->dma_start)),
				      SOF_SHIM_PROBES_DMA_RATE, NSEC_PER_SEC);
		due = due > p->dma_start_produced ? due - p->dma_start_produced : 0;
		n = min_t(u64, due, SOF_SHIM_PROBES_DMA_BURST);
		div_u64_rem(p->produced, rt->buffer_size, &off);

		spin_lock(&p->lock);
		done = p->inited ? sof_shim_probes_fill(p, rt->dma_area, rt->buffer_size,
							off, n) : 0;
		spin_unlock(&p->lock);

		p->dma_start_produced += done;
		if (done < due) {
			p->dma_start = ktime_get();
			p->dma_start_produced = 0;
		}
		if (done) {
			frag = rt->fragment_size ? rt->fragment_size : rt->buffer_size;
			elapsed = div64_u64(p->produced + done, frag) !=
				  div64_u64(p->produced, frag);
			/* data before position: pairs with smp_load_acquire() in pointer */
			smp_store_release(&p->produced, p->produced + done);
			/* a period "interrupt" for each fragment the DMA completed */
			if (elapsed)
				snd_compr_fragment_elapsed(p->cstream);
		}
	}
	queue_delayed_work(system_wq, &p->work, 1);

out_unlock:
	mutex_unlock(&p->stream_mutex);
}

static int sof_shim_probes_startup(struct sof_shim_client_dev *cdev,
				   struct snd_compr_stream *cstream,
				   struct snd_soc_dai *dai, u32 *stream_id)
{
	struct sof_shim_probes_dsp *p = &cdev->sdev->probes;
	int ret = 0;

	mutex_lock(&p->stream_mutex);
	if (p->cstream) {
		ret = -EBUSY;
	} else {
		p->cstream = cstream;
		p->running = false;
		p->xrun = false;
		p->produced = 0;
		*stream_id = SOF_SHIM_PROBES_STREAM_TAG;
	}
	mutex_unlock(&p->stream_mutex);
	return ret;
}

static void sof_shim_probes_stop(struct sof_shim_probes_dsp *p)
{
	mutex_lock(&p->stream_mutex);
	p->running = false;
	p->xrun = false;
	mutex_unlock(&p->stream_mutex);
	cancel_delayed_work_sync(&p->work);
}

static int sof_shim_probes_shutdown(struct sof_shim_client_dev *cdev,
				    struct snd_compr_stream *cstream,
				    struct snd_soc_dai *dai)
{
	struct sof_shim_probes_dsp *p = &cdev->sdev->probes;

	sof_shim_probes_stop(p);
	mutex_lock(&p->stream_mutex);
	if (p->cstream == cstream)
		p->cstream = NULL;
	mutex_unlock(&p->stream_mutex);
	return 0;
}

static int sof_shim_probes_set_params(struct sof_shim_client_dev *cdev,
				      struct snd_compr_stream *cstream,
				      struct snd_compr_params *params,
				      struct snd_soc_dai *dai)
{
	/* the ring is the compress buffer the client allocated; nothing else to set up */
	return cstream->runtime->dma_area ? 0 : -EINVAL;
}

static int sof_shim_probes_trigger(struct sof_shim_client_dev *cdev,
				   struct snd_compr_stream *cstream, int cmd,
				   struct snd_soc_dai *dai)
{
	struct sof_shim_probes_dsp *p = &cdev->sdev->probes;

	switch (cmd) {
	case SNDRV_PCM_TRIGGER_START:
	case SNDRV_PCM_TRIGGER_PAUSE_RELEASE:
	case SNDRV_PCM_TRIGGER_RESUME:
		mutex_lock(&p->stream_mutex);
		p->running = true;
		p->xrun = false;
		p->dma_start = ktime_get();
		p->dma_start_produced = 0;
		queue_delayed_work(system_wq, &p->work, 0);
		mutex_unlock(&p->stream_mutex);
		return 0;
	case SNDRV_PCM_TRIGGER_STOP:
	case SNDRV_PCM_TRIGGER_PAUSE_PUSH:
	case SNDRV_PCM_TRIGGER_SUSPEND:
		sof_shim_probes_stop(p);
		return 0;
	default:
		return -EINVAL;
	}
}

static int sof_shim_probes_pointer(struct sof_shim_client_dev *cdev,
				   struct snd_compr_stream *cstream,
				   u64 *copied_total, u32 *byte_offset)
{
	struct sof_shim_probes_dsp *p = &cdev->sdev->probes;
	u64 size = cstream->runtime->buffer_size;
	/* position after data: pairs with smp_store_release() in the extraction work */
	u64 produced = smp_load_acquire(&p->produced);
	u32 off = 0;
	bool xrun;

	if (size && size <= U32_MAX)
		div_u64_rem(produced, size, &off);
	*copied_total = produced;
	*byte_offset = off;

	/*
	 * The extraction work stopped on a firmware crash: report it once. The compress core
	 * calls this with the device lock held, as snd_compr_stop_error() wants; from a work
	 * of our own it could queue the stream's error work after the core cancelled it for
	 * good at close.
	 */
	mutex_lock(&p->stream_mutex);
	xrun = p->xrun;
	p->xrun = false;
	mutex_unlock(&p->stream_mutex);
	if (xrun)
		snd_compr_stop_error(cstream, SNDRV_PCM_STATE_XRUN);
	return 0;
}

const struct sof_shim_probes_host_ops sof_shim_probes_host_ops = {
	.startup = sof_shim_probes_startup,
	.shutdown = sof_shim_probes_shutdown,
	.set_params = sof_shim_probes_set_params,
	.trigger = sof_shim_probes_trigger,
	.pointer = sof_shim_probes_pointer,
};

void sof_shim_probes_init(struct sof_shim_dev *sdev)
{
	struct sof_shim_probes_dsp *p = &sdev->probes;

	spin_lock_init(&p->lock);
	mutex_init(&p->stream_mutex);
	INIT_DELAYED_WORK(&p->work, sof_shim_probes_work);
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

void sof_shim_probes_cleanup(struct sof_shim_dev *sdev)
{
	sof_shim_probes_stop(&sdev->probes);
}
