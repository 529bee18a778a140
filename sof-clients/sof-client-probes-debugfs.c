// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_probes: the probe points' debugfs files, as mainline's probe_points and
 * probe_points_remove (5.10's sound/soc/sof/debug.c held them and their tokenize_input()).
 * While the extractor stream is open, in the DSP's directory:
 *   probe_points		write "buffer_id,purpose,stream_tag[,...]" triples to connect
 *				probe points; read the active list
 *   probe_points_remove	write "buffer_id[,...]" to disconnect
 * Writes at a non-zero offset, empty or malformed lists (signs, spaces, non-numbers, a count
 * that is not a multiple of three) fail with -EINVAL and oversized ones with -E2BIG, with
 * nothing sent to the DSP.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <auxbus/sof-shim-probes.h>

#include "sof-client-probes.h"

#define SOF_PROBES_MAX_INPUT		1024

/*
 * Copy a debugfs write and split it into u32 tokens separated by commas: at most
 * @max_tkns, each plain decimal or 0x hex (no sign, no spaces), one trailing newline
 * allowed. Returns the token count or a negative errno; nothing is allocated on error.
 */
static int sof_probes_tokenize(const char __user *from, size_t count, loff_t *ppos,
			       u32 *tkns, size_t max_tkns)
{
	char *buf, *s, *p;
	size_t n = 0;
	int ret = 0;

	if (*ppos != 0)
		return -EINVAL;
	if (count > SOF_PROBES_MAX_INPUT)
		return -E2BIG;

	buf = memdup_user_nul(from, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	p = buf;
	if (count && p[count - 1] == '\n')
		p[count - 1] = '\0';
	if (!*p) {
		ret = -EINVAL;
		goto exit;
	}

	while ((s = strsep(&p, ",")) != NULL) {
		if (!*s || !isdigit(*s) || n == max_tkns) {
			ret = -EINVAL;
			goto exit;
		}
		ret = kstrtou32(s, 0, &tkns[n]);
		if (ret) {
			ret = -EINVAL;
			goto exit;
		}
		n++;
	}
	ret = n;
exit:
	kfree(buf);
	return ret;
}

static ssize_t sof_probes_dfs_points_read(struct file *file, char __user *to,
					  size_t count, loff_t *ppos)
{
	const struct sof_probes_dfs_file *f = file->private_data;
	struct sof_shim_client_dev *cdev = f->cdev;
	struct sof_probes_priv *priv = cdev->data;
	struct device *dev = &cdev->auxdev.dev;
	struct sof_shim_probe_point_desc *desc;
	size_t num_desc, i;
	int remaining, offset;
	char *buf;
	int ret, err;

	if (priv->extractor_stream_tag == SOF_PROBES_INVALID_NODE_ID) {
		dev_warn(dev, "no extractor stream running\n");
		return -ENOENT;
	}

	buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	/* on failure it has dropped the usage count it took: no put */
	ret = pm_runtime_resume_and_get(dev);
	if (ret < 0) {
		dev_err_ratelimited(dev, "debugfs read failed to resume %d\n", ret);
		goto exit;
	}

	ret = priv->ipc_ops->points_info(cdev, &desc, &num_desc);

	pm_runtime_mark_last_busy(dev);
	err = pm_runtime_put_autosuspend(dev);
	if (err < 0)
		dev_err_ratelimited(dev, "debugfs read failed to idle %d\n", err);
	if (ret < 0)
		goto exit;

	for (i = 0; i < num_desc; i++) {
		offset = strlen(buf);
		remaining = PAGE_SIZE - offset;
		ret = snprintf(buf + offset, remaining, "Id: %#010x  Purpose: %u  Node id: %#x\n",
			       desc[i].buffer_id, desc[i].purpose, desc[i].stream_tag);
		if (ret < 0 || ret >= remaining) {
			/* truncate the output buffer at the last full line */
			buf[offset] = '\0';
			break;
		}
	}

	ret = simple_read_from_buffer(to, count, ppos, buf, strlen(buf));
	kfree(desc);
exit:
	kfree(buf);
	return ret;
}

/* "buffer_id,purpose,stream_tag" token triples to probe point descriptors, then add them */
int sof_probes_points_add_tkns(struct sof_shim_client_dev *cdev, const u32 *tkns,
			       size_t num)
{
	struct sof_shim_probe_point_desc desc[SOF_SHIM_PROBE_MAX_POINTS];
	struct sof_probes_priv *priv = cdev->data;
	size_t i;

	for (i = 0; i < num; i++) {
		desc[i].buffer_id = tkns[3 * i];
		desc[i].purpose = tkns[3 * i + 1];
		desc[i].stream_tag = tkns[3 * i + 2];
	}

	return priv->ipc_ops->points_add(cdev, desc, num);
}

/* buffer_id tokens: disconnect those points */
int sof_probes_points_remove_tkns(struct sof_shim_client_dev *cdev, const u32 *tkns,
				  size_t num)
{
	struct sof_probes_priv *priv = cdev->data;

	return priv->ipc_ops->points_remove(cdev, tkns, num);
}

/*
 * A write of probe_points or probe_points_remove, while an extractor stream runs: split
 * the list (see sof_probes_tokenize()) into elements of the file's tkns_per_elem tokens,
 * at most SOF_SHIM_PROBE_MAX_POINTS, and send them with the client resumed. Returns
 * @count, or an errno with nothing sent when the list is malformed.
 */
static ssize_t sof_probes_dfs_points_write(struct file *file, const char __user *from,
					   size_t count, loff_t *ppos)
{
	const struct sof_probes_dfs_file *f = file->private_data;
	struct sof_shim_client_dev *cdev = f->cdev;
	struct sof_probes_priv *priv = cdev->data;
	struct device *dev = &cdev->auxdev.dev;
	u32 tkns[SOF_SHIM_PROBE_MAX_POINTS * 3];
	size_t num;
	int ret, err;

	if (priv->extractor_stream_tag == SOF_PROBES_INVALID_NODE_ID) {
		dev_warn(dev, "no extractor stream running\n");
		return -ENOENT;
	}

	ret = sof_probes_tokenize(from, count, ppos, tkns,
				  SOF_SHIM_PROBE_MAX_POINTS * f->tkns_per_elem);
	if (ret < 0)
		return ret;
	if (ret % f->tkns_per_elem)
		return -EINVAL;
	num = ret / f->tkns_per_elem;

	/* on failure it has dropped the usage count it took: no put */
	ret = pm_runtime_resume_and_get(dev);
	if (ret < 0) {
		dev_err_ratelimited(dev, "debugfs write failed to resume %d\n", ret);
		return ret;
	}

	ret = f->send(cdev, tkns, num);

	pm_runtime_mark_last_busy(dev);
	err = pm_runtime_put_autosuspend(dev);
	if (err < 0)
		dev_err_ratelimited(dev, "debugfs write failed to idle %d\n", err);

	return ret < 0 ? ret : count;
}

const struct file_operations sof_probes_points_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sof_probes_dfs_points_read,
	.write = sof_probes_dfs_points_write,
	.llseek = default_llseek,
};

const struct file_operations sof_probes_points_remove_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sof_probes_dfs_points_write,
	.llseek = default_llseek,
};
