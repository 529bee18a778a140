#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# auxbus.ko where it cannot register its bus: another bus holds the name. The load must fail
# with -EEXIST, say why in the kernel log and leave nothing behind; it must work once the name
# is free again.
# backends: bundled
. /tests/lib/ktap.sh

cleanup() {
	rmmod auxbus 2>/dev/null
	rmmod auxbus_test_squat 2>/dev/null
}
trap cleanup EXIT

t_check "another module takes the bus name '$AUXBUS_BUS'" modprobe auxbus_test_squat name="$AUXBUS_BUS"
t_log_mark name-taken
# insmod, not modprobe: busybox modprobe does not report a failed init reliably. 7.x's module
# loader reports an init's -EEXIST as -EBUSY (-EEXIST from init_module means "loaded already").
t_check_errno "insmod auxbus.ko fails with EEXIST (7.x: EBUSY)" "File exists\|Device or resource busy" \
	insmod "/lib/modules/$KVER/extra/auxbus.ko"
t_check "the kernel log says why" \
	t_log_has name-taken "auxbus:.*a bus named '$AUXBUS_BUS' is registered already"
t_check_fails "auxbus is not loaded" grep -q '^auxbus ' /proc/modules
t_check "rmmod auxbus_test_squat" rmmod auxbus_test_squat
t_check "modprobe auxbus works once the name is free" modprobe auxbus
t_check "its bus is there" test -d "/sys/bus/$AUXBUS_BUS/devices"
t_check "rmmod auxbus" rmmod auxbus
t_done
