# SPDX-License-Identifier: GPL-2.0-only
# Debian's linux-source-* and linux-headers-* of each version the build matrix reaches, fetched
# and unpacked once into the cache (~/.cache/auxbus/builds/). Sourced, after host.sh, by
# tests/builds/run and tests/builds/upstream; bash only.

BUILDS=$AUXBUS_CACHE/builds
# The cache directory as the chroots see it (bind-mounted there by bin_chroot).
CB=/auxbus-builds

# VERSION SUITE SOURCE-PACKAGE (7.x: resolved to the newest linux-source-7.* of the suite)
VERSIONS="5.10:bullseye:linux-source-5.10 6.1:bookworm:linux-source-6.1 6.12:trixie:linux-source-6.12 7.x:trixie-backports:linux-source-7"

# bin_chroot CHROOT CMD...: CMD in CHROOT with the cache's builds/ at $CB.
bin_chroot() {
	local root=$1
	shift
	in_chroot "$root" --bind "$BUILDS" "$CB" -- "$@"
}

version_field() { printf '%s\n' $VERSIONS | awk -F: -v v="$1" -v f="$2" '$1 == v { print $f }'; }

# source_tree VERSION: fetch (apt-get download in the suite's chroot) and unpack Debian's
# linux-source of VERSION once. Prints its directory name under builds/src/.
source_tree() {
	local v=$1 suite root pkg target="" deb name tmp
	suite=$(version_field "$v" 2)
	pkg=$(version_field "$v" 3)
	# made here if no run has made it yet (or waited for, if one is making it)
	root=$(ensure_chroot "$suite") || return 1
	[ "$suite" = trixie-backports ] && target="-t trixie-backports"
	if [ "$pkg" = linux-source-7 ]; then
		pkg=$(bin_chroot "$root" sh -c "apt-cache pkgnames linux-source-7. | sort -V | tail -n 1")
		[ -n "$pkg" ] || die "no linux-source-7.* in $suite"
	fi
	mkdir -p "$BUILDS/debs" "$BUILDS/src"
	deb=$(ls "$BUILDS/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$deb" ]; then
		log "downloading $pkg ($suite)"
		bin_chroot "$root" sh -c "cd $CB/debs && apt-get download -q $target $pkg" \
			>"$BUILDS/debs/$pkg.log" 2>&1 || die "apt-get download $pkg failed: $BUILDS/debs/$pkg.log"
		deb=$(ls "$BUILDS/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n 1)
	fi
	name=$(basename "$deb" _all.deb)
	if [ ! -f "$BUILDS/src/$name/Makefile" ]; then
		log "unpacking $name"
		tmp=$(mktemp -d "$BUILDS/src/.$name.XXXXXX")
		dpkg-deb --fsys-tarfile "$deb" | tar -xOf - --wildcards './usr/src/linux-source-*.tar.xz' |
			tar -C "$tmp" --strip-components=1 -xJf - || { rm -rf "$tmp"; die "unpacking $deb failed"; }
		rm -rf "$BUILDS/src/$name"
		mv "$tmp" "$BUILDS/src/$name"
	fi
	echo "$name"
}

# debian_abi VERSION: the suite's installed linux-headers-*-amd64 of that version (its .config
# and Module.symvers are Debian's own build).
debian_abi() {
	local v=$1 suite root want abi
	suite=$(version_field "$v" 2)
	root=$AUXBUS_CACHE/chroots/$(chroot_suite "$suite")
	want=$v
	[ "$v" = 7.x ] && want=7.
	abi=$(pinned_abi "$suite")
	case $abi in "$want"*) [ -f "$root/usr/src/linux-headers-$abi/.config" ] && { echo "$abi"; return; } ;; esac
	read -r abi _ < <(ensure_headers "$suite") || die "no linux-headers for $suite"
	echo "$abi"
}

