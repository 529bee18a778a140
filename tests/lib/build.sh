# SPDX-License-Identifier: GPL-2.0-only
# Builds of the kernel-matrix harness (tests/run): the bundle and its third-party clients in
# each suite's chroot, the DKMS test, the host's test tools and the style checks.
# Sourced by tests/run; bash only.

# --- building ----------------------------------------------------------------------------------
# tree_files: the working tree's files (tracked and untracked, no build outputs), run in $TOP
tree_files() {
	{ git ls-files -co --exclude-standard 2>/dev/null || find . -type f; } |
		grep -Ev '(^|/)\.git/|\.(ko|o|mod|mod\.c|cmd|a)$|(^|/)(Module\.symvers|modules\.order)$' |
		while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done
}
# tree_sums: the hash of each file of the working tree, in a stable order
tree_sums() { (cd "$TOP" && tree_files | LC_ALL=C sort | xargs -r -d '\n' sha256sum); }
# Copy the working tree to DEST.
copy_tree() {
	local dest=$1
	rm -rf "$dest"
	mkdir -p "$dest"
	(cd "$TOP" && tree_files | tar -cf - -T -) | tar -C "$dest" -xf -
}

# build_bundle CHROOT KDIR_IN_CHROOT BACKEND NAME LOG: build in CHROOT:/build/NAME.
build_bundle() {
	local root=$1 kdir=$2 backend=$3 name=$4 logf=$5
	copy_tree "$root/build/$name"
	# mainline SOF's clients, copied in for tests/sof-mainline/Kbuild (which says what the
	# kernel cannot build); not getting them fails the build
	"$TOP/tests/sof-mainline/fetch-clients" "$root/build/$name/tests/sof-mainline" >"$logf" 2>&1 ||
		return 1
	# shellcheck disable=SC2046
	in_chroot "$root" -- nice -n "${BUILD_NICE:-10}" make -C "/build/$name" KDIR="$kdir" KERNELRELEASE="$ABI" \
		$(cross_make_args "${SUITE:-}") AUXBUS_BACKEND="$backend" AUXBUS_TESTS=y ${AUXBUS_PARTS:+AUXBUS_PARTS="$AUXBUS_PARTS"} \
		-j2 modules >>"$logf" 2>&1
}

# A third-party client (tests/mainline-client) against the bundle as `make install-dev` installs
# it (headers + Module.symvers), in CHROOT:/build/NAME/inst; then the porters' corpus
# (tests/porters) against the per-kernel copy install-dev keeps (usr/src/auxbus-dev/ABI), with
# the stand-ins for other providers of the bus; then what client.mk must refuse. Nothing of the
# bundle's private compat.h may reach a third-party object (its .cmd file lists the command line
# and every header read).
build_mainline_client() {
	local root=$1 kdir=$2 name=$3 logf=$4 ver cross
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
	cross="$(cross_make_args "${SUITE:-}") $(kdir_llvm "$root" "$kdir")"
	in_chroot "$root" -- nice -n "${BUILD_NICE:-10}" sh -c "make -C /build/$name KDIR=$kdir KERNELRELEASE=$ABI \
		DESTDIR=/build/$name/inst install-dev && \
		make -C /build/$name/tests/mainline-client KDIR=$kdir KERNELRELEASE=$ABI $cross \
		AUXBUS_DIR=/build/$name/inst/usr/src/auxbus-$ver && \
		make -C /build/$name/tests/porters KDIR=$kdir KERNELRELEASE=$ABI $cross AUXBUS_BACKEND=auto \
		AUXBUS_DIR=/build/$name/inst/usr/src/auxbus-dev/$ABI PORTERS_OTHER_PROVIDERS=y" \
		>"$logf" 2>&1 || return 1
	if grep -l 'auxbus/compat\.h' "$root/build/$name"/tests/{mainline-client,porters}/.*.o.cmd \
		>>"$logf" 2>&1; then
		echo "error: the bundle's private compat.h reached a third-party object (above)" >>"$logf"
		return 1
	fi
	client_mk_refusals "$root" "$kdir" "/build/$name/inst/usr/src/auxbus-$ver" \
		"/build/$name/tests/mainline-client" "$cross" >>"$logf" 2>&1
}

