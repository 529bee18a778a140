// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim: client framework, after mainline SOF's sound/soc/sof/sof-client.c (5.18+):
 * the client devices and their lifetime, what a client reads of its DSP, and the clients'
 * PM. Their IPC and event handlers are in sof-shim-client-ipc.c.
 * Exported in the "SND_SOC_SOF_SHIM_CLIENT" namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/errno.h>
#include <linux/error-injection.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/slab.h>

#include "sof-shim-priv.h"

/*
 * Client device ids are unique per function across all DSPs: snd_sof_shim.ipc_flood.<n>.
 * The devices have mainline's names (snd_sof.<name>.<n> there); new_device's clients= calls
 * the probes function "probes".
 */
static const char * const sof_shim_fn_names[SOF_SHIM_FN_NUM] = {
	[SOF_SHIM_FN_IPC_FLOOD] = "ipc_flood",
	[SOF_SHIM_FN_PROBES] = "hda-probes",
	[SOF_SHIM_FN_IPC_MSG_INJECTOR] = "msg_injector",
	[SOF_SHIM_FN_KERNEL_INJECTOR] = "kernel_injector",
};

static DEFINE_IDA(sof_shim_ida_ipc_flood);
static DEFINE_IDA(sof_shim_ida_probes);
static DEFINE_IDA(sof_shim_ida_ipc_msg_injector);
static DEFINE_IDA(sof_shim_ida_kernel_injector);

static struct ida *sof_shim_fn_ida[SOF_SHIM_FN_NUM] = {
	[SOF_SHIM_FN_IPC_FLOOD] = &sof_shim_ida_ipc_flood,
	[SOF_SHIM_FN_PROBES] = &sof_shim_ida_probes,
	[SOF_SHIM_FN_IPC_MSG_INJECTOR] = &sof_shim_ida_ipc_msg_injector,
	[SOF_SHIM_FN_KERNEL_INJECTOR] = &sof_shim_ida_kernel_injector,
};

/*
 * Client devices, whose release runs this module's code. A device's last reference can go
 * after its unregister returned (a sysfs reader; CONFIG_DEBUG_KOBJECT_RELEASE delays every
 * release by up to a second, and debugk faulted in one run after rmmod), so module exit waits
 * for them, as mlx5_shim_core does and netdevsim's bus waits for its devices: one reference
 * for the module itself, one per device from its initialization to its release.
 */
static refcount_t sof_shim_client_devs = REFCOUNT_INIT(1);
static DECLARE_COMPLETION(sof_shim_client_devs_released);

static void sof_shim_client_devs_put(void)
{
	if (refcount_dec_and_test(&sof_shim_client_devs))
		complete(&sof_shim_client_devs_released);
}

/* Module exit, after the last DSP is gone: wait for the client devices' releases. */
void sof_shim_client_devs_wait(void)
{
	sof_shim_client_devs_put();
	wait_for_completion(&sof_shim_client_devs_released);
}

static void sof_shim_client_auxdev_release(struct device *dev)
{
	struct sof_shim_client_dev *cdev = dev_to_sof_shim_client_dev(dev);

	kfree(cdev->auxdev.dev.platform_data);
	kfree(cdev);
	sof_shim_client_devs_put();
}

/**
 * sof_shim_client_dev_register() - create and add one client device of a DSP
 * @sdev:	the DSP
 * @name:	function name; must outlive the device (a string literal)
 * @id:		device id, unique for @name
 * @data:	platform data, copied; or NULL
 * @size:	size of @data
 *
 * The device is named snd_sof_shim.<@name>.<@id> and is a child of the DSP's device.
 *
 * Return: 0 or a negative errno.
 */
