// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_ipc_flood: IPC flood test client of the simulated SOF DSP, after mainline's
 * sound/soc/sof/sof-client-ipc-flood-test.c.
 *
 * debugfs, in <DSP debugfs root>/snd_sof_shim.ipc_flood.<n>/:
 *   ipc_flood_count		write N (1..10000): send N test IPCs
 *   ipc_flood_duration_ms	write N (1..1000): send test IPCs for N ms
 *   (reading either returns the last result)
 *   notifications		DSP test notifications received
 *   fw_states		the firmware states this client's fw_state handler heard, oldest
 *			first (the last SOF_IPC_FLOOD_FW_STATES of them)
 *   suspend_count, resume_count	the parent's PM events (runtime and system) that reached
 *				this client
 * and in the DSP's debugfs root, from its first flood client (as mainline's id 0):
 *   ipc_flood_count, ipc_flood_duration_ms	symlinks to that client's files
 *
 * Unlike the 2020 version: the user buffer is copied with a NUL terminator, writes at a
 * non-zero offset, non-numbers, negative numbers and values over the maximum fail with
 * -EINVAL and huge writes with -E2BIG, all with nothing sent; the result reports the
 * average (not the sum); and an IPC error keeps the partial statistics and says at which
 * iteration the test stopped. A fatal signal stops a test (or a writer waiting for another
 * test) with -EINTR.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_runtime.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <auxbus/sof-shim.h>

#define MAX_IPC_FLOOD_DURATION_MS	1000
#define MAX_IPC_FLOOD_COUNT		10000
#define IPC_FLOOD_TEST_RESULT_LEN	512
#define IPC_FLOOD_MAX_INPUT		32
#define SOF_IPC_CLIENT_SUSPEND_DELAY_MS	3000

#define SOF_IPC_FLOOD_FW_STATES		16

#define DEBUGFS_IPC_FLOOD_COUNT		"ipc_flood_count"
#define DEBUGFS_IPC_FLOOD_DURATION	"ipc_flood_duration_ms"

struct sof_ipc_flood_priv {
	struct dentry *dfs_root;
	struct dentry *dfs_link[2];
	struct mutex lock;		/* one test at a time per client; buf */
	char buf[IPC_FLOOD_TEST_RESULT_LEN];
	bool stop;			/* the device is going away */
	u32 notifications;
	spinlock_t fw_states_lock;	/* fw_states, num_fw_states */
	u8 fw_states[SOF_IPC_FLOOD_FW_STATES];
	u32 num_fw_states;		/* heard since probe; the ring keeps the last ones */
	u32 suspend_count;
	u32 resume_count;
};

struct sof_ipc_flood_file {
	struct sof_shim_client_dev *cdev;
	bool duration;
};

/*
 * Parse a decimal or 0x count: digits only (one trailing newline allowed), no sign, at most
 * @max. Returns 0 or -EINVAL.
 */
static int sof_ipc_flood_parse(const char *s, unsigned long max, unsigned long *val)
{
	int ret;

	if (!*s || *s == '-' || *s == '+' || isspace(*s))
		return -EINVAL;
	ret = kstrtoul(s, 0, val);
	if (ret)
		return -EINVAL;
	if (!*val || *val > max)
		return -EINVAL;
	return 0;
}

