#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# Races: loops that race each other for a bounded time, on both shims at once. Parent create
# and delete (with an SF per port, whose netdevs go in the batched SF teardown), client
# bind/unbind through sysfs (also of those SFs' eth devices, against the batch), client
# module unload/load, SOF floods against
# firmware crash/boot, SF add/del, eswitch mode and caps changes, link flaps, and system sleep
# (pm_test devices) in the middle. A write may fail (EBUSY, ENOENT, ENODEV: the loops step on
# each other); nothing may splat, hang or leak. Afterwards both shims still work and
# everything unloads. Each loop's iteration count is printed. Two vCPUs (a boot of its own): the
# loops run at the same time, not only interleaved.
# kernels: bookworm debug debugc
# kmods: snd-compress snd-soc-core
# timeout: 240
# smp: 2
. /tests/lib/ktap.sh
. /tests/lib/pm.sh
. /tests/cases/mlx5-common.inc
. /tests/cases/sof-common.inc

MODS="mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
PIDS=""
cleanup() {
	[ -n "$PIDS" ] && kill $PIDS 2>/dev/null
	wait 2>/dev/null
	pm_test_end
	mlx5_cleanup 1 2
	sof_cleanup
}
trap cleanup EXIT

# Seconds each loop runs: the debug kernels are 5-10 times slower per operation.
case $KERNEL in debug*) DUR=12 ;; *) DUR=5 ;; esac

now() { read -r _u _r </proc/uptime; echo "${_u%.*}"; }

# race NAME STEP...: run the shell commands STEP... in turn in a loop until END, in the
# background; /tmp/race.NAME gets the iteration count and, for each step, how often it
# succeeded. Every step runs whatever the others did (a deletion after a failed creation).
race() {
	_name=$1
	shift
	(
		_i=0
		_k=0
		for _s; do _k=$((_k + 1)); eval "_ok$_k=0"; done
		while [ "$(now)" -lt "$END" ]; do
			_k=0
			for _s; do
				_k=$((_k + 1))
				eval "$_s" >/dev/null 2>&1 && eval "_ok$_k=\$((_ok$_k + 1))"
			done
			_i=$((_i + 1))
		done
		_line=$_i
		_k=0
		for _s; do _k=$((_k + 1)); eval "_line=\"\$_line \$_ok$_k\""; done
		echo "$_line" >/tmp/race.$_name
	) &
	PIDS="$PIDS $!"
}

t_check "load the mlx5 shim and its clients" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma \
	mlx5_shim_vdpa mlx5_shim_sf
