"""`fgrad.jit`: API (static arguments, cache, recompile log, lower/compile, disable_jit,
make_jaxpr), errors, composition with every transform (all agree with eager, and derived
programs are cached and compiled), control flow under jit, and jit vs eager over the op
table (values and gradients)."""

from __future__ import annotations

import logging
import threading

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.testing import op_table as T
from fgrad.testing.device_numerics import rounds_like_numpy

RNG = np.random.default_rng(0)
THIS_FILE = __file__


def A(x, dtype=np.float64):
    return fnp.asarray(np.asarray(x, dtype=dtype))


def close(a, b, rtol=1e-12, atol=1e-12):
    for x, y in zip(fgrad.tree_leaves(a), fgrad.tree_leaves(b), strict=True):
        x, y = np.asarray(x), np.asarray(y)
        assert x.shape == y.shape and x.dtype == y.dtype, (x.dtype, y.dtype, x.shape, y.shape)
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol)


def close_derivatives(a, b):
    """jit vs eager derivatives: equal to 1e-9; on a backend whose eager ops do not round
    like NumPy (cupy: fma contraction, another summation order) single-precision values get
    float32 rounding room (docs/gpu_numerics.md)."""
    for x, y in zip(fgrad.tree_leaves(a), fgrad.tree_leaves(b), strict=True):
        dt = np.asarray(x).dtype
        single = dt.kind in "fc" and np.finfo(dt).eps > 1e-10
        tol = 1e-5 if single and not rounds_like_numpy() else 1e-9
        close(x, y, rtol=tol, atol=tol)


def f_loss(x):
    return fnp.sum(fnp.tanh(x) ** 2 * fnp.exp(-x) + fnp.sin(3.0 * x) / (1.0 + x * x))


# -------------------------------------------------------------------------------------
# API and cache


def test_jit_matches_eager_and_keeps_dtypes():
    for dt in (np.float32, np.float64):
        x = A(RNG.standard_normal(7), dt)
        f = fgrad.jit(lambda x: x * fnp.sin(x) * 2.0 + 1)
        out = f(x)
        assert out.dtype == dt
        close(out, x * fnp.sin(x) * 2.0 + 1, rtol=1e-6 if dt == np.float32 else 1e-14)


def test_same_shapes_never_retrace_new_shapes_do():
    f = fgrad.jit(lambda x, y: x @ y + 1.0)
    x, y = A(RNG.standard_normal((3, 4))), A(RNG.standard_normal(4))
    for _ in range(5):
        f(x, y)
        f(A(RNG.standard_normal((3, 4))), A(RNG.standard_normal(4)))
    assert f.stats["traces"] == 1 and len(f._cache) == 1
    f(A(RNG.standard_normal((2, 4))), y)
    f(A(RNG.standard_normal((3, 4)), np.float32), A(RNG.standard_normal(4), np.float32))
    assert f.stats["traces"] == 3
    f(x, y)
    assert f.stats["traces"] == 3


def test_jit_of_the_same_function_shares_the_cache():
    def f(x):
        return fnp.cos(x) * 3.0

    x = A([1.0, 2.0])
    for _ in range(3):
        fgrad.jit(f)(x)  # the usual anti-pattern: a new jit object per call
    assert fgrad.jit(f).stats["traces"] == 1
    assert fgrad.jit(f, static_argnums=()).stats["traces"] == 1


def test_pytrees_kwargs_and_python_scalars():
    @fgrad.jit
    def f(params, x, scale=1.0):
        return {"y": params["w"] * x + params["b"], "s": fnp.sum(x) * scale}, [x]

    p = {"w": A(2.0), "b": A([1.0, 2.0])}
    x = A([3.0, 4.0])
    out = f(p, x, scale=3.0)
    close(out[0]["y"], A([7.0, 10.0]))
    close(out[0]["s"], A(21.0))
    close(out[1][0], x)
    f(p, x, scale=4.0)  # a Python scalar is traced (weak), not static: no retrace
    assert f.stats["traces"] == 1
    # a weak Python scalar keeps float32 float32
    g = fgrad.jit(lambda x, s: x * s)
    assert g(A([1.0], np.float32), 2.0).dtype == np.float32


