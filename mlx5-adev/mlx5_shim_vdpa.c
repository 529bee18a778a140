// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_vdpa: vDPA (virtio net) client of mlx5_shim_core.
 *
 * Binds mlx5_shim_core.vnet.<id>. Its module name and id table never match mainline's
 * mlx5_vdpa (alias auxiliary:mlx5_core.vnet), and mlx5_vdpa never matches our devices.
 *
 * Where the target kernel has CONFIG_VDPA it registers a vdpa management device for each
 * device it binds, as mainline's vdpa_sim_net does: `vdpa mgmtdev show` lists it as
 * <bus>/mlx5_shim_core.vnet.<id> (class net), and `vdpa dev add name NAME mgmtdev ...
 * [mac M] [mtu N]` creates a virtio-net vdpa device on it (default MAC: the function's),
 * `vdpa dev del NAME` removes it. The device keeps its virtqueues' addresses, sizes,
 * readiness and state, features and status, as a vdpa parent must.
 *
 * Data path: with virtio_vdpa and virtio_net the vdpa device is a netdev. Where its
 * function has no eth capability when the device is added (caps=vnet), the first vdpa
 * device of the function takes the function's end of the shim's wire (the core decides,
 * and refuses eth in the function's caps while it has it) and reports its link up: the
 * device processes its split virtqueues itself, as a NIC's DMA engine does (queue 0
 * receives, queue 1 transmits; no offloads, no mergeable buffers, so every frame is one
 * chain with the 12-byte virtio-net header first), and frames cross the wire to the
 * peer port. Its rings and buffers are DMA addresses of its own DMA device, which has no
 * IOMMU: dma_to_phys() and the kernel's direct map reach them. Other vdpa devices (a
 * function with an Ethernet netdev, one whose wire is taken, single-port adapters) report
 * their link down and drop what they are given.
 * Where the kernel has no CONFIG_VDPA, or a vdpa core older than the API of v5.19 it is
 * written for (AUXBUS_HAVE_VDPA_GROUPS), it still builds and binds, registers nothing, and
 * says so in its log and its modinfo description.
 *
 * Either way it reports what it sees in sysfs, in the bound device's directory:
 * vdpa_port, vdpa_guid, vdpa_mac, vdpa_esw_mode, vdpa_events, vdpa_state, vdpa_pm.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#if IS_ENABLED(CONFIG_VDPA) && defined(AUXBUS_HAVE_VDPA_GROUPS)
#define MLX5_SHIM_VDPA
#endif

#ifdef MLX5_SHIM_VDPA
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/refcount.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vdpa.h>
#include <linux/virtio_byteorder.h>
#include <linux/virtio_config.h>
#include <linux/workqueue.h>
#include <uapi/linux/vdpa.h>
#include <uapi/linux/virtio_ids.h>
#include <uapi/linux/virtio_net.h>
#include <uapi/linux/virtio_ring.h>
#endif

#include "mlx5_shim.h"
#include "mlx5_shim_client.h"

#ifdef MLX5_SHIM_VDPA

#define MLX5_SHIM_VNET_VQS	2		/* one receive and one transmit queue */
#define MLX5_SHIM_VNET_RXQ	0
#define MLX5_SHIM_VNET_TXQ	1
#define MLX5_SHIM_VNET_HDR_LEN	sizeof(struct virtio_net_hdr_mrg_rxbuf)	/* VERSION_1 */
#define MLX5_SHIM_VNET_BACKLOG	256		/* frames from the wire waiting for buffers */
#define MLX5_SHIM_VNET_BUDGET	64		/* chains per queue per work run */
#define MLX5_SHIM_VNET_VQ_MAX	256
#define MLX5_SHIM_VNET_VENDOR	0x15b3		/* Mellanox, as mlx5_vdpa */
#define MLX5_SHIM_VNET_FEATURES	(BIT_ULL(VIRTIO_F_VERSION_1) |			\
				 BIT_ULL(VIRTIO_F_ACCESS_PLATFORM) |		\
				 BIT_ULL(VIRTIO_NET_F_MAC) |			\
				 BIT_ULL(VIRTIO_NET_F_MTU) |			\
				 BIT_ULL(VIRTIO_NET_F_STATUS))

/**
 * struct mlx5_shim_vnet - the vdpa management device of a bound vnet device
 * @mgtdev: registered from probe to remove
 * @id_table: the virtio devices it can create: net
 * @mac: the function's MAC, the default of new devices
 * @madev: the bound vnet device
 */
struct mlx5_shim_vnet {
	struct vdpa_mgmt_dev mgtdev;
	struct virtio_device_id id_table[2];
	u8 mac[ETH_ALEN];
	struct mlx5_shim_adev *madev;
};

