#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: SF ports through devlink, as on mlx5 (sf/devlink.c). In switchdev mode,
# `devlink port add DEV flavour pcisf pfnum P sfnum N` adds an inactive SF port (no SF device),
# `devlink port function set PORT state active` adds the SF's auxiliary device (and with
# mlx5_shim_sf and mlx5_shim_eth its netdev), `state inactive` deletes it, `devlink port del`
# deletes the port (an active one is deactivated first, as mlx5_devlink_sf_port_del() does).
# Refused with devlink's extack message: legacy mode, another flavour, a wrong pfnum, an
# sfnum out of range or taken; leaving switchdev mode while SF ports exist. Deleting the
# adapter, or unbinding a port from its driver, removes its SF ports and their devices.
# Kernels without devlink's port_new (5.10) skip.
# timeout: 240
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_sf mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup 1; }
trap cleanup EXIT

DEV=mlx5_shim/mlx5_shim1p0
# the devlink port index of sfnum N (mlx5_shim_core: 65536 + N)
pidx() { echo $((65536 + $1)); }
# out CMD...: the command's output and error output, on one line
out() { "$@" 2>&1 | tr '\n' ' '; }
# fails_with MSG CMD...: CMD fails and its output names MSG
fails_with() {
	_msg=$1
	shift
	_o=$("$@" 2>&1) && { echo "succeeded: $_o"; return 1; }
	case $_o in
	*"$_msg"*) return 0 ;;
	esac
	echo "unexpected error: $_o"
	return 1
}
# contains TEXT WORDS: TEXT contains WORDS
contains() {
	case $1 in
	*"$2"*) return 0 ;;
	esac
	echo "no '$2' in: $1"
	return 1
}
# sfs: the debugfs list of port 0's SFs, "sfnum name" per line, joined
sfs() { tr '\n' ' ' <$D/mlx5_shim1p0/sfs | sed 's/ $//'; }
# nports: how many devlink ports the function has
nports() { devlink port show 2>/dev/null | grep -c "^$DEV/"; }

t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_sf
sfp=$(modinfo -F devlink_sf_ports mlx5_shim_core)
case $sfp in
yes) ;;
*) t_skip_case "mlx5_shim_core has no devlink SF ports here: ${sfp:-no modinfo devlink_sf_ports field}" ;;
esac
command -v devlink >/dev/null || { t_fail "iproute2's devlink in the guest"; t_done; }

t_check "create adapter 1 (ports=2, caps=eth)" ctl $MLXBUS/new_device "1 ports=2 caps=eth"
t_check "legacy mode: port add refused" \
	fails_with "only supported in eswitch switchdev mode" \
	devlink port add $DEV flavour pcisf pfnum 0 sfnum 5
t_check "devlink dev eswitch set mode switchdev" devlink dev eswitch set $DEV mode switchdev

t_check "flavour pcivf refused" fails_with "supports only SF port addition" \
	devlink port add $DEV flavour pcivf pfnum 0 sfnum 5
t_check "pfnum 1 on port 0 refused" fails_with "Invalid pfnum" \
	devlink port add $DEV flavour pcisf pfnum 1 sfnum 5
t_check "sfnum 65536 refused" fails_with "sfnum out of range" \
	devlink port add $DEV flavour pcisf pfnum 0 sfnum 65536
t_check_errno "sfnum 65536: EINVAL" "Invalid argument" \
	devlink port add $DEV flavour pcisf pfnum 0 sfnum 65536
t_check "a user-chosen port index refused" fails_with "user defined port index" \
	devlink port add $DEV/70000 flavour pcisf pfnum 0 sfnum 5
t_check_errno "a user-chosen port index: EOPNOTSUPP" "Operation not supported" \
	devlink port add $DEV/70000 flavour pcisf pfnum 0 sfnum 5
t_check "a missing sfnum refused" fails_with "User must provide unique sfnum" \
	devlink port add $DEV flavour pcisf pfnum 0
t_check_errno "a missing sfnum: EOPNOTSUPP" "Operation not supported" \
	devlink port add $DEV flavour pcisf pfnum 0
t_eq "no port after the refusals" 0 "$(nports)"

t_check "port add sfnum 5" devlink port add $DEV flavour pcisf pfnum 0 sfnum 5
P5=$DEV/$(pidx 5)
show=$(out devlink port show $P5)
t_check "port show: flavour pcisf" contains "$show" "flavour pcisf"
t_check "port show: pfnum 0 sfnum 5" contains "$show" "pfnum 0 sfnum 5"
t_check "port show: state inactive, detached" contains "$show" "state inactive opstate detached"
t_eq "inactive: no SF device" "" "$(sfs)"
t_eq "debugfs sf_add of the port's sfnum 5: EBUSY (devlink's SF)" "Device or resource busy" \
	"$(werr $D/mlx5_shim1p0/sf_add 5)"
t_eq "still no SF device" "" "$(sfs)"
if [ "$(modinfo -F devlink_reload mlx5_shim_core)" = yes ]; then
	t_check_errno "reload refused: an inactive SF port is an SF allocated" \
		"reload is unsupported when SFs are allocated" devlink dev reload $DEV
else
	t_skip "reload refused with an inactive SF port" "no devlink reload here"
