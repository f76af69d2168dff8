"""A whole LSTM or GRU layer's recurrence as one primitive (as PyTorch's fused RNN kernels).

The LSTM is described here; the GRU (`gru_sequence`, below) is built the same way, and both
get their rules from one description (`_Cell`).

``lstm_sequence(xg, h0, c0, w_hh, b_hh, reverse=False)`` runs, for t = 0 .. T-1 (T-1 .. 0
with ``reverse``)::

    g_t = xg[t] + h_{t-1} @ w_hh.T + b_hh          # xg = x @ w_ih.T + b_ih, precomputed
    i, f, o = sigmoid(g_t[i, f, o chunks]);  n = tanh(g_t[g chunk])     # gate order i, f, g, o
    c_t = f * c_{t-1} + i * n;  h_t = o * tanh(c_t)

and returns ``(hs, c_last)``: every ``h_t`` (T, B, H) and the last cell state (B, H).  The
primitive, ``lstm_sequence``, outputs three more arrays that are *residuals*, not results:
each step's cell state, gate activations and ``tanh(c_t)``.  They carry no derivative (as
if under ``stop_gradient``); their only use is that the derivative primitives read them
instead of running the recurrence again:

* JVP: ``lstm_sequence_jvp`` -- the tangent recurrence, linear in the tangents (the weight
  tangent's part ``h_{t-1} @ dw.T`` is one matmul over all steps);
* transpose (reverse mode): ``lstm_sequence_vjp`` -- the backward-in-time recurrence,
  linear in the output cotangents; it accumulates ``dw_hh`` as one matmul over all steps.

Each of the two is the other's transpose.  Their own derivatives (second order: a Hessian,
``create_graph=True``) are those of the same recurrence written with fgrad's elementwise and
contraction primitives (`lstm_reference`), so every order is exact, only slower.  The
residual inputs are caches of values determined by the primals, so those rules give them
no derivative.  Batching: unbatched weights fold the mapped axis into the batch axis;
anything else is the vmap of the reference.

Numbers: the same operations in the same order as the step-by-step reference
(`lstm_reference`): PyTorch's ``sigmoid(x) = 1 / (1 + exp(-x))`` (one ``exp`` call serves
the three sigmoid gates, their pre-activations negated in advance: exact) or, where NumPy's
float32 ``tanh`` has AVX-512 loops (`_SIGMOID_BY_TANH`), ``tanh(x / 2) / 2 + 1 / 2`` (one
``tanh`` call serves all four gates), ``tanh``, the product order above.  The GRU computes
its sigmoids by ``exp``, as PyTorch.

Example::

    >>> import numpy as np
    >>> T, B, H = 3, 2, 4
    >>> r = np.random.default_rng(0)
    >>> xg = r.standard_normal((T, B, 4 * H))
    >>> h0 = c0 = np.zeros((B, H))
    >>> w, b = r.standard_normal((4 * H, H)), r.standard_normal(4 * H)
    >>> hs, c = lstm_sequence(xg, h0, c0, w, b)
    >>> hs.shape, c.shape
    ((3, 2, 4), (2, 4))
    >>> ref_hs, ref_c = lstm_reference(xg, h0, c0, w, b)
    >>> bool(np.allclose(hs, ref_hs) and np.allclose(c, ref_c))
    True
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.array import ShapedArray, get_aval
from ..core.constants import zeros_like
from ..core.narrow_floats import dtype_kind, finfo, float32 as F32, is_narrow
from ..core.primitive import Primitive
from ..core.quiet import quiet
from ..core.rules import defbatch, defjvp_rule, deflinear_in, is_undefined
from ..transforms.ad import jvp, vjp
from ..transforms.batching import vmap
from . import elementwise as ew
from .linalg import dot_general
from .shape import bdim_to_front, reshape, transpose
from .structural import concatenate, slice_in_dim, split

__all__ = ["lstm_sequence", "lstm_reference", "lstm_sequence_p", "lstm_sequence_jvp_p",
           "lstm_sequence_vjp_p", "gru_sequence", "gru_reference", "gru_sequence_p",
           "gru_sequence_jvp_p", "gru_sequence_vjp_p"]


# ---------------------------------------------------------------------------------------
# the implementations (backend ``xp``: NumPy or CuPy)


def _steps(T: int, reverse: bool) -> range:
    return range(T - 1, -1, -1) if reverse else range(T)


def _out_last(f):
    def call(*args):
        return f(*args[:-1], out=args[-1])

    return call


def _step_calls(xp) -> tuple:
    """``(add, subtract, multiply, divide, exp, tanh, matmul)`` of ``xp`` taking the
    output array as their last positional argument: NumPy's own ufuncs (a keyword ``out``
    costs more than the arithmetic on a 16 x 64 block), other backends' wrapped to pass it
    as ``out=`` (not every array library reads a positional output)."""
    fs = (xp.add, xp.subtract, xp.multiply, xp.divide, xp.exp, xp.tanh, xp.matmul)
    return fs if xp is np else tuple(_out_last(f) for f in fs)


def _in_order(reverse: bool, *seqs):
    """The steps of the arrays ``seqs`` (each indexed by time on its first axis), together, in
    the order of the recurrence: iterating over an array yields its rows as views at a
    fraction of the cost of indexing it step by step (which showed in the step loops)."""
    return zip(*(q[::-1] for q in seqs)) if reverse else zip(*seqs)


def _previous(seq, first, reverse: bool, xp):
    """``[s_{-1}, s_0, ..., s_{T-2}]`` in time order of the recurrence (``first`` = s_{-1}):
    the state each step reads."""
    if reverse:
        return xp.concatenate([seq[1:], first[None]], 0)
    return xp.concatenate([first[None], seq[:-1]], 0)


# The sigmoid gates o, i, f first, then g: internal order of the gate-major residual ``gates``
# (PyTorch's indices 3, 0, 1, 2).  The forward takes the three sigmoids in one block; in the
# backward, i, f and g (PyTorch's first three) are the gates whose cotangent is dc times a
# factor, one block of a step's (B, 4H) cotangent row.
_ORDER = (3, 0, 1, 2)
_TORCH_ORDER = (1, 2, 3, 0)  # where PyTorch's gate k sits in _ORDER


def _numpy_tanh_has_avx512() -> bool:
    """Whether NumPy runs its float32 ``tanh`` with AVX-512 loops on this CPU (NumPy 2's
    dispatch report; False where NumPy cannot say)."""
    try:
        from numpy.lib.introspect import opt_func_info
        target = opt_func_info(func_name="^tanh$", signature="float32")["tanh"]["ff"]["current"]
    except Exception:  # (older NumPy: no report, or another layout of it)
        return False
    return "X86_V4" in target or "AVX512" in target


# How the LSTM's sigmoid gates are computed, fixed per process (its fused steps and its
# reference `lstm_reference` agree bit for bit either way): where NumPy's float32 ``tanh`` has
# AVX-512 loops it costs about half of ``exp``, and one ``tanh`` call over all four gates with
# ``sigmoid(x) = tanh(x / 2) / 2 + 1 / 2`` is fastest; with AVX2 loops ``tanh`` costs twice
# ``exp``, and PyTorch's ``1 / (1 + exp(-x))`` on the three sigmoid gates is (the candidate
# gate keeps its ``tanh``).  Both differ from each other by rounding (docs/speed-rnn.md,
# rounds 13 and 16).
_SIGMOID_BY_TANH = _numpy_tanh_has_avx512()


def _fwd_impl(xp, xg, h0, c0, w, *b, reverse: bool):
    """``(hs, c_last, cs, gates, tcs)``.  ``gates`` (T, 4, B, H) holds the activations
    gate-major, in `_ORDER` (sigmoid o, i, f; tanh g): each gate of a step is one contiguous
    block, so the elementwise steps run on contiguous arrays (strided chunks cost twice as
    much).  The sigmoid gates' pre-activations are scaled in advance (their rows of ``w_hh``,
    ``xg`` and the bias; exact): by 1/2 for ``tanh(x / 2) / 2 + 1 / 2`` (one ``tanh`` call on
    all four gates), by -1 for ``1 / (1 + exp(-x))`` (one ``exp`` call on three), as
    `_SIGMOID_BY_TANH` says."""
    _check(xg, h0, c0, w, b[0] if b else None, "lstm_sequence")
    T, B, G = xg.shape
    H = G // 4
    dt = xg.dtype
    by_tanh = _SIGMOID_BY_TANH
    one = xp.ones((), dt)  # (a 0-d array operand dispatches faster than a Python scalar)
    half = xp.full((), 0.5, dt)
    scale = half if by_tanh else -one
    hs = xp.empty((T, B, H), dt)
    cs = xp.empty((T, B, H), dt)
    tcs = xp.empty((T, B, H), dt)
    gates = xp.empty((T, 4, B, H), dt)
    # w's gate blocks in _ORDER, transposed: h @ w4 is the step's (4, B, H) gate pre-activation
    # in one batched matmul (a transposed view multiplies 2-3x slower for small batches)
    w4 = xp.ascontiguousarray(w.reshape(4, H, H)[list(_ORDER)].transpose(0, 2, 1))
    xp.multiply(w4[:3], scale, out=w4[:3])
    # the input part with the bias, gate-major in _ORDER (PyTorch's i, f, g, o rotated by one
    # gate: two blocks) and scaled likewise, once
    # (the strided reads are plain products and copies; the bias is then added to the whole
    # contiguous array at once, tiled over the batch: a broadcast within the strided pass, or
    # a (4, 1, H) one, costs twice as much)
    xg4 = xp.empty((T, 4, B, H), dt)
    xgv = xg.reshape(T, B, 4, H).transpose(0, 2, 1, 3)
    xp.multiply(xgv[:, 3], scale, out=xg4[:, 0])
    xp.multiply(xgv[:, :2], scale, out=xg4[:, 1:3])
    xg4[:, 3] = xgv[:, 2]
    if b:
        b4 = xp.empty((4, B, H), dt)
        b4[...] = b[0].reshape(4, 1, H)[list(_ORDER)]
        xp.multiply(b4[:3], scale, out=b4[:3])
        xp.add(xg4, b4, out=xg4)
    h, c = h0, c0
    g = xp.empty((4, B, H), dt)
    tmp = xp.empty((B, H), dt)
    add, _, multiply, divide, exp, tanh, matmul = _step_calls(xp)
    for x4, a, s, o, i, f, n, c_new, tc, h_new in _in_order(
            reverse, xg4, gates, gates[:, :3], *gates.transpose(1, 0, 2, 3), cs, tcs, hs):
        matmul(h, w4, g)
        add(g, x4, a)  # (the sigmoid gates' pre-activations scaled)
        if by_tanh:
            tanh(a, a)
            multiply(s, half, s)  # s: the sigmoid gates o, i, f
            add(s, half, s)
        else:
            exp(s, s)
            add(s, one, s)
            divide(one, s, s)
            tanh(n, n)
        multiply(f, c, c_new)
        multiply(i, n, tmp)
        add(c_new, tmp, c_new)
        tanh(c_new, tc)
        multiply(o, tc, h_new)
        h, c = h_new, c_new
    return [hs, c.copy(), cs, gates, tcs]


def _jvp_impl(xp, xg, h0, c0, w, *rest, reverse: bool, has_bias: bool):
    """``(dhs, dc_last)``: the tangent recurrence at the residuals."""
    nb = 1 if has_bias else 0
    hs, cs, gates, tcs = rest[nb:nb + 4]
    txg, th0, tc0, tw = rest[nb + 4:nb + 8]
    tb = rest[nb + 8] if has_bias else None
    T, B, G = xg.shape
    H = G // 4
    gates = gates[:, list(_TORCH_ORDER)].transpose(0, 2, 1, 3).reshape(T, B, G)
    hprev = _previous(hs, h0, reverse, xp)
    cprev = _previous(cs, c0, reverse, xp)
    # the inputs' part of every step's gate tangent, in one go
    dxg = txg + xp.matmul(hprev.reshape(T * B, H), tw.T).reshape(T, B, G)
    if tb is not None:
        dxg = dxg + tb
    dact = gates * (1 - gates)  # sigmoid' (the g chunk is replaced below)
    tg = gates[:, :, 2 * H:3 * H]
    dact[:, :, 2 * H:3 * H] = 1 - tg * tg
    dtc_all = 1 - tcs * tcs
    dhs = xp.empty((T, B, H), xg.dtype)
    dh, dc = th0, tc0
    wt = xp.ascontiguousarray(w.T)
    for t in _steps(T, reverse):
        d = (dxg[t] + xp.matmul(dh, wt)) * dact[t]
        a = gates[t]
        dc = (d[:, H:2 * H] * cprev[t] + a[:, H:2 * H] * dc + d[:, :H] * a[:, 2 * H:3 * H]
              + a[:, :H] * d[:, 2 * H:3 * H])
        dh = d[:, 3 * H:] * tcs[t] + a[:, 3 * H:] * (dtc_all[t] * dc)
        dhs[t] = dh
    return [dhs, xp.array(dc, copy=True)]


def _vjp_impl(xp, xg, h0, c0, w, *rest, reverse: bool, has_bias: bool):
    """``(ct_xg, ct_h0, ct_c0, ct_w[, ct_b])``: the backward-in-time recurrence.  Everything
    that does not depend on the incoming cotangent is computed for all steps at once (each
    gate's factor: what its cotangent is of ``dc`` or ``dh``, times its activation's
    derivative); a step is then six array operations and one matmul."""
    nb = 1 if has_bias else 0
    hs, cs, gates, tcs = rest[nb:nb + 4]
    ct_hs, ct_c = rest[nb + 4:nb + 6]
    T, B, G = xg.shape
    H = G // 4
    dt = xg.dtype
    one = xp.ones((), dt)
    first = T - 1 if reverse else 0  # the first step of the recurrence (it reads h0, c0)
    # the factors, gate-major in _ORDER as ``gates``, with s' = s (1 - s): o: s'(o) tanh(c_t)
    # (times dh); i: s'(i) n, f: s'(f) c_{t-1}, g: (1 - n^2) i (times dc)
    fac = xp.empty((T, 4, B, H), dt)
    s = gates[:, :3]
    xp.subtract(one, s, out=fac[:, :3])
    xp.multiply(fac[:, :3], s, out=fac[:, :3])
    xp.multiply(fac[:, 0], tcs, out=fac[:, 0])
    n = gates[:, 3]
    xp.multiply(fac[:, 1], n, out=fac[:, 1])
    ff = fac[:, 2]
    if T > 1:
        later, prev = (slice(0, T - 1), cs[1:]) if reverse else (slice(1, T), cs[:-1])
        xp.multiply(ff[later], prev, out=ff[later])
    xp.multiply(ff[first], c0, out=ff[first])
    xp.multiply(n, n, out=fac[:, 3])
    xp.subtract(one, fac[:, 3], out=fac[:, 3])
    xp.multiply(fac[:, 3], gates[:, 1], out=fac[:, 3])
    # dc_t gets dh_t * o * (1 - tanh(c_t)^2)
    k = xp.multiply(tcs, tcs)
    xp.subtract(one, k, out=k)
    xp.multiply(k, gates[:, 0], out=k)
    # a step's gate cotangent is a (B, 4H) row block in PyTorch's order i, f, g, o: the first
    # three take dc times their factors, the last dh times its factor
    dg = xp.empty((T, B, G), dt)
    dgv = dg.reshape(T, B, 4, H).transpose(0, 2, 1, 3)  # gate-major view
    dh = xp.zeros((B, H), dt)
    dc = xp.array(ct_c, dtype=dt, copy=True)
    tmp = xp.empty((B, H), dt)
    add, _, multiply, _, _, _, matmul = _step_calls(xp)
    for ct, f_o, f_ifg, k_t, f, d_o, d_ifg, row in _in_order(
            not reverse, ct_hs, fac[:, 0], fac[:, 1:], k, gates[:, 2], dgv[:, 3], dgv[:, :3], dg):
        add(dh, ct, dh)  # the total cotangent of h_t
        multiply(dh, f_o, d_o)  # the output gate's
        multiply(dh, k_t, tmp)
        add(dc, tmp, dc)  # the total cotangent of c_t
        multiply(dc, f_ifg, d_ifg)  # the input, forget and candidate gates'
        multiply(dc, f, dc)  # the cotangent of c_{t-1}
        matmul(row, w, dh)  # the cotangent of h_{t-1} from this step
    # ct_w = sum_t dg_t.T @ h_{t-1}: the steps after the first in one matmul (no copy of hs
    # shifted by one step), the first step's (which reads h0) added
    dg2 = dg.reshape(T * B, G)
    ct_w = xp.matmul(dg[first].T, h0)
    if T > 1:
        later, prev = (dg[:-1], hs[1:]) if reverse else (dg[1:], hs[:-1])
        ct_w += xp.matmul(later.reshape(-1, G).T, prev.reshape(-1, H))
    outs = [dg, dh, dc, ct_w]
    if has_bias:
        outs.append(dg2.sum(0))
    return outs


# ---------------------------------------------------------------------------------------
# abstract evaluation


def _check(xg, h0, c0, w, b, op: str):
    if len(xg.shape) != 3 or xg.shape[2] % 4 or not xg.shape[0]:
        raise TypeError(f"{op}: xg must be (T, B, 4*H) with T > 0, got shape {xg.shape}")
    T, B, G = xg.shape
    H = G // 4
    want = {"h0": (B, H), "c0": (B, H), "w_hh": (G, H)}
    for name, a in (("h0", h0), ("c0", c0), ("w_hh", w)):
        if tuple(a.shape) != want[name]:
            raise TypeError(f"{op}: {name} must have shape {want[name]} for xg of shape {xg.shape}, "
                            f"got {a.shape}")
    if b is not None and tuple(b.shape) != (G,):
        raise TypeError(f"{op}: b_hh must have shape {(G,)}, got {b.shape}")
    dts = {a.dtype for a in (xg, h0, c0, w) + (() if b is None else (b,))}
    if len(dts) != 1 or dtype_kind(np.dtype(xg.dtype)) != "f":
        raise TypeError(f"{op}: all operands must have one floating dtype, got "
                        f"{sorted(str(d) for d in dts)}")
    return T, B, H, xg.dtype


def _fwd_abstract(xg, h0, c0, w, *b, reverse: bool):
    T, B, H, dt = _check(xg, h0, c0, w, b[0] if b else None, "lstm_sequence")
    s = ShapedArray((T, B, H), dt)
    return [s, ShapedArray((B, H), dt), s, ShapedArray((T, 4, B, H), dt), s]


def _jvp_abstract(xg, h0, c0, w, *rest, reverse: bool, has_bias: bool):
    T, B, H, dt = _check(xg, h0, c0, w, rest[0] if has_bias else None, "lstm_sequence_jvp")
    return [ShapedArray((T, B, H), dt), ShapedArray((B, H), dt)]


def _vjp_abstract(xg, h0, c0, w, *rest, reverse: bool, has_bias: bool):
    b = rest[0] if has_bias else None
    _check(xg, h0, c0, w, b, "lstm_sequence_vjp")
    avs = [ShapedArray(a.shape, a.dtype) for a in (xg, h0, c0, w)]
    if has_bias:
        avs.append(ShapedArray(b.shape, b.dtype))
    return avs


def _in_float32(impl):
    """``impl`` computing float16/bfloat16 operands in float32, each output rounded once (as
    PyTorch's CPU kernels and fgrad's contractions do)."""

    def run(xp, *args, **params):
        dt = args[0].dtype
        if not is_narrow(np.dtype(dt)):
            return impl(xp, *args, **params)
        outs = impl(xp, *[a.astype(F32) for a in args], **params)
        return [o.astype(dt) for o in outs]

    return run


lstm_sequence_p = Primitive("lstm_sequence", quiet(_in_float32(_fwd_impl)), _fwd_abstract,
                            multiple_results=True, family="rnn")
lstm_sequence_jvp_p = Primitive("lstm_sequence_jvp", quiet(_in_float32(_jvp_impl)), _jvp_abstract,
                                multiple_results=True, family="rnn")
lstm_sequence_vjp_p = Primitive("lstm_sequence_vjp", quiet(_in_float32(_vjp_impl)), _vjp_abstract,
                                multiple_results=True, family="rnn")
for _p in (lstm_sequence_p, lstm_sequence_jvp_p, lstm_sequence_vjp_p):
    _p.may_warn = True  # IEEE special values (inf * 0 in the backward), silently as PyTorch


# ---------------------------------------------------------------------------------------
# the reference recurrence (fgrad primitives): higher-order derivatives and general vmap


def _sigmoid(x):
    """``1 / (1 + exp(-x))``, the fused steps' formula (the same bits), with ``-x`` capped
    below ``exp``'s overflow: at a saturated gate the value changes by less than the
    smallest normal number, and the derivatives stay finite (with ``exp(-x) = inf`` the
    chain rule gives ``0 * inf = NaN`` from the second order on)."""
    cap = float(np.log(float(finfo(get_aval(x).dtype).max))) - 1.0
    return ew.div(1, ew.add(1, ew.exp(ew.minimum(ew.neg(x), cap))))


def _sigmoid_by_tanh(x):
    """``tanh(x / 2) / 2 + 1 / 2``: the LSTM's form where `_SIGMOID_BY_TANH`."""
    return ew.add(ew.mul(ew.tanh(ew.mul(x, 0.5)), 0.5), 0.5)


