#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# Issue 6: a client written against mainline's API only (tests/mainline-client), built by
# the harness against the INSTALLED bundle (headers + Module.symvers), loads, binds its
# devices and passes its checks ("auxbus_mainline_client: KTAP ..." in the kernel log).
. /tests/lib/ktap.sh

cleanup() {
	modprobe -r auxbus_mainline_client 2>/dev/null
	modprobe -r auxbus 2>/dev/null
}
trap cleanup EXIT

if ! modinfo auxbus_mainline_client >/dev/null 2>&1; then
	t_fail "auxbus_mainline_client.ko is in the guest" \
		"the harness did not build tests/mainline-client against the installed bundle"
	t_done
fi
t_eq "modinfo: the header imported AUXBUS (no import line in the source)" AUXBUS \
	"$(modinfo -F import_ns auxbus_mainline_client 2>&1)"
t_check "modprobe auxbus_mainline_client" modprobe auxbus_mainline_client
dmesg | sed -n 's/^.*auxbus_mainline_client: KTAP //p' >/tmp/mc.ktap
while IFS= read -r line; do
	case $line in
	"not ok "*) t_fail "${line#not ok * }" ;;
	"ok "*) t_ok "${line#ok * }" ;;
	esac
done </tmp/mc.ktap
t_check "its report ends with 0 failed" grep -q '^# done: 0 failed$' /tmp/mc.ktap
t_eq "its checks all ran" 5 "$(grep -cE '^(not )?ok ' /tmp/mc.ktap)"
t_check "device func.0 bound on /sys/bus/$AUXBUS_BUS" \
	test -e "/sys/bus/$AUXBUS_BUS/devices/auxbus_mainline_client.func.0/driver"
t_check "irqs/200 of func.0" test -e "/sys/bus/$AUXBUS_BUS/devices/auxbus_mainline_client.func.0/irqs/200"
t_check "rmmod auxbus_mainline_client" rmmod auxbus_mainline_client
t_check_fails "its devices are gone" test -e "/sys/bus/$AUXBUS_BUS/devices/auxbus_mainline_client.func.0"
t_done