# kdir_llvm CHROOT KDIR: "LLVM=1" where the kernel of KDIR was built with clang, as a third
# party (and DKMS) builds against it; the bundle's own Makefile finds that itself
kdir_llvm() {
	in_chroot "$1" -- grep -qs '^CONFIG_CC_IS_CLANG=y' "$2/.config" && echo LLVM=1
}

# client_mk_refusals CHROOT KDIR AUXBUS_DIR MODDIR [CROSS_ARGS]: include/auxbus/client.mk
# refuses what would build against the wrong bus, each with its own message
client_mk_refusals() {
	local root=$1 kdir=$2 adir=$3 mod=$4 cross=${5:-} symvers ok=0
	symvers=$adir/Module.symvers-$ABI
	# refuse ARGS MESSAGE: the build with ARGS fails, saying MESSAGE
	refuse() {
		local out
		if out=$(in_chroot "$root" -- sh -c "cd $mod && make -C $kdir M=$mod $cross $1 modules" 2>&1); then
			echo "error: client.mk accepted $1"
			ok=1
		elif ! grep -qF "$2" <<<"$out"; then
			printf 'error: client.mk refused %s without saying "%s":\n%s\n' "$1" "$2" "$out"
			ok=1
		else
			echo "client.mk refuses $1: $2"
		fi
	}
	refuse "AUXBUS_DIR=$adir KBUILD_EXTRA_SYMBOLS=$symvers AUXBUS_BACKEND=builtin" \
		"say bundled, kernel or auto"
	# a kernel without its own bus: the kernel backend, asked for or read from a Module.symvers
	# that is not the bundle's (the kernel's own)
	if ! in_chroot "$root" -- grep -qs '^CONFIG_AUXILIARY_BUS=y' "$kdir/.config"; then
		refuse "AUXBUS_DIR=$adir KBUILD_EXTRA_SYMBOLS=$symvers AUXBUS_BACKEND=kernel" \
			"but this kernel has no CONFIG_AUXILIARY_BUS"
		refuse "AUXBUS_DIR=$adir KBUILD_EXTRA_SYMBOLS=$kdir/Module.symvers" \
			"but this kernel has no CONFIG_AUXILIARY_BUS"
	fi
	return $ok
}

