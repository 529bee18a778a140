// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: power management, as mainline's sound/soc/sof/pm.c: the DSP's D3 and D0 and
 * the driver's runtime and system PM ops.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/pm_runtime.h>

#include "sof-shim-priv.h"

/**
 * sof_shim_dsp_power_down() - D3: the DSP goes off and its firmware with it
 * @sdev:	the DSP
 *
 * As SOF's sof_suspend(): no IPC in flight (tx_mutex), fw_state BOOT_NOT_STARTED (clients
 * hear it), and the DSP's state, probe points and extractor included, is gone.
 */
void sof_shim_dsp_power_down(struct sof_shim_dev *sdev)
{
	mutex_lock(&sdev->ipc.tx_mutex);
	sof_shim_set_fw_state(sdev, SOF_SHIM_FW_BOOT_NOT_STARTED);
	sof_shim_probes_reset(sdev);
	WRITE_ONCE(sdev->powered, false);
	sof_shim_ipc_tx_unlock(sdev);
	dev_dbg(sdev->dev, "DSP powered off\n");
}

/**
 * sof_shim_dsp_power_up() - D0: the DSP comes on and boots its firmware
 * @sdev:	the DSP
 *
 * As SOF's sof_resume(): the firmware boots through BOOT_IN_PROGRESS to BOOT_COMPLETE.
 *
 * Return: 0 or the boot's negative errno.
 */
int sof_shim_dsp_power_up(struct sof_shim_dev *sdev)
{
	int ret;

	WRITE_ONCE(sdev->powered, true);
	ret = sof_shim_fw_boot(sdev);
	if (ret)
		dev_err(sdev->dev, "firmware boot on resume failed: %d\n", ret);
	return ret;
}

/*
 * D3, as SOF's sof_suspend() and sof_resume(): powering the DSP off loses the firmware
 * (fw_state BOOT_NOT_STARTED, probe points and extractor gone); powering it on boots the
 * firmware again through BOOT_IN_PROGRESS to BOOT_COMPLETE. Clients hear of
 * BOOT_NOT_STARTED and BOOT_COMPLETE through their fw_state handlers. On runtime and system
 * PM alike, the clients' .suspend runs only when the firmware is BOOT_COMPLETE, with the
 * DSP's target power state as the event (always D3 here: the shim has no low-power D0), and
 * their .resume once the firmware booted again.
 */
static void sof_shim_suspend_common(struct sof_shim_dev *sdev)
{
	pm_message_t pm_state = { .event = SOF_SHIM_DSP_PM_D3 };

	if (READ_ONCE(sdev->fw_state) == SOF_SHIM_FW_BOOT_COMPLETE)
		sof_shim_suspend_clients(sdev, pm_state);
	sof_shim_dsp_power_down(sdev);
}

static int sof_shim_resume_common(struct sof_shim_dev *sdev)
{
	int ret;

	ret = sof_shim_dsp_power_up(sdev);
	if (ret)
		return ret;
	return sof_shim_resume_clients(sdev);
}

static int __maybe_unused sof_shim_runtime_suspend(struct device *dev)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);

	sof_shim_suspend_common(sdev);
	atomic_inc(&sdev->stat_runtime_suspend);
	return 0;
}

static int __maybe_unused sof_shim_runtime_resume(struct device *dev)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);

	atomic_inc(&sdev->stat_runtime_resume);
	return sof_shim_resume_common(sdev);
}

/* a runtime-suspended DSP is off already and stays off: runtime PM resumes it when needed */
static int __maybe_unused sof_shim_suspend(struct device *dev)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);

	atomic_inc(&sdev->stat_system_suspend);
	if (!pm_runtime_suspended(dev))
		sof_shim_suspend_common(sdev);
	return 0;
}

static int __maybe_unused sof_shim_resume(struct device *dev)
{
	struct sof_shim_dev *sdev = dev_get_drvdata(dev);

	atomic_inc(&sdev->stat_system_resume);
	if (pm_runtime_suspended(dev))
		return 0;
	return sof_shim_resume_common(sdev);
}

const struct dev_pm_ops sof_shim_pm_ops = {
	SET_SYSTEM_SLEEP_PM_OPS(sof_shim_suspend, sof_shim_resume)
	SET_RUNTIME_PM_OPS(sof_shim_runtime_suspend, sof_shim_runtime_resume, NULL)
};
