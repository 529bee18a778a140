# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# The guest environment the other cases rely on.
. /tests/lib/ktap.sh
t_check "sysfs mounted" test -d /sys/bus
t_check "debugfs mounted" test -d /sys/kernel/debug/
t_eq "running the kernel the harness built for" "$KVER" "$(uname -r)"
t_check "modules.dep present" test -s /lib/modules/$KVER/modules.dep
t_check "bundle modules listed" test -s /etc/auxbus-modules
t_check "panic_on_warn is set" grep -qx 1 /proc/sys/kernel/panic_on_warn
t_done
