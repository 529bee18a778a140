#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: sub-functions. sf_add creates mlx5_shim_core.sf.<id> with an sfnum attribute,
# mlx5_shim_sf binds it and registers a nested eth device that mlx5_shim_eth binds; then
# 1,000 SFs on one adapter are created, bound and destroyed, and the per-port limit (1,024)
# holds. At full size on bookworm's own bus and on the debug kernel; elsewhere 100 SFs, and
# the limit is lowered to 128 through mlx5_shim_core's max_sfs parameter. Last, SFs with
# netdevs go with their port (unbound from its driver, or deleted with the adapter): their
# netdevs are unregistered in one batch per port (debugfs sf_teardown counts the batches and
# their netdevs), while a single sf_del and a manual unbind of an SF's eth device still
# unregister theirs alone.
# timeout: 900
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_sf mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup 1 2; }
trap cleanup EXIT

count() { ls "$AB" | grep -c "^mlx5_shim_core\.$1\."; }
# teardown batches|netdevs: the counter of batched SF teardowns
teardown() { awk -v k="$1" '$1 == k { print $2 }' $D/sf_teardown; }
# netdevs PREFIX: how many netdevs have names that start with PREFIX
netdevs() { ls /sys/class/net | grep -c "^$1"; }
# sf_eth PORT SFNUM: the nested eth device of that SF
sf_eth() {
	ls "$AB/$(awk -v n="$2" '$1 == n { print $2 }' $D/$1/sfs)/" | grep '^mlx5_shim_core\.eth\.'
}
# sf_each FILE FROM TO: write FROM, FROM+1, ... TO-1 to FILE, one write each, up to the first
# that fails; prints the number after the last one written
sf_each() {
	_i=$2
	while [ "$_i" -lt "$3" ]; do
		echo "$_i" >"$1" || break
		_i=$((_i + 1))
	done
	echo "$_i"
}
# count_bound KIND DRIVER: devices of that kind bound by DRIVER, from the driver's own
# directory (one ls; a readlink per device costs 1,000s of forks, minutes on the debug kernel)
count_bound() {
	ls "/sys/bus/$AUXBUS_BUS/drivers/$2" 2>/dev/null | grep -c "^mlx5_shim_core\.$1\."
}

t_check "load mlx5_shim_core, mlx5_shim_eth, mlx5_shim_sf" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_sf
t_check "create adapter 1 (eth only)" ctl $MLXBUS/new_device "1 ports=2 caps=eth"
base_eth=$(count eth)

t_check "sf_add 7 on port 0" ctl $D/mlx5_shim1p0/sf_add 7
sf=$(awk '$1 == 7 { print $2 }' $D/mlx5_shim1p0/sfs)
t_check "sfs lists it ($sf)" sh -c "echo '$sf' | grep -qx 'mlx5_shim_core\.sf\.[0-9]*'"
t_check "below port 0" test -e "$PB/mlx5_shim1p0/$sf"
t_eq "sfnum attribute" 7 "$(cat "$AB/$sf/sfnum")"
t_eq "bound by mlx5_shim_sf" mlx5_shim_sf "$(basename "$(readlink "$AB/$sf/driver")")"
nested=$(ls "$AB/$sf/" | grep '^mlx5_shim_core\.eth\.' | head -n 1)
t_check "nested eth device below the SF ($nested)" test -n "$nested"
t_eq "nested eth bound by mlx5_shim_eth" mlx5_shim_eth "$(basename "$(readlink "$AB/$nested/driver")")"
t_check "SF netdev registered" test -e /sys/class/net/mlx5s1p0s7
t_eq "sf_add 7 again: EEXIST" "File exists" "$(werr $D/mlx5_shim1p0/sf_add 7)"
t_check "sfnum 7 on port 1 is another SF" ctl $D/mlx5_shim1p1/sf_add 7
t_eq "sf_del of a missing SF: ENOENT" "No such file or directory" "$(werr $D/mlx5_shim1p0/sf_del 8)"
t_check "sf_del 7 on port 0" ctl $D/mlx5_shim1p0/sf_del 7
t_check "SF device gone" test ! -e "$AB/$sf"
t_check "nested eth gone" test ! -e "$AB/$nested"
t_check "SF netdev gone" test ! -e /sys/class/net/mlx5s1p0s7
t_check "port 1's SF untouched" test -e /sys/class/net/mlx5s1p1s7
ctl $D/mlx5_shim1p1/sf_del 7

