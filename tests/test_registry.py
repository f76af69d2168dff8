"""The primitive registry: every primitive carries all of its rules, and is tested.

Walks `fgrad.core.primitive.PRIMITIVES` after importing every fgrad module, and fails for
any primitive without a jvp rule, a batching rule, or (for primitives marked ``linear``) a
transpose rule; for a rule not declared through the helpers of `fgrad.core.rules`
(``defjvp``, ``deflinear`` ...: assigned as ``p.jvp = ...`` instead, or reassigned after);
for a ``linear`` flag that disagrees with the transpose rule; then checks that every
primitive is reached by at least one op-table row (forward, jvp, vjp or vmap of the row's
example) or is listed in `TESTED_ELSEWHERE`.
"""

from __future__ import annotations

import importlib
import pathlib
import pkgutil

import pytest

import fgrad
from fgrad.core.primitive import PRIMITIVES, Primitive
from fgrad.testing import op_table as T


def _import_all_modules() -> None:
    for m in pkgutil.walk_packages(fgrad.__path__, "fgrad."):
        if "cupy" in m.name:  # needs a GPU stack
            continue
        try:
            importlib.import_module(m.name)
        except ImportError:  # optional dependency (cupy, torch, ...) missing
            pass


_import_all_modules()

# (primitive, rule) -> why the rule is deliberately absent.
EXEMPT: dict = {}

# Primitives exercised by dedicated test files rather than op-table rows (the file must
# exist and mention the primitive).
TESTED_ELSEWHERE = {
    "custom_lin": "tests/test_transforms.py",   # custom_vjp under grad / vmap / nesting
    "custom_vmap_call": "tests/test_custom_gradient_vmap.py",  # custom_vmap: vmap/jit/nesting/jvp
    "linear_call": "tests/test_custom_gradient_vmap.py",  # jvp, transpose, vmap vs loop, jit
    # torch.log2/log10's primitives (jnp.log2/log10 compose log as JAX does): values, grad, vmap, jit
    **{n: "tests/test_jax_programs_round16.py" for n in ("log2", "log10")},
    # the fused LSTM/GRU recurrences and their derivative pairs: values, FD orders 1-2, vmap, jit
    **{f"{c}_sequence{s}": "tests/test_rnn_sequence.py"
       for c in ("lstm", "gru") for s in ("", "_jvp", "_vjp")},
    # custom rules staged by jit / make_jaxpr / loop bodies: derivatives, vmap, nesting
    **{n: "tests/test_custom_rules_under_jit.py" for n in (
        "custom_jvp_call", "custom_vjp_call", "custom_vjp_lin")},
    # collectives: values, JVP/transpose/vmap/jit on real processes (tests/mpi_programs/)
    **{n: "tests/mpi_programs/mpi_functional.py" for n in (
        "psum", "pvary", "pmax", "pmin", "all_gather", "psum_scatter", "ppermute", "broadcast",
        "barrier")},
    # shard_map's typed collectives (check_vma): values and derivatives against JAX
    **{f"{n}_named": "tests/test_shard_map.py" for n in ("pvary", "psum_invariant", "as_varying")},
    # mutable array references' effects under jit, grad and vmap, against JAX
    # emitted by jit's diagonal_dots pass: values, NaNs, derivatives and vmap vs a loop
    "diagonal_dot": "tests/test_diagonal_dot.py",
    # emitted by jit's scaled_scatters pass: NumPy's bits, fallbacks, JVP/VJP by finite
    # differences, vmap vs a loop, JAX's BCOO product
    "scaled_scatter": "tests/test_scaled_scatter.py",
    # bitcast_convert_type between widths: JAX's values, jit, vmap over the bytes' axis, errors
    "bitcast_resize": "tests/test_jax_programs_round12.py",
    # the cipher under every key function: known answers, vmap vs a loop, jit, broadcasting
    "threefry2x32": "tests/test_random.py",
    # complex gamma/loggamma: SciPy's values, JVP by central differences, vmap, jit
    "loggamma_complex": "tests/test_jax_suite_grids.py",
    "digamma_complex": "tests/test_jax_suite_grids.py",
    "ref_load": "tests/test_refs.py",
    "ref_store": "tests/test_refs.py",
    # collectives over named vmap/pmap axes: values and derivatives against JAX
    **{f"{n}_named": "tests/test_jax_api_pmap.py" for n in (
        "psum", "pmax", "pmin", "all_gather", "psum_scatter", "ppermute", "axis_index")},
    "name": "tests/test_jax_api_checkpoint.py",  # checkpoint_name: policies, derivatives
    "optimization_barrier": "tests/test_prevent_cse.py",  # identity: jit, grad of grad, vmap
    "debug_callback": "tests/test_jax_api_callbacks.py",  # effects: order, jit, vmap, grad
    "pure_callback": "tests/test_jax_api_callbacks.py",
    "check": "tests/test_checkify.py",  # checkify.check: eager, jit, vmap, grad, control flow vs JAX
    "io_callback": "tests/test_jax_api_round7_stages.py",  # effects: order, jit, vmap, JVP error
    # not differentiable (as in JAX): its op-table row runs forward and vmap, the recorder's
    # gradient pass cannot; values, vmap and the error in tests/test_scipy_more.py
    "schur": "tests/test_scipy_more.py",
    "psum_pmap": "tests/mpi_programs/pmap_cases.py",  # pmap over processes: values, derivatives vs JAX
    # torch.special's no-derivative functions: values against stored and live PyTorch and mpmath,
    # dtypes, the fake device, and the derivative's error
    **{n: "tests/shim/test_special_bessel_polynomials.py" for n in (
        "airy_ai", "bessel_y0", "bessel_y1", "modified_bessel_k0", "modified_bessel_k1",
        "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
        *[f"{pre}chebyshev_polynomial_{k}" for pre in ("", "shifted_") for k in "tuvw"],
        "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p")},
}

