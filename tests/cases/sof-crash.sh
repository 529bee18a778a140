# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim firmware crash and recovery: clients refuse work with -ENODEV, a flood cut by a
# crash keeps its partial statistics, and everything works again after the firmware boots.
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:1 ipc_delay_us=200" sof_new 0 clients=ipc_flood:1 ipc_delay_us=200
t_check "DSP kept in D0" sof_dsp_on 0
S=$SOF_PDEV/snd_sof_shim.0
F=$(sof_flood_dir 0 0)

# crash_recover PREFIX: a crashed firmware refuses floods and a second crash, a running one a
# second boot; after a boot floods work again
crash_recover() {
	t_check "${1}crash the firmware" sh -c "echo crash >$S/fw_state"
	t_eq "${1}state crashed" crashed "$(cat $S/fw_state)"
	sof_write_fails "${1}flood refused while crashed" $F/ipc_flood_count 10 "No such device"
	sof_write_fails "${1}crash again refused" $S/fw_state crash "Device or resource busy"
	sof_write_fails "${1}bad state word" $S/fw_state reboot "Invalid argument"
	t_check "${1}boot the firmware" sh -c "echo boot >$S/fw_state"
	t_eq "${1}state boot_complete" boot_complete "$(cat $S/fw_state)"
	sof_write_fails "${1}boot while running refused" $S/fw_state boot "Device or resource busy"
	t_check "${1}flood works after recovery" sh -c "echo 50 >$F/ipc_flood_count"
	sof_check_result "${1}result after recovery" $F/ipc_flood_count 50
}
# crash_flood PREFIX MARK: a crash in the middle of a flood stops it and keeps its partial
# statistics (10000 IPCs of >= 200 us each: still running when the crash comes, on any kernel)
crash_flood() {
	tx=$(sof_stat 0 tx)
	t_log_mark "$2"
	(sof_write $F/ipc_flood_count 10000 >/tmp/sof-c; echo $? >/tmp/sof-c-rc) &
	t_check "${1}the flood runs (IPCs answered)" t_wait_cmd 100 sof_stat_above 0 tx "$tx"
	t_check "${1}crash during the flood" sh -c "echo crash >$S/fw_state"
	wait
	# the message in flight dies with the firmware (it times out), or the next one is refused
	t_check_errno "${1}flood write failed: timed out or refused" "timed out\|No such device" \
		sh -c 'cat /tmp/sof-c; exit "$(cat /tmp/sof-c-rc)"'
	t_check "${1}boot again" sh -c "echo boot >$S/fw_state"
	sof_check_result "${1}partial statistics kept" $F/ipc_flood_count any
}

crash_recover ""
crash_flood "" flood-crash
t_check "result says where it failed" grep -q "^IPC Flood test failed at iteration [0-9]*: error -\(110\|19\)$" $F/ipc_flood_count
t_check "kernel log names the iteration" \
	t_log_has flood-crash 'ipc_flood.0: ipc flood test failed at [0-9]* iterations: -\(110\|19\)$'
t_check "client heard the crash" t_log_has flood-crash 'ipc_flood.0: firmware crashed: flood tests refused'
t_check "flood works after the second recovery" sh -c "echo 10 >$F/ipc_flood_count"

# mainline's own flood client (sof-client-ipc-flood-test.c) on the same device
if sof_mainline_use snd_sof_shim_ipc_flood sof_mainline_ipc_flood_test snd_sof_shim.ipc_flood.0; then
	crash_recover "mainline: "
	crash_flood "mainline: " ml-crash
	t_check "mainline: kernel log names the iteration" \
		t_log_has ml-crash 'ipc_flood.0: ipc flood test failed at [0-9]* iterations$'
	t_check "mainline: flood works after the second recovery" sh -c "echo 10 >$F/ipc_flood_count"
fi

# a fw_state handler may send IPC (the shim calls handlers without tx_mutex):
# sof_shim_fwstate_test's sends one when the firmware has booted
t_check "sof_shim_fwstate_test in place of the flood client" sh -c "
	rmmod sof_mainline_ipc_flood_test 2>/dev/null; rmmod snd_sof_shim_ipc_flood 2>/dev/null
	modprobe sof_shim_fwstate_test"
t_check "snd_sof_shim.ipc_flood.0 bound to it" \
	sof_bound_to snd_sof_shim.ipc_flood.0 sof_shim_fwstate_test
t_check "crash the firmware" sh -c "echo crash >$S/fw_state"
t_log_mark fwstate-ipc
t_check "boot it: the handler's IPC does not block the boot" sh -c "echo boot >$S/fw_state"
t_check "the handler's IPC was answered" t_log_has fwstate-ipc \
	'ipc_flood.0: firmware booted: IPC sent from the fw_state handler: 0$'
t_done
