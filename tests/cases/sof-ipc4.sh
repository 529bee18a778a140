# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim: an IPC4 firmware (new_device ipc=4). The choice and its checks (no IPC flood test
# on IPC4, as in mainline); raw IPC4 messages through the message injector (primary and
# extension words, then the payload): the firmware's reply status as mainline's errno
# (unknown message type -EOPNOTSUPP, unknown module -EINVAL, busy -EBUSY), the probe module
# created, its points set and got by large config, bad sizes refused with nothing sent, and a
# hung firmware's timeout turned into a crash as with IPC3;
# the probes client on IPC4 with a 64-byte mailbox, so that large config set and get take
# several blocks: a capture checked byte by byte, points added, listed and removed.
# kmods: snd-compress snd-soc-core
# timeout: 300
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap "touch /tmp/sof-release; wait; sof_cleanup" EXIT

t_check "load" sof_load snd_sof_shim_ipc_flood snd_sof_shim_ipc_msg_injector \
	snd_sof_shim_ipc_kernel_injector
t_log_mark sof-ipc4
sof_write_fails "ipc=5 refused" $SOF_DRV/new_device "0 ipc=5" "Invalid argument"
sof_write_fails "ipc= refused" $SOF_DRV/new_device "0 ipc=" "Invalid argument"
sof_write_fails "ipc=4 with the flood test refused" $SOF_DRV/new_device "0 ipc=4 clients=ipc_flood" \
	"Invalid argument"
sof_write_fails "mailbox=63 refused" $SOF_DRV/new_device "0 ipc=4 mailbox=63" "Invalid argument"
sof_write_fails "mailbox=385 refused" $SOF_DRV/new_device "0 ipc=4 mailbox=385" "Invalid argument"
t_check "nothing created" test ! -e $SOF_PDEV/snd_sof_shim.0
t_check "kernel log: why ipc=5" t_log_has sof-ipc4 'new_device: ipc=5: the firmware speaks IPC 3 or 4'
t_check "kernel log: why no flood test" \
	t_log_has sof-ipc4 'new_device: ipc_flood: the IPC flood test is IPC3 only'
t_check "kernel log: why mailbox=63" t_log_has sof-ipc4 'new_device: mailbox=63: 64..384 bytes'

t_check "new_device 2 ipc=3 (the default, spelt out)" sof_new 2 ipc=3
t_eq "IPC3 firmware: default clients" "ipc_flood:2,probes:1,msg_injector:0,kernel_injector:0" \
	"$(cat $SOF_PDEV/snd_sof_shim.2/clients)"
t_check "flood client bound" test -e $SOF_BUS/snd_sof_shim.ipc_flood.0/driver
t_check "new_device 3 ipc=4 (default clients)" sof_new 3 ipc=4
t_eq "IPC4 default firmware: probes only" "ipc_flood:0,probes:1,msg_injector:0,kernel_injector:0" \
	"$(cat $SOF_PDEV/snd_sof_shim.3/clients)"
# the test notification is an IPC3 message: an IPC4 firmware sends no such notification
t_check "DSP 2 kept in D0" sof_dsp_on 2
t_check "DSP 3 kept in D0" sof_dsp_on 3
rx=$(sof_stat 3 rx)
sof_write_fails "IPC4 firmware: no test notifications" $SOF_PDEV/snd_sof_shim.3/notify 1 \
	"not supported"
t_eq "none delivered" "$rx" "$(sof_stat 3 rx)"
t_check "the IPC3 firmware sends them" sh -c "echo 2 >$SOF_PDEV/snd_sof_shim.2/notify"
t_check "new_device 4 ipc=4 clients=kernel_injector" sof_new 4 ipc=4 clients=kernel_injector
t_check "IPC3-only kernel injector not registered (as mainline)" \
	sh -c "! ls -d $SOF_PDEV/snd_sof_shim.4/snd_sof_shim.kernel_injector.* 2>/dev/null"
t_check "kernel log: why" \
	t_log_has sof-ipc4 'IPC4 firmware: no kernel injector (IPC3 only)'
t_check "del_device 4" sof_del 4
t_check "del_device 3" sof_del 3
t_check "del_device 2" sof_del 2

