#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: the rdma client's ib_device in the kernel's own ib_core, seen with iproute2's
# rdma and in /sys/class/infiniband: one per rdma device, named mlx5_shim_<n>, its port on the
# function's netdev, ACTIVE with carrier and DOWN without, GIDs from the netdev's MAC and
# IPv4 address; gone on unbind, on del_device and with the netdev's driver; nothing held.
# Skipped where the kernel has no ib_core (CONFIG_INFINIBAND); every kernel of the matrix has.
# kmods: ib_core
# timeout: 180
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_port_test mlx5_shim_verbs_test mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core ib_core"
cleanup() { mlx5_cleanup 1; }
trap cleanup EXIT

IB=/sys/class/infiniband

have_kmod ib_core || t_skip_case "this kernel has no ib_core (CONFIG_INFINIBAND)"
t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma
t_check "iproute2's rdma in the guest" rdma dev show
t_check "create adapter 1" ctl $MLXBUS/new_device "1 ports=2"

# ibdev ADEV: the ib_device whose parent is the auxiliary device ADEV, or nothing
ibdev() {
	for _d in $IB/*; do
		[ -e "$_d/device" ] || continue
		[ "$(basename "$(readlink -f "$_d/device")")" = "$1" ] && basename "$_d"
	done
}
# gids IBDEV: the port's non-zero GIDs, one a line
gids() { cat $IB/"$1"/ports/1/gids/* 2>/dev/null | grep -v '^0000:0000:0000:0000:0000:0000:0000:0000$'; }
# eui64_gid MAC: the link-local GID RoCE derives from a MAC (fe80::, EUI-64, U/L bit flipped)
eui64_gid() {
	# shellcheck disable=SC2046
	set -- $(echo "$1" | tr : ' ')
	echo "fe80:0000:0000:0000:$(printf %02x $((0x$1 ^ 2)))$2:$3ff:fe$4:$5$6"
}

r0=$(adev mlx5_shim1p0 rdma)
r1=$(adev mlx5_shim1p1 rdma)
i0=$(ibdev "$r0")
i1=$(ibdev "$r1")
t_check "port 0: an ib_device ($i0) below $r0" test -n "$i0"
t_check "port 1: another ib_device ($i1) below $r1" test -n "$i1" -a "$i1" != "$i0"
case $i0 in mlx5_shim_[0-9]*) t_ok "named mlx5_shim_<n>, not mainline's mlx5_<n>" ;;
*) t_fail "named mlx5_shim_<n>, not mainline's mlx5_<n>" "got '$i0'" ;; esac
t_check "rdma dev lists $i0" sh -c "rdma dev show | grep -q '^[0-9]*: $i0:'"
t_eq "link layer Ethernet" Ethernet "$(cat $IB/"$i0"/ports/1/link_layer)"
t_eq "one port" 1 "$(ls $IB/"$i0"/ports | wc -l)"
t_check "rdma link: port on netdev mlx5s1p0" sh -c "rdma link show $i0/1 | grep -q 'netdev mlx5s1p0'"
t_check "rdma link: port 1 on netdev mlx5s1p1" sh -c "rdma link show $i1/1 | grep -q 'netdev mlx5s1p1'"

# verbs that create resources answer -EOPNOTSUPP: an ib_core client (a test module) asks for a
# PD, a CQ, a QP and MRs on every mlx5_shim ib_device and logs the answers
t_log_mark rdma-verbs
t_check "load mlx5_shim_verbs_test (an ib_core client)" modprobe mlx5_shim_verbs_test
t_check "$i0: ib_alloc_pd answers -EOPNOTSUPP" t_log_has rdma-verbs "$i0: ib_alloc_pd: -95\$"
t_check "$i0: ib_alloc_cq answers -EOPNOTSUPP" t_log_has rdma-verbs "$i0: ib_alloc_cq: -95\$"
t_check "$i0: ib_create_qp answers -EOPNOTSUPP" t_log_has rdma-verbs "$i0: ib_create_qp: -95\$"
t_check "$i0: get_dma_mr answers -EOPNOTSUPP" t_log_has rdma-verbs "$i0: get_dma_mr: -95\$"
t_check "$i0: reg_user_mr answers -EOPNOTSUPP" t_log_has rdma-verbs "$i0: reg_user_mr: -95\$"
t_check "$i1 too" t_log_has rdma-verbs "$i1: ib_alloc_pd: -95\$"
t_check "unload mlx5_shim_verbs_test" rmmod mlx5_shim_verbs_test

# port state follows the netdev: down while it is down, then with carrier
t_eq "netdev down: port DOWN" "1: DOWN" "$(cat $IB/"$i0"/ports/1/state)"
ip link set mlx5s1p0 up
t_eq "netdev up with carrier" 1 "$(cat /sys/class/net/mlx5s1p0/carrier)"
t_eq "netdev up: port ACTIVE" "4: ACTIVE" "$(cat $IB/"$i0"/ports/1/state)"
t_check "rdma link: state ACTIVE, LINK_UP" \
	sh -c "rdma link show $i0/1 | grep -q 'state ACTIVE physical_state LINK_UP'"
t_check "link down" ctl $D/mlx5_shim1p0/link down
t_eq "no carrier: port DOWN" "1: DOWN" "$(cat $IB/"$i0"/ports/1/state)"
t_check "rdma link: state DOWN" sh -c "rdma link show $i0/1 | grep -q 'state DOWN'"
t_check "link up" ctl $D/mlx5_shim1p0/link up
t_eq "carrier back: port ACTIVE" "4: ACTIVE" "$(cat $IB/"$i0"/ports/1/state)"
t_eq "port 1 untouched: DOWN" "1: DOWN" "$(cat $IB/"$i1"/ports/1/state)"

# GIDs: ib_core's RoCE GID management fills them from the netdev (work queued on events)
mac=$(cat /sys/class/net/mlx5s1p0/address)
want=$(eui64_gid "$mac")
n=50
while ! gids "$i0" | grep -qx "$want" && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
t_check "GID $want from MAC $mac" sh -c "cat $IB/$i0/ports/1/gids/* | grep -qx $want"
ip addr add 10.77.0.1/24 dev mlx5s1p0
want4=0000:0000:0000:0000:0000:ffff:0a4d:0001
n=50
while ! gids "$i0" | grep -qx "$want4" && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
t_check "GID $want4 from 10.77.0.1" sh -c "cat $IB/$i0/ports/1/gids/* | grep -qx $want4"
t_check "GIDs name their netdev" sh -c "cat $IB/$i0/ports/1/gid_attrs/ndevs/* 2>/dev/null | grep -qx mlx5s1p0"
t_check "GIDs are RoCE v2" sh -c "cat $IB/$i0/ports/1/gid_attrs/types/* 2>/dev/null | grep -qx 'RoCE v2'"
ip addr del 10.77.0.1/24 dev mlx5s1p0
n=50
while gids "$i0" | grep -qx "$want4" && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
t_check "address deleted: its GID goes" sh -c "! cat $IB/$i0/ports/1/gids/* | grep -qx $want4"

# the netdev's driver goes and comes back: the port loses and finds its netdev
t_check "unload mlx5_shim_eth (the netdev is not held)" timeout 30 rmmod mlx5_shim_eth
t_check "rdma link: no netdev" sh -c "! rdma link show $i0/1 | grep -q netdev"
t_eq "no netdev: port DOWN" "1: DOWN" "$(cat $IB/"$i0"/ports/1/state)"
t_check "reload mlx5_shim_eth" modprobe mlx5_shim_eth
t_check "rdma link: netdev mlx5s1p0 again" sh -c "rdma link show $i0/1 | grep -q 'netdev mlx5s1p0'"

# switchdev: the rdma-rep device's ib_device sits on the uplink representor (same name here)
t_check "esw_mode switchdev" ctl $D/mlx5_shim1p0/esw_mode switchdev
rr=$(adev mlx5_shim1p0 rdma-rep)
ir=$(ibdev "$rr")
t_check "rdma-rep: an ib_device ($ir) below $rr" test -n "$ir"
t_check "rdma-rep: port on the representor netdev" \
	sh -c "rdma link show $ir/1 | grep -q 'netdev mlx5s1p0'"
t_check "esw_mode legacy" ctl $D/mlx5_shim1p0/esw_mode legacy
r0=$(adev mlx5_shim1p0 rdma)
i0=$(ibdev "$r0")
t_eq "legacy: one ib_device per port, rdma-rep's gone" 2 "$(ls $IB | wc -l)"
t_check "legacy: an rdma ib_device ($i0) on mlx5s1p0 again" \
	sh -c "rdma link show $i0/1 | grep -q 'netdev mlx5s1p0'"

# unbind and rebind the rdma device
drv=/sys/bus/$AUXBUS_BUS/drivers/mlx5_shim_rdma
t_check "unbind $r0" ctl $drv/unbind "$r0"
t_check "its ib_device is gone" t_wait_gone $IB/"$i0"
t_check "rdma dev no longer lists it" sh -c "! rdma dev show | grep -q ': $i0:'"
t_check "port 1's stays" test -e $IB/"$i1"
# the rebind with a port change inside ib_register_device(), before the device is live
# (review mlx5.md B14): mlx5_shim_port_test brings mlx5s1p0 up from its ib client add() and
# waits there for the netdev's linkwatch event, so only the catch-up at live can bring the port
# state ib_core caches (what kernel ULPs read) to follow it as sysfs does
ip link set mlx5s1p0 down
t_check "load mlx5_shim_port_test (an ib_core client)" modprobe mlx5_shim_port_test ifname=mlx5s1p0
t_log_mark rdma-live
t_check "bind $r0" ctl $drv/bind "$r0"
i0=$(ibdev "$r0")
t_check "an ib_device again ($i0)" test -n "$i0"
t_check "mlx5s1p0 brought up while $i0 registered" t_log_has rdma-live "$i0: mlx5s1p0 up from add(): 0\$"
t_check "and its linkwatch event delivered before live" t_log_lacks rdma-live "no NETDEV_CHANGE"
t_eq "sysfs: port ACTIVE" "4: ACTIVE" "$(cat $IB/"$i0"/ports/1/state)"
t_check "unload mlx5_shim_port_test" rmmod mlx5_shim_port_test
t_check "ib_core's cached port state ACTIVE (4) too" t_log_has rdma-live "$i0: cached port state 4\$"

# the adapter goes: every ib_device with it, and nothing holds ib_core
t_check "delete adapter 1" timeout 30 sh -c "echo 1 >$MLXBUS/del_device"
t_check "no ib_device left" sh -c "! ls $IB 2>/dev/null | grep -q ."
t_check "rdma dev lists none" sh -c "! rdma dev show | grep -q mlx5_shim"
t_check "unload the clients" rmmod mlx5_shim_rdma mlx5_shim_eth
t_check "ib_core unloads (no reference left)" rmmod ib_core
t_done
