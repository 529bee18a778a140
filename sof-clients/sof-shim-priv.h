/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snd_sof_shim internals: one simulated SOF DSP per platform device snd_sof_shim.<ID>.
 */
#ifndef __SOF_SHIM_PRIV_H
#define __SOF_SHIM_PRIV_H

#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <auxbus/sof-shim.h>
#include <auxbus/sof-shim-probes.h>

struct dentry;
struct platform_device;

#define SOF_SHIM_DRV_NAME		"snd_sof_shim"
#define SOF_SHIM_IPC_TIMEOUT_MS		500
#define SOF_SHIM_MAX_IPC_DELAY_US	100000
#define SOF_SHIM_PM_AUTOSUSPEND_MS	200
/* the DSP's target power state on suspend, mainline's SOF_DSP_PM_D3 (enum sof_dsp_power_states) */
#define SOF_SHIM_DSP_PM_D3		3
/* fw_state changes queued for the clients' handlers; more collapse into the newest */
#define SOF_SHIM_FW_STATE_EVENTS	8
/* smallest mailbox new_device mailbox= takes: an IPC3 probe message and its reply fit */
#define SOF_SHIM_IPC_MSG_MIN		64
/* the IPC4 probe module's UUID in the firmware's manifest: mainline's */
#define SOF_SHIM_IPC4_PROBE_UUID	GUID_INIT(0x7CAD0808, 0xAB10, 0xCD23, \
						  0xEF, 0x45, 0x12, 0xAB, 0x34, 0xCD, 0x56, 0xEF)
/* largest large config parameter the simulated IPC4 firmware assembles or sends */
#define SOF_SHIM_IPC4_LARGE_CONFIG_MAX	1024

/* the IPC4 firmware status codes the simulated firmware uses (a subset of mainline's table) */
#define SOF_SHIM_IPC4_INVALID_PARAM	1
#define SOF_SHIM_IPC4_UNKNOWN_MSG_TYPE	2
#define SOF_SHIM_IPC4_OUT_OF_MEMORY	3
#define SOF_SHIM_IPC4_BUSY		4
#define SOF_SHIM_IPC4_RESOURCE_NOT_FOUND	9
#define SOF_SHIM_IPC4_RESOURCE_ID_EXISTS	10
#define SOF_SHIM_IPC4_INVALID_RESOURCE_STATE	12
#define SOF_SHIM_IPC4_MOD_INVALID_ID	110
#define SOF_SHIM_IPC4_MOD_INST_INVALID_ID	111

/* client functions a firmware image can provide */
enum sof_shim_fn {
	SOF_SHIM_FN_IPC_FLOOD,
	SOF_SHIM_FN_PROBES,
	SOF_SHIM_FN_IPC_MSG_INJECTOR,
	SOF_SHIM_FN_KERNEL_INJECTOR,
	SOF_SHIM_FN_NUM,
};

#define SOF_SHIM_FN_MAX_INSTANCES	8

/**
 * struct sof_shim_fw_config - what new_device asked for, the "firmware image"
 * @num_clients:	instances of each enum sof_shim_fn the firmware advertises
 * @ipc_delay_us:	time the DSP takes to answer one IPC
 * @ipc_type:		the IPC the firmware speaks (new_device ipc=3 or ipc=4)
 * @mailbox_bytes:	size of each mailbox, the largest message or reply (new_device mailbox=)
 * @fw_inline:		the firmware answers in the sender's context (new_device fw_inline=1)
 */
struct sof_shim_fw_config {
	u32 num_clients[SOF_SHIM_FN_NUM];
	u32 ipc_delay_us;
	enum sof_shim_ipc_type ipc_type;
	u32 mailbox_bytes;
	bool fw_inline;
};

/**
 * struct sof_shim_ipc4_large_config - the IPC4 firmware's large config transfer in progress
 * @active:	a set or get has started (its first block came) and not ended
 * @set:	the transfer is a set
 * @module_id:	module and instance (the primary's low 24 bits) it is for
 * @param_id:	the parameter
 * @size:	the parameter's whole size
 * @offset:	bytes of it moved so far
 * @buf:	the parameter
 */
