# SPDX-License-Identifier: GPL-2.0-only
# SOF shim: the firmware's IPC version (new_device ipc=3|4). First step only: the choice,
# its checks and what the clients make of it; an IPC4 firmware has no IPC flood test (as in
# mainline) and the IPC3-only clients refuse to bind to it with a message.
# kmods: snd-compress snd-soc-core
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT


t_check "load" sof_load snd_sof_shim_ipc_flood snd_sof_shim_ipc_msg_injector
sof_write_fails "ipc=5 refused" $SOF_DRV/new_device "0 ipc=5" "Invalid argument"
sof_write_fails "ipc= refused" $SOF_DRV/new_device "0 ipc=" "Invalid argument"
sof_write_fails "ipc=4 with the flood test refused" $SOF_DRV/new_device "0 ipc=4 clients=ipc_flood" \
	"Invalid argument"
t_check "nothing created" test ! -e $SOF_PDEV/snd_sof_shim.0
t_check "kernel log: why ipc=5" sh -c "dmesg | grep -q 'new_device: ipc=5: the firmware speaks IPC 3 or 4'"
t_check "kernel log: why no flood test" \
	sh -c "dmesg | grep -q 'new_device: ipc_flood: the IPC flood test is IPC3 only'"

t_check "new_device 0 ipc=3 (the default, spelt out)" sof_new 0 ipc=3
t_eq "IPC3 firmware: default clients" "ipc_flood:2,probes:1,ipc_msg_injector:0,kernel_injector:0" \
	"$(cat $SOF_PDEV/snd_sof_shim.0/clients)"
t_check "flood client bound" test -e $SOF_BUS/snd_sof_shim.ipc_flood.0/driver

t_check "new_device 1 ipc=4 clients=ipc_msg_injector" sof_new 1 ipc=4 clients=ipc_msg_injector
t_eq "IPC4 firmware: no flood test" "ipc_flood:0,probes:0,ipc_msg_injector:1,kernel_injector:0" \
	"$(cat $SOF_PDEV/snd_sof_shim.1/clients)"
t_check "kernel log: DSP up, IPC4" sh -c "dmesg | grep -q 'snd_sof_shim.1: DSP up: firmware .* (IPC4)'"
t_check "IPC3-only injector not bound" test ! -e $SOF_BUS/snd_sof_shim.ipc_msg_injector.0/driver
t_check "kernel log: why" sh -c "dmesg | grep -q 'IPC4 firmware: this client speaks IPC3 only'"
t_check "new_device 2 ipc=4 (default clients)" sof_new 2 ipc=4
t_eq "IPC4 default firmware: probes only" "ipc_flood:0,probes:1,ipc_msg_injector:0,kernel_injector:0" \
	"$(cat $SOF_PDEV/snd_sof_shim.2/clients)"
t_check "del_device 2" sof_del 2
t_check "del_device 1" sof_del 1
t_check "del_device 0" sof_del 0
t_done
