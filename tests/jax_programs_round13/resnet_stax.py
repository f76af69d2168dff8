"""A small ResNet in jax.example_libraries.stax (as in JAX's examples/resnet50.py): residual
blocks built from FanOut, parallel, Identity and FanInSum, Conv with padding "SAME" and
strides, BatchNorm over the batch, MaxPool/AvgPool, Flatten, Dense and LogSoftmax; the
init shapes of every layer, a few steps of optimizers.nesterov on random images, and the
gradient's global norm."""

import jax
import jax.numpy as jnp
from jax import jit, random
from jax.example_libraries import optimizers, stax
from jax.example_libraries.stax import (AvgPool, BatchNorm, Conv, Dense, FanInSum, FanOut,
                                        Flatten, Identity, LogSoftmax, MaxPool, Relu)


def ConvBlock(filters, strides=(2, 2)):
    f1, f2 = filters
    main = stax.serial(Conv(f1, (1, 1), strides), BatchNorm(), Relu,
                       Conv(f2, (3, 3), padding="SAME"), BatchNorm())
    shortcut = stax.serial(Conv(f2, (1, 1), strides), BatchNorm())
    return stax.serial(FanOut(2), stax.parallel(main, shortcut), FanInSum, Relu)


def IdentityBlock(filters):
    f1, f2 = filters

    def make_main(input_shape):
        return stax.serial(Conv(f1, (1, 1)), BatchNorm(), Relu,
                           Conv(input_shape[3], (3, 3), padding="SAME"), BatchNorm())

    main = stax.shape_dependent(make_main)
    return stax.serial(FanOut(2), stax.parallel(main, Identity), FanInSum, Relu)


init_fun, apply_fun = stax.serial(
    Conv(8, (3, 3), padding="SAME"), BatchNorm(), Relu, MaxPool((2, 2), strides=(2, 2)),
    ConvBlock((4, 8)), IdentityBlock((4, 8)),
    AvgPool((2, 2)), Flatten, Dense(5), LogSoftmax)

key = random.PRNGKey(0)
out_shape, params = init_fun(key, (4, 12, 12, 3))
print("out shape", out_shape)
shapes = jax.tree.map(lambda p: p.shape, params)
print("layers", len(params), "leaves", len(jax.tree.leaves(params)))
print(shapes[0], shapes[1], shapes[4][1])
print("param count", sum(p.size for p in jax.tree.leaves(params)))

images = random.normal(random.PRNGKey(1), (4, 12, 12, 3))
labels = jnp.array([0, 3, 1, 4])
onehot = jax.nn.one_hot(labels, 5)


def loss(params, batch):
    x, y = batch
    logits = apply_fun(params, x)
    return -jnp.mean(jnp.sum(logits * y, axis=-1))


logp = apply_fun(params, images)
print("log-probs sum to one", jnp.allclose(jnp.exp(logp).sum(-1), 1.0, atol=1e-5))
print("initial loss", round(float(loss(params, (images, onehot))), 4))
g = jax.grad(loss)(params, (images, onehot))
print("grad norm", round(float(optimizers.l2_norm(g)), 4))
print("clipped norm", round(float(optimizers.l2_norm(optimizers.clip_grads(g, 0.5))), 4))

opt_init, opt_update, get_params = optimizers.nesterov(0.05, 0.9)
state = opt_init(params)


@jit
def step(i, state, batch):
    value, grads = jax.value_and_grad(loss)(get_params(state), batch)
    return opt_update(i, grads, state), value


for i in range(4):
    state, value = step(i, state, (images, onehot))
    print("step", i, "loss", round(float(value), 4))
final = get_params(state)
print("predictions", jnp.argmax(apply_fun(final, images), axis=-1))
print("bn beta/gamma", jax.tree.map(lambda p: p.shape, final[1]))
