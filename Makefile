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
#   make check                the whole QEMU kernel matrix (tests/run)
#   make demo                 boot one kernel and show the bundle working (tests/demo)
#   make bench                the benchmarks, in one boot of 6.1 (tests/run --bench)
#   make style                checkpatch.pl --strict and sparse (C=2) over the sources
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

kbuild = $(MAKE) -C $(KDIR) M=$(CURDIR) AUXBUS_BACKEND=$(backend)

all: modules

modules:
	@echo "auxbus: backend $(backend): $(mode) [$(KERNELRELEASE)]"
	+@set -o pipefail; \
	$(kbuild) W=1 modules 2>&1 | tee $(CURDIR)/.build.log; \
	status=$$?; [ $$status -eq 0 ] || exit $$status; \
	if [ "$(WERROR)" = 1 ] && grep -E '(warning|WARNING):' $(CURDIR)/.build.log >/dev/null; then \
		echo "auxbus: the build printed warnings (above); WERROR=1 makes that fatal" >&2; exit 1; \
	fi

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
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

check:
	tests/run

demo:
	tests/demo

bench:
	tests/run --bench

# The debug kernel's fault-injection walks (tests/cases/fault-10-inject.sh), not in make check
faults:
	tests/run --kernel debug --no-dkms --case 'fault-*'

style:
	tests/style

.PHONY: all modules clean install install-tools install-dev install-dev-kernel dkms-build uninstall-dev-kernel dkms-install dkms-remove check demo bench faults style
