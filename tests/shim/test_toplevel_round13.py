"""Round-13 top-level functions (`fgrad/torch/_ops_round13.py`): ``sym_*``, ``native_*``
normalization/dropout with their saved statistics, dropout variants, ``as_strided_scatter``,
``get_device_module``, ``set_anomaly_enabled``, ``Tensor.new_empty_strided`` -- against
PyTorch's numbers (stored below, live when PyTorch is installed) and finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ftorch

X = np.random.RandomState(0).randn(3, 4, 5)


def test_sym_helpers():
    t = ftorch
    assert (t.sym_int(-3.7), t.sym_int(3.7), t.sym_float(3)) == (-3, 3, 3.0)
    assert type(t.sym_max(2.0, 5)) is float and t.sym_max(2, 5) == 5 and type(t.sym_max(2, 5)) is int
    assert t.sym_min(2.0, 5) == 2.0 and t.sym_not(True) is False and t.sym_sqrt(4) == 2.0
    assert t.sym_sum([1, 2, 3]) == 6 and t.sym_ite(False, 1, 2) == 2
    assert t.sym_constrain_range(3, min=1, max=4) is None


def test_stored_values():
    # PyTorch 2.13
    out = ftorch.as_strided_scatter(ftorch.zeros(3, 3), ftorch.ones(2, 2) * 2, (2, 2), (3, 1), 1)
    assert out.tolist() == [[0.0, 2.0, 2.0], [0.0, 2.0, 2.0], [0.0, 0.0, 0.0]]
    o, m, s = ftorch.native_batch_norm(ftorch.tensor([[1.0], [3.0]]), None, None, None, None, True, 0.1, 0.0)
    assert (o.tolist(), m.tolist(), s.tolist()) == ([[-1.0], [1.0]], [2.0], [1.0])
    o, m, s = ftorch.native_batch_norm(ftorch.ones(4, 3), None, None, ftorch.zeros(3), ftorch.ones(3),
                                       False, 0.1, 1e-5)
    assert tuple(m.shape) == (0,) and tuple(s.shape) == (0,)
    o, mask = ftorch.native_dropout(ftorch.ones(3), 0.5, False)
    assert mask.dtype == ftorch.bool and mask.tolist() == [True, True, True]
    assert ftorch.get_device_module("cpu") is ftorch.cpu and ftorch.get_device_module("cuda:0") is ftorch.cuda
    assert ftorch.get_device_module() is (ftorch.cuda if ftorch.cuda.is_available() else ftorch.cpu)
    assert ftorch.ones(2).new_empty_strided((2, 3), (1, 2)).stride() == (1, 2)
    ftorch.set_anomaly_enabled(True)
    try:
        assert ftorch.is_anomaly_enabled()
    finally:
        ftorch.set_anomaly_enabled(False)
    assert not ftorch.is_distributed(ftorch.ones(1))


def test_native_layer_norm_gradient_and_stats_by_finite_differences():
    x = ftorch.tensor(X, dtype=ftorch.float64, requires_grad=True)
    w = ftorch.tensor(np.linspace(0.5, 1.5, 20).reshape(4, 5), requires_grad=True)

    def f(x, w):
        return ftorch.native_layer_norm(x, [4, 5], w, None, 1e-5)[0]

    assert ftorch.autograd.gradcheck(f, (x, w))
    _, mean, rstd = ftorch.native_layer_norm(x, [4, 5], None, None, 1e-5)
    np.testing.assert_allclose(mean.detach().numpy().ravel(), X.reshape(3, -1).mean(1))
    np.testing.assert_allclose(rstd.detach().numpy().ravel(), 1 / np.sqrt(X.reshape(3, -1).var(1) + 1e-5))


def _run_all(lib):
    """The round-13 functions on one input, for ``lib`` = fgrad.torch or PyTorch."""
    res = {}
    t = lib.tensor(X, dtype=lib.float32, requires_grad=True)
    o, m, r = lib.native_layer_norm(t, [4, 5], None, None, 1e-5)
    (o * o * o).sum().backward()
    res["ln"] = (o, m, r, t.grad)
    t2 = lib.tensor(X, dtype=lib.float32)
    rm, rv = lib.zeros(4), lib.ones(4)
    o, m, s = lib.native_batch_norm(t2, None, None, rm, rv, True, 0.1, 1e-5)
    res["bn"] = (o, m, s, rm, rv)
    res["gn"] = lib.native_group_norm(t2, None, None, 3, 4, 5, 2, 1e-5)
    lib.manual_seed(0)
    res["native_dropout"] = lib.native_dropout(t2, 0.3, True)
    lib.manual_seed(1)
    res["feature_dropout"] = (lib.feature_dropout(t2, 0.5, True),)
    lib.manual_seed(2)
    y = t2.clone()
    lib.dropout_(y, 0.4, True)
    res["dropout_"] = (y,)
    lib.manual_seed(3)
    y = t2.clone()
    lib.alpha_dropout_(y, 0.4, True)
    res["alpha_dropout_"] = (y,)
    lib.manual_seed(4)
    y = t2.clone()
    lib.feature_alpha_dropout_(y, 0.4, True)
    res["feature_alpha_dropout_"] = (y,)
    src = lib.tensor(X[0, :2, :2], requires_grad=True)
    base = lib.tensor(X[1, :3, :3], requires_grad=True)
    out = lib.as_strided_scatter(base, src, (2, 2), (3, 1), 1)
    (out * out).sum().backward()
    # base's gradient is not compared with PyTorch: PyTorch 2.13's as_strided_scatter passes
    # the incoming gradient at the *scattered* positions to the input (and zeros elsewhere),
    # the reverse of the derivative -- see test_as_strided_scatter_gradient_is_the_derivative
    res["as_strided_scatter"] = (out, src.grad)
    return res


def test_as_strided_scatter_gradient_is_the_derivative():
    base = ftorch.arange(9.0, dtype=ftorch.float64).reshape(3, 3).requires_grad_()
    src = (ftorch.arange(4.0, dtype=ftorch.float64) + 10).reshape(2, 2).requires_grad_()
    out = ftorch.as_strided_scatter(base, src, (2, 2), (3, 1), 1)
    assert out.tolist() == [[0.0, 10.0, 11.0], [3.0, 12.0, 13.0], [6.0, 7.0, 8.0]]
    out.backward(ftorch.arange(9.0, dtype=ftorch.float64).reshape(3, 3) + 100)
    # the output does not depend on the input where src was written
    assert base.grad.tolist() == [[100.0, 0.0, 0.0], [103.0, 0.0, 0.0], [106.0, 107.0, 108.0]]
    assert src.grad.tolist() == [[101.0, 102.0], [104.0, 105.0]]
    assert ftorch.autograd.gradcheck(
        lambda b, s: ftorch.as_strided_scatter(b, s, (2, 2), (3, 1), 1),
        (base.detach().requires_grad_(), src.detach().requires_grad_()))


def test_live_against_pytorch():
    torch = pytest.importorskip("torch")
    got, want = _run_all(ftorch), _run_all(torch)
    for name in want:
        for g, w in zip(got[name], want[name], strict=True):
            assert str(g.dtype) == str(w.dtype), name
            np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), rtol=2e-6, atol=2e-6,
                                       err_msg=name)


def test_nn_modules_utils_and_model_zoo():
    from collections import OrderedDict

    from fgrad.torch.nn.common_types import _size_2_t
    from fgrad.torch.nn.modules import utils as U
    from fgrad.torch.utils import model_zoo

    assert (U._single(3), U._pair(3), U._pair([1, 2]), U._triple(2), U._quadruple(0)) == (
        (3,), (3, 3), (1, 2), (2, 2, 2), (0, 0, 0, 0))
    assert U._reverse_repeat_tuple((1, 2, 3), 2) == (3, 3, 2, 2, 1, 1)
    assert U._list_with_default([None, 4], [1, 3, 8, 9]) == [8, 4] and U._list_with_default(5, [1]) == 5
    # PyTorch 2.13: keys in insertion order, prefixed ones moved to the end; metadata "module" -> ""
    sd = OrderedDict([("module.w", 1), ("module.b", 2), ("x", 3)])
    sd._metadata = OrderedDict([("", {}), ("module", {"v": 1}), ("module.l", {})])
    U.consume_prefix_in_state_dict_if_present(sd, "module.")
    assert list(sd) == ["x", "w", "b"] and list(sd._metadata.items()) == [("", {"v": 1}), ("l", {})]
    assert model_zoo.load_url is ftorch.hub.load_state_dict_from_url
    assert str(_size_2_t) == "typing.Union[int, tuple[int, int]]"


@pytest.mark.parametrize("case", range(13))
def test_index_and_scatter_errors_are_pytorchs(case):
    """Bad indices and source dtypes raise PyTorch's errors (fgrad used to wrap negative
    indices of index_add/index_copy/index_select and convert scatter/index_add sources)."""

    def run(lib):
        x = lib.zeros(3, 2)
        one = lib.ones(1, 2)
        return [
            lambda: x.clone().index_add_(0, lib.tensor([-1]), one),
            lambda: lib.zeros(3).index_add(0, lib.tensor([-1]), lib.ones(1)),
            lambda: x.clone().index_add_(0, lib.tensor([3]), one),
            lambda: x.clone().scatter_add_(0, lib.tensor([[0, 1]]), lib.ones(1, 2, dtype=lib.float64)),
            lambda: x.clone().scatter_(0, lib.tensor([[0, 1]]), lib.ones(1, 2, dtype=lib.float64)),
            lambda: x.clone().scatter_(0, lib.tensor([[0, 1]]), 2),
            lambda: lib.scatter_reduce(x, 0, lib.tensor([[0, 1]]), lib.ones(1, 2, dtype=lib.float64), "sum"),
            lambda: x.clone().index_add_(0, lib.tensor([0]), lib.ones(1, 2, dtype=lib.float64)),
            lambda: lib.index_add(lib.zeros(3, dtype=lib.int64), 0, lib.tensor([0]), lib.ones(1)),
            lambda: x.clone().index_copy_(0, lib.tensor([-1]), one),
            lambda: lib.index_copy(x, 0, lib.tensor([0]), lib.ones(1, 2, dtype=lib.float64)),
            lambda: x.clone().index_fill_(0, lib.tensor([-1]), 1.0),
            lambda: x.index_select(0, lib.tensor([-1])),
        ][case]

    def outcome(lib):
        try:
            return ("ok", run(lib)().tolist())
        except (RuntimeError, IndexError) as e:
            return (type(e).__name__, str(e))

    # PyTorch 2.13
    stored = [
        ("RuntimeError", "index -1 is out of bounds for dimension 0 with size 3"),
        ("IndexError", "index out of range in self"),
        ("RuntimeError", "index 3 is out of bounds for dimension 0 with size 3"),
        ("RuntimeError", "scatter(): Expected self.dtype to be equal to src.dtype"),
        ("RuntimeError", "scatter(): Expected self.dtype to be equal to src.dtype"),
        ("ok", [[2.0, 0.0], [0.0, 2.0], [0.0, 0.0]]),
        ("RuntimeError", "scatter(): Expected self.dtype to be equal to src.dtype"),
        ("RuntimeError", "index_add_(): self (Float) and source (Double) must have the same scalar type"),
        ("RuntimeError", "index_add_(): self (Long) and source (Float) must have the same scalar type"),
        ("IndexError", "index_copy_(): index -1 is out of bounds for dimension 0 with size 3"),
        ("RuntimeError", "index_copy_(): self and source expected to have the same dtype, but got "
                         "(self) Float and (source) Double"),
        ("ok", [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]),
        ("IndexError", "index out of range in self"),
    ]
    assert outcome(ftorch) == stored[case]
    try:
        import torch
    except ImportError:
        return
    assert outcome(torch) == stored[case]


@pytest.mark.parametrize("bias", [True, False])
def test_linear_output_is_contiguous_and_views(bias):
    """A batch of vectors through nn.Linear is row-major, as PyTorch's: ``.view`` works (it
    raised: fgrad returned the transposed buffer of ``w @ x.T``) and strides match; the
    weight gradient keeps the weight's layout."""
    lin = ftorch.nn.Linear(4, 6, bias=bias)
    x = ftorch.randn(5, 4, requires_grad=True)
    y = lin(x)
    assert y.stride() == (6, 1) and y.is_contiguous()
    (y.view(-1) ** 2).sum().backward()
    assert lin.weight.grad.stride() == (4, 1) and x.grad.stride() == (4, 1)
    want = 2 * y.detach().numpy().T @ x.detach().numpy()
    np.testing.assert_allclose(lin.weight.grad.numpy(), want, rtol=1e-5)


