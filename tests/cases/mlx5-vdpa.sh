#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: the vdpa client's management device in the kernel's own vdpa core, driven with
# iproute2's vdpa: `vdpa mgmtdev show` lists one per vnet device, `vdpa dev add` makes a
# virtio-net vdpa device on it (the function's MAC or the one given, MTU), refuses bad input
# and attributes it does not support, `vdpa dev del` and del_device remove them, and nothing
# holds the vdpa core afterwards. The data path (virtio_vdpa, a ping) is mlx5-vdpa-net's.
# Skipped where the kernel has no vdpa core (CONFIG_VDPA: Debian's 5.10 and 6.1).
# kmods: vdpa
# timeout: 180
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_vdpa mlx5_shim_core"
HOLD=/sys/kernel/debug/auxbus_test_hold
cleanup() {
	[ -e $HOLD/drop ] && echo 1 >$HOLD/drop
	mlx5_cleanup 1 2
	rmmod auxbus_test_hold 2>/dev/null
}
trap cleanup EXIT

VB=/sys/bus/vdpa/devices

have_kmod vdpa || t_skip_case "this kernel has no vdpa core (CONFIG_VDPA)"

t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_vdpa
t_check "iproute2's vdpa in the guest" vdpa mgmtdev show
t_check "create adapter 1" ctl $MLXBUS/new_device "1 ports=2"
v0=$(adev mlx5_shim1p0 vnet)
v1=$(adev mlx5_shim1p1 vnet)
m0=$AUXBUS_BUS/$v0
t_check "mgmtdev show lists $m0" sh -c "vdpa mgmtdev show | grep -q '^$m0:'"
t_check "and $AUXBUS_BUS/$v1" sh -c "vdpa mgmtdev show | grep -q '^$AUXBUS_BUS/$v1:'"
t_check "class net" sh -c "vdpa mgmtdev show $m0 | grep -q 'supported_classes net'"

mac=$(cat "$AB/$v0/vdpa_mac")
t_check "dev add vdpa0" vdpa dev add name vdpa0 mgmtdev "$m0"
t_check "vdpa0 on the vdpa bus" test -e $VB/vdpa0
t_check "dev show: a network device of $m0" \
	sh -c "vdpa dev show vdpa0 | grep -q 'type network mgmtdev $m0 '"
t_check "dev config: the function's MAC $mac, link down" \
	sh -c "vdpa dev config show vdpa0 | grep -q 'mac $mac link down'"
t_check "dev add vdpa1 with mac and mtu" \
	vdpa dev add name vdpa1 mgmtdev "$m0" mac 02:00:00:00:00:42 mtu 9000
t_check "dev config: mac 02:00:00:00:00:42, mtu 9000" \
	sh -c "vdpa dev config show vdpa1 | grep 'mac 02:00:00:00:00:42' | grep -q 'mtu 9000'"
t_check_errno "dev add: a name taken is refused (EEXIST)" "File exists" \
	vdpa dev add name vdpa0 mgmtdev "$m0"
t_log_mark vdpa-mac
t_check_errno "dev add: a multicast MAC is refused (EINVAL)" "Invalid argument" \
	vdpa dev add name vdpa2 mgmtdev "$m0" mac 01:00:00:00:00:01
t_check "the log names the MAC" t_log_has vdpa-mac 'vdpa dev add vdpa2: invalid MAC 01:00:00:00:00:01'
# the mgmtdev's config_attr_mask offers mac and mtu only: the vdpa core refuses the rest
t_check_errno "dev add: max_vqp, not in the shim's attribute mask, is refused (EOPNOTSUPP)" \
	"Operation not supported" vdpa dev add name vdpa2 mgmtdev "$m0" max_vqp 2
t_check "refused adds left nothing" test ! -e $VB/vdpa2
t_check "dev del vdpa0" vdpa dev del vdpa0
t_check "vdpa0 gone" t_wait_gone $VB/vdpa0
t_check "dev show no longer lists it" sh -c "! vdpa dev show | grep -q '^vdpa0:'"
t_check "vdpa1 stays" test -e $VB/vdpa1

# the vnet device goes with a device of its mgmtdev still there: it goes too
t_check "unbind $v0 (vdpa1 on it)" ctl "/sys/bus/$AUXBUS_BUS/drivers/mlx5_shim_vdpa/unbind" "$v0"
t_check "vdpa1 gone with its mgmtdev" t_wait_gone $VB/vdpa1
t_check "mgmtdev show no longer lists $m0" sh -c "! vdpa mgmtdev show | grep -q '^$m0:'"
t_check "bind $v0" ctl "/sys/bus/$AUXBUS_BUS/drivers/mlx5_shim_vdpa/bind" "$v0"
t_check "dev add vdpa3 again" vdpa dev add name vdpa3 mgmtdev "$m0"
t_check "delete adapter 1 (vdpa3 on it)" timeout 30 sh -c "echo 1 >$MLXBUS/del_device"
t_check "no vdpa device left" sh -c "! ls $VB 2>/dev/null | grep -q ."
t_check "mgmtdev show lists none of ours" sh -c "! vdpa mgmtdev show | grep -q mlx5_shim"
# the client unloaded with vdpa devices on it: a device's release runs the module's code
# (mlx5_shim_vnet_free()) and can come after its unregistration, so module exit waits for
# it. auxbus_test_hold keeps vdpa5's last reference until the case drops it: rmmod must then
# sleep in the module's exit, and finish once the reference goes
t_check "create adapter 2 (ports=1)" ctl $MLXBUS/new_device "2 ports=1"
t_check "dev add vdpa5 to vdpa8 on it" sh -c "for n in 5 6 7 8; do
	vdpa dev add name vdpa\$n mgmtdev $AUXBUS_BUS/$(adev mlx5_shim2p0 vnet) || exit 1; done"
t_check "hold a reference to vdpa5" sh -c "modprobe auxbus_test_hold && echo $VB/vdpa5 >$HOLD/hold"
rmmod mlx5_shim_vdpa &
rmmod_pid=$!
t_check "they went with it" t_wait_cmd 300 sh -c "! ls $VB 2>/dev/null | grep -q ."
t_check "unloading the client waits in its exit for vdpa5's release" \
	t_in_exit mlx5_shim_vdpa $rmmod_pid
t_check "drop the reference" sh -c "echo 1 >$HOLD/drop"
wait $rmmod_pid
t_check "the client unloads once vdpa5 is released" test $? = 0
t_check "the client is gone" t_wait_gone /sys/module/mlx5_shim_vdpa
rmmod auxbus_test_hold
t_check "delete adapter 2" ctl $MLXBUS/del_device 2
t_check "nothing holds vdpa any more" mod_unused vdpa
t_done
