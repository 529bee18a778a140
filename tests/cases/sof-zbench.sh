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
# The same run without pinning follows, for information.
# kmods: snd-compress
# timeout: 120
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap 'sof_cleanup; rmmod snd_sof_shim_bench 2>/dev/null' EXIT

modprobe snd_sof_shim_bench 2>/dev/null || t_skip_case "snd_sof_shim_bench not built (AUXBUS_TESTS=y)"
B=/sys/kernel/debug/snd_sof_shim_bench/handoff_ms
MS=1000

t_check "load" sof_load snd_sof_shim_ipc_flood
t_check "new_device 0 clients=ipc_flood:2 ipc_delay_us=0" sof_new 0 clients=ipc_flood:2 ipc_delay_us=0
F0=$(sof_flood_dir 0 0)/ipc_flood_duration_ms
F1=$(sof_flood_dir 0 1)/ipc_flood_duration_ms
DSP=
for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = sof-shim-dsp0 ] && DSP=${p#/proc/}
done
t_check "DSP thread found" test -n "$DSP"

# measure NAME CPUS: handoff, one client, tandem (threads), tandem (processes), handoff again;
# sets NAME_h NAME_h2 NAME_1 NAME_t NAME_p (round trips per second)
measure() {
	_n=$1 _ts="taskset $2"
	taskset -p "$2" "$DSP" >/dev/null || return 1
	$_ts sh -c "echo $MS >$B" || return 1
	eval "${_n}_h=$(sed -n 's/^rate //p' $B)"
	$_ts sh -c "echo $MS >$F0" || return 1
	eval "${_n}_1=$(sof_result $F0 count)"
	$_ts sof-parwrite $F0 $MS $F1 $MS || return 1
	eval "${_n}_t=$(($(sof_result $F0 count) + $(sof_result $F1 count)))"
	($_ts sh -c "echo $MS >$F0") &
	($_ts sh -c "echo $MS >$F1") &
	wait
	eval "${_n}_p=$(($(sof_result $F0 count) + $(sof_result $F1 count)))"
	$_ts sh -c "echo $MS >$B" || return 1
	eval "${_n}_h2=$(sed -n 's/^rate //p' $B)"
}
# report NAME LABEL
report() {
	eval "h=\$${1}_h h2=\$${1}_h2 c1=\$${1}_1 ct=\$${1}_t cp=\$${1}_p"
	awk -v l="$2" -v h="$h" -v h2="$h2" -v c1="$c1" -v ct="$ct" -v cp="$cp" -v ms="$MS" 'BEGIN {
		lim = (h + h2) / 2
		printf "# bench %s: completion handoff %d and %d round trips/s (limit %d)\n", l, h, h2, lim
		printf "# bench %s: ipc 1 client %d/s, ratio %.2f\n", l, c1 * 1000 / ms, c1 * 1000 / ms / lim
		printf "# bench %s: ipc 2 clients in tandem %d/s, ratio %.2f\n", l, ct * 1000 / ms,
			ct * 1000 / ms / lim
		printf "# bench %s: ipc 2 clients in tandem, two processes %d/s, ratio %.2f\n", l,
			cp * 1000 / ms, cp * 1000 / ms / lim
	}'
}

ncpu=$(grep -c ^processor /proc/cpuinfo)
all=$(printf '%x' $(((1 << ncpu) - 1)))
# not t_check: measure sets variables, which a command substitution would lose
if measure pinned 1; then t_ok "one CPU: handoff, 1 client, 2 in tandem"
else t_fail "one CPU: handoff, 1 client, 2 in tandem"; fi
if measure free "$all"; then t_ok "all $ncpu CPUs: handoff, 1 client, 2 in tandem"
else t_fail "all $ncpu CPUs: handoff, 1 client, 2 in tandem"; fi
t_eq "no mismatched reply" 0 "$(sof_stat 0 mismatch)"
report pinned "one CPU (target)"
report free "$ncpu CPUs, unpinned"
t_done
