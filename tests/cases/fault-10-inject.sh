#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# Fault injection on every path that allocates or registers. For each operation, N = 1, 2, ...:
# the operation runs with the Nth fault point of its task failing (/proc/thread-self/fail-nth
# with failslab, tests/tools/fail-nth.c), until it passes fewer than N points. After every
# injected failure the operation reports an errno and nothing of it is left (modules, bus
# devices and drivers, bindings, netdevs, sound cards, control files); where the fault was
# absorbed and it succeeded, undoing it must leave the same. The walk ends with the operation
# succeeding, and kmemleak finds nothing at the end. Operations: loading each module (module
# init: the bus's register, the shims' drivers, the clients' driver register and probe),
# new_device of both shims (device add, client probes), a client bind through sysfs (probe
# alone), SF add, auxiliary_device_create (the test parent's create=1); and with fail_function
# the bundle's own non-allocation failure points (ALLOW_ERROR_INJECTION).
# Every fault point is walked, but in the walks that create a whole device or netdev (new_device
# of both shims, with and without clients, SF add, the mlx5 eth bind: 250-1,200 points each,
# 0.1-0.9 s a point on the debug kernel) only every STRIDE-th one (1, 1+S, 1+2S, ...;
# STRIDE=8), so that the case fits the matrix; STRIDE=1 below walks them all (measured: SOF new_device 0 248 points in 216 s,
# with clients bound 316 in 276 s, mlx5 new_device 486 in 291 s, mlx5 eth bind 294 in 215 s).
# kernels: debug
# kmods: snd-compress snd-soc-core
# fault-reports: yes
# timeout: 900
. /tests/lib/ktap.sh

FS=/sys/kernel/debug/failslab
FF=/sys/kernel/debug/fail_function
EXTRA=/lib/modules/$(uname -r)/extra
AB=/sys/bus/$AUXBUS_BUS
MLX=/sys/kernel/debug/mlx5_shim
MLXBUS=/sys/bus/mlx5_shim
SOF=/sys/bus/platform/drivers/snd_sof_shim
MAXN=3000
ALL="mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core
	snd_sof_shim_probes snd_sof_shim_ipc_flood snd_sof_shim auxbus_test_client auxbus_test_parent auxbus"

cleanup() {
	[ -w $FS/ignore-gfp-wait ] && echo Y >$FS/ignore-gfp-wait
	[ -w /sys/module/kernel/parameters/initcall_debug ] &&
		echo 0 >/sys/module/kernel/parameters/initcall_debug
	[ -w $FF/inject ] && echo >$FF/inject 2>/dev/null
	echo 1 >$MLXBUS/del_device 2>/dev/null
	echo 0 >$SOF/del_device 2>/dev/null
	for m in $ALL; do rmmod "$m" 2>/dev/null; done
}
trap cleanup EXIT

[ -e /proc/thread-self/fail-nth ] || t_skip_case "no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)"
[ -w $FS/ignore-gfp-wait ] || t_skip_case "no failslab in debugfs"
# Sleeping allocations count too; no report per injected fault (its dump_stack would be flagged)
echo N >$FS/ignore-gfp-wait
echo 0 >$FS/verbose

# fail_function: the bundle's own failure points that are not allocations
# (ALLOW_ERROR_INJECTION), armed where their module is loaded. They fail only as the Nth
# fault point of fail-nth (probability 0), with -EIO.
FUNCS="auxbus___auxiliary_device_add auxbus___auxiliary_driver_register
	sof_shim_fw_boot sof_shim_ipc_tx_message sof_shim_client_dev_register
	mlx5_shim_wire_attach mlx5_shim_register_notifier mlx5_shim_client_probe"
ARMED=""
ff_arm() {
	[ -w $FF/inject ] || return 0
	echo >$FF/inject
	ARMED=""
	for _f in $FUNCS; do
		grep -q " $_f\b" /proc/kallsyms || continue
		echo "$_f" >$FF/inject || return 1
		echo 0xfffffffffffffffb >"$FF/$_f/retval" || return 1
		ARMED="$ARMED $_f"
	done
}
[ -w $FF/inject ] && echo 0 >$FF/verbose

# snap: what an operation can leave behind
snap() {
	cut -d' ' -f1 /proc/modules | sort
	for _d in "$AB"/devices/*; do
		[ -e "$_d" ] || continue
		_drv=$(readlink "$_d/driver" 2>/dev/null)
		echo "adev ${_d##*/} ${_drv##*/}"
	done
	ls "$AB/drivers" /sys/class/net /sys/class/sound /sys/bus/mlx5_shim/devices 2>/dev/null
	ls /sys/devices /sys/bus/platform/devices | grep -e shim -e auxbus
	find $MLX /sys/kernel/debug/snd_sof_shim 2>/dev/null
}

