# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim probes: the firmware crashes while a probe extraction stream captures. The capture
# ends at once with an xrun (poll EPOLLERR or read -EPIPE, as ALSA's snd_compr_stop_error()
# makes it), every byte it read before the crash matches the pattern, the client refuses probe
# points and new streams while the firmware is down, the stream closes cleanly (before or
# after the reboot), the reboot leaves the DSP with no probe state, and a new stream captures.
# kmods: snd-compress snd-soc-core
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc

cap=
cleanup() {
	touch /tmp/sof-release
	[ -n "$cap" ] && kill "$cap" 2>/dev/null
	wait
	sof_cleanup
}
trap cleanup EXIT

sof_probes_require

# a capture far longer than the test: only the crash can end it before its own timeout
BIG="-b 1073741824 -t 120000"


# gone_within PID TENTHS: the process ends within TENTHS tenths of a second
gone_within() {
	_n=$2
	while kill -0 "$1" 2>/dev/null && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	! kill -0 "$1" 2>/dev/null
}
# reap_capture DESC LOG: the capture $cap must end within 5 s (killed if not); its exit
# status is left in rc
reap_capture() {
	if gone_within $cap 50; then
		t_ok "$1"
	else
		t_fail "$1" "still running; output: $(tr '\n' '|' <"$2")"
		kill $cap 2>/dev/null
	fi
	wait $cap
	rc=$?
	cap=
}

# ended_with_xrun DESC FILE: the capture saw the stream stopped with an error: poll with
# POLLERR, or a read failing with EPIPE (when the xrun came between poll and read)
ended_with_xrun() {
	_rev=$(sed -n 's/^compr-capture: poll revents \(0x[0-9a-f]*\)$/\1/p' "$2")
	if [ -n "$_rev" ] && [ $((_rev & 0x8)) -ne 0 ]; then
		t_ok "$1"
		echo "# $1: poll revents $_rev"
	elif grep -q "^compr-capture: read: Broken pipe" "$2"; then
		t_ok "$1"
		echo "# $1: read: Broken pipe"
	else
		t_fail "$1" "$(tr '\n' '|' <"$2")"
	fi
}

# t_match DESC TEXT ERE
t_match() {
	if echo "$2" | grep -qE "$3"; then
		t_ok "$1"
	else
		t_fail "$1" "'$2' does not match /$3/"
	fi
}

# verified_bytes FILE: the bytes the capture checked before it stopped
verified_bytes() { sed -n 's/^compr-capture: stopped after \([0-9]*\) bytes verified$/\1/p' "$1"; }

# log_since MARK: kernel log lines after the line MARK was written to /dev/kmsg
log_mark() { echo "sof-probes-crash: $1" >/dev/kmsg; }
log_since() { dmesg | sed -n "/sof-probes-crash: $1\$/,\$p"; }

sof_probes_new
t_check "DSP kept in D0" sof_dsp_on 0
t_check "capture before the crash" compr-capture -d $dev -b 16384 -p $D/probe_points -w "3,1,0,8,1,0" -i 3,8

# 1. crash under a running capture, which then ends by itself
log_mark crash1
compr-capture -d $dev $BIG -p $D/probe_points -w "3,1,0,8,1,0" -i 3,8 >/tmp/sof-cap1 2>&1 &
cap=$!
t_check "points 3 and 8 connected" sof_wait_points 2
sleep 2
t_check "capture still running before the crash" kill -0 $cap
t_check "crash the firmware" sh -c "echo crash >$S/fw_state"
reap_capture "capture ended within 5 s of the crash" /tmp/sof-cap1
t_check_fails "capture reports failure (exit $rc)" test $rc -eq 0
echo "# $(tr '\n' '|' </tmp/sof-cap1)"
ended_with_xrun "stream stopped as an xrun" /tmp/sof-cap1
t_check_fails "no timeout" grep -q "timeout" /tmp/sof-cap1
t_check_fails "no pattern mismatch" grep -q "mismatch" /tmp/sof-cap1
got=$(verified_bytes /tmp/sof-cap1)
t_check "bytes read before the crash verified ($got)" test "${got:-0}" -gt 0
made=$(log_since crash1 | sed -n 's/.*firmware crashed: probe extraction stopped after \([0-9]*\) bytes$/\1/p')
t_check "kernel log: extraction stopped after $made bytes" test -n "$made"
t_check "the DSP produced what was read" test "${made:-0}" -ge "${got:-1}"
t_eq "state crashed" crashed "$(cat $S/fw_state)"
t_eq "stream stopped exactly once" 1 "$(log_since crash1 | grep -c 'probe extraction stopped')"
t_match "new stream refused while crashed" "$(compr-capture -d $dev -b 1024 2>&1)" \
	"^compr-capture: open .*: No such device$"
