"""Bad input to the shim's public entry points: PyTorch's exception type and a clear message.

``BAD`` is a table of (id, call, expected exception type, message fragment).  ``call`` takes
the library module (``fgrad.torch``, or ``torch`` itself), so the same call runs on both:

* on fgrad.torch it must raise the expected type (a builtin exception or
  ``fgrad.torch.linalg.LinAlgError``, never a NumPy exception or an AttributeError from
  inside) with the fragment in its message;
* with torch 2.13 installed it must raise the same type on torch (``test_torch_agrees``), so
  the table cannot drift from PyTorch.

``test_public_functions_reject_non_tensors`` sweeps every public function of ``fgrad.torch``,
``nn.functional`` and ``linalg`` with a non-tensor argument: each either raises a builtin
exception of PyTorch's kinds or is on the short list of functions that take any object.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import fgrad.torch as ft
import fgrad.torch.nn.functional as FF
from _peers import torch_is_pinned, torch_version_note

LinAlgError = ft.linalg.LinAlgError


def _backward_twice(t):
    x = t.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _hook_shape(t):
    x = t.ones(2, requires_grad=True)
    y = x * 2

    def hook(g):
        return t.ones(3)

    y.register_hook(hook)
    y.sum().backward()


def _fn_count(t):
    class F(t.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    a = t.ones(2, requires_grad=True)
    b = t.ones(2, requires_grad=True)
    F.apply(a, b).sum().backward()


def _fn_shape(t):
    class F(t.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return t.ones(3)

    a = t.ones(2, requires_grad=True)
    F.apply(a).sum().backward()


def _opt_nonleaf(t):
    x = t.ones(2, requires_grad=True)
    y = x * 2
    t.optim.SGD([y], lr=0.1)


BAD = [
    (
        "add_shape",
        lambda t: t.ones(2, 3) + t.ones(4),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (4)",
    ),
    (
        "add_fn_shape",
        lambda t: t.add(t.ones(2, 3), t.ones(2, 4)),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (4)",
    ),
    (
        "mul_shape",
        lambda t: t.ones(2, 3) * t.ones(3, 2),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2)",
    ),
    (
        "matmul_shape",
        lambda t: t.ones(2, 3) @ t.ones(4, 5),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
    ),
    (
        "matmul_1d",
        lambda t: t.matmul(t.ones(3), t.ones(4)),
        RuntimeError,
        "inconsistent tensor size, expected tensor [3] and src [4] to",
    ),
    (
        "mm_shape",
        lambda t: t.mm(t.ones(2, 3), t.ones(4, 5)),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
    ),
    ("mm_3d", lambda t: t.mm(t.ones(2, 3, 3), t.ones(3, 5)), RuntimeError, "self must be a matrix"),
    (
        "bmm_shape",
        lambda t: t.bmm(t.ones(2, 2, 3), t.ones(2, 4, 5)),
        RuntimeError,
        "Expected size for first two dimensions of batch2 tensor to b",
    ),
    (
        "bmm_batch",
        lambda t: t.bmm(t.ones(2, 2, 3), t.ones(3, 3, 5)),
        RuntimeError,
        "Expected size for first two dimensions of batch2 tensor to b",
    ),
    ("bmm_2d", lambda t: t.bmm(t.ones(2, 3), t.ones(3, 5)), RuntimeError, "batch1 must be a 3D tensor"),
    (
        "mv_shape",
        lambda t: t.mv(t.ones(2, 3), t.ones(4)),
        RuntimeError,
        "size mismatch, got input (2), mat (2x3), vec (4)",
    ),
    (
        "dot_shape",
        lambda t: t.dot(t.ones(3), t.ones(4)),
        RuntimeError,
        "inconsistent tensor size, expected tensor [3] and src [4] to",
    ),
    (
        "dot_2d",
        lambda t: t.dot(t.ones(3, 1), t.ones(3, 1)),
        RuntimeError,
        "1D tensors expected, but got 2D and 2D tensors",
    ),
    (
        "outer_ok",
        lambda t: t.outer(t.ones(3), t.ones(4, 2)),
        RuntimeError,
        "outer: Expected 1-D argument vec2, but got 2-D",
    ),
    (
        "cat_shape",
        lambda t: t.cat([t.ones(2, 3), t.ones(2, 4)]),
        RuntimeError,
        "Sizes of tensors must match except in dimension 0. Expected",
    ),
    (
        "cat_dim",
        lambda t: t.cat([t.ones(2, 3), t.ones(2, 3)], dim=2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1],",
    ),
    ("cat_empty", lambda t: t.cat([]), ValueError, "torch.cat(): expected a non-empty list of Tensors"),
    (
        "cat_ndim",
        lambda t: t.cat([t.ones(2, 3), t.ones(3)]),
        RuntimeError,
        "Tensors must have same number of dimensions: got 2 and 1",
    ),
    (
        "stack_shape",
        lambda t: t.stack([t.ones(2, 3), t.ones(2, 4)]),
        RuntimeError,
        "stack expects each tensor to be equal size, but got [2, 3] a",
    ),
    ("stack_empty", lambda t: t.stack([]), RuntimeError, "stack(): expected a non-empty list of Tensors"),
    (
        "view_shape",
        lambda t: t.ones(2, 3).view(4, 2),
        RuntimeError,
        "shape '[4, 2]' is invalid for input of size 6",
    ),
    (
        "view_noncontig",
        lambda t: t.ones(2, 3).t().view(6),
        RuntimeError,
        "view size is not compatible with input tensor's size and str",
    ),
    ("view_two_neg", lambda t: t.ones(2, 3).view(-1, -1), RuntimeError, "only one dimension can be inferred"),
    (
        "reshape_shape",
        lambda t: t.ones(2, 3).reshape(4, 2),
        RuntimeError,
        "shape '[4, 2]' is invalid for input of size 6",
    ),
    (
        "reshape_neg_bad",
        lambda t: t.ones(2, 3).reshape(-1, 4),
        RuntimeError,
        "shape '[-1, 4]' is invalid for input of size 6",
    ),
    (
        "expand_bad",
        lambda t: t.ones(2, 3).expand(4, 3),
        RuntimeError,
        "The expanded size of the tensor (4) must match the existing",
    ),
    (
        "permute_bad",
        lambda t: t.ones(2, 3).permute(0, 0),
        RuntimeError,
        "permute(): duplicate dims are not allowed.",
    ),
    (
        "permute_len",
        lambda t: t.ones(2, 3).permute(0),
        RuntimeError,
        "permute(sparse_coo): number of dimensions in the tensor inpu",
    ),
    (
        "transpose_dim",
        lambda t: t.ones(2, 3).transpose(0, 2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1],",
    ),
    (
        "squeeze_dim",
        lambda t: t.ones(2, 3).squeeze(3),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1],",
    ),
    (
        "unsqueeze_dim",
        lambda t: t.ones(2, 3).unsqueeze(4),
        IndexError,
        "Dimension out of range (expected to be in range of [-3, 2],",
    ),
    (
        "sum_dim",
        lambda t: t.ones(2, 3).sum(2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1],",
    ),
    (
        "mean_int",
        lambda t: t.ones(2, 3, dtype=t.int64).mean(),
        RuntimeError,
        "mean(): could not infer output dtype. Input dtype must be ei",
    ),
    (
        "softmax_dim",
        lambda t: t.softmax(t.ones(2, 3), 2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1],",
    ),
    (
        "where_float_cond",
        lambda t: t.where(t.ones(2), t.ones(2), t.zeros(2)),
        RuntimeError,
        "where expected condition to be a boolean tensor, but got a t",
    ),
    (
        "where_shape",
        lambda t: t.where(t.ones(2, dtype=t.bool), t.ones(3), t.zeros(2)),
        RuntimeError,
        "The size of tensor a (2) must match the size of tensor b (3)",
    ),
    ("index_oob", lambda t: t.ones(3)[5], IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
    (
        "index_oob_neg",
        lambda t: t.ones(3)[-4],
        IndexError,
        "index -4 is out of bounds for dimension 0 with size 3",
    ),
    (
        "index_oob_dim1",
        lambda t: t.ones(2, 3)[:, 3],
        IndexError,
        "index 3 is out of bounds for dimension 1 with size 3",
    ),
    (
        "index_tensor_oob",
        lambda t: t.ones(3)[t.tensor([0, 3])],
        IndexError,
        "index 3 is out of bounds for dimension 0 with size 3",
    ),
    ("index_too_many", lambda t: t.ones(3)[0, 0], IndexError, "too many indices for tensor of dimension 1"),
    (
        "index_float",
        lambda t: t.ones(3)[t.tensor([0.0])],
        IndexError,
        "tensors used as indices must be long, int, byte or bool tens",
    ),
    (
        "index_bool_shape",
        lambda t: t.ones(3)[t.tensor([True, False])],
        IndexError,
        "The shape of the mask [2] at index 0 does not match the shap",
    ),
    (
        "setitem_shape",
        lambda t: t.ones(3).__setitem__(slice(None), t.ones(2)),
        RuntimeError,
        "index_put_: could not broadcast input array from shape (2,)",
    ),
    (
        "index_select_dtype",
        lambda t: t.index_select(t.ones(3), 0, t.tensor([0.0])),
        RuntimeError,
        "index_select(): Expected dtype int64 for index",
    ),
    (
        "index_select_oob",
        lambda t: t.index_select(t.ones(3), 0, t.tensor([3])),
        IndexError,
        "index out of range in self",
    ),
    (
        "index_select_2d_idx",
        lambda t: t.index_select(t.ones(3), 0, t.tensor([[0]])),
        IndexError,
        "index_select(): Index is supposed to be a vector",
    ),
    (
        "gather_dtype",
        lambda t: t.gather(t.ones(3), 0, t.tensor([0.0])),
        RuntimeError,
        "gather(): Expected dtype int64 for index",
    ),
    (
        "gather_oob",
        lambda t: t.gather(t.ones(3), 0, t.tensor([3])),
        RuntimeError,
        "index 3 is out of bounds for dimension 0 with size 3",
    ),
    (
        "gather_ndim",
        lambda t: t.gather(t.ones(3, 2), 0, t.tensor([0])),
        RuntimeError,
        "Index tensor must have the same number of dimensions as inpu",
    ),
    (
        "scatter_dtype",
        lambda t: t.zeros(3).scatter(0, t.tensor([0.0]), t.ones(1)),
        RuntimeError,
        "scatter(): Expected dtype int64 for index",
    ),
    (
        "scatter_oob",
        lambda t: t.zeros(3).scatter(0, t.tensor([5]), t.ones(1)),
        RuntimeError,
        "index 5 is out of bounds for dimension 0 with size 3",
    ),
    (
        "scatter_add_oob",
        lambda t: t.zeros(3).scatter_add(0, t.tensor([5]), t.ones(1)),
        RuntimeError,
        "index 5 is out of bounds for dimension 0 with size 3",
    ),
    (
        "index_add_oob",
        lambda t: t.zeros(3).index_add(0, t.tensor([5]), t.ones(1)),
        IndexError,
        "index out of range in self",
    ),
    (
        "take_oob",
        lambda t: t.take(t.ones(3), t.tensor([5])),
        IndexError,
        "out of range: tried to access index 5 on a tensor of 3 eleme",
    ),
    (
        "embedding_oob",
        lambda t: t.nn.functional.embedding(t.tensor([5]), t.ones(3, 2)),
        IndexError,
        "index out of range in self",
    ),
    (
        "embedding_float",
        lambda t: t.nn.functional.embedding(t.tensor([0.0]), t.ones(3, 2)),
        RuntimeError,
        "Expected tensor for argument #1 'indices' to have one of the",
    ),
    (
        "backward_nonscalar",
        lambda t: (t.ones(2, requires_grad=True) * 2).backward(),
        RuntimeError,
        "grad can be implicitly created only for scalar outputs",
    ),
    (
        "backward_nograd",
        lambda t: t.ones(2).sum().backward(),
        RuntimeError,
        "element 0 of tensors does not require grad and does not have",
    ),
    (
        "backward_twice",
        _backward_twice,
        RuntimeError,
        "Trying to backward through the graph a second time (or direc",
    ),
    ("hook_shape", _hook_shape, RuntimeError, "hook 'hook' has changed the size of value (it returned shape"),
    ("fn_count", _fn_count, RuntimeError, "function FBackward returned an incorrect number of gradients"),
    ("fn_shape", _fn_shape, RuntimeError, "Function FBackward returned an invalid gradient at index 0 -"),
    (
        "grad_shape",
        lambda t: (t.ones(2, requires_grad=True) * 2).backward(t.ones(3)),
        RuntimeError,
        "Mismatch in shape: grad_output[0] has a shape of torch.Size(",
    ),
    (
        "linear_features",
        lambda t: t.nn.Linear(4, 5)(t.ones(2, 3)),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
    ),
    (
        "conv2d_channels",
        lambda t: t.nn.Conv2d(3, 4, 3)(t.ones(1, 2, 5, 5)),
        RuntimeError,
        "Given groups=1, weight of size [4, 3, 3, 3], expected input[",
    ),
    (
        "conv2d_small",
        lambda t: t.nn.Conv2d(3, 4, 3)(t.ones(1, 3, 2, 2)),
        RuntimeError,
        "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't",
    ),
    (
        "conv2d_ndim",
        lambda t: t.nn.Conv2d(3, 4, 3)(t.ones(3, 5)),
        RuntimeError,
        "Expected 3D (unbatched) or 4D (batched) input to conv2d, but",
    ),
    (
        "ce_target_oob",
        lambda t: t.nn.CrossEntropyLoss()(t.ones(2, 3), t.tensor([0, 3])),
        IndexError,
        "Target 3 is out of bounds.",
    ),
    (
        "ce_target_float_shape",
        lambda t: t.nn.CrossEntropyLoss()(t.ones(2, 3), t.ones(2, 4)),
        RuntimeError,
        "0D or 1D target tensor expected, multi-target not supported",  # PyTorch 2.13
    ),
    (
        "ce_target_neg",
        lambda t: t.nn.functional.cross_entropy(t.ones(2, 3), t.tensor([0, -1])),
        IndexError,
        "Target -1 is out of bounds.",
    ),
    (
        "nll_target_float",
        lambda t: t.nn.functional.nll_loss(t.ones(2, 3), t.tensor([0.0, 1.0])),
        RuntimeError,
        "expected target dtype to be Long or Byte, but got Float",  # PyTorch 2.13
    ),
    (
        "mse_shape",
        lambda t: t.nn.functional.mse_loss(t.ones(2, 3), t.ones(3, 2)),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2)",
    ),
    (
        "bce_range",
        lambda t: t.nn.functional.binary_cross_entropy(t.tensor([2.0]), t.tensor([1.0])),
        RuntimeError,
        "all elements of input should be between 0 and 1",
    ),
    (
        "bce_shape",
        lambda t: t.nn.functional.binary_cross_entropy(t.tensor([0.5]), t.tensor([1.0, 0.0])),
        ValueError,
        "Using a target size (torch.Size([2])) that is different to t",
    ),
    ("opt_nonleaf", _opt_nonleaf, ValueError, "can't optimize a non-leaf Tensor"),
    (
        "opt_tensor_params",
        lambda t: t.optim.SGD(t.ones(2, requires_grad=True), lr=0.1),
        TypeError,
        "params argument given to the optimizer should be an iterable",
    ),
    (
        "opt_lr_neg",
        lambda t: t.optim.SGD([t.ones(2, requires_grad=True)], lr=-1.0),
        ValueError,
        "Invalid learning rate: -1.0",
    ),
    ("opt_empty", lambda t: t.optim.Adam([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
    ("tensor_str", lambda t: t.tensor("abc"), TypeError, "new(): invalid data type 'str'"),
    (
        "tensor_obj",
        lambda t: t.tensor(object()),
        RuntimeError,
        "Could not infer dtype of object (torch.tensor takes numbers,",
    ),
    ("tensor_list_str", lambda t: t.tensor([1, "a"]), TypeError, "new(): invalid data type 'str'"),
    (
        "tensor_ragged",
        lambda t: t.tensor([[1, 2], [3]]),
        ValueError,
        "expected sequence of length 2 at dim 1 (got 1)",
    ),
    (
        "tensor_dict",
        lambda t: t.tensor({"a": 1}),
        RuntimeError,
        "Could not infer dtype of dict (torch.tensor takes numbers, n",
    ),
    (
        "tensor_none",
        lambda t: t.tensor(None),
        RuntimeError,
        "Could not infer dtype of NoneType (torch.tensor takes number",
    ),
    (
        "add_str",
        lambda t: t.ones(2) + "a",
        TypeError,
        "add(): argument 'other' must be Tensor or Number, not str",
    ),
    (
        "add_fn_str",
        lambda t: t.add(t.ones(2), "a"),
        TypeError,
        "add(): argument 'other' must be Tensor or Number, not str",
    ),
    (
        "mul_list",
        lambda t: t.mul(t.ones(2), [1, 2]),
        TypeError,
        "mul(): argument 'other' (position 2) must be Tensor, not lis",
    ),
    (
        "exp_list",
        lambda t: t.exp([1.0, 2.0]),
        TypeError,
        "exp(): argument 'input' (position 1) must be Tensor, not lis",
    ),
    (
        "exp_np",
        lambda t: t.exp(np.ones(2)),
        TypeError,
        "exp(): argument 'input' (position 1) must be Tensor, not nda",
    ),
    ("sum_str_dim", lambda t: t.ones(2).sum("a"), TypeError, "argument 'dim' must be int, not str"),
    (
        "ones_neg",
        lambda t: t.ones(-1),
        RuntimeError,
        "Trying to create tensor with negative dimension -1: [-1]",
    ),
    (
        "zeros_float",
        lambda t: t.zeros(2.5),
        TypeError,
        "zeros(): argument 'size' must be tuple of ints, but found el",
    ),
    (
        "randn_neg",
        lambda t: t.randn(-2),
        RuntimeError,
        "Trying to create tensor with negative dimension -2: [-2]",
    ),
    ("arange_step0", lambda t: t.arange(0, 5, 0), RuntimeError, "step must be nonzero"),
    (
        "arange_bad_sign",
        lambda t: t.arange(0, 5, -1),
        RuntimeError,
        "upper bound and larger bound inconsistent with step sign",
    ),
    ("linspace_neg", lambda t: t.linspace(0, 1, -1), RuntimeError, "number of steps must be non-negative"),
    ("eye_neg", lambda t: t.eye(-1), RuntimeError, "n must be greater or equal to 0, got -1"),
    ("full_str", lambda t: t.full((2,), "a"), TypeError, "new(): invalid data type 'str'"),
    (
        "inverse_nonsquare",
        lambda t: t.inverse(t.ones(2, 3)),
        RuntimeError,
        "linalg.inv: A must be batches of square matrices, but they a",
    ),
    (
        "inverse_singular",
        lambda t: t.linalg.inv(t.zeros(2, 2)),
        LinAlgError,
        "linalg.inv: A diagonal element of the LU factorization is ze",
    ),
    (
        "cholesky_nonpd",
        lambda t: t.linalg.cholesky(-t.eye(2)),
        LinAlgError,
        "linalg.cholesky: The factorization could not be completed be",
    ),
    (
        "solve_shape",
        lambda t: t.linalg.solve(t.eye(2), t.ones(3)),
        RuntimeError,
        "linalg.solve: a of shape (2, 2) and b of shape (3, 1) are incompatible",
    ),
    (
        "solve_singular",
        lambda t: t.linalg.solve(t.zeros(2, 2), t.ones(2)),
        LinAlgError,
        "linalg.solve: The solver failed because the input matrix is singular",
    ),
    (
        "det_nonsquare",
        lambda t: t.det(t.ones(2, 3)),
        RuntimeError,
        "linalg.det: A must be batches of square matrices, but they a",
    ),
    (
        "det_int",
        lambda t: t.det(t.ones(2, 2, dtype=t.int64)),
        RuntimeError,
        "linalg.det: Expected a floating point or complex tensor as i",
    ),
    (
        "svd_1d",
        lambda t: t.linalg.svd(t.ones(3)),
        RuntimeError,
        "linalg.svd: 1-dimensional array given. Array must be at leas",
    ),
    (
        "eigh_nonsquare",
        lambda t: t.linalg.eigh(t.ones(2, 3)),
        RuntimeError,
        "linalg.eigh: last 2 dimensions of the array must be square, got shape (2, 3)",
    ),
    (
        "qr_1d",
        lambda t: t.linalg.qr(t.ones(3)),
        RuntimeError,
        "linalg.qr: 1-dimensional array given. Array must be at least",
    ),
    (
        "norm_int",
        lambda t: t.linalg.vector_norm(t.ones(3, dtype=t.int64)),
        RuntimeError,
        "linalg.vector_norm: Expected a floating point or complex ten",
    ),
    (
        "matrix_norm_1d",
        lambda t: t.linalg.matrix_norm(t.ones(3)),
        RuntimeError,
        "linalg.matrix_norm: The input tensor A must have at least 2 d",
    ),
    (
        "cross_shape",
        lambda t: t.linalg.cross(t.ones(2), t.ones(2)),
        RuntimeError,
        "linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2",
    ),
    (
        "item_multi",
        lambda t: t.ones(2).item(),
        RuntimeError,
        "a Tensor with 2 elements cannot be converted to Scalar",
    ),
    (
        "bool_multi",
        lambda t: bool(t.ones(2)),
        RuntimeError,
        "Boolean value of Tensor with more than one value is ambiguou",
    ),
    (
        "float_multi",
        lambda t: float(t.ones(2)),
        ValueError,
        "only one element tensors can be converted to Python scalars",
    ),
    (
        "numpy_grad",
        lambda t: t.ones(2, requires_grad=True).numpy(),
        RuntimeError,
        "Can't call numpy() on Tensor that requires grad. Use tensor.",
    ),
    (
        "requires_grad_int",
        lambda t: t.ones(2, dtype=t.int64).requires_grad_(),
        RuntimeError,
        "only Tensors of floating point dtype can require gradients",
    ),
    (
        "inplace_leaf",
        lambda t: t.ones(2, requires_grad=True).add_(1),
        RuntimeError,
        "a leaf Variable that requires grad is being used in an in-pl",
    ),
    (
        "inplace_broadcast",
        lambda t: t.ones(2).add_(t.ones(2, 2)),
        RuntimeError,
        "output with shape [2] doesn't match the broadcast shape [2,",
    ),
    (
        "inplace_dtype",
        lambda t: t.ones(2, dtype=t.int64).add_(1.5),
        RuntimeError,
        "result type Float can't be cast to the desired output type L",
    ),
    (
        "split_size0",
        lambda t: t.ones(4).split(0),
        RuntimeError,
        "split_size can only be 0 if dimension size is 0, but got dim",
    ),
    (
        "chunk0",
        lambda t: t.ones(4).chunk(0),
        RuntimeError,
        "chunk expects `chunks` to be greater than 0, got: 0",
    ),
    (
        "narrow_oob",
        lambda t: t.ones(4).narrow(0, 2, 5),
        RuntimeError,
        "start (2) + length (5) exceeds dimension size (4).",
    ),
    (
        "select_oob",
        lambda t: t.ones(4).select(0, 4),
        IndexError,
        "select(): index 4 out of range for tensor of size [4] at dim",
    ),
    (
        "flip_dim",
        lambda t: t.ones(4).flip(1),
        IndexError,
        "Dimension out of range (expected to be in range of [-1, 0],",
    ),
    (
        "roll_dim",
        lambda t: t.ones(4).roll(1, 1),
        IndexError,
        "roll: Dimension out of range (axis 1 is out of bounds for an array of dimension 1",
    ),
    ("topk_k", lambda t: t.ones(4).topk(5), RuntimeError, "selected index k out of range"),
    (
        "kthvalue_k",
        lambda t: t.ones(4).kthvalue(5),
        RuntimeError,
        "kthvalue(): selected number k out of range for dimension 0",
    ),
    (
        "repeat_few",
        lambda t: t.ones(2, 2).repeat(2),
        RuntimeError,
        "Number of dimensions of repeat dims can not be smaller than",
    ),
    ("diag_3d", lambda t: t.diag(t.ones(2, 2, 2)), RuntimeError, "diag(): Supports 1D or 2D tensors. Got 3D"),
    (
        "trace_1d",
        lambda t: t.trace(t.ones(3)),
        RuntimeError,
        "trace: expected a matrix, but got tensor with dim 1",
    ),
    (
        "flatten_dims",
        lambda t: t.ones(2, 3).flatten(1, 0),
        RuntimeError,
        "flatten() has invalid args: start_dim cannot come after end_",
    ),
    (
        "movedim_bad",
        lambda t: t.ones(2, 3).movedim(0, 3),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1],",
    ),
    (
        "one_hot_float",
        lambda t: t.nn.functional.one_hot(t.tensor([0.0])),
        RuntimeError,
        "one_hot is only applicable to index tensor of type LongTenso",
    ),
    (
        "one_hot_oob",
        lambda t: t.nn.functional.one_hot(t.tensor([3]), 2),
        RuntimeError,
        "Class values must be smaller than num_classes.",
    ),
    (
        "pad_bad",
        lambda t: t.nn.functional.pad(t.ones(2), (1,)),
        RuntimeError,
        "Padding length must be divisible by 2",
    ),
    (
        "layer_norm_shape",
        lambda t: t.nn.functional.layer_norm(t.ones(2, 3), (4,)),
        RuntimeError,
        "Given normalized_shape=[4], expected input with shape [*, 4]",
    ),
    (
        "batchnorm_features",
        lambda t: t.nn.BatchNorm1d(4)(t.ones(2, 3)),
        RuntimeError,
        "native_batch_norm: reshape: cannot reshape array of shape (4,) (size 4) into shape (1, 3)",
    ),
    (
        "batchnorm_one",
        lambda t: t.nn.BatchNorm1d(3)(t.ones(1, 3)),
        ValueError,
        "Expected more than 1 value per channel when training, got in",
    ),
    (
        "embedding_mod_oob",
        lambda t: t.nn.Embedding(3, 2)(t.tensor([3])),
        IndexError,
        "index out of range in self",
    ),
    (
        "lstm_input",
        lambda t: t.nn.LSTM(3, 4)(t.ones(2, 1, 5)),
        RuntimeError,
        "input.size(-1) must be equal to input_size. Expected 3, got",
    ),
    (
        "maxpool_big",
        lambda t: t.nn.functional.max_pool2d(t.ones(1, 1, 2, 2), 3),
        RuntimeError,
        "Given input size: (1x2x2). Calculated output size: (1x0x0).",
    ),
    (
        "dropout_p",
        lambda t: t.nn.functional.dropout(t.ones(2), p=1.5),
        ValueError,
        "dropout probability has to be between 0 and 1, but got 1.5",
    ),
    (
        "module_str_input",
        lambda t: t.nn.Linear(2, 2)("a"),
        TypeError,
        "linear(): argument 'input' (position 1) must be Tensor, not",
    ),
    (
        "load_state_missing",
        lambda t: t.nn.Linear(2, 2).load_state_dict({}),
        RuntimeError,
        "Error(s) in loading state_dict for Linear:",
    ),
    (
        "load_state_shape",
        lambda t: t.nn.Linear(2, 2).load_state_dict({"weight": t.ones(3, 3), "bias": t.ones(2)}),
        RuntimeError,
        "Error(s) in loading state_dict for Linear:",
    ),
    ("sequential_bad", lambda t: t.nn.Sequential(1), TypeError, "int is not a Module subclass"),
    (
        "clamp_none",
        lambda t: t.clamp(t.ones(2)),
        RuntimeError,
        "torch.clamp: At least one of 'min' or 'max' must not be None",
    ),
    (
        "pow_int_neg",
        lambda t: t.tensor([2]) ** -1,
        RuntimeError,
        "Integers to negative integer powers are not allowed.",
    ),
    (
        "div_int_mode",
        lambda t: t.div(t.ones(2), t.ones(2), rounding_mode="bad"),
        RuntimeError,
        "div expected rounding_mode to be one of None, 'trunc', or 'f",
    ),
    (
        "sort_dim",
        lambda t: t.sort(t.ones(2), dim=1),
        IndexError,
        "Dimension out of range (expected to be in range of [-1, 0],",
    ),
    (
        "cumsum_dim",
        lambda t: t.cumsum(t.ones(2), dim=1),
        IndexError,
        "Dimension out of range (expected to be in range of [-1, 0],",
    ),
    (
        "to_bad",
        lambda t: t.ones(2).to("bad"),
        RuntimeError,
        "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl,",
    ),
    (
        "dtype_str",
        lambda t: t.ones(2, dtype="float"),
        TypeError,
        "argument 'dtype' must be torch.dtype, not str (use torch.flo",
    ),
    (
        "masked_fill_float_mask",
        lambda t: t.ones(2).masked_fill(t.ones(2), 0.0),
        RuntimeError,
        "masked_fill_ only supports boolean masks, but got mask with",
    ),
    (
        "masked_fill_shape",
        lambda t: t.ones(2).masked_fill(t.ones(3, dtype=t.bool), 0.0),
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2)",
    ),
    (
        "einsum_bad",
        lambda t: t.einsum("ij,jk->ik", t.ones(2, 3), t.ones(4, 5)),
        RuntimeError,
        "einsum: size of label 'j' for operand 1 (4) does not match previous terms (3)",
    ),
    (
        "einsum_ops",
        lambda t: t.einsum("ij,jk->ik", t.ones(2, 3)),
        RuntimeError,
        "einsum: 2 operand subscripts given for 1 operands",
    ),
    (
        "broadcast_to_bad",
        lambda t: t.broadcast_to(t.ones(3), (2, 4)),
        RuntimeError,
        "The expanded size of the tensor (4) must match the existing",
    ),
    (
        "unbind_dim",
        lambda t: t.ones(3).unbind(1),
        IndexError,
        "Dimension out of range (expected to be in range of [-1, 0],",
    ),
    (
        "lerp_shape",
        lambda t: t.lerp(t.ones(2), t.ones(3), 0.5),
        RuntimeError,
        "The size of tensor a (2) must match the size of tensor b (3)",
    ),
    (
        "addmm_shape",
        lambda t: t.addmm(t.ones(2, 2), t.ones(2, 3), t.ones(4, 2)),
        RuntimeError,
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)",
    ),
    (
        "baddbmm_shape",
        lambda t: t.baddbmm(t.ones(2, 2, 2), t.ones(2, 2, 3), t.ones(2, 4, 2)),
        RuntimeError,
        "baddbmm: matmul: contracting dimension mismatch: (2, 2, 3) @ (2, 4, 2)",
    ),
    (
        "tensordot_shape",
        lambda t: t.tensordot(t.ones(2, 3), t.ones(4, 5), dims=1),
        RuntimeError,
        "tensordot: shape mismatch for sum: (2, 3) axis 1 (3) vs (4, 5) axis 0 (4)",
    ),
    (
        "cdist_shape",
        lambda t: t.cdist(t.ones(2, 3), t.ones(2, 4)),
        RuntimeError,
        "X1 and X2 must have the same number of columns. X1: 3 X2: 4",
    ),
    (
        "std_int",
        lambda t: t.ones(2, dtype=t.int64).std(),
        RuntimeError,
        "std and var only support floating point and complex dtypes",
    ),
    (
        "log_softmax_int",
        lambda t: t.log_softmax(t.ones(2, dtype=t.int64), 0),
        NotImplementedError,
        "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'",
    ),
    (
        "max_empty",
        lambda t: t.ones(0).max(),
        RuntimeError,
        "max(): Expected reduction dim to be specified for input.nume",
    ),
    (
        "argmax_empty",
        lambda t: t.ones(0).argmax(),
        IndexError,
        "argmax(): Expected reduction dim to be specified for input.n",
    ),
    (
        "multinomial_neg",
        lambda t: t.multinomial(t.tensor([-1.0, 1.0]), 1),
        RuntimeError,
        "invalid multinomial distribution (sum of probabilities <= 0)",
    ),
    (
        "randint_bad",
        lambda t: t.randint(5, 2, (2,)),
        RuntimeError,
        "random_ expects 'from' to be less than 'to', but got from=5",
    ),
    (
        "normal_std_neg",
        lambda t: t.normal(0.0, -1.0, (2,)),
        RuntimeError,
        "normal expects std >= 0.0, but found std -1.0",
    ),
    (
        "bernoulli_p",
        lambda t: t.bernoulli(t.tensor([1.5])),
        RuntimeError,
        "Expected p_in >= 0 && p_in <= 1 to be true, but got false. (",
    ),
    ("cuda_missing", lambda t: t.ones(2).cuda(), AssertionError, "Torch not compiled with CUDA enabled"),
    (
        "detach_view_inplace",
        lambda t: t.ones(2, requires_grad=True).detach().requires_grad_().view(2).mul_(2),
        RuntimeError,
        "a view of a leaf Variable that requires grad is being used i",
    ),
    (
        "grad_nonleaf",
        lambda t: t.autograd.grad(t.ones(2).sum(), t.ones(2, requires_grad=True)),
        RuntimeError,
        "element 0 of tensors does not require grad and does not have",
    ),
    (
        "grad_unused",
        lambda t: t.autograd.grad((t.ones(2, requires_grad=True) * 2).sum(), t.ones(2, requires_grad=True)),
        RuntimeError,
        "The differentiated Tensor at index 0 appears to not have bee",
    ),
    (
        "dataloader_bs0",
        lambda t: t.utils.data.DataLoader([1, 2], batch_size=0),
        ValueError,
        "batch_size should be a positive integer value, but got batch",
    ),
]


# torch's exception type for each expected type of the table
def _torch_type(torch, expected):
    return torch.linalg.LinAlgError if expected is LinAlgError else expected


def _raises(call, lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(lib)
        except Exception as e:  # noqa: BLE001
            return e
    return None


@pytest.mark.parametrize("name,call,expected,fragment", BAD, ids=[row[0] for row in BAD])
def test_shim_raises_pytorch_type(name, call, expected, fragment, request):
    if name == "cuda_missing":
        request.getfixturevalue("no_cuda")
    e = _raises(call, ft)
    assert e is not None, f"{name}: accepted silently"
    assert isinstance(e, expected), f"{name}: {type(e).__module__}.{type(e).__name__}: {e}"
    assert type(e).__module__ in ("builtins", "fgrad.torch._errors"), f"{name}: leaked {type(e)}"
    assert fragment in str(e), f"{name}: message {str(e)!r} lacks {fragment!r}"


@pytest.mark.parametrize("name,call,expected,fragment", BAD, ids=[row[0] for row in BAD])
def test_torch_agrees(name, call, expected, fragment):
    torch = pytest.importorskip("torch")
    if name == "cuda_missing" and torch.cuda.is_available():
        pytest.skip("this PyTorch has CUDA")
    if name in VERSION_SPECIFIC and not torch_is_pinned(torch):
        pytest.skip(torch_version_note(torch))
    e = _raises(call, torch)
    assert e is not None, f"{name}: torch accepts it"
    assert isinstance(e, _torch_type(torch, expected)), f"{name}: torch raises {type(e).__name__}: {e}"


# rows whose error type changed between PyTorch releases (2.11: a named-tensor RuntimeError
# for ``sum("a")``; 2.13: the argument parser's TypeError): compared live with 2.13 only
VERSION_SPECIFIC = {"sum_str_dim"}


def test_numpy_errors_inside_ops_name_the_op():
    """A NumPy error from inside an op's computation comes out as RuntimeError naming the op
    and the inputs (the translation point in the dispatch), with NumPy's error as the cause."""
    with pytest.raises(
        RuntimeError, match=r"linalg.solve: .*inputs: Tensor\[2, 2\] float32, Tensor\[3\]"
    ) as ei:
        ft.linalg.solve(ft.eye(2), ft.ones(3))
    assert isinstance(ei.value.__cause__, ValueError)
    with pytest.raises(LinAlgError, match=r"linalg.solve: .*singular \(inputs: Tensor\[2, 2\] float32") as ei:
        ft.linalg.solve(ft.zeros(2, 2), ft.ones(2))
    assert isinstance(ei.value, RuntimeError)


