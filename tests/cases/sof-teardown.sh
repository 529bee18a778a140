# SPDX-License-Identifier: GPL-2.0-only
# SOF shim teardown under load: deleting or unbinding a DSP while its clients flood it, and
# unloading a client module while one of its files is in use.
# kmods: snd-compress snd-soc-core
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 ipc_delay_us=100" sof_new 0 ipc_delay_us=100
F0=$(sof_flood_dir 0 0)
F1=$(sof_flood_dir 0 1)

# delete during a tandem flood
(echo 10000 >$F0/ipc_flood_count; echo $? >/tmp/sof-d0) &
(echo 1000 >$F1/ipc_flood_duration_ms; echo $? >/tmp/sof-d1) &
sleep 0.5
t_check "del_device during the flood" sof_del 0
wait
t_check_fails "flood 0 was cut short" test "$(cat /tmp/sof-d0)" = 0
t_check_fails "flood 1 was cut short" test "$(cat /tmp/sof-d1)" = 0
t_check "clients gone" sh -c "! ls -d $SOF_BUS/snd_sof_shim.* 2>/dev/null"
t_check "DSP gone" test ! -e $SOF_PDEV/snd_sof_shim.0

# unbind during a flood
t_check "new_device 1 ipc_delay_us=100" sof_new 1 ipc_delay_us=100
F=$(sof_flood_dir 1 0)
(echo 10000 >$F/ipc_flood_count) 2>/dev/null &
sleep 0.5
t_check "unbind during the flood" sh -c "echo snd_sof_shim.1 >$SOF_DRV/unbind"
wait
t_check "clients gone after unbind" sh -c "! ls -d $SOF_BUS/snd_sof_shim.* 2>/dev/null"
t_check "del_device of the unbound DSP" sof_del 1

# unloading a client whose file is open fails cleanly, and works once it is closed
t_check "new_device 2 ipc_delay_us=100" sof_new 2 clients=ipc_flood:1 ipc_delay_us=100
F=$(sof_flood_dir 2 0)
(echo 1000 >$F/ipc_flood_duration_ms) &
sleep 0.3
t_check_fails "flood client busy: rmmod refused" rmmod snd_sof_shim_ipc_flood
t_check_fails "parent busy: rmmod refused" rmmod snd_sof_shim
wait
t_check "flood client unloads when idle" rmmod snd_sof_shim_ipc_flood
t_check "parent unloads and removes DSP 2" rmmod snd_sof_shim
t_check "DSP 2 gone" test ! -e $SOF_PDEV/snd_sof_shim.2
t_done
