/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Mainline SOF's client API (sound/soc/sof/, the header its clients include by a quoted name)
 * for the simulated DSP (snd_sof_shim): a client written for mainline builds against the shim
 * with this directory on its quote include path (-iquote). Every mainline name maps onto the
 * shim's: nothing here defines or refers to a symbol of the in-tree snd_sof, so both load side
 * by side. The client's device id table must name the shim's devices ("snd_sof_shim.<function>").
 *
 * Mapped: the client device, IPC send and set/get, rx handlers and rx_message, fw state query,
 * boot_dsp, debugfs root, DMA device, payload size, IPC type, module get/put, the namespace.
 * Not mapped (no mainline client that builds here uses them): fw state handlers (mainline's
 * callback takes the kernel's enum sof_fw_state), get_fw_version, the IPC4 module lookups.
 */
#ifndef __AUXBUS_SOF_CLIENT_H
#define __AUXBUS_SOF_CLIENT_H

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <auxbus/sof-shim.h>
#ifdef AUXBUS_HAVE_SOF_FW_STATE
#include <sound/sof.h>
#endif

#ifndef AUXBUS_HAVE_SOF_FW_STATE
/* mainline's, for kernels whose <sound/sof.h> has none (before 5.17) */
enum sof_fw_state {
	SOF_FW_BOOT_NOT_STARTED = 0,
	SOF_DSPLESS_MODE,
	SOF_FW_BOOT_PREPARE,
	SOF_FW_BOOT_IN_PROGRESS,
	SOF_FW_BOOT_FAILED,
	SOF_FW_BOOT_READY_FAILED,
	SOF_FW_BOOT_READY_OK,
	SOF_FW_BOOT_COMPLETE,
	SOF_FW_CRASHED,
};
#endif

#ifndef AUXBUS_HAVE_SOF_IPC_TYPE
enum sof_ipc_type {
	SOF_IPC_TYPE_3,
	SOF_IPC_TYPE_4,
};
#elif !defined(AUXBUS_HAVE_SOF_IPC_TYPE_4)
/* the names before 6.4 */
#define SOF_IPC_TYPE_3	SOF_IPC
#define SOF_IPC_TYPE_4	SOF_INTEL_IPC4
#endif

#define sof_client_dev sof_shim_client_dev

#define auxiliary_dev_to_sof_client_dev(auxiliary_dev) \
	container_of(auxiliary_dev, struct sof_client_dev, auxdev)

#define dev_to_sof_client_dev(dev) \
	container_of(to_auxiliary_dev(dev), struct sof_client_dev, auxdev)

static inline int sof_client_ipc_tx_message(struct sof_client_dev *cdev, void *ipc_msg,
					    void *reply_data, size_t reply_bytes)
{
	return sof_shim_client_ipc_tx_message(cdev, ipc_msg, reply_data, reply_bytes);
}

static inline int sof_client_ipc_tx_message_no_reply(struct sof_client_dev *cdev, void *ipc_msg)
{
	return sof_shim_client_ipc_tx_message(cdev, ipc_msg, NULL, 0);
}

static inline int sof_client_ipc_set_get_data(struct sof_client_dev *cdev, void *ipc_msg,
					      bool set)
{
	return sof_shim_client_ipc_set_get_data(cdev, ipc_msg, set);
}

static inline struct dentry *sof_client_get_debugfs_root(struct sof_client_dev *cdev)
{
	return sof_shim_client_get_debugfs_root(cdev);
}

static inline struct device *sof_client_get_dma_dev(struct sof_client_dev *cdev)
{
	return sof_shim_client_get_dma_dev(cdev);
}

static inline size_t sof_client_get_ipc_max_payload_size(struct sof_client_dev *cdev)
{
	return sof_shim_client_get_ipc_max_payload_size(cdev);
}

static inline enum sof_ipc_type sof_client_get_ipc_type(struct sof_client_dev *cdev)
{
	return sof_shim_client_get_ipc_type(cdev) == SOF_SHIM_IPC_TYPE_4 ? SOF_IPC_TYPE_4 :
									     SOF_IPC_TYPE_3;
}

static inline int sof_client_boot_dsp(struct sof_client_dev *cdev)
{
	return sof_shim_client_boot_dsp(cdev);
}

static inline int sof_client_core_module_get(struct sof_client_dev *cdev)
{
	return sof_shim_client_core_module_get(cdev);
}

static inline void sof_client_core_module_put(struct sof_client_dev *cdev)
{
	sof_shim_client_core_module_put(cdev);
}

#define sof_client_event_callback sof_shim_client_event_callback

static inline int sof_client_register_ipc_rx_handler(struct sof_client_dev *cdev,
						     u32 ipc_msg_type,
						     sof_client_event_callback callback)
{
	return sof_shim_client_register_ipc_rx_handler(cdev, ipc_msg_type, callback);
}

static inline void sof_client_unregister_ipc_rx_handler(struct sof_client_dev *cdev,
							u32 ipc_msg_type)
{
	sof_shim_client_unregister_ipc_rx_handler(cdev, ipc_msg_type);
}

/* by name: the kernel's enum numbers its values as its own version of mainline did */
static inline enum sof_fw_state sof_client_get_fw_state(struct sof_client_dev *cdev)
{
	switch (sof_shim_client_get_fw_state(cdev)) {
	case SOF_SHIM_FW_BOOT_PREPARE:
		return SOF_FW_BOOT_PREPARE;
	case SOF_SHIM_FW_BOOT_IN_PROGRESS:
		return SOF_FW_BOOT_IN_PROGRESS;
	case SOF_SHIM_FW_BOOT_FAILED:
		return SOF_FW_BOOT_FAILED;
	case SOF_SHIM_FW_BOOT_READY_FAILED:
		return SOF_FW_BOOT_READY_FAILED;
	case SOF_SHIM_FW_BOOT_READY_OK:
		return SOF_FW_BOOT_READY_OK;
	case SOF_SHIM_FW_BOOT_COMPLETE:
		return SOF_FW_BOOT_COMPLETE;
	case SOF_SHIM_FW_CRASHED:
		return SOF_FW_CRASHED;
	default:
		return SOF_FW_BOOT_NOT_STARTED;
	}
}

static inline int sof_client_ipc_rx_message(struct sof_client_dev *cdev, void *ipc_msg,
					    void *msg_buf)
{
	return sof_shim_client_ipc_rx_message(cdev, ipc_msg, msg_buf);
}

#ifndef AUXBUS_HAVE_DEBUGFS_AUX_NUM
/*
 * debugfs_create_file_aux_num() and debugfs_get_aux_num(), 6.14: before them, the file's
 * number rides in its inode's i_generation, which debugfs leaves unused.
 */
static inline struct dentry *
auxbus_debugfs_create_file_aux_num(const char *name, umode_t mode, struct dentry *parent,
				   void *data, unsigned long n,
				   const struct file_operations *fops)
{
	struct dentry *d = debugfs_create_file(name, mode, parent, data, fops);

	if (!IS_ERR_OR_NULL(d))
		d_inode(d)->i_generation = n;
	return d;
}

#define debugfs_create_file_aux_num	auxbus_debugfs_create_file_aux_num
#define debugfs_get_aux_num(f)		((unsigned long)file_inode(f)->i_generation)
#endif

/* the shim's exports live in its own namespace: a mainline client's import means that one */
#undef MODULE_IMPORT_NS
#define MODULE_IMPORT_NS(ns)	MODULE_INFO(import_ns, "SND_SOC_SOF_SHIM_CLIENT")

#endif /* __AUXBUS_SOF_CLIENT_H */
