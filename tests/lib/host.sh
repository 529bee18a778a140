# SPDX-License-Identifier: GPL-2.0-only
# Host-side helpers of the kernel-matrix harness: cache, build chroots, kernel images.
# Sourced by tests/run and the Makefile's helpers; bash only.

AUXBUS_CACHE=${AUXBUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/auxbus}
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

log() { printf '# %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The Debian mirror, read from this machine's own apt sources at run time (never written down).
debian_mirror() {
	local uri
	uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v -- '-security' | head -n 1)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)
	[ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list{,.d}"
	printf '%s\n' "$uri"
}

# Host tools the harness needs. Installs them with apt-get when root, else says what to run.
# debhelper, dh-dkms and lintian build the Debian packages (make deb); e2fsprogs makes the
# system test's disk image (tests/lib/system.sh).
HOST_PKGS="qemu-system-x86 busybox-static cpio debootstrap kmod zstd xz-utils debhelper dh-dkms lintian e2fsprogs"
# ensure_host_tools [PKGS]: HOST_PKGS by default (an arm64 line adds qemu-system-arm)
ensure_host_tools() {
	local missing="" p
	for p in ${1:-$HOST_PKGS}; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		die "missing host packages; run: sudo apt-get install --no-install-recommends$missing"
	fi
	log "installing host packages:$missing"
	apt-get update -qq >&2 || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2 ||
		die "apt-get install$missing failed"
}

# with_lock NAME CMD...: run CMD (a shell function too) holding the lock NAME of the cache.
# Two chains of the matrix run at once (tests/run, AUXBUS_JOBS) and share the bookworm chroot:
# its apt database, its DKMS tree and /usr/src. Never nest two with_lock calls: flock on a new
# descriptor of a file the process already holds blocks.
with_lock() {
	local fd rc
	mkdir -p "$AUXBUS_CACHE/locks"
	exec {fd}>"$AUXBUS_CACHE/locks/$1.lock"
	flock "$fd"
	shift
	"$@"
	rc=$?
	exec {fd}>&-
	return $rc
}

# Run a command inside a chroot, in a private mount namespace (mounts vanish with it).
# Usage: in_chroot DIR [--bind HOSTDIR GUESTDIR]... -- CMD...
in_chroot() {
	local root=$1 binds=""
	shift
	while [ "$1" = --bind ]; do
		mkdir -p "$root$3"
		binds="$binds mount --bind '$2' '$root$3';"
		shift 3
	done
	[ "$1" = -- ] && shift
	unshare -m -- sh -c "mount -t proc proc '$root/proc' && mount -t sysfs sys '$root/sys' && \
		mount -t devtmpfs dev '$root/dev' 2>/dev/null || mount --rbind /dev '$root/dev'; $binds \
		exec chroot '$root' env -i PATH=/usr/lib/ccache:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LC_ALL=C.UTF-8 CCACHE_DIR=/var/cache/auxbus-ccache DEBIAN_FRONTEND=noninteractive \"\$@\"" \
		sh "$@"
}

