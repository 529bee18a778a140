# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: a use-after-free on the debug kernel. KASAN reports it (oops=panic and
# panic_on_warn stop the guest), and the harness must report this case as failed.
# kernels: debug debugc
# expect: fail
# ends-boot: yes
# expect-match: BUG: KASAN: (slab-)?use-after-free
. /tests/lib/ktap.sh
modprobe auxbus_selftest_kasan
t_ok "no KASAN report stopped the guest"
t_done
