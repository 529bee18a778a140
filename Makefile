# SPDX-License-Identifier: GPL-2.0-only
#
# The targets people run. What kbuild builds is in Kbuild.
#
#   make                      build every module against KDIR, W=1; any warning fails the build
#   make install              install into /lib/modules/$(KERNELRELEASE)/updates/, headers and
#                             Module.symvers into $(PREFIX)/src/auxbus-$(VERSION)/ and
#                             $(PREFIX)/src/auxbus-dev/$(KERNELRELEASE)/, auxbus/lsaux as
#                             $(PREFIX)/sbin/lsaux (make install-tools alone), then depmod
#   make dkms-install         dkms add/build/install of this tree; make dkms-remove undoes it
#   make deb                  the Debian packages auxbus-dkms and auxbus-porters-dkms (arch all,
#                             dh --with dkms), built outside the tree; the .debs and lintian's
#                             report land in DEB_OUT (default ~/.cache/auxbus/deb)
#   make check                the QEMU kernel matrix, each case on the pairs its axes need (tests/run)
#   make check-full           every case on every kernel/backend pair, every suite's system test
#   make check-builds         W=1 builds against Debian's 5.10..7.x, configs x gcc/clang (tests/builds/run)
#   make check-clang          the clang debug kernel (6.12, kCFI, UBSAN, KASAN, lockdep): debug's
#                             cases (tests/run -k debugc; not in make check)
#   make check-arm64          Debian's arm64 kernel: cross-built W=1, booted by qemu-system-aarch64
#                             -M virt (TCG) with the bus, SOF and mlx5 basics (tests/run --arch arm64)
#   make check-upstream       in-tree auxiliary-bus drivers (LJCA, Intel VSEC/PMT) from Debian's
#                             linux-source-*, built against the installed bundle on both backends
#   make demo                 boot one kernel and show the bundle working (tests/demo)
#   make bench                the benchmarks, in one boot of 6.1 (tests/run --bench)
#   make style                checkpatch.pl --strict, kernel-doc and sparse (C=2) over the sources
#   make mutants              mutation testing: each tests/mutants/*.patch and its cases
#
# AUXBUS_BACKEND=auto|bundled|kernel selects the bus (see README.md).

SHELL := /bin/bash

# With only KDIR=/lib/modules/<release>/build given, the release is that <release>.
ifeq ($(origin KERNELRELEASE)$(origin KDIR),undefinedcommand line)
ifneq ($(filter /lib/modules/%/build /lib/modules/%/build/,$(KDIR)),)
KERNELRELEASE := $(notdir $(patsubst %/build,%,$(patsubst %/,%,$(KDIR))))
endif
endif
KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
AUXBUS_BACKEND ?= auto
WERROR ?= 1
PREFIX ?= /usr
DESTDIR ?=
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(CURDIR)/dkms.conf)

# What 'auto' resolves to, read from the target kernel's configuration, never its version.
kconfig_has_bus := $(shell grep -qs '^\#define CONFIG_AUXILIARY_BUS 1' $(KDIR)/include/generated/autoconf.h && echo y || \
			   grep -qs '^CONFIG_AUXILIARY_BUS=y' $(KDIR)/.config && echo y)
ifeq ($(AUXBUS_BACKEND),auto)
backend := $(if $(kconfig_has_bus),kernel,bundled)
else
backend := $(AUXBUS_BACKEND)
endif
mode := $(if $(filter kernel,$(backend)),kernel's built-in bus,$(if $(kconfig_has_bus),bundled auxbus.ko (coexisting with the kernel's bus),bundled auxbus.ko))

# A kernel built with clang (CONFIG_CC_IS_CLANG=y) gets its modules built with clang and the
# LLVM tools (LLVM=1) unless LLVM or CC was given: gcc knows none of its flags, and kCFI traps
# the kernel's indirect calls into a module without kCFI type hashes. DKMS passes LLVM=1 (3.x)
# or CC=clang (2.8) itself, and then this stays out of its way.
kconfig_clang := $(shell grep -qs '^CONFIG_CC_IS_CLANG=y' $(KDIR)/.config && echo y)
ifeq ($(kconfig_clang)$(origin LLVM)$(filter command line,$(origin CC)),yundefined)
kbuild_llvm := LLVM=1
endif

kbuild = $(MAKE) -C $(KDIR) M=$(CURDIR) AUXBUS_BACKEND=$(backend) $(kbuild_llvm)

all: modules