# A kernels.list SUITE is SUITE[:FLAVOUR][/ARCH]: suite_of is the Debian suite alone, suite_arch
# the Debian architecture (amd64 unless "/arm64"), which tests/run --arch selects lines by.
suite_of() { local s=${1%%/*}; echo "${s%%:*}"; }
suite_arch() { case $1 in */*) echo "${1##*/}" ;; *) echo amd64 ;; esac; }
# The chroot that builds for a suite: trixie-backports' kernels are built in the trixie chroot,
# another architecture's with the suite's cross compiler (ensure_cross_gcc).
chroot_suite() {
	case $(suite_of "$1") in
	trixie-backports) echo trixie ;;
	*) suite_of "$1" ;;
	esac
}
# kernel_flavour SUITE[:FLAVOUR][/ARCH]: the Debian kernel flavour a kernels.list SUITE names
# (amd64; "trixie:rt" for rt-amd64; "bookworm/arm64" for arm64)
kernel_flavour() {
	local s=${1%%/*}
	case $s in *:*) echo "${s#*:}-$(suite_arch "$1")" ;; *) suite_arch "$1" ;; esac
}

# The security archive, read from the system's apt sources like the mirror (may be empty).
debian_security_mirror() {
	awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | grep -- '-security' | head -n 1
}

# A chroot's own apt sources: its suite, the suite's updates and security, and for trixie
# also trixie-backports (the newest 7.x kernels).
chroot_sources() {
	local suite=$1 mirror sec
	mirror=$(debian_mirror)
	sec=$(debian_security_mirror)
	echo "deb $mirror $suite main"
	echo "deb $mirror $suite-updates main"
	[ -n "$sec" ] && echo "deb $sec $suite-security main"
	[ "$suite" = trixie ] && echo "deb $mirror trixie-backports main"
	return 0
}

CHROOT_PKGS="make,gcc,libc6-dev,kmod,dkms,dwarves,xz-utils,zstd,ca-certificates,ccache"

# Create (once) the build chroot of a Debian suite. Prints its path.
ensure_chroot() {
	local dir=$AUXBUS_CACHE/chroots/$(chroot_suite "$1")
	# ready as it is: a read, no lock (a DKMS test may hold the chroot's lock for minutes)
	if [ -f "$dir/.auxbus-ready" ] && [ -x "$dir/usr/bin/ccache" ] &&
		chroot_sources "$(chroot_suite "$1")" | cmp -s - "$dir/etc/apt/sources.list"; then
		printf '%s\n' "$dir"
		return 0
	fi
	with_lock "chroot-$(chroot_suite "$1")" ensure_chroot_locked "$1"
}
ensure_chroot_locked() {
	local suite dir mirror
	suite=$(chroot_suite "$1")
	dir=$AUXBUS_CACHE/chroots/$suite
	if [ ! -f "$dir/.auxbus-ready" ]; then
		mirror=$(debian_mirror)
		rm -rf "$dir"
		mkdir -p "$AUXBUS_CACHE/chroots"
		log "debootstrap $suite (once; cached in $dir)"
		debootstrap --variant=minbase --include="$CHROOT_PKGS" "$suite" "$dir" "$mirror" \
			>"$AUXBUS_CACHE/chroots/$suite.log" 2>&1 ||
			die "debootstrap $suite failed: see $AUXBUS_CACHE/chroots/$suite.log"
		printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
			>"$dir/etc/apt/apt.conf.d/99auxbus"
		touch "$dir/.auxbus-ready"
	fi
	# Every gcc of a build in the chroot goes through ccache (/usr/lib/ccache first in PATH; its
	# cache in the chroot, kept with it): a rebuild of unchanged sources costs little, and ccache
	# replays each compiler's warnings, so "no warnings" still holds. Chroots made before ccache
	# was in CHROOT_PKGS get it here.
	if [ ! -x "$dir/usr/bin/ccache" ]; then
		chroot_update "$dir"
		in_chroot "$dir" -- apt-get install -y -qq ccache >>"$dir/.auxbus-apt.log" 2>&1 ||
			die "apt-get install ccache in $dir failed: see $dir/.auxbus-apt.log"
	fi
	chroot_sources "$suite" >"$dir/etc/apt/sources.list.new"
	if cmp -s "$dir/etc/apt/sources.list.new" "$dir/etc/apt/sources.list"; then
		rm -f "$dir/etc/apt/sources.list.new"
	else
		mv "$dir/etc/apt/sources.list.new" "$dir/etc/apt/sources.list"
		rm -f "$dir/.auxbus-updated"
	fi
	printf '%s\n' "$dir"
}

# Refresh the suite's package lists at most once per harness run. Callers hold the chroot's
# lock (chroot_locked).
chroot_update() {
	local dir=$1 stamp
	stamp="$dir/.auxbus-updated"
	if [ -n "${AUXBUS_RUN_ID:-}" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$AUXBUS_RUN_ID" ]; then
		return 0
	fi
	in_chroot "$dir" -- apt-get update -qq >"$dir/.auxbus-apt.log" 2>&1 ||
		die "apt-get update in $dir failed: see $dir/.auxbus-apt.log"
	echo "${AUXBUS_RUN_ID:-}" >"$stamp"
}

# chroot_locked DIR CMD...: CMD holding the lock of the chroot DIR (apt, dkms, /usr/src).
chroot_locked() {
	local dir=$1
	shift
	with_lock "chroot-$(basename "$dir")" "$@"
}

# --- another architecture ----------------------------------------------------------------------
# A kernel of another architecture than the host's (SUITE/arm64) is cross-built in its suite's
# chroot: kbuild's host tools and the common headers from the host architecture's headers
# package of the same ABI, the flavour's own tree (.config, Module.symvers, arch/) from the
# other architecture's package. That package, the kernel image and the guest's busybox come from
# a private apt configuration on the host ($AUXBUS_CACHE/apt/SUITE-ARCH: its own sources, lists,
# cache and status, checked with the chroot's keyring): neither the host's apt nor the chroot's
# dpkg ever sees the other architecture.
host_arch() { dpkg --print-architecture; }
foreign() { [ "$(suite_arch "$1")" != "$(host_arch)" ]; }
# cross_triplet ARCH: the GNU triplet of Debian's cross compiler for ARCH
cross_triplet() { case $1 in arm64) echo aarch64-linux-gnu ;; *) die "no cross compiler known for $1" ;; esac; }
foreign_apt_dir() { echo "$AUXBUS_CACHE/apt/$(chroot_suite "$1")-$(suite_arch "$1")"; }
# foreign_apt SUITE apt-get|apt-cache ARGS...
foreign_apt() {
	local a tool arch
	a=$(foreign_apt_dir "$1")
	arch=$(suite_arch "$1")
	tool=$2
	shift 2
	"$tool" -o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts="$a/sources.list.d" \
		-o Dir::Etc::Preferences="$a/preferences" -o Dir::Etc::PreferencesParts="$a/preferences.d" \
		-o Dir::State::Lists="$a/lists" -o Dir::State::Status="$a/status" -o Dir::Cache="$a/cache" \
		-o APT::Architecture="$arch" -o APT::Architectures="$arch" \
		-o APT::Sandbox::User=root "$@"
}
# foreign_update SUITE: the private lists, refreshed at most once per harness run
foreign_update() {
	local a key
	a=$(foreign_apt_dir "$1")
	[ -n "${AUXBUS_RUN_ID:-}" ] && [ "$(cat "$a/.updated" 2>/dev/null)" = "$AUXBUS_RUN_ID" ] && return 0
	key=$(ensure_chroot "$1")/usr/share/keyrings/debian-archive-keyring.gpg
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/sources.list.d" "$a/preferences.d"
	: >>"$a/status"
	chroot_sources "$(chroot_suite "$1")" |
		sed "s|^deb |deb [arch=$(suite_arch "$1") signed-by=$key] |" >"$a/sources.list"
	foreign_apt "$1" apt-get update -qq >"$a/update.log" 2>&1 ||
		die "apt-get update for $(suite_arch "$1") failed: see $a/update.log"
	echo "${AUXBUS_RUN_ID:-}" >"$a/.updated"
}
# suite_apt SUITE CHROOT CMD...: apt-cache or apt-get of SUITE's architecture: in the chroot for
# the host's, through foreign_apt for another
suite_apt() {
	local suite=$1 dir=$2
	shift 2
	if foreign "$suite"; then foreign_apt "$suite" "$@"; else in_chroot "$dir" -- "$@"; fi
}
# suite_download SUITE CHROOT DEST ARGS...: apt-get download ARGS into the host directory DEST
suite_download() {
	local suite=$1 dir=$2 dest=$3
	shift 3
	if foreign "$suite"; then
		(cd "$dest" && foreign_apt "$suite" apt-get download -q "$@")
	else
		in_chroot "$dir" --bind "$dest" /auxbus-debs -- sh -c 'cd /auxbus-debs && apt-get download -q "$@"' sh "$@"
	fi
}
# ensure_cross_gcc SUITE CHROOT: the suite's cross compiler for SUITE's architecture in its
# chroot, with that architecture's libc for the static guest tools (tests/tools)
ensure_cross_gcc() {
	local t
	t=$(cross_triplet "$(suite_arch "$1")")
	[ -x "$2/usr/bin/$t-gcc" ] && [ -f "$2/usr/$t/include/stdio.h" ] && return 0
	chroot_locked "$2" cross_gcc_locked "$2" "$t" "$(suite_arch "$1")"
}
cross_gcc_locked() {
	[ -x "$1/usr/bin/$2-gcc" ] && [ -f "$1/usr/$2/include/stdio.h" ] && return 0
	chroot_update "$1"
	log "installing gcc-$2 and libc6-dev-$3-cross in $1"
	in_chroot "$1" -- apt-get install -y -qq "gcc-$2" "libc6-dev-$3-cross" >>"$1/.auxbus-apt.log" 2>&1 ||
		die "installing gcc-$2 in $1 failed: see $1/.auxbus-apt.log"
}
# cross_make_args SUITE: what make needs to build for SUITE's architecture (nothing for the host's)
cross_make_args() {
	foreign "$1" || return 0
	echo "ARCH=$(suite_arch "$1") CROSS_COMPILE=$(cross_triplet "$(suite_arch "$1")")-"
}
# foreign_headers_locked SUITE CHROOT ABI: install the other architecture's headers of ABI
foreign_headers_locked() {
	local suite=$1 dir=$2 abi=$3 target="" native ver nver tmp
	[ "$(suite_of "$suite")" = trixie-backports ] && target="-t trixie-backports"
	native=${abi%"$(suite_arch "$suite")"}$(host_arch)
	foreign_update "$suite"
	ver=$(foreign_apt "$suite" apt-cache show --no-all-versions "linux-headers-$abi" 2>/dev/null |
		sed -n 's/^Version: //p' | head -n 1)
	[ -n "$ver" ] || die "no linux-headers-$abi for $(suite_arch "$suite") in $(suite_of "$suite")"
	log "installing linux-headers-$native (kbuild) and $(suite_arch "$suite")'s linux-headers-$abi in $dir"
	in_chroot "$dir" -- apt-get install -y -qq $target "linux-headers-$native" >"$dir/.auxbus-apt.log" 2>&1 ||
		die "installing linux-headers-$native failed: see $dir/.auxbus-apt.log"
	nver=$(in_chroot "$dir" -- dpkg-query -W -f='${Version}' "linux-headers-$native")
	[ "$ver" = "$nver" ] || die "linux-headers-$abi is $ver but linux-headers-$native is $nver"
	tmp=$(mktemp -d)
	suite_download "$suite" "$dir" "$tmp" "linux-headers-$abi" >"$tmp/download.log" 2>&1 &&
		dpkg-deb -x "$tmp"/linux-headers-*.deb "$tmp/root" || { rm -rf "$tmp"; die "fetching linux-headers-$abi failed"; }
	# its tree and the build link only: unpacked over the chroot, the package's /lib would
	# replace the chroot's merged-/usr link with a directory
	rm -rf "$dir/usr/src/linux-headers-$abi"
	cp -a "$tmp/root/usr/src/linux-headers-$abi" "$dir/usr/src/" || die "copying linux-headers-$abi failed"
	rm -rf "$tmp"
	mkdir -p "$dir/lib/modules/$abi"
	ln -sfn "/usr/src/linux-headers-$abi" "$dir/lib/modules/$abi/build"
	echo "$ver" >"$dir/usr/src/linux-headers-$abi/.auxbus-version"
}
# headers_version CHROOT ABI: the Debian version of the installed headers of ABI
headers_version() {
	cat "$1/usr/src/linux-headers-$2/.auxbus-version" 2>/dev/null ||
		in_chroot "$1" -- dpkg-query -W -f='${Version}' "linux-headers-$2"
}
# guest_busybox SUITE: the busybox binary for SUITE's architecture (the host's own for the host's;
# the suite's busybox-static of the other architecture, fetched once)
guest_busybox() {
	foreign "$1" || { echo /bin/busybox; return 0; }
	local bb
	bb=$(foreign_apt_dir "$1")/busybox
	[ -s "$bb" ] || with_lock "apt-$(chroot_suite "$1")-$(suite_arch "$1")" fetch_busybox "$1" "$bb" ||
		die "fetching busybox-static for $(suite_arch "$1") failed"
	echo "$bb"
}
fetch_busybox() {
	local tmp
	[ -s "$2" ] && return 0
	foreign_update "$1"
	tmp=$(mktemp -d)
	suite_download "$1" - "$tmp" busybox-static >"$tmp/download.log" 2>&1 &&
		dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/root" &&
		cp "$(ls "$tmp"/root/usr/bin/busybox "$tmp"/root/bin/busybox 2>/dev/null | head -n 1)" "$2.new" &&
		mv "$2.new" "$2"
	local rc=$?
	rm -rf "$tmp"
	return $rc
}

# Resolve a suite's linux-headers-FLAVOUR (amd64, rt-amd64, arm64...) to its current ABI and
# install those headers. Prints "ABI VERSION" (e.g. "6.1.0-37-amd64 6.1.140-1").
ensure_headers() {
	local dir abi
	dir=$(ensure_chroot "$1")
	foreign "$1" && ensure_cross_gcc "$1" "$dir"
	# the pinned kernel's headers installed: a read, no lock (a DKMS test may hold it for minutes)
	abi=$(pinned_abi "$1")
	if [ -n "$abi" ] && in_chroot "$dir" -- test -e "/lib/modules/$abi/build/Makefile"; then
		printf '%s %s\n' "$abi" "$(headers_version "$dir" "$abi")"
		return 0
	fi
	chroot_locked "$dir" ensure_headers_locked "$1" "$dir"
}
# A green run pins each suite's kernel ($AUXBUS_CACHE/kernels.pinned, "SUITE ABI"): later runs
# take it while its headers are installed, so that a red run is rerun on the same kernels and
# asks the mirror nothing; AUXBUS_KERNELS=latest resolves the suite's current kernel again.
pinned_abi() {
	[ "${AUXBUS_KERNELS:-pinned}" = latest ] && return 0
	awk -v s="$1" '$1 == s { print $2; exit }' "$AUXBUS_CACHE/kernels.pinned" 2>/dev/null
}
ensure_headers_locked() {
	local suite=$1 dir=$2 target="" abi ver flavour
	flavour=$(kernel_flavour "$suite")
	abi=$(pinned_abi "$suite")
	if [ -n "$abi" ] && in_chroot "$dir" -- test -e "/lib/modules/$abi/build/Makefile"; then
		printf '%s %s\n' "$abi" "$(headers_version "$dir" "$abi")"
		return 0
	fi
	chroot_update "$dir"
	foreign "$suite" && foreign_update "$suite"
	[ "$(suite_of "$suite")" = trixie-backports ] && target="-t trixie-backports"
	abi=$(suite_apt "$suite" "$dir" apt-cache $target depends "linux-headers-$flavour" 2>/dev/null |
		awk '/Depends: linux-headers-[0-9]/ { sub("linux-headers-", "", $2); print $2; exit }')
	[ -n "$abi" ] || die "cannot resolve linux-headers-$flavour in $suite"
	if foreign "$suite"; then
		in_chroot "$dir" -- test -e "/lib/modules/$abi/build/Makefile" ||
			foreign_headers_locked "$suite" "$dir" "$abi"
		printf '%s %s\n' "$abi" "$(headers_version "$dir" "$abi")"
		return 0
	fi
	# (build is an absolute link inside the chroot: look at what it points to from there)
	if ! in_chroot "$dir" -- test -e "/lib/modules/$abi/build/Makefile"; then
		log "installing linux-headers-$abi in the $(chroot_suite "$suite") chroot"
		in_chroot "$dir" -- apt-get install -y -qq $target "linux-headers-$abi" \
			>"$dir/.auxbus-apt.log" 2>&1 ||
			die "installing linux-headers-$abi failed: see $dir/.auxbus-apt.log"
	fi
	ver=$(in_chroot "$dir" -- dpkg-query -W -f='${Version}' "linux-headers-$abi")
	printf '%s %s\n' "$abi" "$ver"
}

# Fetch and unpack a Debian kernel image (vmlinuz plus its module tree). Prints the unpack dir.
ensure_debian_kernel() {
	local dir
	[ -f "$AUXBUS_CACHE/kernels/$2/.auxbus-ready" ] &&
		[ -s "$AUXBUS_CACHE/kernels/$2/root/lib/modules/$2/modules.dep" ] &&
		{ printf '%s\n' "$AUXBUS_CACHE/kernels/$2"; return 0; }
	dir=$(ensure_chroot "$1")
	chroot_locked "$dir" ensure_debian_kernel_locked "$1" "$2" "$dir"
}
ensure_debian_kernel_locked() {
	local suite=$1 abi=$2 dir=$3 kdir target="" pkgs p
	kdir=$AUXBUS_CACHE/kernels/$abi
	if [ ! -f "$kdir/.auxbus-ready" ]; then
		rm -rf "$kdir"
		mkdir -p "$kdir/debs" "$kdir/root"
		[ "$(suite_of "$suite")" = trixie-backports ] && target="-t trixie-backports"
		pkgs="linux-image-$abi"
		foreign "$suite" && foreign_update "$suite"
		# Debian 7.x splits the kernel binary out into linux-binary-<abi>.
		if suite_apt "$suite" "$dir" apt-cache $target show "linux-binary-$abi" >/dev/null 2>&1; then
			pkgs="$pkgs linux-binary-$abi"
		fi
		# linux-image may also depend on a separate modules package.
		for p in $(suite_apt "$suite" "$dir" apt-cache $target depends "linux-image-$abi" 2>/dev/null |
			awk '/Depends: linux-(modules|binary)-/ { print $2 }'); do
			case " $pkgs " in *" $p "*) ;; *) pkgs="$pkgs $p" ;; esac
		done
		log "downloading $pkgs"
		# shellcheck disable=SC2086
		suite_download "$suite" "$dir" "$kdir/debs" $target $pkgs >"$kdir/download.log" 2>&1 ||
			die "apt-get download $pkgs failed"
		for p in "$kdir"/debs/*.deb; do
			dpkg-deb -x "$p" "$kdir/root" || die "dpkg-deb -x $p failed"
		done
		rm -rf "$kdir/debs"
		touch "$kdir/.auxbus-ready"
	fi
	kernel_depmod "$kdir" "$abi" || die "depmod for $abi failed"
	printf '%s\n' "$kdir"
}

# An unpacked package has no modules.dep (the package's postinst makes it): run the host's
# depmod on the tree, once. Trees under usr/lib/modules (merged /usr, trixie on) get a
# lib/modules link, where bookworm's depmod looks.
kernel_depmod() {
	local kdir=$1 abi=$2
	if [ ! -d "$kdir/root/lib/modules/$abi" ] && [ -d "$kdir/root/usr/lib/modules/$abi" ]; then
		mkdir -p "$kdir/root/lib/modules"
		ln -sfn "../../usr/lib/modules/$abi" "$kdir/root/lib/modules/$abi"
	fi
	[ -s "$kdir/root/lib/modules/$abi/modules.dep" ] && return 0
	depmod -b "$kdir/root" "$abi" 2>"$kdir/depmod.log"
}

# The kernel binary inside an unpacked image tree.
kernel_image() {
	local kdir=$1 abi=$2 f
	for f in "$kdir/root/boot/vmlinuz-$abi" "$kdir/root/usr/lib/modules/$abi/vmlinuz" \
		"$kdir/root/lib/modules/$abi/vmlinuz" "$kdir/root/boot/bzImage"; do
		[ -f "$f" ] && { printf '%s\n' "$f"; return 0; }
	done
	return 1
}

# boot_image IMAGE CONFIG OUT: what QEMU boots. Where the kernel has CONFIG_PVH=y (every Debian
# kernel), the uncompressed vmlinux, which QEMU starts at its PVH entry: no firmware boot path
# and no decompression, which under TCG take 5 to 6 s of every boot (xz on 5.10 and 6.1). Not
# the debug kernel: its tinyconfig+KASAN build with CONFIG_PVH=y reset at once at the PVH
# entry (tried with 6.1.192; not pursued), so it boots its bzImage.
# Extracted once to OUT as scripts/extract-vmlinux does; IMAGE itself where that fails.
boot_image() {
	local img=$1 config=$2 out=$3
	grep -qs '^CONFIG_PVH=y' "$config" || { printf '%s
' "$img"; return 0; }
	if [ ! -s "$out" ] || [ "$img" -nt "$out" ]; then
		# published whole (another run on this cache may be reading or writing it)
		local tmp
		tmp=$(mktemp "$out.XXXXXX") || return 1
		if extract_vmlinux "$img" "$tmp"; then mv -f "$tmp" "$out"; else rm -f "$tmp"; fi
	fi
	if [ -s "$out" ]; then printf '%s
' "$out"; else printf '%s
' "$img"; fi
}
# extract_vmlinux IMAGE OUT: the ELF kernel inside a bzImage. The search for each compressor's
# magic is the one of the kernel's scripts/extract-vmlinux (tr, so that grep's byte offset is
# the magic's); the first offset that decompresses to an ELF file wins.
extract_vmlinux() {
	local img=$1 out=$2 magic mark cmd pos
	while read -r magic mark cmd; do
		for pos in $(tr "$magic\n$mark" "\n$mark=" <"$img" | grep -abo "^$mark" | cut -d: -f1); do
			tail -c+"$pos" "$img" | $cmd >"$out" 2>/dev/null
			[ "$(head -c 4 "$out" | od -An -c | tr -d ' ')" = '177ELF' ] && return 0
		done
	done <<-'EOF'
		\3757zXZ\000 abcde xz -dc
		(\265/\375 xxx zstd -qdc
		\037\213\010 xy gzip -dc
	EOF
	return 1
}

# The module tree inside an unpacked image tree.
kernel_moddir() {
	local kdir=$1 abi=$2 d
	for d in "$kdir/root/lib/modules/$abi" "$kdir/root/usr/lib/modules/$abi"; do
		[ -d "$d/kernel" ] && { printf '%s\n' "$d"; return 0; }
	done
	return 1
}

# The `debug` kernels, built from Debian's linux-source-* inside a suite's chroot: tinyconfig +
# tests/debug-kernel.config + the fragments of their line of DEBUG_KERNELS (a later line wins).
# Each suite's chroot holds one source tree and one ccache, each kernel its own build directory;
# cached, rebuilt when a fragment or the source package changes. ensure_debug_kernel NAME
# prints "ABI VERSION"; the build tree (KDIR for modules, inside the chroot) is debug_kdir NAME,
# the image $AUXBUS_CACHE/kernels/NAME/bzImage.
#   debug   6.1, gcc;  debugk: the same with the kernel's own auxiliary bus and delayed kobject
#   releases;  debugc: 6.12 built with clang (LLVM=1), kCFI and UBSAN on top of debug's detectors
#   (clang >= 16 for kCFI: bookworm has 14, trixie 19)
# NAME SUITE SOURCE COMPILER FRAGMENTS
DEBUG_KERNELS='
debug    bookworm  linux-source-6.1   gcc    -
debugk   bookworm  linux-source-6.1   gcc    tests/debug-kernel-builtin.config
debugc   trixie    linux-source-6.12  clang  tests/debug-kernel-clang.config
'
# debug_field NAME N: field N (2 suite, 3 source, 4 compiler, 5 fragments) of NAME's line
debug_field() {
	local f
	f=$(awk -v n="$1" -v i="$2" '$1 == n { print $i }' <<<"$DEBUG_KERNELS")
	[ -n "$f" ] || die "no debug kernel $1 in DEBUG_KERNELS (tests/lib/host.sh)"
	echo "$f"
}
debug_kdir() { if [ "$1" = debug ]; then echo /usr/src/auxbus-debug/build; else echo "/usr/src/auxbus-debug/build-$1"; fi; }
# The fragment of kernel NAME, one line per option, a later line winning.
debug_fragment() {
	local name=$1 f
	{
		cat "$TOP/tests/debug-kernel.config"
		f=$(debug_field "$name" 5)
		[ "$f" = - ] || cat "$TOP/$f"
	} | awk '/^CONFIG_/ { o = $0; sub(/=.*/, "", o); if (!(o in v)) k[n++] = o; v[o] = $0 } END { for (i = 0; i < n; i++) print v[k[i]] }'
}
# The make variables of a compiler: ccache in front, and the whole LLVM toolchain with clang.
debug_make_cc() {
	case $1 in
	clang) echo 'LLVM=1 CC="ccache clang"' ;;
	*) echo 'CC="ccache gcc"' ;;
	esac
}
# The lock of a suite's debug kernel builds (its source tree and ccache); debug's suite keeps
# the plain name
debug_lock() {
	local suite
	suite=$(debug_field "$1" 2)
	if [ "$suite" = "$(debug_field debug 2)" ]; then echo debug-kernel; else echo "debug-kernel-$suite"; fi
}
# With AUXBUS_DEBUG_FIRST=1 (the run boots both) debugk's chain builds the debug kernel first:
# the debug kernel's chain is the run's long pole, and the chains reach the lock in any order.
ensure_debug_kernel() {
	local name=${1:-debug}
	if [ "$name" != debug ] && [ "$(debug_lock "$name")" = "$(debug_lock debug)" ] &&
		[ "${AUXBUS_DEBUG_FIRST:-0}" = 1 ]; then
		with_lock debug-kernel ensure_debug_kernel_locked debug >/dev/null
	fi
	with_lock "$(debug_lock "$name")" ensure_debug_kernel_locked "$name"
}
ensure_debug_kernel_locked() {
	local name=${1:-debug} dir work key ver abi kdir t0 bdir suite src cc mk
	suite=$(debug_field "$name" 2)
	src=$(debug_field "$name" 3)
	cc=$(debug_field "$name" 4)
	mk=$(debug_make_cc "$cc")
	dir=$(ensure_chroot "$suite")
	debug_tools_present "$dir" "$src" "$cc" || chroot_locked "$dir" debug_kernel_tools "$dir" "$src" "$cc" ||
		die "installing $src failed"
	work=$dir/usr/src/auxbus-debug
	bdir=$(debug_kdir "$name")
	kdir=$AUXBUS_CACHE/kernels/$name
	ver=$(in_chroot "$dir" -- dpkg-query -W -f='${Version}' "$src")
	key="$ver $(debug_fragment "$name" | sha256sum | cut -c1-16)"
	# (gcc: the key of before; the gcc of a suite changes with its source package)
	[ "$cc" = gcc ] || key="$key $cc $(in_chroot "$dir" -- dpkg-query -W -f='${Version}' "$cc")"
	if [ "$(cat "$kdir/.auxbus-key" 2>/dev/null)" != "$key" ] || [ ! -f "$kdir/bzImage" ]; then
		t0=$(date +%s)
		log "building the $name kernel ($src $ver, $cc; 20-30 minutes the first time on two busy CPUs, 2-3 from ccache)"
		mkdir -p "$work" "$kdir"
		if [ "$(cat "$work/.src-version" 2>/dev/null)" != "$ver" ]; then
			rm -rf "$work/src" "$work"/build "$work"/build-*
			mkdir -p "$work/src"
			tar -C "$work/src" --strip-components=1 -xf "$dir/usr/src/$src.tar.xz" ||
				die "unpacking $src failed"
			echo "$ver" >"$work/.src-version"
		fi
		debug_fragment "$name" >"$work/fragment-$name.config"
		in_chroot "$dir" -- sh -c '
			set -e
			cd /usr/src/auxbus-debug/src
			B='"$bdir"'
			mkdir -p $B
			export CCACHE_DIR=/usr/src/auxbus-debug/ccache
			make -s O=$B '"$mk"' tinyconfig
			scripts/kconfig/merge_config.sh -m -O $B $B/.config ../fragment-'"$name"'.config >/dev/null
			make -s O=$B '"$mk"' olddefconfig
			nice -n 10 make -s O=$B '"$mk"' -j$(nproc) bzImage modules
			make -s O=$B '"$mk"' modules_prepare
		' >"$kdir/build.log" 2>&1 || { tail -30 "$kdir/build.log" >&2; die "$name kernel build failed: $kdir/build.log"; }
		debug_config_check "$dir$bdir/.config" "$work/fragment-$name.config" ||
			die "$name kernel .config lacks options of its fragment"
		cp "$dir$bdir/arch/x86/boot/bzImage" "$kdir/bzImage"
		rm -rf "$kdir/modules" "$work/modroot"
		in_chroot "$dir" -- sh -c "cd $bdir && make -s $mk INSTALL_MOD_PATH=/usr/src/auxbus-debug/modroot modules_install" \
			>>"$kdir/build.log" 2>&1 || die "$name kernel modules_install failed"
		rm -rf "$kdir/root"
		mkdir -p "$kdir/root"
		# (lib/modules; usr/lib/modules where the source installs there)
		if [ -d "$work/modroot/lib" ]; then mv "$work/modroot/lib" "$kdir/root/lib"; else mv "$work/modroot/usr/lib" "$kdir/root/lib"; fi
		rm -rf "$work/modroot"
		echo "$key" >"$kdir/.auxbus-key"
		echo $(( $(date +%s) - t0 )) >"$kdir/.build-seconds"
	fi
	abi=$(cat "$dir$bdir/include/config/kernel.release")
	printf '%s %s\n' "$abi" "${src}_$ver"
}

