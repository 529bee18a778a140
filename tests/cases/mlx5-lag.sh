#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: RoCE LAG, as mlx5's lag/lag.c. Both ports of an adapter bonded (active-backup or
# balance-xor) give one ib_device, mlx5_shim_bond_<n>, on port 0's rdma device, its port on
# port 0's netdev and its GIDs from the bond's addresses; the ports' own ib_devices come back
# when a port leaves the bond, when the bond is deleted; ports of two adapters in one bond, or a
# bond mode mlx5 does not offload (balance-rr), give no LAG; deleting a bonded adapter leaves
# nothing behind; devlink dev reload is refused while LAG is active. In active-backup the
# ib_device's port follows the bond's active slave (mlx5_lag_get_roce_netdev()), in
# balance-xor it stays on port 0's netdev. The bond is driven through bonding's sysfs files
# (the guest's ip is busybox's).
# kmods: ib_core bonding
# timeout: 240
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core bonding ib_core"
BONDS=""
cleanup() {
	for _b in $BONDS; do
		[ -e /sys/class/net/"$_b" ] && echo "-$_b" >/sys/class/net/bonding_masters 2>/dev/null
	done
	mlx5_cleanup 1 2
}
trap cleanup EXIT

IB=/sys/class/infiniband
BM=/sys/class/net/bonding_masters

have_kmod ib_core || t_skip_case "this kernel has no ib_core (CONFIG_INFINIBAND)"
have_kmod bonding || t_skip_case "this kernel has no bonding module"

# bond_add NAME MODE, enslave BOND DEV..., release BOND DEV, bond_del NAME: bonding's sysfs
bond_add() { echo "+$1" >$BM && BONDS="$BONDS $1" && echo "$2" >/sys/class/net/"$1"/bonding/mode; }
enslave() {
	_b=$1
	shift
	for _d in "$@"; do
		ip link set "$_d" down && echo "+$_d" >/sys/class/net/"$_b"/bonding/slaves || return 1
	done
}
release() { echo "-$2" >/sys/class/net/"$1"/bonding/slaves; }
bond_del() { echo "-$1" >$BM; }