struct mlx5_shim_vnet_vq {
	u64 desc_addr;
	u64 driver_addr;
	u64 device_addr;
	u32 num;
	bool ready;
	u16 avail_index;
	u16 used_index;
	struct vdpa_callback cb;
};

/**
 * struct mlx5_shim_vnet_dev - a virtio-net vdpa device made by `vdpa dev add`
 * @vdpa: the vdpa device; freed by its release once _vdpa_unregister_device() drops it
 * @lock: guards everything below against the vdpa core's and the driver's calls
 * @status: virtio device status
 * @features: negotiated features
 * @generation: config generation
 * @config: virtio-net config space, little endian (VIRTIO_F_VERSION_1)
 * @vqs: the virtqueues' state; the rings are read and written by @work under @lock
 * @madev: the vnet device whose wire it uses, when @wired
 * @wired: attached to the function's wire (mlx5_shim_wire_attach()) from add to del
 * @work: processes the rings: transmits what the driver queued, receives @backlog
 * @backlog: frames from the wire, until the driver gives receive buffers
 */
struct mlx5_shim_vnet_dev {
	struct vdpa_device vdpa;
	spinlock_t lock;		/* guards the fields below */
	u8 status;
	u64 features;
	u32 generation;
	struct virtio_net_config config;
	struct mlx5_shim_vnet_vq vqs[MLX5_SHIM_VNET_VQS];
	struct mlx5_shim_adev *madev;
	bool wired;
	struct work_struct work;
	struct sk_buff_head backlog;
};

/*
 * vdpa devices whose release has not run: it calls mlx5_shim_vnet_free() through our config
 * ops, and a device's last reference can go after `vdpa dev del` returned (an open sysfs file,
 * CONFIG_DEBUG_KOBJECT_RELEASE), so module exit waits for them, as mlx5_shim_core waits for
 * its objects: one reference for the module, one per device.
 */
static refcount_t mlx5_shim_vnet_devs = REFCOUNT_INIT(1);
static DECLARE_COMPLETION(mlx5_shim_vnet_devs_released);

static void mlx5_shim_vnet_devs_put(void)
{
	if (refcount_dec_and_test(&mlx5_shim_vnet_devs))
		complete(&mlx5_shim_vnet_devs_released);
}

static void mlx5_shim_vnet_wait_released(void)
{
	mlx5_shim_vnet_devs_put();
	wait_for_completion(&mlx5_shim_vnet_devs_released);
}

static struct mlx5_shim_vnet_dev *to_vnet_dev(struct vdpa_device *vdpa)
{
	return container_of(vdpa, struct mlx5_shim_vnet_dev, vdpa);
}

static void mlx5_shim_vnet_reset_locked(struct mlx5_shim_vnet_dev *vd)
{
	memset(vd->vqs, 0, sizeof(vd->vqs));
	vd->status = 0;
	vd->features = 0;
	vd->generation++;
}

/*
 * Reset: the driver frees its rings once we return, so wait for a work run that may be
 * reading them; runs after this one see no DRIVER_OK and leave the rings alone.
 */
static void mlx5_shim_vnet_reset_sync(struct mlx5_shim_vnet_dev *vd)
{
	spin_lock(&vd->lock);
	mlx5_shim_vnet_reset_locked(vd);
	spin_unlock(&vd->lock);
	flush_work(&vd->work);
	skb_queue_purge(&vd->backlog);
}

/* ---- the data path: the device's side of its split virtqueues --------------------- */

/* ring memory and buffers: DMA addresses of our own DMA device, which has no IOMMU */
static void *mlx5_shim_vnet_va(struct mlx5_shim_vnet_dev *vd, u64 addr)
{
	return phys_to_virt(dma_to_phys(&vd->vdpa.dev, addr));
}

/* The head of the next chain the driver made available, or -ENOENT; -EIO if the ring lies. */
static int mlx5_shim_vnet_vq_pop(struct mlx5_shim_vnet_dev *vd, struct mlx5_shim_vnet_vq *vq,
				 u16 *head)
{
	struct vring_avail *avail = mlx5_shim_vnet_va(vd, vq->driver_addr);
	u16 idx = le16_to_cpu((__force __le16)READ_ONCE(avail->idx));

	if (idx == vq->avail_index)
		return -ENOENT;
	if ((u16)(idx - vq->avail_index) > vq->num)
		return -EIO;
	/* the ring entry after the index the driver published, as virtio_rmb() */
	smp_rmb();
	*head = le16_to_cpu((__force __le16)avail->ring[vq->avail_index % vq->num]);
	vq->avail_index++;
	return *head < vq->num ? 0 : -EIO;
}

