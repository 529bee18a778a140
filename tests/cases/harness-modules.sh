#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# Every module of the bundle: modinfo (vermagic of this kernel, license, namespace imports),
# load in dependency order and unload in reverse, and a client loaded before its parent or the
# bus fails cleanly (unknown symbols; no oops: the runner checks the kernel log).
# kmods: snd-compress snd-soc-core
. /tests/lib/ktap.sh

# module  namespaces it must import
MODS="auxbus:
snd_sof_shim:AUXBUS
snd_sof_shim_ipc_flood:AUXBUS,SND_SOC_SOF_SHIM_CLIENT
snd_sof_shim_ipc_msg_injector:AUXBUS,SND_SOC_SOF_SHIM_CLIENT
snd_sof_shim_ipc_kernel_injector:AUXBUS,SND_SOC_SOF_SHIM_CLIENT
snd_sof_shim_probes:AUXBUS,SND_SOC_SOF_SHIM_CLIENT
mlx5_shim_core:AUXBUS
mlx5_shim_eth:AUXBUS,MLX5_SHIM
mlx5_shim_rdma:AUXBUS,MLX5_SHIM
mlx5_shim_vdpa:AUXBUS,MLX5_SHIM
mlx5_shim_sf:AUXBUS,MLX5_SHIM"

cleanup() {
	for m in mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core \
		snd_sof_shim_probes snd_sof_shim_ipc_kernel_injector snd_sof_shim_ipc_msg_injector snd_sof_shim_ipc_flood snd_sof_shim auxbus; do
		rmmod "$m" 2>/dev/null
	done
}
trap cleanup EXIT

# the guest's modinfo (tests/tools/modinfo.c) reads .modinfo as kmod does
t_check_errno "modinfo of a module that does not exist fails" "Module auxbus_nonesuch not found" \
	modinfo auxbus_nonesuch
loaded=""
for e in $MODS; do
	m=${e%%:*}
	ns=${e#*:}
	if ! modinfo "$m" >/dev/null 2>&1; then
		t_fail "$m is built for this kernel"
		continue
	fi
	vm=$(modinfo -F vermagic "$m")
	t_eq "$m: vermagic is this kernel's" "$KVER" "${vm%% *}"
	t_eq "$m: license" GPL "$(modinfo -F license "$m")"
	imports=$(modinfo -F import_ns "$m" | sort -u | tr '\n' ',' | sed 's/,$//')
	t_eq "$m: namespace imports" "$ns" "$imports"
done

# A client before its parent: insmod does not resolve dependencies, so the load must fail
# on the parent's symbols, cleanly.
t_log_mark insmod-early
t_check_errno "insmod mlx5_shim_eth before mlx5_shim_core fails" "unknown symbol" \
	insmod "/lib/modules/$KVER/extra/mlx5_shim_eth.ko"
t_check "the kernel says which symbols are missing" t_log_has insmod-early "mlx5_shim_eth: Unknown symbol"
t_check_errno "insmod snd_sof_shim_ipc_flood before snd_sof_shim fails" "unknown symbol" \
	insmod "/lib/modules/$KVER/extra/snd_sof_shim_ipc_flood.ko"
if [ "$BACKEND" = bundled ]; then
	t_check_errno "insmod snd_sof_shim before auxbus fails" "unknown symbol" \
		insmod "/lib/modules/$KVER/extra/snd_sof_shim.ko"
	t_check "the kernel names the missing bus symbols" \
		t_log_has insmod-early "snd_sof_shim: Unknown symbol .*auxiliary"
fi

# Dependency order in, reverse order out.
for e in $MODS; do
	m=${e%%:*}
	if modprobe "$m"; then
		loaded="$m $loaded"
	else
		t_fail "modprobe $m"
	fi
done
t_eq "every module loaded" "$(echo "$MODS" | wc -l)" "$(echo $loaded | wc -w)"
for m in $loaded; do
	t_check "rmmod $m" rmmod "$m"
done
t_done
