#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# mlx5 shim benchmark (a note, not a timed test: it fails only if an operation fails). In one
# boot, create and destroy 1,000 devices through sf_add/sf_del and time each run:
#   plain   1,000 plain auxiliary devices (no SF driver loaded: nothing binds)
#   sf      1,000 SFs bound by mlx5_shim_sf, each with a nested eth device bound by
#           mlx5_shim_eth (sf_netdev=0): two devices and two probes per SF
#   sf+net  the same with a netdev registered per SF (sf_netdev=1), as mainline SFs have
# Target from issue 5: sf under 2x plain (each SF adds one nested device). Compare with the
# bus-core benchmark's 1,000 plain devices (tests/bench) where it exists.
# kernels: bookworm
# timeout: 900
. /tests/lib/ktap.sh

D=/sys/kernel/debug/mlx5_shim
N=${MLX5_BENCH_N:-1000}

cleanup() {
	echo 1 >$D/del_device 2>/dev/null
	for m in mlx5_shim_sf mlx5_shim_eth mlx5_shim_core; do modprobe -r "$m" 2>/dev/null; done
}
trap cleanup EXIT

now() { cut -d' ' -f1 /proc/uptime; }
diff_s() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }
# run NAME: create N devices, then destroy them; prints "create destroy" seconds
run() {
	t0=$(now)
	i=0
	while [ $i -lt "$N" ]; do
		echo $i >$D/mlx5_shim1p0/sf_add || return 1
		i=$((i + 1))
	done
	t1=$(now)
	i=0
	while [ $i -lt "$N" ]; do
		echo $i >$D/mlx5_shim1p0/sf_del || return 1
		i=$((i + 1))
	done
	t2=$(now)
	echo "$(diff_s "$t0" "$t1") $(diff_s "$t1" "$t2")"
}

modprobe mlx5_shim_core && printf '1 ports=2 caps=eth\n' >$D/new_device || t_skip_case "no adapter"
if r=$(run plain); then
	t_ok "plain: $N devices created and destroyed"
	set -- $r
	plain_c=$1 plain_d=$2
else
	t_fail "plain: $N devices created and destroyed"
fi
modprobe mlx5_shim_eth sf_netdev=0 && modprobe mlx5_shim_sf
if r=$(run sf); then
	t_ok "sf: $N SFs bound, with nested eth, created and destroyed"
	set -- $r
	sf_c=$1 sf_d=$2
else
	t_fail "sf: $N SFs bound, with nested eth, created and destroyed"
fi
echo Y >/sys/module/mlx5_shim_eth/parameters/sf_netdev
if r=$(run sfnet); then
	t_ok "sf+net: $N SFs with netdevs created and destroyed"
	set -- $r
	net_c=$1 net_d=$2
else
	t_fail "sf+net: $N SFs with netdevs created and destroyed"
fi
echo "# bench $KERNEL/$BACKEND N=$N (seconds)  create  destroy  total"
for v in plain sf net; do
	eval c=\${${v}_c:-0} d=\${${v}_d:-0}
	echo "# bench $v $c $d" | awk '{ printf "# bench %-8s %7.2f %8.2f %6.2f\n", $3, $4, $5, $4 + $5 }'
done
echo "${sf_c:-0} ${sf_d:-0} ${plain_c:-0} ${plain_d:-0}" |
	awk '$3 + $4 > 0 { printf "# bench ratio sf/plain %.2f (target < 2)\n", ($1 + $2) / ($3 + $4) }'
t_done