/* give a chain back: @len bytes written into it */
static void mlx5_shim_vnet_vq_push(struct mlx5_shim_vnet_dev *vd, struct mlx5_shim_vnet_vq *vq,
				   u16 head, u32 len)
{
	struct vring_used *used = mlx5_shim_vnet_va(vd, vq->device_addr);
	struct vring_used_elem *e = &used->ring[vq->used_index % vq->num];

	e->id = (__force __virtio32)cpu_to_le32(head);
	e->len = (__force __virtio32)cpu_to_le32(len);
	/* the element before the index that publishes it, as virtio_wmb() */
	smp_wmb();
	vq->used_index++;
	WRITE_ONCE(used->idx, (__force __virtio16)cpu_to_le16(vq->used_index));
}

/*
 * Walk the chain at @head: call @fn on each buffer whose direction is @write (a buffer of
 * the other direction is a malformed chain). Return: the bytes @fn took, or -EIO.
 */
static int mlx5_shim_vnet_chain(struct mlx5_shim_vnet_dev *vd, struct mlx5_shim_vnet_vq *vq,
				u16 head, bool write,
				int (*fn)(void *buf, u32 len, u32 off, void *arg), void *arg)
{
	struct vring_desc *desc = mlx5_shim_vnet_va(vd, vq->desc_addr);
	u32 off = 0, n = 0;
	u16 i = head, flags;
	int took;

	for (;;) {
		struct vring_desc d;

		if (i >= vq->num || ++n > vq->num)
			return -EIO;
		memcpy(&d, &desc[i], sizeof(d));
		flags = le16_to_cpu((__force __le16)d.flags);
		if (!!(flags & VRING_DESC_F_WRITE) != write || (flags & VRING_DESC_F_INDIRECT))
			return -EIO;
		took = fn(mlx5_shim_vnet_va(vd, le64_to_cpu((__force __le64)d.addr)),
			  le32_to_cpu((__force __le32)d.len), off, arg);
		if (took < 0)
			return took;
		off += took;
		if (!(flags & VRING_DESC_F_NEXT))
			return off;
		i = le16_to_cpu((__force __le16)d.next);
	}
}

/* transmit: gather a chain, header first, into @arg's skb (NULL on the sizing pass) */
static int mlx5_shim_vnet_gather(void *buf, u32 len, u32 off, void *arg)
{
	struct sk_buff *skb = arg;
	u32 skip = off < MLX5_SHIM_VNET_HDR_LEN ? min(len, (u32)MLX5_SHIM_VNET_HDR_LEN - off) : 0;

	if (skb) {
		if (len - skip > skb_tailroom(skb))
			return -EIO;
		skb_put_data(skb, buf + skip, len - skip);
	}
	return len;
}

/* receive: scatter the header and then @arg's frame into a chain of buffers */
struct mlx5_shim_vnet_rx {
	struct sk_buff *skb;
	u32 copied;
};

static int mlx5_shim_vnet_scatter(void *buf, u32 len, u32 off, void *arg)
{
	struct mlx5_shim_vnet_rx *rx = arg;
	struct virtio_net_hdr_mrg_rxbuf hdr = {
		.num_buffers = (__force __virtio16)cpu_to_le16(1),
	};
	u32 n, done = 0;

	if (off < sizeof(hdr)) {
		done = min(len, (u32)sizeof(hdr) - off);
		memcpy(buf, (u8 *)&hdr + off, done);
	}
	n = min(len - done, rx->skb->len - rx->copied);
	if (n && skb_copy_bits(rx->skb, rx->copied, buf + done, n))
		return -EIO;
	rx->copied += n;
	return done + n;
}

/* the driver's interrupt: virtio_net schedules NAPI, which runs when BHs are enabled again */
static void mlx5_shim_vnet_notify(struct vdpa_callback *cb)
{
	if (!cb->callback)
		return;
	local_bh_disable();
	cb->callback(cb->private);
	local_bh_enable();
}

