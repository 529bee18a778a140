# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# SOF shim: DSP creation and deletion with each firmware variant, client naming and binding,
# bad control-file input, module unload while in use.
# kmods: snd-compress
. /tests/lib/ktap.sh
. /tests/cases/sof-common.inc
trap sof_cleanup EXIT

t_check "load snd_sof_shim and the flood client" sof_load snd_sof_shim_ipc_flood
t_check "control files exist" test -f $SOF_DRV/new_device -a -f $SOF_DRV/del_device

# default firmware: ipc_flood:2,probes
t_check "new_device 0 (default firmware)" sof_new 0
t_check "DSP device snd_sof_shim.0 bound" test -e $SOF_PDEV/snd_sof_shim.0/driver
t_eq "firmware clients" "ipc_flood:2,probes:1,msg_injector:0,kernel_injector:0" "$(cat $SOF_PDEV/snd_sof_shim.0/clients)"
# D3 loses the firmware: the idle DSP may be runtime-suspended already; in D0 it runs
t_check "DSP kept in D0" sof_dsp_on 0
t_eq "firmware state" "boot_complete" "$(cat $SOF_PDEV/snd_sof_shim.0/fw_state)"
t_check "snd_sof_shim.ipc_flood.0 exists" test -d $SOF_BUS/snd_sof_shim.ipc_flood.0
t_check "snd_sof_shim.ipc_flood.1 exists" test -d $SOF_BUS/snd_sof_shim.ipc_flood.1
t_check "snd_sof_shim.hda-probes.0 exists" test -d $SOF_BUS/snd_sof_shim.hda-probes.0
t_eq "flood client bound to snd_sof_shim_ipc_flood" "snd_sof_shim_ipc_flood" \
	"$(basename "$(readlink $SOF_BUS/snd_sof_shim.ipc_flood.0/driver)")"
t_eq "client's parent is the DSP" "snd_sof_shim.0" \
	"$(basename "$(dirname "$(readlink -f $SOF_BUS/snd_sof_shim.ipc_flood.0)")")"
t_eq "uevent MODALIAS" "MODALIAS=${AUXBUS_PREFIX}snd_sof_shim.ipc_flood" \
	"$(grep '^MODALIAS=' $SOF_BUS/snd_sof_shim.ipc_flood.0/uevent)"
t_check "flood debugfs files" test -f "$(sof_flood_dir 0 0)/ipc_flood_count" \
	-a -f "$(sof_flood_dir 0 1)/ipc_flood_duration_ms"

# other firmware images
t_check "new_device 1 clients=ipc_flood:3" sof_new 1 clients=ipc_flood:3
t_check "ipc_flood.2..4 belong to DSP 1" test -d $SOF_PDEV/snd_sof_shim.1/snd_sof_shim.ipc_flood.4
# the compat symlinks of each DSP lead to its own first flood client, whatever its id
for f in ipc_flood_count ipc_flood_duration_ms; do
	t_eq "DSP 0's $f links to its first flood client" "snd_sof_shim.ipc_flood.0/$f" \
		"$(readlink $SOF_DBG/snd_sof_shim.0/$f)"
	t_eq "DSP 1's $f links to its first flood client" "snd_sof_shim.ipc_flood.2/$f" \
		"$(readlink $SOF_DBG/snd_sof_shim.1/$f)"
done
t_check "DSP 1's ipc_flood_count symlink resolves" test -f $SOF_DBG/snd_sof_shim.1/ipc_flood_count
t_check "no probes client on DSP 1" sh -c "! ls -d $SOF_PDEV/snd_sof_shim.1/snd_sof_shim.hda-probes.* 2>/dev/null"
t_check "new_device 2 clients=none ipc_delay_us=50" sof_new 2 clients=none ipc_delay_us=50
t_eq "no clients on DSP 2" "ipc_flood:0,probes:0,msg_injector:0,kernel_injector:0" "$(cat $SOF_PDEV/snd_sof_shim.2/clients)"
t_eq "ipc delay of DSP 2" "50" "$(cat $SOF_PDEV/snd_sof_shim.2/ipc_delay_us)"
t_check "new_device 3 clients=probes" sof_new 3 clients=probes
t_check "hda-probes.1 belongs to DSP 3" test -d $SOF_PDEV/snd_sof_shim.3/snd_sof_shim.hda-probes.1
t_eq "five flood clients in all" 5 "$(ls -d $SOF_BUS/snd_sof_shim.ipc_flood.* | wc -l)"

# bad input: nothing created
sof_write_fails "duplicate id" $SOF_DRV/new_device "0" "exists"
sof_write_fails "unknown client" $SOF_DRV/new_device "7 clients=foo" "Invalid argument"
sof_write_fails "too many clients" $SOF_DRV/new_device "7 clients=ipc_flood:9" "Invalid argument"
sof_write_fails "two probes clients" $SOF_DRV/new_device "7 clients=probes:2" "Invalid argument"
sof_write_fails "negative id" $SOF_DRV/new_device "-1" "Invalid argument"
sof_write_fails "id too large" $SOF_DRV/new_device "1024" "Invalid argument"
sof_write_fails "unknown option" $SOF_DRV/new_device "7 foo=1" "Invalid argument"
sof_write_fails "delay too large" $SOF_DRV/new_device "7 ipc_delay_us=100001" "Invalid argument"
sof_write_fails "blank" $SOF_DRV/new_device " " "Invalid argument"
sof_write_fails "del_device of a missing DSP" $SOF_DRV/del_device "7" "No such file"
t_check "DSP 7 was not created" test ! -e $SOF_PDEV/snd_sof_shim.7