REPO = pathlib.Path(__file__).resolve().parent.parent


def _prims():
    return [pytest.param(n, id=n) for n in sorted(PRIMITIVES)]


def _is_throwaway(name: str) -> bool:
    # tests may register temporary primitives (e.g. test_errors); they clean up after themselves
    return name.startswith("_test_")


@pytest.mark.parametrize("name", _prims())
def test_primitive_has_rules(name):
    p = PRIMITIVES[name]
    assert isinstance(p, Primitive) and p.name == name
    assert callable(p.impl), f"primitive '{name}' has no impl"
    assert callable(p.abstract_eval), f"primitive '{name}' has no abstract_eval (shape/dtype rule)"
    missing = []
    for rule in ("jvp", "batch"):
        if getattr(p, rule) is None and (name, rule) not in EXEMPT:
            missing.append(rule)
    if p.linear and p.transpose is None and (name, "transpose") not in EXEMPT:
        missing.append("transpose (it is marked linear)")
    assert not missing, (
        f"primitive '{name}' (family {p.family}) is missing rule(s): {', '.join(missing)}. Declare "
        f"them next to the primitive with the helpers of fgrad.core.rules (defjvp, deflinear, "
        f"defbatch ...), written with fgrad ops."
    )
    for rule in ("jvp", "batch", "transpose"):
        r = getattr(p, rule)
        assert r is None or callable(r), f"primitive '{name}': {rule} rule is not callable"


def _undeclared_rules(p: Primitive) -> list[str]:
    """The rules of ``p`` not set through `fgrad.core.rules` (or replaced after)."""
    bad = []
    for rule in ("jvp", "batch", "transpose"):
        r = getattr(p, rule)
        if r is not None and p.declared.get(rule) is not r:
            bad.append(rule)
    return bad


def _linearity_problem(p: Primitive) -> str | None:
    """How ``p.linear`` disagrees with its transpose rule (None: they agree)."""
    kind = p.declared.get("kind")
    if p.linear and p.transpose is None:
        return "is marked linear but has no transpose rule"
    if p.linear != (kind == "linear"):
        return (f"has linear={p.linear} but its transpose was declared as {kind!r} "
                "(deflinear sets both; defbilinear / deflinear_in leave linear False)")
    if p.transpose is not None and kind not in ("linear", "bilinear", "partly linear"):
        return "has a transpose rule not declared by deflinear / defbilinear / deflinear_in"
    if kind is not None and p.transpose is None:
        return f"was declared {kind} but has no transpose rule"
    return None


@pytest.mark.parametrize("name", _prims())
def test_rules_are_declared(name):
    """Every rule comes from a helper of fgrad.core.rules, and linear agrees with transpose."""
    p = PRIMITIVES[name]
    if _is_throwaway(name):
        return
    bad = _undeclared_rules(p)
    assert not bad, (
        f"primitive '{name}': rule(s) {bad} were assigned directly (p.{bad[0]} = ...), not declared "
        f"with fgrad.core.rules (defjvp / defjvp2 / deflinear / defbilinear / defzero / defbatch ...)")
    problem = _linearity_problem(p)
    assert problem is None, f"primitive '{name}' {problem}"


