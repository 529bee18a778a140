# SPDX-License-Identifier: GPL-2.0-only
# The Debian system test (sourced by tests/run; bash): what a user of a Debian suite does with the
# packages of `make deb`, on a real system booted under QEMU with systemd as PID 1.
#
#   system_test SUITE KEY KNAME
#
# 1. `make deb` once per harness run (with_lock deb), into $RUN/debs.
# 2. A root file system of SUITE (debootstrap minbase, systemd, udev, kmod, dkms, make, gcc, the
#    suite's default kernel image and headers; the rt-amd64 flavour's image and headers fetched,
#    not installed), cached in $AUXBUS_CACHE/system/SUITE/base, keyed by the resolved kernel ABIs.
#    Per run a copy of it ($AUXBUS_CACHE/system/SUITE/run) gets the fresh packages.
# 3. In that copy (chroot): `apt-get install ./auxbus-dkms_*.deb ./auxbus-porters-dkms_*.deb`;
#    dh_dkms's postinst builds both for the kernel (the porters after auxbus: BUILD_DEPENDS).
#    The checks of tests/run's dkms_test: every dkms.conf module in updates/dkms, the files for
#    third-party modules in /usr/src/auxbus-dev/ABI, the porters' modules; `dkms status`. Where
#    DKMS is 3.x (bookworm, trixie) it signs the modules with its MOK (framework.conf): checked.
# 4. Kernel upgrade: the rt-amd64 kernel image and headers installed in the chroot; the kernel's
#    postinst hooks (/etc/kernel/{postinst,header_postinst}.d/dkms) autoinstall both packages.
#    Not the cloud-amd64 flavour: it has no sound (CONFIG_SND), so the package builds no SOF
#    shim there and the second boot could not check the SOF clients' coldplug.
# 5. A disk image of it (mkfs.ext4 -d, no mounts), booted twice under QEMU (TCG, one vCPU): the
#    default kernel, then the upgraded one, each from its uncompressed vmlinux with a busybox
#    initramfs that loads virtio_blk and ext4 from that kernel's tree and switch_roots to systemd.
#    In the guest (tests/system/): coldplug (parents created before udev, clients loaded by
#    udev's coldplug), hotplug (a parent created after boot, clients loaded by udev), modules
#    from updates/dkms, lsaux. KTAP on the second serial port; the console must be clean.
# 6. `apt-get purge` of both packages in the chroot: no module, source, symvers or DKMS entry left.

SYSTEM_BOOT_TIMEOUT=${SYSTEM_BOOT_TIMEOUT:-300}

system_dir() { echo "$AUXBUS_CACHE/system/$1"; }

# Packages of a suite's system root besides the kernels (trixie's headers build BTF: dwarves;
# DKMS 3 signs modules with openssl's key).
system_pkgs() {
	local p="systemd,udev,kmod,dkms,make,gcc,libc6-dev,ccache,xz-utils,zstd"
	case $1 in
	bookworm) p="$p,openssl" ;;
	trixie) p="$p,openssl,dwarves" ;;
	esac
	echo "$p"
}

