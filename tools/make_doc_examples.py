# ruff: noqa: E501  (example lines are data)
"""Write the docstring examples of fgrad's public functions (``fgrad/_docs/*_examples.py``).

For every public function of the modules in `fgrad._docs.MODULES` whose docstring has no
``>>>`` example, this script tries the hand-written example in `CURATED` (if any), then the
generic candidates of its face (a unary call on a small float tensor, a binary call, a matrix,
a creation call...).  Each candidate runs with the PEER under the same names the fgrad doctest
uses (``torch`` is PyTorch for `fgrad.torch`; ``fnp`` is ``jax.numpy`` with x64 enabled,
``lax`` is ``jax.lax`` and ``fgrad`` stands for ``jax`` for the functional face); the peer's
printed output is what gets stored.  The first candidate the peer runs deterministically
and whose output fgrad reproduces is kept; if fgrad reproduces none, the first one the peer
runs is kept and marked ``skip`` (a known difference: listed in the data module's
``KNOWN_DIFFERENCES``, run as an expected failure by tests/test_doc_examples.py).

Usage (needs torch and jax; they are never imported by fgrad itself)::

    python tools/make_doc_examples.py            # rewrite all data modules
    python tools/make_doc_examples.py --report   # also print the functions left without one

To give a function a better example than the generic ones, add it to `CURATED` below
(``"fgrad.torch.linalg.det": ["torch.linalg.det(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))"]``;
several strings are several ``>>>`` lines) and rerun.
"""

from __future__ import annotations

import contextlib
import io
import pprint
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

jax.config.update("jax_enable_x64", True)  # fgrad's default precision is float64, as JAX's x64 mode
import jax.numpy as jnp  # noqa: E402

import fgrad  # noqa: E402
import fgrad.numpy as fnp  # noqa: E402
import fgrad.torch as ftorch  # noqa: E402
from fgrad import _docs  # noqa: E402
from fgrad import lax as flax  # noqa: E402