def test_registry_checks_catch_drift():
    """The two checks above fail on the defects they guard against."""
    from fgrad.core.array import ShapedArray
    from fgrad.core.rules import defjvp, deflinear, defvectorized

    def impl(xp, x):
        return x

    def aval(a):
        return ShapedArray(a.shape, a.dtype)

    try:
        p = Primitive("_test_registry_drift", impl, aval)
        defjvp(p, lambda t, x: t)
        defvectorized(p)
        assert _undeclared_rules(p) == [] and _linearity_problem(p) is None
        p.jvp = lambda primals, tangents: (primals[0], tangents[0])  # assigned, not declared
        assert _undeclared_rules(p) == ["jvp"]
        p.linear = True  # a flag out of step with the (missing) transpose rule
        assert _linearity_problem(p) is not None
        q = Primitive("_test_registry_drift2", impl, aval)
        deflinear(q, lambda ct, x: (ct,))
        defvectorized(q)
        assert _linearity_problem(q) is None
        q.linear = False  # drifted from the transpose rule
        assert _linearity_problem(q) is not None
        q.linear = True
        q.transpose = lambda ct, x: (ct,)  # a transpose swapped in by hand
        assert _undeclared_rules(q) == ["transpose"]
    finally:
        PRIMITIVES.pop("_test_registry_drift", None)
        PRIMITIVES.pop("_test_registry_drift2", None)


def test_exemptions_are_current():
    for name, rule in EXEMPT:
        if name in PRIMITIVES:
            assert getattr(PRIMITIVES[name], rule) is None, f"{name}.{rule} exists now; drop the exemption"


@pytest.fixture(scope="module")
def primitives_reached_by_rows():
    reached: dict[str, str] = {}
    errors = {}
    for row in T.ROWS:
        if row.missing:
            continue
        try:
            names = T.row_primitives(row)
        except Exception as e:  # a broken row is reported by test_op_table; note it here too
            errors[row.name] = f"{type(e).__name__}: {e}"
            continue
        for n in names:
            reached.setdefault(n, row.name)
    return reached, errors


def test_every_primitive_is_tested(primitives_reached_by_rows):
    reached, errors = primitives_reached_by_rows
    untested = [n for n in sorted(PRIMITIVES)
                if n not in reached and not _tested_elsewhere(n) and not _is_throwaway(n)]
    assert not untested, (
        f"primitives not reached by any op-table row nor listed in TESTED_ELSEWHERE: {untested}. "
        f"Add a row to the family module in fgrad/testing/op_table/. (rows that failed to run: {errors})"
    )


def _tested_elsewhere(name: str) -> bool:
    path = TESTED_ELSEWHERE.get(name)
    if path is None or not (REPO / path).exists():
        return False
    return name in (REPO / path).read_text()


# --------------------------------------------------------------------------------------
# op specs (fgrad/ops/specs.py): every face a spec declares exists and points at it

import numpy as np  # noqa: E402

import fgrad.lax as lax  # noqa: E402
import fgrad.numpy as fnp  # noqa: E402
import fgrad.torch as ft  # noqa: E402
from fgrad.ops.specs import SPEC_LIST, SPECS, Domain, OpSpec, Row  # noqa: E402

# public fgrad.numpy functions that bind exactly one elementwise primitive yet are not that
# primitive's face: composites with a constant or a parameter (the reason is the entry)
NOT_WRAPPERS = {
    "square": "square_p (JAX's primitive) after the bool -> int32 promotion",
    "reciprocal": "integer_pow_p with y=-1 (JAX's) after the inexact promotion",
    "trim_zeros": "data-dependent slicing (a slice of the whole array binds nothing)",
    "deg2rad": "x * (pi / 180)",
    "radians": "x * (pi / 180)",
    "rad2deg": "x * (180 / pi)",
    "degrees": "x * (180 / pi)",
    "round": "round_p with its decimals parameter",
    "around": "round_p with its decimals parameter",
    "rint": "round_p with decimals=0",
    "astype": "convert_element_type with a dtype parameter",
    "where": "select, plus NumPy's one-argument form",
    "fabs": "abs of real input only, as a float (complex input is a TypeError)",
    "float_power": "pow after converting both operands to float64 (complex128)",
    "polyadd": "add after zero-padding the shorter coefficient array (1-D only)",
    "polysub": "sub after zero-padding the shorter coefficient array (1-D only)",
    "logspace": "pow of a linspace (JAX's formula), not an elementwise function of its operands",
}


