#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the benchmark (busybox sh), one boot of a kernel with a built-in bus
# (bookworm, 6.1) and the bundled coexisting auxbus.ko plus both auxbus_bench_* modules
# in /lib/modules/$KVER/extra. Prints the times, bundled/built-in and 10k/1k ratios.
# Each load runs the benchmark once (add+bind, unbind+delete N devices) and the module is
# removed again. Rounds alternate the two buses; under TCG on a shared host single rounds
# vary by +-50%, so the bus ratio is the median of the per-round ratios (neighbours in
# time see the same host load) and the times are the best round of each.

ROUNDS_1000=${ROUNDS_1000:-9}
ROUNDS_10000=${ROUNDS_10000:-5}

modprobe auxbus || { echo "bench: modprobe auxbus failed"; exit 1; }
run() { # run VARIANT N -> "add_ns del_ns"
	dmesg -c >/dev/null
	modprobe "auxbus_bench_$1" n="$2" || return 1
	modprobe -r "auxbus_bench_$1"
	dmesg | sed -n "s/.*auxbus_bench_$1: n=$2 add_bind_ns=\([0-9]*\) unbind_del_ns=\([0-9]*\)$/\1 \2/p" |
		tail -n 1
}
ms() { echo "$1" | awk '{ printf "%.1f", $1 / 1000000 }'; }
ratio() { echo "$1 $2" | awk '{ printf "%.3f", $1 / $2 }'; }
median() { echo "$*" | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "bench: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPU(s); add+bind / unbind+delete in ms"
for n in 1000 10000; do
	eval "rounds=\$ROUNDS_$n"
	ratios=""
	r=1
	while [ "$r" -le "$rounds" ]; do
		for v in bundled kernel; do
			set -- $(run "$v" "$n")
			[ $# -eq 2 ] || { echo "bench: $v n=$n produced no result"; exit 1; }
			t=$(( $1 + $2 ))
			eval "t_$v=$t"
			eval "best=\${t_${v}_$n:-}"
			if [ -z "$best" ] || [ "$t" -lt "$best" ]; then
				eval "t_${v}_$n=$t a_${v}_$n=$1 d_${v}_$n=$2"
			fi
			eval "s_$v=\"$(ms "$1") / $(ms "$2")\""
		done
		q=$(ratio "$t_bundled" "$t_kernel")
		ratios="$ratios $q"
		echo "bench: n=$n round $r: bundled $s_bundled, built-in $s_kernel, ratio $q"
		r=$(( r + 1 ))
	done
	eval "ratio_$n=$(median $ratios)"
done
for v in bundled kernel; do
	for n in 1000 10000; do
		eval "a=\$a_${v}_$n d=\$d_${v}_$n t=\$t_${v}_$n"
		echo "bench: best $v n=$n: add+bind $(ms "$a") ms, unbind+delete $(ms "$d") ms, total $(ms "$t") ms"
	done
done
echo "bench: bundled/built-in n=1000: $ratio_1000 (median of $ROUNDS_1000 rounds; target <= 1.00)"
echo "bench: bundled/built-in n=10000: $ratio_10000 (median of $ROUNDS_10000 rounds; target <= 1.00)"
echo "bench: 10k/1k (best rounds) bundled: $(ratio "$t_bundled_10000" "$t_bundled_1000")" \
	"built-in: $(ratio "$t_kernel_10000" "$t_kernel_1000") (target <= 11)"
modprobe -r auxbus
