# ruff: noqa: E501  (generated data)
"""Docstring examples of `fgrad.numpy`, `fgrad.numpy.linalg`, `fgrad.numpy.fft`:
written by ``tools/make_doc_examples.py``, do not edit.

Each entry is ``name: (summary, ((source, peer's output), ...), skip)``; the outputs are the
peer's (JAX 0.10.2), and ``skip`` marks a known difference (fgrad prints something else; listed in
`KNOWN_DIFFERENCES`).  `fgrad._docs.attach` turns the entries into docstrings.
"""

# fmt: off
KNOWN_DIFFERENCES = ['fgrad.numpy.linalg.lstsq']

EXAMPLES = {'fgrad.numpy': {'abs': ("Elementwise ``abs`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.abs``.',
                         (('fnp.abs(fnp.array([0.5, 1.0]))', 'Array([0.5, 1. ], dtype=float64)'),),
                         False),
                 'absolute': ("Elementwise ``abs`` of its tensor argument(s), as JAX's "
                              '``jax.numpy.absolute``.',
                              (('fnp.absolute(fnp.array([0.5, 1.0]))',
                                'Array([0.5, 1. ], dtype=float64)'),),
                              False),
                 'acos': ("Elementwise ``arccos`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.acos``.',
                          (('fnp.acos(fnp.array([0.5, 1.0]))',
                            'Array([1.04719755, 0.        ], dtype=float64)'),),
                          False),
                 'acosh': ("Elementwise ``arccosh`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.acosh``.',
                           (('fnp.acosh(fnp.array([0.5, 1.0]))',
                             'Array([nan,  0.], dtype=float64)'),),
                           False),
                 'add': ("Elementwise ``add`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.add``.',
                         (('fnp.add(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                           'Array([2.5 , 1.25], dtype=float64)'),),
                         False),
                 'all': ("Elementwise ``all`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.all``.',
                         (('fnp.all(fnp.array([0.5, 1.0]))', 'Array(True, dtype=bool)'),),
                         False),
                 'allclose': ("JAX's ``jax.numpy.allclose`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.allclose(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                'Array(False, dtype=bool)'),),
                              False),
                 'amax': ("Elementwise ``max`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.amax``.',
                          (('fnp.amax(fnp.array([0.5, 1.0]))', 'Array(1., dtype=float64)'),),
                          False),
                 'amin': ("Elementwise ``min`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.amin``.',
                          (('fnp.amin(fnp.array([0.5, 1.0]))', 'Array(0.5, dtype=float64)'),),
                          False),
                 'any': ("Elementwise ``any`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.any``.',
                         (('fnp.any(fnp.array([0.5, 1.0]))', 'Array(True, dtype=bool)'),),
                         False),
                 'append': ("JAX's ``jax.numpy.append`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.append(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                              'Array([0.5 , 1.  , 2.  , 0.25], dtype=float64)'),),
                            False),
                 'arccos': ("Elementwise ``arccos`` of its tensor argument(s), as JAX's "
                            '``jax.numpy.arccos``.',
                            (('fnp.arccos(fnp.array([0.5, 1.0]))',
                              'Array([1.04719755, 0.        ], dtype=float64)'),),
                            False),
                 'arccosh': ("Elementwise ``arccosh`` of its tensor argument(s), as JAX's "
                             '``jax.numpy.arccosh``.',
                             (('fnp.arccosh(fnp.array([0.5, 1.0]))',
                               'Array([nan,  0.], dtype=float64)'),),
                             False),
                 'arcsin': ("Elementwise ``arcsin`` of its tensor argument(s), as JAX's "
                            '``jax.numpy.arcsin``.',
                            (('fnp.arcsin(fnp.array([0.5, 1.0]))',
                              'Array([0.52359878, 1.57079633], dtype=float64)'),),
                            False),
                 'arcsinh': ("Elementwise ``arcsinh`` of its tensor argument(s), as JAX's "
                             '``jax.numpy.arcsinh``.',
                             (('fnp.arcsinh(fnp.array([0.5, 1.0]))',
                               'Array([0.48121183, 0.88137359], dtype=float64)'),),
                             False),
                 'arctan': ("Elementwise ``arctan`` of its tensor argument(s), as JAX's "
                            '``jax.numpy.arctan``.',
                            (('fnp.arctan(fnp.array([0.5, 1.0]))',
                              'Array([0.46364761, 0.78539816], dtype=float64)'),),
                            False),
                 'arctan2': ("Elementwise ``arctan2`` of its tensor argument(s), as JAX's "
                             '``jax.numpy.arctan2``.',
                             (('fnp.arctan2(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                               'Array([0.24497866, 1.32581766], dtype=float64)'),),
                             False),
                 'arctanh': ("Elementwise ``arctanh`` of its tensor argument(s), as JAX's "
                             '``jax.numpy.arctanh``.',
                             (('fnp.arctanh(fnp.array([0.5, 1.0]))',
                               'Array([0.54930614,        inf], dtype=float64)'),),
                             False),
                 'argmax': ("Elementwise ``argmax`` of its tensor argument(s), as JAX's "
                            '``jax.numpy.argmax``.',
                            (('fnp.argmax(fnp.array([0.5, 1.0]))', 'Array(1, dtype=int64)'),),
                            False),
                 'argmin': ("Elementwise ``argmin`` of its tensor argument(s), as JAX's "
                            '``jax.numpy.argmin``.',
                            (('fnp.argmin(fnp.array([0.5, 1.0]))', 'Array(0, dtype=int64)'),),
                            False),
                 'argpartition': ("JAX's ``jax.numpy.argpartition`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.argpartition(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                    'Array([[0, 1],\n       [0, 1]], dtype=int32)'),),
                                  False),
                 'argsort': ("JAX's ``jax.numpy.argsort`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.argsort(fnp.array([0.5, 1.0]))',
                               'Array([0, 1], dtype=int64)'),),
                             False),
                 'argwhere': ("JAX's ``jax.numpy.argwhere`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.argwhere(fnp.array([0.5, 1.0]))',
                                'Array([[0],\n       [1]], dtype=int64)'),),
                              False),
                 'around': ("JAX's ``jax.numpy.around`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.around(fnp.array([0.5, 1.0]))',
                              'Array([0., 1.], dtype=float64)'),),
                            False),
                 'array_equal': ("JAX's ``jax.numpy.array_equal`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.array_equal(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                   'Array(False, dtype=bool)'),),
                                 False),
                 'array_split': ("JAX's ``jax.numpy.array_split`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.array_split(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                   '[Array([[1., 2.],\n       [3., 4.]], dtype=float64)]'),),
                                 False),
                 'asin': ("Elementwise ``arcsin`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.asin``.',
                          (('fnp.asin(fnp.array([0.5, 1.0]))',
                            'Array([0.52359878, 1.57079633], dtype=float64)'),),
                          False),
                 'asinh': ("Elementwise ``arcsinh`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.asinh``.',
                           (('fnp.asinh(fnp.array([0.5, 1.0]))',
                             'Array([0.48121183, 0.88137359], dtype=float64)'),),
                           False),
                 'atan': ("Elementwise ``arctan`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.atan``.',
                          (('fnp.atan(fnp.array([0.5, 1.0]))',
                            'Array([0.46364761, 0.78539816], dtype=float64)'),),
                          False),
                 'atan2': ("Elementwise ``arctan2`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.atan2``.',
                           (('fnp.atan2(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                             'Array([0.24497866, 1.32581766], dtype=float64)'),),
                           False),
                 'atanh': ("Elementwise ``arctanh`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.atanh``.',
                           (('fnp.atanh(fnp.array([0.5, 1.0]))',
                             'Array([0.54930614,        inf], dtype=float64)'),),
                           False),
                 'atleast_1d': ("JAX's ``jax.numpy.atleast_1d`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.atleast_1d(fnp.array([0.5, 1.0]))',
                                  'Array([0.5, 1. ], dtype=float64)'),),
                                False),
                 'atleast_2d': ("JAX's ``jax.numpy.atleast_2d`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.atleast_2d(fnp.array([0.5, 1.0]))',
                                  'Array([[0.5, 1. ]], dtype=float64)'),),
                                False),
                 'atleast_3d': ("JAX's ``jax.numpy.atleast_3d`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.atleast_3d(fnp.array([0.5, 1.0]))',
                                  'Array([[[0.5],\n        [1. ]]], dtype=float64)'),),
                                False),
                 'average': ("JAX's ``jax.numpy.average`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.average(fnp.array([0.5, 1.0]))',
                               'Array(0.75, dtype=float64)'),),
                             False),
                 'bitwise_and': ("Elementwise ``bitwise_and`` of its tensor argument(s), as JAX's "
                                 '``jax.numpy.bitwise_and``.',
                                 (('fnp.bitwise_and(fnp.array([5, 3]), fnp.array([3, 2]))',
                                   'Array([1, 2], dtype=int64)'),),
                                 False),
                 'bitwise_not': ("Elementwise ``invert`` of its tensor argument(s), as JAX's "
                                 '``jax.numpy.bitwise_not``.',
                                 (('fnp.bitwise_not(fnp.array([5, 3]))',
                                   'Array([-6, -4], dtype=int64)'),),
                                 False),
                 'bitwise_or': ("Elementwise ``bitwise_or`` of its tensor argument(s), as JAX's "
                                '``jax.numpy.bitwise_or``.',
                                (('fnp.bitwise_or(fnp.array([5, 3]), fnp.array([3, 2]))',
                                  'Array([7, 3], dtype=int64)'),),
                                False),
                 'bitwise_xor': ("Elementwise ``bitwise_xor`` of its tensor argument(s), as JAX's "
                                 '``jax.numpy.bitwise_xor``.',
                                 (('fnp.bitwise_xor(fnp.array([5, 3]), fnp.array([3, 2]))',
                                   'Array([6, 1], dtype=int64)'),),
                                 False),
                 'broadcast_arrays': ("JAX's ``jax.numpy.broadcast_arrays`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('fnp.broadcast_arrays(fnp.array([0.5, 1.0]))',
                                        '[Array([0.5, 1. ], dtype=float64)]'),),
                                      False),
                 'broadcast_shapes': ("JAX's ``jax.numpy.broadcast_shapes`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('fnp.broadcast_shapes(3)', '(3,)'),),
                                      False),
                 'broadcast_to': ("JAX's ``jax.numpy.broadcast_to`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.broadcast_to(fnp.array([5, 3]), fnp.array([3, 2]))',
                                    'Array([[5, 3],\n'
                                    '       [5, 3],\n'
                                    '       [5, 3]], dtype=int64)'),),
                                  False),
                 'cbrt': ("Elementwise ``cbrt`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.cbrt``.',
                          (('fnp.cbrt(fnp.array([0.5, 1.0]))',
                            'Array([0.79370053, 1.        ], dtype=float64)'),),
                          False),
                 'ceil': ("Elementwise ``ceil`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.ceil``.',
                          (('fnp.ceil(fnp.array([0.5, 1.0]))', 'Array([1., 1.], dtype=float64)'),),
                          False),
                 'choose': ("JAX's ``jax.numpy.choose`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.choose(fnp.array([1, 0]), [fnp.array([1.0, 2.0]), '
                              'fnp.array([3.0, 4.0])])',
                              'Array([3., 2.], dtype=float64)'),),
                            False),
                 'column_stack': ("JAX's ``jax.numpy.column_stack`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.column_stack(fnp.array([0.5, 1.0]))',
                                    'Array([[0.5, 1. ]], dtype=float64)'),),
                                  False),
                 'compress': ("JAX's ``jax.numpy.compress`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.compress(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                'Array([2.  , 0.25], dtype=float64)'),),
                              False),
                 'concat': ("JAX's ``jax.numpy.concat`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.concat(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                              'Array([2., 1., 1., 3.], dtype=float64)'),),
                            False),
                 'concatenate': ("JAX's ``jax.numpy.concatenate`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.concatenate(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                   'Array([2., 1., 1., 3.], dtype=float64)'),),
                                 False),
                 'conj': ("Elementwise ``conjugate`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.conj``.',
                          (('fnp.conj(fnp.array([0.5, 1.0]))',
                            'Array([0.5, 1. ], dtype=float64)'),),
                          False),
                 'conjugate': ("Elementwise ``conjugate`` of its tensor argument(s), as JAX's "
                               '``jax.numpy.conjugate``.',
                               (('fnp.conjugate(fnp.array([0.5, 1.0]))',
                                 'Array([0.5, 1. ], dtype=float64)'),),
                               False),
                 'copysign': ("JAX's ``jax.numpy.copysign`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.copysign(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                'Array([0.5, 1. ], dtype=float64)'),),
                              False),
                 'cos': ("Elementwise ``cos`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.cos``.',
                         (('fnp.cos(fnp.array([0.5, 1.0]))',
                           'Array([0.87758256, 0.54030231], dtype=float64)'),),
                         False),
                 'cosh': ("Elementwise ``cosh`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.cosh``.',
                          (('fnp.cosh(fnp.array([0.5, 1.0]))',
                            'Array([1.12762597, 1.54308063], dtype=float64)'),),
                          False),
                 'count_nonzero': ("JAX's ``jax.numpy.count_nonzero`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('fnp.count_nonzero(fnp.array([0.5, 1.0]))',
                                     'Array(2, dtype=int64)'),),
                                   False),
                 'cross': ("JAX's ``jax.numpy.cross`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.cross(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                             'Array(-1.875, dtype=float64)'),),
                           False),
                 'cumprod': ("JAX's ``jax.numpy.cumprod`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.cumprod(fnp.array([0.5, 1.0]))',
                               'Array([0.5, 0.5], dtype=float64)'),),
                             False),
                 'cumsum': ("JAX's ``jax.numpy.cumsum`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.cumsum(fnp.array([0.5, 1.0]))',
                              'Array([0.5, 1.5], dtype=float64)'),),
                            False),
                 'cumulative_prod': ("JAX's ``jax.numpy.cumulative_prod`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('fnp.cumulative_prod(fnp.array([0.5, 1.0]))',
                                       'Array([0.5, 0.5], dtype=float64)'),),
                                     False),
                 'cumulative_sum': ("JAX's ``jax.numpy.cumulative_sum`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('fnp.cumulative_sum(fnp.array([0.5, 1.0]))',
                                      'Array([0.5, 1.5], dtype=float64)'),),
                                    False),
                 'deg2rad': ("JAX's ``jax.numpy.deg2rad`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.deg2rad(fnp.array([0.5, 1.0]))',
                               'Array([0.00872665, 0.01745329], dtype=float64)'),),
                             False),
                 'degrees': ("JAX's ``jax.numpy.degrees`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.degrees(fnp.array([0.5, 1.0]))',
                               'Array([28.64788976, 57.29577951], dtype=float64)'),),
                             False),
                 'delete': ("JAX's ``jax.numpy.delete`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.delete(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)',
                              'Array([1., 3., 4.], dtype=float64)'),),
                            False),
                 'diag': ("JAX's ``jax.numpy.diag`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.diag(fnp.array([0.5, 1.0]))',
                            'Array([[0.5, 0. ],\n       [0. , 1. ]], dtype=float64)'),),
                          False),
                 'diag_indices': ("JAX's ``jax.numpy.diag_indices`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.diag_indices(2, 3)',
                                    '(Array([0, 1], dtype=int64), Array([0, 1], dtype=int64), '
                                    'Array([0, 1], dtype=int64))'),),
                                  False),
                 'diag_indices_from': ("JAX's ``jax.numpy.diag_indices_from`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('fnp.diag_indices_from(fnp.array([[2.0, 1.0], [1.0, '
                                         '3.0]]))',
                                         '(Array([0, 1], dtype=int64), Array([0, 1], '
                                         'dtype=int64))'),),
                                       False),
                 'diagflat': ("JAX's ``jax.numpy.diagflat`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.diagflat(fnp.array([0.5, 1.0]))',
                                'Array([[0.5, 0. ],\n       [0. , 1. ]], dtype=float64)'),),
                              False),
                 'diagonal': ("JAX's ``jax.numpy.diagonal`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.diagonal(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                'Array([2., 3.], dtype=float64)'),),
                              False),
                 'digitize': ("JAX's ``jax.numpy.digitize`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.digitize(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                'Array([1, 1], dtype=int32)'),),
                              False),
                 'divide': ("Elementwise ``divide`` of its tensor argument(s), as JAX's "
                            '``jax.numpy.divide``.',
                            (('fnp.divide(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                              'Array([0.25, 4.  ], dtype=float64)'),),
                            False),
                 'divmod': ("JAX's ``jax.numpy.divmod`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.divmod(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                              '(Array([0., 4.], dtype=float64), Array([0.5, 0. ], '
                              'dtype=float64))'),),
                            False),
                 'dsplit': ("JAX's ``jax.numpy.dsplit`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.dsplit(fnp.ones((1, 1, 4)), 2)',
                              '[Array([[[1., 1.]]], dtype=float64), Array([[[1., 1.]]], '
                              'dtype=float64)]'),),
                            False),
                 'dstack': ("JAX's ``jax.numpy.dstack`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.dstack(fnp.array([0.5, 1.0]))',
                              'Array([[[0.5, 1. ]]], dtype=float64)'),),
                            False),
                 'empty': ("JAX's ``jax.numpy.empty`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.empty(3)', 'Array([0., 0., 0.], dtype=float64)'),),
                           False),
                 'empty_like': ("JAX's ``jax.numpy.empty_like`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.empty_like(fnp.array([0.5, 1.0]))',
                                  'Array([0., 0.], dtype=float64)'),),
                                False),
                 'equal': ("Elementwise ``equal`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.equal``.',
                           (('fnp.equal(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                             'Array([False, False], dtype=bool)'),),
                           False),
                 'exp': ("Elementwise ``exp`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.exp``.',
                         (('fnp.exp(fnp.array([0.5, 1.0]))',
                           'Array([1.64872127, 2.71828183], dtype=float64)'),),
                         False),
                 'exp2': ("Elementwise ``exp2`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.exp2``.',
                          (('fnp.exp2(fnp.array([0.5, 1.0]))',
                            'Array([1.41421356, 2.        ], dtype=float64)'),),
                          False),
                 'expand_dims': ("JAX's ``jax.numpy.expand_dims`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.expand_dims(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                   'Array([[[1., 2.]],\n\n       [[3., 4.]]], dtype=float64)'),),
                                 False),
                 'expm1': ("Elementwise ``expm1`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.expm1``.',
                           (('fnp.expm1(fnp.array([0.5, 1.0]))',
                             'Array([0.64872127, 1.71828183], dtype=float64)'),),
                           False),
                 'extract': ("JAX's ``jax.numpy.extract`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.extract(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                               'Array([2.  , 0.25], dtype=float64)'),),
                             False),
                 'eye': ("JAX's ``jax.numpy.eye`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('fnp.eye(2, 3)',
                           'Array([[1., 0., 0.],\n       [0., 1., 0.]], dtype=float64)'),),
                         False),
                 'fill_diagonal': ("JAX's ``jax.numpy.fill_diagonal`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('fnp.fill_diagonal(fnp.zeros((2, 2)), 1.0, inplace=False)',
                                     'Array([[1., 0.],\n       [0., 1.]], dtype=float64)'),),
                                   False),
                 'flatnonzero': ("JAX's ``jax.numpy.flatnonzero`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.flatnonzero(fnp.array([0.5, 1.0]))',
                                   'Array([0, 1], dtype=int64)'),),
                                 False),
                 'flip': ("JAX's ``jax.numpy.flip`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.flip(fnp.array([0.5, 1.0]))',
                            'Array([1. , 0.5], dtype=float64)'),),
                          False),
                 'fliplr': ("JAX's ``jax.numpy.fliplr`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.fliplr(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                              'Array([[1., 2.],\n       [3., 1.]], dtype=float64)'),),
                            False),
                 'flipud': ("JAX's ``jax.numpy.flipud`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.flipud(fnp.array([0.5, 1.0]))',
                              'Array([1. , 0.5], dtype=float64)'),),
                            False),
                 'floor': ("Elementwise ``floor`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.floor``.',
                           (('fnp.floor(fnp.array([0.5, 1.0]))',
                             'Array([0., 1.], dtype=float64)'),),
                           False),
                 'floor_divide': ('Elementwise ``floor_divide`` of its tensor argument(s), as '
                                  "JAX's ``jax.numpy.floor_divide``.",
                                  (('fnp.floor_divide(fnp.array([0.5, 1.0]), fnp.array([2.0, '
                                    '0.25]))',
                                    'Array([0., 4.], dtype=float64)'),),
                                  False),
                 'fmax': ("Elementwise ``fmax`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.fmax``.',
                          (('fnp.fmax(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                            'Array([2., 1.], dtype=float64)'),),
                          False),
                 'fmin': ("Elementwise ``fmin`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.fmin``.',
                          (('fnp.fmin(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                            'Array([0.5 , 0.25], dtype=float64)'),),
                          False),
                 'fmod': ("Elementwise ``fmod`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.fmod``.',
                          (('fnp.fmod(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                            'Array([0.5, 0. ], dtype=float64)'),),
                          False),
                 'full': ("JAX's ``jax.numpy.full`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.full(2, 3)', 'Array([3, 3], dtype=int64, weak_type=True)'),),
                          False),
                 'full_like': ("JAX's ``jax.numpy.full_like`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.full_like(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                 'Array([2.  , 0.25], dtype=float64)'),),
                               False),
                 'greater': ("Elementwise ``greater`` of its tensor argument(s), as JAX's "
                             '``jax.numpy.greater``.',
                             (('fnp.greater(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                               'Array([False,  True], dtype=bool)'),),
                             False),
                 'greater_equal': ('Elementwise ``greater_equal`` of its tensor argument(s), as '
                                   "JAX's ``jax.numpy.greater_equal``.",
                                   (('fnp.greater_equal(fnp.array([0.5, 1.0]), fnp.array([2.0, '
                                     '0.25]))',
                                     'Array([False,  True], dtype=bool)'),),
                                   False),
                 'heaviside': ("JAX's ``jax.numpy.heaviside`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.heaviside(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                 'Array([1., 1.], dtype=float64)'),),
                               False),
                 'hsplit': ("JAX's ``jax.numpy.hsplit`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.hsplit(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)',
                              '[Array([[1., 2.],\n       [3., 4.]], dtype=float64)]'),),
                            False),
                 'hstack': ("JAX's ``jax.numpy.hstack`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.hstack(fnp.array([0.5, 1.0]))',
                              'Array([0.5, 1. ], dtype=float64)'),),
                            False),
                 'hypot': ("Elementwise ``hypot`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.hypot``.',
                           (('fnp.hypot(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                             'Array([2.06155281, 1.03077641], dtype=float64)'),),
                           False),
                 'identity': ("JAX's ``jax.numpy.identity`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.identity(3)',
                                'Array([[1., 0., 0.],\n'
                                '       [0., 1., 0.],\n'
                                '       [0., 0., 1.]], dtype=float64)'),),
                              False),
                 'imag': ("Elementwise ``imag`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.imag``.',
                          (('fnp.imag(fnp.array([0.5, 1.0]))', 'Array([0., 0.], dtype=float64)'),),
                          False),
                 'indices': ("JAX's ``jax.numpy.indices`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.indices(fnp.array([5, 3]))',
                               'Array([[[0, 0, 0],\n'
                               '        [1, 1, 1],\n'
                               '        [2, 2, 2],\n'
                               '        [3, 3, 3],\n'
                               '        [4, 4, 4]],\n'
                               '\n'
                               '       [[0, 1, 2],\n'
                               '        [0, 1, 2],\n'
                               '        [0, 1, 2],\n'
                               '        [0, 1, 2],\n'
                               '        [0, 1, 2]]], dtype=int64)'),),
                             False),
                 'insert': ("JAX's ``jax.numpy.insert`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.insert(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                              'Array([1., 1., 2., 3., 4.], dtype=float64)'),),
                            False),
                 'invert': ("Elementwise ``invert`` of its tensor argument(s), as JAX's "
                            '``jax.numpy.invert``.',
                            (('fnp.invert(fnp.array([5, 3]))', 'Array([-6, -4], dtype=int64)'),),
                            False),
                 'isclose': ("JAX's ``jax.numpy.isclose`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.isclose(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                               'Array([False, False], dtype=bool)'),),
                             False),
                 'isfinite': ("Elementwise ``isfinite`` of its tensor argument(s), as JAX's "
                              '``jax.numpy.isfinite``.',
                              (('fnp.isfinite(fnp.array([0.5, 1.0]))',
                                'Array([ True,  True], dtype=bool)'),),
                              False),
                 'isinf': ("Elementwise ``isinf`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.isinf``.',
                           (('fnp.isinf(fnp.array([0.5, 1.0]))',
                             'Array([False, False], dtype=bool)'),),
                           False),
                 'isnan': ("Elementwise ``isnan`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.isnan``.',
                           (('fnp.isnan(fnp.array([0.5, 1.0]))',
                             'Array([False, False], dtype=bool)'),),
                           False),
                 'ix_': ("JAX's ``jax.numpy.ix_`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('fnp.ix_(fnp.array([0.5, 1.0]))',
                           '(Array([0.5, 1. ], dtype=float64),)'),),
                         False),
                 'kron': ("JAX's ``jax.numpy.kron`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.kron(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                            'Array([1.   , 0.125, 2.   , 0.25 ], dtype=float64)'),),
                          False),
                 'less': ("Elementwise ``less`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.less``.',
                          (('fnp.less(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                            'Array([ True, False], dtype=bool)'),),
                          False),
                 'less_equal': ("Elementwise ``less_equal`` of its tensor argument(s), as JAX's "
                                '``jax.numpy.less_equal``.',
                                (('fnp.less_equal(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                  'Array([ True, False], dtype=bool)'),),
                                False),
                 'lexsort': ("JAX's ``jax.numpy.lexsort`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.lexsort(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                               'Array([0, 1], dtype=int64)'),),
                             False),
                 'log': ("Elementwise ``log`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.log``.',
                         (('fnp.log(fnp.array([0.5, 1.0]))',
                           'Array([-0.69314718,  0.        ], dtype=float64)'),),
                         False),
                 'log10': ("Elementwise ``log10`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.log10``.',
                           (('fnp.log10(fnp.array([0.5, 1.0]))',
                             'Array([-0.30103,  0.     ], dtype=float64)'),),
                           False),
                 'log1p': ("Elementwise ``log1p`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.log1p``.',
                           (('fnp.log1p(fnp.array([0.5, 1.0]))',
                             'Array([0.40546511, 0.69314718], dtype=float64)'),),
                           False),
                 'log2': ("Elementwise ``log2`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.log2``.',
                          (('fnp.log2(fnp.array([0.5, 1.0]))',
                            'Array([-1.,  0.], dtype=float64)'),),
                          False),
                 'logaddexp': ("Elementwise ``logaddexp`` of its tensor argument(s), as JAX's "
                               '``jax.numpy.logaddexp``.',
                               (('fnp.logaddexp(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                 'Array([2.20141328, 1.38687101], dtype=float64)'),),
                               False),
                 'logaddexp2': ("Elementwise ``logaddexp2`` of its tensor argument(s), as JAX's "
                                '``jax.numpy.logaddexp2``.',
                                (('fnp.logaddexp2(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                  'Array([2.4367518 , 1.67319779], dtype=float64)'),),
                                False),
                 'logical_and': ("Elementwise ``logical_and`` of its tensor argument(s), as JAX's "
                                 '``jax.numpy.logical_and``.',
                                 (('fnp.logical_and(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                   'Array([ True,  True], dtype=bool)'),),
                                 False),
                 'logical_not': ("Elementwise ``logical_not`` of its tensor argument(s), as JAX's "
                                 '``jax.numpy.logical_not``.',
                                 (('fnp.logical_not(fnp.array([0.5, 1.0]))',
                                   'Array([False, False], dtype=bool)'),),
                                 False),
                 'logical_or': ("Elementwise ``logical_or`` of its tensor argument(s), as JAX's "
                                '``jax.numpy.logical_or``.',
                                (('fnp.logical_or(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                  'Array([ True,  True], dtype=bool)'),),
                                False),
                 'logical_xor': ("Elementwise ``logical_xor`` of its tensor argument(s), as JAX's "
                                 '``jax.numpy.logical_xor``.',
                                 (('fnp.logical_xor(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                   'Array([False, False], dtype=bool)'),),
                                 False),
                 'logspace': ("JAX's ``jax.numpy.logspace`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.logspace(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                'Array([[  3.16227766,  10.        ],\n'
                                '       [  3.39322177,   9.65370176],\n'
                                '       [  3.64103195,   9.31939576],\n'
                                '       [  3.90693994,   8.99666673],\n'
                                '       [  4.19226744,   8.68511374],\n'
                                '       [  4.49843267,   8.38434978],\n'
                                '       [  4.82695744,   8.09400122],\n'
                                '       [  5.17947468,   7.81370738],\n'
                                '       [  5.55773659,   7.54312006],\n'
                                '       [  5.96362332,   7.28190314],\n'
                                '       [  6.39915234,   7.02973212],\n'
                                '       [  6.86648845,   6.78629373],\n'
                                '       [  7.36795456,   6.55128557],\n'
                                '       [  7.90604321,   6.3244157 ],\n'
                                '       [  8.48342898,   6.1054023 ],\n'
                                '       [  9.10298178,   5.89397329],\n'
                                '       [  9.7677811 ,   5.68986603],\n'
                                '       [ 10.48113134,   5.49282697],\n'
                                '       [ 11.24657822,   5.30261134],\n'
                                '       [ 12.06792641,   5.11898284],\n'
                                '       [ 12.94925842,   4.94171336],\n'
                                '       [ 13.89495494,   4.7705827 ],\n'
                                '       [ 14.90971657,   4.60537826],\n'
                                '       [ 15.9985872 ,   4.44589482],\n'
                                '       [ 17.16697907,   4.29193426],\n'
                                '       [ 18.42069969,   4.14330533],\n'
                                '       [ 19.76598072,   3.9998234 ],\n'
                                '       [ 21.20950888,   3.86131021],\n'
                                '       [ 22.75845926,   3.72759372],\n'
                                '       [ 24.42053095,   3.5985078 ],\n'
                                '       [ 26.20398529,   3.47389211],\n'
                                '       [ 28.11768698,   3.35359184],\n'
                                '       [ 30.17114811,   3.23745754],\n'
                                '       [ 32.37457543,   3.12534496],\n'
                                '       [ 34.73892112,   3.01711481],\n'
                                '       [ 37.2759372 ,   2.91263265],\n'
                                '       [ 39.99823396,   2.8117687 ],\n'
                                '       [ 42.9193426 ,   2.71439764],\n'
                                '       [ 46.05378256,   2.62039853],\n'
                                '       [ 49.41713361,   2.52965459],\n'
                                '       [ 53.02611336,   2.44205309],\n'
                                '       [ 56.89866029,   2.35748523],\n'
                                '       [ 61.05402297,   2.27584593],\n'
                                '       [ 65.51285569,   2.19703378],\n'
                                '       [ 70.29732115,   2.12095089],\n'
                                '       [ 75.43120063,   2.04750273],\n'
                                '       [ 80.94001216,   1.97659807],\n'
                                '       [ 86.85113738,   1.90814883],\n'
                                '       [ 93.19395762,   1.84206997],\n'
                                '       [100.        ,   1.77827941]], dtype=float64)'),),
                              False),
                 'matrix_transpose': ("JAX's ``jax.numpy.matrix_transpose`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('fnp.matrix_transpose(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                        'Array([[2., 1.],\n       [1., 3.]], dtype=float64)'),),
                                      False),
                 'matvec': ("JAX's ``jax.numpy.matvec`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.matvec(fnp.array([[2.0, 1.0], [1.0, 3.0]]), fnp.array([[1.0, '
                              '0.0], [2.0, 1.0]]))',
                              'Array([[2., 1.],\n       [5., 5.]], dtype=float64)'),),
                            False),
                 'max': ("Elementwise ``max`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.max``.',
                         (('fnp.max(fnp.array([0.5, 1.0]))', 'Array(1., dtype=float64)'),),
                         False),
                 'maximum': ("Elementwise ``maximum`` of its tensor argument(s), as JAX's "
                             '``jax.numpy.maximum``.',
                             (('fnp.maximum(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                               'Array([2., 1.], dtype=float64)'),),
                             False),
                 'median': ("JAX's ``jax.numpy.median`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.median(fnp.array([0.5, 1.0]))', 'Array(0.75, dtype=float64)'),),
                            False),
                 'meshgrid': ("JAX's ``jax.numpy.meshgrid`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.meshgrid(fnp.array([0.5, 1.0]))',
                                '[Array([0.5, 1. ], dtype=float64)]'),),
                              False),
                 'min': ("Elementwise ``min`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.min``.',
                         (('fnp.min(fnp.array([0.5, 1.0]))', 'Array(0.5, dtype=float64)'),),
                         False),
                 'minimum': ("Elementwise ``minimum`` of its tensor argument(s), as JAX's "
                             '``jax.numpy.minimum``.',
                             (('fnp.minimum(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                               'Array([0.5 , 0.25], dtype=float64)'),),
                             False),
                 'mod': ("Elementwise ``mod`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.mod``.',
                         (('fnp.mod(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                           'Array([0.5, 0. ], dtype=float64)'),),
                         False),
                 'moveaxis': ("JAX's ``jax.numpy.moveaxis`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.moveaxis(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                'Array([[1., 3.],\n       [2., 4.]], dtype=float64)'),),
                              False),
                 'multiply': ("Elementwise ``multiply`` of its tensor argument(s), as JAX's "
                              '``jax.numpy.multiply``.',
                              (('fnp.multiply(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                'Array([1.  , 0.25], dtype=float64)'),),
                              False),
                 'nan_to_num': ("JAX's ``jax.numpy.nan_to_num`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.nan_to_num(fnp.array([0.5, 1.0]))',
                                  'Array([0.5, 1. ], dtype=float64)'),),
                                False),
                 'nanargmax': ("JAX's ``jax.numpy.nanargmax`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.nanargmax(fnp.array([0.5, 1.0]))', 'Array(1, dtype=int64)'),),
                               False),
                 'nanargmin': ("JAX's ``jax.numpy.nanargmin`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.nanargmin(fnp.array([0.5, 1.0]))', 'Array(0, dtype=int64)'),),
                               False),
                 'nancumprod': ("JAX's ``jax.numpy.nancumprod`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.nancumprod(fnp.array([0.5, 1.0]))',
                                  'Array([0.5, 0.5], dtype=float64)'),),
                                False),
                 'nancumsum': ("JAX's ``jax.numpy.nancumsum`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.nancumsum(fnp.array([0.5, 1.0]))',
                                 'Array([0.5, 1.5], dtype=float64)'),),
                               False),
                 'nanmax': ("JAX's ``jax.numpy.nanmax`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.nanmax(fnp.array([0.5, 1.0]))', 'Array(1., dtype=float64)'),),
                            False),
                 'nanmean': ("JAX's ``jax.numpy.nanmean`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.nanmean(fnp.array([0.5, 1.0]))',
                               'Array(0.75, dtype=float64)'),),
                             False),
                 'nanmin': ("JAX's ``jax.numpy.nanmin`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.nanmin(fnp.array([0.5, 1.0]))', 'Array(0.5, dtype=float64)'),),
                            False),
                 'nanprod': ("JAX's ``jax.numpy.nanprod`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.nanprod(fnp.array([0.5, 1.0]))', 'Array(0.5, dtype=float64)'),),
                             False),
                 'nanstd': ("JAX's ``jax.numpy.nanstd`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.nanstd(fnp.array([0.5, 1.0]))', 'Array(0.25, dtype=float64)'),),
                            False),
                 'nansum': ("JAX's ``jax.numpy.nansum`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.nansum(fnp.array([0.5, 1.0]))', 'Array(1.5, dtype=float64)'),),
                            False),
                 'nanvar': ("JAX's ``jax.numpy.nanvar`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.nanvar(fnp.array([0.5, 1.0]))',
                              'Array(0.0625, dtype=float64)'),),
                            False),
                 'ndim': ("JAX's ``jax.numpy.ndim`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.ndim(fnp.array([0.5, 1.0]))', '1'),),
                          False),
                 'negative': ("Elementwise ``negative`` of its tensor argument(s), as JAX's "
                              '``jax.numpy.negative``.',
                              (('fnp.negative(fnp.array([0.5, 1.0]))',
                                'Array([-0.5, -1. ], dtype=float64)'),),
                              False),
                 'nextafter': ("Elementwise ``nextafter`` of its tensor argument(s), as JAX's "
                               '``jax.numpy.nextafter``.',
                               (('fnp.nextafter(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                 'Array([0.5, 1. ], dtype=float64)'),),
                               False),
                 'nonzero': ("JAX's ``jax.numpy.nonzero`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.nonzero(fnp.array([0.5, 1.0]))',
                               '(Array([0, 1], dtype=int64),)'),),
                             False),
                 'not_equal': ("Elementwise ``not_equal`` of its tensor argument(s), as JAX's "
                               '``jax.numpy.not_equal``.',
                               (('fnp.not_equal(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                 'Array([ True,  True], dtype=bool)'),),
                               False),
                 'ones': ("JAX's ``jax.numpy.ones`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.ones(3)', 'Array([1., 1., 1.], dtype=float64)'),),
                          False),
                 'ones_like': ("JAX's ``jax.numpy.ones_like`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.ones_like(fnp.array([0.5, 1.0]))',
                                 'Array([1., 1.], dtype=float64)'),),
                               False),
                 'outer': ("JAX's ``jax.numpy.outer`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.outer(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                             'Array([[1.   , 0.125],\n       [2.   , 0.25 ]], dtype=float64)'),),
                           False),
                 'pad': ("JAX's ``jax.numpy.pad`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('fnp.pad(fnp.array([5, 3]), fnp.array([3, 2]))',
                           'Array([0, 0, 0, 5, 3, 0, 0], dtype=int64)'),),
                         False),
                 'partition': ("JAX's ``jax.numpy.partition`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.partition(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                 'Array([[1., 2.],\n       [3., 4.]], dtype=float64)'),),
                               False),
                 'percentile': ("JAX's ``jax.numpy.percentile`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.percentile(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                  'Array([0.51   , 0.50125], dtype=float64)'),),
                                False),
                 'permute_dims': ("JAX's ``jax.numpy.permute_dims`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.permute_dims(fnp.array([[1.0, 2.0], [3.0, 4.0]]), '
                                    'fnp.array([1, 0]))',
                                    'Array([[1., 3.],\n       [2., 4.]], dtype=float64)'),),
                                  False),
                 'positive': ("JAX's ``jax.numpy.positive`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.positive(fnp.array([0.5, 1.0]))',
                                'Array([0.5, 1. ], dtype=float64)'),),
                              False),
                 'pow': ("Elementwise ``power`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.pow``.',
                         (('fnp.pow(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                           'Array([0.25, 1.  ], dtype=float64)'),),
                         False),
                 'power': ("Elementwise ``power`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.power``.',
                           (('fnp.power(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                             'Array([0.25, 1.  ], dtype=float64)'),),
                           False),
                 'prod': ("Elementwise ``prod`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.prod``.',
                          (('fnp.prod(fnp.array([0.5, 1.0]))', 'Array(0.5, dtype=float64)'),),
                          False),
                 'ptp': ("JAX's ``jax.numpy.ptp`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('fnp.ptp(fnp.array([0.5, 1.0]))', 'Array(0.5, dtype=float64)'),),
                         False),
                 'put_along_axis': ("JAX's ``jax.numpy.put_along_axis`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('fnp.put_along_axis(fnp.zeros(3), fnp.array([1]), 5.0, '
                                      'axis=0, inplace=False)',
                                      'Array([0., 5., 0.], dtype=float64)'),),
                                    False),
                 'quantile': ("JAX's ``jax.numpy.quantile`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.quantile(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                'Array([1.   , 0.625], dtype=float64)'),),
                              False),
                 'rad2deg': ("JAX's ``jax.numpy.rad2deg`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.rad2deg(fnp.array([0.5, 1.0]))',
                               'Array([28.64788976, 57.29577951], dtype=float64)'),),
                             False),
                 'radians': ("JAX's ``jax.numpy.radians`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.radians(fnp.array([0.5, 1.0]))',
                               'Array([0.00872665, 0.01745329], dtype=float64)'),),
                             False),
                 'ravel_multi_index': ("JAX's ``jax.numpy.ravel_multi_index`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('fnp.ravel_multi_index((fnp.array([1]), fnp.array([2])), '
                                         '(2, 3))',
                                         'Array([5], dtype=int64)'),),
                                       False),
                 'real': ("Elementwise ``real`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.real``.',
                          (('fnp.real(fnp.array([0.5, 1.0]))',
                            'Array([0.5, 1. ], dtype=float64)'),),
                          False),
                 'reciprocal': ("JAX's ``jax.numpy.reciprocal`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.reciprocal(fnp.array([0.5, 1.0]))',
                                  'Array([2., 1.], dtype=float64)'),),
                                False),
                 'remainder': ("Elementwise ``mod`` of its tensor argument(s), as JAX's "
                               '``jax.numpy.remainder``.',
                               (('fnp.remainder(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                 'Array([0.5, 0. ], dtype=float64)'),),
                               False),
                 'repeat': ("JAX's ``jax.numpy.repeat`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.repeat(fnp.array([5, 3]), fnp.array([3, 2]))',
                              'Array([5, 5, 5, 3, 3], dtype=int64)'),),
                            False),
                 'rint': ("JAX's ``jax.numpy.rint`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.rint(fnp.array([0.5, 1.0]))', 'Array([0., 1.], dtype=float64)'),),
                          False),
                 'roll': ("JAX's ``jax.numpy.roll`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.roll(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                            'Array([0.5, 1. ], dtype=float64)'),),
                          False),
                 'rot90': ("JAX's ``jax.numpy.rot90`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.rot90(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                             'Array([[1., 3.],\n       [2., 1.]], dtype=float64)'),),
                           False),
                 'round': ("JAX's ``jax.numpy.round`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.round(fnp.array([0.5, 1.0]))',
                             'Array([0., 1.], dtype=float64)'),),
                           False),
                 'searchsorted': ("JAX's ``jax.numpy.searchsorted`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.searchsorted(fnp.array([0.5, 1.0]), fnp.array([2.0, '
                                    '0.25]))',
                                    'Array([2, 0], dtype=int32)'),),
                                  False),
                 'select': ("JAX's ``jax.numpy.select`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.select(fnp.array([True, False]), fnp.array([1.0, 2.0]), '
                              'fnp.array([3.0, 4.0]))',
                              'Array([1., 1.], dtype=float64)'),),
                            False),
                 'shape': ("JAX's ``jax.numpy.shape`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.shape(fnp.array([0.5, 1.0]))', '(2,)'),),
                           False),
                 'sign': ("Elementwise ``sign`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.sign``.',
                          (('fnp.sign(fnp.array([0.5, 1.0]))', 'Array([1., 1.], dtype=float64)'),),
                          False),
                 'signbit': ("Elementwise ``signbit`` of its tensor argument(s), as JAX's "
                             '``jax.numpy.signbit``.',
                             (('fnp.signbit(fnp.array([0.5, 1.0]))',
                               'Array([False, False], dtype=bool)'),),
                             False),
                 'sin': ("Elementwise ``sin`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.sin``.',
                         (('fnp.sin(fnp.array([0.5, 1.0]))',
                           'Array([0.47942554, 0.84147098], dtype=float64)'),),
                         False),
                 'sinc': ("JAX's ``jax.numpy.sinc`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.sinc(fnp.array([0.5, 1.0]))',
                            'Array([6.36619772e-01, 3.89817183e-17], dtype=float64)'),),
                          False),
                 'sinh': ("Elementwise ``sinh`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.sinh``.',
                          (('fnp.sinh(fnp.array([0.5, 1.0]))',
                            'Array([0.52109531, 1.17520119], dtype=float64)'),),
                          False),
                 'size': ("JAX's ``jax.numpy.size`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.size(fnp.array([0.5, 1.0]))', '2'),),
                          False),
                 'sort': ("JAX's ``jax.numpy.sort`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.sort(fnp.array([0.5, 1.0]))',
                            'Array([0.5, 1. ], dtype=float64)'),),
                          False),
                 'split': ("JAX's ``jax.numpy.split`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.split(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)',
                             '[Array([[1., 2.],\n       [3., 4.]], dtype=float64)]'),),
                           False),
                 'sqrt': ("Elementwise ``sqrt`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.sqrt``.',
                          (('fnp.sqrt(fnp.array([0.5, 1.0]))',
                            'Array([0.70710678, 1.        ], dtype=float64)'),),
                          False),
                 'square': ("JAX's ``jax.numpy.square`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.square(fnp.array([0.5, 1.0]))',
                              'Array([0.25, 1.  ], dtype=float64)'),),
                            False),
                 'squeeze': ("JAX's ``jax.numpy.squeeze`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.squeeze(fnp.array([0.5, 1.0]))',
                               'Array([0.5, 1. ], dtype=float64)'),),
                             False),
                 'stack': ("JAX's ``jax.numpy.stack`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.stack(fnp.array([0.5, 1.0]))',
                             'Array([0.5, 1. ], dtype=float64)'),),
                           False),
                 'subtract': ("Elementwise ``subtract`` of its tensor argument(s), as JAX's "
                              '``jax.numpy.subtract``.',
                              (('fnp.subtract(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                'Array([-1.5 ,  0.75], dtype=float64)'),),
                              False),
                 'sum': ("Elementwise ``sum`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.sum``.',
                         (('fnp.sum(fnp.array([0.5, 1.0]))', 'Array(1.5, dtype=float64)'),),
                         False),
                 'swapaxes': ("JAX's ``jax.numpy.swapaxes`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('fnp.swapaxes(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                'Array([[1., 3.],\n       [2., 4.]], dtype=float64)'),),
                              False),
                 'take': ("JAX's ``jax.numpy.take`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.take(fnp.array([5, 3]), fnp.array([3, 2]))',
                            'Array([-9223372036854775808, -9223372036854775808], dtype=int64)'),),
                          False),
                 'take_along_axis': ("JAX's ``jax.numpy.take_along_axis`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('fnp.take_along_axis(fnp.array([[1.0, 2.0], [3.0, 4.0]]), '
                                       'fnp.array([[1], [0]]), 1)',
                                       'Array([[2.],\n       [3.]], dtype=float64)'),),
                                     False),
                 'tan': ("Elementwise ``tan`` of its tensor argument(s), as JAX's "
                         '``jax.numpy.tan``.',
                         (('fnp.tan(fnp.array([0.5, 1.0]))',
                           'Array([0.54630249, 1.55740772], dtype=float64)'),),
                         False),
                 'tanh': ("Elementwise ``tanh`` of its tensor argument(s), as JAX's "
                          '``jax.numpy.tanh``.',
                          (('fnp.tanh(fnp.array([0.5, 1.0]))',
                            'Array([0.46211716, 0.76159416], dtype=float64)'),),
                          False),
                 'tile': ("JAX's ``jax.numpy.tile`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.tile(fnp.array([5, 3]), fnp.array([3, 2]))',
                            'Array([[5, 3, 5, 3],\n'
                            '       [5, 3, 5, 3],\n'
                            '       [5, 3, 5, 3]], dtype=int64)'),),
                          False),
                 'trace': ("JAX's ``jax.numpy.trace`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.trace(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                             'Array(5., dtype=float64)'),),
                           False),
                 'transpose': ("JAX's ``jax.numpy.transpose`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.transpose(fnp.array([0.5, 1.0]))',
                                 'Array([0.5, 1. ], dtype=float64)'),),
                               False),
                 'tri': ("JAX's ``jax.numpy.tri`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('fnp.tri(2, 3)',
                           'Array([[1., 0., 0.],\n       [1., 1., 0.]], dtype=float32)'),),
                         False),
                 'tril': ("JAX's ``jax.numpy.tril`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.tril(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                            'Array([[2., 0.],\n       [1., 3.]], dtype=float64)'),),
                          False),
                 'tril_indices': ("JAX's ``jax.numpy.tril_indices`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.tril_indices(2, 3)',
                                    '(Array([0, 0, 1, 1], dtype=int64), Array([0, 1, 0, 1], '
                                    'dtype=int64))'),),
                                  False),
                 'tril_indices_from': ("JAX's ``jax.numpy.tril_indices_from`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('fnp.tril_indices_from(fnp.array([[2.0, 1.0], [1.0, '
                                         '3.0]]))',
                                         '(Array([0, 1, 1], dtype=int64), Array([0, 0, 1], '
                                         'dtype=int64))'),),
                                       False),
                 'triu': ("JAX's ``jax.numpy.triu`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('fnp.triu(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                            'Array([[2., 1.],\n       [0., 3.]], dtype=float64)'),),
                          False),
                 'triu_indices': ("JAX's ``jax.numpy.triu_indices`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.triu_indices(3)',
                                    '(Array([0, 0, 0, 1, 1, 2], dtype=int64), Array([0, 1, 2, 1, '
                                    '2, 2], dtype=int64))'),),
                                  False),
                 'triu_indices_from': ("JAX's ``jax.numpy.triu_indices_from`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('fnp.triu_indices_from(fnp.array([[2.0, 1.0], [1.0, '
                                         '3.0]]))',
                                         '(Array([0, 0, 1], dtype=int64), Array([0, 1, 1], '
                                         'dtype=int64))'),),
                                       False),
                 'true_divide': ("Elementwise ``divide`` of its tensor argument(s), as JAX's "
                                 '``jax.numpy.true_divide``.',
                                 (('fnp.true_divide(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                   'Array([0.25, 4.  ], dtype=float64)'),),
                                 False),
                 'trunc': ("Elementwise ``trunc`` of its tensor argument(s), as JAX's "
                           '``jax.numpy.trunc``.',
                           (('fnp.trunc(fnp.array([0.5, 1.0]))',
                             'Array([0., 1.], dtype=float64)'),),
                           False),
                 'unique': ("JAX's ``jax.numpy.unique`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.unique(fnp.array([0.5, 1.0]))',
                              'Array([0.5, 1. ], dtype=float64)'),),
                            False),
                 'unravel_index': ("JAX's ``jax.numpy.unravel_index`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('fnp.unravel_index(fnp.array([5, 3]), fnp.array([3, 2]))',
                                     '(Array([2, 1], dtype=int64), Array([1, 1], dtype=int64))'),),
                                   False),
                 'unstack': ("JAX's ``jax.numpy.unstack`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('fnp.unstack(fnp.array([0.5, 1.0]))',
                               '(Array(0.5, dtype=float64), Array(1., dtype=float64))'),),
                             False),
                 'vecmat': ("JAX's ``jax.numpy.vecmat`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.vecmat(fnp.array([[2.0, 1.0], [1.0, 3.0]]), fnp.array([[1.0, '
                              '0.0], [2.0, 1.0]]))',
                              'Array([[4., 1.],\n       [7., 3.]], dtype=float64)'),),
                            False),
                 'vsplit': ("JAX's ``jax.numpy.vsplit`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.vsplit(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 1)',
                              '[Array([[1., 2.],\n       [3., 4.]], dtype=float64)]'),),
                            False),
                 'vstack': ("JAX's ``jax.numpy.vstack`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('fnp.vstack(fnp.array([0.5, 1.0]))',
                              'Array([[0.5],\n       [1. ]], dtype=float64)'),),
                            False),
                 'where': ("JAX's ``jax.numpy.where`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('fnp.where(fnp.array([0.5, 1.0]))', '(Array([0, 1], dtype=int64),)'),),
                           False)},
 'fgrad.numpy.fft': {},
 'fgrad.numpy.linalg': {'cholesky': ("JAX's ``jax.numpy.linalg.cholesky`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('fnp.linalg.cholesky(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                       'Array([[1.41421356, 0.        ],\n'
                                       '       [0.70710678, 1.58113883]], dtype=float64)'),),
                                     False),
                        'cond': ("JAX's ``jax.numpy.linalg.cond`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.linalg.cond(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                   'Array(2.61803399, dtype=float64)'),),
                                 False),
                        'cross': ("JAX's ``jax.numpy.linalg.cross`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.linalg.cross(fnp.array([1.0, 0.0, 0.0]), fnp.array([0.0, '
                                    '1.0, 0.0]))',
                                    'Array([0., 0., 1.], dtype=float64)'),),
                                  False),
                        'diagonal': ("JAX's ``jax.numpy.linalg.diagonal`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('fnp.linalg.diagonal(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                       'Array([2., 3.], dtype=float64)'),),
                                     False),
                        'eigh': ("JAX's ``jax.numpy.linalg.eigh`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.linalg.eigh(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                   'EighResult(eigenvalues=Array([1.38196601, 3.61803399], '
                                   'dtype=float64), eigenvectors=Array([[-0.85065081,  '
                                   '0.52573111],\n'
                                   '       [ 0.52573111,  0.85065081]], dtype=float64))'),),
                                 False),
                        'eigvalsh': ("JAX's ``jax.numpy.linalg.eigvalsh`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('fnp.linalg.eigvalsh(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                       'Array([1.38196601, 3.61803399], dtype=float64)'),),
                                     False),
                        'inv': ("JAX's ``jax.numpy.linalg.inv`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.linalg.inv(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                  'Array([[ 0.6, -0.2],\n       [-0.2,  0.4]], dtype=float64)'),),
                                False),
                        'lstsq': ("JAX's ``jax.numpy.linalg.lstsq`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.linalg.lstsq(fnp.array([[2.0, 1.0], [1.0, 3.0]]), '
                                    'fnp.array([[1.0, 0.0], [2.0, 1.0]]))',
                                    '(Array([[ 0.2, -0.2],\n'
                                    '       [ 0.6,  0.4]], dtype=float64), Array([1.67632942e-30, '
                                    '4.93038066e-32], dtype=float64), Array(2, dtype=int64), '
                                    'Array([3.61803399, 1.38196601], dtype=float64))'),),
                                  True),
                        'matrix_norm': ("JAX's ``jax.numpy.linalg.matrix_norm`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('fnp.linalg.matrix_norm(fnp.array([[2.0, 1.0], [1.0, '
                                          '3.0]]))',
                                          'Array(3.87298335, dtype=float64)'),),
                                        False),
                        'matrix_power': ("JAX's ``jax.numpy.linalg.matrix_power`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('fnp.linalg.matrix_power(fnp.array([[1.0, 2.0], [3.0, '
                                           '4.0]]), 1)',
                                           'Array([[1., 2.],\n       [3., 4.]], dtype=float64)'),),
                                         False),
                        'matrix_rank': ("JAX's ``jax.numpy.linalg.matrix_rank`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('fnp.linalg.matrix_rank(fnp.array([[2.0, 1.0], [1.0, '
                                          '3.0]]))',
                                          'Array(2, dtype=int64)'),),
                                        False),
                        'matrix_transpose': ("JAX's ``jax.numpy.linalg.matrix_transpose`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('fnp.linalg.matrix_transpose(fnp.array([[2.0, 1.0], '
                                               '[1.0, 3.0]]))',
                                               'Array([[2., 1.],\n'
                                               '       [1., 3.]], dtype=float64)'),),
                                             False),
                        'multi_dot': ("JAX's ``jax.numpy.linalg.multi_dot`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('fnp.linalg.multi_dot(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                        'Array(5., dtype=float64)'),),
                                      False),
                        'norm': ("JAX's ``jax.numpy.linalg.norm`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.linalg.norm(fnp.array([0.5, 1.0]))',
                                   'Array(1.11803399, dtype=float64)'),),
                                 False),
                        'outer': ("JAX's ``jax.numpy.linalg.outer`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.linalg.outer(fnp.array([0.5, 1.0]), fnp.array([2.0, '
                                    '0.25]))',
                                    'Array([[1.   , 0.125],\n'
                                    '       [2.   , 0.25 ]], dtype=float64)'),),
                                  False),
                        'pinv': ("JAX's ``jax.numpy.linalg.pinv`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('fnp.linalg.pinv(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                   'Array([[ 0.6, -0.2],\n       [-0.2,  0.4]], dtype=float64)'),),
                                 False),
                        'qr': ("JAX's ``jax.numpy.linalg.qr`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('fnp.linalg.qr(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                 'QRResult(Q=Array([[-0.89442719, -0.4472136 ],\n'
                                 '       [-0.4472136 ,  0.89442719]], dtype=float64), '
                                 'R=Array([[-2.23606798, -2.23606798],\n'
                                 '       [ 0.        ,  2.23606798]], dtype=float64))'),),
                               False),
                        'slogdet': ("JAX's ``jax.numpy.linalg.slogdet`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('fnp.linalg.slogdet(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                      'SlogdetResult(sign=Array(1., dtype=float64), '
                                      'logabsdet=Array(1.60943791, dtype=float64))'),),
                                    False),
                        'solve': ("JAX's ``jax.numpy.linalg.solve`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.linalg.solve(fnp.array([[2.0, 1.0], [1.0, 3.0]]), '
                                    'fnp.array([[1.0, 0.0], [2.0, 1.0]]))',
                                    'Array([[ 0.2, -0.2],\n       [ 0.6,  0.4]], dtype=float64)'),),
                                  False),
                        'svd': ("JAX's ``jax.numpy.linalg.svd`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('fnp.linalg.svd(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                  'SVDResult(U=Array([[-0.52573111, -0.85065081],\n'
                                  '       [-0.85065081,  0.52573111]], dtype=float64), '
                                  'S=Array([3.61803399, 1.38196601], dtype=float64), '
                                  'Vh=Array([[-0.52573111, -0.85065081],\n'
                                  '       [-0.85065081,  0.52573111]], dtype=float64))'),),
                                False),
                        'svdvals': ("JAX's ``jax.numpy.linalg.svdvals`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('fnp.linalg.svdvals(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                      'Array([3.61803399, 1.38196601], dtype=float64)'),),
                                    False),
                        'tensorinv': ("JAX's ``jax.numpy.linalg.tensorinv`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('fnp.linalg.tensorinv(fnp.array([[1.0, 2.0], [3.0, 4.0]]), '
                                        '1)',
                                        'Array([[-2. ,  1. ],\n'
                                        '       [ 1.5, -0.5]], dtype=float64)'),),
                                      False),
                        'tensorsolve': ("JAX's ``jax.numpy.linalg.tensorsolve`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('fnp.linalg.tensorsolve(fnp.array([[2.0, 1.0], [1.0, '
                                          '3.0]]), fnp.array([1.0, 2.0]))',
                                          'Array([0.2, 0.6], dtype=float64)'),),
                                        False),
                        'trace': ("JAX's ``jax.numpy.linalg.trace`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('fnp.linalg.trace(fnp.array([[2.0, 1.0], [1.0, 3.0]]))',
                                    'Array(5., dtype=float64)'),),
                                  False),
                        'vector_norm': ("JAX's ``jax.numpy.linalg.vector_norm`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('fnp.linalg.vector_norm(fnp.array([0.5, 1.0]))',
                                          'Array(1.11803399, dtype=float64)'),),
                                        False)}}