modules:
	@echo "auxbus: backend $(backend): $(mode) [$(KERNELRELEASE)]$(if $(kbuild_llvm), LLVM=1: the kernel was built with clang)"
	+@set -o pipefail; \
	$(kbuild) W=1 modules 2>&1 | tee $(CURDIR)/.build.log; \
	status=$$?; [ $$status -eq 0 ] || exit $$status; \
	if [ "$(WERROR)" = 1 ] && grep -E '(warning|WARNING):' $(CURDIR)/.build.log >/dev/null; then \
		echo "auxbus: the build printed warnings (above); WERROR=1 makes that fatal" >&2; exit 1; \
	fi

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(kbuild_llvm) clean
	rm -f $(CURDIR)/.build.log

install: modules
	$(kbuild) INSTALL_MOD_DIR=updates modules_install
	$(MAKE) install-dev
	$(MAKE) install-tools
	depmod -a $(KERNELRELEASE)

# lsaux (auxbus/lsaux: the bus as a tree), for every kernel: not part of dkms.conf
install-tools:
	install -d $(DESTDIR)$(PREFIX)/sbin
	install -m 755 auxbus/lsaux $(DESTDIR)$(PREFIX)/sbin/lsaux

# Headers, client.mk and Module.symvers for third-party clients (README.md, "Writing a client"):
# in $(PREFIX)/src/auxbus-$(VERSION)/ (Module.symvers-$(KERNELRELEASE)), and per kernel in
# $(PREFIX)/src/auxbus-dev/$(KERNELRELEASE)/ (Module.symvers), the version-less path that the
# DKMS build keeps too (install-dev-kernel, from dkms.conf's MAKE step).
DEVDIR = $(DESTDIR)$(PREFIX)/src/auxbus-dev/$(KERNELRELEASE)