# ---------------------------------------------------------------- hand-written examples
# name -> the example's lines (each a ``>>>`` line; a line may hold a small multi-line block).  A
# line may be a pair ``(fgrad's line, the peer's line)`` where the peer spells the call
# differently (fgrad extras such as ``torch.autograd.is_grad_enabled``): the peer's line's
# output is stored as what fgrad's line must print.
CURATED: dict[str, list] = {
    "fgrad.torch.Tensor.item": ["torch.tensor([2.5]).item()"],
    "fgrad.torch.Tensor.backward": ["x = torch.tensor([1.0, 2.0], requires_grad=True)",
                                    "(x * x).sum().backward()", "x.grad"],
    "fgrad.torch.Tensor.retain_grad": ["x = torch.tensor([1.0, 2.0], requires_grad=True)", "y = x * 2",
                                       "y.retain_grad()", "y.sum().backward()", "y.grad"],
    "fgrad.torch.Tensor.register_hook": ["x = torch.tensor([1.0, 2.0], requires_grad=True)",
                                         "_ = x.register_hook(lambda g: g * 10)", "(x * x).sum().backward()",
                                         "x.grad"],
    "fgrad.torch.Tensor.register_post_accumulate_grad_hook": [
        "x = torch.tensor([1.0], requires_grad=True)",
        "_ = x.register_post_accumulate_grad_hook(lambda t: print('accumulated', t.grad))",
        "(2 * x).sum().backward()"],
    "fgrad.torch.Tensor.data_ptr": ["isinstance(torch.zeros(2).data_ptr(), int)"],
    "fgrad.torch.Tensor.apply_": ["torch.tensor([1.0, 2.0]).apply_(lambda v: v * 2)"],
    "fgrad.torch.Tensor.map_": ["torch.tensor([1.0, 2.0]).map_(torch.tensor([3.0, 4.0]), lambda a, b: a + b)"],
    "fgrad.torch.Tensor.exponential_": ["torch.zeros(2, 3).exponential_().shape"],
    "fgrad.torch.Tensor.cauchy_": ["torch.zeros(2, 3).cauchy_().shape"],
    "fgrad.torch.Tensor.geometric_": ["torch.zeros(2, 3).geometric_(0.5).shape"],
    "fgrad.torch.Tensor.log_normal_": ["torch.zeros(2, 3).log_normal_().shape"],
    "fgrad.torch.Tensor.addbmm": ["torch.zeros(2, 2).addbmm(torch.ones(1, 2, 3), torch.ones(1, 3, 2))"],
    "fgrad.torch.Tensor.addmm": ["torch.zeros(2, 2).addmm(torch.ones(2, 3), torch.ones(3, 2))"],
    "fgrad.torch.Tensor.addmv": ["torch.zeros(2).addmv(torch.ones(2, 3), torch.ones(3))"],
    "fgrad.torch.Tensor.as_strided": ["torch.arange(4.0).as_strided((2, 2), (1, 1))"],
    "fgrad.torch.Tensor.as_strided_": ["torch.arange(4.0).as_strided_((2, 2), (1, 1))"],
    "fgrad.torch.Tensor.baddbmm": ["torch.zeros(1, 2, 2).baddbmm(torch.ones(1, 2, 3), torch.ones(1, 3, 2))"],
    "fgrad.torch.Tensor.bmm": ["torch.ones(1, 2, 3).bmm(torch.ones(1, 3, 2))"],
    "fgrad.torch.Tensor.masked_scatter": [
        "torch.zeros(3).masked_scatter(torch.tensor([True, False, True]), torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.Tensor.rsub": [("torch.tensor([1.0, 2.0]).rsub(torch.tensor([3.0, 5.0]))",
                                 "torch.rsub(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 5.0]))")],
    "fgrad.torch.Tensor.scatter_reduce": [
        "torch.zeros(3).scatter_reduce(0, torch.tensor([2, 2]), torch.tensor([1.0, 2.0]), 'amax')"],
    "fgrad.torch.Tensor.unflatten": ["torch.arange(4.0).unflatten(0, (2, 2))"],
    "fgrad.torch.einsum": ["torch.einsum('ij->ji', torch.tensor([[1.0, 2.0], [3.0, 4.0]]))"],
    "fgrad.torch.get_num_threads": ["torch.get_num_threads() >= 1"],
    "fgrad.torch.get_num_interop_threads": ["torch.get_num_interop_threads() >= 1"],
    "fgrad.torch.empty_like": ["torch.empty_like(torch.zeros(2, 3)).shape"],
    "fgrad.torch.scalar_tensor": ["torch.scalar_tensor(3)"],
    "fgrad.torch.lu_unpack": [
        "LU, pivots = torch.tensor([[3.0, 4.0], [1 / 3, 2 / 3]]), torch.tensor([2, 2], dtype=torch.int32)",
        "torch.lu_unpack(LU, pivots).P"],
    "fgrad.torch.autograd.set_detect_anomaly": [
        "_ = torch.autograd.set_detect_anomaly(False)",
        ("torch.autograd.is_anomaly_enabled()", "torch.is_anomaly_enabled()")],
    "fgrad.torch.set_default_device": ["torch.set_default_device('cpu')", "torch.zeros(1).device",
                                       "torch.set_default_device(None)"],
    "fgrad.torch.as_strided_": [("torch.as_strided_(torch.tensor([1.0, 2.0, 3.0, 4.0]), (2, 2), (1, 1))",
                                 "torch.tensor([1.0, 2.0, 3.0, 4.0]).as_strided_((2, 2), (1, 1))")],
    "fgrad.lax.top_k": ["lax.top_k(fnp.array([1.0, 3.0, 2.0]), 2)"],
    "fgrad.lax.bitcast_convert_type": ["lax.bitcast_convert_type(fnp.array([1.0]), fnp.int64)"],
    "fgrad.lax.conj": ["lax.conj(fnp.array([1.0 + 2.0j]))"],
    "fgrad.torch.autograd.is_grad_enabled": [("torch.autograd.is_grad_enabled()", "torch.is_grad_enabled()")],
    "fgrad.torch.autograd.is_anomaly_enabled": [
        ("torch.autograd.is_anomaly_enabled()", "torch.is_anomaly_enabled()")],
    "fgrad.torch.autograd.is_inference_mode_enabled": [
        ("torch.autograd.is_inference_mode_enabled()", "torch.is_inference_mode_enabled()")],
    "fgrad.torch.autograd.gradgradcheck": [
        "torch.autograd.gradgradcheck(torch.sin, (torch.tensor([0.5], dtype=torch.float64, requires_grad=True),))"],
    "fgrad.torch.autograd.once_differentiable": [
        ("callable(torch.autograd.once_differentiable(lambda ctx, g: g))",
         "callable(torch.autograd.function.once_differentiable(lambda ctx, g: g))")],
    "fgrad.torch.linalg.inverse": [("torch.linalg.inverse(torch.tensor([[2.0, 0.0], [0.0, 4.0]]))",
                                    "torch.inverse(torch.tensor([[2.0, 0.0], [0.0, 4.0]]))")],
    "fgrad.torch.vector_norm": [("torch.vector_norm(torch.tensor([3.0, 4.0]))",
                                 "torch.linalg.vector_norm(torch.tensor([3.0, 4.0]))")],
    "fgrad.torch.imag": ["torch.imag(torch.tensor([1.0 + 2.0j]))"],
    "fgrad.torch.frombuffer": ["torch.frombuffer(bytearray(b'\\x01\\x02'), dtype=torch.uint8)"],
    "fgrad.torch.get_printoptions": [("torch.get_printoptions()['precision']",
                                      "torch._tensor_str.PRINT_OPTS.precision")],
    "fgrad.torch.set_default_dtype": ["torch.set_default_dtype(torch.float64)", "torch.tensor([1.0]).dtype",
                                      "torch.set_default_dtype(torch.float32)"],
    "fgrad.torch.set_default_tensor_type": ["torch.set_default_tensor_type('torch.FloatTensor')",
                                            "torch.tensor([1.0]).dtype"],
    "fgrad.torch.set_num_threads": ["torch.set_num_threads(torch.get_num_threads())"],
    "fgrad.torch.as_strided": ["torch.as_strided(torch.arange(4.0), (2, 2), (1, 1))"],
    "fgrad.torch.new_empty": [("torch.new_empty(torch.tensor([1.0]), (2,)).shape",
                               "torch.tensor([1.0]).new_empty((2,)).shape")],
    "fgrad.numpy.dsplit": ["fnp.dsplit(fnp.ones((1, 1, 4)), 2)"],
    "fgrad.numpy.fill_diagonal": ["fnp.fill_diagonal(fnp.zeros((2, 2)), 1.0, inplace=False)"],
    "fgrad.numpy.put_along_axis": [
        "fnp.put_along_axis(fnp.zeros(3), fnp.array([1]), 5.0, axis=0, inplace=False)"],
    "fgrad.lax.zeros_like_array": [("lax.zeros_like_array(fnp.array([1.0, 2.0]))",
                                    "fnp.zeros_like(fnp.array([1.0, 2.0]))")],
    "fgrad.torch.nn.functional.bilinear": [
        "torch.nn.functional.bilinear(torch.tensor([[1.0]]), torch.tensor([[2.0]]), torch.tensor([[[3.0]]]))"],
    "fgrad.torch.nn.functional.cosine_embedding_loss": [
        "torch.nn.functional.cosine_embedding_loss(torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 1.0]]), "
        "torch.tensor([1.0]))"],
    "fgrad.torch.manual_seed": ["torch.manual_seed(0).initial_seed()"],
    "fgrad.torch.rand": ["torch.rand(2, 3).shape"],
    "fgrad.torch.randn": ["torch.randn(2, 3).shape"],
    "fgrad.torch.empty": ["torch.empty(2, 3).shape"],
    "fgrad.torch.empty_strided": ["torch.empty_strided((2, 3), (3, 1)).shape"],
    "fgrad.torch.randint": ["torch.randint(0, 5, (2, 3)).shape"],
    "fgrad.torch.randperm": ["torch.randperm(4).sort().values"],
    "fgrad.torch.normal": ["torch.normal(torch.zeros(2, 3), 1.0).shape"],
    "fgrad.torch.multinomial": ["torch.multinomial(torch.tensor([0.0, 1.0]), 2, replacement=True)"],
    "fgrad.torch.poisson": ["torch.poisson(torch.zeros(3))"],
    "fgrad.torch.rand_like": ["torch.rand_like(torch.zeros(2, 3)).shape"],
    "fgrad.torch.randn_like": ["torch.randn_like(torch.zeros(2, 3)).shape"],
    "fgrad.torch.dropout": ["torch.dropout(torch.ones(4), 0.0, True)"],
    "fgrad.torch.seed": ["isinstance(torch.seed(), int)"],
    "fgrad.torch.initial_seed": ["torch.manual_seed(3).initial_seed()", "torch.initial_seed()"],
    "fgrad.torch.get_rng_state": ["torch.get_rng_state().dtype"],
    "fgrad.torch.set_rng_state": ["state = torch.get_rng_state()", "a = torch.rand(2)",
                                  "torch.set_rng_state(state)", "torch.equal(torch.rand(2), a)"],
    "fgrad.torch.set_printoptions": ["torch.set_printoptions(precision=2)", "torch.tensor([1 / 3])",
                                     "torch.set_printoptions(profile='default')"],
    "fgrad.torch.use_deterministic_algorithms": [
        "torch.use_deterministic_algorithms(False)", "torch.are_deterministic_algorithms_enabled()"],
    "fgrad.torch.full": ["torch.full((2,), 1.5)"],
    "fgrad.torch.expand": ["torch.tensor([1.0, 2.0]).expand(2, 2)"],
    "fgrad.torch.view": ["torch.arange(4.0).view(2, 2)"],
    "fgrad.torch.from_numpy": ["import numpy as np", "torch.from_numpy(np.array([1.0, 2.0]))"],
    "fgrad.torch.is_nonzero": ["torch.is_nonzero(torch.tensor([1.0]))"],
    "fgrad.torch.bmm": ["torch.bmm(torch.ones(1, 2, 3), torch.ones(1, 3, 2))"],
    "fgrad.torch.baddbmm": ["torch.baddbmm(torch.zeros(1, 2, 2), torch.ones(1, 2, 3), torch.ones(1, 3, 2))"],
    "fgrad.torch.addbmm": ["torch.addbmm(torch.zeros(2, 2), torch.ones(1, 2, 3), torch.ones(1, 3, 2))"],
    "fgrad.torch.addmm": ["torch.addmm(torch.zeros(2, 2), torch.ones(2, 3), torch.ones(3, 2))"],
    "fgrad.torch.addmv": ["torch.addmv(torch.zeros(2), torch.ones(2, 3), torch.ones(3))"],
    "fgrad.torch.cross": ["torch.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]), dim=0)"],
    "fgrad.torch.linalg.cross": ["torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]))"],
    "fgrad.torch.index_add": ["torch.index_add(torch.zeros(3), 0, torch.tensor([0, 2]), torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.index_copy": ["torch.index_copy(torch.zeros(3), 0, torch.tensor([0, 2]), torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.index_fill": ["torch.index_fill(torch.zeros(3), 0, torch.tensor([0, 2]), 5.0)"],
    "fgrad.torch.index_put": ["torch.index_put(torch.zeros(3), (torch.tensor([1]),), torch.tensor([5.0]))"],
    "fgrad.torch.scatter": ["torch.scatter(torch.zeros(3), 0, torch.tensor([2, 0]), torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.scatter_add": [
        "torch.scatter_add(torch.zeros(3), 0, torch.tensor([2, 2]), torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.scatter_reduce": [
        "torch.scatter_reduce(torch.zeros(3), 0, torch.tensor([2, 2]), torch.tensor([1.0, 2.0]), 'amax')"],
    "fgrad.torch.masked_scatter": [
        "torch.masked_scatter(torch.zeros(3), torch.tensor([True, False, True]), torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.repeat": ["torch.tensor([1.0, 2.0]).repeat(2)"],
    "fgrad.torch.unflatten": ["torch.unflatten(torch.arange(4.0), 0, (2, 2))"],
    "fgrad.torch.svd": ["torch.svd(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).S"],
    "fgrad.torch.linalg.svdvals": ["torch.linalg.svdvals(torch.tensor([[2.0, 0.0], [0.0, 1.0]]))"],
    "fgrad.torch.linalg.svd": ["torch.linalg.svd(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).S"],
    "fgrad.torch.linalg.qr": ["torch.linalg.qr(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).R"],
    "fgrad.torch.linalg.eigh": ["torch.linalg.eigh(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues"],
    "fgrad.torch.slogdet": ["torch.slogdet(torch.tensor([[2.0, 0.0], [0.0, 1.0]]))"],
    "fgrad.torch.nn.functional.cross_entropy": [
        "torch.nn.functional.cross_entropy(torch.tensor([[0.0, 0.0]]), torch.tensor([1]))"],
    "fgrad.torch.nn.functional.layer_norm": [
        "torch.nn.functional.layer_norm(torch.tensor([1.0, 3.0]), (2,))"],
    "fgrad.torch.nn.functional.batch_norm": [
        "torch.nn.functional.batch_norm(torch.tensor([[1.0], [3.0]]), None, None, training=True)"],
    "fgrad.torch.nn.functional.group_norm": [
        "torch.nn.functional.group_norm(torch.tensor([[1.0, 3.0]]), 1)"],
    "fgrad.torch.nn.functional.instance_norm": [
        "torch.nn.functional.instance_norm(torch.tensor([[[1.0, 3.0]]]))"],
    "fgrad.torch.nn.functional.binary_cross_entropy": [
        "torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([1.0, 0.0]))"],
    "fgrad.torch.nn.functional.kl_div": [
        "torch.nn.functional.kl_div(torch.tensor([0.0, 0.0]), torch.tensor([0.5, 0.5]), reduction='sum')"],
    "fgrad.numpy.choose": ["fnp.choose(fnp.array([1, 0]), [fnp.array([1.0, 2.0]), fnp.array([3.0, 4.0])])"],
    "fgrad.numpy.fix": ["fnp.fix(fnp.array([-1.5, 1.5]))"],
    "fgrad.numpy.linalg.cross": ["fnp.linalg.cross(fnp.array([1.0, 0.0, 0.0]), fnp.array([0.0, 1.0, 0.0]))"],
    "fgrad.numpy.ravel_multi_index": ["fnp.ravel_multi_index((fnp.array([1]), fnp.array([2])), (2, 3))"],
    "fgrad.lax.argmax": ["lax.argmax(fnp.array([1.0, 3.0, 2.0]), 0, fnp.int64)"],
    "fgrad.lax.argmin": ["lax.argmin(fnp.array([1.0, 3.0, 2.0]), 0, fnp.int64)"],
    "fgrad.lax.reduce_and": ["lax.reduce_and(fnp.array([True, False]), (0,))"],
    "fgrad.lax.reduce_or": ["lax.reduce_or(fnp.array([True, False]), (0,))"],
    "fgrad.lax.squeeze": ["lax.squeeze(fnp.array([[1.0, 2.0]]), (0,))"],
    "fgrad.lax.real": ["lax.real(fnp.array([1.0 + 2.0j]))"],
    "fgrad.lax.imag": ["lax.imag(fnp.array([1.0 + 2.0j]))"],
    "fgrad.lax.map": ["lax.map(fnp.sin, fnp.array([0.0, 1.0]))"],
    "fgrad.torch.is_tensor": ["torch.is_tensor(torch.tensor([1.0]))"],
    "fgrad.torch.numel": ["torch.numel(torch.zeros(2, 3))"],
    "fgrad.torch.is_grad_enabled": ["torch.is_grad_enabled()"],
    "fgrad.torch.autograd.grad": ["x = torch.tensor([1.0, 2.0], requires_grad=True)",
                                  "torch.autograd.grad((x * x).sum(), x)"],
    "fgrad.torch.autograd.backward": ["x = torch.tensor([1.0, 2.0], requires_grad=True)",
                                      "torch.autograd.backward((x * x).sum())", "x.grad"],
    "fgrad.torch.func.grad": ["torch.func.grad(lambda x: (x * x).sum())(torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.func.grad_and_value": [
        "torch.func.grad_and_value(lambda x: (x * x).sum())(torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.func.vmap": ["torch.func.vmap(torch.dot)(torch.ones(2, 3), torch.ones(2, 3))"],
    "fgrad.torch.func.jacrev": ["torch.func.jacrev(torch.sin)(torch.tensor([0.0, 1.0]))"],
    "fgrad.torch.func.jacfwd": ["torch.func.jacfwd(torch.sin)(torch.tensor([0.0, 1.0]))"],
    "fgrad.torch.func.hessian": ["torch.func.hessian(lambda x: (x ** 3).sum())(torch.tensor([1.0, 2.0]))"],
    "fgrad.torch.func.jvp": ["torch.func.jvp(torch.sin, (torch.tensor([0.0]),), (torch.tensor([1.0]),))"],
    "fgrad.torch.func.vjp": ["out, pullback = torch.func.vjp(torch.sin, torch.tensor([0.0]))",
                             "pullback(torch.tensor([1.0]))"],
    "fgrad.torch.func.functional_call": [
        "m = torch.nn.Linear(1, 1)",
        "p = {'weight': torch.tensor([[2.0]]), 'bias': torch.tensor([1.0])}",
        "torch.func.functional_call(m, p, (torch.tensor([[3.0]]),))"],
    "fgrad.grad": ["fgrad.grad(fgrad.numpy.sin)(0.0)"],
    "fgrad.value_and_grad": ["fgrad.value_and_grad(lambda x: x * x)(3.0)"],
    "fgrad.jacfwd": ["fgrad.jacfwd(fgrad.numpy.sin)(fgrad.numpy.array([0.0, 1.0]))"],
    "fgrad.jacrev": ["fgrad.jacrev(fgrad.numpy.sin)(fgrad.numpy.array([0.0, 1.0]))"],
    "fgrad.hessian": ["fgrad.hessian(lambda x: x ** 3)(2.0)"],
    "fgrad.jvp": ["fgrad.jvp(fgrad.numpy.sin, (0.0,), (1.0,))"],
    "fgrad.stop_gradient": ["fgrad.grad(lambda x: x * fgrad.lax.stop_gradient(x))(3.0)"],
    "fgrad.device_count": ["fgrad.device_count() >= 1"],
    "fgrad.local_device_count": ["fgrad.local_device_count() >= 1"],
    "fgrad.devices": ["len(fgrad.devices()) >= 1"],
}

# --------------------------------------------------------------- generic candidates
TORCH = [
    "{f}(torch.tensor([0.5, 1.0]))",
    "{f}(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))",
    "{f}(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))",
    "{f}(torch.tensor([5, 3]), torch.tensor([3, 2]))",
    "{f}(torch.tensor([5, 3]))",
    "{f}(torch.tensor([True, False]), torch.tensor([True, True]))",
    "{f}(torch.tensor([True, False]))",
    "{f}(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]), torch.tensor([1.0, 2.0]))",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), [1, 0])",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), (4,))",
    "{f}(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), torch.tensor([[1.0, 0.0], [2.0, 1.0]]))",
    "{f}(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), torch.tensor([1.0, 2.0]))",
    "{f}(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), torch.tensor([[1.0], [2.0]]))",
    "{f}(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))",
    "{f}([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])])",
    "{f}(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))",
    "{f}(torch.tensor([0.5, 1.0]), 2)",
    "{f}(torch.tensor([0.5, 1.0]), 0.5)",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, torch.tensor([1, 0]))",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1, torch.tensor([[1], [0]]))",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[True, False], [False, True]]))",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[True, False], [False, True]]), 0.0)",
    "{f}(torch.tensor([1.0, 2.0, 3.0]), 0, 1, 2)",
    "{f}(2, 3)",
    "{f}(3)",
    "{f}((2,))",
    "{f}([1.0, 2.0])",
    "{f}(0.0, 1.0, 3)",
    "{f}(torch.float32)",
    "{f}(torch.float32, torch.int64)",
    "{f}()",
    "{f}(torch.tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2)",
    "{f}(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]), 2)",
    "{f}(torch.tensor([[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]]), 2)",
    "{f}(torch.tensor([[[1.0, 2.0, 3.0, 4.0]]]), 1)",
    "{f}(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]), 1)",
    "{f}(torch.tensor([[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]]), 1)",
    "{f}(torch.tensor([[0.5, 1.0]]), torch.tensor([1]))",
    "{f}(torch.tensor([[1.0, 2.0]]), torch.tensor([[1.0, 0.0], [0.0, 1.0]]))",
    "{f}(torch.tensor([[[1.0, 2.0, 3.0]]]), torch.tensor([[[1.0, -1.0]]]))",
    "{f}(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]), torch.tensor([[[[1.0]]]]))",
    "{f}(torch.tensor([[[[[1.0, 2.0], [3.0, 4.0]]]]]), torch.tensor([[[[[1.0]]]]]))",
    "{f}(torch.tensor([1, 0]), 3)",
    "{f}(torch.tensor([0.5, 1.0]), (2,))",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([0.5, 1.0]))",
    "{f}(torch.tensor([1, 2]), torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))",
    "{f}(torch.tensor([[0.5, 1.0], [2.0, 3.0]]), None, None, training=False)",
    "{f}(torch.tensor([[0.5, 1.0], [2.0, 3.0]]), torch.zeros(2), torch.ones(2))",
    "{f}(torch.tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2, 1)",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))",
    "{f}(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]), scale_factor=2)",
    "{f}(torch.tensor([[[[1.0, 2.0, 3.0, 4.0]]]]), 2)",
    "{f}(torch.tensor([[[1.0, 2.0], [3.0, 4.0]]]), (1, 1))",
    "{f}(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 1.0]), torch.tensor([1.0, -1.0]))",
    "{f}(torch.sin)(torch.tensor([0.0, 1.0]))",
    "{f}(lambda x: (x * x).sum())(torch.tensor([1.0, 2.0]))",
    "{f}(torch.tensor([0.5, 1.0]), 'sum')",
    "{f}(torch.tensor([[0.5, 1.0], [2.0, 3.0]]), 1, 0)",
    "{f}(torch.tensor([[0.5, 1.0], [2.0, 3.0]]), 1, 1)",
    "{f}(torch.tensor([3.0, 1.0, 2.0]), 2)",
    "{f}(torch.tensor([3, 1, 2]))",
    "{f}(torch.tensor([0.5, 1.0]), (2,), 1.5)",
    "{f}(torch.tensor([0.5, 1.0]), [1.0, 2.0])",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), (1, 2))",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 2, 0, 1.0)",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, 8.0]]))",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, torch.tensor([1]), 5.0)",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))",
    "{f}(torch.tensor([0.5, 1.0]), (torch.tensor([1]),), torch.tensor([5.0]))",
    "{f}(torch.tensor([0.5, 1.0]), torch.tensor([1]), torch.tensor([5.0]))",
    "{f}(torch.tensor([0.5, 1.0]), torch.tensor([True, False]), 5.0)",
    "{f}(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[True, False], [False, True]]), 5.0)",
]

