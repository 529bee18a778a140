# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: a kernel bug seen only on the console. The line goes into the kernel log
# and the case clears the log before the runner reads it; the host's console scan must fail it.
# kernels: bookworm
# backends: bundled
# expect: fail
# expect-match: BUG: auxbus harness self-test, console only
. /tests/lib/ktap.sh
echo "<2>BUG: auxbus harness self-test, console only" >/dev/kmsg
dmesg -c >/dev/null
t_ok "the case's own log is clean"
t_done
