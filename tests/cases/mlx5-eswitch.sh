#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: the uplink netdev survives eswitch mode changes, as mainline's since 7a9fb35e8c3a
# ("net/mlx5e: Do not reload ethernet ports when changing eswitch mode", v5.13). Both ports'
# netdevs in namespaces with addresses; legacy -> switchdev -> legacy on port 0 (devlink where
# the kernel has it, else the debugfs knob) keeps its ifindex, namespace, address and up state;
# in switchdev mode it is the uplink representor (phys_port_name p0, the adapter's switch id)
# and an eth-rep device comes; a ping started before the switches gets answers through them,
# and new pings work in each mode without reconfiguring anything.
# timeout: 240
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup 1; }
trap cleanup EXIT

# without a working ping (tinyconfig), TCP SYN/RST probes (mlx5-common.inc)
ns_init

# link NSPID DEV: "ifindex flags" of DEV in the namespace, from ip's one-line output, without
# the carrier's flags (NO-CARRIER, LOWER_UP): linkwatch reports those late, under load seconds
link() { nsenter -t "$1" -n ip -o link show dev "$2" 2>/dev/null | sed -n 's/^\([0-9]*\): [^ ]* <\([^>]*\)>.*/\1 \2/p' |
	sed 's/NO-CARRIER,//; s/,LOWER_UP//'; }
# addr NSPID DEV: DEV's IPv4 address with prefix
addr() { nsenter -t "$1" -n ip -o -4 addr show dev "$2" 2>/dev/null | sed -n 's/.* inet \([0-9./]*\).*/\1/p'; }
# nsys NSPID FILE: read a sysfs file of the namespace (sysfs shows the mounter's namespace)
nsys() { nsenter -t "$1" -n unshare -m sh -c "mount -t sysfs sysfs /sys && cat $2" 2>/dev/null; }
kinds() { ls "$PB/$1/" | sed -n 's/^mlx5_shim_core\.\([a-z-]*\)\.[0-9]*$/\1/p' | sort | tr '\n' ' ' | sed 's/ $//'; }

t_check "load mlx5_shim_core and mlx5_shim_eth" mlx5_load mlx5_shim_core mlx5_shim_eth
if [ "$(modinfo -F devlink mlx5_shim_core)" = yes ] && command -v devlink >/dev/null; then
	setmode() { devlink dev eswitch set mlx5_shim/mlx5_shim1p0 mode "$1"; }
	echo "# mode changes through devlink"
else
	setmode() { ctl $D/mlx5_shim1p0/esw_mode "$1"; }
	echo "# mode changes through debugfs esw_mode (no devlink here)"
fi

t_check "create adapter 1 (ports=2, caps=eth)" ctl $MLXBUS/new_device "1 ports=2 caps=eth"
ifi=$(cat /sys/class/net/mlx5s1p0/ifindex)
sysctl -qw net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
ns_pair
t_check "port 0 into namespace A" ns_setup "$NSA" mlx5s1p0 192.0.2.1
t_check "port 1 into namespace B" ns_setup "$NSB" mlx5s1p1 192.0.2.2
t_check "legacy: A reaches B" reach "$NSA" 192.0.2.2
before=$(link "$NSA" mlx5s1p0)
t_check "legacy: no phys_port_name" sh -c "! nsys $NSA /sys/class/net/mlx5s1p0/phys_port_name"

# a ping that runs across both switches: it has had replies before them, and 10 after them
# (namespace A's ICMP counters, however long that takes), not a fixed time
if [ $HAVE_PING = 1 ]; then
	rx=$(echo_replies "$NSA")
	nsenter -t "$NSA" -n ping -q -i 0.2 -w 120 192.0.2.2 >/tmp/mlx5-esw-bg.out 2>&1 &
	BG=$!
	t_check "the background ping gets replies" t_wait_cmd 100 replies_reached "$NSA" $((rx + 3))
fi

t_check "switchdev" setmode switchdev
t_eq "switchdev: devices eth and eth-rep" "eth eth-rep" "$(kinds mlx5_shim1p0)"
t_check "switchdev: the eth-rep device is bound" \
	t_wait_for "$PB/mlx5_shim1p0/$(adev mlx5_shim1p0 eth-rep)/driver"
t_eq "switchdev: same ifindex, still up, still in namespace A" "$before" "$(link "$NSA" mlx5s1p0)"
t_check "switchdev: ifindex $ifi" test "${before%% *}" = "$ifi"
t_eq "switchdev: address kept" 192.0.2.1/24 "$(addr "$NSA" mlx5s1p0)"
t_check "switchdev: no new netdev in the initial namespace" test ! -e /sys/class/net/mlx5s1p0
t_eq "switchdev: it is the uplink representor" p0 "$(nsys "$NSA" /sys/class/net/mlx5s1p0/phys_port_name)"
t_check "switchdev: with a switch id" test -n "$(nsys "$NSA" /sys/class/net/mlx5s1p0/phys_switch_id)"
t_eq "switchdev: port 1 is no representor" "" "$(nsys "$NSB" /sys/class/net/mlx5s1p1/phys_port_name)"
t_check "switchdev: A reaches B" reach "$NSA" 192.0.2.2
t_check "switchdev: B reaches A" reach "$NSB" 192.0.2.1

t_check "legacy" setmode legacy
t_eq "legacy: device eth" "eth" "$(kinds mlx5_shim1p0)"
t_eq "legacy: same ifindex, still up, still in namespace A" "$before" "$(link "$NSA" mlx5s1p0)"
t_eq "legacy: address kept" 192.0.2.1/24 "$(addr "$NSA" mlx5s1p0)"
t_check "legacy: no phys_port_name again" sh -c "! nsys $NSA /sys/class/net/mlx5s1p0/phys_port_name"
t_check "legacy: A reaches B" reach "$NSA" 192.0.2.2

if [ $HAVE_PING = 1 ]; then
	rx=$(echo_replies "$NSA")
	t_check "and 10 replies after the switches" t_wait_cmd 300 replies_reached "$NSA" $((rx + 10))
	kill -INT "$BG" 2>/dev/null
	wait "$BG"
	BG=""
	tx=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' /tmp/mlx5-esw-bg.out)
	rx=$(sed -n 's/.* \([0-9]*\) packets received.*/\1/p' /tmp/mlx5-esw-bg.out)
	echo "# background ping across the switches: ${tx:-?} sent, ${rx:-?} received"
	t_check "the ping started before the switches got answers after them" test "${rx:-0}" -gt 10
	t_check "and lost at most a few" test $((${tx:-0} - ${rx:-0})) -le 3
else
	t_skip "a ping running across the switches" "no working ping (CONFIG_POSIX_TIMERS?)"
fi

t_check "delete the adapter" ctl $MLXBUS/del_device 1
t_check "netdev gone from namespace A" test -z "$(link "$NSA" mlx5s1p0)"
t_done
