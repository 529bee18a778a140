#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# backends: bundled
# The bundled bus beside the kernel's own (AUXBUS_COEXIST): both buses exist, devices
# and drivers of the bundle live on /sys/bus/auxbus only, and the kernel's bus is untouched.
. /tests/lib/ktap.sh

cleanup() {
	modprobe -r auxbus_test_client 2>/dev/null
	modprobe -r auxbus_test_parent 2>/dev/null
	modprobe -r auxbus 2>/dev/null
}
trap cleanup EXIT

[ "$AUXBUS_BUS" = auxbus ] || t_skip_case "this kernel has no built-in bus: nothing to coexist with"

t_check "the kernel's bus is there before auxbus loads" test -d /sys/bus/auxiliary/devices
t_check "modprobe auxbus_test_parent auxbus_test_client" \
	sh -c 'modprobe auxbus_test_parent && modprobe auxbus_test_client'
t_check "/sys/bus/auxbus and /sys/bus/auxiliary both exist" \
	sh -c 'test -d /sys/bus/auxbus/devices && test -d /sys/bus/auxiliary/devices'
t_check "the bundle's devices are on auxbus" test -e /sys/bus/auxbus/devices/auxbus_test_parent.client.0
t_check_fails "and not on the kernel's bus" test -e /sys/bus/auxiliary/devices/auxbus_test_parent.client.0
t_check "the client's driver is on auxbus" test -d /sys/bus/auxbus/drivers/auxbus_test_client.client
t_check_fails "and not on the kernel's bus" test -d /sys/bus/auxiliary/drivers/auxbus_test_client.client
t_check "device bound on auxbus" test -e /sys/bus/auxbus/devices/auxbus_test_parent.client.0/driver
t_check "exported symbols carry the auxbus_ prefix" \
	grep -qw auxbus_auxiliary_device_init /proc/kallsyms
t_check "unload all" sh -c 'rmmod auxbus_test_client && rmmod auxbus_test_parent && rmmod auxbus'
t_check "the kernel's bus is still there" test -d /sys/bus/auxiliary/devices
t_done
