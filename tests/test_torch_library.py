"""torch.library / torch.ops: custom operators (PyTorch's "Python Custom Operators" tutorial).

Numbers: the tutorial's, stored from PyTorch 2.13 (sin/cos of fixed inputs), and live."""

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch import Tensor

X = [0.5, 1.0, 2.0]
SIN = [0.4794255, 0.84147098, 0.90929743]  # PyTorch 2.13: numpy_sin(x)
COS = [0.87758256, 0.54030231, -0.41614684]  # PyTorch 2.13: x.grad after numpy_sin(x).sum().backward()


def _make(mod, name, with_autograd=True):
    @mod.library.custom_op(f"fgtest::{name}", mutates_args=())
    def numpy_sin(input: mod.Tensor) -> mod.Tensor:
        return mod.from_numpy(np.sin(input.numpy())).to(device=input.device)

    @numpy_sin.register_fake
    def _(input):
        return mod.empty_like(input)

    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()

    if with_autograd:
        numpy_sin.register_autograd(backward, setup_context=setup_context)
    return numpy_sin


def _tutorial(mod, name):
    op = _make(mod, name)
    x = mod.tensor(X, requires_grad=True)
    y = op(x)
    y.sum().backward()
    packet = getattr(mod.ops.fgtest, name)
    return (y.detach().numpy(), x.grad.numpy(), packet(x.detach()).numpy(),
            packet.default(x.detach()).numpy(),
            type(y.grad_fn).__name__, repr(op), repr(packet), repr(packet.default),
            mod.library.opcheck(op, (mod.tensor(X, requires_grad=True),)))


def test_tutorial_numbers_stored():
    y, g, p, pd, gfn, r, rp, rpd, oc = _tutorial(torch, "tut_sin")
    np.testing.assert_allclose(y, SIN, rtol=1e-6)
    np.testing.assert_allclose(g, COS, rtol=1e-6)
    np.testing.assert_allclose(p, SIN, rtol=1e-6)
    np.testing.assert_allclose(pd, SIN, rtol=1e-6)
    assert gfn == "GeneratedBackwardFor_fgtest_tut_sin_defaultBackward"
    assert r == "<CustomOpDef(fgtest::tut_sin)>"
    assert rp == "<OpOverloadPacket(op='fgtest.tut_sin')>"
    assert rpd == "<OpOverload(op='fgtest.tut_sin', overload='default')>"
    assert oc == dict.fromkeys(("test_schema", "test_autograd_registration", "test_faketensor",
                                "test_aot_dispatch_dynamic"), "SUCCESS")


def test_tutorial_matches_pytorch_live():
    pt = pytest.importorskip("torch")
    mine, theirs = _tutorial(torch, "live_sin"), _tutorial(pt, "live_sin")
    for a, b in zip(mine[:4], theirs[:4], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    assert mine[4:] == theirs[4:]


def test_grad_under_torch_func_and_vmap():
    op = _make(torch, "func_sin")
    x = torch.tensor([[0.5, 1.0], [2.0, 3.0]])
    np.testing.assert_allclose(torch.func.grad(lambda v: op(v).sum())(x[0]).numpy(), np.cos(x[0].numpy()),
                               rtol=1e-6)
    # vmap of grad: the loop over rows
    g = torch.func.vmap(torch.func.grad(lambda v: op(v).sum()))(x)
    np.testing.assert_allclose(g.numpy(), np.cos(x.numpy()), rtol=1e-6)
    np.testing.assert_allclose(torch.func.vmap(op)(x).numpy(), np.sin(x.numpy()), rtol=1e-6)
    np.testing.assert_allclose(torch.func.jacrev(op)(x[0]).numpy(), np.diag(np.cos(x[0].numpy())), rtol=1e-6)


def test_second_order_eager_goes_through_the_backward():
    op = _make(torch, "so_sin")
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    (g,) = torch.autograd.grad(op(x).sum(), x, create_graph=True)
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), -np.sin([0.5, 1.0]), rtol=1e-6)


def test_backward_without_register_autograd_raises_as_pytorch():
    op = _make(torch, "noad_sin", with_autograd=False)
    x = torch.tensor(X, requires_grad=True)
    y = op(x)
    assert y.requires_grad  # PyTorch 2.13: the output requires grad; backward raises
    with pytest.raises(RuntimeError, match="no autograd formula was registered"):
        y.sum().backward()
    assert not op(x.detach()).requires_grad


def test_mutating_op_bumps_version_and_opcheck_catches_undeclared_mutation():
    @torch.library.custom_op("fgtest::sin_out", mutates_args={"out"})
    def sin_out(input: Tensor, out: Tensor) -> None:
        np.sin(input.numpy(), out=out.numpy())

    out = torch.empty(3)
    sin_out(torch.tensor([0.0, 1.0, 2.0]), out)
    np.testing.assert_allclose(out.numpy(), np.sin([0.0, 1.0, 2.0]), rtol=1e-6)
    assert out._version == 1
    schema = "fgtest::sin_out(Tensor input, Tensor(a1!) out) -> ()"
    assert str(torch.ops.fgtest.sin_out.default._schema) == schema

    @torch.library.custom_op("fgtest::bad", mutates_args=())
    def bad(x: Tensor) -> Tensor:
        x.add_(1)
        return x.clone()

    msg = "test_schema failed with Argument x is not defined as mutable but was mutated"
    with pytest.raises(torch.library.OpCheckError, match=msg):
        torch.library.opcheck(bad, (torch.randn(3),))


