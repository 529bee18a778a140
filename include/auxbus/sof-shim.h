/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Client API of the simulated SOF DSP (snd_sof_shim).
 *
 * Modelled on mainline SOF's sound/soc/sof/sof-client.h (5.18+). Every symbol carries the
 * sof_shim_ prefix so that this bundle can be loaded next to the in-tree snd_sof, and every
 * export lives in the "SND_SOC_SOF_SHIM_CLIENT" namespace.
 */
#ifndef __AUXBUS_SOF_SHIM_H
#define __AUXBUS_SOF_SHIM_H

#include <linux/auxiliary_bus.h>
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/uuid.h>

struct dentry;
struct sof_shim_dev;

/* IPC wire format: a subset of SOF IPC3 (include/uapi/sound/sof/header.h), same values. */
#define SOF_SHIM_GLB_TYPE_SHIFT		28
#define SOF_SHIM_GLB_TYPE_MASK		GENMASK(31, 28)
#define SOF_SHIM_GLB_TYPE(x)		((u32)(x) << SOF_SHIM_GLB_TYPE_SHIFT)
#define SOF_SHIM_CMD_TYPE_SHIFT		16
#define SOF_SHIM_CMD_TYPE_MASK		GENMASK(27, 16)
#define SOF_SHIM_CMD_TYPE(x)		((u32)(x) << SOF_SHIM_CMD_TYPE_SHIFT)

#define SOF_SHIM_IPC_GLB_REPLY		SOF_SHIM_GLB_TYPE(0x1)
#define SOF_SHIM_IPC_GLB_FW_READY	SOF_SHIM_GLB_TYPE(0x7)
#define SOF_SHIM_IPC_GLB_TRACE_MSG	SOF_SHIM_GLB_TYPE(0x9)
#define SOF_SHIM_IPC_GLB_TEST_MSG	SOF_SHIM_GLB_TYPE(0xb)
#define SOF_SHIM_IPC_GLB_PROBE		SOF_SHIM_GLB_TYPE(0xc)

#define SOF_SHIM_IPC_TEST_IPC_FLOOD	SOF_SHIM_CMD_TYPE(0x001)
#define SOF_SHIM_IPC_TEST_NOTIFY	SOF_SHIM_CMD_TYPE(0x002)

#define SOF_SHIM_IPC_PROBE_INIT		SOF_SHIM_CMD_TYPE(0x001)
#define SOF_SHIM_IPC_PROBE_DEINIT	SOF_SHIM_CMD_TYPE(0x002)
#define SOF_SHIM_IPC_PROBE_DMA_INFO	SOF_SHIM_CMD_TYPE(0x004)
#define SOF_SHIM_IPC_PROBE_POINT_ADD	SOF_SHIM_CMD_TYPE(0x006)
#define SOF_SHIM_IPC_PROBE_POINT_INFO	SOF_SHIM_CMD_TYPE(0x007)
#define SOF_SHIM_IPC_PROBE_POINT_REMOVE	SOF_SHIM_CMD_TYPE(0x008)

/* Largest message either way, header included (SOF_IPC_MSG_MAX_SIZE). */
#define SOF_SHIM_IPC_MSG_MAX		384

/**
 * struct sof_shim_ipc_hdr - header of every IPC message
 * @size:	size of the whole message in bytes, header included
 * @cmd:	SOF_SHIM_IPC_GLB_* | command type
 */
struct sof_shim_ipc_hdr {
	u32 size;
	u32 cmd;
} __packed;

/**
 * struct sof_shim_ipc_reply - header of every reply
 * @hdr:	@hdr.cmd is SOF_SHIM_IPC_GLB_REPLY (SOF firmware answers every request so)
 * @error:	0 or a negative errno from the DSP
 */
struct sof_shim_ipc_reply {
	struct sof_shim_ipc_hdr hdr;
	s32 error;
} __packed;

/* probe IPC payloads (SOF IPC3 probes, same layout) */
struct sof_shim_probe_point_desc {
	u32 buffer_id;
	u32 purpose;
	u32 stream_tag;
} __packed;

struct sof_shim_probe_dma {
	u32 stream_tag;
	u32 dma_buffer_size;
} __packed;

struct sof_shim_ipc_probe_dma_add_params {
	struct sof_shim_ipc_hdr hdr;
	u32 num_elems;
	struct sof_shim_probe_dma dma[];
} __packed;

