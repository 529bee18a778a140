#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the bus benchmark (busybox sh), one boot under QEMU -icount shift=0 (make
# bench): every ns of the guest's clock is one executed instruction, so the figures are
# instruction counts, independent of the host's load. Each load of an auxbus_bench_* module
# adds+binds, then unbinds+deletes N devices once and prints its counts; run.sh removes it.
# Variants: floor (bare device_add/device_del on a bus of the module's own), built-in (the
# kernel's bus, where it has one) and bundled (auxbus.ko; coexisting where the kernel has a
# bus). Sizes BENCH_SIZES; BENCH_ROUNDS loads per size and variant below 100,000 (two: the
# second shows the counts repeat). Last, the validation: the bundled variant with one device and
# extra_loops=1000 * BENCH_EXTRA runs exactly 2,000 * BENCH_EXTRA instructions more (bench_extra.h).
# timeout: 2400

SIZES=${BENCH_SIZES:-1000 10000 100000}
ROUNDS=${BENCH_ROUNDS:-2}
EXTRA=${BENCH_EXTRA:-10000}

modprobe auxbus || { echo "bench: modprobe auxbus failed"; exit 1; }
# busybox modinfo succeeds for a module it does not find: ask modules.dep
have() { grep -q "/auxbus_bench_$1\.ko" "/lib/modules/$(uname -r)/modules.dep"; }
VARIANTS="floor"
have kernel && VARIANTS="$VARIANTS kernel"
VARIANTS="$VARIANTS bundled"
run() { # run VARIANT N [PARAMS] -> "add_ins del_ins all_add_ins all_del_ins"
	_v=$1 _n=$2
	shift 2
	dmesg -c >/dev/null
	modprobe "auxbus_bench_$_v" n="$_n" "$@" || return 1
	modprobe -r "auxbus_bench_$_v"
	dmesg | sed -n "s/.*auxbus_bench_$_v: n=$_n add_bind_ns=\([0-9]*\) unbind_del_ns=\([0-9]*\) self_ns=\([0-9]*\) \([0-9]*\)$/\3 \4 \1 \2/p" |
		tail -n 1
}
div() { echo "$1 $2" | awk '{ printf "%.3f", $1 / $2 }'; }
per() { echo "$1 $2" | awk '{ printf "%.0f", $1 / $2 }'; }
name() { case $1 in kernel) echo built-in ;; bundled) have kernel && echo coexisting || echo bundled ;; *) echo "$1" ;; esac; }