# ibstate: "<bond ib_devices> <other mlx5_shim ib_devices>"
ibstate() {
	echo "$(ls $IB 2>/dev/null | grep -c '^mlx5_shim_bond_[0-9]')" \
		"$(ls $IB 2>/dev/null | grep -c '^mlx5_shim_[0-9]')"
}
# wait_ibstate WANT: wait up to 15 s for ibstate to be WANT (LAG acts from a work item)
wait_ibstate() {
	_n=150
	while [ "$(ibstate)" != "$1" ] && [ $_n -gt 0 ]; do sleep 0.1; _n=$((_n - 1)); done
	ibstate
}
bondib() { ls $IB 2>/dev/null | grep '^mlx5_shim_bond_' | head -n 1; }
# The no-LAG checks. A port's netdev notifier decides, under RTNL while the port is enslaved,
# whether its adapter wants a LAG, and logs why not; the LAG work runs only when that decision
# changes, so where there is no LAG it may never run, and "no LAG" alone would also pass
# before a wrong LAG work had run. So each no-LAG state is followed by a LAG of adapter 1: its
# work runs after the state was checked (one work item per adapter), and adapter 1's "LAG
# active" lines since the mark before the no-LAG state must all come after the mark before
# that LAG. nlag MARK: how many since MARK; lag_only_since NOLAG LAG: that check
nlag() { t_log_since "$1" | grep -c 'mlx5_shim1p0: LAG active'; }
lag_only_since() {
	t_wait_cmd 50 t_log_has "$2" 'mlx5_shim1p0: LAG active' || return 1
	_a=$(nlag "$1")
	_b=$(nlag "$2")
	[ "$_a" = "$_b" ] || { echo "$_a LAG active since mark $1, $_b since $2"; return 1; }
}
gids() { cat $IB/"$1"/ports/1/gids/* 2>/dev/null; }

t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma
t_check "load bonding (no default bond)" modprobe bonding max_bonds=0
t_check "create adapter 1" ctl $MLXBUS/new_device "1 ports=2"
t_eq "two ports: two ib_devices, no bond" "0 2" "$(wait_ibstate "0 2")"

# active-backup: one ib_device for the pair
t_check "bond0 active-backup" bond_add bond0 active-backup
t_log_mark lag-one-port
t_check "enslave mlx5s1p0" enslave bond0 mlx5s1p0
t_eq "one port in the bond: no LAG yet" "0 2" "$(ibstate)"
t_log_mark lag-both-ports
t_check "enslave mlx5s1p1" enslave bond0 mlx5s1p1
t_check "bond0 up" ip link set bond0 up
t_eq "both ports bonded: one mlx5_shim_bond_<n>, no per-port ones" "1 0" "$(wait_ibstate "1 0")"
t_check "no LAG active before the second port joined" lag_only_since lag-one-port lag-both-ports
ib=$(bondib)
t_check "rdma dev lists $ib" sh -c "rdma dev show | grep -q '^[0-9]*: $ib:'"
t_eq "bond0's active slave: mlx5s1p0, the first enslaved" mlx5s1p0 "$(cat /sys/class/net/bond0/bonding/active_slave)"
t_check "rdma link: $ib/1 on netdev mlx5s1p0 (the active slave)" \
	sh -c "rdma link show $ib/1 | grep -qw 'netdev mlx5s1p0'"
t_eq "it sits on port 0's rdma device, flagged rdma-lag" "rdma-lag" \
	"$(cat "$PB/mlx5_shim1p0/$(adev mlx5_shim1p0 rdma)/rdma_mode" 2>/dev/null)"
t_check "port 1 has no rdma device" test -z "$(ls -d $PB/mlx5_shim1p1/mlx5_shim_core.rdma.* 2>/dev/null)"
t_check "rdma_lag_peer still names port 1" \
	sh -c "grep -qx mlx5_shim1p1 $PB/mlx5_shim1p0/$(adev mlx5_shim1p0 rdma)/rdma_lag_peer"
ip addr add 10.78.0.1/24 dev bond0
want4=0000:0000:0000:0000:0000:ffff:0a4e:0001
n=100
while ! gids "$ib" | grep -qx "$want4" && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
t_check "GID $want4 from bond0's 10.78.0.1" sh -c "cat $IB/$ib/ports/1/gids/* | grep -qx $want4"
t_check "its GID attributes name bond0" \
	sh -c "cat $IB/$ib/ports/1/gid_attrs/ndevs/* 2>/dev/null | grep -qx bond0"
t_eq "port ACTIVE (the active slave has carrier)" "4: ACTIVE" "$(cat $IB/"$ib"/ports/1/state)"
if [ "$(modinfo -F devlink_reload mlx5_shim_core)" = yes ] && command -v devlink >/dev/null; then
	e=$(devlink dev reload mlx5_shim/mlx5_shim1p0 2>&1 | head -n 1)
	case $e in
	*"Lag mode"*) t_ok "devlink dev reload refused in LAG, as mlx5's" ;;
	*) t_fail "devlink dev reload refused in LAG, as mlx5's" "got: $e" ;;
	esac
else
	t_skip "devlink dev reload refused in LAG" "no devlink reload here"
fi

# active-backup failover: the RoCE port moves to the new active slave, and stays ACTIVE
linkon() { rdma link show "$ib/1" | grep -qw "netdev $1"; }
t_check "make mlx5s1p1 bond0's active slave" sh -c "echo mlx5s1p1 >/sys/class/net/bond0/bonding/active_slave"
t_check "rdma link: $ib/1 moved to netdev mlx5s1p1" t_wait_cmd 50 linkon mlx5s1p1
t_eq "port ACTIVE on it" "4: ACTIVE" "$(cat $IB/"$ib"/ports/1/state)"
n=100
while ! gids "$ib" | grep -qx "$want4" && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
t_check "GID $want4 from bond0's address after the failover" sh -c "cat $IB/$ib/ports/1/gids/* | grep -qx $want4"
t_check "mlx5s1p0 active again" sh -c "echo mlx5s1p0 >/sys/class/net/bond0/bonding/active_slave"
t_check "rdma link: $ib/1 back on netdev mlx5s1p0" t_wait_cmd 50 linkon mlx5s1p0

# a port leaves: LAG ends; it comes back: LAG again
t_check "release mlx5s1p1" release bond0 mlx5s1p1
t_eq "port 1 released: two per-port ib_devices again" "0 2" "$(wait_ibstate "0 2")"
t_check "rdma link: port 0's on mlx5s1p0" sh -c "rdma link show | grep -q 'netdev mlx5s1p0'"
t_check "rdma link: port 1's on mlx5s1p1" sh -c "rdma link show | grep -q 'netdev mlx5s1p1'"
t_check "enslave mlx5s1p1 again" enslave bond0 mlx5s1p1
t_eq "bonded again: one bond ib_device" "1 0" "$(wait_ibstate "1 0")"
t_check "release mlx5s1p0 (port 0)" release bond0 mlx5s1p0
t_eq "port 0 released: two per-port ib_devices" "0 2" "$(wait_ibstate "0 2")"
t_check "enslave mlx5s1p0 again" enslave bond0 mlx5s1p0
t_eq "bonded again" "1 0" "$(wait_ibstate "1 0")"

# the bond goes
t_check "delete bond0" bond_del bond0
t_eq "bond deleted: two per-port ib_devices" "0 2" "$(wait_ibstate "0 2")"

# balance-xor (a hash mode, as 802.3ad): LAG too
t_check "bond1 balance-xor" bond_add bond1 balance-xor
t_check "enslave both ports" enslave bond1 mlx5s1p0 mlx5s1p1
t_eq "balance-xor: one bond ib_device" "1 0" "$(wait_ibstate "1 0")"
ib=$(bondib)
t_check "rdma link: $ib/1 on port 0's netdev (a hash mode)" t_wait_cmd 50 linkon mlx5s1p0
t_check "delete bond1" bond_del bond1
t_eq "two per-port ib_devices again" "0 2" "$(wait_ibstate "0 2")"

# RoCE LAG is legacy only (mlx5_lag_is_roce_lag()): bonded switchdev uplinks give none, and
# a mode change ends the LAG first and decides again after it (mlx5_lag_disable_change())
t_check "port 0 to switchdev" ctl $D/mlx5_shim1p0/esw_mode switchdev
t_check "port 1 to switchdev" ctl $D/mlx5_shim1p1/esw_mode switchdev
t_log_mark lag-switchdev
t_check "bond4 active-backup" bond_add bond4 active-backup
t_check "enslave both switchdev uplinks" enslave bond4 mlx5s1p0 mlx5s1p1
t_check "switchdev: the log says why there is no LAG" \
	t_wait_cmd 50 t_log_has lag-switchdev 'mlx5s1p1 in bond4: no LAG: mlx5s1p. is in switchdev'
t_eq "switchdev: the rdma-rep ib_devices stay, no bond one" "0 2" "$(ibstate)"
t_check "port 0 back to legacy, still bonded" ctl $D/mlx5_shim1p0/esw_mode legacy
t_log_mark lag-legacy
t_check "port 1 back to legacy, still bonded" ctl $D/mlx5_shim1p1/esw_mode legacy
t_eq "both legacy while bonded: LAG" "1 0" "$(wait_ibstate "1 0")"
t_check "no LAG while a port was in switchdev mode" lag_only_since lag-switchdev lag-legacy
t_log_mark lag-modechange
t_check "port 1 to switchdev while LAG is active" ctl $D/mlx5_shim1p1/esw_mode switchdev
t_check "the mode change ended the LAG" t_log_has lag-modechange 'mlx5_shim1p0: LAG inactive'
t_eq "port 0's own ib_device back, port 1's rdma-rep" "0 2" "$(wait_ibstate "0 2")"
t_check "port 1 back to legacy" ctl $D/mlx5_shim1p1/esw_mode legacy
t_eq "LAG again" "1 0" "$(wait_ibstate "1 0")"
t_check "delete bond4" bond_del bond4
t_eq "two per-port ib_devices" "0 2" "$(wait_ibstate "0 2")"

# no LAG: a mode mlx5 does not offload; ports of two adapters
t_log_mark lag-none
t_check "bond2 balance-rr" bond_add bond2 balance-rr
t_check "enslave both ports" enslave bond2 mlx5s1p0 mlx5s1p1
t_wait_cmd 50 t_log_has lag-none 'mlx5s1p1 in bond2: no LAG: the bond.s mode is not'
t_eq "balance-rr: no LAG, two ib_devices" "0 2" "$(ibstate)"
t_check "the log says why" t_log_has lag-none 'no LAG: the bond.s mode is not'
t_check "delete bond2" bond_del bond2

t_check "create adapter 2" ctl $MLXBUS/new_device "2 ports=2"
t_eq "four ib_devices" "0 4" "$(wait_ibstate "0 4")"
t_check "bond3 active-backup" bond_add bond3 active-backup
t_check "enslave port 0 of adapters 1 and 2" enslave bond3 mlx5s1p0 mlx5s2p0
t_check "and port 1 of adapter 1" enslave bond3 mlx5s1p1
t_wait_cmd 50 t_log_has lag-none 'mlx5s1p1 in bond3: no LAG: the bond holds mlx5s2p0'
t_eq "ports of two adapters: no LAG" "0 4" "$(ibstate)"
t_check "the log says why (dev_info, no error)" t_log_has lag-none 'no LAG: the bond holds'
t_log_mark lag-adapter1-alone
t_check "release mlx5s2p0: adapter 1's ports alone in bond3" release bond3 mlx5s2p0
t_eq "now LAG for adapter 1" "1 2" "$(wait_ibstate "1 2")"
t_check "no LAG came and went in bond2 (balance-rr) or with adapter 2's port" \
	lag_only_since lag-none lag-adapter1-alone
t_check "delete adapter 2" timeout 30 sh -c "echo 2 >$MLXBUS/del_device"

# the adapter goes while bonded
t_check "delete adapter 1 while bonded" timeout 30 sh -c "echo 1 >$MLXBUS/del_device"
t_eq "no ib_device left" "0 0" "$(wait_ibstate "0 0")"
t_eq "bond3 has no slaves left" "" "$(cat /sys/class/net/bond3/bonding/slaves)"
t_check "delete bond3" bond_del bond3
t_check "unload the clients and the core" rmmod mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core
t_check "ib_core unloads (no reference left)" rmmod ib_core
t_done
