# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim IPC timeout: a hung firmware ("hang") takes each message and never answers. The
# sender fails with -ETIMEDOUT after 500 ms, and the timeout is a firmware exception, as in
# SOF: the firmware is marked crashed, the clients' fw_state handlers hear it, and the sender
# waiting on the tx mutex behind it gets -ENODEV instead of a second timeout. The IPC works
# again after "boot". A DSP deleted while a sender waits on a hung firmware goes away once that
# IPC has timed out.
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

# within T0 LO HI: LO <= (now - T0) <= HI seconds
within() {
	awk -v a="$1" -v b="$(t_now)" -v lo="$2" -v hi="$3" \
		'BEGIN { d = b - a; exit !(d >= lo && d <= hi) }'
}

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2" sof_new 0 clients=ipc_flood:2
t_check "DSP kept in D0" sof_dsp_on 0
S=$SOF_PDEV/snd_sof_shim.0
F0=$(sof_flood_dir 0 0)
F1=$(sof_flood_dir 0 1)

t_check "flood before the hang" sh -c "echo 10 >$F0/ipc_flood_count"
sof_write_fails "bad state word refused" $S/fw_state hung "Invalid argument"
t_check "hang the firmware" sh -c "echo hang >$S/fw_state"
t_eq "a hung firmware still reads booted" boot_complete "$(cat $S/fw_state)"
sof_write_fails "hang again refused" $S/fw_state hang "Device or resource busy"

to=$(sof_stat 0 timeout)
t_log_mark hang1
t0=$(t_now)
sof_write_fails "flood on a hung firmware times out" $F0/ipc_flood_count 5 "Connection timed out"
t_check "after the 500 ms IPC timeout" within "$t0" 0.45 3
t_eq "one timeout counted" $((to + 1)) "$(sof_stat 0 timeout)"
t_check "kernel log names the IPC" t_log_has hang1 'snd_sof_shim.0: ipc tx timed out for 0xb0010000 '
t_check "the timeout is a firmware exception" t_log_has hang1 'snd_sof_shim.0: IPC timeout$'
t_eq "the firmware is marked crashed" crashed "$(cat $S/fw_state)"
t_eq "both clients heard the crash" 2 \
	"$(t_log_since hang1 | grep -c 'ipc_flood.[01]: firmware crashed: flood tests refused')"
sof_write_fails "later IPCs refused" $F1/ipc_flood_count 1 "No such device"
t_eq "and not timed out" $((to + 1)) "$(sof_stat 0 timeout)"
sof_write_fails "hang refused while crashed" $S/fw_state hang "Device or resource busy"
t_check "boot" sh -c "echo boot >$S/fw_state"
t_eq "booted again" boot_complete "$(cat $S/fw_state)"
# the client's files open again once the firmware runs
t_check "result says where it failed" \
	grep -q "failed at iteration 1: error -110" $F0/ipc_flood_count

# two senders: one in flight, the other waits on the tx mutex; the first times out and marks
# the firmware crashed, so the second is refused at once instead of timing out too
t_check "hang again" sh -c "echo hang >$S/fw_state"
t0=$(t_now)
(sof_write $F0/ipc_flood_count 3 >/tmp/sof-hang0) &
(sof_write $F1/ipc_flood_count 3 >/tmp/sof-hang1) &
wait
t_check "both done within one timeout" within "$t0" 0.45 2.5
t_eq "one timed out, the other was refused" "1 1" \
	"$(cat /tmp/sof-hang0 /tmp/sof-hang1 | grep -c 'Connection timed out') $(cat /tmp/sof-hang0 /tmp/sof-hang1 | grep -c 'No such device')"
t_eq "one more timeout counted" $((to + 2)) "$(sof_stat 0 timeout)"

t_check "boot after the second timeout" sh -c "echo boot >$S/fw_state"
t_check "flood after the reboot" sh -c "echo 100 >$F0/ipc_flood_count"
sof_check_result "flood after the reboot" $F0/ipc_flood_count 100
t_eq "no timeout after the reboot" $((to + 2)) "$(sof_stat 0 timeout)"
t_eq "no refused reply" 0 "$(sof_stat 0 mismatch)"

# delete the DSP while a flood waits on the hung firmware
t_check "hang again" sh -c "echo hang >$S/fw_state"
sof-write $F0/ipc_flood_duration_ms 1000 >/tmp/sof-hang2 2>&1 &
w=$!
t_check "the flood's writer waits on the hung firmware" t_wait_cmd 100 blocked_in_write $w
t0=$(t_now)
t_check "del_device during a hung IPC" sof_del 0
t_check "returns once the IPC timed out" within "$t0" 0 3
wait $w
t_check "the flood failed" test -s /tmp/sof-hang2
t_check "DSP gone" test ! -e $S
t_check "DSP thread gone" sh -c '! grep -qx sof-shim-dsp0 /proc/[0-9]*/comm 2>/dev/null'
t_done
