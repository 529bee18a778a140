// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: the simulated DSP core and the host side of its IPC mailbox.
 *
 * Senders queue their message (SOF's tx queue) and sleep on their own completion. The host
 * side moves one message at a time into the mailbox with the next sequence number (one
 * message in flight); the DSP core takes it, works on it for ipc_delay_us, then checks size,
 * command and sequence number, acts on it and writes the reply; the reply "interrupt" hands
 * the reply to its sender, completes it and sends the next queued message. Each sender checks
 * its reply against its request. Every crash ends a firmware instance (fw_boot_gen): a message
 * it took, or a notification it sent, dies with it and is neither acted on by the rebooted
 * firmware nor delivered to the clients. Host and DSP sides both run in the DSP's kthread. A
 * per-DSP watchdog fails what is not answered within SOF_SHIM_IPC_TIMEOUT_MS. Senders keep
 * the DSP powered themselves, as SOF clients do: a client holds a runtime PM reference while
 * it sends.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/error-injection.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sof-shim-priv.h"

struct sof_shim_rx_msg {
	struct list_head list;
	u32 boot_gen;		/* firmware instance that sent it */
	size_t bytes;
	u8 data[];
};

/* DSP side: build the reply for one request; returns the reply size */
static size_t sof_shim_dsp_handle(struct sof_shim_dev *sdev, const void *req, size_t bytes,
				  void *reply_buf)
{
	const struct sof_shim_ipc_hdr *hdr = req;
	struct sof_shim_ipc_reply *reply = reply_buf;
	size_t reply_bytes = sizeof(*reply);
	int error = 0;

	switch (hdr->cmd & SOF_SHIM_GLB_TYPE_MASK) {
	case SOF_SHIM_IPC_GLB_TEST_MSG:
		if ((hdr->cmd & SOF_SHIM_CMD_TYPE_MASK) != SOF_SHIM_IPC_TEST_IPC_FLOOD ||
		    bytes != sizeof(*hdr))
			error = -EINVAL;
		break;
	case SOF_SHIM_IPC_GLB_PROBE:
		error = sof_shim_probes_ipc(sdev, req, reply_buf, &reply_bytes);
		break;
	default:
		error = -EINVAL;
		break;
	}

	if (error)
		reply_bytes = sizeof(*reply);
	reply->hdr.cmd = hdr->cmd;
	reply->hdr.size = reply_bytes;
	reply->error = error;
	return reply_bytes;
}

/**
 * struct sof_shim_tx_msg - one queued IPC, on its sender's stack
 * @list:		entry in the DSP's tx_queue
 * @msg:		the request
 * @msg_bytes:		its size
 * @reply_data:		the sender's buffer for the reply, or NULL
 * @reply_size:		size of @reply_data
 * @seq:		mailbox sequence number it was sent with
 * @reply_seq:		sequence number the reply came back with
 * @reply_bytes:	size of the reply
 * @reply:		the reply's header, checked against the request
 * @deadline:		jiffies by which it must be answered
 * @status:		0, or why it failed without a reply
 * @completion:		completed when the reply or a failure is in
 *
 * As in SOF, the reply "interrupt" copies the reply straight into the sender's buffer.
 */
struct sof_shim_tx_msg {
	struct list_head list;
	const void *msg;
	size_t msg_bytes;
	void *reply_data;
	size_t reply_size;
	u32 seq;
	u32 reply_seq;
	size_t reply_bytes;
	struct sof_shim_ipc_reply reply;
	unsigned long deadline;
	int status;
	struct completion completion;
};

/* finish a message (mbox_lock held) */
static void sof_shim_tx_done(struct sof_shim_tx_msg *m, int status)
{
	m->status = status;
	complete(&m->completion);
}

/*
 * The firmware stops answering for good (mbox_lock held): it enters @state, which refuses new
 * messages, is no longer hung, and fails the message in flight with @cur_status and every
 * queued one with -ENODEV. This firmware instance is gone: what it still holds (the message
 * the DSP core works on, notifications not yet delivered) is dropped, see fw_boot_gen.
 */
static void sof_shim_fw_stop_locked(struct sof_shim_dev *sdev, enum sof_shim_fw_state state,
				    int cur_status)
{
	struct sof_shim_tx_msg *m, *tmp;

	WRITE_ONCE(sdev->fw_state, state);
	WRITE_ONCE(sdev->fw_boot_gen, sdev->fw_boot_gen + 1);
	sdev->fw_hung = false;
	if (sdev->cur) {
		sof_shim_tx_done(sdev->cur, cur_status);
		sdev->cur = NULL;
	}
	/* queued messages never reached the DSP */
	list_for_each_entry_safe(m, tmp, &sdev->tx_queue, list) {
		list_del_init(&m->list);
		sof_shim_tx_done(m, -ENODEV);
	}
	sdev->tx_pending = false;
}

/* a message past its deadline (mbox_lock held, @m already off the queue or mailbox) */
static void sof_shim_tx_timed_out(struct sof_shim_dev *sdev, struct sof_shim_tx_msg *m,
				  bool in_flight)
{
	const struct sof_shim_ipc_hdr *hdr = m->msg;

	atomic64_inc(&sdev->stat_timeout);
	if (in_flight)
		dev_err(sdev->dev, "ipc timed out: cmd %#x seq %u\n", hdr->cmd, m->seq);
	else
		dev_err(sdev->dev, "ipc timed out in the queue: cmd %#x\n", hdr->cmd);
	sof_shim_tx_done(m, -ETIMEDOUT);
}

/*
 * The IPC timeout, without a timer per message (with debug objects, an on-stack timer cost
 * the debug kernel a third of its IPC rate): one delayed work per DSP, armed by a sender when
 * it is not pending, fails what is past its deadline and re-arms itself for the earliest
 * deadline left. The queue is in sending order, so deadlines only grow along it.
 */
static void sof_shim_ipc_watchdog(struct work_struct *work)
{
	struct sof_shim_dev *sdev = container_of(to_delayed_work(work), struct sof_shim_dev,
						 ipc_watchdog);
	struct sof_shim_tx_msg *m, *tmp, *next;
	unsigned long now = jiffies;

	spin_lock_irq(&sdev->mbox_lock);
	next = sdev->cur;
	if (next && time_after_eq(now, next->deadline)) {
		sdev->cur = NULL;
		sof_shim_tx_timed_out(sdev, next, true);
		next = NULL;
	}
	list_for_each_entry_safe(m, tmp, &sdev->tx_queue, list) {
		if (time_before(now, m->deadline)) {
			if (!next)
				next = m;
			break;
		}
		list_del_init(&m->list);
		sof_shim_tx_timed_out(sdev, m, false);
	}
	/* the mailbox is free again: a hung DSP takes the next message */
	if (!sdev->cur && !list_empty(&sdev->tx_queue)) {
		sdev->tx_pending = true;
		wake_up_process(sdev->dsp_thread);
	}
	if (next)
		mod_delayed_work(system_wq, &sdev->ipc_watchdog, next->deadline - now);
	spin_unlock_irq(&sdev->mbox_lock);
}

static int sof_shim_dsp_thread(void *data)
{
	struct sof_shim_dev *sdev = data;
	struct sof_shim_ipc_hdr *hdr = (struct sof_shim_ipc_hdr *)sdev->mbox_req;
	struct sof_shim_ipc_reply *reply = (struct sof_shim_ipc_reply *)sdev->mbox_reply;

	for (;;) {
		struct sof_shim_tx_msg *m;
		size_t bytes, reply_bytes;
		bool seq_ok, hung;
		u32 seq, delay, gen;

		/*
		 * Sleep until a sender wakes this thread (no wait queue: its lock would be taken
		 * three times per IPC); interruptible, so an idle DSP is not a hung task
		 */
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		if (!READ_ONCE(sdev->tx_pending)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);

		/* host side: the next queued message goes into the mailbox */
		spin_lock_irq(&sdev->mbox_lock);
		m = list_first_entry_or_null(&sdev->tx_queue, struct sof_shim_tx_msg, list);
		/* one in flight: a hung DSP keeps it until it times out */
		if (!m || sdev->cur) {
			sdev->tx_pending = false;
			spin_unlock_irq(&sdev->mbox_lock);
			continue;
		}
		list_del_init(&m->list);
		sdev->tx_pending = !list_empty(&sdev->tx_queue);
		m->seq = ++sdev->ipc_seq;
		sdev->mbox_seq = m->seq;
		sdev->req_bytes = m->msg_bytes;
		memcpy(sdev->mbox_req, m->msg, m->msg_bytes);
		sdev->cur = m;
		/* DSP side: the sequence number must follow the last one it saw */
		seq = sdev->mbox_seq;
		seq_ok = seq == sdev->dsp_expected_seq + 1;
		sdev->dsp_expected_seq = seq;
		hung = sdev->fw_hung;
		gen = sdev->fw_boot_gen;
		spin_unlock_irq(&sdev->mbox_lock);

		/* a hung firmware takes the message and never answers */
		if (hung)
			continue;

		delay = READ_ONCE(sdev->ipc_delay_us);
		if (delay >= 10)
			usleep_range(delay, delay + delay / 8 + 1);
		else if (delay)
			udelay(delay);

		/*
		 * Acting on the message and replying is atomic with respect to a crash: under
		 * mbox_lock, and only while the firmware instance that took the message runs.
		 * After a crash (its sender has had -EIO) and a reboot, the new firmware must
		 * not act on a message the old one took.
		 */
		spin_lock_irq(&sdev->mbox_lock);
		if (sdev->fw_boot_gen != gen) {
			atomic64_inc(&sdev->stat_dropped);
			spin_unlock_irq(&sdev->mbox_lock);
			continue;
		}

		/* the checks a firmware makes before it acts on a message */
		bytes = sdev->req_bytes;
		if (bytes < sizeof(*hdr) || bytes > SOF_SHIM_IPC_MSG_MAX ||
		    hdr->size != bytes || !seq_ok) {
			atomic64_inc(&sdev->stat_dsp_reject);
			reply->hdr.cmd = bytes >= sizeof(*hdr) ? hdr->cmd : 0;
			reply->hdr.size = sizeof(*reply);
			reply->error = -EPROTO;
			reply_bytes = sizeof(*reply);
		} else {
			reply_bytes = sof_shim_dsp_handle(sdev, sdev->mbox_req, bytes,
							  sdev->mbox_reply);
			sdev->fw_handled++;
		}

		/* reply "interrupt": to its sender, unless a timeout failed it */
		if (sdev->cur == m) {
			memcpy(&m->reply, sdev->mbox_reply, min(reply_bytes, sizeof(m->reply)));
			if (m->reply_data)
				memcpy(m->reply_data, sdev->mbox_reply,
				       min(reply_bytes, m->reply_size));
			m->reply_bytes = reply_bytes;
			m->reply_seq = seq;
			sdev->cur = NULL;
			sof_shim_tx_done(m, 0);
		}
		spin_unlock_irq(&sdev->mbox_lock);
	}

	return 0;
}

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

/**
 * sof_shim_dsp_notify() - the DSP sends a notification to the host
 * @sdev:	the DSP
 * @cmd:	SOF_SHIM_IPC_GLB_* | command type
 * @payload:	bytes after the header, or NULL
 * @bytes:	size of @payload
 *
 * A notification not yet delivered when this firmware crashes is dropped.
 *
 * Return: 0, -ENODEV when the firmware is not running, -EINVAL or -ENOMEM.
 */
int sof_shim_dsp_notify(struct sof_shim_dev *sdev, u32 cmd, const void *payload, size_t bytes)
{
	struct sof_shim_ipc_hdr *hdr;
	struct sof_shim_rx_msg *msg;
	bool running;

	if (bytes > SOF_SHIM_IPC_MSG_MAX - sizeof(*hdr))
		return -EINVAL;
	if (READ_ONCE(sdev->fw_state) != SOF_SHIM_FW_BOOT_COMPLETE)
		return -ENODEV;

	msg = kzalloc(struct_size(msg, data, sizeof(*hdr) + bytes), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	/* the firmware instance that sends it */
	spin_lock_irq(&sdev->mbox_lock);
	running = sdev->fw_state == SOF_SHIM_FW_BOOT_COMPLETE;
	msg->boot_gen = sdev->fw_boot_gen;
	spin_unlock_irq(&sdev->mbox_lock);
	if (!running) {
		kfree(msg);
		return -ENODEV;
	}

	msg->bytes = sizeof(*hdr) + bytes;
	hdr = (struct sof_shim_ipc_hdr *)msg->data;
	hdr->cmd = cmd;
	hdr->size = msg->bytes;
	if (bytes)
		memcpy(msg->data + sizeof(*hdr), payload, bytes);

	spin_lock_irq(&sdev->rx_lock);
	list_add_tail(&msg->list, &sdev->rx_queue);
	spin_unlock_irq(&sdev->rx_lock);
	schedule_work(&sdev->rx_work);
	return 0;
}

/**
 * sof_shim_ipc_tx() - send one IPC to the DSP and wait for its reply
 * @sdev:		the DSP
 * @msg:		message, starting with struct sof_shim_ipc_hdr
 * @msg_bytes:		size of @msg; must equal its hdr.size
 * @reply_data:		buffer for the reply (starting with struct sof_shim_ipc_reply), or NULL;
 *			undefined after an error
 * @reply_bytes:	size of @reply_data
 *
 * Context: process context. As in SOF, the sender keeps the DSP powered: a client holds a
 * runtime PM reference on its own device, whose parent is the DSP, while it sends.
 *
 * Return: 0 or the DSP's (negative) error code; -ENODEV while the firmware is crashed or not
 * booted, or the DSP is runtime-suspended; -ETIMEDOUT without a reply within
 * SOF_SHIM_IPC_TIMEOUT_MS (in flight or queued), -EIO when the
 * firmware crashed with the message in flight (no firmware acts on it then, not even after a
 * reboot), -EPROTO when the reply does not match the request.
 */
int sof_shim_ipc_tx(struct sof_shim_dev *sdev, void *msg, size_t msg_bytes,
		    void *reply_data, size_t reply_bytes)
{
	struct sof_shim_ipc_hdr *hdr = msg;
	/* on the stack: a slab allocation per IPC costs more than the IPC under slub_debug */
	struct sof_shim_tx_msg msg_on_stack;
	struct sof_shim_tx_msg *m = &msg_on_stack;

	if (msg_bytes < sizeof(*hdr) || msg_bytes > SOF_SHIM_IPC_MSG_MAX ||
	    hdr->size != msg_bytes || reply_bytes > SOF_SHIM_IPC_MSG_MAX)
		return -EINVAL;

	m->msg = msg;
	m->msg_bytes = msg_bytes;
	m->reply_data = reply_bytes ? reply_data : NULL;
	m->reply_size = reply_bytes;
	m->status = 0;
	init_completion(&m->completion);

	spin_lock_irq(&sdev->mbox_lock);
	if (sdev->fw_state != SOF_SHIM_FW_BOOT_COMPLETE) {
		spin_unlock_irq(&sdev->mbox_lock);
		return -ENODEV;
	}
	if (!READ_ONCE(sdev->powered)) {
		spin_unlock_irq(&sdev->mbox_lock);
		dev_err_ratelimited(sdev->dev,
				    "ipc cmd %#x while the DSP is suspended: no runtime PM reference held\n",
				    hdr->cmd);
		return -ENODEV;
	}
	m->deadline = jiffies + msecs_to_jiffies(SOF_SHIM_IPC_TIMEOUT_MS);
	list_add_tail(&m->list, &sdev->tx_queue);
	sdev->tx_pending = true;
	/* when pending, it is due by this deadline already (see sof_shim_ipc_watchdog()) */
	if (!delayed_work_pending(&sdev->ipc_watchdog))
		mod_delayed_work(system_wq, &sdev->ipc_watchdog, m->deadline - jiffies);
	/* under mbox_lock: sof_shim_dsp_stop() stops the thread only after it refused new IPCs */
	wake_up_process(sdev->dsp_thread);
	spin_unlock_irq(&sdev->mbox_lock);

	/*
	 * The reply, a crash, the watchdog or sof_shim_dsp_stop() completes it; the reply is
	 * written before complete()
	 */
	wait_for_completion(&m->completion);
	if (m->status)
		return m->status;

	/* check the reply against the request */
	if (m->reply_seq != m->seq || m->reply_bytes < sizeof(m->reply) ||
	    m->reply.hdr.size != m->reply_bytes || m->reply.hdr.cmd != hdr->cmd) {
		atomic64_inc(&sdev->stat_mismatch);
		dev_err(sdev->dev, "ipc reply mismatch: cmd %#x seq %u\n", hdr->cmd, m->seq);
		return -EPROTO;
	}
	atomic64_inc(&sdev->stat_tx);
	return m->reply.error;
}

ALLOW_ERROR_INJECTION(sof_shim_ipc_tx, ERRNO);

static void sof_shim_set_fw_state(struct sof_shim_dev *sdev, enum sof_shim_fw_state state)
{
	WRITE_ONCE(sdev->fw_state, state);
	sof_shim_client_fw_state_dispatcher(sdev);
}

/**
 * sof_shim_fw_crash() - the firmware crashes (control file fw_state, "crash")
 * @sdev:	the DSP
 *
 * A message in flight fails with -EIO at once; new ones fail with -ENODEV until
 * sof_shim_fw_boot(). Clients hear of it through their fw_state handlers.
 */
void sof_shim_fw_crash(struct sof_shim_dev *sdev)
{
	spin_lock_irq(&sdev->mbox_lock);
	if (sdev->fw_state == SOF_SHIM_FW_CRASHED) {
		spin_unlock_irq(&sdev->mbox_lock);
		return;
	}
	sof_shim_fw_stop_locked(sdev, SOF_SHIM_FW_CRASHED, -EIO);
	spin_unlock_irq(&sdev->mbox_lock);

	dev_info(sdev->dev, "firmware crashed\n");
	sof_shim_client_fw_state_dispatcher(sdev);
}

/**
 * sof_shim_fw_hang() - the firmware hangs (control file fw_state, "hang")
 * @sdev:	the DSP
 *
 * The firmware still looks booted, but from now on the DSP takes each message and never
 * answers it: the sender gets -ETIMEDOUT after SOF_SHIM_IPC_TIMEOUT_MS, and so does every
 * message queued behind it. sof_shim_fw_crash() ends the hang.
 *
 * Return: 0, or -EBUSY when the firmware is not running or already hung.
 */
int sof_shim_fw_hang(struct sof_shim_dev *sdev)
{
	int ret = 0;

	spin_lock_irq(&sdev->mbox_lock);
	if (sdev->fw_state != SOF_SHIM_FW_BOOT_COMPLETE || sdev->fw_hung)
		ret = -EBUSY;
	else
		sdev->fw_hung = true;
	spin_unlock_irq(&sdev->mbox_lock);

	if (!ret)
		dev_info(sdev->dev, "firmware hung: IPCs time out until it crashes\n");
	return ret;
}

/**
 * sof_shim_fw_boot() - (re)boot the firmware
 * @sdev:	the DSP
 *
 * Resets the mailbox sequence and the DSP's probe state, then reports BOOT_COMPLETE to the
 * clients and sends them a FW_READY notification.
 *
 * Return: 0, or -EBUSY when the firmware is already running.
 */
int sof_shim_fw_boot(struct sof_shim_dev *sdev)
{
	if (READ_ONCE(sdev->fw_state) == SOF_SHIM_FW_BOOT_COMPLETE)
		return -EBUSY;

	sof_shim_set_fw_state(sdev, SOF_SHIM_FW_BOOT_IN_PROGRESS);

	/* nothing is queued or in flight: new messages are refused until BOOT_COMPLETE */
	spin_lock_irq(&sdev->mbox_lock);
	sdev->ipc_seq = 0;
	sdev->dsp_expected_seq = 0;
	sdev->fw_handled = 0;
	spin_unlock_irq(&sdev->mbox_lock);
	sof_shim_probes_reset(sdev);

	sof_shim_set_fw_state(sdev, SOF_SHIM_FW_BOOT_COMPLETE);
	dev_info(sdev->dev, "firmware %u.%u.%u booted\n", sdev->fw_version.major,
		 sdev->fw_version.minor, sdev->fw_version.micro);
	return sof_shim_dsp_notify(sdev, SOF_SHIM_IPC_GLB_FW_READY, &sdev->fw_version,
				   sizeof(sdev->fw_version));
}

ALLOW_ERROR_INJECTION(sof_shim_fw_boot, ERRNO);

/**
 * sof_shim_dsp_start() - power the DSP core up and boot the firmware
 * @sdev:	the DSP
 *
 * Return: 0 or a negative errno.
 */
int sof_shim_dsp_start(struct sof_shim_dev *sdev)
{
	struct task_struct *t;

	spin_lock_init(&sdev->mbox_lock);
	INIT_LIST_HEAD(&sdev->tx_queue);
	INIT_DELAYED_WORK(&sdev->ipc_watchdog, sof_shim_ipc_watchdog);
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

	spin_lock_irq(&sdev->mbox_lock);
	sof_shim_fw_stop_locked(sdev, SOF_SHIM_FW_BOOT_NOT_STARTED, -ENODEV);
	spin_unlock_irq(&sdev->mbox_lock);
	/* it re-arms itself only while messages are outstanding */
	cancel_delayed_work_sync(&sdev->ipc_watchdog);
	kthread_stop(sdev->dsp_thread);
	cancel_work_sync(&sdev->rx_work);
	list_for_each_entry_safe(msg, tmp, &sdev->rx_queue, list) {
		list_del(&msg->list);
		kfree(msg);
	}
}
