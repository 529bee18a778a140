# SPDX-License-Identifier: GPL-2.0-only
# SOF shim reliability: a flood whose client cannot be resumed fails with that errno and leaves
# the runtime PM usage count alone.
# kernels: bookworm debug
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

# gone_within PID TENTHS: the process ends within TENTHS tenths of a second
gone_within() {
	_n=$2
	while kill -0 "$1" 2>/dev/null && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	! kill -0 "$1" 2>/dev/null
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

t_done