NUMPY = [
    "{f}(fnp.array([0.5, 1.0]))",
    "{f}(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))",
    "{f}(fnp.array([[2.0, 1.0], [1.0, 3.0]]))",
    "{f}(fnp.array([5, 3]), fnp.array([3, 2]))",
    "{f}(fnp.array([5, 3]))",
    "{f}(fnp.array([True, False]), fnp.array([True, True]))",
    "{f}(fnp.array([True, False]))",
    "{f}(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]), fnp.array([1.0, 2.0]))",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), axis=0)",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0, 1)",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (4,))",
    "{f}(fnp.array([[2.0, 1.0], [1.0, 3.0]]), fnp.array([[1.0, 0.0], [2.0, 1.0]]))",
    "{f}(fnp.array([[2.0, 1.0], [1.0, 3.0]]), fnp.array([1.0, 2.0]))",
    "{f}([fnp.array([1.0, 2.0]), fnp.array([3.0, 4.0])])",
    "{f}(fnp.array([1.0, 2.0]), fnp.array([3.0, 4.0]))",
    "{f}(fnp.array([0.5, 1.0]), 2)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), 2)",
    "{f}(fnp.array([3.0, 1.0, 2.0]))",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), fnp.array([1, 0]))",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), fnp.array([[1], [0]]), 1)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), fnp.array([2.0]))",
    "{f}(fnp.array([True, False]), fnp.array([1.0, 2.0]), fnp.array([3.0, 4.0]))",
    "{f}(fnp.array([1.0, 2.0, 4.0]), fnp.array([1.0, 0.5]))",
    "{f}(fnp.array([1.0, 2.0, 3.0, 4.0]), 2)",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]))",
    "{f}(2, 3)",
    "{f}(3)",
    "{f}((2,))",
    "{f}((2, 2))",
    "{f}([1.0, 2.0])",
    "{f}(0.0, 1.0, 3)",
    "{f}(fnp.float32)",
    "{f}(fnp.float32, fnp.int64)",
    "{f}(fnp.array([1.0, 2.0]), fnp.float32)",
    "{f}((2,), 1.5)",
    "{f}(fnp.array([0.5, 1.0]), 1.5)",
    "{f}(fnp.array([1, 2]), (3,))",
    "{f}(3, (2,))",
    "{f}(5, fnp.array([1, 3]))",
    "{f}(fnp.array([1.0, 2.0, 3.0]), 0, 1)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), 1, 2.0)",
    "{f}()",
]

