# ruff: noqa: E501  (generated data)
"""Docstring examples of `fgrad.lax`:
written by ``tools/make_doc_examples.py``, do not edit.

Each entry is ``name: (summary, ((source, peer's output), ...), skip)``; the outputs are the
peer's (JAX 0.10.2), and ``skip`` marks a known difference (fgrad prints something else; listed in
`KNOWN_DIFFERENCES`).  `fgrad._docs.attach` turns the entries into docstrings.
"""

# fmt: off
KNOWN_DIFFERENCES = []

EXAMPLES = {'fgrad.lax': {'abs': ("Elementwise ``abs`` of its tensor argument(s), as JAX's ``jax.lax.abs``.",
                       (('lax.abs(fnp.array([0.5, 1.0]))', 'Array([0.5, 1. ], dtype=float64)'),),
                       False),
               'acos': ("Elementwise ``arccos`` of its tensor argument(s), as JAX's "
                        '``jax.lax.acos``.',
                        (('lax.acos(fnp.array([0.5, 1.0]))',
                          'Array([1.04719755, 0.        ], dtype=float64)'),),
                        False),
               'acosh': ("Elementwise ``arccosh`` of its tensor argument(s), as JAX's "
                         '``jax.lax.acosh``.',
                         (('lax.acosh(fnp.array([0.5, 1.0]))',
                           'Array([nan,  0.], dtype=float64)'),),
                         False),
               'add': ("Elementwise ``add`` of its tensor argument(s), as JAX's ``jax.lax.add``.",
                       (('lax.add(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array([2.5 , 1.25], dtype=float64)'),),
                       False),
               'argmax': ("The index of the maximum along ``axis``, as JAX's "
                          '``jax.lax.argmax``.',
                          (('lax.argmax(fnp.array([1.0, 3.0, 2.0]), 0, fnp.int64)',
                            'Array(1, dtype=int64)'),),
                          False),
               'argmin': ("The index of the minimum along ``axis``, as JAX's "
                          '``jax.lax.argmin``.',
                          (('lax.argmin(fnp.array([1.0, 3.0, 2.0]), 0, fnp.int64)',
                            'Array(0, dtype=int64)'),),
                          False),
               'asin': ("Elementwise ``arcsin`` of its tensor argument(s), as JAX's "
                        '``jax.lax.asin``.',
                        (('lax.asin(fnp.array([0.5, 1.0]))',
                          'Array([0.52359878, 1.57079633], dtype=float64)'),),
                        False),
               'asinh': ("Elementwise ``arcsinh`` of its tensor argument(s), as JAX's "
                         '``jax.lax.asinh``.',
                         (('lax.asinh(fnp.array([0.5, 1.0]))',
                           'Array([0.48121183, 0.88137359], dtype=float64)'),),
                         False),
               'atan': ("Elementwise ``arctan`` of its tensor argument(s), as JAX's "
                        '``jax.lax.atan``.',
                        (('lax.atan(fnp.array([0.5, 1.0]))',
                          'Array([0.46364761, 0.78539816], dtype=float64)'),),
                        False),
               'atan2': ("Elementwise ``arctan2`` of its tensor argument(s), as JAX's "
                         '``jax.lax.atan2``.',
                         (('lax.atan2(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                           'Array([0.24497866, 1.32581766], dtype=float64)'),),
                         False),
               'atanh': ("Elementwise ``arctanh`` of its tensor argument(s), as JAX's "
                         '``jax.lax.atanh``.',
                         (('lax.atanh(fnp.array([0.5, 1.0]))',
                           'Array([0.54930614,        inf], dtype=float64)'),),
                         False),
               'bitcast_convert_type': ("JAX's ``jax.lax.bitcast_convert_type`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('lax.bitcast_convert_type(fnp.array([1.0]), fnp.int64)',
                                          'Array([4607182418800017408], dtype=int64)'),),
                                        False),
               'bitwise_and': ("Elementwise ``bitwise_and`` of its tensor argument(s), as JAX's "
                               '``jax.lax.bitwise_and``.',
                               (('lax.bitwise_and(fnp.array([5, 3]), fnp.array([3, 2]))',
                                 'Array([1, 2], dtype=int64)'),),
                               False),
               'bitwise_not': ("Elementwise ``invert`` of its tensor argument(s), as JAX's "
                               '``jax.lax.bitwise_not``.',
                               (('lax.bitwise_not(fnp.array([5, 3]))',
                                 'Array([-6, -4], dtype=int64)'),),
                               False),
               'bitwise_or': ("Elementwise ``bitwise_or`` of its tensor argument(s), as JAX's "
                              '``jax.lax.bitwise_or``.',
                              (('lax.bitwise_or(fnp.array([5, 3]), fnp.array([3, 2]))',
                                'Array([7, 3], dtype=int64)'),),
                              False),
               'bitwise_xor': ("Elementwise ``bitwise_xor`` of its tensor argument(s), as JAX's "
                               '``jax.lax.bitwise_xor``.',
                               (('lax.bitwise_xor(fnp.array([5, 3]), fnp.array([3, 2]))',
                                 'Array([6, 1], dtype=int64)'),),
                               False),
               'broadcast': ("JAX's ``jax.lax.broadcast`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('lax.broadcast(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (4,))',
                               'Array([[[1., 2.],\n'
                               '        [3., 4.]],\n'
                               '\n'
                               '       [[1., 2.],\n'
                               '        [3., 4.]],\n'
                               '\n'
                               '       [[1., 2.],\n'
                               '        [3., 4.]],\n'
                               '\n'
                               '       [[1., 2.],\n'
                               '        [3., 4.]]], dtype=float64)'),),
                             False),
               'broadcast_in_dim': ("JAX's ``jax.lax.broadcast_in_dim`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('lax.broadcast_in_dim(fnp.array([1.0, 2.0, 3.0]), (2, 3), '
                                      '(1,))',
                                      'Array([[1., 2., 3.],\n'
                                      '       [1., 2., 3.]], dtype=float64)'),),
                                    False),
               'cbrt': ("Elementwise ``cbrt`` of its tensor argument(s), as JAX's "
                        '``jax.lax.cbrt``.',
                        (('lax.cbrt(fnp.array([0.5, 1.0]))',
                          'Array([0.79370053, 1.        ], dtype=float64)'),),
                        False),
               'ceil': ("Elementwise ``ceil`` of its tensor argument(s), as JAX's "
                        '``jax.lax.ceil``.',
                        (('lax.ceil(fnp.array([0.5, 1.0]))', 'Array([1., 1.], dtype=float64)'),),
                        False),
               'clamp': ("JAX's ``jax.lax.clamp`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('lax.clamp(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]), '
                           'fnp.array([1.0, 2.0]))',
                           'Array([1., 1.], dtype=float64)'),),
                         False),
               'concatenate': ("JAX's ``jax.lax.concatenate`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('lax.concatenate(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0)',
                                 'Array([1., 2., 3., 4.], dtype=float64)'),),
                               False),
               'conj': ("Elementwise ``conjugate`` of its tensor argument(s), as JAX's "
                        '``jax.lax.conj``.',
                        (('lax.conj(fnp.array([1.0 + 2.0j]))',
                          'Array([1.-2.j], dtype=complex128)'),),
                        False),
               'convert_element_type': ("JAX's ``jax.lax.convert_element_type`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('lax.convert_element_type(fnp.array([0.5, 1.0]), '
                                          'fnp.float32)',
                                          'Array([0.5, 1. ], dtype=float32)'),),
                                        False),
               'cos': ("Elementwise ``cos`` of its tensor argument(s), as JAX's ``jax.lax.cos``.",
                       (('lax.cos(fnp.array([0.5, 1.0]))',
                         'Array([0.87758256, 0.54030231], dtype=float64)'),),
                       False),
               'cosh': ("Elementwise ``cosh`` of its tensor argument(s), as JAX's "
                        '``jax.lax.cosh``.',
                        (('lax.cosh(fnp.array([0.5, 1.0]))',
                          'Array([1.12762597, 1.54308063], dtype=float64)'),),
                        False),
               'cumlogsumexp': ("JAX's ``jax.lax.cumlogsumexp`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('lax.cumlogsumexp(fnp.array([0.5, 1.0]))',
                                  'Array([0.5       , 1.47407698], dtype=float64)'),),
                                False),
               'cummax': ("JAX's ``jax.lax.cummax`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('lax.cummax(fnp.array([0.5, 1.0]))',
                            'Array([0.5, 1. ], dtype=float64)'),),
                          False),
               'cummin': ("JAX's ``jax.lax.cummin`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('lax.cummin(fnp.array([0.5, 1.0]))',
                            'Array([0.5, 0.5], dtype=float64)'),),
                          False),
               'cumprod': ("JAX's ``jax.lax.cumprod`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('lax.cumprod(fnp.array([0.5, 1.0]))',
                             'Array([0.5, 0.5], dtype=float64)'),),
                           False),
               'cumsum': ("JAX's ``jax.lax.cumsum`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('lax.cumsum(fnp.array([0.5, 1.0]))',
                            'Array([0.5, 1.5], dtype=float64)'),),
                          False),
               'div': ("Elementwise ``divide`` of its tensor argument(s), as JAX's "
                       '``jax.lax.div``.',
                       (('lax.div(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array([0.25, 4.  ], dtype=float64)'),),
                       False),
               'dot': ("JAX's ``jax.lax.dot`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('lax.dot(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array(1.25, dtype=float64)'),),
                       False),
               'eq': ("Elementwise ``equal`` of its tensor argument(s), as JAX's ``jax.lax.eq``.",
                      (('lax.eq(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                        'Array([False, False], dtype=bool)'),),
                      False),
               'erf': ("Elementwise ``erf`` of its tensor argument(s), as JAX's ``jax.lax.erf``.",
                       (('lax.erf(fnp.array([0.5, 1.0]))',
                         'Array([0.52049988, 0.84270079], dtype=float64)'),),
                       False),
               'erf_inv': ("Elementwise ``erfinv`` of its tensor argument(s), as JAX's "
                           '``jax.lax.erf_inv``.',
                           (('lax.erf_inv(fnp.array([0.5, 1.0]))',
                             'Array([0.47693628,        inf], dtype=float64)'),),
                           False),
               'erfc': ("Elementwise ``erfc`` of its tensor argument(s), as JAX's "
                        '``jax.lax.erfc``.',
                        (('lax.erfc(fnp.array([0.5, 1.0]))',
                          'Array([0.47950012, 0.15729921], dtype=float64)'),),
                        False),
               'exp': ("Elementwise ``exp`` of its tensor argument(s), as JAX's ``jax.lax.exp``.",
                       (('lax.exp(fnp.array([0.5, 1.0]))',
                         'Array([1.64872127, 2.71828183], dtype=float64)'),),
                       False),
               'exp2': ("Elementwise ``exp2`` of its tensor argument(s), as JAX's "
                        '``jax.lax.exp2``.',
                        (('lax.exp2(fnp.array([0.5, 1.0]))',
                          'Array([1.41421356, 2.        ], dtype=float64)'),),
                        False),
               'expand_dims': ("JAX's ``jax.lax.expand_dims`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('lax.expand_dims(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (0,))',
                                 'Array([[[1., 2.],\n        [3., 4.]]], dtype=float64)'),),
                               False),
               'expm1': ("Elementwise ``expm1`` of its tensor argument(s), as JAX's "
                         '``jax.lax.expm1``.',
                         (('lax.expm1(fnp.array([0.5, 1.0]))',
                           'Array([0.64872127, 1.71828183], dtype=float64)'),),
                         False),
               'floor': ("Elementwise ``floor`` of its tensor argument(s), as JAX's "
                         '``jax.lax.floor``.',
                         (('lax.floor(fnp.array([0.5, 1.0]))', 'Array([0., 1.], dtype=float64)'),),
                         False),
               'full': ("JAX's ``jax.lax.full`` (same arguments and results), computed by fgrad's "
                        'primitives.',
                        (('lax.full((2,), 1.5)',
                          'Array([1.5, 1.5], dtype=float64, weak_type=True)'),),
                        False),
               'full_like': ("JAX's ``jax.lax.full_like`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('lax.full_like(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0)',
                               'Array([[0., 0.],\n       [0., 0.]], dtype=float64)'),),
                             False),
               'ge': ("Elementwise ``greater_equal`` of its tensor argument(s), as JAX's "
                      '``jax.lax.ge``.',
                      (('lax.ge(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                        'Array([False,  True], dtype=bool)'),),
                      False),
               'gt': ("Elementwise ``greater`` of its tensor argument(s), as JAX's ``jax.lax.gt``.",
                      (('lax.gt(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                        'Array([False,  True], dtype=bool)'),),
                      False),
               'imag': ("Elementwise ``imag`` of its tensor argument(s), as JAX's "
                        '``jax.lax.imag``.',
                        (('lax.imag(fnp.array([1.0 + 2.0j]))', 'Array([2.], dtype=float64)'),),
                        False),
               'index_in_dim': ("JAX's ``jax.lax.index_in_dim`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('lax.index_in_dim(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0)',
                                  'Array([[1., 2.]], dtype=float64)'),),
                                False),
               'integer_pow': ("JAX's ``jax.lax.integer_pow`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('lax.integer_pow(fnp.array([[1.0, 2.0], [3.0, 4.0]]), 0)',
                                 'Array([[1., 1.],\n       [1., 1.]], dtype=float64)'),),
                               False),
               'is_finite': ("Elementwise ``isfinite`` of its tensor argument(s), as JAX's "
                             '``jax.lax.is_finite``.',
                             (('lax.is_finite(fnp.array([0.5, 1.0]))',
                               'Array([ True,  True], dtype=bool)'),),
                             False),
               'le': ("Elementwise ``less_equal`` of its tensor argument(s), as JAX's "
                      '``jax.lax.le``.',
                      (('lax.le(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                        'Array([ True, False], dtype=bool)'),),
                      False),
               'log': ("Elementwise ``log`` of its tensor argument(s), as JAX's ``jax.lax.log``.",
                       (('lax.log(fnp.array([0.5, 1.0]))',
                         'Array([-0.69314718,  0.        ], dtype=float64)'),),
                       False),
               'log1p': ("Elementwise ``log1p`` of its tensor argument(s), as JAX's "
                         '``jax.lax.log1p``.',
                         (('lax.log1p(fnp.array([0.5, 1.0]))',
                           'Array([0.40546511, 0.69314718], dtype=float64)'),),
                         False),
               'logistic': ("Elementwise ``sigmoid`` of its tensor argument(s), as JAX's "
                            '``jax.lax.logistic``.',
                            (('lax.logistic(fnp.array([0.5, 1.0]))',
                              'Array([0.62245933, 0.73105858], dtype=float64)'),),
                            False),
               'lt': ("Elementwise ``less`` of its tensor argument(s), as JAX's ``jax.lax.lt``.",
                      (('lax.lt(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                        'Array([ True, False], dtype=bool)'),),
                      False),
               'map': ("JAX's ``jax.lax.map`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('lax.map(fnp.sin, fnp.array([0.0, 1.0]))',
                         'Array([0.        , 0.84147098], dtype=float64)'),),
                       False),
               'max': ("Elementwise ``maximum`` of its tensor argument(s), as JAX's "
                       '``jax.lax.max``.',
                       (('lax.max(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array([2., 1.], dtype=float64)'),),
                       False),
               'min': ("Elementwise ``minimum`` of its tensor argument(s), as JAX's "
                       '``jax.lax.min``.',
                       (('lax.min(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array([0.5 , 0.25], dtype=float64)'),),
                       False),
               'mul': ("Elementwise ``multiply`` of its tensor argument(s), as JAX's "
                       '``jax.lax.mul``.',
                       (('lax.mul(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array([1.  , 0.25], dtype=float64)'),),
                       False),
               'ne': ("Elementwise ``not_equal`` of its tensor argument(s), as JAX's "
                      '``jax.lax.ne``.',
                      (('lax.ne(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                        'Array([ True,  True], dtype=bool)'),),
                      False),
               'neg': ("Elementwise ``negative`` of its tensor argument(s), as JAX's "
                       '``jax.lax.neg``.',
                       (('lax.neg(fnp.array([0.5, 1.0]))', 'Array([-0.5, -1. ], dtype=float64)'),),
                       False),
               'nextafter': ("Elementwise ``nextafter`` of its tensor argument(s), as JAX's "
                             '``jax.lax.nextafter``.',
                             (('lax.nextafter(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                               'Array([0.5, 1. ], dtype=float64)'),),
                             False),
               'pad': ("JAX's ``jax.lax.pad`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('lax.pad(fnp.array([1.0, 2.0, 3.0]), 0.0, [(1, 0, 0)])',
                         'Array([0., 1., 2., 3.], dtype=float64)'),),
                       False),
               'pow': ("Elementwise ``power`` of its tensor argument(s), as JAX's ``jax.lax.pow``.",
                       (('lax.pow(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array([0.25, 1.  ], dtype=float64)'),),
                       False),
               'real': ("Elementwise ``real`` of its tensor argument(s), as JAX's "
                        '``jax.lax.real``.',
                        (('lax.real(fnp.array([1.0 + 2.0j]))', 'Array([1.], dtype=float64)'),),
                        False),
               'reduce_and': ("The ``all`` over ``axes`` (bools), or the bitwise AND (integers, their dtype kept), as JAX's "
                              '``jax.lax.reduce_and``.',
                              (('lax.reduce_and(fnp.array([True, False]), (0,))',
                                'Array(False, dtype=bool)'),),
                              False),
               'reduce_max': ("The maximum over ``axes``, as JAX's "
                              '``jax.lax.reduce_max``.',
                              (('lax.reduce_max(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (0,))',
                                'Array([3., 4.], dtype=float64)'),),
                              False),
               'reduce_min': ("The minimum over ``axes``, as JAX's "
                              '``jax.lax.reduce_min``.',
                              (('lax.reduce_min(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (0,))',
                                'Array([1., 2.], dtype=float64)'),),
                              False),
               'reduce_or': ("The ``any`` over ``axes`` (bools), or the bitwise OR (integers, their dtype kept), as JAX's "
                             '``jax.lax.reduce_or``.',
                             (('lax.reduce_or(fnp.array([True, False]), (0,))',
                               'Array(True, dtype=bool)'),
                              ('lax.reduce_or(fnp.array([1, 2, 4], dtype=fnp.uint16), (0,))',
                               'Array(7, dtype=uint16)')),
                             False),
               'reduce_prod': ("The product over ``axes``, as JAX's "
                               '``jax.lax.reduce_prod``.',
                               (('lax.reduce_prod(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (0,))',
                                 'Array([3., 8.], dtype=float64)'),),
                               False),
               'reduce_sum': ("The sum over ``axes``, as JAX's "
                              '``jax.lax.reduce_sum``.',
                              (('lax.reduce_sum(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (0,))',
                                'Array([4., 6.], dtype=float64)'),),
                              False),
               'rem': ("Elementwise ``fmod`` of its tensor argument(s), as JAX's ``jax.lax.rem``.",
                       (('lax.rem(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array([0.5, 0. ], dtype=float64)'),),
                       False),
               'reshape': ("JAX's ``jax.lax.reshape`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('lax.reshape(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (4,))',
                             'Array([1., 2., 3., 4.], dtype=float64)'),),
                           False),
               'rev': ("JAX's ``jax.lax.rev`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('lax.rev(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (0,))',
                         'Array([[3., 4.],\n       [1., 2.]], dtype=float64)'),),
                       False),
               'round': ("JAX's ``jax.lax.round`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('lax.round(fnp.array([0.5, 1.0]))', 'Array([1., 1.], dtype=float64)'),),
                         False),
               'rsqrt': ("JAX's ``jax.lax.rsqrt`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('lax.rsqrt(fnp.array([0.5, 1.0]))',
                           'Array([1.41421356, 1.        ], dtype=float64)'),),
                         False),
               'select': ("JAX's ``jax.lax.select`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('lax.select(fnp.array([True, False]), fnp.array([1.0, 2.0]), '
                            'fnp.array([3.0, 4.0]))',
                            'Array([1., 4.], dtype=float64)'),),
                          False),
               'shift_left': ("JAX's ``jax.lax.shift_left`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('lax.shift_left(fnp.array([5, 3]), fnp.array([3, 2]))',
                                'Array([40, 12], dtype=int64)'),),
                              False),
               'shift_right_arithmetic': ("JAX's ``jax.lax.shift_right_arithmetic`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('lax.shift_right_arithmetic(fnp.array([5, 3]), '
                                            'fnp.array([3, 2]))',
                                            'Array([0, 0], dtype=int64)'),),
                                          False),
               'shift_right_logical': ("JAX's ``jax.lax.shift_right_logical`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('lax.shift_right_logical(fnp.array([5, 3]), fnp.array([3, '
                                         '2]))',
                                         'Array([0, 0], dtype=int64)'),),
                                       False),
               'sign': ("Elementwise ``sign`` of its tensor argument(s), as JAX's "
                        '``jax.lax.sign``.',
                        (('lax.sign(fnp.array([0.5, 1.0]))', 'Array([1., 1.], dtype=float64)'),),
                        False),
               'sin': ("Elementwise ``sin`` of its tensor argument(s), as JAX's ``jax.lax.sin``.",
                       (('lax.sin(fnp.array([0.5, 1.0]))',
                         'Array([0.47942554, 0.84147098], dtype=float64)'),),
                       False),
               'sinh': ("Elementwise ``sinh`` of its tensor argument(s), as JAX's "
                        '``jax.lax.sinh``.',
                        (('lax.sinh(fnp.array([0.5, 1.0]))',
                          'Array([0.52109531, 1.17520119], dtype=float64)'),),
                        False),
               'sort': ("JAX's ``jax.lax.sort`` (same arguments and results), computed by fgrad's "
                        'primitives.',
                        (('lax.sort(fnp.array([0.5, 1.0]))', 'Array([0.5, 1. ], dtype=float64)'),),
                        False),
               'sort_key_val': ("JAX's ``jax.lax.sort_key_val`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('lax.sort_key_val(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                                  '(Array([0.5, 1. ], dtype=float64), Array([2.  , 0.25], '
                                  'dtype=float64))'),),
                                False),
               'sqrt': ("Elementwise ``sqrt`` of its tensor argument(s), as JAX's "
                        '``jax.lax.sqrt``.',
                        (('lax.sqrt(fnp.array([0.5, 1.0]))',
                          'Array([0.70710678, 1.        ], dtype=float64)'),),
                        False),
               'square': ("JAX's ``jax.lax.square`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('lax.square(fnp.array([0.5, 1.0]))',
                            'Array([0.25, 1.  ], dtype=float64)'),),
                          False),
               'squeeze': ("JAX's ``jax.lax.squeeze`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('lax.squeeze(fnp.array([[1.0, 2.0]]), (0,))',
                             'Array([1., 2.], dtype=float64)'),),
                           False),
               'sub': ("Elementwise ``subtract`` of its tensor argument(s), as JAX's "
                       '``jax.lax.sub``.',
                       (('lax.sub(fnp.array([0.5, 1.0]), fnp.array([2.0, 0.25]))',
                         'Array([-1.5 ,  0.75], dtype=float64)'),),
                       False),
               'tan': ("Elementwise ``tan`` of its tensor argument(s), as JAX's ``jax.lax.tan``.",
                       (('lax.tan(fnp.array([0.5, 1.0]))',
                         'Array([0.54630249, 1.55740772], dtype=float64)'),),
                       False),
               'tanh': ("Elementwise ``tanh`` of its tensor argument(s), as JAX's "
                        '``jax.lax.tanh``.',
                        (('lax.tanh(fnp.array([0.5, 1.0]))',
                          'Array([0.46211716, 0.76159416], dtype=float64)'),),
                        False),
               'top_k': ("JAX's ``jax.lax.top_k`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('lax.top_k(fnp.array([1.0, 3.0, 2.0]), 2)',
                           '[Array([3., 2.], dtype=float64), Array([1, 2], dtype=int32)]'),),
                         False),
               'transpose': ("JAX's ``jax.lax.transpose`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('lax.transpose(fnp.array([[1.0, 2.0], [3.0, 4.0]]), (1, 0))',
                               'Array([[1., 3.],\n       [2., 4.]], dtype=float64)'),),
                             False),
               'zeros_like_array': ("JAX's ``jax.lax.zeros_like_array`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('lax.zeros_like_array(fnp.array([1.0, 2.0]))',
                                      'Array([0., 0.], dtype=float64)',
                                      'fnp.zeros_like(fnp.array([1.0, 2.0]))'),),
                                    False)}}
