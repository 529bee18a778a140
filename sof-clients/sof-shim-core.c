// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: a simulated SOF audio DSP, the parent of SOF auxiliary clients; its probe,
 * as mainline's sound/soc/sof/core.c, and the firmware's state (sof_set_fw_state(), and
 * snd_sof_handle_fw_exception() of debug.c). The control files that create and delete DSPs
 * are in sof-shim-bus.c, power management in sof-shim-pm.c.
 *
 * Its debugfs directory, /sys/kernel/debug/snd_sof_shim/snd_sof_shim.ID/, holds, for tests:
 *   clients_rpm_disabled	write 1: runtime PM of every client is disabled (as a
 *				client's own remove() does), so pm_runtime_resume_and_get()
 *				of a suspended client fails with -EACCES; write 0 to undo
 *   ipc4_probe_module_id	the id the IPC4 firmware's manifest gives the probe module (and
 *				the only one its module messages go to); 16 by default
 *   ipc4_probe_module_listed	write 0: the IPC4 firmware has no probe module, so
 *				sof_shim_client_ipc4_find_module() does not find it
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/error-injection.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>

#include "sof-shim-priv.h"

static void sof_shim_pm_disable(void *data)
{
	struct device *dev = data;

	pm_runtime_disable(dev);
	pm_runtime_dont_use_autosuspend(dev);
	pm_runtime_set_suspended(dev);
}

static void sof_shim_stop(void *data)
{
	struct sof_shim_dev *sdev = data;

	sof_shim_probes_cleanup(sdev);
	sof_shim_dsp_stop(sdev);
}

/* ---- per-DSP debugfs, for tests ---- */

static int sof_shim_clients_rpm_disabled_get(void *data, u64 *val)
{
	struct sof_shim_dev *sdev = data;

	mutex_lock(&sdev->client_mutex);
	*val = sdev->clients_rpm_disabled;
	mutex_unlock(&sdev->client_mutex);
	return 0;
}

