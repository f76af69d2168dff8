"""Differential fuzzing of fgrad against JAX: the same seeded random inputs through many
``jnp``/``lax``/``jax.nn``/``jax.scipy.special`` functions on both, compared on dtype, shape,
weak type and value (within a few ulps for floats), plain, under ``jit``, ``grad`` and
``vmap``, in 64-bit and 32-bit mode.

Usage::

    python tools/jax_fuzz.py                 # every function, 64-bit and 32-bit mode
    python tools/jax_fuzz.py --x64 off --only sin,logaddexp --draws 20 --ulps 4

Each difference is printed as one line (mode, function, inputs, what differs); the exit
status is 1 when any was found. Needs JAX installed. See docs/jax-semantics.md.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import warnings

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # this checkout's fgrad
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # jax_fuzz_cases

UNARY = {
    "numpy": ["abs", "negative", "sign", "floor", "ceil", "round", "trunc", "exp", "exp2", "expm1", "log",
              "log1p", "log2", "log10", "sqrt", "cbrt", "square", "reciprocal", "sin", "cos", "tan", "arcsin",
              "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "deg2rad",
              "rad2deg", "sinc", "isfinite", "isnan", "isinf", "signbit", "logical_not", "real", "imag",
              "conj", "angle", "sum", "prod", "mean", "max", "min", "cumsum", "cumprod", "argmax", "argmin",
              "sort", "var", "std", "any", "all", "nan_to_num", "fabs", "positive", "i0"],
    "lax": ["neg", "exp", "log", "tanh", "logistic", "rsqrt", "erf", "erfc", "erf_inv", "lgamma", "digamma",
            "is_finite", "population_count", "bitwise_not", "sign", "abs", "square", "integer_pow2"],
    "nn": ["relu", "relu6", "sigmoid", "softplus", "silu", "gelu", "elu", "leaky_relu", "log_sigmoid",
           "softmax", "log_softmax", "hard_tanh", "celu", "selu", "standardize", "logsumexp", "one_hot3"],
    "special": ["gammaln", "digamma", "erf", "erfc", "erfinv", "expit", "logit", "ndtr", "ndtri", "log_ndtr",
                "i0e", "i1e", "entr", "sinc_", "logsumexp", "xlogy_self", "spence"],
}
BINARY = {
    "numpy": ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "float_power",
              "mod", "remainder", "fmod", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot",
              "logaddexp",
              "logaddexp2", "copysign", "nextafter", "heaviside", "equal", "not_equal", "less", "greater",
              "less_equal", "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
              "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "gcd", "lcm", "ldexp_", "where_",
              "dot", "inner", "outer", "kron", "divmod"],
    "lax": ["add", "sub", "mul", "div", "rem", "max", "min", "pow", "atan2", "nextafter", "shift_left",
            "shift_right_logical", "shift_right_arithmetic", "complex_"],
    "special": ["xlogy", "xlog1py", "betaln", "gammainc", "gammaincc", "zeta", "polygamma_"],
}
DTYPES = ["float32", "float64", "int32", "bool", "complex64", "weak_float", "weak_int"]
SHAPES = [(), (0,), (1,), (3,), (2, 3)]


def _resolve(mod, name, ns):
    """``(function, arity)`` of ``name`` in a face (``mod`` is jax or fgrad)."""
    if ns == "numpy":
        f = {"ldexp_": lambda x, y: mod.numpy.ldexp(x, mod.numpy.asarray(y).astype("int32")),
             "where_": lambda x, y: mod.numpy.where(x > 0, x, y)}.get(name)
        return f or getattr(mod.numpy, name)
    if ns == "lax":
        special = {"integer_pow2": lambda x: mod.lax.integer_pow(x, 2),
                   "complex_": lambda x, y: mod.lax.complex(x, y)}
        return special.get(name) or getattr(mod.lax, name)
    if ns == "nn":
        if name == "one_hot3":
            return lambda x: mod.nn.one_hot(x, 3)
        return getattr(mod.nn, name)
    sp = mod.scipy.special
    special = {"sinc_": lambda x: mod.numpy.sinc(x), "xlogy_self": lambda x: sp.xlogy(x, x),
               "polygamma_": lambda x, y: sp.polygamma(mod.numpy.asarray(x).astype("int32") % 3, y)}
    return special.get(name) or getattr(sp, name)


def _sample(rng, kind: str, shape):
    """Host values and how to pass them: ``("array", ndarray)`` or ``("weak", python scalar)``."""
    if kind == "weak_float":
        return "weak", float(np.round(rng.standard_normal() * 2, 3))
    if kind == "weak_int":
        return "weak", int(rng.integers(-3, 4))
    if kind == "bool":
        return "array", rng.integers(0, 2, shape).astype(bool)
    if kind == "int32":
        return "array", rng.integers(-5, 6, shape).astype(np.int32)
    x = rng.standard_normal(shape) * 2
    if kind == "complex64":
        return "array", (x + 1j * rng.standard_normal(shape)).astype(np.complex64)
    return "array", x.astype(kind)


def _ulps(a, b, floor: float = 0.0):
    """The largest distance in units of ``a``'s last place (inf where NaN/inf patterns differ),
    and the flat index where it is. A distance below ``floor`` units of 1's last place counts
    as 0: near zero the ulp is tiny, and a cancellation (the gradient of a constant sum) or a
    tail rounded to 0 in one library is not a wrong value."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "c":  # in ulps of |a|: a part near 0 next to a large one is noise
        nan_a, nan_b = np.isnan(a).ravel(), np.isnan(b).ravel()
        if not np.array_equal(nan_a, nan_b):
            return np.inf, int(np.argmax(nan_a != nan_b))
        part = np.finfo(a.dtype).dtype
        gap = np.abs(a.astype(np.complex128) - b.astype(np.complex128)).ravel()
        gap = np.where(np.isnan(gap), 0.0, gap)
        units = gap / np.maximum(np.spacing(np.abs(a).astype(part)).ravel(), np.finfo(part).tiny)
        units = np.where(gap <= floor * np.finfo(part).eps, 0.0, units)
        where = int(np.argmax(units)) if units.size else 0
        return (float(units[where]) if units.size else 0.0), where
    a64, b64 = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    nan_a, nan_b = np.isnan(a64), np.isnan(b64)
    if not np.array_equal(nan_a, nan_b):
        return np.inf, int(np.argmax(nan_a != nan_b))
    finite = np.isfinite(a64) & np.isfinite(b64)
    inf_differs = ~finite & ~nan_a & (a64 != b64)
    if inf_differs.any():
        return np.inf, int(np.argmax(inf_differs))
    if not finite.any():
        return 0.0, 0
    spacing = np.spacing(np.abs(a64).astype(a.dtype)).astype(np.float64)
    tiny = np.finfo(a.dtype).tiny
    with np.errstate(invalid="ignore"):  # inf - inf where both are the same infinity
        gap = np.where(finite, np.abs(a64 - b64), 0.0)
    gap = np.where(gap <= floor * np.finfo(a.dtype).eps, 0.0, gap)
    units = gap / np.maximum(spacing, tiny)
    where = int(np.argmax(units))
    return float(units[where]), where


