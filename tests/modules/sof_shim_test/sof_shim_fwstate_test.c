// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test-only: a client of the SOF shim whose fw_state handler sends an IPC once the firmware
 * has booted, which the shim allows (handlers run without tx_mutex). It has no module alias,
 * so it binds to a flood client's device only where a case loads it in that client's place;
 * it logs what the IPC returned.
 */
#include <linux/module.h>
#include <auxbus/sof-shim.h>

static void sof_shim_fwstate_test_fw_state(struct sof_shim_client_dev *cdev,
					   enum sof_shim_fw_state state)
{
	struct sof_shim_ipc_hdr hdr = {
		.cmd = SOF_SHIM_IPC_GLB_TEST_MSG | SOF_SHIM_IPC_TEST_IPC_FLOOD,
		.size = sizeof(hdr),
	};
	int ret;

	if (state != SOF_SHIM_FW_BOOT_COMPLETE)
		return;
	ret = sof_shim_client_ipc_tx_message_no_reply(cdev, &hdr);
	dev_info(&cdev->auxdev.dev, "firmware booted: IPC sent from the fw_state handler: %d\n",
		 ret);
}

static int sof_shim_fwstate_test_probe(struct auxiliary_device *auxdev,
				       const struct auxiliary_device_id *id)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);

	return sof_shim_client_register_fw_state_handler(cdev, sof_shim_fwstate_test_fw_state);
}

static void sof_shim_fwstate_test_remove(struct auxiliary_device *auxdev)
{
	sof_shim_client_unregister_fw_state_handler(auxiliary_dev_to_sof_shim_client_dev(auxdev));
}

/* no MODULE_DEVICE_TABLE: never autoloaded in place of the flood client */
static const struct auxiliary_device_id sof_shim_fwstate_test_id_table[] = {
	{ .name = "snd_sof_shim.ipc_flood" },
	{ }
};

static struct auxiliary_driver sof_shim_fwstate_test_drv = {
	.probe = sof_shim_fwstate_test_probe,
	.remove = sof_shim_fwstate_test_remove,
	.id_table = sof_shim_fwstate_test_id_table,
};
module_auxiliary_driver(sof_shim_fwstate_test_drv);

MODULE_DESCRIPTION("auxbus tests: a SOF shim client that sends IPC from its fw_state handler");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("SND_SOC_SOF_SHIM_CLIENT");
