/* SPDX-License-Identifier: GPL-2.0-only */
/* Interface of porter_parent.ko to its client drivers (namespace PORTER_PARENT). */
#ifndef PORTER_PARENT_H
#define PORTER_PARENT_H

#include <linux/auxiliary_bus.h>

struct porter_parent_adev {
	struct auxiliary_device adev;
	u32 cookie;
};

u32 porter_parent_cookie(struct auxiliary_device *adev);

#endif
