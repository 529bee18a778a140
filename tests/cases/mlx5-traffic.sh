#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: frames cross the simulated wire between the two ports of an adapter. Each port's
# netdev lives in its own network namespace; ping between them, check that the counters of
# both ends agree, that carrier follows link events, that traffic survives eswitch mode
# switches (the netdev stays and becomes the uplink representor), and that deleting the adapter while traffic flows and every
# client is bound is clean.
# timeout: 300
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup; }
trap cleanup EXIT

# stats NSPID DEV: "rx_bytes rx_packets tx_bytes tx_packets" from the namespace's /proc/net/dev
stats() {
	nsenter -t "$1" -n cat /proc/net/dev | sed 's/:/ /' |
		awk -v d="$2" '$1 == d { print $2, $3, $10, $11 }'
}

ns_init
# bg_traffic NSPID ADDR INTERVAL: keep sending until killed; sets BG
bg_traffic() {
	if [ $HAVE_PING = 1 ]; then
		nsenter -t "$1" -n ping -q -i "$3" -w 60 "$2" >/tmp/mlx5-bg.out 2>&1 &
	else
		(while :; do timeout 2 nsenter -t "$1" -n nc "$2" 9 </dev/null >/dev/null 2>&1; done) &
	fi
	BG=$!
}

t_check "load mlx5_shim_core and clients" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma mlx5_shim_vdpa
t_check "create adapter 1 with 2 ports" ctl $MLXBUS/new_device "1 ports=2 caps=eth,rdma,vnet"
t_check "port netdevs registered" test -e /sys/class/net/mlx5s1p0 -a -e /sys/class/net/mlx5s1p1

# no IPv6 autoconfiguration chatter: counters must only see the test's frames
sysctl -qw net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
ns_pair
for ns in $NSA $NSB; do
	nsenter -t "$ns" -n sysctl -qw net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
	nsenter -t "$ns" -n ip link set lo up
done
t_check "port 0 into namespace A" ns_setup "$NSA" mlx5s1p0 192.0.2.1
t_check "port 1 into namespace B" ns_setup "$NSB" mlx5s1p1 192.0.2.2
t_check "A reaches B" reach "$NSA" 192.0.2.2
t_check "B reaches A" reach "$NSB" 192.0.2.1

sa=$(stats "$NSA" mlx5s1p0)
sb=$(stats "$NSB" mlx5s1p1)
set -- $sa
a_rxb=$1 a_rxp=$2 a_txb=$3 a_txp=$4
set -- $sb
b_rxb=$1 b_rxp=$2 b_txb=$3 b_txp=$4
t_check "A transmitted frames ($a_txp)" test "${a_txp:-0}" -ge 3
t_eq "A tx packets = B rx packets" "$a_txp" "$b_rxp"
t_eq "A tx bytes = B rx bytes" "$a_txb" "$b_rxb"
t_eq "B tx packets = A rx packets" "$b_txp" "$a_rxp"
t_eq "B tx bytes = A rx bytes" "$b_txb" "$a_rxb"

# carrier follows link events
t_check "link down on port 1" ctl $D/mlx5_shim1p1/link down
# NO-CARRIER follows the operstate, which the kernel's linkwatch work sets a moment later
t_check "B has no carrier" t_wait_cmd 50 sh -c "nsenter -t $NSB -n ip link show mlx5s1p1 | grep -q NO-CARRIER"
t_check_fails "B unreachable while the link is down" reach "$NSA" 192.0.2.2
t_check "link up on port 1" ctl $D/mlx5_shim1p1/link up
t_check "B reachable again" reach "$NSA" 192.0.2.2

# traffic keeps flowing from A while port 1 switches mode twice
rx=$(rx_packets "$NSB" mlx5s1p1)
bg_traffic "$NSA" 192.0.2.2 0.2
t_check "background traffic reaches B" t_wait_cmd 100 rx_reached "$NSB" mlx5s1p1 $((rx + 3))
t_check "port 1 to switchdev during traffic" ctl $D/mlx5_shim1p1/esw_mode switchdev
t_eq "it is the uplink representor, still in namespace B" p1 \
	"$(nsenter -t "$NSB" -n unshare -m sh -c \
		'mount -t sysfs sysfs /sys && cat /sys/class/net/mlx5s1p1/phys_port_name' 2>/dev/null)"
t_check "A reaches the representor, nothing reconfigured" reach "$NSA" 192.0.2.2
t_check "port 1 back to legacy during traffic" ctl $D/mlx5_shim1p1/esw_mode legacy
t_check "A reaches B after the switches" reach "$NSA" 192.0.2.2
# ping prints its summary on SIGINT; the nc loop (a background subshell) ignores SIGINT
if [ $HAVE_PING = 1 ]; then kill -INT "$BG"; else kill "$BG"; fi 2>/dev/null
wait "$BG"
BG=""
if [ $HAVE_PING = 1 ]; then
	rcvd=$(sed -n 's/.* \([0-9]*\) packets received.*/\1/p' /tmp/mlx5-bg.out)
	t_check "background ping got replies (${rcvd:-?})" test "${rcvd:-0}" -gt 0
fi

# delete the adapter with every client bound and traffic flowing both ways
rx_a=$(rx_packets "$NSA" mlx5s1p0)
rx_b=$(rx_packets "$NSB" mlx5s1p1)
bg_traffic "$NSB" 192.0.2.1 0.05
bg2=$BG
bg_traffic "$NSA" 192.0.2.2 0.05
both_ways() { rx_reached "$NSA" mlx5s1p0 $((rx_a + 3)) && rx_reached "$NSB" mlx5s1p1 $((rx_b + 3)); }
t_check "traffic flows both ways" t_wait_cmd 100 both_ways
t_check "delete adapter during traffic" ctl $MLXBUS/del_device 1
t_check "ports gone" test ! -e $PB/mlx5_shim1p0 -a ! -e $PB/mlx5_shim1p1
t_check "netdevs gone" sh -c "! nsenter -t $NSA -n ip link show mlx5s1p0 2>/dev/null"
kill "$BG" "$bg2" 2>/dev/null
wait "$BG" "$bg2" 2>/dev/null
BG=""
t_done
