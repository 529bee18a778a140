/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snd_sof_shim_probes: the probe module's messages, one set per IPC version, as mainline's
 * sound/soc/sof/sof-client-probes.h, and the client's own data its files share.
 */
#ifndef __SOF_CLIENT_PROBES_H
#define __SOF_CLIENT_PROBES_H

#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <sound/soc.h>
#include <auxbus/sof-shim.h>

/**
 * struct sof_probes_ipc_ops - the probe module's messages (mainline's struct
 * sof_probes_ipc_ops)
 * @init:		create the probe module with its extraction DMA (stream tag, buffer size)
 * @deinit:		delete it; fails while points are connected
 * @points_info:	the connected points; *desc (kmalloc'ed, the caller frees it) when
 *			*num_desc > 0
 * @points_add:		connect points, all or none
 * @points_remove:	disconnect points by buffer id, all or none
 *
 * Each returns 0 or a negative errno.
 */
struct sof_probes_ipc_ops {
	int (*init)(struct sof_shim_client_dev *cdev, u32 stream_tag, size_t buffer_size);
	int (*deinit)(struct sof_shim_client_dev *cdev);
	int (*points_info)(struct sof_shim_client_dev *cdev,
			   struct sof_shim_probe_point_desc **desc, size_t *num_desc);
	int (*points_add)(struct sof_shim_client_dev *cdev,
			  const struct sof_shim_probe_point_desc *desc, size_t num_desc);
	int (*points_remove)(struct sof_shim_client_dev *cdev, const u32 *buffer_id,
			     size_t num_buffer_id);
};

#define SOF_PROBES_INVALID_NODE_ID	UINT_MAX

/**
 * struct sof_probes_dfs_file - a probe points debugfs file (its private data)
 * @cdev:		the client
 * @tkns_per_elem:	how many tokens of a write make one element
 * @send:		sends the elements of a write to the DSP
 */
struct sof_probes_dfs_file {
	struct sof_shim_client_dev *cdev;
	size_t tkns_per_elem;
	int (*send)(struct sof_shim_client_dev *cdev, const u32 *tkns, size_t num_elems);
};

struct sof_probes_priv {
	struct sof_probes_dfs_file points_file;
	struct sof_probes_dfs_file points_remove_file;
	struct dentry *dfs_points;
	struct dentry *dfs_points_remove;
	u32 extractor_stream_tag;
	struct mutex stream_lock;	/* cstream, disconnected */
	struct snd_compr_stream *cstream;
	bool disconnected;
	wait_queue_head_t close_wq;
	struct snd_soc_card card;
	struct snd_soc_dai_link link;
	struct snd_soc_dai_link_component cpu;
	struct snd_soc_dai_link_component codec;
	struct snd_soc_dai_link_component platform;

	const struct sof_shim_probes_host_ops *host_ops;
	const struct sof_probes_ipc_ops *ipc_ops;
	const void *ipc_priv;		/* IPC4: the probe module's manifest entry, once found */
};

extern const struct sof_probes_ipc_ops ipc3_probe_ops;
extern const struct sof_probes_ipc_ops ipc4_probe_ops;

/* sof-client-probes-debugfs.c */
extern const struct file_operations sof_probes_points_fops;
extern const struct file_operations sof_probes_points_remove_fops;
int sof_probes_points_add_tkns(struct sof_shim_client_dev *cdev, const u32 *tkns, size_t num);
int sof_probes_points_remove_tkns(struct sof_shim_client_dev *cdev, const u32 *tkns, size_t num);

#endif /* __SOF_CLIENT_PROBES_H */