LAX = [
    "{f}(fnp.array([0.5, 1.0]))",
    "{f}(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))",
    "{f}(fnp.array([5, 3]), fnp.array([3, 2]))",
    "{f}(fnp.array([5, 3]))",
    "{f}(fnp.array([True, False]), fnp.array([True, True]))",
    "{f}(fnp.array([[2.0, 1.0], [1.0, 3.0]]))",
    "{f}(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]), fnp.array([1.0, 2.0]))",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (0,))",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0)",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), axis=0)",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (4,))",
    "{f}(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (1, 0))",
    "{f}(fnp.array([[2.0, 1.0], [1.0, 3.0]]), fnp.array([[1.0, 0.0], [2.0, 1.0]]))",
    "{f}([fnp.array([1.0, 2.0]), fnp.array([3.0, 4.0])], 0)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), (1,), (3,))",
    "{f}(fnp.array([1.0, 2.0, 3.0]), (1,), (2,))",
    "{f}(fnp.array([1.0, 2.0, 3.0]), 2)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), 1, 2)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), 0, 1, 2)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), (2, 3), (1,))",
    "{f}(fnp.array([3.0, 1.0, 2.0]))",
    "{f}(fnp.array([True, False]), fnp.array([1.0, 2.0]), fnp.array([3.0, 4.0]))",
    "{f}(fnp.array([0.5, 1.0]), fnp.float32)",
    "{f}(fnp.int32, 3)",
    "{f}((2,), 1.5)",
    "{f}(fnp.array([0.5, 1.0]), 2)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), 0.0, [(1, 0, 0)])",
    "{f}(fnp.array([1.0, 2.0, 3.0]), fnp.array([1]), 1)",
    "{f}(fnp.array([1.0, 2.0, 3.0]), fnp.array([9.0]), (1,))",
    "{f}(fnp.array([1, 2]), fnp.array([3, 4]))",
]