/* reply to PROBE_DMA_INFO and PROBE_POINT_INFO: num_elems DMAs or point descriptors */
struct sof_shim_ipc_probe_info_params {
	struct sof_shim_ipc_reply rhdr;
	u32 num_elems;
	u32 elems[];
} __packed;

struct sof_shim_ipc_probe_point_add_params {
	struct sof_shim_ipc_hdr hdr;
	u32 num_elems;
	struct sof_shim_probe_point_desc desc[];
} __packed;

struct sof_shim_ipc_probe_point_remove_params {
	struct sof_shim_ipc_hdr hdr;
	u32 num_elems;
	u32 buffer_id[];
} __packed;

/*
 * IPC4 wire format: the primary and extension words of SOF IPC4
 * (include/sound/sof/ipc4/header.h, 5.17+; 5.10 has no such header), same values, with
 * the SOF_SHIM_ prefix so that nothing here redefines the kernel's macros.
 */
#define SOF_SHIM_IPC4_MSG_TARGET_SHIFT		30
#define SOF_SHIM_IPC4_MSG_TARGET_MASK		BIT(30)
#define SOF_SHIM_IPC4_MSG_TARGET(x)		((u32)(x) << SOF_SHIM_IPC4_MSG_TARGET_SHIFT)
#define SOF_SHIM_IPC4_MSG_IS_MODULE_MSG(x)	((x) & SOF_SHIM_IPC4_MSG_TARGET_MASK ? 1 : 0)
#define SOF_SHIM_IPC4_MSG_DIR_SHIFT		29
#define SOF_SHIM_IPC4_MSG_DIR_MASK		BIT(29)
#define SOF_SHIM_IPC4_MSG_DIR(x)		((u32)(x) << SOF_SHIM_IPC4_MSG_DIR_SHIFT)
#define SOF_SHIM_IPC4_MSG_TYPE_SHIFT		24
#define SOF_SHIM_IPC4_MSG_TYPE_MASK		GENMASK(28, 24)
#define SOF_SHIM_IPC4_MSG_TYPE_SET(x)		(((u32)(x) << SOF_SHIM_IPC4_MSG_TYPE_SHIFT) & \
						 SOF_SHIM_IPC4_MSG_TYPE_MASK)
#define SOF_SHIM_IPC4_MSG_TYPE_GET(x)		(((x) & SOF_SHIM_IPC4_MSG_TYPE_MASK) >> \
						 SOF_SHIM_IPC4_MSG_TYPE_SHIFT)

/* enum sof_ipc4_msg_target, enum sof_ipc4_msg_dir */
#define SOF_SHIM_IPC4_FW_GEN_MSG		0
#define SOF_SHIM_IPC4_MODULE_MSG		1
#define SOF_SHIM_IPC4_MSG_REQUEST		0
#define SOF_SHIM_IPC4_MSG_REPLY			1

/* enum sof_ipc4_module_type: the module messages */
#define SOF_SHIM_IPC4_MOD_INIT_INSTANCE		0
#define SOF_SHIM_IPC4_MOD_LARGE_CONFIG_GET	3
#define SOF_SHIM_IPC4_MOD_LARGE_CONFIG_SET	4
#define SOF_SHIM_IPC4_MOD_DELETE_INSTANCE	11

#define SOF_SHIM_IPC4_MOD_ID_MASK		GENMASK(15, 0)
#define SOF_SHIM_IPC4_MOD_ID(x)			((u32)(x) & SOF_SHIM_IPC4_MOD_ID_MASK)
#define SOF_SHIM_IPC4_MOD_INSTANCE_SHIFT	16
#define SOF_SHIM_IPC4_MOD_INSTANCE_MASK		GENMASK(23, 16)
#define SOF_SHIM_IPC4_MOD_INSTANCE(x)		((u32)(x) << SOF_SHIM_IPC4_MOD_INSTANCE_SHIFT)

/* extension of init instance and delete instance */
#define SOF_SHIM_IPC4_MOD_EXT_PARAM_SIZE_MASK	GENMASK(15, 0)
#define SOF_SHIM_IPC4_MOD_EXT_PARAM_SIZE(x)	((u32)(x))
#define SOF_SHIM_IPC4_MOD_EXT_DST_MOD_INSTANCE(x)	((u32)(x) << 16)
#define SOF_SHIM_IPC4_MOD_EXT_CORE_ID(x)	((u32)(x) << 24)

