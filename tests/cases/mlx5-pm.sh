#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: attach/detach. A system suspend (pm_test "devices", freeze) detaches the ports,
# which calls the bound drivers' suspend() instead of deleting their devices, and resume
# attaches them again, as mlx5 does. Then the same through the port's pm control file, and
# a detach without suspend, which deletes the devices and re-adds them on attach. Last, a
# system suspend with ports the user detached: resume must leave them detached.
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc
. /tests/lib/pm.sh

MODS="mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
cleanup() {
	pm_test_end
	mlx5_cleanup
}
trap cleanup EXIT

# names PORT: the port's auxiliary devices
names() { ls "$PB/$1/" | grep '^mlx5_shim_core\.' | tr '\n' ' ' | sed 's/ $//'; }

t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma mlx5_shim_vdpa
t_check "create adapter 1" ctl $MLXBUS/new_device "1 ports=2"
ip link set mlx5s1p0 up
before=$(names mlx5_shim1p0)
before1=$(names mlx5_shim1p1)
ifindex=$(cat /sys/class/net/mlx5s1p0/ifindex)
R=$AB/$(adev mlx5_shim1p0 rdma)
V=$AB/$(adev mlx5_shim1p0 vnet)

if [ -w /sys/power/pm_test ] && grep -qw freeze /sys/power/state; then
	pm_test_begin devices
	t_check "suspend to idle, pm_test devices" sh -c 'echo freeze >/sys/power/state'
	pm_test_end
	t_eq "pm_test: same devices after resume" "$before" "$(names mlx5_shim1p0)"
	t_eq "pm_test: rdma suspended and resumed once" "suspends 1 resumes 1" "$(cat "$R/rdma_pm")"
	t_eq "pm_test: vdpa suspended and resumed once" "suspends 1 resumes 1" "$(cat "$V/vdpa_pm")"
	t_eq "pm_test: netdev kept" "$ifindex" "$(cat /sys/class/net/mlx5s1p0/ifindex)"
	t_eq "pm_test: carrier back" 1 "$(cat /sys/class/net/mlx5s1p0/carrier)"
	t_eq "pm_test: port attached" attached "$(cat $D/mlx5_shim1p0/pm)"
	t_eq "pm_test: rdma active" active "$(cat "$R/rdma_state")"
	sus=2
else
	t_skip "suspend to idle with pm_test" "no /sys/power/pm_test or no freeze state"
	sus=1
fi

t_check "pm: suspend" ctl $D/mlx5_shim1p0/pm suspend
t_eq "pm: detached" detached "$(cat $D/mlx5_shim1p0/pm)"
t_eq "pm: devices kept" "$before" "$(names mlx5_shim1p0)"
t_eq "pm: rdma client suspended" suspended "$(cat "$R/rdma_state")"
t_eq "pm: vdpa client suspended" suspended "$(cat "$V/vdpa_state")"
t_eq "pm: carrier off while suspended" 0 "$(cat /sys/class/net/mlx5s1p0/carrier)"
t_eq "pm: mode change refused while detached" "Device or resource busy" \
	"$(werr $D/mlx5_shim1p0/esw_mode switchdev)"
t_eq "pm: port 1 untouched" active "$(cat "$AB/$(adev mlx5_shim1p1 rdma)/rdma_state")"
t_check "pm: attach" ctl $D/mlx5_shim1p0/pm attach
t_eq "pm: rdma resumed" "suspends $sus resumes $sus" "$(cat "$R/rdma_pm")"
t_eq "pm: netdev kept" "$ifindex" "$(cat /sys/class/net/mlx5s1p0/ifindex)"
t_eq "pm: carrier back" 1 "$(cat /sys/class/net/mlx5s1p0/carrier)"

t_check "pm: detach without suspend" ctl $D/mlx5_shim1p0/pm detach
t_eq "pm: devices deleted" "" "$(names mlx5_shim1p0)"
t_check "pm: attach" ctl $D/mlx5_shim1p0/pm attach
t_eq "pm: devices re-added" "$before" "$(names mlx5_shim1p0)"
t_check "pm: re-added devices bound" test -e "$AB/$(adev mlx5_shim1p0 rdma)/driver"

# system resume attaches only what system suspend detached, not what the user did
if [ -w /sys/power/pm_test ] && grep -qw freeze /sys/power/state; then
	R=$AB/$(adev mlx5_shim1p0 rdma)
	t_check "user-detached: port 0 pm suspend" ctl $D/mlx5_shim1p0/pm suspend
	t_check "user-detached: port 1 pm detach" ctl $D/mlx5_shim1p1/pm detach
	pm_test_begin devices
	t_check "user-detached: suspend to idle" sh -c 'echo freeze >/sys/power/state'
	pm_test_end
	t_eq "user-detached: port 0 stays detached" detached "$(cat $D/mlx5_shim1p0/pm)"
	t_eq "user-detached: port 0 rdma not resumed" "suspends 1 resumes 0" "$(cat "$R/rdma_pm")"
	t_eq "user-detached: port 1 stays detached" detached "$(cat $D/mlx5_shim1p1/pm)"
	t_eq "user-detached: port 1 devices not re-added" "" "$(names mlx5_shim1p1)"
	t_check "user-detached: port 0 attach" ctl $D/mlx5_shim1p0/pm attach
	t_check "user-detached: port 1 attach" ctl $D/mlx5_shim1p1/pm attach
	t_eq "user-detached: port 0 rdma resumed once" "suspends 1 resumes 1" "$(cat "$R/rdma_pm")"
	t_eq "user-detached: port 1 devices back" "$before1" "$(names mlx5_shim1p1)"
else
	t_skip "user-detached ports across suspend to idle" "no /sys/power/pm_test or no freeze state"
fi
t_done
