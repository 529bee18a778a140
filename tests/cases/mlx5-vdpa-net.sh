#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: the vdpa client's data path, as a user of virtio_vdpa sees it. On an adapter
# without Ethernet netdevs (caps=vnet), `vdpa dev add` on each port gives a vdpa device that
# virtio_vdpa and virtio_net make a netdev, with the MAC and MTU given and its link up; the
# two netdevs, each in its own network namespace, reach each other across the shim's wire,
# and their counters agree. A second vdpa device of a function, and one on a function with
# an Ethernet netdev, report their link down and say why. `vdpa dev del` with traffic
# flowing removes the netdev; the adapter's deletion removes the rest, and nothing holds
# the vdpa core afterwards. Skipped where the kernel has no virtio_vdpa (Debian's 5.10 and
# 6.1 have no vDPA at all).
# kmods: vdpa virtio_vdpa virtio_net
# timeout: 300
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="virtio_vdpa virtio_net mlx5_shim_vdpa mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup 1 2 3 4; }
trap cleanup EXIT

VB=/sys/bus/vdpa/devices

have_kmod vdpa || t_skip_case "this kernel has no vdpa core (CONFIG_VDPA)"
have_kmod virtio_vdpa || t_skip_case "this kernel has no virtio_vdpa (CONFIG_VIRTIO_VDPA)"

# netdev VDPA: the netdev virtio_net made of vdpa device VDPA, or nothing
netdev() { basename "$(ls -d $VB/"$1"/virtio*/net/* 2>/dev/null | head -n 1)" 2>/dev/null; }
# wait_netdev VDPA: it has a netdev within 10 s
wait_netdev() {
	_n=100
	until [ -n "$(netdev "$1")" ]; do
		[ $_n -gt 0 ] || return 1
		sleep 0.1
		_n=$((_n - 1))
	done
}
# ns_stats NSPID DEV: "rx_packets tx_packets" from the namespace's /proc/net/dev
ns_stats() {
	nsenter -t "$1" -n cat /proc/net/dev | sed 's/:/ /' | awk -v d="$2" '$1 == d { print $3, $11 }'
}
# ns_lacks NSPID DEV: the namespace's /proc/net/dev was read and has no DEV
ns_lacks() {
	_d=$(nsenter -t "$1" -n cat /proc/net/dev) || return 1
	! printf '%s\n' "$_d" | sed 's/:/ /' | awk '{ print $1 }' | grep -qx "$2"
}
ns_init

t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_vdpa virtio_vdpa virtio_net
t_check "create adapter 1 (ports=2, caps=vnet: no Ethernet netdevs)" \
	ctl $MLXBUS/new_device "1 ports=2 caps=vnet"
m0=$AUXBUS_BUS/$(adev mlx5_shim1p0 vnet)
m1=$AUXBUS_BUS/$(adev mlx5_shim1p1 vnet)
t_check "dev add vdpa0 on port 0" vdpa dev add name vdpa0 mgmtdev "$m0" mac 02:00:00:00:aa:01
t_check "dev add vdpa1 on port 1, mtu 1400" \
	vdpa dev add name vdpa1 mgmtdev "$m1" mac 02:00:00:00:aa:02 mtu 1400
t_check "config: link up" sh -c "vdpa dev config show vdpa0 | grep -q 'link up'"
t_check "virtio_vdpa and virtio_net make vdpa0 a netdev" wait_netdev vdpa0
t_check "and vdpa1" wait_netdev vdpa1
n0=$(netdev vdpa0)
n1=$(netdev vdpa1)
t_eq "$n0: the MAC given" 02:00:00:00:aa:01 "$(cat /sys/class/net/$n0/address)"
t_eq "$n1: the MTU given" 1400 "$(cat /sys/class/net/$n1/mtu)"

