"""`fgrad.scipy.spatial.transform`: 3-d rotations (`Rotation`) and their spherical linear
interpolation (`Slerp`), as ``jax.scipy.spatial.transform`` (SciPy's conventions).

A `Rotation` is a named tuple holding unit quaternions ``quat`` in SciPy's scalar-last order
``(x, y, z, w)``, of shape ``(4,)`` (a single rotation) or ``(N, 4)`` (any leading dimensions
work, as JAX's vectorized functions; `mean` and `Slerp` want one); so it is a pytree and
passes through `fgrad.jit`, `fgrad.vmap` and `fgrad.grad`.  Every conversion is a formula in
fgrad ops, differentiable wherever the map is smooth: the small-angle branches of the rotation
vector use their Taylor series (finite derivatives at the identity), `from_matrix` selects
Shepperd's best-conditioned candidate with ``where``, `mean` is the top eigenvector of the
weighted quaternion scatter matrix (through `eigh`).

Example::

    >>> import numpy as np, fgrad.numpy as fnp
    >>> from fgrad.scipy.spatial.transform import Rotation
    >>> r = Rotation.from_euler("z", 90.0, degrees=True)
    >>> r.apply(fnp.asarray([1.0, 0.0, 0.0])).round(12)
    Array([0., 1., 0.], dtype=float64)
    >>> (r * r).as_rotvec()
    Array([0.        , 0.        , 3.14159265], dtype=float64)
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from ... import numpy as fnp
from ... import random as frandom
from ...core.narrow_floats import dtype_kind as _dtype_kind

__all__ = ["Rotation", "Slerp"]

_SMALL_ANGLE = 1e-3


def _float(x):
    x = fnp.asarray(x)
    return x if _dtype_kind(x.dtype) == "f" else x.astype(np.float64)


def _safe_norm(v):
    """``(|v|, |v|**2)`` over the last axis, with a finite derivative at ``v = 0`` (zero)."""
    sq = fnp.sum(v * v, axis=-1)
    positive = sq > 0
    return fnp.where(positive, fnp.sqrt(fnp.where(positive, sq, 1.0)), 0.0), sq


def _normalize(quat):
    return quat / fnp.sqrt(fnp.sum(quat * quat, axis=-1, keepdims=True))


def _compose(p, q):
    """Hamilton product ``p q`` of scalar-last quaternions (apply ``q`` first, then ``p``)."""
    pv, pw = p[..., :3], p[..., 3:]
    qv, qw = q[..., :3], q[..., 3:]
    vector = pw * qv + qw * pv + fnp.cross(pv, qv)
    scalar = pw * qw - fnp.sum(pv * qv, axis=-1, keepdims=True)
    return fnp.concatenate([vector, scalar], axis=-1)


def _as_matrix(quat):
    x, y, z, w = (quat[..., i] for i in range(4))
    xx, yy, zz, ww = x * x, y * y, z * z, w * w
    xy, zw, xz, yw, yz, xw = x * y, z * w, x * z, y * w, y * z, x * w
    rows = [
        [xx - yy - zz + ww, 2 * (xy - zw), 2 * (xz + yw)],
        [2 * (xy + zw), -xx + yy - zz + ww, 2 * (yz - xw)],
        [2 * (xz - yw), 2 * (yz + xw), -xx - yy + zz + ww],
    ]
    return fnp.stack([fnp.stack(r, axis=-1) for r in rows], axis=-2)


def _from_matrix(matrix):
    """Shepperd's method: of the four quaternion candidates (from the trace and from each
    diagonal entry), take the one with the largest pivot, then normalize."""
    m = matrix
    trace = m[..., 0, 0] + m[..., 1, 1] + m[..., 2, 2]
    candidates = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        q = [None] * 4
        q[i] = 1 - trace + 2 * m[..., i, i]
        q[j] = m[..., j, i] + m[..., i, j]
        q[k] = m[..., k, i] + m[..., i, k]
        q[3] = m[..., k, j] - m[..., j, k]
        candidates.append(fnp.stack(q, axis=-1))
    candidates.append(fnp.stack([m[..., 2, 1] - m[..., 1, 2], m[..., 0, 2] - m[..., 2, 0],
                                 m[..., 1, 0] - m[..., 0, 1], 1 + trace], axis=-1))
    pivots = fnp.stack([m[..., 0, 0], m[..., 1, 1], m[..., 2, 2], trace], axis=-1)
    choice = fnp.argmax(pivots, axis=-1)
    quat = candidates[3]
    for i in range(3):
        quat = fnp.where((choice == i)[..., None], candidates[i], quat)
    return _normalize(quat)


def _from_rotvec(rotvec):
    angle, angle_sq = _safe_norm(rotvec)
    small = angle <= _SMALL_ANGLE
    safe_angle = fnp.where(small, 1.0, angle)
    scale = fnp.where(small, 0.5 - angle_sq / 48 + angle_sq * angle_sq / 3840,
                      fnp.sin(safe_angle / 2) / safe_angle)
    return fnp.concatenate([scale[..., None] * rotvec, fnp.cos(angle / 2)[..., None]], axis=-1)


def _canonical_sign(quat):
    """+1 or -1 per quaternion: the sign that makes ``w`` non-negative."""
    return fnp.where(quat[..., 3:] < 0, -1.0, 1.0).astype(quat.dtype)


def _as_rotvec(quat):
    quat = quat * _canonical_sign(quat)
    vector_norm, _ = _safe_norm(quat[..., :3])
    angle = 2 * fnp.arctan2(vector_norm, quat[..., 3])
    small = angle <= _SMALL_ANGLE
    safe_angle = fnp.where(small, 1.0, angle)
    angle_sq = angle * angle
    scale = fnp.where(small, 2 + angle_sq / 12 + 7 * angle_sq * angle_sq / 2880,
                      safe_angle / fnp.sin(safe_angle / 2))
    return scale[..., None] * quat[..., :3]


def _as_mrp(quat):
    sign = _canonical_sign(quat)
    return sign * quat[..., :3] / (1 + sign * quat[..., 3:])


def _from_mrp(mrp):
    sq = fnp.sum(mrp * mrp, axis=-1, keepdims=True)
    return fnp.concatenate([2 * mrp, 1 - sq], axis=-1) / (1 + sq)


def _elementary_quat(axis: int, angle):
    zero = fnp.zeros_like(angle)
    half = angle / 2
    parts = [zero, zero, zero, fnp.cos(half)]
    parts[axis] = fnp.sin(half)
    return fnp.stack(parts, axis=-1)


def _check_seq(seq: str, fn: str, exactly_three: bool) -> bool:
    """Validate an Euler sequence; True for intrinsic (upper case) axes."""
    if exactly_three and len(seq) != 3:
        raise ValueError(f"Rotation.{fn}: expected 3 axes, got {seq!r}")
    if not 1 <= len(seq) <= 3:
        raise ValueError(f"Rotation.{fn}: expected axis specification to be a non-empty string of up to 3 "
                         f"characters, got {seq!r}")
    intrinsic = re.fullmatch(r"[XYZ]{1,3}", seq) is not None
    extrinsic = re.fullmatch(r"[xyz]{1,3}", seq) is not None
    if not (intrinsic or extrinsic):
        raise ValueError(f"Rotation.{fn}: expected axes from `seq` to be from ['x', 'y', 'z'] or "
                         f"['X', 'Y', 'Z'], got {seq!r}")
    if any(a == b for a, b in zip(seq, seq[1:])):
        raise ValueError(f"Rotation.{fn}: expected consecutive axes to be different, got {seq!r}")
    return intrinsic


def _euler_from_quat(quat, seq: str, intrinsic: bool):
    """Bernardes and Viollet (2022): the Euler angles of any sequence from the quaternion,
    with SciPy's choice (third angle 0) at gimbal lock."""
    axes = ["xyz".index(c) for c in seq.lower()]
    if intrinsic:
        axes = axes[::-1]
    i, j, k = axes
    symmetric = i == k
    if symmetric:
        k = 3 - i - j
    sign = float((i - j) * (j - k) * (k - i) // 2)
    qi, qj, qk, qw = quat[..., i], quat[..., j], quat[..., k], quat[..., 3]
    if symmetric:
        a, b, c, d = qw, qi, qj, qk * sign
    else:
        a, b, c, d = qw - qj, qi + qk * sign, qj + qw, qk * sign - qi
    middle = 2 * fnp.arctan2(fnp.hypot(c, d), fnp.hypot(a, b))
    half_sum = fnp.arctan2(b, a)
    half_diff = fnp.arctan2(d, c)
    eps = 1e-7
    at_zero = fnp.abs(middle) <= eps
    at_pi = fnp.abs(middle - np.pi) <= eps
    degenerate = at_zero | at_pi
    first = half_sum - half_diff
    third = half_sum + half_diff
    locked = fnp.where(at_zero, 2 * half_sum, 2 * half_diff * (1.0 if intrinsic else -1.0))
    if intrinsic:
        # the roles of the first and third angle swap (the reversed sequence)
        first, third = fnp.where(degenerate, 0.0, first), fnp.where(degenerate, locked, third)
    else:
        first, third = fnp.where(degenerate, locked, first), fnp.where(degenerate, 0.0, third)
    if not symmetric:
        third = third * sign
        middle = middle - np.pi / 2
    angles = [first, middle, third]
    if intrinsic:
        angles = angles[::-1]
    angles = fnp.stack(angles, axis=-1)
    angles = fnp.where(angles < -np.pi, angles + 2 * np.pi, angles)
    return fnp.where(angles > np.pi, angles - 2 * np.pi, angles)


class Rotation(NamedTuple):
    """Rotation(s) in 3-d, stored as unit quaternions ``quat`` (``(4,)`` or ``(N, 4)``,
    scalar last); build one with the ``from_*`` constructors (``scipy.spatial.transform.Rotation``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> angle = lambda t: Rotation.from_rotvec(fnp.asarray([0.0, 0.0, t])).magnitude()
        >>> float(fgrad.grad(angle)(0.5))
        1.0
    """

    quat: object

    @classmethod
    def concatenate(cls, rotations) -> Rotation:
        """Concatenate rotations (single or several each) into one stack.

        Example::

            >>> one, two = Rotation.from_rotvec(fnp.zeros((1, 3))), Rotation.from_rotvec(fnp.zeros((2, 3)))
            >>> len(Rotation.concatenate([one, two]))
            3
        """
        return cls(fnp.concatenate([fnp.atleast_2d(r.quat) for r in rotations], axis=0))

    @classmethod
    def from_euler(cls, seq: str, angles, degrees: bool = False) -> Rotation:
        """From Euler angles about the axes ``seq`` (``"xyz"`` extrinsic, ``"XYZ"`` intrinsic;
        1 to 3 axes); ``angles`` of shape ``(len(seq),)`` or ``(N, len(seq))`` (a scalar or
        ``(N,)`` for one axis).

        Example::

            >>> Rotation.from_euler("xyz", fnp.asarray([90.0, 0.0, 0.0]), degrees=True).as_quat()
            Array([0.70710678, 0.        , 0.        , 0.70710678], dtype=float64)
        """
        intrinsic = _check_seq(seq, "from_euler", exactly_three=False)
        angles = _float(angles)
        if degrees:
            angles = fnp.deg2rad(angles)
        n = len(seq)
        if n == 1 and angles.ndim <= 1:
            angles = angles[..., None]
        if angles.ndim < 1 or angles.shape[-1] != n:
            raise ValueError(f"Rotation.from_euler: expected angles of shape ({n},) or (N, {n}) for seq "
                             f"{seq!r}, got {angles.shape}")
        axes = ["xyz".index(c) for c in seq.lower()]
        quat = _elementary_quat(axes[0], angles[..., 0])
        for t in range(1, n):
            step = _elementary_quat(axes[t], angles[..., t])
            quat = _compose(quat, step) if intrinsic else _compose(step, quat)
        return cls(quat)

    @classmethod
    def from_matrix(cls, matrix) -> Rotation:
        """From rotation matrices (``(3, 3)`` or ``(N, 3, 3)``).

        Example::

            >>> Rotation.from_matrix(fnp.eye(3)).as_quat()
            Array([0., 0., 0., 1.], dtype=float64)
        """
        matrix = _float(matrix)
        if matrix.ndim < 2 or matrix.shape[-2:] != (3, 3):
            raise ValueError(f"Rotation.from_matrix: expected matrix of shape (3, 3) or (N, 3, 3), got "
                             f"{matrix.shape}")
        return cls(_from_matrix(matrix))

    @classmethod
    def from_mrp(cls, mrp) -> Rotation:
        """From Modified Rodrigues Parameters ``tan(angle / 4) axis``.

        Example::

            >>> Rotation.from_mrp(fnp.asarray([0.0, 0.0, 1.0])).magnitude()
            Array(3.14159265, dtype=float64)
        """
        return cls(_from_mrp(_vectors(mrp, "from_mrp")))

    @classmethod
    def from_quat(cls, quat, *, scalar_first: bool = False) -> Rotation:
        """From quaternions (``(4,)`` or ``(N, 4)``, scalar last unless ``scalar_first``),
        normalized.

        Example::

            >>> Rotation.from_quat(fnp.asarray([0.0, 0.0, 2.0, 2.0])).as_quat()
            Array([0.        , 0.        , 0.70710678, 0.70710678], dtype=float64)
        """
        quat = _float(quat)
        if quat.ndim < 1 or quat.shape[-1] != 4:
            raise ValueError(f"Rotation.from_quat: expected quat of shape (4,) or (N, 4), got {quat.shape}")
        if scalar_first:
            quat = fnp.roll(quat, -1, axis=-1)
        return cls(_normalize(quat))

    @classmethod
    def from_rotvec(cls, rotvec, degrees: bool = False) -> Rotation:
        """From rotation vectors (axis times angle, ``(3,)`` or ``(N, 3)``).

        Example::

            >>> Rotation.from_rotvec(fnp.asarray([0.0, 3.14159265358979, 0.0])).as_quat().round(8)
            Array([0., 1., 0., 0.], dtype=float64)
        """
        rotvec = _vectors(rotvec, "from_rotvec")
        if degrees:
            rotvec = fnp.deg2rad(rotvec)
        return cls(_from_rotvec(rotvec))

    @classmethod
    def identity(cls, num: int | None = None, dtype=float) -> Rotation:
        """The identity rotation (``num`` of them if given, as SciPy; JAX allows only one).

        Example::

            >>> Rotation.identity().as_matrix()
            Array([[1., 0., 0.],
                   [0., 1., 0.],
                   [0., 0., 1.]], dtype=float64)
        """
        quat = fnp.asarray([0.0, 0.0, 0.0, 1.0], dtype=dtype)
        return cls(quat if num is None else fnp.tile(quat, (num, 1)))

    @classmethod
    def random(cls, random_key, num: int | None = None) -> Rotation:
        """Uniformly distributed rotations (normalized 4-d Gaussian quaternions) from an
        `fgrad.random` key.  (JAX raises ``NotImplementedError`` here.)

        Example::

            >>> import fgrad
            >>> Rotation.random(fgrad.random.key(0), 5).quat.shape
            (5, 4)
        """
        shape = (4,) if num is None else (num, 4)
        return cls(_normalize(frandom.normal(random_key, shape)))

    def __getitem__(self, indexer) -> Rotation:
        """The rotation(s) at ``indexer`` of a stack.

        Example::

            >>> Rotation.from_rotvec(fnp.zeros((3, 3)))[1:].quat.shape
            (2, 4)
        """
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        return Rotation(self.quat[indexer])

    def __len__(self) -> int:
        if self.single:
            raise TypeError("Single rotation has no len().")
        return self.quat.shape[0]

    def __mul__(self, other) -> Rotation:
        """Composition: ``(p * q).apply(v) == p.apply(q.apply(v))`` (broadcasting a single
        rotation against a stack).

        Example::

            >>> r = Rotation.from_euler("z", 30.0, degrees=True)
            >>> fnp.rad2deg((r * r).magnitude()).round(10)
            Array(60., dtype=float64)
        """
        if not isinstance(other, Rotation):
            return NotImplemented
        return Rotation.from_quat(_compose(self.quat, other.quat))

    def apply(self, vectors, inverse: bool = False):
        """Rotate ``vectors`` (``(3,)`` or ``(N, 3)``; by the inverse rotation if ``inverse``).

        Example::

            >>> r = Rotation.from_euler("z", 90.0, degrees=True)
            >>> r.apply(fnp.asarray([1.0, 0.0, 0.0]), inverse=True).round(12)
            Array([ 0., -1.,  0.], dtype=float64)
        """
        vectors = _float(vectors)
        if vectors.ndim < 1 or vectors.shape[-1] != 3:
            raise ValueError(f"Rotation.apply: expected vectors of shape (3,) or (N, 3), got {vectors.shape}")
        matrix = self.as_matrix()
        if inverse:
            matrix = fnp.swapaxes(matrix, -1, -2)
        return fnp.sum(matrix * vectors[..., None, :], axis=-1)

    def as_euler(self, seq: str, degrees: bool = False):
        """Euler angles for the 3-axis sequence ``seq`` (``"xyz"`` extrinsic, ``"XYZ"``
        intrinsic), in ``[-pi, pi]``; at gimbal lock the third angle is 0 (SciPy).

        Example::

            >>> r = Rotation.from_euler("ZYX", fnp.asarray([0.3, -0.2, 0.1]))
            >>> r.as_euler("ZYX")
            Array([ 0.3, -0.2,  0.1], dtype=float64)
        """
        intrinsic = _check_seq(seq, "as_euler", exactly_three=True)
        angles = _euler_from_quat(self.quat, seq, intrinsic)
        return fnp.rad2deg(angles) if degrees else angles

    def as_matrix(self):
        """The rotation matrices (``(3, 3)`` or ``(N, 3, 3)``).

        Example::

            >>> Rotation.from_rotvec(fnp.asarray([0.0, 0.0, 0.5])).as_matrix()[0]
            Array([ 0.87758256, -0.47942554,  0.        ], dtype=float64)
        """
        return _as_matrix(self.quat)

    def as_mrp(self):
        """Modified Rodrigues Parameters (of the quaternion with ``w >= 0``).

        Example::

            >>> Rotation.from_rotvec(fnp.asarray([0.0, 0.0, 0.5])).as_mrp()
            Array([0.        , 0.        , 0.12565514], dtype=float64)
        """
        return _as_mrp(self.quat)

    def as_rotvec(self, degrees: bool = False):
        """Rotation vectors (axis times angle, angle in ``[0, pi]``).

        Example::

            >>> Rotation.from_quat(fnp.asarray([0.0, 0.0, 1.0, 1.0])).as_rotvec(degrees=True)
            Array([ 0.,  0., 90.], dtype=float64)
        """
        rotvec = _as_rotvec(self.quat)
        return fnp.rad2deg(rotvec) if degrees else rotvec

    def as_quat(self, canonical: bool = False, scalar_first: bool = False):
        """The quaternions (scalar last unless ``scalar_first``; with ``canonical`` the sign
        with ``w >= 0``).

        Example::

            >>> Rotation.from_quat(fnp.asarray([0.0, 0.0, 0.6, -0.8])).as_quat(canonical=True)
            Array([-0. , -0. , -0.6,  0.8], dtype=float64)
        """
        quat = self.quat
        if canonical:
            quat = quat * _canonical_sign(quat)
        return fnp.roll(quat, 1, axis=-1) if scalar_first else quat

    def inv(self) -> Rotation:
        """The inverse rotation(s).

        Example::

            >>> Rotation.from_rotvec(fnp.asarray([0.0, 0.0, 0.5])).inv().as_rotvec()
            Array([-0. , -0. , -0.5], dtype=float64)
        """
        return Rotation(self.quat * fnp.asarray([-1.0, -1.0, -1.0, 1.0], dtype=self.quat.dtype))

    def magnitude(self):
        """The rotation angle(s) in ``[0, pi]``.

        Example::

            >>> Rotation.from_rotvec(fnp.asarray([0.0, 0.3, 0.4])).magnitude()
            Array(0.5, dtype=float64)
        """
        vector_norm, _ = _safe_norm(self.quat[..., :3])
        return 2 * fnp.arctan2(vector_norm, fnp.abs(self.quat[..., 3]))

    def mean(self, weights=None) -> Rotation:
        """The (weighted) chordal L2 mean: the quaternion maximizing ``sum w (q . q_i)**2``,
        the top eigenvector of ``sum w q_i q_i^T``.

        Example::

            >>> r = Rotation.from_euler("z", fnp.asarray([[-0.2], [0.2]]))
            >>> fnp.abs(r.mean().as_quat()).round(12)
            Array([0., 0., 0., 1.], dtype=float64)
        """
        if self.single:
            quat = self.quat[None]
        else:
            quat = self.quat
        if weights is None:
            w = fnp.ones(quat.shape[0], dtype=quat.dtype)
        else:
            w = fnp.asarray(weights).astype(quat.dtype)
        if w.ndim != 1:
            raise ValueError(f"Rotation.mean: expected `weights` to be 1 dimensional, got shape {w.shape}")
        if w.shape[0] != quat.shape[0]:
            raise ValueError(f"Rotation.mean: expected `weights` to have number of values equal to number of "
                             f"rotations, got {w.shape[0]} values and {quat.shape[0]} rotations")
        scatter = fnp.matmul((w[:, None] * quat).T, quat)
        _, vectors = fnp.linalg.eigh(scatter)
        return Rotation(vectors[:, -1])

    @property
    def single(self) -> bool:
        """Whether this is one rotation (``quat`` of shape ``(4,)``) rather than a stack."""
        return self.quat.ndim == 1


def _vectors(v, fn: str):
    v = _float(v)
    if v.ndim < 1 or v.shape[-1] != 3:
        raise ValueError(f"Rotation.{fn}: expected an array of shape (3,) or (N, 3), got {v.shape}")
    return v


class Slerp(NamedTuple):
    """Spherical linear interpolation between key rotations at increasing ``times``
    (``scipy.spatial.transform.Slerp``): build with `Slerp.init`, call with times.  A pytree.

    Example::

        >>> import fgrad.numpy as fnp
        >>> keys = Rotation.from_euler("z", fnp.asarray([[0.0], [90.0]]), degrees=True)
        >>> slerp = Slerp.init(fnp.asarray([0.0, 1.0]), keys)
        >>> fnp.rad2deg(slerp(0.5).magnitude()).round(10)
        Array(45., dtype=float64)
    """

    times: object
    timedelta: object
    rotations: Rotation
    rotvecs: object

    @classmethod
    def init(cls, times, rotations: Rotation) -> Slerp:
        """The interpolator through ``rotations`` (at least 2) at strictly increasing ``times``.

        Example::

            >>> keys = Rotation.from_euler("x", fnp.asarray([[0.0], [1.0], [3.0]]))
            >>> Slerp.init(fnp.asarray([0.0, 1.0, 2.0]), keys).timedelta
            Array([1., 1.], dtype=float64)
        """
        if not isinstance(rotations, Rotation):
            raise TypeError(f"Slerp.init: `rotations` must be a Rotation instance, got "
                            f"{type(rotations).__name__}")
        if rotations.single or len(rotations) == 1:
            raise ValueError("Slerp.init: `rotations` must be a sequence of at least 2 rotations.")
        times = fnp.asarray(times).astype(rotations.quat.dtype)
        if times.ndim != 1:
            raise ValueError(f"Slerp.init: expected times to be specified in a 1 dimensional array, got "
                             f"{times.ndim} dimensions")
        if times.shape[0] != len(rotations):
            raise ValueError(f"Slerp.init: expected number of rotations to be equal to number of timestamps "
                             f"given, got {len(rotations)} rotations and {times.shape[0]} timestamps")
        starts = Rotation(rotations.quat[:-1])
        steps = (starts.inv() * Rotation(rotations.quat[1:])).as_rotvec()
        return cls(times=times, timedelta=fnp.diff(times), rotations=starts, rotvecs=steps)

    def __call__(self, times) -> Rotation:
        """The interpolated rotation(s) at ``times`` (a scalar gives a single rotation)."""
        times = fnp.asarray(times).astype(self.times.dtype)
        if times.ndim > 1:
            raise ValueError(f"Slerp: `times` must be at most 1-dimensional, got shape {times.shape}")
        single = times.ndim == 0
        times = fnp.atleast_1d(times)
        index = fnp.maximum(fnp.searchsorted(self.times, times) - 1, 0)
        fraction = (times - self.times[index]) / self.timedelta[index]
        result = self.rotations[index] * Rotation.from_rotvec(self.rotvecs[index] * fraction[:, None])
        return result[0] if single else result
