# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim reliability: a flood whose client cannot be resumed fails with that errno and leaves
# the runtime PM usage count alone; a flood (or a flood waiting for another) ends at once when
# its writer is killed; a message in flight when the firmware crashes and reboots times out and
# is never acted on by the rebooted firmware; unloading the parent while new_device is written
# leaves no DSP behind.
# kernels: bookworm debug debugc
# timeout: 180
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc

pids=
cleanup() {
	for _p in $pids; do kill -KILL "$_p" 2>/dev/null; done
	wait
	sof_cleanup
}
trap cleanup EXIT

# wait_status DEV STATUS TENTHS
wait_status() {
	_n=$3
	while [ "$(cat "$1/power/runtime_status")" != "$2" ] && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	[ "$(cat "$1/power/runtime_status")" = "$2" ]
}

# stat_is ID FIELD VALUE
stat_is() { [ "$(sof_stat "$1" "$2")" = "$3" ]; }

# running PID: the process exists and is no zombie (nothing may have reaped it yet)
running() { [ -e /proc/$1 ] && ! grep -q '^State:[[:space:]]*Z' /proc/$1/status 2>/dev/null; }

# gone_within PID TENTHS: the process ends within TENTHS tenths of a second
gone_within() {
	_n=$2
	while running "$1" && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	! running "$1"
}

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:1" sof_new 0 clients=ipc_flood:1
S=$SOF_PDEV/snd_sof_shim.0
C=$SOF_BUS/snd_sof_shim.ipc_flood.0
D=$SOF_DBG/snd_sof_shim.0
F=$(sof_flood_dir 0 0)

# runtime PM of a suspended client disabled: pm_runtime_resume_and_get() fails with -EACCES and
# has dropped its usage count already; the write fails with that errno and puts nothing
echo 100 >$C/power/autosuspend_delay_ms
t_check "flood before" sh -c "echo 10 >$F/ipc_flood_count"
t_check "client suspends" wait_status $C suspended 50
t_check "disable the client's runtime PM" sh -c "echo 1 >$D/clients_rpm_disabled"
tx=$(sof_stat 0 tx)
sof_write_fails "flood fails with -EACCES" $F/ipc_flood_count 10 "Permission denied"
t_eq "nothing sent" "$tx" "$(sof_stat 0 tx)"
t_check "kernel log says why" sh -c "dmesg | grep -q 'ipc_flood.0: debugfs write failed to resume -13'"
t_check "no usage count underflow" sh -c "! dmesg | grep -q 'usage count underflow'"
if [ -e $C/power/runtime_usage ]; then
	t_eq "usage count 0" 0 "$(cat $C/power/runtime_usage)"
fi
t_check "enable it again" sh -c "echo 0 >$D/clients_rpm_disabled"
t_check "flood works again" sh -c "echo 10 >$F/ipc_flood_count"
sof_check_result "result" $F/ipc_flood_count 10
t_check "client suspends again" wait_status $C suspended 50
if [ -e $C/power/runtime_usage ]; then
	t_eq "usage count 0 after" 0 "$(cat $C/power/runtime_usage)"
fi

# a flood of 10,000 IPCs of 100 ms each (about 17 minutes) ends when its writer is killed,
# and so does a writer waiting for it
t_check "ipc_delay_us=100000" sh -c "echo 100000 >$S/ipc_delay_us"
tx=$(sof_stat 0 tx)
sof-write $F/ipc_flood_count 10000 >/tmp/sof-kill0 2>&1 &
p0=$!
pids="$pids $p0"
t_check "the flood sends" t_wait_cmd 100 sof_stat_above 0 tx "$tx"
sof-write $F/ipc_flood_duration_ms 1000 >/tmp/sof-kill1 2>&1 &
p1=$!
pids="$pids $p1"
t_check "a second writer waits for it" t_wait_cmd 100 blocked_in_write $p1
t_check "kill the waiting writer" kill -TERM $p1
t_check "it ends within 2 s" gone_within $p1 20
t_check "the flood still runs" running $p0
t_check "kill the flood" kill -KILL $p0
t_check "it ends within 2 s" gone_within $p0 20
# before the fix, the rest of the flood: about 10 s
echo 0 >$S/ipc_delay_us
wait $p0 $p1
pids=
t_check "kernel log: stopped by the signal" \
	sh -c "dmesg | grep -q 'ipc_flood.0: ipc flood test failed at [0-9]* iterations: -4$'"
t_check "flood works after the kill" sh -c "echo 100 >$F/ipc_flood_count"
sof_check_result "result after the kill" $F/ipc_flood_count 100

# a message in flight when the firmware crashes: its sender times out (a dead firmware answers
# nothing, as in SOF), the reboot waits for that (SOF boots with no IPC in flight), and the
# rebooted firmware never acts on the message (the DSP drops it: its firmware is gone)
t_check "DSP kept in D0" sof_dsp_on 0
t_check "ipc_delay_us=100000 again" sh -c "echo 100000 >$S/ipc_delay_us"
dr=$(sof_stat 0 dropped)
tx=$(sof_stat 0 tx)
(sof_write $F/ipc_flood_count 10000 >/tmp/sof-stale) &
# tx counts the replies: once the first came, the flood runs and its next message is in flight
# (the DSP works 100 ms on each)
t_check "the flood sends again" t_wait_cmd 100 sof_stat_above 0 tx "$tx"
t_check "crash and boot during the flood" sh -c "echo crash >$S/fw_state; echo boot >$S/fw_state"
wait
t_check "the flood failed with -ETIMEDOUT" grep -q "Connection timed out" /tmp/sof-stale
t_eq "booted after the timeout" boot_complete "$(cat $S/fw_state)"
# the DSP drops the message when it is done with it (the firmware that took it is gone): from
# then on the rebooted one cannot act on it
t_wait_cmd 50 stat_is 0 dropped $((dr + 1))
t_eq "rebooted firmware handled nothing" 0 "$(sof_stat 0 fw_handled)"
t_eq "the message in flight was dropped" $((dr + 1)) "$(sof_stat 0 dropped)"
echo 0 >$S/ipc_delay_us
t_check "flood on the rebooted firmware" sh -c "echo 20 >$F/ipc_flood_count"
t_eq "which handled those" 20 "$(sof_stat 0 fw_handled)"
t_eq "no mismatched reply" 0 "$(sof_stat 0 mismatch)"
t_eq "no message rejected by the DSP" 0 "$(sof_stat 0 dsp_reject)"

# unload the parent while new_device is written: no DSP is left behind
t_check "del_device 0" sof_del 0
t_check "unload the client" rmmod snd_sof_shim_ipc_flood
for round in 1 2 3; do
	(i=10; while [ $i -lt 1000 ]; do
		# the file goes first when the driver is unregistered
		[ -e $SOF_DRV/new_device ] || break
		echo "$i clients=none" 2>/dev/null >$SOF_DRV/new_device
		i=$((i + 1))
	done) &
	w=$!
	# the writer has made a DSP: the unload races with it from now on
	t_wait_for $SOF_PDEV/snd_sof_shim.10 100
	while ! rmmod snd_sof_shim 2>/dev/null; do sleep 0.05; done
	wait $w
	t_check "round $round: no DSP left after the unload" \
		sh -c "! ls -d $SOF_PDEV/snd_sof_shim.* 2>/dev/null"
	for d in $SOF_PDEV/snd_sof_shim.*; do
		[ -e "$d" ] && echo "# left behind: $d"
	done
	modprobe snd_sof_shim
done
t_done
