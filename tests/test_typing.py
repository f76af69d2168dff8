"""The public signatures' annotations are true: every one resolves, and every docstring example
of the functional face runs with each annotated public function type-checked by beartype
(jaxtyping shapes and dtypes included).

The examples (``fgrad/_docs`` and the hand-written ones) call every public function of
`fgrad`, `fgrad.numpy`, `fgrad.nn` and `fgrad.random` at least once, so an annotation that
one of its calls contradicts (a wrong dtype category, a shape relation that does not hold, a
result that is a tuple, an argument type left out) fails here.
"""

from __future__ import annotations

import doctest
import functools
import inspect
import io
import typing
import warnings
from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.nn
import fgrad.numpy as fnp
import fgrad.random
from fgrad import _docs
from fgrad.typing import Array, ArrayLike, Float

jaxtyping = pytest.importorskip("jaxtyping")
beartype_door = pytest.importorskip("beartype.door")
beartype = pytest.importorskip("beartype")
# the numeric tower of PEP 484, as static checkers read annotations: an int is a float
CONF = beartype.BeartypeConf(is_pep484_tower=True)

import fgrad.lax  # noqa: E402
import fgrad.scipy.cluster.vq  # noqa: E402
import fgrad.scipy.fft  # noqa: E402
import fgrad.scipy.integrate  # noqa: E402
import fgrad.scipy.linalg  # noqa: E402
import fgrad.scipy.ndimage  # noqa: E402
import fgrad.scipy.optimize  # noqa: E402
import fgrad.scipy.sparse.linalg  # noqa: E402
import fgrad.scipy.signal  # noqa: E402
import fgrad.scipy.special  # noqa: E402
import fgrad.scipy.stats  # noqa: E402
import fgrad.tree  # noqa: E402
import fgrad.tree_util  # noqa: E402

# the distributions of fgrad.scipy.stats (modules of logpdf, cdf, ... functions)
STATS_DISTRIBUTIONS = tuple(f"fgrad.scipy.stats.{name}" for name in fgrad.scipy.stats.__all__
                            if type(getattr(fgrad.scipy.stats, name)).__name__ == "module")

SCIPY_MORE = ("fgrad.scipy.fft", "fgrad.scipy.signal", "fgrad.scipy.ndimage", "fgrad.scipy.integrate",
              "fgrad.scipy.cluster.vq", "fgrad.scipy.sparse.linalg", "fgrad.scipy.optimize")

CHECKED_MODULES = ("fgrad", "fgrad.numpy", "fgrad.numpy.linalg", "fgrad.numpy.fft", "fgrad.nn",
                   "fgrad.random", "fgrad.nn.initializers", "fgrad.lax", "fgrad.scipy.special",
                   "fgrad.scipy.linalg", "fgrad.scipy.stats", "fgrad.tree_util", "fgrad.tree",
                   *STATS_DISTRIBUTIONS, *SCIPY_MORE)

# the least number of annotated public functions: annotations removed by accident fail here
MIN_ANNOTATED = {"fgrad": 42, "fgrad.numpy": 328, "fgrad.numpy.linalg": 31, "fgrad.numpy.fft": 18,
                 "fgrad.nn": 32, "fgrad.random": 47, "fgrad.nn.initializers": 19}

# modules whose every public function is annotated (a new unannotated function fails here)
FULLY_ANNOTATED = ("fgrad.numpy", "fgrad.numpy.linalg", "fgrad.numpy.fft", "fgrad.lax", "fgrad.scipy.special",
                   "fgrad.scipy.linalg", "fgrad.tree_util", "fgrad.tree",
                   *STATS_DISTRIBUTIONS, *SCIPY_MORE)


def _module(name: str):
    return fgrad if name == "fgrad" else __import__(name, fromlist=["_"])


def _annotated(module_name: str) -> dict[str, object]:
    """The public functions of a module whose signature carries annotations."""
    out = {}
    for name, fn in _docs.public_functions(_module(module_name)).items():
        if getattr(fn, "__annotations__", None):
            out[name] = fn
    return out


@pytest.mark.parametrize("module_name", CHECKED_MODULES)
def test_annotations_resolve(module_name):
    fns = _annotated(module_name)
    if module_name in FULLY_ANNOTATED:
        module = _module(module_name)
        public = set(_docs.public_functions(module))
        public &= set(getattr(module, "__all__", public))  # (not the helpers a module imports)
        # (nor NumPy's own functions that fgrad.numpy re-exports as JAX does: can_cast, ...)
        public = {n for n in public if getattr(getattr(module, n), "__module__", "").startswith("fgrad")}
        missing = sorted(public - set(fns))
        assert not missing, f"{module_name}: not annotated: {missing}"
    else:
        assert len(fns) >= MIN_ANNOTATED.get(module_name, 1), sorted(fns)
    bad = []
    for name, fn in fns.items():
        try:
            hints = typing.get_type_hints(fn)
        except Exception as e:  # noqa: BLE001 - report every unresolvable annotation at once
            bad.append(f"{module_name}.{name}: {type(e).__name__}: {e}")
            continue
        assert hints, name
    assert not bad, "\n".join(bad)


