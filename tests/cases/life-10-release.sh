#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# Lifetimes: with CONFIG_DEBUG_KOBJECT_RELEASE (the debugk kernel) every kobject's release runs
# 1 to 4 s after its last reference goes, so a module whose exit does not wait for the releases
# of what it registered (devices, their release() callbacks in its text, a bus_type in its
# data) is gone when they run, and the kernel faults in a worker. Each parent here makes
# devices, has clients bind, deletes them and is unloaded at once, the fastest a user can;
# then the case waits out the longest delay (the releases cannot be observed from user space).
# kernels: debugk
# kmods: snd-compress snd-soc-core
# timeout: 600
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc
. /tests/cases/sof-common.inc

MODS="mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
HOLD=/sys/kernel/debug/auxbus_test_hold
cleanup() {
	[ -e $HOLD/drop ] && echo 1 >$HOLD/drop
	mlx5_cleanup 1
	sof_cleanup
	rmmod auxbus_test_hold auxbus_test_client auxbus_test_parent auxbus 2>/dev/null
}
trap cleanup EXIT

# Every release the kernel delays, it logs as it schedules it ("kobject: 'NAME' (PTR):
# kobject_release, parent PTR (delayed JIFFIES)", lib/kobject.c); the release itself logs
# nothing here (pr_debug, no dynamic debug in this kernel). So the case waits for a sentinel:
# once the releases it caused are due (the longest delay, 4 s, after the last subtest, and a
# half second for the timer wheel's rounding), it unloads a module of the kernel's own
# (snd_compress) and rmmod waits for that module's kobject release, delayed 1-4 s itself: when
# rmmod returns, the kernel's workqueue has run that release, queued after every one the
# case's subtests caused (one vCPU: one worker pool, in order).
uptime_past() { awk -v t="$1" '{ exit !($1 >= t) }' /proc/uptime; }
# sentinel: modprobe and rmmod snd_compress; it must take a second at least (its own release)
sentinel() {
	modprobe snd_compress || return 1
	_t0=$(t_now)
	rmmod snd_compress || return 1
	_t1=$(t_now)
	awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "rmmod snd_compress took %.2f s\n", b - a; exit !(b - a >= 0.9) }'
}

# The bus module goes last. On the kernel backend auxbus.ko holds only the compat code (e.g.
# auxiliary_device_create() on 6.1) and is loaded only where a module needed it.
export RMBUS='{ [ "$BACKEND" != bundled ] && ! grep -q "^auxbus " /proc/modules || rmmod auxbus; }'

t_check "auxbus_test_parent (init/add) and its client, unloaded at once" sh -c '
	modprobe auxbus_test_parent ndev=4 && modprobe auxbus_test_client &&
	rmmod auxbus_test_client && rmmod auxbus_test_parent'
t_check "auxbus_test_parent create=1 (auxiliary_device_create), then auxbus, at once" sh -c '
	modprobe auxbus_test_parent ndev=4 create=1 && rmmod auxbus_test_parent && eval "$RMBUS"'
# the same, with the order made certain: auxbus_test_hold keeps a created device's last
# reference, so unloading the bus must wait in its exit until the case drops it
t_check "create=1 again, a device's reference held, the parent unloaded" sh -c "
	modprobe auxbus_test_parent ndev=1 create=1 && modprobe auxbus_test_hold &&
	echo /sys/bus/$AUXBUS_BUS/devices/auxbus_test_parent.client.0 >$HOLD/hold &&
	rmmod auxbus_test_parent"
rmmod auxbus &
rmbus=$!
t_check "unloading auxbus waits in its exit for that device's release" \
	t_wait_cmd 300 t_in_exit auxbus $rmbus
t_check "drop the reference" sh -c "echo 1 >$HOLD/drop"
wait $rmbus
t_check "auxbus unloads once the device is released" test $? = 0
# a SOF client device's release runs snd_sof_shim's code: its exit waits for a held one
t_check "a SOF client device's reference held, its DSP deleted" sh -c "
	modprobe snd_sof_shim && echo '5 clients=ipc_flood:1' >$SOF_DRV/new_device &&
	echo $SOF_PDEV/snd_sof_shim.5/snd_sof_shim.ipc_flood.* >$HOLD/hold &&
	echo 5 >$SOF_DRV/del_device"
rmmod snd_sof_shim &
rmsof=$!
t_check "unloading snd_sof_shim waits in its exit for that device's release" \
	t_wait_cmd 300 t_in_exit snd_sof_shim $rmsof
t_check "drop it" sh -c "echo 1 >$HOLD/drop"
wait $rmsof
t_check "snd_sof_shim unloads once the client device is released" test $? = 0
t_check "auxbus_test_hold unloads" rmmod auxbus_test_hold
# Not the probes client: its sound card trips 6.1's ALSA under delayed releases (see
# tests/kernels.list); its device exists, unbound.
t_check "SOF shim with clients: new, delete, unload at once" sh -c "
	modprobe snd_sof_shim && modprobe snd_sof_shim_ipc_flood &&
	echo '0 clients=ipc_flood:2,probes' >$SOF_DRV/new_device &&
	echo '1 clients=ipc_flood:1' >$SOF_DRV/new_device && echo 0 >$SOF_DRV/del_device &&
	rmmod snd_sof_shim_ipc_flood && rmmod snd_sof_shim && eval \"\$RMBUS\""
t_check "SOF shim: exit deletes a device left behind" sh -c "
	modprobe snd_sof_shim && echo '3 clients=ipc_flood:1' >$SOF_DRV/new_device &&
	rmmod snd_sof_shim && eval \"\$RMBUS\""
t_check "mlx5 shim with clients and an SF: new, delete, unload at once" sh -c "
	modprobe mlx5_shim_core && modprobe mlx5_shim_eth && modprobe mlx5_shim_rdma &&
	modprobe mlx5_shim_vdpa && modprobe mlx5_shim_sf &&
	echo '1 ports=2' >$MLXBUS/new_device && echo 3 >$D/mlx5_shim1p0/sf_add &&
	echo '2 ports=1' >$MLXBUS/new_device && echo 1 >$MLXBUS/del_device &&
	rmmod mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth && rmmod mlx5_shim_core &&
	eval \"\$RMBUS\""
t_check "mlx5 shim: exit deletes an adapter and SF left behind" sh -c "
	modprobe mlx5_shim_core && echo '4 ports=2' >$MLXBUS/new_device && echo 2 >$D/mlx5_shim4p1/sf_add &&
	rmmod mlx5_shim_core && eval \"\$RMBUS\""
t_end=$(t_now)
# all of the log: the runner clears it before each case, and with a line per release a mark
# could be pushed out of this kernel's small log buffer
n=$(dmesg | grep -c '(delayed [0-9]*)$')
echo "# life-10: $n delayed kobject releases scheduled"
t_check "the kernel delayed the releases (CONFIG_DEBUG_KOBJECT_RELEASE)" test "$n" -gt 0
t_wait_cmd 100 uptime_past "$(awk -v t="$t_end" 'BEGIN { print t + 4.5 }')"
t_check "a sentinel release after them all has run (rmmod snd_compress)" sentinel
t_check "nothing of the bundle is left loaded" sh -c '! grep -qE "^(auxbus|snd_sof_shim|mlx5_shim)" /proc/modules'
t_done
