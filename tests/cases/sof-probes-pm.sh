# SPDX-License-Identifier: GPL-2.0-only
# SOF shim probes across system suspend (pm_test "devices", s2idle): as on real SOF, D3 loses
# the firmware and with it the extractor and the probe points. A capture held open through the
# suspend sees its stream stop as an xrun; after resume the DSP runs again with no probe point
# and no extractor; the stream closes cleanly and a new one adds its points and captures.
# kmods: snd-compress snd-soc-core
# timeout: 120
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

sof_probes_new

rm -f /tmp/sof-release
compr-capture -d $dev -b 1073741824 -t 60000 -p $D/probe_points -w "5,1,0" -i 5 \
	-H /tmp/sof-release >/tmp/sof-pmcap 2>&1 &
cap=$!
t_check "point 5 connected" sof_wait_points 1
t_eq "the open stream keeps the DSP in D0" active "$(cat $S/power/runtime_status)"
sleep 0.5
ss=$(sof_stat 0 system_suspend)
t_check "pm_test devices, no delay" pm_test_begin devices
t_check "suspend to idle (test)" sh -c "echo freeze >/sys/power/state"
t_eq "DSP system suspend ran" $((ss + 1)) "$(sof_stat 0 system_suspend)"
n=50
while ! grep -q "^compr-capture: stopped after" /tmp/sof-pmcap && [ $n -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
t_check "held capture saw its stream stop within 5 s" \
	grep -q "^compr-capture: stopped after" /tmp/sof-pmcap
rev=$(sed -n 's/^compr-capture: poll revents \(0x[0-9a-f]*\)$/\1/p' /tmp/sof-pmcap)
if { [ -n "$rev" ] && [ $((rev & 0x8)) -ne 0 ]; } ||
	grep -q "^compr-capture: read: Broken pipe" /tmp/sof-pmcap; then
	t_ok "stopped as an xrun"
else
	t_fail "stopped as an xrun" "$(tr '\n' '|' </tmp/sof-pmcap)"
fi
got=$(sed -n 's/^compr-capture: stopped after \([0-9]*\) bytes verified$/\1/p' /tmp/sof-pmcap)
t_check "bytes before the suspend verified (${got:-none})" test "${got:-0}" -gt 0
t_eq "firmware running after resume" boot_complete "$(cat $S/fw_state)"
t_eq "resumed DSP has no probe points" "" "$(cat $D/probe_points)"
sof_write_fails "resumed DSP has no extractor for points" $D/probe_points "6,1,0" "Invalid argument"
touch /tmp/sof-release
n=50
while kill -0 $cap 2>/dev/null && [ $n -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
t_check_fails "stream closed" kill -0 $cap
wait $cap
cap=
t_check "a new stream adds its points and captures" \
	compr-capture -d $dev -b 65536 -p $D/probe_points -w "5,1,0,9,1,0" -i 5,9
t_done