/* extension of large config get and set */
#define SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE_MASK	GENMASK(19, 0)
#define SOF_SHIM_IPC4_MOD_EXT_MSG_SIZE(x)	((u32)(x))
#define SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID_SHIFT	20
#define SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID_MASK	GENMASK(27, 20)
#define SOF_SHIM_IPC4_MOD_EXT_MSG_PARAM_ID(x)	((u32)(x) << 20)
#define SOF_SHIM_IPC4_MOD_EXT_MSG_LAST_BLOCK_MASK	BIT(28)
#define SOF_SHIM_IPC4_MOD_EXT_MSG_LAST_BLOCK(x)	((u32)(x) << 28)
#define SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK_MASK	BIT(29)
#define SOF_SHIM_IPC4_MOD_EXT_MSG_FIRST_BLOCK(x)	((u32)(x) << 29)

/* a reply's status, in its primary word: 0 or one of the firmware's error codes */
#define SOF_SHIM_IPC4_REPLY_STATUS		GENMASK(23, 0)

/**
 * struct sof_shim_ipc4_msg - an IPC4 message (mainline's struct sof_ipc4_msg, same layout)
 * @header_u64:	both words as one number, @primary in its low half (little endian)
 * @primary:	primary word: target, direction, type, module id and instance
 * @extension:	extension word, by message type
 * @data_size:	size of the payload at @data_ptr, 0 for none
 * @data_ptr:	the payload, carried in the mailbox
 */
struct sof_shim_ipc4_msg {
	union {
		u64 header_u64;
		struct {
			u32 primary;
			u32 extension;
		};
	};
	size_t data_size;
	void *data_ptr;
};

/*
 * The IPC4 probe module (sound/soc/sof/sof-client-probes-ipc4.c). Mainline finds its module
 * id by UUID in the firmware's manifest (sof_shim_client_ipc4_find_module()); the simulated
 * firmware gives it this one unless a test changes it.
 */
#define SOF_SHIM_IPC4_PROBE_MODULE_ID		0x10
#define SOF_SHIM_IPC4_INVALID_PIPELINE_ID	0xff
#define SOF_SHIM_IPC4_DMA_HDA_HOST_INPUT	1	/* enum sof_ipc4_dma_type */
#define SOF_SHIM_IPC4_PROBE_NODE_ID_INDEX(x)	((x) & GENMASK(7, 0))
#define SOF_SHIM_IPC4_PROBE_NODE_ID_TYPE(x)	(((x) << 8) & GENMASK(12, 8))

/* enum sof_ipc4_probe_runtime_param: the probe module's large config parameters */
#define SOF_SHIM_IPC4_PROBE_INJECTION_DMA	1
#define SOF_SHIM_IPC4_PROBE_INJECTION_DMA_DETACH 2
#define SOF_SHIM_IPC4_PROBE_POINTS		3
#define SOF_SHIM_IPC4_PROBE_POINTS_DISCONNECT	4

struct sof_shim_ipc4_audio_format {
	u32 sampling_frequency;
	u32 bit_depth;
	u32 ch_map;
	u32 ch_cfg;
	u32 interleaving_style;
	u32 fmt_cfg;
} __packed __aligned(4);

struct sof_shim_ipc4_base_module_cfg {
	u32 cpc;
	u32 ibs;
	u32 obs;
	u32 is_pages;
	struct sof_shim_ipc4_audio_format audio_fmt;
} __packed __aligned(4);

struct sof_shim_ipc4_probe_gtw_cfg {
	u32 node_id;
	u32 dma_buffer_size;
} __packed __aligned(4);

/* payload of the probe module's init instance */
struct sof_shim_ipc4_probe_cfg {
	struct sof_shim_ipc4_base_module_cfg base;
	struct sof_shim_ipc4_probe_gtw_cfg gtw_cfg;
} __packed __aligned(4);

struct sof_shim_ipc4_probe_point {
	u32 point_id;
	u32 purpose;
	u32 stream_tag;
} __packed __aligned(4);

/* large config get of SOF_SHIM_IPC4_PROBE_POINTS: the connected points */
struct sof_shim_ipc4_probe_info {
	u32 num_elems;
	struct sof_shim_ipc4_probe_point points[];
} __packed;

