# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: a lock-order inversion on the debug kernel. Lockdep reports it (no WARN,
# so the guest goes on), the runner finds it in the case's kernel log, and the harness must
# report this case as failed.
# kernels: debug debugc
# expect: fail
# expect-match: possible circular locking dependency detected
. /tests/lib/ktap.sh
trap 'rmmod auxbus_selftest_lockdep 2>/dev/null' EXIT
t_check "load auxbus_selftest_lockdep" modprobe auxbus_selftest_lockdep
t_done
