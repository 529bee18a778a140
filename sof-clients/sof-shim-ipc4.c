// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: what IPC4 changes in the IPC, in the shape of SOF's sound/soc/sof/ipc4.c.
 *
 * The transport is sof-shim-ipc.c's, one message in flight under ipc.tx_mutex: an IPC4
 * message is its primary and extension words (the doorbell registers) and a payload in the
 * mailbox. The reply's primary carries a status (SOF_SHIM_IPC4_REPLY_STATUS) that
 * sof_shim_ipc4_check_reply_status() turns into an errno as mainline's
 * sof_ipc4_check_reply_status() does; only a large config get has a payload in its reply.
 * sof_shim_ipc4_set_get_data() moves a module parameter of any size in mailbox-sized blocks
 * (mainline's sof_ipc4_set_get_data(): first block with the whole size, the next ones with
 * their offset, the last block of a set flagged).
 *
 * The DSP side, the firmware's IPC4 layer, is in sof-shim-fw-ipc4.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/string.h>

#include "sof-shim-priv.h"

static const struct {
	u32 status;
	const char *msg;
} sof_shim_ipc4_status[] = {
	{ 1, "Invalid parameter specified" },
	{ 2, "Unknown message type specified" },
	{ 3, "Not enough space in the IPC reply buffer to complete the request" },
	{ 4, "The system or resource is busy" },
	{ 6, "Unknown error while processing the request" },
	{ 7, "Unsupported operation requested" },
	{ 9, "Specified resource not found" },
	{ 10, "A resource's ID requested to be created is already assigned" },
	{ 12, "Required resource is in invalid state" },
	{ 15, "Requested service or data is unavailable on the target platform" },
	{ 110, "Invalid (out of range) module ID provided" },
	{ 111, "Invalid module instance ID provided" },
};