# SOURCE and the tools to build it with COMPILER are in the chroot DIR (a read: no lock, so a
# DKMS test holding the chroot's lock does not hold up a cached debug kernel)
debug_tools_present() {
	local src=$2 cc=$3
	in_chroot "$1" -- dpkg-query -W "$src" >/dev/null 2>&1 &&
		in_chroot "$1" -- sh -c 'command -v flex && command -v bison && command -v bc' >/dev/null &&
		{ [ "$cc" = gcc ] || in_chroot "$1" -- sh -c 'command -v clang && command -v ld.lld && command -v llvm-nm' >/dev/null; }
}
# SOURCE and the tools to build it with COMPILER, in the (locked) chroot DIR.
debug_kernel_tools() {
	local dir=$1 src=$2 cc=$3 llvm=""
	debug_tools_present "$dir" "$src" "$cc" && return 0
	[ "$cc" = gcc ] || llvm="clang lld llvm"
	chroot_update "$dir"
	log "installing $src and kernel build tools${llvm:+ ($llvm)} in the $(basename "$dir") chroot"
	# shellcheck disable=SC2086
	in_chroot "$dir" -- apt-get install -y -qq "$src" flex bison bc libelf-dev \
		libssl-dev cpio ccache $llvm >&2
}

# Every =y/=m option of the fragment must have survived olddefconfig (Kconfig drops what it
# cannot satisfy, silently); =n ones must be off.
debug_config_check() {
	local config=$1 fragment=$2 line opt val bad=0
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}
		val=${line#*=}
		case $val in
		n) grep -q "^$opt=" "$config" && { log "debug config: $opt should be off"; bad=1; } ;;
		y | m) grep -q "^$opt=[ym]" "$config" || { log "debug config: $opt=$val was dropped"; bad=1; } ;;
		esac
	done <"$fragment"
	return $bad
}
