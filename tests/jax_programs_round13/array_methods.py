"""The jax.Array object itself (as in the "Key concepts" and jax.Array migration docs):
attributes (shape, ndim, size, dtype, itemsize, nbytes, weak_type, T, mT, real/imag, at),
methods (astype, reshape with -1 and order, clip with min/max keywords, round, sum with
where and keepdims, argmax with keepdims, cumsum, searchsorted, take, repeat, squeeze,
swapaxes, flatten, ravel, item, tolist, conj, std with ddof, var, prod, any/all, nonzero
with size, sort, argsort descending), operators with Python scalars, reprs and str of
several dtypes, and .at[] updates with the full family (set, add, multiply, min, max,
divide, power, apply, get with mode and fill_value)."""

import jax
import jax.numpy as jnp
import numpy as np

x = jnp.arange(12.0).reshape(3, 4)
print(x.shape, x.ndim, x.size, x.dtype, x.itemsize, x.nbytes, x.weak_type)
print(x.T.shape, x.mT.shape, jnp.ones((2, 3, 4)).mT.shape)
print(x.astype(jnp.int8), x.astype("float16").dtype, x.astype(bool).sum())
print(x.reshape(-1, 6), x.reshape(4, 3, order="F")[0])
print(x.clip(min=2.5, max=8), x.clip(max=1.0)[0])
print((x / 7).round(2)[1], (-x / 3).round()[0], jnp.round(2.5), jnp.round(-0.5))
print(x.sum(axis=1, keepdims=True).shape, x.sum(where=x > 5), x.mean(axis=0, where=x < 9))
print(x.argmax(axis=1, keepdims=True).T, x.argmin(), x.cumsum(axis=0)[-1], x.cumprod(1)[0])
print(jnp.arange(10).searchsorted(jnp.array([2.5, 7, -1])), x.take(jnp.array([0, 5, 11])))
print(x[0].repeat(2), jnp.repeat(x[:2, :2], jnp.array([1, 2]), axis=0, total_repeat_length=3))
print(x[None, :, None].squeeze().shape, x.swapaxes(0, 1).shape, x.flatten()[-1], x.ravel().shape)
print(x[1, 2].item(), type(x[1, 2].item()).__name__, x[0].tolist(), type(x.tolist()[0][0]).__name__)
c = jnp.array([1 + 2j, 3 - 1j])
print(c.conj(), c.real, c.imag, c.dtype, jnp.abs(c).dtype)
print(x.std(ddof=1), x.var(axis=1), x.prod(axis=0), x.max(initial=100.0), x.min(axis=1))
print((x > 5).any(axis=0), (x > -1).all(), jnp.nonzero(x[0] > 0, size=5, fill_value=-1))
y = jnp.array([3.0, 1.0, 2.0, 1.0])
print(y.sort(), y.argsort(), jnp.argsort(-y, stable=True), jnp.argsort(y, descending=True))
print(2 ** jnp.arange(4), 1 / jnp.array([1, 2, 4]), 7 // jnp.arange(1, 4), -jnp.arange(3) % 3)
print(jnp.arange(5) @ jnp.arange(5), jnp.float32(1) + 1, (jnp.arange(3) * 1.5).dtype, 3 - jnp.uint8(5))
print(repr(jnp.array([1, 2], jnp.int16)), repr(jnp.array(True)), repr(jnp.zeros((0, 3))))
print(repr(jnp.array([1.5, -2.25], jnp.bfloat16)), repr(jnp.array(1e-8)), repr(jnp.array([1e10, 1.0])))
print(str(jnp.arange(3.0)), str(jnp.eye(2, dtype=int)), repr(jnp.array([jnp.nan, jnp.inf, -jnp.inf])))
print(jnp.linspace(0, 1, 2000))
with jnp.printoptions(precision=2, suppress=True):
    print(jnp.array([1 / 3, 1e-6, 12345.678]))

z = jnp.zeros(5)
i = jnp.array([0, 2, 2])
print(z.at[i].set(1.0), z.at[i].add(1.0), z.at[1:4].set(jnp.array([7.0, 8.0, 9.0])))
print(jnp.ones(5).at[i].multiply(3.0), jnp.full(5, 4.0).at[i].divide(2.0), jnp.full(5, 2.0).at[i].power(3))
print(z.at[i].min(-1.0), z.at[i].max(jnp.array([3.0, -2.0, 5.0])), jnp.arange(5.0).at[i].apply(jnp.exp))
print(x.at[1].set(0.0)[1], x.at[:, 0].add(100)[:, 0], x.at[(0, 1), (2, 3)].set(-1)[:2])
print(jnp.arange(5.0).at[jnp.array([1, 7])].get(mode="fill", fill_value=-9.0),
      jnp.arange(5.0).at[7].get(mode="clip"), jnp.arange(5).at[6].set(1, mode="drop"))
print(jnp.arange(4).at[jnp.array([3, 0])].set(jnp.array([10, 20]), indices_are_sorted=False,
                                               unique_indices=True))
print(jax.grad(lambda v: v.at[i].add(v[1] ** 2).sum())(jnp.arange(5.0)))
print(np.asarray(x).dtype, np.array(jnp.arange(3)).tolist(), float(jnp.float32(2.5)), int(jnp.int32(7)))
