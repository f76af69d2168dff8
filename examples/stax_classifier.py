"""A stax + optimizers classifier on synthetic "digits", in the style of JAX's
``examples/mnist_classifier.py``.

The data: ten random 8x8 prototype images, one per class; each example is its class's
prototype, randomly shifted by up to one pixel, with Gaussian pixel noise (drawn with NumPy, so
the data set is the same for every framework).  The model: Flatten -> Dense(128) -> Relu ->
Dense(64) -> Relu -> Dense(10) -> LogSoftmax, built with ``stax``; Adam from ``optimizers``;
the update step is one ``jit``-compiled function.

It is a JAX program with its imports changed: replace the four ``fgrad`` import lines by

    import jax
    import jax.numpy as jnp
    from jax import random
    from jax.example_libraries import optimizers, stax

and it runs on JAX (tests/test_examples.py does exactly that when JAX is installed).

Run: ``python examples/stax_classifier.py`` (a few seconds).  It saves its loss and accuracy curves to
``examples/plots/stax_classifier.png`` with matplotlib installed (``--plot FILE.png``, ``--no-plot``).
"""

import itertools
import time

import numpy as np

import fgrad as jax
import fgrad.numpy as jnp
from fgrad import random
from fgrad.example_libraries import optimizers, stax
from _training_plot import TrainingCurves, plot_arguments  # examples/_training_plot.py

NUM_CLASSES = 10
SIDE = 8


def synthetic_digits(n, seed, noise=0.5):
    """``n`` noisy, shifted copies of ten fixed prototypes: images (n, 8, 8, 1), labels (n,)."""
    prototypes = np.random.default_rng(0).random((NUM_CLASSES, SIDE + 2, SIDE + 2)) > 0.5
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, NUM_CLASSES, n)
    dy, dx = rng.integers(0, 3, n), rng.integers(0, 3, n)
    images = np.stack([prototypes[c, y:y + SIDE, x:x + SIDE] for c, y, x in zip(labels, dy, dx)])
    images = images.astype(np.float32) + noise * rng.standard_normal(images.shape).astype(np.float32)
    return images[..., None], labels


def one_hot(labels, k=NUM_CLASSES):
    return np.asarray(labels[:, None] == np.arange(k), np.float32)


init_random_params, predict = stax.serial(
    stax.Flatten,
    stax.Dense(128), stax.Relu,
    stax.Dense(64), stax.Relu,
    stax.Dense(NUM_CLASSES), stax.LogSoftmax)


def loss(params, batch):
    inputs, targets = batch
    preds = predict(params, inputs)
    return -jnp.mean(jnp.sum(preds * targets, axis=1))


def accuracy(params, batch):
    inputs, targets = batch
    target_class = jnp.argmax(targets, axis=1)
    predicted_class = jnp.argmax(predict(params, inputs), axis=1)
    return jnp.mean(predicted_class == target_class)


def main():
    args = plot_arguments()
    rng = random.key(0)
    step_size = 0.003
    num_epochs = 5
    batch_size = 128

    train_images, train_labels = synthetic_digits(4096, seed=1)
    test_images, test_labels = synthetic_digits(1000, seed=2)
    train_targets, test_targets = one_hot(train_labels), one_hot(test_labels)
    num_train = train_images.shape[0]
    num_complete_batches, leftover = divmod(num_train, batch_size)
    num_batches = num_complete_batches + bool(leftover)

    def data_stream():
        rng_np = np.random.default_rng(0)
        while True:
            perm = rng_np.permutation(num_train)
            for i in range(num_batches):
                batch_idx = perm[i * batch_size:(i + 1) * batch_size]
                yield train_images[batch_idx], train_targets[batch_idx]
    batches = data_stream()

    opt_init, opt_update, get_params = optimizers.adam(step_size)

    @jax.jit
    def update(i, opt_state, batch):
        params = get_params(opt_state)
        return opt_update(i, jax.grad(loss)(params, batch), opt_state)

    _, init_params = init_random_params(rng, (-1, SIDE, SIDE, 1))
    init_params = jax.tree_util.tree_map(lambda p: jnp.asarray(p, dtype=jnp.float32), init_params)
    opt_state = opt_init(init_params)
    itercount = itertools.count()

    curves = TrainingCurves("stax_classifier: Dense-Relu-Dense-LogSoftmax, Adam", xlabel="epoch")
    print("Starting training...")
    for epoch in range(num_epochs):
        start_time = time.time()
        for _ in range(num_batches):
            opt_state = update(next(itercount), opt_state, next(batches))
        epoch_time = time.time() - start_time

        params = get_params(opt_state)
        train_acc = accuracy(params, (train_images, train_targets))
        test_acc = accuracy(params, (test_images, test_targets))
        train_loss = loss(params, (train_images, train_targets))
        print(f"Epoch {epoch} in {epoch_time:0.2f} sec")
        print(f"Training set loss {float(train_loss):.4f} accuracy {float(train_acc):.4f}")
        print(f"Test set accuracy {float(test_acc):.4f}")
        curves.add("loss", "train", epoch + 1, float(train_loss))
        curves.add("accuracy", "train", epoch + 1, float(train_acc))
        curves.add("accuracy", "test", epoch + 1, float(test_acc))
    curves.save("stax_classifier", args)


if __name__ == "__main__":
    main()