def _inexact(a) -> bool:
    return isinstance(a, (float, complex)) or np.dtype(getattr(a, "dtype", np.int8)).kind in "fc"


def _on_inexact(fn, args):
    """``fn`` as a function of its float/complex arguments only (the others closed over: JAX
    wants ``float0`` tangents for integer inputs, which fgrad does not use), and those."""
    where = [i for i, a in enumerate(args) if _inexact(a)]

    def g(*xs):
        full = list(args)
        for i, x in zip(where, xs):
            full[i] = x
        return fn(*full)
    return g, [args[i] for i in where]


def _ones(face, x):
    return 1.0 if isinstance(x, float) else (1 + 0j if isinstance(x, complex) else face.numpy.ones_like(x))


def _scalar_of(face, fn):
    """``fn`` summed to one real number over its float/complex outputs (all outputs when none
    is: then ``grad`` raises in both libraries)."""
    np_ = face.numpy

    def scalar(*a):
        leaves = face.tree_util.tree_leaves(fn(*a))
        inexact = [leaf for leaf in leaves if _inexact(leaf)]
        if not inexact:
            return np_.sum(leaves[0])
        total = np_.sum(np_.real(inexact[0]))
        for leaf in inexact[1:]:
            total = total + np_.sum(np_.real(leaf))
        return total
    return scalar


