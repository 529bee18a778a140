#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# auxbus.ko loads, says which implementation is active (modinfo, /sys/module/auxbus/),
# registers (or, in kernel mode, uses) the right bus, and unloads cleanly.
. /tests/lib/ktap.sh

cleanup() {
	modprobe -r auxbus 2>/dev/null
}
trap cleanup EXIT

case $BACKEND in
kernel) mode=kernel ;;
*) if [ "$AUXBUS_BUS" = auxbus ]; then mode=coexist; else mode=bundled; fi ;;
esac

t_check "modprobe auxbus" modprobe auxbus
t_eq "parameters/mode tells the implementation" "$mode" "$(cat /sys/module/auxbus/parameters/mode 2>&1)"
t_eq "parameters/bus tells the bus" "$AUXBUS_BUS" "$(cat /sys/module/auxbus/parameters/bus 2>&1)"
t_check_errno "parameters/mode is read-only" "Permission denied" \
	sh -c 'echo bundled >/sys/module/auxbus/parameters/mode'
t_eq "modinfo -F auxbus_mode auxbus" "$mode" "$(modinfo -F auxbus_mode auxbus 2>&1)"
t_check "kernel log names mode $mode and prefix $AUXBUS_PREFIX" \
	sh -c "dmesg | grep -q \"auxbus: mode $mode, bus '$AUXBUS_BUS', MODALIAS prefix '$AUXBUS_PREFIX'\""
t_check "/sys/bus/$AUXBUS_BUS exists" test -d "/sys/bus/$AUXBUS_BUS/devices"
if [ "$mode" = coexist ]; then
	t_check "the kernel's /sys/bus/auxiliary is there too" test -d /sys/bus/auxiliary/devices
fi
if [ "$mode" = kernel ]; then
	t_check_fails "kernel mode registers no bus of its own" test -d /sys/bus/auxbus
fi
t_check "modprobe -r auxbus" modprobe -r auxbus
t_check_fails "auxbus is unloaded" grep -q '^auxbus ' /proc/modules
if [ "$mode" = kernel ]; then
	t_check "the kernel's bus stays after unload" test -d /sys/bus/auxiliary
else
	t_check_fails "/sys/bus/$AUXBUS_BUS is gone after unload" test -d "/sys/bus/$AUXBUS_BUS"
fi
t_check "modprobe auxbus again" modprobe auxbus
t_done
