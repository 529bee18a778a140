/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snd_sof_shim_probes: the probe module's messages, one set per IPC version, as mainline's
 * sound/soc/sof/sof-client-probes.h.
 */
#ifndef __SOF_CLIENT_PROBES_H
#define __SOF_CLIENT_PROBES_H

#include <linux/types.h>
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

extern const struct sof_probes_ipc_ops ipc3_probe_ops;
extern const struct sof_probes_ipc_ops ipc4_probe_ops;

#endif /* __SOF_CLIENT_PROBES_H */
