# SPDX-License-Identifier: GPL-2.0-only
# Harness self-test: a leak on the debug kernel. The case itself passes; kmemleak's scan at the
# end of the boot finds the object, and the harness must report the case as failed.
# kernels: debug
# expect: fail
# expect-match: selftest_leak_alloc
. /tests/lib/ktap.sh
t_check "load auxbus_selftest_leak" modprobe auxbus_selftest_leak
t_check "unload it" rmmod auxbus_selftest_leak
t_done