# ---- raw IPC4 messages ----
t_check "new_device 1 ipc=4 mailbox=64 clients=msg_injector" \
	sof_new 1 ipc=4 mailbox=64 clients=msg_injector
t_check "kernel log: DSP up, IPC4" \
	t_log_has sof-ipc4 'snd_sof_shim.1: DSP up: firmware .* (IPC4, mailbox 64 bytes)'
t_check "DSP kept in D0" sof_dsp_on 1
I=$SOF_DBG/snd_sof_shim.1/ipc_msg_inject
t_check "injector bound to the IPC4 firmware" test -e $SOF_BUS/snd_sof_shim.msg_injector.0/driver
t_check "debugfs ipc_msg_inject" test -f $I

# inject FILE: write FILE to ipc_msg_inject in one write(); prints the error text
inject() {
	_o=$(dd if="$1" of=$I bs=4096 count=1 2>&1) && return 0
	echo "$_o" | grep -v records
	return 1
}
# inject_fails DESC FILE ERRTEXT: the write must fail with that error (case-insensitive)
inject_fails() {
	_o=$(inject "$2")
	if [ $? -ne 0 ] && echo "$_o" | grep -qi "$3"; then
		t_ok "$1"
	else
		t_fail "$1" "wanted '$3', got '$_o'"
	fi
}
reply() { od -An -tx1 $I | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }
# le32 N: N as 4 little-endian bytes (printf octal escapes)
le32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) \
	$(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
# msg FILE PRIMARY EXTENSION [WORD...]: an IPC4 message with a payload of u32 words
msg() {
	_f=$1
	shift
	for _w in "$@"; do le32 $_w; done >$_f
}

PROBE=$((0x10))
MOD=$((1 << 30))
INIT=0
LC_GET=$((3 << 24))
LC_SET=$((4 << 24))
DELETE=$((11 << 24))
FIRST=$((1 << 29))
LAST=$((1 << 28))
POINTS=$((3 << 20))
DISCONNECT=$((4 << 20))
DST_INVALID=$((0xff << 16))
# struct sof_ipc4_probe_cfg: base config (10 words), node id (HDA host input, index 0), size
CFG="0 0 0 0 0 0 0 0 0 0 $((1 << 8)) 4096"

msg /tmp/i4-gen 0 0
h=$(sof_stat 1 fw_handled)
inject_fails "global message unknown to the firmware: -EOPNOTSUPP" /tmp/i4-gen "not supported"
t_eq "it reached the firmware" $((h + 1)) "$(sof_stat 1 fw_handled)"
t_check "kernel log: the firmware's status" \
	t_log_has sof-ipc4 'snd_sof_shim.1: FW reported error: 2 - Unknown message type specified'
t_eq "no reply kept after an error" "" "$(reply)"

msg /tmp/i4-unk $((MOD | LC_GET | 0x22)) $((FIRST | POINTS | 64))
inject_fails "unknown module: -EINVAL" /tmp/i4-unk "Invalid argument"
t_check "kernel log: status 110" \
	t_log_has sof-ipc4 'snd_sof_shim.1: FW reported error: 110 - Invalid (out of range) module ID'

msg /tmp/i4-del $((MOD | DELETE | PROBE)) $DST_INVALID
inject_fails "delete a probe module that does not exist: -EINVAL" /tmp/i4-del "Invalid argument"

msg /tmp/i4-init $((MOD | INIT | PROBE)) $((DST_INVALID | 12)) $CFG
t_check "init the probe module (48-byte config)" inject /tmp/i4-init
t_eq "reply: init instance, reply direction, status 0" "00 00 00 60 00 00 00 00" "$(reply)"
inject_fails "init it again: busy, -EBUSY" /tmp/i4-init "busy"
t_check "kernel log: status 4" \
	t_log_has sof-ipc4 'snd_sof_shim.1: FW reported error: 4 - The system or resource is busy'

msg /tmp/i4-get $((MOD | LC_GET | PROBE)) $((FIRST | POINTS | 64))
t_check "large config get: probe points" inject /tmp/i4-get
t_eq "reply: first and last block, 4 bytes, no points" \
	"00 00 00 63 04 00 30 30 00 00 00 00" "$(reply)"
msg /tmp/i4-add $((MOD | LC_SET | PROBE)) $((FIRST | LAST | POINTS | 12)) 5 1 0
t_check "large config set: connect point 5" inject /tmp/i4-add
t_eq "reply: large config set, status 0" "00 00 00 64 00 00 00 00" "$(reply)"
t_check "large config get again" inject /tmp/i4-get
t_eq "reply: one point (5, extraction, stream tag 0)" \
	"00 00 00 63 10 00 30 30 01 00 00 00 05 00 00 00 01 00 00 00 00 00 00 00" "$(reply)"
inject_fails "the same point again: -EINVAL (status 10)" /tmp/i4-add "Invalid argument"
msg /tmp/i4-part $((MOD | LC_SET | PROBE)) $((POINTS | 12)) 6 1 0
inject_fails "a later block with no first one: -EINVAL" /tmp/i4-part "Invalid argument"
inject_fails "delete with a point connected: -EBUSY" /tmp/i4-del "busy"
msg /tmp/i4-disc $((MOD | LC_SET | PROBE)) $((FIRST | LAST | DISCONNECT | 4)) 5
t_check "disconnect point 5" inject /tmp/i4-disc
t_check "delete the probe module" inject /tmp/i4-del

# bad input: refused by the host, nothing sent
tx=$(sof_stat 1 tx)
h=$(sof_stat 1 fw_handled)
msg /tmp/i4-reply $((MOD | (1 << 29) | LC_GET | PROBE)) 0
inject_fails "a reply is no request" /tmp/i4-reply "Invalid argument"
printf '\001\002\003\004\005\006\007' >/tmp/i4-short
inject_fails "shorter than the two words" /tmp/i4-short "Invalid argument"
{ cat /tmp/i4-get; head -c 65 /dev/zero; } >/tmp/i4-long
inject_fails "payload over the 64-byte mailbox" /tmp/i4-long "Invalid argument"
sof_write_fails "write at a non-zero offset" "-o 1 $I" "abcdefghij" "Invalid argument"
sof_write_fails "empty write" $I "" "Invalid argument"
t_eq "nothing sent" "$tx $h" "$(sof_stat 1 tx) $(sof_stat 1 fw_handled)"
# a hung IPC4 firmware: the message times out, a firmware exception as with IPC3
to=$(sof_stat 1 timeout)
t_log_mark ipc4-hang
t_check "hang the IPC4 firmware" sh -c "echo hang >$SOF_PDEV/snd_sof_shim.1/fw_state"
inject_fails "a message to it times out" /tmp/i4-gen "timed out"
t_eq "one timeout counted" $((to + 1)) "$(sof_stat 1 timeout)"
t_check "the timeout is a firmware exception" t_log_has ipc4-hang 'snd_sof_shim.1: IPC timeout$'
t_eq "the firmware is marked crashed" crashed "$(cat $SOF_PDEV/snd_sof_shim.1/fw_state)"
t_check "boot" sh -c "echo boot >$SOF_PDEV/snd_sof_shim.1/fw_state"
t_check "init the probe module after the reboot" inject /tmp/i4-init
t_check "delete it" inject /tmp/i4-del
t_check "del_device 1" sof_del 1

# ---- the probes client on IPC4 ----
if ! command -v compr-capture >/dev/null || ! modprobe snd-soc-core 2>/dev/null ||
	! modprobe snd-compress 2>/dev/null || [ ! -d /sys/class/sound ]; then
	t_skip "IPC4 probes" "no compr-capture or no ALSA compress in this kernel"
	t_done
	exit 0
fi
t_check "load the probes client" sof_load snd_sof_shim_probes
t_check "new_device 0 ipc=4 mailbox=64 clients=probes" sof_new 0 ipc=4 mailbox=64 clients=probes
D=$SOF_DBG/snd_sof_shim.0
dev=$(sof_probes_compr_dev)
t_check "probes client bound to the IPC4 firmware: $dev" test -n "$dev"
t_check "capture 64 KiB from points 1 and 7, checked byte by byte" \
	compr-capture -d $dev -b 65536 -p $D/probe_points -w "7,1,0,1,1,0" -i 1,7
tx=$(sof_stat 0 tx)
t_check "capture from 16 points (192 bytes: 3 blocks)" compr-capture -d $dev -b 32768 -p $D/probe_points \
	-w "0,1,0,1,1,0,2,1,0,3,1,0,4,1,0,5,1,0,6,1,0,7,1,0,8,1,0,9,1,0,10,1,0,11,1,0,12,1,0,13,1,0,14,1,0,15,1,0" \
	-i 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
# init, 3 blocks of points, on close 4 blocks of info (196 bytes), 16 removes, delete
t_eq "IPCs of that capture" $((tx + 1 + 3 + 4 + 16 + 1)) "$(sof_stat 0 tx)"

sof_capture_held $dev
t_eq "list shows both points" "Id: 0x00000005  Purpose: 1  Node id: 0x0|Id: 0x00000009  Purpose: 1  Node id: 0x2|" \
	"$(cat $D/probe_points | tr '\n' '|')"
tx=$(sof_stat 0 tx)
t_check "add 6 more points (72 bytes: 2 blocks)" sof_write $D/probe_points \
	"20,1,0,21,1,0,22,1,0,23,1,0,24,1,0,25,1,0"
t_eq "two large config set blocks" $((tx + 2)) "$(sof_stat 0 tx)"
tx=$(sof_stat 0 tx)
# one read(): each read of probe_points asks the firmware
t_eq "list of 8 points (100 bytes)" 8 \
	"$(dd if=$D/probe_points bs=4096 count=1 2>/dev/null | grep -c '^Id: ')"
t_eq "two large config get blocks" $((tx + 2)) "$(sof_stat 0 tx)"
t_check "remove those 6" sof_write $D/probe_points_remove "20,21,22,23,24,25"
sof_write_fails "duplicate point: -EINVAL (status 10)" $D/probe_points "5,1,0" "Invalid argument"
sof_write_fails "injection purpose refused by the DSP" $D/probe_points "6,2,0" "Invalid argument"
sof_write_fails "remove a missing point: -EINVAL (status 9)" $D/probe_points_remove "6" "Invalid argument"
t_check "add point 6" sof_write $D/probe_points "6,1,0"
t_check "remove points 9 and 6" sof_write $D/probe_points_remove "9,6"
t_eq "list after remove" "Id: 0x00000005  Purpose: 1  Node id: 0x0|" "$(cat $D/probe_points | tr '\n' '|')"
touch /tmp/sof-release
wait $cap
t_check "capture with the stream held open passed" grep -q "^compr-capture: ok 8192 bytes verified" /tmp/sof-cap
t_eq "no reply the host refused" 0 "$(sof_stat 0 mismatch)"

# The client finds the probe module by mainline's UUID (sof_shim_client_ipc4_find_module()) and
# takes its id from the firmware's manifest: a new DSP whose firmware lacks it, then has it as
# module 17 (the firmware answers no other id)
t_check "del_device 0" sof_del 0
t_check "new_device 0 ipc=4 clients=probes" sof_new 0 ipc=4 clients=probes
dev=$(sof_probes_compr_dev)
t_check "probes client bound again: $dev" test -n "$dev"
t_check "a firmware without the probe module" sh -c "echo 0 >$D/ipc4_probe_module_listed"
t_log_mark ipc4-no-module
compr-capture -d $dev -b 4096 -p $D/probe_points -w "1,1,0" -i 1 2>/tmp/i4-nomod >/dev/null
t_eq "no probe module: the stream fails with -ENODEV" \
	"compr-capture: SET_PARAMS: No such device" "$(head -n 1 /tmp/i4-nomod)"
t_check "no probe module: mainline's message" \
	t_log_has ipc4-no-module 'sof_ipc4_probe_get_module_info: no matching uuid found$'
t_check "the probe module listed as module 17" \
	sh -c "echo 17 >$D/ipc4_probe_module_id && echo 1 >$D/ipc4_probe_module_listed"
t_check "capture with the module id from the manifest" \
	compr-capture -d $dev -b 8192 -p $D/probe_points -w "3,1,0" -i 3
t_check "unload the probes client" rmmod snd_sof_shim_probes
t_check "del_device 0" sof_del 0
t_done
