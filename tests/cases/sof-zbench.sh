# SPDX-License-Identifier: GPL-2.0-only
# SOF shim IPC benchmark (a note, not a timed test): IPC round trips per second at
# ipc_delay_us=0, one client and two in tandem, against the limit of a bare completion
# handoff between two kernel threads (snd_sof_shim_bench). Target ratio >= 0.8.
# timeout: 120
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap 'sof_cleanup; rmmod snd_sof_shim_bench 2>/dev/null' EXIT

modprobe snd_sof_shim_bench 2>/dev/null || t_skip_case "snd_sof_shim_bench not built (AUXBUS_TESTS=y)"
B=/sys/kernel/debug/snd_sof_shim_bench/handoff_ms
MS=1000

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2 ipc_delay_us=0" sof_new 0 clients=ipc_flood:2 ipc_delay_us=0
F0=$(sof_flood_dir 0 0)
F1=$(sof_flood_dir 0 1)

t_check "handoff ${MS} ms" sh -c "echo $MS >$B"
h=$(sed -n 's/^rate //p' $B)
t_check "one client, ${MS} ms" sh -c "echo $MS >$F0/ipc_flood_duration_ms"
c1=$(sof_result $F0/ipc_flood_duration_ms count)
(echo $MS >$F0/ipc_flood_duration_ms) &
(echo $MS >$F1/ipc_flood_duration_ms) &
wait
c2a=$(sof_result $F0/ipc_flood_duration_ms count)
c2b=$(sof_result $F1/ipc_flood_duration_ms count)
t_check "handoff again (${MS} ms)" sh -c "echo $MS >$B"
h2=$(sed -n 's/^rate //p' $B)
t_eq "no mismatched reply" 0 "$(sof_stat 0 mismatch)"

if [ -n "$h" ] && [ -n "$h2" ] && [ -n "$c1" ] && [ -n "$c2a" ] && [ -n "$c2b" ]; then
	t_ok "benchmark numbers"
	awk -v h="$h" -v h2="$h2" -v c1="$c1" -v a="$c2a" -v b="$c2b" -v ms="$MS" 'BEGIN {
		lim = (h + h2) / 2; r1 = c1 * 1000 / ms; r2 = (a + b) * 1000 / ms
		printf "# bench: completion handoff %d and %d round trips/s (limit %d)\n", h, h2, lim
		printf "# bench: ipc 1 client %d round trips/s, ratio %.2f\n", r1, r1 / lim
		printf "# bench: ipc 2 clients in tandem %d round trips/s (%d + %d), ratio %.2f\n",
			r2, a * 1000 / ms, b * 1000 / ms, r2 / lim
	}'
else
	t_fail "benchmark numbers" "handoff '$h' '$h2' one '$c1' tandem '$c2a' '$c2b'"
fi
t_done