static int sof_ipc_flood_test(struct sof_shim_client_dev *cdev, bool duration_test,
			      unsigned long ipc_duration_ms, unsigned long ipc_count)
{
	struct sof_ipc_flood_priv *priv = cdev->data;
	struct device *dev = &cdev->auxdev.dev;
	struct sof_shim_ipc_hdr hdr;
	u64 min_response_time = U64_MAX;
	u64 max_response_time = 0;
	u64 sum_response_time = 0;
	u64 avg_response_time;
	u64 ipc_response_time;
	ktime_t start, end, test_end = 0;
	unsigned long i = 0;
	size_t len;
	int ret = 0;

	hdr.cmd = SOF_SHIM_IPC_GLB_TEST_MSG | SOF_SHIM_IPC_TEST_IPC_FLOOD;
	hdr.size = sizeof(hdr);

	/*
	 * One clock read per IPC: each one starts where the previous one ended, so a response
	 * time also counts the few instructions of bookkeeping between two IPCs. Mainline reads
	 * the clock twice per IPC; under QEMU the clock is an emulated HPET, whose every read
	 * leaves the translated code, and the handoff this IPC is benchmarked against reads it
	 * once per round trip.
	 */
	end = ktime_get();
	if (duration_test)
		test_end = ktime_add_ms(end, ipc_duration_ms);

	for (;;) {
		if (READ_ONCE(priv->stop)) {
			ret = -ESHUTDOWN;
			break;
		}
		/* 10,000 IPCs at the largest ipc_delay_us take 1,000 s: the writer may quit */
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}

		start = end;
		ret = sof_shim_client_ipc_tx_message_no_reply(cdev, &hdr);
		end = ktime_get();
		if (ret < 0)
			break;

		ipc_response_time = ktime_to_ns(ktime_sub(end, start));
		min_response_time = min(min_response_time, ipc_response_time);
		max_response_time = max(max_response_time, ipc_response_time);
		sum_response_time += ipc_response_time;
		i++;

		if (duration_test ? ktime_compare(end, test_end) >= 0 : i == ipc_count)
			break;
	}

	/* clear previous result */
	priv->buf[0] = '\0';
	len = 0;

	if (ret < 0) {
		dev_err(dev, "ipc flood test failed at %lu iterations: %d\n", i, ret);
		len += scnprintf(priv->buf + len, sizeof(priv->buf) - len,
				 "IPC Flood test failed at iteration %lu: error %d\n", i + 1, ret);
	}
	if (duration_test)
		len += scnprintf(priv->buf + len, sizeof(priv->buf) - len,
				 "IPC Flood test duration: %lums\n", ipc_duration_ms);

	if (!i) {
		len += scnprintf(priv->buf + len, sizeof(priv->buf) - len,
				 "IPC Flood count: 0\n");
		return ret;
	}

	avg_response_time = div64_u64(sum_response_time, i);

	dev_dbg(dev, "IPC Flood count: %lu, Avg response time: %lluns\n", i, avg_response_time);
	len += scnprintf(priv->buf + len, sizeof(priv->buf) - len,
			 "IPC Flood count: %lu\nAvg response time: %lluns\n"
			 "Max response time: %lluns\nMin response time: %lluns\n",
			 i, avg_response_time, max_response_time, min_response_time);
	return ret;
}

static int sof_ipc_flood_dfs_open(struct inode *inode, struct file *file)
{
	struct sof_ipc_flood_file *f = inode->i_private;

	if (sof_shim_client_get_fw_state(f->cdev) == SOF_SHIM_FW_CRASHED)
		return -ENODEV;

	file->private_data = f;
	return 0;
}

/*
 * Writing starts a flood test: by count or by duration, depending on the file.
 */
