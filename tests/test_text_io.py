"""fgrad.numpy text and archive I/O: loadtxt, savetxt, genfromtxt, fromregex,
savez_compressed, and load never unpickling -- compared with NumPy's own readers."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fgrad
import fgrad.numpy as fnp

TABLE = "# x y z\n1 2 3\n4 5 6\n7 8 9\n"


def _same(got, want):
    assert isinstance(got, fgrad.Array)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("kw", [
    {}, {"dtype": int}, {"usecols": (0, 2)}, {"skiprows": 2}, {"unpack": True},
    {"max_rows": 2, "skiprows": 1},
    {"ndmin": 2, "usecols": 1}, {"usecols": 1}, {"converters": {0: lambda s: float(s) * 10}},
    {"dtype": np.complex128},
])
def test_loadtxt_matches_numpy(kw):
    _same(fnp.loadtxt(io.StringIO(TABLE), **kw), np.loadtxt(io.StringIO(TABLE), **kw))


def test_loadtxt_delimiter_comments_quotechar():
    text = '% head\n1;"2";3\n4;5;6 % tail\n'
    kw = {"delimiter": ";", "comments": "%", "quotechar": '"'}
    _same(fnp.loadtxt(io.StringIO(text), **kw), np.loadtxt(io.StringIO(text), **kw))


def test_savetxt_matches_numpy(tmp_path):
    x = np.array([[1.5, -2.0], [3.25, 4.0]])
    for kw in ({}, {"fmt": "%g", "delimiter": ","}, {"header": "a b", "footer": "end"}, {"fmt": "%.3f"}):
        got, want = io.StringIO(), io.StringIO()
        fnp.savetxt(got, fnp.asarray(x), **kw)
        np.savetxt(want, x, **kw)
        assert got.getvalue() == want.getvalue()
    z = np.array([1 + 2j, -3.5j])
    got, want = io.StringIO(), io.StringIO()
    fnp.savetxt(got, fnp.asarray(z))
    np.savetxt(want, z)
    assert got.getvalue() == want.getvalue()
    path = tmp_path / "x.txt"
    fnp.savetxt(path, fnp.arange(6).reshape(2, 3), fmt="%d")
    _same(fnp.loadtxt(path, dtype=int), np.arange(6).reshape(2, 3))


@settings(max_examples=15, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=4),
                  elements=st.floats(allow_nan=True, allow_infinity=True, width=64)))
def test_savetxt_loadtxt_round_trip_is_exact(x):
    buf = io.StringIO()
    fnp.savetxt(buf, fnp.asarray(x))
    buf.seek(0)
    back = fnp.loadtxt(buf, ndmin=x.ndim)
    np.testing.assert_array_equal(np.asarray(back).reshape(x.shape), x)


def test_genfromtxt_matches_numpy():
    text = "1,,3\n4,5,6\n7,8,\n# c\n9,9,9\n"
    for kw in ({}, {"filling_values": -1.0}, {"skip_footer": 1}, {"usecols": (0, 1)}, {"dtype": None},
               {"missing_values": "5", "filling_values": 0.0}, {"max_rows": 2}):
        _same(fnp.genfromtxt(io.StringIO(text), delimiter=",", **kw),
              np.genfromtxt(io.StringIO(text), delimiter=",", **kw))


def test_fromregex():
    text = "x=1 y=2.5\nx=3 y=4.0\n"
    got = fnp.fromregex(io.StringIO(text), r"x=(\d+) y=(\S+)", float)
    want = np.fromregex(io.StringIO(text), r"x=(\d+) y=(\S+)", [("x", float), ("y", float)])
    _same(got, np.stack([want["x"], want["y"]], axis=1))
    _same(fnp.fromregex(io.BytesIO(b"a1 a22"), rb"a(\d+)", np.int32), np.array([1, 22], np.int32))


def test_savez_compressed_round_trip():
    buf = io.BytesIO()
    fnp.savez_compressed(buf, fnp.ones(2), w=fnp.arange(3))
    buf.seek(0)
    out = fnp.load(buf)
    _same(out["arr_0"], np.ones(2))
    _same(out["w"], np.arange(3))
    buf.seek(0)
    assert set(np.load(buf).files) == {"arr_0", "w"}


def test_load_never_unpickles():
    """``allow_pickle=True`` used to be passed through to numpy.load (running the pickle)."""
    class Boom:
        def __reduce__(self):
            return (print, ("unpickled!",))

    buf = io.BytesIO()
    np.save(buf, np.array([Boom()], dtype=object), allow_pickle=True)
    for call in (lambda: fnp.load(buf, allow_pickle=True), lambda: fnp.load(buf, None, True),
                 lambda: fnp.load(buf)):
        buf.seek(0)
        with pytest.raises(ValueError, match="pickle"):
            call()
    raw = io.BytesIO(pickle.dumps([1, 2]))
    with pytest.raises((ValueError, pickle.UnpicklingError)):
        fnp.load(raw)


def test_non_numeric_data_raises():
    with pytest.raises(TypeError, match="numeric"):
        fnp.loadtxt(io.StringIO("a b"), dtype=str)
    with pytest.raises(TypeError, match="numeric"):
        fnp.loadtxt(io.StringIO("1 2"), dtype=object)
    with pytest.raises(TypeError, match="numeric"):
        fnp.loadtxt(io.StringIO("1 2"), dtype=[("a", float), ("b", float)])
    with pytest.raises(TypeError, match="non-numeric"):
        fnp.genfromtxt(io.StringIO("1,a\n2,b"), delimiter=",", dtype=None)
    with pytest.raises(TypeError, match="structured"):
        fnp.genfromtxt(io.StringIO("a,b\n1,2"), delimiter=",", names=True)
    with pytest.raises(NotImplementedError, match="masked"):
        fnp.genfromtxt(io.StringIO("1,2"), delimiter=",", usemask=True)


def test_savetxt_under_jit_raises():
    with pytest.raises(Exception, match="(?i)tracer|concrete"):
        fgrad.jit(lambda x: fnp.savetxt(io.StringIO(), x) or x)(fnp.ones(2))