# system_debs: the packages of this tree, built once per harness run in $RUN/debs. Prints
# "built" (this call built them), "ok" (another chain did) or "fail".
system_debs() { with_lock deb system_debs_locked; }
system_debs_locked() {
	local out=$RUN/debs
	if [ -f "$out/.status" ]; then
		[ "$(cat "$out/.status")" = 0 ] && echo ok || echo fail
		return
	fi
	mkdir -p "$out"
	make -C "$TOP" deb DEB_OUT="$out" DEB_LINTIAN=0 >"$RUN/make-deb.log" 2>&1 && system_lintian "$out"
	echo $? >"$out/.status"
	[ "$(cat "$out/.status")" = 0 ] && echo built || echo fail
}
# system_lintian DIR: lintian --pedantic on the packages in DIR must print nothing (its report in
# DIR/lintian.txt). It costs 30 to 100 s here: a pass is kept for the same two .debs (the builds
# are reproducible: dates from the changelog, written from the last commit's).
system_lintian() {
	local out=$1 key cached
	key=$(cat "$out"/*.deb | sha256sum | cut -c1-16)
	cached=$AUXBUS_CACHE/lintian/$key.txt
	if [ -f "$cached" ]; then
		{ echo "# lintian passed before on these packages ($key)"; cat "$cached"; } >"$out/lintian.txt"
		return 0
	fi
	lintian --display-info --pedantic "$out"/*.changes >"$out/lintian.txt" 2>&1 || return 1
	grep -qE '^[EWIPX]: ' "$out/lintian.txt" && return 1
	mkdir -p "$AUXBUS_CACHE/lintian"
	cp "$out/lintian.txt" "$cached"
}

# A package that provides linux-initramfs-tool, so that the kernel images install without
# initramfs-tools (the boot uses an initramfs of its own; update-initramfs costs a minute).
system_noinitrd_deb() {
	local d=$1/noinitrd
	rm -rf "$d"
	mkdir -p "$d/DEBIAN"
	cat >"$d/DEBIAN/control" <<-EOF
		Package: test-no-initramfs
		Version: 1
		Architecture: all
		Maintainer: auxbus test harness <root@localhost>
		Provides: linux-initramfs-tool
		Description: stands in for initramfs-tools in the auxbus system test
		 The test boots with an initramfs of its own.
	EOF
	dpkg-deb -b "$d" "$1/noinitrd.deb" >/dev/null
}

# system_base SUITE ABI RTABI: the cached root file system (caller holds system-SUITE's lock).
system_base() {
	local suite=$1 abi=$2 rtabi=$3 sdir base key mirror
	sdir=$(system_dir "$suite")
	base=$sdir/base
	key="$suite $abi $rtabi $(system_pkgs "$suite") v1"
	[ "$(cat "$base/.auxbus-key" 2>/dev/null)" = "$key" ] && return 0
	log "$suite: system root file system (debootstrap, kernels; once, cached in $base)"
	rm -rf "$base"
	mkdir -p "$sdir"
	mirror=$(debian_mirror)
	debootstrap --variant=minbase --include="$(system_pkgs "$suite")" "$suite" "$base" "$mirror" \
		>"$sdir/debootstrap.log" 2>&1 || { log "debootstrap failed: see $sdir/debootstrap.log"; return 1; }
	printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
		>"$base/etc/apt/apt.conf.d/99auxbus"
	chroot_sources "$suite" >"$base/etc/apt/sources.list"
	system_noinitrd_deb "$base/tmp"
	{
		in_chroot "$base" -- apt-get update -qq &&
			in_chroot "$base" -- dpkg -i /tmp/noinitrd.deb &&
			in_chroot "$base" -- apt-get install -y -qq "linux-image-$abi" "linux-headers-$abi" &&
			in_chroot "$base" -- apt-get clean &&
			in_chroot "$base" -- systemd-machine-id-setup
	} >"$sdir/base.log" 2>&1 || { log "$suite system root: apt failed: see $sdir/base.log"; return 1; }
	# The kernel the run installs as the upgrade, fetched now: rt-amd64 of the same ABI, else
	# the suite's own release's rt-amd64 (bullseye-security lists 5.10.0-46-rt-amd64, but its
	# pool had no such image here: 404).
	if ! system_fetch_upgrade "$base" "$rtabi" >>"$sdir/base.log" 2>&1; then
		rtabi=$(in_chroot "$base" -- sh -c "apt-cache depends linux-image-rt-amd64=\$(apt-cache madison \
			linux-image-rt-amd64 | awk -F' *[|] *' '\$3 ~ / $suite\\/main / { print \$2; exit }')" |
			awk '/Depends: linux-image-[0-9]/ { sub("linux-image-", "", $2); print $2; exit }')
		in_chroot "$base" -- apt-get clean
		[ -n "$rtabi" ] && system_fetch_upgrade "$base" "$rtabi" >>"$sdir/base.log" 2>&1 ||
			{ log "$suite system root: no rt-amd64 kernel to upgrade to: see $sdir/base.log"; return 1; }
	fi
	echo "$rtabi" >"$base/.auxbus-upgrade"
	rm -rf "$base/tmp/noinitrd" "$base/tmp/noinitrd.deb"
	system_base_sum "$base" >"$base/.auxbus-sum"
	echo "$key" >"$base/.auxbus-key"
}

system_fetch_upgrade() { # ROOT ABI: download the image and headers of kernel ABI, not install
	in_chroot "$1" -- apt-get install -y -qq --download-only "linux-image-$2" "linux-headers-$2"
}

# What a run must not change in the base it links to (system_test_locked checks it).
system_base_sum() {
	cat "$1/var/lib/dpkg/status" "$1/etc/dkms/framework.conf" "$1"/lib/modules/*/modules.dep 2>/dev/null |
		sha256sum | cut -c1-16
}

# system_guest_setup ROOT: the test's units and scripts, and nothing slow that the test does not
# need (systemd boots auxbus-test.target, so only sysinit's units run; these are masked anyway).
system_guest_setup() {
	local root=$1 u
	install -d "$root/usr/lib/auxbus-test"
	install -m 755 "$TOP/tests/system/guest" "$TOP/tests/system/auxbus-coldplug" "$root/usr/lib/auxbus-test/"
	install -m 644 "$TOP"/tests/system/auxbus-*.service "$TOP/tests/system/auxbus-test.target" \
		"$root/etc/systemd/system/"
	for u in serial-getty@ttyS0.service getty@tty1.service getty.target systemd-timesyncd.service \
		apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer fstrim.timer \
		dpkg-db-backup.timer systemd-tmpfiles-clean.timer systemd-hwdb-update.service \
		ldconfig.service systemd-journal-catalog-update.service systemd-update-done.service \
		systemd-firstboot.service dkms.service systemd-networkd.service networking.service \
		systemd-journal-flush.service systemd-update-utmp.service; do
		ln -sfn /dev/null "$root/etc/systemd/system/$u"
	done
}

# system_initramfs ROOT ABI OUT: busybox, the modules that reach the root file system (from
# ROOT's tree of kernel ABI, uncompressed, with their dependencies) and tests/system/initramfs-init.
system_initramfs() {
	local root=$1 abi=$2 out=$3 ird moddir m
	[ -s "$out" ] && [ "$out" -nt "$TOP/tests/system/initramfs-init" ] &&
		[ "$out" -nt "$root/boot/vmlinuz-$abi" ] && return 0
	ird=$out.d
	rm -rf "$ird"
	mkdir -p "$ird"/{bin,sbin,etc,proc,sys,dev,newroot,lib/modules/"$abi"}
	cp /bin/busybox "$ird/bin/busybox"
	for m in $(/bin/busybox --list); do
		[ "$m" = busybox ] || ln -sf busybox "$ird/bin/$m"
	done
	install -m 755 "$TOP/tests/system/initramfs-init" "$ird/init"
	moddir=$root/lib/modules/$abi
	: >"$ird/etc/modules-initramfs"
	for m in virtio_pci virtio_blk crc32c_generic crc32c_intel ext4; do
		# built in, or absent in this kernel: nothing to load
		ABI=$abi copy_kmod "$moddir" "$ird" "$m" 2>/dev/null && echo "$m" >>"$ird/etc/modules-initramfs"
	done
	for m in modules.builtin modules.builtin.modinfo modules.order; do
		[ -f "$moddir/$m" ] && cp "$moddir/$m" "$ird/lib/modules/$abi/"
	done
	depmod -b "$ird" "$abi" || return 1
	(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$ird"
}

# system_boot DIR VMLINUX INITRD IMG: one boot; console.log and results.ktap in DIR.
system_boot() {
	local dir=$1 vmlinux=$2 initrd=$3 img=$4 cmdline slot_fd
	mkdir -p "$dir"
	rm -f "$dir/console.log" "$dir/results.ktap"
	cmdline="console=ttyS0 panic=-1 panic_on_warn=1 oops=panic softlockup_panic=1 hung_task_panic=1"
	# as the matrix's boots (tests/run): slab debugging, and RCU's stall detector at 60 s, since
	# a TCG vCPU starved by the other chains' guests stops for seconds
	cmdline="$cmdline slub_debug=FZPU rcupdate.rcu_cpu_stall_timeout=60"
	cmdline="$cmdline rdinit=/init systemd.unit=auxbus-test.target systemd.show_status=1"
	# one of the guest slots the matrix's boots share (tests/lib/boot.sh)
	guest_slot slot_fd
	timeout "$SYSTEM_BOOT_TIMEOUT" qemu-system-x86_64 -accel "${QEMU_ACCEL:-tcg}" -cpu max -m 1024 -smp 1 \
		-nodefaults -no-reboot -display none -monitor none -kernel "$vmlinux" -initrd "$initrd" \
		-append "$cmdline" -drive "file=$img,format=raw,if=virtio,cache=unsafe" \
		-serial "file:$dir/console.log" -serial "file:$dir/results.ktap" -nic none \
		</dev/null >"$dir/qemu.log" 2>&1
	echo $? >"$dir/qemu.status"
	exec {slot_fd}>&-
}

# system_report KEY KNAME WHAT DIR: the guest's KTAP lines as results, then the boot's own
# checks (boot_verdict, as the matrix's boots).
system_report() {
	local key=$1 kname=$2 what=$3 dir=$4 line name comment
	tr -d '\r' <"$dir/results.ktap" >"$dir/results.clean" 2>/dev/null || : >"$dir/results.clean"
	tr -d '\r' <"$dir/console.log" >"$dir/console.clean" 2>/dev/null || : >"$dir/console.clean"
	grep '^# ' "$dir/results.clean" | grep -v '^# guest-done' | sed "s/^# /# $kname: system: $what: /"
	while IFS= read -r line; do
		name=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ //; s/ # .*//')
		comment=""
		case $line in *' # '*) comment=${line#* # } ;; esac
		case $line in
		ok*'# SKIP'*) result "$key" skip "$kname: system: $what: $name" "${comment#SKIP }" ;;
		ok*) result "$key" ok "$kname: system: $what: $name" "$comment" ;;
		*) result "$key" fail "$kname: system: $what: $name" "$comment" ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ ' "$dir/results.clean")
	boot_verdict "$key" "$kname: system: $what:" "" "$dir"
}

