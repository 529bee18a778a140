#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# System suspend/resume reaches an auxiliary driver's dev_pm_ops: suspend to idle with
# /sys/power/pm_test = devices (devices suspend and resume at once; no real sleep).
. /tests/lib/ktap.sh
. /tests/lib/pm.sh

P=/sys/module/auxbus_test_client/parameters

cleanup() {
	pm_test_end
	modprobe -r auxbus_test_client 2>/dev/null
	modprobe -r auxbus_test_parent 2>/dev/null
	modprobe -r auxbus 2>/dev/null
}
trap cleanup EXIT

[ -w /sys/power/pm_test ] || t_skip_case "no /sys/power/pm_test (needs CONFIG_PM_DEBUG)"
grep -qw devices /sys/power/pm_test || t_skip_case "pm_test has no 'devices' level"
state=""
for s in freeze mem; do
	grep -qw "$s" /sys/power/state && { state=$s; break; }
done
[ -n "$state" ] || t_skip_case "no sleep state in /sys/power/state: '$(cat /sys/power/state)'"

t_check "modprobe auxbus_test_parent" modprobe auxbus_test_parent
t_check "modprobe auxbus_test_client" modprobe auxbus_test_client
t_eq "two devices bound" 2 "$(cat $P/probes)"
t_check "pm_test = devices, no delay" pm_test_begin devices
t_check "echo $state >/sys/power/state" sh -c "echo $state >/sys/power/state"
t_eq "suspend reached the driver for both devices" 2 "$(cat $P/suspends)"
t_eq "resume reached the driver for both devices" 2 "$(cat $P/resumes)"
t_check "devices still bound after resume" \
	test -e "/sys/bus/$AUXBUS_BUS/devices/auxbus_test_parent.client.1/driver"
t_done
