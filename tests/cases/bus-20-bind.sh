#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# A parent and a client module through sysfs: uevent MODALIAS, binding, irqs/ entries,
# unbind/bind by hand, unloading the client with bound devices, unloading the parent while
# the client is bound.
. /tests/lib/ktap.sh

BUS=/sys/bus/$AUXBUS_BUS
DRV=$BUS/drivers/auxbus_test_client.client
D0=$BUS/devices/auxbus_test_parent.client.0
D1=$BUS/devices/auxbus_test_parent.client.1
P=/sys/module/auxbus_test_client/parameters

cleanup() {
	modprobe -r auxbus_test_client 2>/dev/null
	modprobe -r auxbus_test_parent 2>/dev/null
	modprobe -r auxbus 2>/dev/null
}
trap cleanup EXIT

modprobe auxbus 2>/dev/null
t_check "modprobe auxbus_test_parent" modprobe auxbus_test_parent
t_check "device auxbus_test_parent.client.0 is on the bus" test -e "$D0"
t_check "device auxbus_test_parent.client.1 is on the bus" test -e "$D1"
t_check_fails "no driver bound before the client loads" test -e "$D0/driver"
t_eq "uevent MODALIAS" "MODALIAS=${AUXBUS_PREFIX}auxbus_test_parent.client" \
	"$(grep '^MODALIAS=' "$D0/uevent")"
if [ -e "$D0/modalias" ]; then
	t_eq "modalias attribute" "${AUXBUS_PREFIX}auxbus_test_parent.client" "$(cat "$D0/modalias")"
fi

t_check "modprobe auxbus_test_client" modprobe auxbus_test_client
t_check "driver auxbus_test_client.client is registered" test -d "$DRV"
t_eq "device 0 bound to the client" auxbus_test_client.client "$(basename "$(readlink "$D0/driver")")"
t_eq "device 1 bound to the client" auxbus_test_client.client "$(basename "$(readlink "$D1/driver")")"
t_eq "probe ran once per device" 2 "$(cat $P/probes)"
t_check "irqs/100 of device 0 (added in probe)" test -e "$D0/irqs/100"
t_check "irqs/101 of device 1 (added in probe)" test -e "$D1/irqs/101"

t_check "unbind device 0 by sysfs" sh -c "echo auxbus_test_parent.client.0 >$DRV/unbind"
t_check_fails "device 0 has no driver" test -e "$D0/driver"
t_eq "remove ran once" 1 "$(cat $P/removes)"
t_check_fails "irqs/100 went with the driver's remove" test -e "$D0/irqs/100"
t_check_fails "and irqs/ with the binding" test -e "$D0/irqs"
t_check "device 1 still bound" test -e "$D1/driver"
t_check "bind device 0 again by sysfs" sh -c "echo auxbus_test_parent.client.0 >$DRV/bind"
t_check "device 0 bound again" test -e "$D0/driver"
t_eq "probe ran again" 3 "$(cat $P/probes)"
t_check "irqs/100 added again after the rebind" test -e "$D0/irqs/100"
# irqs/ belongs to the binding: a driver that leaves its irq behind at unbind loses the entry
# and the directory with it, and its next probe adds the irq again (not -EBUSY or -ENOENT)
t_check "keep_irq: the client's remove leaves irqs/100" sh -c "echo 1 >$P/keep_irq"
t_check "unbind device 0 again" sh -c "echo auxbus_test_parent.client.0 >$DRV/unbind"
t_check_fails "irqs/ went with the binding, the entry left in it too" test -e "$D0/irqs"
t_check "bind device 0 a third time" sh -c "echo auxbus_test_parent.client.0 >$DRV/bind"
t_eq "its probe added irqs/100 again" "4 yes" \
	"$(cat $P/probes) $(test -e "$D0/irqs/100" && echo yes)"
t_check "keep_irq off" sh -c "echo 0 >$P/keep_irq"

t_check "unload the client with bound devices" rmmod auxbus_test_client
t_check "the driver directory is gone" t_wait_gone "$DRV" 60
t_check "the devices stay, unbound" sh -c "test -e $D0 && test ! -e $D0/driver && test ! -e $D1/driver"
t_check_fails "their irqs/ entries are gone" sh -c "test -e $D0/irqs/100 || test -e $D1/irqs/101"

t_check "load the client again" modprobe auxbus_test_client
t_eq "it binds both devices" 2 "$(cat $P/probes)"
t_check "unload the parent while the client is bound" rmmod auxbus_test_parent
t_check_fails "the devices are gone" sh -c "test -e $D0 || test -e $D1"
t_eq "the client saw both removes" 2 "$(cat $P/removes)"
t_check "the client unloads afterwards" rmmod auxbus_test_client
t_done
