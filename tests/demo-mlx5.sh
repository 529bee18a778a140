# title: mlx5 shim: a simulated two-port NIC, its auxiliary devices, and a ping across its wire
# SPDX-License-Identifier: GPL-2.0-only
# Part of make demo (tests/demo.sh runs it in the guest, busybox sh).
D=/sys/kernel/debug/mlx5_shim
MLXBUS=/sys/bus/mlx5_shim
run() { printf '$ %s\n' "$*"; sh -c "$*" 2>&1 | sed 's/^/  /'; }

run "modprobe mlx5_shim_core && modprobe mlx5_shim_eth && modprobe mlx5_shim_rdma && modprobe mlx5_shim_vdpa"
run "echo '1 ports=2 caps=eth,rdma,vnet' > $MLXBUS/new_device"
run "ls /sys/bus/$AUXBUS_BUS/devices/ | grep mlx5_shim_core"
run "cat /sys/class/net/mlx5s1p0/address /sys/class/net/mlx5s1p1/address"

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

run "echo switchdev > $D/mlx5_shim1p0/esw_mode; ls /sys/bus/$AUXBUS_BUS/devices/ | grep mlx5_shim_core"
run "cat $D/mlx5_shim1p0/lag"
kill $A $B 2>/dev/null
wait 2>/dev/null
run "echo 1 > $MLXBUS/del_device; rmmod mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
