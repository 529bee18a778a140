# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim runtime PM: clients autosuspend after 3 s, the DSP (parent) suspends when no
# client is active and resumes whenever one is. As in SOF, D3 loses the firmware (fw_state
# boot_not_started) and resume boots it again; every client's fw_state handler hears
# boot_not_started and boot_complete (SOF's sof_set_fw_state() tells clients of no state in
# between). After the default is checked the clients'
# delay is set to DELAY ms through sysfs, so the waits below are short.
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

status() { cat "$1/power/runtime_status"; }
# starts_with PREFIX TEXT
starts_with() { case $2 in "$1"*) return 0 ;; esac; return 1; }

# wait_status DEV STATUS TENTHS
wait_status() {
	_n=$3
	while [ "$(status "$1")" != "$2" ] && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	[ "$(status "$1")" = "$2" ]
}

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2" sof_new 0 clients=ipc_flood:2
P=$SOF_PDEV/snd_sof_shim.0
C0=$SOF_BUS/snd_sof_shim.ipc_flood.0
C1=$SOF_BUS/snd_sof_shim.ipc_flood.1
F0=$(sof_flood_dir 0 0)
F1=$(sof_flood_dir 0 1)

t_eq "client autosuspend delay" 3000 "$(cat $C0/power/autosuspend_delay_ms)"
DELAY=2500
for c in $C0 $C1; do echo $DELAY >$c/power/autosuspend_delay_ms; done
t_eq "autosuspend delay set through sysfs" "$DELAY $DELAY" \
	"$(cat $C0/power/autosuspend_delay_ms) $(cat $C1/power/autosuspend_delay_ms)"
t_check "idle client suspends" wait_status $C0 suspended 60
t_check "idle DSP suspends" wait_status $P suspended 30
t_eq "D3 lost the firmware" boot_not_started "$(cat $P/fw_state)"
t_eq "client 0 heard it" boot_not_started "$(sof_fw_state_last $F0)"
t_eq "client 1 heard it" boot_not_started "$(sof_fw_state_last $F1)"
# as mainline's sof_suspend(): runtime suspend of a booted firmware reaches the clients' .suspend
t_eq "each runtime suspend reached client 0's .suspend" "$(sof_stat 0 runtime_suspend)" \
	"$(cat $F0/suspend_count)"
t_eq "and client 1's" "$(sof_stat 0 runtime_suspend)" "$(cat $F1/suspend_count)"
base0=$(cat $F0/fw_states)
base1=$(cat $F1/fw_states)
rs=$(sof_stat 0 runtime_suspend)
rr=$(sof_stat 0 runtime_resume)
boots=$(dmesg | grep -c 'snd_sof_shim.0: firmware 2.14.0 booted')

# the checks "within the delay" get a delay no slow guest outlives (a loaded debug guest took
# over 2.5 s between the flood and them); the short one is back before waiting for the suspend
t_check "long delay for client 0" sh -c "echo 20000 >$C0/power/autosuspend_delay_ms"
t_check "flood" sh -c "echo 200 >$F0/ipc_flood_count"
t_eq "client active right after the flood" active "$(status $C0)"
sleep 0.2
t_eq "client still active within the delay" active "$(status $C0)"
t_eq "DSP active while a client is" active "$(status $P)"
t_eq "resume booted the firmware" boot_complete "$(cat $P/fw_state)"
t_eq "once" $((boots + 1)) "$(dmesg | grep -c 'snd_sof_shim.0: firmware 2.14.0 booted')"
# a slow kernel (debug) may have suspended the DSP again by now: boot_not_started after it
t_check "client 0 heard the boot" starts_with boot_complete "$(sof_fw_states_since "$base0" $F0)"
t_check "client 1 (suspended) heard it too" \
	starts_with boot_complete "$(sof_fw_states_since "$base1" $F1)"
t_eq "other client still suspended" suspended "$(status $C1)"
t_check "DSP was resumed for the client" test "$(sof_stat 0 runtime_resume)" -gt "$rr"
t_eq "each runtime resume reached client 0's .resume" "$(sof_stat 0 runtime_resume)" \
	"$(cat $F0/resume_count)"
t_eq "and client 1's (still suspended)" "$(sof_stat 0 runtime_resume)" "$(cat $F1/resume_count)"
t_check "short delay for client 0 again" sh -c "echo $DELAY >$C0/power/autosuspend_delay_ms"
t_check "client autosuspends" wait_status $C0 suspended 50
t_check "DSP follows" wait_status $P suspended 30
t_check "DSP runtime-suspended again" test "$(sof_stat 0 runtime_suspend)" -gt "$rs"
t_eq "firmware lost again" boot_not_started "$(cat $P/fw_state)"
t_eq "client 0: booted, lost again" "boot_complete boot_not_started" \
	"$(sof_fw_states_since "$base0" $F0)"

# a client held active keeps the DSP up
t_check "hold client 1 on" sh -c "echo on >$C1/power/control"
t_eq "client 1 active" active "$(status $C1)"
sleep 0.5
t_eq "DSP active under it" active "$(status $P)"
t_check "release client 1" sh -c "echo auto >$C1/power/control"
t_check "client 1 suspends" wait_status $C1 suspended 50
t_check "DSP suspends" wait_status $P suspended 30

# a DSP whose firmware is down (crashed) suspends without the clients' .suspend, as mainline's
t_check "hold client 1 on again" sh -c "echo on >$C1/power/control"
t_check "DSP up under it" wait_status $P active 30
t_check "crash the firmware" sh -c "echo crash >$P/fw_state"
s0=$(cat $F0/suspend_count)
s1=$(cat $F1/suspend_count)
rs=$(sof_stat 0 runtime_suspend)
t_check "release client 1" sh -c "echo auto >$C1/power/control"
t_check "client 1 suspends" wait_status $C1 suspended 50
t_check "DSP suspends" wait_status $P suspended 30
t_check "DSP runtime-suspended" test "$(sof_stat 0 runtime_suspend)" -gt "$rs"
t_eq "crashed firmware: no client's .suspend ran" "$s0 $s1" \
	"$(cat $F0/suspend_count) $(cat $F1/suspend_count)"
t_done
