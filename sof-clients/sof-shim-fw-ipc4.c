// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: the simulated firmware's IPC4 layer (no mainline counterpart: a real DSP runs
 * it). sof_shim_ipc4_dsp_handle() refuses what it does not know with the status a SOF
 * firmware uses, assembles and splits large config transfers, and hands the whole parameter
 * to the module (the probe module, sof-shim-fw-probes.c). The host side is sof-shim-ipc4.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/string.h>

#include "sof-shim-priv.h"

/* the firmware's status for a module's errno */
static u32 sof_shim_ipc4_dsp_status(int err)
{
	switch (err) {
	case 0:
		return 0;
	case -EBUSY:
		return SOF_SHIM_IPC4_BUSY;
	case -EEXIST:
		return SOF_SHIM_IPC4_RESOURCE_ID_EXISTS;
	case -ENOENT:
		return SOF_SHIM_IPC4_RESOURCE_NOT_FOUND;
	case -ENOSPC:
		return SOF_SHIM_IPC4_OUT_OF_MEMORY;
	case -ENODEV:
		return SOF_SHIM_IPC4_MOD_INST_INVALID_ID;
	default:
		return SOF_SHIM_IPC4_INVALID_PARAM;
	}
}

/* one block of a large config set: the parameter goes to the module with its last block */
static u32 sof_shim_ipc4_dsp_lc_set(struct sof_shim_dev *sdev, u32 module_id, u32 ext)
{
	struct sof_shim_ipc4_large_config *lc = &sdev->ipc4_lc;
	u32 param_id = (ext & SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID_MASK) >>
		       SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID_SHIFT;
	u32 size_off = ext & SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE_MASK;
	size_t bytes = sdev->dsp_box_bytes;

	if (ext & SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK_MASK) {
		if (size_off > sizeof(lc->buf))
			return SOF_SHIM_IPC4_OUT_OF_MEMORY;
		lc->active = true;
		lc->set = true;
		lc->module_id = module_id;
		lc->param_id = param_id;
		lc->size = size_off;
		lc->offset = 0;
	} else if (!lc->active || !lc->set || lc->module_id != module_id ||
		   lc->param_id != param_id || lc->offset != size_off) {
		lc->active = false;
		return SOF_SHIM_IPC4_INVALID_PARAM;
	}

	if (bytes > lc->size - lc->offset) {
		lc->active = false;
		return SOF_SHIM_IPC4_INVALID_PARAM;
	}
	memcpy(lc->buf + lc->offset, sdev->dsp_box, bytes);
	lc->offset += bytes;

	if (!(ext & SOF_SHIM_IPC4_MOD_EXT_MSG_LAST_BLOCK_MASK))
		return 0;
	lc->active = false;
	if (lc->offset != lc->size)
		return SOF_SHIM_IPC4_INVALID_PARAM;
	return sof_shim_ipc4_dsp_status(sof_shim_probes_ipc4_set(sdev, param_id, lc->buf,
								 lc->size));
}

/*
 * One block of a large config get: the first asks the module for the whole parameter;
 * every block's reply says its offset (the first, the whole size) and which block it is.
 */
static u32 sof_shim_ipc4_dsp_lc_get(struct sof_shim_dev *sdev, u32 module_id, u32 ext,
				    u32 *reply_ext)
{
	struct sof_shim_ipc4_large_config *lc = &sdev->ipc4_lc;
	u32 param_id = (ext & SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID_MASK) >>
		       SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID_SHIFT;
	u32 size_off = ext & SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE_MASK;
	bool first = ext & SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK_MASK;
	size_t chunk;
	int ret;

	if (first) {
		lc->size = sizeof(lc->buf);
		ret = sof_shim_probes_ipc4_get(sdev, param_id, lc->buf, &lc->size);
		if (ret)
			return sof_shim_ipc4_dsp_status(ret);
		lc->active = true;
		lc->set = false;
		lc->module_id = module_id;
		lc->param_id = param_id;
		lc->offset = 0;
	} else if (!lc->active || lc->set || lc->module_id != module_id ||
		   lc->param_id != param_id || size_off != lc->offset) {
		lc->active = false;
		return SOF_SHIM_IPC4_INVALID_PARAM;
	}

	chunk = min_t(size_t, lc->size - lc->offset, sdev->ipc.max_payload_size);
	memcpy(sdev->host_box, lc->buf + lc->offset, chunk);
	sdev->host_box_bytes = chunk;
	*reply_ext = SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID(param_id) |
		     SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE(first ? lc->size : lc->offset) |
		     SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK(first);
	lc->offset += chunk;
	if (lc->offset == lc->size) {
		*reply_ext |= SOF_SHIM_IPC4_MOD_EXT_MSG_LAST_BLOCK(1);
		lc->active = false;
	}
	return 0;
}

