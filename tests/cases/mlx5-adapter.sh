#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: adapters with each capability mix, the auxiliary devices they expose and who
# binds them, capability toggles, eswitch mode switches, link events, LAG peer lookup,
# unbinding and rebinding a port.
# On debugk (delayed releases) it takes 200-320 s beside the matrix.
# timeout: 600
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup 1 2 3; }
trap cleanup EXIT

# kinds PORT: the kinds of auxiliary devices below a port, sorted
kinds() {
	ls "$PB/$1/" 2>/dev/null | sed -n 's/^mlx5_shim_core\.\([a-z-]*\)\.[0-9]*$/\1/p' |
		sort | tr '\n' ' ' | sed 's/ $//'
}
# drivers PORT: the drivers bound to them, "none" for unbound ones
drivers() {
	for d in "$PB/$1"/mlx5_shim_core.*; do
		[ -e "$d" ] || continue
		if [ -e "$d/driver" ]; then basename "$(readlink "$d/driver")"; else echo none; fi
	done | sort -u | tr '\n' ' ' | sed 's/ $//'
}

t_check "load mlx5_shim_core, eth, rdma" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma

for caps in none eth rdma vnet eth,rdma eth,vnet rdma,vnet eth,rdma,vnet; do
	want=$(echo "$caps" | tr , '\n' | grep -v none | sort | tr '\n' ' ' | sed 's/ $//')
	if ! ctl $MLXBUS/new_device "1 ports=2 caps=$caps"; then
		t_fail "caps=$caps: create adapter"
		continue
	fi
	t_eq "caps=$caps: port 0 devices" "$want" "$(kinds mlx5_shim1p0)"
	t_eq "caps=$caps: port 1 devices" "$want" "$(kinds mlx5_shim1p1)"
	t_eq "caps=$caps: port bound to mlx5_shim_core" mlx5_shim_core \
		"$(basename "$(readlink $PB/mlx5_shim1p0/driver)")"
	ctl $MLXBUS/del_device 1
	t_check "caps=$caps: delete removes the ports" test ! -e $PB/mlx5_shim1p0 -a ! -e $PB/mlx5_shim1p1
done

# vdpa loaded after the devices exist: it binds the existing vnet devices
ctl $MLXBUS/new_device "1 ports=2"
t_eq "default caps" "eth rdma vnet" "$(kinds mlx5_shim1p0)"
t_eq "vnet unbound before mlx5_shim_vdpa loads" "mlx5_shim_eth mlx5_shim_rdma none" "$(drivers mlx5_shim1p0)"
t_check "load mlx5_shim_vdpa" modprobe mlx5_shim_vdpa
t_eq "every device bound" "mlx5_shim_eth mlx5_shim_rdma mlx5_shim_vdpa" "$(drivers mlx5_shim1p0)"
t_check "devices on the $AUXBUS_BUS bus" test -e "$AB/$(adev mlx5_shim1p0 eth)"
t_check "names are mlx5_shim_core.<kind>.<id>" sh -c "ls $PB/mlx5_shim1p0/ | grep -qx 'mlx5_shim_core\.eth\.[0-9]*'"
e0=$(adev mlx5_shim1p0 eth)
e1=$(adev mlx5_shim1p1 eth)
t_check "ports get distinct ids ($e0, $e1)" test "$e0" != "$e1"
# modules.alias: the vnet device's modalias names mlx5_shim_vdpa and no other module (mainline's
# mlx5_vdpa has auxiliary:mlx5_core.vnet)
v0=$(adev mlx5_shim1p0 vnet)
t_eq "the vnet device's modalias autoloads mlx5_shim_vdpa alone, never mlx5_vdpa" mlx5_shim_vdpa \
	"$(awk -v a="$(sed -n 's/^MODALIAS=//p' "$AB/$v0/uevent")" '$1 == "alias" && $2 == a { print $3 }' \
		"/lib/modules/$(uname -r)/modules.alias" | sort -u | tr '\n' ' ' | sed 's/ $//')"
g0=$(cat $PB/mlx5_shim1p0/sys_image_guid)
t_eq "ports of an adapter share the system image GUID" "$g0" "$(cat $PB/mlx5_shim1p1/sys_image_guid)"
ctl $MLXBUS/new_device "2 ports=2 caps=eth,rdma"
t_check "another adapter has another GUID" test "$g0" != "$(cat $PB/mlx5_shim2p0/sys_image_guid)"
r0=$AB/$(adev mlx5_shim1p0 rdma)
t_eq "rdma client sees the GUID" "$g0" "$(cat "$r0/rdma_guid")"
t_eq "LAG peer of port 0 (rdma client)" mlx5_shim1p1 "$(cat "$r0/rdma_lag_peer")"
t_eq "LAG peer of port 1 (debugfs)" mlx5_shim1p0 "$(cat $D/mlx5_shim1p1/lag)"
t_eq "LAG peer of adapter 2 port 1" mlx5_shim2p0 "$(cat $D/mlx5_shim2p1/lag)"
ctl $MLXBUS/new_device "3 ports=1 caps=rdma"
t_eq "single-port adapter has no LAG peer" none "$(cat "$AB/$(adev mlx5_shim3p0 rdma)/rdma_lag_peer")"

