/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel compatibility shims of the auxbus bundle.
 *
 * Private to the bundle: force-included (-include) into every C file of the bundle by
 * its top-level Kbuild, after the kernel's compiler_types.h and before the file's own
 * first line. Never into third-party code: include/auxbus/client.mk puts only the
 * bundle's include directory on the path, since these shims redefine kernel macros
 * (EXPORT_SYMBOL_NS*, MODULE_IMPORT_NS) and define names a driver may define itself
 * (eth_hw_addr_set). Each shim is gated on a feature that include/auxbus/Kbuild.include
 * greps from the target kernel's headers (-DAUXBUS_HAVE_*) and names the upstream commit
 * that changed the interface.
 *
 * Rule for every C file of the bundle: define pr_fmt() before the first pr_*() call
 * (see "pr_fmt" below); this header deliberately leaves pr_fmt undefined.
 * It also includes the bundle's <linux/auxiliary_bus.h> (see below).
 *
 * Other areas append their own sections at the END of this file ("ASoC", "netdev").
 */
#ifndef _AUXBUS_COMPAT_H
#define _AUXBUS_COMPAT_H

/*
 * pr_fmt: <linux/module.h> (needed below) pulls in <linux/printk.h>, which defines a
 * default pr_fmt(fmt) when none is defined yet. A file's own
 * "#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt" would then be a redefinition. Define
 * a temporary one for the headers included here and drop it again, so the file's own
 * definition is the first one the compiler sees.
 */
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#define __AUXBUS_COMPAT_PR_FMT
#endif
#include <linux/export.h>
#include <linux/module.h>
/*
 * The bundle's <linux/auxiliary_bus.h>: the top-level Kbuild puts the bundle's include
 * directory first on the include path, as include/auxbus/client.mk does for third-party
 * modules, so this finds ours, and its #include_next finds the kernel's (kernel backend).
 * Included here, ours comes first in every file of the bundle, whatever its own includes.
 */
#include <linux/auxiliary_bus.h>
#ifdef __AUXBUS_COMPAT_PR_FMT
#undef pr_fmt
#undef __AUXBUS_COMPAT_PR_FMT
#endif

/*
 * Symbol namespaces are string literals since
 * cdd30ebb1b9f ("module: Convert symbol namespace to string literal"), v6.13.
 * The bundle writes EXPORT_SYMBOL_NS_GPL(sym, "NS") and MODULE_IMPORT_NS("NS") everywhere;
 * older kernels stringify the argument, which would give the namespace "\"NS\"".
 * The license argument of __EXPORT_SYMBOL() became "GPL" (was "_gpl") with
 * ddb5cdbafaaa ("kbuild: generate KSYMTAB entries by modpost"), v6.5.
 */
#ifndef AUXBUS_HAVE_NS_STRING
#undef EXPORT_SYMBOL_NS
#undef EXPORT_SYMBOL_NS_GPL
#undef MODULE_IMPORT_NS
#ifdef AUXBUS_HAVE_EXPORT_LICENSE_GPL
#define EXPORT_SYMBOL_NS(sym, ns)	__EXPORT_SYMBOL(sym, "", ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	__EXPORT_SYMBOL(sym, "GPL", ns)
#else
#define EXPORT_SYMBOL_NS(sym, ns)	__EXPORT_SYMBOL(sym, "", ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	__EXPORT_SYMBOL(sym, "_gpl", ns)
#endif
#define MODULE_IMPORT_NS(ns)		MODULE_INFO(import_ns, ns)
#endif /* !AUXBUS_HAVE_NS_STRING */

/*
 * struct bus_type::remove() returns void since
 * fc7a6209d571 ("bus: Make remove callback return void"), v5.15.
 * Write the callback as void and register it with AUXBUS_BUS_REMOVE(fn) after
 * AUXBUS_BUS_REMOVE_WRAPPER(fn); older kernels get an int-returning wrapper.
 */
#ifdef AUXBUS_HAVE_BUS_REMOVE_VOID
#define AUXBUS_BUS_REMOVE_WRAPPER(fn)
#define AUXBUS_BUS_REMOVE(fn)		(fn)
#else
#define AUXBUS_BUS_REMOVE_WRAPPER(fn)				\
	static int fn##_int(struct device *dev)			\
	{							\
		fn(dev);					\
		return 0;					\
	}
#define AUXBUS_BUS_REMOVE(fn)		(fn##_int)
#endif

/*
 * bus_register() takes a const struct bus_type * since
 * 00c4a3c47da7 ("driver core: bus: constantify bus_register()"), v6.4;
 * a bus_type can then live in .rodata.
 */
#ifdef AUXBUS_HAVE_CONST_BUS_REGISTER
#define auxbus_const_bus		const
#else
#define auxbus_const_bus
#endif

