# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim IPC flood client: by count, by duration, in tandem, and every bad input. The
# largest count (10,000) and a tandem of 3,000 each on bookworm's own bus and on the debug
# kernel; elsewhere 2,000 and 1,000 each (under TCG about 1,000 round trips a second).
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

t_check "load" sof_load snd_sof_shim_ipc_flood snd_sof_shim_ipc_msg_injector
t_check "new_device 0 clients=ipc_flood:2,msg_injector" sof_new 0 clients=ipc_flood:2,msg_injector
F0=$(sof_flood_dir 0 0)
F1=$(sof_flood_dir 0 1)

t_check "flood by count 100" sh -c "echo 100 >$F0/ipc_flood_count"
sof_check_result "count 100 result" $F0/ipc_flood_count 100
case $KERNEL/$BACKEND in
bookworm/kernel | debug/*) BIG=10000 TANDEM=3000 ;;
*) BIG=2000 TANDEM=1000 ;;
esac
t_check "flood by count $BIG (max 10000)" sh -c "echo $BIG >$F0/ipc_flood_count"
sof_check_result "count $BIG result" $F0/ipc_flood_count $BIG
t_check "result readable through the duration file too" grep -q "IPC Flood count: $BIG" $F0/ipc_flood_duration_ms
t0=$(t_now)
t_check "flood by duration 200 ms" sh -c "echo 200 >$F1/ipc_flood_duration_ms"
t1=$(t_now)
t_check "duration in the result" grep -q "^IPC Flood test duration: 200ms$" $F1/ipc_flood_duration_ms
sof_check_result "duration 200 ms result" $F1/ipc_flood_duration_ms any
# one clock read per IPC: the response times add up to the test's run, which ends with the
# first IPC past 200 ms (avg is rounded down: up to count ns short)
c=$(sof_result $F1/ipc_flood_duration_ms count)
a=$(sof_result $F1/ipc_flood_duration_ms avg)
mx=$(sof_result $F1/ipc_flood_duration_ms max)
t_check "count x avg covers 200 ms, and ends within one IPC of it ($c x $a ns)" \
	awk -v c="${c:-0}" -v a="${a:-0}" -v mx="${mx:-0}" \
	'BEGIN { s = c * a; exit !(s >= 200000000 - c && s <= 200000000 + mx + c) }'
t_check "the write took at least 200 ms ($t0 .. $t1 s)" \
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a >= 0.2) }'
t_check "hex count 0x10" sh -c "echo 0x10 >$F0/ipc_flood_count"
sof_check_result "count 0x10 result" $F0/ipc_flood_count 16
t_check "symlink of instance 0" test -L $SOF_DBG/snd_sof_shim.0/ipc_flood_count

# bad input: -EINVAL/-E2BIG and nothing sent
tx=$(sof_stat 0 tx)
before=$(cat $F0/ipc_flood_count)
for v in "" "abc" "-1" "+5" " 5" "5 " "0" "10001" "99999999999999999999999" "1.5" "5x"; do
	sof_write_fails "count '$v' rejected" $F0/ipc_flood_count "$v" "Invalid argument"
done
for v in "0" "1001" "-100"; do
	sof_write_fails "duration '$v' rejected" $F0/ipc_flood_duration_ms "$v" "Invalid argument"
done
sof_write_fails "huge write rejected" $F0/ipc_flood_count "$(printf '%064d' 5)" "too long"
sof_write_fails "write at a non-zero offset rejected" "-o 1 $F0/ipc_flood_count" 5 "Invalid argument"
t_eq "no IPC sent by bad writes" "$tx" "$(sof_stat 0 tx)"
t_eq "previous result kept" "$before" "$(cat $F0/ipc_flood_count)"
t_check "write at offset 0 accepted" sof-write -o 0 $F0/ipc_flood_count 5

# tandem: both flood clients and the message injector at once, every reply to its sender.
# The replies differ: GLB_REPLY/0 to the floods, -EINVAL to the injector's message of a type
# the firmware does not know. A reply handed to the wrong sender fails a flood or lets an
# injection pass, and changes the count of IPCs answered without error.
I=$SOF_DBG/snd_sof_shim.0/ipc_msg_inject
# in D0 throughout: a resume boots the firmware, which restarts fw_handled
t_check "DSP kept in D0" sof_dsp_on 0
printf '\010\000\000\000\000\000\000\360' >/tmp/inj-unknown	# hdr.size 8, global type 0xf
m0=$(sof_stat 0 mismatch)
r0=$(sof_stat 0 dsp_reject)
tx=$(sof_stat 0 tx)
h=$(sof_stat 0 fw_handled)
# 20 injections, started first; the tx counter they see first and last shows the floods ran
# between them
INJ=20
rm -f /tmp/inj-out
(i=0; sof_stat 0 tx >/tmp/inj-tx0; while [ $i -lt $INJ ]; do
	dd if=/tmp/inj-unknown of=$I bs=8 count=1 >>/tmp/inj-out 2>&1 && echo accepted >>/tmp/inj-out
	i=$((i + 1))
done; sof_stat 0 tx >/tmp/inj-tx1) &
(echo $TANDEM >$F0/ipc_flood_count; echo $? >/tmp/sof-t0) &
(echo $TANDEM >$F1/ipc_flood_count; echo $? >/tmp/sof-t1) &
wait
inj=$(grep -c "Invalid argument" /tmp/inj-out)
echo "# tandem: tx $(cat /tmp/inj-tx0) at the first injection, $(cat /tmp/inj-tx1) after the last"
t_eq "tandem flood 0 succeeded" 0 "$(cat /tmp/sof-t0)"
t_eq "tandem flood 1 succeeded" 0 "$(cat /tmp/sof-t1)"
sof_check_result "tandem result 0" $F0/ipc_flood_count $TANDEM
sof_check_result "tandem result 1" $F1/ipc_flood_count $TANDEM
t_check "the floods ran while the injector sent" test "$(cat /tmp/inj-tx1)" -gt "$(cat /tmp/inj-tx0)"
t_eq "every injection got the firmware's -EINVAL" "$INJ 0" \
	"$inj $(grep -c accepted /tmp/inj-out)"
t_eq "IPCs answered without error: the floods' alone" $((tx + 2 * TANDEM)) "$(sof_stat 0 tx)"
t_eq "the firmware handled every message once" $((h + 2 * TANDEM + inj)) "$(sof_stat 0 fw_handled)"
t_eq "no mismatched reply" "$m0" "$(sof_stat 0 mismatch)"
t_eq "no message rejected by the DSP" "$r0" "$(sof_stat 0 dsp_reject)"
t_eq "no IPC timeout" 0 "$(sof_stat 0 timeout)"

# the DSP delay shows in the response times
t_check "ipc_delay_us=500" sh -c "echo 500 >$SOF_PDEV/snd_sof_shim.0/ipc_delay_us"
t_check "flood 20 with delay" sh -c "echo 20 >$F0/ipc_flood_count"
min=$(sof_result $F0/ipc_flood_count min)
t_check "min response >= 500 us with ipc_delay_us=500 (min ${min}ns)" test "${min:-0}" -ge 500000
sof_write_fails "ipc_delay_us over the max" $SOF_PDEV/snd_sof_shim.0/ipc_delay_us 100001 "Invalid argument"

# DSP notifications reach every client's rx handler. A notification needs running firmware, and D3
# loses it (as on SOF): on a slow guest the idle DSP may have runtime-suspended since the flood.
t_check "DSP kept in D0" sof_dsp_on 0
t_check "DSP sends 5 test notifications" sh -c "echo 5 >$SOF_PDEV/snd_sof_shim.0/notify"
t_eq "client 0 got them" 5 "$(cat $F0/notifications)"
t_eq "client 1 got them" 5 "$(cat $F1/notifications)"

# mainline's own flood client (sof-client-ipc-flood-test.c) on the same devices
why=$(sof_mainline_missing sof_mainline_ipc_flood_test)
if [ -n "$why" ]; then
	t_skip "mainline: sof_mainline_ipc_flood_test" "$why"
else
	t_check "mainline: the shim's flood client unloaded" rmmod snd_sof_shim_ipc_flood
	t_check "mainline: its symlinks gone" test ! -e $SOF_DBG/snd_sof_shim.0/ipc_flood_count
	t_check "mainline: load sof_mainline_ipc_flood_test" modprobe sof_mainline_ipc_flood_test
	t_check "mainline: ipc_flood.0 bound to it" sof_bound_to snd_sof_shim.ipc_flood.0 sof_mainline_ipc_flood_test
	t_check "mainline: ipc_flood.1 bound to it" sof_bound_to snd_sof_shim.ipc_flood.1 sof_mainline_ipc_flood_test
	tx=$(sof_stat 0 tx)
	t_check "mainline: flood by count 100" sh -c "echo 100 >$F0/ipc_flood_count"
	sof_check_result "mainline: count 100 result" $F0/ipc_flood_count 100
	t_eq "mainline: 100 IPCs answered" $((tx + 100)) "$(sof_stat 0 tx)"
	t_check "mainline: flood by duration 100 ms" sh -c "echo 100 >$F1/ipc_flood_duration_ms"
	t_check "mainline: duration in the result" grep -q "^IPC Flood test duration: 100ms$" \
		$F1/ipc_flood_duration_ms
	sof_check_result "mainline: duration 100 ms result" $F1/ipc_flood_duration_ms any
	t_eq "mainline: symlink of instance 0" "snd_sof_shim.ipc_flood.0/ipc_flood_count" \
		"$(readlink $SOF_DBG/snd_sof_shim.0/ipc_flood_count)"
	sof_write_fails "mainline: count 'abc' rejected" $F0/ipc_flood_count abc "Invalid argument"
fi
t_done
