"""Parity sweep of the shim against PyTorch 2.13 at special points: every op of a grid
(unary math, ``nn.functional`` activations, binary ops, reductions) at 0, ±1, ±inf, 1e-300,
NaN, ties, ...; value AND gradient of ``out.sum()`` per input, in float64.

``TORCH`` (at the end of this file) holds the numbers recorded once from live torch 2.13
(CPU); the sweep runs without torch.  With torch installed, ``test_stored_numbers_match_live_torch``
re-checks the stored numbers against live torch.  The fgrad side runs with warnings as errors
(special values are silent, docs/shim-conventions.md).

Deliberate deviations are listed, with fgrad's numbers and the reason, in ``DEVIATIONS``
(each is also in docs/shim-conventions.md); ops the shim does not have yet are skipped while
missing (``getattr`` fails) and compared as soon as they exist.

Regenerate ``TORCH`` after changing the grid::

    python -c "import tests.shim.test_torch_special_points as m, torch; m.print_torch_table(torch)"
"""

# ruff: noqa: E501 - the stored table at the end is generated, one case a line
from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad.torch as ft


nan, inf = np.nan, np.inf
UNARY = ["sqrt", "rsqrt", "log", "log1p", "log2", "log10", "exp", "expm1", "sin", "asin", "acos", "atan",
         "asinh", "acosh", "atanh", "tanh", "sigmoid", "abs", "sign", "sgn", "floor", "ceil", "round", "trunc",
         "frac", "reciprocal", "erf", "erfc", "erfinv", "lgamma", "digamma", "sinc", "logit", "relu", "exp2",
         "square", "neg", "deg2rad", "nan_to_num", "i0", "special_entr"]
UNARY_POINTS = [[0.0], [1.0], [-1.0], [inf], [-inf], [1e-300]]
FUNCTIONAL = ["relu", "relu6", "elu", "selu", "celu", "gelu", "silu", "mish", "softplus", "softsign", "hardtanh",
              "hardsigmoid", "hardswish", "hardshrink", "softshrink", "tanhshrink", "logsigmoid", "leaky_relu",
              "sigmoid", "tanh"]
FUNCTIONAL_POINTS = [[0.0], [6.0], [-3.0], [3.0], [1.0], [-1.0], [0.5], [-0.5], [1e3], [-1e3]]
BINARY = ["atan2", "hypot", "pow", "maximum", "minimum", "fmax", "fmin", "remainder", "fmod", "copysign",
          "logaddexp", "logaddexp2", "xlogy", "div", "mul", "sub", "add", "ldexp", "float_power", "true_divide",
          "floor_divide"]
BINARY_POINTS = [([0.0], [0.0]), ([1.0], [1.0]), ([inf], [inf]), ([-inf], [-inf]), ([0.0], [1.0]),
                 ([-1.0], [0.5]), ([2.0], [-3.0]), ([0.0], [-1.0])]
REDUCTIONS = ["sum", "mean", "std", "var", "prod", "amax", "amin", "logsumexp", "norm", "median", "nansum",
              "nanmean", "max", "min"]
REDUCTION_POINTS = [[0.0, 0.0, 0.0], [1.0, 1.0, 2.0], [-inf, -inf], [nan, 1.0], [5.0]]


def _unary(lib, name):
    if name.startswith("special_"):
        return getattr(lib.special, name[len("special_"):])
    return getattr(lib, name)


def cases():
    """(case id, op name, f(lib, *tensors), inputs) for the whole grid."""
    out = []
    for n in UNARY:
        for p in UNARY_POINTS:
            out.append((f"{n}({p[0]!r})", n, lambda L, x, n=n: _unary(L, n)(x), (p,)))
    for n in FUNCTIONAL:
        for p in FUNCTIONAL_POINTS:
            out.append((f"F.{n}({p[0]!r})", "F." + n, lambda L, x, n=n: getattr(L.nn.functional, n)(x), (p,)))
    for n in BINARY:
        for p, q in BINARY_POINTS:
            out.append((f"{n}({p[0]!r}, {q[0]!r})", n, lambda L, x, y, n=n: getattr(L, n)(x, y), (p, q)))
    for n in REDUCTIONS:
        for arr in REDUCTION_POINTS:
            out.append((f"{n}({arr!r})", n,
                        lambda L, x, n=n: getattr(L, n)(x, 0) if n == "logsumexp" else getattr(L, n)(x), (arr,)))
    return out


def run(lib, f, inputs):
    """('ok', value, [grad per input]) or ('error', exception type name)."""
    xs = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in inputs]
    try:
        y = f(lib, *xs)
        y.sum().backward()
    except Exception as e:  # noqa: BLE001 - the error type is part of the expected result
        return ("error", type(e).__name__)
    grads = []
    for x in xs:
        g = x.grad
        if g is None:
            grads.append(None)
        else:
            grads.append(np.asarray(g.numpy(force=True) if hasattr(g, "resolve_conj") else g.numpy()).tolist())
    return ("ok", np.asarray(y.detach().numpy(), dtype=float).tolist(), grads)


# Deliberate deviations: case id -> (fgrad's result, reason).
DEVIATIONS = {
    # fgrad gives the exact derivative of xlogy(0, y) = 0 (for every y); PyTorch's rule is
    # x / y = 0 / 0 = NaN.  Kept so that kl_div has a finite target gradient at target 0.
    "xlogy(0.0, 0.0)": (("ok", [0.0], [[0.0], [0.0]]), "xlogy(0, y) = 0: exact derivative 0"),
    # sinc'(x) = -pi^2 x / 3 near 0: fgrad's derivatives come from the Maclaurin series there
    # (docs/edge-audit.md); PyTorch's (cos(pi x) pi x - sin(pi x)) / (pi x^2) cancels to 0
    "sinc(1e-300)": (("ok", [1.0], [[-3.289868133696452e-300]]), "sinc'(1e-300) = -pi^2/3 * 1e-300, not 0"),
}
# floor_divide is piecewise constant: fgrad gives its derivative (0) where PyTorch raises
# "derivative for aten::floor_divide is not implemented".
for _p, _q in BINARY_POINTS:
    DEVIATIONS[f"floor_divide({_p[0]!r}, {_q[0]!r})"] = (
        ("ok", None, [[0.0], [0.0]]), "floor_divide: zero derivative instead of PyTorch's RuntimeError")

CASES = cases()
OPS = sorted({op for _, op, _, _ in CASES})


def _same(got, want) -> bool:
    if got[0] != want[0]:
        return False
    if got[0] == "error":
        return got[1] == want[1]
    if want[1] is not None and not np.allclose(got[1], want[1], rtol=1e-7, atol=1e-300, equal_nan=True):
        return False
    for g, w in zip(got[2], want[2], strict=True):
        if (g is None) != (w is None):
            return False
        if g is not None and not np.allclose(g, w, rtol=1e-7, atol=1e-300, equal_nan=True):
            return False
    return True


def _missing(lib, op: str) -> bool:
    try:
        if op.startswith("F."):
            getattr(lib.nn.functional, op[2:])
        else:
            _unary(lib, op)
    except AttributeError:
        return True
    return False


