// SPDX-License-Identifier: GPL-2.0-only
/*
 * snd_sof_shim_bench: test-only module (built with AUXBUS_TESTS=y). The limit the simulated
 * DSP's IPC (sof-shim-ipc.c) is measured against: the same round trip, built from exactly the
 * IPC's primitives, with a DSP that does nothing.
 *
 *   echo MS > /sys/kernel/debug/snd_sof_shim_bench/duration_ms.N	(N: 0 or 1; MS: 1..1000)
 *   cat /sys/kernel/debug/snd_sof_shim_bench/duration_ms.N
 *	count C			round trips
 *	duration_ns D		the measured window: ktime around the loop
 *	avg_ns A		D / C, as the flood client computes its average
 *	min_ns, max_ns		the fastest and the slowest round trip
 *   cat /sys/kernel/debug/snd_sof_shim_bench/stats
 *	unexpected U		"interrupts" with no message in flight (must stay 0)
 *
 * One round trip is what sof_shim_ipc_tx_message() does, minus its work:
 *  - the sender (the writer's own context, as the flood client's) takes tx_mutex, takes
 *    ipc_lock with spin_lock_irq(), points the in-flight pointer at the one message, sets
 *    the doorbell flag and wake_up_process()es the DSP kthread, clears ipc_complete, drops
 *    ipc_lock, sleeps in wait_event_timeout() on the message's wait queue, drops tx_mutex;
 *  - the DSP kthread sleeps on the bare doorbell flag (set_current_state(), schedule()), takes
 *    the doorbell under ipc_lock, then, under ipc_lock again, raises the "interrupt" (a flag)
 *    and runs the interrupt's thread itself, as the shim's DSP does;
 *  - the interrupt's thread takes ipc_lock, takes the interrupt, sets ipc_complete, clears the
 *    in-flight pointer and wake_up()s the sender.
 * Same locks taken as often, same wait and wake primitives, same threads; no mailbox, no
 * message checks, no firmware state, no reply header, no statistics. The sender's loop is the
 * flood client's: one ktime_get() per round trip, the same minimum, maximum and sum.
 *
 * Two writers (duration_ms.0 and .1 at the same time) are the tandem: as in the IPC, one
 * message is in flight (tx_mutex) and the DSP takes one message per doorbell, so neither side
 * can serve two senders with one wakeup of its DSP. The DSP kthread is "sof-limit-dsp": pin
 * it (taskset -p) where the shim's DSP is pinned.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#define SOF_BENCH_MAX_DURATION_MS	1000
#define SOF_BENCH_CLIENTS		2
/* the shim's SOF_SHIM_IPC_TIMEOUT_MS */
#define SOF_BENCH_TIMEOUT_MS		500

/* the one message in flight: struct sof_shim_ipc_msg without its data */
struct sof_bench_msg {
	wait_queue_head_t waitq;
	bool ipc_complete;
};

/* the host's IPC and the DSP, as much of struct sof_shim_dev as a round trip uses */
static struct sof_bench_dev {
	struct mutex tx_mutex;		/* one message in flight */
	spinlock_t ipc_lock;		/* msg, dsp_doorbell, host_irq, ipc_complete */
	struct sof_bench_msg ipc_msg;
	struct sof_bench_msg *msg;	/* the message in flight, or NULL */
	bool dsp_doorbell;
	bool host_irq;
	struct task_struct *dsp_thread;
	atomic64_t stat_unexpected;
} sof_bench;

/* a sender, as the flood client: its own lock and last result */
struct sof_bench_client {
	struct mutex lock;		/* one run at a time; buf */
	char buf[160];
};

static struct sof_bench_client sof_bench_clients[SOF_BENCH_CLIENTS];
static struct dentry *sof_bench_dir;

/* the reply interrupt's thread: sof_shim_ipc_irq_thread() and sof_shim_ipc_reply() */
static void sof_bench_irq_thread(struct sof_bench_dev *sdev)
{
	struct sof_bench_msg *msg;

	spin_lock_irq(&sdev->ipc_lock);
	if (!sdev->host_irq)
		goto out;
	sdev->host_irq = false;

	msg = sdev->msg;
	if (!msg) {
		atomic64_inc(&sdev->stat_unexpected);
		goto out;
	}
	msg->ipc_complete = true;
	sdev->msg = NULL;
	wake_up(&msg->waitq);
out:
	spin_unlock_irq(&sdev->ipc_lock);
}

/* the DSP core of sof_shim_dsp_thread(), with nothing to do between doorbell and reply */
static int sof_bench_dsp_thread(void *data)
{
	struct sof_bench_dev *sdev = data;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		if (!READ_ONCE(sdev->dsp_doorbell)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);

		/* take the doorbell */
		spin_lock_irq(&sdev->ipc_lock);
		sdev->dsp_doorbell = false;
		spin_unlock_irq(&sdev->ipc_lock);

		/* reply: raise the interrupt */
		spin_lock_irq(&sdev->ipc_lock);
		sdev->host_irq = true;
		spin_unlock_irq(&sdev->ipc_lock);

		sof_bench_irq_thread(sdev);
	}

	return 0;
}

/*
 * One round trip: sof_shim_ipc_tx_message(), its send_msg() and wait_tx_done(), without the
 * message. Returns 0 or -ETIMEDOUT.
 */