FGRAD = [
    "{f}(fgrad.numpy.array([-1.0, 0.5, 2.0]))",
    "{f}(fgrad.numpy.sin)(0.5)",
    "{f}(fgrad.numpy.sin)(fgrad.numpy.array([0.0, 1.0]))",
    "{f}(fgrad.numpy.array([-1.0, 0.5, 2.0]), 0.5)",
    "{f}(fgrad.numpy.array([-1.0, 0.5, 2.0]), fgrad.numpy.array([1.0, 2.0, 3.0]))",
    "{f}(fgrad.numpy.array([[1.0, 2.0], [3.0, 4.0]]))",
    "{f}(fgrad.numpy.array([1, 0]), 3)",
    "{f}(fgrad.random.key(0), (2,))",
    "{f}(fgrad.random.key(0), 2)",
    "{f}(fgrad.random.key(0))",
    "{f}(fgrad.random.key(0), fgrad.numpy.array([1.0, 2.0]))",
    "{f}(fgrad.random.key(0), 0.5, (2,))",
    "{f}(fgrad.random.key(0), 2.0, (2,))",
    "{f}(fgrad.random.key(0), (2,), 0, 5)",
    "{f}(fgrad.random.key(0), fgrad.numpy.array([1.0, 2.0]), (2,))",
    "{f}(fgrad.random.key(0), 2.0, 3.0, (2,))",
    "{f}(fgrad.random.key(0), 3, (2,))",
    "{f}(fgrad.random.key(0), 0.0, 1.0, (2,))",
    "{f}(fgrad.random.key(0), -1.0, 1.0, (2,))",
    "{f}(fgrad.random.key(0), fgrad.numpy.zeros(2), fgrad.numpy.eye(2))",
    "{f}(fgrad.random.key(0), fgrad.numpy.array([0.0, 1.0]))",
    "{f}(fgrad.random.key(0), fgrad.numpy.array([0.1, 0.9]), shape=(2,))",
    "{f}(fgrad.random.key(0), fgrad.numpy.array([0.2, 0.3, 0.5]))",
    "{f}(fgrad.random.key(0), 5, (2,), 0.5)",
    "{f}(0)",
    "{f}(fgrad.random.PRNGKey(0))",
    "{f}(fgrad.numpy.array([1.0, 2.0]))",
    "{f}(3)",
    "{f}()",
]