@pytest.mark.parametrize("op", OPS)
def test_shim_matches_torch_at_special_points(op):
    if _missing(ft, op):
        pytest.skip(f"fgrad.torch has no {op} yet")
    bad = []
    for cid, name, f, inputs in CASES:
        if name != op:
            continue
        want = DEVIATIONS[cid][0] if cid in DEVIATIONS else TORCH[cid]
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no RuntimeWarning; PyTorch's own notices are allowed:
            warnings.filterwarnings("ignore", "std\\(\\)|var\\(\\)", UserWarning)  # dof <= 0
            got = run(ft, f, inputs)
        if not _same(got, want):
            bad.append(f"{cid}: fgrad {got}, expected {want}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("op", OPS)
def test_stored_numbers_match_live_torch(op):
    torch = pytest.importorskip("torch")
    bad = []
    for cid, name, f, inputs in CASES:
        if name != op:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = run(torch, f, inputs)
        if not _same(got, TORCH[cid]):
            bad.append(f"{cid}: torch {got}, stored {TORCH[cid]}")
    assert not bad, "\n".join(bad)


def test_deviations_still_differ_from_torch():
    """Every listed deviation is a real difference (remove it from DEVIATIONS once matched)."""
    for cid, (ours, _) in DEVIATIONS.items():
        assert not _same(ours, TORCH[cid]), cid


def print_torch_table(torch) -> None:
    """Print ``TORCH`` recomputed with live ``torch`` (to paste over the table below)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        print("TORCH = {")
        for cid, _, f, inputs in CASES:
            print(f"    {cid!r}: {run(torch, f, inputs)!r},")
        print("}")


# Recorded from torch 2.13.0 (CPU), float64.
TORCH = {
    'sqrt(0.0)': ('ok', [0.0], [[inf]]),
    'sqrt(1.0)': ('ok', [1.0], [[0.5]]),
    'sqrt(-1.0)': ('ok', [nan], [[nan]]),
    'sqrt(inf)': ('ok', [inf], [[0.0]]),
    'sqrt(-inf)': ('ok', [nan], [[nan]]),
    'sqrt(1e-300)': ('ok', [1e-150], [[5e+149]]),
    'rsqrt(0.0)': ('ok', [inf], [[-inf]]),
    'rsqrt(1.0)': ('ok', [1.0], [[-0.5]]),
    'rsqrt(-1.0)': ('ok', [nan], [[nan]]),
    'rsqrt(inf)': ('ok', [0.0], [[-0.0]]),
    'rsqrt(-inf)': ('ok', [nan], [[nan]]),
    'rsqrt(1e-300)': ('ok', [1e+150], [[-inf]]),
    'log(0.0)': ('ok', [-inf], [[inf]]),
    'log(1.0)': ('ok', [0.0], [[1.0]]),
    'log(-1.0)': ('ok', [nan], [[-1.0]]),
    'log(inf)': ('ok', [inf], [[0.0]]),
    'log(-inf)': ('ok', [nan], [[-0.0]]),
    'log(1e-300)': ('ok', [-690.7755278982137], [[9.999999999999999e+299]]),
    'log1p(0.0)': ('ok', [0.0], [[1.0]]),
    'log1p(1.0)': ('ok', [0.6931471805599453], [[0.5]]),
    'log1p(-1.0)': ('ok', [-inf], [[inf]]),
    'log1p(inf)': ('ok', [inf], [[0.0]]),
    'log1p(-inf)': ('ok', [nan], [[-0.0]]),
    'log1p(1e-300)': ('ok', [1e-300], [[1.0]]),
    'log2(0.0)': ('ok', [-inf], [[inf]]),
    'log2(1.0)': ('ok', [0.0], [[1.4426950408889634]]),
    'log2(-1.0)': ('ok', [nan], [[-1.4426950408889634]]),
    'log2(inf)': ('ok', [inf], [[0.0]]),
    'log2(-inf)': ('ok', [nan], [[-0.0]]),
    'log2(1e-300)': ('ok', [-996.5784284662087], [[1.4426950408889635e+300]]),
    'log10(0.0)': ('ok', [-inf], [[inf]]),
    'log10(1.0)': ('ok', [0.0], [[0.43429448190325187]]),
    'log10(-1.0)': ('ok', [nan], [[-0.43429448190325187]]),
    'log10(inf)': ('ok', [inf], [[0.0]]),
    'log10(-inf)': ('ok', [nan], [[-0.0]]),
    'log10(1e-300)': ('ok', [-300.0], [[4.342944819032518e+299]]),
    'exp(0.0)': ('ok', [1.0], [[1.0]]),
    'exp(1.0)': ('ok', [2.718281828459045], [[2.718281828459045]]),
    'exp(-1.0)': ('ok', [0.36787944117144233], [[0.36787944117144233]]),
    'exp(inf)': ('ok', [inf], [[inf]]),
    'exp(-inf)': ('ok', [0.0], [[0.0]]),
    'exp(1e-300)': ('ok', [1.0], [[1.0]]),
    'expm1(0.0)': ('ok', [0.0], [[1.0]]),
    'expm1(1.0)': ('ok', [1.7182818284590453], [[2.7182818284590455]]),
    'expm1(-1.0)': ('ok', [-0.6321205588285577], [[0.36787944117144233]]),
    'expm1(inf)': ('ok', [inf], [[inf]]),
    'expm1(-inf)': ('ok', [-1.0], [[0.0]]),
    'expm1(1e-300)': ('ok', [1e-300], [[1.0]]),
    'sin(0.0)': ('ok', [0.0], [[1.0]]),
    'sin(1.0)': ('ok', [0.8414709848078965], [[0.5403023058681398]]),
    'sin(-1.0)': ('ok', [-0.8414709848078965], [[0.5403023058681398]]),
    'sin(inf)': ('ok', [nan], [[nan]]),
    'sin(-inf)': ('ok', [nan], [[nan]]),
    'sin(1e-300)': ('ok', [1e-300], [[1.0]]),
    'asin(0.0)': ('ok', [0.0], [[1.0]]),
    'asin(1.0)': ('ok', [1.5707963267948966], [[inf]]),
    'asin(-1.0)': ('ok', [-1.5707963267948966], [[inf]]),
    'asin(inf)': ('ok', [nan], [[nan]]),
    'asin(-inf)': ('ok', [nan], [[nan]]),
    'asin(1e-300)': ('ok', [1e-300], [[1.0]]),
    'acos(0.0)': ('ok', [1.5707963267948966], [[-1.0]]),
    'acos(1.0)': ('ok', [0.0], [[-inf]]),
    'acos(-1.0)': ('ok', [3.141592653589793], [[-inf]]),
    'acos(inf)': ('ok', [nan], [[nan]]),
    'acos(-inf)': ('ok', [nan], [[nan]]),
    'acos(1e-300)': ('ok', [1.5707963267948966], [[-1.0]]),
    'atan(0.0)': ('ok', [0.0], [[1.0]]),
    'atan(1.0)': ('ok', [0.7853981633974483], [[0.5]]),
    'atan(-1.0)': ('ok', [-0.7853981633974483], [[0.5]]),
    'atan(inf)': ('ok', [1.5707963267948966], [[0.0]]),
    'atan(-inf)': ('ok', [-1.5707963267948966], [[0.0]]),
    'atan(1e-300)': ('ok', [1e-300], [[1.0]]),
    'asinh(0.0)': ('ok', [0.0], [[1.0]]),
    'asinh(1.0)': ('ok', [0.881373587019543], [[0.7071067811865475]]),
    'asinh(-1.0)': ('ok', [-0.881373587019543], [[0.7071067811865475]]),
    'asinh(inf)': ('ok', [inf], [[0.0]]),
    'asinh(-inf)': ('ok', [-inf], [[0.0]]),
    'asinh(1e-300)': ('ok', [1e-300], [[1.0]]),
    'acosh(0.0)': ('ok', [nan], [[nan]]),
    'acosh(1.0)': ('ok', [0.0], [[inf]]),
    'acosh(-1.0)': ('ok', [nan], [[inf]]),
    'acosh(inf)': ('ok', [inf], [[0.0]]),
    'acosh(-inf)': ('ok', [nan], [[0.0]]),
    'acosh(1e-300)': ('ok', [nan], [[nan]]),
    'atanh(0.0)': ('ok', [0.0], [[1.0]]),
    'atanh(1.0)': ('ok', [inf], [[inf]]),
    'atanh(-1.0)': ('ok', [-inf], [[inf]]),
    'atanh(inf)': ('ok', [nan], [[-0.0]]),
    'atanh(-inf)': ('ok', [nan], [[-0.0]]),
    'atanh(1e-300)': ('ok', [1e-300], [[1.0]]),
    'tanh(0.0)': ('ok', [0.0], [[1.0]]),
    'tanh(1.0)': ('ok', [0.7615941559557649], [[0.41997434161402614]]),
    'tanh(-1.0)': ('ok', [-0.7615941559557649], [[0.41997434161402614]]),
    'tanh(inf)': ('ok', [1.0], [[0.0]]),
    'tanh(-inf)': ('ok', [-1.0], [[0.0]]),
    'tanh(1e-300)': ('ok', [1e-300], [[1.0]]),
    'sigmoid(0.0)': ('ok', [0.5], [[0.25]]),
    'sigmoid(1.0)': ('ok', [0.7310585786300049], [[0.19661193324148185]]),
    'sigmoid(-1.0)': ('ok', [0.2689414213699951], [[0.19661193324148185]]),
    'sigmoid(inf)': ('ok', [1.0], [[0.0]]),
    'sigmoid(-inf)': ('ok', [0.0], [[0.0]]),
    'sigmoid(1e-300)': ('ok', [0.5], [[0.25]]),
    'abs(0.0)': ('ok', [0.0], [[0.0]]),
    'abs(1.0)': ('ok', [1.0], [[1.0]]),
    'abs(-1.0)': ('ok', [1.0], [[-1.0]]),
    'abs(inf)': ('ok', [inf], [[1.0]]),
    'abs(-inf)': ('ok', [inf], [[-1.0]]),
    'abs(1e-300)': ('ok', [1e-300], [[1.0]]),
    'sign(0.0)': ('ok', [0.0], [[0.0]]),
    'sign(1.0)': ('ok', [1.0], [[0.0]]),
    'sign(-1.0)': ('ok', [-1.0], [[0.0]]),
    'sign(inf)': ('ok', [1.0], [[0.0]]),
    'sign(-inf)': ('ok', [-1.0], [[0.0]]),
    'sign(1e-300)': ('ok', [1.0], [[0.0]]),
    'sgn(0.0)': ('ok', [0.0], [[0.0]]),
    'sgn(1.0)': ('ok', [1.0], [[0.0]]),
    'sgn(-1.0)': ('ok', [-1.0], [[0.0]]),
    'sgn(inf)': ('ok', [1.0], [[0.0]]),
    'sgn(-inf)': ('ok', [-1.0], [[0.0]]),
    'sgn(1e-300)': ('ok', [1.0], [[0.0]]),
    'floor(0.0)': ('ok', [0.0], [[0.0]]),
    'floor(1.0)': ('ok', [1.0], [[0.0]]),
    'floor(-1.0)': ('ok', [-1.0], [[0.0]]),
    'floor(inf)': ('ok', [inf], [[0.0]]),
    'floor(-inf)': ('ok', [-inf], [[0.0]]),
    'floor(1e-300)': ('ok', [0.0], [[0.0]]),
    'ceil(0.0)': ('ok', [0.0], [[0.0]]),
    'ceil(1.0)': ('ok', [1.0], [[0.0]]),
    'ceil(-1.0)': ('ok', [-1.0], [[0.0]]),
    'ceil(inf)': ('ok', [inf], [[0.0]]),
    'ceil(-inf)': ('ok', [-inf], [[0.0]]),
    'ceil(1e-300)': ('ok', [1.0], [[0.0]]),
    'round(0.0)': ('ok', [0.0], [[0.0]]),
    'round(1.0)': ('ok', [1.0], [[0.0]]),
    'round(-1.0)': ('ok', [-1.0], [[0.0]]),
    'round(inf)': ('ok', [inf], [[0.0]]),
    'round(-inf)': ('ok', [-inf], [[0.0]]),
    'round(1e-300)': ('ok', [0.0], [[0.0]]),
    'trunc(0.0)': ('ok', [0.0], [[0.0]]),
    'trunc(1.0)': ('ok', [1.0], [[0.0]]),
    'trunc(-1.0)': ('ok', [-1.0], [[0.0]]),
    'trunc(inf)': ('ok', [inf], [[0.0]]),
    'trunc(-inf)': ('ok', [-inf], [[0.0]]),
    'trunc(1e-300)': ('ok', [0.0], [[0.0]]),
    'frac(0.0)': ('ok', [0.0], [[1.0]]),
    'frac(1.0)': ('ok', [0.0], [[1.0]]),
    'frac(-1.0)': ('ok', [0.0], [[1.0]]),
    'frac(inf)': ('ok', [nan], [[1.0]]),
    'frac(-inf)': ('ok', [nan], [[1.0]]),
    'frac(1e-300)': ('ok', [1e-300], [[1.0]]),
    'reciprocal(0.0)': ('ok', [inf], [[-inf]]),
    'reciprocal(1.0)': ('ok', [1.0], [[-1.0]]),
    'reciprocal(-1.0)': ('ok', [-1.0], [[-1.0]]),
    'reciprocal(inf)': ('ok', [0.0], [[-0.0]]),
    'reciprocal(-inf)': ('ok', [-0.0], [[-0.0]]),
    'reciprocal(1e-300)': ('ok', [9.999999999999999e+299], [[-inf]]),
    'erf(0.0)': ('ok', [0.0], [[1.1283791670955126]]),
    'erf(1.0)': ('ok', [0.8427007929497149], [[0.4151074974205947]]),
    'erf(-1.0)': ('ok', [-0.8427007929497149], [[0.4151074974205947]]),
    'erf(inf)': ('ok', [1.0], [[0.0]]),
    'erf(-inf)': ('ok', [-1.0], [[0.0]]),
    'erf(1e-300)': ('ok', [1.1283791670955126e-300], [[1.1283791670955126]]),
    'erfc(0.0)': ('ok', [1.0], [[-1.1283791670955126]]),
    'erfc(1.0)': ('ok', [0.15729920705028513], [[-0.4151074974205947]]),
    'erfc(-1.0)': ('ok', [1.8427007929497148], [[-0.4151074974205947]]),
    'erfc(inf)': ('ok', [0.0], [[-0.0]]),
    'erfc(-inf)': ('ok', [2.0], [[-0.0]]),
    'erfc(1e-300)': ('ok', [1.0], [[-1.1283791670955126]]),
    'erfinv(0.0)': ('ok', [0.0], [[0.8862269254527579]]),
    'erfinv(1.0)': ('ok', [inf], [[inf]]),
    'erfinv(-1.0)': ('ok', [-inf], [[inf]]),
    'erfinv(inf)': ('ok', [nan], [[nan]]),
    'erfinv(-inf)': ('ok', [nan], [[nan]]),
    'erfinv(1e-300)': ('ok', [8.86226925452758e-301], [[0.8862269254527579]]),
    'lgamma(0.0)': ('ok', [inf], [[-inf]]),
    'lgamma(1.0)': ('ok', [0.0], [[-0.5772156649015328]]),
    'lgamma(-1.0)': ('ok', [inf], [[nan]]),
    'lgamma(inf)': ('ok', [inf], [[inf]]),
    'lgamma(-inf)': ('ok', [inf], [[nan]]),
    'lgamma(1e-300)': ('ok', [690.7755278982137], [[-9.999999999999999e+299]]),
    'digamma(0.0)': ('ok', [-inf], [[inf]]),
    'digamma(1.0)': ('ok', [-0.5772156649015328], [[1.6449340676383375]]),
    'digamma(-1.0)': ('ok', [nan], [[6.580790147320947e+32]]),
    'digamma(inf)': ('ok', [inf], [[0.0]]),
    'digamma(-inf)': ('ok', [nan], [[nan]]),
    'digamma(1e-300)': ('ok', [-9.999999999999999e+299], [[inf]]),
    'sinc(0.0)': ('ok', [1.0], [[0.0]]),
    'sinc(1.0)': ('ok', [3.8981718325193755e-17], [[-1.0]]),
    'sinc(-1.0)': ('ok', [3.8981718325193755e-17], [[1.0]]),
    'sinc(inf)': ('ok', [nan], [[nan]]),
    'sinc(-inf)': ('ok', [nan], [[nan]]),
    'sinc(1e-300)': ('ok', [1.0], [[0.0]]),
    'logit(0.0)': ('ok', [-inf], [[inf]]),
    'logit(1.0)': ('ok', [inf], [[inf]]),
    'logit(-1.0)': ('ok', [nan], [[nan]]),
    'logit(inf)': ('ok', [nan], [[nan]]),
    'logit(-inf)': ('ok', [nan], [[nan]]),
    'logit(1e-300)': ('ok', [-690.7755278982137], [[9.999999999999999e+299]]),
    'relu(0.0)': ('ok', [0.0], [[0.0]]),
    'relu(1.0)': ('ok', [1.0], [[1.0]]),
    'relu(-1.0)': ('ok', [0.0], [[0.0]]),
    'relu(inf)': ('ok', [inf], [[1.0]]),
    'relu(-inf)': ('ok', [0.0], [[0.0]]),
    'relu(1e-300)': ('ok', [1e-300], [[1.0]]),
    'exp2(0.0)': ('ok', [1.0], [[0.6931471805599453]]),
    'exp2(1.0)': ('ok', [2.0], [[1.3862943611198906]]),
    'exp2(-1.0)': ('ok', [0.5], [[0.34657359027997264]]),
    'exp2(inf)': ('ok', [inf], [[inf]]),
    'exp2(-inf)': ('ok', [0.0], [[0.0]]),
    'exp2(1e-300)': ('ok', [1.0], [[0.6931471805599453]]),
    'square(0.0)': ('ok', [0.0], [[0.0]]),
    'square(1.0)': ('ok', [1.0], [[2.0]]),
    'square(-1.0)': ('ok', [1.0], [[-2.0]]),
    'square(inf)': ('ok', [inf], [[inf]]),
    'square(-inf)': ('ok', [inf], [[-inf]]),
    'square(1e-300)': ('ok', [0.0], [[2e-300]]),
    'neg(0.0)': ('ok', [-0.0], [[-1.0]]),
    'neg(1.0)': ('ok', [-1.0], [[-1.0]]),
    'neg(-1.0)': ('ok', [1.0], [[-1.0]]),
    'neg(inf)': ('ok', [-inf], [[-1.0]]),
    'neg(-inf)': ('ok', [inf], [[-1.0]]),
    'neg(1e-300)': ('ok', [-1e-300], [[-1.0]]),
    'deg2rad(0.0)': ('ok', [0.0], [[0.017453292519943295]]),
    'deg2rad(1.0)': ('ok', [0.017453292519943295], [[0.017453292519943295]]),
    'deg2rad(-1.0)': ('ok', [-0.017453292519943295], [[0.017453292519943295]]),
    'deg2rad(inf)': ('ok', [inf], [[0.017453292519943295]]),
    'deg2rad(-inf)': ('ok', [-inf], [[0.017453292519943295]]),
    'deg2rad(1e-300)': ('ok', [1.7453292519943295e-302], [[0.017453292519943295]]),
    'nan_to_num(0.0)': ('ok', [0.0], [[1.0]]),
    'nan_to_num(1.0)': ('ok', [1.0], [[1.0]]),
    'nan_to_num(-1.0)': ('ok', [-1.0], [[1.0]]),
    'nan_to_num(inf)': ('ok', [1.7976931348623157e+308], [[0.0]]),
    'nan_to_num(-inf)': ('ok', [-1.7976931348623157e+308], [[0.0]]),
    'nan_to_num(1e-300)': ('ok', [1e-300], [[1.0]]),
    'i0(0.0)': ('ok', [1.0], [[0.0]]),
    'i0(1.0)': ('ok', [1.2660658777520082], [[0.5651591039924851]]),
    'i0(-1.0)': ('ok', [1.2660658777520082], [[-0.5651591039924851]]),
    'i0(inf)': ('ok', [nan], [[nan]]),
    'i0(-inf)': ('ok', [nan], [[nan]]),
    'i0(1e-300)': ('ok', [1.0], [[5.000000000000001e-301]]),
    'special_entr(0.0)': ('ok', [0.0], [[inf]]),
    'special_entr(1.0)': ('ok', [-0.0], [[-1.0]]),
    'special_entr(-1.0)': ('ok', [-inf], [[nan]]),
    'special_entr(inf)': ('ok', [-inf], [[-inf]]),
    'special_entr(-inf)': ('ok', [-inf], [[nan]]),
    'special_entr(1e-300)': ('ok', [6.907755278982137e-298], [[689.7755278982137]]),
    'F.relu(0.0)': ('ok', [0.0], [[0.0]]),
    'F.relu(6.0)': ('ok', [6.0], [[1.0]]),
    'F.relu(-3.0)': ('ok', [0.0], [[0.0]]),
    'F.relu(3.0)': ('ok', [3.0], [[1.0]]),
    'F.relu(1.0)': ('ok', [1.0], [[1.0]]),
    'F.relu(-1.0)': ('ok', [0.0], [[0.0]]),
    'F.relu(0.5)': ('ok', [0.5], [[1.0]]),
    'F.relu(-0.5)': ('ok', [0.0], [[0.0]]),
    'F.relu(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.relu(-1000.0)': ('ok', [0.0], [[0.0]]),
    'F.relu6(0.0)': ('ok', [0.0], [[0.0]]),
    'F.relu6(6.0)': ('ok', [6.0], [[0.0]]),
    'F.relu6(-3.0)': ('ok', [0.0], [[0.0]]),
    'F.relu6(3.0)': ('ok', [3.0], [[1.0]]),
    'F.relu6(1.0)': ('ok', [1.0], [[1.0]]),
    'F.relu6(-1.0)': ('ok', [0.0], [[0.0]]),
    'F.relu6(0.5)': ('ok', [0.5], [[1.0]]),
    'F.relu6(-0.5)': ('ok', [0.0], [[0.0]]),
    'F.relu6(1000.0)': ('ok', [6.0], [[0.0]]),
    'F.relu6(-1000.0)': ('ok', [0.0], [[0.0]]),
    'F.elu(0.0)': ('ok', [0.0], [[1.0]]),
    'F.elu(6.0)': ('ok', [6.0], [[1.0]]),
    'F.elu(-3.0)': ('ok', [-0.950212931632136], [[0.049787068367863944]]),
    'F.elu(3.0)': ('ok', [3.0], [[1.0]]),
    'F.elu(1.0)': ('ok', [1.0], [[1.0]]),
    'F.elu(-1.0)': ('ok', [-0.6321205588285577], [[0.36787944117144233]]),
    'F.elu(0.5)': ('ok', [0.5], [[1.0]]),
    'F.elu(-0.5)': ('ok', [-0.3934693402873666], [[0.6065306597126334]]),
    'F.elu(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.elu(-1000.0)': ('ok', [-1.0], [[0.0]]),
    'F.selu(0.0)': ('ok', [0.0], [[1.7580993408473766]]),
    'F.selu(6.0)': ('ok', [6.304205924132883], [[1.0507009873554805]]),
    'F.selu(-3.0)': ('ok', [-1.6705687287671118], [[0.08753061208026487]]),
    'F.selu(3.0)': ('ok', [3.1521029620664414], [[1.0507009873554805]]),
    'F.selu(1.0)': ('ok', [1.0507009873554805], [[1.0507009873554805]]),
    'F.selu(-1.0)': ('ok', [-1.1113307378125625], [[0.646768603034814]]),
    'F.selu(0.5)': ('ok', [0.5253504936777402], [[1.0507009873554805]]),
    'F.selu(-0.5)': ('ok', [-0.6917581878028713], [[1.0663411530445053]]),
    'F.selu(1000.0)': ('ok', [1050.7009873554805], [[1.0507009873554805]]),
    'F.selu(-1000.0)': ('ok', [-1.7580993408473766], [[0.0]]),
    'F.celu(0.0)': ('ok', [0.0], [[1.0]]),
    'F.celu(6.0)': ('ok', [6.0], [[1.0]]),
    'F.celu(-3.0)': ('ok', [-0.950212931632136], [[0.049787068367863944]]),
    'F.celu(3.0)': ('ok', [3.0], [[1.0]]),
    'F.celu(1.0)': ('ok', [1.0], [[1.0]]),
    'F.celu(-1.0)': ('ok', [-0.6321205588285577], [[0.36787944117144233]]),
    'F.celu(0.5)': ('ok', [0.5], [[1.0]]),
    'F.celu(-0.5)': ('ok', [-0.3934693402873666], [[0.6065306597126334]]),
    'F.celu(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.celu(-1000.0)': ('ok', [-1.0], [[0.0]]),
    'F.gelu(0.0)': ('ok', [0.0], [[0.5]]),
    'F.gelu(6.0)': ('ok', [5.999999994080474], [[1.0000000354687093]]),
    'F.gelu(-3.0)': ('ok', [-0.00404969409489031], [[-0.01194564720418392]]),
    'F.gelu(3.0)': ('ok', [2.99595030590511], [[1.011945647204184]]),
    'F.gelu(1.0)': ('ok', [0.841344746068543], [[1.0833154705876864]]),
    'F.gelu(-1.0)': ('ok', [-0.15865525393145702], [[-0.08331547058768635]]),
    'F.gelu(0.5)': ('ok', [0.34573123063700656], [[0.8674951246561629]]),
    'F.gelu(-0.5)': ('ok', [-0.15426876936299344], [[0.13250487534383712]]),
    'F.gelu(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.gelu(-1000.0)': ('ok', [-0.0], [[0.0]]),
    'F.silu(0.0)': ('ok', [0.0], [[0.5]]),
    'F.silu(6.0)': ('ok', [5.985164261060192], [[1.0123264325915249]]),
    'F.silu(-3.0)': ('ok', [-0.14227761953270035], [[-0.08810410601516962]]),
    'F.silu(3.0)': ('ok', [2.8577223804672998], [[1.0881041060151693]]),
    'F.silu(1.0)': ('ok', [0.7310585786300049], [[0.9276705118714869]]),
    'F.silu(-1.0)': ('ok', [-0.2689414213699951], [[0.07232948812851325]]),
    'F.silu(0.5)': ('ok', [0.3112296656009273], [[0.7399611873026519]]),
    'F.silu(-0.5)': ('ok', [-0.1887703343990727], [[0.2600388126973482]]),
    'F.silu(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.silu(-1000.0)': ('ok', [-0.0], [[-0.0]]),
    'F.mish(0.0)': ('ok', [0.0], [[0.6]]),
    'F.mish(6.0)': ('ok', [5.999926634065252], [[1.00013414050621]]),
    'F.mish(-3.0)': ('ok', [-0.1456474612756246], [[-0.09339311453232084]]),
    'F.mish(3.0)': ('ok', [2.9865350049679575], [[1.0211069109294435]]),
    'F.mish(1.0)': ('ok', [0.8650983882673103], [[1.0490362200997922]]),
    'F.mish(-1.0)': ('ok', [-0.30340146137410895], [[0.059216755877395014]]),
    'F.mish(0.5)': ('ok', [0.3752452113048951], [[0.8864243753577272]]),
    'F.mish(-0.5)': ('ok', [-0.22074377465173], [[0.28951067791351226]]),
    'F.mish(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.mish(-1000.0)': ('ok', [-0.0], [[0.0]]),
    'F.softplus(0.0)': ('ok', [0.6931471805599453], [[0.5]]),
    'F.softplus(6.0)': ('ok', [6.00247568513773], [[0.9975273768433652]]),
    'F.softplus(-3.0)': ('ok', [0.04858735157374206], [[0.04742587317756679]]),
    'F.softplus(3.0)': ('ok', [3.048587351573742], [[0.9525741268224333]]),
    'F.softplus(1.0)': ('ok', [1.3132616875182228], [[0.7310585786300049]]),
    'F.softplus(-1.0)': ('ok', [0.31326168751822286], [[0.2689414213699951]]),
    'F.softplus(0.5)': ('ok', [0.9740769841801067], [[0.6224593312018546]]),
    'F.softplus(-0.5)': ('ok', [0.4740769841801067], [[0.37754066879814546]]),
    'F.softplus(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.softplus(-1000.0)': ('ok', [0.0], [[0.0]]),
    'F.softsign(0.0)': ('ok', [0.0], [[1.0]]),
    'F.softsign(6.0)': ('ok', [0.8571428571428571], [[0.020408163265306117]]),
    'F.softsign(-3.0)': ('ok', [-0.75], [[0.0625]]),
    'F.softsign(3.0)': ('ok', [0.75], [[0.0625]]),
    'F.softsign(1.0)': ('ok', [0.5], [[0.25]]),
    'F.softsign(-1.0)': ('ok', [-0.5], [[0.25]]),
    'F.softsign(0.5)': ('ok', [0.3333333333333333], [[0.4444444444444444]]),
    'F.softsign(-0.5)': ('ok', [-0.3333333333333333], [[0.4444444444444444]]),
    'F.softsign(1000.0)': ('ok', [0.999000999000999], [[9.98002996005021e-07]]),
    'F.softsign(-1000.0)': ('ok', [-0.999000999000999], [[9.98002996005021e-07]]),
    'F.hardtanh(0.0)': ('ok', [0.0], [[1.0]]),
    'F.hardtanh(6.0)': ('ok', [1.0], [[0.0]]),
    'F.hardtanh(-3.0)': ('ok', [-1.0], [[0.0]]),
    'F.hardtanh(3.0)': ('ok', [1.0], [[0.0]]),
    'F.hardtanh(1.0)': ('ok', [1.0], [[0.0]]),
    'F.hardtanh(-1.0)': ('ok', [-1.0], [[0.0]]),
    'F.hardtanh(0.5)': ('ok', [0.5], [[1.0]]),
    'F.hardtanh(-0.5)': ('ok', [-0.5], [[1.0]]),
    'F.hardtanh(1000.0)': ('ok', [1.0], [[0.0]]),
    'F.hardtanh(-1000.0)': ('ok', [-1.0], [[0.0]]),
    'F.hardsigmoid(0.0)': ('ok', [0.5], [[0.1666666716337204]]),
    'F.hardsigmoid(6.0)': ('ok', [1.0], [[0.0]]),
    'F.hardsigmoid(-3.0)': ('ok', [0.0], [[0.0]]),
    'F.hardsigmoid(3.0)': ('ok', [1.0], [[0.0]]),
    'F.hardsigmoid(1.0)': ('ok', [0.6666666666666666], [[0.1666666716337204]]),
    'F.hardsigmoid(-1.0)': ('ok', [0.3333333333333333], [[0.1666666716337204]]),
    'F.hardsigmoid(0.5)': ('ok', [0.5833333333333334], [[0.1666666716337204]]),
    'F.hardsigmoid(-0.5)': ('ok', [0.4166666666666667], [[0.1666666716337204]]),
    'F.hardsigmoid(1000.0)': ('ok', [1.0], [[0.0]]),
    'F.hardsigmoid(-1000.0)': ('ok', [0.0], [[0.0]]),
    'F.hardswish(0.0)': ('ok', [0.0], [[0.5]]),
    'F.hardswish(6.0)': ('ok', [6.0], [[1.0]]),
    'F.hardswish(-3.0)': ('ok', [-0.0], [[0.0]]),
    'F.hardswish(3.0)': ('ok', [3.0], [[1.0]]),
    'F.hardswish(1.0)': ('ok', [0.6666666666666666], [[0.8333333333333333]]),
    'F.hardswish(-1.0)': ('ok', [-0.3333333333333333], [[0.16666666666666669]]),
    'F.hardswish(0.5)': ('ok', [0.2916666666666667], [[0.6666666666666666]]),
    'F.hardswish(-0.5)': ('ok', [-0.20833333333333334], [[0.33333333333333337]]),
    'F.hardswish(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.hardswish(-1000.0)': ('ok', [-0.0], [[0.0]]),
    'F.hardshrink(0.0)': ('ok', [0.0], [[0.0]]),
    'F.hardshrink(6.0)': ('ok', [6.0], [[1.0]]),
    'F.hardshrink(-3.0)': ('ok', [-3.0], [[1.0]]),
    'F.hardshrink(3.0)': ('ok', [3.0], [[1.0]]),
    'F.hardshrink(1.0)': ('ok', [1.0], [[1.0]]),
    'F.hardshrink(-1.0)': ('ok', [-1.0], [[1.0]]),
    'F.hardshrink(0.5)': ('ok', [0.0], [[0.0]]),
    'F.hardshrink(-0.5)': ('ok', [0.0], [[0.0]]),
    'F.hardshrink(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.hardshrink(-1000.0)': ('ok', [-1000.0], [[1.0]]),
    'F.softshrink(0.0)': ('ok', [0.0], [[0.0]]),
    'F.softshrink(6.0)': ('ok', [5.5], [[1.0]]),
    'F.softshrink(-3.0)': ('ok', [-2.5], [[1.0]]),
    'F.softshrink(3.0)': ('ok', [2.5], [[1.0]]),
    'F.softshrink(1.0)': ('ok', [0.5], [[1.0]]),
    'F.softshrink(-1.0)': ('ok', [-0.5], [[1.0]]),
    'F.softshrink(0.5)': ('ok', [0.0], [[0.0]]),
    'F.softshrink(-0.5)': ('ok', [-0.0], [[0.0]]),
    'F.softshrink(1000.0)': ('ok', [999.5], [[1.0]]),
    'F.softshrink(-1000.0)': ('ok', [-999.5], [[1.0]]),
    'F.tanhshrink(0.0)': ('ok', [0.0], [[0.0]]),
    'F.tanhshrink(6.0)': ('ok', [5.000012288349204], [[0.9999754234525947]]),
    'F.tanhshrink(-3.0)': ('ok', [-2.0049452463132695], [[0.9901339628345598]]),
    'F.tanhshrink(3.0)': ('ok', [2.0049452463132695], [[0.9901339628345598]]),
    'F.tanhshrink(1.0)': ('ok', [0.23840584404423515], [[0.5800256583859739]]),
    'F.tanhshrink(-1.0)': ('ok', [-0.23840584404423515], [[0.5800256583859739]]),
    'F.tanhshrink(0.5)': ('ok', [0.03788284273999026], [[0.2135522670340726]]),
    'F.tanhshrink(-0.5)': ('ok', [-0.03788284273999026], [[0.2135522670340726]]),
    'F.tanhshrink(1000.0)': ('ok', [999.0], [[1.0]]),
    'F.tanhshrink(-1000.0)': ('ok', [-999.0], [[1.0]]),
    'F.logsigmoid(0.0)': ('ok', [-0.6931471805599453], [[0.5]]),
    'F.logsigmoid(6.0)': ('ok', [-0.0024756851377304495], [[0.0024726231566347748]]),
    'F.logsigmoid(-3.0)': ('ok', [-3.048587351573742], [[0.9525741268224333]]),
    'F.logsigmoid(3.0)': ('ok', [-0.04858735157374206], [[0.04742587317756679]]),
    'F.logsigmoid(1.0)': ('ok', [-0.31326168751822286], [[0.2689414213699951]]),
    'F.logsigmoid(-1.0)': ('ok', [-1.3132616875182228], [[0.7310585786300049]]),
    'F.logsigmoid(0.5)': ('ok', [-0.4740769841801067], [[0.37754066879814546]]),
    'F.logsigmoid(-0.5)': ('ok', [-0.9740769841801067], [[0.6224593312018545]]),
    'F.logsigmoid(1000.0)': ('ok', [0.0], [[0.0]]),
    'F.logsigmoid(-1000.0)': ('ok', [-1000.0], [[1.0]]),
    'F.leaky_relu(0.0)': ('ok', [0.0], [[0.01]]),
    'F.leaky_relu(6.0)': ('ok', [6.0], [[1.0]]),
    'F.leaky_relu(-3.0)': ('ok', [-0.03], [[0.01]]),
    'F.leaky_relu(3.0)': ('ok', [3.0], [[1.0]]),
    'F.leaky_relu(1.0)': ('ok', [1.0], [[1.0]]),
    'F.leaky_relu(-1.0)': ('ok', [-0.01], [[0.01]]),
    'F.leaky_relu(0.5)': ('ok', [0.5], [[1.0]]),
    'F.leaky_relu(-0.5)': ('ok', [-0.005], [[0.01]]),
    'F.leaky_relu(1000.0)': ('ok', [1000.0], [[1.0]]),
    'F.leaky_relu(-1000.0)': ('ok', [-10.0], [[0.01]]),
    'F.sigmoid(0.0)': ('ok', [0.5], [[0.25]]),
    'F.sigmoid(6.0)': ('ok', [0.9975273768433653], [[0.002466509291359931]]),
    'F.sigmoid(-3.0)': ('ok', [0.04742587317756678], [[0.04517665973091214]]),
    'F.sigmoid(3.0)': ('ok', [0.9525741268224334], [[0.045176659730912]]),
    'F.sigmoid(1.0)': ('ok', [0.7310585786300049], [[0.19661193324148185]]),
    'F.sigmoid(-1.0)': ('ok', [0.2689414213699951], [[0.19661193324148185]]),
    'F.sigmoid(0.5)': ('ok', [0.6224593312018546], [[0.2350037122015945]]),
    'F.sigmoid(-0.5)': ('ok', [0.3775406687981454], [[0.2350037122015945]]),
    'F.sigmoid(1000.0)': ('ok', [1.0], [[0.0]]),
    'F.sigmoid(-1000.0)': ('ok', [0.0], [[0.0]]),
    'F.tanh(0.0)': ('ok', [0.0], [[1.0]]),
    'F.tanh(6.0)': ('ok', [0.9999877116507956], [[2.4576547405302974e-05]]),
    'F.tanh(-3.0)': ('ok', [-0.9950547536867305], [[0.009866037165440166]]),
    'F.tanh(3.0)': ('ok', [0.9950547536867305], [[0.009866037165440166]]),
    'F.tanh(1.0)': ('ok', [0.7615941559557649], [[0.41997434161402614]]),
    'F.tanh(-1.0)': ('ok', [-0.7615941559557649], [[0.41997434161402614]]),
    'F.tanh(0.5)': ('ok', [0.46211715726000974], [[0.7864477329659274]]),
    'F.tanh(-0.5)': ('ok', [-0.46211715726000974], [[0.7864477329659274]]),
    'F.tanh(1000.0)': ('ok', [1.0], [[0.0]]),
    'F.tanh(-1000.0)': ('ok', [-1.0], [[0.0]]),
    'atan2(0.0, 0.0)': ('ok', [0.0], [[0.0], [-0.0]]),
    'atan2(1.0, 1.0)': ('ok', [0.7853981633974483], [[0.5], [-0.5]]),
    'atan2(inf, inf)': ('ok', [0.7853981633974483], [[nan], [nan]]),
    'atan2(-inf, -inf)': ('ok', [-2.356194490192345], [[nan], [nan]]),
    'atan2(0.0, 1.0)': ('ok', [0.0], [[1.0], [-0.0]]),
    'atan2(-1.0, 0.5)': ('ok', [-1.1071487177940904], [[0.4], [0.8]]),
    'atan2(2.0, -3.0)': ('ok', [2.5535900500422257], [[-0.23076923076923078], [-0.15384615384615385]]),
    'atan2(0.0, -1.0)': ('ok', [3.141592653589793], [[-1.0], [-0.0]]),
    'hypot(0.0, 0.0)': ('ok', [0.0], [[nan], [nan]]),
    'hypot(1.0, 1.0)': ('ok', [1.4142135623730951], [[0.7071067811865475], [0.7071067811865475]]),
    'hypot(inf, inf)': ('ok', [inf], [[nan], [nan]]),
    'hypot(-inf, -inf)': ('ok', [inf], [[nan], [nan]]),
    'hypot(0.0, 1.0)': ('ok', [1.0], [[0.0], [1.0]]),
    'hypot(-1.0, 0.5)': ('ok', [1.118033988749895], [[-0.8944271909999159], [0.4472135954999579]]),
    'hypot(2.0, -3.0)': ('ok', [3.605551275463989], [[0.5547001962252291], [-0.8320502943378437]]),
    'hypot(0.0, -1.0)': ('ok', [1.0], [[0.0], [-1.0]]),
    'pow(0.0, 0.0)': ('ok', [1.0], [[0.0], [0.0]]),
    'pow(1.0, 1.0)': ('ok', [1.0], [[1.0], [0.0]]),
    'pow(inf, inf)': ('ok', [inf], [[inf], [inf]]),
    'pow(-inf, -inf)': ('ok', [0.0], [[nan], [nan]]),
    'pow(0.0, 1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'pow(-1.0, 0.5)': ('ok', [nan], [[nan], [nan]]),
    'pow(2.0, -3.0)': ('ok', [0.125], [[-0.1875], [0.08664339756999316]]),
    'pow(0.0, -1.0)': ('ok', [inf], [[-inf], [-inf]]),
    'maximum(0.0, 0.0)': ('ok', [0.0], [[0.5], [0.5]]),
    'maximum(1.0, 1.0)': ('ok', [1.0], [[0.5], [0.5]]),
    'maximum(inf, inf)': ('ok', [inf], [[0.5], [0.5]]),
    'maximum(-inf, -inf)': ('ok', [-inf], [[0.5], [0.5]]),
    'maximum(0.0, 1.0)': ('ok', [1.0], [[0.0], [1.0]]),
    'maximum(-1.0, 0.5)': ('ok', [0.5], [[0.0], [1.0]]),
    'maximum(2.0, -3.0)': ('ok', [2.0], [[1.0], [0.0]]),
    'maximum(0.0, -1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'minimum(0.0, 0.0)': ('ok', [0.0], [[0.5], [0.5]]),
    'minimum(1.0, 1.0)': ('ok', [1.0], [[0.5], [0.5]]),
    'minimum(inf, inf)': ('ok', [inf], [[0.5], [0.5]]),
    'minimum(-inf, -inf)': ('ok', [-inf], [[0.5], [0.5]]),
    'minimum(0.0, 1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'minimum(-1.0, 0.5)': ('ok', [-1.0], [[1.0], [0.0]]),
    'minimum(2.0, -3.0)': ('ok', [-3.0], [[0.0], [1.0]]),
    'minimum(0.0, -1.0)': ('ok', [-1.0], [[0.0], [1.0]]),
    'fmax(0.0, 0.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'fmax(1.0, 1.0)': ('ok', [1.0], [[1.0], [0.0]]),
    'fmax(inf, inf)': ('ok', [inf], [[1.0], [0.0]]),
    'fmax(-inf, -inf)': ('ok', [-inf], [[1.0], [0.0]]),
    'fmax(0.0, 1.0)': ('ok', [1.0], [[0.0], [1.0]]),
    'fmax(-1.0, 0.5)': ('ok', [0.5], [[0.0], [1.0]]),
    'fmax(2.0, -3.0)': ('ok', [2.0], [[1.0], [0.0]]),
    'fmax(0.0, -1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'fmin(0.0, 0.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'fmin(1.0, 1.0)': ('ok', [1.0], [[1.0], [0.0]]),
    'fmin(inf, inf)': ('ok', [inf], [[1.0], [0.0]]),
    'fmin(-inf, -inf)': ('ok', [-inf], [[1.0], [0.0]]),
    'fmin(0.0, 1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'fmin(-1.0, 0.5)': ('ok', [-1.0], [[1.0], [0.0]]),
    'fmin(2.0, -3.0)': ('ok', [-3.0], [[0.0], [1.0]]),
    'fmin(0.0, -1.0)': ('ok', [-1.0], [[0.0], [1.0]]),
    'remainder(0.0, 0.0)': ('ok', [nan], [[1.0], [nan]]),
    'remainder(1.0, 1.0)': ('ok', [0.0], [[1.0], [-1.0]]),
    'remainder(inf, inf)': ('ok', [nan], [[1.0], [nan]]),
    'remainder(-inf, -inf)': ('ok', [nan], [[1.0], [nan]]),
    'remainder(0.0, 1.0)': ('ok', [0.0], [[1.0], [-0.0]]),
    'remainder(-1.0, 0.5)': ('ok', [-0.0], [[1.0], [2.0]]),
    'remainder(2.0, -3.0)': ('ok', [-1.0], [[1.0], [1.0]]),
    'remainder(0.0, -1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'fmod(0.0, 0.0)': ('ok', [nan], [[1.0], [nan]]),
    'fmod(1.0, 1.0)': ('ok', [0.0], [[1.0], [-1.0]]),
    'fmod(inf, inf)': ('ok', [nan], [[1.0], [nan]]),
    'fmod(-inf, -inf)': ('ok', [nan], [[1.0], [nan]]),
    'fmod(0.0, 1.0)': ('ok', [0.0], [[1.0], [-0.0]]),
    'fmod(-1.0, 0.5)': ('ok', [-0.0], [[1.0], [2.0]]),
    'fmod(2.0, -3.0)': ('ok', [2.0], [[1.0], [0.0]]),
    'fmod(0.0, -1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'copysign(0.0, 0.0)': ('ok', [0.0], [[0.0], [0.0]]),
    'copysign(1.0, 1.0)': ('ok', [1.0], [[1.0], [0.0]]),
    'copysign(inf, inf)': ('ok', [inf], [[nan], [0.0]]),
    'copysign(-inf, -inf)': ('ok', [-inf], [[nan], [0.0]]),
    'copysign(0.0, 1.0)': ('ok', [0.0], [[0.0], [0.0]]),
    'copysign(-1.0, 0.5)': ('ok', [1.0], [[-1.0], [0.0]]),
    'copysign(2.0, -3.0)': ('ok', [-2.0], [[-1.0], [0.0]]),
    'copysign(0.0, -1.0)': ('ok', [-0.0], [[0.0], [0.0]]),
    'logaddexp(0.0, 0.0)': ('ok', [0.6931471805599453], [[0.5], [0.5]]),
    'logaddexp(1.0, 1.0)': ('ok', [1.6931471805599454], [[0.5], [0.5]]),
    'logaddexp(inf, inf)': ('ok', [inf], [[nan], [nan]]),
    'logaddexp(-inf, -inf)': ('ok', [-inf], [[nan], [nan]]),
    'logaddexp(0.0, 1.0)': ('ok', [1.3132616875182228], [[0.2689414213699951], [0.7310585786300049]]),
    'logaddexp(-1.0, 0.5)': ('ok', [0.7014132779827524], [[0.18242552380635635], [0.8175744761936437]]),
    'logaddexp(2.0, -3.0)': ('ok', [2.0067153484891183], [[0.9933071490757153], [0.0066928509242848554]]),
    'logaddexp(0.0, -1.0)': ('ok', [0.31326168751822286], [[0.7310585786300049], [0.2689414213699951]]),
    'logaddexp2(0.0, 0.0)': ('ok', [1.0], [[0.5], [0.5]]),
    'logaddexp2(1.0, 1.0)': ('ok', [2.0], [[0.5], [0.5]]),
    'logaddexp2(inf, inf)': ('ok', [inf], [[nan], [nan]]),
    'logaddexp2(-inf, -inf)': ('ok', [-inf], [[nan], [nan]]),
    'logaddexp2(0.0, 1.0)': ('ok', [1.584962500721156], [[0.3333333333333333], [0.6666666666666666]]),
    'logaddexp2(-1.0, 0.5)': ('ok', [0.936751795439824], [[0.2612038749637414], [0.7387961250362586]]),
    'logaddexp2(2.0, -3.0)': ('ok', [2.0443941193584534], [[0.9696969696969697], [0.030303030303030304]]),
    'logaddexp2(0.0, -1.0)': ('ok', [0.5849625007211562], [[0.6666666666666666], [0.3333333333333333]]),
    'xlogy(0.0, 0.0)': ('ok', [0.0], [[0.0], [nan]]),
    'xlogy(1.0, 1.0)': ('ok', [0.0], [[0.0], [1.0]]),
    'xlogy(inf, inf)': ('ok', [inf], [[inf], [nan]]),
    'xlogy(-inf, -inf)': ('ok', [nan], [[nan], [nan]]),
    'xlogy(0.0, 1.0)': ('ok', [0.0], [[0.0], [0.0]]),
    'xlogy(-1.0, 0.5)': ('ok', [0.6931471805599453], [[-0.6931471805599453], [-2.0]]),
    'xlogy(2.0, -3.0)': ('ok', [nan], [[nan], [-0.6666666666666666]]),
    'xlogy(0.0, -1.0)': ('ok', [0.0], [[0.0], [-0.0]]),
    'div(0.0, 0.0)': ('ok', [nan], [[inf], [nan]]),
    'div(1.0, 1.0)': ('ok', [1.0], [[1.0], [-1.0]]),
    'div(inf, inf)': ('ok', [nan], [[0.0], [nan]]),
    'div(-inf, -inf)': ('ok', [nan], [[-0.0], [nan]]),
    'div(0.0, 1.0)': ('ok', [0.0], [[1.0], [-0.0]]),
    'div(-1.0, 0.5)': ('ok', [-2.0], [[2.0], [4.0]]),
    'div(2.0, -3.0)': ('ok', [-0.6666666666666666], [[-0.3333333333333333], [-0.2222222222222222]]),
    'div(0.0, -1.0)': ('ok', [-0.0], [[-1.0], [-0.0]]),
    'mul(0.0, 0.0)': ('ok', [0.0], [[0.0], [0.0]]),
    'mul(1.0, 1.0)': ('ok', [1.0], [[1.0], [1.0]]),
    'mul(inf, inf)': ('ok', [inf], [[inf], [inf]]),
    'mul(-inf, -inf)': ('ok', [inf], [[-inf], [-inf]]),
    'mul(0.0, 1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'mul(-1.0, 0.5)': ('ok', [-0.5], [[0.5], [-1.0]]),
    'mul(2.0, -3.0)': ('ok', [-6.0], [[-3.0], [2.0]]),
    'mul(0.0, -1.0)': ('ok', [-0.0], [[-1.0], [0.0]]),
    'sub(0.0, 0.0)': ('ok', [0.0], [[1.0], [-1.0]]),
    'sub(1.0, 1.0)': ('ok', [0.0], [[1.0], [-1.0]]),
    'sub(inf, inf)': ('ok', [nan], [[1.0], [-1.0]]),
    'sub(-inf, -inf)': ('ok', [nan], [[1.0], [-1.0]]),
    'sub(0.0, 1.0)': ('ok', [-1.0], [[1.0], [-1.0]]),
    'sub(-1.0, 0.5)': ('ok', [-1.5], [[1.0], [-1.0]]),
    'sub(2.0, -3.0)': ('ok', [5.0], [[1.0], [-1.0]]),
    'sub(0.0, -1.0)': ('ok', [1.0], [[1.0], [-1.0]]),
    'add(0.0, 0.0)': ('ok', [0.0], [[1.0], [1.0]]),
    'add(1.0, 1.0)': ('ok', [2.0], [[1.0], [1.0]]),
    'add(inf, inf)': ('ok', [inf], [[1.0], [1.0]]),
    'add(-inf, -inf)': ('ok', [-inf], [[1.0], [1.0]]),
    'add(0.0, 1.0)': ('ok', [1.0], [[1.0], [1.0]]),
    'add(-1.0, 0.5)': ('ok', [-0.5], [[1.0], [1.0]]),
    'add(2.0, -3.0)': ('ok', [-1.0], [[1.0], [1.0]]),
    'add(0.0, -1.0)': ('ok', [-1.0], [[1.0], [1.0]]),
    'ldexp(0.0, 0.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'ldexp(1.0, 1.0)': ('ok', [2.0], [[2.0], [1.3862943611198906]]),
    'ldexp(inf, inf)': ('ok', [inf], [[inf], [inf]]),
    'ldexp(-inf, -inf)': ('ok', [nan], [[0.0], [nan]]),
    'ldexp(0.0, 1.0)': ('ok', [0.0], [[2.0], [0.0]]),
    'ldexp(-1.0, 0.5)': ('ok', [-1.4142135623730951], [[1.4142135623730951], [-0.9802581434685472]]),
    'ldexp(2.0, -3.0)': ('ok', [0.25], [[0.125], [0.17328679513998632]]),
    'ldexp(0.0, -1.0)': ('ok', [0.0], [[0.5], [0.0]]),
    'float_power(0.0, 0.0)': ('ok', [1.0], [[0.0], [0.0]]),
    'float_power(1.0, 1.0)': ('ok', [1.0], [[1.0], [0.0]]),
    'float_power(inf, inf)': ('ok', [inf], [[inf], [inf]]),
    'float_power(-inf, -inf)': ('ok', [0.0], [[nan], [nan]]),
    'float_power(0.0, 1.0)': ('ok', [0.0], [[1.0], [0.0]]),
    'float_power(-1.0, 0.5)': ('ok', [nan], [[nan], [nan]]),
    'float_power(2.0, -3.0)': ('ok', [0.125], [[-0.1875], [0.08664339756999316]]),
    'float_power(0.0, -1.0)': ('ok', [inf], [[-inf], [-inf]]),
    'true_divide(0.0, 0.0)': ('ok', [nan], [[inf], [nan]]),
    'true_divide(1.0, 1.0)': ('ok', [1.0], [[1.0], [-1.0]]),
    'true_divide(inf, inf)': ('ok', [nan], [[0.0], [nan]]),
    'true_divide(-inf, -inf)': ('ok', [nan], [[-0.0], [nan]]),
    'true_divide(0.0, 1.0)': ('ok', [0.0], [[1.0], [-0.0]]),
    'true_divide(-1.0, 0.5)': ('ok', [-2.0], [[2.0], [4.0]]),
    'true_divide(2.0, -3.0)': ('ok', [-0.6666666666666666], [[-0.3333333333333333], [-0.2222222222222222]]),
    'true_divide(0.0, -1.0)': ('ok', [-0.0], [[-1.0], [-0.0]]),
    'floor_divide(0.0, 0.0)': ('error', 'RuntimeError'),
    'floor_divide(1.0, 1.0)': ('error', 'RuntimeError'),
    'floor_divide(inf, inf)': ('error', 'RuntimeError'),
    'floor_divide(-inf, -inf)': ('error', 'RuntimeError'),
    'floor_divide(0.0, 1.0)': ('error', 'RuntimeError'),
    'floor_divide(-1.0, 0.5)': ('error', 'RuntimeError'),
    'floor_divide(2.0, -3.0)': ('error', 'RuntimeError'),
    'floor_divide(0.0, -1.0)': ('error', 'RuntimeError'),
    'sum([0.0, 0.0, 0.0])': ('ok', 0.0, [[1.0, 1.0, 1.0]]),
    'sum([1.0, 1.0, 2.0])': ('ok', 4.0, [[1.0, 1.0, 1.0]]),
    'sum([-inf, -inf])': ('ok', -inf, [[1.0, 1.0]]),
    'sum([nan, 1.0])': ('ok', nan, [[1.0, 1.0]]),
    'sum([5.0])': ('ok', 5.0, [[1.0]]),
    'mean([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'mean([1.0, 1.0, 2.0])': ('ok', 1.3333333333333333, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'mean([-inf, -inf])': ('ok', -inf, [[0.5, 0.5]]),
    'mean([nan, 1.0])': ('ok', nan, [[0.5, 0.5]]),
    'mean([5.0])': ('ok', 5.0, [[1.0]]),
    'std([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.0, 0.0, 0.0]]),
    'std([1.0, 1.0, 2.0])': ('ok', 0.5773502691896257, [[-0.28867513459481287, -0.28867513459481287, 0.5773502691896258]]),
    'std([-inf, -inf])': ('ok', nan, [[nan, nan]]),
    'std([nan, 1.0])': ('ok', nan, [[nan, nan]]),
    'std([5.0])': ('ok', nan, [[nan]]),
    'var([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.0, 0.0, 0.0]]),
    'var([1.0, 1.0, 2.0])': ('ok', 0.3333333333333333, [[-0.33333333333333326, -0.33333333333333326, 0.6666666666666667]]),
    'var([-inf, -inf])': ('ok', nan, [[nan, nan]]),
    'var([nan, 1.0])': ('ok', nan, [[nan, nan]]),
    'var([5.0])': ('ok', nan, [[nan]]),
    'prod([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.0, 0.0, 0.0]]),
    'prod([1.0, 1.0, 2.0])': ('ok', 2.0, [[2.0, 2.0, 1.0]]),
    'prod([-inf, -inf])': ('ok', inf, [[nan, nan]]),
    'prod([nan, 1.0])': ('ok', nan, [[nan, nan]]),
    'prod([5.0])': ('ok', 5.0, [[1.0]]),
    'amax([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'amax([1.0, 1.0, 2.0])': ('ok', 2.0, [[0.0, 0.0, 1.0]]),
    'amax([-inf, -inf])': ('ok', -inf, [[0.5, 0.5]]),
    'amax([nan, 1.0])': ('ok', nan, [[nan, nan]]),
    'amax([5.0])': ('ok', 5.0, [[1.0]]),
    'amin([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'amin([1.0, 1.0, 2.0])': ('ok', 1.0, [[0.5, 0.5, 0.0]]),
    'amin([-inf, -inf])': ('ok', -inf, [[0.5, 0.5]]),
    'amin([nan, 1.0])': ('ok', nan, [[nan, nan]]),
    'amin([5.0])': ('ok', 5.0, [[1.0]]),
    'logsumexp([0.0, 0.0, 0.0])': ('ok', 1.0986122886681098, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'logsumexp([1.0, 1.0, 2.0])': ('ok', 2.5514447139320513, [[0.2119415576170854, 0.2119415576170854, 0.576116884765829]]),
    'logsumexp([-inf, -inf])': ('ok', -inf, [[nan, nan]]),
    'logsumexp([nan, 1.0])': ('ok', nan, [[nan, nan]]),
    'logsumexp([5.0])': ('ok', 5.0, [[1.0]]),
    'norm([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.0, 0.0, 0.0]]),
    'norm([1.0, 1.0, 2.0])': ('ok', 2.449489742783178, [[0.4082482904638631, 0.4082482904638631, 0.8164965809277261]]),
    'norm([-inf, -inf])': ('ok', inf, [[nan, nan]]),
    'norm([nan, 1.0])': ('ok', nan, [[nan, nan]]),
    'norm([5.0])': ('ok', 5.0, [[1.0]]),
    'median([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'median([1.0, 1.0, 2.0])': ('ok', 1.0, [[0.5, 0.5, 0.0]]),
    'median([-inf, -inf])': ('ok', -inf, [[0.5, 0.5]]),
    'median([nan, 1.0])': ('ok', nan, [[1.0, 0.0]]),
    'median([5.0])': ('ok', 5.0, [[1.0]]),
    'nansum([0.0, 0.0, 0.0])': ('ok', 0.0, [[1.0, 1.0, 1.0]]),
    'nansum([1.0, 1.0, 2.0])': ('ok', 4.0, [[1.0, 1.0, 1.0]]),
    'nansum([-inf, -inf])': ('ok', -inf, [[1.0, 1.0]]),
    'nansum([nan, 1.0])': ('ok', 1.0, [[0.0, 1.0]]),
    'nansum([5.0])': ('ok', 5.0, [[1.0]]),
    'nanmean([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'nanmean([1.0, 1.0, 2.0])': ('ok', 1.3333333333333333, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'nanmean([-inf, -inf])': ('ok', -inf, [[0.5, 0.5]]),
    'nanmean([nan, 1.0])': ('ok', 1.0, [[0.0, 1.0]]),
    'nanmean([5.0])': ('ok', 5.0, [[1.0]]),
    'max([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'max([1.0, 1.0, 2.0])': ('ok', 2.0, [[0.0, 0.0, 1.0]]),
    'max([-inf, -inf])': ('ok', -inf, [[0.5, 0.5]]),
    'max([nan, 1.0])': ('ok', nan, [[1.0, 0.0]]),
    'max([5.0])': ('ok', 5.0, [[1.0]]),
    'min([0.0, 0.0, 0.0])': ('ok', 0.0, [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    'min([1.0, 1.0, 2.0])': ('ok', 1.0, [[0.5, 0.5, 0.0]]),
    'min([-inf, -inf])': ('ok', -inf, [[0.5, 0.5]]),
    'min([nan, 1.0])': ('ok', nan, [[1.0, 0.0]]),
    'min([5.0])': ('ok', 5.0, [[1.0]]),
}