fi
t_eq "debugfs esw_mode legacy refused while SF ports exist: EBUSY" "Device or resource busy" \
	"$(werr $D/mlx5_shim1p0/esw_mode legacy)"
t_check "sfnum 5 again refused" fails_with "SF already exist" \
	devlink port add $DEV flavour pcisf pfnum 0 sfnum 5

t_check "state active" devlink port function set $P5 state active
t_check "the SF device exists" grep -q '^5 mlx5_shim_core\.sf\.' $D/mlx5_shim1p0/sfs
sf=$(awk '$1 == 5 { print $2 }' $D/mlx5_shim1p0/sfs)
t_eq "its sfnum attribute" 5 "$(cat "$AB/$sf/sfnum" 2>/dev/null)"
t_check "bound by mlx5_shim_sf" t_wait_for "$AB/$sf/driver"
t_check "its netdev mlx5s1p0s5" t_wait_for /sys/class/net/mlx5s1p0s5
t_check "port show: state active, attached (mlx5_shim_sf has it)" \
	contains "$(out devlink port show $P5)" "state active opstate attached"
t_check "unbind the SF from mlx5_shim_sf" ctl "/sys/bus/$AUXBUS_BUS/drivers/mlx5_shim_sf/unbind" "$sf"
t_check "no driver: state active, detached" \
	contains "$(out devlink port show $P5)" "state active opstate detached"
t_check "bind it again" ctl "/sys/bus/$AUXBUS_BUS/drivers/mlx5_shim_sf/bind" "$sf"
t_check "attached again" contains "$(out devlink port show $P5)" "state active opstate attached"
t_check "its netdev back" t_wait_for /sys/class/net/mlx5s1p0s5
t_check "state active again: no error" devlink port function set $P5 state active
t_check "legacy refused while SF ports exist" fails_with "SF ports" \
	devlink dev eswitch set $DEV mode legacy
t_eq "still switchdev" switchdev "$(cat $D/mlx5_shim1p0/esw_mode)"
t_eq "debugfs sf_add 5: EBUSY (devlink's SF)" "Device or resource busy" \
	"$(werr $D/mlx5_shim1p0/sf_add 5)"
t_eq "debugfs sf_del 5: EBUSY (devlink's SF)" "Device or resource busy" \
	"$(werr $D/mlx5_shim1p0/sf_del 5)"
t_check "port show: still active and attached" \
	contains "$(out devlink port show $P5)" "state active opstate attached"

t_check "state inactive" devlink port function set $P5 state inactive
t_eq "inactive: SF device gone" "" "$(sfs)"
t_check "netdev gone" t_wait_gone /sys/class/net/mlx5s1p0s5
t_check "port show: state inactive" contains "$(out devlink port show $P5)" "state inactive"

t_check "state active again" devlink port function set $P5 state active
t_check "SF device back" grep -q '^5 ' $D/mlx5_shim1p0/sfs
t_check "port del while active" devlink port del $P5
t_eq "port gone" 0 "$(nports)"
t_eq "its SF device gone" "" "$(sfs)"
t_check_errno "port del again: ENODEV" "No such device" devlink port del $P5
t_check "legacy again allowed" devlink dev eswitch set $DEV mode legacy
t_check "switchdev" devlink dev eswitch set $DEV mode switchdev

t_check "ports sfnum 1, 2, 3; 1 and 2 active" sh -c "
	for n in 1 2 3; do devlink port add $DEV flavour pcisf pfnum 0 sfnum \$n || exit 1; done
	devlink port function set $DEV/$(pidx 1) state active &&
	devlink port function set $DEV/$(pidx 2) state active"
t_eq "three ports" 3 "$(nports)"
t_check "SF netdev mlx5s1p0s1" t_wait_for /sys/class/net/mlx5s1p0s1
t_check "SF netdev mlx5s1p0s2" t_wait_for /sys/class/net/mlx5s1p0s2
t_check "unbind port 0 from its driver" ctl $MLXBUS/drivers/mlx5_shim_core/unbind mlx5_shim1p0
t_eq "its devlink instance gone" "mlx5_shim/mlx5_shim1p1" "$(devlink dev)"
t_eq "no SF device left" "" "$(ls $AB | grep '^mlx5_shim_core\.sf\.')"
t_check "bind it again" ctl $MLXBUS/drivers/mlx5_shim_core/bind mlx5_shim1p0
t_eq "no SF port after the rebind" 0 "$(nports)"

t_check "switchdev, ports 7 and 8, 7 active" sh -c "
	devlink dev eswitch set $DEV mode switchdev &&
	devlink port add $DEV flavour pcisf pfnum 0 sfnum 7 &&
	devlink port add $DEV flavour pcisf pfnum 0 sfnum 8 &&
	devlink port function set $DEV/$(pidx 7) state active"
t_check "delete the adapter with its SF ports" ctl $MLXBUS/del_device 1
t_eq "no devlink instance left" "" "$(devlink dev)"
t_eq "no devlink port left" "" "$(devlink port show)"
t_eq "no SF device left" "" "$(ls $AB | grep '^mlx5_shim_core\.sf\.')"
t_eq "no SF netdev left" "" "$(ls /sys/class/net | grep '^mlx5s1')"
t_done