static void mlx5_shim_vnet_tx(struct mlx5_shim_vnet_dev *vd)
{
	struct vdpa_callback cb;
	struct mlx5_shim_vnet_vq *vq = &vd->vqs[MLX5_SHIM_VNET_TXQ];
	unsigned int budget = MLX5_SHIM_VNET_BUDGET;
	struct sk_buff *skb;
	bool done = false;
	int len, err;
	u16 head;

	while (budget--) {
		spin_lock(&vd->lock);
		if (!(vd->status & VIRTIO_CONFIG_S_DRIVER_OK) || !vq->ready) {
			spin_unlock(&vd->lock);
			break;
		}
		err = mlx5_shim_vnet_vq_pop(vd, vq, &head);
		if (err) {
			spin_unlock(&vd->lock);
			if (err != -ENOENT)
				dev_err_ratelimited(&vd->vdpa.dev, "transmit ring: bad index\n");
			break;
		}
		skb = NULL;
		len = mlx5_shim_vnet_chain(vd, vq, head, false, mlx5_shim_vnet_gather, NULL);
		if (len >= (int)(MLX5_SHIM_VNET_HDR_LEN + ETH_HLEN) &&
		    len <= (int)(MLX5_SHIM_VNET_HDR_LEN + VLAN_ETH_HLEN + ETH_MAX_MTU)) {
			skb = alloc_skb(len - MLX5_SHIM_VNET_HDR_LEN, GFP_ATOMIC);
			if (skb && mlx5_shim_vnet_chain(vd, vq, head, false,
							mlx5_shim_vnet_gather, skb) < 0) {
				kfree_skb(skb);
				skb = NULL;
			}
		} else {
			dev_err_ratelimited(&vd->vdpa.dev, "transmit chain %u: %d bytes\n",
					    head, len);
		}
		mlx5_shim_vnet_vq_push(vd, vq, head, 0);
		cb = vq->cb;
		spin_unlock(&vd->lock);
		done = true;
		if (!skb)
			continue;
		if (!vd->wired) {
			kfree_skb(skb);
			continue;
		}
		local_bh_disable();
		mlx5_shim_wire_xmit(vd->madev, skb);	/* dropped when a link is down */
		local_bh_enable();
	}
	if (done)
		mlx5_shim_vnet_notify(&cb);
	if (budget == UINT_MAX)		/* more may be waiting */
		schedule_work(&vd->work);
}

static void mlx5_shim_vnet_rx(struct mlx5_shim_vnet_dev *vd)
{
	struct vdpa_callback cb;
	struct mlx5_shim_vnet_vq *vq = &vd->vqs[MLX5_SHIM_VNET_RXQ];
	unsigned int budget = MLX5_SHIM_VNET_BUDGET;
	struct mlx5_shim_vnet_rx rx;
	bool done = false;
	int len, err;
	u16 head;

	while (budget-- && (rx.skb = skb_peek(&vd->backlog))) {
		spin_lock(&vd->lock);
		if (!(vd->status & VIRTIO_CONFIG_S_DRIVER_OK) || !vq->ready) {
			spin_unlock(&vd->lock);
			break;
		}
		err = mlx5_shim_vnet_vq_pop(vd, vq, &head);
		if (err) {	/* -ENOENT: no buffer; the driver's next kick brings us back */
			spin_unlock(&vd->lock);
			if (err != -ENOENT)
				dev_err_ratelimited(&vd->vdpa.dev, "receive ring: bad index\n");
			break;
		}
		rx.copied = 0;
		len = mlx5_shim_vnet_chain(vd, vq, head, true, mlx5_shim_vnet_scatter, &rx);
		if (len < 0 || rx.copied != rx.skb->len) {
			dev_err_ratelimited(&vd->vdpa.dev, "receive chain %u: %d bytes for %u\n",
					    head, len, rx.skb->len);
			len = 0;
		}
		mlx5_shim_vnet_vq_push(vd, vq, head, len);
		cb = vq->cb;
		spin_unlock(&vd->lock);
		done = true;
		consume_skb(skb_dequeue(&vd->backlog));
	}
	if (done)
		mlx5_shim_vnet_notify(&cb);
	if (budget == UINT_MAX && !skb_queue_empty(&vd->backlog))
		schedule_work(&vd->work);
}

static void mlx5_shim_vnet_work(struct work_struct *work)
{
	struct mlx5_shim_vnet_dev *vd = container_of(work, struct mlx5_shim_vnet_dev, work);

	mlx5_shim_vnet_tx(vd);
	mlx5_shim_vnet_rx(vd);
}

/* the receiving end of the wire: softirq, under RCU */
static void mlx5_shim_vnet_wire_rx(void *ctx, struct sk_buff *skb)
{
	struct mlx5_shim_vnet_dev *vd = ctx;

	if (skb_queue_len(&vd->backlog) >= MLX5_SHIM_VNET_BACKLOG) {
		kfree_skb(skb);
		return;
	}
	skb_queue_tail(&vd->backlog, skb);
	schedule_work(&vd->work);
}

static int mlx5_shim_vnet_set_vq_address(struct vdpa_device *vdpa, u16 idx, u64 desc_area,
					 u64 driver_area, u64 device_area)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (idx >= MLX5_SHIM_VNET_VQS)
		return -EINVAL;
	spin_lock(&vd->lock);
	vd->vqs[idx].desc_addr = desc_area;
	vd->vqs[idx].driver_addr = driver_area;
	vd->vqs[idx].device_addr = device_area;
	spin_unlock(&vd->lock);
	return 0;
}

