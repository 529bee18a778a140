# SPDX-License-Identifier: GPL-2.0-only
# System-sleep helpers of the cases (busybox ash). Sourced after /tests/lib/ktap.sh.
# The cases run in the matrix's shared boot: pm_test_begin LEVEL sets /sys/power/pm_test and
# turns off the kernel's pm_test_delay (5 s of waiting at the test point, for a human to see);
# pm_test_end, from the case's cleanup, puts both back.

PM_DELAY=/sys/module/suspend/parameters/pm_test_delay
PM_SAVED_DELAY=""

pm_test_begin() {
	[ -w "$PM_DELAY" ] && PM_SAVED_DELAY=$(cat "$PM_DELAY") && echo 0 >"$PM_DELAY"
	echo "$1" >/sys/power/pm_test
}

pm_test_end() {
	[ -w /sys/power/pm_test ] && echo none >/sys/power/pm_test
	[ -n "$PM_SAVED_DELAY" ] && echo "$PM_SAVED_DELAY" >"$PM_DELAY"
	PM_SAVED_DELAY=""
	return 0
}
