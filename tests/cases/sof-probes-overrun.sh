# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim probes: the extraction DMA writes at its own rate and overruns a reader that stops
# reading for longer than its buffer lasts, as mainline's HDA host DMA does under
# sof-client-probes: no error, no stream state change and no kernel message. The reader sees
# SNDRV_COMPRESS_AVAIL above the buffer size and loses the bytes in between; once it has caught
# up, the stream is byte-exact again at its read position. A new capture is byte-exact.
# kmods: snd-compress snd-soc-core
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

sof_probes_require

log_mark() { echo "sof-probes-overrun: $1" >/dev/kmsg; }
log_since() { dmesg | sed -n "/sof-probes-overrun: $1\$/,\$p" | grep -v "sof-probes-overrun: "; }

sof_probes_new
# the firmware check at the end must not race the 200 ms autosuspend, which loses it
t_check "DSP kept in D0" sof_dsp_on 0
RING="-f 4096 -n 8"
PTS="-p $D/probe_points -w 4,1,0,6,1,0 -i 4,6"

t_check "a reader that keeps up: 64 KiB through a 32 KiB ring, byte-exact" \
	compr-capture -d $dev -b 65536 $RING $PTS

# 1. a reader that stops for 1 s (about 128 KiB of DMA) and then just reads on
log_mark plain
compr-capture -d $dev -b 131072 -t 10000 $RING $PTS -S 16384 -z 1000 >/tmp/sof-ovr1 2>&1
rc=$?
echo "# $(tr '\n' '|' </tmp/sof-ovr1)"
t_check_fails "stalled reader that only reads: capture fails (exit $rc)" test $rc -eq 0
at=$(sed -n 's/^compr-capture: mismatch at byte \([0-9]*\):.*/\1/p' /tmp/sof-ovr1)
t_check "on overwritten data after the stall (byte ${at:-none})" test "${at:-0}" -ge 16384
t_check_fails "no read or poll error: the stream still runs" \
	grep -qE "^compr-capture: (read|poll)" /tmp/sof-ovr1

# 2. the same stall, with a reader that looks at avail and catches up
log_mark avail
compr-capture -d $dev -b 262144 -t 10000 $RING $PTS -S 16384 -z 1000 -O >/tmp/sof-ovr2 2>&1
rc=$?
echo "# $(tr '\n' '|' </tmp/sof-ovr2)"
t_eq "stalled reader that checks avail: capture passes" 0 $rc
t_check "avail above the 32 KiB buffer after the stall" \
	grep -q "^compr-capture: overrun after [0-9]* bytes: avail [0-9]* of a 32768-byte buffer$" /tmp/sof-ovr2
dropped=$(sed -n 's/^compr-capture: dropped \([0-9]*\) bytes.*/\1/p' /tmp/sof-ovr2)
t_check "bytes lost to the overrun dropped (${dropped:-none})" test "${dropped:-0}" -gt 0
from=$(sed -n 's/^compr-capture: dropped [0-9]* bytes, checking again from byte \([0-9]*\)$/\1/p' /tmp/sof-ovr2)
t_check "caught up before the end (from byte ${from:-none} of 262144)" test "${from:-262144}" -lt 262144
t_check "byte-exact again after catching up" grep -q "^compr-capture: ok [0-9]* bytes verified" /tmp/sof-ovr2

t_eq "kernel log: nothing about the overruns, as in mainline" "" \
	"$(log_since plain | grep -iE 'sof|compr|xrun|overrun|probe')"
t_eq "firmware still running" boot_complete "$(cat $S/fw_state)"
t_check "a new capture afterwards, byte-exact" compr-capture -d $dev -b 65536 $PTS
t_check "unload the probes client" rmmod snd_sof_shim_probes
t_check "del_device 0" sof_del 0
t_done