static ssize_t sof_ipc_flood_dfs_write(struct file *file, const char __user *buffer,
				       size_t count, loff_t *ppos)
{
	struct sof_ipc_flood_file *f = file->private_data;
	struct sof_shim_client_dev *cdev = f->cdev;
	struct sof_ipc_flood_priv *priv = cdev->data;
	struct device *dev = &cdev->auxdev.dev;
	unsigned long ipc_duration_ms = 0;
	unsigned long ipc_count = 0;
	char *string;
	int ret, err;

	if (*ppos != 0)
		return -EINVAL;
	if (count > IPC_FLOOD_MAX_INPUT)
		return -E2BIG;

	string = memdup_user_nul(buffer, count);
	if (IS_ERR(string))
		return PTR_ERR(string);

	if (f->duration)
		ret = sof_ipc_flood_parse(string, MAX_IPC_FLOOD_DURATION_MS, &ipc_duration_ms);
	else
		ret = sof_ipc_flood_parse(string, MAX_IPC_FLOOD_COUNT, &ipc_count);
	kfree(string);
	if (ret)
		return ret;

	if (sof_shim_client_get_fw_state(cdev) == SOF_SHIM_FW_CRASHED)
		return -ENODEV;

	/*
	 * On failure it has dropped the usage count it took: no put. That includes -EACCES,
	 * runtime PM disabled with the client suspended: the DSP may be suspended too.
	 */
	ret = pm_runtime_resume_and_get(dev);
	if (ret < 0) {
		dev_err_ratelimited(dev, "debugfs write failed to resume %d\n", ret);
		return ret;
	}

	/* behind another test, which may run for minutes: killable */
	ret = mutex_lock_killable(&priv->lock);
	if (!ret) {
		ret = sof_ipc_flood_test(cdev, f->duration, ipc_duration_ms, ipc_count);
		mutex_unlock(&priv->lock);
	}

	pm_runtime_mark_last_busy(dev);
	err = pm_runtime_put_autosuspend(dev);
	if (err < 0)
		dev_err_ratelimited(dev, "debugfs write failed to idle %d\n", err);

	return ret < 0 ? ret : count;
}

/* the result of the last flood test */
static ssize_t sof_ipc_flood_dfs_read(struct file *file, char __user *buffer,
				      size_t count, loff_t *ppos)
{
	struct sof_ipc_flood_file *f = file->private_data;
	struct sof_ipc_flood_priv *priv = f->cdev->data;
	ssize_t ret;

	/* a test in progress holds the lock */
	if (mutex_lock_killable(&priv->lock))
		return -EINTR;
	ret = simple_read_from_buffer(buffer, count, ppos, priv->buf, strlen(priv->buf));
	mutex_unlock(&priv->lock);
	return ret;
}

static const struct file_operations sof_ipc_flood_fops = {
	.owner = THIS_MODULE,
	.open = sof_ipc_flood_dfs_open,
	.read = sof_ipc_flood_dfs_read,
	.write = sof_ipc_flood_dfs_write,
	.llseek = default_llseek,
};

static void sof_ipc_flood_rx(struct sof_shim_client_dev *cdev, void *msg_buf)
{
	struct sof_shim_ipc_hdr *hdr = msg_buf;
	struct sof_ipc_flood_priv *priv = cdev->data;

	if ((hdr->cmd & SOF_SHIM_CMD_TYPE_MASK) == SOF_SHIM_IPC_TEST_NOTIFY)
		WRITE_ONCE(priv->notifications, priv->notifications + 1);
}

static const char * const sof_ipc_flood_fw_state_names[] = {
	[SOF_SHIM_FW_BOOT_NOT_STARTED] = "boot_not_started",
	[SOF_SHIM_DSPLESS_MODE] = "dspless_mode",
	[SOF_SHIM_FW_BOOT_PREPARE] = "boot_prepare",
	[SOF_SHIM_FW_BOOT_IN_PROGRESS] = "boot_in_progress",
	[SOF_SHIM_FW_BOOT_FAILED] = "boot_failed",
	[SOF_SHIM_FW_BOOT_READY_FAILED] = "boot_ready_failed",
	[SOF_SHIM_FW_BOOT_READY_OK] = "boot_ready_ok",
	[SOF_SHIM_FW_BOOT_COMPLETE] = "boot_complete",
	[SOF_SHIM_FW_CRASHED] = "crashed",
};

/*
 * Called under the DSP's handler mutex, possibly from a sender of this client that holds
 * priv->lock (an IPC timeout): it takes nothing but its own spinlock.
 */
static void sof_ipc_flood_fw_state(struct sof_shim_client_dev *cdev,
				   enum sof_shim_fw_state state)
{
	struct sof_ipc_flood_priv *priv = cdev->data;