/* mainline's sof_ipc4_check_reply_status(): a reply's status as an errno */
static int sof_shim_ipc4_check_reply_status(struct sof_shim_dev *sdev, u32 status)
{
	int i, ret;

	status &= SOF_SHIM_IPC4_REPLY_STATUS;
	if (!status)
		return 0;

	for (i = 0; i < ARRAY_SIZE(sof_shim_ipc4_status); i++) {
		if (sof_shim_ipc4_status[i].status == status) {
			dev_err(sdev->dev, "FW reported error: %u - %s\n", status,
				sof_shim_ipc4_status[i].msg);
			break;
		}
	}
	if (i == ARRAY_SIZE(sof_shim_ipc4_status))
		dev_err(sdev->dev, "FW reported error: %u - Unknown\n", status);

	switch (status) {
	case 2:
	case 15:
		ret = -EOPNOTSUPP;
		break;
	case 8:
	case 11:
	case 105 ... 109:
	case 114 ... 115:
	case 160 ... 163:
	case 165:
		ret = -ENOENT;
		break;
	case 4:
	case 150:
	case 151:
		ret = -EBUSY;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	return ret;
}

/**
 * sof_shim_ipc4_check_msg() - the checks sof_shim_ipc_tx_message() makes on an IPC4 message
 * @sdev:	the DSP
 * @msg:	the message
 * @msg_bytes:	its payload size, as the sender gives it
 *
 * Return: 0, or -EINVAL (logged) for a request that is no request or whose payload is not
 * where its sizes say.
 */
int sof_shim_ipc4_check_msg(struct sof_shim_dev *sdev, const struct sof_shim_ipc4_msg *msg,
			    size_t msg_bytes)
{
	if (!msg || msg->data_size != msg_bytes || (msg_bytes && !msg->data_ptr)) {
		dev_err_ratelimited(sdev->dev, "bad IPC4 message: %zu bytes of payload\n",
				    msg_bytes);
		return -EINVAL;
	}
	if (msg->primary & SOF_SHIM_IPC4_MSG_DIR_MASK) {
		dev_err_ratelimited(sdev->dev, "IPC4 message %#x is a reply, not a request\n",
				    msg->primary);
		return -EINVAL;
	}
	return 0;
}

/**
 * sof_shim_ipc4_get_reply() - read the reply of the message in flight (SOF's
 * sof_ipc4_get_reply())
 * @sdev:	the DSP
 *
 * The reply's words go to the reply message; its status becomes the errno; a large config
 * get's payload is read out of the mailbox.
 *
 * Context: ipc_lock held, a message in flight.
 * Return: 0, the status's errno, or -EPROTO for an answer that is no reply.
 */
int sof_shim_ipc4_get_reply(struct sof_shim_dev *sdev)
{
	struct sof_shim_ipc_msg *msg = sdev->msg;
	struct sof_shim_ipc4_msg *ipc4_reply = msg->reply_data;
	int ret;

	lockdep_assert_held(&sdev->ipc_lock);
	ipc4_reply->primary = sdev->host_primary;
	ipc4_reply->extension = sdev->host_extension;

	if (!(ipc4_reply->primary & SOF_SHIM_IPC4_MSG_DIR_MASK)) {
		dev_err(sdev->dev, "reply %#x is no IPC4 reply\n", ipc4_reply->primary);
		return -EPROTO;
	}

	ret = sof_shim_ipc4_check_reply_status(sdev, ipc4_reply->primary);
	if (ret)
		return ret;

	/*
	 * No other information is expected for non large config get replies (unlike mainline,
	 * nothing is copied to the sender then: the mailbox is not the reply's)
	 */
	if (!msg->reply_size || !SOF_SHIM_IPC4_MSG_IS_MODULE_MSG(ipc4_reply->primary) ||
	    SOF_SHIM_IPC4_MSG_TYPE_GET(ipc4_reply->primary) != SOF_SHIM_IPC4_MOD_LARGE_CONFIG_GET) {
		msg->reply_size = 0;
		return 0;
	}

	/* Read the requested payload, or the shorter block the firmware sent */
	if (sdev->host_box_bytes < msg->reply_size)
		msg->reply_size = sdev->host_box_bytes;
	memcpy(ipc4_reply->data_ptr, sdev->host_box, msg->reply_size);
	return 0;
}

/**
 * sof_shim_ipc4_copy_reply() - hand the reply to its sender (SOF's ipc4_wait_tx_done())
 * @sdev:	the DSP
 * @reply_data:	the sender's struct sof_shim_ipc4_msg, or NULL
 *
 * Context: ipc.tx_mutex held, the reply taken without error.
 */
void sof_shim_ipc4_copy_reply(struct sof_shim_dev *sdev, void *reply_data)
{
	struct sof_shim_ipc_msg *msg = &sdev->ipc.msg;
	struct sof_shim_ipc4_msg *ipc4_reply = msg->reply_data;
	struct sof_shim_ipc4_msg *ipc4_reply_data = reply_data;

	if (!ipc4_reply_data)
		return;
	/* Copy the header */
	ipc4_reply_data->primary = ipc4_reply->primary;
	ipc4_reply_data->extension = ipc4_reply->extension;
	if (msg->reply_size && ipc4_reply_data->data_ptr) {
		/* copy the payload returned from DSP */
		memcpy(ipc4_reply_data->data_ptr, ipc4_reply->data_ptr, msg->reply_size);
		ipc4_reply_data->data_size = msg->reply_size;
	}
}

/**
 * sof_shim_ipc4_set_get_data() - set or get a module's large config (SOF's
 * sof_ipc4_set_get_data())
 * @sdev:		the DSP
 * @msg:		module message: primary (module id, instance), extension (param id);
 *			data_ptr has @payload_bytes to set, or room for them to get
 * @payload_bytes:	size of the parameter to set, or of the buffer to get it into
 * @set:		set, or get
 *
 * Blocks of at most the mailbox size, all under one hold of tx_mutex: the first with
 * SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK and the whole size, the next ones with their offset,
 * the last block of a set with SOF_SHIM_IPC4_MOD_EXT_MSG_LAST_BLOCK. A get stops at the size
 * the firmware's first block reports, and sets @msg->data_size to it.
 *
 * Return: 0, -EINVAL for a message that is no module message, -ENOMEM for a get buffer
 * smaller than the parameter, or the failing block's errno as sof_shim_ipc_tx_message().
 */
int sof_shim_ipc4_set_get_data(struct sof_shim_dev *sdev, struct sof_shim_ipc4_msg *msg,
			       size_t payload_bytes, bool set)
{
	size_t payload_limit = sdev->ipc.max_payload_size;
	struct sof_shim_ipc4_msg tx = {}, rx = {};
	size_t remaining = payload_bytes;
	size_t offset = 0;
	size_t chunk_size;
	int ret = 0;

	if (!msg || (payload_bytes && !msg->data_ptr))
		return -EINVAL;

	if ((msg->primary & SOF_SHIM_IPC4_MSG_TARGET_MASK) !=
	    SOF_SHIM_IPC4_MSG_TARGET(SOF_SHIM_IPC4_MODULE_MSG)) {
		dev_err(sdev->dev, "large config %s: %#x is no module message\n",
			set ? "set" : "get", msg->primary);
		return -EINVAL;
	}
	if (payload_bytes > SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE_MASK) {
		dev_err(sdev->dev, "large config %s: %zu bytes do not fit the extension\n",
			set ? "set" : "get", payload_bytes);
		return -EINVAL;
	}

	msg->primary &= ~SOF_SHIM_IPC4_MSG_TYPE_MASK;
	tx.primary = msg->primary;
	tx.extension = msg->extension;

	if (set)
		tx.primary |= SOF_SHIM_IPC4_MSG_TYPE_SET(SOF_SHIM_IPC4_MOD_LARGE_CONFIG_SET);
	else
		tx.primary |= SOF_SHIM_IPC4_MSG_TYPE_SET(SOF_SHIM_IPC4_MOD_LARGE_CONFIG_GET);

	tx.extension &= ~SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE_MASK;
	tx.extension |= SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE(payload_bytes);
	tx.extension |= SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK(1);

	/* Serialise IPC TX */
	mutex_lock(&sdev->ipc.tx_mutex);

	do {
		size_t tx_data_size, rx_data_size;

		if (remaining > payload_limit) {
			chunk_size = payload_limit;
		} else {
			chunk_size = remaining;
			if (set)
				tx.extension |= SOF_SHIM_IPC4_MOD_EXT_MSG_LAST_BLOCK(1);
		}

		if (offset) {
			tx.extension &= ~SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK_MASK;
			tx.extension &= ~SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE_MASK;
			tx.extension |= SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE(offset);
		}

		if (set) {
			tx.data_size = chunk_size;
			tx.data_ptr = msg->data_ptr + offset;
			tx_data_size = chunk_size;
			rx_data_size = 0;
		} else {
			rx.primary = 0;
			rx.extension = 0;
			rx.data_size = chunk_size;
			rx.data_ptr = msg->data_ptr + offset;
			tx.data_size = 0;
			tx.data_ptr = NULL;
			tx_data_size = 0;
			rx_data_size = chunk_size;
		}

		/* Send the message for the current chunk */
		ret = sof_shim_ipc_tx_msg_unlocked(sdev, &tx, tx_data_size, &rx, rx_data_size);
		if (ret < 0) {
			dev_err(sdev->dev, "large config %s failed at offset %zu: %d\n",
				set ? "set" : "get", offset, ret);
			goto out;
		}

		if (!set && rx.extension & SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK_MASK) {
			/* Verify the firmware reported total payload size */
			rx_data_size = rx.extension & SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE_MASK;

			if (rx_data_size > payload_bytes) {
				dev_err(sdev->dev, "large config get: buffer (%zu) is too small for %zu\n",
					payload_bytes, rx_data_size);
				ret = -ENOMEM;
				goto out;
			}

			if (rx_data_size < chunk_size) {
				chunk_size = rx_data_size;
				remaining = rx_data_size;
			} else if (rx_data_size < payload_bytes) {
				remaining = rx_data_size;
			}
		}

		offset += chunk_size;
		remaining -= chunk_size;
	} while (remaining);

	/* Adjust the received data size if needed */
	if (!set && payload_bytes != offset)
		msg->data_size = offset;

out:
	sof_shim_ipc_tx_unlock(sdev);
	return ret;
}
