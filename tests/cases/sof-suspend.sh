# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim system suspend/resume (pm_test "devices", s2idle): the DSP's system PM reaches
# its clients' suspend and resume callbacks; as in SOF, suspend powers the DSP off and loses
# the firmware, resume boots it again, and every client's fw_state handler hears both; IPC
# works afterwards.
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
. /tests/lib/pm.sh
trap 'pm_test_end; sof_cleanup' EXIT

[ -w /sys/power/pm_test ] || t_skip_case "no /sys/power/pm_test (CONFIG_PM_DEBUG)"
grep -qw freeze /sys/power/state || t_skip_case "no s2idle (freeze) in /sys/power/state"

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2" sof_new 0 clients=ipc_flood:2
F0=$(sof_flood_dir 0 0)
F1=$(sof_flood_dir 0 1)
# in D0 when the system suspends (a runtime-suspended DSP is off already and stays off)
t_check "DSP kept in D0" sof_dsp_on 0
t_eq "firmware running" boot_complete "$(cat $SOF_PDEV/snd_sof_shim.0/fw_state)"
base0=$(cat $F0/fw_states)
base1=$(cat $F1/fw_states)
# counted from here: a runtime suspend before sof_dsp_on reached the clients too
pm0="$(cat $F0/suspend_count) $(cat $F0/resume_count)"
pm1="$(cat $F1/suspend_count) $(cat $F1/resume_count)"

t_check "pm_test devices, no delay" pm_test_begin devices
t_check "suspend to idle (test)" sh -c "echo freeze >/sys/power/state"
t_eq "DSP system suspend ran" 1 "$(sof_stat 0 system_suspend)"
t_eq "DSP system resume ran" 1 "$(sof_stat 0 system_resume)"
t_eq "client 0 suspended and resumed once" "$(echo $pm0 | awk '{ print $1 + 1, $2 + 1 }')" \
	"$(cat $F0/suspend_count) $(cat $F0/resume_count)"
t_eq "client 1 suspended and resumed once" "$(echo $pm1 | awk '{ print $1 + 1, $2 + 1 }')" \
	"$(cat $F1/suspend_count) $(cat $F1/resume_count)"
t_eq "firmware running after resume" boot_complete "$(cat $SOF_PDEV/snd_sof_shim.0/fw_state)"
t_eq "client 0: lost, then booted" "boot_not_started boot_complete" \
	"$(sof_fw_states_since "$base0" $F0)"
t_eq "client 1: lost, then booted" "boot_not_started boot_complete" \
	"$(sof_fw_states_since "$base1" $F1)"
t_check "flood after resume" sh -c "echo 100 >$F0/ipc_flood_count"
sof_check_result "result after resume" $F0/ipc_flood_count 100

# suspend with IPCs in flight: the freezer waits for the flood's writer to leave the kernel
# (a flood does not freeze), so the DSP powers down after the flood's last reply; none is lost
t_check "ipc_delay_us=1000" sh -c "echo 1000 >$SOF_PDEV/snd_sof_shim.0/ipc_delay_us"
tx=$(sof_stat 0 tx)
(sof_write $F1/ipc_flood_count 500 >/tmp/sof-s1; echo $? >/tmp/sof-s1-rc) &
t_check "flood running" t_wait_cmd 100 sof_stat_above 0 tx "$tx"
t_check "suspend to idle during the flood" sh -c "echo freeze >/sys/power/state"
t_eq "the flood had ended when the DSP suspended" $((tx + 500)) "$(sof_stat 0 tx)"
wait
t_eq "the flood succeeded" 0 "$(cat /tmp/sof-s1-rc)"
sof_check_result "the flood's result" $F1/ipc_flood_count 500
t_eq "DSP system suspend ran twice in all" 2 "$(sof_stat 0 system_suspend)"
t_eq "firmware running after the second resume" boot_complete "$(cat $SOF_PDEV/snd_sof_shim.0/fw_state)"
t_done
