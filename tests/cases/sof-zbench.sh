# SPDX-License-Identifier: GPL-2.0-only
# SOF shim IPC benchmark (a note, not a timed test: it fails only if an operation fails or a
# reply mismatches). IPC round trips per second at ipc_delay_us=0, one client and two in
# tandem, against the limit: a bare completion handoff between two kernel threads
# (snd_sof_shim_bench). Target ratio >= 0.8.
#
# Placement decides these numbers under QEMU TCG, so the target is measured with every thread
# on CPU 0 (the writers by taskset, the DSP's kthread by taskset -p, the handoff's kthread
# follows its writer): a cross-CPU wakeup of an idle vCPU costs 10..100 us there, and whether
# the scheduler puts the two ends of a handoff on one CPU or two changes the handoff rate
# tenfold from one run to the next. The tandem flood runs as two threads of one process
# (sof-parwrite): two shells would add an address-space switch, which flushes TCG's whole
# emulated TLB, between every two IPCs; it is measured too and printed as "two processes".
# Eleven rounds of 0.2 s runs; per round each IPC rate is divided by the mean of the handoffs
# before and after it, and the ratios printed are the medians. Many short rounds, because
# under TCG single runs of the same measurement in one boot differ by up to 2x (every run has
# a new writer process, every handoff new threads). One round without pinning follows, for
# information. That is `make bench` (AUXBUS_MODE=bench); in `make check` the same rounds are a
# smoke test: two rounds of 50 ms, and every rate must be above zero.
# kmods: snd-compress
# timeout: 180
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap 'sof_cleanup; rmmod snd_sof_shim_bench 2>/dev/null' EXIT

# built with AUXBUS_TESTS=y, as the matrix always builds: a failure, not a skip
if ! modprobe snd_sof_shim_bench; then
	t_fail "load snd_sof_shim_bench"
	t_done
fi
B=/sys/kernel/debug/snd_sof_shim_bench/handoff_ms
if [ "${AUXBUS_MODE:-check}" = bench ]; then
	MS=200
	ROUNDS=11
else
	MS=50
	ROUNDS=2
fi

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2 ipc_delay_us=0" sof_new 0 clients=ipc_flood:2 ipc_delay_us=0
F0=$(sof_flood_dir 0 0)/ipc_flood_duration_ms
F1=$(sof_flood_dir 0 1)/ipc_flood_duration_ms
DSP=
for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = sof-shim-dsp0 ] && DSP=${p#/proc/}
done
t_check "DSP thread found" test -n "$DSP"

# rate: the handoff's last result; count FILE: a flood's last count
rate() { sed -n 's/^rate //p' $B; }
count() { sof_result "$1" count; }
# measure NAME CPUS: one round: handoff, one client, tandem (threads), tandem (processes),
# handoff again; appends "NAME handoff one tandem processes handoff" (per second) to $OUT
measure() {
	_ts="taskset $2"
	taskset -p "$2" "$DSP" >/dev/null || return 1
	$_ts sh -c "echo $MS >$B" || return 1
	_h=$(rate)
	$_ts sh -c "echo $MS >$F0" || return 1
	_1=$(count $F0)
	$_ts sof-parwrite $F0 $MS $F1 $MS || return 1
	_t=$(($(count $F0) + $(count $F1)))
	($_ts sh -c "echo $MS >$F0") &
	($_ts sh -c "echo $MS >$F1") &
	wait
	_p=$(($(count $F0) + $(count $F1)))
	$_ts sh -c "echo $MS >$B" || return 1
	echo "$1 $_h $_1 $_t $_p $(rate)" | awk -v ms=$MS '{
		k = 1000 / ms; print $1, $2, $3 * k, $4 * k, $5 * k, $6 }' >>$OUT
}
# report NAME LABEL NOTE: per round, the IPC rates over the mean of the handoffs around them,
# then the medians of those ratios
report() {
	awk -v n="$1" -v l="$2" -v note="$3" '$1 == n {
		i++; lim[i] = ($2 + $6) / 2; h[i] = $2; h2[i] = $6; o[i] = $3; t[i] = $4; p[i] = $5
		r1[i] = $3 / lim[i]; rt[i] = $4 / lim[i]; rp[i] = $5 / lim[i] }
	function median(a, n,   b, j, k, x) {
		for (j = 1; j <= n; j++) b[j] = a[j]
		for (j = 2; j <= n; j++) { x = b[j]; for (k = j - 1; k > 0 && b[k] > x; k--) b[k + 1] = b[k]; b[k + 1] = x }
		return b[int((n + 1) / 2)]
	}
	END {
		if (!i) exit 1
		for (j = 1; j <= i; j++)
			printf "# bench %s round %d: handoff %d, %d/s; ipc 1 client %d/s (%.2f), tandem %d/s (%.2f), two processes %d/s (%.2f)\n",
				l, j, h[j], h2[j], o[j], r1[j], t[j], rt[j], p[j], rp[j]
		printf "# bench %s: ipc 1 client / handoff %.2f, 2 clients in tandem / handoff %.2f (medians of %d rounds; %s)\n",
			l, median(r1, i), median(rt, i), i, note
		printf "# bench %s: tandem as two processes / handoff %.2f (median)\n", l, median(rp, i)
	}' $OUT
}

ncpu=$(grep -c ^processor /proc/cpuinfo)
all=$(printf '%x' $(((1 << ncpu) - 1)))
OUT=/tmp/sof-zbench.txt
: >$OUT
r=0
while [ $r -lt "$ROUNDS" ] && measure pinned 1; do r=$((r + 1)); done
t_eq "one CPU: $ROUNDS rounds of handoff, 1 client, 2 in tandem" "$ROUNDS" "$r"
if measure free "$all"; then t_ok "all $ncpu CPUs: handoff, 1 client, 2 in tandem"
else t_fail "all $ncpu CPUs: handoff, 1 client, 2 in tandem"; fi
t_eq "no mismatched reply" 0 "$(sof_stat 0 mismatch)"
t_check "every rate above zero" awk '$2 <= 0 || $3 <= 0 || $4 <= 0 || $5 <= 0 || $6 <= 0 { exit 1 }
	END { exit NR < 1 }' $OUT
report pinned "one CPU" "target >= 0.8"
report free "$ncpu CPUs, unpinned" "for information"
t_done
