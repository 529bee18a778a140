// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: the simulated DSP's firmware, the one part of the shim mainline has no
 * counterpart for (a real DSP runs it): its core, the IPC3 handler, notifications, and what
 * the control file fw_state makes it do (crash, hang). The IPC4 layer is in
 * sof-shim-fw-ipc4.c, the probe module in sof-shim-fw-probes.c.
 *
 * The DSP core is a kthread. It also runs the reply interrupt's thread, right after it raised
 * the interrupt: host and DSP share the CPU, as they would share the machine's time. Every
 * crash ends a firmware instance (fw_boot_gen): a message it took, or a notification it sent,
 * dies with it and is neither acted on by a rebooted firmware nor delivered to the clients.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sof-shim-priv.h"

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

	/* a reply that does not fit the host's mailbox is refused, as SOF's ipc_probe_info() */
	if (!error && reply_bytes > sdev->fw.mailbox_bytes)
		error = -EINVAL;
	if (error)
		reply_bytes = sizeof(*reply);
	/* SOF firmware answers with the generic reply header, not the request's command */
	reply->hdr.cmd = SOF_SHIM_IPC_GLB_REPLY;
	reply->hdr.size = reply_bytes;
	reply->error = error;
	return reply_bytes;
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
	spin_lock_irq(&sdev->ipc_lock);
	running = sdev->fw_state == SOF_SHIM_FW_BOOT_COMPLETE;
	msg->boot_gen = sdev->fw_boot_gen;
	spin_unlock_irq(&sdev->ipc_lock);
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

/*
 * The DSP takes the message in dsp_box: works on it for ipc_delay_us, checks and acts on it,
 * writes the reply into host_box and raises the reply interrupt, whose thread it runs. A hung
 * firmware takes the message and never answers. Run by the DSP kthread, or with fw_inline=1
 * by the sender itself.
 */
void sof_shim_dsp_take_msg(struct sof_shim_dev *sdev)
{
	struct sof_shim_ipc_hdr *hdr = (struct sof_shim_ipc_hdr *)sdev->dsp_box;
	struct sof_shim_ipc_reply *reply = (struct sof_shim_ipc_reply *)sdev->host_box;
	size_t bytes;
	u32 delay, gen;
	bool hung;

	spin_lock_irq(&sdev->ipc_lock);
	sdev->dsp_doorbell = false;
	hung = sdev->fw_hung;
	gen = sdev->fw_boot_gen;
	spin_unlock_irq(&sdev->ipc_lock);
	if (hung)
		return;

	delay = READ_ONCE(sdev->ipc_delay_us);
	if (delay >= 10)
		usleep_range(delay, delay + delay / 8 + 1);
	else if (delay)
		udelay(delay);

	/*
	 * Acting on the message and replying is atomic with respect to a crash: under ipc_lock,
	 * and only while the firmware instance that took the message runs. After a crash and a
	 * reboot, the new firmware must not act on a message the old one took.
	 */
	spin_lock_irq(&sdev->ipc_lock);
	if (sdev->fw_boot_gen != gen) {
		atomic64_inc(&sdev->stat_dropped);
		spin_unlock_irq(&sdev->ipc_lock);
		return;
	}

	/* the checks a firmware makes before it acts on a message */
	bytes = sdev->dsp_box_bytes;
	if (sdev->fw.ipc_type == SOF_SHIM_IPC_TYPE_4) {
		sof_shim_ipc4_dsp_handle(sdev);
		sdev->fw_handled++;
	} else if (bytes < sizeof(*hdr) || bytes > sdev->fw.mailbox_bytes ||
		   hdr->size != bytes) {
		atomic64_inc(&sdev->stat_dsp_reject);
		reply->hdr.cmd = SOF_SHIM_IPC_GLB_REPLY;
		reply->hdr.size = sizeof(*reply);
		reply->error = -EINVAL;
	} else {
		sof_shim_dsp_handle(sdev, sdev->dsp_box, bytes, sdev->host_box);
		sdev->fw_handled++;
	}
	sdev->host_irq = true;
	spin_unlock_irq(&sdev->ipc_lock);

	/* the reply interrupt */
	sof_shim_ipc_irq_thread(sdev);
}

/* The DSP core: wait for the doorbell and take the message */
int sof_shim_dsp_thread(void *data)
{
	struct sof_shim_dev *sdev = data;

	for (;;) {
		/*
		 * Sleep until the doorbell rings (no wait queue: its lock would be taken three
		 * times per IPC); interruptible, so an idle DSP is not a hung task
		 */
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		if (!READ_ONCE(sdev->dsp_doorbell)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		sof_shim_dsp_take_msg(sdev);
	}

	return 0;
}

/**
 * sof_shim_fw_crash() - the firmware crashes (control file fw_state, "crash")
 * @sdev:	the DSP
 *
 * As a DSP panic: the firmware answers nothing from now on, so a message in flight times out;
 * new ones fail with -ENODEV until sof_shim_fw_boot(). Clients hear of it through their
 * fw_state handlers.
 */
void sof_shim_fw_crash(struct sof_shim_dev *sdev)
{
	dev_info(sdev->dev, "firmware crashed\n");
	sof_shim_set_fw_state(sdev, SOF_SHIM_FW_CRASHED);
	sof_shim_fw_state_notify(sdev);
}

/**
 * sof_shim_fw_hang() - the firmware hangs (control file fw_state, "hang")
 * @sdev:	the DSP
 *
 * The firmware still looks booted, but from now on the DSP takes each message and never
 * answers it: the sender gets -ETIMEDOUT after SOF_SHIM_IPC_TIMEOUT_MS, and the timeout marks
 * the firmware crashed.
 *
 * Return: 0, or -EBUSY when the firmware is not running or already hung.
 */
int sof_shim_fw_hang(struct sof_shim_dev *sdev)
{
	int ret = 0;

	spin_lock_irq(&sdev->ipc_lock);
	if (sdev->fw_state != SOF_SHIM_FW_BOOT_COMPLETE || sdev->fw_hung)
		ret = -EBUSY;
	else
		sdev->fw_hung = true;
	spin_unlock_irq(&sdev->ipc_lock);

	if (!ret)
		dev_info(sdev->dev, "firmware hung: IPCs time out\n");
	return ret;
}
