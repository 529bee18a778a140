# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim IPC message injector (mainline's sof-client-ipc-msg-injector.c): a raw IPC written
# to debugfs ipc_msg_inject goes to the DSP as it is, and its reply (SOF_IPC_GLB_REPLY header
# and error) is read back; the DSP's error fails the write. An empty write, one shorter than
# the header, longer than the DSP's maximum payload (384 bytes), whose size differs from its
# header's, or at a non-zero offset fails with -EINVAL, sends nothing and keeps the last reply.
# The kernel injector (sof-client-ipc-kernel-injector.c): a message written to
# kernel_ipc_msg_inject reaches the clients as if the DSP had sent it; bad sizes the same.
# kmods: snd-compress
# timeout: 60
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

t_check "load" sof_load snd_sof_shim_ipc_msg_injector snd_sof_shim_ipc_kernel_injector \
	snd_sof_shim_ipc_flood
t_check "new_device 0 clients=msg_injector" sof_new 0 clients=msg_injector
t_check "DSP kept in D0" sof_dsp_on 0
S=$SOF_PDEV/snd_sof_shim.0
I=$SOF_DBG/snd_sof_shim.0/ipc_msg_inject
t_check "client bound" test -e $SOF_BUS/snd_sof_shim.msg_injector.0/driver
t_check "debugfs ipc_msg_inject" test -f $I

# inject FILE: write FILE to ipc_msg_inject in one write()
inject() {
	_o=$(dd if="$1" of=$I bs=4096 count=1 2>&1) && return 0
	echo "$_o" | grep -v records
	return 1
}
reply() { od -An -tx1 $I | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }

# The message injector's behaviours that the shim's client and mainline's share; PREFIX names
# the client set in the subtests.
# inject_ok PREFIX: a flood message goes to the DSP as one IPC, its reply is read back
inject_ok() {
	tx=$(sof_stat 0 tx)
	t_check "${1}inject a flood message" inject /tmp/inj-flood
	t_eq "${1}one IPC sent" $((tx + 1)) "$(sof_stat 0 tx)"
	t_eq "${1}reply: 12 bytes, GLB_REPLY, error 0" "0c 00 00 00 00 00 00 10 00 00 00 00" "$(reply)"
}
# inject_fw_error PREFIX: /tmp/inj-max reaches the firmware, whose -EINVAL fails the write
# (kernel log marked inj-max)
inject_fw_error() {
	h=$(sof_stat 0 fw_handled)
	t_log_mark inj-max
	t_check_errno "${1}firmware's error (-EINVAL) fails the write" "Invalid argument" \
		inject /tmp/inj-max
	t_eq "${1}it reached the firmware" $((h + 1)) "$(sof_stat 0 fw_handled)"
}
# inject_crashed PREFIX: a crashed firmware's file does not open; after boot it works again
inject_crashed() {
	t_check "${1}crash" sh -c "echo crash >$S/fw_state"
	t_check_errno "${1}open refused while crashed" "No such device" inject /tmp/inj-flood
	t_check "${1}boot" sh -c "echo boot >$S/fw_state"
	t_check "${1}inject after the reboot" inject /tmp/inj-flood
}

# GLB_TEST_MSG | TEST_IPC_FLOOD, hdr.size 8, little endian
printf '\010\000\000\000\000\000\001\260' >/tmp/inj-flood
inject_ok ""

# an unknown global type, largest size: sent, refused by the firmware with -EINVAL
{ printf '\200\001\000\000\000\000\000\360'; head -c 376 /dev/zero; } >/tmp/inj-max
t_eq "message of the maximum payload" 384 "$(wc -c </tmp/inj-max)"
inject_fw_error ""
t_check "kernel log has the error" \
	t_log_has inj-max 'msg_injector.0: IPC message send failed: -22'
t_eq "no reply kept after an error" "" "$(reply)"
t_check "inject the flood message again" inject /tmp/inj-flood

# bad input: nothing sent, last reply kept
tx=$(sof_stat 0 tx)
h=$(sof_stat 0 fw_handled)
sof_write_fails "empty write" $I "" "Invalid argument"
sof_write_fails "shorter than the header" $I "abcd" "Invalid argument"
sof_write_fails "size differs from the header's" $I "abcdefgh" "Invalid argument"
sof_write_fails "longer than the maximum payload" $I "$(printf '%0385d' 0)" "Invalid argument"
sof_write_fails "write at a non-zero offset" "-o 1 $I" "abcdefgh" "Invalid argument"
{ printf '\201\001\000\000\000\000\001\260'; head -c 377 /dev/zero; } >/tmp/inj-big
t_check_errno "well-formed, one byte over the maximum" "Invalid argument" inject /tmp/inj-big
t_eq "nothing sent" "$tx $h" "$(sof_stat 0 tx) $(sof_stat 0 fw_handled)"
t_eq "last reply kept" "0c 00 00 00 00 00 00 10 00 00 00 00" "$(reply)"

