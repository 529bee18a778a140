#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: `devlink dev reload` (action driver_reinit), as mlx5_devlink_reload_down/up(): the
# function's auxiliary devices go and come back, so its netdev is made anew (new ifindex) and
# its ib_device comes back on it; the other port is left alone; devlink's reload statistics
# count it; refused with devlink's extack message while the function has SFs, while it is
# detached, into another network namespace and for an action it does not offer.
# kmods: ib_core
# timeout: 180
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core ib_core"
cleanup() { mlx5_cleanup 1; }
trap cleanup EXIT

IB=/sys/class/infiniband
DL=mlx5_shim/mlx5_shim1p0

# ibdev ADEV: the ib_device whose parent is the auxiliary device ADEV, or nothing
ibdev() {
	for _d in $IB/*; do
		[ -e "$_d/device" ] || continue
		[ "$(basename "$(readlink -f "$_d/device")")" = "$1" ] && basename "$_d"
	done
}
ifindex() { cat /sys/class/net/"$1"/ifindex 2>/dev/null; }
# reload_err ARGS...: the first line of devlink dev reload's error output, or "ok"
reload_err() { _o=$(devlink dev reload "$@" 2>&1) && echo ok || echo "$_o" | head -n 1; }

have_kmod ib_core || t_skip_case "this kernel has no ib_core (CONFIG_INFINIBAND)"
t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma
rl=$(modinfo -F devlink_reload mlx5_shim_core)
case $rl in
yes) ;;
*) t_skip_case "mlx5_shim_core offers no devlink reload here: ${rl:-no modinfo devlink_reload field}" ;;
esac
command -v devlink >/dev/null || { t_fail "iproute2's devlink in the guest"; t_done; }

t_check "create adapter 1" ctl $MLXBUS/new_device "1 ports=2"
t_check "netdev mlx5s1p0" t_wait_for /sys/class/net/mlx5s1p0
r0=$(adev mlx5_shim1p0 rdma)
t_check "port 0: an ib_device below $r0" test -n "$(ibdev "$r0")"
if0=$(ifindex mlx5s1p0)
if1=$(ifindex mlx5s1p1)

t_check "devlink dev reload $DL" devlink dev reload $DL
t_check "netdev mlx5s1p0 back" t_wait_for /sys/class/net/mlx5s1p0
new0=$(ifindex mlx5s1p0)
t_check "made anew: ifindex $if0 -> $new0" test -n "$new0" -a "$new0" != "$if0"
t_eq "port 1's netdev untouched" "$if1" "$(ifindex mlx5s1p1)"
r0=$(adev mlx5_shim1p0 rdma)
i0=$(ibdev "$r0")
t_check "an ib_device below $r0 again ($i0)" test -n "$i0"
t_check "rdma link: $i0/1 on netdev mlx5s1p0" sh -c "rdma link show $i0/1 | grep -q 'netdev mlx5s1p0'"
t_eq "devlink dev lists both instances still" "$DL mlx5_shim/mlx5_shim1p1" \
	"$(devlink dev | sort | tr '\n' ' ' | sed 's/ $//')"
# iproute2 before 5.11 (bullseye's) has no "action" option: the kernel's default is driver_reinit
if devlink dev help 2>&1 | grep -q driver_reinit; then
	t_check "devlink dev reload $DL action driver_reinit" devlink dev reload $DL action driver_reinit
	t_check "netdev mlx5s1p0 back again" t_wait_for /sys/class/net/mlx5s1p0
	has_action=1
else
	t_check "devlink dev reload $DL (again)" devlink dev reload $DL
	t_check "netdev mlx5s1p0 back again" t_wait_for /sys/class/net/mlx5s1p0
	has_action=0
fi

# devlink's reload statistics (kernel 5.10+, iproute2 that prints them)
st=$(devlink -s dev show $DL 2>/dev/null)
case $st in
*driver_reinit*)
	t_check "reload stats: driver_reinit counted twice" \
		sh -c "devlink -s dev show $DL | grep -A3 driver_reinit | grep -q 'unspecified 2'"
	t_check "port 1: none" \
		sh -c "! devlink -s dev show mlx5_shim/mlx5_shim1p1 | grep -A3 driver_reinit | grep -q 'unspecified [1-9]'"
	;;
*) t_skip "reload stats" "this devlink prints none: $(echo "$st" | head -n 1)" ;;
esac

# refusals
if [ $has_action = 1 ]; then
	# devlink refuses it from the driver's reload_actions, which name driver_reinit only
	t_check_errno "action fw_activate refused: not among the shim's reload actions" \
		"reload action is not supported by the driver" devlink dev reload $DL action fw_activate
else
	t_skip "action fw_activate refused" "this devlink has no action option"
fi
unshare -n sleep 100 &
NSA=$!
t_wait_cmd 100 ns_new "$NSA" || t_fail "a network namespace" "unshare -n has not run within 10 s"
e=$(reload_err $DL netns "$NSA")
case $e in
*"namespace change is not supported"*) t_ok "reload into another namespace refused: $e" ;;
*) t_fail "reload into another namespace refused" "got: $e" ;;
esac
t_check "mlx5s1p0 still in this namespace" test -e /sys/class/net/mlx5s1p0
t_check "sf_add 3 on port 0" ctl $D/mlx5_shim1p0/sf_add 3
e=$(reload_err $DL)
case $e in
*"SFs are allocated"*) t_ok "with an SF: refused: $e" ;;
*) t_fail "with an SF: refused" "got: $e" ;;
esac
t_check "sf_del 3" ctl $D/mlx5_shim1p0/sf_del 3
t_check "pm detach" ctl $D/mlx5_shim1p0/pm detach
e=$(reload_err $DL)
case $e in
*"detached"*) t_ok "detached: refused: $e" ;;
*) t_fail "detached: refused" "got: $e" ;;
esac
t_check "pm attach" ctl $D/mlx5_shim1p0/pm attach
t_check "reload works again" devlink dev reload $DL
t_check "netdev mlx5s1p0 there" t_wait_for /sys/class/net/mlx5s1p0

t_check "delete adapter 1" timeout 30 sh -c "echo 1 >$MLXBUS/del_device"
t_check "devlink dev lists none" sh -c "! devlink dev | grep -q mlx5_shim"
t_check "no ib_device left" sh -c "! ls $IB 2>/dev/null | grep -q ."
t_check "unload the clients and the core" rmmod mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core
t_check "ib_core unloads" rmmod ib_core
t_done