static void mlx5_shim_vnet_set_vq_num(struct vdpa_device *vdpa, u16 idx, u32 num)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (idx >= MLX5_SHIM_VNET_VQS)
		return;
	spin_lock(&vd->lock);
	vd->vqs[idx].num = num;
	spin_unlock(&vd->lock);
}

/* may be called in softirq context (virtio_net's start_xmit, NAPI's refill) */
static void mlx5_shim_vnet_kick_vq(struct vdpa_device *vdpa, u16 idx)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (idx < MLX5_SHIM_VNET_VQS)
		schedule_work(&vd->work);
}

static void mlx5_shim_vnet_set_vq_cb(struct vdpa_device *vdpa, u16 idx,
				     struct vdpa_callback *cb)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (idx >= MLX5_SHIM_VNET_VQS)
		return;
	spin_lock(&vd->lock);
	vd->vqs[idx].cb = *cb;
	spin_unlock(&vd->lock);
}

static void mlx5_shim_vnet_set_vq_ready(struct vdpa_device *vdpa, u16 idx, bool ready)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (idx >= MLX5_SHIM_VNET_VQS)
		return;
	spin_lock(&vd->lock);
	vd->vqs[idx].ready = ready;
	spin_unlock(&vd->lock);
}

static bool mlx5_shim_vnet_get_vq_ready(struct vdpa_device *vdpa, u16 idx)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);
	bool ready;

	if (idx >= MLX5_SHIM_VNET_VQS)
		return false;
	spin_lock(&vd->lock);
	ready = vd->vqs[idx].ready;
	spin_unlock(&vd->lock);
	return ready;
}

static int mlx5_shim_vnet_set_vq_state(struct vdpa_device *vdpa, u16 idx,
				       const struct vdpa_vq_state *state)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (idx >= MLX5_SHIM_VNET_VQS)
		return -EINVAL;
	spin_lock(&vd->lock);
	vd->vqs[idx].avail_index = state->split.avail_index;
	vd->vqs[idx].used_index = state->split.avail_index;	/* as vdpa_sim */
	spin_unlock(&vd->lock);
	return 0;
}

static int mlx5_shim_vnet_get_vq_state(struct vdpa_device *vdpa, u16 idx,
				       struct vdpa_vq_state *state)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (idx >= MLX5_SHIM_VNET_VQS)
		return -EINVAL;
	spin_lock(&vd->lock);
	state->split.avail_index = vd->vqs[idx].avail_index;
	spin_unlock(&vd->lock);
	return 0;
}

static u32 mlx5_shim_vnet_get_vq_align(struct vdpa_device *vdpa)
{
	return PAGE_SIZE;
}

static u64 mlx5_shim_vnet_get_device_features(struct vdpa_device *vdpa)
{
	return MLX5_SHIM_VNET_FEATURES;
}

static int mlx5_shim_vnet_set_driver_features(struct vdpa_device *vdpa, u64 features)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	/* as vdpa_sim: a driver must accept VIRTIO_F_ACCESS_PLATFORM */
	if (!(features & BIT_ULL(VIRTIO_F_ACCESS_PLATFORM)) && features)
		return -EINVAL;
	spin_lock(&vd->lock);
	vd->features = features & MLX5_SHIM_VNET_FEATURES;
	spin_unlock(&vd->lock);
	return 0;
}

static u64 mlx5_shim_vnet_get_driver_features(struct vdpa_device *vdpa)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);
	u64 features;

	spin_lock(&vd->lock);
	features = vd->features;
	spin_unlock(&vd->lock);
	return features;
}

/* the config space never changes: no config interrupt to deliver */
static void mlx5_shim_vnet_set_config_cb(struct vdpa_device *vdpa, struct vdpa_callback *cb)
{
}

static u16 mlx5_shim_vnet_get_vq_num_max(struct vdpa_device *vdpa)
{
	return MLX5_SHIM_VNET_VQ_MAX;
}

static u32 mlx5_shim_vnet_get_device_id(struct vdpa_device *vdpa)
{
	return VIRTIO_ID_NET;
}

static u32 mlx5_shim_vnet_get_vendor_id(struct vdpa_device *vdpa)
{
	return MLX5_SHIM_VNET_VENDOR;
}

static u8 mlx5_shim_vnet_get_status(struct vdpa_device *vdpa)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);
	u8 status;

	spin_lock(&vd->lock);
	status = vd->status;
	spin_unlock(&vd->lock);
	return status;
}

