# SPDX-License-Identifier: GPL-2.0-only
# KTAP helpers for test cases run in the guest (busybox ash; POSIX sh only).
# Modelled on the kernel's tools/testing/selftests/kselftest/ktap_helpers.sh.
#
# A case records subtests with t_ok/t_fail/t_skip/t_check/t_check_fails/t_check_errno/t_eq and
# ends with t_done. Subtests print as indented KTAP lines; the runner prints the case's top-level
# line from the exit status: 0 passed, 4 skipped (reason on the last line of stdout), else failed.

T_NUM=0
T_FAILED=0
T_SKIP_EXIT=4

# The harness's modinfo (tests/tools/modinfo.c) where the guest has it: busybox's ash runs its
# own applets before PATH (FEATURE_PREFER_APPLETS), and busybox's modinfo misreads .modinfo.
[ -x /bin/modinfo ] && [ ! -L /bin/modinfo ] && modinfo() { /bin/modinfo "$@"; }

t_ok() {
	T_NUM=$((T_NUM + 1))
	echo "    ok $T_NUM $1"
}

t_fail() {
	T_NUM=$((T_NUM + 1))
	T_FAILED=$((T_FAILED + 1))
	echo "    not ok $T_NUM $1"
	[ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/    # /'
	return 0
}

t_skip() {
	T_NUM=$((T_NUM + 1))
	echo "    ok $T_NUM $1 # SKIP $2"
}

# t_check DESC CMD...: passes when CMD exits 0; CMD's output is kept as diagnostics on failure.
t_check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		t_ok "$_desc"
	else
		t_fail "$_desc" "$* -> exit $?: $_out"
	fi
}

# t_check_fails DESC CMD...: passes when CMD exits non-zero: for absence (a refusal: t_check_errno)
t_check_fails() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		t_fail "$_desc" "$* unexpectedly succeeded: $_out"
	else
		t_ok "$_desc"
	fi
}

# t_check_errno DESC PATTERN CMD...: passes when CMD exits non-zero and its output matches the
# basic regular expression PATTERN (the errno's text, "Invalid argument", or the kernel's message)
t_check_errno() {
	_desc=$1
	_pat=$2
	shift 2
	if _out=$("$@" 2>&1); then
		t_fail "$_desc" "$* unexpectedly succeeded: $_out"
	elif printf '%s\n' "$_out" | grep -q -- "$_pat"; then
		t_ok "$_desc"
	else
		t_fail "$_desc" "$* failed, but not with '$_pat': $_out"
	fi
}

# t_eq DESC EXPECTED ACTUAL
t_eq() {
	if [ "$2" = "$3" ]; then
		t_ok "$1"
	else
		t_fail "$1" "expected '$2', got '$3'"
	fi
}

# t_skip_case REASON: the whole case does not apply here. After a failed subtest it is a
# failure, not a skip: a case cannot hide what it already found.
t_skip_case() {
	if [ "$T_FAILED" -gt 0 ]; then
		echo "# $T_FAILED subtest(s) failed before the case gave up: $1"
		exit 1
	fi
	echo "# SKIP $1"
	exit $T_SKIP_EXIT
}

t_done() {
	echo "    1..$T_NUM"
	[ "$T_FAILED" -eq 0 ] && exit 0
	exit 1
}

# Wait up to $2 tenths of a second for a path to exist (default 50 = 5 s).
t_wait_for() {
	_n=${2:-50}
	while [ ! -e "$1" ] && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	[ -e "$1" ]
}

# t_wait_cmd TENTHS CMD...: CMD succeeds within TENTHS tenths of a second
t_wait_cmd() {
	_n=$1
	shift
	until "$@"; do
		[ "$_n" -gt 0 ] || return 1
		sleep 0.1
		_n=$((_n - 1))
	done
}

# Wait up to $2 tenths of a second for a path to be gone (default 50 = 5 s). A driver's sysfs
# directory goes with its kobject's release, which CONFIG_DEBUG_KOBJECT_RELEASE delays 1-4 s.
t_wait_gone() {
	_n=${2:-50}
	while [ -e "$1" ] && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	[ ! -e "$1" ]
}

# t_rmmod MODULE...: rmmod, then wait until the modules' drivers have left sysfs, so that
# loading them again cannot meet the old directories (their release can outlast the module's).
t_rmmod() {
	_drv=""
	for _m; do
		for _d in /sys/module/"$_m"/drivers/*; do
			[ -e "$_d" ] && _drv="$_drv ${_d##*/}"
		done
	done
	rmmod "$@" || return
	for _d in $_drv; do
		t_wait_gone "/sys/bus/${_d%%:*}/drivers/${_d#*:}" 60 || return
	done
}

# t_in_exit MODULE PID: PID (an rmmod) sleeps in MODULE's exit: the module is going and PID is
# still in delete_module(). Not the exit's own frame: 7.x's stack of a module's sleeping exit
# may show only delete_module()'s.
t_in_exit() {
	[ "$(cat /sys/module/$1/initstate 2>/dev/null)" = going ] &&
		grep -q delete_module "/proc/$2/stack" 2>/dev/null
}

# The kernel log of a step, without clearing it (dmesg -c would hide it from the runner's scan
# of the case's log): t_log_mark NAME writes a mark, t_log_since NAME prints what the kernel
# logged after the last mark NAME and fails when there is no such mark (the log wrapped, or a
# typo): a negative check on its output cannot pass on a log it did not see.
t_log_mark() { echo "auxbus-test: mark $1" >/dev/kmsg; }
t_log_since() {
	dmesg | awk -v m="auxbus-test: mark $1" '
		{ l[NR] = $0 }
		length($0) >= length(m) && substr($0, length($0) - length(m) + 1) == m { s = NR }
		END { for (i = s + 1; s && i <= NR; i++) print l[i]; exit !s }'
}
# t_log_has NAME RE: the log since mark NAME has a line matching RE (a basic regex, as grep)
t_log_has() {
	_log=$(t_log_since "$1") || return 1
	printf '%s\n' "$_log" | grep -q -- "$2"
}
# t_log_lacks NAME RE: mark NAME is in the log, and no line since it matches RE
t_log_lacks() {
	_log=$(t_log_since "$1") || return 1
	! printf '%s\n' "$_log" | grep -q -- "$2"
}

# Seconds since boot, to the hundredth (from /proc/uptime), for timing inside a case.
t_now() { cut -d' ' -f1 /proc/uptime; }