struct sof_shim_ipc4_large_config {
	bool active;
	bool set;
	u32 module_id;
	u32 param_id;
	u32 size;
	u32 offset;
	u8 buf[SOF_SHIM_IPC4_LARGE_CONFIG_MAX];
};

struct sof_shim_probe_point {
	u32 buffer_id;
	u32 purpose;
	u32 stream_tag;
	u64 seq;
};

/* DSP side of probes, and the extraction "DMA" into the compress buffer */
struct sof_shim_probes_dsp {
	spinlock_t lock;		/* points, generator state */
	bool inited;
	u32 stream_tag;
	u32 buffer_size;
	u32 num_points;
	struct sof_shim_probe_point points[SOF_SHIM_PROBE_MAX_POINTS];

	/* packet being emitted */
	bool cur_valid;
	u32 cur_buffer_id;
	u32 cur_format;
	u64 cur_seq;
	u32 cur_checksum;
	u32 cur_pos;			/* byte within the packet */
	bool have_last;
	u32 last_buffer_id;		/* point of the last complete packet */

	/* host side extractor stream */
	struct mutex stream_mutex;	/* cstream, running, xrun */
	struct snd_compr_stream *cstream;
	bool running;
	bool xrun;			/* stopped by a crash, not reported to ALSA yet */
	u64 produced;			/* bytes written into the ring, release/acquire */
	ktime_t dma_start;		/* the DMA's clock: it owes rate * (now - dma_start) */
	u64 dma_start_produced;		/* bytes written since dma_start */
	struct delayed_work work;
};

/* a DSP notification on its way to the clients (sof-shim-fw.c to sof-shim-ipc.c) */
struct sof_shim_rx_msg {
	struct list_head list;
	u32 boot_gen;		/* firmware instance that sent it */
	size_t bytes;
	u8 data[];
};

/**
 * struct sof_shim_ipc_msg - the one IPC message in flight (SOF's struct snd_sof_ipc_msg)
 * @msg_data:		the request, in its sender's memory
 * @reply_data:		the reply as get_reply() read it from the mailbox
 * @msg_size:		size of @msg_data
 * @reply_size:		size of the reply the sender expects (shrunk to a shorter reply)
 * @reply_error:	0, the DSP's error from the reply, or why get_reply() refused it
 * @waitq:		the sender waits here for @ipc_complete
 * @ipc_complete:	set by the reply "interrupt" (snd_sof_ipc_reply())
 */
struct sof_shim_ipc_msg {
	void *msg_data;
	void *reply_data;
	size_t msg_size;
	size_t reply_size;
	int reply_error;
	wait_queue_head_t waitq;
	bool ipc_complete;
};

/**
 * struct sof_shim_ipc - the host's IPC (SOF's struct snd_sof_ipc)
 * @tx_mutex:		serialises senders: one message in flight
 * @disable_ipc_tx:	set when the DSP goes away: no more messages
 * @max_payload_size:	largest message or reply, header included
 * @msg:		the message in flight
 */
struct sof_shim_ipc {
	struct mutex tx_mutex;		/* one message in flight */
	bool disable_ipc_tx;
	size_t max_payload_size;
	struct sof_shim_ipc_msg msg;
};

struct sof_shim_dev {
	struct device *dev;
	u32 id;
	struct sof_shim_fw_config fw;
	struct sof_shim_fw_version fw_version;
	enum sof_shim_fw_state fw_state;
	struct dentry *debugfs_root;

	/* clients */
	struct mutex client_mutex;		/* client_list, clients_rpm_disabled */
	struct list_head client_list;
	bool clients_rpm_disabled;		/* debugfs clients_rpm_disabled */
	struct mutex client_event_handler_mutex;	/* both handler lists */
	struct list_head ipc_rx_handler_list;
	struct list_head fw_state_handler_list;

