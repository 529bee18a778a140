# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim IPC flood client: by count, by duration, in tandem, and every bad input. The
# largest count (10,000) and a tandem of 3,000 each on bookworm's own bus and on the debug
# kernel; elsewhere 2,000 and 1,000 each (under TCG about 1,000 round trips a second).
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2" sof_new 0 clients=ipc_flood:2
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
t_check "flood by duration 200 ms" sh -c "echo 200 >$F1/ipc_flood_duration_ms"
t_check "duration in the result" grep -q "^IPC Flood test duration: 200ms$" $F1/ipc_flood_duration_ms
sof_check_result "duration 200 ms result" $F1/ipc_flood_duration_ms any
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

# tandem: both clients at once, every reply matched
m0=$(sof_stat 0 mismatch)
r0=$(sof_stat 0 dsp_reject)
(echo $TANDEM >$F0/ipc_flood_count; echo $? >/tmp/sof-t0) &
(echo $TANDEM >$F1/ipc_flood_count; echo $? >/tmp/sof-t1) &
wait
t_eq "tandem flood 0 succeeded" 0 "$(cat /tmp/sof-t0)"
t_eq "tandem flood 1 succeeded" 0 "$(cat /tmp/sof-t1)"
sof_check_result "tandem result 0" $F0/ipc_flood_count $TANDEM
sof_check_result "tandem result 1" $F1/ipc_flood_count $TANDEM
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
t_done
