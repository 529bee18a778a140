# SPDX-License-Identifier: GPL-2.0-only
# axes: api
# SOF shim IPC benchmark: what one IPC round trip at ipc_delay_us=0 costs beyond its limit, for
# one client and for two in tandem. The limit (snd_sof_shim_bench) is the IPC's round trip built
# from exactly its primitives (tx_mutex, ipc_lock, the doorbell flag and wake_up_process() of a
# DSP kthread, the DSP raising the "interrupt" and running its thread, wake_up() of the sender
# waiting in wait_event_timeout()) with a DSP that does nothing; its senders loop as the flood
# client does. The IPC can only be slower: limit/IPC above 1 would say the limit is dishonest,
# and is reported as it is, never clamped. Tandem is two writers at once on both sides
# (sof-parwrite: two threads of one process): one message in flight and one per DSP wakeup on
# both sides, so neither drains two requests per wakeup.
#
# Every rate is measured: a flood result's and a limit result's average is its ktime window
# over its count (one clock read per round trip on both sides). A tandem's time per round trip
# is 1 / (1/avg0 + 1/avg1), the two writers' measured rates added.
#
# Placement decides these numbers under QEMU TCG (a cross-CPU wakeup of an idle vCPU costs
# 10..100 us there), so the table is measured with every thread on CPU 0: the writers by
# taskset, both DSP kthreads by taskset -p. The host's load moves them too: a vCPU whose host
# thread waits still sees its clock run, for milliseconds at a time. So limit and IPC alternate
# in short steps of 1 ms, in one writer process (sof-parwrite -r, no process started between
# them): limit, IPC, IPC, limit (ABBA, which cancels a steady drift), many times over. A round
# is such cycles for one client, then for two in tandem; per round and side, a step's ns per
# round trip comes from its measured window and the side's is the median of its steps (a step
# that a stall of the host's thread hit is an outlier, not an average's tenth). Per round:
# extra = IPC ns - limit ns, ratio = limit ns / IPC ns; printed are the medians over the rounds
# with min..max. One round without pinning follows, for information.
#
# make bench (AUXBUS_MODE=bench): 21 rounds of 50 cycles. make check: a smoke test of 2 rounds
# of 3 cycles that fails only if an operation fails, a reply mismatches or a count is zero; it
# prints the same table and claims no target.
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
LB=/sys/kernel/debug/snd_sof_shim_bench
L0=$LB/duration_ms.0
L1=$LB/duration_ms.1
if [ "${AUXBUS_MODE:-check}" = bench ]; then
	MS=1
	CYCLES=50
	ROUNDS=21
else
	MS=1
	CYCLES=3
	ROUNDS=2