def test_pytree_structures_key_the_cache():
    import collections

    NT = collections.namedtuple("NT", "a b")
    f = fgrad.jit(lambda d: {"x": d["b"] * 2, "y": (d["a"],), "z": [None, d["a"] + 1],
                             "n": NT(d["a"], d["b"])})
    a, b = A([0.0, 1.0]), A([2.0, 3.0])
    out = f({"b": b, "a": a})
    assert isinstance(out["n"], NT) and isinstance(out["y"], tuple) and out["z"][0] is None
    close(out["x"], b * 2)
    f({"a": a, "b": b})  # same structure (dict keys are sorted)
    assert f.stats["traces"] == 1
    out2 = f(collections.OrderedDict(a=a, b=b))  # a different node type: a new trace
    assert f.stats["traces"] == 2 and isinstance(out2["n"], NT)
    g = fgrad.jit(lambda t: t[0] + 1.0)
    g((a,))
    g([a])
    g((a, None))
    assert g.stats["traces"] == 3


def test_static_argnums_and_argnames():
    def f(x, n, mode="sin"):
        y = x
        for _ in range(n):  # a Python loop over a static value
            y = fnp.sin(y) if mode == "sin" else fnp.cos(y)
        return y

    g = fgrad.jit(f, static_argnums=1, static_argnames="mode")
    x = A(RNG.standard_normal(3))
    close(g(x, 2), f(x, 2))
    close(g(x, 3, mode="cos"), f(x, 3, mode="cos"))
    close(g(x, n=3, mode="cos"), f(x, 3, mode="cos"))
    assert g.stats["traces"] == 2
    h = fgrad.jit(f, static_argnames=("n", "mode"))
    close(h(x, 2, "cos"), f(x, 2, "cos"))


def test_unhashable_static_argument_error_names_it():
    g = fgrad.jit(lambda x, sizes: x * len(sizes), static_argnums=1)
    with pytest.raises(TypeError) as info:
        g(A([1.0]), [1, 2])
    msg = str(info.value)
    assert "'sizes'" in msg and "unhashable" in msg and "list" in msg and "tuple" in msg
    g2 = fgrad.jit(lambda x, *, opts: x, static_argnames="opts")
    with pytest.raises(TypeError, match="'opts'.*unhashable type dict"):
        g2(A([1.0]), opts={"a": 1})


def test_recompile_log_names_the_changed_argument(caplog):
    caplog.set_level(logging.INFO, logger="fgrad.jit")

    def model(weights, x, n):
        return fnp.sum(weights) * x * n

    f = fgrad.jit(model, static_argnums=2)
    w = A([1.0, 2.0])
    f(w, A([1.0, 1.0]), 2)
    f(w, A([3.0, 1.0]), 2)  # same signature: silent
    f(w, A([1.0, 1.0, 1.0]), 2)
    f(w, A([1.0, 1.0, 1.0], np.float32), 2)
    f(w, A([1.0, 1.0, 1.0], np.float32), 3)
    lines = [r.getMessage() for r in caplog.records
             if r.name == "fgrad.jit" and r.levelno == logging.INFO]
    assert len(lines) == 4, lines
    assert lines[0].startswith("compiling model") and "'weights': float64[2]" in lines[0]
    assert "recompiling model" in lines[1] and "'x'" in lines[1] and "float64[2] -> float64[3]" in lines[1]
    assert "'x'" in lines[2] and "float64[3] -> float32[3]" in lines[2] and "'weights'" not in lines[2]
    assert "static argument 'n' changed 2 -> 3" in lines[3]


def test_disable_jit_runs_python():
    calls = []

    def f(x):
        calls.append(1)
        return x + 1

    g = fgrad.jit(f)
    g(A(1.0))
    g(A(2.0))
    with fgrad.disable_jit():
        out = g(A(3.0))
        assert float(out) == 4.0
    assert len(calls) == 2  # one trace + one eager run


def test_make_jaxpr_and_lower():
    x = fgrad.device_put(A(np.zeros(3)), "cpu")  # the NumPy code generator's kernel count
    text = str(fgrad.make_jaxpr(lambda x: fnp.sin(x) + 1.0)(x))
    assert "sin" in text and "add" in text and "a:f64[3]" in text
    lowered = fgrad.jit(lambda x: fnp.sum(fnp.exp(x) * 2.0)).lower(x)
    assert "exp" in lowered.as_text()
    exe = lowered.compile()
    assert exe.stats["kernels"] == 1 and "def run" in exe.source
    assert exe is lowered.compile()  # compiled once