class AnnotationViolation(TypeError):
    """A value that contradicts the annotation of a public function."""


def _check(value, hint, what: str) -> None:
    try:
        beartype_door.die_if_unbearable(value, hint, conf=CONF)
    except Exception as e:
        raise AnnotationViolation(f"{what}: {type(value).__name__} {getattr(value, 'shape', '')} "
                        f"{getattr(value, 'dtype', '')} is not {hint}: {e}") from None


def _checked(fn, qualified: str):
    """``fn`` with its arguments (defaults included) and its result checked against its
    annotations, in one jaxtyping shape scope per call."""
    hints = typing.get_type_hints(fn)
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with jaxtyping.jaxtyped("context"):
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            for name, value in bound.arguments.items():
                hint = hints.get(name)
                if hint is None:
                    continue
                kind = sig.parameters[name].kind
                values = (value if kind is inspect.Parameter.VAR_POSITIONAL else
                          value.values() if kind is inspect.Parameter.VAR_KEYWORD else (value,))
                for v in values:
                    _check(v, hint, f"{qualified}({name}=...)")
            out = fn(*args, **kwargs)
            if "return" in hints and not inspect.isgeneratorfunction(getattr(fn, "__wrapped__", None)):
                # (a @contextmanager's annotation is its generator's, Iterator[...])
                _check(out, hints["return"], f"{qualified}(...) returned")
        return out

    return wrapper


@pytest.fixture
def type_checked(monkeypatch):
    """Every annotated public function of the functional face, type-checked while the test runs
    (an alias is the same wrapper, so ``fnp.abs is fnp.absolute`` holds)."""
    for module_name, name, wrapper in _wrappers():
        if (module_name, name) not in KNOWN_WRONG:
            monkeypatch.setattr(_module(module_name), name, wrapper)
    return _wrappers


# annotations known to be wrong, left unchecked here (so the functions that call them can be
# checked); none now (fnp.asarray/array said ``-> ArrayImpl`` but return a tracer under a
# transform: fixed, ``-> Array``)
KNOWN_WRONG: set = set()


@functools.cache
def _wrappers() -> tuple[tuple[str, str, object], ...]:
    """``(module, name, checked function)`` for every annotated public function, built once
    per session (resolving ~1,000 annotations takes about half a second)."""
    by_function: dict[int, object] = {}
    out = []
    for module_name in CHECKED_MODULES:
        for name, fn in _annotated(module_name).items():
            if id(fn) not in by_function:
                by_function[id(fn)] = _checked(fn, f"{module_name}.{name}")
            out.append((module_name, name, by_function[id(fn)]))
    return tuple(out)


def _examples():
    rows = []
    for module_name in CHECKED_MODULES:
        if module_name in ("fgrad.nn.initializers", "fgrad.tree"):
            continue  # (their functions are fgrad.nn's and fgrad.tree_util's, examples included)
        module = _module(module_name)
        for name, fn in sorted(_docs.public_functions(module).items()):
            doc = fn.__doc__ or ""
            if ">>>" in doc:
                rows.append(pytest.param(module_name, name, id=f"{module_name}.{name}"))
    return rows


EXAMPLES = _examples()