class _JaxAsFgrad:
    """``fgrad`` in the peer's namespace: ``fgrad.X`` is ``jax.X``, ``fgrad.numpy`` is ``jax.numpy``."""

    numpy = jnp
    lax = jax.lax
    nn = jax.nn
    random = jax.random

    def __getattr__(self, name):
        return getattr(jax, name)


def namespaces(module_name: str) -> tuple[dict, dict, list[str], str]:
    """(peer namespace, fgrad namespace, generic candidates, qualified call prefix)."""
    short = module_name.split(".", 1)[1] if "." in module_name else ""
    if module_name.startswith("fgrad.torch"):
        return {"torch": torch}, {"torch": ftorch}, TORCH, module_name.replace("fgrad.torch", "torch", 1)
    if module_name.startswith("fgrad.numpy"):
        return {"fnp": jnp}, {"fnp": fnp}, NUMPY, module_name.replace("fgrad.numpy", "fnp", 1)
    if module_name == "fgrad.lax":
        return {"lax": jax.lax, "fnp": jnp}, {"lax": flax, "fnp": fnp}, LAX, "lax"
    return {"fgrad": _JaxAsFgrad()}, {"fgrad": fgrad}, FGRAD, "fgrad" + ("." + short if short else "")


def peer_function(module_name: str, name: str):
    """The peer's function ``name`` of ``module_name``'s peer module, or None."""
    peer_ns, _, _, prefix = namespaces(module_name)
    obj = next(iter(peer_ns.values())) if prefix.split(".")[0] != "lax" else jax.lax
    for part in prefix.split(".")[1:] + [name]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def reset_global_state() -> None:
    """Undo what a candidate may have changed globally (print options, default dtype, grad mode)."""
    for t in (torch, ftorch):
        with contextlib.suppress(Exception):
            t.set_printoptions(profile="default")
        with contextlib.suppress(Exception):
            t.set_default_dtype(t.float32)
        with contextlib.suppress(Exception):
            t.set_grad_enabled(True)
    np.set_printoptions()