def test_opcheck_without_fake_impl_fails_like_pytorch():
    @torch.library.custom_op("fgtest::nofake", mutates_args=())
    def nofake(x: Tensor) -> Tensor:
        return x * 2

    res = torch.library.opcheck(nofake, (torch.randn(2),), raise_exception=False)
    assert res["test_schema"] == "SUCCESS"
    assert "no fake impl registered" in str(res["test_faketensor"])


def test_output_aliasing_an_input_raises():
    @torch.library.custom_op("fgtest::alias", mutates_args=())
    def alias(x: Tensor) -> Tensor:
        return x

    with pytest.raises(RuntimeError, match="must not also be an input"):
        alias(torch.randn(2))


@pytest.mark.parametrize("fn,schema", [
    ("def f(x: Tensor, n: int = 2) -> Tensor: ...", "(Tensor x, SymInt n=2) -> Tensor"),
    ("def f(x: Tensor, ys: list[Tensor], flag: bool = False, s: str = 'a') -> tuple[Tensor, Tensor]: ...",
     '(Tensor x, Tensor[] ys, bool flag=False, str s="a") -> (Tensor, Tensor)'),
    ("def f(x: Tensor, y: Tensor, out: Tensor, n: int = 2, w: float | None = None) -> None: ...",
     "(Tensor x, Tensor y, Tensor(a2!) out, SymInt n=2, float? w=None) -> ()"),
])
def test_infer_schema_pytorch_strings(fn, schema):
    ns = {"Tensor": Tensor}
    exec(fn, ns)
    muts = {"out"} if "out" in fn else ()
    assert torch.library.infer_schema(ns["f"], mutates_args=muts) == schema


def test_infer_schema_errors():
    with pytest.raises(ValueError, match="Parameter x must have a type annotation"):
        torch.library.infer_schema(lambda x: x, mutates_args=())

    def r(x: Tensor): ...
    with pytest.raises(ValueError, match="No return type annotation"):
        torch.library.infer_schema(r, mutates_args=())
    with pytest.raises(ValueError, match="namespace"):
        torch.library.custom_op("nonamespace", mutates_args=())(lambda x: x)


def test_library_define_impl_and_ops_namespace():
    torch.library.define("fgtestlib::halve", "(Tensor x, float k=2.0) -> Tensor")
    torch.library.impl("fgtestlib::halve", "cpu", lambda x, k=2.0: x / k)
    assert torch.ops.fgtestlib.halve(torch.tensor([4.0])).tolist() == [2.0]
    assert torch.ops.fgtestlib.halve(torch.tensor([4.0]), k=4.0).tolist() == [1.0]
    lib = torch.library.Library("fgtestlib2", "FRAGMENT")
    lib.define("triple(Tensor x) -> Tensor")
    lib.impl("triple", lambda x: x * 3, "CompositeImplicitAutograd")
    x = torch.tensor([1.0], requires_grad=True)
    torch.ops.fgtestlib2.triple(x).sum().backward()  # implicit autograd: differentiable through its ops
    assert x.grad.tolist() == [3.0]
    with pytest.raises(AttributeError, match="has no attribute 'nosuch'"):
        torch.ops.fgtestlib2.nosuch  # noqa: B018
    assert torch.ops.aten.add.Tensor(torch.tensor([1.0]), torch.tensor([2.0])).tolist() == [3.0]
    with pytest.warns(FutureWarning, match="renamed to `torch.library.register_fake`"):
        torch.library.impl_abstract("fgtestlib::halve", lambda x, k=2.0: torch.empty_like(x))


def test_register_kernel_per_device():
    @torch.library.custom_op("fgtest::inc", mutates_args=(), device_types="cpu")
    def inc(x: Tensor) -> Tensor:
        return x + 1

    assert inc(torch.tensor([0.0])).tolist() == [1.0]
    torch.library.register_kernel("fgtest::inc", "cpu", lambda x: x + 2)
    assert inc(torch.tensor([0.0])).tolist() == [2.0]


def test_under_torch_compile_values_and_gradients():
    op = _make(torch, "compiled_sin")
    lin = torch.nn.Linear(2, 2)
    x = torch.tensor([[0.3, -0.7]])

    def loss(inp):
        return op(lin(inp)).sum()

    eager = loss(x)
    eager.backward()
    g_eager = lin.weight.grad.clone()
    lin.weight.grad = None
    compiled = torch.compile(loss)(x)
    compiled.backward()
    np.testing.assert_allclose(compiled.item(), eager.item(), rtol=1e-6)
    np.testing.assert_allclose(lin.weight.grad.numpy(), g_eager.numpy(), rtol=1e-6)
    z = (x @ lin.weight.detach().T + lin.bias.detach()).numpy()
    np.testing.assert_allclose(g_eager.numpy(), np.cos(z).T @ x.numpy(), rtol=1e-5)
