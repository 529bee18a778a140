# title: mlx5 shim: a simulated two-port NIC driven with devlink, rdma and vdpa, and a ping across its wire
# SPDX-License-Identifier: GPL-2.0-only
# Part of make demo (tests/demo.sh runs it in the guest, busybox sh). The commands are the ones a
# user runs on a real mlx5 NIC; iproute2's devlink, rdma and vdpa come from the kernel's own suite.
# Where the kernel lacks a subsystem (5.10: devlink SF ports; 5.10 and 6.1: vDPA) it says so:
# `tests/demo -k trixie` shows everything.
MLXBUS=/sys/bus/mlx5_shim
run() { printf '$ %s\n' "$*"; sh -c "$*" 2>&1 | sed 's/^/  /'; }
note() { printf '  (%s)\n' "$*"; }
DL=mlx5_shim/mlx5_shim1p0

run "modprobe mlx5_shim_core && modprobe mlx5_shim_eth && modprobe mlx5_shim_sf && modprobe mlx5_shim_rdma && modprobe mlx5_shim_vdpa"
run "echo '1 ports=2 caps=eth,rdma,vnet' > $MLXBUS/new_device"
run "ls /sys/bus/$AUXBUS_BUS/devices/ | grep mlx5_shim_core"
if [ "$(modinfo -F devlink mlx5_shim_core)" = yes ]; then
	run "devlink dev"
	run "devlink dev eswitch show $DL"
else
	note "this kernel has no devlink (CONFIG_NET_DEVLINK): the debugfs knobs of README stand in"
fi
run "rdma link"
run "ls /sys/class/net | grep mlx5s"

# Each port in a network namespace of its own: a ping from one crosses the simulated wire.
unshare -n sleep 300 &
A=$!
unshare -n sleep 300 &
B=$!
sleep 0.5
ip link set dev mlx5s1p0 netns $A && nsenter -t $A -n ip addr add 192.0.2.1/24 dev mlx5s1p0 &&
	nsenter -t $A -n ip link set dev mlx5s1p0 up
ip link set dev mlx5s1p1 netns $B && nsenter -t $B -n ip addr add 192.0.2.2/24 dev mlx5s1p1 &&
	nsenter -t $B -n ip link set dev mlx5s1p1 up
run "nsenter -t $A -n timeout 20 ping -c 3 -W 2 192.0.2.2"
run "nsenter -t $B -n grep -E 'Inter|face|mlx5s1p1' /proc/net/dev"

if [ "$(modinfo -F devlink mlx5_shim_core)" = yes ]; then
	# The uplink's netdev, in its namespace: its ifindex and address before and after the change.
	run "nsenter -t $A -n ip addr show mlx5s1p0"
	run "devlink dev eswitch set $DL mode switchdev"
	run "devlink dev eswitch show $DL"
	run "ls /sys/bus/$AUXBUS_BUS/devices/ | grep mlx5_shim_core"
	run "nsenter -t $A -n ip addr show mlx5s1p0; ip link show | grep mlx5s"
	run "nsenter -t $A -n timeout 20 ping -c 2 -W 2 192.0.2.2"
	run "rdma link"
	if [ "$(modinfo -F devlink_sf_ports mlx5_shim_core)" = yes ]; then
		run "devlink port add $DL flavour pcisf pfnum 0 sfnum 5"
		run "devlink port function set $DL/65541 state active"
		run "devlink port show $DL/65541"
		sleep 1
		run "ls /sys/class/net | grep mlx5s1p0"
		run "devlink port del $DL/65541"
	else
		note "this kernel's devlink has no port_new (5.10): no SF ports through devlink"
	fi
	run "devlink dev eswitch set $DL mode legacy"
fi
kill $A $B 2>/dev/null
wait 2>/dev/null

if [ -d /sys/bus/vdpa ]; then
	V=$(ls /sys/bus/$AUXBUS_BUS/devices/ | grep -m1 'mlx5_shim_core\.vnet\.')
	run "vdpa mgmtdev show"
	run "vdpa dev add name vdpa0 mgmtdev $AUXBUS_BUS/$V"
	run "vdpa dev show vdpa0"
	run "vdpa dev config show vdpa0"
	run "vdpa dev del vdpa0"
else
	note "this kernel has no vDPA core (CONFIG_VDPA, not in Debian's 5.10 and 6.1): mlx5_shim_vdpa registers nothing: $(modinfo -F description mlx5_shim_vdpa 2>/dev/null)"
fi

run "echo 1 > $MLXBUS/del_device; rmmod mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_sf mlx5_shim_eth mlx5_shim_core"
