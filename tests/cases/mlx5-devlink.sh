#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim under devlink, as a user drives mlx5: every function (port) is a devlink instance
# mlx5_shim/<port>; `devlink dev eswitch set ... mode switchdev|legacy` changes the eswitch
# mode (the port's auxiliary devices follow it, the other port is left alone); setting the
# current mode again is no error (as mlx5's); the instances go with their adapter. iproute2's
# devlink comes from the kernel's own suite.
# timeout: 120
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup 1; }
trap cleanup EXIT

# kinds PORT: the kinds of the port's auxiliary devices, sorted
kinds() { ls "$PB/$1/" | sed -n 's/^mlx5_shim_core\.\([a-z-]*\)\.[0-9]*$/\1/p' | sort | tr '\n' ' ' | sed 's/ $//'; }
# mode DEV: the eswitch mode devlink reports
mode() { devlink dev eswitch show "$1" | sed -n 's/.* mode \([a-z]*\).*/\1/p'; }

t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth
dl=$(modinfo -F devlink mlx5_shim_core)
case $dl in
yes) ;;
*) t_skip_case "mlx5_shim_core registers no devlink instances here: ${dl:-no modinfo devlink field}" ;;
esac
command -v devlink >/dev/null || { t_fail "iproute2's devlink in the guest"; t_done; }

t_check "create adapter 1 (ports=2, caps=eth)" ctl $MLXBUS/new_device "1 ports=2 caps=eth"
t_eq "devlink dev: one instance per port" "mlx5_shim/mlx5_shim1p0 mlx5_shim/mlx5_shim1p1" \
	"$(devlink dev | sort | tr '\n' ' ' | sed 's/ $//')"
t_eq "eswitch mode: legacy" legacy "$(mode mlx5_shim/mlx5_shim1p0)"
t_eq "legacy devices" eth "$(kinds mlx5_shim1p0)"

t_check "devlink dev eswitch set mode switchdev" devlink dev eswitch set mlx5_shim/mlx5_shim1p0 mode switchdev
t_eq "eswitch mode: switchdev" switchdev "$(mode mlx5_shim/mlx5_shim1p0)"
t_eq "the debugfs knob agrees" switchdev "$(cat $D/mlx5_shim1p0/esw_mode)"
t_eq "switchdev devices: eth kept, eth-rep added" "eth eth-rep" "$(kinds mlx5_shim1p0)"
t_check "the representor's client binds" t_wait_for "$PB/mlx5_shim1p0/$(adev mlx5_shim1p0 eth-rep)/driver"
t_eq "port 1 left alone" legacy "$(mode mlx5_shim/mlx5_shim1p1)"
t_check "the same mode again: no error" devlink dev eswitch set mlx5_shim/mlx5_shim1p0 mode switchdev
t_eq "still one eth-rep device" "eth eth-rep" "$(kinds mlx5_shim1p0)"
t_check_errno "mode on a missing instance: ENODEV" "No such device" \
	devlink dev eswitch set mlx5_shim/mlx5_shim9p0 mode legacy

t_check "devlink dev eswitch set mode legacy" devlink dev eswitch set mlx5_shim/mlx5_shim1p0 mode legacy
t_eq "eswitch mode: legacy again" legacy "$(mode mlx5_shim/mlx5_shim1p0)"
t_eq "legacy devices again" eth "$(kinds mlx5_shim1p0)"

t_check "delete the adapter" ctl $MLXBUS/del_device 1
t_eq "no devlink instance left" "" "$(devlink dev)"
t_done