ns_pair
t_check "$n0 in namespace A, 198.51.100.1" ns_setup $NSA "$n0" 198.51.100.1
t_check "$n1 in namespace B, 198.51.100.2" ns_setup $NSB "$n1" 198.51.100.2
t_check "carrier on $n0 (LOWER_UP)" t_wait_cmd 100 sh -c "nsenter -t $NSA -n ip link show $n0 | grep -q LOWER_UP"
t_check "A reaches B across the wire" reach $NSA 198.51.100.2
t_check "B reaches A" reach $NSB 198.51.100.1
set -- $(ns_stats $NSA "$n0")
a_rx=$1 a_tx=$2
set -- $(ns_stats $NSB "$n1")
b_rx=$1 b_tx=$2
t_check "frames both ways ($n0: rx $a_rx tx $a_tx; $n1: rx $b_rx tx $b_tx)" \
	test "${a_rx:-0}" -gt 0 -a "${a_tx:-0}" -gt 0 -a "${b_rx:-0}" -gt 0 -a "${b_tx:-0}" -gt 0
t_check "what A sent, B received (tx $a_tx <= rx $b_rx + 1)" test "$a_tx" -le $((b_rx + 1))

t_check "a second device on port 0" vdpa dev add name vdpa2 mgmtdev "$m0"
t_check "its link is down" sh -c "vdpa dev config show vdpa2 | grep -q 'link down'"
t_check "the log says why" sh -c "dmesg | grep -q 'vdpa dev vdpa2: link down: another vdpa device has the function'"
t_check "dev del vdpa2" vdpa dev del vdpa2
t_check "vdpa0 still reaches vdpa1" reach $NSA 198.51.100.2

t_check "adapter 2 (caps=eth,vnet)" ctl $MLXBUS/new_device "2 ports=2 caps=eth,vnet"
t_check "its Ethernet netdev" t_wait_for /sys/class/net/mlx5s2p0 50
t_check "dev add vdpa3 on a function with an Ethernet netdev" \
	vdpa dev add name vdpa3 mgmtdev "$AUXBUS_BUS/$(adev mlx5_shim2p0 vnet)"
t_check "its link is down: the netdev has the wire" \
	sh -c "vdpa dev config show vdpa3 | grep -q 'link down' && dmesg | grep -q 'vdpa dev vdpa3: link down: the function.s Ethernet netdev'"
t_check "caps vnet on adapter 2's port 0: its Ethernet netdev goes" ctl $D/mlx5_shim2p0/caps vnet
t_check "mlx5s2p0 is gone" t_wait_gone /sys/class/net/mlx5s2p0
t_check "dev add vdpa8 there: link up, the wire is free again" sh -c "vdpa dev add name vdpa8 \
	mgmtdev $AUXBUS_BUS/$(adev mlx5_shim2p0 vnet) && vdpa dev config show vdpa8 | grep -q 'link up'"

# delete with frames in flight: the ping keeps going while vdpa0 goes
if [ $HAVE_PING = 1 ]; then
	rx=$(echo_replies $NSB)
	nsenter -t $NSB -n ping -q -i 0.05 -w 30 198.51.100.1 >/dev/null 2>&1 &
	BG=$!
	t_check "frames in flight (ping replies)" t_wait_cmd 100 replies_reached $NSB $((rx + 3))
fi
t_check "dev del vdpa0 with traffic flowing" vdpa dev del vdpa0
t_check "vdpa0 is gone from the vdpa bus" t_wait_gone $VB/vdpa0
t_check "its netdev $n0 is gone from namespace A" t_wait_cmd 50 ns_lacks $NSA "$n0"
t_check "delete adapter 1 (vdpa1 on it)" timeout 30 sh -c "echo 1 >$MLXBUS/del_device"
t_check "delete adapter 2 (vdpa3, vdpa8 on it)" timeout 30 sh -c "echo 2 >$MLXBUS/del_device"
t_check "no vdpa device left" sh -c "! ls $VB 2>/dev/null | grep -q ."
[ -n "$BG" ] && kill "$BG" 2>/dev/null
BG=""
# One wire, two kinds of end: port 0's vdpa device and the Ethernet netdev that caps
# eth,vnet gives port 1. The netdev receives frames that no netdev sent.
t_check "adapter 3 (caps=vnet)" ctl $MLXBUS/new_device "3 ports=2 caps=vnet"
t_check "caps eth,vnet on its port 1" ctl $D/mlx5_shim3p1/caps eth,vnet
t_check "port 1's Ethernet netdev" t_wait_for /sys/class/net/mlx5s3p1 50
t_check "dev add vdpa4 on port 0" vdpa dev add name vdpa4 \
	mgmtdev "$AUXBUS_BUS/$(adev mlx5_shim3p0 vnet)" mac 02:00:00:00:aa:04
