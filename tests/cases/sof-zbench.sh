# SPDX-License-Identifier: GPL-2.0-only
# axes: api
# SOF shim IPC benchmark: one IPC round trip at ipc_delay_us=0 against its lower bound, for one
# client and for two in tandem, and the context switches per IPC. The lower bound is the same
# flood client's same call on a second DSP created with fw_inline=1: its firmware takes the
# message and answers it in the sender's own context (sof_shim_dsp_take_msg(), the code the
# DSP kthread runs), so the only difference is the hops: the wakeup of the DSP kthread, the
# switch to it and back, and the sender's sleep and wakeup. The IPC can only be slower: lower
# bound/IPC above 1 would say the bound is dishonest, and is reported as it is, never clamped.
# Tandem is two writers at once on both sides (sof-parwrite: two threads of one process).
#
# Every rate is measured: a flood result's average is its ktime window over its count (one
# clock read per round trip). A tandem's time per round trip is the union of the two floods'
# windows over their counts added (sof-parwrite prints when each write returned): the normal
# DSP's writers overlap, the inline DSP's do not (a sender that never sleeps keeps the CPU).
#
# Placement decides these numbers under QEMU TCG (a cross-CPU wakeup of an idle vCPU costs
# 10..100 us there), so the table is measured with every thread on CPU 0: the writers by
# taskset, the DSP kthread by taskset -p. Without make bench's -icount the host's load moves
# the clock too, so the bound and the IPC alternate in short steps of 1 ms, in one writer
# process (sof-parwrite -r, no process started between them): bound, IPC, IPC, bound (ABBA,
# which cancels a steady drift), many times over. A round is such cycles for one client, then
# for two in tandem; per round and side, a step's ns per round trip comes from its measured
# window and the side's is the median of its steps. Per round: extra = IPC ns - bound ns,
# ratio = IPC ns / bound ns; printed are the medians over the rounds with min..max. One round
# without pinning follows, for information. Context switches per IPC: /proc/stat's ctxt (all
# CPUs) around one longer step on one side alone, over the IPCs it counted.
#
# make bench (AUXBUS_MODE=bench): 21 rounds of 50 cycles. make check: a smoke test of 2 rounds
# of 3 cycles that fails if an operation fails, a reply mismatches or a count is zero, or if
# the inline DSP's IPCs still switch context (one client on CPU 0: the normal DSP switches to
# its kthread and back, >= 1.5 per IPC; the inline one < 0.5); it prints the same table and
# claims no target.
# kmods: snd-compress
# timeout: 420
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

if [ "${AUXBUS_MODE:-check}" = bench ]; then
	MS=1
	CYCLES=50
	ROUNDS=21
	CTXT_MS=200
else
	MS=1
	CYCLES=3
	ROUNDS=2
	CTXT_MS=20
fi

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2 ipc_delay_us=0" sof_new 0 clients=ipc_flood:2 ipc_delay_us=0
t_check "new_device 1 clients=ipc_flood:2 ipc_delay_us=0 fw_inline=1" \
	sof_new 1 clients=ipc_flood:2 ipc_delay_us=0 fw_inline=1