def test_outputs_that_are_inputs_literals_and_constants():
    c = np.arange(3.0)
    f = fgrad.jit(lambda x: (x, 2.0, fnp.asarray(c) * 1.0, x.shape[0]))
    x = A([5.0, 6.0, 7.0])
    a, b, cc, n = f(x)
    close(a, x)
    assert float(b) == 2.0 and int(n) == 3
    np.testing.assert_array_equal(np.asarray(cc), c)


def test_threads_share_a_compiled_function():
    f = fgrad.jit(lambda x: fnp.sum(fnp.sin(x) * fnp.cos(x) + x * x, axis=1))
    xs = [A(RNG.standard_normal((40, 300))) for _ in range(8)]
    want = [np.asarray(f(x)) for x in xs]
    errors = []

    def work(i):
        for _ in range(20):
            if not np.array_equal(np.asarray(f(xs[i])), want[i]):
                errors.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# -------------------------------------------------------------------------------------
# errors: Python control flow on traced values


@pytest.mark.parametrize("kind", ["if", "while", "bool", "float", "item", "int"])
def test_python_control_flow_on_traced_values_names_line_and_fixes(kind):
    def f(x):
        if kind == "if":
            if x.sum() > 0:  # the line the error must name
                return x
            return -x
        if kind == "while":
            while x.sum() > 0:
                x = x - 1
            return x
        if kind == "bool":
            return bool(x[0])
        if kind == "float":
            return float(x[0]) * x
        if kind == "item":
            return x[0].item() * x
        return x * int(x[0])

    with pytest.raises(fgrad.ConcretizationError) as info:
        fgrad.jit(f)(A([1.0, 2.0]))
    msg = str(info.value)
    assert THIS_FILE in msg, msg
    assert "static_argnums" in msg and "lax.cond" in msg and "where" in msg, msg
    assert "jit of f" in msg


def test_error_line_number_is_the_users():
    def f(x):
        y = x * 2
        return y if y[0] > 0 else -y  # the error names this line

    import inspect

    line = inspect.getsourcelines(f)[1] + 2
    with pytest.raises(fgrad.ConcretizationError, match=f"{THIS_FILE}:{line}"):
        fgrad.jit(f)(A([1.0]))


# -------------------------------------------------------------------------------------
# composition


def _x(n=5, dtype=np.float64, seed=1):
    return A(np.random.default_rng(seed).standard_normal(n), dtype)


def test_grad_of_jit_and_jit_of_grad():
    x = _x()
    close(fgrad.grad(fgrad.jit(f_loss))(x), fgrad.grad(f_loss)(x))
    close(fgrad.jit(fgrad.grad(f_loss))(x), fgrad.grad(f_loss)(x))
    close(fgrad.value_and_grad(fgrad.jit(f_loss))(x), fgrad.value_and_grad(f_loss)(x))


def test_vmap_of_jit_and_jit_of_vmap_of_grad():
    xs = A(np.random.default_rng(2).standard_normal((4, 5)))
    close(fgrad.vmap(fgrad.jit(f_loss))(xs), fgrad.vmap(f_loss)(xs))
    close(fgrad.jit(fgrad.vmap(fgrad.grad(f_loss)))(xs), fgrad.vmap(fgrad.grad(f_loss))(xs))
    # mixed batched / unbatched arguments and out axes
    g = fgrad.jit(lambda w, x: fnp.tanh(x @ w))
    w = A(np.random.default_rng(3).standard_normal((5, 2)))
    eager = fgrad.vmap(lambda w, x: fnp.tanh(x @ w), in_axes=(None, 0))
    close(fgrad.vmap(g, in_axes=(None, 0))(w, xs), eager(w, xs))
    close(fgrad.vmap(g, in_axes=(2, None))(fnp.stack([w, w * 2], axis=2), xs),
          fnp.stack([fnp.tanh(xs @ w), fnp.tanh(xs @ (w * 2))]))


def test_hessians_and_higher_order():
    x = _x()
    close(fgrad.jit(fgrad.hessian(f_loss))(x), fgrad.hessian(f_loss)(x), rtol=1e-10)
    close(fgrad.hessian(fgrad.jit(f_loss))(x), fgrad.hessian(f_loss)(x), rtol=1e-10)
    g3 = lambda f: fgrad.grad(fgrad.grad(fgrad.grad(lambda s: f(x * s))))
    close(g3(fgrad.jit(f_loss))(1.3), g3(f_loss)(1.3), rtol=1e-10)
    close(fgrad.jacrev(fgrad.jit(fnp.sin))(x), fgrad.jacrev(fnp.sin)(x))
    close(fgrad.jacfwd(fgrad.jit(fnp.sin))(x), fgrad.jacfwd(fnp.sin)(x))