def _unwrap(f):
    return getattr(f, "__wrapped__", f)


def _sample(spec: OpSpec, dtype=np.float64) -> list:
    """Inputs inside the spec's first op-table row's domain (1-D, 4 elements)."""
    row = spec.rows[0] if spec.rows else Row()
    nargs = 1 if spec.family == "unary" else 2
    doms = row.args or (Domain(),) * nargs
    out = []
    for i, d in enumerate(doms):
        lo, hi = d.lo + 0.1 * (d.hi - d.lo), d.hi - 0.1 * (d.hi - d.lo)
        v = np.linspace(lo, hi, 4) + 0.013 * (i + 1)
        if d.avoid == (0.0,) or d.avoid == (0,):
            v = np.where(np.abs(v) < 0.2, 0.7, v)
        out.append(v.astype(dtype))
    return out


def missing_faces(spec: OpSpec) -> list[str]:
    """What is missing or wrong among the faces ``spec`` declares (empty: all there)."""
    bad = []

    def check(owner, where, names):
        fns = []
        for n in names:
            f = getattr(owner, n, None)
            if f is None:
                bad.append(f"{where}.{n} does not exist")
            elif getattr(f, "op_spec", None) is not spec:
                got = getattr(f, "op_spec", None)
                bad.append(f"{where}.{n} does not point at the spec (op_spec = {got})")
            else:
                fns.append(_unwrap(f))
        if len({id(f) for f in fns}) > 1:
            bad.append(f"{where}: the aliases {names} are different functions")

    check(fnp, "fgrad.numpy", spec.numpy)
    if spec.lax:
        check(lax, "fgrad.lax", (spec.lax,))
    check(ft, "fgrad.torch", spec.torch)
    for n in spec.torch:
        if spec.method and not hasattr(ft.Tensor, n):
            bad.append(f"Tensor.{n} (method) does not exist")
        if spec.inplace and not hasattr(ft.Tensor, n + "_"):
            bad.append(f"Tensor.{n}_ (in-place twin) does not exist")
        generated_twin = spec.family == "unary" and spec.generates("inplace")
        if spec.inplace and generated_twin and not hasattr(ft, n + "_"):
            bad.append(f"fgrad.torch.{n}_ (in-place twin) does not exist")
    if spec.numpy and spec.family != "reduction":
        names = T.rows_by_name()
        for r in spec.rows:
            if (r.name or spec.numpy[0]) not in names:
                bad.append(f"op-table row {r.name or spec.numpy[0]!r} is missing")
        if not spec.rows:
            bad.append("no op-table rows (give the spec rows=(Row(...),))")
    if spec.torch and spec.grad_fn and spec.family != "reduction":
        try:
            args = [ft.tensor(a, requires_grad=True) for a in _sample(spec)]
            name = type(getattr(ft, spec.torch[0])(*args).grad_fn).__name__
        except Exception as e:  # noqa: BLE001 - reported
            name = f"{type(e).__name__}: {e}"
        if name != spec.grad_fn:
            bad.append(f"fgrad.torch.{spec.torch[0]} records {name}, the spec says {spec.grad_fn}")
    return bad


@pytest.mark.parametrize("spec", [pytest.param(s, id=s.name) for s in SPEC_LIST])
def test_spec_has_every_face(spec):
    bad = missing_faces(spec)
    assert not bad, f"op spec {spec.name!r} (fgrad/ops/specs.py): " + "; ".join(bad)


def test_missing_face_is_reported():
    """The face check fails for a spec whose faces do not exist (and for a wrong grad_fn)."""
    ghost = OpSpec("ghost", "unary", SPECS["sin"].prim, numpy=("ghost",), lax="ghost", torch=("ghost",),
                   grad_fn="GhostBackward0", rows=(Row(),))
    bad = " ".join(missing_faces(ghost))
    for face in ("fgrad.numpy.ghost", "fgrad.lax.ghost", "fgrad.torch.ghost", "Tensor.ghost ",
                 "Tensor.ghost_", "row 'ghost'"):
        assert face in bad, (face, bad)
    wrong = OpSpec("sin", "unary", SPECS["sin"].prim, torch=("sin",), grad_fn="CosBackward0")
    assert "records SinBackward0, the spec says CosBackward0" in " ".join(missing_faces(wrong))