def test_float_of_a_tensor_requiring_grad_warns_as_pytorch():
    import warnings

    x = ftorch.ones(2, requires_grad=True)
    y = (x * 2).sum()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert float(y) == 4.0
        with ftorch.no_grad():
            float(y)  # grad mode off: no warning (PyTorch's LBFGS relies on it)
        y.item(), int(y), float(ftorch.ones(1))  # item()/int() never warn
        _ = y.grad  # a non-leaf's .grad: PyTorch 2.13's text
    messages = [str(w.message) for w in caught]
    assert messages[0].startswith("Converting a tensor with requires_grad=True to a scalar may lead to "
                                  "unexpected behavior.\nConsider using tensor.detach() first.")
    assert len(messages) == 2 and "for more information. (Triggered internally at " in messages[1]
    assert messages[1].endswith("TensorBody.h:493.)")


def test_like_factories_keep_the_layout_and_draw_in_memory_order():
    """``*_like`` of a transposed/permuted tensor keeps its strides (PyTorch's preserve_format)
    and random ones fill memory in order; ``normal_`` of a non-contiguous tensor uses PyTorch's
    element-by-element kernel, and its ``z * std + mean`` is fused (values were different)."""
    # PyTorch 2.13
    ftorch.manual_seed(0)
    r = ftorch.randn_like(ftorch.zeros(2, 3).t())
    assert r.stride() == (1, 3)
    assert r.tolist() == [[1.5409960746765137, 0.5684312582015991], [-0.293428897857666, -1.0845223665237427],
                          [-2.1787893772125244, -1.3985954523086548]]
    ftorch.manual_seed(0)
    assert ftorch.rand_like(ftorch.zeros(2, 3).t()).tolist() == [
        [0.49625658988952637, 0.13203048706054688], [0.7682217955589294, 0.30742281675338745],
        [0.08847743272781372, 0.6340786814689636]]
    ftorch.manual_seed(0)
    z = ftorch.zeros(6, dtype=ftorch.float64)
    z[::2].normal_(2.0, 3.0)
    assert z.tolist() == [6.62298832473213, 0.0, 1.1197132827171608, 0.0, -4.536368146223673, 0.0]
    ftorch.manual_seed(0)
    assert ftorch.zeros(5, dtype=ftorch.float64).normal_(2.0, 3.0).tolist() == [
        6.62298832473213, 1.1197132827171608, -4.536368146223673, 3.7052938318420034, -1.2535670272720627]
    x = ftorch.zeros(3, 4, 6).permute(2, 0, 1)
    for f in (ftorch.zeros_like, ftorch.ones_like, ftorch.empty_like, lambda t: ftorch.full_like(t, 2.0)):
        assert f(x).stride() == (1, 24, 6)
    assert ftorch.zeros_like(x, memory_format=ftorch.contiguous_format).stride() == (12, 4, 1)
    assert ftorch.zeros_like(x[..., ::2]).is_contiguous()  # not dense: row-major


