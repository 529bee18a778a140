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

# GLB_TEST_MSG | TEST_IPC_FLOOD, hdr.size 8, little endian
printf '\010\000\000\000\000\000\001\260' >/tmp/inj-flood
tx=$(sof_stat 0 tx)
t_check "inject a flood message" inject /tmp/inj-flood
t_eq "one IPC sent" $((tx + 1)) "$(sof_stat 0 tx)"
t_eq "reply: 12 bytes, GLB_REPLY, error 0" "0c 00 00 00 00 00 00 10 00 00 00 00" "$(reply)"

# an unknown global type, largest size: sent, refused by the firmware with -EINVAL
{ printf '\200\001\000\000\000\000\000\360'; head -c 376 /dev/zero; } >/tmp/inj-max
h=$(sof_stat 0 fw_handled)
t_eq "message of the maximum payload" 384 "$(wc -c </tmp/inj-max)"
t_log_mark inj-max
t_check_errno "firmware's error (-EINVAL) fails the write" "Invalid argument" inject /tmp/inj-max
t_eq "it reached the firmware" $((h + 1)) "$(sof_stat 0 fw_handled)"
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

# a crashed firmware: the file does not open; after boot it works again
t_check "crash" sh -c "echo crash >$S/fw_state"
t_check_errno "open refused while crashed" "No such device" inject /tmp/inj-flood
t_check "boot" sh -c "echo boot >$S/fw_state"
t_check "inject after the reboot" inject /tmp/inj-flood

# mainline's own message injector (sof-client-ipc-msg-injector.c) on the same device
why=$(sof_mainline_missing sof_mainline_ipc_msg_injector)
if [ -n "$why" ]; then
	t_skip "mainline: sof_mainline_ipc_msg_injector" "$why"
else
	t_check "mainline: its message injector in place of the shim's" \
		sh -c "rmmod snd_sof_shim_ipc_msg_injector && modprobe sof_mainline_ipc_msg_injector"
	t_check "mainline: msg_injector.0 bound to it" \
		sof_bound_to snd_sof_shim.msg_injector.0 sof_mainline_ipc_msg_injector
	tx=$(sof_stat 0 tx)
	t_check "mainline: inject a flood message" inject /tmp/inj-flood
	t_eq "mainline: one IPC sent" $((tx + 1)) "$(sof_stat 0 tx)"
	t_eq "mainline: reply: 12 bytes, GLB_REPLY, error 0" "0c 00 00 00 00 00 00 10 00 00 00 00" "$(reply)"
	h=$(sof_stat 0 fw_handled)
	t_check_errno "mainline: firmware's error (-EINVAL) fails the write" "Invalid argument" \
		inject /tmp/inj-max
	t_eq "mainline: it reached the firmware" $((h + 1)) "$(sof_stat 0 fw_handled)"
	t_check "mainline: crash" sh -c "echo crash >$S/fw_state"
	t_check_errno "mainline: open refused while crashed" "No such device" inject /tmp/inj-flood
	t_check "mainline: boot" sh -c "echo boot >$S/fw_state"
	t_check "mainline: inject after the reboot" inject /tmp/inj-flood
fi

# the kernel injector, on a DSP of its own with a flood client to hear the message
t_check "new_device 1 clients=ipc_flood:1,kernel_injector" sof_new 1 clients=ipc_flood:1,kernel_injector
K=$SOF_DBG/snd_sof_shim.1/kernel_ipc_msg_inject
F=$(ls -d $SOF_DBG/snd_sof_shim.1/snd_sof_shim.ipc_flood.* | head -n 1)
t_check "debugfs kernel_ipc_msg_inject" test -f $K
# GLB_TEST_MSG | TEST_NOTIFY, hdr.size 12, a u32 payload
printf '\014\000\000\000\000\000\002\260\007\000\000\000' >/tmp/inj-notify
rx=$(cat $F/notifications)
h=$(sof_stat 1 fw_handled)
t_check "inject a test notification" sh -c "dd if=/tmp/inj-notify of=$K bs=64 count=1 2>/dev/null"
t_eq "the flood client received it" $((rx + 1)) "$(cat $F/notifications)"
t_eq "the firmware was not involved" "$h" "$(sof_stat 1 fw_handled)"
sof_write_fails "kernel injector: empty write" $K "" "Invalid argument"
sof_write_fails "kernel injector: shorter than the header" $K "abcd" "Invalid argument"
sof_write_fails "kernel injector: size differs from the header's" $K "abcdefgh" "Invalid argument"
sof_write_fails "kernel injector: longer than the maximum payload" $K "$(printf '%0385d' 0)" \
	"Invalid argument"
sof_write_fails "kernel injector: write at a non-zero offset" "-o 4 $K" "abcdefgh" "Invalid argument"
t_eq "nothing injected" $((rx + 1)) "$(cat $F/notifications)"

# mainline's own kernel injector (sof-client-ipc-kernel-injector.c) on the same device
why=$(sof_mainline_missing sof_mainline_ipc_kernel_injector)
if [ -n "$why" ]; then
	t_skip "mainline: sof_mainline_ipc_kernel_injector" "$why"
else
	t_check "mainline: its kernel injector in place of the shim's" \
		sh -c "rmmod snd_sof_shim_ipc_kernel_injector && modprobe sof_mainline_ipc_kernel_injector"
	KD=$(basename "$(ls -d $SOF_PDEV/snd_sof_shim.1/snd_sof_shim.kernel_injector.*)")
	t_check "mainline: $KD bound to it" sof_bound_to "$KD" sof_mainline_ipc_kernel_injector
	rx=$(cat $F/notifications)
	h=$(sof_stat 1 fw_handled)
	t_check "mainline: inject a test notification" sh -c "dd if=/tmp/inj-notify of=$K bs=64 count=1 2>/dev/null"
	t_eq "mainline: the flood client received it" $((rx + 1)) "$(cat $F/notifications)"
	t_eq "mainline: the firmware was not involved" "$h" "$(sof_stat 1 fw_handled)"
	# hdr.size 4: mainline's client ignores rx_message's -EINVAL, the DSP logs it
	printf '\004\000\000\000\000\000\002\260' >/tmp/inj-short
	t_log_mark ml-kinj
	t_check "mainline: a message shorter than its header: the write is taken" \
		sh -c "dd if=/tmp/inj-short of=$K bs=64 count=1 2>/dev/null"
	t_eq "mainline: it reached no client" $((rx + 1)) "$(cat $F/notifications)"
	t_check "mainline: the DSP refused it" t_log_has ml-kinj 'The received message size is invalid: 4$'
fi
t_done