	/*
	 * Host IPC, as SOF's: senders take ipc.tx_mutex, put their message into the DSP's
	 * mailbox (dsp_box) and ring its doorbell under ipc_lock, and sleep on ipc.msg.waitq. The
	 * DSP answers into host_box and raises the reply interrupt, whose thread reads the reply
	 * (get_reply) and wakes the sender. No answer within SOF_SHIM_IPC_TIMEOUT_MS is a firmware
	 * exception: the firmware is marked crashed.
	 */
	struct sof_shim_ipc ipc;
	/* ipc.msg, msg, fw_state, fw_hung, fw_boot_gen, fw_handled, the mailbox and doorbells */
	spinlock_t ipc_lock;
	struct sof_shim_ipc_msg *msg;	/* the message a reply belongs to; NULL when none */
	bool fw_hung;			/* the DSP takes messages and never answers */

	/* the mailbox: dsp_box host -> DSP, host_box DSP -> host (SOF's names) */
	size_t dsp_box_bytes;
	u8 dsp_box[SOF_SHIM_IPC_MSG_MAX];
	u8 host_box[SOF_SHIM_IPC_MSG_MAX];
	u8 reply_buf[SOF_SHIM_IPC_MSG_MAX];	/* ipc.msg.reply_data */
	u32 dsp_primary;		/* IPC4 host -> DSP: the doorbell registers */
	u32 dsp_extension;
	u32 host_primary;		/* IPC4 DSP -> host: the reply's registers */
	u32 host_extension;
	size_t host_box_bytes;		/* IPC4: payload of the reply in host_box */
	struct sof_shim_ipc4_msg ipc4_reply;	/* IPC4: ipc.msg.reply_data */
	struct sof_shim_ipc4_large_config ipc4_lc;	/* the DSP's, under ipc_lock */
	/*
	 * The IPC4 firmware's manifest: its one module, the probe module, by mainline's UUID.
	 * For tests, debugfs ipc4_probe_module_id and ipc4_probe_module_listed change the id it
	 * has, or leave it out of the firmware.
	 */
	struct sof_shim_ipc4_fw_module ipc4_probe_module;
	bool ipc4_probe_module_listed;
	bool dsp_doorbell;		/* host -> DSP: a message is in dsp_box */
	bool host_irq;			/* DSP -> host: a reply is in host_box */

	/* the DSP core */
	struct task_struct *dsp_thread;
	u32 ipc_delay_us;
	u32 fw_boot_gen;		/* firmware instance: one more on every crash or stop */
	u64 fw_handled;			/* messages this instance acted on */
	/* fw_state changes the clients have yet to hear (under ipc_lock) */
	u8 fw_state_events[SOF_SHIM_FW_STATE_EVENTS];
	unsigned int fw_state_events_head;
	unsigned int fw_state_events_len;
	bool fw_state_notifying;	/* a caller is handing them to the clients */

	/* DSP -> host notifications */
	spinlock_t rx_lock;
	struct list_head rx_queue;
	struct work_struct rx_work;

	struct sof_shim_probes_dsp probes;

	/* counters, read through sysfs ipc_stats */
	atomic64_t stat_tx;
	atomic64_t stat_mismatch;	/* replies get_reply() refused */
	atomic64_t stat_timeout;
	atomic64_t stat_dsp_reject;
	atomic64_t stat_rx;
	atomic64_t stat_dropped;	/* taken or sent by a firmware that crashed since */
	atomic_t stat_runtime_suspend;
	atomic_t stat_runtime_resume;
	atomic_t stat_system_suspend;
	atomic_t stat_system_resume;
	bool powered;

	struct mutex state_mutex;	/* fw_state changes from the control files */
};

/* sof-shim-core.c */
int sof_shim_probe(struct platform_device *pdev);
void sof_shim_set_fw_state(struct sof_shim_dev *sdev, enum sof_shim_fw_state new_state);
void sof_shim_fw_state_notify(struct sof_shim_dev *sdev);
void sof_shim_handle_fw_exception(struct sof_shim_dev *sdev, const char *msg);
int sof_shim_fw_boot(struct sof_shim_dev *sdev);

