#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# The reboot path: the guest's final `reboot -f` calls the bus's shutdown for every device
# (the harness runs a "leave-loaded" case last in its boot).
# One device is left unbound (mainline's 5.11-rc1 fix: no NULL driver dereference), one bound
# (its driver's shutdown must run: the host checks the console for its line). The host also
# fails the boot on any oops in the console.
# leave-loaded: yes
# console-expect: auxbus_test_parent\.client\.1: shutdown
. /tests/lib/ktap.sh

BUS=/sys/bus/$AUXBUS_BUS
DRV=$BUS/drivers/auxbus_test_client.client

modprobe auxbus 2>/dev/null
t_check "modprobe auxbus_test_parent" modprobe auxbus_test_parent
t_check "modprobe auxbus_test_client" modprobe auxbus_test_client
t_check "unbind device 0" sh -c "echo auxbus_test_parent.client.0 >$DRV/unbind"
t_check_fails "device 0 is unbound" test -e "$BUS/devices/auxbus_test_parent.client.0/driver"
t_check "device 1 is bound" test -e "$BUS/devices/auxbus_test_parent.client.1/driver"
t_eq "no shutdown yet" 0 "$(cat /sys/module/auxbus_test_client/parameters/shutdowns)"
t_done
