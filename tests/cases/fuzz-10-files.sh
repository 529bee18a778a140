#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# Fuzzer: every sysfs and debugfs file of the bundle, found by walking the live system (not a
# list), gets seeded random input from tests/tools/fuzz-files.c: random text and bytes with
# NULs, numeric edge values, lengths from 0 to 64 KiB, words of what the files read back,
# writes at offsets; every readable one is read whole, byte by byte and past its end. A write
# may fail; it may not hang (a write that runs past 5 s is killed and must die), and the kernel
# may not complain (the harness scans the log; KASAN, lockdep and kmemleak on debug).
# Afterwards both shims and the bus still work, and everything unloads. SEED below
# (1) reproduces a run: the guest has no environment of the host's; seed, files and counts are
# printed.
# kernels: bookworm debug debugc
# kmods: snd-compress snd-soc-core
# timeout: 600
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc
. /tests/cases/sof-common.inc

MODS="mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
SEED=1
# inputs per writable file: the debug kernel is 5-10 times slower per operation
case $KERNEL in debug*) INPUTS=128 ;; *) INPUTS=256 ;; esac
TB=/sys/bus/$AUXBUS_BUS

# every adapter and DSP the fuzzing may have made
del_all() {
	for _p in $D/mlx5_shim*p0; do
		[ -e "$_p" ] || continue
		_id=${_p##*/mlx5_shim}
		echo "${_id%p0}" >$MLXBUS/del_device 2>/dev/null
	done
	for _d in $SOF_PDEV/snd_sof_shim.*; do
		[ -e "$_d" ] && echo "${_d##*.}" >$SOF_DRV/del_device 2>/dev/null
	done
	return 0
}
cleanup() {
	del_all
	mlx5_cleanup 1
	sof_cleanup
	for m in auxbus_test_client auxbus_test_parent auxbus; do rmmod $m 2>/dev/null; done
}
trap cleanup EXIT

t_check "load the mlx5 shim and its clients" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma \
	mlx5_shim_vdpa mlx5_shim_sf
t_check "load the SOF shim and its clients" sof_load snd_sof_shim_ipc_flood snd_sof_shim_probes
t_check "load the test parent and client" sh -c "modprobe auxbus_test_parent ndev=2 && modprobe auxbus_test_client"
t_check "mlx5 adapter 1 ports=2" ctl $MLXBUS/new_device "1 ports=2"
t_check "an SF on port 0" ctl $D/mlx5_shim1p0/sf_add 3
t_check "SOF device 0 with clients" sof_new 0 clients=ipc_flood:2,probes

# The files: the bundle's debugfs trees, the SOF driver's and the mlx5 bus's control files, the attributes of the
# bundle's devices (platform, mlx5 bus, auxiliary bus: what the driver core adds is left out)
# and the parameters of the bundle's modules. Control files that delete go last.
core='^(uevent|driver_override|modalias|bind|unbind)$'
{
	find $D $SOF_DBG -type f
	for dev in $SOF_PDEV/snd_sof_shim.* $PB/* $TB/devices/*; do
		dev=$(readlink -f "$dev")
		for f in "$dev"/* "$dev"/irqs/*; do
			[ -f "$f" ] && ! echo "${f##*/}" | grep -Eq "$core" && echo "$f"
		done
	done
	for m in $MODS snd_sof_shim snd_sof_shim_ipc_flood snd_sof_shim_probes auxbus \
		auxbus_test_parent auxbus_test_client; do
		for f in /sys/module/$m/parameters/*; do [ -f "$f" ] && echo "$f"; done
	done
	echo $SOF_DRV/new_device
	echo $MLXBUS/new_device
	echo $MLXBUS/del_device
} | sort -u >/tmp/fuzz.files
{
	grep -v -e '/[a-z_]*del[a-z_]*$' -e '/new_device$' /tmp/fuzz.files
	grep -e '/new_device$' /tmp/fuzz.files
	grep -e '/[a-z_]*del[a-z_]*$' /tmp/fuzz.files
	echo $SOF_DRV/del_device
} >/tmp/fuzz.order
nfiles=$(wc -l </tmp/fuzz.order)
t_check "files found: debugfs, SOF driver, mlx5 bus, device attributes, parameters ($nfiles)" test "$nfiles" -ge 20
echo "# fuzz-10: $nfiles files, $INPUTS inputs per writable file, seed $SEED"

read -r t0 _r </proc/uptime
fuzz-files -s "$SEED" -n "$INPUTS" -t 5 $(cat /tmp/fuzz.order) >/tmp/fuzz.out 2>&1
rc=$?
read -r t1 _r </proc/uptime
sed 's/^/# /' /tmp/fuzz.out
t_eq "fuzz-files ran every file, no write hung" 0 "$rc"
t_check "writes were made" grep -Eq '^fuzz: .* [1-9][0-9]* writes' /tmp/fuzz.out
echo "# fuzz-10: $(tail -n 1 /tmp/fuzz.out) in $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"

# The bundle still works: everything the fuzzing made goes, and it all comes back
t_check "delete every adapter and DSP" del_all
# del_device returns once the device is deleted; its debugfs directory too (up to 5 s)
t_check "no adapter left" t_wait_cmd 50 sh -c "! ls -d $D/mlx5_shim*p0 2>/dev/null | grep -q ."
t_check "no DSP left" t_wait_cmd 50 sh -c "! ls -d $SOF_PDEV/snd_sof_shim.* 2>/dev/null | grep -q ."
for m in $MODS snd_sof_shim_probes snd_sof_shim_ipc_flood snd_sof_shim auxbus_test_client auxbus_test_parent; do
	grep -q "^$m " /proc/modules || modprobe $m
done
t_check "mlx5 adapter 1 ports=2 after the fuzzing" ctl $MLXBUS/new_device "1 ports=2"
t_check "its eth client binds" t_wait_for "$PB/mlx5_shim1p0/$(adev mlx5_shim1p0 eth)/driver"
t_check "SOF device 0 after the fuzzing" sof_new 0 clients=ipc_flood:1
t_check "a flood runs" sh -c "echo 10 >$(sof_flood_dir 0 0)/ipc_flood_count"
t_check "test client bound to test parent's device" t_wait_for "$TB/devices/auxbus_test_parent.client.0/driver"
t_check "delete all" sh -c "echo 1 >$MLXBUS/del_device && echo 0 >$SOF_DRV/del_device"
for m in $MODS snd_sof_shim_probes snd_sof_shim_ipc_flood snd_sof_shim auxbus_test_client auxbus_test_parent; do
	t_check "rmmod $m" rmmod $m
done
if [ "$BACKEND" = bundled ] || grep -q "^auxbus " /proc/modules; then
	t_check "rmmod auxbus" rmmod auxbus
fi
t_done