install-dev: install-dev-kernel
	install -d $(DESTDIR)$(PREFIX)/src/auxbus-$(VERSION)/include/linux \
		$(DESTDIR)$(PREFIX)/src/auxbus-$(VERSION)/include/auxbus
	install -m 644 include/linux/*.h $(DESTDIR)$(PREFIX)/src/auxbus-$(VERSION)/include/linux/
	install -m 644 include/auxbus/* $(DESTDIR)$(PREFIX)/src/auxbus-$(VERSION)/include/auxbus/
	install -m 644 Module.symvers \
		$(DESTDIR)$(PREFIX)/src/auxbus-$(VERSION)/Module.symvers-$(KERNELRELEASE)

install-dev-kernel:
	@test -f Module.symvers || { echo "auxbus: no Module.symvers: build first" >&2; exit 1; }
	rm -rf $(DEVDIR)
	install -d $(DEVDIR)/include/linux $(DEVDIR)/include/auxbus
	install -m 644 include/linux/*.h $(DEVDIR)/include/linux/
	install -m 644 include/auxbus/* $(DEVDIR)/include/auxbus/
	install -m 644 Module.symvers $(DEVDIR)/Module.symvers
	echo "$(VERSION)" >$(DEVDIR)/version

# DKMS's MAKE step (dkms.conf): the modules, then the files for third-party modules.
dkms-build: modules
	$(MAKE) install-dev-kernel

uninstall-dev-kernel:
	rm -rf $(DEVDIR)
	-rmdir $(DESTDIR)$(PREFIX)/src/auxbus-dev 2>/dev/null

dkms-install:
	dkms remove -m auxbus -v $(VERSION) --all >/dev/null 2>&1 || true
	rm -rf /usr/src/auxbus-$(VERSION)
	mkdir -p /usr/src/auxbus-$(VERSION)
	cp -a dkms.conf Makefile Kbuild include auxbus sof-clients mlx5-adev /usr/src/auxbus-$(VERSION)/
	dkms add -m auxbus -v $(VERSION)
	dkms build -m auxbus -v $(VERSION) -k $(KERNELRELEASE)
	dkms install -m auxbus -v $(VERSION) -k $(KERNELRELEASE)

dkms-remove:
	dkms remove -m auxbus -v $(VERSION) --all
	rm -rf /usr/src/auxbus-$(VERSION)

# The Debian packages: the packaging is auxbus/debian/ and tests/porters/debian/ (no debian/ at
# the top: the design card fixes the top level). Each source is copied to $(DEB_OUT)/build/
# with its debian/ directory and built there by dpkg-buildpackage -b; the changelog is written
# from dkms.conf's PACKAGE_VERSION. Installs its build tools when root and they are missing.
DEB_OUT ?= $(HOME)/.cache/auxbus/deb
DEB_TOOLS := debhelper dh-dkms lintian
# DEB_LINTIAN=0: no lintian (the test harness runs it itself, once per pair of packages)
DEB_LINTIAN ?= 1
PORTERS_VERSION = $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(CURDIR)/tests/porters/dkms.conf)
# the date of the last commit (reproducible), else now
DEB_DATE = $(shell git -C $(CURDIR) log -1 --format=%cD 2>/dev/null || date -R)
DEB_MAINT := auxbus maintainers <maintainers@users.noreply.a-seed-dbdda8cf.example>
deb_changelog = printf '%s (%s) unstable; urgency=medium\n\n  * Built by make deb (dkms.conf PACKAGE_VERSION %s).\n\n -- %s  %s\n' \
	'$(1)' '$(2)' '$(2)' '$(DEB_MAINT)' '$(DEB_DATE)'

deb:
	@test -n "$(DEB_OUT)" || { echo "make deb: DEB_OUT is empty" >&2; exit 1; }
	@missing=""; for p in $(DEB_TOOLS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then echo "make deb: run: sudo apt-get install --no-install-recommends$$missing" >&2; exit 1; fi; \
		echo "make deb: installing$$missing"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	fi
	rm -rf $(DEB_OUT)/build $(DEB_OUT)/*.deb $(DEB_OUT)/*.buildinfo $(DEB_OUT)/*.changes $(DEB_OUT)/lintian.txt
	mkdir -p $(DEB_OUT)/build/auxbus-$(VERSION)/debian $(DEB_OUT)/build/auxbus-porters-$(PORTERS_VERSION)/debian
	tar -C $(CURDIR) -cf - --exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude='*.cmd' --exclude='*.a' --exclude='*.order' --exclude='*.symvers' --exclude='.build.log' \
		--exclude=auxbus/debian dkms.conf Makefile Kbuild include auxbus sof-clients mlx5-adev | \
		tar -C $(DEB_OUT)/build/auxbus-$(VERSION) -xf -
	cp -a auxbus/debian/. $(DEB_OUT)/build/auxbus-$(VERSION)/debian/
	$(call deb_changelog,auxbus,$(VERSION)) >$(DEB_OUT)/build/auxbus-$(VERSION)/debian/changelog
	cp tests/porters/dkms.conf tests/porters/Kbuild tests/porters/Makefile tests/porters/*.c \
		tests/porters/*.h $(DEB_OUT)/build/auxbus-porters-$(PORTERS_VERSION)/
	cp -a tests/porters/debian/. $(DEB_OUT)/build/auxbus-porters-$(PORTERS_VERSION)/debian/
	$(call deb_changelog,auxbus-porters,$(PORTERS_VERSION)) \
		>$(DEB_OUT)/build/auxbus-porters-$(PORTERS_VERSION)/debian/changelog
	cd $(DEB_OUT)/build/auxbus-$(VERSION) && dpkg-buildpackage -b -us -uc >../auxbus.log 2>&1 || \
		{ tail -n 30 ../auxbus.log >&2; exit 1; }
	cd $(DEB_OUT)/build/auxbus-porters-$(PORTERS_VERSION) && dpkg-buildpackage -b -us -uc >../auxbus-porters.log 2>&1 || \
		{ tail -n 30 ../auxbus-porters.log >&2; exit 1; }
	mv $(DEB_OUT)/build/*.deb $(DEB_OUT)/build/*.buildinfo $(DEB_OUT)/build/*.changes $(DEB_OUT)/
	test "$(DEB_LINTIAN)" != 1 || { lintian --display-info --pedantic $(DEB_OUT)/*.changes >$(DEB_OUT)/lintian.txt 2>&1; \
		status=$$?; cat $(DEB_OUT)/lintian.txt; \
		[ $$status -eq 0 ] && ! grep -qE '^[EWIPX]: ' $(DEB_OUT)/lintian.txt || \
		{ echo "make deb: lintian complained (above)" >&2; exit 1; }; }
	@ls -1 $(DEB_OUT)/*.deb

check:
	tests/run

# every case on every kernel/backend pair its headers allow, and every suite's system test
check-full:
	tests/run --full

# the build matrix; tests/builds/run --quick is its cheapest row
check-builds:
	tests/builds/run

# the arm64 lines of tests/kernels.list (not in make check)
check-arm64:
	tests/run --arch arm64

# the debug kernels built with clang (tests/kernels.list; not in make check)
check-clang:
	tests/run --kernel debugc

# real upstream drivers against the installed bundle (tests/builds/upstream; not in make check)
check-upstream:
	tests/builds/upstream

demo:
	tests/demo

bench:
	tests/run --bench

# The debug kernel's fault-injection walks (tests/cases/fault-10-inject.sh), not in make check
faults:
	tests/run --kernel debug --no-dkms --case 'fault-*'

style:
	tests/style

# Mutation testing (tests/mutants/run; not in make check): MUTANTS=PATTERN picks some
mutants:
	tests/mutants/run $(MUTANTS)

.PHONY: all modules clean install install-tools install-dev install-dev-kernel dkms-build uninstall-dev-kernel dkms-install dkms-remove deb check check-full check-builds check-clang check-arm64 check-upstream demo bench faults style mutants
