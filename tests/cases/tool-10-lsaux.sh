#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# auxbus/lsaux (/usr/sbin/lsaux) on the live bus: the implementation line for this backend, each
# auxiliary device of an SOF DSP, an mlx5 adapter (ports=2) and the test parent under its parent
# with its driver, module and modalias; unbound devices (one unbound by hand, clients whose
# module is not loaded); irqs/ entries (only auxbus_test_client adds any: no shim device calls
# auxiliary_device_sysfs_irq_add); --json names the same devices; after unloading, what is left.
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc
. /tests/cases/sof-common.inc

MODS="mlx5_shim_eth mlx5_shim_rdma mlx5_shim_core"
cleanup() {
	# the control files are gone once the case has unloaded mlx5_shim_core itself
	[ -d $D ] && mlx5_cleanup 1
	modprobe -r auxbus_test_client 2>/dev/null
	modprobe -r auxbus_test_parent 2>/dev/null
	sof_cleanup
}
trap cleanup EXIT

command -v lsaux >/dev/null || t_skip_case "no lsaux in the initramfs (tests/run: make_initramfs)"

# devs FILE: lsaux's tree as "D|bus|parent|device line" and "P|bus|parent line" records
devs() {
	awk '/^bus / { b = $2; next }
	     /^  [^ ]/ { p = $1; print "P|" b "|" substr($0, 3); next }
	     /^    [^ ]/ { print "D|" b "|" p "|" substr($0, 5) }' "$1"
}
# dev NAME: the record of auxiliary device NAME in /tmp/lsaux.txt
dev() { devs /tmp/lsaux.txt | grep "^D|[^|]*|[^|]*|$1  "; }
# par PATH: the record of parent PATH in /tmp/lsaux.txt
par() { devs /tmp/lsaux.txt | grep "^P|[^|]*|$1  "; }
# below PATH: the path of a device below /sys/devices
below() { p=$(readlink -f "$1") && echo "${p#/sys/devices/}"; }

B=$AUXBUS_BUS
A=$AUXBUS_PREFIX
t_check "load snd_sof_shim, snd_sof_shim_ipc_flood" sof_load snd_sof_shim_ipc_flood
t_check "load mlx5_shim_core, eth, rdma" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_rdma
t_check "load auxbus_test_parent, auxbus_test_client" \
	sh -c 'modprobe auxbus_test_parent && modprobe auxbus_test_client'
t_check "SOF DSP 0 (ipc_flood:2, probes)" sof_new 0
t_check "mlx5 adapter 1, ports=2" ctl $MLXBUS/new_device "1 ports=2"
flood=/sys/bus/$B/drivers/snd_sof_shim_ipc_flood
t_check "unbind snd_sof_shim.ipc_flood.1 by sysfs" sh -c "echo snd_sof_shim.ipc_flood.1 >$flood/unbind"

t_check "lsaux exits 0" sh -c 'lsaux >/tmp/lsaux.txt 2>/tmp/lsaux.err'
sed 's/^/# lsaux: /' /tmp/lsaux.txt