# The limit parameter refuses what it cannot be.
MAXP=/sys/module/mlx5_shim_core/parameters/max_sfs
t_eq "max_sfs defaults to 1024" 1024 "$(cat $MAXP)"
t_eq "max_sfs 0: EINVAL" "Invalid argument" "$(werr $MAXP 0)"
t_eq "max_sfs 1025: EINVAL" "Invalid argument" "$(werr $MAXP 1025)"
t_eq "max_sfs unchanged" 1024 "$(cat $MAXP)"
case $KERNEL/$BACKEND in
bookworm/kernel | debug/*) N=1000 LIMIT=1024 ;;
*) N=100 LIMIT=128 ;;
esac
t_check "max_sfs $LIMIT" ctl $MAXP $LIMIT
b0=$(teardown batches)
n0=$(teardown netdevs)
t_check "sf_teardown reads batches and netdevs" test -n "$b0" -a -n "$n0"

# N SFs: the nested eth devices bind without netdevs here (sf_netdev=0) to keep the
# run short under TCG; the SF above covered the netdev path.
echo N >/sys/module/mlx5_shim_eth/parameters/sf_netdev
t0=$(t_now)
i=$(sf_each $D/mlx5_shim1p0/sf_add 0 $N)
t1=$(t_now)
t_eq "$N SFs created" $N "$i"
t_eq "$N SF devices" $N "$(count sf)"
t_eq "$N bound by mlx5_shim_sf" $N "$(count_bound sf mlx5_shim_sf)"
t_eq "$N nested eth devices" $((base_eth + N)) "$(count eth)"
t_eq "every eth device bound" $((base_eth + N)) "$(count_bound eth mlx5_shim_eth)"
t_eq "sfs lists $N" $N "$(wc -l <$D/mlx5_shim1p0/sfs)"
i=$(sf_each $D/mlx5_shim1p0/sf_add "$i" $LIMIT)
t_eq "up to $LIMIT SFs per port" $LIMIT "$i"
t_eq "SF $((LIMIT + 1)): ENOSPC" "No space left on device" "$(werr $D/mlx5_shim1p0/sf_add 5000)"
t_eq "nothing half-created" $LIMIT "$(count sf)"
t_eq "port 1 is not limited by port 0's SFs" ok "$(werr $D/mlx5_shim1p1/sf_add 5000)"
ctl $D/mlx5_shim1p1/sf_del 5000
t2=$(t_now)
sf_each $D/mlx5_shim1p0/sf_del 0 $((LIMIT / 2)) >/dev/null
t_eq "$((LIMIT / 2)) SFs deleted by sf_del" $((LIMIT / 2)) "$(count sf)"
t_check "the rest go with the adapter" ctl $MLXBUS/del_device 1
t3=$(t_now)
t_eq "no SF left" 0 "$(count sf)"
t_eq "no eth left" 0 "$(count eth)"
t_eq "SFs without netdevs: no batch" "$b0 $n0" "$(teardown batches) $(teardown netdevs)"
echo "# $N SFs created and bound in $(echo "$t1 $t0" | awk '{ print $1 - $2 }') s; $LIMIT destroyed in $(echo "$t3 $t2" | awk '{ print $1 - $2 }') s"
echo Y >/sys/module/mlx5_shim_eth/parameters/sf_netdev

# Batched teardown: B SFs with netdevs on port 0 and 4 on port 1 go with their port, in one
# unregister_netdevice_many() per port: port 1's when it is unbound from its driver, port 0's
# with the adapter. Before, SF 1 is deleted alone, SF 2's eth device is unbound and bound
# again by hand, SF 3's stays unbound (no netdev to batch).
B=24
EDRV=/sys/bus/$AUXBUS_BUS/drivers/mlx5_shim_eth
t_check "create adapter 2 (eth only)" ctl $MLXBUS/new_device "2 ports=2 caps=eth"
t_eq "$B SFs with netdevs on port 0" $B "$(sf_each $D/mlx5_shim2p0/sf_add 0 $B)"
t_eq "4 on port 1" 4 "$(sf_each $D/mlx5_shim2p1/sf_add 0 4)"
t_eq "$((B + 4)) SF netdevs" $((B + 4)) "$(netdevs 'mlx5s2p[01]s')"
t_check "sf_del 1 alone" ctl $D/mlx5_shim2p0/sf_del 1
t_check "its netdev gone" test ! -e /sys/class/net/mlx5s2p0s1
e2=$(sf_eth mlx5_shim2p0 2)
e3=$(sf_eth mlx5_shim2p0 3)
t_check "unbind SF 2's eth device ($e2) by hand" ctl $EDRV/unbind "$e2"
t_check "its netdev gone" test ! -e /sys/class/net/mlx5s2p0s2
t_check "bind it again" ctl $EDRV/bind "$e2"
t_check "its netdev back" test -e /sys/class/net/mlx5s2p0s2
t_check "unbind SF 3's eth device ($e3)" ctl $EDRV/unbind "$e3"
t_check "its netdev gone" test ! -e /sys/class/net/mlx5s2p0s3
t_eq "no batch so far" "$b0 $n0" "$(teardown batches) $(teardown netdevs)"
t_check "unbind port 1 from mlx5_shim_core" ctl /sys/bus/mlx5_shim/drivers/mlx5_shim_core/unbind mlx5_shim2p1
t_eq "its SFs' netdevs gone" 0 "$(netdevs mlx5s2p1s)"
t_eq "in one batch of 4" "$((b0 + 1)) $((n0 + 4))" "$(teardown batches) $(teardown netdevs)"
t_check "delete adapter 2 with port 0's SFs" ctl $MLXBUS/del_device 2
t_eq "one batch per port" $((b0 + 2)) "$(teardown batches)"
t_eq "$((B + 2)) netdevs in them" $((n0 + B + 2)) "$(teardown netdevs)"
t_eq "no netdev of adapter 2 left" 0 "$(netdevs mlx5s2p)"
t_eq "no SF left" 0 "$(count sf)"
t_eq "no eth left" 0 "$(count eth)"
t_done