def test_every_named_rule_exists():
    """A spec's ``numpy_rule``/``torch_rule`` names a definition of its face's conventions module,
    and the generated face is that definition (a misspelled name fails here, not at import)."""
    import fgrad.numpy._conventions as numpy_conventions
    import fgrad.torch._conventions as torch_conventions

    for spec in SPEC_LIST:
        if spec.numpy_rule:
            assert callable(getattr(numpy_conventions, spec.numpy_rule, None)), (spec.name, spec.numpy_rule)
            assert getattr(fnp, spec.numpy[0]).__doc__.startswith(f"Elementwise ``{spec.numpy[0]}``")
            assert getattr(fnp, spec.numpy[0]).op_spec is spec
        if spec.torch_rule:
            assert callable(getattr(torch_conventions, spec.torch_rule, None)), (spec.name, spec.torch_rule)
    assert {s.name for s in SPEC_LIST if s.numpy_rule} >= {"power", "floor_divide", "log2", "log10"}


def _binds(f, nargs):
    args = [fnp.asarray(np.linspace(0.2, 0.8, 4))] * nargs
    return T.record_primitives(f, *args)


def test_every_primitive_wrapper_has_a_spec():
    """A public fgrad.numpy function that binds exactly one elementwise primitive is that
    primitive's face: it must come from a spec (or be listed in NOT_WRAPPERS with why not)."""
    from fgrad.core.primitive import PRIMITIVES as P

    faces = {n for s in SPEC_LIST for n in s.numpy}
    unspecified = []
    for name, f in sorted(T.public_functions("numpy").items()):
        if name in faces or name in NOT_WRAPPERS:
            continue
        for nargs in (1, 2):
            try:
                prims = _binds(f, nargs)
            except Exception:  # noqa: BLE001 - another signature
                continue
            if len(prims) == 1 and P[next(iter(prims))].family == "elementwise":
                unspecified.append(f"{name} (binds {next(iter(prims))})")
            break
    assert not unspecified, (
        f"fgrad.numpy functions wrapping one elementwise primitive without an op spec: {unspecified}. "
        "Declare them in fgrad/ops/specs.py (the faces are then generated), or list them in NOT_WRAPPERS."
    )


def _torch_faces():
    return [pytest.param(s, id=s.name) for s in SPEC_LIST if s.family in ("unary", "binary") and s.torch
            and s.numpy and s.grad_fn not in (None, "", "NotImplemented")  # (PyTorch: no derivative)
            and s.torch_dtype not in ("nograd", "c")]


@pytest.mark.parametrize("spec", _torch_faces())
def test_torch_face_matches_numpy_face(spec):
    """The shim's function computes what the functional face does, value and gradient,
    on inputs from the spec's op-table domain; integer inputs follow the spec's dtype rule."""
    import fgrad

    xs = _sample(spec)
    ts = [ft.tensor(x, requires_grad=True) for x in xs]
    out = getattr(ft, spec.torch[0])(*ts)
    want = getattr(fnp, spec.numpy[0])(*[fnp.asarray(x) for x in xs])
    np.testing.assert_allclose(out.detach().numpy(), np.asarray(want), rtol=1e-12, atol=1e-12)
    ft.autograd.backward(out.sum())
    grads = fgrad.grad(lambda *a: fnp.sum(getattr(fnp, spec.numpy[0])(*a)), argnums=tuple(range(len(xs))))(
        *[fnp.asarray(x) for x in xs])
    for t, g in zip(ts, grads, strict=True):
        np.testing.assert_allclose(t.grad.numpy(), np.asarray(g), rtol=1e-10, atol=1e-12)
    if spec.family == "unary":
        r = getattr(ft, spec.torch[0])(ft.tensor([1, 2, 3]))
        assert (r.dtype == ft.get_default_dtype()) == (spec.torch_dtype == "float"), (spec.name, r.dtype)


def test_absolute_is_abs():
    """fgrad.torch.absolute was Python's builtin abs (no out=, no PyTorch argument errors)."""
    x = ft.tensor([-1.5, 0.0, 2.0], requires_grad=True)
    assert _unwrap(ft.absolute) is _unwrap(ft.abs)
    o = ft.empty(3)
    ft.absolute(x.detach(), out=o)
    assert o.tolist() == [1.5, 0.0, 2.0]
    ft.absolute(x).sum().backward()
    assert x.grad.tolist() == [-1.0, 0.0, 1.0]  # PyTorch: abs'(0) = 0


