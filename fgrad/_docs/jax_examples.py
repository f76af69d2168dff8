# ruff: noqa: E501  (generated data)
"""Docstring examples of `fgrad`, `fgrad.nn`, `fgrad.random`:
written by ``tools/make_doc_examples.py``, do not edit.

Each entry is ``name: (summary, ((source, peer's output), ...), skip)``; the outputs are the
peer's (JAX 0.10.2), and ``skip`` marks a known difference (fgrad prints something else; listed in
`KNOWN_DIFFERENCES`).  `fgrad._docs.attach` turns the entries into docstrings.
"""

# fmt: off
KNOWN_DIFFERENCES = []

EXAMPLES = {'fgrad': {'device_count': ("JAX's ``jax.device_count`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fgrad.device_count() >= 1', 'True'),),
                            False),
           'devices': ("JAX's ``jax.devices`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('len(fgrad.devices()) >= 1', 'True'),),
                       False),
           'local_device_count': ("JAX's ``jax.local_device_count`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fgrad.local_device_count() >= 1', 'True'),),
                                  False),
           'stop_gradient': ("JAX's ``jax.stop_gradient`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fgrad.grad(lambda x: x * fgrad.lax.stop_gradient(x))(3.0)',
                               'Array(3., dtype=float64, weak_type=True)'),),
                             False)},
 'fgrad.nn': {'celu': ("JAX's ``jax.nn.celu`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('fgrad.nn.celu(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                         'Array([-0.63212056,  0.5       ,  2.        ], dtype=float64)'),),
                       False),
              'elu': ("JAX's ``jax.nn.elu`` (same arguments and results), computed by fgrad's "
                      'primitives.',
                      (('fgrad.nn.elu(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                        'Array([-0.63212056,  0.5       ,  2.        ], dtype=float64)'),),
                      False),
              'gelu': ("JAX's ``jax.nn.gelu`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('fgrad.nn.gelu(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                         'Array([-0.15880801,  0.34571401,  1.95459769], dtype=float64)'),),
                       False),
              'glu': ("JAX's ``jax.nn.glu`` (same arguments and results), computed by fgrad's "
                      'primitives.',
                      (('fgrad.nn.glu(fgrad.numpy.array([[1.0, 2.0], [3.0, 4.0]]))',
                        'Array([[0.88079708],\n       [2.94604137]], dtype=float64)'),),
                      False),
              'hard_sigmoid': ("JAX's ``jax.nn.hard_sigmoid`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fgrad.nn.hard_sigmoid(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                                 'Array([0.33333333, 0.58333333, 0.83333333], dtype=float64)'),),
                               False),
              'hard_silu': ("JAX's ``jax.nn.hard_silu`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fgrad.nn.hard_silu(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                              'Array([-0.33333333,  0.29166667,  1.66666667], dtype=float64)'),),
                            False),
              'hard_swish': ("JAX's ``jax.nn.hard_swish`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fgrad.nn.hard_swish(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                               'Array([-0.33333333,  0.29166667,  1.66666667], dtype=float64)'),),
                             False),
              'hard_tanh': ("JAX's ``jax.nn.hard_tanh`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fgrad.nn.hard_tanh(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                              'Array([-1. ,  0.5,  1. ], dtype=float64)'),),
                            False),
              'leaky_relu': ("JAX's ``jax.nn.leaky_relu`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fgrad.nn.leaky_relu(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                               'Array([-0.01,  0.5 ,  2.  ], dtype=float64)'),),
                             False),
              'log_sigmoid': ("JAX's ``jax.nn.log_sigmoid`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fgrad.nn.log_sigmoid(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                                'Array([-1.31326169, -0.47407698, -0.12692801], dtype=float64)'),),
                              False),
              'log_softmax': ("JAX's ``jax.nn.log_softmax`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fgrad.nn.log_softmax(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                                'Array([-3.2413113, -1.7413113, -0.2413113], dtype=float64)'),),
                              False),
              'logsumexp': ("JAX's ``jax.nn.logsumexp`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fgrad.nn.logsumexp(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                              'Array(2.2413113, dtype=float64)'),),
                            False),
              'mish': ("JAX's ``jax.nn.mish`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('fgrad.nn.mish(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                         'Array([-0.30340146,  0.37524521,  1.94395896], dtype=float64)'),),
                       False),
              'one_hot': ("JAX's ``jax.nn.one_hot`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fgrad.nn.one_hot(fgrad.numpy.array([1, 0]), 3)',
                            'Array([[0., 1., 0.],\n       [1., 0., 0.]], dtype=float64)'),),
                          False),
              'relu': ("JAX's ``jax.nn.relu`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('fgrad.nn.relu(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                         'Array([0. , 0.5, 2. ], dtype=float64)'),),
                       False),
              'relu6': ("JAX's ``jax.nn.relu6`` (same arguments and results), computed by fgrad's "
                        'primitives.',
                        (('fgrad.nn.relu6(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                          'Array([0. , 0.5, 2. ], dtype=float64)'),),
                        False),
              'selu': ("JAX's ``jax.nn.selu`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('fgrad.nn.selu(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                         'Array([-1.11133074,  0.52535049,  2.10140197], dtype=float64)'),),
                       False),
              'sigmoid': ("JAX's ``jax.nn.sigmoid`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fgrad.nn.sigmoid(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                            'Array([0.26894142, 0.62245933, 0.88079708], dtype=float64)'),),
                          False),
              'silu': ("JAX's ``jax.nn.silu`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('fgrad.nn.silu(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                         'Array([-0.26894142,  0.31122967,  1.76159416], dtype=float64)'),),
                       False),
              'soft_sign': ("JAX's ``jax.nn.soft_sign`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fgrad.nn.soft_sign(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                              'Array([-0.5       ,  0.33333333,  0.66666667], dtype=float64)'),),
                            False),
              'softmax': ("JAX's ``jax.nn.softmax`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fgrad.nn.softmax(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                            'Array([0.03911257, 0.17529039, 0.78559703], dtype=float64)'),),
                          False),
              'softplus': ("JAX's ``jax.nn.softplus`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fgrad.nn.softplus(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                             'Array([0.31326169, 0.97407698, 2.12692801], dtype=float64)'),),
                           False),
              'standardize': ("JAX's ``jax.nn.standardize`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fgrad.nn.standardize(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                                'Array([-1.22474079,  0.        ,  1.22474079], dtype=float64)'),),
                              False),
              'swish': ("JAX's ``jax.nn.swish`` (same arguments and results), computed by fgrad's "
                        'primitives.',
                        (('fgrad.nn.swish(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                          'Array([-0.26894142,  0.31122967,  1.76159416], dtype=float64)'),),
                        False),
              'tanh': ("JAX's ``jax.nn.tanh`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('fgrad.nn.tanh(fgrad.numpy.array([-1.0, 0.5, 2.0]))',
                         'Array([-0.76159416,  0.46211716,  0.96402758], dtype=float64)'),),
                       False)},
 'fgrad.random': {'bits': ("JAX's ``jax.random.bits`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fgrad.random.bits(fgrad.random.key(0), (2,))',
                             'Array([7719171245655871230, 3989946895414531357], dtype=uint64)'),),
                           False),
                  'cauchy': ("JAX's ``jax.random.cauchy`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fgrad.random.cauchy(fgrad.random.key(0), (2,))',
                               'Array([-0.26192951, -1.23784602], dtype=float64)'),),
                             False),
                  'choice': ("JAX's ``jax.random.choice`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fgrad.random.choice(fgrad.random.key(0), 2)',
                               'Array(1, dtype=int64)'),),
                             False),
                  'exponential': ("JAX's ``jax.random.exponential`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fgrad.random.exponential(fgrad.random.key(0), (2,))',
                                    'Array([0.54207056, 0.24372319], dtype=float64)'),),
                                  False),
                  'gumbel': ("JAX's ``jax.random.gumbel`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fgrad.random.gumbel(fgrad.random.key(0), (2,))',
                               'Array([ 0.13790566, -0.42599294], dtype=float64)'),),
                             False),
                  'laplace': ("JAX's ``jax.random.laplace`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fgrad.random.laplace(fgrad.random.key(0), (2,))',
                                'Array([0.17803369, 0.83796278], dtype=float64)'),),
                              False),
                  'logistic': ("JAX's ``jax.random.logistic`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fgrad.random.logistic(fgrad.random.key(0), (2,))',
                                 'Array([-0.32911032, -1.28738678], dtype=float64)'),),
                               False),
                  'normal': ("JAX's ``jax.random.normal`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fgrad.random.normal(fgrad.random.key(0), (2,))',
                               'Array([-0.20584214, -0.78476578], dtype=float64)'),),
                             False),
                  'permutation': ("JAX's ``jax.random.permutation`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fgrad.random.permutation(fgrad.random.key(0), 2)',
                                    'Array([0, 1], dtype=int64)'),),
                                  False),
                  'rademacher': ("JAX's ``jax.random.rademacher`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fgrad.random.rademacher(fgrad.random.key(0), (2,))',
                                   'Array([1, 1], dtype=int64)'),),
                                 False),
                  'randint': ("JAX's ``jax.random.randint`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fgrad.random.randint(fgrad.random.key(0), (2,), 0, 5)',
                                'Array([0, 1], dtype=int64)'),),
                              False),
                  'truncated_normal': ("JAX's ``jax.random.truncated_normal`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('fgrad.random.truncated_normal(fgrad.random.key(0), 2.0, '
                                         '3.0, (2,))',
                                         'Array([2.20306591, 2.09419383], dtype=float64)'),),
                                       False),
                  'uniform': ("JAX's ``jax.random.uniform`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fgrad.random.uniform(fgrad.random.key(0), (2,))',
                                'Array([0.41845711, 0.21629545], dtype=float64)'),),
                              False)}}
