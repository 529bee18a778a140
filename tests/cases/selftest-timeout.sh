# SPDX-License-Identifier: GPL-2.0-only
# axes: harness
# Harness self-test: a case that runs past its timeout. The guest's runner stops it and
# the harness must report it as failed.
# kernels: bookworm
# backends: bundled
# timeout: 3
# expect: fail
# expect-match: timed out after 3 s
. /tests/lib/ktap.sh
sleep 30
t_ok "the runner let the case run past its timeout"
t_done