def _run(face, fn, args, mode, batch=None):
    """``fn`` of ``args`` under ``mode``. ``batch``: the arguments with a leading batch axis
    (``None`` for unbatched ones) for the batching modes; by default the rows of ``args``."""
    scalar = _scalar_of(face, fn)
    if mode == "plain":
        return fn(*args)
    if mode == "jit":
        return face.jit(fn)(*args)
    if mode == "grad":
        return face.grad(scalar)(*args)
    if mode == "vmap":
        if batch is None:
            return face.vmap(fn)(*args)
        axes = tuple(None if b is None else 0 for b in batch)
        return face.vmap(fn, in_axes=axes)(*[a if b is None else b for a, b in zip(args, batch)])
    g, xs = _on_inexact(fn, args)
    if not xs:
        return None  # nothing to differentiate
    if mode == "jvp":
        return face.jvp(g, tuple(xs), tuple(_ones(face, x) for x in xs))
    if mode == "linearize":
        out, f_jvp = face.linearize(g, *xs)
        return out, f_jvp(*[_ones(face, x) for x in xs])
    h, _ = _on_inexact(scalar, args)
    if mode in ("vmap_grad_jit", "jit_vmap_grad"):  # over the first float argument, the others shared
        first = xs[0]
        if batch is not None:
            first = batch[[i for i, a in enumerate(args) if _inexact(a)][0]]
        axes = (0,) + (None,) * (len(xs) - 1)
        if mode == "vmap_grad_jit":
            return face.vmap(face.grad(face.jit(h)), in_axes=axes)(first, *xs[1:])
        return face.jit(face.vmap(face.grad(h), in_axes=axes))(first, *xs[1:])
    if mode == "jacfwd_jacrev":
        return face.jacfwd(face.jacrev(h))(*xs)
    if mode == "jacfwd_vs_jacrev":  # the Jacobian of the (real) outputs both ways
        def real_out(*a):
            return [face.numpy.real(leaf) for leaf in face.tree_util.tree_leaves(g(*a)) if _inexact(leaf)]
        return face.jacfwd(real_out)(*xs), face.jacrev(real_out)(*xs)
    if mode == "jvp_custom_vjp":
        f = face.custom_vjp(h)
        f.defvjp(lambda *a: face.vjp(h, *a), lambda pullback, ct: pullback(ct))
        return face.grad(f)(*xs), face.jvp(f, tuple(xs), tuple(_ones(face, x) for x in xs))
    raise ValueError(mode)


BASE_MODES = ("plain", "jit", "grad", "vmap")
COMPOSED_MODES = ("jvp", "linearize", "vmap_grad_jit", "jit_vmap_grad", "jacfwd_jacrev", "jacfwd_vs_jacrev",
                  "jvp_custom_vjp")


def _compare(jax_out, fg_out, ulps, floor=1.0):
    """What differs between JAX's and fgrad's results (None: nothing)."""
    import jax
    jl = jax.tree_util.tree_leaves(jax_out)
    import fgrad
    fl = fgrad.tree_util.tree_leaves(fg_out)
    if len(jl) != len(fl):
        return f"{len(fl)} outputs, JAX {len(jl)}"
    for j, f in zip(jl, fl):
        jd, fd = np.asarray(j).dtype, np.asarray(f).dtype  # a leaf may be a Python number
        if jd != fd:
            return f"dtype {fd}, JAX {jd}"
        if np.shape(j) != np.shape(f):
            return f"shape {np.shape(f)}, JAX {np.shape(j)}"
        jw, fw = bool(getattr(j, "weak_type", False)), bool(getattr(f, "weak_type", False))
        if jw != fw:
            return f"weak_type {fw}, JAX {jw}"
        jv, fv = np.asarray(j), np.asarray(f)
        if jd.kind in "fc":
            d, where = _ulps(jv, fv, ulps * floor)
            if d > ulps:
                at = f"at {where}: fgrad {fv.ravel()[where]!r}, JAX {jv.ravel()[where]!r}"
                return f"values {d:.3g} ulps apart ({at})"
        elif not np.array_equal(jv, fv):
            return "values differ"
    return None


