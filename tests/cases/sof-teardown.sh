# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# SOF shim teardown under load: deleting or unbinding a DSP while its clients flood it, and
# unloading a client module while one of its files is in use.
# kmods: snd-compress snd-soc-core
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

t_check "load" sof_load snd_sof_shim_ipc_flood
# Floods of 10,000 IPCs at 1 ms each take 10 s or more: whatever the kernel's speed, the
# teardown comes while they run. "Running" is measured (the DSP's tx counter moves), not slept.
t_check "new_device 0 ipc_delay_us=1000" sof_new 0 ipc_delay_us=1000
F0=$(sof_flood_dir 0 0)
F1=$(sof_flood_dir 0 1)

# flooding ID N: wait (up to 10 s) until the DSP ID has sent N more IPCs
flooding() {
	_t0=$(sof_stat $1 tx)
	_n=100
	while [ "$_n" -gt 0 ]; do
		[ "$(sof_stat $1 tx)" -ge $((_t0 + $2)) ] 2>/dev/null && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# delete during a tandem flood
(sof_write $F0/ipc_flood_count 10000 >/tmp/sof-d0; echo $? >/tmp/sof-d0-rc) &
(sof_write $F1/ipc_flood_count 10000 >/tmp/sof-d1; echo $? >/tmp/sof-d1-rc) &
t_check "both floods running" flooding 0 4
t_check "del_device during the flood" sof_del 0
wait
# the client's remove stops its test (-ESHUTDOWN) before its files and the DSP go
t_check_errno "flood 0 was cut short: ESHUTDOWN" "endpoint shutdown" \
	sh -c 'cat /tmp/sof-d0; exit "$(cat /tmp/sof-d0-rc)"'
t_check_errno "flood 1 was cut short: ESHUTDOWN" "endpoint shutdown" \
	sh -c 'cat /tmp/sof-d1; exit "$(cat /tmp/sof-d1-rc)"'
t_check "clients gone" sh -c "! ls -d $SOF_BUS/snd_sof_shim.* 2>/dev/null"
t_check "DSP gone" test ! -e $SOF_PDEV/snd_sof_shim.0

# unbind during a flood
t_check "new_device 1 ipc_delay_us=1000" sof_new 1 ipc_delay_us=1000
F=$(sof_flood_dir 1 0)
(echo 10000 >$F/ipc_flood_count) 2>/dev/null &
t_check "flood running" flooding 1 2
t_check "unbind during the flood" sh -c "echo snd_sof_shim.1 >$SOF_DRV/unbind"
wait
t_check "clients gone after unbind" sh -c "! ls -d $SOF_BUS/snd_sof_shim.* 2>/dev/null"
t_check "del_device of the unbound DSP" sof_del 1

# unloading a client whose file is in use fails cleanly, and works once the writer is gone
# (SIGKILL: a fatal signal ends a flood)
t_check "new_device 2 ipc_delay_us=1000" sof_new 2 clients=ipc_flood:1 ipc_delay_us=1000
F=$(sof_flood_dir 2 0)
(echo 10000 >$F/ipc_flood_count) 2>/dev/null &
W=$!
t_check "flood running" flooding 2 2
t_check_errno "flood client busy: rmmod refused" "Resource temporarily unavailable" rmmod snd_sof_shim_ipc_flood
t_check_errno "parent busy: rmmod refused" "Resource temporarily unavailable" rmmod snd_sof_shim
kill -KILL $W
wait
t_check "flood client unloads once its writer is killed" rmmod snd_sof_shim_ipc_flood
t_check "parent unloads and removes DSP 2" rmmod snd_sof_shim
t_check "DSP 2 gone" test ! -e $SOF_PDEV/snd_sof_shim.2
t_done