t_check "load the SOF shim and its clients" sof_load snd_sof_shim_ipc_flood snd_sof_shim_probes
t_check "mlx5 adapter 1 ports=2" ctl $MLXBUS/new_device "1 ports=2"
t_check "SOF device 0" sof_new 0 clients=ipc_flood:2,probes
S=$SOF_PDEV/snd_sof_shim.0
F0=$(sof_flood_dir 0 0)
F1=$(sof_flood_dir 0 1)
ETH=$(adev mlx5_shim1p1 eth)
EDRV=$AB/$ETH/driver
EDRV=$(readlink $EDRV)
EDRV=/sys/bus/$AUXBUS_BUS/drivers/${EDRV##*/}
rm -f /tmp/race.*

# The clock starts when the loops do: loading and setup take longer than DUR on debug.
END=$(($(now) + DUR))
race mlx5-parent "echo '2 ports=2' >$MLXBUS/new_device" "echo 1 >$D/mlx5_shim2p0/sf_add" \
	"echo 1 >$D/mlx5_shim2p1/sf_add" "echo 2 >$MLXBUS/del_device"
race mlx5-bind "echo $ETH >$EDRV/unbind" "echo $ETH >$EDRV/bind"
# one step: the SF eth devices that exist now, unbound and bound again (the last bind counts)
SFBIND="for e in $PB/mlx5_shim2p*/mlx5_shim_core.sf.*/mlx5_shim_core.eth.*; do
	e=\${e##*/}; echo \$e >$EDRV/unbind; echo \$e >$EDRV/bind; done"
race mlx5-sf-bind "$SFBIND"
race mlx5-sf "echo 4 >$D/mlx5_shim1p0/sf_add" "echo 4 >$D/mlx5_shim1p0/sf_del"
race mlx5-esw "echo switchdev >$D/mlx5_shim1p0/esw_mode" "echo legacy >$D/mlx5_shim1p0/esw_mode"
race mlx5-caps "echo eth >$D/mlx5_shim1p1/caps" "echo eth,rdma,vnet >$D/mlx5_shim1p1/caps"
race mlx5-link "echo down >$D/mlx5_shim1p0/link" "echo up >$D/mlx5_shim1p0/link"
race mlx5-client-module "rmmod mlx5_shim_rdma" "modprobe mlx5_shim_rdma"
race sof-parent "echo '1 clients=ipc_flood:1' >$SOF_DRV/new_device" "echo 1 >$SOF_DRV/del_device"
race sof-flood0 "echo 20 >$F0/ipc_flood_count"
race sof-flood1 "echo 20 >$F1/ipc_flood_duration_ms"
race sof-crash "echo crash >$S/fw_state" "echo boot >$S/fw_state"
race sof-client-module "rmmod snd_sof_shim_probes" "modprobe snd_sof_shim_probes"

# System sleep in the middle, while the loops run
sleeps=0
if [ -w /sys/power/pm_test ] && grep -qw freeze /sys/power/state; then
	pm_test_begin devices
	# at least one attempt, however long the first one takes
	while :; do
		echo freeze >/sys/power/state 2>/dev/null && sleeps=$((sleeps + 1))
		[ "$(now)" -lt "$END" ] || break
	done
	pm_test_end
fi

wait
PIDS=""
total=0
never=""
for f in /tmp/race.*; do
	set -- $(cat "$f")
	n=$1
	shift
	total=$((total + n))
	echo "# ${f#/tmp/race.}: $n iterations, each step succeeded: $*"
	[ "$n" -gt 0 ] || t_fail "loop ${f#/tmp/race.} ran" "0 iterations"
	k=0
	for ok; do
		k=$((k + 1))
		# mlx5-sf-bind finds SFs only while mlx5-parent's adapter 2 has them, and loses
		# most races for them (3 of 18 iterations succeeded on bookworm): its command is
		# checked once after the race instead
		[ "$ok" -gt 0 ] || [ "${f#/tmp/race.}" = mlx5-sf-bind ] ||
			never="$never ${f#/tmp/race.}:step$k"
	done
done
t_eq "all 13 loops ended" 13 "$(ls /tmp/race.* | wc -l)"
# a step that always failed (a wrong path, a permanent EBUSY) raced with nothing
t_eq "every step of every loop succeeded at least once" "" "${never# }"
echo "# race-10: $total iterations of 13 loops in $DUR s, $sleeps system sleeps"
if [ -w /sys/power/pm_test ] && grep -qw freeze /sys/power/state; then
	t_check "system sleeps completed during the race" test "$sleeps" -gt 0
fi

# Both shims still work: the loops' objects can be made again and clients bind
echo 2 >$MLXBUS/del_device 2>/dev/null
echo 1 >$SOF_DRV/del_device 2>/dev/null
grep -q "^mlx5_shim_rdma " /proc/modules || modprobe mlx5_shim_rdma
grep -q "^snd_sof_shim_probes " /proc/modules || modprobe snd_sof_shim_probes
[ "$(cat $S/fw_state)" = crashed ] && echo boot >$S/fw_state
echo legacy >$D/mlx5_shim1p0/esw_mode 2>/dev/null
echo up >$D/mlx5_shim1p0/link 2>/dev/null
echo eth,rdma,vnet >$D/mlx5_shim1p1/caps 2>/dev/null
[ -e "$EDRV/$ETH" ] || echo "$ETH" >$EDRV/bind 2>/dev/null
t_check "mlx5 adapter 2 again" ctl $MLXBUS/new_device "2 ports=2"
t_check "eth client bound on adapter 2" t_wait_for "$PB/mlx5_shim2p0/$(adev mlx5_shim2p0 eth)/driver"
t_check "an SF on adapter 2" ctl $D/mlx5_shim2p0/sf_add 1
t_check "its eth client binds" t_wait_cmd 50 sh -c "ls -d $PB/mlx5_shim2p0/mlx5_shim_core.sf.*/mlx5_shim_core.eth.*/driver"
t_check "the mlx5-sf-bind loop's command works on it" eval "$SFBIND"
t_check "eth client bound on adapter 1 port 1" test -e "$AB/$ETH/driver"
# D3 loses the firmware (as on SOF): the idle DSP may be runtime-suspended by now, and in D0 it runs
t_check "DSP kept in D0" sof_dsp_on 0
t_check "SOF firmware running" test "$(cat $S/fw_state)" = boot_complete
t_check "flood after the race" sh -c "echo 10 >$F0/ipc_flood_count"
t_check "SOF device 1 again" sof_new 1 clients=ipc_flood:1
t_check "delete all" sh -c "echo 1 >$MLXBUS/del_device && echo 2 >$MLXBUS/del_device && \
	echo 0 >$SOF_DRV/del_device && echo 1 >$SOF_DRV/del_device"
for m in $MODS snd_sof_shim_probes snd_sof_shim_ipc_flood snd_sof_shim; do
	t_check "rmmod $m" rmmod $m
done
# on the kernel backend auxbus.ko is the compat code, loaded only where a module needs it
if [ "$BACKEND" = bundled ] || grep -q "^auxbus " /proc/modules; then
	t_check "rmmod auxbus" rmmod auxbus
fi
t_done