static noinline int sof_bench_round_trip(struct sof_bench_dev *sdev)
{
	struct sof_bench_msg *msg = &sdev->ipc_msg;
	long ret;

	mutex_lock(&sdev->tx_mutex);

	spin_lock_irq(&sdev->ipc_lock);
	sdev->msg = msg;
	sdev->dsp_doorbell = true;
	wake_up_process(sdev->dsp_thread);
	msg->ipc_complete = false;
	spin_unlock_irq(&sdev->ipc_lock);

	ret = wait_event_timeout(msg->waitq, msg->ipc_complete,
				 msecs_to_jiffies(SOF_BENCH_TIMEOUT_MS));
	if (ret == 0) {
		spin_lock_irq(&sdev->ipc_lock);
		sdev->msg = NULL;
		spin_unlock_irq(&sdev->ipc_lock);
	}

	mutex_unlock(&sdev->tx_mutex);
	return ret ? 0 : -ETIMEDOUT;
}

/* the flood client's duration test, with a round trip of the limit for an IPC */
static int sof_bench_run(struct sof_bench_client *c, unsigned long duration_ms)
{
	u64 min_ns = U64_MAX, max_ns = 0, sum_ns = 0, ns;
	ktime_t start, end, test_end;
	unsigned long i = 0;
	int ret = 0;

	end = ktime_get();
	test_end = ktime_add_ms(end, duration_ms);

	for (;;) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}

		start = end;
		ret = sof_bench_round_trip(&sof_bench);
		end = ktime_get();
		if (ret < 0)
			break;

		ns = ktime_to_ns(ktime_sub(end, start));
		min_ns = min(min_ns, ns);
		max_ns = max(max_ns, ns);
		sum_ns += ns;
		i++;

		if (ktime_compare(end, test_end) >= 0)
			break;
	}

	if (ret < 0) {
		pr_err("round trip %lu failed: %d\n", i + 1, ret);
		scnprintf(c->buf, sizeof(c->buf), "failed at round trip %lu: error %d\n",
			  i + 1, ret);
		return ret;
	}

	scnprintf(c->buf, sizeof(c->buf),
		  "count %lu\nduration_ns %llu\navg_ns %llu\nmin_ns %llu\nmax_ns %llu\n",
		  i, sum_ns, div64_u64(sum_ns, i), min_ns, max_ns);
	return 0;
}

static ssize_t sof_bench_write(struct file *file, const char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	struct sof_bench_client *c = file->private_data;
	unsigned int ms;
	int ret;

	if (*ppos)
		return -EINVAL;
	ret = kstrtouint_from_user(ubuf, count, 0, &ms);
	if (ret)
		return ret;
	if (!ms || ms > SOF_BENCH_MAX_DURATION_MS)
		return -EINVAL;

	ret = mutex_lock_killable(&c->lock);
	if (ret)
		return ret;
	ret = sof_bench_run(c, ms);
	mutex_unlock(&c->lock);
	return ret ? ret : count;
}

static ssize_t sof_bench_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct sof_bench_client *c = file->private_data;
	ssize_t ret;

	if (mutex_lock_killable(&c->lock))
		return -EINTR;
	ret = simple_read_from_buffer(ubuf, count, ppos, c->buf, strlen(c->buf));
	mutex_unlock(&c->lock);
	return ret;
}

static const struct file_operations sof_bench_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sof_bench_read,
	.write = sof_bench_write,
	.llseek = default_llseek,
};

static ssize_t sof_bench_stats_read(struct file *file, char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	char buf[48];
	int len;

	len = scnprintf(buf, sizeof(buf), "unexpected %lld\n",
			(long long)atomic64_read(&sof_bench.stat_unexpected));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations sof_bench_stats_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sof_bench_stats_read,
	.llseek = default_llseek,
};

static int __init sof_bench_init(void)
{
	struct sof_bench_dev *sdev = &sof_bench;
	struct task_struct *t;
	char name[16];
	int i;

	mutex_init(&sdev->tx_mutex);
	spin_lock_init(&sdev->ipc_lock);
	init_waitqueue_head(&sdev->ipc_msg.waitq);
	atomic64_set(&sdev->stat_unexpected, 0);

	t = kthread_run(sof_bench_dsp_thread, sdev, "sof-limit-dsp");
	if (IS_ERR(t))
		return PTR_ERR(t);
	sdev->dsp_thread = t;

	sof_bench_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (i = 0; i < SOF_BENCH_CLIENTS; i++) {
		mutex_init(&sof_bench_clients[i].lock);
		snprintf(name, sizeof(name), "duration_ms.%d", i);
		debugfs_create_file(name, 0644, sof_bench_dir, &sof_bench_clients[i],
				    &sof_bench_fops);
	}
	debugfs_create_file("stats", 0444, sof_bench_dir, NULL, &sof_bench_stats_fops);
	return 0;
}

static void __exit sof_bench_exit(void)
{
	/* no writer is left once the files are gone */
	debugfs_remove_recursive(sof_bench_dir);
	kthread_stop(sof_bench.dsp_thread);
}

module_init(sof_bench_init);
module_exit(sof_bench_exit);

MODULE_DESCRIPTION("SOF shim benchmark: the IPC's round trip with a DSP that does nothing (test only)");
MODULE_LICENSE("GPL");