inject_crashed ""

# mainline's own message injector (sof-client-ipc-msg-injector.c) on the same device
if sof_mainline_use snd_sof_shim_ipc_msg_injector sof_mainline_ipc_msg_injector \
	snd_sof_shim.msg_injector.0; then
	inject_ok "mainline: "
	inject_fw_error "mainline: "
	# mainline's client sends hdr.size bytes and leaves the checks to the IPC core, which
	# refuses a message shorter than its header before the firmware sees it
	seen="$(sof_stat 0 dsp_reject) $(sof_stat 0 fw_handled)"
	printf '\004\000\000\000\000\000\001\260' >/tmp/inj-short
	t_log_mark ml-short
	t_check_errno "mainline: a message shorter than its header: EINVAL" "Invalid argument" \
		inject /tmp/inj-short
	t_check "mainline: the IPC core refused it" t_log_has ml-short 'bad IPC message: 4 bytes$'
	t_eq "mainline: the firmware saw nothing" "$seen" \
		"$(sof_stat 0 dsp_reject) $(sof_stat 0 fw_handled)"
	inject_crashed "mainline: "
fi

# the kernel injector, on a DSP of its own with a flood client to hear the message
t_check "new_device 1 clients=ipc_flood:1,kernel_injector" sof_new 1 clients=ipc_flood:1,kernel_injector
K=$SOF_DBG/snd_sof_shim.1/kernel_ipc_msg_inject
F=$(ls -d $SOF_DBG/snd_sof_shim.1/snd_sof_shim.ipc_flood.* | head -n 1)
t_check "debugfs kernel_ipc_msg_inject" test -f $K
# GLB_TEST_MSG | TEST_NOTIFY, hdr.size 12, a u32 payload
printf '\014\000\000\000\000\000\002\260\007\000\000\000' >/tmp/inj-notify
# kinject_ok PREFIX: the notification reaches the flood client, not the firmware
kinject_ok() {
	rx=$(cat $F/notifications)
	h=$(sof_stat 1 fw_handled)
	t_check "${1}inject a test notification" \
		sh -c "dd if=/tmp/inj-notify of=$K bs=64 count=1 2>/dev/null"
	t_eq "${1}the flood client received it" $((rx + 1)) "$(cat $F/notifications)"
	t_eq "${1}the firmware was not involved" "$h" "$(sof_stat 1 fw_handled)"
}
kinject_ok ""
sof_write_fails "kernel injector: empty write" $K "" "Invalid argument"
sof_write_fails "kernel injector: shorter than the header" $K "abcd" "Invalid argument"
sof_write_fails "kernel injector: size differs from the header's" $K "abcdefgh" "Invalid argument"
sof_write_fails "kernel injector: longer than the maximum payload" $K "$(printf '%0385d' 0)" \
	"Invalid argument"
sof_write_fails "kernel injector: write at a non-zero offset" "-o 4 $K" "abcdefgh" "Invalid argument"
t_eq "nothing injected" $((rx + 1)) "$(cat $F/notifications)"

# mainline's own kernel injector (sof-client-ipc-kernel-injector.c) on the same device
KD=$(basename "$(ls -d $SOF_PDEV/snd_sof_shim.1/snd_sof_shim.kernel_injector.*)")
if sof_mainline_use snd_sof_shim_ipc_kernel_injector sof_mainline_ipc_kernel_injector "$KD"; then
	kinject_ok "mainline: "
	# hdr.size 4: mainline's client ignores rx_message's -EINVAL, the DSP logs it
	printf '\004\000\000\000\000\000\002\260' >/tmp/inj-short
	t_log_mark ml-kinj
	t_check "mainline: a message shorter than its header: the write is taken" \
		sh -c "dd if=/tmp/inj-short of=$K bs=64 count=1 2>/dev/null"
	t_eq "mainline: it reached no client" $((rx + 1)) "$(cat $F/notifications)"
	t_check "mainline: the DSP refused it" t_log_has ml-kinj 'The received message size is invalid: 4$'
fi
t_done