ver=$(cat /sys/module/auxbus/version 2>/dev/null)
case $BACKEND/$B in
bundled/auxiliary) want="bundled (auxbus.ko $ver registers bus auxiliary)" ;;
bundled/auxbus) want="coexist (auxbus.ko $ver registers bus auxbus beside the kernel's auxiliary)" ;;
kernel/*)
	if [ -d /sys/module/auxbus ]; then
		want="kernel (the kernel's bus auxiliary; auxbus.ko $ver loaded as compat library)"
	else
		want="kernel (the kernel's bus auxiliary; auxbus.ko not loaded)"
	fi ;;
esac
[ -d /sys/module/auxbus ] && t_check "auxbus.ko has a version ($ver)" sh -c "echo '$ver' | grep -Eq '^[0-9]+\.[0-9]+'"
t_eq "implementation line ($BACKEND, bus $B)" "implementation: $want" "$(head -n 1 /tmp/lsaux.txt)"
if [ "$B" = auxbus ]; then
	t_check "coexist: a heading for each bus" sh -c "grep -qx 'bus auxbus (auxbus.ko):' /tmp/lsaux.txt &&
		grep -qx \"bus auxiliary (the kernel's built-in bus):\" /tmp/lsaux.txt"
elif [ "$BACKEND" = bundled ]; then
	t_check "a heading for the bus" grep -qx 'bus auxiliary (auxbus.ko):' /tmp/lsaux.txt
else
	t_check "a heading for the bus" grep -qx "bus auxiliary (the kernel's built-in bus):" /tmp/lsaux.txt
fi

# SOF: the DSP is a platform device
t_eq "SOF parent" "P|$B|platform/snd_sof_shim.0  driver snd_sof_shim  module snd_sof_shim" \
	"$(par platform/snd_sof_shim.0)"
t_eq "SOF ipc_flood.0" "D|$B|platform/snd_sof_shim.0|snd_sof_shim.ipc_flood.0  driver snd_sof_shim_ipc_flood  module snd_sof_shim_ipc_flood  modalias ${A}snd_sof_shim.ipc_flood" \
	"$(dev snd_sof_shim.ipc_flood.0)"
t_eq "SOF ipc_flood.1 (unbound by sysfs)" "D|$B|platform/snd_sof_shim.0|snd_sof_shim.ipc_flood.1  unbound  modalias ${A}snd_sof_shim.ipc_flood" \
	"$(dev snd_sof_shim.ipc_flood.1)"
t_eq "SOF hda-probes.0 (its client not loaded)" "D|$B|platform/snd_sof_shim.0|snd_sof_shim.hda-probes.0  unbound  modalias ${A}snd_sof_shim.hda-probes" \
	"$(dev snd_sof_shim.hda-probes.0)"

# mlx5: a parent per port, eth and rdma bound, vnet unbound (mlx5_shim_vdpa not loaded)
for port in mlx5_shim1p0 mlx5_shim1p1; do
	pp=$(below $PB/$port)
	t_eq "mlx5 parent $port" "P|$B|$pp  driver mlx5_shim_core  module mlx5_shim_core" "$(par "$pp")"
	for kind in eth rdma; do
		n=$(adev $port $kind)
		t_eq "mlx5 $port $kind ($n)" "D|$B|$pp|$n  driver mlx5_shim_$kind  module mlx5_shim_$kind  modalias ${A}mlx5_shim_core.$kind" \
			"$(dev "$n")"
	done
	n=$(adev $port vnet)
	t_eq "mlx5 $port vnet ($n, unbound)" "D|$B|$pp|$n  unbound  modalias ${A}mlx5_shim_core.vnet" "$(dev "$n")"
done

# the test parent, a root device without a driver; its client adds irqs 100 + id
t_eq "test parent (root device, no driver)" "P|$B|auxbus_test_parent  no driver  module auxbus_test_parent" \
	"$(par auxbus_test_parent)"
for id in 0 1; do
	t_eq "test client.$id with irqs/$((100 + id))" "D|$B|auxbus_test_parent|auxbus_test_parent.client.$id  driver auxbus_test_client.client  module auxbus_test_client  modalias ${A}auxbus_test_parent.client  irqs $((100 + id))" \
		"$(dev auxbus_test_parent.client.$id)"
done
t_check "no irqs on the shims' devices (none adds any)" sh -c "! grep -v '^    auxbus_test_parent' /tmp/lsaux.txt | grep -q '  irqs '"

# every device of the buses, once, in the text and in --json
ls /sys/bus/auxiliary/devices /sys/bus/auxbus/devices 2>/dev/null | grep -v -e '^/' -e '^$' | sort >/tmp/sysfs.names
devs /tmp/lsaux.txt | sed -n 's/^D|[^|]*|[^|]*|\([^ ]*\) .*/\1/p' | sort >/tmp/text.names
t_eq "text: every device of the buses" "$(cat /tmp/sysfs.names | tr '\n' ' ')" "$(cat /tmp/text.names | tr '\n' ' ')"
t_check "lsaux --json exits 0" sh -c 'lsaux --json >/tmp/lsaux.json'
sed 's/^/# lsaux --json: /' /tmp/lsaux.json
sed -n 's/^ *{"name": "\([^"]*\)", "driver".*/\1/p' /tmp/lsaux.json | sort >/tmp/json.names
t_eq "--json: the same devices" "$(cat /tmp/text.names | tr '\n' ' ')" "$(cat /tmp/json.names | tr '\n' ' ')"
t_eq "--json: implementation" "\"implementation\": \"$(head -n 1 /tmp/lsaux.txt | sed 's/^implementation: \([a-z]*\) .*/\1/')\"," \
	"$(sed -n 's/^ *\("implementation".*\)/\1/p' /tmp/lsaux.json)"
t_check "--json: ipc_flood.1 unbound" grep -q '{"name": "snd_sof_shim.ipc_flood.1", "driver": null, "module": null' /tmp/lsaux.json
t_check "--json: client.0's irqs" grep -q '{"name": "auxbus_test_parent.client.0", .*"irqs": \[100\]}' /tmp/lsaux.json
t_check "--json: braces balance" sh -c '[ "$(tr -cd "{" </tmp/lsaux.json | wc -c)" = "$(tr -cd "}" </tmp/lsaux.json | wc -c)" ]'

# everything gone: the kernel's bus alone, or no bus at all
t_check "delete the adapter and the DSP" sh -c "echo 1 >$MLXBUS/del_device && echo 0 >$SOF_DRV/del_device"
for m in mlx5_shim_eth mlx5_shim_rdma mlx5_shim_core auxbus_test_client auxbus_test_parent \
	snd_sof_shim_ipc_flood snd_sof_shim; do
	t_check "unload $m" rmmod $m
done
grep -q "^auxbus " /proc/modules && t_check "unload auxbus" rmmod auxbus
lsaux >/tmp/lsaux.txt 2>/tmp/lsaux.err
rc=$?
if [ -d /sys/bus/auxiliary ]; then
	t_eq "unloaded: the kernel's bus, auxbus.ko not loaded" \
		"0|implementation: kernel (the kernel's bus auxiliary; auxbus.ko not loaded)" "$rc|$(head -n 1 /tmp/lsaux.txt)"
	t_check_fails "unloaded: no device of the bundle left" grep -q '^    \(snd_sof_shim\|mlx5_shim\|auxbus_test\)' /tmp/lsaux.txt
else
	t_eq "unloaded: no bus, exit 1" "1|lsaux: no auxiliary bus in /sys/bus (neither auxiliary nor auxbus)" \
		"$rc|$(cat /tmp/lsaux.err)"
fi
t_done