/* under client_mutex: a client device on the list is not being deleted */
static int sof_shim_clients_rpm_disabled_set(void *data, u64 val)
{
	struct sof_shim_dev *sdev = data;
	struct sof_shim_client_dev *cdev;

	if (val > 1)
		return -EINVAL;

	mutex_lock(&sdev->client_mutex);
	if (val != sdev->clients_rpm_disabled) {
		list_for_each_entry(cdev, &sdev->client_list, list) {
			if (val)
				pm_runtime_disable(&cdev->auxdev.dev);
			else
				pm_runtime_enable(&cdev->auxdev.dev);
		}
		sdev->clients_rpm_disabled = val;
	}
	mutex_unlock(&sdev->client_mutex);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(sof_shim_clients_rpm_disabled_fops, sof_shim_clients_rpm_disabled_get,
			 sof_shim_clients_rpm_disabled_set, "%llu\n");

static void sof_shim_debugfs_remove(void *data)
{
	struct sof_shim_dev *sdev = data;

	debugfs_remove_recursive(sdev->debugfs_root);
}

static void sof_shim_clients_remove(void *data)
{
	sof_shim_unregister_clients(data);
}

/* the DSP core, its debugfs files and its clients, each undone by a devm action */
static int sof_shim_start(struct sof_shim_dev *sdev)
{
	struct device *dev = sdev->dev;
	int ret;

	ret = sof_shim_dsp_start(sdev);
	if (ret) {
		if (sdev->dsp_thread)
			sof_shim_dsp_stop(sdev);
		return dev_err_probe(dev, ret, "DSP start failed\n");
	}
	ret = devm_add_action_or_reset(dev, sof_shim_stop, sdev);
	if (ret)
		return ret;

	sdev->debugfs_root = debugfs_create_dir(dev_name(dev), sof_shim_debugfs_top);
	debugfs_create_file_unsafe("clients_rpm_disabled", 0600, sdev->debugfs_root, sdev,
				   &sof_shim_clients_rpm_disabled_fops);
	debugfs_create_u32("ipc4_probe_module_id", 0600, sdev->debugfs_root,
			   &sdev->ipc4_probe_module.man4_module_entry.id);
	debugfs_create_bool("ipc4_probe_module_listed", 0600, sdev->debugfs_root,
			    &sdev->ipc4_probe_module_listed);
	ret = devm_add_action_or_reset(dev, sof_shim_debugfs_remove, sdev);
	if (ret)
		return ret;

	ret = sof_shim_register_clients(sdev);
	if (ret)
		return ret;
	ret = devm_add_action_or_reset(dev, sof_shim_clients_remove, sdev);
	if (ret)
		return ret;

	return 0;
}

/*
 * Everything is undone by devm actions, in reverse: clients first, then the DSP core and
 * runtime PM. So the driver needs no .remove (whose return type changed in 6.11).
 */
int sof_shim_probe(struct platform_device *pdev)
{
	const struct sof_shim_fw_config *fw = dev_get_platdata(&pdev->dev);
	struct device *dev = &pdev->dev;
	struct sof_shim_dev *sdev;
	int ret;

	if (!fw)
		return -EINVAL;

	sdev = devm_kzalloc(dev, sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;

	sdev->dev = dev;
	sdev->id = pdev->id;
	sdev->fw = *fw;
	sdev->ipc_delay_us = fw->ipc_delay_us;
	sdev->fw_version.major = 2;
	sdev->fw_version.minor = 14;
	sdev->fw_version.micro = 0;
	sdev->ipc4_probe_module.man4_module_entry.id = SOF_SHIM_IPC4_PROBE_MODULE_ID;
	sdev->ipc4_probe_module.man4_module_entry.uuid = SOF_SHIM_IPC4_PROBE_UUID;
	sdev->ipc4_probe_module_listed = true;
	sdev->powered = true;
	mutex_init(&sdev->state_mutex);
	mutex_init(&sdev->client_mutex);
	INIT_LIST_HEAD(&sdev->client_list);
	mutex_init(&sdev->client_event_handler_mutex);
	INIT_LIST_HEAD(&sdev->ipc_rx_handler_list);
	INIT_LIST_HEAD(&sdev->fw_state_handler_list);
	sof_shim_probes_init(sdev);
	platform_set_drvdata(pdev, sdev);

	pm_runtime_set_autosuspend_delay(dev, SOF_SHIM_PM_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_set_active(dev);
	/* up until its clients exist, as mainline's sof_pci_probe_complete() lets it go */
	pm_runtime_get_noresume(dev);
	pm_runtime_enable(dev);
	ret = devm_add_action_or_reset(dev, sof_shim_pm_disable, dev);
	if (!ret)
		ret = sof_shim_start(sdev);
	if (ret) {
		pm_runtime_put_noidle(dev);
		return ret;
	}
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);

	dev_info(dev, "DSP up: firmware %u.%u.%u (IPC%d, mailbox %u bytes), clients ipc_flood:%u probes:%u, ipc delay %u us\n",
		 sdev->fw_version.major, sdev->fw_version.minor, sdev->fw_version.micro,
		 fw->ipc_type == SOF_SHIM_IPC_TYPE_4 ? 4 : 3, fw->mailbox_bytes,
		 fw->num_clients[SOF_SHIM_FN_IPC_FLOOD], fw->num_clients[SOF_SHIM_FN_PROBES],
		 sdev->ipc_delay_us);
	return 0;
}

/* ---- the firmware's state ---- */

/*
 * SOF's sof_set_fw_state(): clients hear of BOOT_NOT_STARTED, BOOT_COMPLETE and CRASHED,
 * not of the states in between. Called without ipc_lock, often with tx_mutex held (boot,
 * power-down, IPC timeout): the change is only queued here, and the caller hands it to the
 * clients with sof_shim_fw_state_notify() once tx_mutex is dropped, so a handler may send IPC.
 */
void sof_shim_set_fw_state(struct sof_shim_dev *sdev, enum sof_shim_fw_state new_state)
{
	enum sof_shim_fw_state old_state;
	unsigned int i;

	spin_lock_irq(&sdev->ipc_lock);
	old_state = sdev->fw_state;
	WRITE_ONCE(sdev->fw_state, new_state);
	if (new_state == SOF_SHIM_FW_CRASHED || new_state == SOF_SHIM_FW_BOOT_NOT_STARTED) {
		/* this firmware instance is gone, and with it what it holds */
		sdev->fw_boot_gen++;
		sdev->fw_hung = false;
		sdev->dsp_doorbell = false;
		sdev->host_irq = false;
		sdev->ipc4_lc.active = false;
	}
	if (old_state != new_state && new_state != SOF_SHIM_FW_BOOT_IN_PROGRESS) {
		/* a full queue keeps the newest state in its last slot */
		if (sdev->fw_state_events_len < SOF_SHIM_FW_STATE_EVENTS)
			sdev->fw_state_events_len++;
		i = (sdev->fw_state_events_head + sdev->fw_state_events_len - 1) %
		    SOF_SHIM_FW_STATE_EVENTS;
		sdev->fw_state_events[i] = new_state;
	}
	spin_unlock_irq(&sdev->ipc_lock);

	if (old_state != new_state)
		dev_dbg(sdev->dev, "fw_state change: %d -> %d\n", old_state, new_state);
}

/*
 * Hand the queued fw_state changes to the clients' handlers, oldest first. Called without
 * tx_mutex. One caller delivers at a time; a change queued meanwhile (also from a handler)
 * is delivered by that caller before it returns, so none is left behind or reordered.
 */
void sof_shim_fw_state_notify(struct sof_shim_dev *sdev)
{
	enum sof_shim_fw_state state;

	spin_lock_irq(&sdev->ipc_lock);
	if (sdev->fw_state_notifying) {
		spin_unlock_irq(&sdev->ipc_lock);
		return;
	}
	sdev->fw_state_notifying = true;
	while (sdev->fw_state_events_len) {
		state = sdev->fw_state_events[sdev->fw_state_events_head];
		sdev->fw_state_events_head = (sdev->fw_state_events_head + 1) %
					     SOF_SHIM_FW_STATE_EVENTS;
		sdev->fw_state_events_len--;
		spin_unlock_irq(&sdev->ipc_lock);
		sof_shim_client_fw_state_dispatcher(sdev, state);
		spin_lock_irq(&sdev->ipc_lock);
	}
	sdev->fw_state_notifying = false;
	spin_unlock_irq(&sdev->ipc_lock);
}

/**
 * sof_shim_handle_fw_exception() - the firmware failed the host (SOF's
 * snd_sof_handle_fw_exception())
 * @sdev:	the DSP
 * @msg:	what happened, for the log
 *
 * Dumps what a developer needs, as SOF's does, and then, unlike it, marks the firmware
 * crashed as SOF's snd_sof_dsp_panic() does for a non-recoverable panic: clients hear it
 * through their fw_state handlers and every later IPC fails with -ENODEV until the firmware
 * is booted again.
 */
void sof_shim_handle_fw_exception(struct sof_shim_dev *sdev, const char *msg)
{
	if (READ_ONCE(sdev->fw_state) == SOF_SHIM_FW_CRASHED)
		return;
	dev_err(sdev->dev, "------------[ DSP dump start ]------------\n");
	dev_err(sdev->dev, "%s\n", msg);
	dev_err(sdev->dev, "fw_state: crashed (was %d), %llu messages handled\n",
		READ_ONCE(sdev->fw_state), sdev->fw_handled);
	dev_err(sdev->dev, "------------[ DSP dump end ]------------\n");
	sof_shim_set_fw_state(sdev, SOF_SHIM_FW_CRASHED);
}

/**
 * sof_shim_fw_boot() - (re)boot the firmware
 * @sdev:	the DSP
 *
 * Waits for a message still in flight (it times out on a dead firmware), then goes through
 * BOOT_IN_PROGRESS to BOOT_COMPLETE with the DSP's probe state reset, and sends the clients a
 * FW_READY notification.
 *
 * Return: 0, or -EBUSY when the firmware is already running.
 */
int sof_shim_fw_boot(struct sof_shim_dev *sdev)
{
	int ret = 0;

	/* as in SOF, the firmware boots with no IPC in flight */
	mutex_lock(&sdev->ipc.tx_mutex);
	if (READ_ONCE(sdev->fw_state) == SOF_SHIM_FW_BOOT_COMPLETE) {
		ret = -EBUSY;
		goto out_unlock;
	}

	sof_shim_set_fw_state(sdev, SOF_SHIM_FW_BOOT_IN_PROGRESS);
	spin_lock_irq(&sdev->ipc_lock);
	sdev->fw_handled = 0;
	spin_unlock_irq(&sdev->ipc_lock);
	sof_shim_probes_reset(sdev);
	sof_shim_set_fw_state(sdev, SOF_SHIM_FW_BOOT_COMPLETE);
	dev_info(sdev->dev, "firmware %u.%u.%u booted\n", sdev->fw_version.major,
		 sdev->fw_version.minor, sdev->fw_version.micro);
out_unlock:
	sof_shim_ipc_tx_unlock(sdev);
	if (ret)
		return ret;
	return sof_shim_dsp_notify(sdev, SOF_SHIM_IPC_GLB_FW_READY, &sdev->fw_version,
				   sizeof(sdev->fw_version));
}

ALLOW_ERROR_INJECTION(sof_shim_fw_boot, ERRNO);