# system_modules_missing ROOT ABI CONF: how many modules CONF (a dkms.conf) lists for kernel
# ABI, then those not in ROOT's updates/dkms (none: all there). The bundle's dkms.conf reads the kernel's
# .config, as DKMS runs it.
system_modules_missing() {
	local root=$1 abi=$2 conf=$3 ksrc mods m missing=""
	ksrc=$(in_chroot "$root" -- readlink -f "/lib/modules/$abi/build")
	mods=$(kernelver=$abi kernel_source_dir=$root$ksrc dkms_tree=/var/lib/dkms bash -c \
		'. "$1" && echo "${BUILT_MODULE_NAME[@]}"' sh "$conf")
	for m in $mods; do
		ls "$root"/lib/modules/"$abi"/updates/dkms/"$m".ko* >/dev/null 2>&1 ||
			ls "$root"/usr/lib/modules/"$abi"/updates/dkms/"$m".ko* >/dev/null 2>&1 ||
			missing="$missing $m"
	done
	echo "$(echo $mods | wc -w)$missing"
}

# system_dkms_checks KEY KNAME WHAT ROOT ABI LOG: dkms_test's checks after a packaged install
system_dkms_checks() {
	local key=$1 kname=$2 what=$3 root=$4 abi=$5 logf=$6 missing st n re
	st=$(in_chroot "$root" -- dkms status 2>&1)
	printf '%s\n' "$st" | sed "s/^/# $kname: system: $what: dkms status: /"
	re=$(printf '%s' "$abi" | sed 's/[.+]/\\&/g')
	for p in auxbus auxbus-porters; do
		# "auxbus, 0.1.0, ABI, x86_64: installed" (DKMS 2.8), "auxbus/0.1.0, ABI, ..." (3.x)
		if printf '%s\n' "$st" | grep -Eq "^$p[/,] ?[^,]*, $re, x86_64: installed"; then
			result "$key" ok "$kname: system: $what: dkms status: $p installed for $abi"
		else
			result "$key" fail "$kname: system: $what: dkms status: $p installed for $abi" \
				"$(printf '%s' "$st" | grep "^$p[/,]" | tr '\n' ';'); see $logf"
		fi
	done
	read -r n missing < <(system_modules_missing "$root" "$abi" "$root/usr/src/auxbus-$VERSION_BUNDLE/dkms.conf")
	if [ -n "$missing" ]; then
		result "$key" fail "$kname: system: $what: auxbus modules in updates/dkms" "missing: $missing"
	else
		result "$key" ok "$kname: system: $what: auxbus modules in updates/dkms" "all $n of dkms.conf"
	fi
	dkms_dev_files "$key" "$kname: system: $what:" "$root" "$abi"
	read -r n missing < <(system_modules_missing "$root" "$abi" "$root/usr/src/auxbus-porters-$VERSION_PORTERS/dkms.conf")
	if [ -n "$missing" ]; then
		result "$key" fail "$kname: system: $what: auxbus-porters-dkms built against it" "missing: $missing"
	else
		result "$key" ok "$kname: system: $what: auxbus-porters-dkms built against it" "all $n of its dkms.conf"
	fi
}