	spin_lock(&priv->fw_states_lock);
	priv->fw_states[priv->num_fw_states % SOF_IPC_FLOOD_FW_STATES] = state;
	priv->num_fw_states++;
	spin_unlock(&priv->fw_states_lock);

	if (state == SOF_SHIM_FW_CRASHED)
		dev_info(&cdev->auxdev.dev, "firmware crashed: flood tests refused until reboot\n");
	else
		dev_dbg(&cdev->auxdev.dev, "firmware state %d\n", state);
}

static int sof_ipc_flood_fw_states_show(struct seq_file *m, void *v)
{
	struct sof_ipc_flood_priv *priv = m->private;
	u8 states[SOF_IPC_FLOOD_FW_STATES];
	u32 i, n, first;

	spin_lock(&priv->fw_states_lock);
	n = min_t(u32, priv->num_fw_states, SOF_IPC_FLOOD_FW_STATES);
	first = priv->num_fw_states - n;
	for (i = 0; i < n; i++)
		states[i] = priv->fw_states[(first + i) % SOF_IPC_FLOOD_FW_STATES];
	spin_unlock(&priv->fw_states_lock);

	for (i = 0; i < n; i++)
		seq_printf(m, "%s%s", i ? " " : "",
			   states[i] < ARRAY_SIZE(sof_ipc_flood_fw_state_names) ?
			   sof_ipc_flood_fw_state_names[states[i]] : "unknown");
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sof_ipc_flood_fw_states);

/* the DSP's first flood client: its debugfs directory gets the compat symlinks */
static bool sof_ipc_flood_first(struct auxiliary_device *auxdev)
{
	const struct sof_shim_ipc_flood_pdata *pdata = dev_get_platdata(&auxdev->dev);

	return pdata && pdata->index == 0;
}

static int sof_ipc_flood_probe(struct auxiliary_device *auxdev,
			       const struct auxiliary_device_id *id)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);
	struct dentry *debugfs_root = sof_shim_client_get_debugfs_root(cdev);
	struct device *dev = &auxdev->dev;
	struct sof_ipc_flood_file *files;
	struct sof_ipc_flood_priv *priv;
	int ret;

	priv = devm_kzalloc(dev, sizeof(*priv), GFP_KERNEL);
	files = devm_kcalloc(dev, 2, sizeof(*files), GFP_KERNEL);
	if (!priv || !files)
		return -ENOMEM;
	mutex_init(&priv->lock);
	spin_lock_init(&priv->fw_states_lock);
	cdev->data = priv;
	files[0].cdev = cdev;
	files[1].cdev = cdev;
	files[1].duration = true;

	ret = sof_shim_client_register_ipc_rx_handler(cdev, SOF_SHIM_IPC_GLB_TEST_MSG,
						      sof_ipc_flood_rx);
	if (ret)
		return ret;
	ret = sof_shim_client_register_fw_state_handler(cdev, sof_ipc_flood_fw_state);
	if (ret)
		goto err_unregister_rx;

	/* debugfs root folder named after the device, under the DSP's */
	priv->dfs_root = debugfs_create_dir(dev_name(dev), debugfs_root);
	if (!IS_ERR_OR_NULL(priv->dfs_root)) {
		debugfs_create_file(DEBUGFS_IPC_FLOOD_COUNT, 0644, priv->dfs_root, &files[0],
				    &sof_ipc_flood_fops);
		debugfs_create_file(DEBUGFS_IPC_FLOOD_DURATION, 0644, priv->dfs_root,
				    &files[1], &sof_ipc_flood_fops);
		debugfs_create_u32("notifications", 0444, priv->dfs_root, &priv->notifications);
		debugfs_create_file("fw_states", 0444, priv->dfs_root, priv,
				    &sof_ipc_flood_fw_states_fops);
		debugfs_create_u32("suspend_count", 0444, priv->dfs_root, &priv->suspend_count);
		debugfs_create_u32("resume_count", 0444, priv->dfs_root, &priv->resume_count);

		if (sof_ipc_flood_first(auxdev)) {
			/* symlinks to the DSP's first instance, as mainline has them */
			char target[100];

			snprintf(target, sizeof(target), "%s/" DEBUGFS_IPC_FLOOD_COUNT,
				 dev_name(dev));
			priv->dfs_link[0] = debugfs_create_symlink(DEBUGFS_IPC_FLOOD_COUNT,
								   debugfs_root, target);
			snprintf(target, sizeof(target), "%s/" DEBUGFS_IPC_FLOOD_DURATION,
				 dev_name(dev));
			priv->dfs_link[1] = debugfs_create_symlink(DEBUGFS_IPC_FLOOD_DURATION,
								   debugfs_root, target);
		}
	}

	/* runtime PM: autosuspend after 3 s, as in mainline */
	pm_runtime_set_autosuspend_delay(dev, SOF_IPC_CLIENT_SUSPEND_DELAY_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_idle(dev);

	return 0;

err_unregister_rx:
	sof_shim_client_unregister_ipc_rx_handler(cdev, SOF_SHIM_IPC_GLB_TEST_MSG);
	return ret;
}

