"""Public names that are deliberately not op-table rows, with the reason."""

from __future__ import annotations

# --------------------------------------------------------------------------------------
# Names in the public namespaces that are deliberately not rows (with the reason).  The
# coverage test fails for any other public function without a row.

_INDEX_HELPERS = (
    "diag_indices",
    "diag_indices_from",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
    "indices",
    "ix_",
    "ravel_multi_index",
    "unravel_index",
)
NOT_OPS = {
    "scipy.linalg": {
        **{n: "creation (a constant matrix of a static order): tests/test_scipy_linalg_more.py"
           for n in ("dft", "hadamard", "helmert", "hilbert", "invhilbert", "invpascal", "pascal")},
        "rsf2csf": "needs a real Schur form as input (structured, not random): its values, derivatives, "
                   "vmap and jit are tested in tests/test_scipy_linalg_more.py",
    },
    "scipy.optimize": {"minimize": "an iterative solver: tested in tests/test_scipy.py (vs jax, scipy)"},
    "scipy.special": {"bernoulli": "takes a static Python int and returns constants (no array input): tested "
                                   "in tests/test_scipy_special_stats.py (exact, vs scipy)"},
    "numpy": {
        "from_dlpack": "data exchange, not an op (an fgrad value passes through unchanged): "
                       "tests/test_interop_dlpack.py",
        "vectorize": "a transform (vmap over the batch axes), not an op: "
                     "tests/test_jax_ecosystem_names.py",
        "frompyfunc": "makes a ufunc object from a function (its methods fold with lax.scan): values "
                      "vs NumPy and JAX, derivatives, vmap, jit in tests/test_jax_api_round7.py",
        "iscomplexobj": "a dtype predicate (a Python bool): tests/test_jax_ecosystem_names.py",
        "isrealobj": "a dtype predicate (a Python bool): tests/test_jax_ecosystem_names.py",
        "copy": "identity on values (a new buffer): tests/test_jax_ecosystem_names.py",
        **{n: "print options, not an op: tests/test_jax_api_more.py"
           for n in ("set_printoptions", "get_printoptions", "printoptions")},
        # array creation: no array inputs; tested in tests/test_op_table.py::test_creation
        **{
            n: "creation"
            for n in (
                "array",
                "asarray",
                "zeros",
                "ones",
                "full",
                "empty",
                "zeros_like",
                "ones_like",
                "full_like",
                "empty_like",
                "arange",
                "linspace",
                "logspace",
                "eye",
                "identity",
                "tri",
            )
        },
        # integer index construction from shapes: tested in test_creation
        **{n: "index construction" for n in _INDEX_HELPERS},
        # static shape queries (return Python values)
        "shape": "static query",
        "ndim": "static query",
        "size": "static query",
        "broadcast_shapes": "static query (shapes in, shape out)",
        "isdtype": "static query (dtype in, bool out); tested in tests/test_array_api.py",
        "iinfo": "static query (dtype in, limits out; sub-byte ints too): tests/test_jax_api_round14.py",
        "finfo": "static query (dtype in, limits out); tested in tests/test_narrow_floats.py",
        "issubdtype": "static query (dtypes in, bool out); tested in tests/test_narrow_floats.py",
        "promote_types": "static query (dtypes in, dtype out); tested in tests/test_narrow_floats.py",
        "result_type": "static query (dtype out); tested in tests/test_narrow_floats.py",
        "to_device": "placement (device_put of one array); tested in tests/test_array_api.py",
        # numerical breadth (tests/test_numpy_breadth.py)
        **{n: "creation (a window of a static length)"
           for n in ("bartlett", "blackman", "hamming", "hanning")},
        **{n: "creation from host data or a Python function" for n in (
            "fromfunction", "frombuffer", "fromstring", "fromiter", "fromfile", "load")},
        "mask_indices": "index construction",
        **{n: "static query (returns a Python value)" for n in ("isrealobj", "isscalar", "einsum_path")},
        **{n: "host output (text or a file)" for n in ("array_repr", "array_str", "save", "savez")},
        # text I/O (tests/test_text_io.py)
        **{n: "creation from a text file (host data)" for n in ("loadtxt", "genfromtxt", "fromregex")},
        **{n: "host output (text or a file)" for n in ("savetxt", "savez_compressed")},
    },
    "lax": {
        "custom_linear_solve": "takes functions (matvec, solvers); tested in tests/test_sparse_linalg.py",
        "custom_root": "takes functions (f, solve, tangent_solve): JAX's numbers, finite differences, "
                       "jit, vmap in tests/test_custom_root.py",
        "conv_general_dilated_patches": "a grouped conv_general_dilated (a row) with a one-hot kernel: "
                                        "JAX live + stored, check_grads, vmap, jit in "
                                        "tests/test_lax_patches_topk.py",
        "dtype": "returns a dtype, not an array (tests/test_lax_patches_topk.py)",
        # fgrad/_lax_round10.py: tests/test_lax_round10.py (JAX stored + live, exact integers,
        # check_grads order 2 both modes, vmap, jit)
        "mulhi": "integer-only (no derivative): JAX's values and Python's exact products in "
                 "tests/test_lax_round10.py",
        "conv_general_dilated_local": "patches (a NOT_OPS entry) and an einsum: JAX live + stored, "
                                      "check_grads, vmap, jit in tests/test_lax_round10.py",
        "ragged_dot_general": "ragged_dot (a row) in its one supported layout: tests/test_lax_round10.py",
        "broadcast_like": "broadcast_to (a row) to another array's shape: tests/test_lax_round10.py",
        "conv_general_permutations": "returns axis permutations, not an array: tests/test_lax_round10.py",
        **{n: "tokens carry no data (fgrad runs effects in program order): tests/test_lax_round10.py"
           for n in ("create_token", "after_all")},
        "rng_uniform": "a stateful random draw (no derivative): tests/test_lax_round10.py",
        "stage": "asarray (the identity on arrays): tests/test_lax_round10.py",
        "dce_sink": "returns None (keeps a value alive under XLA): tests/test_lax_round10.py",
        "shape_as_value": "a shape as a host int32 array: tests/test_lax_round10.py",
        "all_to_all": "named-axis collective (needs an enclosing axis_name): values vs JAX, derivatives, "
                      "jit in tests/test_jax_api_round7_lax.py",
        "composite": "takes a function (runs it under a named scope): tests/test_jax_api_round7_lax.py",
        "rng_bit_generator": "random bits from a key (uint outputs, no derivative): determinism, "
                             "uniformity, jit, errors in tests/test_jax_api_round7_lax.py",
        "random_gamma_grad": "a derivative helper over igamma_grad_a/lgamma (both rows): values vs JAX "
                             "and vs random.gamma's gradient in tests/test_jax_api_round7_lax.py",
        "iota": "creation",
        "full": "creation",
        "optimization_barrier": "identity over a pytree (tests/test_prevent_cse.py: jit, grad2, vmap)",
        # static layout/shape helpers of the convolution (tested in tests/test_convolution.py)
        "conv_dimension_numbers": "static query (shapes and layout strings in, axis specs out)",
        "conv_general_shape_tuple": "static query (shapes in, shape out)",
        "conv_transpose_shape_tuple": "static query (shapes in, shape out)",
        "padtype_to_pads": "static query (shapes in, pads out)",
        # collectives over named vmap/pmap axes: need an enclosing axis_name; values, derivatives,
        # jit and nesting against JAX in tests/test_jax_api_pmap.py
        **{n: "named-axis collective: tests/test_jax_api_pmap.py" for n in (
            "psum", "pmean", "pmax", "pmin", "all_gather", "psum_scatter", "ppermute", "pshuffle",
            "axis_index", "axis_size")},
        **{n: "named-axis collective: values, derivatives, jit in tests/test_jax_api_round14.py"
           for n in ("pbroadcast", "pswapaxes")},
        **{n: "varying cast of shard_map's typed axes: tests/test_shard_map.py" for n in ("pcast", "pvary")},
        "broadcast_shapes": "static query (shapes in, shape out; tests/test_optax_round2.py)",
        # fgrad/_lax_more.py: static queries, creation, identities (tests/test_lax_more.py)
        **{n: "static query (shapes in, shape out): tests/test_lax_more.py"
           for n in ("conv_shape_tuple", "reduce_window_shape_tuple")},
        **{n: "creation: tests/test_lax_more.py" for n in ("broadcasted_iota", "empty")},
        "with_sharding_constraint": "identity (an XLA hint): tests/test_lax_more.py",
        "platform_dependent": "calls a user function chosen by platform: tests/test_lax_more.py",
        **{n: "the special function of the same primitive as its fgrad.scipy.special row"
           for n in ("lgamma", "digamma", "polygamma", "igamma", "igammac", "igamma_grad_a", "zeta",
                     "bessel_i0e", "bessel_i1e", "betainc")},
    },
    # sampling has no NumPy reference: tests/test_random.py checks distributions and keys, and
    # tests/test_transforms.py checks random functions under vmap / jit / grad
    "random": {
        n: "sampling"
        for n in (
            "PRNGKey",
            "multinomial",
            "bernoulli",
            "bits",
            "categorical",
            "cauchy",
            "choice",
            "clone",
            "exponential",
            "fold_in",
            "gumbel",
            "key",
            "key_data",
            "laplace",
            "logistic",
            "normal",
            "permutation",
            "rademacher",
            "randint",
            "split",
            "threefry2x32",
            "truncated_normal",
            "uniform",
            "wrap_key_data",
            "key_impl",
            "key_dtype",
            # tests/test_random_jax.py: KS distances to exact CDFs, moments, frequencies,
            # implicit reparameterization gradients, vmap/jit
            "ball", "beta", "binomial", "chisquare", "dirichlet", "double_sided_maxwell", "f", "gamma",
            "generalized_normal", "geometric", "loggamma", "lognormal", "maxwell", "multivariate_normal",
            "orthogonal", "pareto", "poisson", "rayleigh", "t", "triangular", "wald", "weibull_min",
        )
    },
    "nn": {
        # a composite over einsum/softmax with its own tests: tests/test_nn_jax.py (an
        # independent NumPy reference, finite differences, live JAX)
        "dot_product_attention": "composite with its own tests (tests/test_nn_jax.py)",
    },
    "numpy.linalg": {},
}
# Internal helpers that leak into public namespaces through imports (not API; reported).
LEAKED_HELPERS = {
    "numpy": {
        "get_aval",
        "wrap",
        "normalize_axes",
        "normalize_axis",
        "moveaxis_one",
        "abs_",
        "convert_element_type",
        "ArrayImpl",
        "Tracer",
        "ndarray",
    },
    "numpy.linalg": {
        "broadcast_to",
        "get_aval",
        "normalize_axis",
        "reduce_max",
        "reduce_min",
        "reduce_sum",
        "reshape",
        "transpose",
    },
    "lax": {"get_aval", "wrap"},
    "nn": {"get_aval", "normalize_axes", "normalize_axis"},
}


