# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: a guest that stops making progress. The case becomes a modprobe whose
# module init sleeps uninterruptibly, so the guest's runner cannot end it at its timeout (the
# signal waits for the sleep); the host's watchdog must stop the guest (the case's timeout
# plus 20 s) and the harness report the case as failed.
# kernels: bookworm
# backends: bundled
# timeout: 3
# expect: fail
# ends-boot: yes
# expect-match: host watchdog: selftest-hang: no progress
. /tests/lib/ktap.sh
exec modprobe auxbus_selftest_hang seconds=100