def test_jvp_and_linearize_of_jit():
    x, t = _x(), _x(seed=9)
    close(fgrad.jvp(fgrad.jit(f_loss), (x,), (t,)), fgrad.jvp(f_loss, (x,), (t,)))
    y, f_jvp = fgrad.linearize(fgrad.jit(f_loss), x)
    close(f_jvp(t), fgrad.jvp(f_loss, (x,), (t,))[1])


def test_nested_jits():
    inner = fgrad.jit(lambda x, y: fnp.sin(x) * y)
    middle = fgrad.jit(lambda x: inner(x, 2.0) + inner(x * 2, x))
    outer = fgrad.jit(lambda x: fnp.sum(middle(x) ** 2))
    eager = lambda x: fnp.sum((fnp.sin(x) * 2.0 + fnp.sin(x * 2) * x) ** 2)
    x = _x()
    close(outer(x), eager(x))
    close(fgrad.grad(outer)(x), fgrad.grad(eager)(x))
    close(fgrad.jit(fgrad.grad(outer))(x), fgrad.grad(eager)(x))
    xs = fnp.stack([x, -x])
    close(fgrad.vmap(fgrad.grad(outer))(xs), fgrad.vmap(fgrad.grad(eager))(xs))


def test_jit_closing_over_tracers_of_enclosing_transforms():
    x = _x()

    def f(s):
        g = fgrad.jit(lambda v: fnp.sum(fnp.sin(v * s) * s))  # closes over the traced s
        return g(x)

    eager = lambda s: fnp.sum(fnp.sin(x * s) * s)
    close(fgrad.grad(f)(0.7), fgrad.grad(eager)(0.7))
    ss = A([0.5, 1.0, 2.0])
    close(fgrad.vmap(f)(ss), fgrad.vmap(eager)(ss))

    # a jitted function defined once, called under grad with a closure over the tracer
    def h(s):
        k = fgrad.jit(lambda v: v * s)
        return fnp.sum(k(x))

    close(fgrad.grad(h)(1.5), fnp.sum(x))


def test_derived_programs_are_cached_and_compiled():
    f = fgrad.jit(lambda x: f_loss(x))
    x = _x()
    gf = fgrad.grad(f)
    gf(x)
    closed = f._cache[next(iter(f._cache))].closed
    n_jvp, n_t = len(closed._jvp), sum(len(c._transpose) for e in closed._jvp.values() if e
                                       for c in e[:2] if hasattr(c, "_transpose"))
    assert n_jvp >= 1 and n_t >= 1
    for _ in range(3):
        gf(_x(seed=5))
    assert len(closed._jvp) == n_jvp and f.stats["traces"] == 1
    # the derived programs run compiled (an executable exists for each)
    known, lin, _, _ = next(e for k, e in closed._jvp.items() if k[0] == "split")
    assert known._exes and next(iter(lin._transpose.values()))[0]._exes
    vf = fgrad.vmap(f)
    vf(fnp.stack([x, x]))
    vf(fnp.stack([x, -x]))
    assert len(closed._batch) == 1


def test_jit_of_grad_of_mlp_matches_eager():
    rng = np.random.default_rng(4)
    params = [(A(rng.standard_normal((6, 8)) / 3, np.float32), A(np.zeros(8), np.float32)),
              (A(rng.standard_normal((8, 3)) / 3, np.float32), A(np.zeros(3), np.float32))]
    x = A(rng.standard_normal((10, 6)), np.float32)
    y = A(np.eye(3)[rng.integers(0, 3, 10)], np.float32)

    def loss(params, x, y):
        h = x
        for W, b in params[:-1]:
            h = fnp.maximum(h @ W + b, 0.0)
        W, b = params[-1]
        return -fnp.mean(fnp.sum(fgrad.nn.log_softmax(h @ W + b) * y, axis=1))

    def step(params, x, y):
        v, g = fgrad.value_and_grad(loss)(params, x, y)
        return [(W - 0.1 * gW, b - 0.1 * gb) for (W, b), (gW, gb) in zip(params, g, strict=True)], v

    close(fgrad.jit(step)(params, x, y), step(params, x, y), rtol=2e-5, atol=1e-6)