# flood client ids are the bus's, not the DSP's: DSP 1's are the next free ones
set -- $SOF_DBG/snd_sof_shim.0/snd_sof_shim.ipc_flood.*
F0=$1/ipc_flood_duration_ms
F1=$2/ipc_flood_duration_ms
set -- $SOF_DBG/snd_sof_shim.1/snd_sof_shim.ipc_flood.*
L0=$1/ipc_flood_duration_ms
L1=$2/ipc_flood_duration_ms
t_check "two flood clients on each DSP" test -e "$F1" -a -e "$L1"
DSP=
for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = sof-shim-dsp0 ] && DSP=${p#/proc/}
done
t_check "DSP 0's thread found" test -n "$DSP"

# flood_rates: from sof-parwrite -r's "STEP THREAD FILE CONTENT start_ns S end_ns T" lines,
# "STEP SIDE COUNT AVG END START" per line (SIDE: L for the inline DSP 1, the lower bound; I for
# the IPC on DSP 0; START, END: the monotonic clock, the flood's ktime, just before the write
# and when it returned)
flood_rates() {
	awk '{
		c = 0; v = 0; e = 0; s = 0
		for (k = 4; k < NF; k++) {
			if ($k == "count:" && $(k - 1) == "Flood") c = $(k + 1)
			if ($k == "time:" && $(k - 1) == "response" && $(k - 2) == "Avg") {
				v = $(k + 1); sub(/ns$/, "", v)
			}
			if ($k == "start_ns") s = $(k + 1)
			if ($k == "end_ns") e = $(k + 1)
		}
		# the clock as its digits: awk would print the number with 6 significant ones
		printf "%d %s %d %d %s %s\n", $1, ($3 ~ /snd_sof_shim\.1\//) ? "L" : "I", c, v,
			e ~ /^[0-9]+$/ ? e : 0, s ~ /^[0-9]+$/ ? s : 0
	}'
}
# agg WANT: from flood_rates' lines, "BOUND_NS IPC_NS BOUND_END_NS IPC_END_NS": per step, the ns
# per round trip: from the first write's start to the last write's return, over the IPCs its
# floods counted (a step of two writers is one stretch of the one CPU's time: on the inline DSP
# they follow one another, on the normal one they overlap). It includes each write's entry and
# return around its flood (the first _END figures: the same over the floods' own windows,
# count x avg ending at the write's return, which a writer preempted between its flood's end
# and its clock read moves late: for information, SOF_ZBENCH_RAW). Per side the median over its
# steps. Fails on a missing line or a zero count, average or clock.
agg() {
	flood_rates | awk -v want="$1" '
	function median(a, k,   j, m, x) {
		for (j = 2; j <= k; j++) { x = a[j]; for (m = j - 1; m > 0 && a[m] > x; m--) a[m + 1] = a[m]; a[m + 1] = x }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	{
		lines++
		if ($3 <= 0 || $4 <= 0 || $5 <= 0 || $6 <= 0) { bad = 1; next }
		st = $1
		side[st] = $2
		cnt[st] += $3
		if (!(st in lo) || $6 < lo[st]) lo[st] = $6
		b = $5 - $3 * $4
		if (!(st in lw) || b < lw[st]) lw[st] = b
		if (!(st in hi) || $5 > hi[st]) hi[st] = $5
	} END {
		if (bad || lines != want) exit 1
		for (st in side) {
			if (side[st] == "L") { l[++nl] = (hi[st] - lo[st]) / cnt[st]; lx[nl] = (hi[st] - lw[st]) / cnt[st] }
			else { p[++np] = (hi[st] - lo[st]) / cnt[st]; px[np] = (hi[st] - lw[st]) / cnt[st] }
		}
		printf "%.1f %.1f %.1f %.1f\n", median(l, nl), median(p, np), median(lx, nl), median(px, np)
	}'
}
# measure NAME CPUS: one round, on CPUS: $CYCLES times bound, IPC, IPC, bound (ABBA) in steps
# of $MS ms for one client, then the same for two in tandem (a thread per client, each step
# started together); appends "NAME BOUND_1 IPC_1 BOUND_T IPC_T" (ns per round trip) and the
# same four over the floods' windows (agg) to $OUT. SOF_ZBENCH_RAW=N: sof-parwrite's lines of
# the first N rounds too, as "# raw NAME ROUND 1|t LINE"
MEASURED=0
measure() {
	MEASURED=$((MEASURED + 1))
	taskset -p "$2" "$DSP" >/dev/null || return 1
	_r1=$(taskset "$2" sof-parwrite -r $CYCLES $L0,$F0,$F0,$L0 $MS)
	_rt=$(taskset "$2" sof-parwrite -r $CYCLES $L0,$F0,$F0,$L0 $MS $L1,$F1,$F1,$L1 $MS)
	if [ "$MEASURED" -le "${SOF_ZBENCH_RAW:-0}" ]; then
		echo "$_r1" | sed "s/^/# raw $1 $MEASURED 1 /"
		echo "$_rt" | sed "s/^/# raw $1 $MEASURED t /"
	fi
	_o=$(echo "$_r1" | agg $((CYCLES * 4))) || { echo "# measure $1, 1 client: failed"; return 1; }
	_t=$(echo "$_rt" | agg $((CYCLES * 8))) || { echo "# measure $1, tandem: failed"; return 1; }
	_n=$1
	set -- $_o $_t
	echo "$_n $1 $2 $5 $6 $3 $4 $7 $8" >>$OUT
}
# ctxt FILE [FILE2]: on CPU 0, one step of $CTXT_MS ms on FILE (and FILE2 in tandem); prints
# "SWITCHES IPCS": /proc/stat's ctxt delta around it and the IPCs the floods counted
ctxt() {
	_c0=$(sed -n 's/^ctxt //p' /proc/stat)
	if [ $# -eq 1 ]; then _o=$(taskset 1 sof-parwrite -r 1 "$1" $CTXT_MS)
	else _o=$(taskset 1 sof-parwrite -r 1 "$1" $CTXT_MS "$2" $CTXT_MS); fi
	_c1=$(sed -n 's/^ctxt //p' /proc/stat)
	echo "$_o" | flood_rates | awk -v c=$((_c1 - _c0)) -v want=$# '
		{ lines++; n += $3; if ($3 <= 0) bad = 1 }
		END { if (bad || lines != want) exit 1; print c, n }'
}
# per_ipc "SWITCHES IPCS"
per_ipc() { echo "$1" | awk '{ printf "%.3f", $1 / $2 }'; }

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
		w[i] = sprintf("1 client: bound %.0f ns, IPC %.0f ns; tandem: bound %.0f ns, IPC %.0f ns", $6, $7, $8, $9)
		x1[i] = i1[i] - l1[i]; r1[i] = i1[i] / l1[i]
		xt[i] = it[i] - lt[i]; rt[i] = it[i] / lt[i]
		if (r1[i] < 1) f1++
		if (rt[i] < 1) ft++
	}
	END {
		if (!i) exit 1
		for (j = 1; j <= i; j++)
			printf "# bench %s round %d: 1 client: bound %.0f ns, IPC %.0f ns, extra %.0f ns, IPC/bound %.3f; tandem: bound %.0f ns, IPC %.0f ns, extra %.0f ns, IPC/bound %.3f\n",
				l, j, l1[j], i1[j], x1[j], r1[j], lt[j], it[j], xt[j], rt[j]
		if (raw)
			for (j = 1; j <= i; j++)
				printf "# bench %s round %d over the floods'"'"' windows: %s\n", l, j, w[j]
		printf "# bench %s: ns per round trip, medians of %d rounds of %d bound-IPC-IPC-bound cycles, steps of %d ms (min..max)\n", l, i, cy, ms
		printf "#   %-12s %-24s %-24s %-24s %s\n", "", "bound (fw_inline) ns", "IPC ns", "IPC extra ns", "IPC/bound"
		printf "#   %-12s %-24s %-24s %-24s %s\n", "1 client", stat(l1, i, "%.0f"), stat(i1, i, "%.0f"), stat(x1, i, "%.0f"), stat(r1, i, "%.3f")
		printf "#   %-12s %-24s %-24s %-24s %s\n", "2 in tandem", stat(lt, i, "%.0f"), stat(it, i, "%.0f"), stat(xt, i, "%.0f"), stat(rt, i, "%.3f")
		if (f1 + ft)
			printf "# bench %s: IPC faster than its lower bound in %d of %d rounds (1 client) and %d of %d (tandem)\n", l, f1, i, ft, i
		if (rows == "")
			exit 0
		# make bench: rows of the one table (tests/bench/table.sh), medians
		sort(i1, i, b1); sort(l1, i, c1); sort(it, i, bt); sort(lt, i, ct)
		m = int((i + 1) / 2)
		printf "P2 IPC round trip, 1 client|%.0f|%.3f x bound %.0f|<= 1.10\n", b1[m], b1[m] / c1[m], c1[m] >>rows
		printf "P2 IPC round trip, 2 in tandem|%.0f|%.3f x bound %.0f|<= 1.10\n", bt[m], bt[m] / ct[m], ct[m] >>rows
	}' rows="${3:-}" raw="${SOF_ZBENCH_RAW:-}" $OUT
}

ncpu=$(grep -c ^processor /proc/cpuinfo)
all=$(printf '%x' $(((1 << ncpu) - 1)))
OUT=/tmp/sof-zbench.txt
: >$OUT
r=0
while [ $r -lt "$ROUNDS" ] && measure pinned 1; do r=$((r + 1)); done
t_eq "one CPU: $ROUNDS rounds of bound and IPC, 1 client and 2 in tandem" "$ROUNDS" "$r"
if measure free "$all"; then t_ok "all $ncpu CPUs: bound and IPC, 1 client and 2 in tandem"
else t_fail "all $ncpu CPUs: bound and IPC, 1 client and 2 in tandem"; fi

# context switches per IPC, everything on CPU 0
taskset -p 1 "$DSP" >/dev/null
x_i1=$(ctxt $F0) && x_l1=$(ctxt $L0) && x_it=$(ctxt $F0 $F1) && x_lt=$(ctxt $L0 $L1)
t_check "context switches counted on both DSPs" test -n "$x_lt"
echo "# bench ctxt: context switches per IPC (all CPUs' /proc/stat ctxt over the IPCs of one $CTXT_MS ms step on CPU 0): 1 client: IPC $(per_ipc "$x_i1") ($x_i1), bound $(per_ipc "$x_l1") ($x_l1); tandem: IPC $(per_ipc "$x_it") ($x_it), bound $(per_ipc "$x_lt") ($x_lt)"
t_check "normal DSP, 1 client: >= 1.5 context switches per IPC ($(per_ipc "$x_i1"))" \
	awk "BEGIN { exit !($(per_ipc "$x_i1") >= 1.5) }"
t_check "fw_inline DSP, 1 client: < 0.5 context switches per IPC ($(per_ipc "$x_l1"))" \
	awk "BEGIN { exit !($(per_ipc "$x_l1") < 0.5) }"

for d in 0 1; do
	t_eq "DSP $d: no mismatched reply" 0 "$(sof_stat $d mismatch)"
	t_eq "DSP $d: no IPC timed out" 0 "$(sof_stat $d timeout)"
done
if [ "${AUXBUS_MODE:-check}" = bench ]; then
	report pinned "one CPU" /tmp/bench.rows
	{
		echo "P2 context switches per IPC, 1 client|$(per_ipc "$x_i1")|bound $(per_ipc "$x_l1")|-"
		echo "P2 context switches per IPC, 2 in tandem|$(per_ipc "$x_it")|bound $(per_ipc "$x_lt")|-"
	} >>/tmp/bench.rows
else
	report pinned "one CPU"
fi
report free "$ncpu CPUs, unpinned"
t_done