t_check "its link is up: port 0 has no Ethernet netdev" \
	sh -c "vdpa dev config show vdpa4 | grep -q 'link up'"
t_check "vdpa4 is a netdev" wait_netdev vdpa4
n4=$(netdev vdpa4)
t_check "$n4 in namespace A, 192.0.2.1" ns_setup $NSA "$n4" 192.0.2.1
t_check "mlx5s3p1 in namespace B, 192.0.2.2" ns_setup $NSB mlx5s3p1 192.0.2.2
t_check "the vdpa netdev reaches the Ethernet netdev" reach $NSA 192.0.2.2
t_check "and the Ethernet netdev the vdpa netdev" reach $NSB 192.0.2.1
set -- $(ns_stats $NSB mlx5s3p1)
t_check "mlx5s3p1 received and sent (rx $1 tx $2)" test "${1:-0}" -gt 0 -a "${2:-0}" -gt 0
t_check "delete adapter 3" timeout 30 sh -c "echo 3 >$MLXBUS/del_device"

# Who has a port's wire is decided when it is taken, not when the vnet device bound: eth
# in caps is refused while a vdpa device has the wire, and once eth goes it is free again.
t_check "adapter 4 (caps=vnet)" ctl $MLXBUS/new_device "4 ports=2 caps=vnet"
m4=$AUXBUS_BUS/$(adev mlx5_shim4p0 vnet)
t_check "dev add vdpa5 on port 0: link up, it has the wire" \
	sh -c "vdpa dev add name vdpa5 mgmtdev $m4 && vdpa dev config show vdpa5 | grep -q 'link up'"
t_eq "caps eth,vnet on port 0 refused while vdpa5 has the wire" "Device or resource busy" \
	"$(werr $D/mlx5_shim4p0/caps eth,vnet)"
t_eq "caps unchanged" vnet "$(cat $D/mlx5_shim4p0/caps)"
t_eq "no eth device on port 0" "" "$(adev mlx5_shim4p0 eth)"
t_check "no netdev of port 0" test ! -e /sys/class/net/mlx5s4p0
t_check "the log says why" \
	sh -c "dmesg | grep -q 'caps: no eth while a vdpa device has the port.s wire'"
t_check "vdpa5 keeps its link" sh -c "vdpa dev config show vdpa5 | grep -q 'link up'"
t_check "dev del vdpa5" vdpa dev del vdpa5
t_check "then caps eth,vnet on port 0" ctl $D/mlx5_shim4p0/caps eth,vnet
t_check "gives port 0 its netdev" t_wait_for /sys/class/net/mlx5s4p0 50
t_check "on the wire: carrier once up" \
	sh -c "ip link set mlx5s4p0 up && grep -qx 1 /sys/class/net/mlx5s4p0/carrier"
t_check "dev add vdpa6 on port 0: link down, the netdev has the wire" \
	sh -c "vdpa dev add name vdpa6 mgmtdev $m4 && vdpa dev config show vdpa6 | grep -q 'link down'"
t_check "dev del vdpa6" vdpa dev del vdpa6
t_check "caps vnet on port 0 (eth removed)" ctl $D/mlx5_shim4p0/caps vnet
t_check "its netdev is gone" t_wait_gone /sys/class/net/mlx5s4p0
t_check "dev add vdpa7 on port 0: link up, it has the wire again" \
	sh -c "vdpa dev add name vdpa7 mgmtdev $m4 && vdpa dev config show vdpa7 | grep -q 'link up'"
t_check "delete adapter 4 (vdpa7 on it)" timeout 30 sh -c "echo 4 >$MLXBUS/del_device"

t_check "unload virtio_vdpa and the client" rmmod virtio_vdpa virtio_net mlx5_shim_vdpa
t_check "nothing holds vdpa any more" mod_unused vdpa
t_done
