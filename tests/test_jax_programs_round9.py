"""Round 9 of the JAX programs (tests/jax_programs_round9/): programs in the style of JAX's
documentation and tutorials (custom Jaxpr interpreters, custom derivative rules, generalized
convolutions, stateful computations, typed PRNG keys, ...), run unchanged with ``import jax``
resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with
``JAX_ENABLE_X64=1``.  Their output is compared with JAX 0.10.2's, stored in
``jax_programs_round9/expected/`` (and with the installed JAX by the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).  Below them, the regression tests of the defects
the programs and the issue found (docs/jax-programs-round9.md).

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round9.py -m
slow`` runs all of them in both modes.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round9"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"jaxpr_interpreter", "sharp_edges"}  # the default run's programs (32-bit mode)
# programs that compute in float32 with 64-bit types on: float32 tolerances there
RTOL_PROGRAM = {("conv_general", "64"): 2e-5}

(test_program_prints_what_jax_prints_32bit, test_program_prints_what_jax_prints,
 test_stored_output_is_live_jax, test_every_program_has_stored_outputs_and_no_fgrad_import) = program_tests(
    PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 10)


# ---- regression tests -------------------------------------------------------------------------


def _int_division_cases(m, lax_m):
    """(label, thunk) pairs of integer division by zero and INT_MIN / -1."""
    cases = []
    for dt in ("int8", "int32", "int64", "uint8", "uint32", "uint64"):
        a = m.array([7, -7, 0, 5] if dt[0] == "i" else [7, 0, 5, 255], dt)
        z = m.zeros(4, dt)
        cases += [(f"{dt} //", lambda a=a, z=z: a // z), (f"{dt} %", lambda a=a, z=z: a % z),
                  (f"{dt} floor_divide", lambda a=a, z=z: m.floor_divide(a, z)),
                  (f"{dt} remainder", lambda a=a, z=z: m.remainder(a, z)),
                  (f"{dt} fmod", lambda a=a, z=z: m.fmod(a, z)),
                  (f"{dt} divmod", lambda a=a, z=z: m.stack(m.divmod(a, z))),
                  (f"{dt} lax.div", lambda a=a, z=z: lax_m.div(a, z)),
                  (f"{dt} lax.rem", lambda a=a, z=z: lax_m.rem(a, z)),
                  (f"{dt} mixed", lambda a=a, dt=dt: lax_m.div(a, m.array([2, 0, 3, 0], dt))),
                  (f"{dt} scalar", lambda a=a: a // 0)]
    big = m.array([-2 ** 31], "int32")
    minus = m.array([-1], "int32")
    cases += [("min // -1", lambda: big // -1), ("lax.div min", lambda: lax_m.div(big, minus)),
              ("lax.rem min", lambda: lax_m.rem(big, minus)), ("min % -1", lambda: big % -1)]
    return cases


def test_integer_division_by_zero_gives_xla_values():
    """XLA defines integer division by zero: ``lax.div(x, 0)`` has every bit set (-1, or the
    largest unsigned value), ``lax.rem(x, 0) == x``, and JAX's ``x // 0`` (built on them) is
    -2 for a nonzero signed ``x`` and -1 for 0.  fgrad gave NumPy's 0; it must not warn."""
    i32 = fnp.array([7, -7, 0, 5], fnp.int32)
    z32 = fnp.zeros(4, fnp.int32)
    u8 = fnp.array([7, 0, 5, 255], fnp.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # JAX 0.10.2's values
        assert (i32 // z32).tolist() == [-2, -2, -1, -2]
        assert fnp.floor_divide(i32, 0).tolist() == [-2, -2, -1, -2]
        assert (u8 // fnp.zeros(4, fnp.uint8)).tolist() == [255] * 4
        assert lax.div(i32, z32).tolist() == [-1] * 4
        assert lax.div(u8, fnp.zeros(4, fnp.uint8)).tolist() == [255] * 4
        assert lax.rem(i32, z32).tolist() == [7, -7, 0, 5]
        assert lax.rem(u8, fnp.zeros(4, fnp.uint8)).tolist() == [7, 0, 5, 255]
        assert (i32 % z32).tolist() == [0] * 4 and fnp.fmod(i32, z32).tolist() == [0] * 4
        assert [q.tolist() for q in fnp.divmod(i32, z32)] == [[-2, -2, -1, -2], [0] * 4]
        # nonzero divisors unchanged (C truncation for lax, floor for //)
        assert lax.div(fnp.array([7, -7], fnp.int32), fnp.array([2, 2], fnp.int32)).tolist() == [3, -3]
        assert lax.rem(fnp.array([7, -7], fnp.int32), fnp.array([2, 2], fnp.int32)).tolist() == [1, -1]
        assert (fnp.array([7, -7]) // 2).tolist() == [3, -4]
        # under jit and vmap the same
        assert fgrad.jit(lambda a, b: a // b)(i32, z32).tolist() == [-2, -2, -1, -2]
        assert fgrad.jit(lax.div)(i32, z32).tolist() == [-1] * 4
        assert fgrad.vmap(lax.rem)(i32, z32).tolist() == [7, -7, 0, 5]
        # floats keep IEEE division
        assert fnp.isinf(fnp.floor_divide(fnp.ones(1), 0.0)).tolist() == [True]


@pytest.mark.slow  # JAX compiles every call
def test_integer_division_by_zero_matches_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    for x64 in (False, True):
        with jax.enable_x64(x64), fgrad.enable_x64(x64), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # JAX warns about int64 with 64-bit types off
            want = _int_division_cases(jnp, jax.lax)
            got = _int_division_cases(fnp, lax)
            for (label, w), (_, g) in zip(want, got):
                w, g = w(), g()
                assert g.dtype == w.dtype and g.tolist() == w.tolist(), (x64, label, g, w)


def test_lists_to_elementwise_functions_raise_jax_type_error():
    """JAX's ``jnp`` functions reject Python lists and tuples (``jnp.sin([1.0])``: TypeError
    "sin requires ndarray or scalar arguments, got <class 'list'> at position 0."); fgrad's
    elementwise functions converted them as NumPy does."""
    msg = "requires ndarray or scalar arguments, got <class '{}'> at position {}"
    with pytest.raises(TypeError, match=msg.format("list", 0).replace("(", r"\(")) as e:
        fnp.sin([1.0, 2.0])
    assert str(e.value).startswith("sin ")
    with pytest.raises(TypeError, match="^add " + msg.format("tuple", 1)):
        fnp.add(1.0, (2.0,))
    with pytest.raises(TypeError, match="^true_divide "):
        fnp.divide([1.0], 2.0)
    with pytest.raises(TypeError, match="^absolute "):
        fnp.abs([-1])
    for f in (fnp.exp, fnp.sqrt, fnp.tanh, fnp.floor, fnp.isnan, fnp.negative):
        with pytest.raises(TypeError, match="requires ndarray or scalar"):
            f([1.0])
    # arrays, scalars, NumPy arrays and the constructors still work, as in JAX
    assert float(fnp.sin(0.0)) == 0.0 and fnp.add(np.ones(2), 1).tolist() == [2.0, 2.0]
    assert fnp.sin(fnp.array([0.0, 0.0])).tolist() == [0.0, 0.0]
    assert fnp.asarray([1, 2]).tolist() == [1, 2] and fnp.stack([fnp.ones(1), fnp.ones(1)]).shape == (2, 1)
    assert fnp.sum(fnp.asarray([1.0, 2.0])) == 3.0


@pytest.mark.slow  # JAX compiles every call
def test_lists_to_elementwise_functions_match_live_jax():
    jnp = pytest.importorskip("jax.numpy")
    from fgrad.numpy import _elementwise

    checked = 0
    for name, f in _elementwise._FACES.items():
        j = getattr(jnp, name, None)
        if j is None:
            continue
        nargs = 1 if f.op_spec.family == "unary" else 2
        for args in ([[1, 2]] * nargs, [1.0] + [(1, 2)] * (nargs - 1)):
            try:
                j(*args)
                want = None
            except TypeError as e:
                want = str(e)
            if want is None or "requires ndarray or scalar" not in want:
                continue
            with pytest.raises(TypeError) as got:
                f(*args)
            # one function serves NumPy's aliases (arcsin/asin): the name may be the other one
            assert str(got.value).split(" ", 1)[1] == want.split(" ", 1)[1], name
            checked += 1
    assert checked > 100


def test_lax_primitive_objects_are_the_ones_jaxprs_record():
    """``lax.add_p``, ``lax.exp_p``, ...: programs key jaxpr interpreters on them (JAX's
    "Writing custom Jaxpr interpreters"); fgrad.lax had none."""
    eqns = fgrad.make_jaxpr(lambda x: fnp.exp(fnp.tanh(x)) * 2.0 + fnp.sin(x))(fnp.ones(3)).eqns
    assert [e.primitive for e in eqns] == [lax.tanh_p, lax.exp_p, lax.mul_p, lax.sin_p, lax.add_p]
    assert lax.add_p.name == "add" and not lax.add_p.multiple_results
    assert float(lax.add_p.bind(1.0, 2.0)) == 3.0
    assert lax.max_p.bind(fnp.array([1.0, 5.0]), fnp.array([3.0, 2.0])).tolist() == [3.0, 5.0]
    # div_p/rem_p (round 14): JAX's integer semantics through `lax.div`/`lax.rem`, not fgrad's
    # true-division and NumPy-remainder primitives
    assert lax.div_p.bind(fnp.asarray([-7, 7]), 2).tolist() == [-3, 3]
    assert lax.rem_p.bind(fnp.asarray([-7, 7]), 0).tolist() == [-7, 7]


# the parameters of exported primitives that take some (JAX's names and values)
_PRIMITIVE_PARAMS = {"integer_pow_p": {"y": 3}, "squeeze_p": {"dimensions": ()},
                     "reduce_precision_p": {"exponent_bits": 5, "mantissa_bits": 10},
                     "stack_p": {"axis": 0}, "unstack_p": {"axis": 0},
                     "slice_p": {"start_indices": (1,), "limit_indices": (3,), "strides": None}}


@pytest.mark.slow  # JAX compiles every call
def test_lax_primitive_objects_match_live_jax():
    jax = pytest.importorskip("jax")
    from fgrad import _lax_primitives

    x, y = np.array([0.3, 0.7, 0.2]), np.array([0.5, 0.25, 0.9])
    xi, yi = np.array([7, -7, 3]), np.array([2, 3, 1])
    with jax.enable_x64(True):
        for name in _lax_primitives.__all__:
            jp, fp = getattr(jax.lax, name), getattr(lax, name)
            assert fp.name == jp.name and fp.multiple_results == jp.multiple_results, name
            if isinstance(fp, _lax_primitives.JaxPrimitive):
                continue  # round 14's views take parameters: JAX's own jaxprs run through them in
                # tests/test_jax_api_round14.py::test_views_run_jaxs_jaxprs_live
            compared = 0
            params = _PRIMITIVE_PARAMS.get(name, {})
            for args in ((x,), (x, y), (xi,), (xi, yi), (np.array(0.25), x, y), (np.array(0), xi, yi)):
                try:
                    want = np.asarray(jp.bind(*args, **params))
                except Exception:  # noqa: BLE001  (an operand kind or arity the primitive rejects)
                    continue
                got = np.asarray(fp.bind(*args, **params))
                assert got.dtype == want.dtype, name
                np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=name)
                compared += 1
            assert compared or name in {"cos_p", "sin_p", "exp2_p", "logistic_p", "real_p", "imag_p",
                                        "polygamma_p", "igamma_grad_a_p", "zeta_p", "complex_p"}, name


def test_make_jaxpr_and_eval_shape_trace_python_scalars_weakly():
    """JAX: ``make_jaxpr(f)(1.0, 2.0)`` traces weakly typed scalars (``out_avals`` print
    ``weak_type=True``), as jit does; fgrad's make_jaxpr/eval_shape made them strong arrays."""
    cj = fgrad.make_jaxpr(lambda a, b: a * b + a)(1.0, 2.0)
    assert all(a.weak_type for a in cj.in_avals) and cj.out_avals[0].weak_type
    assert fgrad.eval_shape(lambda a: a * 2, 1.0).weak_type
    assert not fgrad.make_jaxpr(lambda a: a * 2)(fnp.float32(1.0)).out_avals[0].weak_type
    assert fgrad.make_jaxpr(lambda a: a * 2)(3).in_avals[0].dtype == fnp.asarray(3).dtype


def test_typed_key_str_and_issubdtype():
    """JAX prints a key array as ``Array((), dtype=key<fry>) overlaying:\\n[0 0]`` (the data's
    str), and ``jnp.issubdtype(key.dtype, jax.dtypes.prng_key)`` is True; fgrad printed the
    data's repr and its ``fgrad.numpy.issubdtype`` raised on a key dtype."""
    key = fgrad.random.key(1701)
    assert str(key) == repr(key) == "Array((), dtype=key<fry>) overlaying:\n[   0 1701]"
    assert fnp.issubdtype(key.dtype, fgrad.dtypes.prng_key)
    assert fnp.issubdtype(key.dtype, fgrad.dtypes.extended) and fnp.issubdtype(key.dtype, np.generic)
    assert not fnp.issubdtype(key.dtype, fnp.integer)
    assert not fnp.issubdtype(fgrad.random.PRNGKey(0).dtype, fgrad.dtypes.prng_key)
    assert not fnp.issubdtype(np.int32, fgrad.dtypes.prng_key)
    assert fgrad.dtypes.issubdtype is fnp.issubdtype


def test_poisson_draws_jax_stream():
    """JAX's Poisson sampler: Knuth's method on float32 uniforms below a rate of 10, Hoermann's
    rejection above, both from the same key; fgrad split the key and drew float64 uniforms,
    so every stream differed from JAX's."""
    r = fgrad.random
    # JAX 0.10.2
    assert r.poisson(r.key(17), 3.0, (6,)).tolist() == [6, 3, 0, 3, 2, 2]
    assert r.poisson(r.key(2), 25.0, (6,)).tolist() == [31, 24, 25, 32, 37, 21]
    lams = np.array([0.0, 1.0, 9.9, 10.0, 100.0, 1e4])
    assert r.poisson(r.key(3), lams).tolist() == [0, 1, 13, 8, 108, 9876]
    with fgrad.enable_x64(False):
        assert r.poisson(r.PRNGKey(1), 0.5, (6,)).tolist() == [0, 0, 0, 0, 1, 0]
    x = np.asarray(r.poisson(r.key(6), np.array([0.3, 4.0, 30.0]), (4000, 3)))
    np.testing.assert_allclose(x.mean(0), [0.3, 4.0, 30.0], rtol=0.06)


@pytest.mark.slow  # JAX compiles every call
def test_poisson_matches_live_jax():
    jax = pytest.importorskip("jax")
    for x64 in (False, True):
        with jax.enable_x64(x64), fgrad.enable_x64(x64):
            for mod_key, lam, shape in ((17, 3.0, (50,)), (4, 7.5, (2, 3)), (2, 25.0, (40,)),
                                        (5, np.array([-1.0, np.nan, 2.0, 0.0]), None)):
                want = jax.random.poisson(jax.random.key(mod_key), lam, shape)
                got = fgrad.random.poisson(fgrad.random.key(mod_key), lam, shape)
                assert got.dtype == want.dtype and got.tolist() == want.tolist(), (x64, mod_key)


def test_lists_rejected_where_jax_checks_arrays():
    """Beyond the elementwise functions: ``jnp.cumsum([1, 2])``, ``jnp.dot(x, [1, 2])``,
    ``jnp.repeat(x, [1, 2])``, ... raise JAX's TypeError; fgrad converted the lists."""
    x = fnp.arange(3.0)
    for call, name, pos in ((lambda: fnp.cumsum([1, 2]), "cumsum", 0),
                            (lambda: fnp.argmax((1, 2)), "argmax", 0),
                            (lambda: fnp.dot(x, [1.0, 2.0, 3.0]), "dot", 1),
                            (lambda: fnp.repeat(x, [1, 2, 0]), "repeat", 1),
                            (lambda: fnp.sort([3, 1]), "sort", 0), (lambda: fnp.around([1.5]), "round", 0)):
        msg = f"^{name} requires ndarray or scalar arguments, got .* position {pos}"
        with pytest.raises(TypeError, match=msg):
            call()
    # shapes, axes and reps given as tuples stay accepted, as in JAX
    assert fnp.reshape(x, (3, 1)).shape == (3, 1) and fnp.tile(x, (2,)).shape == (6,)
    assert fnp.transpose(fnp.ones((2, 3)), (1, 0)).shape == (3, 2) and x.reshape((1, 3)).shape == (1, 3)
    assert fnp.concatenate([x, x]).shape == (6,) and fnp.pad(x, (1, 1)).shape == (5,)
    # the table names functions only (constants such as fnp.e stay numbers)
    from fgrad.numpy._arraylike import ARRAY_POSITIONS

    assert all(len(n) > 1 and callable(getattr(fnp, n)) for n in ARRAY_POSITIONS)
    assert isinstance(fnp.e, float) and isinstance(fnp.pi, float)


@pytest.mark.slow  # JAX compiles every call
def test_lists_rejected_where_live_jax_rejects():
    jnp = pytest.importorskip("jax.numpy")
    from fgrad.numpy._arraylike import ARRAY_POSITIONS

    checked = 0
    for name, positions in ARRAY_POSITIONS.items():
        for i in positions:
            for nargs in range(max(positions) + 1, 4):  # the arity at which JAX checks the arrays
                jargs = [jnp.array([1, 2])] * nargs
                jargs[i] = [1, 2]
                try:
                    getattr(jnp, name)(*jargs)
                    want = ""
                except Exception as e:  # noqa: BLE001  (an arity or value error: try more arguments)
                    want = str(e)
                if "requires ndarray" in want:
                    args = [fnp.array([1, 2])] * nargs
                    args[i] = [1, 2]
                    with pytest.raises(TypeError, match=f"requires ndarray.* at position {i}"):
                        getattr(fnp, name)(*args)
                    checked += 1
                    break
    assert checked > 150


def test_python_ints_wrap_into_narrow_integer_types():
    """JAX converts a Python int operand to the array's integer type modulo 2**bits
    (``int8(1) + 300 == 45``); NumPy 2 raised OverflowError, eager and under jit.  An int
    beyond the default int type stays an OverflowError, as in JAX."""
    assert int(fnp.int8(1) + 300) == 45 and (fnp.ones(2, fnp.uint8) + (-1)).tolist() == [0, 0]
    assert fgrad.jit(lambda v: v * 300)(fnp.ones(2, fnp.int8)).tolist() == [44, 44]
    assert fgrad.vmap(lambda v: v + 300)(fnp.ones(2, fnp.int8)).tolist() == [45, 45]
    assert bool(fnp.uint8(3) == 259) and (fnp.ones(2, fnp.float16) + 300).tolist() == [301.0, 301.0]
    assert (fnp.arange(3, dtype=fnp.int32) + 2 ** 40).tolist() == [0, 1, 2]  # x64: fits int64, wraps
    with fgrad.enable_x64(False), pytest.raises(OverflowError):
        fnp.arange(3, dtype=fnp.int32) + 2 ** 40


def test_array_of_a_list_of_typed_values_takes_jax_dtype():
    """``jnp.array([jnp.float32(1), 2])`` is float32 in JAX (Python numbers weak, arrays'
    dtypes promoted), never weak; fgrad used NumPy's rule (float64), failed on bfloat16
    entries, and under jit truncated ``[int32_tracer, 2.5]`` to integers."""
    assert fnp.array([fnp.float32(1.0), 2]).dtype == np.float32
    assert fnp.array([fnp.ones(2, fnp.float32), [1.0, 2.0]]).dtype == np.float32
    assert fnp.array([fnp.ones((), fnp.float16), 1.5]).dtype == np.float16
    assert fnp.array([fnp.asarray(1.0), fnp.float16(2)]).dtype == np.float16
    assert fnp.array((fnp.float32(1), 1j)).dtype == np.complex64
    with fgrad.default_device("cpu"):  # CuPy (and the fake device) have no bfloat16
        assert fnp.array([fnp.bfloat16(1), 2.0]).dtype == fnp.bfloat16
    assert fnp.array([fnp.int32(1), 2.5]).tolist() == [1.0, 2.5]
    got = fgrad.jit(lambda v: fnp.array([v, 2.5]))(fnp.int32(1))
    assert got.tolist() == [1.0, 2.5] and got.dtype == np.float64
    assert not fnp.array([fnp.asarray(1.0), 2.0]).weak_type
    assert not fgrad.jit(lambda v: fnp.array([v, v * 2]))(1.0).weak_type
    with pytest.raises(OverflowError):
        fnp.array([fnp.int8(1), 300])
    assert fnp.array([1, 2.0]).dtype == np.float64 and fnp.array([[1, 2], [3, 4]]).dtype == np.int64


@pytest.mark.slow  # JAX compiles every call
def test_array_of_a_list_matches_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    cases = [lambda m: m.array([m.float32(1.0), 2]), lambda m: m.array([m.ones(2, m.float16), [1.0, 2.0]]),
             lambda m: m.array([m.asarray(1.0), m.float16(2)]), lambda m: m.array([m.int32(1), 2.5]),
             lambda m: m.array([m.asarray(1.0), 2.0]), lambda m: m.array([m.int8(1), 2])]
    for x64 in (False, True):
        with jax.enable_x64(x64), fgrad.enable_x64(x64):
            for case in cases:
                want, got = case(jnp), case(fnp)
                assert (got.dtype, got.weak_type, got.tolist()) == (want.dtype, want.weak_type, want.tolist())


def test_compiled_takes_the_types_it_was_lowered_for():
    """JAX's ``jit(f).lower(...).compile()`` raises TypeError for arguments of other shapes or
    dtypes; fgrad's ran them (retracing); and ``lower`` took no `ShapeDtypeStruct`."""
    g = lambda a, b: fnp.dot(a, b) + 1.0  # noqa: E731
    spec = fgrad.ShapeDtypeStruct((4, 3), np.float32)
    c = fgrad.jit(g).lower(spec, fgrad.ShapeDtypeStruct((3,), np.float32)).compile()
    assert c(fnp.ones((4, 3), np.float32), fnp.ones(3, np.float32)).tolist() == [4.0] * 4
    with pytest.raises(TypeError, match="compiled with float32\\[4,3\\] and called with float32\\[5,3\\]"):
        c(fnp.ones((5, 3), np.float32), fnp.ones(3, np.float32))
    with pytest.raises(TypeError, match="Argument types differ"):
        c(fnp.ones((4, 3)), fnp.ones(3))  # float64
    c2 = fgrad.jit(g).lower(fnp.ones((2, 3)), fnp.ones(3)).compile()
    assert c2(fnp.zeros((2, 3)), fnp.ones(3)).tolist() == [1.0, 1.0]
    c3 = fgrad.jit(lambda x, n: x * n, static_argnums=1).lower(fnp.ones(2), 3).compile()
    assert c3(fnp.ones(2)).tolist() == [3.0, 3.0]  # JAX's Compiled takes the dynamic arguments only
    with pytest.raises(TypeError, match="input pytree does not match"):
        c3(fnp.ones(2), 3)


def test_complex_cotangent_of_a_real_input_is_its_real_part():
    """``grad(lambda x: real(exp(1j * x)))(0.7)`` is ``-sin(0.7)`` in JAX; under fgrad's jit
    the gradient of a weak real input came back complex (and eager mode warned)."""
    f = lambda x: fnp.real(fnp.exp(1j * x))  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for g in (fgrad.grad(f), fgrad.jit(fgrad.grad(f))):
            out = g(0.7)
            assert out.dtype == np.float64 and float(out) == pytest.approx(-np.sin(0.7), rel=1e-14)
        out = fgrad.jit(fgrad.grad(f))(fnp.float32(0.7))
        assert out.dtype == np.float32
        h = lambda t: fnp.real(fnp.sum(fnp.exp(1j * t * fnp.arange(3.0))))  # noqa: E731
        want = -sum(k * np.sin(0.4 * k) for k in range(3))
        assert float(fgrad.grad(h)(0.4)) == pytest.approx(want, rel=1e-12)
        assert float(fgrad.jit(fgrad.grad(h))(0.4)) == pytest.approx(want, rel=1e-12)
