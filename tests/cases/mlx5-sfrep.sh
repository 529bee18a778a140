#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: SF representors and SF traffic, as on mlx5 in switchdev mode. Every active SF gets
# a representor netdev on its port (mlx5s1p0pf0sf<N>: phys_port_name pf0sf<N>, the uplink's
# switch id, below the eth-rep device); the SF's own netdev and its representor are the two
# ends of a wire: ping from the SF netdev in one namespace to the representor in another. The
# representor goes with its SF (sf_del, devlink port function state inactive where devlink has
# SF ports), with switchdev mode, and with mlx5_shim_eth; an SF without one has no carrier.
# timeout: 300
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_sf mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup 1; }
trap cleanup EXIT

# without a working ping (tinyconfig), TCP SYN/RST probes (mlx5-common.inc)
ns_init

# flags NSPID DEV: DEV's flags in the namespace ("" when it is not there)
flags() { nsenter -t "$1" -n ip -o link show dev "$2" 2>/dev/null | sed -n 's/^[0-9]*: [^ ]* <\([^>]*\)>.*/\1/p'; }
# carrier NSPID DEV: DEV is up with carrier (LOWER_UP)
carrier() { case ",$(flags "$1" "$2")," in *,LOWER_UP,*) return 0 ;; esac; return 1; }
sysnet() { cat "/sys/class/net/$1/$2" 2>/dev/null; }
setmode() {
	if [ "$DL" = 1 ]; then devlink dev eswitch set mlx5_shim/mlx5_shim1p0 mode "$1"
	else ctl $D/mlx5_shim1p0/esw_mode "$1"; fi
}

t_check "load mlx5_shim_core, mlx5_shim_eth, mlx5_shim_sf" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_sf
DL=0
[ "$(modinfo -F devlink mlx5_shim_core)" = yes ] && command -v devlink >/dev/null && DL=1
t_check "create adapter 1 (ports=2, caps=eth)" ctl $MLXBUS/new_device "1 ports=2 caps=eth"
t_check "legacy: sf_add 3" ctl $D/mlx5_shim1p0/sf_add 3
t_check "legacy: the SF has its netdev" t_wait_for /sys/class/net/mlx5s1p0s3
t_check "legacy: no representor" test ! -e /sys/class/net/mlx5s1p0pf0sf3
ip link set mlx5s1p0s3 up
t_eq "legacy: the SF netdev has no carrier (no representor end)" 0 "$(sysnet mlx5s1p0s3 carrier)"

t_check "switchdev" setmode switchdev
t_check "switchdev: the existing SF gets a representor" t_wait_for /sys/class/net/mlx5s1p0pf0sf3
t_eq "its phys_port_name" pf0sf3 "$(sysnet mlx5s1p0pf0sf3 phys_port_name)"
t_eq "the uplink's switch id" "$(sysnet mlx5s1p0 phys_switch_id)" "$(sysnet mlx5s1p0pf0sf3 phys_switch_id)"
t_check "a switch id there is" test -n "$(sysnet mlx5s1p0 phys_switch_id)"
t_eq "below the eth-rep device" "$(adev mlx5_shim1p0 eth-rep)" \
	"$(basename "$(readlink /sys/class/net/mlx5s1p0pf0sf3/device)")"
t_check "the SF netdev has carrier now" t_wait_cmd 50 sh -c "[ \"\$(cat /sys/class/net/mlx5s1p0s3/carrier)\" = 1 ]"

t_check "sf_add 5 in switchdev mode" ctl $D/mlx5_shim1p0/sf_add 5
t_check "its representor" test -e /sys/class/net/mlx5s1p0pf0sf5
t_check "its netdev" t_wait_for /sys/class/net/mlx5s1p0s5
sysctl -qw net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
ns_pair
t_check "SF netdev into namespace A" ns_setup "$NSA" mlx5s1p0s5 198.51.100.1
t_check "representor into namespace B" ns_setup "$NSB" mlx5s1p0pf0sf5 198.51.100.2
t_check "carrier on the SF netdev" t_wait_cmd 50 carrier "$NSA" mlx5s1p0s5
t_check "carrier on the representor" t_wait_cmd 50 carrier "$NSB" mlx5s1p0pf0sf5
t_check "the SF reaches its representor" reach "$NSA" 198.51.100.2
t_check "the representor reaches the SF" reach "$NSB" 198.51.100.1
t_check "SF 3 sees none of it: its own wire" test "$(sysnet mlx5s1p0s3 statistics/rx_packets)" -eq 0

t_check "sf_del 5" ctl $D/mlx5_shim1p0/sf_del 5
t_eq "its representor is gone" "" "$(flags "$NSB" mlx5s1p0pf0sf5)"
t_eq "its netdev is gone" "" "$(flags "$NSA" mlx5s1p0s5)"
t_check "SF 3's representor stays" test -e /sys/class/net/mlx5s1p0pf0sf3

