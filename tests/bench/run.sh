#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of the benchmark (busybox sh), one boot of a kernel with a built-in bus
# (bookworm, 6.1) and the bundled coexisting auxbus.ko plus both auxbus_bench_* modules
# in /lib/modules/$KVER/extra. Prints the times, bundled/built-in and 10k/1k ratios.
# Each load runs the benchmark and then fails on purpose (-EAGAIN): nothing stays loaded.

modprobe auxbus || exit 1
run() { # run VARIANT N -> "add_ns del_ns"
	dmesg -c >/dev/null
	modprobe "auxbus_bench_$1" n="$2" 2>/dev/null
	dmesg | sed -n "s/.*auxbus_bench_$1: n=$2 add_bind_ns=\([0-9]*\) unbind_del_ns=\([0-9]*\)$/\1 \2/p"
}
for v in bundled kernel; do
	for n in 1000 10000; do
		set -- $(run "$v" "$n")
		[ $# -eq 2 ] || { echo "bench: $v n=$n produced no result"; exit 1; }
		eval "t_${v}_$n=$(( $1 + $2 ))"
		echo "bench: $v n=$n add+bind $(( $1 / 1000000 )) ms, unbind+delete $(( $2 / 1000000 )) ms"
	done
done
ratio() { echo "$1 $2" | awk '{ printf "%.3f", $1 / $2 }'; }
echo "bench: bundled/built-in n=1000: $(ratio "$t_bundled_1000" "$t_kernel_1000") (target <= 1.00)"
echo "bench: bundled/built-in n=10000: $(ratio "$t_bundled_10000" "$t_kernel_10000") (target <= 1.00)"
echo "bench: 10k/1k bundled: $(ratio "$t_bundled_10000" "$t_bundled_1000") built-in: $(ratio "$t_kernel_10000" "$t_kernel_1000") (target <= 11)"
modprobe -r auxbus
