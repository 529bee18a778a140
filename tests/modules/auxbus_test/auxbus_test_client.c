// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-only auxiliary driver for auxbus_test_parent.client.<id>. Its probe adds the
 * sysfs irq 100+id and its remove drops it (unless keep_irq is set: a driver that
 * forgets it). Read-only module parameters count the callbacks the bus made, for the
 * case scripts: probes, removes, suspends, resumes, shutdowns.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/auxiliary_bus.h>
#include <linux/module.h>
#include <linux/pm.h>

static int probes, removes, suspends, resumes, shutdowns;
module_param(probes, int, 0444);
module_param(removes, int, 0444);
module_param(suspends, int, 0444);
module_param(resumes, int, 0444);
module_param(shutdowns, int, 0444);
static bool keep_irq;
module_param(keep_irq, bool, 0644);

static int tclient_probe(struct auxiliary_device *auxdev, const struct auxiliary_device_id *id)
{
	int ret;

	ret = auxiliary_device_sysfs_irq_add(auxdev, 100 + auxdev->id);
	if (ret)
		return ret;
	probes++;
	return 0;
}

static void tclient_remove(struct auxiliary_device *auxdev)
{
	if (!READ_ONCE(keep_irq))
		auxiliary_device_sysfs_irq_remove(auxdev, 100 + auxdev->id);
	removes++;
}

static void tclient_shutdown(struct auxiliary_device *auxdev)
{
	shutdowns++;
	/* tests/cases/bus-70-reboot.sh looks for this line on the console. */
	dev_info(&auxdev->dev, "shutdown\n");
}

static int __maybe_unused tclient_suspend(struct device *dev)
{
	suspends++;
	dev_info(dev, "suspend\n");
	return 0;
}

static int __maybe_unused tclient_resume(struct device *dev)
{
	resumes++;
	dev_info(dev, "resume\n");
	return 0;
}

static SIMPLE_DEV_PM_OPS(tclient_pm_ops, tclient_suspend, tclient_resume);

AUXILIARY_DEVICE_TABLE(tclient_ids, "auxbus_test_parent.client");

static struct auxiliary_driver tclient_driver = {
	.name = "client",
	.probe = tclient_probe,
	.remove = tclient_remove,
	.shutdown = tclient_shutdown,
	.driver.pm = &tclient_pm_ops,
	.id_table = tclient_ids,
};
module_auxiliary_driver(tclient_driver);

MODULE_DESCRIPTION("Test-only auxiliary driver (auxbus bundle tests)");
MODULE_LICENSE("GPL");