int sof_shim_client_dev_register(struct sof_shim_dev *sdev, const char *name, u32 id,
				 const void *data, size_t size)
{
	struct sof_shim_client_dev *cdev;
	struct auxiliary_device *auxdev;
	void *pdata = NULL;
	int ret;

	cdev = kzalloc(sizeof(*cdev), GFP_KERNEL);
	if (!cdev)
		return -ENOMEM;

	if (data) {
		pdata = kmemdup(data, size, GFP_KERNEL);
		if (!pdata) {
			ret = -ENOMEM;
			goto err_free_cdev;
		}
	}

	cdev->sdev = sdev;
	auxdev = &cdev->auxdev;
	auxdev->name = name;
	auxdev->id = id;
	auxdev->dev.parent = sdev->dev;
	auxdev->dev.release = sof_shim_client_auxdev_release;
	auxdev->dev.platform_data = pdata;

	ret = auxiliary_device_init(auxdev);
	if (ret < 0) {
		dev_err(sdev->dev, "failed to initialize client dev %s.%u\n", name, id);
		goto err_free_pdata;
	}
	refcount_inc(&sof_shim_client_devs);	/* put by the release */

	ret = auxiliary_device_add(auxdev);
	if (ret < 0) {
		dev_err(sdev->dev, "failed to add client dev %s.%u\n", name, id);
		/* the release callback frees cdev and its platform data */
		auxiliary_device_uninit(auxdev);
		return ret;
	}

	mutex_lock(&sdev->client_mutex);
	list_add_tail(&cdev->list, &sdev->client_list);
	mutex_unlock(&sdev->client_mutex);

	return 0;

err_free_pdata:
	kfree(pdata);
err_free_cdev:
	kfree(cdev);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_dev_register, "SND_SOC_SOF_SHIM_CLIENT");
ALLOW_ERROR_INJECTION(sof_shim_client_dev_register, ERRNO);

/**
 * sof_shim_client_dev_unregister() - delete one client device of a DSP
 * @sdev:	the DSP
 * @name:	function name given to sof_shim_client_dev_register()
 * @id:		device id given to sof_shim_client_dev_register()
 *
 * Unbinds the client driver (waiting for it), then drops the device.
 */
void sof_shim_client_dev_unregister(struct sof_shim_dev *sdev, const char *name, u32 id)
{
	struct sof_shim_client_dev *cdev, *found = NULL;

	mutex_lock(&sdev->client_mutex);
	list_for_each_entry(cdev, &sdev->client_list, list) {
		if (!strcmp(cdev->auxdev.name, name) && cdev->auxdev.id == id) {
			list_del(&cdev->list);
			found = cdev;
			break;
		}
	}
	mutex_unlock(&sdev->client_mutex);

	/* outside client_mutex: the client's remove may still suspend/resume or send IPCs */
	if (found) {
		auxiliary_device_delete(&found->auxdev);
		auxiliary_device_uninit(&found->auxdev);
	}
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_dev_unregister, "SND_SOC_SOF_SHIM_CLIENT");

static int sof_shim_register_fn(struct sof_shim_dev *sdev, enum sof_shim_fn fn)
{
	struct sof_shim_ipc_flood_pdata flood;
	const void *pdata = NULL;
	size_t psize = 0;
	u32 i;
	int id, ret;

	if (fn == SOF_SHIM_FN_PROBES) {
		pdata = &sof_shim_probes_host_ops;
		psize = sizeof(sof_shim_probes_host_ops);
	} else if (fn == SOF_SHIM_FN_IPC_FLOOD) {
		pdata = &flood;
		psize = sizeof(flood);
	}

	for (i = 0; i < sdev->fw.num_clients[fn]; i++) {
		flood.index = i;
		id = ida_alloc(sof_shim_fn_ida[fn], GFP_KERNEL);
		if (id < 0)
			return id;
		ret = sof_shim_client_dev_register(sdev, sof_shim_fn_names[fn], id, pdata, psize);
		if (ret) {
			ida_free(sof_shim_fn_ida[fn], id);
			return ret;
		}
	}
	return 0;
}

/**
 * sof_shim_unregister_clients() - delete every client device of a DSP, newest first
 * @sdev:	the DSP
 */
