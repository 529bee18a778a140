#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: a failed attach (the port's fail_attach test knob) undoes what it did and leaves
# the port detached, so a second attach retries: after a suspend (devices kept, suspended) and
# after a detach (devices deleted). Then LAG peer lookups, which walk every auxiliary device,
# while another adapter's devices come and go.
# kernels: bookworm debug debugc
# timeout: 120
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core"
cleanup() { mlx5_cleanup 1 2; }
trap cleanup EXIT

# names PORT: the port's auxiliary devices
names() { ls "$PB/$1/" | grep '^mlx5_shim_core\.' | tr '\n' ' ' | sed 's/ $//'; }

P=$D/mlx5_shim1p0
t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma mlx5_shim_vdpa
t_check "create adapter 1" ctl $MLXBUS/new_device "1 ports=2"
ip link set mlx5s1p0 up
before=$(names mlx5_shim1p0)
ifindex=$(cat /sys/class/net/mlx5s1p0/ifindex)
R=$AB/$(adev mlx5_shim1p0 rdma)
t_eq "fail_attach: disarmed" 0 "$(cat $P/fail_attach)"
t_eq "fail_attach: out of range refused" "Invalid argument" "$(werr $P/fail_attach 6)"

# devices kept suspended: eth resumes, rdma (the 2nd) fails, eth is suspended again
t_check "suspended: pm suspend" ctl $P/pm suspend
t_check "suspended: fail at the 2nd device" ctl $P/fail_attach 2
t_eq "suspended: attach fails" "Input/output error" "$(werr $P/pm attach)"
t_eq "suspended: still detached" detached "$(cat $P/pm)"
t_eq "suspended: the knob fired once" 0 "$(cat $P/fail_attach)"
t_eq "suspended: devices kept" "$before" "$(names mlx5_shim1p0)"
t_eq "suspended: rdma not resumed" "suspends 1 resumes 0" "$(cat "$R/rdma_pm")"
t_eq "suspended: eth suspended again, carrier off" 0 "$(cat /sys/class/net/mlx5s1p0/carrier)"
t_eq "suspended: mode change still refused" "Device or resource busy" "$(werr $P/esw_mode switchdev)"
t_check "suspended: attach retried" ctl $P/pm attach
t_eq "suspended: attached" attached "$(cat $P/pm)"
t_eq "suspended: rdma resumed once" "suspends 1 resumes 1" "$(cat "$R/rdma_pm")"
t_eq "suspended: netdev kept" "$ifindex" "$(cat /sys/class/net/mlx5s1p0/ifindex)"
t_eq "suspended: carrier back" 1 "$(cat /sys/class/net/mlx5s1p0/carrier)"

# devices deleted: eth and rdma are added, vnet (the 3rd) fails, both are deleted again
t_check "deleted: pm detach" ctl $P/pm detach
t_check "deleted: fail at the 3rd device" ctl $P/fail_attach 3
t_eq "deleted: attach fails" "Input/output error" "$(werr $P/pm attach)"
t_eq "deleted: still detached" detached "$(cat $P/pm)"
t_eq "deleted: devices it added deleted again" "" "$(names mlx5_shim1p0)"
t_check "deleted: attach retried" ctl $P/pm attach
t_eq "deleted: attached" attached "$(cat $P/pm)"
t_eq "deleted: devices re-added" "$before" "$(names mlx5_shim1p0)"
t_check "deleted: re-added devices bound" test -e "$AB/$(adev mlx5_shim1p0 vnet)/driver"
t_eq "pm: port 1 untouched" active "$(cat "$AB/$(adev mlx5_shim1p1 rdma)/rdma_state")"

# LAG lookups test every auxiliary device on the bus while adapter 2's are deleted
R=$AB/$(adev mlx5_shim1p0 rdma)
(while :; do cat "$R/rdma_lag_peer" $D/mlx5_shim1p1/lag; done) >/tmp/mlx5-lag 2>&1 &
BG=$!
n=0
while [ $n -lt 20 ] && ctl $MLXBUS/new_device "2 ports=2 caps=rdma" && ctl $MLXBUS/del_device 2; do
	n=$((n + 1))
done
kill $BG
wait $BG 2>/dev/null
BG=""
t_eq "lag: adapter 2 created and deleted 20 times" 20 $n
t_eq "lag: every lookup found the peer" "mlx5_shim1p0 mlx5_shim1p1" \
	"$(sort -u /tmp/mlx5-lag | tr '\n' ' ' | sed 's/ $//')"
rm -f /tmp/mlx5-lag
t_done