class _Printed(list):
    """A list of difference lines that prints each line as it is appended (long runs show
    their progress)."""

    def append(self, line: str) -> None:
        print(line, flush=True)
        super().append(line)


def _one(found, what, jax_call, fgrad_call, host, ulps, floor):
    """Call both, and append to ``found`` what differs (exception types, or results)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            jout, jerr = jax_call(), None
        except Exception as e:  # noqa: BLE001 - any JAX error is compared by type
            jout, jerr = None, type(e)
        try:
            fout, ferr = fgrad_call(), None
        except Exception as e:  # noqa: BLE001
            fout, ferr = None, e
    if jerr is not None or ferr is not None:
        if jerr is None:
            found.append(f"{what}: fgrad raised {type(ferr).__name__}: {str(ferr)[:120]}")
        elif ferr is None:
            found.append(f"{what}: JAX raised {jerr.__name__}, fgrad returned")
        elif not isinstance(ferr, jerr) and not issubclass(jerr, type(ferr)):
            found.append(f"{what}: fgrad raised {type(ferr).__name__}, JAX {jerr.__name__}")
        return
    try:
        diff = _compare(jout, fout, ulps, floor)
    except Exception as e:  # noqa: BLE001 - reported, the run goes on
        diff = f"could not compare: {type(e).__name__}: {e}"
    if diff:
        inputs = ", ".join(np.array2string(np.asarray(v), precision=17, threshold=8) for v in host)
        found.append(f"{what}: {diff} inputs: {inputs}")


def _batched(rng, host):
    """Each array input stacked with a second value of it (a batch of 2): floats scaled and
    shifted, bools negated, integers shuffled; Python scalars stay unbatched (``None``)."""
    out = []
    for v in host:
        if not isinstance(v, np.ndarray) and not isinstance(v, np.generic):
            out.append(None)
            continue
        v = np.asarray(v)
        if v.dtype == bool:
            other = ~v
        elif v.dtype.kind in "iu":  # the same values shuffled: indices and selectors stay in range
            other = rng.permutation(v.ravel()).reshape(v.shape) if v.ndim else -v
        else:
            other = (v * 0.5 - 0.25).astype(v.dtype)
        out.append(np.stack([v, other]))
    return out


def _setup(x64):
    import fgrad
    import jax
    jax.config.update("jax_enable_x64", x64)
    fgrad.config.update("jax_enable_x64", x64)
    return jax, fgrad


def fuzz(x64: bool, only=None, draws: int = 3, ulps: float = 2.0, seed: int = 0,
         modes=BASE_MODES, floor: float = 1.0, found: list | None = None) -> list[str]:
    """Run the comparison of the elementwise/reduction tables in one 64-bit mode: the lines
    describing each difference."""
    jax, fgrad = _setup(x64)
    rng = np.random.default_rng(seed)
    found = [] if found is None else found
    table = [(ns, n, 1) for ns, names in UNARY.items() for n in names]
    table += [(ns, n, 2) for ns, names in BINARY.items() for n in names]
    for ns, name, arity in table:
        if only and name not in only:
            continue
        try:
            jfn, ffn = _resolve(jax, name, ns), _resolve(fgrad, name, ns)
        except AttributeError as e:
            found.append(f"x64={x64} {ns}.{name}: missing in one face ({e})")
            continue
        for _ in range(draws):
            kinds = [DTYPES[int(rng.integers(len(DTYPES)))] for _ in range(arity)]
            shape = SHAPES[int(rng.integers(len(SHAPES)))]
            host = [_sample(rng, k, shape) for k in kinds]
            for mode in modes:
                if mode == "vmap" and (shape == () or all(h[0] == "weak" for h in host)):
                    continue
                if mode in ("vmap_grad_jit", "jit_vmap_grad") and (
                        shape in ((), (0,)) or not _inexact(host[0][1]) or host[0][0] == "weak"):
                    continue  # batched over the first argument's rows
                if mode in ("jacfwd_jacrev", "jacfwd_vs_jacrev") and np.prod(shape) > 3:
                    continue  # a Hessian per draw: small shapes only
                jargs = [v if how == "weak" else jax.numpy.asarray(v) for how, v in host]
                fargs = [v if how == "weak" else fgrad.numpy.asarray(v) for how, v in host]
                _one(found, f"x64={x64} {mode} {ns}.{name}{tuple(kinds)} shape={shape}",
                     lambda: _run(jax, jfn, jargs, mode), lambda: _run(fgrad, ffn, fargs, mode),
                     [v for _, v in host], ulps, floor)
    return found


def fuzz_cases(x64: bool, only=None, draws: int = 3, ulps: float = 2.0, seed: int = 0,
               modes=BASE_MODES, floor: float = 1.0, found: list | None = None) -> list[str]:
    """Run the structured cases of ``tools/jax_fuzz_cases.py`` in one 64-bit mode."""
    from jax_fuzz_cases import CASES
    jax, fgrad = _setup(x64)
    rng = np.random.default_rng(seed)
    found = [] if found is None else found
    for name, (sample, fn) in CASES.items():
        if only and name not in only and name.split(".")[0] not in only:
            continue
        for _ in range(draws):
            dtype = ("float32", "float64")[int(rng.integers(2))]
            host = sample(rng, dtype)
            batch = _batched(rng, host)
            size = max(int(np.size(v)) for v in host)
            for mode in modes:
                if mode in ("jacfwd_jacrev", "jacfwd_vs_jacrev") and size > 12:
                    continue
                arrays = [isinstance(v, (np.ndarray, np.generic)) for v in host]
                jargs = [jax.numpy.asarray(v) if a else v for v, a in zip(host, arrays)]
                fargs = [fgrad.numpy.asarray(v) if a else v for v, a in zip(host, arrays)]
                jb = [None if b is None else jax.numpy.asarray(b) for b in batch]
                fb = [None if b is None else fgrad.numpy.asarray(b) for b in batch]
                _one(found, f"x64={x64} {mode} {name} {dtype}",
                     lambda: _run(jax, lambda *a: fn(jax, *a), jargs, mode, jb),
                     lambda: _run(fgrad, lambda *a: fn(fgrad, *a), fargs, mode, fb),
                     host, ulps, floor)
    return found


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--x64", choices=["on", "off", "both"], default="both")
    p.add_argument("--only", default="", help="comma-separated function names")
    p.add_argument("--draws", type=int, default=3, help="random input draws per function")
    p.add_argument("--ulps", type=float, default=2.0, help="float tolerance in ulps")
    p.add_argument("--floor", type=float, default=1.0,
                   help="differences below ulps*floor units of 1's last place count as equal")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--table", choices=["elementwise", "cases", "both"], default="both",
                   help="the elementwise/reduction tables, jax_fuzz_cases.py's structured cases, or both")
    p.add_argument("--modes", default=",".join(BASE_MODES),
                   help=f"comma-separated, or 'all' (adds {', '.join(COMPOSED_MODES)})")
    a = p.parse_args(argv)
    only = set(filter(None, a.only.split(",")))
    found = _Printed()
    for x64 in {"on": [True], "off": [False], "both": [True, False]}[a.x64]:
        modes = BASE_MODES + COMPOSED_MODES if a.modes == "all" else tuple(a.modes.split(","))
        if a.table in ("elementwise", "both"):
            fuzz(x64, only, a.draws, a.ulps, a.seed, modes, a.floor, found)
        if a.table in ("cases", "both"):
            fuzz_cases(x64, only, a.draws, a.ulps, a.seed, modes, a.floor, found)
    print(f"{len(found)} difference(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