# -------------------------------------------------------------------------------------
# control flow under jit


def test_control_flow_under_jit():
    x = _x()

    def f(x):
        a = lax.cond(fnp.sum(x) > 0, lambda v: v * 2.0, lambda v: -v, x)
        b = lax.switch(2, [fnp.sin, fnp.cos, fnp.tanh], x)
        c = lax.fori_loop(0, 4, lambda i, v: v * 0.5 + i, x)
        d = lax.while_loop(lambda s: s[0] < 5, lambda s: (s[0] + 1, s[1] * 1.1), (0, x))[1]
        e, ys = lax.scan(lambda cr, xi: (cr + xi, cr * xi), 0.0, x)
        return fnp.sum(a + b + c + d) + e + fnp.sum(ys)

    close(fgrad.jit(f)(x), f(x))
    close(fgrad.jit(f)(-x), f(-x))

    def g(x):
        a = lax.cond(x[0] > 0, lambda v: fnp.sin(v) * 2.0, lambda v: v ** 2, x)
        c = lax.fori_loop(0, 3, lambda i, v: fnp.sin(v) * 0.5 + v, x)
        _, ys = lax.scan(lambda cr, xi: (cr * xi, cr + xi), 1.0, x)
        return fnp.sum(a * c) + fnp.sum(ys)

    close(fgrad.jit(fgrad.grad(g))(x), fgrad.grad(g)(x))
    close(fgrad.grad(fgrad.jit(g))(-x), fgrad.grad(g)(-x))
    xs = fnp.stack([x, -x, x * 0.5])
    close(fgrad.jit(fgrad.vmap(g))(xs), fgrad.vmap(g)(xs))


def test_reverse_mode_through_while_loop_under_jit_is_a_clear_error():
    f = fgrad.jit(lambda x: fnp.sum(lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] * 2.0),
                                                   (0, x))[1]))
    x = _x()
    close(fgrad.jvp(f, (x,), (x,))[1], fnp.sum(x) * 8.0)  # forward mode works
    with pytest.raises(ValueError, match="while_loop.*scan"):
        fgrad.grad(f)(x)
    with pytest.raises(ValueError, match="while_loop.*scan"):
        fgrad.jit(fgrad.grad(f))(x)


def test_log_compiles_environment_variable(monkeypatch, capsys):
    """FGRAD_LOG_COMPILES=1 shows the ``fgrad`` log records on stderr (and only then:
    without it nothing is printed, to stdout or stderr)."""
    from fgrad.core import logs

    monkeypatch.setattr(logs, "_handler", None)
    monkeypatch.setattr(logs.ROOT, "handlers", [])
    monkeypatch.setattr(logs.ROOT, "level", logging.NOTSET)

    def scaled(x):
        return x * 3.0

    monkeypatch.delenv("FGRAD_LOG_COMPILES", raising=False)
    fgrad.jit(scaled)(A([1.0]))
    assert capsys.readouterr() == ("", "")
    monkeypatch.setenv("FGRAD_LOG_COMPILES", "1")
    g = fgrad.jit(lambda x: x * 5.0)
    g(A([1.0]))
    g(A([1.0, 2.0]))
    cap = capsys.readouterr()
    assert cap.out == ""
    assert "[fgrad.jit] compiling <lambda>" in cap.err and "recompiling <lambda>" in cap.err
    assert "'x' changed float64[1] -> float64[2]" in cap.err


def test_tape_fallback_is_logged(caplog):
    """The reverse-mode tape logs (DEBUG, logger fgrad.tape) an operation whose backward
    program cannot be staged abstractly -- here a jvp rule that reads a concrete value --
    and still differentiates it, by linearizing it per call."""
    from fgrad.core.array import ShapedArray
    from fgrad.core.primitive import PRIMITIVES, Primitive

    p = Primitive("_test_concrete_jvp", lambda xp, x: x * 2,
                  lambda x: ShapedArray(x.shape, x.dtype), family="test")
    # d/dx is scaled by a Python float of the primal: needs concrete values
    p.jvp = lambda primals, tangents: (p.bind(primals[0]),
                                       tangents[0] * float(fnp.sum(primals[0])))
    try:
        caplog.set_level(logging.DEBUG, logger="fgrad.tape")
        g = fgrad.grad(lambda x: fnp.sum(p.bind(x)))(A([1.0, 2.0, 3.0]))
        np.testing.assert_allclose(np.asarray(g), [6.0, 6.0, 6.0])
        recs = [r.getMessage() for r in caplog.records if r.name == "fgrad.tape"]
        assert any("_test_concrete_jvp" in m and "linearizing it per call" in m for m in recs), recs
    finally:
        PRIMITIVES.pop("_test_concrete_jvp", None)