/**
 * enum sof_shim_ipc_type - the IPC the firmware speaks (as mainline's enum sof_ipc_type)
 * @SOF_SHIM_IPC_TYPE_3:	SOF IPC3 (struct sof_shim_ipc_hdr messages)
 * @SOF_SHIM_IPC_TYPE_4:	SOF IPC4 (primary and extension words)
 */
enum sof_shim_ipc_type {
	SOF_SHIM_IPC_TYPE_3,
	SOF_SHIM_IPC_TYPE_4,
};

/**
 * enum sof_shim_fw_state - state of the simulated firmware (mainline's enum sof_fw_state,
 * every value and its number; the shim uses NOT_STARTED, IN_PROGRESS, COMPLETE and CRASHED)
 * @SOF_SHIM_FW_BOOT_NOT_STARTED:	DSP powered, nothing loaded
 * @SOF_SHIM_DSPLESS_MODE:		DSP not used (never, here)
 * @SOF_SHIM_FW_BOOT_PREPARE:		preparing for boot (never, here)
 * @SOF_SHIM_FW_BOOT_IN_PROGRESS:	(re)boot running
 * @SOF_SHIM_FW_BOOT_FAILED:		boot failed (never, here)
 * @SOF_SHIM_FW_BOOT_READY_FAILED:	booted, FW_READY refused (never, here)
 * @SOF_SHIM_FW_BOOT_READY_OK:		booted, FW_READY taken (never, here)
 * @SOF_SHIM_FW_BOOT_COMPLETE:		firmware answers IPCs
 * @SOF_SHIM_FW_CRASHED:		firmware crashed; IPCs fail with -ENODEV until reboot
 */
enum sof_shim_fw_state {
	SOF_SHIM_FW_BOOT_NOT_STARTED = 0,
	SOF_SHIM_DSPLESS_MODE,
	SOF_SHIM_FW_BOOT_PREPARE,
	SOF_SHIM_FW_BOOT_IN_PROGRESS,
	SOF_SHIM_FW_BOOT_FAILED,
	SOF_SHIM_FW_BOOT_READY_FAILED,
	SOF_SHIM_FW_BOOT_READY_OK,
	SOF_SHIM_FW_BOOT_COMPLETE,
	SOF_SHIM_FW_CRASHED,
};

/**
 * struct sof_shim_fw_version - version the simulated firmware reports
 * @major:	major version
 * @minor:	minor version
 * @micro:	micro version
 */
struct sof_shim_fw_version {
	u16 major;
	u16 minor;
	u16 micro;
};

/**
 * struct sof_shim_client_dev - SOF shim client device
 * @auxdev:	auxiliary device, named snd_sof_shim.<function>.<id>
 * @sdev:	the DSP (opaque to clients)
 * @list:	entry in the DSP's client list (owned by the parent)
 * @data:	client driver data
 */
struct sof_shim_client_dev {
	struct auxiliary_device auxdev;
	struct sof_shim_dev *sdev;
	struct list_head list;
	void *data;
};

/**
 * struct sof_shim_ipc_flood_pdata - platform data of an ipc_flood client device
 * @index:	the device's index among its DSP's ipc_flood devices (mainline's per-SOF-device
 *		id; the device's own id is unique across DSPs)
 */
struct sof_shim_ipc_flood_pdata {
	u32 index;
};

#define auxiliary_dev_to_sof_shim_client_dev(auxiliary_dev) \
	container_of(auxiliary_dev, struct sof_shim_client_dev, auxdev)

#define dev_to_sof_shim_client_dev(dev) \
	container_of(to_auxiliary_dev(dev), struct sof_shim_client_dev, auxdev)

/* client device registration (done by the parent for its firmware's functions) */
int sof_shim_client_dev_register(struct sof_shim_dev *sdev, const char *name, u32 id,
				 const void *data, size_t size);
void sof_shim_client_dev_unregister(struct sof_shim_dev *sdev, const char *name, u32 id);

/* IPC */
int sof_shim_client_ipc_tx_message(struct sof_shim_client_dev *cdev, void *ipc_msg,
				   void *reply_data, size_t reply_bytes);
static inline int sof_shim_client_ipc_tx_message_no_reply(struct sof_shim_client_dev *cdev,
							  void *ipc_msg)
{
	return sof_shim_client_ipc_tx_message(cdev, ipc_msg, NULL, 0);
}

