// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: the simulated DSP core and the host side of its IPC, in the shape of SOF's
 * sound/soc/sof/ipc.c and ipc3.c.
 *
 * Host: sof_shim_ipc_tx_message() (SOF's sof_ipc_tx_message() and its tx_msg op) takes
 * ipc->tx_mutex, so one message is in flight; sof_shim_ipc_send_msg() refuses it unless the
 * firmware is booted, copies it into the DSP's mailbox and rings the doorbell under
 * sdev->ipc_lock; the sender sleeps in wait_event_timeout() until ipc->msg.ipc_complete. The
 * DSP writes a SOF_SHIM_IPC_GLB_REPLY header with an error field (struct sof_ipc_reply) into
 * the host mailbox and raises the reply interrupt; the interrupt's thread (SOF's
 * hda_dsp_ipc_irq_thread()) reads the reply (get_reply: the DSP's error, then the sizes) and
 * wakes the sender (snd_sof_ipc_reply()). A message not answered within
 * SOF_SHIM_IPC_TIMEOUT_MS is, by the shim's choice, a non-recoverable DSP panic (SOF's
 * snd_sof_dsp_panic()): the firmware is marked crashed, clients hear it through their
 * fw_state handlers, and every later message fails with -ENODEV until the firmware is booted
 * again (control file fw_state, "boot"). Mainline's timeout only dumps
 * (snd_sof_handle_fw_exception()) and leaves the firmware BOOT_COMPLETE.
 *
 * An IPC4 firmware (new_device ipc=4) takes the same path: its message is the primary and
 * extension words (the doorbell registers) and a payload in the mailbox, its reply carries
 * a status in the primary word; sof-shim-ipc4.c has what differs (SOF's ipc4.c).
 *
 * Senders keep the DSP powered themselves, as SOF clients do: a client holds a runtime PM
 * reference while it sends. The firmware that answers is in sof-shim-fw.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/error-injection.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>

#include "sof-shim-priv.h"

static void sof_shim_rx_work(struct work_struct *work)
{
	struct sof_shim_dev *sdev = container_of(work, struct sof_shim_dev, rx_work);
	struct sof_shim_rx_msg *msg;

	for (;;) {
		spin_lock_irq(&sdev->rx_lock);
		msg = list_first_entry_or_null(&sdev->rx_queue, struct sof_shim_rx_msg, list);
		if (msg)
			list_del(&msg->list);
		spin_unlock_irq(&sdev->rx_lock);
		if (!msg)
			break;

		/* sent by a firmware that crashed since: the clients talk to another one now */
		if (msg->boot_gen != READ_ONCE(sdev->fw_boot_gen)) {
			atomic64_inc(&sdev->stat_dropped);
			kfree(msg);
			continue;
		}
		atomic64_inc(&sdev->stat_rx);
		sof_shim_client_ipc_rx_dispatcher(sdev, msg->data);
		kfree(msg);
	}
}

/*
 * Read the reply of the message in flight out of host_box (SOF's sof_ipc3_get_reply()):
 * the generic reply first; the DSP's error as it is; then the sizes. ipc_lock held.
 */
static int sof_shim_ipc_get_reply(struct sof_shim_dev *sdev)
{
	struct sof_shim_ipc_msg *msg = sdev->msg;
	struct sof_shim_ipc_reply *reply;

	/* get the generic reply */
	reply = msg->reply_data;
	memcpy(reply, sdev->host_box, sizeof(*reply));

	if (reply->error < 0)
		return reply->error;

	if ((reply->hdr.cmd & SOF_SHIM_GLB_TYPE_MASK) != SOF_SHIM_IPC_GLB_REPLY) {
		dev_err(sdev->dev, "reply %#x is no SOF_IPC_GLB_REPLY\n", reply->hdr.cmd);
		return -EPROTO;
	}

	if (reply->hdr.size < sizeof(*reply)) {
		/* reply should always be >= sizeof(struct sof_ipc_reply) */
		dev_err(sdev->dev, "short reply received: %u bytes, expected %zu\n",
			reply->hdr.size, msg->reply_size);
		return -EINVAL;
	}

	if (msg->reply_size > 0) {
		if (reply->hdr.size < msg->reply_size) {
			msg->reply_size = reply->hdr.size;
		} else if (reply->hdr.size > msg->reply_size) {
			dev_err(sdev->dev, "reply size (%u) exceeds the buffer size (%zu)\n",
				reply->hdr.size, msg->reply_size);
			return -EINVAL;
		}

		/* read the message */
		if (msg->reply_size > sizeof(*reply))
			memcpy(msg->reply_data, sdev->host_box, msg->reply_size);
	}

	return 0;
}

/* wake the sender of the message in flight (SOF's snd_sof_ipc_reply()); ipc_lock held */
static void sof_shim_ipc_reply(struct sof_shim_dev *sdev)
{
	struct sof_shim_ipc_msg *msg = sdev->msg;

	msg->ipc_complete = true;
	sdev->msg = NULL;
	wake_up(&msg->waitq);
}

/*
 * The reply interrupt's thread (SOF's hda_dsp_ipc_irq_thread()): takes the reply in host_box
 * for the message in flight. A reply nobody waits for any more (its sender timed out) is
 * dropped.
 */
void sof_shim_ipc_irq_thread(struct sof_shim_dev *sdev)
{
	int ret;

	spin_lock_irq(&sdev->ipc_lock);
	if (!sdev->host_irq)
		goto out;
	sdev->host_irq = false;

	/*
	 * Sometimes, there is unexpected reply ipc arriving. The reply ipc belongs to none of
	 * the ipcs sent from driver. In this case, the driver must ignore the ipc.
	 */
	if (!sdev->msg) {
		dev_warn(sdev->dev, "unexpected ipc interrupt raised!\n");
		atomic64_inc(&sdev->stat_dropped);
		goto out;
	}

	if (sdev->fw.ipc_type == SOF_SHIM_IPC_TYPE_4) {
		ret = sof_shim_ipc4_get_reply(sdev);
		if (ret == -EPROTO)
			atomic64_inc(&sdev->stat_mismatch);
	} else {
		ret = sof_shim_ipc_get_reply(sdev);
		if (ret && ret != ((struct sof_shim_ipc_reply *)sdev->msg->reply_data)->error)
			atomic64_inc(&sdev->stat_mismatch);
	}
	sdev->msg->reply_error = ret;
	sof_shim_ipc_reply(sdev);
out:
	spin_unlock_irq(&sdev->ipc_lock);
}

/* the message's command word, for the log: IPC3 hdr.cmd, IPC4 primary */
static u32 sof_shim_ipc_msg_cmd(struct sof_shim_dev *sdev, const void *msg_data)
{
	if (sdev->fw.ipc_type == SOF_SHIM_IPC_TYPE_4)
		return ((const struct sof_shim_ipc4_msg *)msg_data)->primary;
	return ((const struct sof_shim_ipc_hdr *)msg_data)->cmd;
}

/*
 * Put the message into the DSP's mailbox and ring its doorbell (SOF's sof_ipc_send_msg()
 * and the platform's send_msg op). tx_mutex held.
 */
static int sof_shim_ipc_send_msg(struct sof_shim_dev *sdev, void *msg_data, size_t msg_bytes,
				 size_t reply_bytes)
{
	struct sof_shim_ipc *ipc = &sdev->ipc;
	struct sof_shim_ipc_msg *msg;

	if (ipc->disable_ipc_tx || READ_ONCE(sdev->fw_state) != SOF_SHIM_FW_BOOT_COMPLETE)
		return -ENODEV;

	if (!READ_ONCE(sdev->powered)) {
		dev_err_ratelimited(sdev->dev,
				    "ipc cmd %#x while the DSP is suspended: no runtime PM reference held\n",
				    sof_shim_ipc_msg_cmd(sdev, msg_data));
		return -ENODEV;
	}

	spin_lock_irq(&sdev->ipc_lock);

	/* initialise the message */
	msg = &ipc->msg;
	msg->msg_data = msg_data;
	msg->msg_size = msg_bytes;
	msg->reply_size = reply_bytes;
	msg->reply_error = 0;
	sdev->msg = msg;

	/* the platform's send_msg: mailbox, then doorbell */
	if (sdev->fw.ipc_type == SOF_SHIM_IPC_TYPE_4) {
		const struct sof_shim_ipc4_msg *m = msg_data;

		msg->reply_data = &sdev->ipc4_reply;
		sdev->ipc4_reply.primary = 0;
		sdev->ipc4_reply.extension = 0;
		sdev->dsp_primary = m->primary;
		sdev->dsp_extension = m->extension;
		if (msg_bytes)
			memcpy(sdev->dsp_box, m->data_ptr, msg_bytes);
	} else {
		msg->reply_data = sdev->reply_buf;
		memcpy(sdev->dsp_box, msg_data, msg_bytes);
	}
	sdev->dsp_box_bytes = msg_bytes;
	if (!sdev->fw.fw_inline) {
		sdev->dsp_doorbell = true;
		wake_up_process(sdev->dsp_thread);
	}

	/* next reply that we receive will be related to this message */
	msg->ipc_complete = false;

	spin_unlock_irq(&sdev->ipc_lock);

	/* fw_inline=1: the firmware answers now, in the sender's context (no thread hop) */
	if (sdev->fw.fw_inline)
		sof_shim_dsp_take_msg(sdev);
	return 0;
}

/* wait for the reply (SOF's ipc3_wait_tx_done()); tx_mutex held */
static int sof_shim_ipc_wait_tx_done(struct sof_shim_dev *sdev, void *reply_data)
{
	struct sof_shim_ipc_msg *msg = &sdev->ipc.msg;
	u32 cmd = sof_shim_ipc_msg_cmd(sdev, msg->msg_data);
	long ret;

	/* wait for DSP IPC completion */
	ret = wait_event_timeout(msg->waitq, msg->ipc_complete,
				 msecs_to_jiffies(SOF_SHIM_IPC_TIMEOUT_MS));
	if (ret == 0) {
		atomic64_inc(&sdev->stat_timeout);
		dev_err(sdev->dev, "ipc tx timed out for %#x (msg/reply size: %zu/%zu)\n",
			cmd, msg->msg_size, msg->reply_size);
		/* a late reply is no longer this message's */
		spin_lock_irq(&sdev->ipc_lock);
		sdev->msg = NULL;
		spin_unlock_irq(&sdev->ipc_lock);
		sof_shim_handle_fw_exception(sdev, "IPC timeout");
		return -ETIMEDOUT;
	}

	if (msg->reply_error < 0) {
		dev_dbg(sdev->dev, "ipc tx error for %#x (msg/reply size: %zu/%zu): %d\n",
			cmd, msg->msg_size, msg->reply_size, msg->reply_error);
		return msg->reply_error;
	}

	/* copy the data returned from DSP */
	if (sdev->fw.ipc_type == SOF_SHIM_IPC_TYPE_4)
		sof_shim_ipc4_copy_reply(sdev, reply_data);
	else if (msg->reply_size)
		memcpy(reply_data, msg->reply_data, msg->reply_size);
	atomic64_inc(&sdev->stat_tx);
	return 0;
}

/**
 * sof_shim_ipc_tx_msg_unlocked() - send one checked IPC and wait for its reply
 * @sdev:		the DSP
 * @msg_data:		as sof_shim_ipc_tx_message()
 * @msg_bytes:		as sof_shim_ipc_tx_message()
 * @reply_data:		as sof_shim_ipc_tx_message()
 * @reply_bytes:	as sof_shim_ipc_tx_message()
 *
 * Context: ipc.tx_mutex held (SOF's ipc4_tx_msg_unlocked()), the message checked.
 * Return: as sof_shim_ipc_tx_message().
 */
int sof_shim_ipc_tx_msg_unlocked(struct sof_shim_dev *sdev, void *msg_data, size_t msg_bytes,
				 void *reply_data, size_t reply_bytes)
{
	int ret;

	lockdep_assert_held(&sdev->ipc.tx_mutex);
	ret = sof_shim_ipc_send_msg(sdev, msg_data, msg_bytes, reply_bytes);
	if (!ret)
		ret = sof_shim_ipc_wait_tx_done(sdev, reply_data);
	return ret;
}

/**
 * sof_shim_ipc_tx_message() - send one IPC to the DSP and wait for its reply
 * @sdev:		the DSP
 * @msg_data:		IPC3: the message, starting with struct sof_shim_ipc_hdr; IPC4: a
 *			struct sof_shim_ipc4_msg
 * @msg_bytes:		IPC3: size of @msg_data, equal to its hdr.size; IPC4: the payload's
 *			size, equal to its data_size
 * @reply_data:		IPC3: buffer for the reply (starting with struct sof_shim_ipc_reply);
 *			IPC4: a struct sof_shim_ipc4_msg that gets the reply's words and, for a
 *			large config get, reply_bytes of payload at its data_ptr; or NULL.
 *			Undefined after an error
 * @reply_bytes:	size of the reply buffer; a shorter reply is accepted
 *
 * SOF's sof_ipc_tx_message(): messages of all clients of a DSP are serialised on
 * ipc->tx_mutex, one in flight at a time.
 *
 * Context: process context. As in SOF, the sender keeps the DSP powered: a client holds a
 * runtime PM reference on its own device, whose parent is the DSP, while it sends.
 *
 * Return: 0 or the DSP's (negative) error code from the reply (IPC4: its status as an
 * errno); -EINVAL for a bad message; -ENODEV while the firmware is crashed or not booted, or
 * the DSP is runtime-suspended; -ETIMEDOUT without a reply within SOF_SHIM_IPC_TIMEOUT_MS,
 * which also marks the firmware crashed.
 */
int sof_shim_ipc_tx_message(struct sof_shim_dev *sdev, void *msg_data, size_t msg_bytes,
			    void *reply_data, size_t reply_bytes)
{
	struct sof_shim_ipc *ipc = &sdev->ipc;
	struct sof_shim_ipc_hdr *hdr = msg_data;
	int ret;

	if (sdev->fw.ipc_type == SOF_SHIM_IPC_TYPE_4) {
		if (sof_shim_ipc4_check_msg(sdev, msg_data, msg_bytes))
			return -EINVAL;
	} else if (!msg_data || msg_bytes < sizeof(*hdr) || hdr->size != msg_bytes) {
		dev_err_ratelimited(sdev->dev, "bad IPC message: %zu bytes\n", msg_bytes);
		return -EINVAL;
	}
	if ((reply_bytes && !reply_data) ||
	    msg_bytes > ipc->max_payload_size || reply_bytes > ipc->max_payload_size) {
		dev_err_ratelimited(sdev->dev, "IPC message too big: %zu/%zu bytes\n",
				    msg_bytes, reply_bytes);
		return -EINVAL;
	}

	/* serialise IPC TX */
	mutex_lock(&ipc->tx_mutex);
	ret = sof_shim_ipc_tx_msg_unlocked(sdev, msg_data, msg_bytes, reply_data, reply_bytes);
	sof_shim_ipc_tx_unlock(sdev);

	return ret;
}

ALLOW_ERROR_INJECTION(sof_shim_ipc_tx_message, ERRNO);

/* drop tx_mutex, then tell the clients of the fw_state changes made under it */
void sof_shim_ipc_tx_unlock(struct sof_shim_dev *sdev)
{
	mutex_unlock(&sdev->ipc.tx_mutex);
	sof_shim_fw_state_notify(sdev);
}

/**
 * sof_shim_dsp_start() - power the DSP core up and boot the firmware
 * @sdev:	the DSP
 *
 * Return: 0 or a negative errno.
 */
int sof_shim_dsp_start(struct sof_shim_dev *sdev)
{
	struct task_struct *t;

	spin_lock_init(&sdev->ipc_lock);
	mutex_init(&sdev->ipc.tx_mutex);
	init_waitqueue_head(&sdev->ipc.msg.waitq);
	sdev->ipc.msg.reply_data = sdev->reply_buf;
	sdev->ipc4_reply.data_ptr = sdev->reply_buf;
	sdev->ipc.max_payload_size = sdev->fw.mailbox_bytes;
	spin_lock_init(&sdev->rx_lock);
	INIT_LIST_HEAD(&sdev->rx_queue);
	INIT_WORK(&sdev->rx_work, sof_shim_rx_work);
	sdev->fw_state = SOF_SHIM_FW_BOOT_NOT_STARTED;

	t = kthread_run(sof_shim_dsp_thread, sdev, "sof-shim-dsp%u", sdev->id);
	if (IS_ERR(t))
		return PTR_ERR(t);
	sdev->dsp_thread = t;

	return sof_shim_fw_boot(sdev);
}

/**
 * sof_shim_dsp_stop() - stop the DSP core; all clients are gone by now
 * @sdev:	the DSP
 */
void sof_shim_dsp_stop(struct sof_shim_dev *sdev)
{
	struct sof_shim_rx_msg *msg, *tmp;

	/* as SOF's snd_sof_ipc_free(): no message in flight, and none after this */
	mutex_lock(&sdev->ipc.tx_mutex);
	sdev->ipc.disable_ipc_tx = true;
	mutex_unlock(&sdev->ipc.tx_mutex);

	sof_shim_set_fw_state(sdev, SOF_SHIM_FW_BOOT_NOT_STARTED);
	sof_shim_fw_state_notify(sdev);
	kthread_stop(sdev->dsp_thread);
	cancel_work_sync(&sdev->rx_work);
	list_for_each_entry_safe(msg, tmp, &sdev->rx_queue, list) {
		list_del(&msg->list);
		kfree(msg);
	}
}