# system_signed KEY KNAME ROOT ABI: DKMS 3 signed the modules with its MOK (framework.conf)
system_signed() {
	local key=$1 kname=$2 root=$3 abi=$4 f signer bad=""
	for f in "$root"/lib/modules/"$abi"/updates/dkms/*.ko*; do
		signer=$(modinfo -F signer "$f" 2>/dev/null)
		[ "$signer" = "DKMS module signing key" ] || bad="$bad $(basename "$f")=${signer:-none}"
	done
	if [ -z "$bad" ] && [ -f "$root/var/lib/dkms/mok.pub" ]; then
		result "$key" ok "$kname: system: secure boot: DKMS signed every module with its MOK" \
			"signer 'DKMS module signing key', certificate /var/lib/dkms/mok.pub"
	else
		result "$key" fail "$kname: system: secure boot: DKMS signed every module with its MOK" \
			"unsigned or other signer:$bad$([ -f "$root/var/lib/dkms/mok.pub" ] || echo "; no /var/lib/dkms/mok.pub")"
	fi
}

# system_apt KEY NAME LOG ROOT SDIR ARGS...: `apt-get ARGS` in the run's root file system ROOT at
# nice 10, DKMS's compiler through the ccache kept in SDIR: apt and dpkg reset PATH (no
# /usr/lib/ccache), so through Debian's own switch in the headers' .kernelvariables (CC = ccache
# gcc-N where DEBIAN_KERNEL_USE_CCACHE is set). One result NAME: its time, or LOG's first error.
system_apt() {
	local key=$1 name=$2 log=$3 root=$4 sdir=$5 t
	shift 5
	t=$(date +%s)
	if in_chroot "$root" --bind "$sdir/ccache" /var/cache/auxbus-ccache -- nice -n 10 \
		env DEBIAN_KERNEL_USE_CCACHE=1 apt-get "$@" >"$log" 2>&1; then
		result "$key" ok "$name" "$(( $(date +%s) - t )) s"
	else
		result "$key" fail "$name" "see $log: $(grep -m1 -iE 'error|fail' "$log")"
	fi
}

system_test() {
	local suite=$1 key=$2 kname=$3 abi ver rtabi debs t0
	t0=$(date +%s)
	read -r abi ver < <(ensure_headers "$suite") || true
	if [ -z "${abi:-}" ]; then
		result "$key" fail "$kname: system: resolve the kernel" "ensure_headers $suite failed"
		return
	fi
	rtabi=${abi%-amd64}-rt-amd64
	debs=$(system_debs)
	case $debs in
	built) result "$key" ok "$kname: system: make deb: auxbus-dkms, auxbus-porters-dkms, lintian --pedantic clean" \
		"$(( $(date +%s) - t0 )) s$(grep -q '^# lintian passed before' "$RUN/debs/lintian.txt" && echo "; lintian: passed before on these packages")" ;;
	fail) result "$key" fail "$kname: system: make deb: auxbus-dkms, auxbus-porters-dkms, lintian --pedantic clean" \
		"see $RUN/make-deb.log and $RUN/debs/lintian.txt: $(grep -m1 -hE 'error|^[EWIPX]: ' "$RUN/make-deb.log" "$RUN/debs/lintian.txt" 2>/dev/null)"
		return ;;
	esac
	with_lock "system-$suite" system_test_locked "$suite" "$key" "$kname" "$abi" "$rtabi"
	echo "# $kname: system test $(( $(date +%s) - t0 )) s"
}

system_test_locked() {
	local suite=$1 key=$2 kname=$3 abi=$4 rtabi=$5 sdir work logd t n ok vml what
	sdir=$(system_dir "$suite")
	work=$sdir/run
	logd=$RUN/$kname-system
	mkdir -p "$logd" "$sdir/ccache"
	VERSION_BUNDLE=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
	VERSION_PORTERS=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/tests/porters/dkms.conf")
	t=$(date +%s)
	if ! system_base "$suite" "$abi" "$rtabi"; then
		result "$key" fail "$kname: system: root file system ($suite, $abi)" "see $sdir/*.log"
		return
	fi
	rtabi=$(cat "$sdir/base/.auxbus-upgrade" 2>/dev/null || echo "$rtabi")
	# The run's copy is a tree of hard links to the base (copying its 1.2 GB cost 8 to 120 s
	# here, with the disk busy): apt, dpkg, depmod and DKMS write whole new files and rename
	# them, never into an existing one. What is written in place (appended logs, the DKMS
	# configuration below) is unlinked first, and the base's package database is checked after
	# the run: a base that changed is rebuilt next time.
	[ -f "$sdir/base/.auxbus-sum" ] || system_base_sum "$sdir/base" >"$sdir/base/.auxbus-sum"
	rm -rf "$work"
	cp -al "$sdir/base" "$work"
	find "$work/var/log" -type f -exec sh -c 'for f; do cp -p "$f" "$f.new" && mv "$f.new" "$f"; done' sh {} +
	echo "# $kname: system: root file system $(( $(date +%s) - t )) s"

	# --- install the packages (DKMS builds for the installed kernel) ---
	system_guest_setup "$work"
	if [ "$suite" != bullseye ]; then
		# DKMS 3 signs with this key pair, which it makes itself when it is missing
		{
			cat "$work/etc/dkms/framework.conf"
			printf 'mok_signing_key="/var/lib/dkms/mok.key"\nmok_certificate="/var/lib/dkms/mok.pub"\n'
		} >"$work/etc/dkms/framework.conf.new"
		mv "$work/etc/dkms/framework.conf.new" "$work/etc/dkms/framework.conf"
	fi
	mkdir -p "$work/tmp/debs"
	cp "$RUN"/debs/*.deb "$work/tmp/debs/"
	# DKMS's builds go through ccache (system_apt), its cache kept beside the root file system
	in_chroot "$work" --bind "$sdir/ccache" /var/cache/auxbus-ccache -- ccache -z >/dev/null 2>&1
	system_apt "$key" "$kname: system: apt-get install ./auxbus-dkms_*.deb ./auxbus-porters-dkms_*.deb" \
		"$logd/install.log" "$work" "$sdir" install -y "/tmp/debs/auxbus-dkms_${VERSION_BUNDLE}_all.deb" \
		"/tmp/debs/auxbus-porters-dkms_${VERSION_PORTERS}_all.deb"
	system_dkms_checks "$key" "$kname" "install" "$work" "$abi" "$logd/install.log"
	[ "$suite" != bullseye ] && system_signed "$key" "$kname" "$work" "$abi"

	# --- kernel upgrade: a second kernel of the suite; DKMS's kernel hooks build for it ---
	system_apt "$key" "$kname: system: kernel upgrade: apt-get install linux-image-$rtabi linux-headers-$rtabi" \
		"$logd/upgrade.log" "$work" "$sdir" install -y --no-download "linux-image-$rtabi" "linux-headers-$rtabi"
	system_dkms_checks "$key" "$kname" "kernel upgrade" "$work" "$rtabi" "$logd/upgrade.log"
	echo "# $kname: system: DKMS's compiler, ccache since the stats were zeroed:" \
		"$(in_chroot "$work" --bind "$sdir/ccache" /var/cache/auxbus-ccache -- ccache -s 2>/dev/null |
			grep -m1 -E '^ *Hits|cache hit \(direct\)' | tr -s ' ')"

	# --- boots: the default kernel, then the upgraded one ---
	if [ "${do_boot:-1}" = 0 ]; then
		result "$key" skip "$kname: system: boots" "--no-boot"
	else
		t=$(date +%s)
		rm -f "$sdir/disk.img"
		# The image holds what the booted system uses: a copy of links (no data copied) without
		# the kernel headers, compiler, apt's caches and lists, and documentation.
		rm -rf "$sdir/image"
		cp -al "$work" "$sdir/image"
		rm -rf "$sdir"/image/usr/src/* "$sdir"/image/usr/lib/gcc "$sdir"/image/var/cache/apt \
			"$sdir"/image/var/lib/apt/lists "$sdir"/image/usr/share/{doc,man,locale}
		if ! mkfs.ext4 -q -F -L auxbus-root -d "$sdir/image" "$sdir/disk.img" \
			"$(( $(du -sm "$sdir/image" | cut -f1) * 11 / 10 + 200 ))M" >"$logd/mkfs.log" 2>&1; then
			result "$key" fail "$kname: system: disk image" "see $logd/mkfs.log"
		else
			echo "# $kname: system: disk image $(du -sm --apparent-size "$sdir/disk.img" | cut -f1) MiB in $(( $(date +%s) - t )) s"
			n=1
			for k in "$abi" "$rtabi"; do
				what="boot $n ($k)"
				t=$(date +%s)
				vml=$(boot_image "$work/boot/vmlinuz-$k" "$work/boot/config-$k" "$sdir/vmlinux-$k")
				if ! system_initramfs "$work" "$k" "$sdir/initrd-$k.gz"; then
					result "$key" fail "$kname: system: $what: initramfs"
					continue
				fi
				system_boot "$logd/boot$n" "$vml" "$sdir/initrd-$k.gz" "$sdir/disk.img"
				echo "# $kname: system: $what: $(( $(date +%s) - t )) s"
				system_report "$key" "$kname" "$what" "$logd/boot$n"
				n=$((n + 1))
			done
			rm -f "$sdir/disk.img"
		fi
		rm -rf "$sdir/image"
	fi

	# --- purge ---
	t=$(date +%s)
	in_chroot "$work" -- apt-get purge -y auxbus-porters-dkms auxbus-dkms >"$logd/purge.log" 2>&1
	ok=$(
		for k in "$abi" "$rtabi"; do
			ls "$work"/lib/modules/"$k"/updates/dkms/*.ko* "$work"/usr/lib/modules/"$k"/updates/dkms/*.ko* 2>/dev/null
		done
		ls -d "$work"/usr/src/auxbus* "$work"/var/lib/dkms/auxbus* 2>/dev/null
		in_chroot "$work" -- dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'auxbus*' 2>/dev/null | grep -v '^un'
	)
	if [ "$(system_base_sum "$sdir/base")" != "$(cat "$sdir/base/.auxbus-sum" 2>/dev/null)" ]; then
		log "$suite: the run changed the base root file system through a hard link; it is rebuilt next time"
		rm -f "$sdir/base/.auxbus-key"
	fi
	if [ -z "$ok" ]; then
		result "$key" ok "$kname: system: apt-get purge auxbus-porters-dkms auxbus-dkms leaves nothing" \
			"no module in updates/dkms ($abi, $rtabi), no /usr/src/auxbus*, no DKMS entry; $(( $(date +%s) - t )) s"
	else
		result "$key" fail "$kname: system: apt-get purge auxbus-porters-dkms auxbus-dkms leaves nothing" \
			"left: $(echo "$ok" | sed "s|$work||" | tr '\n' ' ' | cut -c1-300)"
	fi
}
