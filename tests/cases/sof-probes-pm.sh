# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim probes across system suspend (pm_test "devices", s2idle): as on real SOF, D3 loses
# the firmware and with it the extractor and the probe points. A capture held open through the
# suspend sees its stream stop as an xrun; after resume the DSP runs again with no probe point
# and no extractor; the stream closes cleanly and a new one adds its points and captures.
# Then runtime PM: the idle DSP autosuspends and loses the firmware, and the next capture
# boots it again. Both rounds on an IPC3 firmware and on an IPC4 one (ipc=4).
# kmods: snd-compress snd-soc-core
# timeout: 240
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
. /tests/lib/pm.sh

cap=
cleanup() {
	touch /tmp/sof-release
	[ -n "$cap" ] && kill "$cap" 2>/dev/null
	wait
	pm_test_end
	sof_cleanup
}
trap cleanup EXIT

[ -w /sys/power/pm_test ] || t_skip_case "no /sys/power/pm_test (CONFIG_PM_DEBUG)"
grep -qw freeze /sys/power/state || t_skip_case "no s2idle (freeze) in /sys/power/state"
sof_probes_require

# pm_round IPC [OPTION...]: the whole round on DSP 0 created with those options
pm_round() {
	_ipc=$1
	shift
	sof_probes_new "$@"

	rm -f /tmp/sof-release
	# emptied before the child starts: the wait below must not see the last round's line
	: >/tmp/sof-pmcap
	compr-capture -d $dev -b 1073741824 -t 60000 -p $D/probe_points -w "5,1,0" -i 5 \
		-H /tmp/sof-release >/tmp/sof-pmcap 2>&1 &
	cap=$!
	t_check "$_ipc: point 5 connected" sof_wait_points 1
	t_eq "$_ipc: the open stream keeps the DSP in D0" active "$(cat $S/power/runtime_status)"
	sleep 0.5
	ss=$(sof_stat 0 system_suspend)
	t_check "$_ipc: pm_test devices, no delay" pm_test_begin devices
	t_check "$_ipc: suspend to idle (test)" sh -c "echo freeze >/sys/power/state"
	t_eq "$_ipc: DSP system suspend ran" $((ss + 1)) "$(sof_stat 0 system_suspend)"
	n=50
	while ! grep -q "^compr-capture: stopped after" /tmp/sof-pmcap && [ $n -gt 0 ]; do
		sleep 0.1
		n=$((n - 1))
	done
	t_check "$_ipc: held capture saw its stream stop within 5 s" \
		grep -q "^compr-capture: stopped after" /tmp/sof-pmcap
	rev=$(sed -n 's/^compr-capture: poll revents \(0x[0-9a-f]*\)$/\1/p' /tmp/sof-pmcap)
	if { [ -n "$rev" ] && [ $((rev & 0x8)) -ne 0 ]; } ||
		grep -q "^compr-capture: read: Broken pipe" /tmp/sof-pmcap; then
		t_ok "$_ipc: stopped as an xrun"
	else
		t_fail "$_ipc: stopped as an xrun" "$(tr '\n' '|' </tmp/sof-pmcap)"
	fi
	got=$(sed -n 's/^compr-capture: stopped after \([0-9]*\) bytes verified$/\1/p' /tmp/sof-pmcap)
	t_check "$_ipc: bytes before the suspend verified (${got:-none})" test "${got:-0}" -gt 0
	t_eq "$_ipc: firmware running after resume" boot_complete "$(cat $S/fw_state)"
	if [ $_ipc = IPC3 ]; then
		t_eq "$_ipc: resumed DSP has no probe points" "" "$(cat $D/probe_points)"
	else
		# IPC4 lists points with a large config get of the probe module, whose instance D3 lost
		_o=$(cat $D/probe_points 2>&1)
		_rc=$?
		t_check "$_ipc: resumed DSP has no probe module to list points of (rc $_rc: $_o)" \
			sh -c "[ $_rc -ne 0 ] && echo '$_o' | grep -q 'Invalid argument'"
	fi
	sof_write_fails "$_ipc: resumed DSP has no extractor for points" $D/probe_points "6,1,0" "Invalid argument"
	touch /tmp/sof-release
	n=50
	while kill -0 $cap 2>/dev/null && [ $n -gt 0 ]; do
		sleep 0.1
		n=$((n - 1))
	done
	t_check_fails "$_ipc: stream closed" kill -0 $cap
	wait $cap
	cap=
	t_check "$_ipc: a new stream adds its points and captures" \
		compr-capture -d $dev -b 65536 -p $D/probe_points -w "5,1,0,9,1,0" -i 5,9

	# runtime PM: nothing holds the DSP now, so it autosuspends (200 ms) and loses the firmware
	t_check "$_ipc: idle DSP runtime-suspends" t_wait_cmd 50 sh -c "[ \"\$(cat $S/power/runtime_status)\" = suspended ]"
	t_eq "$_ipc: and lost the firmware" boot_not_started "$(cat $S/fw_state)"
	rr=$(sof_stat 0 runtime_resume)
	boots=$(dmesg | grep -c 'snd_sof_shim.0: firmware [0-9.]* booted')
	t_check "$_ipc: a capture resumes the DSP" \
		compr-capture -d $dev -b 32768 -p $D/probe_points -w "3,1,0" -i 3
	t_check "$_ipc: a runtime resume ran" test "$(sof_stat 0 runtime_resume)" -gt "$rr"
	t_check "$_ipc: and booted the firmware" \
		test "$(dmesg | grep -c 'snd_sof_shim.0: firmware [0-9.]* booted')" -gt "$boots"
	t_check "$_ipc: unload the probes client" rmmod snd_sof_shim_probes
	t_check "$_ipc: del_device 0" sof_del 0
	pm_test_end
}

pm_round IPC3
pm_round IPC4 ipc=4 mailbox=64
t_done