def test_public_function_argument_type_error_names_the_argument():
    with pytest.raises(TypeError, match=r"relu\(\): argument 'input' \(position 1\) must be Tensor, not str"):
        FF.relu("x")
    with pytest.raises(TypeError, match=r"argument 'weight' \(position 2\) must be Tensor, not list"):
        FF.linear(ft.ones(2, 3), [[1.0, 2.0, 3.0]])
    with pytest.raises(TypeError, match=r"must be Tensor, not dict"):
        ft.linalg.det({})


# functions that legitimately take any object (predicates, settings, helpers)
TAKES_ANY = {
    "torch": {
        "is_tensor",
        "is_storage",
        "typename",
        "compile",
        "set_printoptions",
        "set_num_threads",
        "set_num_interop_threads",
        "use_deterministic_algorithms",
        "buf_index",
        "chain_matmul",
        "load",
        "set_default_tensor_type",
        "normal",
        "vmap",  # PyTorch's vmap wraps any object and fails only when the result is called
        "sym_not",  # `not a` of anything, as PyTorch's
    },
    "F": {"wrap", "is_concrete"},
    "linalg": {"multi_dot"},
}
KINDS = (TypeError, RuntimeError, ValueError, IndexError)


def _public_functions():
    for label, mod in (("torch", ft), ("F", FF), ("linalg", ft.linalg)):
        for name in sorted(dir(mod)):
            fn = getattr(mod, name)
            if name.startswith("_") or not inspect.isfunction(fn) or name in TAKES_ANY[label]:
                continue
            if not getattr(fn, "__module__", "").startswith("fgrad.torch"):
                continue
            yield label, name, fn