/* sof-shim-bus.c */
extern struct dentry *sof_shim_debugfs_top;

/* sof-shim-pm.c */
int sof_shim_dsp_power_up(struct sof_shim_dev *sdev);
void sof_shim_dsp_power_down(struct sof_shim_dev *sdev);
extern const struct dev_pm_ops sof_shim_pm_ops;

/* sof-shim-ipc.c */
int sof_shim_dsp_start(struct sof_shim_dev *sdev);
void sof_shim_dsp_stop(struct sof_shim_dev *sdev);
int sof_shim_ipc_tx_message(struct sof_shim_dev *sdev, void *msg_data, size_t msg_bytes,
			    void *reply_data, size_t reply_bytes);
int sof_shim_ipc_tx_msg_unlocked(struct sof_shim_dev *sdev, void *msg_data, size_t msg_bytes,
				 void *reply_data, size_t reply_bytes);
void sof_shim_ipc_tx_unlock(struct sof_shim_dev *sdev);
void sof_shim_ipc_irq_thread(struct sof_shim_dev *sdev);

/* sof-shim-fw.c */
int sof_shim_dsp_thread(void *data);
void sof_shim_dsp_take_msg(struct sof_shim_dev *sdev);
void sof_shim_fw_crash(struct sof_shim_dev *sdev);
int sof_shim_fw_hang(struct sof_shim_dev *sdev);
int sof_shim_dsp_notify(struct sof_shim_dev *sdev, u32 cmd, const void *payload, size_t bytes);

/* sof-shim-ipc4.c */
int sof_shim_ipc4_check_msg(struct sof_shim_dev *sdev, const struct sof_shim_ipc4_msg *msg,
			    size_t msg_bytes);
int sof_shim_ipc4_get_reply(struct sof_shim_dev *sdev);
void sof_shim_ipc4_copy_reply(struct sof_shim_dev *sdev, void *reply_data);
int sof_shim_ipc4_set_get_data(struct sof_shim_dev *sdev, struct sof_shim_ipc4_msg *msg,
			       size_t payload_bytes, bool set);

/* sof-shim-fw-ipc4.c */
void sof_shim_ipc4_dsp_handle(struct sof_shim_dev *sdev);

/* sof-shim-client.c */
int sof_shim_register_clients(struct sof_shim_dev *sdev);
void sof_shim_unregister_clients(struct sof_shim_dev *sdev);
int sof_shim_suspend_clients(struct sof_shim_dev *sdev, pm_message_t state);
int sof_shim_resume_clients(struct sof_shim_dev *sdev);
void sof_shim_client_devs_wait(void);
void sof_shim_client_ida_destroy(void);

/* sof-shim-client-ipc.c */
void sof_shim_client_ipc_rx_dispatcher(struct sof_shim_dev *sdev, void *msg_buf);
void sof_shim_client_fw_state_dispatcher(struct sof_shim_dev *sdev,
					 enum sof_shim_fw_state state);

/* sof-shim-fw-probes.c */
void sof_shim_probes_reset(struct sof_shim_dev *sdev);
int sof_shim_probes_ipc(struct sof_shim_dev *sdev, const void *req, void *reply,
			size_t *reply_bytes);
int sof_shim_probes_ipc4(struct sof_shim_dev *sdev, u32 type, const void *data, size_t bytes);
int sof_shim_probes_ipc4_set(struct sof_shim_dev *sdev, u32 param_id, const void *data,
			     size_t bytes);
int sof_shim_probes_ipc4_get(struct sof_shim_dev *sdev, u32 param_id, void *data, u32 *bytes);

/* sof-shim-hda-probes.c */
void sof_shim_probes_init(struct sof_shim_dev *sdev);
void sof_shim_probes_cleanup(struct sof_shim_dev *sdev);
extern const struct sof_shim_probes_host_ops sof_shim_probes_host_ops;

#endif /* __SOF_SHIM_PRIV_H */