# walk DESC UNDO CMD...: walk the Nth fault of fail-nth N CMD... (insmod FILE [PARAMS] or
# write FILE STRING) from N = $START (default 1); UNDO is a shell command that reverts a
# successful run.
WALKS=0
FAULTS=0
START=1
STEP=1
STRIDE=8
walk() {
	_desc=$1 _undo=$2
	shift 2
	snap >/tmp/fault.before
	_before=$(cat /tmp/fault.before)
	ff_arm || { t_fail "$_desc: arm fail_function ($FUNCS)"; return 1; }
	_armed=$ARMED
	read -r _t0 _r </proc/uptime
	_n=$START _err="" _absorbed=0 _errnos="" _failed=0 _step=$STEP
	START=1
	STEP=1
	while :; do
		_r=$(fail-nth $_n "$@" 2>&1) || { _err="N=$_n: $_r"; break; }
		_inj=${_r#injected=} _inj=${_inj%% *}
		_rc=${_r#*rc=} _rc=${_rc%% *}
		if [ "$_inj" = 0 ]; then
			[ "$_rc" = 0 ] || _err="N=$_n: fails without a fault: $_r"
			break
		elif [ "$_rc" = 0 ]; then
			_absorbed=$((_absorbed + 1))
			if ! _o=$(eval "$_undo" 2>&1); then
				_err="N=$_n: absorbed, then undo failed: $_o"
				break
			fi
		else
			case $_rc in
			E5??) _err="N=$_n: a kernel-internal errno reached user space: $_r"; break ;;
			esac
			_failed=$((_failed + 1))
			case " $_errnos " in *" $_rc "*) ;; *) _errnos="$_errnos $_rc" ;; esac
		fi
		_now=$(snap)
		if [ "$_now" != "$_before" ]; then
			echo "$_now" >/tmp/fault.now
			_err="N=$_n ($_r): left behind: $(grep -vxFf /tmp/fault.before /tmp/fault.now | tr '\n' ' ')"
			_err="$_err; gone: $(grep -vxFf /tmp/fault.now /tmp/fault.before | tr '\n' ' ')"
			break
		fi
		_n=$((_n + _step))
		[ $_n -gt $MAXN ] && { _err="still failing after $MAXN faults"; break; }
	done
	[ -w $FF/inject ] && echo >$FF/inject
	read -r _t1 _r </proc/uptime
	_k=$((_failed + _absorbed))
	_every=""
	[ "$_step" -gt 1 ] && _every=" every ${_step}th"
	echo "# $_desc: faults $_w0..$((_n - _step))$_every, $_k injected in $(awk "BEGIN { printf \"%.1f\", $_t1 - $_t0 }") s"
	WALKS=$((WALKS + 1))
	FAULTS=$((FAULTS + _k))
	if [ -n "$_err" ]; then
		t_fail "$_desc: fault walk" "$_err"
		eval "$_undo" >/dev/null 2>&1
		return 1
	fi
	t_ok "$_desc: $_k faults, $_failed failed cleanly (${_errnos# }), $_absorbed absorbed; then it succeeds${_armed:+; fail_function:$_armed}"
	eval "$_undo" >/dev/null 2>&1
	[ "$(snap)" = "$_before" ] || t_fail "$_desc: undo after the walk leaves the state as before"
}

# init_start MOD PARAMS: the first fault point of loading MOD that is in its init, in $START.
# Before it, the points are the kernel's own module loader (reading the file, layout,
# sysfs, symbols), whose failures never reach the module's code: a binary search over N on
# whether the init was called (initcall_debug: "calling  <init> [MOD]" in the log) skips them.
init_start() {
	_r=$(fail-nth 100000 insmod "$EXTRA/$1.ko" "$2")
	rmmod "$1" 2>/dev/null
	_left=${_r#*left=}
	_lo=1 _hi=$((100000 - _left))
	while [ $_lo -lt $_hi ]; do
		_mid=$(((_lo + _hi) / 2))
		echo "fault-10: probe $1 $_mid" >/dev/kmsg
		_r=$(fail-nth $_mid insmod "$EXTRA/$1.ko" "$2")
		case $_r in *" rc=0 "*) rmmod "$1" ;; esac
		if dmesg | sed -n "/fault-10: probe $1 $_mid\$/,\$p" | grep -q "calling .*\[$1\]"; then
			_hi=$_mid
		else
			_lo=$((_mid + 1))
		fi
	done
	START=$_lo
}

# insmod_walk MOD [PARAMS]: module init of MOD, its dependencies loaded first
insmod_walk() {
	for _dep in $(modinfo -F depends "$EXTRA/$1.ko" | tr , ' '); do
		modprobe "$_dep" || { t_fail "load $1: its dependency $_dep loads"; return 1; }
	done
	init_start "$1" "${2:-}"
	_w0=$START
	walk "load $1${2:+ $2}" "rmmod $1" insmod "$EXTRA/$1.ko" "${2:-}"
	_w0=1
}
_w0=1
INITCALL=/sys/module/kernel/parameters/initcall_debug
[ -w $INITCALL ] || t_skip_case "no $INITCALL"
echo 1 >$INITCALL