# capability toggles
t_check "caps: port 0 to eth only" ctl $D/mlx5_shim1p0/caps eth
t_eq "caps: port 0 devices" "eth" "$(kinds mlx5_shim1p0)"
t_eq "caps: port 1 untouched" "eth rdma vnet" "$(kinds mlx5_shim1p1)"
t_eq "caps: reads back" eth "$(cat $D/mlx5_shim1p0/caps)"
t_check "caps: back to all" ctl $D/mlx5_shim1p0/caps eth,rdma,vnet
t_eq "caps: port 0 devices again" "eth rdma vnet" "$(kinds mlx5_shim1p0)"
t_eq "caps: the eth device was kept" "$e0" "$(adev mlx5_shim1p0 eth)"

# eswitch mode: eth stays (its netdev becomes the uplink representor), eth-rep comes,
# rdma <-> rdma-rep, vnet stays
v0=$(adev mlx5_shim1p0 vnet)
ev=$(cat "$AB/$v0/vdpa_events")
t_check "esw_mode: switchdev" ctl $D/mlx5_shim1p0/esw_mode switchdev
t_eq "esw_mode: switchdev devices" "eth eth-rep rdma-rep vnet" "$(kinds mlx5_shim1p0)"
t_eq "esw_mode: switchdev drivers" "mlx5_shim_eth mlx5_shim_rdma mlx5_shim_vdpa" "$(drivers mlx5_shim1p0)"
t_eq "esw_mode: reads back" switchdev "$(cat $D/mlx5_shim1p0/esw_mode)"
t_eq "esw_mode: rdma client reports rdma-rep" rdma-rep "$(cat "$AB/$(adev mlx5_shim1p0 rdma-rep)/rdma_mode")"
t_eq "esw_mode: representor netdev names its port" p0 "$(cat /sys/class/net/mlx5s1p0/phys_port_name 2>/dev/null)"
# the GUID's bytes in memory order (little endian), as mlx5e_rep_get_port_parent_id() copies it
t_eq "esw_mode: phys_switch_id is the adapter's GUID $g0" \
	"$(echo "$g0" | sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--) printf "%s", $i; print "" }')" \
	"$(cat /sys/class/net/mlx5s1p0/phys_switch_id 2>/dev/null)"
t_eq "esw_mode: vnet device kept" "$v0" "$(adev mlx5_shim1p0 vnet)"
t_eq "esw_mode: vdpa client saw the mode change" switchdev "$(cat "$AB/$v0/vdpa_esw_mode")"
t_check "esw_mode: vdpa client counted the event" test "$(cat "$AB/$v0/vdpa_events")" -gt "$ev"
t_eq "esw_mode: port 1 still legacy" "eth rdma vnet" "$(kinds mlx5_shim1p1)"
t_check "esw_mode: LAG peer found from a representor" test "$(cat "$AB/$(adev mlx5_shim1p0 rdma-rep)/rdma_lag_peer")" = mlx5_shim1p1
t_check "esw_mode: legacy" ctl $D/mlx5_shim1p0/esw_mode legacy
t_eq "esw_mode: legacy devices" "eth rdma vnet" "$(kinds mlx5_shim1p0)"
t_check_errno "esw_mode: legacy netdev has no phys_port_name (EOPNOTSUPP)" "Operation not supported" \
	cat /sys/class/net/mlx5s1p0/phys_port_name

# link events: carrier and client state follow
r0=$AB/$(adev mlx5_shim1p0 rdma)
ip link set mlx5s1p0 up
t_eq "link: carrier up" 1 "$(cat /sys/class/net/mlx5s1p0/carrier)"
t_check "link: down" ctl $D/mlx5_shim1p0/link down
t_eq "link: carrier follows" 0 "$(cat /sys/class/net/mlx5s1p0/carrier)"
t_eq "link: rdma client follows" down "$(cat "$r0/rdma_state")"
t_check "link: rdma client counted it" test "$(cat "$r0/rdma_events")" -ge 1
t_check "link: up" ctl $D/mlx5_shim1p0/link up
t_eq "link: carrier back" 1 "$(cat /sys/class/net/mlx5s1p0/carrier)"
t_eq "link: rdma client active" active "$(cat "$r0/rdma_state")"

# unbind and rebind the port ("PCI function") from the parent driver
drv=/sys/bus/mlx5_shim/drivers/mlx5_shim_core
t_check "unbind port 0" sh -c "echo mlx5_shim1p0 >$drv/unbind"
t_eq "unbind removes the port's devices" "" "$(kinds mlx5_shim1p0)"
t_check "unbind removes the port's control files" test ! -e $D/mlx5_shim1p0
t_check "rebind port 0" sh -c "echo mlx5_shim1p0 >$drv/bind"
t_eq "rebind restores the devices" "eth rdma vnet" "$(kinds mlx5_shim1p0)"
t_eq "rebind: all bound" "mlx5_shim_eth mlx5_shim_rdma mlx5_shim_vdpa" "$(drivers mlx5_shim1p0)"

for id in 1 2 3; do ctl $MLXBUS/del_device $id; done
t_check "every adapter deleted" sh -c "! ls $AB | grep -q '^mlx5_shim_core\.'"
t_check "no port left" sh -c "[ -z \"\$(ls $PB)\" ]"
t_done