def test_public_functions_reject_non_tensors():
    problems = []
    count = 0
    for label, name, fn in _public_functions():
        for arg in ("abc", object()):
            count += 1
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    fn(arg)
                except KINDS as e:
                    if type(e).__module__ not in ("builtins", "fgrad.torch._errors"):
                        problems.append(f"{label}.{name}({type(arg).__name__}): {type(e)}")
                    continue
                except Exception as e:  # noqa: BLE001
                    problems.append(f"{label}.{name}({type(arg).__name__}): {type(e).__name__}: {e}")
                    continue
            problems.append(f"{label}.{name}({type(arg).__name__}): accepted")
    assert count > 400
    assert not problems, "\n".join(problems)


# Tensor methods whose argument is an option fgrad does not validate yet (memory_format,
# a bool flag, a device hint), and is_set_to
METHODS_NOT_CHECKED = {
    "bfloat16", "bool", "byte", "cdouble", "cfloat", "char", "contiguous", "cpu", "double", "float", "half",
    "int",
    "is_contiguous", "is_pinned", "long", "pin_memory", "qr", "register_post_accumulate_grad_hook",
    "requires_grad_", "short", "svd", "unique", "unique_consecutive", "is_set_to",
}
METHODS_SKIPPED = {
    "__init__", "__new__", "__del__", "__setattr__", "__getattribute__", "__reduce_ex__", "__init_subclass__",
    "__subclasshook__", "__class_getitem__", "__format__", "__dir__", "__sizeof__", "__reduce__",
    "__getattr__", "__delattr__", "__eq__", "__ne__", "__contains__", "register_hook", "apply_", "map_",
    "__deepcopy__", "__setstate__", "new_tensor", "tolist", "__array__", "__array_wrap__",
}


def test_tensor_methods_reject_non_tensors():
    problems = []
    for name in sorted(dir(ft.Tensor)):
        if name in METHODS_SKIPPED or name in METHODS_NOT_CHECKED or name.startswith("_version"):
            continue
        x = ft.ones(2, 3)
        try:
            method = getattr(x, name)
        except Exception:  # noqa: BLE001 (properties that raise are not methods)
            continue
        if not callable(method):
            continue
        for arg in ("abc", object()):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    method(arg)
                except KINDS:
                    continue
                except Exception as e:  # noqa: BLE001
                    problems.append(f"Tensor.{name}({type(arg).__name__}): {type(e).__name__}: {e}")
                    continue
            problems.append(f"Tensor.{name}({type(arg).__name__}): accepted")
    assert not problems, "\n".join(problems)
