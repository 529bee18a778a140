// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: the host side of probe extraction, as mainline's
 * sound/soc/sof/intel/hda-probes.c: the compress host ops and the extraction DMA. The
 * DSP's probe module is in sof-shim-fw-probes.c.
 *
 * The extraction "DMA" is a delayed work that, while the extractor stream runs and has probe
 * points, writes the packets of include/auxbus/sof-shim-probes.h into the compress ring
 * buffer at its own rate, SOF_SHIM_PROBES_DMA_RATE bytes a second, whatever the reader does:
 * a reader that keeps up can check every byte.
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
	schedule_delayed_work(&p->work, 1);

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
		schedule_delayed_work(&p->work, 0);
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

void sof_shim_probes_cleanup(struct sof_shim_dev *sdev)
{
	sof_shim_probes_stop(&sdev->probes);
}