fi

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2 ipc_delay_us=0" sof_new 0 clients=ipc_flood:2 ipc_delay_us=0
F0=$(sof_flood_dir 0 0)/ipc_flood_duration_ms
F1=$(sof_flood_dir 0 1)/ipc_flood_duration_ms
DSP=
LDSP=
for p in /proc/[0-9]*; do
	case $(cat $p/comm 2>/dev/null) in
	sof-shim-dsp0) DSP=${p#/proc/} ;;
	sof-limit-dsp) LDSP=${p#/proc/} ;;
	esac
done
t_check "DSP threads found (shim and limit)" test -n "$DSP" -a -n "$LDSP"

# agg WANT: from sof-parwrite -r's WANT "STEP THREAD FILE CONTENT" lines, "LIMIT_NS IPC_NS":
# per step, the ns per round trip of its measured window (the threads' rates 1/avg added), and
# per side the median over its steps. Fails on a missing line or a zero count or average.
agg() {
	awk -v want="$1" '
	function median(a, k,   j, m, x) {
		for (j = 2; j <= k; j++) { x = a[j]; for (m = j - 1; m > 0 && a[m] > x; m--) a[m + 1] = a[m]; a[m + 1] = x }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	{
		c = 0; v = 0
		for (k = 4; k < NF; k++) {
			if ($k == "count" || ($k == "count:" && $(k - 1) == "Flood")) c = $(k + 1)
			if ($k == "avg_ns") v = $(k + 1)
			if ($k == "time:" && $(k - 1) == "response" && $(k - 2) == "Avg") {
				v = $(k + 1); sub(/ns$/, "", v)
			}
		}
		lines++
		if (c + 0 <= 0 || v + 0 <= 0) { bad = 1; next }
		side[$1] = $3 ~ /snd_sof_shim_bench/ ? "L" : "I"
		rate[$1] += 1 / v
	} END {
		if (bad || lines != want) exit 1
		for (st in side) {
			if (side[st] == "L") l[++nl] = 1 / rate[st]
			else p[++np] = 1 / rate[st]
		}
		printf "%.1f %.1f\n", median(l, nl), median(p, np)
	}'
}
# measure NAME CPUS: one round, on CPUS: $CYCLES times limit, IPC, IPC, limit (ABBA) in steps
# of $MS ms for one client, then the same for two in tandem (a thread per client, each step
# started together); appends "NAME LIMIT_1 IPC_1 LIMIT_T IPC_T" (ns per round trip) to $OUT
measure() {
	taskset -p "$2" "$DSP" >/dev/null || return 1
	taskset -p "$2" "$LDSP" >/dev/null || return 1
	_o=$(taskset "$2" sof-parwrite -r $CYCLES $L0,$F0,$F0,$L0 $MS | agg $((CYCLES * 4))) ||
		{ echo "# measure $1, 1 client: failed"; return 1; }
	_t=$(taskset "$2" sof-parwrite -r $CYCLES $L0,$F0,$F0,$L0 $MS $L1,$F1,$F1,$L1 $MS |
		agg $((CYCLES * 8))) || { echo "# measure $1, tandem: failed"; return 1; }
	echo "$1 $_o $_t" >>$OUT
}
# report NAME LABEL [ROWS]: the rounds, then the medians with min..max; ROWS: append the
# medians to make bench's one table
report() {
	awk -v n="$1" -v l="$2" -v ms=$MS -v cy=$CYCLES '
	function sort(a, k, b,   j, m, x) {
		for (j = 1; j <= k; j++) b[j] = a[j]
		for (j = 2; j <= k; j++) { x = b[j]; for (m = j - 1; m > 0 && b[m] > x; m--) b[m + 1] = b[m]; b[m + 1] = x }
	}
	function stat(a, k, fmt,   b) {
		sort(a, k, b)
		return sprintf(fmt " (" fmt ".." fmt ")", k % 2 ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2, b[1], b[k])
	}
	$1 == n {
		i++
		l1[i] = $2; i1[i] = $3; lt[i] = $4; it[i] = $5
		x1[i] = i1[i] - l1[i]; r1[i] = l1[i] / i1[i]
		xt[i] = it[i] - lt[i]; rt[i] = lt[i] / it[i]
		if (r1[i] > 1) f1++
		if (rt[i] > 1) ft++
	}
	END {
		if (!i) exit 1
		for (j = 1; j <= i; j++)
			printf "# bench %s round %d: 1 client: limit %.0f ns, IPC %.0f ns, extra %.0f ns, limit/IPC %.3f; tandem: limit %.0f ns, IPC %.0f ns, extra %.0f ns, limit/IPC %.3f\n",
				l, j, l1[j], i1[j], x1[j], r1[j], lt[j], it[j], xt[j], rt[j]
		printf "# bench %s: ns per round trip, medians of %d rounds of %d limit-IPC-IPC-limit cycles, steps of %d ms (min..max)\n", l, i, cy, ms
		printf "#   %-12s %-24s %-24s %-24s %s\n", "", "limit ns", "IPC ns", "IPC extra ns", "limit/IPC"
		printf "#   %-12s %-24s %-24s %-24s %s\n", "1 client", stat(l1, i, "%.0f"), stat(i1, i, "%.0f"), stat(x1, i, "%.0f"), stat(r1, i, "%.3f")
		printf "#   %-12s %-24s %-24s %-24s %s\n", "2 in tandem", stat(lt, i, "%.0f"), stat(it, i, "%.0f"), stat(xt, i, "%.0f"), stat(rt, i, "%.3f")
		if (f1 + ft)
			printf "# bench %s: IPC faster than its limit in %d of %d rounds (1 client) and %d of %d (tandem)\n", l, f1, i, ft, i
		if (rows == "")
			exit 0
		# make bench: rows of the one table (tests/bench/table.sh), medians; the limit is the
		# skeleton of the IPC in the shim (an A/B), not yet a sender-context lower bound
		sort(i1, i, b1); sort(l1, i, c1); sort(it, i, bt); sort(lt, i, ct)
		m = int((i + 1) / 2)
		printf "P2 IPC round trip, 1 client|%.0f|%.3f x limit %.0f|<= 1.10\n", b1[m], b1[m] / c1[m], c1[m] >>rows
		printf "P2 IPC round trip, 2 in tandem|%.0f|%.3f x limit %.0f|<= 1.10\n", bt[m], bt[m] / ct[m], ct[m] >>rows
	}' rows="${3:-}" $OUT
}

ncpu=$(grep -c ^processor /proc/cpuinfo)
all=$(printf '%x' $(((1 << ncpu) - 1)))
OUT=/tmp/sof-zbench.txt
: >$OUT
r=0
while [ $r -lt "$ROUNDS" ] && measure pinned 1; do r=$((r + 1)); done
t_eq "one CPU: $ROUNDS rounds of limit and IPC, 1 client and 2 in tandem" "$ROUNDS" "$r"
if measure free "$all"; then t_ok "all $ncpu CPUs: limit and IPC, 1 client and 2 in tandem"
else t_fail "all $ncpu CPUs: limit and IPC, 1 client and 2 in tandem"; fi
t_eq "no mismatched reply" 0 "$(sof_stat 0 mismatch)"
t_eq "no IPC timed out" 0 "$(sof_stat 0 timeout)"
t_eq "no unexpected limit interrupt" "unexpected 0" "$(cat $LB/stats)"
if [ "${AUXBUS_MODE:-check}" = bench ]; then report pinned "one CPU" /tmp/bench.rows
else report pinned "one CPU"; fi
report free "$ncpu CPUs, unpinned"
t_done
