# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: a module that hits WARN_ON(). panic_on_warn=1 stops the guest, and the
# harness must report this case as failed; tests/run turns that expected failure into a pass.
# kernels: bookworm debug debugc
# backends: bundled
# expect: fail
# ends-boot: yes
# expect-match: WARNING: CPU: .*auxbus_selftest_warn|auxbus_selftest_warn.*WARNING
. /tests/lib/ktap.sh
modprobe auxbus_selftest_warn
t_ok "the guest survived WARN_ON: panic_on_warn is not in force"
t_done