sof_write_fails "points refused once the stream is closed" $D/probe_points "1,1,0" "No such file"
t_check "boot the firmware" sh -c "echo boot >$S/fw_state"
t_check "capture after the reboot, same points" compr-capture -d $dev -b 65536 -p $D/probe_points -w "3,1,0,8,1,0" -i 3,8

# 2. a crashed stream held open: nothing new while crashed, and it closes after the reboot
log_mark crash2
rm -f /tmp/sof-release
compr-capture -d $dev $BIG -p $D/probe_points -w "5,1,0" -i 5 -H /tmp/sof-release >/tmp/sof-cap2 2>&1 &
cap=$!
t_check "point 5 connected" sof_wait_points 1
sleep 1
t_check "crash the firmware again" sh -c "echo crash >$S/fw_state"
n=50
while ! grep -q "^compr-capture: stopped after" /tmp/sof-cap2 && [ $n -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
done
t_check "held capture saw the crash within 5 s" grep -q "^compr-capture: stopped after" /tmp/sof-cap2
ended_with_xrun "held stream stopped as an xrun" /tmp/sof-cap2
got=$(verified_bytes /tmp/sof-cap2)
t_check "held capture: bytes before the crash verified ($got)" test "${got:-0}" -gt 0
t_check "stream still open" kill -0 $cap
sof_write_fails "point refused while crashed" $D/probe_points "6,1,0" "No such device"
sof_write_fails "point removal refused while crashed" $D/probe_points_remove "5" "No such device"
t_check_errno "point list refused while crashed" "No such device" cat $D/probe_points
t_match "second stream refused while crashed" "$(compr-capture -d $dev -b 1024 2>&1)" \
	"^compr-capture: open .*: No such device$"
t_check "boot with the crashed stream open" sh -c "echo boot >$S/fw_state"
t_eq "rebooted DSP has no probe points" "" "$(cat $D/probe_points)"
sof_write_fails "rebooted DSP has no extractor for points" $D/probe_points "6,1,0" "Invalid argument"
t_match "second stream refused while the crashed one is open" \
	"$(compr-capture -d $dev -b 1024 2>&1)" "^compr-capture: open .*: Device or resource busy$"
log_mark close2
touch /tmp/sof-release
reap_capture "crashed stream closed" /tmp/sof-cap2
echo "# $(tr '\n' '|' </tmp/sof-cap2)"
t_check_fails "no STOP error at close" grep -q "STOP" /tmp/sof-cap2
t_eq "close logged no error" "" "$(log_since close2 | grep -E 'snd_sof_shim|ASoC|compress')"
t_check "capture after the second reboot" compr-capture -d $dev -b 65536 -p $D/probe_points -w "5,1,0,9,1,0" -i 5,9
sof_write_fails "points refused once every stream is closed" $D/probe_points "1,1,0" "No such file"

# 3. the reader dies as the firmware crashes: the close races the extraction work stopping
# and the xrun report (KASAN, lockdep and kmemleak watch this on the debug kernel)
i=0
ok=0
while [ $i -lt 6 ]; do
	compr-capture -d $dev $BIG -p $D/probe_points -w "$i,1,0" -i $i >/dev/null 2>&1 &
	cap=$!
	if sof_wait_points 1 && echo crash >$S/fw_state; then
		[ $((i % 2)) -eq 1 ] && sleep 0.05
		kill -KILL $cap
		wait $cap 2>/dev/null
		echo boot >$S/fw_state && ok=$((ok + 1))
	else
		kill -KILL $cap
		wait $cap 2>/dev/null
	fi
	cap=
	i=$((i + 1))
done
t_eq "6 readers killed as the firmware crashed, firmware rebooted each time" 6 $ok
t_check "capture after the kills" compr-capture -d $dev -b 65536 -p $D/probe_points -w "2,1,0" -i 2

t_check "unload the probes client" rmmod snd_sof_shim_probes
t_check "card gone" test ! -e $dev
t_check "del_device 0" sof_del 0
t_done
