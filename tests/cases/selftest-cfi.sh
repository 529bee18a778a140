# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: an indirect call through a pointer of the wrong function type on the clang
# debug kernel. kCFI reports it ("CFI failure at ...") and traps (oops=panic stops the guest),
# and the harness must report this case as failed.
# kernels: debugc
# expect: fail
# ends-boot: yes
# expect-match: CFI failure at .*auxbus_selftest_cfi
. /tests/lib/ktap.sh
modprobe auxbus_selftest_cfi
t_ok "no kCFI report stopped the guest"
t_done
