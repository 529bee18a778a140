# SPDX-License-Identifier: GPL-2.0-only
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
# taskset, both DSP kthreads by taskset -p. A round is limit 1 client, limit tandem, IPC 1
# client, IPC tandem, limit tandem, limit 1 client: each IPC figure is compared with the mean of
# the limits measured before and after it. Per round: extra = IPC ns - limit ns, ratio = limit
# ns / IPC ns; printed are the medians over the rounds with min..max. Single rounds under TCG
# vary by up to 2x, hence many short interleaved rounds. One round without pinning follows, for
# information.
#
# make bench (AUXBUS_MODE=bench): 11 rounds of 200 ms. make check: a smoke test of 2 rounds of
# 50 ms that fails only if an operation fails, a reply mismatches or a count is zero; it prints
# the same table and claims no target.
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
LDSP=
for p in /proc/[0-9]*; do
	case $(cat $p/comm 2>/dev/null) in
	sof-shim-dsp0) DSP=${p#/proc/} ;;
	sof-limit-dsp) LDSP=${p#/proc/} ;;
	esac
done
t_check "DSP threads found (shim and limit)" test -n "$DSP" -a -n "$LDSP"

# lavg FILE, favg FILE: a limit's or a flood's average ns per round trip; fails on a zero or
# missing count or average
lavg() {
	_c=$(sed -n 's/^count //p' "$1")
	_a=$(sed -n 's/^avg_ns //p' "$1")
	[ "${_c:-0}" -gt 0 ] && [ "${_a:-0}" -gt 0 ] && echo "$_a"
}
favg() {
	_c=$(sof_result "$1" count)
	_a=$(sof_result "$1" avg)
	[ "${_c:-0}" -gt 0 ] && [ "${_a:-0}" -gt 0 ] && echo "$_a"
}
# one FILE, two FILE0 FILE1: run one writer or two in tandem on $_ts
one() { $_ts sh -c "echo $MS >$1"; }
two() { $_ts sof-parwrite "$1" $MS "$2" $MS; }
# step WHAT CMD...: run CMD, say which step failed
step() {
	_w=$1
	shift
	"$@" && return 0
	echo "# measure $_name: $_w failed"
	return 1
}
# measure NAME CPUS: one round; appends to $OUT the line
# "NAME lim1 limT0 limT1 ipc1 ipcT0 ipcT1 limT0' limT1' lim1'" (ns per round trip)
measure() {
	_name=$1
	_ts="taskset $2"
	step "pin DSP" taskset -p "$2" "$DSP" >/dev/null || return 1
	step "pin limit DSP" taskset -p "$2" "$LDSP" >/dev/null || return 1
	step "limit 1" one $L0 && _a=$(lavg $L0) || return 1
	step "limit tandem" two $L0 $L1 && _b="$(lavg $L0) $(lavg $L1)" || return 1
	step "ipc 1" one $F0 && _c=$(favg $F0) || return 1
	step "ipc tandem" two $F0 $F1 && _d="$(favg $F0) $(favg $F1)" || return 1
	step "limit tandem again" two $L0 $L1 && _e="$(lavg $L0) $(lavg $L1)" || return 1
	step "limit 1 again" one $L0 && _f=$(lavg $L0) || return 1
	set -- $_name $_a $_b $_c $_d $_e $_f
	if [ $# -ne 10 ]; then
		echo "# measure $_name: a zero or missing count: $*"
		return 1
	fi
	echo "$*" >>$OUT
}
# report NAME LABEL: the rounds, then the medians with min..max
report() {
	awk -v n="$1" -v l="$2" -v ms=$MS '
	function tandem(x, y) { return 1 / (1 / x + 1 / y) }
	function sort(a, k, b,   j, m, x) {
		for (j = 1; j <= k; j++) b[j] = a[j]
		for (j = 2; j <= k; j++) { x = b[j]; for (m = j - 1; m > 0 && b[m] > x; m--) b[m + 1] = b[m]; b[m + 1] = x }
	}
	function stat(a, k, fmt,   b) {
		sort(a, k, b)
		return sprintf(fmt " (" fmt ".." fmt ")", b[int((k + 1) / 2)], b[1], b[k])
	}
	$1 == n {
		i++
		l1[i] = ($2 + $10) / 2; i1[i] = $5
		lt[i] = (tandem($3, $4) + tandem($8, $9)) / 2; it[i] = tandem($6, $7)
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
		printf "# bench %s: ns per round trip, medians of %d interleaved rounds of %d ms (min..max)\n", l, i, ms
		printf "#   %-12s %-24s %-24s %-24s %s\n", "", "limit ns", "IPC ns", "IPC extra ns", "limit/IPC"
		printf "#   %-12s %-24s %-24s %-24s %s\n", "1 client", stat(l1, i, "%.0f"), stat(i1, i, "%.0f"), stat(x1, i, "%.0f"), stat(r1, i, "%.3f")
		printf "#   %-12s %-24s %-24s %-24s %s\n", "2 in tandem", stat(lt, i, "%.0f"), stat(it, i, "%.0f"), stat(xt, i, "%.0f"), stat(rt, i, "%.3f")
		if (f1 + ft)
			printf "# bench %s: IPC faster than its limit in %d of %d rounds (1 client) and %d of %d (tandem)\n", l, f1, i, ft, i
	}' $OUT
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
report pinned "one CPU"
report free "$ncpu CPUs, unpinned"
t_done