t_check "modprobe auxbus" modprobe auxbus
rmmod auxbus
insmod_walk auxbus
modprobe auxbus

# The bus core: auxiliary_device_create() and a client's driver register and probe
insmod_walk auxbus_test_parent "create=1 ndev=2"
insmod_walk auxbus_test_parent "ndev=2"
modprobe auxbus_test_parent ndev=2
insmod_walk auxbus_test_client
modprobe auxbus_test_client
CDRV=$AB/drivers/auxbus_test_client.client
echo auxbus_test_parent.client.0 >$CDRV/unbind
walk "bind auxbus_test_client through sysfs" "echo auxbus_test_parent.client.0 >$CDRV/unbind" \
	write $CDRV/bind auxbus_test_parent.client.0
rmmod auxbus_test_client auxbus_test_parent

# SOF: the shim's init, new_device (the DSP, its clients' devices), each client's init and probe
insmod_walk snd_sof_shim
modprobe snd_sof_shim
STEP=$STRIDE
walk "SOF new_device 0" "echo 0 >$SOF/del_device" write $SOF/new_device "0 clients=ipc_flood:2,probes"
echo "0 clients=ipc_flood:2,probes" >$SOF/new_device
insmod_walk snd_sof_shim_ipc_flood
modprobe snd_sof_shim_ipc_flood
insmod_walk snd_sof_shim_probes
modprobe snd_sof_shim_probes
STEP=$STRIDE
walk "SOF new_device 1 with clients bound" "echo 1 >$SOF/del_device" \
	write $SOF/new_device "1 clients=ipc_flood:1,probes"
FLOOD=$(ls -d "$AB"/devices/snd_sof_shim.ipc_flood.* | head -n 1)
FDRV=$(readlink "$FLOOD/driver")
FLOOD=${FLOOD##*/}
echo "$FLOOD" >"$AB/drivers/${FDRV##*/}/unbind"
walk "bind $FLOOD through sysfs" "echo $FLOOD >$AB/drivers/${FDRV##*/}/unbind" \
	write "$AB/drivers/${FDRV##*/}/bind" "$FLOOD"
echo 0 >$SOF/del_device
rmmod snd_sof_shim_probes snd_sof_shim_ipc_flood snd_sof_shim

# mlx5: the core's init, new_device, SF add, each client's init and probe on a live adapter
insmod_walk mlx5_shim_core
modprobe mlx5_shim_core
STEP=$STRIDE
walk "mlx5 new_device 1 ports=2" "echo 1 >$MLXBUS/del_device" write $MLXBUS/new_device "1 ports=2"
echo "1 ports=2" >$MLXBUS/new_device
echo 5 >$MLX/mlx5_shim1p0/sf_add
for m in mlx5_shim_eth mlx5_shim_rdma mlx5_shim_vdpa mlx5_shim_sf; do
	insmod_walk $m
	modprobe $m
done
STEP=$STRIDE
walk "mlx5 new_device 2 ports=2 with clients bound" "echo 2 >$MLXBUS/del_device" \
	write $MLXBUS/new_device "2 ports=2"
STEP=$STRIDE
walk "mlx5 SF add" "echo 9 >$MLX/mlx5_shim1p1/sf_del" write $MLX/mlx5_shim1p1/sf_add 9
ETH=$(ls -d "$AB"/devices/mlx5_shim_core.eth.* | head -n 1)
EDRV=$(readlink "$ETH/driver")
ETH=${ETH##*/}
echo "$ETH" >"$AB/drivers/${EDRV##*/}/unbind"
STEP=$STRIDE
walk "bind $ETH through sysfs" "echo $ETH >$AB/drivers/${EDRV##*/}/unbind" \
	write "$AB/drivers/${EDRV##*/}/bind" "$ETH"
echo 1 >$MLXBUS/del_device
for m in mlx5_shim_sf mlx5_shim_vdpa mlx5_shim_rdma mlx5_shim_eth mlx5_shim_core auxbus; do
	rmmod $m
done

echo "# fault-10: $WALKS walks, $FAULTS faults injected"
echo 0 >$INITCALL
echo 'Y' >$FS/ignore-gfp-wait

# kmemleak: objects unreferenced for 5 s are reported
if [ -w /sys/kernel/debug/kmemleak ]; then
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(cat /sys/kernel/debug/kmemleak)
	t_eq "kmemleak: nothing leaked by any injected fault" "" "$(echo "$leaks" | head -n 40)"
fi
t_done