void sof_shim_unregister_clients(struct sof_shim_dev *sdev)
{
	struct sof_shim_client_dev *cdev;
	const char *name;
	enum sof_shim_fn fn;
	u32 id;

	for (;;) {
		mutex_lock(&sdev->client_mutex);
		cdev = NULL;
		if (!list_empty(&sdev->client_list)) {
			cdev = list_last_entry(&sdev->client_list, struct sof_shim_client_dev,
					       list);
			name = cdev->auxdev.name;
			id = cdev->auxdev.id;
		}
		mutex_unlock(&sdev->client_mutex);
		if (!cdev)
			break;

		sof_shim_client_dev_unregister(sdev, name, id);
		for (fn = 0; fn < SOF_SHIM_FN_NUM; fn++)
			if (!strcmp(name, sof_shim_fn_names[fn]))
				ida_free(sof_shim_fn_ida[fn], id);
	}
}

/**
 * sof_shim_register_clients() - create the client devices the firmware advertises
 * @sdev:	the DSP
 *
 * Return: 0, or a negative errno with no client left behind.
 */
int sof_shim_register_clients(struct sof_shim_dev *sdev)
{
	enum sof_shim_fn fn;
	int ret;

	for (fn = 0; fn < SOF_SHIM_FN_NUM; fn++) {
		/* as mainline's sof_register_ipc_kernel_injector(): IPC3 only */
		if (fn == SOF_SHIM_FN_KERNEL_INJECTOR && sdev->fw.num_clients[fn] &&
		    sdev->fw.ipc_type != SOF_SHIM_IPC_TYPE_3) {
			dev_info(sdev->dev, "IPC4 firmware: no kernel injector (IPC3 only)\n");
			continue;
		}
		ret = sof_shim_register_fn(sdev, fn);
		if (ret) {
			dev_err(sdev->dev, "%s client registration failed: %d\n",
				sof_shim_fn_names[fn], ret);
			sof_shim_unregister_clients(sdev);
			return ret;
		}
	}
	return 0;
}

void sof_shim_client_ida_destroy(void)
{
	enum sof_shim_fn fn;

	for (fn = 0; fn < SOF_SHIM_FN_NUM; fn++)
		ida_destroy(sof_shim_fn_ida[fn]);
}

/**
 * sof_shim_client_get_ipc_max_payload_size() - largest message or reply
 * @cdev:	the client
 *
 * The size of the DSP's mailbox (new_device mailbox=, SOF_SHIM_IPC_MSG_MAX by default): an
 * IPC3 message with its header, an IPC4 message's payload.
 *
 * Return: size in bytes.
 */