/* a module message to the simulated firmware's modules: the probe module, instance 0 */
static u32 sof_shim_ipc4_dsp_module_msg(struct sof_shim_dev *sdev, u32 primary, u32 ext,
					u32 *reply_ext)
{
	u32 type = SOF_SHIM_IPC4_MSG_TYPE_GET(primary);
	u32 module_id = primary & (SOF_SHIM_IPC4_MOD_ID_MASK | SOF_SHIM_IPC4_MOD_INSTANCE_MASK);
	u32 probe_id = READ_ONCE(sdev->ipc4_probe_module.man4_module_entry.id);

	/* the probe module, under the id the manifest gives it, is the firmware's only one */
	if (!READ_ONCE(sdev->ipc4_probe_module_listed) || SOF_SHIM_IPC4_MOD_ID(primary) != probe_id)
		return SOF_SHIM_IPC4_MOD_INVALID_ID;
	if (primary & SOF_SHIM_IPC4_MOD_INSTANCE_MASK)
		return SOF_SHIM_IPC4_MOD_INST_INVALID_ID;

	switch (type) {
	case SOF_SHIM_IPC4_MOD_INIT_INSTANCE:
		if ((ext & SOF_SHIM_IPC4_MOD_EXT_PARAM_SIZE_MASK) * 4 != sdev->dsp_box_bytes)
			return SOF_SHIM_IPC4_INVALID_PARAM;
		fallthrough;
	case SOF_SHIM_IPC4_MOD_DELETE_INSTANCE:
		return sof_shim_ipc4_dsp_status(sof_shim_probes_ipc4(sdev, type, sdev->dsp_box,
								     sdev->dsp_box_bytes));
	case SOF_SHIM_IPC4_MOD_LARGE_CONFIG_SET:
		return sof_shim_ipc4_dsp_lc_set(sdev, module_id, ext);
	case SOF_SHIM_IPC4_MOD_LARGE_CONFIG_GET:
		if (sdev->dsp_box_bytes)
			return SOF_SHIM_IPC4_INVALID_PARAM;
		return sof_shim_ipc4_dsp_lc_get(sdev, module_id, ext, reply_ext);
	default:
		return SOF_SHIM_IPC4_UNKNOWN_MSG_TYPE;
	}
}

/**
 * sof_shim_ipc4_dsp_handle() - the IPC4 firmware acts on the message in its mailbox
 * @sdev:	the DSP
 *
 * Writes the reply: primary with the request's target and type, the reply direction and
 * the status; extension and payload for a large config get.
 *
 * Context: the DSP thread, ipc_lock held.
 */
void sof_shim_ipc4_dsp_handle(struct sof_shim_dev *sdev)
{
	u32 primary = sdev->dsp_primary, reply_ext = 0, status;

	lockdep_assert_held(&sdev->ipc_lock);
	sdev->host_box_bytes = 0;

	if (sdev->dsp_box_bytes > sdev->ipc.max_payload_size) {
		atomic64_inc(&sdev->stat_dsp_reject);
		status = SOF_SHIM_IPC4_INVALID_PARAM;
	} else if (!SOF_SHIM_IPC4_MSG_IS_MODULE_MSG(primary)) {
		/* no global (FW_GEN) message is known to this firmware */
		status = SOF_SHIM_IPC4_UNKNOWN_MSG_TYPE;
	} else {
		status = sof_shim_ipc4_dsp_module_msg(sdev, primary, sdev->dsp_extension,
						      &reply_ext);
	}

	if (status) {
		reply_ext = 0;
		sdev->host_box_bytes = 0;
	}
	sdev->host_primary = (primary & (SOF_SHIM_IPC4_MSG_TARGET_MASK |
					 SOF_SHIM_IPC4_MSG_TYPE_MASK)) |
			     SOF_SHIM_IPC4_MSG_DIR(SOF_SHIM_IPC4_MSG_REPLY) | status;
	sdev->host_extension = reply_ext;
}
