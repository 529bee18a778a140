#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# Issue 17: another out-of-tree provider of the bus holds it (stand-ins built from
# tests/porters/other-providers: MLNX_OFED's auxiliary.ko, Intel's intel_auxiliary.ko, both
# registering the bus "auxiliary", the first exporting the unprefixed API). auxbus.ko must
# load far enough to say which one it is and what to do, fail cleanly, and work once the
# other provider is gone. Only where the kernel has no bus of its own (that is where those
# packages ship their bus).
# kernels: bullseye debug debugc
# backends: bundled
. /tests/lib/ktap.sh

cleanup() {
	rmmod auxbus 2>/dev/null
	rmmod auxiliary 2>/dev/null
	rmmod intel_auxiliary 2>/dev/null
}
trap cleanup EXIT

for p in auxiliary intel_auxiliary; do
	case $p in
	auxiliary) who="MLNX_OFED's" ;;
	*) who="Intel's out-of-tree drivers' (ice, irdma) intel_auxiliary.ko" ;;
	esac
	t_check "insmod the stand-in $p.ko" insmod "/lib/modules/$KVER/extra/$p.ko"
	t_log_mark "other-provider-$p"
	t_check_errno "insmod auxbus.ko fails beside $p with EEXIST" "File exists" insmod "/lib/modules/$KVER/extra/auxbus.ko"
	t_check "the kernel log names module $p" \
		t_log_has "other-provider-$p" "auxbus:.*a bus named 'auxiliary' is registered already, by module $p: $who"
	t_check "and says what to do" \
		t_log_has "other-provider-$p" "Unload it and the drivers that use it (modprobe -r $p)"
	t_check "no duplicate-symbol refusal by the module loader" \
		t_log_lacks "other-provider-$p" 'exports duplicate symbol'
	t_check_fails "auxbus is not loaded" grep -q '^auxbus ' /proc/modules
	t_check "rmmod $p" rmmod "$p"
done
t_check "modprobe auxbus works once the bus is free" modprobe auxbus
t_check "its bus is there" test -d /sys/bus/auxiliary/devices
t_check "rmmod auxbus" rmmod auxbus
t_done
