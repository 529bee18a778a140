# SPDX-License-Identifier: GPL-2.0-only
#
# Kbuild fragment for third-party modules built against an installed auxbus bundle: make
# install, install-dev and every DKMS build of the bundle put it, the headers and the
# bundle's Module.symvers in /usr/src/auxbus-dev/<kernelrelease>/ (make install also in
# /usr/src/auxbus-<version>/, Module.symvers-<kernelrelease>; see README.md). In the
# module's Kbuild:
#
#   include $(AUXBUS_DIR)/include/auxbus/client.mk
#   obj-m += my_client.o
#
# and build with
#
#   make -C /lib/modules/$(uname -r)/build M=$PWD AUXBUS_DIR=/usr/src/auxbus-dev/$(uname -r) \
#        KBUILD_EXTRA_SYMBOLS=/usr/src/auxbus-dev/$(uname -r)/Module.symvers modules
#
# What this puts into the module's build, and nothing else:
#
# - the bundle's include directory FIRST on the include path (LINUXINCLUDE, the way the
#   backports project puts backport-include/ first), so <linux/auxiliary_bus.h> is the
#   bundle's: the newest mainline API, namespace AUXBUS imported. With the kernel backend
#   it wraps the kernel's own header with #include_next. No -include, no redefined kernel
#   macro, no name outside AUXBUS_*/auxbus_*: pr_fmt, EXPORT_SYMBOL_NS, MODULE_IMPORT_NS,
#   eth_hw_addr_set and the like stay the kernel's (and the driver's own).
# - -DAUXBUS_BACKEND_* and -DAUXBUS_HAVE_* (feature greps of the target kernel).
# - module aliases where modpost cannot write the right ones from a plain
#   MODULE_DEVICE_TABLE(auxiliary, ...): kernels before v5.11 (modpost ignores the table)
#   and the coexisting bus (uevent prefix "auxbus:"). After the modules are compiled and
#   before modpost reads them, auxbus/modalias.sh reads each module's compiled auxiliary
#   id table and adds "alias=<prefix><name>" to its .modinfo; depmod then lists them in
#   modules.alias as for any other bus. On the coexisting bus it then hides the table from
#   modpost, whose "auxiliary:" aliases would let the kernel bus's devices load the module.
#
# The backend is read from the bundle's Module.symvers: the bundled bus exports
# auxbus_auxiliary_device_init (every export of the bundled bus carries the auxbus_
# prefix); it coexists with the kernel's bus where the kernel has CONFIG_AUXILIARY_BUS.
# AUXBUS_BACKEND=bundled|kernel and AUXBUS_COEXIST=y|n override that (auto: read it).

ifeq ($(AUXBUS_DIR),)
$(error auxbus: set AUXBUS_DIR to the installed bundle, e.g. /usr/src/auxbus-<version>)
endif

ifeq ($(auxbus_client_mk_included),)
auxbus_client_mk_included := y

# absolute, as the include of this file resolved it: the compilers run in the kernel's
# directory before v6.13 and in the module's since (13b25489b6f8)
auxbus_client_inc := $(abspath $(AUXBUS_DIR))/include
auxbus_client_symvers := $(wildcard $(KBUILD_EXTRA_SYMBOLS))

auxbus_client_backend := $(filter-out auto,$(AUXBUS_BACKEND))
ifeq ($(auxbus_client_backend),)
ifneq ($(shell grep -qsE '[[:space:]]auxbus_auxiliary_device_init[[:space:]]' $(auxbus_client_symvers) && echo y),)
auxbus_client_backend := bundled
else ifneq ($(auxbus_client_symvers),)
auxbus_client_backend := kernel
else
$(error auxbus: KBUILD_EXTRA_SYMBOLS must name the bundle's installed Module.symvers (an absolute path))
endif
endif
ifeq ($(filter bundled kernel,$(auxbus_client_backend)),)
$(error auxbus: AUXBUS_BACKEND=$(AUXBUS_BACKEND): say bundled, kernel or auto)
endif
# the kernel backend is the kernel's own bus (a Module.symvers without the bundled bus's
# exports says kernel): on a kernel without one, the bundle was built for another kernel
ifeq ($(auxbus_client_backend)$(CONFIG_AUXILIARY_BUS),kernel)
$(error auxbus: the kernel backend, but this kernel has no CONFIG_AUXILIARY_BUS: give the \
	Module.symvers of the bundle built for this kernel (its bus is auxbus.ko))
endif

ifeq ($(auxbus_client_backend),kernel)
auxbus_client_flags := -DAUXBUS_BACKEND_KERNEL
auxbus_client_coexist :=
else
auxbus_client_coexist := $(if $(AUXBUS_COEXIST),$(filter y,$(AUXBUS_COEXIST)),$(CONFIG_AUXILIARY_BUS))
auxbus_client_flags := -DAUXBUS_BACKEND_BUNDLED $(if $(auxbus_client_coexist),-DAUXBUS_COEXIST)
endif

include $(auxbus_client_inc)/auxbus/Kbuild.include

LINUXINCLUDE := -I$(auxbus_client_inc) $(LINUXINCLUDE)
ccflags-y += $(auxbus_client_flags) $(auxbus_feature_flags)

# The MODALIAS prefix that modpost's own "auxiliary:" aliases do not give: "auxbus:" on the
# coexisting bus, "auxiliary:" where modpost does not know the auxiliary table.
auxbus_client_alias_prefix := $(if $(auxbus_client_coexist),auxbus:,$(if \
	$(filter -DAUXBUS_HAVE_AUXILIARY_DEVICE_ID,$(auxbus_feature_flags)),,$(if \
	$(filter kernel,$(auxbus_client_backend)),,auxiliary:)))

# scripts/Makefile.modpost includes this file too (for KBUILD_EXTRA_SYMBOLS): there, write
# the aliases into the modules' objects before modpost reads them. modpost's output is
# $(KBUILD_EXTMOD)/Module.symvers, or Module.symvers where make runs in the module's directory
# (v6.13 on: 13b25489b6f8 "kbuild: change working directory to external module directory
# with M="); both run after the aliases are in.
ifneq ($(auxbus_client_alias_prefix),)
ifneq ($(filter %scripts/Makefile.modpost,$(MAKEFILE_LIST)),)
$(KBUILD_EXTMOD)/Module.symvers Module.symvers: | auxbus-modalias
PHONY += auxbus-modalias
# The kernel's AUXILIARY_NAME_SIZE (32; 40 on newer kernels such as 7.x, where the table
# lives in include/linux/device-id/auxiliary.h), 32 where it has none (the bundle's).
auxbus_client_name_size = $(or $(shell sed -n 's/^\#define AUXILIARY_NAME_SIZE[[:space:]]*\([0-9]*\).*/\1/p' \
	$(addprefix $(srctree)/include/linux/,mod_devicetable.h device-id/auxiliary.h) 2>/dev/null | head -n 1),32)
auxbus-modalias:
	$(Q)OBJCOPY="$(OBJCOPY)" OBJDUMP="$(OBJDUMP)" $(CONFIG_SHELL) \
		$(auxbus_client_inc)/auxbus/modalias.sh "$(auxbus_client_alias_prefix)" \
		$(or $(MODORDER),modules.order) $(auxbus_client_name_size) \
		$(if $(auxbus_client_coexist),hide)
endif
endif

endif # auxbus_client_mk_included
