#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# modprobe autoload by MODALIAS: with only the parent loaded, the client module is found
# through depmod's modules.alias (AUXILIARY_DEVICE_TABLE emits what this kernel and bus
# need) and loaded by a uevent helper that calls modprobe, as udev/mdev would.
. /tests/lib/ktap.sh

BUS=/sys/bus/$AUXBUS_BUS
D0=$BUS/devices/auxbus_test_parent.client.0
ALIAS=${AUXBUS_PREFIX}auxbus_test_parent.client
old_helper=""

cleanup() {
	[ -w /proc/sys/kernel/hotplug ] && echo "$old_helper" >/proc/sys/kernel/hotplug
	modprobe -r auxbus_test_client 2>/dev/null
	modprobe -r auxbus_test_parent 2>/dev/null
	modprobe -r auxbus 2>/dev/null
}
trap cleanup EXIT

t_check "modules.alias has '$ALIAS' for auxbus_test_client" \
	grep -q "^alias $ALIAS auxbus_test_client\$" "/lib/modules/$KVER/modules.alias"
# the coexisting bus's clients never load for the kernel bus's devices of the same name
if [ "$AUXBUS_PREFIX" = auxbus: ]; then
	t_check "and no 'auxiliary:' alias: the kernel bus's devices do not load it" sh -c \
		"! grep -q '^alias auxiliary:auxbus_test_parent.client ' /lib/modules/$KVER/modules.alias"
fi
if [ -w /proc/sys/kernel/hotplug ]; then
	old_helper=$(cat /proc/sys/kernel/hotplug)
	cat >/tmp/auxbus-hotplug <<'EOS'
#!/bin/sh
# uevent helper: load the module for a device's MODALIAS, like udev does
[ "$ACTION" = add ] && [ -n "$MODALIAS" ] && exec /sbin/modprobe -q "$MODALIAS"
exit 0
EOS
	chmod +x /tmp/auxbus-hotplug
	echo /tmp/auxbus-hotplug >/proc/sys/kernel/hotplug
	t_check "modprobe auxbus_test_parent (client not loaded)" modprobe auxbus_test_parent
	t_check "the uevent helper loaded auxbus_test_client" t_wait_for /sys/module/auxbus_test_client 100
	t_check "and it bound the device" t_wait_for "$D0/driver" 50
else
	# No CONFIG_UEVENT_HELPER: do what udev's coldplug does with the uevent file.
	t_skip "uevent helper loads the client" "no /proc/sys/kernel/hotplug (CONFIG_UEVENT_HELPER)"
	t_check "modprobe auxbus_test_parent (client not loaded)" modprobe auxbus_test_parent
	m=$(sed -n 's/^MODALIAS=//p' "$D0/uevent")
	t_check "coldplug: modprobe \$MODALIAS" modprobe "$m"
	t_check "auxbus_test_client is loaded" test -d /sys/module/auxbus_test_client
	t_check "and it bound the device" t_wait_for "$D0/driver" 50
fi
t_done