t_check "unload mlx5_shim_eth with representors" timeout 30 rmmod mlx5_shim_eth
t_check "no representor left" sh -c "! ls /sys/class/net | grep -q pf0sf"
t_check "reload mlx5_shim_eth" modprobe mlx5_shim_eth
t_check "SF 3's representor again" t_wait_for /sys/class/net/mlx5s1p0pf0sf3

t_check "legacy (debugfs SFs do not hold the mode)" setmode legacy
t_check "legacy: the representor is gone" test ! -e /sys/class/net/mlx5s1p0pf0sf3
t_check "legacy: the SF netdev stays" test -e /sys/class/net/mlx5s1p0s3
ip link set mlx5s1p0s3 up
t_check "legacy: and has no carrier" t_wait_cmd 50 sh -c "[ \"\$(cat /sys/class/net/mlx5s1p0s3/carrier)\" = 0 ]"
t_check "sf_del 3" ctl $D/mlx5_shim1p0/sf_del 3

if [ "$(modinfo -F devlink_sf_ports mlx5_shim_core)" = yes ] && [ "$DL" = 1 ]; then
	P=mlx5_shim/mlx5_shim1p0/$((65536 + 7))
	t_check "devlink: switchdev, port add sfnum 7" sh -c "
		devlink dev eswitch set mlx5_shim/mlx5_shim1p0 mode switchdev &&
		devlink port add mlx5_shim/mlx5_shim1p0 flavour pcisf pfnum 0 sfnum 7"
	t_check "devlink: inactive, no representor" test ! -e /sys/class/net/mlx5s1p0pf0sf7
	t_check "devlink: state active" devlink port function set $P state active
	t_check "devlink: a representor" test -e /sys/class/net/mlx5s1p0pf0sf7
	t_check "devlink: state inactive" devlink port function set $P state inactive
	t_check "devlink: the representor is gone" test ! -e /sys/class/net/mlx5s1p0pf0sf7
	t_check "devlink: port del" devlink port del $P
else
	t_skip "devlink SF ports" "no devlink SF ports here"
fi

# The adapter's deletion unplugs every SF's wire end at once and waits one grace period for
# their receivers (mlx5_shim_sf_del_all()): delete it while three SFs and their representors
# talk over TCP both ways (busybox nc; ping needs POSIX timers, which the debug kernel's
# busybox lacks). Each end sends a line every 50 ms: streams at full speed starve a TCG guest
# that shares its host with the matrix's other guests.
# rx_above NSPID DEV N: DEV received more than N packets (/proc/net/dev of the namespace)
rx_above() {
	_p=$(nsenter -t "$1" -n cat /proc/net/dev | tr ':' ' ' | awk -v d="$2" '$1 == d { print $3 }')
	[ "${_p:-0}" -gt "$3" ]
}
# listening NSPID PORT: a TCP socket listens on PORT in the namespace (/proc/net/tcp{,6}: 0A)
listening() {
	nsenter -t "$1" -n cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v p=":$(printf '%04X' "$2")" 'substr($2, length($2) - 4) == p && $4 == "0A" { f = 1 } END { exit !f }'
}
# talk: a line every 50 ms on stdout until the reader goes
talk() { while echo "$1"; do sleep 0.05; done; }
[ "$(cat $D/mlx5_shim1p0/esw_mode)" = switchdev ] || t_check "switchdev for the last SFs" setmode switchdev
pids=
for n in 11 12 13; do
	ctl $D/mlx5_shim1p0/sf_add $n && t_wait_for /sys/class/net/mlx5s1p0s$n &&
		ns_setup "$NSA" mlx5s1p0s$n 10.$n.0.1 && ns_setup "$NSB" mlx5s1p0pf0sf$n 10.$n.0.2 &&
		t_wait_cmd 50 carrier "$NSA" mlx5s1p0s$n || break
	talk "representor $n" | nsenter -t "$NSB" -n nc -l -p $n >/dev/null 2>&1 &
	pids="$pids $!"
	t_wait_cmd 100 listening "$NSB" $n || break
	talk "SF $n" | nsenter -t "$NSA" -n nc 10.$n.0.2 $n >/dev/null 2>&1 &
	pids="$pids $!"
done
t_eq "three more SFs, each talking over TCP both ways with its representor" 6 "$(echo $pids | wc -w)"
t_check "frames reach the last representor" t_wait_cmd 150 rx_above "$NSB" mlx5s1p0pf0sf13 20
t_check "and the last SF" t_wait_cmd 150 rx_above "$NSA" mlx5s1p0s13 20
t_check "the connections still run" test "$(ps | grep -c '[n]c ')" -eq 6
t_check "delete the adapter with them running" ctl $MLXBUS/del_device 1
kill $pids 2>/dev/null
wait $pids 2>/dev/null
t_check "no SF netdev nor representor left" sh -c "! ls /sys/class/net | grep -q '^mlx5s1'"
t_done
