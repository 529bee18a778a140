// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5_shim_verbs_test: an ib_core client that, for every ib_device of mlx5_shim_rdma
 * (mlx5_shim_<n>, mlx5_shim_bond_<n>), asks for the resources a kernel ULP would create,
 * a protection domain, a completion queue, a queue pair and memory regions, and logs what
 * each answered. The shim promises -EOPNOTSUPP for every verb that creates a resource;
 * mlx5-rdma checks the log. A resource it unexpectedly gets is freed at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

/*
 * The QP and MR verbs need a PD, which the shim never gives: a zeroed one of this device
 * stands in. The QP through ib_create_qp(); the MR ops as ib_core calls them (get_dma_mr()
 * from ib_alloc_pd(), reg_user_mr() from uverbs), since no kernel API reaches them.
 */
static void mlx5_shim_verbs_test_pd_verbs(struct ib_device *ibdev, const char *name)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_pd *pd;
	struct ib_qp *qp;
	struct ib_mr *mr;

	pd = kzalloc(sizeof(*pd), GFP_KERNEL);
	if (!pd)
		return;
	pd->device = ibdev;

	qp = ib_create_qp(pd, &init);
	pr_info("%s: ib_create_qp: %d\n", name, PTR_ERR_OR_ZERO(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);

	mr = ibdev->ops.get_dma_mr(pd, IB_ACCESS_LOCAL_WRITE);
	pr_info("%s: get_dma_mr: %d\n", name, PTR_ERR_OR_ZERO(mr));
	if (!IS_ERR(mr))
		ibdev->ops.dereg_mr(mr, NULL);

#ifdef AUXBUS_HAVE_IB_REG_USER_MR_DMAH
	mr = ibdev->ops.reg_user_mr(pd, 0, PAGE_SIZE, 0, IB_ACCESS_LOCAL_WRITE, NULL, NULL);
#else
	mr = ibdev->ops.reg_user_mr(pd, 0, PAGE_SIZE, 0, IB_ACCESS_LOCAL_WRITE, NULL);
#endif
	pr_info("%s: reg_user_mr: %d\n", name, PTR_ERR_OR_ZERO(mr));
	if (!IS_ERR(mr))
		ibdev->ops.dereg_mr(mr, NULL);

	kfree(pd);
}

static int mlx5_shim_verbs_test_add(struct ib_device *ibdev)
{
	const char *name = dev_name(&ibdev->dev);
	struct ib_pd *pd;
	struct ib_cq *cq;

	if (strncmp(name, "mlx5_shim_", strlen("mlx5_shim_")))
		return -EOPNOTSUPP;	/* not ours: no client data */

	pd = ib_alloc_pd(ibdev, 0);
	pr_info("%s: ib_alloc_pd: %d\n", name, PTR_ERR_OR_ZERO(pd));
	if (!IS_ERR(pd))
		ib_dealloc_pd(pd);
	cq = ib_alloc_cq(ibdev, NULL, 1, 0, IB_POLL_DIRECT);
	pr_info("%s: ib_alloc_cq: %d\n", name, PTR_ERR_OR_ZERO(cq));
	if (!IS_ERR(cq))
		ib_free_cq(cq);
	mlx5_shim_verbs_test_pd_verbs(ibdev, name);
	return 0;
}

static void mlx5_shim_verbs_test_remove(struct ib_device *ibdev, void *client_data)
{
}

static struct ib_client mlx5_shim_verbs_test_client = {
	.name = "mlx5_shim_verbs_test",
	.add = mlx5_shim_verbs_test_add,
	.remove = mlx5_shim_verbs_test_remove,
};

static int __init mlx5_shim_verbs_test_init(void)
{
	return ib_register_client(&mlx5_shim_verbs_test_client);
}

static void __exit mlx5_shim_verbs_test_exit(void)
{
	ib_unregister_client(&mlx5_shim_verbs_test_client);
}

module_init(mlx5_shim_verbs_test_init);
module_exit(mlx5_shim_verbs_test_exit);

MODULE_DESCRIPTION("mlx5 shim test: the resource verbs of mlx5_shim_rdma's devices");
MODULE_LICENSE("GPL");