static void mlx5_shim_vnet_set_status(struct vdpa_device *vdpa, u8 status)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (!status) {
		mlx5_shim_vnet_reset_sync(vd);
		return;
	}
	spin_lock(&vd->lock);
	vd->status = status;
	spin_unlock(&vd->lock);
	if (status & VIRTIO_CONFIG_S_DRIVER_OK)
		schedule_work(&vd->work);
}

static int mlx5_shim_vnet_reset(struct vdpa_device *vdpa)
{
	mlx5_shim_vnet_reset_sync(to_vnet_dev(vdpa));
	return 0;
}

/* the vdpa device's release: nothing may run on it any more */
static void mlx5_shim_vnet_free(struct vdpa_device *vdpa)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	cancel_work_sync(&vd->work);
	skb_queue_purge(&vd->backlog);
	mlx5_shim_vnet_devs_put();
}

static size_t mlx5_shim_vnet_get_config_size(struct vdpa_device *vdpa)
{
	return sizeof(struct virtio_net_config);
}

static void mlx5_shim_vnet_get_config(struct vdpa_device *vdpa, unsigned int offset,
				      void *buf, unsigned int len)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	if (offset > sizeof(vd->config) || len > sizeof(vd->config) - offset)
		return;
	spin_lock(&vd->lock);
	memcpy(buf, (u8 *)&vd->config + offset, len);
	spin_unlock(&vd->lock);
}

/* virtio-net's config space is read-only for the driver */
static void mlx5_shim_vnet_set_config(struct vdpa_device *vdpa, unsigned int offset,
				      const void *buf, unsigned int len)
{
}

static u32 mlx5_shim_vnet_get_generation(struct vdpa_device *vdpa)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);
	u32 gen;

	spin_lock(&vd->lock);
	gen = vd->generation;
	spin_unlock(&vd->lock);
	return gen;
}

static const struct vdpa_config_ops mlx5_shim_vnet_config_ops = {
	.set_vq_address = mlx5_shim_vnet_set_vq_address,
	.set_vq_num = mlx5_shim_vnet_set_vq_num,
	.kick_vq = mlx5_shim_vnet_kick_vq,
	.set_vq_cb = mlx5_shim_vnet_set_vq_cb,
	.set_vq_ready = mlx5_shim_vnet_set_vq_ready,
	.get_vq_ready = mlx5_shim_vnet_get_vq_ready,
	.set_vq_state = mlx5_shim_vnet_set_vq_state,
	.get_vq_state = mlx5_shim_vnet_get_vq_state,
	.get_vq_align = mlx5_shim_vnet_get_vq_align,
	.get_device_features = mlx5_shim_vnet_get_device_features,
	.set_driver_features = mlx5_shim_vnet_set_driver_features,
	.get_driver_features = mlx5_shim_vnet_get_driver_features,
	.set_config_cb = mlx5_shim_vnet_set_config_cb,
	.get_vq_num_max = mlx5_shim_vnet_get_vq_num_max,
	.get_device_id = mlx5_shim_vnet_get_device_id,
	.get_vendor_id = mlx5_shim_vnet_get_vendor_id,
	.get_status = mlx5_shim_vnet_get_status,
	.set_status = mlx5_shim_vnet_set_status,
	.reset = mlx5_shim_vnet_reset,
	.get_config_size = mlx5_shim_vnet_get_config_size,
	.get_config = mlx5_shim_vnet_get_config,
	.set_config = mlx5_shim_vnet_set_config,
	.get_generation = mlx5_shim_vnet_get_generation,
	.free = mlx5_shim_vnet_free,
};