def run_steps(steps: list[str], namespace: dict, seed: int) -> list[str] | None:
    """Each step's printed output (as doctest sees it), or None if a step raised."""
    ns = dict(namespace)
    torch.manual_seed(seed)
    outs = []
    try:
        for src in steps:
            buf = io.StringIO()
            try:
                with contextlib.redirect_stdout(buf), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    exec(compile(src, "<example>", "single"), ns)
            except Exception:  # noqa: BLE001 - a candidate the callee rejects is simply not used
                return None
            outs.append(buf.getvalue().rstrip("\n"))
    finally:
        reset_global_state()
    return outs


# functions that change global state get only a CURATED example (which must undo its change)
STATEFUL_PREFIXES = ("set_", "use_", "manual_seed", "seed", "enable_", "disable_")


def usable(out: list[str] | None) -> bool:
    text = "\n".join(out or ["<none>"])
    return out is not None and "0x" not in text and "<function" not in text and "<bound" not in text


def choose(module_name: str, name: str):
    """``(steps, skip)`` for ``module_name.name``, or None when the peer runs no candidate."""
    peer_ns, fgrad_ns, generic, prefix = namespaces(module_name)
    qualified = f"{prefix}.{name}"
    curated = CURATED.get(f"{module_name}.{name}")
    candidates = [[s if isinstance(s, tuple) else (s, s) for s in curated]] if curated else []
    if module_name == "fgrad.torch.Tensor":  # method syntax: the function's candidates, rewritten
        if not curated and (getattr(torch.Tensor, name, None) is None or name.startswith(STATEFUL_PREFIXES)):
            return None
        func_curated = CURATED.get(f"fgrad.torch.{name}") or []
        if len(func_curated) == 1 and isinstance(func_curated[0], str):
            generic = [func_curated[0].replace(f"torch.{name}(", "{f}(", 1)] + list(generic)
        for c in generic:
            call = c.format(f=f"torch.{name}")
            as_method_call = method_form(call, f"torch.{name}", name) if call.startswith("torch.") else None
            if as_method_call is not None:
                candidates.append([(as_method_call, as_method_call)])
        return pick(candidates, peer_ns, fgrad_ns)
    as_method = (peer_function(module_name, name) is None and module_name == "fgrad.torch"
                 and hasattr(torch.Tensor, name))
    if not curated and not as_method and (peer_function(module_name, name) is None
                                          or name.startswith(STATEFUL_PREFIXES)):
        return None
    for c in generic:
        call = c.format(f=qualified)
        peer_call = method_form(call, qualified, name) if as_method else call
        if peer_call is not None:
            candidates.append([(call, peer_call)])
    return pick(candidates, peer_ns, fgrad_ns)


