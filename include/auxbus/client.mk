# SPDX-License-Identifier: GPL-2.0-only
#
# Kbuild fragment for third-party modules built against an installed auxbus bundle
# (make install / install-dev put it in /usr/src/auxbus-<version>/). In the module's Kbuild:
#
#   include $(AUXBUS_DIR)/include/auxbus/client.mk
#   obj-m += my_client.o
#
# and build with
#
#   make -C /lib/modules/$(uname -r)/build M=$PWD AUXBUS_DIR=/usr/src/auxbus-<version> \
#        KBUILD_EXTRA_SYMBOLS=/usr/src/auxbus-<version>/Module.symvers-$(uname -r) modules
#
# The sources then need nothing bundle-specific: <linux/auxiliary_bus.h> is the bundle's
# (newest mainline API, namespace AUXBUS imported). The backend is read from that
# Module.symvers (which bus the bundle was built for); AUXBUS_BACKEND=bundled|kernel and
# AUXBUS_COEXIST=y override it.

ifeq ($(AUXBUS_DIR),)
$(error auxbus: set AUXBUS_DIR to the installed bundle, e.g. /usr/src/auxbus-<version>)
endif

auxbus_client_inc := $(AUXBUS_DIR)/include
auxbus_client_symvers := $(wildcard $(KBUILD_EXTRA_SYMBOLS))

ifeq ($(AUXBUS_BACKEND),)
ifneq ($(shell grep -qsE '[[:space:]]auxbus_auxiliary_device_init[[:space:]]' $(auxbus_client_symvers) && echo y),)
AUXBUS_BACKEND := bundled
AUXBUS_COEXIST := y
else ifneq ($(shell grep -qsE '[[:space:]]auxiliary_device_init[[:space:]]' $(auxbus_client_symvers) && echo y),)
AUXBUS_BACKEND := bundled
else ifneq ($(auxbus_client_symvers),)
AUXBUS_BACKEND := kernel
else
$(error auxbus: KBUILD_EXTRA_SYMBOLS must name the bundle's installed Module.symvers)
endif
endif

ifeq ($(AUXBUS_BACKEND),kernel)
auxbus_client_flags := -DAUXBUS_BACKEND_KERNEL
else
auxbus_client_flags := -DAUXBUS_BACKEND_BUNDLED $(if $(filter y,$(AUXBUS_COEXIST)),-DAUXBUS_COEXIST)
endif

include $(auxbus_client_inc)/auxbus/Kbuild.include

ccflags-y += -I$(auxbus_client_inc) $(auxbus_client_flags) $(auxbus_feature_flags) \
	     -include $(auxbus_client_inc)/auxbus/compat.h
