# title: SOF shim: a simulated audio DSP and its IPC flood and probes clients
# SPDX-License-Identifier: GPL-2.0-only
# Part of `make demo` (tests/demo.sh runs it in the guest after loading auxbus).
run() { printf '$ %s\n' "$*"; sh -c "$*" 2>&1 | sed 's/^/  /'; }
D=/sys/bus/platform/drivers/snd_sof_shim
F=/sys/kernel/debug/snd_sof_shim/snd_sof_shim.0/snd_sof_shim.ipc_flood.0

run "modprobe snd_sof_shim && modprobe snd_sof_shim_ipc_flood"
run "echo '0 clients=ipc_flood:2,probes ipc_delay_us=20' > $D/new_device"
run "ls /sys/bus/${AUXBUS_BUS:-auxiliary}/devices/ | grep snd_sof_shim"
run "readlink /sys/bus/${AUXBUS_BUS:-auxiliary}/devices/snd_sof_shim.ipc_flood.0/driver"
run "echo 2000 > $F/ipc_flood_count && cat $F/ipc_flood_count"
run "echo crash > /sys/bus/platform/devices/snd_sof_shim.0/fw_state; echo 10 > $F/ipc_flood_count"
run "echo boot > /sys/bus/platform/devices/snd_sof_shim.0/fw_state; cat /sys/bus/platform/devices/snd_sof_shim.0/fw_state"
run "cat /sys/bus/platform/devices/snd_sof_shim.0/ipc_stats | head -n 3"
run "echo 0 > $D/del_device; rmmod snd_sof_shim_ipc_flood snd_sof_shim"