def pick(candidates, peer_ns, fgrad_ns):
    """The first candidate fgrad reproduces (``(steps, False)``), else the first the peer runs
    deterministically (``(steps, True)``), else None."""
    first = None
    for pairs in candidates:
        ours, theirs = [p[0] for p in pairs], [p[1] for p in pairs]
        want = run_steps(theirs, peer_ns, 0)
        if not usable(want) or run_steps(theirs, peer_ns, 1) != want:
            continue
        steps = tuple((o, w) if o == t else (o, w, t) for o, t, w in zip(ours, theirs, want))
        first = first or steps
        if run_steps(ours, fgrad_ns, 0) == want:
            return steps, False
    if first is None:
        return None
    return first, True


def method_form(call: str, qualified: str, name: str) -> str | None:
    """``torch.X(torch.tensor(a), b)`` as ``torch.tensor(a).X(b)``: the peer's spelling of a
    function fgrad also exposes at the top level but PyTorch only as a Tensor method."""
    args = call[len(qualified) + 1:-1]
    first, rest, depth = "", "", 0
    for i, ch in enumerate(args + ","):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            first, rest = args[:i], args[i + 1:].strip()
            break
    if not first.startswith("torch.tensor("):
        return None
    return f"{first}.{name}({rest})"


def summary(module_name: str, name: str) -> str:
    """A one-line summary for a function that has no docstring."""
    _, _, _, prefix = namespaces(module_name)
    peer = {"torch": "PyTorch", "fnp": "JAX", "lax": "JAX", "fgrad": "JAX"}[prefix.split(".")[0]]
    peer_name = prefix.replace("fnp", "jax.numpy").replace("lax", "jax.lax").replace("fgrad", "jax")
    fn = getattr(_docs.namespace_object(module_name), name)
    spec = getattr(fn, "op_spec", None)
    if name.endswith("_") and not name.endswith("__") and module_name == "fgrad.torch":
        return (f"In-place ``{prefix}.{name[:-1]}``: writes the result into ``input`` and returns it, "
                f"as {peer}'s ``{peer_name}.{name}``.")
    if spec is not None:
        return f"Elementwise ``{spec.name}`` of its tensor argument(s), as {peer}'s ``{peer_name}.{name}``."
    return f"{peer}'s ``{peer_name}.{name}`` (same arguments and results), computed by fgrad's primitives."


def generate() -> dict[str, dict]:
    """``{data module: {module name: {function name: (summary, steps, skip)}}}``."""
    out: dict[str, dict] = {}
    missing = []
    for module_name, data_name in _docs.DATA_MODULES.items():
        module = _docs.namespace_object(module_name)
        entries = {}
        for name, fn in sorted(_docs.public_functions(module).items()):
            doc = fn.__doc__ or ""
            if ">>>" in doc and not getattr(fn, "__fgrad_doc_example__", None):
                continue  # a hand-written example
            chosen = choose(module_name, name)
            if chosen is None:
                missing.append(f"{module_name}.{name}")
                continue
            steps, skip = chosen
            entries[name] = (summary(module_name, name), steps, skip)
        out.setdefault(data_name, {})[module_name] = entries
    return out, missing


HEADER = '''# ruff: noqa: E501  (generated data)
"""Docstring examples of {modules}:
written by ``tools/make_doc_examples.py``, do not edit.

Each entry is ``name: (summary, ((source, peer's output), ...), skip)``; the outputs are the
peer's ({peer}), and ``skip`` marks a known difference (fgrad prints something else; listed in
`KNOWN_DIFFERENCES`).  `fgrad._docs.attach` turns the entries into docstrings.
"""

# fmt: off
'''


def write(data: dict[str, dict]) -> None:
    for data_name, per_module in data.items():
        peer = "PyTorch " + torch.__version__ if data_name == "torch_examples" else "JAX " + jax.__version__
        known = sorted(f"{m}.{n}" for m, entries in per_module.items() for n, e in entries.items() if e[2])
        text = HEADER.format(modules=", ".join(f"`{m}`" for m in per_module), peer=peer)
        text += "KNOWN_DIFFERENCES = " + pprint.pformat(known, width=100) + "\n\n"
        text += "EXAMPLES = " + pprint.pformat(per_module, width=100, sort_dicts=True) + "\n"
        (ROOT / "fgrad" / "_docs" / f"{data_name}.py").write_text(text)


def main() -> None:
    np.set_printoptions(legacy=False)
    data, missing = generate()
    write(data)
    n = sum(len(e) for d in data.values() for e in d.values())
    n_skip = sum(x[2] for d in data.values() for e in d.values() for x in e.values())
    print(f"{n} examples written ({n_skip} known differences); {len(missing)} functions without one")
    if "--report" in sys.argv:
        print("\n".join(missing))


if __name__ == "__main__":
    main()
