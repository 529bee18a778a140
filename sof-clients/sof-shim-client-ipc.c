// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: the clients' IPC, after mainline SOF's sound/soc/sof/sof-client.c (5.18+):
 * sending, the DSP's notifications and firmware state changes handed to the clients'
 * handlers, and the static_asserts that hold the ABI the clients see (include/auxbus/
 * sof-shim.h) to mainline's, against the kernel's own headers where it has them. The client
 * devices are in sof-shim-client.c.
 * Exported in the "SND_SOC_SOF_SHIM_CLIENT" namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/error-injection.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <sound/sof/header.h>
#ifdef AUXBUS_HAVE_SOF_FW_STATE
#include <sound/sof.h>
#endif
#ifdef AUXBUS_HAVE_SOF_IPC4_HEADER
#include <sound/sof/ipc4/header.h>
#endif

#include "sof-shim-priv.h"

/* Each "same values as mainline" of <auxbus/sof-shim.h>, against the kernel's own headers. */
static_assert((u32)SOF_SHIM_GLB_TYPE_MASK == (u32)SOF_GLB_TYPE_MASK);
static_assert((u32)SOF_SHIM_CMD_TYPE_MASK == (u32)SOF_CMD_TYPE_MASK);
static_assert(SOF_SHIM_IPC_GLB_REPLY == SOF_IPC_GLB_REPLY);
static_assert(SOF_SHIM_IPC_GLB_FW_READY == SOF_IPC_FW_READY);
static_assert(SOF_SHIM_IPC_GLB_TRACE_MSG == SOF_IPC_GLB_TRACE_MSG);
static_assert(SOF_SHIM_IPC_GLB_TEST_MSG == SOF_IPC_GLB_TEST_MSG);
static_assert(SOF_SHIM_IPC_GLB_PROBE == SOF_IPC_GLB_PROBE);
static_assert(SOF_SHIM_IPC_TEST_IPC_FLOOD == SOF_IPC_TEST_IPC_FLOOD);
static_assert(SOF_SHIM_IPC_PROBE_INIT == SOF_IPC_PROBE_INIT);
static_assert(SOF_SHIM_IPC_PROBE_DEINIT == SOF_IPC_PROBE_DEINIT);
static_assert(SOF_SHIM_IPC_PROBE_DMA_INFO == SOF_IPC_PROBE_DMA_INFO);
static_assert(SOF_SHIM_IPC_PROBE_POINT_ADD == SOF_IPC_PROBE_POINT_ADD);
static_assert(SOF_SHIM_IPC_PROBE_POINT_INFO == SOF_IPC_PROBE_POINT_INFO);
static_assert(SOF_SHIM_IPC_PROBE_POINT_REMOVE == SOF_IPC_PROBE_POINT_REMOVE);
static_assert(SOF_SHIM_IPC_MSG_MAX == SOF_IPC_MSG_MAX_SIZE);
static_assert(sizeof(struct sof_shim_ipc_hdr) == sizeof(struct sof_ipc_cmd_hdr));
static_assert(sizeof(struct sof_shim_ipc_reply) == sizeof(struct sof_ipc_reply));
static_assert(offsetof(struct sof_shim_ipc_reply, error) == offsetof(struct sof_ipc_reply, error));

#ifdef AUXBUS_HAVE_SOF_DSPLESS_MODE
/* mainline's numbering (6.4+; older kernels lack SOF_DSPLESS_MODE) */
static_assert((int)SOF_SHIM_FW_BOOT_NOT_STARTED == (int)SOF_FW_BOOT_NOT_STARTED);
static_assert((int)SOF_SHIM_DSPLESS_MODE == (int)SOF_DSPLESS_MODE);
static_assert((int)SOF_SHIM_FW_BOOT_PREPARE == (int)SOF_FW_BOOT_PREPARE);
static_assert((int)SOF_SHIM_FW_BOOT_IN_PROGRESS == (int)SOF_FW_BOOT_IN_PROGRESS);
static_assert((int)SOF_SHIM_FW_BOOT_FAILED == (int)SOF_FW_BOOT_FAILED);
static_assert((int)SOF_SHIM_FW_BOOT_READY_FAILED == (int)SOF_FW_BOOT_READY_FAILED);
static_assert((int)SOF_SHIM_FW_BOOT_READY_OK == (int)SOF_FW_BOOT_READY_OK);
static_assert((int)SOF_SHIM_FW_BOOT_COMPLETE == (int)SOF_FW_BOOT_COMPLETE);
static_assert((int)SOF_SHIM_FW_CRASHED == (int)SOF_FW_CRASHED);
#endif
#ifdef AUXBUS_HAVE_SOF_IPC_TYPE_4
static_assert((int)SOF_SHIM_IPC_TYPE_3 == (int)SOF_IPC_TYPE_3);
static_assert((int)SOF_SHIM_IPC_TYPE_4 == (int)SOF_IPC_TYPE_4);
#endif
#ifdef AUXBUS_HAVE_SOF_IPC4_HEADER
static_assert(sizeof(struct sof_shim_ipc4_msg) == sizeof(struct sof_ipc4_msg));
static_assert(offsetof(struct sof_shim_ipc4_msg, header_u64) ==
	      offsetof(struct sof_ipc4_msg, header_u64));