/* `vdpa dev add`: under the vdpa core's lock; the core checked config->mask */
static int mlx5_shim_vnet_dev_add(struct vdpa_mgmt_dev *mdev, const char *name,
				  const struct vdpa_dev_set_config *config)
{
	struct mlx5_shim_vnet *vnet = container_of(mdev, struct mlx5_shim_vnet, mgtdev);
	struct mlx5_shim_vnet_dev *vd;
	struct mlx5_shim_caps caps;
	const u8 *mac = vnet->mac;
	u16 mtu = ETH_DATA_LEN;
	struct device *dev;
	int err;

	if (config->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MACADDR)) {
		if (!is_valid_ether_addr(config->net.mac)) {
			dev_err(mdev->device, "vdpa dev add %s: invalid MAC %pM\n", name,
				config->net.mac);
			return -EINVAL;
		}
		mac = config->net.mac;
	}
	if (config->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MTU)) {
		if (config->net.mtu < ETH_MIN_MTU || config->net.mtu > ETH_MAX_MTU) {
			dev_err(mdev->device, "vdpa dev add %s: invalid MTU %u\n", name,
				config->net.mtu);
			return -EINVAL;
		}
		mtu = config->net.mtu;
	}

	vd = auxbus_vdpa_alloc_device(struct mlx5_shim_vnet_dev, vdpa, mdev->device,
				      &mlx5_shim_vnet_config_ops, 1, 1, name, false);
	if (IS_ERR(vd))
		return PTR_ERR(vd);
	refcount_inc(&mlx5_shim_vnet_devs);	/* put by its release, mlx5_shim_vnet_free() */
	spin_lock_init(&vd->lock);
	INIT_WORK(&vd->work, mlx5_shim_vnet_work);
	skb_queue_head_init(&vd->backlog);
	vd->madev = vnet->madev;
	ether_addr_copy(vd->config.mac, mac);
	vd->config.mtu = __cpu_to_virtio16(true, mtu);
	vd->vdpa.mdev = mdev;

	/* the function's end of the wire; the core refuses it when eth or another device has it */
	err = mlx5_shim_wire_attach(vd->madev, mlx5_shim_vnet_wire_rx, vd);
	vd->wired = !err;
	vd->config.status = __cpu_to_virtio16(true, vd->wired ? VIRTIO_NET_S_LINK_UP : 0);
	if (!vd->wired) {
		const char *why = "the function has no wire (a single-port adapter)";

		mlx5_shim_query_caps(vd->madev, &caps);
		if (err == -EBUSY)
			why = caps.caps & MLX5_SHIM_CAP_ETH ?
			      "the function's Ethernet netdev has its wire" :
			      "another vdpa device has the function's wire";
		dev_info(mdev->device, "vdpa dev %s: link down: %s\n", name, why);
	}

	/* a DMA-capable device of its own, as vdpa_sim: virtio_vdpa allocates rings on it */
	dev = &vd->vdpa.dev;
	dev->dma_mask = &dev->coherent_dma_mask;
	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (err)
		goto err_put_device;
	auxbus_vdpa_set_dma_dev(&vd->vdpa, dev);

	err = _vdpa_register_device(&vd->vdpa, MLX5_SHIM_VNET_VQS);
	if (err)
		goto err_put_device;
	return 0;

err_put_device:
	if (vd->wired)
		mlx5_shim_wire_detach(vd->madev);
	put_device(&vd->vdpa.dev);	/* its release frees it */
	return err;
}

/* `vdpa dev del` and vdpa_mgmtdev_unregister(): under the vdpa core's lock */
static void mlx5_shim_vnet_dev_del(struct vdpa_mgmt_dev *mdev, struct vdpa_device *vdpa)
{
	struct mlx5_shim_vnet_dev *vd = to_vnet_dev(vdpa);

	/* no frame arrives once it returns; the driver's reset then stops the rings */
	if (vd->wired)
		mlx5_shim_wire_detach(vd->madev);
	_vdpa_unregister_device(vdpa);
}

static const struct vdpa_mgmtdev_ops mlx5_shim_vnet_mgmtdev_ops = {
	.dev_add = mlx5_shim_vnet_dev_add,
	.dev_del = mlx5_shim_vnet_dev_del,
};

static int mlx5_shim_vnet_add(struct mlx5_shim_client *client)
{
	struct mlx5_shim_vnet *vnet;
	struct mlx5_shim_caps caps;
	int err;

	vnet = kzalloc(sizeof(*vnet), GFP_KERNEL);
	if (!vnet)
		return -ENOMEM;
	mlx5_shim_query_caps(client->madev, &caps);
	ether_addr_copy(vnet->mac, caps.mac);
	vnet->madev = client->madev;
	vnet->id_table[0].device = VIRTIO_ID_NET;
	vnet->id_table[0].vendor = VIRTIO_DEV_ANY_ID;
	vnet->mgtdev.device = &client->madev->adev.dev;
	vnet->mgtdev.ops = &mlx5_shim_vnet_mgmtdev_ops;
	vnet->mgtdev.id_table = vnet->id_table;
	vnet->mgtdev.config_attr_mask = BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MACADDR) |
					BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MTU);
	vnet->mgtdev.max_supported_vqs = MLX5_SHIM_VNET_VQS;
	vnet->mgtdev.supported_features = MLX5_SHIM_VNET_FEATURES;

	err = vdpa_mgmtdev_register(&vnet->mgtdev);
	if (err) {
		dev_err(&client->madev->adev.dev, "vdpa_mgmtdev_register: %d\n", err);
		goto err_free_vnet;
	}
	client->priv = vnet;
	return 0;

err_free_vnet:
	kfree(vnet);
	return err;
}

static void mlx5_shim_vnet_remove(struct mlx5_shim_client *client)
{
	struct mlx5_shim_vnet *vnet = client->priv;

	client->priv = NULL;
	/* deletes every device `vdpa dev add` made on it */
	vdpa_mgmtdev_unregister(&vnet->mgtdev);
	kfree(vnet);
}