def test_jit_inside_control_flow_bodies():
    inner = fgrad.jit(lambda v: fnp.tanh(v) * 1.5)
    f = lambda x: lax.fori_loop(0, 3, lambda i, v: inner(v) + 0.1, x)
    x = _x()
    close(fgrad.jit(f)(x), f(x))
    close(fgrad.grad(lambda x: fnp.sum(fgrad.jit(f)(x)))(x), fgrad.grad(lambda x: fnp.sum(f(x)))(x))


# -------------------------------------------------------------------------------------
# jit vs eager over the op table


def _rows():
    out = []
    for row in T.ROWS:
        dts = list(row.dtypes + row.other_dtypes)
        if dts:
            out.append(pytest.param(row, dts[-1], id=f"{row.name}-{np.dtype(dts[-1]).name}"))
    return out


def _args(row, dtype, seed=0):
    rng = np.random.default_rng(seed)
    vals = row.sample_args(rng, row.get_example_shapes(), row.example_kwargs, dtype)
    return [fnp.asarray(v) for v in vals]


# rows whose eager result itself is being fixed elsewhere (the op table's own tests fail too)
KNOWN_EAGER_ISSUES: dict[str, str] = {}


@pytest.mark.parametrize("row,dtype", _rows())
def test_jit_matches_eager_over_op_table(row, dtype):
    if row.name in KNOWN_EAGER_ISSUES:
        pytest.skip(KNOWN_EAGER_ISSUES[row.name])
    kw = row.example_kwargs
    f = lambda *a: row.fn(*a, **kw)
    try:
        args = _args(row, dtype)
        want = f(*args)
    except Exception as e:  # noqa: BLE001 - the op table's own tests cover eager failures
        pytest.skip(f"eager: {type(e).__name__}")
    try:
        got = fgrad.jit(f)(*args)
    except fgrad.ConcretizationError:
        pytest.skip("needs concrete values (value-dependent output shape)")
    atol, rtol = row.forward_tol(dtype)
    close(got, want, rtol=max(rtol, 1e-13), atol=max(atol, 1e-13))
    if row.grad not in ("yes", "zero") or np.dtype(dtype).kind != "f" or not row.diff_argnums(dtype):
        return
    dn = row.diff_argnums(dtype)
    d = [args[i] for i in dn]
    nums = tuple(range(len(d)))

    def loss(*d):
        full = list(args)
        for i, v in zip(dn, d, strict=True):
            full[i] = v
        return sum(fnp.sum(fnp.real(o) * (k + 1.0)) for k, o in enumerate(fgrad.tree_leaves(f(*full))))

    if "rev" in row.modes:
        g_eager = fgrad.grad(loss, argnums=nums)(*d)
        close_derivatives(fgrad.jit(fgrad.grad(loss, argnums=nums))(*d), g_eager)
        close_derivatives(fgrad.grad(fgrad.jit(loss), argnums=nums)(*d), g_eager)
    if "fwd" in row.modes:
        t = tuple(fnp.ones_like(v) for v in d)
        want_t = fgrad.jvp(loss, tuple(d), t)
        close_derivatives(fgrad.jvp(fgrad.jit(loss), tuple(d), t), want_t)
        close_derivatives(fgrad.jit(lambda *a: fgrad.jvp(loss, a, t))(*d), want_t)


@pytest.mark.slow
def test_mlp_digits_example_learns():
    """examples/mlp_digits.py trains to a high test accuracy with one trace of its step."""
    pytest.importorskip("sklearn")
    import os
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "examples/mlp_digits.py"], cwd=root, env=env, capture_output=True,
                         text=True, timeout=300).stdout
    acc = float(re.search(r"final test accuracy: ([0-9.]+)", out).group(1))
    assert acc > 0.93, out
    assert "traced 1 time(s)" in out, out