# PyTorch 2.13's torch.logaddexp2 on these float64 inputs: value, d/dx, d/dy of the sum
_LOGADDEXP2 = ([1.7715533031636121, 2.0443941193584534, 40.0, 1.5],
               [0.585786437626905, 0.030303030303030304, 1.0, 0.5],
               [0.4142135623730951, 0.9696969696969697, 8.271806125530277e-25, 0.5])


def test_logaddexp2_from_its_spec_matches_pytorch():
    """The worked example of DESIGN.md ("Adding an op"): the faces generated from one spec
    line agree with PyTorch (stored numbers; live when torch is installed) and NumPy."""
    xs, ys = [1.0, -3.0, 40.0, 0.5], [0.5, 2.0, -40.0, 0.5]
    x = ft.tensor(xs, dtype=ft.float64, requires_grad=True)
    y = ft.tensor(ys, dtype=ft.float64, requires_grad=True)
    z = ft.logaddexp2(x, y)
    assert z.grad_fn.name() == "Logaddexp2Backward0"
    z.sum().backward()
    got = (z.tolist(), x.grad.tolist(), y.grad.tolist())
    np.testing.assert_allclose(got, _LOGADDEXP2, rtol=1e-15, atol=1e-30)
    np.testing.assert_array_equal(fnp.logaddexp2(fnp.asarray(xs), fnp.asarray(ys)), np.logaddexp2(xs, ys))
    assert x.logaddexp2(y).tolist() == z.tolist()
    torch = pytest.importorskip("torch")
    tx = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
    ty = torch.tensor(ys, dtype=torch.float64, requires_grad=True)
    tz = torch.logaddexp2(tx, ty)
    tz.sum().backward()
    np.testing.assert_allclose(got, (tz.tolist(), tx.grad.tolist(), ty.grad.tolist()), rtol=1e-15, atol=1e-30)


def test_logaddexp2_shim_follows_pytorch_at_infinities():
    """The shim differentiates logaddexp2 with PyTorch's formula (spec ``torch_rule``): NaN at
    ``x == y == ±inf``; the functional face keeps JAX's convention (+inf replaced by 0)."""
    import fgrad

    inf = float("inf")
    xs, ys = [inf, inf, -inf, 1.0], [inf, 0.0, -inf, 1.0]
    x = ft.tensor(xs, dtype=ft.float64, requires_grad=True)
    y = ft.tensor(ys, dtype=ft.float64, requires_grad=True)
    ft.logaddexp2(x, y).sum().backward()
    want = ([np.nan, 1.0, np.nan, 0.5], [np.nan, 0.0, np.nan, 0.5])  # PyTorch 2.13
    np.testing.assert_array_equal((x.grad.tolist(), y.grad.tolist()), want)
    gx, gy = fgrad.grad(lambda a, b: fnp.sum(fnp.logaddexp2(a, b)), argnums=(0, 1))(
        fnp.asarray(xs), fnp.asarray(ys))
    np.testing.assert_array_equal((np.asarray(gx), np.asarray(gy)),
                                  ([1.0, 1.0, np.nan, 0.5], [1.0, 1.0, np.nan, 0.5]))  # as jnp.logaddexp
    torch = pytest.importorskip("torch")
    tx = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
    ty = torch.tensor(ys, dtype=torch.float64, requires_grad=True)
    torch.logaddexp2(tx, ty).sum().backward()
    np.testing.assert_array_equal((tx.grad.tolist(), ty.grad.tolist()), want)


def test_logaddexp2_functional_face_matches_jax():
    """fnp.logaddexp2's derivative at infinities is jnp.logaddexp2's (live when JAX is installed;
    the stored numbers are in the test above)."""
    import fgrad

    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    inf = float("inf")
    xs, ys = [inf, inf, -inf, 1.0, -3.0], [inf, 0.0, -inf, 1.0, 2.5]
    want = jax.grad(lambda a, b: jax.numpy.sum(jax.numpy.logaddexp2(a, b)), argnums=(0, 1))(
        jax.numpy.asarray(xs), jax.numpy.asarray(ys))
    got = fgrad.grad(lambda a, b: fnp.sum(fnp.logaddexp2(a, b)), argnums=(0, 1))(
        fnp.asarray(xs), fnp.asarray(ys))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-15)