#define MLX5_SHIM_VDPA_DESC \
	"mlx5 shim: vDPA net client, a vdpa management device (virtio-net devices on the shim's wire)"

#else /* !MLX5_SHIM_VDPA */

#if IS_ENABLED(CONFIG_VDPA)
#define MLX5_SHIM_NO_VDPA	"the kernel's vdpa core predates the vdpa API of v5.19"
#else
#define MLX5_SHIM_NO_VDPA	"kernel built without CONFIG_VDPA"
#endif

static int mlx5_shim_vnet_add(struct mlx5_shim_client *client)
{
	dev_info(&client->madev->adev.dev,
		 MLX5_SHIM_NO_VDPA ": no vdpa management device registered\n");
	return 0;
}

static void mlx5_shim_vnet_remove(struct mlx5_shim_client *client)
{
}

static void mlx5_shim_vnet_wait_released(void)
{
}

#define MLX5_SHIM_VDPA_DESC \
	"mlx5 shim: vDPA net client; registers no vdpa management device (" MLX5_SHIM_NO_VDPA ")"

#endif /* MLX5_SHIM_VDPA */

static int mlx5_shim_vdpa_probe(struct auxiliary_device *adev,
				const struct auxiliary_device_id *id)
{
	return mlx5_shim_client_probe_subsys(adev, id, mlx5_shim_vnet_add);
}

static void mlx5_shim_vdpa_remove(struct auxiliary_device *adev)
{
	mlx5_shim_client_remove_subsys(adev, mlx5_shim_vnet_remove);
}

static MLX5_SHIM_CLIENT_ATTR(vdpa_port, mlx5_shim_client_port_show);
static MLX5_SHIM_CLIENT_ATTR(vdpa_guid, mlx5_shim_client_guid_show);
static MLX5_SHIM_CLIENT_ATTR(vdpa_events, mlx5_shim_client_events_show);
static MLX5_SHIM_CLIENT_ATTR(vdpa_pm, mlx5_shim_client_pm_show);

static MLX5_SHIM_CLIENT_STATE_ATTR(vdpa_state, "running", "link-down");

static ssize_t vdpa_mac_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_caps caps;

	mlx5_shim_query_caps(dev_to_mlx5_shim_client(dev)->madev, &caps);
	return sysfs_emit(buf, "%pM\n", caps.mac);
}
static DEVICE_ATTR_RO(vdpa_mac);

static ssize_t vdpa_esw_mode_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct mlx5_shim_client *vdpa = dev_to_mlx5_shim_client(dev);
	bool switchdev = READ_ONCE(vdpa->esw_mode) == MLX5_SHIM_ESW_SWITCHDEV;

	return sysfs_emit(buf, "%s\n", switchdev ? "switchdev" : "legacy");
}
static DEVICE_ATTR_RO(vdpa_esw_mode);

static struct attribute *mlx5_shim_vdpa_attrs[] = {
	&dev_attr_vdpa_port.attr,
	&dev_attr_vdpa_guid.attr,
	&dev_attr_vdpa_mac.attr,
	&dev_attr_vdpa_esw_mode.attr,
	&dev_attr_vdpa_events.attr,
	&dev_attr_vdpa_state.attr.attr,
	&dev_attr_vdpa_pm.attr,
	NULL
};
ATTRIBUTE_GROUPS(mlx5_shim_vdpa);

AUXILIARY_DEVICE_TABLE(mlx5_shim_vdpa_id_table, "mlx5_shim_core.vnet");

static struct auxiliary_driver mlx5_shim_vdpa_driver = {
	.driver = {
		.dev_groups = mlx5_shim_vdpa_groups,
	},
	.probe = mlx5_shim_vdpa_probe,
	.remove = mlx5_shim_vdpa_remove,
	.suspend = mlx5_shim_client_suspend,
	.resume = mlx5_shim_client_resume,
	.id_table = mlx5_shim_vdpa_id_table,
};

static int __init mlx5_shim_vdpa_init(void)
{
	return auxiliary_driver_register(&mlx5_shim_vdpa_driver);
}

static void __exit mlx5_shim_vdpa_exit(void)
{
	auxiliary_driver_unregister(&mlx5_shim_vdpa_driver);
	/* every vdpa device is deleted: wait for their releases, which run our code */
	mlx5_shim_vnet_wait_released();
}

module_init(mlx5_shim_vdpa_init);
module_exit(mlx5_shim_vdpa_exit);

MODULE_DESCRIPTION(MLX5_SHIM_VDPA_DESC);
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("MLX5_SHIM");
