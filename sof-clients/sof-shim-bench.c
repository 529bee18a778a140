// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_bench: test-only module (built with AUXBUS_TESTS=y). The limit the simulated
 * DSP's IPC is measured against: a bare completion handoff between two kernel threads.
 *
 *   echo MS > /sys/kernel/debug/snd_sof_shim_bench/handoff_ms	(1..10000)
 *   cat /sys/kernel/debug/snd_sof_shim_bench/handoff_ms
 *	round_trips N
 *	duration_ns D
 *	rate R			(round trips per second)
 *
 * One round trip is what one IPC costs the shim at ipc_delay_us=0: the writer completes the
 * "doorbell" of the other thread and waits for its "reply" completion. The other thread may
 * run where the writer may (its CPU affinity), so `taskset 1 sh -c "echo MS >handoff_ms"`
 * times the handoff on one CPU, as the benchmark does for the IPC it compares with.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

struct sof_bench {
	struct completion ping;
	struct completion pong;
	const struct cpumask *cpus;
	bool stop;
};

static struct dentry *sof_bench_dir;
static DEFINE_MUTEX(sof_bench_mutex);	/* one run at a time; result */
static char sof_bench_result[128];

static int sof_bench_thread(void *data)
{
	struct sof_bench *b = data;

	/*
	 * From here, not by the creator before the first wakeup: with the kthread affinity
	 * rework of 6.14 a kthread applies its preferred affinity as it starts, over what its
	 * creator set (7.x ran the "pinned" handoff across CPUs at a tenth of the rate).
	 */
	set_cpus_allowed_ptr(current, b->cpus);
	for (;;) {
		wait_for_completion(&b->ping);
		if (READ_ONCE(b->stop))
			break;
		complete(&b->pong);
	}

	/* wait for kthread_stop() */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int sof_bench_run(unsigned int ms)
{
	struct task_struct *t;
	struct sof_bench *b;
	ktime_t start, end, now;
	u64 n = 0, ns;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	init_completion(&b->ping);
	init_completion(&b->pong);

	t = kthread_create(sof_bench_thread, b, "sof-shim-bench");
	if (IS_ERR(t)) {
		kfree(b);
		return PTR_ERR(t);
	}
	b->cpus = current->cpus_ptr;	/* the writer waits for it: stays valid */
	wake_up_process(t);

	start = ktime_get();
	end = ktime_add_ms(start, ms);
	do {
		complete(&b->ping);
		wait_for_completion(&b->pong);
		n++;
		now = ktime_get();
	} while (ktime_before(now, end));

	WRITE_ONCE(b->stop, true);
	complete(&b->ping);
	kthread_stop(t);
	kfree(b);

	ns = ktime_to_ns(ktime_sub(now, start));
	scnprintf(sof_bench_result, sizeof(sof_bench_result),
		  "round_trips %llu\nduration_ns %llu\nrate %llu\n", n, ns,
		  ns ? div64_u64(n * NSEC_PER_SEC, ns) : 0);
	return 0;
}

static ssize_t sof_bench_write(struct file *file, const char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	unsigned int ms;
	int ret;

	if (*ppos)
		return -EINVAL;
	ret = kstrtouint_from_user(ubuf, count, 0, &ms);
	if (ret)
		return ret;
	if (!ms || ms > 10000)
		return -EINVAL;

	mutex_lock(&sof_bench_mutex);
	ret = sof_bench_run(ms);
	mutex_unlock(&sof_bench_mutex);
	return ret ? ret : count;
}

static ssize_t sof_bench_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&sof_bench_mutex);
	ret = simple_read_from_buffer(ubuf, count, ppos, sof_bench_result,
				      strlen(sof_bench_result));
	mutex_unlock(&sof_bench_mutex);
	return ret;
}

static const struct file_operations sof_bench_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sof_bench_read,
	.write = sof_bench_write,
	.llseek = default_llseek,
};

static int __init sof_bench_init(void)
{
	sof_bench_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("handoff_ms", 0644, sof_bench_dir, NULL, &sof_bench_fops);
	return 0;
}

static void __exit sof_bench_exit(void)
{
	debugfs_remove_recursive(sof_bench_dir);
}

module_init(sof_bench_init);
module_exit(sof_bench_exit);

MODULE_DESCRIPTION("SOF shim benchmark: completion handoff between two kernel threads (test only)");
MODULE_LICENSE("GPL");
