# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: an array index one past the end on the clang debug kernel. UBSAN reports
# it (and panic_on_warn stops the guest), and the harness must report this case as failed.
# kernels: debugc
# expect: fail
# ends-boot: yes
# expect-match: UBSAN: array-index-out-of-bounds in .*auxbus_selftest_ubsan
. /tests/lib/ktap.sh
modprobe auxbus_selftest_ubsan
t_ok "no UBSAN report stopped the guest"
t_done