def test_like_factories_live_against_pytorch():
    torch = pytest.importorskip("torch")

    def run(lib):
        out = []
        lib.manual_seed(0)
        for base in ((5, 8), (3, 4, 6)):
            x = lib.zeros(*base)
            views = [x.t(), x[:, ::2]] if x.dim() == 2 else [x.permute(2, 0, 1), x[..., ::2]]
            for v in views:
                for f in (lib.zeros_like, lib.ones_like, lambda t: lib.full_like(t, 3.0), lib.rand_like,
                          lib.randn_like, lambda t: lib.randint_like(t, 10), lambda t: t.normal_(1.0, 2.0)):
                    r = f(v)
                    out.append((r.stride(), r.numpy().tolist()))
        return out

    assert run(ftorch) == run(torch)


def test_one_op_key_names_one_definition():
    """Two definitions under one op key would share a cached program (nanmedian ran median's
    once): the dispatcher refuses the second instead of running the wrong program."""
    from fgrad.torch._dispatch import apply_op

    x = ftorch.ones(3)
    key = ("test-one-key-one-definition",)

    def double(v):
        return v * 2

    def plus_one(v):
        return v + 1

    for _ in range(2):  # the same definition again: its cached program
        assert apply_op("TestBackward0", key, double, (x,)).tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(RuntimeError, match="names two different definitions"):
        apply_op("TestBackward0", key, plus_one, (x,))