# in-use unload fails cleanly
t_check_errno "parent cannot be unloaded under its clients" "Resource temporarily unavailable" rmmod snd_sof_shim
t_check "flood client unloads with devices present" rmmod snd_sof_shim_ipc_flood
t_check "clients stay, unbound" test -d $SOF_BUS/snd_sof_shim.ipc_flood.0 -a ! -e $SOF_BUS/snd_sof_shim.ipc_flood.0/driver
t_check "flood client reloads and rebinds" modprobe snd_sof_shim_ipc_flood
t_check "rebound" test -e $SOF_BUS/snd_sof_shim.ipc_flood.0/driver

# deletion removes the clients first
t_check "del_device 1" sof_del 1
t_check "its clients are gone" test ! -e $SOF_BUS/snd_sof_shim.ipc_flood.2 -a ! -e $SOF_BUS/snd_sof_shim.ipc_flood.4
t_check "unbind DSP 0 removes its clients" sh -c "echo snd_sof_shim.0 >$SOF_DRV/unbind"
t_check "DSP 0's clients are gone" test ! -e $SOF_BUS/snd_sof_shim.ipc_flood.0 -a ! -e $SOF_BUS/snd_sof_shim.hda-probes.0
t_check "rebind DSP 0 recreates them" sh -c "echo snd_sof_shim.0 >$SOF_DRV/bind && test -e $SOF_BUS/snd_sof_shim.ipc_flood.0/driver"
t_check "new_device 1 clients=ipc_flood:1 after DSP 1's deletion" sof_new 1 clients=ipc_flood:1
t_check "the lowest free id is reused: ipc_flood.2 belongs to the new DSP 1" \
	test -d $SOF_PDEV/snd_sof_shim.1/snd_sof_shim.ipc_flood.2
t_eq "the new DSP 1's symlink leads to its flood client" "snd_sof_shim.ipc_flood.2/ipc_flood_count" \
	"$(readlink $SOF_DBG/snd_sof_shim.1/ipc_flood_count)"
t_check "del_device 0" sof_del 0

# del_device and new_device of one id racing: new_device gets EEXIST or EBUSY while the DSP is
# there or being deleted, never a second device of that name (sysfs "duplicate filename")
dups() { dmesg | grep -c "duplicate filename '/devices/platform/snd_sof_shim.9'"; }
dups0=$(dups)
rm -f /tmp/sof-race-new /tmp/sof-race-del
(i=0; while [ $i -lt 200 ]; do
	sof-write $SOF_DRV/new_device "9 clients=none" 2>>/tmp/sof-race-new
	i=$((i + 1))
done) &
racer_new=$!
(i=0; while [ $i -lt 200 ]; do
	sof-write $SOF_DRV/del_device 9 2>>/tmp/sof-race-del
	i=$((i + 1))
done) &
racer_del=$!
wait $racer_new $racer_del
echo "# race: new_device $(grep -c 'exists' /tmp/sof-race-new) EEXIST, $(grep -c 'busy' /tmp/sof-race-new) EBUSY; del_device $(grep -c 'No such file' /tmp/sof-race-del) ENOENT"
t_eq "race: new_device failed only with EEXIST or EBUSY" "" \
	"$(grep -v 'File exists\|resource busy' /tmp/sof-race-new | head -n 3)"
t_eq "race: del_device failed only with ENOENT" "" "$(grep -v 'No such file' /tmp/sof-race-del | head -n 3)"
t_eq "race: no duplicate snd_sof_shim.9 registered" "$dups0" "$(dups)"
if [ -e $SOF_PDEV/snd_sof_shim.9 ]; then
	t_check "race: DSP 9 left is bound" test -e $SOF_PDEV/snd_sof_shim.9/driver
	t_check "race: del_device 9 after the race" sof_del 9
else
	t_skip "race: DSP 9 left is bound" "the last word was del_device"
	t_check "race: new_device 9 after the race" sof_new 9 clients=none
	t_check "race: del_device 9 after the race" sof_del 9
fi
t_check "race: DSP 9 gone" test ! -e $SOF_PDEV/snd_sof_shim.9

# module unload removes the DSPs that are left
t_check "unload the client" rmmod snd_sof_shim_ipc_flood
t_check "unload the parent with DSPs left" rmmod snd_sof_shim
t_check "no DSP left" sh -c "! ls -d $SOF_PDEV/snd_sof_shim.* 2>/dev/null"
t_check "no client device left" sh -c "! ls -d $SOF_BUS/snd_sof_shim.* 2>/dev/null"
t_done
