"""A convolutional autoencoder in ``jax.example_libraries.stax`` with the layers the MLP
examples never touch: ``GeneralConv`` (NCHW), ``ConvTranspose``, ``Conv1DTranspose``,
``GeneralConvTranspose``, ``SumPool``, ``FanInConcat``, ``Elu``/``Selu``/``Gelu``,
``Softmax``/``logsoftmax``; the initializers of ``jax.nn.initializers`` (he, kaiming, lecun,
xavier, ``delta_orthogonal``, ``variance_scaling`` with axes) by their statistics; and the
activations ``hard_sigmoid``, ``hard_silu``, ``soft_sign``, ``sparse_sigmoid``, ``swish``,
``log1mexp``, ``logmeanexp``."""

import jax
import jax.numpy as jnp
from jax import random
from jax.example_libraries import optimizers, stax
from jax.nn import initializers as init

key = random.PRNGKey(0)
k_init, k_data, k_enc, k_1d, k_ini = random.split(key, 5)

# initializers: shapes, dtypes and the variances they promise
for name, fn in [("he_normal", init.he_normal()), ("kaiming_uniform", init.kaiming_uniform()),
                 ("lecun_uniform", init.lecun_uniform()), ("xavier_normal", init.xavier_normal()),
                 ("xavier_uniform", init.xavier_uniform()),
                 ("vs fan_out axes", init.variance_scaling(2.0, "fan_out", "truncated_normal",
                                                           in_axis=0, out_axis=(1, 2)))]:
    w = fn(k_ini, (64, 32, 3))
    print(f"{name:>16}: {w.shape} {w.dtype} var {jnp.var(w):.5f} max|w| {jnp.abs(w).max():.4f}")
d = init.delta_orthogonal(scale=1.0)(k_ini, (3, 3, 4, 6))
center = d[1, 1]
print("delta_orthogonal:", d.shape, "off-centre zero:", bool(jnp.all(d.at[1, 1].set(0.0) == 0)),
      "centre rows orthonormal:", bool(jnp.allclose(center @ center.T, jnp.eye(4), atol=1e-5)))
print("he_normal float16:", init.he_normal(dtype=jnp.float16)(k_ini, (4, 4)).dtype)

# activations
z = jnp.linspace(-4.0, 4.0, 9)
for name, act in [("hard_sigmoid", jax.nn.hard_sigmoid), ("hard_silu", jax.nn.hard_silu),
                  ("soft_sign", jax.nn.soft_sign), ("sparse_sigmoid", jax.nn.sparse_sigmoid),
                  ("swish", jax.nn.swish)]:
    print(f"{name:>14}:", jnp.round(act(z), 5), "grad at 0.5:", jnp.round(jax.grad(act)(0.5), 5))
neg = -jnp.array([1e-8, 1e-3, 0.5, 3.0, 40.0])
print("log1mexp:", jax.nn.log1mexp(-neg), "naive:", jnp.log(-jnp.expm1(neg)))
print("logmeanexp:", jax.nn.logmeanexp(jnp.array([[1.0, 2.0, 3.0], [-1e3, 0.0, 1e3]]), axis=1))

# a GeneralConv encoder in NCHW and a ConvTranspose decoder in NHWC
encoder_init, encoder = stax.serial(
    stax.GeneralConv(("NCHW", "OIHW", "NHWC"), 8, (3, 3), padding="SAME"), stax.Elu,
    stax.SumPool((2, 2), strides=(2, 2)), stax.Conv(4, (3, 3), padding="SAME"), stax.Selu)
decoder_init, decoder = stax.serial(
    stax.ConvTranspose(8, (3, 3), strides=(2, 2), padding="SAME"), stax.Gelu,
    stax.GeneralConvTranspose(("NHWC", "HWIO", "NHWC"), 1, (3, 3), padding="SAME"))
enc_out, enc_params = encoder_init(k_init, (-1, 1, 8, 8))
dec_out, dec_params = decoder_init(k_enc, enc_out)
print("encoder out:", enc_out, "decoder out:", dec_out)
print("param shapes:", [p[0].shape for p in enc_params if p], [p[0].shape for p in dec_params if p])

x = random.uniform(k_data, (6, 1, 8, 8))
target = jnp.transpose(x, (0, 2, 3, 1))


def loss(params, x):
    ep, dp = params
    return jnp.mean((decoder(dp, encoder(ep, x)) - target) ** 2)


opt_init, opt_update, get_params = optimizers.adam(3e-3)
state = opt_init((enc_params, dec_params))
step = jax.jit(lambda i, s: opt_update(i, jax.grad(loss)(get_params(s), x), s))
print("loss before:", loss(get_params(state), x))
for i in range(40):
    state = step(i, state)
print("loss after 40 Adam steps:", loss(get_params(state), x))

# Conv1DTranspose upsampling, and two branches joined by FanInConcat
up_init, up = stax.serial(stax.Conv1DTranspose(3, (4,), strides=(2,), padding="VALID"),
                          stax.FanOut(2), stax.parallel(stax.Dense(5), stax.Softmax),
                          stax.FanInConcat(axis=-1))
shape, up_params = up_init(k_1d, (2, 7, 2))
y = up(up_params, random.normal(k_1d, (2, 7, 2)))
print("upsampled:", shape, y.shape, "softmax rows sum:", jnp.round(y[..., 5:].sum(-1)[0, :4], 5))
print("logsoftmax == log(softmax):", bool(jnp.allclose(stax.logsoftmax(y[0, 0]),
                                                       jnp.log(jax.nn.softmax(y[0, 0])), atol=1e-5)))
print("sum of upsampled:", jnp.round(y.sum(), 4))