def _run_example(module_name: str, name: str) -> str:
    fn = getattr(_module(module_name), name)
    doc = inspect.getdoc(fn) or ""
    globs = {"fgrad": fgrad, "fnp": fnp, "np": np}
    globs.update(vars(_module(module_name)))
    test = doctest.DocTestParser().get_doctest(doc, globs, f"{module_name}.{name}", None, 0)
    out = io.StringIO()
    # outputs are test_doc_examples' business; here only the type errors count
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    with fgrad.default_device("cpu"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.run(test, out=out.write)
    return out.getvalue()


@pytest.mark.parametrize("module_name,name", EXAMPLES[::7])
def test_examples_satisfy_annotations(type_checked, module_name, name):
    report = _run_example(module_name, name)
    assert "AnnotationViolation" not in report, report


@pytest.mark.slow
@pytest.mark.parametrize("module_name,name", EXAMPLES)
def test_examples_satisfy_annotations_all(type_checked, module_name, name):
    report = _run_example(module_name, name)
    assert "AnnotationViolation" not in report, report


def test_typing_module_types():
    """``fgrad.typing``'s types accept what fgrad functions accept, and reject the rest."""
    for ok in (fnp.ones(2), np.ones(2), np.float32(1), 1, 2.5, True, 1j):
        assert beartype_door.is_bearable(ok, ArrayLike)
    for bad in ([1.0, 2.0], "1.0", None):
        assert not beartype_door.is_bearable(bad, ArrayLike)
    struct = fgrad.ShapeDtypeStruct((2,), np.float32)
    for ok in ("float32", np.float32, np.dtype("int8"), fnp.ones(2), struct):
        assert beartype_door.is_bearable(ok, fgrad.typing.DTypeLike)
    assert beartype_door.is_bearable((2, 3), fgrad.typing.Shape)
    assert beartype_door.is_bearable(None, fgrad.typing.Axis)
    assert isinstance(fnp.ones((2, 3)), Float[Array, "rows 3"])
    assert not isinstance(fnp.ones((2, 3), dtype=np.int32), Float[Array, "rows 3"])
    assert repr(fgrad.typing.Float) == "fgrad.typing.Float"


def test_typing_defers_jaxtyping():
    """``import fgrad`` does not import jaxtyping (its ~50 ms stay off the import time)."""
    import subprocess
    import sys

    code = "import sys, fgrad, fgrad.nn, fgrad.random; print('jaxtyping' in sys.modules)"
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.strip() == "False"


def test_positive_returns_an_array(type_checked):
    """``fnp.positive`` returned a Python float or a NumPy array unchanged (JAX: an Array);
    its annotation (``-> Array``) caught it."""
    for x in (2.0, np.ones(2, np.float32), fnp.arange(3)):
        out = fnp.positive(x)
        assert isinstance(out, fgrad.Array)
        np.testing.assert_array_equal(np.asarray(out), np.asarray(x))
        assert out.dtype == np.asarray(x).dtype


def test_shapes_are_checked(type_checked):
    """The shape relations in the annotations are enforced under the type-checking fixture."""
    x = fnp.ones((2, 3))
    assert fgrad.nn.softmax(x).shape == (2, 3)
    assert fnp.sin(x).shape == (2, 3)
    assert fgrad.vmap(fgrad.nn.softmax)(x).shape == (2, 3)  # tracers satisfy the annotations
    assert fgrad.grad(lambda v: fnp.sum(fgrad.nn.relu(v)))(x).shape == (2, 3)
    with pytest.raises(AnnotationViolation, match="matmul"):
        fnp.matmul(fnp.ones((2, 3)), fnp.ones((4, 5)))
    with pytest.raises(AnnotationViolation, match="dot_product_attention"):
        q, kv = fnp.ones((1, 4, 2, 8)), fnp.ones((1, 5, 2, 7))  # head sizes 8 and 7
        fgrad.nn.dot_product_attention(q, kv, kv)


def test_lax_scipy_tree_annotations_are_checked(type_checked):
    """The annotations of fgrad.lax, fgrad.scipy and fgrad.tree_util hold for good calls
    (under vmap too) and catch bad ones."""
    import fgrad.lax as lax
    from fgrad.scipy import linalg, special, stats

    # lax.concatenate takes an array of operands as JAX's does (its first annotation said
    # Sequence[ArrayLike] only, which an Array is not)
    assert lax.concatenate(fnp.ones((2, 3)), 0).shape == (6,)
    values, indices = lax.top_k(fnp.arange(12.0).reshape(3, 4), 2)
    assert values.shape == indices.shape == (3, 2)
    assert fgrad.vmap(lambda x: lax.cumsum(x, 0))(fnp.ones((3, 4))).shape == (3, 4)
    assert special.fresnel(fnp.ones(3))[0].shape == (3,)
    assert stats.norm.logpdf(fnp.zeros(2)).dtype == np.float64
    assert stats.multivariate_normal.logpdf(fnp.zeros((5, 2)), fnp.zeros(2), fnp.eye(2)).shape == (5,)
    assert linalg.lu_factor(fnp.eye(3))[1].shape == (3,)
    # csd's y may be None (the power spectral density of x, which welch asks csd for)
    freqs, pxx = fgrad.scipy.signal.csd(fnp.arange(8.0), None, nperseg=4)
    assert freqs.shape == pxx.shape == (3,)
    # gmres's info is an array (0: converged), as JAX's; cg's and bicgstab's are None
    a = fnp.asarray([[4.0, 1.0], [1.0, 3.0]])
    assert int(fgrad.scipy.sparse.linalg.gmres(a, fnp.ones(2))[1]) == 0
    assert fgrad.scipy.sparse.linalg.cg(a, fnp.ones(2))[1] is None
    leaves, treedef = fgrad.tree_util.tree_flatten({"a": 1.0, "b": (2.0, 3.0)})
    assert leaves == [1.0, 2.0, 3.0] and treedef.num_leaves == 3
    with pytest.raises(AnnotationViolation, match="expm"):
        linalg.expm(fnp.ones((2, 3)))                      # not square
    with pytest.raises(AnnotationViolation, match="multivariate_normal"):
        stats.multivariate_normal.logpdf(fnp.zeros(3), fnp.zeros(2), fnp.eye(2))   # n is 3 and 2
    with pytest.raises(AnnotationViolation, match="sort_key_val"):
        lax.sort_key_val(fnp.ones(3), fnp.ones(4))


@pytest.mark.parametrize("name", ["array", "asarray"])
def test_asarray_of_a_tracer_satisfies_its_annotation(monkeypatch, name):
    # (they were annotated ``-> ArrayImpl``; under a transform they return a tracer)
    monkeypatch.setattr(fnp, name, _checked(getattr(fnp, name), f"fgrad.numpy.{name}"))
    convert = getattr(fnp, name)
    assert fgrad.grad(lambda x: fnp.sum(convert(x) ** 2))(fnp.ones(2)).shape == (2,)
