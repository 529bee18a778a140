#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# mlx5 shim: unloading modules while in use. The parent cannot go while clients use its
# exports (an open sysfs control file does not hold it); clients can go while their devices
# carry traffic and rebind when they come back; the parent's exit deletes adapters and SFs
# left behind.
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
cleanup() {
	exec 3>&- 2>/dev/null
	mlx5_cleanup
}
trap cleanup EXIT

loaded() { grep -q "^$1 " /proc/modules; }
unbound() {
	n=0
	for d in "$AB"/mlx5_shim_core.*; do
		[ -e "$d" ] && [ ! -e "$d/driver" ] && n=$((n + 1))
	done
	echo $n
}

t_check "load all" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma mlx5_shim_vdpa mlx5_shim_sf
t_check "create adapter 1" ctl $MLXBUS/new_device "1 ports=2"
t_check "add an SF" ctl $D/mlx5_shim1p0/sf_add 3
t_check_errno "rmmod mlx5_shim_core while clients use it: in use (EWOULDBLOCK)" \
	"Resource temporarily unavailable\|in use" rmmod mlx5_shim_core
t_check "mlx5_shim_core still loaded" loaded mlx5_shim_core

have_ns=0
if have_ping && command -v nsenter >/dev/null && [ -e /proc/self/ns/net ]; then
	ns_pair
	ns_setup "$NSA" mlx5s1p0 192.0.2.1 && ns_setup "$NSB" mlx5s1p1 192.0.2.2 && have_ns=1
	rx=$(echo_replies "$NSA")
	nsenter -t "$NSA" -n ping -q -i 0.05 -w 60 192.0.2.2 >/dev/null 2>&1 &
	BG=$!
	[ $have_ns = 1 ] && t_check "traffic flows (ping replies)" t_wait_cmd 100 replies_reached "$NSA" $((rx + 3))
fi
t_check "rmmod mlx5_shim_eth during traffic" t_rmmod mlx5_shim_eth
t_check "netdevs gone" sh -c "! nsenter -t ${NSA:-1} -n ip link show mlx5s1p0 2>/dev/null && [ ! -e /sys/class/net/mlx5s1p1 ]"
t_check "eth devices remain, unbound" test "$(unbound)" -ge 2
t_check "modprobe mlx5_shim_eth again" modprobe mlx5_shim_eth
t_check "netdevs back" test -e /sys/class/net/mlx5s1p0 -a -e /sys/class/net/mlx5s1p1
t_check "SF netdev back" test -e /sys/class/net/mlx5s1p0s3
t_eq "nothing unbound" 0 "$(unbound)"
[ -n "$BG" ] && kill "$BG" 2>/dev/null
BG=""
if [ $have_ns = 1 ]; then
	ns_setup "$NSA" mlx5s1p0 192.0.2.1 && ns_setup "$NSB" mlx5s1p1 192.0.2.2
	t_check "traffic flows again" nsenter -t "$NSA" -n timeout 30 ping -c 2 -i 0.2 -W 2 192.0.2.2
else
	t_skip "traffic during the unload" "no ping (CONFIG_POSIX_TIMERS) or no netns"
fi

t_check "rmmod mlx5_shim_sf with an SF" t_rmmod mlx5_shim_sf
t_check "the SF's nested eth device is gone" test ! -e /sys/class/net/mlx5s1p0s3
t_check "modprobe mlx5_shim_sf again" modprobe mlx5_shim_sf
t_check "the SF is bound again" test -e /sys/class/net/mlx5s1p0s3

t_check "unload the clients" sh -c 'rmmod mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth'
# An open sysfs file does not pin its module (kernfs drains the writers in flight, and later
# writes fail), unlike the debugfs control files this bus once had.
exec 3>$MLXBUS/new_device
t_check "rmmod mlx5_shim_core with the adapter, its SF and new_device open" rmmod mlx5_shim_core
t_check_errno "a write on the open new_device after the unload: ENODEV" "No such device" \
	sh -c "printf '2 ports=1\n' | dd conv=notrunc >&3"
exec 3>&-
t_check "the bus is gone" test ! -e /sys/bus/mlx5_shim
t_check "no device left" sh -c "! ls $AB | grep -q '^mlx5_shim_core\.'"
t_done