# A pair's builds (build_bundle, then build_mainline_client) are cached by their inputs: the
# files they read (build_inputs), the kernel tree's configuration and symbol versions, the
# chroot's packages (its compiler), the backend and the build functions themselves. Inputs seen
# before restore the built tree and both logs (the W=1 check reads the log as it was), as
# ccache does per file.
# build_key CHROOT KDIR BACKEND: the key of a pair's builds
build_key() {
	local root=$1 kdir=$2 backend=$3
	{
		echo "$ABI $backend ${AUXBUS_PARTS:-} ${do_boot:-1}"
		declare -f tree_files copy_tree build_bundle build_mainline_client kdir_llvm client_mk_refusals
		tree_sums | build_inputs
		"$TOP/tests/sof-mainline/fetch-clients" --source
		in_chroot "$root" -- sh -c "cat $kdir/.config $kdir/Module.symvers" 2>&1
		cat "$root/var/lib/dpkg/status"
	} | sha256sum | cut -c1-32
}
# build_inputs: of tree_sums' lines, those of the files a pair's builds read: not the
# documentation, the cases and the harness that boots them, packaging or CI
build_inputs() {
	grep -Ev '  (.*\.md|\.ci/.*|.*/debian/.*|tests/(cases|lib|guest|mutants|builds|system)/.*|tests/(run|kernels\.list|style|checkpatch\.ignore|demo[^/]*))$'
}
# build_restore KEY CHROOT NAME DIR: the cached builds of KEY into CHROOT:/build/NAME and their
# logs into DIR; fails where there are none
build_restore() {
	local c=$AUXBUS_CACHE/pairs/$1
	[ -f "$c/done" ] || return 1
	rm -rf "$2/build/$3"
	cp -a "$c/tree" "$2/build/$3" && cp "$c"/*.log "$4/" && touch "$c/done"
}
# build_save KEY CHROOT NAME DIR: keep a pair's passed builds under KEY; the 40 newest stay
build_save() {
	local c=$AUXBUS_CACHE/pairs/$1 tmp
	mkdir -p "$AUXBUS_CACHE/pairs"
	tmp=$(mktemp -d "$AUXBUS_CACHE/pairs/.new.XXXXXX") || return 0
	if cp -a "$2/build/$3" "$tmp/tree" && cp "$4"/build.log "$4"/mainline-client.log "$tmp/" 2>/dev/null; then
		touch "$tmp/done"
		rm -rf "$c" && mv "$tmp" "$c" || rm -rf "$tmp"
	else
		rm -rf "$tmp"
	fi
	# shellcheck disable=SC2012
	ls -1t "$AUXBUS_CACHE/pairs" | tail -n +41 | while read -r old; do rm -rf "${AUXBUS_CACHE:?}/pairs/$old"; done
}

# dkms_dev_files KEY PREFIX ROOT ABI: the row "PREFIX headers, client.mk and Module.symvers in
# /usr/src/auxbus-dev/ABI": what a DKMS build of the bundle keeps for third-party modules
dkms_dev_files() {
	local key=$1 pre=$2 root=$3 dev=/usr/src/auxbus-dev/$4
	if [ -f "$root$dev/Module.symvers" ] && [ -f "$root$dev/include/linux/auxiliary_bus.h" ] &&
		[ -f "$root$dev/include/auxbus/client.mk" ]; then
		result "$key" ok "$pre headers, client.mk and Module.symvers in $dev"
	else
		result "$key" fail "$pre headers, client.mk and Module.symvers in $dev" \
			"$(ls -R "$root$dev" 2>&1 | head -n 3 | tr '\n' ' ')"
	fi
}

# dkms add/build/install/remove of the bundle inside the suite's chroot, for kernel ABI.
dkms_test() {
	local root=$1 abi=$2 key=$3 kname=$4 logf=$5 ver mods missing="" pver
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/dkms.conf")
	# The modules dkms.conf lists for this kernel (it reads the kernel's .config, as DKMS runs it).
	local ksrc
	ksrc=$(in_chroot "$root" -- readlink -f "/lib/modules/$abi/build")
	mods=$(kernelver=$abi kernel_source_dir=$root$ksrc bash -c \
		'. "$1" && echo "${BUILT_MODULE_NAME[@]}"' sh "$TOP/dkms.conf")
	in_chroot "$root" -- sh -c "dkms remove -m auxbus -v $ver --all; rm -rf /usr/src/auxbus-$ver" \
		>/dev/null 2>&1
	copy_tree "$root/usr/src/auxbus-$ver"
	rm -rf "$root/usr/src/auxbus-$ver/tests" "$root/usr/src/auxbus-$ver/.ci"
	if ! in_chroot "$root" -- nice -n 10 sh -c "dkms add -m auxbus -v $ver && dkms build -m auxbus -v $ver -k $abi && \
		dkms install -m auxbus -v $ver -k $abi" >"$logf" 2>&1; then
		result "$key" fail "$kname: dkms add/build/install" "see $logf: $(grep -m1 -iE 'error|fail' "$logf")"
		return
	fi
	for m in $mods; do
		ls "$root"/lib/modules/"$abi"/updates/dkms/"$m".ko* >/dev/null 2>&1 ||
			ls "$root"/usr/lib/modules/"$abi"/updates/dkms/"$m".ko* >/dev/null 2>&1 ||
			missing="$missing $m"
	done
	if [ -n "$missing" ]; then
		result "$key" fail "$kname: dkms add/build/install" "not under updates/dkms:$missing"
	else
		result "$key" ok "$kname: dkms add/build/install" "$(echo $mods | wc -w) modules in updates/dkms"
	fi
	# The files for third-party modules that the DKMS build keeps, and a third-party DKMS
	# package (tests/porters/dkms.conf, BUILD_DEPENDS="auxbus") built and installed against them.
	dkms_dev_files "$key" "$kname: dkms build keeps" "$root" "$abi"
	pver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TOP/tests/porters/dkms.conf")
	in_chroot "$root" -- sh -c "dkms remove -m auxbus-porters -v $pver --all; rm -rf /usr/src/auxbus-porters-$pver" \
		>/dev/null 2>&1
	mkdir -p "$root/usr/src/auxbus-porters-$pver"
	cp "$TOP"/tests/porters/{Kbuild,Makefile,dkms.conf,*.c,*.h} "$root/usr/src/auxbus-porters-$pver/"
	if ! in_chroot "$root" -- nice -n 10 sh -c "dkms add -m auxbus-porters -v $pver && \
		dkms build -m auxbus-porters -v $pver -k $abi && dkms install -m auxbus-porters -v $pver -k $abi" \
		>>"$logf" 2>&1; then
		result "$key" fail "$kname: dkms: third-party package builds against the DKMS-installed bundle" \
			"see $logf: $(grep -m1 -iE 'error|fail' "$logf")"
	else
		missing=""
		for m in $(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$TOP/tests/porters/dkms.conf"); do
			ls "$root"/lib/modules/"$abi"/updates/dkms/"$m".ko* >/dev/null 2>&1 ||
				ls "$root"/usr/lib/modules/"$abi"/updates/dkms/"$m".ko* >/dev/null 2>&1 ||
				missing="$missing $m"
		done
		if [ -n "$missing" ]; then
			result "$key" fail "$kname: dkms: third-party package builds against the DKMS-installed bundle" \
				"not under updates/dkms:$missing"
		else
			result "$key" ok "$kname: dkms: third-party package builds against the DKMS-installed bundle"
		fi
	fi
	in_chroot "$root" -- sh -c "dkms remove -m auxbus-porters -v $pver --all" >>"$logf" 2>&1
	rm -rf "$root/usr/src/auxbus-porters-$pver"
	in_chroot "$root" -- sh -c "dkms remove -m auxbus -v $ver --all" >>"$logf" 2>&1
	if ls "$root"/lib/modules/"$abi"/updates/dkms/*.ko* "$root"/usr/lib/modules/"$abi"/updates/dkms/*.ko* \
		2>/dev/null | grep -q .; then
		result "$key" fail "$kname: dkms remove" "modules left in updates/dkms"
	elif [ -e "$root/usr/src/auxbus-dev/$abi" ]; then
		result "$key" fail "$kname: dkms remove" "/usr/src/auxbus-dev/$abi is still there"
	else
		result "$key" ok "$kname: dkms remove" "modules and /usr/src/auxbus-dev/$abi gone"
	fi
	# DKMS 3.x names each deprecated dkms.conf directive on add, build and install
	if grep -q "Deprecated feature" "$logf"; then
		result "$key" fail "$kname: dkms: no deprecated directive" "$(grep -m1 "Deprecated feature" "$logf")"
	else
		result "$key" ok "$kname: dkms: no deprecated directive" \
			"$(in_chroot "$root" -- dpkg-query -W -f '${Version}' dkms 2>/dev/null)"
	fi
	rm -rf "$root/usr/src/auxbus-$ver"
}

# --- static tools ------------------------------------------------------------------------------
build_tools() {
	mkdir -p "$RUN/tools"
	[ -f "$TOP/tests/tools/Makefile" ] || return 0
	if make -s -C "$TOP/tests/tools" OUT="$RUN/tools" >"$RUN/tools.log" 2>&1; then
		result tools ok "host: test tools build (tests/tools)"
	else
		result tools fail "host: test tools build (tests/tools)" "see $RUN/tools.log"
	fi
	# auxbus/lsaux on synthetic sysfs trees: text, valid JSON, exit codes (about 2 s)
	if sh "$TOP/tests/tools/lsaux-test.sh" >"$RUN/lsaux-test.log" 2>&1; then
		result tools ok "host: lsaux on synthetic sysfs trees (tests/tools/lsaux-test.sh)" \
			"$(tail -n 1 "$RUN/lsaux-test.log" | cut -c3-)"
	else
		grep -A8 '^not ok' "$RUN/lsaux-test.log" | head -n 40 | sed 's/^/# /'
		result tools fail "host: lsaux on synthetic sysfs trees (tests/tools/lsaux-test.sh)" \
			"see $RUN/lsaux-test.log"
	fi
}

# build_guest_tools CHROOT NAME: tests/tools for another architecture than the host's, built
# static with the suite's cross compiler in CHROOT:/build/NAME/guest-tools (make_initramfs)
build_guest_tools() {
	local t
	t=$(cross_triplet "$(suite_arch "$SUITE")")
	in_chroot "$1" -- nice -n "${BUILD_NICE:-10}" make -s -C "/build/$2/tests/tools" \
		OUT="/build/$2/guest-tools" CC="$t-gcc"
}

# --- style -------------------------------------------------------------------------------------
# The style checks' result depends only on the tree and the tools: a pass is kept under
# $AUXBUS_CACHE/style/, keyed by the hash of every file of the tree (tree_sums)
# and the versions of linux-source-6.1 (checkpatch.pl), sparse and the bookworm headers.
style_key() {
	local root=$AUXBUS_CACHE/chroots/bookworm tools
	[ -f "$root/.auxbus-ready" ] || return 1
	tools=$(in_chroot "$root" -- dpkg-query -W -f='${Package} ${Version}\n' linux-source-6.1 sparse \
		'linux-headers-*' 2>/dev/null | sort) || return 1
	{
		echo "$tools"
		tree_sums
	} | sha256sum | cut -c1-16
}
run_style() {
	local t_s w key cached
	t_s=$(date +%s)
	key=$(style_key)
	for w in checkpatch kerneldoc sparse; do
		cached=$AUXBUS_CACHE/style/$key-$w.log
		if [ -n "$key" ] && [ -s "$cached" ]; then
			result style ok "style: $(tail -n 1 "$cached")" "passed before on this tree and tools ($key)"
		elif "$TOP/tests/style" $w >"$RUN/style-$w.log" 2>&1; then
			result style ok "style: $(tail -n 1 "$RUN/style-$w.log")"
			key=${key:-$(style_key)}
			[ -n "$key" ] && mkdir -p "$AUXBUS_CACHE/style" &&
				cp "$RUN/style-$w.log" "$AUXBUS_CACHE/style/$key-$w.log.$$" &&
				mv -f "$AUXBUS_CACHE/style/$key-$w.log.$$" "$AUXBUS_CACHE/style/$key-$w.log"
		else
			sed 's/^/# /' "$RUN/style-$w.log" | tail -n 40
			result style fail "style: $w" "$(tail -n 1 "$RUN/style-$w.log")"
		fi
	done
	T_SECS[style]=$(( $(date +%s) - t_s ))
}

# run_build_matrix: the build matrix's cheapest row (tests/builds/run --quick: 6.1, every
# optional subsystem off, gcc), as one row beside the style checks; make check-builds runs all
run_build_matrix() {
	local t0 log=$RUN/check-builds.log
	t0=$(date +%s)
	if nice -n 10 "$TOP/tests/builds/run" --quick >"$log" 2>&1; then
		result style ok "build matrix: $(grep -m1 '^ok ' "$log" | sed 's/^ok [0-9]* //')" \
			"tests/builds/run --quick, $(( $(date +%s) - t0 )) s"
	else
		result style fail "build matrix (tests/builds/run --quick)" \
			"$(grep -m1 '^not ok ' "$log" | sed 's/^not ok [0-9]* //'); see $log"
	fi
}
