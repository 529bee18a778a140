#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# In-kernel API checks: tests/modules/auxbus_test runs them at load and prints KTAP lines
# "auxbus_test: KTAP ..." to the kernel log; each becomes a subtest here.
. /tests/lib/ktap.sh

cleanup() {
	modprobe -r auxbus_test 2>/dev/null
	modprobe -r auxbus 2>/dev/null
}
trap cleanup EXIT

if ! modprobe auxbus_test; then
	t_fail "modprobe auxbus_test"
	t_done
fi
dmesg | sed -n 's/^.*auxbus_test: KTAP //p' >/tmp/auxbus_test.ktap
plan=""
while IFS= read -r line; do
	case $line in
	"version "*) ;;
	"1.."*) plan=${line#1..} ;;
	"# "*) echo "$line" ;;
	"not ok "*)
		desc=${line#not ok * }
		t_fail "$desc"
		;;
	"ok "*"# SKIP "*)
		desc=${line#ok * }
		t_skip "${desc%% # SKIP *}" "${desc#* # SKIP }"
		;;
	"ok "*)
		desc=${line#ok * }
		t_ok "$desc"
		;;
	esac
done </tmp/auxbus_test.ktap
# The report must be complete: a plan, as many results, and the summary line.
n=$(grep -cE '^(not )?ok ' /tmp/auxbus_test.ktap)
t_check "auxbus_test printed its plan" test -n "$plan"
t_eq "auxbus_test reported every planned check" "${plan:-none}" "$n"
t_check "auxbus_test summary says 0 failed" grep -q '^# done: 0 failed$' /tmp/auxbus_test.ktap
t_check "modprobe -r auxbus_test" modprobe -r auxbus_test
t_check_fails "no auxbus_test device is left on the bus" \
	sh -c "ls /sys/bus/$AUXBUS_BUS/devices | grep -q '^auxbus_test\.'"
t_done