int sof_shim_client_ipc_set_get_data(struct sof_shim_client_dev *cdev, void *ipc_msg, bool set);

size_t sof_shim_client_get_ipc_max_payload_size(struct sof_shim_client_dev *cdev);
enum sof_shim_ipc_type sof_shim_client_get_ipc_type(struct sof_shim_client_dev *cdev);
struct dentry *sof_shim_client_get_debugfs_root(struct sof_shim_client_dev *cdev);
struct device *sof_shim_client_get_dma_dev(struct sof_shim_client_dev *cdev);
const struct sof_shim_fw_version *
sof_shim_client_get_fw_version(struct sof_shim_client_dev *cdev);

/* boot the firmware if it is not running (mainline's on-demand boot) */
int sof_shim_client_boot_dsp(struct sof_shim_client_dev *cdev);

/**
 * struct sof_shim_ipc4_fw_module - a module of the IPC4 firmware (the part of mainline's
 * struct sof_ipc4_fw_module that clients read)
 * @man4_module_entry:	the module's manifest entry: its @id and @uuid
 */
struct sof_shim_ipc4_fw_module {
	struct {
		u32 id;
		guid_t uuid;
	} man4_module_entry;
};

const struct sof_shim_ipc4_fw_module *
sof_shim_client_ipc4_find_module(struct sof_shim_client_dev *cdev, const guid_t *uuid);

/* module refcount of the parent */
int sof_shim_client_core_module_get(struct sof_shim_client_dev *cdev);
void sof_shim_client_core_module_put(struct sof_shim_client_dev *cdev);

/* DSP notifications */
int sof_shim_client_ipc_rx_message(struct sof_shim_client_dev *cdev, void *ipc_msg, void *msg_buf);

typedef void (*sof_shim_client_event_callback)(struct sof_shim_client_dev *cdev, void *msg_buf);

int sof_shim_client_register_ipc_rx_handler(struct sof_shim_client_dev *cdev, u32 ipc_msg_type,
					    sof_shim_client_event_callback callback);
void sof_shim_client_unregister_ipc_rx_handler(struct sof_shim_client_dev *cdev,
					       u32 ipc_msg_type);

/*
 * firmware state: the handler runs in process context under the DSP's handler mutex, not
 * under its IPC tx mutex, so it may send IPC (as on BOOT_COMPLETE, to set the firmware up)
 */
typedef void (*sof_shim_client_fw_state_callback)(struct sof_shim_client_dev *cdev,
						  enum sof_shim_fw_state state);

int sof_shim_client_register_fw_state_handler(struct sof_shim_client_dev *cdev,
					      sof_shim_client_fw_state_callback callback);
void sof_shim_client_unregister_fw_state_handler(struct sof_shim_client_dev *cdev);
enum sof_shim_fw_state sof_shim_client_get_fw_state(struct sof_shim_client_dev *cdev);

/*
 * Probe extraction host operations, handed to the probes client as its platform data (as
 * the Intel HDA platform hands sof_probes_host_ops to mainline's probes client). The
 * stream is a struct snd_compr_stream; the tstamp is the kernel's compress timestamp
 * type (struct snd_compr_tstamp, or struct snd_compr_tstamp64 where that exists).
 */
struct snd_compr_stream;
struct snd_compr_params;
struct snd_soc_dai;

struct sof_shim_probes_host_ops {
	int (*startup)(struct sof_shim_client_dev *cdev, struct snd_compr_stream *cstream,
		       struct snd_soc_dai *dai, u32 *stream_id);
	int (*shutdown)(struct sof_shim_client_dev *cdev, struct snd_compr_stream *cstream,
			struct snd_soc_dai *dai);
	int (*set_params)(struct sof_shim_client_dev *cdev, struct snd_compr_stream *cstream,
			  struct snd_compr_params *params, struct snd_soc_dai *dai);
	int (*trigger)(struct sof_shim_client_dev *cdev, struct snd_compr_stream *cstream,
		       int cmd, struct snd_soc_dai *dai);
	int (*pointer)(struct sof_shim_client_dev *cdev, struct snd_compr_stream *cstream,
		       u64 *copied_total, u32 *byte_offset);
};

#endif /* __AUXBUS_SOF_SHIM_H */