/*
 * A bus attribute's show() and store() take a const struct bus_type * since
 * 75cff725d956 ("driver core: bus: mark the struct bus_type for sysfs callbacks as
 * constant"), v6.4.
 */
#ifdef AUXBUS_HAVE_CONST_BUS_ATTR
#define auxbus_const_bus_attr		const
#else
#define auxbus_const_bus_attr
#endif

/*
 * auxbus_bus_unregister_sync(bus): bus_unregister() of a bus_type in module memory, then
 * wait for the bus's release. Until d2bf38c088e0 ("driver core: remove private pointer from
 * struct bus_type"), v6.3, bus_release() (drivers/base/bus.c) writes bus->p = NULL when the
 * last reference to the bus's kobject goes: with that reference held elsewhere, or released
 * late (CONFIG_DEBUG_KOBJECT_RELEASE), after bus_unregister() returned and the module is
 * gone.
 */
#ifdef AUXBUS_HAVE_BUS_TYPE_PRIVATE
#include <linux/delay.h>
#include <linux/device.h>

static inline void auxbus_bus_unregister_sync(struct bus_type *bus)
{
	bus_unregister(bus);
	while (READ_ONCE(bus->p))
		msleep(20);
}
#else
#define auxbus_bus_unregister_sync(bus)	bus_unregister(bus)
#endif

/*
 * struct bus_type::uevent() takes a const struct device * since
 * 2a81ada32f0e ("driver core: make struct bus_type.uevent() take a const *"), v6.3.
 */
#ifdef AUXBUS_HAVE_BUS_UEVENT_CONST
#define auxbus_const_uevent_dev		const
#else
#define auxbus_const_uevent_dev
#endif

/*
 * struct bus_type::match() takes a const struct device_driver * since
 * d69d80484598 ("driver core: have match() callback in struct bus_type take a const *"),
 * v6.11.
 */
#ifdef AUXBUS_HAVE_BUS_MATCH_CONST_DRV
#define auxbus_const_match_drv		const
#else
#define auxbus_const_match_drv
#endif

/*
 * dev_pm_domain_attach() takes PD_FLAG_* flags instead of a bool power_on, and the
 * driver core detaches the PM domain itself after remove() / a failed probe
 * (dev->power.detach_power_off), since the v6.17 series of
 * "PM: domains: Detach on device_unbind_cleanup()" (Claudiu Beznea). Before that the
 * bus detaches in its own remove() and probe error path.
 */
#ifdef AUXBUS_HAVE_PD_ATTACH_FLAGS
#define auxbus_pm_domain_attach(dev) \
	dev_pm_domain_attach(dev, PD_FLAG_ATTACH_POWER_ON | PD_FLAG_DETACH_POWER_OFF)
#else
#define auxbus_pm_domain_attach(dev)	dev_pm_domain_attach(dev, true)
#endif
#ifdef AUXBUS_HAVE_CORE_PM_DOMAIN_DETACH
#define auxbus_pm_domain_detach(dev)	do { } while (0)
#else
#define auxbus_pm_domain_detach(dev)	dev_pm_domain_detach(dev, true)
#endif

/* ==== ASoC (sof helper: sof-clients/) ==== */
/*
 * Macros only: this header is force-included everywhere, before <sound/soc.h>. Feature
 * flags come from the greps of include/sound/ at the end of include/auxbus/Kbuild.include.
 *
 * Component DAI naming: 5.10 names a single DAI after the device unless the component
 * driver sets non_legacy_dai_naming; 129f055a2144 ("ASoC: core: Switch core to new DAI
 * naming flag"), v6.0, made driver-given names the default and legacy_dai_naming the
 * opt-out.
 */
#ifdef AUXBUS_HAVE_SND_SOC_LEGACY_DAI_NAMING
#define AUXBUS_SND_SOC_COMPONENT_DAI_NAMING	.legacy_dai_naming = 0
#else
#define AUXBUS_SND_SOC_COMPONENT_DAI_NAMING	.non_legacy_dai_naming = 1
#endif

/*
 * A DAI's compress_new moved from struct snd_soc_dai_driver into struct snd_soc_dai_ops
 * with 3e8bcec0787d ("ASoC: soc-dai.h: merge DAI call back functions into ops"), v6.5
 * (Debian's 6.1 has it through stable and keeps both). Its num argument went away in 7.x;
 * assigning snd_soc_new_compress itself fits either signature.
 */
