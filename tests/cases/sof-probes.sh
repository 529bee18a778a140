# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim probes client: ASoC compress capture card, probe points add/list/remove with
# hardened input, and extraction of a deterministic pattern checked byte by byte.
# kmods: snd-compress snd-soc-core
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap "touch /tmp/sof-release; wait; sof_cleanup" EXIT

sof_probes_require

t_check "load" sof_load snd_sof_shim_probes
t_check "new_device 0 clients=probes" sof_new 0 clients=probes
C=$SOF_BUS/snd_sof_shim.hda-probes.0
D=$SOF_DBG/snd_sof_shim.0
t_check "probes client bound" test -e $C/driver
card=$(ls -d $C/sound/card* 2>/dev/null | head -n 1)
t_check "sound card under the client" test -n "$card"
t_check "card id from its name" grep -q "^sofshimprobes" $card/id
n=${card##*card}
dev=/dev/snd/comprC${n}D0
t_wait_for $dev 50
t_check "compress device $dev" test -c $dev
t_check "debugfs probe_points" test -f $D/probe_points -a -f $D/probe_points_remove
sof_write_fails "probe_points refused without an extractor" $D/probe_points "1,1,0" "No such file"

# capture 64 KiB from two probe points and check every byte
t_check "capture 64 KiB from points 1 and 7" compr-capture -d $dev -b 65536 -p $D/probe_points -w "7,1,0,1,1,0" -i 1,7
echo "# $(compr-capture -d $dev -b 65536 -p $D/probe_points -w "7,1,0,1,1,0" -i 1,7 2>&1)"
t_check "capture 256 KiB from one point, small fragments" compr-capture -d $dev -b 262144 -f 1024 -n 64 -p $D/probe_points -w "3,1,0" -i 3
t_check "capture from 16 points" compr-capture -d $dev -b 32768 -p $D/probe_points \
	-w "0,1,0,1,1,0,2,1,0,3,1,0,4,1,0,5,1,0,6,1,0,7,1,0,8,1,0,9,1,0,10,1,0,11,1,0,12,1,0,13,1,0,14,1,0,15,1,0" \
	-i 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15

# points while a stream is open
sof_capture_held $dev
t_eq "list shows both points" "Id: 0x00000005  Purpose: 1  Node id: 0x0|Id: 0x00000009  Purpose: 1  Node id: 0x2|" \
	"$(cat $D/probe_points | tr '\n' '|')"
sof_write_fails "duplicate point" $D/probe_points "5,1,0" "File exists"
sof_write_fails "injection purpose refused by the DSP" $D/probe_points "6,2,0" "Invalid argument"
sof_write_fails "not a triple" $D/probe_points "6,1" "Invalid argument"
sof_write_fails "not a number" $D/probe_points "a,1,0" "Invalid argument"
sof_write_fails "negative" $D/probe_points "-6,1,0" "Invalid argument"
sof_write_fails "sign" $D/probe_points "+6,1,0" "Invalid argument"
sof_write_fails "space" $D/probe_points "6, 1,0" "Invalid argument"
sof_write_fails "empty token" $D/probe_points "6,,1,0" "Invalid argument"
sof_write_fails "empty" $D/probe_points "" "Invalid argument"
sof_write_fails "overflow" $D/probe_points "4294967296,1,0" "Invalid argument"
sof_write_fails "more than 16 points" $D/probe_points \
	"$(i=20; s=; while [ $i -lt 37 ]; do s="$s$i,1,0,"; i=$((i + 1)); done; echo "${s%,}")" "Invalid argument"
sof_write_fails "huge write" $D/probe_points "$(printf '%01100d' 1)" "too long"
sof_write_fails "write at a non-zero offset" "-o 1 $D/probe_points" "6,1,0" "Invalid argument"
t_eq "list unchanged by bad writes" 2 "$(grep -c '^Id: ' $D/probe_points)"
sof_write_fails "remove a missing point" $D/probe_points_remove "6" "No such file"
sof_write_fails "remove: bad list" $D/probe_points_remove "5,x" "Invalid argument"
t_check "add point 6" sof_write $D/probe_points "6,1,0"
t_check "remove points 9 and 6" sof_write $D/probe_points_remove "9,6"
t_eq "list after remove" "Id: 0x00000005  Purpose: 1  Node id: 0x0|" "$(cat $D/probe_points | tr '\n' '|')"
t_check_errno "probes client busy: rmmod refused" "Resource temporarily unavailable" rmmod snd_sof_shim_probes
touch /tmp/sof-release
wait $cap
t_check "capture with the stream held open passed" grep -q "^compr-capture: ok 8192 bytes verified" /tmp/sof-cap
sof_write_fails "points refused once the stream is closed" $D/probe_points "1,1,0" "No such file"

# the firmware crashed: no new stream. The DSP stays in D0 (D3 loses the crashed firmware, and
# resume would boot it again before the "boot" below)
t_check "DSP kept in D0" sof_dsp_on 0
t_check "crash" sh -c "echo crash >$SOF_PDEV/snd_sof_shim.0/fw_state"
t_check_errno "open refused while crashed" "^compr-capture: open .*: No such device$" compr-capture -d $dev -b 1024
t_check "boot" sh -c "echo boot >$SOF_PDEV/snd_sof_shim.0/fw_state"
t_check "capture after recovery" compr-capture -d $dev -b 16384 -p $D/probe_points -w "2,1,0" -i 2

# two DSPs with probes: each card's CPU DAI is its own DSP's (every client's DAI has the same
# name), so a capture on either card drives its own DSP's extractor, both at once
t_check "new_device 1 clients=probes" sof_new 1 clients=probes
card1=$(ls -d $SOF_BUS/snd_sof_shim.hda-probes.1/sound/card* 2>/dev/null | head -n 1)
dev1=/dev/snd/comprC${card1##*card}D0
t_wait_for $dev1 50
t_check "compress device of DSP 1: $dev1" test -n "$card1" -a -c $dev1 -a $dev1 != $dev
D=$SOF_DBG/snd_sof_shim.1
sof_capture_held $dev1
t_check "capture on DSP 1 held open" grep -q "^compr-capture: ok" /tmp/sof-cap
t_check "capture on DSP 0 meanwhile" compr-capture -d $dev -b 16384 -p $SOF_DBG/snd_sof_shim.0/probe_points -w "3,1,0" -i 3
t_eq "DSP 1's points" "Id: 0x00000005  Purpose: 1  Node id: 0x0|Id: 0x00000009  Purpose: 1  Node id: 0x2|" \
	"$(cat $D/probe_points | tr '\n' '|')"

touch /tmp/sof-release
wait $cap
t_check "del_device 1" sof_del 1

# IPC3 with mailbox=64: no message or reply is larger than the mailbox. Four points fit one
# POINT_ADD (60 bytes) and a POINT_INFO reply (64); five do not fit a reply (76): the firmware
# answers -EINVAL instead of writing past its mailbox, so the host has no reply to refuse
t_check "new_device 3 ipc=3 mailbox=64 clients=probes" sof_new 3 ipc=3 mailbox=64 clients=probes
card3=$(ls -d $SOF_PDEV/snd_sof_shim.3/snd_sof_shim.hda-probes.*/sound/card* 2>/dev/null | head -n 1)
dev3=/dev/snd/comprC${card3##*card}D0
t_wait_for $dev3 50
t_check "compress device of DSP 3: $dev3" test -n "$card3" -a -c $dev3
D=$SOF_DBG/snd_sof_shim.3
sof_capture_held $dev3
t_check "capture through a 64-byte mailbox held open" grep -q "^compr-capture: ok" /tmp/sof-cap
t_check "two more points: four" sof_write $D/probe_points "1,1,0,2,1,0"
t_eq "four points fit a reply" 4 "$(grep -c '^Id: ' $D/probe_points)"
t_check "a fifth point" sof_write $D/probe_points "3,1,0"
m=$(sof_stat 3 mismatch)
t_log_mark mailbox64
t_check_errno "the list of five does not fit: the firmware refuses it" "Invalid argument" \
	cat $D/probe_points
t_eq "no reply the host had to refuse" "$m" "$(sof_stat 3 mismatch)"
t_check "no reply larger than the host's buffer" t_log_lacks mailbox64 "reply size .* exceeds"
sof_write_fails "five points at once (72 bytes) refused by the client: -E2BIG" $D/probe_points \
	"20,1,0,21,1,0,22,1,0,23,1,0,24,1,0" "Argument list too long"
t_check "remove point 3" sof_write $D/probe_points_remove "3"
t_eq "four points again" 4 "$(grep -c '^Id: ' $D/probe_points)"
touch /tmp/sof-release
wait $cap
t_check "capture through a 64-byte mailbox passed" grep -q "^compr-capture: ok 8192 bytes verified" /tmp/sof-cap
t_check "del_device 3" sof_del 3

# deleting a DSP under an open stream: del_device waits for the stream to be closed, the
# stream fails every use meanwhile (no use-after-free of the card's compress device), and
# closing it lets del_device finish
t_check "new_device 2 clients=probes" sof_new 2 clients=probes
# client ids are global: DSP 2's probes client is a child of its platform device
card2=$(ls -d $SOF_PDEV/snd_sof_shim.2/snd_sof_shim.hda-probes.*/sound/card* 2>/dev/null | head -n 1)
dev2=/dev/snd/comprC${card2##*card}D0
t_wait_for $dev2 50
t_check "compress device of DSP 2: $dev2" test -n "$card2" -a -c $dev2
D=$SOF_DBG/snd_sof_shim.2
sof_capture_held $dev2 -G
t_check "capture on DSP 2 held open" grep -q "^compr-capture: ok" /tmp/sof-cap
t_log_mark del2
sof_del 2 &
del=$!
t_check "removal waits for the stream" \
	t_wait_cmd 50 t_log_has del2 "probes stream open: waiting for it to be closed"
t_check "del_device 2 still waiting" kill -0 $del
t_check "its card stays meanwhile" test -c $dev2
t_log_mark new2
sof_write_fails "new_device 2 meanwhile: EBUSY, the id is still taken" $SOF_DRV/new_device \
	"2 clients=probes" "Device or resource busy"
t_check "the log says why" t_log_has new2 "new_device: DSP 2 is still being deleted"
sof_write_fails "del_device 2 again meanwhile: ENOENT, it is being deleted" $SOF_DRV/del_device \
	"2" "No such file"
touch /tmp/sof-release
wait $cap
rc=$?
t_check "the stream fails every use, then closes" test $rc -eq 0
t_eq "how the stream fails" \
	"compr-capture: gone: AVAIL Broken pipe, read Broken pipe, STOP No such device" \
	"$(grep '^compr-capture: gone:' /tmp/sof-cap)"
wait $del
rc=$?
t_check "del_device 2 returned 0 once the stream was closed" test $rc -eq 0
t_check "DSP 2 gone" t_wait_gone $SOF_PDEV/snd_sof_shim.2
t_check "its compress device gone" test ! -e $dev2
t_check "new_device 2 again" sof_new 2 clients=probes
t_check "del_device 2 with no stream" sof_del 2
D=$SOF_DBG/snd_sof_shim.0

t_check "unload the probes client" rmmod snd_sof_shim_probes
t_check "card gone" test ! -e $dev
t_check "del_device 0" sof_del 0
t_done