def _mm_t(a, w):
    """``a @ w.T`` for a (B, K) and w (N, K)."""
    return dot_general(a, w, (((1,), (1,)), ((), ())))


def lstm_reference(xg, h0, c0, w, b=None, reverse: bool = False):
    """`lstm_sequence` step by step with fgrad's elementwise and contraction primitives:
    ``(hs, c_last)``.  Its derivatives define the fused primitives' derivatives of order two
    and up.

    Example::

        >>> import numpy as np
        >>> hs, c = lstm_reference(np.zeros((2, 1, 4)), np.zeros((1, 1)), np.ones((1, 1)),
        ...                        np.zeros((4, 1)))
        >>> float(c[0, 0])  # f * c + i * tanh(0) = 0.5 * 0.5 * 1
        0.25
    """
    hs, c = _reference_all(xg, h0, c0, w, b, reverse)[:2]
    return hs, c


def _reference_all(xg, h0, c0, w, b, reverse: bool) -> list:
    """All five outputs of `lstm_sequence_p` (residuals included), step by step."""
    T = get_aval(xg).shape[0]
    h, c = h0, c0
    hs, cs, gates, tcs = ([None] * T for _ in range(4))

    def row(a):
        return reshape(a, (1,) + get_aval(a).shape)

    for t in _steps(T, reverse):
        xt = _index0(xg, t)
        g = ew.add(_mm_t(h, w), xt if b is None else ew.add(xt, b))
        gi, gf, gg, go = split(g, (get_aval(g).shape[1] // 4,) * 4, 1)
        sig = _sigmoid_by_tanh if _SIGMOID_BY_TANH else _sigmoid  # (the fused steps' formula)
        si, sf, tg, so = sig(gi), sig(gf), ew.tanh(gg), sig(go)
        c = ew.add(ew.mul(sf, c), ew.mul(si, tg))
        tc = ew.tanh(c)
        h = ew.mul(so, tc)
        hs[t], cs[t], tcs[t] = row(h), row(c), row(tc)
        gates[t] = row(concatenate([row(so), row(si), row(sf), row(tg)], 0))  # _ORDER
    return [concatenate(hs, 0), c, concatenate(cs, 0), concatenate(gates, 0), concatenate(tcs, 0)]


def _index0(x, t: int):
    av = get_aval(x)
    return reshape(slice_in_dim(x, t, t + 1, 1, 0), av.shape[1:])


# ---------------------------------------------------------------------------------------
# public entry point and rules


def _zeros_for(x):
    return zeros_like(x)


def lstm_sequence(xg, h0, c0, w_hh, b_hh=None, reverse: bool = False):
    """The LSTM recurrence over a whole sequence (module docstring): ``(hs, c_last)``.
    ``xg`` (T, B, 4H) is the input projection ``x @ w_ih.T + b_ih``; ``h0``, ``c0`` (B, H);
    ``w_hh`` (4H, H); ``b_hh`` (4H,) or None; ``reverse`` runs from the last step back.

    Example::

        >>> import numpy as np
        >>> hs, c = lstm_sequence(np.zeros((5, 2, 8)), np.zeros((2, 2)), np.zeros((2, 2)),
        ...                       np.zeros((8, 2)))
        >>> hs.shape, c.shape
        ((5, 2, 2), (2, 2))
    """
    b = () if b_hh is None else (b_hh,)
    outs = lstm_sequence_p.bind(xg, h0, c0, w_hh, *b, reverse=bool(reverse))
    return outs[0], outs[1]


class _Cell:
    """What the rules need to know of a recurrence: its three primitives, how many states it
    carries (LSTM: h and c; GRU: h) and its step-by-step reference (all forward outputs).

    Operands: ``(xg, *states0, w_hh[, b_hh])``; the forward primitive's outputs are the
    results ``(hs, *last states but h)`` followed by residuals; the derivative primitives
    take the operands, then ``hs`` and the residuals, then the tangents (JVP: one per
    operand) or the results' cotangents (VJP)."""

    def __init__(self, fwd_p, jvp_p, vjp_p, n_states: int, n_outputs: int, reference_all) -> None:
        self.fwd_p, self.jvp_p, self.vjp_p = fwd_p, jvp_p, vjp_p
        self.n_states = n_states
        self.n_res = n_outputs - n_states + 1  # hs and the residual outputs
        self.reference_all = reference_all

    def n_operands(self, has_bias: bool) -> int:
        return 2 + self.n_states + has_bias

    def split(self, args, has_bias: bool):
        """(operands, residuals, linear arguments) of a derivative primitive's arguments."""
        n = self.n_operands(has_bias)
        return list(args[:n]), list(args[n:n + self.n_res]), list(args[n + self.n_res:])

    def reference(self, has_bias: bool, reverse: bool) -> Callable:
        """The results of the reference as a function of the operands."""
        def f(*p):
            b = p[-1] if has_bias else None
            w_at = len(p) - 1 - has_bias
            return tuple(self.reference_all(*p[:w_at + 1], b, reverse)[:self.n_states])

        return f

    # -- the rules ----------------------------------------------------------------------
    def fwd_jvp(self, primals, tangents, reverse: bool):
        outs = self.fwd_p.bind(*primals, reverse=reverse)
        k = self.n_states
        if all(t is None for t in tangents):
            return outs, [None] * len(outs)
        ts = [_zeros_for(p) if t is None else t for p, t in zip(primals, tangents)]
        has_bias = len(primals) == self.n_operands(True)
        res = [outs[0]] + list(outs[k:])
        touts = self.jvp_p.bind(*primals, *res, *ts, reverse=reverse, has_bias=has_bias)
        return outs, list(touts) + [None] * (len(outs) - k)

    def _result_cts(self, cts, primals, res):
        """Cotangents of the results, zeros for symbolic zeros (hs-shaped, then (B, H))."""
        return [_zeros_for(res[0] if k == 0 else primals[1]) if c is None else c for k, c in enumerate(cts)]

    def jvp_transpose(self, cts, *args, reverse: bool, has_bias: bool):
        primals, res, lin = self.split(args, has_bias)
        if any(is_undefined(a) for a in primals + res):
            raise ValueError(f"{self.jvp_p.name} is linear in its tangents only")
        if all(c is None for c in cts):
            return [None] * len(args)
        grads = self.vjp_p.bind(*primals, *res, *self._result_cts(cts, primals, res), reverse=reverse,
                                has_bias=has_bias)
        lead = [None] * (len(primals) + len(res))
        return lead + [g if is_undefined(a) else None for g, a in zip(grads, lin)]

    def vjp_transpose(self, cts, *args, reverse: bool, has_bias: bool):
        primals, res, lin = self.split(args, has_bias)
        if any(is_undefined(a) for a in primals + res):
            raise ValueError(f"{self.vjp_p.name} is linear in its output cotangents only")
        if all(c is None for c in cts):
            return [None] * len(args)
        ts = [_zeros_for(p) if c is None else c for p, c in zip(primals, cts)]
        touts = self.jvp_p.bind(*primals, *res, *ts, reverse=reverse, has_bias=has_bias)
        lead = [None] * (len(primals) + len(res))
        return lead + [t if is_undefined(a) else None for t, a in zip(touts, lin)]

    def ref_jvp(self, has_bias: bool, reverse: bool) -> Callable:
        """The reference's tangent map: ``(*operands, *tangents) -> result tangents``."""
        n, ref = self.n_operands(has_bias), self.reference(has_bias, reverse)

        def f(*a):
            return list(jvp(ref, tuple(a[:n]), tuple(a[n:]))[1])

        return f

    def ref_vjp(self, has_bias: bool, reverse: bool) -> Callable:
        """The reference's cotangent map: ``(*operands, *result cotangents) -> grads``."""
        n, ref = self.n_operands(has_bias), self.reference(has_bias, reverse)

        def f(*a):
            _, pull = vjp(ref, *a[:n])
            return list(pull(tuple(a[n:])))

        return f

    def second_order(self, prim, ref_of):
        """The JVP rule of a derivative primitive: its value by ``prim`` itself, its tangent
        by the reference (residual inputs get none: they are functions of the operands)."""

        def rule(primals, tangents, reverse: bool, has_bias: bool):
            out = prim.bind(*primals, reverse=reverse, has_bias=has_bias)
            if all(t is None for t in tangents):
                return out, [None] * len(out)
            p, _, lin = self.split(primals, has_bias)
            tp, _, tlin = self.split(tangents, has_bias)
            args = tuple(p + lin)
            tans = tuple(_zeros_for(a) if t is None else t for a, t in zip(args, tp + tlin))
            return out, list(jvp(ref_of(has_bias, reverse), args, tans)[1])

        return rule

    def fwd_batch(self, axis_size, vals, dims, reverse: bool):
        k = self.n_states
        if all(d is None for d in dims[1 + k:]):
            # unbatched weights: the mapped axis joins the batch axis (one recurrence); every
            # output has the batch axis second to last
            N = axis_size
            xg = bdim_to_front(vals[0], dims[0], N)  # (N, T, B, G)
            _, T, B, G = get_aval(xg).shape
            xg = reshape(transpose(xg, (1, 0, 2, 3)), (T, N * B, G))
            states = [reshape(bdim_to_front(v, d, N), (N * B, -1))
                      for v, d in zip(vals[1:1 + k], dims[1:1 + k])]
            outs = self.fwd_p.bind(xg, *states, *vals[1 + k:], reverse=reverse)
            res, rdims = [], []
            for o in outs:
                shp = get_aval(o).shape
                res.append(reshape(o, shp[:-2] + (N, B, shp[-1])))
                rdims.append(len(shp) - 2)
            return res, rdims
        vals = [bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims)]
        has_bias = len(vals) == self.n_operands(True)

        def everything(*a):
            w_at = len(a) - 1 - has_bias
            return self.reference_all(*a[:w_at + 1], a[-1] if has_bias else None, reverse)

        out = vmap(everything, axis_size=axis_size)(*vals)
        return list(out), [0] * len(out)

    def deriv_batch(self, ref_of):
        def rule(axis_size, vals, dims, reverse: bool, has_bias: bool):
            p, _, lin = self.split(vals, has_bias)
            pd, _, lind = self.split(dims, has_bias)
            args = [bdim_to_front(v, d, axis_size) for v, d in zip(p + lin, pd + lind)]
            out = vmap(ref_of(has_bias, reverse), axis_size=axis_size)(*args)
            return list(out), [0] * len(out)

        return rule

    def define(self) -> None:
        """Declare the three primitives' rules."""
        defjvp_rule(self.fwd_p, self.fwd_jvp)
        defbatch(self.fwd_p, self.fwd_batch)
        defjvp_rule(self.jvp_p, self.second_order(self.jvp_p, self.ref_jvp))
        deflinear_in(self.jvp_p, self.jvp_transpose)
        defbatch(self.jvp_p, self.deriv_batch(self.ref_jvp))
        defjvp_rule(self.vjp_p, self.second_order(self.vjp_p, self.ref_vjp))
        deflinear_in(self.vjp_p, self.vjp_transpose)
        defbatch(self.vjp_p, self.deriv_batch(self.ref_vjp))


_LSTM = _Cell(lstm_sequence_p, lstm_sequence_jvp_p, lstm_sequence_vjp_p, 2, 5, _reference_all)
_LSTM.define()


# ---------------------------------------------------------------------------------------
# GRU: h_t = n + z * (h_{t-1} - n), r, z = sigmoid(x_{r,z} + W_{r,z} h + b_{r,z}),
# n = tanh(x_n + r * (W_n h + b_n))  (PyTorch's gate order r, z, n and formula)


def _gru_fwd_impl(xp, xg, h0, w, *b, reverse: bool):
    """``(hs, gates, hn)``: gates (T, 3, B, H) hold r, z, n gate-major; ``hn = W_n h + b_n``."""
    _check_gru(xg, h0, w, b[0] if b else None, "gru_sequence")
    T, B, G = xg.shape
    H = G // 3
    dt = xg.dtype
    hs = xp.empty((T, B, H), dt)
    gates = xp.empty((T, 3, B, H), dt)
    hns = xp.empty((T, B, H), dt)
    # the r and z gates' pre-activations negated in advance (their rows of w_hh, the input
    # part and the bias; exact), so that a step's sigmoids are exp, add, divide
    w3 = xp.ascontiguousarray(w.reshape(3, H, H).transpose(0, 2, 1))
    xp.negative(w3[:2], out=w3[:2])
    xg3 = xp.empty((T, 3, B, H), dt)  # gate-major input part, with b_r and b_z added once
    xgv = xg.reshape(T, B, 3, H).transpose(0, 2, 1, 3)
    bn = None
    if b:
        b3 = b[0].reshape(3, 1, H)
        xp.subtract(-b3[:2], xgv[:, :2], out=xg3[:, :2])  # -(x + b), the same bits
        bn = b3[2]
    else:
        xp.negative(xgv[:, :2], out=xg3[:, :2])
    xg3[:, 2] = xgv[:, 2]
    g = xp.empty((3, B, H), dt)
    tmp = xp.empty((B, H), dt)
    one = xp.ones((), dt)
    h = h0
    add, subtract, multiply, divide, exp, tanh, matmul = _step_calls(xp)
    for t in _steps(T, reverse):
        matmul(h, w3, g)
        a = gates[t]
        x3 = xg3[t]
        hn = hns[t]
        if bn is not None:
            add(g[2], bn, hn)
        else:
            hn[...] = g[2]
        rz = a[:2]
        add(g[:2], x3[:2], rz)  # -(pre-activation)
        exp(rz, rz)
        add(one, rz, rz)
        divide(one, rz, rz)
        n = a[2]
        multiply(a[0], hn, n)
        add(x3[2], n, n)
        tanh(n, n)
        subtract(h, n, tmp)
        multiply(a[1], tmp, tmp)
        h = hs[t]
        add(n, tmp, h)
    return [hs, gates, hns]


def _gru_jvp_impl(xp, xg, h0, w, *rest, reverse: bool, has_bias: bool):
    """``(dhs,)``: the tangent recurrence at the residuals."""
    nb = 1 if has_bias else 0
    hs, gates, hns = rest[nb:nb + 3]
    txg, th0, tw = rest[nb + 3:nb + 6]
    tb = rest[nb + 6] if has_bias else None
    T, B, G = xg.shape
    H = G // 3
    hprev = _previous(hs, h0, reverse, xp)
    dhg_in = xp.matmul(hprev.reshape(T * B, H), tw.T).reshape(T, B, G)  # the weights' part
    if tb is not None:
        dhg_in = dhg_in + tb
    r, z, n = gates[:, 0], gates[:, 1], gates[:, 2]
    dhs = xp.empty((T, B, H), xg.dtype)
    dh = th0
    wt = xp.ascontiguousarray(w.T)
    for t in _steps(T, reverse):
        dhg = dhg_in[t] + xp.matmul(dh, wt)
        dr = r[t] * (1 - r[t]) * (txg[t, :, :H] + dhg[:, :H])
        dz = z[t] * (1 - z[t]) * (txg[t, :, H:2 * H] + dhg[:, H:2 * H])
        dn = (1 - n[t] * n[t]) * (txg[t, :, 2 * H:] + dr * hns[t] + r[t] * dhg[:, 2 * H:])
        dh = dn + dz * (hprev[t] - n[t]) + z[t] * (dh - dn)
        dhs[t] = dh
    return [dhs]


def _gru_vjp_impl(xp, xg, h0, w, *rest, reverse: bool, has_bias: bool):
    """``(ct_xg, ct_h0, ct_w[, ct_b])``: the backward-in-time recurrence; per step, the
    cotangents of the gate pre-activations are dh times factors computed for all steps at
    once."""
    nb = 1 if has_bias else 0
    hs, gates, hns = rest[nb:nb + 3]
    (ct_hs,) = rest[nb + 3:nb + 4]
    T, B, G = xg.shape
    H = G // 3
    dt = xg.dtype
    one = xp.ones((), dt)
    r, z, n = gates[:, 0], gates[:, 1], gates[:, 2]
    first, back = (T - 1, 1) if reverse else (0, -1)
    # pn = (1 - z)(1 - n^2): d(pre-activation of n) = dh * pn
    pn = xp.multiply(n, n)
    xp.subtract(one, pn, out=pn)
    tmp_t = xp.subtract(one, z)
    xp.multiply(pn, tmp_t, out=pn)
    # pr = hn r (1 - r): d(pre-activation of r) = dn_pre * pr
    pr = xp.subtract(one, r)
    xp.multiply(pr, r, out=pr)
    xp.multiply(pr, hns, out=pr)
    # pz = (h_{t-1} - n) z (1 - z): d(pre-activation of z) = dh * pz
    pz = xp.subtract(one, z)
    xp.multiply(pz, z, out=pz)
    if T > 1:
        later, prev = (slice(0, T - 1), hs[1:]) if reverse else (slice(1, T), hs[:-1])
        xp.subtract(prev, n[later], out=tmp_t[later])
    xp.subtract(h0, n[first], out=tmp_t[first])
    xp.multiply(pz, tmp_t, out=pz)
    dhg = xp.empty((T, B, G), dt)  # cotangent of h @ w.T + b (the r, z parts are xg's too)
    dn_pre = xp.empty((T, B, H), dt)
    dh = xp.zeros((B, H), dt)
    tmp = xp.empty((B, H), dt)
    add, _, multiply, _, _, _, matmul = _step_calls(xp)
    for t in _steps(T, not reverse):
        d = dhg[t]
        dn = dn_pre[t]
        add(dh, ct_hs[t], dh)  # the total cotangent of h_t
        multiply(dh, pn[t], dn)
        multiply(dn, pr[t], d[:, :H])
        multiply(dh, pz[t], d[:, H:2 * H])
        multiply(dn, r[t], d[:, 2 * H:])
        multiply(dh, z[t], dh)  # the direct path h_{t-1} -> h_t
        matmul(d, w, tmp)
        add(dh, tmp, dh)
    ct_xg = dhg.copy()
    ct_xg[:, :, 2 * H:] = dn_pre
    ct_w = xp.matmul(dhg[first].T, h0)
    if T > 1:
        later, prev = (dhg[:-1], hs[1:]) if reverse else (dhg[1:], hs[:-1])
        ct_w += xp.matmul(later.reshape(-1, G).T, prev.reshape(-1, H))
    outs = [ct_xg, dh, ct_w]
    if has_bias:
        outs.append(dhg.reshape(T * B, G).sum(0))
    return outs


def _check_gru(xg, h0, w, b, op: str):
    if len(xg.shape) != 3 or xg.shape[2] % 3 or not xg.shape[0]:
        raise TypeError(f"{op}: xg must be (T, B, 3*H) with T > 0, got shape {xg.shape}")
    T, B, G = xg.shape
    H = G // 3
    for name, a, want in (("h0", h0, (B, H)), ("w_hh", w, (G, H))):
        if tuple(a.shape) != want:
            raise TypeError(f"{op}: {name} must have shape {want} for xg of shape {xg.shape}, got {a.shape}")
    if b is not None and tuple(b.shape) != (G,):
        raise TypeError(f"{op}: b_hh must have shape {(G,)}, got {b.shape}")
    dts = {a.dtype for a in (xg, h0, w) + (() if b is None else (b,))}
    if len(dts) != 1 or dtype_kind(np.dtype(xg.dtype)) != "f":
        raise TypeError(f"{op}: all operands must have one floating dtype, got "
                        f"{sorted(str(d) for d in dts)}")
    return T, B, H, xg.dtype


def _gru_fwd_abstract(xg, h0, w, *b, reverse: bool):
    T, B, H, dt = _check_gru(xg, h0, w, b[0] if b else None, "gru_sequence")
    s = ShapedArray((T, B, H), dt)
    return [s, ShapedArray((T, 3, B, H), dt), s]


def _gru_jvp_abstract(xg, h0, w, *rest, reverse: bool, has_bias: bool):
    T, B, H, dt = _check_gru(xg, h0, w, rest[0] if has_bias else None, "gru_sequence_jvp")
    return [ShapedArray((T, B, H), dt)]


def _gru_vjp_abstract(xg, h0, w, *rest, reverse: bool, has_bias: bool):
    b = rest[0] if has_bias else None
    _check_gru(xg, h0, w, b, "gru_sequence_vjp")
    return [ShapedArray(a.shape, a.dtype) for a in (xg, h0, w) + ((b,) if has_bias else ())]


gru_sequence_p = Primitive("gru_sequence", quiet(_in_float32(_gru_fwd_impl)), _gru_fwd_abstract,
                           multiple_results=True, family="rnn")
gru_sequence_jvp_p = Primitive("gru_sequence_jvp", quiet(_in_float32(_gru_jvp_impl)), _gru_jvp_abstract,
                               multiple_results=True, family="rnn")
gru_sequence_vjp_p = Primitive("gru_sequence_vjp", quiet(_in_float32(_gru_vjp_impl)), _gru_vjp_abstract,
                               multiple_results=True, family="rnn")
for _p in (gru_sequence_p, gru_sequence_jvp_p, gru_sequence_vjp_p):
    _p.may_warn = True


def _gru_reference_all(xg, h0, w, b, reverse: bool) -> list:
    """All three outputs of `gru_sequence_p` (residuals included), step by step."""
    T = get_aval(xg).shape[0]
    H = get_aval(h0).shape[-1]
    h = h0
    hs, gates, hns = ([None] * T for _ in range(3))

    def row(a):
        return reshape(a, (1,) + get_aval(a).shape)

    for t in _steps(T, reverse):
        xr, xz, xn = split(_index0(xg, t), (H,) * 3, 1)
        hg = _mm_t(h, w)
        hr, hz, hn = split(hg, (H,) * 3, 1)
        if b is not None:
            br, bz, bn = split(b, (H,) * 3, 0)
            xr, xz, hn = ew.add(xr, br), ew.add(xz, bz), ew.add(hn, bn)
        r = _sigmoid(ew.add(hr, xr))
        z = _sigmoid(ew.add(hz, xz))
        n = ew.tanh(ew.add(xn, ew.mul(r, hn)))
        h = ew.add(n, ew.mul(z, ew.sub(h, n)))
        hs[t], hns[t] = row(h), row(hn)
        gates[t] = row(concatenate([row(r), row(z), row(n)], 0))
    return [concatenate(hs, 0), concatenate(gates, 0), concatenate(hns, 0)]


def gru_reference(xg, h0, w, b=None, reverse: bool = False):
    """`gru_sequence` step by step with fgrad's elementwise and contraction primitives.

    Example::

        >>> import numpy as np
        >>> hs = gru_reference(np.zeros((2, 1, 3)), np.ones((1, 1)), np.zeros((3, 1)))
        >>> float(hs[-1, 0, 0])  # n = 0, z = 1/2: h halves each step
        0.25
    """
    return _gru_reference_all(xg, h0, w, b, reverse)[0]


def gru_sequence(xg, h0, w_hh, b_hh=None, reverse: bool = False):
    """The GRU recurrence over a whole sequence: ``hs`` (T, B, H), every step's state.
    ``xg`` (T, B, 3H) is the input projection ``x @ w_ih.T + b_ih`` (gates r, z, n);
    ``h0`` (B, H); ``w_hh`` (3H, H); ``b_hh`` (3H,) or None.

    Example::

        >>> import numpy as np
        >>> gru_sequence(np.zeros((5, 2, 6)), np.zeros((2, 2)), np.zeros((6, 2))).shape
        (5, 2, 2)
    """
    b = () if b_hh is None else (b_hh,)
    return gru_sequence_p.bind(xg, h0, w_hh, *b, reverse=bool(reverse))[0]


_GRU = _Cell(gru_sequence_p, gru_sequence_jvp_p, gru_sequence_vjp_p, 1, 3, _gru_reference_all)
_GRU.define()