static_assert(offsetof(struct sof_shim_ipc4_msg, primary) ==
	      offsetof(struct sof_ipc4_msg, primary));
static_assert(offsetof(struct sof_shim_ipc4_msg, extension) ==
	      offsetof(struct sof_ipc4_msg, extension));
static_assert(offsetof(struct sof_shim_ipc4_msg, data_size) ==
	      offsetof(struct sof_ipc4_msg, data_size));
static_assert(offsetof(struct sof_shim_ipc4_msg, data_ptr) ==
	      offsetof(struct sof_ipc4_msg, data_ptr));
static_assert(SOF_SHIM_IPC4_MSG_TARGET_MASK == SOF_IPC4_MSG_TARGET_MASK);
static_assert(SOF_SHIM_IPC4_MSG_DIR_MASK == SOF_IPC4_MSG_DIR_MASK);
static_assert(SOF_SHIM_IPC4_MSG_TYPE_MASK == SOF_IPC4_MSG_TYPE_MASK);
static_assert(SOF_SHIM_IPC4_MOD_INIT_INSTANCE == SOF_IPC4_MOD_INIT_INSTANCE);
static_assert(SOF_SHIM_IPC4_MOD_LARGE_CONFIG_GET == SOF_IPC4_MOD_LARGE_CONFIG_GET);
static_assert(SOF_SHIM_IPC4_MOD_LARGE_CONFIG_SET == SOF_IPC4_MOD_LARGE_CONFIG_SET);
static_assert(SOF_SHIM_IPC4_MOD_DELETE_INSTANCE == SOF_IPC4_MOD_DELETE_INSTANCE);
static_assert(SOF_SHIM_IPC4_MOD_INSTANCE_MASK == SOF_IPC4_MOD_INSTANCE_MASK);
static_assert(SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE_MASK == SOF_IPC4_MOD_EXT_MSG_SIZE_MASK);
static_assert(SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID_MASK == SOF_IPC4_MOD_EXT_MSG_PARAM_ID_MASK);
static_assert(SOF_SHIM_IPC4_MOD_EXT_MSG_LAST_BLOCK_MASK == SOF_IPC4_MOD_EXT_MSG_LAST_BLOCK_MASK);
static_assert(SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK_MASK == SOF_IPC4_MOD_EXT_MSG_FIRST_BLOCK_MASK);
#endif

/**
 * struct sof_shim_event_entry - a client's handler of DSP notifications or firmware state
 * @ipc_msg_type:	SOF_SHIM_IPC_GLB_* type the client wants; 0 for a firmware state handler
 * @cdev:		the client
 * @ipc_rx:		its notification handler, on the DSP's ipc_rx_handler_list
 * @fw_state:		its firmware state handler, on the DSP's fw_state_handler_list
 * @list:		entry in one of the two lists
 */
struct sof_shim_event_entry {
	u32 ipc_msg_type;
	struct sof_shim_client_dev *cdev;
	union {
		sof_shim_client_event_callback ipc_rx;
		sof_shim_client_fw_state_callback fw_state;
	};
	struct list_head list;
};

/**
 * sof_shim_client_ipc_tx_message() - send an IPC to the DSP on behalf of a client
 * @cdev:		the client
 * @ipc_msg:		IPC3: message, starting with struct sof_shim_ipc_hdr (hdr.size is its
 *			size); IPC4: a struct sof_shim_ipc4_msg
 * @reply_data:		IPC3: buffer for the reply, which starts with struct sof_shim_ipc_reply;
 *			IPC4: a struct sof_shim_ipc4_msg for the reply's words and, for a large
 *			config get, @reply_bytes of payload at its data_ptr; or NULL
 * @reply_bytes:	size of the reply buffer
 *
 * As mainline's sof_client_ipc_tx_message(), the message is the firmware's IPC version
 * (sof_shim_client_get_ipc_type()). Messages of all clients of a DSP are serialised: one is
 * in flight at a time.
 *
 * Context: process context; the client holds a runtime PM reference on its device (which
 * keeps the DSP, its parent, resumed), as SOF clients do.
 *
 * Return: 0, the DSP's negative error code, or a negative errno as
 * sof_shim_ipc_tx_message() returns it: -ENODEV while the firmware is not running or the DSP
 * is runtime-suspended, -ETIMEDOUT (and the firmware marked crashed) without a reply.
 */
