# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: a leak on the debug kernel. The case itself passes; kmemleak's scan at the
# end of the boot finds the object (128 bytes; its backtrace names no symbol once the module is
# gone), and the harness must report the case as failed.
# kernels: debug debugc
# expect: fail
# expect-match: unreferenced object 0x[0-9a-f]+ \(size 128\)
. /tests/lib/ktap.sh
t_check "load auxbus_selftest_leak" modprobe auxbus_selftest_leak
t_check "unload it" rmmod auxbus_selftest_leak
t_done
