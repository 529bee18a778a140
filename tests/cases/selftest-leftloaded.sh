# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: a case that leaves a module of the bundle loaded. The runner must report
# it as failed (and unload it).
# kernels: bookworm
# backends: bundled
# expect: fail
# expect-match: left modules loaded: auxbus
. /tests/lib/ktap.sh
t_check "modprobe auxbus" modprobe auxbus
t_done