#ifdef AUXBUS_HAVE_SND_SOC_DAI_OPS_COMPRESS_NEW
#define AUXBUS_SND_SOC_DAI_OPS_COMPRESS_NEW(fn)	.compress_new = (fn),
#define AUXBUS_SND_SOC_DAI_DRV_COMPRESS_NEW(fn)
#else
#define AUXBUS_SND_SOC_DAI_OPS_COMPRESS_NEW(fn)
#define AUXBUS_SND_SOC_DAI_DRV_COMPRESS_NEW(fn)	.compress_new = (fn),
#endif

/*
 * Compress pointer callbacks take struct snd_compr_tstamp64 (u64 copied_total) since
 * 2c92e2fbe9e2 ("ALSA: compress_offload: Add 64-bit safe timestamp infrastructure"), v6.18.
 */
#ifdef AUXBUS_HAVE_SND_COMPR_TSTAMP64
#define auxbus_snd_compr_tstamp	snd_compr_tstamp64
#else
#define auxbus_snd_compr_tstamp	snd_compr_tstamp
#endif

/*
 * A card's idle bias is set through snd_soc_dapm_set_idle_bias() since cb3c715d8960
 * ("ASoC: soc-dapm: add snd_soc_dapm_set_idle_bias()"), v6.18; the dapm context stopped
 * being a public member of struct snd_soc_card after that. Call from the card's probe().
 */
#ifdef AUXBUS_HAVE_SND_SOC_DAPM_SET_IDLE_BIAS
#define auxbus_snd_soc_card_idle_bias_off(card) \
	snd_soc_dapm_set_idle_bias(snd_soc_card_to_dapm(card), false)
#else
#define auxbus_snd_soc_card_idle_bias_off(card) ((card)->dapm.idle_bias_off = true)
#endif
/* ==== end of ASoC ==== */

/* ==== netdev (mlx5-adev/; mlx5 helper) ==== */
/*
 * eth_hw_addr_set() was added by 48eab831ae8b ("net: create netdev->dev_addr assignment
 * helpers"), v5.15, and backported to stable trees (Debian's 5.10 has it, older 5.10.y
 * do not); since v5.17 dev->dev_addr is const and must be written through it. A macro,
 * so that this header needs no netdev include; callers include <linux/etherdevice.h>.
 * Other netdev interface changes (netif_napi_add() weight, netif_rx_ni() removal) do not
 * concern the bundle: mlx5_shim_eth has no NAPI and receives via dev_forward_skb().
 */
#ifndef AUXBUS_HAVE_ETH_HW_ADDR_SET
#define eth_hw_addr_set(dev, addr)	memcpy((dev)->dev_addr, (addr), ETH_ALEN)
#endif
/* ==== end of netdev ==== */

/* ==== ib_core (mlx5-adev/mlx5_shim_rdma.c) ==== */
/*
 * Port numbers of struct ib_device_ops (query_port, get_port_immutable, get_link_layer,
 * query_pkey) are u32 since 1fb7f8973f51 ("RDMA: Support more than 255 rdma ports"), v5.14;
 * u8 before. A macro, so that this header needs no type include.
 * The ops whose shape changed otherwise keep their #ifdef at the op in mlx5_shim_rdma.c,
 * each with its commit: create_qp (AUXBUS_HAVE_IB_CORE_ALLOCS_QP), create_cq
 * (AUXBUS_HAVE_IB_CREATE_CQ_ATTRS), reg_user_mr (AUXBUS_HAVE_IB_REG_USER_MR_DMAH).
 */
#ifdef AUXBUS_HAVE_IB_PORT_U32
#define auxbus_ib_port_t	u32
#else
#define auxbus_ib_port_t	u8
#endif
/* ==== end of ib_core ==== */

/* ==== vdpa (mlx5-adev/mlx5_shim_vdpa.c) ==== */
/*
 * vdpa_alloc_device() takes the device's virtio map ops (NULL: the DMA API on its DMA
 * device), and the DMA device moved from vdpa_device.dma_dev into the union
 * vdpa_device.vmap, with the virtio "map ops" series of v6.18 ("vdpa: introduce map ops";
 * the 12-character id of that commit was not at hand offline).
 */
#ifdef AUXBUS_HAVE_VDPA_MAP_OPS
#define auxbus_vdpa_alloc_device(dev_struct, member, parent, config, ngroups, nas, name, use_va) \
	vdpa_alloc_device(dev_struct, member, parent, config, NULL, ngroups, nas, name, use_va)
#define auxbus_vdpa_set_dma_dev(vdpa, dev)	((vdpa)->vmap.dma_dev = (dev))
#else
#define auxbus_vdpa_alloc_device	vdpa_alloc_device
#define auxbus_vdpa_set_dma_dev(vdpa, dev)	((vdpa)->dma_dev = (dev))
#endif
/* ==== end of vdpa ==== */

#endif /* _AUXBUS_COMPAT_H */