echo "bench: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU(s); instructions (guest ns under -icount shift=0) of the benchmark's thread (its sum_exec_runtime); all tasks' (ktime) in brackets"
for n in $SIZES; do
	rounds=$ROUNDS
	[ "$n" -ge 100000 ] && rounds=1
	r=1
	while [ "$r" -le "$rounds" ]; do
		for v in $VARIANTS; do
			set -- $(run "$v" "$n")
			[ $# -eq 4 ] || { echo "bench: $v n=$n produced no result"; exit 1; }
			t=$(( $1 + $2 ))
			echo "bench: $(name $v) n=$n round $r: add+bind $1, unbind+delete $2, total $t, per device $(per $t $n) [all tasks: $3 $4]"
			[ "$r" -eq 1 ] && eval "t_${v}_$n=$t a_${v}_$n=$1 d_${v}_$n=$2"
			[ "$r" -eq 2 ] && eval "t2_${v}_$n=$t"
		done
		r=$(( r + 1 ))
	done
done

# validation: a known extra cost shows up as that many instructions. The runs without and with
# it are adjacent (without, with, without: the mean of the two without is the base), as the
# kernel's state after the 100,000-device runs no longer costs what round 1 did. The check: one
# device with a loop of 1000 x BENCH_EXTRA iterations. For information, the same loop spread
# over 1,000 devices (BENCH_EXTRA after each add): there the loop's extra runtime also buys
# extra preemptions (on 7.3 an hrtick ends each 0.75 ms slice and hands the CPU to the
# deferred-probe work that every bind queues), real work of the thread beyond the loop's.
xrun() { # xrun N LOOPS -> total instructions of the bundled variant
	set -- $(run bundled "$1" extra_loops="$2")
	[ $# -eq 4 ] || { echo "bench: bundled extra_loops produced no result" >&2; exit 1; }
	echo $(( $1 + $2 ))
}
x_b1=$(xrun 1 0) && x_x=$(xrun 1 $(( EXTRA * 1000 ))) && x_b2=$(xrun 1 0) || exit 1
x_meas=$(( x_x - (x_b1 + x_b2) / 2 ))
x_want=$(( 2 * EXTRA * 1000 ))
echo "bench: validation: bundled n=1 extra_loops=0 $x_b1, extra_loops=$(( EXTRA * 1000 )) $x_x, extra_loops=0 $x_b2"
y_b1=$(xrun 1000 0) && y_x=$(xrun 1000 "$EXTRA") && y_b2=$(xrun 1000 0) || exit 1
y_meas=$(( y_x - (y_b1 + y_b2) / 2 ))
echo "bench: validation, spread: bundled n=1000 extra_loops=0 $y_b1, extra_loops=$EXTRA $y_x, extra_loops=0 $y_b2"

# profile of coexisting/built-in (built-in kernels): the built-in variant with the bundled
# bus's own steps added (mimic: 1 its name lookup before each add, 2 its bus notifier, 3
# both), adjacent to plain built-in and coexisting runs at n=1000
if have kernel; then
	for m in 0 1 2 3; do
		set -- $(run kernel 1000 mimic=$m)
		[ $# -eq 4 ] || { echo "bench: built-in mimic=$m produced no result"; exit 1; }
		eval "p_$m=$(( $1 + $2 ))"
	done
	set -- $(run bundled 1000)
	[ $# -eq 4 ] || { echo "bench: bundled n=1000 produced no result"; exit 1; }
	p_b=$(( $1 + $2 ))
	echo "bench: profile n=1000: built-in $p_0, + lookup $p_1, + notifier $p_2, + both $p_3, coexisting $p_b"
fi

# every row goes to make bench's one table too (tests/bench/table.sh prints it last)
row() {
	printf 'bench: | %-44s | %14s | %-22s | %-8s |\n' "$1" "$2" "$3" "$4"
	case $1 in figure | -*) ;; *) echo "P1 $1|$2|$3|$4" >>/tmp/bench.rows ;; esac
}
echo "bench: P1, the bus: add+bind+unbind+delete per device ($(uname -r); instructions)"
row figure instructions ratio target
row "--------------------------------------------" "--------------" "----------------------" "--------"
for n in $SIZES; do
	eval "f=\$t_floor_$n"
	for v in $VARIANTS; do
		eval "t=\$t_${v}_$n"
		case $v in
		floor) row "floor n=$n" "$(per "$t" "$n")" "1.000 x floor" "-" ;;
		kernel) row "built-in n=$n" "$(per "$t" "$n")" "$(div "$t" "$f") x floor" "-" ;;
		bundled)
			row "$(name bundled) n=$n" "$(per "$t" "$n")" "$(div "$t" "$f") x floor" "<= 1.5"
			if have kernel; then
				eval "k=\$t_kernel_$n"
				row "$(name bundled)/built-in n=$n" "" "$(div "$t" "$k")" "<= 1.00"
			fi ;;
		esac
	done
done
for v in $VARIANTS; do
	eval "a=\${t_${v}_10000:-} b=\${t_${v}_100000:-} c=\${t_${v}_1000:-}"
	[ -n "$c" ] && [ -n "$a" ] && row "$(name $v) 10k/1k" "" "$(div "$a" "$c")" "<= 11"
	[ -n "$a" ] && [ -n "$b" ] && row "$(name $v) 100k/10k" "" "$(div "$b" "$a")" "<= 11"
done
for n in $SIZES; do
	for v in $VARIANTS; do
		eval "a=\$t_${v}_$n b=\${t2_${v}_$n:-}"
		[ -n "$b" ] && row "repeat $(name $v) n=$n (round 2/round 1)" "$b" "$(div "$b" "$a")" "1 +- 0.01"
	done
done
if have kernel; then
	row "profile: built-in n=1000" "$(per "$p_0" 1000)" "1.000 x built-in" "-"
	row "profile: built-in + name lookup (sysfs_get_dirent)" "$(per "$p_1" 1000)" "$(div "$p_1" "$p_0") x built-in" "-"
	row "profile: built-in + bus notifier" "$(per "$p_2" 1000)" "$(div "$p_2" "$p_0") x built-in" "-"
	row "profile: built-in + lookup + notifier" "$(per "$p_3" 1000)" "$(div "$p_3" "$p_0") x built-in" "-"
	row "profile: coexisting n=1000" "$(per "$p_b" 1000)" "$(div "$p_b" "$p_0") x built-in" "-"
fi
row "extra loop of $(( EXTRA * 1000 )), 1 device: expected" "$x_want" "2 x loops" "-"
row "extra loop of $(( EXTRA * 1000 )), 1 device: measured" "$x_meas" "$(div "$x_meas" "$x_want") x expected" "1 +- 0.01"
row "extra loop of $EXTRA x 1000 devices: measured" "$y_meas" "$(div "$y_meas" "$x_want") x expected" "-"
x_ok=$(echo "$x_meas $x_want" | awk '{ r = $1 / $2; print (r >= 0.99 && r <= 1.01) ? "ok" : "FAIL" }')
echo "bench: validation $x_ok: extra_loops=$(( EXTRA * 1000 )) on 1 device measured $x_meas instructions, expected $x_want (1 +- 0.01)"
modprobe -r auxbus