size_t sof_shim_client_get_ipc_max_payload_size(struct sof_shim_client_dev *cdev)
{
	return cdev->sdev->ipc.max_payload_size;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_get_ipc_max_payload_size, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_get_debugfs_root() - the DSP's debugfs directory
 * @cdev:	the client
 *
 * Return: the directory (owned by the DSP; may be an error pointer if debugfs is off).
 */
struct dentry *sof_shim_client_get_debugfs_root(struct sof_shim_client_dev *cdev)
{
	return cdev->sdev->debugfs_root;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_get_debugfs_root, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_get_dma_dev() - the device DMA buffers must be allocated for
 * @cdev:	the client
 *
 * Return: the DSP's device.
 */
struct device *sof_shim_client_get_dma_dev(struct sof_shim_client_dev *cdev)
{
	return cdev->sdev->dev;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_get_dma_dev, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_get_ipc_type() - the IPC the parent's firmware speaks
 * @cdev:	the client
 *
 * As mainline's sof_client_get_ipc_type(): a client that speaks both IPC versions selects
 * its message layer with it, one that speaks one of them refuses the other.
 *
 * Return: SOF_SHIM_IPC_TYPE_3 or SOF_SHIM_IPC_TYPE_4; fixed for the DSP's lifetime.
 */
enum sof_shim_ipc_type sof_shim_client_get_ipc_type(struct sof_shim_client_dev *cdev)
{
	return cdev->sdev->fw.ipc_type;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_get_ipc_type, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_get_fw_version() - version of the running firmware
 * @cdev:	the client
 *
 * Return: pointer into the DSP's data, valid while the client is bound.
 */
const struct sof_shim_fw_version *
sof_shim_client_get_fw_version(struct sof_shim_client_dev *cdev)
{
	return &cdev->sdev->fw_version;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_get_fw_version, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_boot_dsp() - boot the firmware unless it runs (mainline's on-demand boot)
 * @cdev:	the client, holding a runtime PM reference (the DSP is powered)
 *
 * As mainline's sof_client_boot_dsp(): 0 at once when the firmware runs, else it boots
 * (the shim's resume boots it already). A crashed firmware stays crashed until fw_state
 * "boot", unlike mainline's, which this reboots: the shim's choice, so that the crash cases
 * see the clients refuse work.
 *
 * Context: process context; may sleep.
 *
 * Return: 0 when the firmware runs, -ENODEV when it crashed, or the boot's error.
 */
int sof_shim_client_boot_dsp(struct sof_shim_client_dev *cdev)
{
	struct sof_shim_dev *sdev = cdev->sdev;
	int ret = 0;

	mutex_lock(&sdev->state_mutex);
	switch (READ_ONCE(sdev->fw_state)) {
	case SOF_SHIM_FW_BOOT_COMPLETE:
		break;
	case SOF_SHIM_FW_CRASHED:
		ret = -ENODEV;
		break;
	default:
		ret = READ_ONCE(sdev->powered) ? sof_shim_fw_boot(sdev) : -ENODEV;
		break;
	}
	mutex_unlock(&sdev->state_mutex);

	return ret;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_boot_dsp, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_ipc4_find_module() - a module of the IPC4 firmware, by its UUID
 * @cdev:	the client
 * @uuid:	the module's UUID
 *
 * As mainline's sof_client_ipc4_find_module().
 *
 * Return: the module, or NULL when the firmware speaks IPC3 or has no such module.
 */
const struct sof_shim_ipc4_fw_module *
sof_shim_client_ipc4_find_module(struct sof_shim_client_dev *cdev, const guid_t *uuid)
{
	struct sof_shim_dev *sdev = cdev->sdev;

	if (sdev->fw.ipc_type != SOF_SHIM_IPC_TYPE_4) {
		dev_err(sdev->dev, "Only supported with IPC4\n");
		return NULL;
	}
	if (READ_ONCE(sdev->ipc4_probe_module_listed) &&
	    guid_equal(&sdev->ipc4_probe_module.man4_module_entry.uuid, uuid))
		return &sdev->ipc4_probe_module;
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_ipc4_find_module, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_core_module_get() - pin the parent module while a stream is open
 * @cdev:	the client
 *
 * Return: 0, or -ENODEV when the parent module is going away.
 */
int sof_shim_client_core_module_get(struct sof_shim_client_dev *cdev)
{
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_core_module_get, "SND_SOC_SOF_SHIM_CLIENT");

/**
 * sof_shim_client_core_module_put() - release sof_shim_client_core_module_get()
 * @cdev:	the client
 */
void sof_shim_client_core_module_put(struct sof_shim_client_dev *cdev)
{
	module_put(THIS_MODULE);
}
EXPORT_SYMBOL_NS_GPL(sof_shim_client_core_module_put, "SND_SOC_SOF_SHIM_CLIENT");

/*
 * Runtime and system PM of the parent reach the bound clients (sof_suspend_clients() and
 * sof_resume_clients() in mainline): their suspend() with *@state, or their resume()
 * when @state is NULL.
 */
static void sof_shim_pm_clients(struct sof_shim_dev *sdev, const pm_message_t *state)
{
	const struct auxiliary_driver *adrv;
	struct sof_shim_client_dev *cdev;

	mutex_lock(&sdev->client_mutex);
	list_for_each_entry(cdev, &sdev->client_list, list) {
		if (!cdev->auxdev.dev.driver)
			continue;
		adrv = to_auxiliary_drv(cdev->auxdev.dev.driver);
		if (state && adrv->suspend)
			adrv->suspend(&cdev->auxdev, *state);
		else if (!state && adrv->resume)
			adrv->resume(&cdev->auxdev);
	}
	mutex_unlock(&sdev->client_mutex);
}

int sof_shim_suspend_clients(struct sof_shim_dev *sdev, pm_message_t state)
{
	sof_shim_pm_clients(sdev, &state);
	return 0;
}

int sof_shim_resume_clients(struct sof_shim_dev *sdev)
{
	sof_shim_pm_clients(sdev, NULL);
	return 0;
}
