"""Typed PRNG key arrays are pytree leaves and ``fgrad.Array``s (as in JAX), while the
transforms still trace their data; ``fnp.float32(x)`` and the other scalar types convert
tracers (JAX's ``convert_element_type``) and stay usable as dtypes."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax, random, tree, tree_util
from fgrad.testing.device_numerics import assert_equal_up_to_device_ulps


def test_key_is_a_leaf_and_an_array():
    k = random.key(0)
    assert tree.leaves(k) == [k] and tree.structure(k).num_leaves == 1
    keys = random.split(k, 3)
    state = {"keys": keys, "w": fnp.ones(2)}
    leaves = tree.leaves(state)
    assert len(leaves) == 2 and leaves[0] is keys
    seen = []
    out = tree.map(lambda x: seen.append(type(x).__name__) or x, state)
    assert seen == ["PRNGKeyArray", "ArrayImpl"] and out["keys"] is keys
    assert isinstance(k, fgrad.Array) and fnp.asarray(k) is k
    paths = [tree_util.keystr(p) for p, _ in tree_util.tree_leaves_with_path(state)]
    assert paths == ["['keys']", "['w']"]


def test_transforms_still_trace_the_key_data():
    keys = random.split(random.key(1), 3)
    eager = np.asarray(fgrad.vmap(lambda k: random.normal(k, (2,)))(keys))
    assert_equal_up_to_device_ulps(np.asarray(fgrad.jit(fgrad.vmap(lambda k: random.normal(k, (2,))))(keys)),
                                   eager)  # exact on NumPy, a few ulps on a GPU (docs/gpu_numerics.md)
    carry, ys = lax.scan(lambda c, k: (c + random.normal(k), random.uniform(k)), 0.0, keys)
    np.testing.assert_allclose(float(carry), sum(float(random.normal(keys[i])) for i in range(3)), rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(ys), [float(random.uniform(keys[i])) for i in range(3)])
    state = {"k": random.key(2), "x": fnp.ones(2)}
    out = fgrad.jit(lambda s: tree.map(lambda v: v, s))(state)
    np.testing.assert_array_equal(np.asarray(random.key_data(out["k"])),
                                  np.asarray(random.key_data(state["k"])))
    g = fgrad.grad(lambda x, k: fnp.sum(x * random.normal(k, (2,))))(fnp.ones(2), random.key(3))
    np.testing.assert_array_equal(np.asarray(g), np.asarray(random.normal(random.key(3), (2,))))


@pytest.mark.parametrize("name", ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint32", "float16",
                                  "float32", "float64", "complex64", "complex128", "bfloat16"])
def test_scalar_types_convert_and_stay_dtypes(name):
    if name == "bfloat16":  # bfloat16 lives on the CPU (CuPy and the fake device have none)
        with fgrad.default_device("cpu"):
            _check_scalar_type(name)
    else:
        _check_scalar_type(name)


def _check_scalar_type(name):
    t = getattr(fnp, name)
    dt = np.dtype(t)
    assert dt.name == name.rstrip("_") or (name == "bool_" and dt == np.bool_)
    assert fnp.ones(2, t).dtype == dt and t == dt.type and {dt.type: 1}[t] == 1
    assert isinstance(dt.type(1), t)
    # a value, and a tracer under jit / vmap: an Array of that dtype, strongly typed
    v = t(3)
    assert isinstance(v, fgrad.Array) and v.dtype == dt and not v.weak_type
    assert fgrad.jit(lambda x: t(x))(fnp.asarray([1.0, 2.0])).dtype == dt
    assert fgrad.vmap(lambda x: t(x))(fnp.arange(3.0)).dtype == dt


def test_scalar_type_under_grad_is_a_cast():
    # d/dx float32(x)**2 at x = 1.5 (float64 input): 3, computed in float32, cast back
    g = fgrad.grad(lambda x: fnp.float32(x) ** 2)(fnp.asarray(1.5))
    assert g.dtype == np.float64 and float(g) == 3.0
    assert issubclass(fnp.float32, np.floating) and fnp.issubdtype(fnp.bfloat16, fnp.floating)
    assert fnp.float32 is not np.float32 and fnp.float_ is fnp.float64 and fnp.bool is fnp.bool_


def test_scalar_types_compare_unequal_as_jax():
    """``jnp.uint8 != jnp.bool_`` raised TypeError ("descriptor '__eq__' requires a 'numpy.bool'
    object"): the metaclass's ``__ne__`` called ``cls.__eq__``, which finds the NumPy scalar
    type's own method.  The type-promotion page's tables loop over dtypes with ``!=``."""
    assert fnp.uint8 != fnp.bool_ and not (fnp.uint8 == fnp.bool_)
    assert not (fnp.float32 != fnp.float32) and not (fnp.float32 != np.float32)
    assert not (fnp.float32 != np.dtype("float32")) and fnp.int8 != fnp.int16
    assert fnp.float32 != "float32"  # as JAX (a type is not its name)