static void sof_ipc_flood_remove(struct auxiliary_device *auxdev)
{
	struct sof_shim_client_dev *cdev = auxiliary_dev_to_sof_shim_client_dev(auxdev);
	struct sof_ipc_flood_priv *priv = cdev->data;

	/* a running test stops at its next iteration; debugfs removal waits for it */
	WRITE_ONCE(priv->stop, true);

	pm_runtime_disable(&auxdev->dev);
	pm_runtime_dont_use_autosuspend(&auxdev->dev);

	debugfs_remove(priv->dfs_link[0]);
	debugfs_remove(priv->dfs_link[1]);
	debugfs_remove_recursive(priv->dfs_root);

	sof_shim_client_unregister_fw_state_handler(cdev);
	sof_shim_client_unregister_ipc_rx_handler(cdev, SOF_SHIM_IPC_GLB_TEST_MSG);
}

static int sof_ipc_flood_suspend(struct auxiliary_device *auxdev, pm_message_t state)
{
	struct sof_ipc_flood_priv *priv = auxiliary_dev_to_sof_shim_client_dev(auxdev)->data;

	WRITE_ONCE(priv->suspend_count, priv->suspend_count + 1);
	dev_dbg(&auxdev->dev, "suspend\n");
	return 0;
}

static int sof_ipc_flood_resume(struct auxiliary_device *auxdev)
{
	struct sof_ipc_flood_priv *priv = auxiliary_dev_to_sof_shim_client_dev(auxdev)->data;

	WRITE_ONCE(priv->resume_count, priv->resume_count + 1);
	dev_dbg(&auxdev->dev, "resume\n");
	return 0;
}

AUXILIARY_DEVICE_TABLE(sof_ipc_flood_client_id_table, "snd_sof_shim.ipc_flood");

/*
 * No dev_pm_ops: the bus's generic callbacks make the parent DSP resume first. .suspend and
 * .resume are called by the parent's runtime and system PM (sof_shim_suspend_clients()).
 */
static struct auxiliary_driver sof_ipc_flood_client_drv = {
	.probe = sof_ipc_flood_probe,
	.remove = sof_ipc_flood_remove,
	.suspend = sof_ipc_flood_suspend,
	.resume = sof_ipc_flood_resume,
	.id_table = sof_ipc_flood_client_id_table,
};

module_auxiliary_driver(sof_ipc_flood_client_drv);

MODULE_DESCRIPTION("SOF shim IPC flood test client (auxbus bundle)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("SND_SOC_SOF_SHIM_CLIENT");