int sof_shim_client_ipc_tx_message(struct sof_shim_client_dev *cdev, void *ipc_msg,
				   void *reply_data, size_t reply_bytes)
{
	struct sof_shim_ipc4_msg *msg = ipc_msg;
	struct sof_shim_ipc_hdr *hdr = ipc_msg;

	if (!ipc_msg)
		return -EINVAL;
	if (cdev->sdev->fw.ipc_type == SOF_SHIM_IPC_TYPE_4)
		return sof_shim_ipc_tx_message(cdev->sdev, ipc_msg, msg->data_size, reply_data,
					       reply_bytes);
	return sof_shim_ipc_tx_message(cdev->sdev, ipc_msg, hdr->size, reply_data, reply_bytes);
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_ipc_tx_message, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_ipc_set_get_data() - set or get a module parameter of any size (IPC4)
 * @cdev:	the client
 * @ipc_msg:	a struct sof_shim_ipc4_msg: a module message (module id and instance in the
 *		primary, the parameter id in the extension) whose data_ptr holds data_size
 *		bytes to set, or has room for data_size bytes to get
 * @set:	set, or get
 *
 * As mainline's sof_client_ipc_set_get_data() on an IPC4 firmware: a large config set or
 * get, in as many mailbox-sized blocks as the parameter needs, with no other message in
 * between. A get sets data_size to the size of the parameter the firmware returned.
 *
 * Context: process context, a runtime PM reference held, as sof_shim_client_ipc_tx_message().
 * Return: 0 or a negative errno as sof_shim_client_ipc_tx_message(); -EOPNOTSUPP on an IPC3
 * firmware (the simulated IPC3 firmware has no large data messages), -ENOMEM for a get whose
 * buffer is smaller than the parameter.
 */
int sof_shim_client_ipc_set_get_data(struct sof_shim_client_dev *cdev, void *ipc_msg, bool set)
{
	struct sof_shim_ipc4_msg *msg = ipc_msg;

	if (cdev->sdev->fw.ipc_type != SOF_SHIM_IPC_TYPE_4) {
		dev_err(&cdev->auxdev.dev, "large config set/get: the firmware speaks IPC3\n");
		return -EOPNOTSUPP;
	}
	if (!msg)
		return -EINVAL;
	return sof_shim_ipc4_set_get_data(cdev->sdev, msg, msg->data_size, set);
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_ipc_set_get_data, "SND_SOC_SOF_SHIM_CLIENT");

/* add a copy of @tmpl to the DSP's handler list @handlers */
static int sof_shim_client_handler_add(struct sof_shim_client_dev *cdev,
				       struct list_head *handlers,
				       const struct sof_shim_event_entry *tmpl)
{
	struct sof_shim_dev *sdev = cdev->sdev;
	struct sof_shim_event_entry *event;

	event = kmemdup(tmpl, sizeof(*tmpl), GFP_KERNEL);
	if (!event)
		return -ENOMEM;

	mutex_lock(&sdev->client_event_handler_mutex);
	list_add(&event->list, handlers);
	mutex_unlock(&sdev->client_event_handler_mutex);

	return 0;
}

/* remove and free @cdev's handler for @ipc_msg_type from the DSP's handler list @handlers */
static void sof_shim_client_handler_del(struct sof_shim_client_dev *cdev,
					struct list_head *handlers, u32 ipc_msg_type)
{
	struct sof_shim_dev *sdev = cdev->sdev;
	struct sof_shim_event_entry *event;

	mutex_lock(&sdev->client_event_handler_mutex);
	list_for_each_entry(event, handlers, list) {
		if (event->cdev == cdev && event->ipc_msg_type == ipc_msg_type) {
			list_del(&event->list);
			kfree(event);
			break;
		}
	}
	mutex_unlock(&sdev->client_event_handler_mutex);
}

void sof_shim_client_ipc_rx_dispatcher(struct sof_shim_dev *sdev, void *msg_buf)
{
	struct sof_shim_ipc_hdr *hdr = msg_buf;
	u32 msg_type = hdr->cmd & SOF_SHIM_GLB_TYPE_MASK;
	struct sof_shim_event_entry *event;

	mutex_lock(&sdev->client_event_handler_mutex);
	list_for_each_entry(event, &sdev->ipc_rx_handler_list, list)
		if (event->ipc_msg_type == msg_type)
			event->ipc_rx(event->cdev, msg_buf);
	mutex_unlock(&sdev->client_event_handler_mutex);
}

/**
 * sof_shim_client_ipc_rx_message() - hand a message to the host as if the DSP had sent it
 * @cdev:	the client
 * @ipc_msg:	the message's header, struct sof_shim_ipc_hdr (hdr.size is the message's size)
 * @msg_buf:	the whole message, or NULL when @ipc_msg is the whole message
 *
 * The kernel injector's API (mainline's sof_client_ipc_rx_message(), with its three
 * arguments): the message goes through the DSP notification path, to every client's handler
 * of its type, before this returns. The firmware is not involved.
 *
 * Context: process context; may sleep.
 *
 * Return: 0, or -EINVAL when hdr.size is smaller than the header or larger than the largest
 * IPC3 message (SOF_SHIM_IPC_MSG_MAX, as mainline's sof_ipc3_do_rx_work() checks).
 */
int sof_shim_client_ipc_rx_message(struct sof_shim_client_dev *cdev, void *ipc_msg, void *msg_buf)
{
	struct sof_shim_ipc_hdr *hdr = ipc_msg;
	struct sof_shim_dev *sdev = cdev->sdev;

	if (hdr->size < sizeof(*hdr) || hdr->size > SOF_SHIM_IPC_MSG_MAX) {
		dev_err(sdev->dev, "The received message size is invalid: %u\n", hdr->size);
		return -EINVAL;
	}

	sof_shim_client_ipc_rx_dispatcher(sdev, msg_buf ? msg_buf : ipc_msg);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_ipc_rx_message, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_register_ipc_rx_handler() - receive DSP notifications of one type
 * @cdev:		the client
 * @ipc_msg_type:	SOF_SHIM_IPC_GLB_* type
 * @callback:		called in process context with the message (header first)
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sof_shim_client_register_ipc_rx_handler(struct sof_shim_client_dev *cdev, u32 ipc_msg_type,
					    sof_shim_client_event_callback callback)
{
	const struct sof_shim_event_entry event = {
		.ipc_msg_type = ipc_msg_type,
		.cdev = cdev,
		.ipc_rx = callback,
	};

	if (!callback || !(ipc_msg_type & SOF_SHIM_GLB_TYPE_MASK) ||
	    (ipc_msg_type & ~SOF_SHIM_GLB_TYPE_MASK))
		return -EINVAL;

	return sof_shim_client_handler_add(cdev, &cdev->sdev->ipc_rx_handler_list, &event);
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_register_ipc_rx_handler, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_unregister_ipc_rx_handler() - undo sof_shim_client_register_ipc_rx_handler()
 * @cdev:		the client
 * @ipc_msg_type:	the type it registered
 *
 * When this returns, the handler is not running and will not run again.
 */
void sof_shim_client_unregister_ipc_rx_handler(struct sof_shim_client_dev *cdev,
					       u32 ipc_msg_type)
{
	sof_shim_client_handler_del(cdev, &cdev->sdev->ipc_rx_handler_list, ipc_msg_type);
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_unregister_ipc_rx_handler, "SND_SOC_SOF_SHIM_CLIENT");

void sof_shim_client_fw_state_dispatcher(struct sof_shim_dev *sdev,
					 enum sof_shim_fw_state state)
{
	struct sof_shim_event_entry *event;

	mutex_lock(&sdev->client_event_handler_mutex);
	list_for_each_entry(event, &sdev->fw_state_handler_list, list)
		event->fw_state(event->cdev, state);
	mutex_unlock(&sdev->client_event_handler_mutex);
}

/**
 * sof_shim_client_register_fw_state_handler() - hear of firmware crashes and boots
 * @cdev:	the client
 * @callback:	called in process context with each new state, in order, and
 *		without the DSP's tx_mutex held: it may send IPC
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sof_shim_client_register_fw_state_handler(struct sof_shim_client_dev *cdev,
					      sof_shim_client_fw_state_callback callback)
{
	const struct sof_shim_event_entry event = {
		.cdev = cdev,
		.fw_state = callback,
	};

	if (!callback)
		return -EINVAL;

	return sof_shim_client_handler_add(cdev, &cdev->sdev->fw_state_handler_list, &event);
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_register_fw_state_handler, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_unregister_fw_state_handler() - undo the registration
 * @cdev:	the client
 */
void sof_shim_client_unregister_fw_state_handler(struct sof_shim_client_dev *cdev)
{
	sof_shim_client_handler_del(cdev, &cdev->sdev->fw_state_handler_list, 0);
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_unregister_fw_state_handler, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_get_fw_state() - current firmware state
 * @cdev:	the client
 *
 * Return: the state; clients refuse new work with -ENODEV while it is SOF_SHIM_FW_CRASHED.
 */
enum sof_shim_fw_state sof_shim_client_get_fw_state(struct sof_shim_client_dev *cdev)
{
	return READ_ONCE(cdev->sdev->fw_state);
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_get_fw_state, "SND_SOC_SOF_SHIM_CLIENT");
