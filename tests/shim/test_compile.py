"""``torch.compile``: compiled calls equal eager ones (values, gradients, optimizer steps,
buffers), retrace on what they depend on, and break to eager (or raise under fullgraph) on
what cannot be traced."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch import _compile

nn = torch.nn


@pytest.fixture(autouse=True)
def _fresh():
    torch.compiler.reset()
    yield
    torch.compiler.reset()


def _state(m):
    return {k: v.detach().numpy().copy() for k, v in m.state_dict().items()}


def _train_both(model, x, y, loss_fn, steps=3, opt=torch.optim.SGD, **opt_kw):
    """Train ``model`` eagerly and a deep copy compiled, side by side; the losses and the
    state after each step must agree."""
    torch.manual_seed(0)
    eager = model
    twin = copy.deepcopy(model)
    compiled = torch.compile(twin)
    opts = [opt(eager.parameters(), **opt_kw), opt(compiled.parameters(), **opt_kw)]
    for _ in range(steps):
        losses, grads = [], []
        for m, o in zip((eager, compiled), opts):
            o.zero_grad()
            out = m(x)
            out = out[0] if isinstance(out, tuple) else out
            loss = loss_fn(out, y)
            loss.backward()
            grads.append([p.grad.numpy().copy() for p in m.parameters()])
            o.step()
            losses.append(loss.item())
        np.testing.assert_allclose(losses[0], losses[1], rtol=1e-5, atol=1e-6)
        for a, b in zip(*grads):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
        s_e, s_c = _state(eager), _state(twin)
        assert s_e.keys() == s_c.keys()
        for k in s_e:
            np.testing.assert_allclose(s_e[k], s_c[k], rtol=1e-4, atol=1e-6, err_msg=k)
    return compiled


def test_mlp_training_matches_eager():
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 4))
    compiled = _train_both(model, torch.randn(8, 6), torch.tensor([0, 1, 2, 3, 0, 1, 2, 3]),
                           nn.CrossEntropyLoss(), opt=torch.optim.Adam, lr=1e-2)
    out = compiled(torch.randn(2, 6))
    assert type(out.grad_fn).__name__ == "CompiledFunctionBackward"
    assert isinstance(compiled, torch._dynamo.OptimizedModule)
    assert compiled._orig_mod is model.__class__ or isinstance(compiled._orig_mod, nn.Sequential)


def test_cnn_with_batchnorm_training_matches_eager():
    torch.manual_seed(2)
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(4 * 4 * 4, 3))
    compiled = _train_both(model, torch.randn(5, 1, 8, 8), torch.tensor([0, 1, 2, 1, 0]),
                           nn.CrossEntropyLoss())
    # the running statistics moved (written back from the compiled program)
    bn = compiled._orig_mod[1]
    assert int(bn.num_batches_tracked) == 3
    assert float(bn.running_var.sum()) != 4.0


@pytest.mark.parametrize("cell", ["GRU", "LSTM"])
def test_recurrent_training_matches_eager(cell):
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = getattr(nn, cell)(4, 6, batch_first=True)
            self.head = nn.Linear(6, 2)

        def forward(self, x):
            o, _ = self.rnn(x)
            return self.head(o[:, -1])

    torch.manual_seed(3)
    _train_both(Net(), torch.randn(3, 5, 4), torch.randn(3, 2), nn.MSELoss())


def test_transformer_layer_training_matches_eager():
    torch.manual_seed(4)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
    # SGD: the key bias has a zero gradient (softmax ignores it), which Adam would turn into
    # amplified rounding noise
    _train_both(layer, torch.randn(2, 5, 8), torch.randn(2, 5, 8), nn.MSELoss(), lr=0.1)


def test_function_with_closure_parameters_sees_optimizer_updates():
    torch.manual_seed(5)
    w = torch.randn(3, 2, requires_grad=True)
    lin = nn.Linear(2, 1)

    @torch.compile
    def loss_fn(x):
        return (lin(torch.tanh(x @ w)) ** 2).mean()

    x = torch.randn(4, 3)
    opt = torch.optim.SGD([w, *lin.parameters()], lr=0.5)
    for _ in range(3):
        opt.zero_grad()
        loss = loss_fn(x)
        loss.backward()
        # the gradient of the current parameters, computed eagerly
        w2 = w.detach().clone().requires_grad_()
        lin2 = copy.deepcopy(lin)
        ref = (lin2(torch.tanh(x @ w2)) ** 2).mean()
        ref.backward()
        np.testing.assert_allclose(loss.item(), ref.item(), rtol=1e-6)
        np.testing.assert_allclose(w.grad.numpy(), w2.grad.numpy(), rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(lin.weight.grad.numpy(), lin2.weight.grad.numpy(), rtol=1e-5, atol=1e-7)
        opt.step()
    assert loss_fn._n_traces == 1  # parameters are inputs: in-place updates need no retrace


def test_gradients_against_analytic():
    @torch.compile
    def f(x, y):
        return (torch.sin(x) * y).sum(), x * 2

    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s, d = f(x, y)
    (s + d.sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos([0.5, -1.0, 2.0]) * [1, 2, 3] + 2, rtol=1e-6)
    np.testing.assert_allclose(y.grad.numpy(), np.sin([0.5, -1.0, 2.0]), rtol=1e-6)
    assert s.grad_fn is d.grad_fn  # one node for the whole call
    assert len(s.grad_fn.next_functions) == 2


def test_no_grad_inputs_give_no_graph_and_outputs_own_memory():
    f = torch.compile(lambda x: x)
    x = torch.ones(3)
    out = f(x)
    assert out.grad_fn is None and not out.requires_grad
    out += 1
    assert float(x.sum()) == 3.0


def test_retrace_on_shape_dtype_requires_grad_and_training():
    m = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5))
    c = torch.compile(m)
    c(torch.ones(2, 3))
    c(torch.ones(2, 3))
    assert c._compiled._n_traces == 1
    c(torch.ones(5, 3))
    assert c._compiled._n_traces == 2
    c(torch.ones(5, 3, dtype=torch.float64).float())
    assert c._compiled._n_traces == 2
    c(torch.ones(5, 3, requires_grad=True))
    assert c._compiled._n_traces == 3
    m.eval()
    out = c(torch.ones(5, 3))
    assert c._compiled._n_traces == 4
    np.testing.assert_allclose(out.detach().numpy(), m(torch.ones(5, 3)).detach().numpy(), rtol=1e-6)


def test_non_tensor_arguments_are_guarded():
    @torch.compile
    def f(x, k, *, mode="add"):
        return x + k if mode == "add" else x * k

    x = torch.ones(2)
    assert f(x, 2.0).tolist() == [3.0, 3.0]
    assert f(x, 3.0).tolist() == [4.0, 4.0]
    assert f(x, 3.0, mode="mul").tolist() == [3.0, 3.0]


def test_constant_tensor_modified_in_place_retraces():
    c = torch.tensor([1.0, 2.0])
    holder = {"c": c}

    def f(x):
        return x * holder["c"]

    g = torch.compile(f)
    x = torch.ones(2)
    assert g(x).tolist() == [1.0, 2.0]
    c.mul_(10)
    assert g(x).tolist() == [10.0, 20.0]


def test_dropout_semantics():
    torch.manual_seed(0)
    drop = torch.compile(nn.Dropout(0.5))
    x = torch.ones(2000, requires_grad=True)
    a = drop(x)
    b = drop(x)
    va = a.detach().numpy()
    assert set(np.unique(va)) <= {0.0, 2.0}
    assert 0.4 < (va == 0).mean() < 0.6
    assert not np.array_equal(va, b.detach().numpy())  # a fresh mask per call
    a.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), va)  # the backward uses the forward's mask
    drop.eval()
    np.testing.assert_array_equal(drop(x).detach().numpy(), x.detach().numpy())
    # seeded: reproducible
    torch.manual_seed(7)
    r1 = drop.train()(x).detach().numpy()
    torch.manual_seed(7)
    r2 = drop(x).detach().numpy()
    np.testing.assert_array_equal(r1, r2)


def test_batchnorm_train_and_eval():
    torch.manual_seed(0)
    bn = nn.BatchNorm1d(3)
    ref = copy.deepcopy(bn)
    c = torch.compile(bn)
    x = torch.randn(6, 3) * 3 + 1
    np.testing.assert_allclose(c(x).detach().numpy(), ref(x).detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.running_mean.numpy(), ref.running_mean.numpy(), rtol=1e-5)
    np.testing.assert_allclose(bn.running_var.numpy(), ref.running_var.numpy(), rtol=1e-5)
    assert int(bn.num_batches_tracked) == 1
    bn.eval()
    ref.eval()
    np.testing.assert_allclose(c(x).detach().numpy(), ref(x).detach().numpy(), rtol=1e-5, atol=1e-6)
    assert int(bn.num_batches_tracked) == 1


def _warned(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = fn()
    return out, [str(x.message) for x in w if "graph break" in str(x.message)]


def test_data_dependent_branch_falls_back_with_reason_once():
    def f(x):
        if x.sum() > 0:
            return x * 2
        return x * 3

    g = torch.compile(f)
    out, msgs = _warned(lambda: g(torch.ones(2)))
    assert out.tolist() == [2.0, 2.0]
    assert len(msgs) == 1 and "running eagerly" in msgs[0] and "\n" not in msgs[0]
    out, msgs = _warned(lambda: g(-torch.ones(2)))
    assert out.tolist() == [-3.0, -3.0] and msgs == []


@pytest.mark.parametrize("body", ["item", "print", "numpy", "randint"])
def test_graph_breaks(body):
    def f(x):
        if body == "item":
            return x * x.sum().item()
        if body == "print":
            print("hello")
            return x + 1
        if body == "numpy":
            return torch.from_numpy(np.sin(x.numpy())) + x
        return x + torch.randint(0, 1, x.shape)

    expect = f(torch.ones(2)).tolist()
    out, msgs = _warned(lambda: torch.compile(f)(torch.ones(2)))
    assert out.tolist() == expect
    assert len(msgs) == 1
    with pytest.raises(torch._dynamo.exc.Unsupported):
        torch.compile(f, fullgraph=True)(torch.ones(2))


def test_disable():
    calls = []

    @torch.compiler.disable
    def side(x):
        calls.append(1)
        return x

    @torch.compile(fullgraph=True)
    def f(x):
        return side(x) + 1

    with pytest.raises(torch._dynamo.exc.Unsupported, match="disable"):
        f(torch.ones(1))
    assert torch.compile(disable=True)(abs) is abs


def test_user_errors_surface_unchanged():
    f = torch.compile(lambda x, y: x @ y)
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        f(torch.ones(2, 3), torch.ones(2, 3))


def test_options_and_backends():
    f = lambda x: x + 1  # noqa: E731
    for backend in ("inductor", "eager", "aot_eager"):
        assert torch.compile(f, backend=backend)(torch.ones(1)).tolist() == [2.0]
    for mode in ("default", "reduce-overhead", "max-autotune"):
        assert torch.compile(f, mode=mode, dynamic=True)(torch.ones(1)).tolist() == [2.0]
    with pytest.raises(RuntimeError, match="Unrecognized mode"):
        torch.compile(f, mode="fastest")
    with pytest.raises(RuntimeError, match="both"):
        torch.compile(f, mode="default", options={})
    with pytest.raises(torch._dynamo.exc.InvalidBackend):
        torch.compile(f, backend="nope")
    assert "inductor" in torch._dynamo.list_backends()


def test_decorator_forms_and_module_compile():
    @torch.compile
    def a(x):
        return x * 2

    @torch.compile()
    def b(x):
        return x * 3

    @torch.compile(fullgraph=True, mode="max-autotune")
    def c(x):
        return x * 4

    x = torch.ones(1)
    assert (a(x).item(), b(x).item(), c(x).item()) == (2.0, 3.0, 4.0)
    m = nn.Linear(2, 2)
    ref = m(torch.ones(1, 2))
    assert m.compile() is None
    out = m(torch.ones(1, 2))
    assert type(out.grad_fn).__name__ == "CompiledFunctionBackward"
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), rtol=1e-6)


def test_compiled_method_and_is_compiling():
    seen = []

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)

        @torch.compile
        def forward(self, x):
            seen.append(torch.compiler.is_compiling())
            return self.fc(x)

    net = Net()
    out = net(torch.ones(3, 2))
    assert seen == [True] and not torch.compiler.is_compiling()
    out.sum().backward()
    assert net.fc.weight.grad is not None


def test_reset_forgets_programs_and_cache_limit_falls_back():
    f = torch.compile(lambda x: x + 1)
    f(torch.ones(1))
    assert f._n_traces == 1
    torch._dynamo.reset()
    assert f._n_traces == 0 and not f._cache
    old = _compile.config.cache_size_limit
    _compile.config.cache_size_limit = 2
    try:
        _, msgs = _warned(lambda: [f(torch.ones(n)) for n in range(1, 5)])
        assert f._n_traces == 2 and any("cache_size_limit" in m for m in msgs)
    finally:
        _compile.config.cache_size_limit = old


def test_double_backward_raises():
    f = torch.compile(lambda x: x ** 3)
    x = torch.tensor(2.0, requires_grad=True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=False)
    assert g.item() == 12.0
    with pytest.raises(RuntimeError, match="double backward"):
        torch.autograd.grad(f(x), x, create_graph=True)


def test_backward_twice_needs_retain_graph():
    f = torch.compile(lambda x: (x ** 2).sum())
    x = torch.ones(2, requires_grad=True)
    y = f(x)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 4.0]
    y = f(x)
    y.backward()
    with pytest.raises(RuntimeError, match="second time"):
        y.backward()


def test_inside_torch_func_the_compiled_function_inlines():
    f = torch.compile(lambda x: torch.sin(x) * x)
    g = torch.func.grad(lambda x: f(x).sum())(torch.tensor([0.3, 1.0]))
    x = np.array([0.3, 1.0])
    np.testing.assert_allclose(g.numpy(), np.cos(x) * x + np.sin(x), rtol=1e-6)


# -- functional mode (the tracing torch.compile relies on) ------------------------------------


def test_traced_add_with_alpha_runs():
    """``add_(other, alpha=)`` on traced tensors skipped the memory-overlap check's pointer
    arithmetic (a tracer has no memory); it raised AttributeError before."""

    def f(x):
        y = x * 1.0
        y.add_(x, alpha=2.0)
        return y.sum()

    g = torch.func.grad(f)(torch.tensor([1.0, 2.0]))
    assert g.tolist() == [3.0, 3.0]


def test_traced_unbind_is_one_split():
    """Traced ``unbind``/``chunk`` are one ``split`` (transpose: one concatenate), not one
    gather per piece (whose transposes each wrote a full-size zero-padded gradient)."""
    import fgrad
    from fgrad.torch.func import _from_array as from_array, _to_array as to_array

    def f(a):
        x = from_array(a)
        return to_array(sum((p * (i + 1)).sum() for i, p in enumerate(x.unbind(0))))

    a = np.arange(12.0).reshape(4, 3)
    text = str(fgrad.make_jaxpr(fgrad.grad(f))(a))
    assert "split" in text and "gather" not in text and "scatter" not in text
    np.testing.assert_allclose(np.asarray(fgrad.grad(f)(a)), np.repeat([[1.0], [2.0], [3.0], [4.0]], 3, 1))


def test_functional_batch_norm_updates_running_stats():
    """Under tracing, batch norm's running statistics update with tensor ops (they were
    left unchanged when the input was not concrete)."""
    import fgrad
    from fgrad.torch.func import _from_array as from_array, _to_array as to_array

    def f(x, rm, rv):
        rmt, rvt = from_array(rm), from_array(rv)
        nn.functional.batch_norm(from_array(x), rmt, rvt, training=True)
        return to_array(rmt), to_array(rvt)

    xs = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]], np.float32)
    rm, rv = fgrad.jit(f)(xs, np.zeros(2, np.float32), np.ones(2, np.float32))
    np.testing.assert_allclose(np.asarray(rm), 0.1 * xs.mean(0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(rv), 0.9 + 0.1 * xs.var(0, ddof=1), rtol=1e-6)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device (or FGRAD_BACKEND=fake)")
def test_cuda_training_matches_eager():
    torch.manual_seed(6)
    model = nn.Sequential(nn.Linear(5, 8), nn.Dropout(0.0), nn.BatchNorm1d(8), nn.Tanh(),
                          nn.Linear(8, 2)).cuda()
    x, y = torch.randn(6, 5).cuda(), torch.randn(6, 2).cuda()
    eager, twin = model, copy.deepcopy(model)
    compiled = torch.compile(twin)
    for m in (eager, compiled):
        opt = torch.optim.SGD(m.parameters(), lr=0.1)
        for _ in range(2):
            opt.zero_grad()
            nn.functional.mse_loss(m(x), y).backward()
            opt.step()
    assert next(twin.parameters()).device.type == "cuda"
    for (k, a), b in zip(eager.state_dict().items(), twin.state_dict().values()):
        np.testing.assert_allclose(a.cpu().numpy(), b.cpu().numpy(), rtol=1e-5, atol=1e-6, err_msg=k)


def test_complex_gradients_follow_pytorchs_convention():
    def f(z):
        return (z * z * torch.tensor([1 + 2j, 3 - 1j])).abs().sum()

    z = torch.tensor([1 + 1j, 2 - 0.5j], requires_grad=True)
    f(z).backward()
    eager = z.grad.numpy().copy()
    z.grad = None
    torch.compile(f)(z).backward()
    np.testing.assert_allclose(z.grad.numpy(), eager, rtol=1e-6)


def test_in_place_update_of_a_grad_tensor_is_a_graph_break():
    w = torch.ones(2, requires_grad=True)

    def f(x):
        with torch.no_grad():
            w.mul_(2)
        return x * w

    with pytest.raises(torch._dynamo.exc.Unsupported, match="in-place"):
        torch.compile(f, fullgraph=True)(torch.ones(2))
    assert w.tolist() == [1.0, 1.0]  # the trace wrote nothing back


def test_input_modified_between_forward_and_backward_raises():
    f = torch.compile(lambda x, w: (x * w).sum())
    x = torch.ones(3, requires_grad=True)
    w = torch.full((3,), 2.0)
    loss = f(x, w)
    w.mul_(3)  # the backward would read the saved (now overwritten) w
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_intermediate_inputs_and_partial_grads():
    """Non-leaf inputs (the graph continues below the compiled node) and inputs without grad."""
    f = torch.compile(lambda a, b, c: (a * b + c).exp().sum())
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    a = x * 2
    b = torch.tensor([1.0, -1.0])
    c = torch.tensor([0.5, 0.5], requires_grad=True)
    f(a, b, c).backward()
    e = np.exp(2 * np.array([0.1, 0.2]) * [1.0, -1.0] + 0.5)
    np.testing.assert_allclose(x.grad.numpy(), 2 * e * [1.0, -1.0], rtol=1e-6)
    np.testing.assert_allclose(c.grad.numpy(), e, rtol=1e-6)
    assert b.grad is None


def _no_grad_inside(x):
    with torch.no_grad():
        y = x * 2
    return (x * y).sum()


def test_detach_and_no_grad_stop_gradients_when_traced():
    """``detach()`` and ``no_grad`` blocks inside torch.func transforms and torch.compile
    stop the derivative as they do eagerly (traced, they were ignored: d/dx x*detach(x)
    came out as 2x)."""
    x = torch.tensor([3.0])
    assert torch.func.grad(lambda x: (x * x.detach()).sum())(x).tolist() == [3.0]
    assert torch.func.grad(_no_grad_inside)(x).tolist() == [6.0]
    xx = torch.tensor([3.0], requires_grad=True)
    torch.compile(_no_grad_inside)(xx).backward()
    assert xx.grad.tolist() == [6.0]
    xx.grad = None
    torch.compile(lambda x: (x * x.detach()).sum())(xx).backward()
    assert xx.grad.tolist() == [3.0]


def test_torch_func_ignores_an_outer_no_grad():
    with torch.no_grad():
        g = torch.func.grad(lambda x: (x * x).sum())(torch.tensor([3.0]))
    assert g.tolist() == [6.0]


def test_module_backward_hooks_break_the_graph_and_run():
    seen = []
    m = nn.Linear(2, 2)
    m.register_full_backward_hook(lambda mod, gi, go: seen.append(1))
    c = torch.compile(m)
    x = torch.ones(1, 2, requires_grad=True)
    _, msgs = _warned(lambda: [c(x).sum().backward() for _ in range(2)])
    assert seen == [1, 1] and any("backward hooks" in s for s in msgs)


SCALE = 2.0


def test_plain_attributes_and_globals_are_guarded():
    class Scaled(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = 2.0

        def forward(self, x):
            return x * self.scale

    inner = Scaled()
    outer = nn.Sequential(inner)
    c = torch.compile(outer)
    x = torch.ones(1)
    assert c(x).item() == 2.0
    inner.scale = 5.0  # a submodule's plain attribute, read during the trace
    assert c(x).item() == 5.0
    drop = nn.Dropout(0.0)
    cd = torch.compile(drop)
    assert cd(x).item() == 1.0
    drop.p = 1.0
    assert cd(x).item() == 0.0

    def f(x):
        return x * SCALE

    g = torch.compile(f)
    assert g(x).item() == 2.0
    globals()["SCALE"] = 3.0
    try:
        assert g(x).item() == 3.0
    finally:
        globals()["SCALE"] = 2.0


def test_deepcopy_and_pickle_of_compiled_modules():
    import pickle

    m = nn.Linear(2, 2)
    c = torch.compile(m)
    c(torch.ones(1, 2))
    d = copy.deepcopy(c)
    assert d._orig_mod is not m and d._compiled.fn.__self__ is d._orig_mod  # compiles the copy
    with torch.no_grad():
        d._orig_mod.weight.zero_()
        d._orig_mod.bias.zero_()
    assert d(torch.ones(1, 2)).tolist() == [[0.0, 0.0]]
    assert type(d(torch.ones(1, 2)).grad_fn).__name__ == "CompiledFunctionBackward"
    p = pickle.loads(pickle.dumps(c))
    np.testing.assert_allclose(p(torch.ones(1, 2)).detach().numpy(), c(torch.ones(1, 2)).detach().numpy())
    m.compile()
    e = copy.deepcopy(m)
    assert e._compiled_call_impl.fn.__self__ is e


class _Holder:
    pass


def test_a_grad_tensor_reached_through_an_object_becomes_an_input():
    holder = _Holder()
    holder.w = torch.tensor([2.0, 3.0], requires_grad=True)

    def helper(x):
        return x * holder.w

    c = torch.compile(lambda x: helper(x).sum())
    x = torch.tensor([1.0, 4.0])
    c(x).backward()
    c(x).backward()
    assert holder.w.grad.tolist() == [2.0, 8.0]
    with torch.no_grad():
        holder.w.mul_(10)  # an input, not a constant: the new value is used
    assert c(x).item() == 20.0 + 120.0


@pytest.mark.parametrize("act", ["ELU", "LeakyReLU", "Hardtanh", "SiLU", "ReLU"])
def test_inplace_activations_keep_their_gradient_when_traced(act):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), getattr(nn, act)(inplace=True), nn.Linear(4, 1))
    _train_both(model, torch.randn(5, 3), torch.randn(5, 1), nn.MSELoss(), steps=2)
    x = torch.randn(5, 3)
    g = torch.func.grad(lambda x: model(x).sum())(x)
    xe = x.clone().requires_grad_()
    model(xe).sum().backward()
    assert g.requires_grad  # the weights it closes over require grad (as in PyTorch)
    np.testing.assert_allclose(g.detach().numpy(), xe.grad.numpy(), rtol=1e-5, atol=1e-7)


def test_functional_call_under_an_outer_no_grad_still_differentiates():
    import fgrad
    from fgrad.torch.func import _to_array as to_array, functional_call

    lin = nn.Linear(2, 1)
    p = {k: to_array(v) for k, v in lin.named_parameters()}
    with torch.no_grad():
        g = fgrad.grad(lambda p: functional_call(lin, p, (torch.ones(3, 2),)).sum())(p)
    np.testing.assert_allclose(np.asarray(g["weight"]), [[3.0, 3.0]])


@pytest.mark.parametrize("make", [lambda T: T.arange(4.0) * 2, lambda T: T.arange(4.0), lambda T: T.ones(4)],
                         ids=["folded", "constant", "creation"])
def test_outputs_made_while_tracing_are_new_tensors_at_every_call(make):
    """A compiled function's output computed from no input was the program's one constant
    buffer: writing to one call's result changed every later call's (1,3,5,7 then 2,4,6,8 ...).
    PyTorch returns a new tensor per call."""
    f = torch.compile(lambda x: (x + 1, make(torch)))
    want = make(torch).tolist()
    for _ in range(4):
        a, b = f(torch.ones(2))
        assert b.tolist() == want
        b.add_(1)
        a.add_(1)
    x = torch.ones(2)
    a, _ = f(x)
    assert a.tolist() == [2.0, 2.0] and x.tolist() == [1.0, 1.0]
