# ruff: noqa: E501  (generated data)
"""Docstring examples of `fgrad.torch`, `fgrad.torch.nn.functional`, `fgrad.torch.linalg`, `fgrad.torch.special`, `fgrad.torch.func`, `fgrad.torch.autograd`, `fgrad.torch.Tensor`:
written by ``tools/make_doc_examples.py``, do not edit.

Each entry is ``name: (summary, ((source, peer's output), ...), skip)``; the outputs are the
peer's (PyTorch 2.13.0+cpu), and ``skip`` marks a known difference (fgrad prints something else; listed in
`KNOWN_DIFFERENCES`).  `fgrad._docs.attach` turns the entries into docstrings.
"""

# fmt: off
KNOWN_DIFFERENCES = ['fgrad.torch.Tensor.qr',
 'fgrad.torch.linalg.slogdet',
 'fgrad.torch.qr',
 'fgrad.torch.scalar_tensor']

EXAMPLES = {'fgrad.torch': {'abs': ("Elementwise ``abs`` of its tensor argument(s), as PyTorch's "
                         '``torch.abs``.',
                         (('torch.abs(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                         False),
                 'abs_': ('In-place ``torch.abs``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.abs_``.",
                          (('torch.abs_(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                          False),
                 'absolute': ("Elementwise ``abs`` of its tensor argument(s), as PyTorch's "
                              '``torch.absolute``.',
                              (('torch.absolute(torch.tensor([0.5, 1.0]))',
                                'tensor([0.5000, 1.0000])'),),
                              False),
                 'acos': ("Elementwise ``arccos`` of its tensor argument(s), as PyTorch's "
                          '``torch.acos``.',
                          (('torch.acos(torch.tensor([0.5, 1.0]))', 'tensor([1.0472, 0.0000])'),),
                          False),
                 'acos_': ('In-place ``torch.acos``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.acos_``.",
                           (('torch.acos_(torch.tensor([0.5, 1.0]))', 'tensor([1.0472, 0.0000])'),),
                           False),
                 'acosh': ("Elementwise ``arccosh`` of its tensor argument(s), as PyTorch's "
                           '``torch.acosh``.',
                           (('torch.acosh(torch.tensor([0.5, 1.0]))', 'tensor([nan, 0.])'),),
                           False),
                 'acosh_': ('In-place ``torch.acosh``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.acosh_``.",
                            (('torch.acosh_(torch.tensor([0.5, 1.0]))', 'tensor([nan, 0.])'),),
                            False),
                 'add': ("Elementwise ``add`` of its tensor argument(s), as PyTorch's "
                         '``torch.add``.',
                         (('torch.add(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                           'tensor([2.5000, 1.2500])'),),
                         False),
                 'addbmm': ("PyTorch's ``torch.addbmm`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.addbmm(torch.zeros(2, 2), torch.ones(1, 2, 3), torch.ones(1, '
                              '3, 2))',
                              'tensor([[3., 3.],\n        [3., 3.]])'),),
                            False),
                 'addcdiv': ("PyTorch's ``torch.addcdiv`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.addcdiv(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]), '
                               'torch.tensor([1.0, 2.0]))',
                               'tensor([2.5000, 1.1250])'),),
                             False),
                 'addcdiv_': ('In-place ``torch.addcdiv``: writes the result into ``input`` and '
                              "returns it, as PyTorch's ``torch.addcdiv_``.",
                              (('torch.addcdiv_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                '0.25]), torch.tensor([1.0, 2.0]))',
                                'tensor([2.5000, 1.1250])',
                                'torch.tensor([0.5, 1.0]).addcdiv_(torch.tensor([2.0, 0.25]), '
                                'torch.tensor([1.0, 2.0]))'),),
                              False),
                 'addcmul': ("PyTorch's ``torch.addcmul`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.addcmul(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]), '
                               'torch.tensor([1.0, 2.0]))',
                               'tensor([2.5000, 1.5000])'),),
                             False),
                 'addcmul_': ('In-place ``torch.addcmul``: writes the result into ``input`` and '
                              "returns it, as PyTorch's ``torch.addcmul_``.",
                              (('torch.addcmul_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                '0.25]), torch.tensor([1.0, 2.0]))',
                                'tensor([2.5000, 1.5000])',
                                'torch.tensor([0.5, 1.0]).addcmul_(torch.tensor([2.0, 0.25]), '
                                'torch.tensor([1.0, 2.0]))'),),
                              False),
                 'addmm': ("PyTorch's ``torch.addmm`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.addmm(torch.zeros(2, 2), torch.ones(2, 3), torch.ones(3, 2))',
                             'tensor([[3., 3.],\n        [3., 3.]])'),),
                           False),
                 'addmv': ("PyTorch's ``torch.addmv`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.addmv(torch.zeros(2), torch.ones(2, 3), torch.ones(3))',
                             'tensor([3., 3.])'),),
                           False),
                 'addr': ("PyTorch's ``torch.addr`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.addr(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]), '
                            'torch.tensor([1.0, 2.0]))',
                            'tensor([[2.5000, 5.0000],\n        [0.7500, 1.5000]])'),),
                          False),
                 'all': ("Elementwise ``all`` of its tensor argument(s), as PyTorch's "
                         '``torch.all``.',
                         (('torch.all(torch.tensor([0.5, 1.0]))', 'tensor(True)'),),
                         False),
                 'allclose': ("PyTorch's ``torch.allclose`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.allclose(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                '0.25]))',
                                'False'),),
                              False),
                 'amax': ("Elementwise ``max`` of its tensor argument(s), as PyTorch's "
                          '``torch.amax``.',
                          (('torch.amax(torch.tensor([0.5, 1.0]))', 'tensor(1.)'),),
                          False),
                 'amin': ("Elementwise ``min`` of its tensor argument(s), as PyTorch's "
                          '``torch.amin``.',
                          (('torch.amin(torch.tensor([0.5, 1.0]))', 'tensor(0.5000)'),),
                          False),
                 'aminmax': ("PyTorch's ``torch.aminmax`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.aminmax(torch.tensor([0.5, 1.0]))',
                               'torch.return_types.aminmax(\n'
                               'min=tensor(0.5000),\n'
                               'max=tensor(1.))'),),
                             False),
                 'angle': ("PyTorch's ``torch.angle`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.angle(torch.tensor([0.5, 1.0]))', 'tensor([0., 0.])'),),
                           False),
                 'any': ("Elementwise ``any`` of its tensor argument(s), as PyTorch's "
                         '``torch.any``.',
                         (('torch.any(torch.tensor([0.5, 1.0]))', 'tensor(True)'),),
                         False),
                 'arange': ("PyTorch's ``torch.arange`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.arange(2, 3)', 'tensor([2])'),),
                            False),
                 'arccos': ("Elementwise ``arccos`` of its tensor argument(s), as PyTorch's "
                            '``torch.arccos``.',
                            (('torch.arccos(torch.tensor([0.5, 1.0]))',
                              'tensor([1.0472, 0.0000])'),),
                            False),
                 'arccos_': ('In-place ``torch.arccos``: writes the result into ``input`` and '
                             "returns it, as PyTorch's ``torch.arccos_``.",
                             (('torch.arccos_(torch.tensor([0.5, 1.0]))',
                               'tensor([1.0472, 0.0000])'),),
                             False),
                 'arccosh': ("Elementwise ``arccosh`` of its tensor argument(s), as PyTorch's "
                             '``torch.arccosh``.',
                             (('torch.arccosh(torch.tensor([0.5, 1.0]))', 'tensor([nan, 0.])'),),
                             False),
                 'arccosh_': ('In-place ``torch.arccosh``: writes the result into ``input`` and '
                              "returns it, as PyTorch's ``torch.arccosh_``.",
                              (('torch.arccosh_(torch.tensor([0.5, 1.0]))', 'tensor([nan, 0.])'),),
                              False),
                 'arcsin': ("Elementwise ``arcsin`` of its tensor argument(s), as PyTorch's "
                            '``torch.arcsin``.',
                            (('torch.arcsin(torch.tensor([0.5, 1.0]))',
                              'tensor([0.5236, 1.5708])'),),
                            False),
                 'arcsin_': ('In-place ``torch.arcsin``: writes the result into ``input`` and '
                             "returns it, as PyTorch's ``torch.arcsin_``.",
                             (('torch.arcsin_(torch.tensor([0.5, 1.0]))',
                               'tensor([0.5236, 1.5708])'),),
                             False),
                 'arcsinh': ("Elementwise ``arcsinh`` of its tensor argument(s), as PyTorch's "
                             '``torch.arcsinh``.',
                             (('torch.arcsinh(torch.tensor([0.5, 1.0]))',
                               'tensor([0.4812, 0.8814])'),),
                             False),
                 'arcsinh_': ('In-place ``torch.arcsinh``: writes the result into ``input`` and '
                              "returns it, as PyTorch's ``torch.arcsinh_``.",
                              (('torch.arcsinh_(torch.tensor([0.5, 1.0]))',
                                'tensor([0.4812, 0.8814])'),),
                              False),
                 'arctan': ("Elementwise ``arctan`` of its tensor argument(s), as PyTorch's "
                            '``torch.arctan``.',
                            (('torch.arctan(torch.tensor([0.5, 1.0]))',
                              'tensor([0.4636, 0.7854])'),),
                            False),
                 'arctan2': ("Elementwise ``arctan2`` of its tensor argument(s), as PyTorch's "
                             '``torch.arctan2``.',
                             (('torch.arctan2(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                               'tensor([0.2450, 1.3258])'),),
                             False),
                 'arctan_': ('In-place ``torch.arctan``: writes the result into ``input`` and '
                             "returns it, as PyTorch's ``torch.arctan_``.",
                             (('torch.arctan_(torch.tensor([0.5, 1.0]))',
                               'tensor([0.4636, 0.7854])'),),
                             False),
                 'arctanh': ("Elementwise ``arctanh`` of its tensor argument(s), as PyTorch's "
                             '``torch.arctanh``.',
                             (('torch.arctanh(torch.tensor([0.5, 1.0]))',
                               'tensor([0.5493,    inf])'),),
                             False),
                 'arctanh_': ('In-place ``torch.arctanh``: writes the result into ``input`` and '
                              "returns it, as PyTorch's ``torch.arctanh_``.",
                              (('torch.arctanh_(torch.tensor([0.5, 1.0]))',
                                'tensor([0.5493,    inf])'),),
                              False),
                 'are_deterministic_algorithms_enabled': ("PyTorch's "
                                                          '``torch.are_deterministic_algorithms_enabled`` '
                                                          '(same arguments and results), computed '
                                                          "by fgrad's primitives.",
                                                          (('torch.are_deterministic_algorithms_enabled()',
                                                            'False'),),
                                                          False),
                 'argmax': ("Elementwise ``argmax`` of its tensor argument(s), as PyTorch's "
                            '``torch.argmax``.',
                            (('torch.argmax(torch.tensor([0.5, 1.0]))', 'tensor(1)'),),
                            False),
                 'argmin': ("Elementwise ``argmin`` of its tensor argument(s), as PyTorch's "
                            '``torch.argmin``.',
                            (('torch.argmin(torch.tensor([0.5, 1.0]))', 'tensor(0)'),),
                            False),
                 'argsort': ("PyTorch's ``torch.argsort`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.argsort(torch.tensor([0.5, 1.0]))', 'tensor([0, 1])'),),
                             False),
                 'argwhere': ("PyTorch's ``torch.argwhere`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.argwhere(torch.tensor([0.5, 1.0]))',
                                'tensor([[0],\n        [1]])'),),
                              False),
                 'as_strided': ("PyTorch's ``torch.as_strided`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.as_strided(torch.arange(4.0), (2, 2), (1, 1))',
                                  'tensor([[0., 1.],\n        [1., 2.]])'),),
                                False),
                 'as_strided_': ('In-place ``torch.as_strided``: writes the result into ``input`` '
                                 "and returns it, as PyTorch's ``torch.as_strided_``.",
                                 (('torch.as_strided_(torch.tensor([1.0, 2.0, 3.0, 4.0]), (2, 2), '
                                   '(1, 1))',
                                   'tensor([[1., 2.],\n        [2., 3.]])',
                                   'torch.tensor([1.0, 2.0, 3.0, 4.0]).as_strided_((2, 2), (1, '
                                   '1))'),),
                                 False),
                 'as_tensor': ("PyTorch's ``torch.as_tensor`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.as_tensor(torch.tensor([0.5, 1.0]))',
                                 'tensor([0.5000, 1.0000])'),),
                               False),
                 'asarray': ("PyTorch's ``torch.asarray`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.asarray(torch.tensor([0.5, 1.0]))',
                               'tensor([0.5000, 1.0000])'),),
                             False),
                 'asin': ("Elementwise ``arcsin`` of its tensor argument(s), as PyTorch's "
                          '``torch.asin``.',
                          (('torch.asin(torch.tensor([0.5, 1.0]))', 'tensor([0.5236, 1.5708])'),),
                          False),
                 'asin_': ('In-place ``torch.asin``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.asin_``.",
                           (('torch.asin_(torch.tensor([0.5, 1.0]))', 'tensor([0.5236, 1.5708])'),),
                           False),
                 'asinh': ("Elementwise ``arcsinh`` of its tensor argument(s), as PyTorch's "
                           '``torch.asinh``.',
                           (('torch.asinh(torch.tensor([0.5, 1.0]))', 'tensor([0.4812, 0.8814])'),),
                           False),
                 'asinh_': ('In-place ``torch.asinh``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.asinh_``.",
                            (('torch.asinh_(torch.tensor([0.5, 1.0]))',
                              'tensor([0.4812, 0.8814])'),),
                            False),
                 'atan': ("Elementwise ``arctan`` of its tensor argument(s), as PyTorch's "
                          '``torch.atan``.',
                          (('torch.atan(torch.tensor([0.5, 1.0]))', 'tensor([0.4636, 0.7854])'),),
                          False),
                 'atan2': ("Elementwise ``arctan2`` of its tensor argument(s), as PyTorch's "
                           '``torch.atan2``.',
                           (('torch.atan2(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([0.2450, 1.3258])'),),
                           False),
                 'atan_': ('In-place ``torch.atan``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.atan_``.",
                           (('torch.atan_(torch.tensor([0.5, 1.0]))', 'tensor([0.4636, 0.7854])'),),
                           False),
                 'atanh': ("Elementwise ``arctanh`` of its tensor argument(s), as PyTorch's "
                           '``torch.atanh``.',
                           (('torch.atanh(torch.tensor([0.5, 1.0]))', 'tensor([0.5493,    inf])'),),
                           False),
                 'atanh_': ('In-place ``torch.atanh``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.atanh_``.",
                            (('torch.atanh_(torch.tensor([0.5, 1.0]))',
                              'tensor([0.5493,    inf])'),),
                            False),
                 'atleast_1d': ("PyTorch's ``torch.atleast_1d`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.atleast_1d(torch.tensor([0.5, 1.0]))',
                                  'tensor([0.5000, 1.0000])'),),
                                False),
                 'atleast_2d': ("PyTorch's ``torch.atleast_2d`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.atleast_2d(torch.tensor([0.5, 1.0]))',
                                  'tensor([[0.5000, 1.0000]])'),),
                                False),
                 'atleast_3d': ("PyTorch's ``torch.atleast_3d`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.atleast_3d(torch.tensor([0.5, 1.0]))',
                                  'tensor([[[0.5000],\n         [1.0000]]])'),),
                                False),
                 'baddbmm': ("PyTorch's ``torch.baddbmm`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.baddbmm(torch.zeros(1, 2, 2), torch.ones(1, 2, 3), '
                               'torch.ones(1, 3, 2))',
                               'tensor([[[3., 3.],\n         [3., 3.]]])'),),
                             False),
                 'bernoulli': ("PyTorch's ``torch.bernoulli`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.bernoulli(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                 'tensor([[1., 1.],\n        [1., 1.]])'),),
                               False),
                 'bincount': ("PyTorch's ``torch.bincount`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.bincount(torch.tensor([5, 3]), torch.tensor([3, 2]))',
                                'tensor([0., 0., 0., 2., 0., 3.], dtype=torch.float64)'),),
                              False),
                 'bitwise_and': ('Elementwise ``bitwise_and`` of its tensor argument(s), as '
                                 "PyTorch's ``torch.bitwise_and``.",
                                 (('torch.bitwise_and(torch.tensor([5, 3]), torch.tensor([3, 2]))',
                                   'tensor([1, 2])'),),
                                 False),
                 'bitwise_not': ("Elementwise ``invert`` of its tensor argument(s), as PyTorch's "
                                 '``torch.bitwise_not``.',
                                 (('torch.bitwise_not(torch.tensor([5, 3]))', 'tensor([-6, -4])'),),
                                 False),
                 'bitwise_or': ('Elementwise ``bitwise_or`` of its tensor argument(s), as '
                                "PyTorch's ``torch.bitwise_or``.",
                                (('torch.bitwise_or(torch.tensor([5, 3]), torch.tensor([3, 2]))',
                                  'tensor([7, 3])'),),
                                False),
                 'bitwise_xor': ('Elementwise ``bitwise_xor`` of its tensor argument(s), as '
                                 "PyTorch's ``torch.bitwise_xor``.",
                                 (('torch.bitwise_xor(torch.tensor([5, 3]), torch.tensor([3, 2]))',
                                   'tensor([6, 1])'),),
                                 False),
                 'block_diag': ("PyTorch's ``torch.block_diag`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.block_diag(torch.tensor([0.5, 1.0]))',
                                  'tensor([[0.5000, 1.0000]])'),),
                                False),
                 'bmm': ("PyTorch's ``torch.bmm`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.bmm(torch.ones(1, 2, 3), torch.ones(1, 3, 2))',
                           'tensor([[[3., 3.],\n         [3., 3.]]])'),),
                         False),
                 'broadcast_shapes': ("PyTorch's ``torch.broadcast_shapes`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.broadcast_shapes(3)', 'torch.Size([3])'),),
                                      False),
                 'broadcast_tensors': ("PyTorch's ``torch.broadcast_tensors`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.broadcast_tensors(torch.tensor([0.5, 1.0]))',
                                         '(tensor([0.5000, 1.0000]),)'),),
                                       False),
                 'broadcast_to': ("PyTorch's ``torch.broadcast_to`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.broadcast_to(torch.tensor([0.5, 1.0]), (2,))',
                                    'tensor([0.5000, 1.0000])'),),
                                  False),
                 'bucketize': ("PyTorch's ``torch.bucketize`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.bucketize(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                 '0.25]))',
                                 'tensor([2, 2])'),),
                               False),
                 'can_cast': ("PyTorch's ``torch.can_cast`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.can_cast(torch.float32, torch.int64)', 'False'),),
                              False),
                 'cartesian_prod': ("PyTorch's ``torch.cartesian_prod`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.cartesian_prod(torch.tensor([0.5, 1.0]))',
                                      'tensor([0.5000, 1.0000])'),),
                                    False),
                 'cat': ("PyTorch's ``torch.cat`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.cat([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])])',
                           'tensor([1., 2., 3., 4.])'),),
                         False),
                 'cdist': ("PyTorch's ``torch.cdist`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.cdist(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), '
                             'torch.tensor([[1.0, 0.0], [2.0, 1.0]]))',
                             'tensor([[1.4142, 0.0000],\n        [3.0000, 2.2361]])'),),
                           False),
                 'ceil': ("Elementwise ``ceil`` of its tensor argument(s), as PyTorch's "
                          '``torch.ceil``.',
                          (('torch.ceil(torch.tensor([0.5, 1.0]))', 'tensor([1., 1.])'),),
                          False),
                 'ceil_': ('In-place ``torch.ceil``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.ceil_``.",
                           (('torch.ceil_(torch.tensor([0.5, 1.0]))', 'tensor([1., 1.])'),),
                           False),
                 'chain_matmul': ("PyTorch's ``torch.chain_matmul`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.chain_matmul(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                    'tensor([[2., 1.],\n        [1., 3.]])'),),
                                  False),
                 'cholesky': ("PyTorch's ``torch.cholesky`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.cholesky(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                'tensor([[1.4142, 0.0000],\n        [0.7071, 1.5811]])'),),
                              False),
                 'chunk': ("PyTorch's ``torch.chunk`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.chunk(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                             '(tensor([[1., 2.],\n        [3., 4.]]),)'),),
                           False),
                 'clamp': ("PyTorch's ``torch.clamp`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.clamp(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([2., 1.])'),),
                           False),
                 'clamp_': ('In-place ``torch.clamp``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.clamp_``.",
                            (('torch.clamp_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                              'tensor([2., 1.])'),),
                            False),
                 'clamp_max': ("PyTorch's ``torch.clamp_max`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.clamp_max(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                 '0.25]))',
                                 'tensor([0.5000, 0.2500])'),),
                               False),
                 'clamp_max_': ('In-place ``torch.clamp_max``: writes the result into ``input`` '
                                "and returns it, as PyTorch's ``torch.clamp_max_``.",
                                (('torch.clamp_max_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                  '0.25]))',
                                  'tensor([0.5000, 0.2500])'),),
                                False),
                 'clamp_min': ("PyTorch's ``torch.clamp_min`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.clamp_min(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                 '0.25]))',
                                 'tensor([2., 1.])'),),
                               False),
                 'clamp_min_': ('In-place ``torch.clamp_min``: writes the result into ``input`` '
                                "and returns it, as PyTorch's ``torch.clamp_min_``.",
                                (('torch.clamp_min_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                  '0.25]))',
                                  'tensor([2., 1.])'),),
                                False),
                 'clip': ("PyTorch's ``torch.clip`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.clip(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor([2., 1.])'),),
                          False),
                 'clip_': ('In-place ``torch.clip``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.clip_``.",
                           (('torch.clip_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([2., 1.])'),),
                           False),
                 'clone': ("PyTorch's ``torch.clone`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.clone(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                           False),
                 'column_stack': ("PyTorch's ``torch.column_stack`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.column_stack([torch.tensor([1.0, 2.0]), '
                                    'torch.tensor([3.0, 4.0])])',
                                    'tensor([[1., 3.],\n        [2., 4.]])'),),
                                  False),
                 'complex': ("PyTorch's ``torch.complex`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.complex(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                               'tensor([0.5000+2.0000j, 1.0000+0.2500j])'),),
                             False),
                 'concat': ("PyTorch's ``torch.concat`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.concat([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])])',
                              'tensor([1., 2., 3., 4.])'),),
                            False),
                 'concatenate': ("PyTorch's ``torch.concatenate`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.concatenate([torch.tensor([1.0, 2.0]), '
                                   'torch.tensor([3.0, 4.0])])',
                                   'tensor([1., 2., 3., 4.])'),),
                                 False),
                 'contiguous': ("PyTorch's ``torch.contiguous`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.contiguous(torch.tensor([0.5, 1.0]))',
                                  'tensor([0.5000, 1.0000])',
                                  'torch.tensor([0.5, 1.0]).contiguous()'),),
                                False),
                 'copy_': ('In-place ``torch.copy``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.copy_``.",
                           (('torch.copy_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([2.0000, 0.2500])',
                             'torch.tensor([0.5, 1.0]).copy_(torch.tensor([2.0, 0.25]))'),),
                           False),
                 'copysign': ("PyTorch's ``torch.copysign`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.copysign(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                '0.25]))',
                                'tensor([0.5000, 1.0000])'),),
                              False),
                 'cos': ("Elementwise ``cos`` of its tensor argument(s), as PyTorch's "
                         '``torch.cos``.',
                         (('torch.cos(torch.tensor([0.5, 1.0]))', 'tensor([0.8776, 0.5403])'),),
                         False),
                 'cos_': ('In-place ``torch.cos``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.cos_``.",
                          (('torch.cos_(torch.tensor([0.5, 1.0]))', 'tensor([0.8776, 0.5403])'),),
                          False),
                 'cosh': ("Elementwise ``cosh`` of its tensor argument(s), as PyTorch's "
                          '``torch.cosh``.',
                          (('torch.cosh(torch.tensor([0.5, 1.0]))', 'tensor([1.1276, 1.5431])'),),
                          False),
                 'cosh_': ('In-place ``torch.cosh``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.cosh_``.",
                           (('torch.cosh_(torch.tensor([0.5, 1.0]))', 'tensor([1.1276, 1.5431])'),),
                           False),
                 'cosine_similarity': ("PyTorch's ``torch.cosine_similarity`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.cosine_similarity(torch.tensor([[2.0, 1.0], [1.0, '
                                         '3.0]]), torch.tensor([[1.0, 0.0], [2.0, 1.0]]))',
                                         'tensor([0.8944, 0.7071])'),),
                                       False),
                 'count_nonzero': ("PyTorch's ``torch.count_nonzero`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.count_nonzero(torch.tensor([0.5, 1.0]))',
                                     'tensor(2)'),),
                                   False),
                 'cross': ("PyTorch's ``torch.cross`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, '
                             '0.0]), dim=0)',
                             'tensor([0., 0., 1.])'),),
                           False),
                 'cummax': ("PyTorch's ``torch.cummax`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.cummax(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                              'torch.return_types.cummax(\n'
                              'values=tensor([[1., 2.],\n'
                              '        [3., 4.]]),\n'
                              'indices=tensor([[0, 1],\n'
                              '        [0, 1]]))'),),
                            False),
                 'cummin': ("PyTorch's ``torch.cummin`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.cummin(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                              'torch.return_types.cummin(\n'
                              'values=tensor([[1., 1.],\n'
                              '        [3., 3.]]),\n'
                              'indices=tensor([[0, 0],\n'
                              '        [0, 0]]))'),),
                            False),
                 'cumprod': ("PyTorch's ``torch.cumprod`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.cumprod(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                               'tensor([[ 1.,  2.],\n        [ 3., 12.]])'),),
                             False),
                 'cumsum': ("PyTorch's ``torch.cumsum`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.cumsum(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                              'tensor([[1., 3.],\n        [3., 7.]])'),),
                            False),
                 'deg2rad': ("PyTorch's ``torch.deg2rad`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.deg2rad(torch.tensor([0.5, 1.0]))',
                               'tensor([0.0087, 0.0175])'),),
                             False),
                 'det': ("PyTorch's ``torch.det`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.det(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))', 'tensor(5.)'),),
                         False),
                 'detach': ("PyTorch's ``torch.detach`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.detach(torch.tensor([0.5, 1.0]))',
                              'tensor([0.5000, 1.0000])'),),
                            False),
                 'detach_': ('In-place ``torch.detach``: writes the result into ``input`` and '
                             "returns it, as PyTorch's ``torch.detach_``.",
                             (('torch.detach_(torch.tensor([0.5, 1.0]))',
                               'tensor([0.5000, 1.0000])'),),
                             False),
                 'diag': ("PyTorch's ``torch.diag`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.diag(torch.tensor([0.5, 1.0]))',
                            'tensor([[0.5000, 0.0000],\n        [0.0000, 1.0000]])'),),
                          False),
                 'diag_embed': ("PyTorch's ``torch.diag_embed`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.diag_embed(torch.tensor([0.5, 1.0]))',
                                  'tensor([[0.5000, 0.0000],\n        [0.0000, 1.0000]])'),),
                                False),
                 'diagflat': ("PyTorch's ``torch.diagflat`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.diagflat(torch.tensor([0.5, 1.0]))',
                                'tensor([[0.5000, 0.0000],\n        [0.0000, 1.0000]])'),),
                              False),
                 'diagonal': ("PyTorch's ``torch.diagonal`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.diagonal(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                'tensor([2., 3.])'),),
                              False),
                 'diff': ("PyTorch's ``torch.diff`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.diff(torch.tensor([0.5, 1.0]))', 'tensor([0.5000])'),),
                          False),
                 'dist': ("PyTorch's ``torch.dist`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.dist(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor(1.6771)'),),
                          False),
                 'div': ("Elementwise ``divide`` of its tensor argument(s), as PyTorch's "
                         '``torch.div``.',
                         (('torch.div(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                           'tensor([0.2500, 4.0000])'),),
                         False),
                 'divide': ("Elementwise ``divide`` of its tensor argument(s), as PyTorch's "
                            '``torch.divide``.',
                            (('torch.divide(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                              'tensor([0.2500, 4.0000])'),),
                            False),
                 'dot': ("PyTorch's ``torch.dot`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.dot(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                           'tensor(1.2500)'),),
                         False),
                 'dropout': ("PyTorch's ``torch.dropout`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.dropout(torch.ones(4), 0.0, True)',
                               'tensor([1., 1., 1., 1.])'),),
                             False),
                 'dstack': ("PyTorch's ``torch.dstack`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.dstack([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])])',
                              'tensor([[[1., 3.],\n         [2., 4.]]])'),),
                            False),
                 'einsum': ("PyTorch's ``torch.einsum`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (("torch.einsum('ij->ji', torch.tensor([[1.0, 2.0], [3.0, 4.0]]))",
                              'tensor([[1., 3.],\n        [2., 4.]])'),),
                            False),
                 'empty': ("PyTorch's ``torch.empty`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.empty(2, 3).shape', 'torch.Size([2, 3])'),),
                           False),
                 'empty_like': ("PyTorch's ``torch.empty_like`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.empty_like(torch.zeros(2, 3)).shape',
                                  'torch.Size([2, 3])'),),
                                False),
                 'empty_strided': ("PyTorch's ``torch.empty_strided`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.empty_strided((2, 3), (3, 1)).shape',
                                     'torch.Size([2, 3])'),),
                                   False),
                 'eq': ("Elementwise ``equal`` of its tensor argument(s), as PyTorch's "
                        '``torch.eq``.',
                        (('torch.eq(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                          'tensor([False, False])'),),
                        False),
                 'equal': ("PyTorch's ``torch.equal`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.equal(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'False'),),
                           False),
                 'erf': ("Elementwise ``erf`` of its tensor argument(s), as PyTorch's "
                         '``torch.erf``.',
                         (('torch.erf(torch.tensor([0.5, 1.0]))', 'tensor([0.5205, 0.8427])'),),
                         False),
                 'erf_': ('In-place ``torch.erf``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.erf_``.",
                          (('torch.erf_(torch.tensor([0.5, 1.0]))', 'tensor([0.5205, 0.8427])'),),
                          False),
                 'erfc': ("Elementwise ``erfc`` of its tensor argument(s), as PyTorch's "
                          '``torch.erfc``.',
                          (('torch.erfc(torch.tensor([0.5, 1.0]))', 'tensor([0.4795, 0.1573])'),),
                          False),
                 'erfc_': ('In-place ``torch.erfc``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.erfc_``.",
                           (('torch.erfc_(torch.tensor([0.5, 1.0]))', 'tensor([0.4795, 0.1573])'),),
                           False),
                 'erfinv': ("Elementwise ``erfinv`` of its tensor argument(s), as PyTorch's "
                            '``torch.erfinv``.',
                            (('torch.erfinv(torch.tensor([0.5, 1.0]))',
                              'tensor([0.4769,    inf])'),),
                            False),
                 'erfinv_': ('In-place ``torch.erfinv``: writes the result into ``input`` and '
                             "returns it, as PyTorch's ``torch.erfinv_``.",
                             (('torch.erfinv_(torch.tensor([0.5, 1.0]))',
                               'tensor([0.4769,    inf])',
                               'torch.tensor([0.5, 1.0]).erfinv_()'),),
                             False),
                 'exp': ("Elementwise ``exp`` of its tensor argument(s), as PyTorch's "
                         '``torch.exp``.',
                         (('torch.exp(torch.tensor([0.5, 1.0]))', 'tensor([1.6487, 2.7183])'),),
                         False),
                 'exp2': ("Elementwise ``exp2`` of its tensor argument(s), as PyTorch's "
                          '``torch.exp2``.',
                          (('torch.exp2(torch.tensor([0.5, 1.0]))', 'tensor([1.4142, 2.0000])'),),
                          False),
                 'exp2_': ('In-place ``torch.exp2``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.exp2_``.",
                           (('torch.exp2_(torch.tensor([0.5, 1.0]))', 'tensor([1.4142, 2.0000])'),),
                           False),
                 'exp_': ('In-place ``torch.exp``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.exp_``.",
                          (('torch.exp_(torch.tensor([0.5, 1.0]))', 'tensor([1.6487, 2.7183])'),),
                          False),
                 'expand': ("PyTorch's ``torch.expand`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.tensor([1.0, 2.0]).expand(2, 2)',
                              'tensor([[1., 2.],\n        [1., 2.]])'),),
                            False),
                 'expand_as': ("PyTorch's ``torch.expand_as`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.expand_as(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                 '0.25]))',
                                 'tensor([0.5000, 1.0000])',
                                 'torch.tensor([0.5, 1.0]).expand_as(torch.tensor([2.0, 0.25]))'),),
                               False),
                 'expm1': ("Elementwise ``expm1`` of its tensor argument(s), as PyTorch's "
                           '``torch.expm1``.',
                           (('torch.expm1(torch.tensor([0.5, 1.0]))', 'tensor([0.6487, 1.7183])'),),
                           False),
                 'expm1_': ('In-place ``torch.expm1``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.expm1_``.",
                            (('torch.expm1_(torch.tensor([0.5, 1.0]))',
                              'tensor([0.6487, 1.7183])'),),
                            False),
                 'eye': ("PyTorch's ``torch.eye`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.eye(2, 3)', 'tensor([[1., 0., 0.],\n        [0., 1., 0.]])'),),
                         False),
                 'fill_': ('In-place ``torch.fill``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.fill_``.",
                           (('torch.fill_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                             'tensor([[1., 1.],\n        [1., 1.]])'),),
                           False),
                 'fix': ("Elementwise ``trunc`` of its tensor argument(s), as PyTorch's "
                         '``torch.fix``.',
                         (('torch.fix(torch.tensor([0.5, 1.0]))', 'tensor([0., 1.])'),),
                         False),
                 'fix_': ('In-place ``torch.fix``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.fix_``.",
                          (('torch.fix_(torch.tensor([0.5, 1.0]))', 'tensor([0., 1.])'),),
                          False),
                 'flatten': ("PyTorch's ``torch.flatten`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.flatten(torch.tensor([0.5, 1.0]))',
                               'tensor([0.5000, 1.0000])'),),
                             False),
                 'flip': ("PyTorch's ``torch.flip`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.flip(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), [1, 0])',
                            'tensor([[4., 3.],\n        [2., 1.]])'),),
                          False),
                 'fliplr': ("PyTorch's ``torch.fliplr`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.fliplr(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                              'tensor([[1., 2.],\n        [3., 1.]])'),),
                            False),
                 'flipud': ("PyTorch's ``torch.flipud`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.flipud(torch.tensor([0.5, 1.0]))',
                              'tensor([1.0000, 0.5000])'),),
                            False),
                 'float_power': ("PyTorch's ``torch.float_power`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.float_power(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                   '0.25]))',
                                   'tensor([0.2500, 1.0000], dtype=torch.float64)'),),
                                 False),
                 'floor': ("Elementwise ``floor`` of its tensor argument(s), as PyTorch's "
                           '``torch.floor``.',
                           (('torch.floor(torch.tensor([0.5, 1.0]))', 'tensor([0., 1.])'),),
                           False),
                 'floor_': ('In-place ``torch.floor``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.floor_``.",
                            (('torch.floor_(torch.tensor([0.5, 1.0]))', 'tensor([0., 1.])'),),
                            False),
                 'floor_divide': ('Elementwise ``floor_divide`` of its tensor argument(s), as '
                                  "PyTorch's ``torch.floor_divide``.",
                                  (('torch.floor_divide(torch.tensor([0.5, 1.0]), '
                                    'torch.tensor([2.0, 0.25]))',
                                    'tensor([0., 4.])'),),
                                  False),
                 'fmax': ("Elementwise ``fmax`` of its tensor argument(s), as PyTorch's "
                          '``torch.fmax``.',
                          (('torch.fmax(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor([2., 1.])'),),
                          False),
                 'fmin': ("Elementwise ``fmin`` of its tensor argument(s), as PyTorch's "
                          '``torch.fmin``.',
                          (('torch.fmin(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor([0.5000, 0.2500])'),),
                          False),
                 'fmod': ("Elementwise ``fmod`` of its tensor argument(s), as PyTorch's "
                          '``torch.fmod``.',
                          (('torch.fmod(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor([0.5000, 0.0000])'),),
                          False),
                 'frac': ("PyTorch's ``torch.frac`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.frac(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 0.0000])'),),
                          False),
                 'frac_': ('In-place ``torch.frac``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.frac_``.",
                           (('torch.frac_(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 0.0000])'),),
                           False),
                 'from_numpy': ("PyTorch's ``torch.from_numpy`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('import numpy as np', ''),
                                 ('torch.from_numpy(np.array([1.0, 2.0]))',
                                  'tensor([1., 2.], dtype=torch.float64)')),
                                False),
                 'frombuffer': ("PyTorch's ``torch.frombuffer`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (("torch.frombuffer(bytearray(b'\\x01\\x02'), dtype=torch.uint8)",
                                  'tensor([1, 2], dtype=torch.uint8)'),),
                                False),
                 'full': ("PyTorch's ``torch.full`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.full((2,), 1.5)', 'tensor([1.5000, 1.5000])'),),
                          False),
                 'full_like': ("PyTorch's ``torch.full_like`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.full_like(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                 'tensor([[1., 1.],\n        [1., 1.]])'),),
                               False),
                 'gather': ("PyTorch's ``torch.gather`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.gather(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1, '
                              'torch.tensor([[1], [0]]))',
                              'tensor([[2.],\n        [3.]])'),),
                            False),
                 'gcd': ("PyTorch's ``torch.gcd`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.gcd(torch.tensor([5, 3]), torch.tensor([3, 2]))',
                           'tensor([1, 1])'),),
                         False),
                 'ge': ("Elementwise ``greater_equal`` of its tensor argument(s), as PyTorch's "
                        '``torch.ge``.',
                        (('torch.ge(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                          'tensor([False,  True])'),),
                        False),
                 'ger': ("PyTorch's ``torch.ger`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.ger(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                           'tensor([[1.0000, 0.1250],\n        [2.0000, 0.2500]])'),),
                         False),
                 'get_default_device': ("PyTorch's ``torch.get_default_device`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.get_default_device()', "device(type='cpu')"),),
                                        False),
                 'get_default_dtype': ("PyTorch's ``torch.get_default_dtype`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.get_default_dtype()', 'torch.float32'),),
                                       False),
                 'get_num_interop_threads': ("PyTorch's ``torch.get_num_interop_threads`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.get_num_interop_threads() >= 1', 'True'),),
                                             False),
                 'get_num_threads': ("PyTorch's ``torch.get_num_threads`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.get_num_threads() >= 1', 'True'),),
                                     False),
                 'get_printoptions': ("PyTorch's ``torch.get_printoptions`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (("torch.get_printoptions()['precision']",
                                        '4',
                                        'torch._tensor_str.PRINT_OPTS.precision'),),
                                      False),
                 'get_rng_state': ("PyTorch's ``torch.get_rng_state`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.get_rng_state().dtype', 'torch.uint8'),),
                                   False),
                 'greater': ("Elementwise ``greater`` of its tensor argument(s), as PyTorch's "
                             '``torch.greater``.',
                             (('torch.greater(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                               'tensor([False,  True])'),),
                             False),
                 'greater_equal': ('Elementwise ``greater_equal`` of its tensor argument(s), as '
                                   "PyTorch's ``torch.greater_equal``.",
                                   (('torch.greater_equal(torch.tensor([0.5, 1.0]), '
                                     'torch.tensor([2.0, 0.25]))',
                                     'tensor([False,  True])'),),
                                   False),
                 'gt': ("Elementwise ``greater`` of its tensor argument(s), as PyTorch's "
                        '``torch.gt``.',
                        (('torch.gt(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                          'tensor([False,  True])'),),
                        False),
                 'heaviside': ("PyTorch's ``torch.heaviside`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.heaviside(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                 '0.25]))',
                                 'tensor([1., 1.])'),),
                               False),
                 'histc': ("PyTorch's ``torch.histc`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.histc(torch.tensor([0.5, 1.0]))',
                             'tensor([1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                             '0., 0., 0.,\n'
                             '        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                             '0., 0., 0.,\n'
                             '        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                             '0., 0., 0.,\n'
                             '        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                             '0., 0., 0.,\n'
                             '        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                             '0., 0., 0.,\n'
                             '        0., 0., 0., 0., 0., 0., 0., 0., 0., 1.])'),),
                           False),
                 'hstack': ("PyTorch's ``torch.hstack`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.hstack([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])])',
                              'tensor([1., 2., 3., 4.])'),),
                            False),
                 'hypot': ("Elementwise ``hypot`` of its tensor argument(s), as PyTorch's "
                           '``torch.hypot``.',
                           (('torch.hypot(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([2.0616, 1.0308])'),),
                           False),
                 'imag': ("Elementwise ``imag`` of its tensor argument(s), as PyTorch's "
                          '``torch.imag``.',
                          (('torch.imag(torch.tensor([1.0 + 2.0j]))', 'tensor([2.])'),),
                          False),
                 'index_add': ("PyTorch's ``torch.index_add`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.index_add(torch.zeros(3), 0, torch.tensor([0, 2]), '
                                 'torch.tensor([1.0, 2.0]))',
                                 'tensor([1., 0., 2.])'),),
                               False),
                 'index_add_': ('In-place ``torch.index_add``: writes the result into ``input`` '
                                "and returns it, as PyTorch's ``torch.index_add_``.",
                                (('torch.index_add_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, '
                                  'torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, 8.0]]))',
                                  'tensor([[ 8., 10.],\n        [ 8., 10.]])',
                                  'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_add_(0, '
                                  'torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, '
                                  '8.0]]))'),),
                                False),
                 'index_copy': ("PyTorch's ``torch.index_copy`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.index_copy(torch.zeros(3), 0, torch.tensor([0, 2]), '
                                  'torch.tensor([1.0, 2.0]))',
                                  'tensor([1., 0., 2.])'),),
                                False),
                 'index_copy_': ('In-place ``torch.index_copy``: writes the result into ``input`` '
                                 "and returns it, as PyTorch's ``torch.index_copy_``.",
                                 (('torch.index_copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, '
                                   'torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, 8.0]]))',
                                   'tensor([[7., 8.],\n        [5., 6.]])',
                                   'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_copy_(0, '
                                   'torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, '
                                   '8.0]]))'),),
                                 False),
                 'index_fill': ("PyTorch's ``torch.index_fill`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.index_fill(torch.zeros(3), 0, torch.tensor([0, 2]), 5.0)',
                                  'tensor([5., 0., 5.])'),),
                                False),
                 'index_fill_': ('In-place ``torch.index_fill``: writes the result into ``input`` '
                                 "and returns it, as PyTorch's ``torch.index_fill_``.",
                                 (('torch.index_fill_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, '
                                   'torch.tensor([1]), 5.0)',
                                   'tensor([[1., 2.],\n        [5., 5.]])',
                                   'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_fill_(0, '
                                   'torch.tensor([1]), 5.0)'),),
                                 False),
                 'index_put': ("PyTorch's ``torch.index_put`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.index_put(torch.zeros(3), (torch.tensor([1]),), '
                                 'torch.tensor([5.0]))',
                                 'tensor([0., 5., 0.])'),),
                               False),
                 'index_put_': ('In-place ``torch.index_put``: writes the result into ``input`` '
                                "and returns it, as PyTorch's ``torch.index_put_``.",
                                (('torch.index_put_(torch.tensor([0.5, 1.0]), '
                                  '(torch.tensor([1]),), torch.tensor([5.0]))',
                                  'tensor([0.5000, 5.0000])'),),
                                False),
                 'index_select': ("PyTorch's ``torch.index_select`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.index_select(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, '
                                    'torch.tensor([1, 0]))',
                                    'tensor([[3., 4.],\n        [1., 2.]])'),),
                                  False),
                 'initial_seed': ("PyTorch's ``torch.initial_seed`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.manual_seed(3).initial_seed()', '3'),
                                   ('torch.initial_seed()', '3')),
                                  False),
                 'inner': ("PyTorch's ``torch.inner`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.inner(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor(1.2500)'),),
                           False),
                 'inverse': ("PyTorch's ``torch.inverse`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.inverse(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                               'tensor([[ 0.6000, -0.2000],\n        [-0.2000,  0.4000]])'),),
                             False),
                 'is_complex': ("PyTorch's ``torch.is_complex`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.is_complex(torch.tensor([0.5, 1.0]))', 'False'),),
                                False),
                 'is_floating_point': ("PyTorch's ``torch.is_floating_point`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.is_floating_point(torch.tensor([0.5, 1.0]))',
                                         'True'),),
                                       False),
                 'is_grad_enabled': ("PyTorch's ``torch.is_grad_enabled`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.is_grad_enabled()', 'True'),),
                                     False),
                 'is_inference_mode_enabled': ("PyTorch's ``torch.is_inference_mode_enabled`` "
                                               "(same arguments and results), computed by fgrad's "
                                               'primitives.',
                                               (('torch.is_inference_mode_enabled()', 'False'),),
                                               False),
                 'is_nonzero': ("PyTorch's ``torch.is_nonzero`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.is_nonzero(torch.tensor([1.0]))', 'True'),),
                                False),
                 'is_storage': ("PyTorch's ``torch.is_storage`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.is_storage(torch.tensor([0.5, 1.0]))', 'False'),),
                                False),
                 'is_tensor': ("PyTorch's ``torch.is_tensor`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.is_tensor(torch.tensor([1.0]))', 'True'),),
                               False),
                 'isclose': ("PyTorch's ``torch.isclose`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.isclose(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                               'tensor([False, False])'),),
                             False),
                 'isfinite': ("Elementwise ``isfinite`` of its tensor argument(s), as PyTorch's "
                              '``torch.isfinite``.',
                              (('torch.isfinite(torch.tensor([0.5, 1.0]))',
                                'tensor([True, True])'),),
                              False),
                 'isinf': ("Elementwise ``isinf`` of its tensor argument(s), as PyTorch's "
                           '``torch.isinf``.',
                           (('torch.isinf(torch.tensor([0.5, 1.0]))', 'tensor([False, False])'),),
                           False),
                 'isnan': ("Elementwise ``isnan`` of its tensor argument(s), as PyTorch's "
                           '``torch.isnan``.',
                           (('torch.isnan(torch.tensor([0.5, 1.0]))', 'tensor([False, False])'),),
                           False),
                 'isneginf': ("PyTorch's ``torch.isneginf`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.isneginf(torch.tensor([0.5, 1.0]))',
                                'tensor([False, False])'),),
                              False),
                 'isposinf': ("PyTorch's ``torch.isposinf`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.isposinf(torch.tensor([0.5, 1.0]))',
                                'tensor([False, False])'),),
                              False),
                 'isreal': ("PyTorch's ``torch.isreal`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.isreal(torch.tensor([0.5, 1.0]))', 'tensor([True, True])'),),
                            False),
                 'kron': ("PyTorch's ``torch.kron`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.kron(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor([1.0000, 0.1250, 2.0000, 0.2500])'),),
                          False),
                 'kthvalue': ("PyTorch's ``torch.kthvalue`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.kthvalue(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                'torch.return_types.kthvalue(\n'
                                'values=tensor([1., 3.]),\n'
                                'indices=tensor([0, 0]))'),),
                              False),
                 'lcm': ("PyTorch's ``torch.lcm`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.lcm(torch.tensor([5, 3]), torch.tensor([3, 2]))',
                           'tensor([15,  6])'),),
                         False),
                 'ldexp': ("PyTorch's ``torch.ldexp`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.ldexp(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([2.0000, 1.1892])'),),
                           False),
                 'le': ("Elementwise ``less_equal`` of its tensor argument(s), as PyTorch's "
                        '``torch.le``.',
                        (('torch.le(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                          'tensor([ True, False])'),),
                        False),
                 'lerp': ("PyTorch's ``torch.lerp`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.lerp(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]), '
                            'torch.tensor([1.0, 2.0]))',
                            'tensor([ 2.0000, -0.5000])'),),
                          False),
                 'lerp_': ('In-place ``torch.lerp``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.lerp_``.",
                           (('torch.lerp_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]), '
                             'torch.tensor([1.0, 2.0]))',
                             'tensor([ 2.0000, -0.5000])',
                             'torch.tensor([0.5, 1.0]).lerp_(torch.tensor([2.0, 0.25]), '
                             'torch.tensor([1.0, 2.0]))'),),
                           False),
                 'less': ("Elementwise ``less`` of its tensor argument(s), as PyTorch's "
                          '``torch.less``.',
                          (('torch.less(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor([ True, False])'),),
                          False),
                 'less_equal': ('Elementwise ``less_equal`` of its tensor argument(s), as '
                                "PyTorch's ``torch.less_equal``.",
                                (('torch.less_equal(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                  '0.25]))',
                                  'tensor([ True, False])'),),
                                False),
                 'linspace': ("PyTorch's ``torch.linspace`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.linspace(0.0, 1.0, 3)',
                                'tensor([0.0000, 0.5000, 1.0000])'),),
                              False),
                 'log': ("Elementwise ``log`` of its tensor argument(s), as PyTorch's "
                         '``torch.log``.',
                         (('torch.log(torch.tensor([0.5, 1.0]))', 'tensor([-0.6931,  0.0000])'),),
                         False),
                 'log10': ("Elementwise ``log10`` of its tensor argument(s), as PyTorch's "
                           '``torch.log10``.',
                           (('torch.log10(torch.tensor([0.5, 1.0]))',
                             'tensor([-0.3010,  0.0000])'),),
                           False),
                 'log10_': ('In-place ``torch.log10``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.log10_``.",
                            (('torch.log10_(torch.tensor([0.5, 1.0]))',
                              'tensor([-0.3010,  0.0000])'),),
                            False),
                 'log1p': ("Elementwise ``log1p`` of its tensor argument(s), as PyTorch's "
                           '``torch.log1p``.',
                           (('torch.log1p(torch.tensor([0.5, 1.0]))', 'tensor([0.4055, 0.6931])'),),
                           False),
                 'log1p_': ('In-place ``torch.log1p``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.log1p_``.",
                            (('torch.log1p_(torch.tensor([0.5, 1.0]))',
                              'tensor([0.4055, 0.6931])'),),
                            False),
                 'log2': ("Elementwise ``log2`` of its tensor argument(s), as PyTorch's "
                          '``torch.log2``.',
                          (('torch.log2(torch.tensor([0.5, 1.0]))', 'tensor([-1.,  0.])'),),
                          False),
                 'log2_': ('In-place ``torch.log2``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.log2_``.",
                           (('torch.log2_(torch.tensor([0.5, 1.0]))', 'tensor([-1.,  0.])'),),
                           False),
                 'log_': ('In-place ``torch.log``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.log_``.",
                          (('torch.log_(torch.tensor([0.5, 1.0]))', 'tensor([-0.6931,  0.0000])'),),
                          False),
                 'log_softmax': ("PyTorch's ``torch.log_softmax`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.log_softmax(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                   'tensor([[-1.3133, -0.3133],\n        [-1.3133, -0.3133]])'),),
                                 False),
                 'logaddexp': ("Elementwise ``logaddexp`` of its tensor argument(s), as PyTorch's "
                               '``torch.logaddexp``.',
                               (('torch.logaddexp(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                 '0.25]))',
                                 'tensor([2.2014, 1.3869])'),),
                               False),
                 'logaddexp2': ('Elementwise ``logaddexp2`` of its tensor argument(s), as '
                                "PyTorch's ``torch.logaddexp2``.",
                                (('torch.logaddexp2(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                  '0.25]))',
                                  'tensor([2.4368, 1.6732])'),),
                                False),
                 'logcumsumexp': ("PyTorch's ``torch.logcumsumexp`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.logcumsumexp(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                    'tensor([[1.0000, 2.3133],\n        [3.0000, 4.3133]])'),),
                                  False),
                 'logdet': ("PyTorch's ``torch.logdet`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.logdet(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                              'tensor(1.6094)'),),
                            False),
                 'logical_and': ('Elementwise ``logical_and`` of its tensor argument(s), as '
                                 "PyTorch's ``torch.logical_and``.",
                                 (('torch.logical_and(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                   '0.25]))',
                                   'tensor([True, True])'),),
                                 False),
                 'logical_not': ('Elementwise ``logical_not`` of its tensor argument(s), as '
                                 "PyTorch's ``torch.logical_not``.",
                                 (('torch.logical_not(torch.tensor([0.5, 1.0]))',
                                   'tensor([False, False])'),),
                                 False),
                 'logical_or': ('Elementwise ``logical_or`` of its tensor argument(s), as '
                                "PyTorch's ``torch.logical_or``.",
                                (('torch.logical_or(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                  '0.25]))',
                                  'tensor([True, True])'),),
                                False),
                 'logical_xor': ('Elementwise ``logical_xor`` of its tensor argument(s), as '
                                 "PyTorch's ``torch.logical_xor``.",
                                 (('torch.logical_xor(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                   '0.25]))',
                                   'tensor([False, False])'),),
                                 False),
                 'logit': ("PyTorch's ``torch.logit`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.logit(torch.tensor([0.5, 1.0]))', 'tensor([0., inf])'),),
                           False),
                 'logit_': ('In-place ``torch.logit``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.logit_``.",
                            (('torch.logit_(torch.tensor([0.5, 1.0]))', 'tensor([0., inf])'),),
                            False),
                 'logspace': ("PyTorch's ``torch.logspace`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.logspace(0.0, 1.0, 3)',
                                'tensor([ 1.0000,  3.1623, 10.0000])'),),
                              False),
                 'logsumexp': ("PyTorch's ``torch.logsumexp`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.logsumexp(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                 'tensor([2.3133, 4.3133])'),),
                               False),
                 'lt': ("Elementwise ``less`` of its tensor argument(s), as PyTorch's "
                        '``torch.lt``.',
                        (('torch.lt(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                          'tensor([ True, False])'),),
                        False),
                 'lu_unpack': ("PyTorch's ``torch.lu_unpack`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('LU, pivots = torch.tensor([[3.0, 4.0], [1 / 3, 2 / 3]]), '
                                 'torch.tensor([2, 2], dtype=torch.int32)',
                                 ''),
                                ('torch.lu_unpack(LU, pivots).P',
                                 'tensor([[0., 1.],\n        [1., 0.]])')),
                               False),
                 'manual_seed': ("PyTorch's ``torch.manual_seed`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.manual_seed(0).initial_seed()', '0'),),
                                 False),
                 'masked_fill': ("PyTorch's ``torch.masked_fill`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.masked_fill(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), '
                                   'torch.tensor([[True, False], [False, True]]), 0.0)',
                                   'tensor([[0., 2.],\n        [3., 0.]])'),),
                                 False),
                 'masked_fill_': ('In-place ``torch.masked_fill``: writes the result into '
                                  "``input`` and returns it, as PyTorch's ``torch.masked_fill_``.",
                                  (('torch.masked_fill_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), '
                                    'torch.tensor([[True, False], [False, True]]), 0.0)',
                                    'tensor([[0., 2.],\n        [3., 0.]])',
                                    'torch.tensor([[1.0, 2.0], [3.0, '
                                    '4.0]]).masked_fill_(torch.tensor([[True, False], [False, '
                                    'True]]), 0.0)'),),
                                  False),
                 'masked_scatter': ("PyTorch's ``torch.masked_scatter`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.masked_scatter(torch.zeros(3), torch.tensor([True, '
                                      'False, True]), torch.tensor([1.0, 2.0]))',
                                      'tensor([1., 0., 2.])'),),
                                    False),
                 'masked_select': ("PyTorch's ``torch.masked_select`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.masked_select(torch.tensor([True, False]), '
                                     'torch.tensor([True, True]))',
                                     'tensor([ True, False])'),),
                                   False),
                 'matmul': ("PyTorch's ``torch.matmul`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.matmul(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                              'tensor(1.2500)'),),
                            False),
                 'matrix_power': ("PyTorch's ``torch.matrix_power`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.matrix_power(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                    'tensor([[1., 2.],\n        [3., 4.]])'),),
                                  False),
                 'max': ("PyTorch's ``torch.max`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.max(torch.tensor([0.5, 1.0]))', 'tensor(1.)'),),
                         False),
                 'maximum': ("Elementwise ``maximum`` of its tensor argument(s), as PyTorch's "
                             '``torch.maximum``.',
                             (('torch.maximum(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                               'tensor([2., 1.])'),),
                             False),
                 'mean': ("Elementwise ``mean`` of its tensor argument(s), as PyTorch's "
                          '``torch.mean``.',
                          (('torch.mean(torch.tensor([0.5, 1.0]))', 'tensor(0.7500)'),),
                          False),
                 'median': ("PyTorch's ``torch.median`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.median(torch.tensor([0.5, 1.0]))', 'tensor(0.5000)'),),
                            False),
                 'meshgrid': ("PyTorch's ``torch.meshgrid`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.meshgrid(torch.tensor([0.5, 1.0]))',
                                '(tensor([0.5000, 1.0000]),)'),),
                              False),
                 'min': ("PyTorch's ``torch.min`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.min(torch.tensor([0.5, 1.0]))', 'tensor(0.5000)'),),
                         False),
                 'minimum': ("Elementwise ``minimum`` of its tensor argument(s), as PyTorch's "
                             '``torch.minimum``.',
                             (('torch.minimum(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                               'tensor([0.5000, 0.2500])'),),
                             False),
                 'mm': ("PyTorch's ``torch.mm`` (same arguments and results), computed by fgrad's "
                        'primitives.',
                        (('torch.mm(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), torch.tensor([[1.0, '
                          '0.0], [2.0, 1.0]]))',
                          'tensor([[4., 1.],\n        [7., 3.]])'),),
                        False),
                 'mode': ("PyTorch's ``torch.mode`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.mode(torch.tensor([0.5, 1.0]))',
                            'torch.return_types.mode(\n'
                            'values=tensor(0.5000),\n'
                            'indices=tensor(0))'),),
                          False),
                 'moveaxis': ("PyTorch's ``torch.moveaxis`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.moveaxis(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                'tensor([[1., 3.],\n        [2., 4.]])'),),
                              False),
                 'movedim': ("PyTorch's ``torch.movedim`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.movedim(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                               'tensor([[1., 3.],\n        [2., 4.]])'),),
                             False),
                 'msort': ("PyTorch's ``torch.msort`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.msort(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                           False),
                 'mul': ("Elementwise ``multiply`` of its tensor argument(s), as PyTorch's "
                         '``torch.mul``.',
                         (('torch.mul(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                           'tensor([1.0000, 0.2500])'),),
                         False),
                 'multinomial': ("PyTorch's ``torch.multinomial`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.multinomial(torch.tensor([0.0, 1.0]), 2, '
                                   'replacement=True)',
                                   'tensor([1, 1])'),),
                                 False),
                 'multiply': ("Elementwise ``multiply`` of its tensor argument(s), as PyTorch's "
                              '``torch.multiply``.',
                              (('torch.multiply(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                '0.25]))',
                                'tensor([1.0000, 0.2500])'),),
                              False),
                 'mv': ("PyTorch's ``torch.mv`` (same arguments and results), computed by fgrad's "
                        'primitives.',
                        (('torch.mv(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), torch.tensor([1.0, '
                          '2.0]))',
                          'tensor([4., 7.])'),),
                        False),
                 'mvlgamma': ("PyTorch's ``torch.mvlgamma`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.mvlgamma(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                'tensor([[0.0000, 0.0000],\n        [0.6931, 1.7918]])'),),
                              False),
                 'nan_to_num': ("PyTorch's ``torch.nan_to_num`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.nan_to_num(torch.tensor([0.5, 1.0]))',
                                  'tensor([0.5000, 1.0000])'),),
                                False),
                 'nanmean': ("PyTorch's ``torch.nanmean`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.nanmean(torch.tensor([0.5, 1.0]))', 'tensor(0.7500)'),),
                             False),
                 'nanmedian': ("PyTorch's ``torch.nanmedian`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.nanmedian(torch.tensor([0.5, 1.0]))', 'tensor(0.5000)'),),
                               False),
                 'nanquantile': ("PyTorch's ``torch.nanquantile`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.nanquantile(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                   'tensor(4.)'),),
                                 False),
                 'nansum': ("PyTorch's ``torch.nansum`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.nansum(torch.tensor([0.5, 1.0]))', 'tensor(1.5000)'),),
                            False),
                 'narrow': ("PyTorch's ``torch.narrow`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.narrow(torch.tensor([1.0, 2.0, 3.0]), 0, 1, 2)',
                              'tensor([2., 3.])'),),
                            False),
                 'ne': ("Elementwise ``not_equal`` of its tensor argument(s), as PyTorch's "
                        '``torch.ne``.',
                        (('torch.ne(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                          'tensor([True, True])'),),
                        False),
                 'neg': ("Elementwise ``negative`` of its tensor argument(s), as PyTorch's "
                         '``torch.neg``.',
                         (('torch.neg(torch.tensor([0.5, 1.0]))', 'tensor([-0.5000, -1.0000])'),),
                         False),
                 'neg_': ('In-place ``torch.neg``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.neg_``.",
                          (('torch.neg_(torch.tensor([0.5, 1.0]))', 'tensor([-0.5000, -1.0000])'),),
                          False),
                 'negative': ("Elementwise ``negative`` of its tensor argument(s), as PyTorch's "
                              '``torch.negative``.',
                              (('torch.negative(torch.tensor([0.5, 1.0]))',
                                'tensor([-0.5000, -1.0000])'),),
                              False),
                 'negative_': ('In-place ``torch.negative``: writes the result into ``input`` and '
                               "returns it, as PyTorch's ``torch.negative_``.",
                               (('torch.negative_(torch.tensor([0.5, 1.0]))',
                                 'tensor([-0.5000, -1.0000])'),),
                               False),
                 'new_empty': ("PyTorch's ``torch.new_empty`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.new_empty(torch.tensor([1.0]), (2,)).shape',
                                 'torch.Size([2])',
                                 'torch.tensor([1.0]).new_empty((2,)).shape'),),
                               False),
                 'new_full': ("PyTorch's ``torch.new_full`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.new_full(torch.tensor([0.5, 1.0]), (2,), 1.5)',
                                'tensor([1.5000, 1.5000])',
                                'torch.tensor([0.5, 1.0]).new_full((2,), 1.5)'),),
                              False),
                 'new_ones': ("PyTorch's ``torch.new_ones`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.new_ones(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                'tensor([1.])',
                                'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).new_ones(1)'),),
                              False),
                 'new_tensor': ("PyTorch's ``torch.new_tensor`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.new_tensor(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                  '0.25]))',
                                  'tensor([2.0000, 0.2500])',
                                  'torch.tensor([0.5, 1.0]).new_tensor(torch.tensor([2.0, '
                                  '0.25]))'),),
                                False),
                 'new_zeros': ("PyTorch's ``torch.new_zeros`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.new_zeros(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                 'tensor([0.])',
                                 'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).new_zeros(1)'),),
                               False),
                 'nonzero': ("PyTorch's ``torch.nonzero`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.nonzero(torch.tensor([0.5, 1.0]))',
                               'tensor([[0],\n        [1]])'),),
                             False),
                 'norm': ("PyTorch's ``torch.norm`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.norm(torch.tensor([0.5, 1.0]))', 'tensor(1.1180)'),),
                          False),
                 'normal': ("PyTorch's ``torch.normal`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.normal(torch.zeros(2, 3), 1.0).shape', 'torch.Size([2, 3])'),),
                            False),
                 'not_equal': ("Elementwise ``not_equal`` of its tensor argument(s), as PyTorch's "
                               '``torch.not_equal``.',
                               (('torch.not_equal(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                 '0.25]))',
                                 'tensor([True, True])'),),
                               False),
                 'numel': ("PyTorch's ``torch.numel`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.numel(torch.zeros(2, 3))', '6'),),
                           False),
                 'ones': ("PyTorch's ``torch.ones`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.ones(2, 3)', 'tensor([[1., 1., 1.],\n        [1., 1., 1.]])'),),
                          False),
                 'ones_like': ("PyTorch's ``torch.ones_like`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.ones_like(torch.tensor([0.5, 1.0]))', 'tensor([1., 1.])'),),
                               False),
                 'outer': ("PyTorch's ``torch.outer`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.outer(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([[1.0000, 0.1250],\n        [2.0000, 0.2500]])'),),
                           False),
                 'permute': ("PyTorch's ``torch.permute`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.permute(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), [1, 0])',
                               'tensor([[1., 3.],\n        [2., 4.]])'),),
                             False),
                 'pinverse': ("PyTorch's ``torch.pinverse`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.pinverse(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                'tensor([[ 0.6000, -0.2000],\n        [-0.2000,  0.4000]])'),),
                              False),
                 'poisson': ("PyTorch's ``torch.poisson`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.poisson(torch.zeros(3))', 'tensor([0., 0., 0.])'),),
                             False),
                 'polar': ("PyTorch's ``torch.polar`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.polar(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([-0.2081+0.4546j,  0.9689+0.2474j])'),),
                           False),
                 'positive': ("PyTorch's ``torch.positive`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.positive(torch.tensor([0.5, 1.0]))',
                                'tensor([0.5000, 1.0000])'),),
                              False),
                 'pow': ("Elementwise ``power`` of its tensor argument(s), as PyTorch's "
                         '``torch.pow``.',
                         (('torch.pow(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                           'tensor([0.2500, 1.0000])'),),
                         False),
                 'prod': ("Elementwise ``prod`` of its tensor argument(s), as PyTorch's "
                          '``torch.prod``.',
                          (('torch.prod(torch.tensor([0.5, 1.0]))', 'tensor(0.5000)'),),
                          False),
                 'promote_types': ("PyTorch's ``torch.promote_types`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.promote_types(torch.float32, torch.int64)',
                                     'torch.float32'),),
                                   False),
                 'put_': ('In-place ``torch.put``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.put_``.",
                          (('torch.put_(torch.tensor([0.5, 1.0]), torch.tensor([1]), '
                            'torch.tensor([5.0]))',
                            'tensor([0.5000, 5.0000])',
                            'torch.tensor([0.5, 1.0]).put_(torch.tensor([1]), '
                            'torch.tensor([5.0]))'),),
                          False),
                 'qr': ("PyTorch's ``torch.qr`` (same arguments and results), computed by fgrad's "
                        'primitives.',
                        (('torch.qr(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                          'torch.return_types.qr(\n'
                          'Q=tensor([[-0.8944, -0.4472],\n'
                          '        [-0.4472,  0.8944]]),\n'
                          'R=tensor([[-2.2361, -2.2361],\n'
                          '        [ 0.0000,  2.2361]]))'),),
                        True),
                 'quantile': ("PyTorch's ``torch.quantile`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.quantile(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                'tensor(4.)'),),
                              False),
                 'rad2deg': ("PyTorch's ``torch.rad2deg`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.rad2deg(torch.tensor([0.5, 1.0]))',
                               'tensor([28.6479, 57.2958])'),),
                             False),
                 'rand': ("PyTorch's ``torch.rand`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.rand(2, 3).shape', 'torch.Size([2, 3])'),),
                          False),
                 'rand_like': ("PyTorch's ``torch.rand_like`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.rand_like(torch.zeros(2, 3)).shape',
                                 'torch.Size([2, 3])'),),
                               False),
                 'randint': ("PyTorch's ``torch.randint`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.randint(0, 5, (2, 3)).shape', 'torch.Size([2, 3])'),),
                             False),
                 'randint_like': ("PyTorch's ``torch.randint_like`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.randint_like(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                    'tensor([[0., 0.],\n        [0., 0.]])'),),
                                  False),
                 'randn': ("PyTorch's ``torch.randn`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.randn(2, 3).shape', 'torch.Size([2, 3])'),),
                           False),
                 'randn_like': ("PyTorch's ``torch.randn_like`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.randn_like(torch.zeros(2, 3)).shape',
                                  'torch.Size([2, 3])'),),
                                False),
                 'randperm': ("PyTorch's ``torch.randperm`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.randperm(4).sort().values', 'tensor([0, 1, 2, 3])'),),
                              False),
                 'range': ("PyTorch's ``torch.range`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.range(2, 3)', 'tensor([2., 3.])'),),
                           False),
                 'ravel': ("PyTorch's ``torch.ravel`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.ravel(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                           False),
                 'real': ("Elementwise ``real`` of its tensor argument(s), as PyTorch's "
                          '``torch.real``.',
                          (('torch.real(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                          False),
                 'reciprocal': ("PyTorch's ``torch.reciprocal`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.reciprocal(torch.tensor([0.5, 1.0]))',
                                  'tensor([2., 1.])'),),
                                False),
                 'reciprocal_': ('In-place ``torch.reciprocal``: writes the result into ``input`` '
                                 "and returns it, as PyTorch's ``torch.reciprocal_``.",
                                 (('torch.reciprocal_(torch.tensor([0.5, 1.0]))',
                                   'tensor([2., 1.])'),),
                                 False),
                 'relu': ("PyTorch's ``torch.relu`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.relu(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                          False),
                 'relu_': ('In-place ``torch.relu``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.relu_``.",
                           (('torch.relu_(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                           False),
                 'remainder': ("Elementwise ``mod`` of its tensor argument(s), as PyTorch's "
                               '``torch.remainder``.',
                               (('torch.remainder(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                 '0.25]))',
                                 'tensor([0.5000, 0.0000])'),),
                               False),
                 'renorm': ("PyTorch's ``torch.renorm`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.renorm(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 2, 0, 1.0)',
                              'tensor([[0.4472, 0.8944],\n        [0.6000, 0.8000]])'),),
                            False),
                 'repeat': ("PyTorch's ``torch.repeat`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.tensor([1.0, 2.0]).repeat(2)', 'tensor([1., 2., 1., 2.])'),),
                            False),
                 'repeat_interleave': ("PyTorch's ``torch.repeat_interleave`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.repeat_interleave(torch.tensor([5, 3]), '
                                         'torch.tensor([3, 2]))',
                                         'tensor([5, 5, 5, 3, 3])'),),
                                       False),
                 'reshape': ("PyTorch's ``torch.reshape`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.reshape(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), (4,))',
                               'tensor([1., 2., 3., 4.])'),),
                             False),
                 'reshape_as': ("PyTorch's ``torch.reshape_as`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.reshape_as(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                  '0.25]))',
                                  'tensor([0.5000, 1.0000])',
                                  'torch.tensor([0.5, 1.0]).reshape_as(torch.tensor([2.0, '
                                  '0.25]))'),),
                                False),
                 'resize_as_': ('In-place ``torch.resize_as``: writes the result into ``input`` '
                                "and returns it, as PyTorch's ``torch.resize_as_``.",
                                (('torch.resize_as_(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                  '0.25]))',
                                  'tensor([0.5000, 1.0000])'),),
                                False),
                 'result_type': ("PyTorch's ``torch.result_type`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.result_type(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                   '0.25]))',
                                   'torch.float32'),),
                                 False),
                 'roll': ("PyTorch's ``torch.roll`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.roll(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                            'tensor([[4., 1.],\n        [2., 3.]])'),),
                          False),
                 'rot90': ("PyTorch's ``torch.rot90`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.rot90(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                             'tensor([[1., 3.],\n        [2., 1.]])'),),
                           False),
                 'round': ("PyTorch's ``torch.round`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.round(torch.tensor([0.5, 1.0]))', 'tensor([0., 1.])'),),
                           False),
                 'round_': ('In-place ``torch.round``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.round_``.",
                            (('torch.round_(torch.tensor([0.5, 1.0]))', 'tensor([0., 1.])'),),
                            False),
                 'row_stack': ("PyTorch's ``torch.row_stack`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.row_stack([torch.tensor([1.0, 2.0]), torch.tensor([3.0, '
                                 '4.0])])',
                                 'tensor([[1., 2.],\n        [3., 4.]])'),),
                               False),
                 'rsqrt': ("PyTorch's ``torch.rsqrt`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.rsqrt(torch.tensor([0.5, 1.0]))', 'tensor([1.4142, 1.0000])'),),
                           False),
                 'rsqrt_': ('In-place ``torch.rsqrt``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.rsqrt_``.",
                            (('torch.rsqrt_(torch.tensor([0.5, 1.0]))',
                              'tensor([1.4142, 1.0000])'),),
                            False),
                 'rsub': ("PyTorch's ``torch.rsub`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.rsub(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor([ 1.5000, -0.7500])'),),
                          False),
                 'scalar_tensor': ("PyTorch's ``torch.scalar_tensor`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.scalar_tensor(3)', 'tensor(3.)'),),
                                   True),
                 'scatter': ("PyTorch's ``torch.scatter`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.scatter(torch.zeros(3), 0, torch.tensor([2, 0]), '
                               'torch.tensor([1.0, 2.0]))',
                               'tensor([2., 0., 1.])'),),
                             False),
                 'scatter_': ('In-place ``torch.scatter``: writes the result into ``input`` and '
                              "returns it, as PyTorch's ``torch.scatter_``.",
                              (('torch.scatter_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, '
                                'torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))',
                                'tensor([[1., 6.],\n        [5., 4.]])',
                                'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).scatter_(0, '
                                'torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))'),),
                              False),
                 'scatter_add': ("PyTorch's ``torch.scatter_add`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.scatter_add(torch.zeros(3), 0, torch.tensor([2, 2]), '
                                   'torch.tensor([1.0, 2.0]))',
                                   'tensor([0., 0., 3.])'),),
                                 False),
                 'scatter_add_': ('In-place ``torch.scatter_add``: writes the result into '
                                  "``input`` and returns it, as PyTorch's ``torch.scatter_add_``.",
                                  (('torch.scatter_add_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, '
                                    'torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))',
                                    'tensor([[1., 8.],\n        [8., 4.]])',
                                    'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).scatter_add_(0, '
                                    'torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))'),),
                                  False),
                 'scatter_reduce': ("PyTorch's ``torch.scatter_reduce`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.scatter_reduce(torch.zeros(3), 0, torch.tensor([2, '
                                      "2]), torch.tensor([1.0, 2.0]), 'amax')",
                                      'tensor([0., 0., 2.])'),),
                                    False),
                 'searchsorted': ("PyTorch's ``torch.searchsorted`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.searchsorted(torch.tensor([0.5, 1.0]), '
                                    'torch.tensor([2.0, 0.25]))',
                                    'tensor([2, 0])'),),
                                  False),
                 'seed': ("PyTorch's ``torch.seed`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('isinstance(torch.seed(), int)', 'True'),),
                          False),
                 'select': ("PyTorch's ``torch.select`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.select(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                              'tensor([3., 4.])'),),
                            False),
                 'set_default_device': ("PyTorch's ``torch.set_default_device`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (("torch.set_default_device('cpu')", ''),
                                         ('torch.zeros(1).device', "device(type='cpu')"),
                                         ('torch.set_default_device(None)', '')),
                                        False),
                 'set_default_dtype': ("PyTorch's ``torch.set_default_dtype`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.set_default_dtype(torch.float64)', ''),
                                        ('torch.tensor([1.0]).dtype', 'torch.float64'),
                                        ('torch.set_default_dtype(torch.float32)', '')),
                                       False),
                 'set_default_tensor_type': ("PyTorch's ``torch.set_default_tensor_type`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (("torch.set_default_tensor_type('torch.FloatTensor')",
                                               ''),
                                              ('torch.tensor([1.0]).dtype', 'torch.float32')),
                                             False),
                 'set_num_threads': ("PyTorch's ``torch.set_num_threads`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.set_num_threads(torch.get_num_threads())', ''),),
                                     False),
                 'set_printoptions': ("PyTorch's ``torch.set_printoptions`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.set_printoptions(precision=2)', ''),
                                       ('torch.tensor([1 / 3])', 'tensor([0.33])'),
                                       ("torch.set_printoptions(profile='default')", '')),
                                      False),
                 'set_rng_state': ("PyTorch's ``torch.set_rng_state`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('state = torch.get_rng_state()', ''),
                                    ('a = torch.rand(2)', ''),
                                    ('torch.set_rng_state(state)', ''),
                                    ('torch.equal(torch.rand(2), a)', 'True')),
                                   False),
                 'sgn': ("PyTorch's ``torch.sgn`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.sgn(torch.tensor([0.5, 1.0]))', 'tensor([1., 1.])'),),
                         False),
                 'sigmoid': ("Elementwise ``sigmoid`` of its tensor argument(s), as PyTorch's "
                             '``torch.sigmoid``.',
                             (('torch.sigmoid(torch.tensor([0.5, 1.0]))',
                               'tensor([0.6225, 0.7311])'),),
                             False),
                 'sigmoid_': ('In-place ``torch.sigmoid``: writes the result into ``input`` and '
                              "returns it, as PyTorch's ``torch.sigmoid_``.",
                              (('torch.sigmoid_(torch.tensor([0.5, 1.0]))',
                                'tensor([0.6225, 0.7311])'),),
                              False),
                 'sign': ("Elementwise ``sign`` of its tensor argument(s), as PyTorch's "
                          '``torch.sign``.',
                          (('torch.sign(torch.tensor([0.5, 1.0]))', 'tensor([1., 1.])'),),
                          False),
                 'sign_': ('In-place ``torch.sign``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.sign_``.",
                           (('torch.sign_(torch.tensor([0.5, 1.0]))',
                             'tensor([1., 1.])',
                             'torch.tensor([0.5, 1.0]).sign_()'),),
                           False),
                 'signbit': ("Elementwise ``signbit`` of its tensor argument(s), as PyTorch's "
                             '``torch.signbit``.',
                             (('torch.signbit(torch.tensor([0.5, 1.0]))',
                               'tensor([False, False])'),),
                             False),
                 'sin': ("Elementwise ``sin`` of its tensor argument(s), as PyTorch's "
                         '``torch.sin``.',
                         (('torch.sin(torch.tensor([0.5, 1.0]))', 'tensor([0.4794, 0.8415])'),),
                         False),
                 'sin_': ('In-place ``torch.sin``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.sin_``.",
                          (('torch.sin_(torch.tensor([0.5, 1.0]))', 'tensor([0.4794, 0.8415])'),),
                          False),
                 'sinc': ("PyTorch's ``torch.sinc`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.sinc(torch.tensor([0.5, 1.0]))',
                            'tensor([ 6.3662e-01, -2.7828e-08])'),),
                          False),
                 'sinh': ("Elementwise ``sinh`` of its tensor argument(s), as PyTorch's "
                          '``torch.sinh``.',
                          (('torch.sinh(torch.tensor([0.5, 1.0]))', 'tensor([0.5211, 1.1752])'),),
                          False),
                 'sinh_': ('In-place ``torch.sinh``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.sinh_``.",
                           (('torch.sinh_(torch.tensor([0.5, 1.0]))', 'tensor([0.5211, 1.1752])'),),
                           False),
                 'slogdet': ("PyTorch's ``torch.slogdet`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.slogdet(torch.tensor([[2.0, 0.0], [0.0, 1.0]]))',
                               'torch.return_types.slogdet(\n'
                               'sign=tensor(1.),\n'
                               'logabsdet=tensor(0.6931))'),),
                             False),
                 'softmax': ("PyTorch's ``torch.softmax`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.softmax(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                               'tensor([[0.2689, 0.7311],\n        [0.2689, 0.7311]])'),),
                             False),
                 'sort': ("PyTorch's ``torch.sort`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.sort(torch.tensor([0.5, 1.0]))',
                            'torch.return_types.sort(\n'
                            'values=tensor([0.5000, 1.0000]),\n'
                            'indices=tensor([0, 1]))'),),
                          False),
                 'split': ("PyTorch's ``torch.split`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.split(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                             '(tensor([[1., 2.]]), tensor([[3., 4.]]))'),),
                           False),
                 'sqrt': ("Elementwise ``sqrt`` of its tensor argument(s), as PyTorch's "
                          '``torch.sqrt``.',
                          (('torch.sqrt(torch.tensor([0.5, 1.0]))', 'tensor([0.7071, 1.0000])'),),
                          False),
                 'sqrt_': ('In-place ``torch.sqrt``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.sqrt_``.",
                           (('torch.sqrt_(torch.tensor([0.5, 1.0]))', 'tensor([0.7071, 1.0000])'),),
                           False),
                 'square': ("PyTorch's ``torch.square`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.square(torch.tensor([0.5, 1.0]))',
                              'tensor([0.2500, 1.0000])'),),
                            False),
                 'square_': ('In-place ``torch.square``: writes the result into ``input`` and '
                             "returns it, as PyTorch's ``torch.square_``.",
                             (('torch.square_(torch.tensor([0.5, 1.0]))',
                               'tensor([0.2500, 1.0000])'),),
                             False),
                 'squeeze': ("PyTorch's ``torch.squeeze`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.squeeze(torch.tensor([0.5, 1.0]))',
                               'tensor([0.5000, 1.0000])'),),
                             False),
                 'squeeze_': ('In-place ``torch.squeeze``: writes the result into ``input`` and '
                              "returns it, as PyTorch's ``torch.squeeze_``.",
                              (('torch.squeeze_(torch.tensor([0.5, 1.0]))',
                                'tensor([0.5000, 1.0000])',
                                'torch.tensor([0.5, 1.0]).squeeze_()'),),
                              False),
                 'stack': ("PyTorch's ``torch.stack`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.stack([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])])',
                             'tensor([[1., 2.],\n        [3., 4.]])'),),
                           False),
                 'std': ("PyTorch's ``torch.std`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.std(torch.tensor([0.5, 1.0]))', 'tensor(0.3536)'),),
                         False),
                 'std_mean': ("PyTorch's ``torch.std_mean`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.std_mean(torch.tensor([0.5, 1.0]))',
                                '(tensor(0.3536), tensor(0.7500))'),),
                              False),
                 'sub': ("Elementwise ``subtract`` of its tensor argument(s), as PyTorch's "
                         '``torch.sub``.',
                         (('torch.sub(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                           'tensor([-1.5000,  0.7500])'),),
                         False),
                 'subtract': ("Elementwise ``subtract`` of its tensor argument(s), as PyTorch's "
                              '``torch.subtract``.',
                              (('torch.subtract(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                '0.25]))',
                                'tensor([-1.5000,  0.7500])'),),
                              False),
                 'sum': ("Elementwise ``sum`` of its tensor argument(s), as PyTorch's "
                         '``torch.sum``.',
                         (('torch.sum(torch.tensor([0.5, 1.0]))', 'tensor(1.5000)'),),
                         False),
                 'sum_to_size': ("PyTorch's ``torch.sum_to_size`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.sum_to_size(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                   'tensor([10.])',
                                   'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).sum_to_size(1)'),),
                                 False),
                 'svd': ("PyTorch's ``torch.svd`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.svd(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).S',
                           'tensor([2., 1.])'),),
                         False),
                 'swapaxes': ("PyTorch's ``torch.swapaxes`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.swapaxes(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                'tensor([[1., 3.],\n        [2., 4.]])'),),
                              False),
                 'swapaxes_': ('In-place ``torch.swapaxes``: writes the result into ``input`` and '
                               "returns it, as PyTorch's ``torch.swapaxes_``.",
                               (('torch.swapaxes_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                 'tensor([[1., 3.],\n        [2., 4.]])',
                                 'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).swapaxes_(0, 1)'),),
                               False),
                 'swapdims': ("PyTorch's ``torch.swapdims`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.swapdims(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                'tensor([[1., 3.],\n        [2., 4.]])'),),
                              False),
                 'swapdims_': ('In-place ``torch.swapdims``: writes the result into ``input`` and '
                               "returns it, as PyTorch's ``torch.swapdims_``.",
                               (('torch.swapdims_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                 'tensor([[1., 3.],\n        [2., 4.]])',
                                 'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).swapdims_(0, 1)'),),
                               False),
                 't': ("PyTorch's ``torch.t`` (same arguments and results), computed by fgrad's "
                       'primitives.',
                       (('torch.t(torch.tensor([0.5, 1.0]))', 'tensor([0.5000, 1.0000])'),),
                       False),
                 't_': ('In-place ``torch.t``: writes the result into ``input`` and returns it, as '
                        "PyTorch's ``torch.t_``.",
                        (('torch.t_(torch.tensor([0.5, 1.0]))',
                          'tensor([0.5000, 1.0000])',
                          'torch.tensor([0.5, 1.0]).t_()'),),
                        False),
                 'take': ("PyTorch's ``torch.take`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.take(torch.tensor([[0.5, 1.0]]), torch.tensor([1]))',
                            'tensor([1.])'),),
                          False),
                 'take_along_dim': ("PyTorch's ``torch.take_along_dim`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.take_along_dim(torch.tensor([[0.5, 1.0]]), '
                                      'torch.tensor([1]))',
                                      'tensor([1.])'),),
                                    False),
                 'tan': ("Elementwise ``tan`` of its tensor argument(s), as PyTorch's "
                         '``torch.tan``.',
                         (('torch.tan(torch.tensor([0.5, 1.0]))', 'tensor([0.5463, 1.5574])'),),
                         False),
                 'tan_': ('In-place ``torch.tan``: writes the result into ``input`` and returns '
                          "it, as PyTorch's ``torch.tan_``.",
                          (('torch.tan_(torch.tensor([0.5, 1.0]))', 'tensor([0.5463, 1.5574])'),),
                          False),
                 'tanh': ("Elementwise ``tanh`` of its tensor argument(s), as PyTorch's "
                          '``torch.tanh``.',
                          (('torch.tanh(torch.tensor([0.5, 1.0]))', 'tensor([0.4621, 0.7616])'),),
                          False),
                 'tanh_': ('In-place ``torch.tanh``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.tanh_``.",
                           (('torch.tanh_(torch.tensor([0.5, 1.0]))', 'tensor([0.4621, 0.7616])'),),
                           False),
                 'tensor_split': ("PyTorch's ``torch.tensor_split`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor_split(torch.tensor([5, 3]), torch.tensor([3, '
                                    '2]))',
                                    '(tensor([5, 3]), tensor([], dtype=torch.int64), tensor([], '
                                    'dtype=torch.int64))'),),
                                  False),
                 'tensordot': ("PyTorch's ``torch.tensordot`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.tensordot(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), '
                                 'torch.tensor([[1.0, 0.0], [2.0, 1.0]]))',
                                 'tensor(7.)'),),
                               False),
                 'tile': ("PyTorch's ``torch.tile`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.tile(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), [1, 0])',
                            'tensor([], size=(2, 0))'),),
                          False),
                 'topk': ("PyTorch's ``torch.topk`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.topk(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                            'torch.return_types.topk(\n'
                            'values=tensor([[2.],\n'
                            '        [4.]]),\n'
                            'indices=tensor([[1],\n'
                            '        [1]]))'),),
                          False),
                 'trace': ("PyTorch's ``torch.trace`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.trace(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))', 'tensor(5.)'),),
                           False),
                 'transpose': ("PyTorch's ``torch.transpose`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.transpose(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                 'tensor([[1., 3.],\n        [2., 4.]])'),),
                               False),
                 'transpose_': ('In-place ``torch.transpose``: writes the result into ``input`` '
                                "and returns it, as PyTorch's ``torch.transpose_``.",
                                (('torch.transpose_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, 1)',
                                  'tensor([[1., 3.],\n        [2., 4.]])',
                                  'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).transpose_(0, 1)'),),
                                False),
                 'trapezoid': ("PyTorch's ``torch.trapezoid`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.trapezoid(torch.tensor([0.5, 1.0]))', 'tensor(0.7500)'),),
                               False),
                 'trapz': ("PyTorch's ``torch.trapz`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.trapz(torch.tensor([0.5, 1.0]))', 'tensor(0.7500)'),),
                           False),
                 'tril': ("PyTorch's ``torch.tril`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.tril(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                            'tensor([[2., 0.],\n        [1., 3.]])'),),
                          False),
                 'tril_': ('In-place ``torch.tril``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.tril_``.",
                           (('torch.tril_(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                             'tensor([[2., 0.],\n        [1., 3.]])',
                             'torch.tensor([[2.0, 1.0], [1.0, 3.0]]).tril_()'),),
                           False),
                 'tril_indices': ("PyTorch's ``torch.tril_indices`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tril_indices(2, 3)',
                                    'tensor([[0, 1, 1],\n        [0, 0, 1]])'),),
                                  False),
                 'triu': ("PyTorch's ``torch.triu`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.triu(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                            'tensor([[2., 1.],\n        [0., 3.]])'),),
                          False),
                 'triu_': ('In-place ``torch.triu``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.triu_``.",
                           (('torch.triu_(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                             'tensor([[2., 1.],\n        [0., 3.]])',
                             'torch.tensor([[2.0, 1.0], [1.0, 3.0]]).triu_()'),),
                           False),
                 'triu_indices': ("PyTorch's ``torch.triu_indices`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.triu_indices(2, 3)',
                                    'tensor([[0, 0, 0, 1, 1],\n        [0, 1, 2, 1, 2]])'),),
                                  False),
                 'true_divide': ("Elementwise ``divide`` of its tensor argument(s), as PyTorch's "
                                 '``torch.true_divide``.',
                                 (('torch.true_divide(torch.tensor([0.5, 1.0]), torch.tensor([2.0, '
                                   '0.25]))',
                                   'tensor([0.2500, 4.0000])'),),
                                 False),
                 'trunc': ("Elementwise ``trunc`` of its tensor argument(s), as PyTorch's "
                           '``torch.trunc``.',
                           (('torch.trunc(torch.tensor([0.5, 1.0]))', 'tensor([0., 1.])'),),
                           False),
                 'trunc_': ('In-place ``torch.trunc``: writes the result into ``input`` and '
                            "returns it, as PyTorch's ``torch.trunc_``.",
                            (('torch.trunc_(torch.tensor([0.5, 1.0]))', 'tensor([0., 1.])'),),
                            False),
                 'typename': ("PyTorch's ``torch.typename`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.typename(torch.tensor([0.5, 1.0]))',
                                "'torch.FloatTensor'"),),
                              False),
                 'unbind': ("PyTorch's ``torch.unbind`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.unbind(torch.tensor([0.5, 1.0]))',
                              '(tensor(0.5000), tensor(1.))'),),
                            False),
                 'unflatten': ("PyTorch's ``torch.unflatten`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.unflatten(torch.arange(4.0), 0, (2, 2))',
                                 'tensor([[0., 1.],\n        [2., 3.]])'),),
                               False),
                 'unfold': ("PyTorch's ``torch.unfold`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.unfold(torch.tensor([1.0, 2.0, 3.0]), 0, 1, 2)',
                              'tensor([[1.],\n        [3.]])',
                              'torch.tensor([1.0, 2.0, 3.0]).unfold(0, 1, 2)'),),
                            False),
                 'unique': ("PyTorch's ``torch.unique`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.unique(torch.tensor([0.5, 1.0]))',
                              'tensor([0.5000, 1.0000])'),),
                            False),
                 'unique_consecutive': ("PyTorch's ``torch.unique_consecutive`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.unique_consecutive(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.5000, 1.0000])'),),
                                        False),
                 'unsqueeze': ("PyTorch's ``torch.unsqueeze`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.unsqueeze(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                 'tensor([[[1., 2.]],\n\n        [[3., 4.]]])'),),
                               False),
                 'unsqueeze_': ('In-place ``torch.unsqueeze``: writes the result into ``input`` '
                                "and returns it, as PyTorch's ``torch.unsqueeze_``.",
                                (('torch.unsqueeze_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)',
                                  'tensor([[[1., 2.]],\n\n        [[3., 4.]]])',
                                  'torch.tensor([[1.0, 2.0], [3.0, 4.0]]).unsqueeze_(1)'),),
                                False),
                 'use_deterministic_algorithms': ("PyTorch's "
                                                  '``torch.use_deterministic_algorithms`` (same '
                                                  "arguments and results), computed by fgrad's "
                                                  'primitives.',
                                                  (('torch.use_deterministic_algorithms(False)',
                                                    ''),
                                                   ('torch.are_deterministic_algorithms_enabled()',
                                                    'False')),
                                                  False),
                 'vander': ("PyTorch's ``torch.vander`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.vander(torch.tensor([0.5, 1.0]))',
                              'tensor([[0.5000, 1.0000],\n        [1.0000, 1.0000]])'),),
                            False),
                 'var': ("PyTorch's ``torch.var`` (same arguments and results), computed by "
                         "fgrad's primitives.",
                         (('torch.var(torch.tensor([0.5, 1.0]))', 'tensor(0.1250)'),),
                         False),
                 'var_mean': ("PyTorch's ``torch.var_mean`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.var_mean(torch.tensor([0.5, 1.0]))',
                                '(tensor(0.1250), tensor(0.7500))'),),
                              False),
                 'vdot': ("PyTorch's ``torch.vdot`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.vdot(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                            'tensor(1.2500)'),),
                          False),
                 'vector_norm': ("PyTorch's ``torch.vector_norm`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.vector_norm(torch.tensor([3.0, 4.0]))',
                                   'tensor(5.)',
                                   'torch.linalg.vector_norm(torch.tensor([3.0, 4.0]))'),),
                                 False),
                 'view': ("PyTorch's ``torch.view`` (same arguments and results), computed by "
                          "fgrad's primitives.",
                          (('torch.arange(4.0).view(2, 2)',
                            'tensor([[0., 1.],\n        [2., 3.]])'),),
                          False),
                 'view_as': ("PyTorch's ``torch.view_as`` (same arguments and results), computed "
                             "by fgrad's primitives.",
                             (('torch.view_as(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                               'tensor([0.5000, 1.0000])',
                               'torch.tensor([0.5, 1.0]).view_as(torch.tensor([2.0, 0.25]))'),),
                             False),
                 'vstack': ("PyTorch's ``torch.vstack`` (same arguments and results), computed by "
                            "fgrad's primitives.",
                            (('torch.vstack([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])])',
                              'tensor([[1., 2.],\n        [3., 4.]])'),),
                            False),
                 'where': ("PyTorch's ``torch.where`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.where(torch.tensor([0.5, 1.0]))', '(tensor([0, 1]),)'),),
                           False),
                 'xlogy': ("PyTorch's ``torch.xlogy`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.xlogy(torch.tensor([0.5, 1.0]), torch.tensor([2.0, 0.25]))',
                             'tensor([ 0.3466, -1.3863])'),),
                           False),
                 'zero_': ('In-place ``torch.zero``: writes the result into ``input`` and returns '
                           "it, as PyTorch's ``torch.zero_``.",
                           (('torch.zero_(torch.tensor([0.5, 1.0]))', 'tensor([0., 0.])'),),
                           False),
                 'zeros': ("PyTorch's ``torch.zeros`` (same arguments and results), computed by "
                           "fgrad's primitives.",
                           (('torch.zeros(2, 3)',
                             'tensor([[0., 0., 0.],\n        [0., 0., 0.]])'),),
                           False),
                 'zeros_like': ("PyTorch's ``torch.zeros_like`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.zeros_like(torch.tensor([0.5, 1.0]))',
                                  'tensor([0., 0.])'),),
                                False)},
 'fgrad.torch.Tensor': {'abs': ("Elementwise ``abs`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.abs``.',
                                (('torch.tensor([0.5, 1.0]).abs()', 'tensor([0.5000, 1.0000])'),),
                                False),
                        'abs_': ("PyTorch's ``torch.Tensor.abs_`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).abs_()', 'tensor([0.5000, 1.0000])'),),
                                 False),
                        'absolute': ("Elementwise ``abs`` of its tensor argument(s), as PyTorch's "
                                     '``torch.Tensor.absolute``.',
                                     (('torch.tensor([0.5, 1.0]).absolute()',
                                       'tensor([0.5000, 1.0000])'),),
                                     False),
                        'absolute_': ("PyTorch's ``torch.Tensor.absolute_`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).absolute_()',
                                        'tensor([0.5000, 1.0000])'),),
                                      False),
                        'acos': ("Elementwise ``arccos`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.acos``.',
                                 (('torch.tensor([0.5, 1.0]).acos()', 'tensor([1.0472, 0.0000])'),),
                                 False),
                        'acos_': ("Elementwise ``arccos`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.acos_``.',
                                  (('torch.tensor([0.5, 1.0]).acos_()',
                                    'tensor([1.0472, 0.0000])'),),
                                  False),
                        'acosh': ("Elementwise ``arccosh`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.acosh``.',
                                  (('torch.tensor([0.5, 1.0]).acosh()', 'tensor([nan, 0.])'),),
                                  False),
                        'acosh_': ('Elementwise ``arccosh`` of its tensor argument(s), as '
                                   "PyTorch's ``torch.Tensor.acosh_``.",
                                   (('torch.tensor([0.5, 1.0]).acosh_()', 'tensor([nan, 0.])'),),
                                   False),
                        'add': ("Elementwise ``add`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.add``.',
                                (('torch.tensor([0.5, 1.0]).add(torch.tensor([2.0, 0.25]))',
                                  'tensor([2.5000, 1.2500])'),),
                                False),
                        'add_': ("PyTorch's ``torch.Tensor.add_`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).add_(torch.tensor([2.0, 0.25]))',
                                   'tensor([2.5000, 1.2500])'),),
                                 False),
                        'addbmm': ("PyTorch's ``torch.Tensor.addbmm`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.zeros(2, 2).addbmm(torch.ones(1, 2, 3), torch.ones(1, '
                                     '3, 2))',
                                     'tensor([[3., 3.],\n        [3., 3.]])'),),
                                   False),
                        'addcdiv': ("PyTorch's ``torch.Tensor.addcdiv`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).addcdiv(torch.tensor([2.0, 0.25]), '
                                      'torch.tensor([1.0, 2.0]))',
                                      'tensor([2.5000, 1.1250])'),),
                                    False),
                        'addcdiv_': ("PyTorch's ``torch.Tensor.addcdiv_`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).addcdiv_(torch.tensor([2.0, '
                                       '0.25]), torch.tensor([1.0, 2.0]))',
                                       'tensor([2.5000, 1.1250])'),),
                                     False),
                        'addcmul': ("PyTorch's ``torch.Tensor.addcmul`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).addcmul(torch.tensor([2.0, 0.25]), '
                                      'torch.tensor([1.0, 2.0]))',
                                      'tensor([2.5000, 1.5000])'),),
                                    False),
                        'addcmul_': ("PyTorch's ``torch.Tensor.addcmul_`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).addcmul_(torch.tensor([2.0, '
                                       '0.25]), torch.tensor([1.0, 2.0]))',
                                       'tensor([2.5000, 1.5000])'),),
                                     False),
                        'addmm': ("PyTorch's ``torch.Tensor.addmm`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.zeros(2, 2).addmm(torch.ones(2, 3), torch.ones(3, 2))',
                                    'tensor([[3., 3.],\n        [3., 3.]])'),),
                                  False),
                        'addmv': ("PyTorch's ``torch.Tensor.addmv`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.zeros(2).addmv(torch.ones(2, 3), torch.ones(3))',
                                    'tensor([3., 3.])'),),
                                  False),
                        'addr': ("PyTorch's ``torch.Tensor.addr`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).addr(torch.tensor([2.0, 0.25]), '
                                   'torch.tensor([1.0, 2.0]))',
                                   'tensor([[2.5000, 5.0000],\n        [0.7500, 1.5000]])'),),
                                 False),
                        'all': ("Elementwise ``all`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.all``.',
                                (('torch.tensor([0.5, 1.0]).all()', 'tensor(True)'),),
                                False),
                        'allclose': ("PyTorch's ``torch.Tensor.allclose`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).allclose(torch.tensor([2.0, '
                                       '0.25]))',
                                       'False'),),
                                     False),
                        'amax': ("Elementwise ``max`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.amax``.',
                                 (('torch.tensor([0.5, 1.0]).amax()', 'tensor(1.)'),),
                                 False),
                        'amin': ("Elementwise ``min`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.amin``.',
                                 (('torch.tensor([0.5, 1.0]).amin()', 'tensor(0.5000)'),),
                                 False),
                        'aminmax': ("PyTorch's ``torch.Tensor.aminmax`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).aminmax()',
                                      'torch.return_types.aminmax(\n'
                                      'min=tensor(0.5000),\n'
                                      'max=tensor(1.))'),),
                                    False),
                        'angle': ("PyTorch's ``torch.Tensor.angle`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).angle()', 'tensor([0., 0.])'),),
                                  False),
                        'any': ("Elementwise ``any`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.any``.',
                                (('torch.tensor([0.5, 1.0]).any()', 'tensor(True)'),),
                                False),
                        'apply_': ("PyTorch's ``torch.Tensor.apply_`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([1.0, 2.0]).apply_(lambda v: v * 2)',
                                     'tensor([2., 4.])'),),
                                   False),
                        'arccos': ("Elementwise ``arccos`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.arccos``.',
                                   (('torch.tensor([0.5, 1.0]).arccos()',
                                     'tensor([1.0472, 0.0000])'),),
                                   False),
                        'arccos_': ('Elementwise ``arccos`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.arccos_``.",
                                    (('torch.tensor([0.5, 1.0]).arccos_()',
                                      'tensor([1.0472, 0.0000])'),),
                                    False),
                        'arccosh': ('Elementwise ``arccosh`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.arccosh``.",
                                    (('torch.tensor([0.5, 1.0]).arccosh()', 'tensor([nan, 0.])'),),
                                    False),
                        'arccosh_': ('Elementwise ``arccosh`` of its tensor argument(s), as '
                                     "PyTorch's ``torch.Tensor.arccosh_``.",
                                     (('torch.tensor([0.5, 1.0]).arccosh_()',
                                       'tensor([nan, 0.])'),),
                                     False),
                        'arcsin': ("Elementwise ``arcsin`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.arcsin``.',
                                   (('torch.tensor([0.5, 1.0]).arcsin()',
                                     'tensor([0.5236, 1.5708])'),),
                                   False),
                        'arcsin_': ('Elementwise ``arcsin`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.arcsin_``.",
                                    (('torch.tensor([0.5, 1.0]).arcsin_()',
                                      'tensor([0.5236, 1.5708])'),),
                                    False),
                        'arcsinh': ('Elementwise ``arcsinh`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.arcsinh``.",
                                    (('torch.tensor([0.5, 1.0]).arcsinh()',
                                      'tensor([0.4812, 0.8814])'),),
                                    False),
                        'arcsinh_': ('Elementwise ``arcsinh`` of its tensor argument(s), as '
                                     "PyTorch's ``torch.Tensor.arcsinh_``.",
                                     (('torch.tensor([0.5, 1.0]).arcsinh_()',
                                       'tensor([0.4812, 0.8814])'),),
                                     False),
                        'arctan': ("Elementwise ``arctan`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.arctan``.',
                                   (('torch.tensor([0.5, 1.0]).arctan()',
                                     'tensor([0.4636, 0.7854])'),),
                                   False),
                        'arctan2': ('Elementwise ``arctan2`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.arctan2``.",
                                    (('torch.tensor([0.5, 1.0]).arctan2(torch.tensor([2.0, 0.25]))',
                                      'tensor([0.2450, 1.3258])'),),
                                    False),
                        'arctan2_': ("PyTorch's ``torch.Tensor.arctan2_`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).arctan2_(torch.tensor([2.0, '
                                       '0.25]))',
                                       'tensor([0.2450, 1.3258])'),),
                                     False),
                        'arctan_': ('Elementwise ``arctan`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.arctan_``.",
                                    (('torch.tensor([0.5, 1.0]).arctan_()',
                                      'tensor([0.4636, 0.7854])'),),
                                    False),
                        'arctanh': ('Elementwise ``arctanh`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.arctanh``.",
                                    (('torch.tensor([0.5, 1.0]).arctanh()',
                                      'tensor([0.5493,    inf])'),),
                                    False),
                        'arctanh_': ('Elementwise ``arctanh`` of its tensor argument(s), as '
                                     "PyTorch's ``torch.Tensor.arctanh_``.",
                                     (('torch.tensor([0.5, 1.0]).arctanh_()',
                                       'tensor([0.5493,    inf])'),),
                                     False),
                        'argmax': ("Elementwise ``argmax`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.argmax``.',
                                   (('torch.tensor([0.5, 1.0]).argmax()', 'tensor(1)'),),
                                   False),
                        'argmin': ("Elementwise ``argmin`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.argmin``.',
                                   (('torch.tensor([0.5, 1.0]).argmin()', 'tensor(0)'),),
                                   False),
                        'argsort': ("PyTorch's ``torch.Tensor.argsort`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).argsort()', 'tensor([0, 1])'),),
                                    False),
                        'argwhere': ("PyTorch's ``torch.Tensor.argwhere`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).argwhere()',
                                       'tensor([[0],\n        [1]])'),),
                                     False),
                        'as_strided': ("PyTorch's ``torch.Tensor.as_strided`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.arange(4.0).as_strided((2, 2), (1, 1))',
                                         'tensor([[0., 1.],\n        [1., 2.]])'),),
                                       False),
                        'as_strided_': ("PyTorch's ``torch.Tensor.as_strided_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.arange(4.0).as_strided_((2, 2), (1, 1))',
                                          'tensor([[0., 1.],\n        [1., 2.]])'),),
                                        False),
                        'asin': ("Elementwise ``arcsin`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.asin``.',
                                 (('torch.tensor([0.5, 1.0]).asin()', 'tensor([0.5236, 1.5708])'),),
                                 False),
                        'asin_': ("Elementwise ``arcsin`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.asin_``.',
                                  (('torch.tensor([0.5, 1.0]).asin_()',
                                    'tensor([0.5236, 1.5708])'),),
                                  False),
                        'asinh': ("Elementwise ``arcsinh`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.asinh``.',
                                  (('torch.tensor([0.5, 1.0]).asinh()',
                                    'tensor([0.4812, 0.8814])'),),
                                  False),
                        'asinh_': ('Elementwise ``arcsinh`` of its tensor argument(s), as '
                                   "PyTorch's ``torch.Tensor.asinh_``.",
                                   (('torch.tensor([0.5, 1.0]).asinh_()',
                                     'tensor([0.4812, 0.8814])'),),
                                   False),
                        'atan': ("Elementwise ``arctan`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.atan``.',
                                 (('torch.tensor([0.5, 1.0]).atan()', 'tensor([0.4636, 0.7854])'),),
                                 False),
                        'atan2': ("Elementwise ``arctan2`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.atan2``.',
                                  (('torch.tensor([0.5, 1.0]).atan2(torch.tensor([2.0, 0.25]))',
                                    'tensor([0.2450, 1.3258])'),),
                                  False),
                        'atan2_': ("PyTorch's ``torch.Tensor.atan2_`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).atan2_(torch.tensor([2.0, 0.25]))',
                                     'tensor([0.2450, 1.3258])'),),
                                   False),
                        'atan_': ("Elementwise ``arctan`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.atan_``.',
                                  (('torch.tensor([0.5, 1.0]).atan_()',
                                    'tensor([0.4636, 0.7854])'),),
                                  False),
                        'atanh': ("Elementwise ``arctanh`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.atanh``.',
                                  (('torch.tensor([0.5, 1.0]).atanh()',
                                    'tensor([0.5493,    inf])'),),
                                  False),
                        'atanh_': ('Elementwise ``arctanh`` of its tensor argument(s), as '
                                   "PyTorch's ``torch.Tensor.atanh_``.",
                                   (('torch.tensor([0.5, 1.0]).atanh_()',
                                     'tensor([0.5493,    inf])'),),
                                   False),
                        'backward': ("PyTorch's ``torch.Tensor.backward`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('x = torch.tensor([1.0, 2.0], requires_grad=True)', ''),
                                      ('(x * x).sum().backward()', ''),
                                      ('x.grad', 'tensor([2., 4.])')),
                                     False),
                        'baddbmm': ("PyTorch's ``torch.Tensor.baddbmm`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.zeros(1, 2, 2).baddbmm(torch.ones(1, 2, 3), '
                                      'torch.ones(1, 3, 2))',
                                      'tensor([[[3., 3.],\n         [3., 3.]]])'),),
                                    False),
                        'bernoulli': ("PyTorch's ``torch.Tensor.bernoulli`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).bernoulli(1)',
                                        'tensor([[1., 1.],\n        [1., 1.]])'),),
                                      False),
                        'bernoulli_': ("PyTorch's ``torch.Tensor.bernoulli_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).bernoulli_(1)',
                                         'tensor([[1., 1.],\n        [1., 1.]])'),),
                                       False),
                        'bfloat16': ("PyTorch's ``torch.Tensor.bfloat16`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).bfloat16()',
                                       'tensor([0.5000, 1.0000], dtype=torch.bfloat16)'),),
                                     False),
                        'bincount': ("PyTorch's ``torch.Tensor.bincount`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([5, 3]).bincount(torch.tensor([3, 2]))',
                                       'tensor([0., 0., 0., 2., 0., 3.], dtype=torch.float64)'),),
                                     False),
                        'bitwise_and': ('Elementwise ``bitwise_and`` of its tensor argument(s), as '
                                        "PyTorch's ``torch.Tensor.bitwise_and``.",
                                        (('torch.tensor([5, 3]).bitwise_and(torch.tensor([3, 2]))',
                                          'tensor([1, 2])'),),
                                        False),
                        'bitwise_and_': ("PyTorch's ``torch.Tensor.bitwise_and_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([5, 3]).bitwise_and_(torch.tensor([3, '
                                           '2]))',
                                           'tensor([1, 2])'),),
                                         False),
                        'bitwise_not': ('Elementwise ``invert`` of its tensor argument(s), as '
                                        "PyTorch's ``torch.Tensor.bitwise_not``.",
                                        (('torch.tensor([5, 3]).bitwise_not()',
                                          'tensor([-6, -4])'),),
                                        False),
                        'bitwise_or': ('Elementwise ``bitwise_or`` of its tensor argument(s), as '
                                       "PyTorch's ``torch.Tensor.bitwise_or``.",
                                       (('torch.tensor([5, 3]).bitwise_or(torch.tensor([3, 2]))',
                                         'tensor([7, 3])'),),
                                       False),
                        'bitwise_or_': ("PyTorch's ``torch.Tensor.bitwise_or_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([5, 3]).bitwise_or_(torch.tensor([3, 2]))',
                                          'tensor([7, 3])'),),
                                        False),
                        'bitwise_xor': ('Elementwise ``bitwise_xor`` of its tensor argument(s), as '
                                        "PyTorch's ``torch.Tensor.bitwise_xor``.",
                                        (('torch.tensor([5, 3]).bitwise_xor(torch.tensor([3, 2]))',
                                          'tensor([6, 1])'),),
                                        False),
                        'bitwise_xor_': ("PyTorch's ``torch.Tensor.bitwise_xor_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([5, 3]).bitwise_xor_(torch.tensor([3, '
                                           '2]))',
                                           'tensor([6, 1])'),),
                                         False),
                        'bmm': ("PyTorch's ``torch.Tensor.bmm`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.ones(1, 2, 3).bmm(torch.ones(1, 3, 2))',
                                  'tensor([[[3., 3.],\n         [3., 3.]]])'),),
                                False),
                        'bool': ("PyTorch's ``torch.Tensor.bool`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).bool()', 'tensor([True, True])'),),
                                 False),
                        'broadcast_to': ("PyTorch's ``torch.Tensor.broadcast_to`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([0.5, 1.0]).broadcast_to((2,))',
                                           'tensor([0.5000, 1.0000])'),),
                                         False),
                        'byte': ("PyTorch's ``torch.Tensor.byte`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).byte()',
                                   'tensor([0, 1], dtype=torch.uint8)'),),
                                 False),
                        'cauchy_': ("PyTorch's ``torch.Tensor.cauchy_`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.zeros(2, 3).cauchy_().shape', 'torch.Size([2, 3])'),),
                                    False),
                        'cdouble': ("PyTorch's ``torch.Tensor.cdouble`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).cdouble()',
                                      'tensor([0.5000+0.j, 1.0000+0.j], dtype=torch.complex128)'),),
                                    False),
                        'ceil': ("Elementwise ``ceil`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.ceil``.',
                                 (('torch.tensor([0.5, 1.0]).ceil()', 'tensor([1., 1.])'),),
                                 False),
                        'ceil_': ("Elementwise ``ceil`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.ceil_``.',
                                  (('torch.tensor([0.5, 1.0]).ceil_()', 'tensor([1., 1.])'),),
                                  False),
                        'cfloat': ("PyTorch's ``torch.Tensor.cfloat`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).cfloat()',
                                     'tensor([0.5000+0.j, 1.0000+0.j])'),),
                                   False),
                        'char': ("PyTorch's ``torch.Tensor.char`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).char()',
                                   'tensor([0, 1], dtype=torch.int8)'),),
                                 False),
                        'cholesky': ("PyTorch's ``torch.Tensor.cholesky`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).cholesky()',
                                       'tensor([[1.4142, 0.0000],\n        [0.7071, 1.5811]])'),),
                                     False),
                        'chunk': ("PyTorch's ``torch.Tensor.chunk`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).chunk(1)',
                                    '(tensor([[1., 2.],\n        [3., 4.]]),)'),),
                                  False),
                        'clamp': ("PyTorch's ``torch.Tensor.clamp`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).clamp(torch.tensor([2.0, 0.25]))',
                                    'tensor([2., 1.])'),),
                                  False),
                        'clamp_': ("PyTorch's ``torch.Tensor.clamp_`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).clamp_(torch.tensor([2.0, 0.25]))',
                                     'tensor([2., 1.])'),),
                                   False),
                        'clamp_max': ("PyTorch's ``torch.Tensor.clamp_max`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).clamp_max(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([0.5000, 0.2500])'),),
                                      False),
                        'clamp_max_': ("PyTorch's ``torch.Tensor.clamp_max_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).clamp_max_(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([0.5000, 0.2500])'),),
                                       False),
                        'clamp_min': ("PyTorch's ``torch.Tensor.clamp_min`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).clamp_min(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([2., 1.])'),),
                                      False),
                        'clamp_min_': ("PyTorch's ``torch.Tensor.clamp_min_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).clamp_min_(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([2., 1.])'),),
                                       False),
                        'clip': ("PyTorch's ``torch.Tensor.clip`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).clip(torch.tensor([2.0, 0.25]))',
                                   'tensor([2., 1.])'),),
                                 False),
                        'clip_': ("PyTorch's ``torch.Tensor.clip_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).clip_(torch.tensor([2.0, 0.25]))',
                                    'tensor([2., 1.])'),),
                                  False),
                        'clone': ("PyTorch's ``torch.Tensor.clone`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).clone()',
                                    'tensor([0.5000, 1.0000])'),),
                                  False),
                        'contiguous': ("PyTorch's ``torch.Tensor.contiguous`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).contiguous()',
                                         'tensor([0.5000, 1.0000])'),),
                                       False),
                        'copy_': ("PyTorch's ``torch.Tensor.copy_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).copy_(torch.tensor([2.0, 0.25]))',
                                    'tensor([2.0000, 0.2500])'),),
                                  False),
                        'copysign': ("PyTorch's ``torch.Tensor.copysign`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).copysign(torch.tensor([2.0, '
                                       '0.25]))',
                                       'tensor([0.5000, 1.0000])'),),
                                     False),
                        'cos': ("Elementwise ``cos`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.cos``.',
                                (('torch.tensor([0.5, 1.0]).cos()', 'tensor([0.8776, 0.5403])'),),
                                False),
                        'cos_': ("Elementwise ``cos`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.cos_``.',
                                 (('torch.tensor([0.5, 1.0]).cos_()', 'tensor([0.8776, 0.5403])'),),
                                 False),
                        'cosh': ("Elementwise ``cosh`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.cosh``.',
                                 (('torch.tensor([0.5, 1.0]).cosh()', 'tensor([1.1276, 1.5431])'),),
                                 False),
                        'cosh_': ("Elementwise ``cosh`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.cosh_``.',
                                  (('torch.tensor([0.5, 1.0]).cosh_()',
                                    'tensor([1.1276, 1.5431])'),),
                                  False),
                        'count_nonzero': ("PyTorch's ``torch.Tensor.count_nonzero`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.tensor([0.5, 1.0]).count_nonzero()',
                                            'tensor(2)'),),
                                          False),
                        'cpu': ("PyTorch's ``torch.Tensor.cpu`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).cpu()', 'tensor([0.5000, 1.0000])'),),
                                False),
                        'cross': ("PyTorch's ``torch.Tensor.cross`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([1.0, 0.0, 0.0]).cross(torch.tensor([0.0, 1.0, '
                                    '0.0]), dim=0)',
                                    'tensor([0., 0., 1.])'),),
                                  False),
                        'cummax': ("PyTorch's ``torch.Tensor.cummax`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).cummax(1)',
                                     'torch.return_types.cummax(\n'
                                     'values=tensor([[1., 2.],\n'
                                     '        [3., 4.]]),\n'
                                     'indices=tensor([[0, 1],\n'
                                     '        [0, 1]]))'),),
                                   False),
                        'cummin': ("PyTorch's ``torch.Tensor.cummin`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).cummin(1)',
                                     'torch.return_types.cummin(\n'
                                     'values=tensor([[1., 1.],\n'
                                     '        [3., 3.]]),\n'
                                     'indices=tensor([[0, 0],\n'
                                     '        [0, 0]]))'),),
                                   False),
                        'cumprod': ("PyTorch's ``torch.Tensor.cumprod`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).cumprod(1)',
                                      'tensor([[ 1.,  2.],\n        [ 3., 12.]])'),),
                                    False),
                        'cumsum': ("PyTorch's ``torch.Tensor.cumsum`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).cumsum(1)',
                                     'tensor([[1., 3.],\n        [3., 7.]])'),),
                                   False),
                        'cumsum_': ("PyTorch's ``torch.Tensor.cumsum_`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).cumsum_(1)',
                                      'tensor([[1., 3.],\n        [3., 7.]])'),),
                                    False),
                        'data_ptr': ("PyTorch's ``torch.Tensor.data_ptr`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('isinstance(torch.zeros(2).data_ptr(), int)', 'True'),),
                                     False),
                        'deg2rad': ("PyTorch's ``torch.Tensor.deg2rad`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).deg2rad()',
                                      'tensor([0.0087, 0.0175])'),),
                                    False),
                        'det': ("PyTorch's ``torch.Tensor.det`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).det()', 'tensor(5.)'),),
                                False),
                        'detach': ("PyTorch's ``torch.Tensor.detach`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).detach()',
                                     'tensor([0.5000, 1.0000])'),),
                                   False),
                        'detach_': ("PyTorch's ``torch.Tensor.detach_`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).detach_()',
                                      'tensor([0.5000, 1.0000])'),),
                                    False),
                        'diag': ("PyTorch's ``torch.Tensor.diag`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).diag()',
                                   'tensor([[0.5000, 0.0000],\n        [0.0000, 1.0000]])'),),
                                 False),
                        'diag_embed': ("PyTorch's ``torch.Tensor.diag_embed`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).diag_embed()',
                                         'tensor([[0.5000, 0.0000],\n        [0.0000, 1.0000]])'),),
                                       False),
                        'diagflat': ("PyTorch's ``torch.Tensor.diagflat`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).diagflat()',
                                       'tensor([[0.5000, 0.0000],\n        [0.0000, 1.0000]])'),),
                                     False),
                        'diagonal': ("PyTorch's ``torch.Tensor.diagonal`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).diagonal()',
                                       'tensor([2., 3.])'),),
                                     False),
                        'diff': ("PyTorch's ``torch.Tensor.diff`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).diff()', 'tensor([0.5000])'),),
                                 False),
                        'dim': ("PyTorch's ``torch.Tensor.dim`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).dim()', '1'),),
                                False),
                        'dim_order': ("PyTorch's ``torch.Tensor.dim_order`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).dim_order()', '(0,)'),),
                                      False),
                        'dist': ("PyTorch's ``torch.Tensor.dist`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).dist(torch.tensor([2.0, 0.25]))',
                                   'tensor(1.6771)'),),
                                 False),
                        'div': ("Elementwise ``divide`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.div``.',
                                (('torch.tensor([0.5, 1.0]).div(torch.tensor([2.0, 0.25]))',
                                  'tensor([0.2500, 4.0000])'),),
                                False),
                        'div_': ("PyTorch's ``torch.Tensor.div_`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).div_(torch.tensor([2.0, 0.25]))',
                                   'tensor([0.2500, 4.0000])'),),
                                 False),
                        'divide': ("Elementwise ``divide`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.divide``.',
                                   (('torch.tensor([0.5, 1.0]).divide(torch.tensor([2.0, 0.25]))',
                                     'tensor([0.2500, 4.0000])'),),
                                   False),
                        'divide_': ("PyTorch's ``torch.Tensor.divide_`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).divide_(torch.tensor([2.0, 0.25]))',
                                      'tensor([0.2500, 4.0000])'),),
                                    False),
                        'dot': ("PyTorch's ``torch.Tensor.dot`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).dot(torch.tensor([2.0, 0.25]))',
                                  'tensor(1.2500)'),),
                                False),
                        'double': ("PyTorch's ``torch.Tensor.double`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).double()',
                                     'tensor([0.5000, 1.0000], dtype=torch.float64)'),),
                                   False),
                        'element_size': ("PyTorch's ``torch.Tensor.element_size`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([0.5, 1.0]).element_size()', '4'),),
                                         False),
                        'eq': ("Elementwise ``equal`` of its tensor argument(s), as PyTorch's "
                               '``torch.Tensor.eq``.',
                               (('torch.tensor([0.5, 1.0]).eq(torch.tensor([2.0, 0.25]))',
                                 'tensor([False, False])'),),
                               False),
                        'eq_': ("PyTorch's ``torch.Tensor.eq_`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).eq_(torch.tensor([2.0, 0.25]))',
                                  'tensor([0., 0.])'),),
                                False),
                        'equal': ("PyTorch's ``torch.Tensor.equal`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).equal(torch.tensor([2.0, 0.25]))',
                                    'False'),),
                                  False),
                        'erf': ("Elementwise ``erf`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.erf``.',
                                (('torch.tensor([0.5, 1.0]).erf()', 'tensor([0.5205, 0.8427])'),),
                                False),
                        'erf_': ("Elementwise ``erf`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.erf_``.',
                                 (('torch.tensor([0.5, 1.0]).erf_()', 'tensor([0.5205, 0.8427])'),),
                                 False),
                        'erfc': ("Elementwise ``erfc`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.erfc``.',
                                 (('torch.tensor([0.5, 1.0]).erfc()', 'tensor([0.4795, 0.1573])'),),
                                 False),
                        'erfc_': ("Elementwise ``erfc`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.erfc_``.',
                                  (('torch.tensor([0.5, 1.0]).erfc_()',
                                    'tensor([0.4795, 0.1573])'),),
                                  False),
                        'erfinv': ("Elementwise ``erfinv`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.erfinv``.',
                                   (('torch.tensor([0.5, 1.0]).erfinv()',
                                     'tensor([0.4769,    inf])'),),
                                   False),
                        'erfinv_': ('Elementwise ``erfinv`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.erfinv_``.",
                                    (('torch.tensor([0.5, 1.0]).erfinv_()',
                                      'tensor([0.4769,    inf])'),),
                                    False),
                        'exp': ("Elementwise ``exp`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.exp``.',
                                (('torch.tensor([0.5, 1.0]).exp()', 'tensor([1.6487, 2.7183])'),),
                                False),
                        'exp2': ("Elementwise ``exp2`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.exp2``.',
                                 (('torch.tensor([0.5, 1.0]).exp2()', 'tensor([1.4142, 2.0000])'),),
                                 False),
                        'exp2_': ("Elementwise ``exp2`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.exp2_``.',
                                  (('torch.tensor([0.5, 1.0]).exp2_()',
                                    'tensor([1.4142, 2.0000])'),),
                                  False),
                        'exp_': ("Elementwise ``exp`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.exp_``.',
                                 (('torch.tensor([0.5, 1.0]).exp_()', 'tensor([1.6487, 2.7183])'),),
                                 False),
                        'expand': ("PyTorch's ``torch.Tensor.expand`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).expand(2)',
                                     'tensor([0.5000, 1.0000])'),),
                                   False),
                        'expand_as': ("PyTorch's ``torch.Tensor.expand_as`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).expand_as(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([0.5000, 1.0000])'),),
                                      False),
                        'expm1': ("Elementwise ``expm1`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.expm1``.',
                                  (('torch.tensor([0.5, 1.0]).expm1()',
                                    'tensor([0.6487, 1.7183])'),),
                                  False),
                        'expm1_': ("Elementwise ``expm1`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.expm1_``.',
                                   (('torch.tensor([0.5, 1.0]).expm1_()',
                                     'tensor([0.6487, 1.7183])'),),
                                   False),
                        'exponential_': ("PyTorch's ``torch.Tensor.exponential_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.zeros(2, 3).exponential_().shape',
                                           'torch.Size([2, 3])'),),
                                         False),
                        'fill_': ("PyTorch's ``torch.Tensor.fill_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).fill_(1)',
                                    'tensor([[1., 1.],\n        [1., 1.]])'),),
                                  False),
                        'fill_diagonal_': ("PyTorch's ``torch.Tensor.fill_diagonal_`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.tensor([[1.0, 2.0], [3.0, '
                                             '4.0]]).fill_diagonal_(1)',
                                             'tensor([[1., 2.],\n        [3., 1.]])'),),
                                           False),
                        'fix': ("Elementwise ``trunc`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.fix``.',
                                (('torch.tensor([0.5, 1.0]).fix()', 'tensor([0., 1.])'),),
                                False),
                        'fix_': ("Elementwise ``trunc`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.fix_``.',
                                 (('torch.tensor([0.5, 1.0]).fix_()', 'tensor([0., 1.])'),),
                                 False),
                        'flatten': ("PyTorch's ``torch.Tensor.flatten`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).flatten()',
                                      'tensor([0.5000, 1.0000])'),),
                                    False),
                        'flip': ("PyTorch's ``torch.Tensor.flip`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).flip(1)',
                                   'tensor([[2., 1.],\n        [4., 3.]])'),),
                                 False),
                        'fliplr': ("PyTorch's ``torch.Tensor.fliplr`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).fliplr()',
                                     'tensor([[1., 2.],\n        [3., 1.]])'),),
                                   False),
                        'flipud': ("PyTorch's ``torch.Tensor.flipud`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).flipud()',
                                     'tensor([1.0000, 0.5000])'),),
                                   False),
                        'float': ("PyTorch's ``torch.Tensor.float`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).float()',
                                    'tensor([0.5000, 1.0000])'),),
                                  False),
                        'float_power': ("PyTorch's ``torch.Tensor.float_power`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([0.5, 1.0]).float_power(torch.tensor([2.0, '
                                          '0.25]))',
                                          'tensor([0.2500, 1.0000], dtype=torch.float64)'),),
                                        False),
                        'floor': ("Elementwise ``floor`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.floor``.',
                                  (('torch.tensor([0.5, 1.0]).floor()', 'tensor([0., 1.])'),),
                                  False),
                        'floor_': ("Elementwise ``floor`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.floor_``.',
                                   (('torch.tensor([0.5, 1.0]).floor_()', 'tensor([0., 1.])'),),
                                   False),
                        'floor_divide': ('Elementwise ``floor_divide`` of its tensor argument(s), '
                                         "as PyTorch's ``torch.Tensor.floor_divide``.",
                                         (('torch.tensor([0.5, '
                                           '1.0]).floor_divide(torch.tensor([2.0, 0.25]))',
                                           'tensor([0., 4.])'),),
                                         False),
                        'floor_divide_': ("PyTorch's ``torch.Tensor.floor_divide_`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.tensor([0.5, '
                                            '1.0]).floor_divide_(torch.tensor([2.0, 0.25]))',
                                            'tensor([0., 4.])'),),
                                          False),
                        'fmax': ("Elementwise ``fmax`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.fmax``.',
                                 (('torch.tensor([0.5, 1.0]).fmax(torch.tensor([2.0, 0.25]))',
                                   'tensor([2., 1.])'),),
                                 False),
                        'fmin': ("Elementwise ``fmin`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.fmin``.',
                                 (('torch.tensor([0.5, 1.0]).fmin(torch.tensor([2.0, 0.25]))',
                                   'tensor([0.5000, 0.2500])'),),
                                 False),
                        'fmod': ("Elementwise ``fmod`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.fmod``.',
                                 (('torch.tensor([0.5, 1.0]).fmod(torch.tensor([2.0, 0.25]))',
                                   'tensor([0.5000, 0.0000])'),),
                                 False),
                        'fmod_': ("PyTorch's ``torch.Tensor.fmod_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).fmod_(torch.tensor([2.0, 0.25]))',
                                    'tensor([0.5000, 0.0000])'),),
                                  False),
                        'frac': ("PyTorch's ``torch.Tensor.frac`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).frac()', 'tensor([0.5000, 0.0000])'),),
                                 False),
                        'frac_': ("PyTorch's ``torch.Tensor.frac_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).frac_()',
                                    'tensor([0.5000, 0.0000])'),),
                                  False),
                        'gather': ("PyTorch's ``torch.Tensor.gather`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).gather(1, '
                                     'torch.tensor([[1], [0]]))',
                                     'tensor([[2.],\n        [3.]])'),),
                                   False),
                        'gcd': ("PyTorch's ``torch.Tensor.gcd`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([5, 3]).gcd(torch.tensor([3, 2]))',
                                  'tensor([1, 1])'),),
                                False),
                        'ge': ('Elementwise ``greater_equal`` of its tensor argument(s), as '
                               "PyTorch's ``torch.Tensor.ge``.",
                               (('torch.tensor([0.5, 1.0]).ge(torch.tensor([2.0, 0.25]))',
                                 'tensor([False,  True])'),),
                               False),
                        'ge_': ("PyTorch's ``torch.Tensor.ge_`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).ge_(torch.tensor([2.0, 0.25]))',
                                  'tensor([0., 1.])'),),
                                False),
                        'geometric_': ("PyTorch's ``torch.Tensor.geometric_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.zeros(2, 3).geometric_(0.5).shape',
                                         'torch.Size([2, 3])'),),
                                       False),
                        'ger': ("PyTorch's ``torch.Tensor.ger`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).ger(torch.tensor([2.0, 0.25]))',
                                  'tensor([[1.0000, 0.1250],\n        [2.0000, 0.2500]])'),),
                                False),
                        'get_device': ("PyTorch's ``torch.Tensor.get_device`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).get_device()', '-1'),),
                                       False),
                        'greater': ('Elementwise ``greater`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.greater``.",
                                    (('torch.tensor([0.5, 1.0]).greater(torch.tensor([2.0, 0.25]))',
                                      'tensor([False,  True])'),),
                                    False),
                        'greater_': ("PyTorch's ``torch.Tensor.greater_`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).greater_(torch.tensor([2.0, '
                                       '0.25]))',
                                       'tensor([0., 1.])'),),
                                     False),
                        'greater_equal': ('Elementwise ``greater_equal`` of its tensor '
                                          "argument(s), as PyTorch's "
                                          '``torch.Tensor.greater_equal``.',
                                          (('torch.tensor([0.5, '
                                            '1.0]).greater_equal(torch.tensor([2.0, 0.25]))',
                                            'tensor([False,  True])'),),
                                          False),
                        'greater_equal_': ("PyTorch's ``torch.Tensor.greater_equal_`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.tensor([0.5, '
                                             '1.0]).greater_equal_(torch.tensor([2.0, 0.25]))',
                                             'tensor([0., 1.])'),),
                                           False),
                        'gt': ("Elementwise ``greater`` of its tensor argument(s), as PyTorch's "
                               '``torch.Tensor.gt``.',
                               (('torch.tensor([0.5, 1.0]).gt(torch.tensor([2.0, 0.25]))',
                                 'tensor([False,  True])'),),
                               False),
                        'gt_': ("PyTorch's ``torch.Tensor.gt_`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).gt_(torch.tensor([2.0, 0.25]))',
                                  'tensor([0., 1.])'),),
                                False),
                        'half': ("PyTorch's ``torch.Tensor.half`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).half()',
                                   'tensor([0.5000, 1.0000], dtype=torch.float16)'),),
                                 False),
                        'heaviside': ("PyTorch's ``torch.Tensor.heaviside`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).heaviside(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([1., 1.])'),),
                                      False),
                        'histc': ("PyTorch's ``torch.Tensor.histc`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).histc()',
                                    'tensor([1., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                                    '0., 0., 0., 0., 0.,\n'
                                    '        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                                    '0., 0., 0., 0., 0.,\n'
                                    '        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                                    '0., 0., 0., 0., 0.,\n'
                                    '        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                                    '0., 0., 0., 0., 0.,\n'
                                    '        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., '
                                    '0., 0., 0., 0., 0.,\n'
                                    '        0., 0., 0., 0., 0., 0., 0., 0., 0., 1.])'),),
                                  False),
                        'hypot': ("Elementwise ``hypot`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.hypot``.',
                                  (('torch.tensor([0.5, 1.0]).hypot(torch.tensor([2.0, 0.25]))',
                                    'tensor([2.0616, 1.0308])'),),
                                  False),
                        'hypot_': ("PyTorch's ``torch.Tensor.hypot_`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).hypot_(torch.tensor([2.0, 0.25]))',
                                     'tensor([2.0616, 1.0308])'),),
                                   False),
                        'index_add': ("PyTorch's ``torch.Tensor.index_add`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_add(0, '
                                        'torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, '
                                        '8.0]]))',
                                        'tensor([[ 8., 10.],\n        [ 8., 10.]])'),),
                                      False),
                        'index_add_': ("PyTorch's ``torch.Tensor.index_add_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_add_(0, '
                                         'torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, '
                                         '8.0]]))',
                                         'tensor([[ 8., 10.],\n        [ 8., 10.]])'),),
                                       False),
                        'index_copy': ("PyTorch's ``torch.Tensor.index_copy`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_copy(0, '
                                         'torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, '
                                         '8.0]]))',
                                         'tensor([[7., 8.],\n        [5., 6.]])'),),
                                       False),
                        'index_copy_': ("PyTorch's ``torch.Tensor.index_copy_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_copy_(0, '
                                          'torch.tensor([1, 0]), torch.tensor([[5.0, 6.0], [7.0, '
                                          '8.0]]))',
                                          'tensor([[7., 8.],\n        [5., 6.]])'),),
                                        False),
                        'index_fill': ("PyTorch's ``torch.Tensor.index_fill`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_fill(0, '
                                         'torch.tensor([1]), 5.0)',
                                         'tensor([[1., 2.],\n        [5., 5.]])'),),
                                       False),
                        'index_fill_': ("PyTorch's ``torch.Tensor.index_fill_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_fill_(0, '
                                          'torch.tensor([1]), 5.0)',
                                          'tensor([[1., 2.],\n        [5., 5.]])'),),
                                        False),
                        'index_put': ("PyTorch's ``torch.Tensor.index_put`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).index_put((torch.tensor([1]),), '
                                        'torch.tensor([5.0]))',
                                        'tensor([0.5000, 5.0000])'),),
                                      False),
                        'index_put_': ("PyTorch's ``torch.Tensor.index_put_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, '
                                         '1.0]).index_put_((torch.tensor([1]),), '
                                         'torch.tensor([5.0]))',
                                         'tensor([0.5000, 5.0000])'),),
                                       False),
                        'index_select': ("PyTorch's ``torch.Tensor.index_select`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).index_select(0, '
                                           'torch.tensor([1, 0]))',
                                           'tensor([[3., 4.],\n        [1., 2.]])'),),
                                         False),
                        'inner': ("PyTorch's ``torch.Tensor.inner`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).inner(torch.tensor([2.0, 0.25]))',
                                    'tensor(1.2500)'),),
                                  False),
                        'int': ("PyTorch's ``torch.Tensor.int`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).int()',
                                  'tensor([0, 1], dtype=torch.int32)'),),
                                False),
                        'inverse': ("PyTorch's ``torch.Tensor.inverse`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).inverse()',
                                      'tensor([[ 0.6000, -0.2000],\n'
                                      '        [-0.2000,  0.4000]])'),),
                                    False),
                        'is_complex': ("PyTorch's ``torch.Tensor.is_complex`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).is_complex()', 'False'),),
                                       False),
                        'is_contiguous': ("PyTorch's ``torch.Tensor.is_contiguous`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.tensor([0.5, 1.0]).is_contiguous()', 'True'),),
                                          False),
                        'is_floating_point': ("PyTorch's ``torch.Tensor.is_floating_point`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.tensor([0.5, 1.0]).is_floating_point()',
                                                'True'),),
                                              False),
                        'is_nonzero': ("PyTorch's ``torch.Tensor.is_nonzero`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([1.0]).is_nonzero()', 'True'),),
                                       False),
                        'is_pinned': ("PyTorch's ``torch.Tensor.is_pinned`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).is_pinned()', 'False'),),
                                      False),
                        'is_set_to': ("PyTorch's ``torch.Tensor.is_set_to`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).is_set_to(torch.tensor([2.0, '
                                        '0.25]))',
                                        'False'),),
                                      False),
                        'is_shared': ("PyTorch's ``torch.Tensor.is_shared`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).is_shared()', 'False'),),
                                      False),
                        'is_signed': ("PyTorch's ``torch.Tensor.is_signed`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).is_signed()', 'True'),),
                                      False),
                        'isclose': ("PyTorch's ``torch.Tensor.isclose`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).isclose(torch.tensor([2.0, 0.25]))',
                                      'tensor([False, False])'),),
                                    False),
                        'isfinite': ('Elementwise ``isfinite`` of its tensor argument(s), as '
                                     "PyTorch's ``torch.Tensor.isfinite``.",
                                     (('torch.tensor([0.5, 1.0]).isfinite()',
                                       'tensor([True, True])'),),
                                     False),
                        'isinf': ("Elementwise ``isinf`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.isinf``.',
                                  (('torch.tensor([0.5, 1.0]).isinf()', 'tensor([False, False])'),),
                                  False),
                        'isnan': ("Elementwise ``isnan`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.isnan``.',
                                  (('torch.tensor([0.5, 1.0]).isnan()', 'tensor([False, False])'),),
                                  False),
                        'isneginf': ("PyTorch's ``torch.Tensor.isneginf`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).isneginf()',
                                       'tensor([False, False])'),),
                                     False),
                        'isposinf': ("PyTorch's ``torch.Tensor.isposinf`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).isposinf()',
                                       'tensor([False, False])'),),
                                     False),
                        'isreal': ("PyTorch's ``torch.Tensor.isreal`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).isreal()', 'tensor([True, True])'),),
                                   False),
                        'item': ("PyTorch's ``torch.Tensor.item`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([2.5]).item()', '2.5'),),
                                 False),
                        'kron': ("PyTorch's ``torch.Tensor.kron`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).kron(torch.tensor([2.0, 0.25]))',
                                   'tensor([1.0000, 0.1250, 2.0000, 0.2500])'),),
                                 False),
                        'kthvalue': ("PyTorch's ``torch.Tensor.kthvalue`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).kthvalue(1)',
                                       'torch.return_types.kthvalue(\n'
                                       'values=tensor([1., 3.]),\n'
                                       'indices=tensor([0, 0]))'),),
                                     False),
                        'lcm': ("PyTorch's ``torch.Tensor.lcm`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([5, 3]).lcm(torch.tensor([3, 2]))',
                                  'tensor([15,  6])'),),
                                False),
                        'ldexp': ("PyTorch's ``torch.Tensor.ldexp`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).ldexp(torch.tensor([2.0, 0.25]))',
                                    'tensor([2.0000, 1.1892])'),),
                                  False),
                        'le': ("Elementwise ``less_equal`` of its tensor argument(s), as PyTorch's "
                               '``torch.Tensor.le``.',
                               (('torch.tensor([0.5, 1.0]).le(torch.tensor([2.0, 0.25]))',
                                 'tensor([ True, False])'),),
                               False),
                        'le_': ("PyTorch's ``torch.Tensor.le_`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).le_(torch.tensor([2.0, 0.25]))',
                                  'tensor([1., 0.])'),),
                                False),
                        'lerp': ("PyTorch's ``torch.Tensor.lerp`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).lerp(torch.tensor([2.0, 0.25]), '
                                   'torch.tensor([1.0, 2.0]))',
                                   'tensor([ 2.0000, -0.5000])'),),
                                 False),
                        'lerp_': ("PyTorch's ``torch.Tensor.lerp_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).lerp_(torch.tensor([2.0, 0.25]), '
                                    'torch.tensor([1.0, 2.0]))',
                                    'tensor([ 2.0000, -0.5000])'),),
                                  False),
                        'less': ("Elementwise ``less`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.less``.',
                                 (('torch.tensor([0.5, 1.0]).less(torch.tensor([2.0, 0.25]))',
                                   'tensor([ True, False])'),),
                                 False),
                        'less_': ("PyTorch's ``torch.Tensor.less_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).less_(torch.tensor([2.0, 0.25]))',
                                    'tensor([1., 0.])'),),
                                  False),
                        'less_equal': ('Elementwise ``less_equal`` of its tensor argument(s), as '
                                       "PyTorch's ``torch.Tensor.less_equal``.",
                                       (('torch.tensor([0.5, 1.0]).less_equal(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([ True, False])'),),
                                       False),
                        'less_equal_': ("PyTorch's ``torch.Tensor.less_equal_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([0.5, 1.0]).less_equal_(torch.tensor([2.0, '
                                          '0.25]))',
                                          'tensor([1., 0.])'),),
                                        False),
                        'log': ("Elementwise ``log`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.log``.',
                                (('torch.tensor([0.5, 1.0]).log()', 'tensor([-0.6931,  0.0000])'),),
                                False),
                        'log10': ("Elementwise ``log10`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.log10``.',
                                  (('torch.tensor([0.5, 1.0]).log10()',
                                    'tensor([-0.3010,  0.0000])'),),
                                  False),
                        'log10_': ("Elementwise ``log10`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.log10_``.',
                                   (('torch.tensor([0.5, 1.0]).log10_()',
                                     'tensor([-0.3010,  0.0000])'),),
                                   False),
                        'log1p': ("Elementwise ``log1p`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.log1p``.',
                                  (('torch.tensor([0.5, 1.0]).log1p()',
                                    'tensor([0.4055, 0.6931])'),),
                                  False),
                        'log1p_': ("Elementwise ``log1p`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.log1p_``.',
                                   (('torch.tensor([0.5, 1.0]).log1p_()',
                                     'tensor([0.4055, 0.6931])'),),
                                   False),
                        'log2': ("Elementwise ``log2`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.log2``.',
                                 (('torch.tensor([0.5, 1.0]).log2()', 'tensor([-1.,  0.])'),),
                                 False),
                        'log2_': ("Elementwise ``log2`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.log2_``.',
                                  (('torch.tensor([0.5, 1.0]).log2_()', 'tensor([-1.,  0.])'),),
                                  False),
                        'log_': ("Elementwise ``log`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.log_``.',
                                 (('torch.tensor([0.5, 1.0]).log_()',
                                   'tensor([-0.6931,  0.0000])'),),
                                 False),
                        'log_normal_': ("PyTorch's ``torch.Tensor.log_normal_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.zeros(2, 3).log_normal_().shape',
                                          'torch.Size([2, 3])'),),
                                        False),
                        'log_softmax': ("PyTorch's ``torch.Tensor.log_softmax`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).log_softmax(1)',
                                          'tensor([[-1.3133, -0.3133],\n'
                                          '        [-1.3133, -0.3133]])'),),
                                        False),
                        'logaddexp': ('Elementwise ``logaddexp`` of its tensor argument(s), as '
                                      "PyTorch's ``torch.Tensor.logaddexp``.",
                                      (('torch.tensor([0.5, 1.0]).logaddexp(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([2.2014, 1.3869])'),),
                                      False),
                        'logaddexp2': ('Elementwise ``logaddexp2`` of its tensor argument(s), as '
                                       "PyTorch's ``torch.Tensor.logaddexp2``.",
                                       (('torch.tensor([0.5, 1.0]).logaddexp2(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([2.4368, 1.6732])'),),
                                       False),
                        'logcumsumexp': ("PyTorch's ``torch.Tensor.logcumsumexp`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).logcumsumexp(1)',
                                           'tensor([[1.0000, 2.3133],\n'
                                           '        [3.0000, 4.3133]])'),),
                                         False),
                        'logdet': ("PyTorch's ``torch.Tensor.logdet`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).logdet()',
                                     'tensor(1.6094)'),),
                                   False),
                        'logical_and': ('Elementwise ``logical_and`` of its tensor argument(s), as '
                                        "PyTorch's ``torch.Tensor.logical_and``.",
                                        (('torch.tensor([0.5, 1.0]).logical_and(torch.tensor([2.0, '
                                          '0.25]))',
                                          'tensor([True, True])'),),
                                        False),
                        'logical_and_': ("PyTorch's ``torch.Tensor.logical_and_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([0.5, '
                                           '1.0]).logical_and_(torch.tensor([2.0, 0.25]))',
                                           'tensor([1., 1.])'),),
                                         False),
                        'logical_not': ('Elementwise ``logical_not`` of its tensor argument(s), as '
                                        "PyTorch's ``torch.Tensor.logical_not``.",
                                        (('torch.tensor([0.5, 1.0]).logical_not()',
                                          'tensor([False, False])'),),
                                        False),
                        'logical_or': ('Elementwise ``logical_or`` of its tensor argument(s), as '
                                       "PyTorch's ``torch.Tensor.logical_or``.",
                                       (('torch.tensor([0.5, 1.0]).logical_or(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([True, True])'),),
                                       False),
                        'logical_or_': ("PyTorch's ``torch.Tensor.logical_or_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([0.5, 1.0]).logical_or_(torch.tensor([2.0, '
                                          '0.25]))',
                                          'tensor([1., 1.])'),),
                                        False),
                        'logical_xor': ('Elementwise ``logical_xor`` of its tensor argument(s), as '
                                        "PyTorch's ``torch.Tensor.logical_xor``.",
                                        (('torch.tensor([0.5, 1.0]).logical_xor(torch.tensor([2.0, '
                                          '0.25]))',
                                          'tensor([False, False])'),),
                                        False),
                        'logical_xor_': ("PyTorch's ``torch.Tensor.logical_xor_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([0.5, '
                                           '1.0]).logical_xor_(torch.tensor([2.0, 0.25]))',
                                           'tensor([0., 0.])'),),
                                         False),
                        'logit': ("PyTorch's ``torch.Tensor.logit`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).logit()', 'tensor([0., inf])'),),
                                  False),
                        'logit_': ("PyTorch's ``torch.Tensor.logit_`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).logit_()', 'tensor([0., inf])'),),
                                   False),
                        'logsumexp': ("PyTorch's ``torch.Tensor.logsumexp`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).logsumexp(1)',
                                        'tensor([2.3133, 4.3133])'),),
                                      False),
                        'long': ("PyTorch's ``torch.Tensor.long`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).long()', 'tensor([0, 1])'),),
                                 False),
                        'lt': ("Elementwise ``less`` of its tensor argument(s), as PyTorch's "
                               '``torch.Tensor.lt``.',
                               (('torch.tensor([0.5, 1.0]).lt(torch.tensor([2.0, 0.25]))',
                                 'tensor([ True, False])'),),
                               False),
                        'lt_': ("PyTorch's ``torch.Tensor.lt_`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).lt_(torch.tensor([2.0, 0.25]))',
                                  'tensor([1., 0.])'),),
                                False),
                        'map_': ("PyTorch's ``torch.Tensor.map_`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([1.0, 2.0]).map_(torch.tensor([3.0, 4.0]), lambda '
                                   'a, b: a + b)',
                                   'tensor([4., 6.])'),),
                                 False),
                        'masked_fill': ("PyTorch's ``torch.Tensor.masked_fill`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([[1.0, 2.0], [3.0, '
                                          '4.0]]).masked_fill(torch.tensor([[True, False], [False, '
                                          'True]]), 0.0)',
                                          'tensor([[0., 2.],\n        [3., 0.]])'),),
                                        False),
                        'masked_fill_': ("PyTorch's ``torch.Tensor.masked_fill_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([[1.0, 2.0], [3.0, '
                                           '4.0]]).masked_fill_(torch.tensor([[True, False], '
                                           '[False, True]]), 0.0)',
                                           'tensor([[0., 2.],\n        [3., 0.]])'),),
                                         False),
                        'masked_scatter': ("PyTorch's ``torch.Tensor.masked_scatter`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.zeros(3).masked_scatter(torch.tensor([True, '
                                             'False, True]), torch.tensor([1.0, 2.0]))',
                                             'tensor([1., 0., 2.])'),),
                                           False),
                        'masked_select': ("PyTorch's ``torch.Tensor.masked_select`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.tensor([True, '
                                            'False]).masked_select(torch.tensor([True, True]))',
                                            'tensor([ True, False])'),),
                                          False),
                        'matmul': ("PyTorch's ``torch.Tensor.matmul`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).matmul(torch.tensor([2.0, 0.25]))',
                                     'tensor(1.2500)'),),
                                   False),
                        'matrix_power': ("PyTorch's ``torch.Tensor.matrix_power`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).matrix_power(1)',
                                           'tensor([[1., 2.],\n        [3., 4.]])'),),
                                         False),
                        'max': ("PyTorch's ``torch.Tensor.max`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).max()', 'tensor(1.)'),),
                                False),
                        'maximum': ('Elementwise ``maximum`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.maximum``.",
                                    (('torch.tensor([0.5, 1.0]).maximum(torch.tensor([2.0, 0.25]))',
                                      'tensor([2., 1.])'),),
                                    False),
                        'mean': ("Elementwise ``mean`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.mean``.',
                                 (('torch.tensor([0.5, 1.0]).mean()', 'tensor(0.7500)'),),
                                 False),
                        'median': ("PyTorch's ``torch.Tensor.median`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).median()', 'tensor(0.5000)'),),
                                   False),
                        'min': ("PyTorch's ``torch.Tensor.min`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).min()', 'tensor(0.5000)'),),
                                False),
                        'minimum': ('Elementwise ``minimum`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.minimum``.",
                                    (('torch.tensor([0.5, 1.0]).minimum(torch.tensor([2.0, 0.25]))',
                                      'tensor([0.5000, 0.2500])'),),
                                    False),
                        'mm': ("PyTorch's ``torch.Tensor.mm`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).mm(torch.tensor([[1.0, '
                                 '0.0], [2.0, 1.0]]))',
                                 'tensor([[4., 1.],\n        [7., 3.]])'),),
                               False),
                        'mode': ("PyTorch's ``torch.Tensor.mode`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).mode()',
                                   'torch.return_types.mode(\n'
                                   'values=tensor(0.5000),\n'
                                   'indices=tensor(0))'),),
                                 False),
                        'moveaxis': ("PyTorch's ``torch.Tensor.moveaxis`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).moveaxis(0, 1)',
                                       'tensor([[1., 3.],\n        [2., 4.]])'),),
                                     False),
                        'movedim': ("PyTorch's ``torch.Tensor.movedim`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).movedim(0, 1)',
                                      'tensor([[1., 3.],\n        [2., 4.]])'),),
                                    False),
                        'msort': ("PyTorch's ``torch.Tensor.msort`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).msort()',
                                    'tensor([0.5000, 1.0000])'),),
                                  False),
                        'mul': ("Elementwise ``multiply`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.mul``.',
                                (('torch.tensor([0.5, 1.0]).mul(torch.tensor([2.0, 0.25]))',
                                  'tensor([1.0000, 0.2500])'),),
                                False),
                        'mul_': ("PyTorch's ``torch.Tensor.mul_`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).mul_(torch.tensor([2.0, 0.25]))',
                                   'tensor([1.0000, 0.2500])'),),
                                 False),
                        'multinomial': ("PyTorch's ``torch.Tensor.multinomial`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([0.0, 1.0]).multinomial(2, '
                                          'replacement=True)',
                                          'tensor([1, 1])'),),
                                        False),
                        'multiply': ('Elementwise ``multiply`` of its tensor argument(s), as '
                                     "PyTorch's ``torch.Tensor.multiply``.",
                                     (('torch.tensor([0.5, 1.0]).multiply(torch.tensor([2.0, '
                                       '0.25]))',
                                       'tensor([1.0000, 0.2500])'),),
                                     False),
                        'multiply_': ("PyTorch's ``torch.Tensor.multiply_`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).multiply_(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([1.0000, 0.2500])'),),
                                      False),
                        'mv': ("PyTorch's ``torch.Tensor.mv`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).mv(torch.tensor([1.0, '
                                 '2.0]))',
                                 'tensor([4., 7.])'),),
                               False),
                        'mvlgamma': ("PyTorch's ``torch.Tensor.mvlgamma`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).mvlgamma(1)',
                                       'tensor([[0.0000, 0.0000],\n        [0.6931, 1.7918]])'),),
                                     False),
                        'nan_to_num': ("PyTorch's ``torch.Tensor.nan_to_num`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).nan_to_num()',
                                         'tensor([0.5000, 1.0000])'),),
                                       False),
                        'nanmean': ("PyTorch's ``torch.Tensor.nanmean`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).nanmean()', 'tensor(0.7500)'),),
                                    False),
                        'nanmedian': ("PyTorch's ``torch.Tensor.nanmedian`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).nanmedian()', 'tensor(0.5000)'),),
                                      False),
                        'nanquantile': ("PyTorch's ``torch.Tensor.nanquantile`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).nanquantile(1)',
                                          'tensor(4.)'),),
                                        False),
                        'nansum': ("PyTorch's ``torch.Tensor.nansum`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).nansum()', 'tensor(1.5000)'),),
                                   False),
                        'narrow': ("PyTorch's ``torch.Tensor.narrow`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([1.0, 2.0, 3.0]).narrow(0, 1, 2)',
                                     'tensor([2., 3.])'),),
                                   False),
                        'narrow_copy': ("PyTorch's ``torch.Tensor.narrow_copy`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([1.0, 2.0, 3.0]).narrow_copy(0, 1, 2)',
                                          'tensor([2., 3.])'),),
                                        False),
                        'ndimension': ("PyTorch's ``torch.Tensor.ndimension`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).ndimension()', '1'),),
                                       False),
                        'ne': ("Elementwise ``not_equal`` of its tensor argument(s), as PyTorch's "
                               '``torch.Tensor.ne``.',
                               (('torch.tensor([0.5, 1.0]).ne(torch.tensor([2.0, 0.25]))',
                                 'tensor([True, True])'),),
                               False),
                        'ne_': ("PyTorch's ``torch.Tensor.ne_`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).ne_(torch.tensor([2.0, 0.25]))',
                                  'tensor([1., 1.])'),),
                                False),
                        'neg': ("Elementwise ``negative`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.neg``.',
                                (('torch.tensor([0.5, 1.0]).neg()', 'tensor([-0.5000, -1.0000])'),),
                                False),
                        'neg_': ("Elementwise ``negative`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.neg_``.',
                                 (('torch.tensor([0.5, 1.0]).neg_()',
                                   'tensor([-0.5000, -1.0000])'),),
                                 False),
                        'negative': ('Elementwise ``negative`` of its tensor argument(s), as '
                                     "PyTorch's ``torch.Tensor.negative``.",
                                     (('torch.tensor([0.5, 1.0]).negative()',
                                       'tensor([-0.5000, -1.0000])'),),
                                     False),
                        'negative_': ('Elementwise ``negative`` of its tensor argument(s), as '
                                      "PyTorch's ``torch.Tensor.negative_``.",
                                      (('torch.tensor([0.5, 1.0]).negative_()',
                                        'tensor([-0.5000, -1.0000])'),),
                                      False),
                        'nelement': ("PyTorch's ``torch.Tensor.nelement`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).nelement()', '2'),),
                                     False),
                        'new_empty': ("PyTorch's ``torch.Tensor.new_empty`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).new_empty(0, 1)',
                                        'tensor([], size=(0, 1))'),),
                                      False),
                        'new_full': ("PyTorch's ``torch.Tensor.new_full`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).new_full((2,), 1.5)',
                                       'tensor([1.5000, 1.5000])'),),
                                     False),
                        'new_ones': ("PyTorch's ``torch.Tensor.new_ones`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).new_ones(1)',
                                       'tensor([1.])'),),
                                     False),
                        'new_tensor': ("PyTorch's ``torch.Tensor.new_tensor`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).new_tensor(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([2.0000, 0.2500])'),),
                                       False),
                        'new_zeros': ("PyTorch's ``torch.Tensor.new_zeros`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).new_zeros(1)',
                                        'tensor([0.])'),),
                                      False),
                        'nonzero': ("PyTorch's ``torch.Tensor.nonzero`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).nonzero()',
                                      'tensor([[0],\n        [1]])'),),
                                    False),
                        'norm': ("PyTorch's ``torch.Tensor.norm`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).norm()', 'tensor(1.1180)'),),
                                 False),
                        'normal_': ("PyTorch's ``torch.Tensor.normal_`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[0.5, 1.0], [2.0, 3.0]]).normal_(1, 0)',
                                      'tensor([[1., 1.],\n        [1., 1.]])'),),
                                    False),
                        'not_equal': ('Elementwise ``not_equal`` of its tensor argument(s), as '
                                      "PyTorch's ``torch.Tensor.not_equal``.",
                                      (('torch.tensor([0.5, 1.0]).not_equal(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([True, True])'),),
                                      False),
                        'not_equal_': ("PyTorch's ``torch.Tensor.not_equal_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).not_equal_(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([1., 1.])'),),
                                       False),
                        'numel': ("PyTorch's ``torch.Tensor.numel`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).numel()', '2'),),
                                  False),
                        'numpy': ("PyTorch's ``torch.Tensor.numpy`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).numpy()',
                                    'array([0.5, 1. ], dtype=float32)'),),
                                  False),
                        'outer': ("PyTorch's ``torch.Tensor.outer`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).outer(torch.tensor([2.0, 0.25]))',
                                    'tensor([[1.0000, 0.1250],\n        [2.0000, 0.2500]])'),),
                                  False),
                        'permute': ("PyTorch's ``torch.Tensor.permute`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).permute(0, 1)',
                                      'tensor([[1., 2.],\n        [3., 4.]])'),),
                                    False),
                        'pinverse': ("PyTorch's ``torch.Tensor.pinverse`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).pinverse()',
                                       'tensor([[ 0.6000, -0.2000],\n'
                                       '        [-0.2000,  0.4000]])'),),
                                     False),
                        'polygamma': ("PyTorch's ``torch.Tensor.polygamma`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).polygamma(1)',
                                        'tensor([[1.6449, 0.6449],\n        [0.3949, 0.2838]])'),),
                                      False),
                        'positive': ("PyTorch's ``torch.Tensor.positive`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).positive()',
                                       'tensor([0.5000, 1.0000])'),),
                                     False),
                        'pow': ("Elementwise ``power`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.pow``.',
                                (('torch.tensor([0.5, 1.0]).pow(torch.tensor([2.0, 0.25]))',
                                  'tensor([0.2500, 1.0000])'),),
                                False),
                        'pow_': ("PyTorch's ``torch.Tensor.pow_`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).pow_(torch.tensor([2.0, 0.25]))',
                                   'tensor([0.2500, 1.0000])'),),
                                 False),
                        'prod': ("Elementwise ``prod`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.prod``.',
                                 (('torch.tensor([0.5, 1.0]).prod()', 'tensor(0.5000)'),),
                                 False),
                        'put_': ("PyTorch's ``torch.Tensor.put_`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).put_(torch.tensor([1]), '
                                   'torch.tensor([5.0]))',
                                   'tensor([0.5000, 5.0000])'),),
                                 False),
                        'qr': ("PyTorch's ``torch.Tensor.qr`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).qr()',
                                 'torch.return_types.qr(\n'
                                 'Q=tensor([[-0.8944, -0.4472],\n'
                                 '        [-0.4472,  0.8944]]),\n'
                                 'R=tensor([[-2.2361, -2.2361],\n'
                                 '        [ 0.0000,  2.2361]]))'),),
                               True),
                        'quantile': ("PyTorch's ``torch.Tensor.quantile`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).quantile(1)',
                                       'tensor(4.)'),),
                                     False),
                        'rad2deg': ("PyTorch's ``torch.Tensor.rad2deg`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).rad2deg()',
                                      'tensor([28.6479, 57.2958])'),),
                                    False),
                        'random_': ("PyTorch's ``torch.Tensor.random_`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).random_(1)',
                                      'tensor([[0., 0.],\n        [0., 0.]])'),),
                                    False),
                        'ravel': ("PyTorch's ``torch.Tensor.ravel`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).ravel()',
                                    'tensor([0.5000, 1.0000])'),),
                                  False),
                        'reciprocal': ("PyTorch's ``torch.Tensor.reciprocal`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).reciprocal()',
                                         'tensor([2., 1.])'),),
                                       False),
                        'reciprocal_': ("PyTorch's ``torch.Tensor.reciprocal_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([0.5, 1.0]).reciprocal_()',
                                          'tensor([2., 1.])'),),
                                        False),
                        'register_hook': ("PyTorch's ``torch.Tensor.register_hook`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('x = torch.tensor([1.0, 2.0], requires_grad=True)', ''),
                                           ('_ = x.register_hook(lambda g: g * 10)', ''),
                                           ('(x * x).sum().backward()', ''),
                                           ('x.grad', 'tensor([20., 40.])')),
                                          False),
                        'register_post_accumulate_grad_hook': ("PyTorch's "
                                                               '``torch.Tensor.register_post_accumulate_grad_hook`` '
                                                               '(same arguments and results), '
                                                               "computed by fgrad's primitives.",
                                                               (('x = torch.tensor([1.0], '
                                                                 'requires_grad=True)',
                                                                 ''),
                                                                ('_ = '
                                                                 'x.register_post_accumulate_grad_hook(lambda '
                                                                 "t: print('accumulated', t.grad))",
                                                                 ''),
                                                                ('(2 * x).sum().backward()',
                                                                 'accumulated tensor([2.])')),
                                                               False),
                        'relu': ("PyTorch's ``torch.Tensor.relu`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).relu()', 'tensor([0.5000, 1.0000])'),),
                                 False),
                        'relu_': ("PyTorch's ``torch.Tensor.relu_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).relu_()',
                                    'tensor([0.5000, 1.0000])'),),
                                  False),
                        'remainder': ("Elementwise ``mod`` of its tensor argument(s), as PyTorch's "
                                      '``torch.Tensor.remainder``.',
                                      (('torch.tensor([0.5, 1.0]).remainder(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([0.5000, 0.0000])'),),
                                      False),
                        'remainder_': ("PyTorch's ``torch.Tensor.remainder_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).remainder_(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([0.5000, 0.0000])'),),
                                       False),
                        'renorm': ("PyTorch's ``torch.Tensor.renorm`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).renorm(2, 0, 1.0)',
                                     'tensor([[0.4472, 0.8944],\n        [0.6000, 0.8000]])'),),
                                   False),
                        'repeat': ("PyTorch's ``torch.Tensor.repeat`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).repeat(0, 1)',
                                     'tensor([], size=(0, 2))'),),
                                   False),
                        'repeat_interleave': ("PyTorch's ``torch.Tensor.repeat_interleave`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.tensor([5, '
                                                '3]).repeat_interleave(torch.tensor([3, 2]))',
                                                'tensor([5, 5, 5, 3, 3])'),),
                                              False),
                        'requires_grad_': ("PyTorch's ``torch.Tensor.requires_grad_`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.tensor([0.5, 1.0]).requires_grad_()',
                                             'tensor([0.5000, 1.0000], requires_grad=True)'),),
                                           False),
                        'reshape': ("PyTorch's ``torch.Tensor.reshape`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).reshape((4,))',
                                      'tensor([1., 2., 3., 4.])'),),
                                    False),
                        'reshape_as': ("PyTorch's ``torch.Tensor.reshape_as`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).reshape_as(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([0.5000, 1.0000])'),),
                                       False),
                        'resize_': ("PyTorch's ``torch.Tensor.resize_`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).resize_(1)',
                                      'tensor([1.])'),),
                                    False),
                        'resize_as_': ("PyTorch's ``torch.Tensor.resize_as_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([0.5, 1.0]).resize_as_(torch.tensor([2.0, '
                                         '0.25]))',
                                         'tensor([0.5000, 1.0000])'),),
                                       False),
                        'retain_grad': ("PyTorch's ``torch.Tensor.retain_grad`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('x = torch.tensor([1.0, 2.0], requires_grad=True)', ''),
                                         ('y = x * 2', ''),
                                         ('y.retain_grad()', ''),
                                         ('y.sum().backward()', ''),
                                         ('y.grad', 'tensor([1., 1.])')),
                                        False),
                        'roll': ("PyTorch's ``torch.Tensor.roll`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).roll(1)',
                                   'tensor([[4., 1.],\n        [2., 3.]])'),),
                                 False),
                        'rot90': ("PyTorch's ``torch.Tensor.rot90`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).rot90()',
                                    'tensor([[1., 3.],\n        [2., 1.]])'),),
                                  False),
                        'round': ("PyTorch's ``torch.Tensor.round`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).round()', 'tensor([0., 1.])'),),
                                  False),
                        'round_': ("PyTorch's ``torch.Tensor.round_`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).round_()', 'tensor([0., 1.])'),),
                                   False),
                        'rsqrt': ("PyTorch's ``torch.Tensor.rsqrt`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).rsqrt()',
                                    'tensor([1.4142, 1.0000])'),),
                                  False),
                        'rsqrt_': ("PyTorch's ``torch.Tensor.rsqrt_`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).rsqrt_()',
                                     'tensor([1.4142, 1.0000])'),),
                                   False),
                        'rsub': ("PyTorch's ``torch.Tensor.rsub`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([1.0, 2.0]).rsub(torch.tensor([3.0, 5.0]))',
                                   'tensor([2., 3.])',
                                   'torch.rsub(torch.tensor([1.0, 2.0]), torch.tensor([3.0, '
                                   '5.0]))'),),
                                 False),
                        'scatter': ("PyTorch's ``torch.Tensor.scatter`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).scatter(0, '
                                      'torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))',
                                      'tensor([[1., 6.],\n        [5., 4.]])'),),
                                    False),
                        'scatter_': ("PyTorch's ``torch.Tensor.scatter_`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).scatter_(0, '
                                       'torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))',
                                       'tensor([[1., 6.],\n        [5., 4.]])'),),
                                     False),
                        'scatter_add': ("PyTorch's ``torch.Tensor.scatter_add`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).scatter_add(0, '
                                          'torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))',
                                          'tensor([[1., 8.],\n        [8., 4.]])'),),
                                        False),
                        'scatter_add_': ("PyTorch's ``torch.Tensor.scatter_add_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).scatter_add_(0, '
                                           'torch.tensor([[1, 0]]), torch.tensor([[5.0, 6.0]]))',
                                           'tensor([[1., 8.],\n        [8., 4.]])'),),
                                         False),
                        'scatter_reduce': ("PyTorch's ``torch.Tensor.scatter_reduce`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.zeros(3).scatter_reduce(0, torch.tensor([2, '
                                             "2]), torch.tensor([1.0, 2.0]), 'amax')",
                                             'tensor([0., 0., 2.])'),),
                                           False),
                        'select': ("PyTorch's ``torch.Tensor.select`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).select(0, 1)',
                                     'tensor([3., 4.])'),),
                                   False),
                        'sgn': ("Elementwise ``sign`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.sgn``.',
                                (('torch.tensor([0.5, 1.0]).sgn()', 'tensor([1., 1.])'),),
                                False),
                        'share_memory_': ("PyTorch's ``torch.Tensor.share_memory_`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.tensor([0.5, 1.0]).share_memory_()',
                                            'tensor([0.5000, 1.0000])'),),
                                          False),
                        'short': ("PyTorch's ``torch.Tensor.short`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).short()',
                                    'tensor([0, 1], dtype=torch.int16)'),),
                                  False),
                        'sigmoid': ('Elementwise ``sigmoid`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.sigmoid``.",
                                    (('torch.tensor([0.5, 1.0]).sigmoid()',
                                      'tensor([0.6225, 0.7311])'),),
                                    False),
                        'sigmoid_': ('Elementwise ``sigmoid`` of its tensor argument(s), as '
                                     "PyTorch's ``torch.Tensor.sigmoid_``.",
                                     (('torch.tensor([0.5, 1.0]).sigmoid_()',
                                       'tensor([0.6225, 0.7311])'),),
                                     False),
                        'sign': ("Elementwise ``sign`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.sign``.',
                                 (('torch.tensor([0.5, 1.0]).sign()', 'tensor([1., 1.])'),),
                                 False),
                        'sign_': ("Elementwise ``sign`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.sign_``.',
                                  (('torch.tensor([0.5, 1.0]).sign_()', 'tensor([1., 1.])'),),
                                  False),
                        'signbit': ('Elementwise ``signbit`` of its tensor argument(s), as '
                                    "PyTorch's ``torch.Tensor.signbit``.",
                                    (('torch.tensor([0.5, 1.0]).signbit()',
                                      'tensor([False, False])'),),
                                    False),
                        'sin': ("Elementwise ``sin`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.sin``.',
                                (('torch.tensor([0.5, 1.0]).sin()', 'tensor([0.4794, 0.8415])'),),
                                False),
                        'sin_': ("Elementwise ``sin`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.sin_``.',
                                 (('torch.tensor([0.5, 1.0]).sin_()', 'tensor([0.4794, 0.8415])'),),
                                 False),
                        'sinc': ("PyTorch's ``torch.Tensor.sinc`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).sinc()',
                                   'tensor([ 6.3662e-01, -2.7828e-08])'),),
                                 False),
                        'sinh': ("Elementwise ``sinh`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.sinh``.',
                                 (('torch.tensor([0.5, 1.0]).sinh()', 'tensor([0.5211, 1.1752])'),),
                                 False),
                        'sinh_': ("Elementwise ``sinh`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.sinh_``.',
                                  (('torch.tensor([0.5, 1.0]).sinh_()',
                                    'tensor([0.5211, 1.1752])'),),
                                  False),
                        'size': ("PyTorch's ``torch.Tensor.size`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).size()', 'torch.Size([2])'),),
                                 False),
                        'slogdet': ("PyTorch's ``torch.Tensor.slogdet`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[2.0, 0.0], [0.0, 1.0]]).slogdet()',
                                      'torch.return_types.slogdet(\n'
                                      'sign=tensor(1.),\n'
                                      'logabsdet=tensor(0.6931))'),),
                                    False),
                        'softmax': ("PyTorch's ``torch.Tensor.softmax`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).softmax(1)',
                                      'tensor([[0.2689, 0.7311],\n        [0.2689, 0.7311]])'),),
                                    False),
                        'sort': ("PyTorch's ``torch.Tensor.sort`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).sort()',
                                   'torch.return_types.sort(\n'
                                   'values=tensor([0.5000, 1.0000]),\n'
                                   'indices=tensor([0, 1]))'),),
                                 False),
                        'split': ("PyTorch's ``torch.Tensor.split`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).split(1)',
                                    '(tensor([[1., 2.]]), tensor([[3., 4.]]))'),),
                                  False),
                        'sqrt': ("Elementwise ``sqrt`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.sqrt``.',
                                 (('torch.tensor([0.5, 1.0]).sqrt()', 'tensor([0.7071, 1.0000])'),),
                                 False),
                        'sqrt_': ("Elementwise ``sqrt`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.sqrt_``.',
                                  (('torch.tensor([0.5, 1.0]).sqrt_()',
                                    'tensor([0.7071, 1.0000])'),),
                                  False),
                        'square': ("PyTorch's ``torch.Tensor.square`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).square()',
                                     'tensor([0.2500, 1.0000])'),),
                                   False),
                        'square_': ("PyTorch's ``torch.Tensor.square_`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).square_()',
                                      'tensor([0.2500, 1.0000])'),),
                                    False),
                        'squeeze': ("PyTorch's ``torch.Tensor.squeeze`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).squeeze()',
                                      'tensor([0.5000, 1.0000])'),),
                                    False),
                        'squeeze_': ("PyTorch's ``torch.Tensor.squeeze_`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([0.5, 1.0]).squeeze_()',
                                       'tensor([0.5000, 1.0000])'),),
                                     False),
                        'std': ("PyTorch's ``torch.Tensor.std`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).std()', 'tensor(0.3536)'),),
                                False),
                        'storage': ("PyTorch's ``torch.Tensor.storage`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).storage()',
                                      ' 0.5\n'
                                      ' 1.0\n'
                                      '[torch.storage.TypedStorage(dtype=torch.float32, '
                                      'device=cpu) of size 2]'),),
                                    False),
                        'storage_offset': ("PyTorch's ``torch.Tensor.storage_offset`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.tensor([0.5, 1.0]).storage_offset()', '0'),),
                                           False),
                        'stride': ("PyTorch's ``torch.Tensor.stride`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).stride()', '(1,)'),),
                                   False),
                        'sub': ("Elementwise ``subtract`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.sub``.',
                                (('torch.tensor([0.5, 1.0]).sub(torch.tensor([2.0, 0.25]))',
                                  'tensor([-1.5000,  0.7500])'),),
                                False),
                        'sub_': ("PyTorch's ``torch.Tensor.sub_`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).sub_(torch.tensor([2.0, 0.25]))',
                                   'tensor([-1.5000,  0.7500])'),),
                                 False),
                        'subtract': ('Elementwise ``subtract`` of its tensor argument(s), as '
                                     "PyTorch's ``torch.Tensor.subtract``.",
                                     (('torch.tensor([0.5, 1.0]).subtract(torch.tensor([2.0, '
                                       '0.25]))',
                                       'tensor([-1.5000,  0.7500])'),),
                                     False),
                        'subtract_': ("PyTorch's ``torch.Tensor.subtract_`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([0.5, 1.0]).subtract_(torch.tensor([2.0, '
                                        '0.25]))',
                                        'tensor([-1.5000,  0.7500])'),),
                                      False),
                        'sum': ("Elementwise ``sum`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.sum``.',
                                (('torch.tensor([0.5, 1.0]).sum()', 'tensor(1.5000)'),),
                                False),
                        'sum_to_size': ("PyTorch's ``torch.Tensor.sum_to_size`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).sum_to_size(1)',
                                          'tensor([10.])'),),
                                        False),
                        'svd': ("PyTorch's ``torch.Tensor.svd`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).svd()',
                                  'torch.return_types.svd(\n'
                                  'U=tensor([[-0.5257, -0.8507],\n'
                                  '        [-0.8507,  0.5257]]),\n'
                                  'S=tensor([3.6180, 1.3820]),\n'
                                  'V=tensor([[-0.5257, -0.8507],\n'
                                  '        [-0.8507,  0.5257]]))'),),
                                False),
                        'swapaxes': ("PyTorch's ``torch.Tensor.swapaxes`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).swapaxes(0, 1)',
                                       'tensor([[1., 3.],\n        [2., 4.]])'),),
                                     False),
                        'swapaxes_': ("PyTorch's ``torch.Tensor.swapaxes_`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).swapaxes_(0, 1)',
                                        'tensor([[1., 3.],\n        [2., 4.]])'),),
                                      False),
                        'swapdims': ("PyTorch's ``torch.Tensor.swapdims`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).swapdims(0, 1)',
                                       'tensor([[1., 3.],\n        [2., 4.]])'),),
                                     False),
                        'swapdims_': ("PyTorch's ``torch.Tensor.swapdims_`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).swapdims_(0, 1)',
                                        'tensor([[1., 3.],\n        [2., 4.]])'),),
                                      False),
                        't': ("PyTorch's ``torch.Tensor.t`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.tensor([0.5, 1.0]).t()', 'tensor([0.5000, 1.0000])'),),
                              False),
                        't_': ("PyTorch's ``torch.Tensor.t_`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.tensor([0.5, 1.0]).t_()', 'tensor([0.5000, 1.0000])'),),
                               False),
                        'take': ("PyTorch's ``torch.Tensor.take`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([[0.5, 1.0]]).take(torch.tensor([1]))',
                                   'tensor([1.])'),),
                                 False),
                        'take_along_dim': ("PyTorch's ``torch.Tensor.take_along_dim`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.tensor([[0.5, '
                                             '1.0]]).take_along_dim(torch.tensor([1]))',
                                             'tensor([1.])'),),
                                           False),
                        'tan': ("Elementwise ``tan`` of its tensor argument(s), as PyTorch's "
                                '``torch.Tensor.tan``.',
                                (('torch.tensor([0.5, 1.0]).tan()', 'tensor([0.5463, 1.5574])'),),
                                False),
                        'tan_': ("Elementwise ``tan`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.tan_``.',
                                 (('torch.tensor([0.5, 1.0]).tan_()', 'tensor([0.5463, 1.5574])'),),
                                 False),
                        'tanh': ("Elementwise ``tanh`` of its tensor argument(s), as PyTorch's "
                                 '``torch.Tensor.tanh``.',
                                 (('torch.tensor([0.5, 1.0]).tanh()', 'tensor([0.4621, 0.7616])'),),
                                 False),
                        'tanh_': ("Elementwise ``tanh`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.tanh_``.',
                                  (('torch.tensor([0.5, 1.0]).tanh_()',
                                    'tensor([0.4621, 0.7616])'),),
                                  False),
                        'tensor_split': ("PyTorch's ``torch.Tensor.tensor_split`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([5, 3]).tensor_split(torch.tensor([3, '
                                           '2]))',
                                           '(tensor([5, 3]), tensor([], dtype=torch.int64), '
                                           'tensor([], dtype=torch.int64))'),),
                                         False),
                        'tile': ("PyTorch's ``torch.Tensor.tile`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).tile([1, 0])',
                                   'tensor([], size=(2, 0))'),),
                                 False),
                        'to': ("PyTorch's ``torch.Tensor.to`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.tensor([0.5, 1.0]).to()', 'tensor([0.5000, 1.0000])'),),
                               False),
                        'tolist': ("PyTorch's ``torch.Tensor.tolist`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).tolist()', '[0.5, 1.0]'),),
                                   False),
                        'topk': ("PyTorch's ``torch.Tensor.topk`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).topk(1)',
                                   'torch.return_types.topk(\n'
                                   'values=tensor([[2.],\n'
                                   '        [4.]]),\n'
                                   'indices=tensor([[1],\n'
                                   '        [1]]))'),),
                                 False),
                        'trace': ("PyTorch's ``torch.Tensor.trace`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).trace()',
                                    'tensor(5.)'),),
                                  False),
                        'transpose': ("PyTorch's ``torch.Tensor.transpose`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).transpose(0, 1)',
                                        'tensor([[1., 3.],\n        [2., 4.]])'),),
                                      False),
                        'transpose_': ("PyTorch's ``torch.Tensor.transpose_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).transpose_(0, 1)',
                                         'tensor([[1., 3.],\n        [2., 4.]])'),),
                                       False),
                        'tril': ("PyTorch's ``torch.Tensor.tril`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).tril()',
                                   'tensor([[2., 0.],\n        [1., 3.]])'),),
                                 False),
                        'tril_': ("PyTorch's ``torch.Tensor.tril_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).tril_()',
                                    'tensor([[2., 0.],\n        [1., 3.]])'),),
                                  False),
                        'triu': ("PyTorch's ``torch.Tensor.triu`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).triu()',
                                   'tensor([[2., 1.],\n        [0., 3.]])'),),
                                 False),
                        'triu_': ("PyTorch's ``torch.Tensor.triu_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([[2.0, 1.0], [1.0, 3.0]]).triu_()',
                                    'tensor([[2., 1.],\n        [0., 3.]])'),),
                                  False),
                        'true_divide': ('Elementwise ``divide`` of its tensor argument(s), as '
                                        "PyTorch's ``torch.Tensor.true_divide``.",
                                        (('torch.tensor([0.5, 1.0]).true_divide(torch.tensor([2.0, '
                                          '0.25]))',
                                          'tensor([0.2500, 4.0000])'),),
                                        False),
                        'true_divide_': ("PyTorch's ``torch.Tensor.true_divide_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.tensor([0.5, '
                                           '1.0]).true_divide_(torch.tensor([2.0, 0.25]))',
                                           'tensor([0.2500, 4.0000])'),),
                                         False),
                        'trunc': ("Elementwise ``trunc`` of its tensor argument(s), as PyTorch's "
                                  '``torch.Tensor.trunc``.',
                                  (('torch.tensor([0.5, 1.0]).trunc()', 'tensor([0., 1.])'),),
                                  False),
                        'trunc_': ("Elementwise ``trunc`` of its tensor argument(s), as PyTorch's "
                                   '``torch.Tensor.trunc_``.',
                                   (('torch.tensor([0.5, 1.0]).trunc_()', 'tensor([0., 1.])'),),
                                   False),
                        'type': ("PyTorch's ``torch.Tensor.type`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).type()', "'torch.FloatTensor'"),),
                                 False),
                        'type_as': ("PyTorch's ``torch.Tensor.type_as`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).type_as(torch.tensor([2.0, 0.25]))',
                                      'tensor([0.5000, 1.0000])'),),
                                    False),
                        'unbind': ("PyTorch's ``torch.Tensor.unbind`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).unbind()',
                                     '(tensor(0.5000), tensor(1.))'),),
                                   False),
                        'unflatten': ("PyTorch's ``torch.Tensor.unflatten`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.arange(4.0).unflatten(0, (2, 2))',
                                        'tensor([[0., 1.],\n        [2., 3.]])'),),
                                      False),
                        'unfold': ("PyTorch's ``torch.Tensor.unfold`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([1.0, 2.0, 3.0]).unfold(0, 1, 2)',
                                     'tensor([[1.],\n        [3.]])'),),
                                   False),
                        'uniform_': ("PyTorch's ``torch.Tensor.uniform_`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).uniform_(1)',
                                       'tensor([[1., 1.],\n        [1., 1.]])'),),
                                     False),
                        'unique': ("PyTorch's ``torch.Tensor.unique`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.tensor([0.5, 1.0]).unique()',
                                     'tensor([0.5000, 1.0000])'),),
                                   False),
                        'unique_consecutive': ("PyTorch's ``torch.Tensor.unique_consecutive`` "
                                               "(same arguments and results), computed by fgrad's "
                                               'primitives.',
                                               (('torch.tensor([0.5, 1.0]).unique_consecutive()',
                                                 'tensor([0.5000, 1.0000])'),),
                                               False),
                        'unsqueeze': ("PyTorch's ``torch.Tensor.unsqueeze`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).unsqueeze(1)',
                                        'tensor([[[1., 2.]],\n\n        [[3., 4.]]])'),),
                                      False),
                        'unsqueeze_': ("PyTorch's ``torch.Tensor.unsqueeze_`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).unsqueeze_(1)',
                                         'tensor([[[1., 2.]],\n\n        [[3., 4.]]])'),),
                                       False),
                        'untyped_storage': ("PyTorch's ``torch.Tensor.untyped_storage`` (same "
                                            "arguments and results), computed by fgrad's "
                                            'primitives.',
                                            (('torch.tensor([0.5, 1.0]).untyped_storage()',
                                              ' 0\n'
                                              ' 0\n'
                                              ' 0\n'
                                              ' 63\n'
                                              ' 0\n'
                                              ' 0\n'
                                              ' 128\n'
                                              ' 63\n'
                                              '[torch.storage.UntypedStorage(device=cpu) of size '
                                              '8]'),),
                                            False),
                        'var': ("PyTorch's ``torch.Tensor.var`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.tensor([0.5, 1.0]).var()', 'tensor(0.1250)'),),
                                False),
                        'vdot': ("PyTorch's ``torch.Tensor.vdot`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([0.5, 1.0]).vdot(torch.tensor([2.0, 0.25]))',
                                   'tensor(1.2500)'),),
                                 False),
                        'view': ("PyTorch's ``torch.Tensor.view`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.tensor([[1.0, 2.0], [3.0, 4.0]]).view((4,))',
                                   'tensor([1., 2., 3., 4.])'),),
                                 False),
                        'view_as': ("PyTorch's ``torch.Tensor.view_as`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.tensor([0.5, 1.0]).view_as(torch.tensor([2.0, 0.25]))',
                                      'tensor([0.5000, 1.0000])'),),
                                    False),
                        'where': ("PyTorch's ``torch.Tensor.where`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([[1.0, 2.0], [3.0, '
                                    '4.0]]).where(torch.tensor([[True, False], [False, True]]), '
                                    '0.0)',
                                    'tensor([[1., 0.],\n        [0., 4.]])'),),
                                  False),
                        'xlogy': ("PyTorch's ``torch.Tensor.xlogy`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).xlogy(torch.tensor([2.0, 0.25]))',
                                    'tensor([ 0.3466, -1.3863])'),),
                                  False),
                        'zero_': ("PyTorch's ``torch.Tensor.zero_`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.tensor([0.5, 1.0]).zero_()', 'tensor([0., 0.])'),),
                                  False)},
 'fgrad.torch.autograd': {'Variable': ("PyTorch's ``torch.autograd.Variable`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.autograd.Variable(torch.tensor([0.5, 1.0]))',
                                         'tensor([0.5000, 1.0000])'),),
                                       False),
                          'gradgradcheck': ("PyTorch's ``torch.autograd.gradgradcheck`` (same "
                                            "arguments and results), computed by fgrad's "
                                            'primitives.',
                                            (('torch.autograd.gradgradcheck(torch.sin, '
                                              '(torch.tensor([0.5], dtype=torch.float64, '
                                              'requires_grad=True),))',
                                              'True'),),
                                            False),
                          'is_grad_enabled': ("PyTorch's ``torch.autograd.is_grad_enabled`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.autograd.is_grad_enabled()',
                                                'True',
                                                'torch.is_grad_enabled()'),),
                                              False),
                          'is_inference_mode_enabled': ("PyTorch's "
                                                        '``torch.autograd.is_inference_mode_enabled`` '
                                                        '(same arguments and results), computed by '
                                                        "fgrad's primitives.",
                                                        (('torch.autograd.is_inference_mode_enabled()',
                                                          'False',
                                                          'torch.is_inference_mode_enabled()'),),
                                                        False),
                          'once_differentiable': ("PyTorch's "
                                                  '``torch.autograd.once_differentiable`` (same '
                                                  "arguments and results), computed by fgrad's "
                                                  'primitives.',
                                                  (('callable(torch.autograd.once_differentiable(lambda '
                                                    'ctx, g: g))',
                                                    'True',
                                                    'callable(torch.autograd.function.once_differentiable(lambda '
                                                    'ctx, g: g))'),),
                                                  False)},
 'fgrad.torch.func': {'functional_call': ("PyTorch's ``torch.func.functional_call`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('m = torch.nn.Linear(1, 1)', ''),
                                           ("p = {'weight': torch.tensor([[2.0]]), 'bias': "
                                            'torch.tensor([1.0])}',
                                            ''),
                                           ('torch.func.functional_call(m, p, '
                                            '(torch.tensor([[3.0]]),))',
                                            'tensor([[7.]])')),
                                          False),
                      'grad': ("PyTorch's ``torch.func.grad`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.func.grad(lambda x: (x * x).sum())(torch.tensor([1.0, '
                                 '2.0]))',
                                 'tensor([2., 4.])'),),
                               False),
                      'grad_and_value': ("PyTorch's ``torch.func.grad_and_value`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.func.grad_and_value(lambda x: (x * '
                                           'x).sum())(torch.tensor([1.0, 2.0]))',
                                           '(tensor([2., 4.]), tensor(5.))'),),
                                         False),
                      'hessian': ("PyTorch's ``torch.func.hessian`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.func.hessian(lambda x: (x ** '
                                    '3).sum())(torch.tensor([1.0, 2.0]))',
                                    'tensor([[ 6.,  0.],\n        [ 0., 12.]])'),),
                                  False),
                      'jvp': ("PyTorch's ``torch.func.jvp`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('torch.func.jvp(torch.sin, (torch.tensor([0.0]),), '
                                '(torch.tensor([1.0]),))',
                                '(tensor([0.]), tensor([1.]))'),),
                              False),
                      'vjp': ("PyTorch's ``torch.func.vjp`` (same arguments and results), computed "
                              "by fgrad's primitives.",
                              (('out, pullback = torch.func.vjp(torch.sin, torch.tensor([0.0]))',
                                ''),
                               ('pullback(torch.tensor([1.0]))', '(tensor([1.]),)')),
                              False),
                      'vmap': ("PyTorch's ``torch.func.vmap`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.func.vmap(torch.dot)(torch.ones(2, 3), torch.ones(2, 3))',
                                 'tensor([3., 3.])'),),
                               False)},
 'fgrad.torch.linalg': {'cholesky': ("PyTorch's ``torch.linalg.cholesky`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.linalg.cholesky(torch.tensor([[2.0, 1.0], [1.0, '
                                       '3.0]]))',
                                       'tensor([[1.4142, 0.0000],\n        [0.7071, 1.5811]])'),),
                                     False),
                        'cond': ("PyTorch's ``torch.linalg.cond`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.linalg.cond(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                   'tensor(2.6180)'),),
                                 False),
                        'cross': ("PyTorch's ``torch.linalg.cross`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), '
                                    'torch.tensor([0.0, 1.0, 0.0]))',
                                    'tensor([0., 0., 1.])'),),
                                  False),
                        'det': ("PyTorch's ``torch.linalg.det`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.linalg.det(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                  'tensor(5.)'),),
                                False),
                        'diagonal': ("PyTorch's ``torch.linalg.diagonal`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.linalg.diagonal(torch.tensor([[2.0, 1.0], [1.0, '
                                       '3.0]]))',
                                       'tensor([2., 3.])'),),
                                     False),
                        'eigh': ("PyTorch's ``torch.linalg.eigh`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.linalg.eigh(torch.tensor([[2.0, 0.0], [0.0, '
                                   '1.0]])).eigenvalues',
                                   'tensor([1., 2.])'),),
                                 False),
                        'eigvalsh': ("PyTorch's ``torch.linalg.eigvalsh`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.linalg.eigvalsh(torch.tensor([[2.0, 1.0], [1.0, '
                                       '3.0]]))',
                                       'tensor([1.3820, 3.6180])'),),
                                     False),
                        'inv': ("PyTorch's ``torch.linalg.inv`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.linalg.inv(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                  'tensor([[ 0.6000, -0.2000],\n        [-0.2000,  0.4000]])'),),
                                False),
                        'inv_ex': ("PyTorch's ``torch.linalg.inv_ex`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.linalg.inv_ex(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                     'torch.return_types.linalg_inv_ex(\n'
                                     'inverse=tensor([[ 0.6000, -0.2000],\n'
                                     '        [-0.2000,  0.4000]]),\n'
                                     'info=tensor(0, dtype=torch.int32))'),),
                                   False),
                        'inverse': ("PyTorch's ``torch.linalg.inverse`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.linalg.inverse(torch.tensor([[2.0, 0.0], [0.0, '
                                      '4.0]]))',
                                      'tensor([[0.5000, 0.0000],\n        [0.0000, 0.2500]])',
                                      'torch.inverse(torch.tensor([[2.0, 0.0], [0.0, 4.0]]))'),),
                                    False),
                        'lstsq': ("PyTorch's ``torch.linalg.lstsq`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.linalg.lstsq(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), '
                                    'torch.tensor([[1.0, 0.0], [2.0, 1.0]]))',
                                    'torch.return_types.linalg_lstsq(\n'
                                    'solution=tensor([[ 0.2000, -0.2000],\n'
                                    '        [ 0.6000,  0.4000]]),\n'
                                    'residuals=tensor([]),\n'
                                    'rank=tensor(2),\n'
                                    'singular_values=tensor([]))'),),
                                  False),
                        'matmul': ("PyTorch's ``torch.linalg.matmul`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.linalg.matmul(torch.tensor([0.5, 1.0]), '
                                     'torch.tensor([2.0, 0.25]))',
                                     'tensor(1.2500)'),),
                                   False),
                        'matrix_norm': ("PyTorch's ``torch.linalg.matrix_norm`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.linalg.matrix_norm(torch.tensor([[2.0, 1.0], '
                                          '[1.0, 3.0]]))',
                                          'tensor(3.8730)'),),
                                        False),
                        'matrix_power': ("PyTorch's ``torch.linalg.matrix_power`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.linalg.matrix_power(torch.tensor([[1.0, 2.0], '
                                           '[3.0, 4.0]]), 1)',
                                           'tensor([[1., 2.],\n        [3., 4.]])'),),
                                         False),
                        'matrix_rank': ("PyTorch's ``torch.linalg.matrix_rank`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.linalg.matrix_rank(torch.tensor([[2.0, 1.0], '
                                          '[1.0, 3.0]]))',
                                          'tensor(2)'),),
                                        False),
                        'multi_dot': ("PyTorch's ``torch.linalg.multi_dot`` (same arguments and "
                                      "results), computed by fgrad's primitives.",
                                      (('torch.linalg.multi_dot([torch.tensor([1.0, 2.0]), '
                                        'torch.tensor([3.0, 4.0])])',
                                        'tensor(11.)'),),
                                      False),
                        'norm': ("PyTorch's ``torch.linalg.norm`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.linalg.norm(torch.tensor([0.5, 1.0]))',
                                   'tensor(1.1180)'),),
                                 False),
                        'pinv': ("PyTorch's ``torch.linalg.pinv`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.linalg.pinv(torch.tensor([[2.0, 1.0], [1.0, 3.0]]))',
                                   'tensor([[ 0.6000, -0.2000],\n        [-0.2000,  0.4000]])'),),
                                 False),
                        'qr': ("PyTorch's ``torch.linalg.qr`` (same arguments and results), "
                               "computed by fgrad's primitives.",
                               (('torch.linalg.qr(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).R',
                                 'tensor([[2., 0.],\n        [0., 1.]])'),),
                               False),
                        'slogdet': ("PyTorch's ``torch.linalg.slogdet`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.linalg.slogdet(torch.tensor([[2.0, 1.0], [1.0, '
                                      '3.0]]))',
                                      'torch.return_types.linalg_slogdet(\n'
                                      'sign=tensor(1.),\n'
                                      'logabsdet=tensor(1.6094))'),),
                                    True),
                        'solve': ("PyTorch's ``torch.linalg.solve`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.linalg.solve(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), '
                                    'torch.tensor([[1.0, 0.0], [2.0, 1.0]]))',
                                    'tensor([[ 0.2000, -0.2000],\n        [ 0.6000,  0.4000]])'),),
                                  False),
                        'svd': ("PyTorch's ``torch.linalg.svd`` (same arguments and results), "
                                "computed by fgrad's primitives.",
                                (('torch.linalg.svd(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).S',
                                  'tensor([2., 1.])'),),
                                False),
                        'svdvals': ("PyTorch's ``torch.linalg.svdvals`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.linalg.svdvals(torch.tensor([[2.0, 0.0], [0.0, '
                                      '1.0]]))',
                                      'tensor([2., 1.])'),),
                                    False),
                        'vecdot': ("PyTorch's ``torch.linalg.vecdot`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.linalg.vecdot(torch.tensor([0.5, 1.0]), '
                                     'torch.tensor([2.0, 0.25]))',
                                     'tensor(1.2500)'),),
                                   False),
                        'vector_norm': ("PyTorch's ``torch.linalg.vector_norm`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.linalg.vector_norm(torch.tensor([0.5, 1.0]))',
                                          'tensor(1.1180)'),),
                                        False)},
 'fgrad.torch.nn.functional': {'adaptive_avg_pool1d': ("PyTorch's "
                                                       '``torch.nn.functional.adaptive_avg_pool1d`` '
                                                       '(same arguments and results), computed by '
                                                       "fgrad's primitives.",
                                                       (('torch.nn.functional.adaptive_avg_pool1d(torch.tensor([[1.0, '
                                                         '2.0], [3.0, 4.0]]), 1)',
                                                         'tensor([[1.5000],\n        [3.5000]])'),),
                                                       False),
                               'adaptive_avg_pool2d': ("PyTorch's "
                                                       '``torch.nn.functional.adaptive_avg_pool2d`` '
                                                       '(same arguments and results), computed by '
                                                       "fgrad's primitives.",
                                                       (('torch.nn.functional.adaptive_avg_pool2d(torch.tensor([[1.0, '
                                                         '2.0], [3.0, 4.0]]), 1)',
                                                         'tensor([[2.5000]])'),),
                                                       False),
                               'adaptive_avg_pool3d': ("PyTorch's "
                                                       '``torch.nn.functional.adaptive_avg_pool3d`` '
                                                       '(same arguments and results), computed by '
                                                       "fgrad's primitives.",
                                                       (('torch.nn.functional.adaptive_avg_pool3d(torch.tensor([[[[1.0, '
                                                         '2.0], [3.0, 4.0]]]]), 2)',
                                                         'tensor([[[[1., 2.],\n'
                                                         '          [3., 4.]],\n'
                                                         '\n'
                                                         '         [[1., 2.],\n'
                                                         '          [3., 4.]]]])'),),
                                                       False),
                               'adaptive_max_pool1d': ("PyTorch's "
                                                       '``torch.nn.functional.adaptive_max_pool1d`` '
                                                       '(same arguments and results), computed by '
                                                       "fgrad's primitives.",
                                                       (('torch.nn.functional.adaptive_max_pool1d(torch.tensor([[1.0, '
                                                         '2.0], [3.0, 4.0]]), 1)',
                                                         'tensor([[2.],\n        [4.]])'),),
                                                       False),
                               'adaptive_max_pool2d': ("PyTorch's "
                                                       '``torch.nn.functional.adaptive_max_pool2d`` '
                                                       '(same arguments and results), computed by '
                                                       "fgrad's primitives.",
                                                       (('torch.nn.functional.adaptive_max_pool2d(torch.tensor([[[1.0, '
                                                         '2.0, 3.0, 4.0]]]), 2)',
                                                         'tensor([[[2., 4.],\n'
                                                         '         [2., 4.]]])'),),
                                                       False),
                               'adaptive_max_pool3d': ("PyTorch's "
                                                       '``torch.nn.functional.adaptive_max_pool3d`` '
                                                       '(same arguments and results), computed by '
                                                       "fgrad's primitives.",
                                                       (('torch.nn.functional.adaptive_max_pool3d(torch.tensor([[[[1.0, '
                                                         '2.0], [3.0, 4.0]]]]), 2)',
                                                         'tensor([[[[1., 2.],\n'
                                                         '          [3., 4.]],\n'
                                                         '\n'
                                                         '         [[1., 2.],\n'
                                                         '          [3., 4.]]]])'),),
                                                       False),
                               'avg_pool1d': ("PyTorch's ``torch.nn.functional.avg_pool1d`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.avg_pool1d(torch.tensor([[1.0, '
                                                '2.0], [3.0, 4.0]]), 1)',
                                                'tensor([[1., 2.],\n        [3., 4.]])'),),
                                              False),
                               'avg_pool3d': ("PyTorch's ``torch.nn.functional.avg_pool3d`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.avg_pool3d(torch.tensor([[[[[1.0, '
                                                '2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]]), '
                                                '2)',
                                                'tensor([[[[[4.5000]]]]])'),),
                                              False),
                               'batch_norm': ("PyTorch's ``torch.nn.functional.batch_norm`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.batch_norm(torch.tensor([[1.0], '
                                                '[3.0]]), None, None, training=True)',
                                                'tensor([[-1.0000],\n        [ 1.0000]])'),),
                                              False),
                               'bilinear': ("PyTorch's ``torch.nn.functional.bilinear`` (same "
                                            "arguments and results), computed by fgrad's "
                                            'primitives.',
                                            (('torch.nn.functional.bilinear(torch.tensor([[1.0]]), '
                                              'torch.tensor([[2.0]]), torch.tensor([[[3.0]]]))',
                                              'tensor([[6.]])'),),
                                            False),
                               'binary_cross_entropy': ("PyTorch's "
                                                        '``torch.nn.functional.binary_cross_entropy`` '
                                                        '(same arguments and results), computed by '
                                                        "fgrad's primitives.",
                                                        (('torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, '
                                                          '0.5]), torch.tensor([1.0, 0.0]))',
                                                          'tensor(0.6931)'),),
                                                        False),
                               'binary_cross_entropy_with_logits': ("PyTorch's "
                                                                    '``torch.nn.functional.binary_cross_entropy_with_logits`` '
                                                                    '(same arguments and results), '
                                                                    "computed by fgrad's "
                                                                    'primitives.',
                                                                    (('torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([0.5, '
                                                                      '1.0]), torch.tensor([2.0, '
                                                                      '0.25]))',
                                                                      'tensor(0.5187)'),),
                                                                    False),
                               'celu': ("PyTorch's ``torch.nn.functional.celu`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.nn.functional.celu(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.5000, 1.0000])'),),
                                        False),
                               'conv1d': ("PyTorch's ``torch.nn.functional.conv1d`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.nn.functional.conv1d(torch.tensor([[[1.0, 2.0, '
                                            '3.0]]]), torch.tensor([[[1.0, -1.0]]]))',
                                            'tensor([[[-1., -1.]]])'),),
                                          False),
                               'conv3d': ("PyTorch's ``torch.nn.functional.conv3d`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.nn.functional.conv3d(torch.tensor([[[[[1.0, '
                                            '2.0], [3.0, 4.0]]]]]), torch.tensor([[[[[1.0]]]]]))',
                                            'tensor([[[[[1., 2.],\n           [3., 4.]]]]])'),),
                                          False),
                               'conv_transpose1d': ("PyTorch's "
                                                    '``torch.nn.functional.conv_transpose1d`` '
                                                    '(same arguments and results), computed by '
                                                    "fgrad's primitives.",
                                                    (('torch.nn.functional.conv_transpose1d(torch.tensor([[[1.0, '
                                                      '2.0, 3.0]]]), torch.tensor([[[1.0, '
                                                      '-1.0]]]))',
                                                      'tensor([[[ 1.,  1.,  1., -3.]]])'),),
                                                    False),
                               'conv_transpose3d': ("PyTorch's "
                                                    '``torch.nn.functional.conv_transpose3d`` '
                                                    '(same arguments and results), computed by '
                                                    "fgrad's primitives.",
                                                    (('torch.nn.functional.conv_transpose3d(torch.tensor([[[[[1.0, '
                                                      '2.0], [3.0, 4.0]]]]]), '
                                                      'torch.tensor([[[[[1.0]]]]]))',
                                                      'tensor([[[[[1., 2.],\n'
                                                      '           [3., 4.]]]]])'),),
                                                    False),
                               'cosine_embedding_loss': ("PyTorch's "
                                                         '``torch.nn.functional.cosine_embedding_loss`` '
                                                         '(same arguments and results), computed '
                                                         "by fgrad's primitives.",
                                                         (('torch.nn.functional.cosine_embedding_loss(torch.tensor([[1.0, '
                                                           '0.0]]), torch.tensor([[0.0, 1.0]]), '
                                                           'torch.tensor([1.0]))',
                                                           'tensor(1.)'),),
                                                         False),
                               'cosine_similarity': ("PyTorch's "
                                                     '``torch.nn.functional.cosine_similarity`` '
                                                     '(same arguments and results), computed by '
                                                     "fgrad's primitives.",
                                                     (('torch.nn.functional.cosine_similarity(torch.tensor([[2.0, '
                                                       '1.0], [1.0, 3.0]]), torch.tensor([[1.0, '
                                                       '0.0], [2.0, 1.0]]))',
                                                       'tensor([0.8944, 0.7071])'),),
                                                     False),
                               'cross_entropy': ("PyTorch's ``torch.nn.functional.cross_entropy`` "
                                                 '(same arguments and results), computed by '
                                                 "fgrad's primitives.",
                                                 (('torch.nn.functional.cross_entropy(torch.tensor([[0.0, '
                                                   '0.0]]), torch.tensor([1]))',
                                                   'tensor(0.6931)'),),
                                                 False),
                               'dropout': ("PyTorch's ``torch.nn.functional.dropout`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.nn.functional.dropout(torch.tensor([[1.0, '
                                             '2.0], [3.0, 4.0]]), 1)',
                                             'tensor([[0., 0.],\n        [0., 0.]])'),),
                                           False),
                               'dropout1d': ("PyTorch's ``torch.nn.functional.dropout1d`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.nn.functional.dropout1d(torch.tensor([[1.0, '
                                               '2.0], [3.0, 4.0]]), 1)',
                                               'tensor([[0., 0.],\n        [0., 0.]])'),),
                                             False),
                               'dropout2d': ("PyTorch's ``torch.nn.functional.dropout2d`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.nn.functional.dropout2d(torch.tensor([[[1.0, '
                                               '2.0, 3.0, 4.0]]]), 1)',
                                               'tensor([[[0., 0., 0., 0.]]])'),),
                                             False),
                               'dropout3d': ("PyTorch's ``torch.nn.functional.dropout3d`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.nn.functional.dropout3d(torch.tensor([[[[1.0, '
                                               '2.0], [3.0, 4.0]]]]), 1)',
                                               'tensor([[[[0., 0.],\n          [0., 0.]]]])'),),
                                             False),
                               'elu': ("PyTorch's ``torch.nn.functional.elu`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.nn.functional.elu(torch.tensor([0.5, 1.0]))',
                                         'tensor([0.5000, 1.0000])'),),
                                       False),
                               'elu_': ("PyTorch's ``torch.nn.functional.elu_`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.nn.functional.elu_(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.5000, 1.0000])'),),
                                        False),
                               'embedding': ("PyTorch's ``torch.nn.functional.embedding`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.nn.functional.embedding(torch.tensor([1, '
                                               '2]), torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, '
                                               '6.0]]))',
                                               'tensor([[3., 4.],\n        [5., 6.]])'),),
                                             False),
                               'gaussian_nll_loss': ("PyTorch's "
                                                     '``torch.nn.functional.gaussian_nll_loss`` '
                                                     '(same arguments and results), computed by '
                                                     "fgrad's primitives.",
                                                     (('torch.nn.functional.gaussian_nll_loss(torch.tensor([0.5, '
                                                       '1.0]), torch.tensor([2.0, 0.25]), '
                                                       'torch.tensor([1.0, 2.0]))',
                                                       'tensor(0.8061)'),),
                                                     False),
                               'gelu': ("PyTorch's ``torch.nn.functional.gelu`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.nn.functional.gelu(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.3457, 0.8413])'),),
                                        False),
                               'glu': ("PyTorch's ``torch.nn.functional.glu`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.nn.functional.glu(torch.tensor([0.5, 1.0]))',
                                         'tensor([0.3655])'),),
                                       False),
                               'group_norm': ("PyTorch's ``torch.nn.functional.group_norm`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.group_norm(torch.tensor([[1.0, '
                                                '3.0]]), 1)',
                                                'tensor([[-1.0000,  1.0000]])'),),
                                              False),
                               'hardshrink': ("PyTorch's ``torch.nn.functional.hardshrink`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.hardshrink(torch.tensor([0.5, '
                                                '1.0]))',
                                                'tensor([0., 1.])'),),
                                              False),
                               'hardsigmoid': ("PyTorch's ``torch.nn.functional.hardsigmoid`` "
                                               "(same arguments and results), computed by fgrad's "
                                               'primitives.',
                                               (('torch.nn.functional.hardsigmoid(torch.tensor([0.5, '
                                                 '1.0]))',
                                                 'tensor([0.5833, 0.6667])'),),
                                               False),
                               'hardswish': ("PyTorch's ``torch.nn.functional.hardswish`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.nn.functional.hardswish(torch.tensor([0.5, '
                                               '1.0]))',
                                               'tensor([0.2917, 0.6667])'),),
                                             False),
                               'hardtanh': ("PyTorch's ``torch.nn.functional.hardtanh`` (same "
                                            "arguments and results), computed by fgrad's "
                                            'primitives.',
                                            (('torch.nn.functional.hardtanh(torch.tensor([0.5, '
                                              '1.0]))',
                                              'tensor([0.5000, 1.0000])'),),
                                            False),
                               'hardtanh_': ("PyTorch's ``torch.nn.functional.hardtanh_`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.nn.functional.hardtanh_(torch.tensor([0.5, '
                                               '1.0]))',
                                               'tensor([0.5000, 1.0000])'),),
                                             False),
                               'hinge_embedding_loss': ("PyTorch's "
                                                        '``torch.nn.functional.hinge_embedding_loss`` '
                                                        '(same arguments and results), computed by '
                                                        "fgrad's primitives.",
                                                        (('torch.nn.functional.hinge_embedding_loss(torch.tensor([[0.5, '
                                                          '1.0]]), torch.tensor([1]))',
                                                          'tensor(0.7500)'),),
                                                        False),
                               'huber_loss': ("PyTorch's ``torch.nn.functional.huber_loss`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.huber_loss(torch.tensor([0.5, '
                                                '1.0]), torch.tensor([2.0, 0.25]))',
                                                'tensor(0.6406)'),),
                                              False),
                               'instance_norm': ("PyTorch's ``torch.nn.functional.instance_norm`` "
                                                 '(same arguments and results), computed by '
                                                 "fgrad's primitives.",
                                                 (('torch.nn.functional.instance_norm(torch.tensor([[[1.0, '
                                                   '3.0]]]))',
                                                   'tensor([[[-1.0000,  1.0000]]])'),),
                                                 False),
                               'kl_div': ("PyTorch's ``torch.nn.functional.kl_div`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.nn.functional.kl_div(torch.tensor([0.0, 0.0]), '
                                            "torch.tensor([0.5, 0.5]), reduction='sum')",
                                            'tensor(-0.6931)'),),
                                          False),
                               'l1_loss': ("PyTorch's ``torch.nn.functional.l1_loss`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.nn.functional.l1_loss(torch.tensor([0.5, '
                                             '1.0]), torch.tensor([2.0, 0.25]))',
                                             'tensor(1.1250)'),),
                                           False),
                               'layer_norm': ("PyTorch's ``torch.nn.functional.layer_norm`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.layer_norm(torch.tensor([1.0, '
                                                '3.0]), (2,))',
                                                'tensor([-1.0000,  1.0000])'),),
                                              False),
                               'leaky_relu': ("PyTorch's ``torch.nn.functional.leaky_relu`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.leaky_relu(torch.tensor([0.5, '
                                                '1.0]))',
                                                'tensor([0.5000, 1.0000])'),),
                                              False),
                               'leaky_relu_': ("PyTorch's ``torch.nn.functional.leaky_relu_`` "
                                               "(same arguments and results), computed by fgrad's "
                                               'primitives.',
                                               (('torch.nn.functional.leaky_relu_(torch.tensor([0.5, '
                                                 '1.0]))',
                                                 'tensor([0.5000, 1.0000])'),),
                                               False),
                               'linear': ("PyTorch's ``torch.nn.functional.linear`` (same "
                                          "arguments and results), computed by fgrad's primitives.",
                                          (('torch.nn.functional.linear(torch.tensor([[2.0, 1.0], '
                                            '[1.0, 3.0]]), torch.tensor([[1.0, 0.0], [2.0, 1.0]]))',
                                            'tensor([[2., 5.],\n        [1., 5.]])'),),
                                          False),
                               'log_softmax': ("PyTorch's ``torch.nn.functional.log_softmax`` "
                                               "(same arguments and results), computed by fgrad's "
                                               'primitives.',
                                               (('torch.nn.functional.log_softmax(torch.tensor([0.5, '
                                                 '1.0]))',
                                                 'tensor([-0.9741, -0.4741])'),),
                                               False),
                               'logsigmoid': ("PyTorch's ``torch.nn.functional.logsigmoid`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.logsigmoid(torch.tensor([0.5, '
                                                '1.0]))',
                                                'tensor([-0.4741, -0.3133])'),),
                                              False),
                               'margin_ranking_loss': ("PyTorch's "
                                                       '``torch.nn.functional.margin_ranking_loss`` '
                                                       '(same arguments and results), computed by '
                                                       "fgrad's primitives.",
                                                       (('torch.nn.functional.margin_ranking_loss(torch.tensor([0.5, '
                                                         '1.0]), torch.tensor([2.0, 0.25]), '
                                                         'torch.tensor([1.0, 2.0]))',
                                                         'tensor(0.7500)'),),
                                                       False),
                               'max_pool1d': ("PyTorch's ``torch.nn.functional.max_pool1d`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.max_pool1d(torch.tensor([[1.0, '
                                                '2.0], [3.0, 4.0]]), 1)',
                                                'tensor([[1., 2.],\n        [3., 4.]])'),),
                                              False),
                               'max_pool3d': ("PyTorch's ``torch.nn.functional.max_pool3d`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.max_pool3d(torch.tensor([[[[[1.0, '
                                                '2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]]), '
                                                '2)',
                                                'tensor([[[[[8.]]]]])'),),
                                              False),
                               'mish': ("PyTorch's ``torch.nn.functional.mish`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.nn.functional.mish(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.3752, 0.8651])'),),
                                        False),
                               'mse_loss': ("PyTorch's ``torch.nn.functional.mse_loss`` (same "
                                            "arguments and results), computed by fgrad's "
                                            'primitives.',
                                            (('torch.nn.functional.mse_loss(torch.tensor([0.5, '
                                              '1.0]), torch.tensor([2.0, 0.25]))',
                                              'tensor(1.4062)'),),
                                            False),
                               'multilabel_soft_margin_loss': ("PyTorch's "
                                                               '``torch.nn.functional.multilabel_soft_margin_loss`` '
                                                               '(same arguments and results), '
                                                               "computed by fgrad's primitives.",
                                                               (('torch.nn.functional.multilabel_soft_margin_loss(torch.tensor([0.5, '
                                                                 '1.0]), torch.tensor([2.0, '
                                                                 '0.25]))',
                                                                 'tensor(0.5187)'),),
                                                               False),
                               'nll_loss': ("PyTorch's ``torch.nn.functional.nll_loss`` (same "
                                            "arguments and results), computed by fgrad's "
                                            'primitives.',
                                            (('torch.nn.functional.nll_loss(torch.tensor([[0.5, '
                                              '1.0]]), torch.tensor([1]))',
                                              'tensor(-1.)'),),
                                            False),
                               'normalize': ("PyTorch's ``torch.nn.functional.normalize`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.nn.functional.normalize(torch.tensor([[2.0, '
                                               '1.0], [1.0, 3.0]]))',
                                               'tensor([[0.8944, 0.4472],\n'
                                               '        [0.3162, 0.9487]])'),),
                                             False),
                               'one_hot': ("PyTorch's ``torch.nn.functional.one_hot`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.nn.functional.one_hot(torch.tensor([5, 3]))',
                                             'tensor([[0, 0, 0, 0, 0, 1],\n'
                                             '        [0, 0, 0, 1, 0, 0]])'),),
                                           False),
                               'pad': ("PyTorch's ``torch.nn.functional.pad`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.nn.functional.pad(torch.tensor([[1.0, 2.0], [3.0, '
                                         '4.0]]), [1, 0])',
                                         'tensor([[0., 1., 2.],\n        [0., 3., 4.]])'),),
                                       False),
                               'pairwise_distance': ("PyTorch's "
                                                     '``torch.nn.functional.pairwise_distance`` '
                                                     '(same arguments and results), computed by '
                                                     "fgrad's primitives.",
                                                     (('torch.nn.functional.pairwise_distance(torch.tensor([0.5, '
                                                       '1.0]), torch.tensor([2.0, 0.25]))',
                                                       'tensor(1.6771)'),),
                                                     False),
                               'pdist': ("PyTorch's ``torch.nn.functional.pdist`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.nn.functional.pdist(torch.tensor([[2.0, 1.0], '
                                           '[1.0, 3.0]]))',
                                           'tensor([2.2361])'),),
                                         False),
                               'poisson_nll_loss': ("PyTorch's "
                                                    '``torch.nn.functional.poisson_nll_loss`` '
                                                    '(same arguments and results), computed by '
                                                    "fgrad's primitives.",
                                                    (('torch.nn.functional.poisson_nll_loss(torch.tensor([0.5, '
                                                      '1.0]), torch.tensor([2.0, 0.25]))',
                                                      'tensor(1.5585)'),),
                                                    False),
                               'prelu': ("PyTorch's ``torch.nn.functional.prelu`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.nn.functional.prelu(torch.tensor([[2.0, 1.0], '
                                           '[1.0, 3.0]]), torch.tensor([1.0, 2.0]))',
                                           'tensor([[2., 1.],\n        [1., 3.]])'),),
                                         False),
                               'relu': ("PyTorch's ``torch.nn.functional.relu`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.nn.functional.relu(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.5000, 1.0000])'),),
                                        False),
                               'relu6': ("PyTorch's ``torch.nn.functional.relu6`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.nn.functional.relu6(torch.tensor([0.5, 1.0]))',
                                           'tensor([0.5000, 1.0000])'),),
                                         False),
                               'relu_': ("PyTorch's ``torch.nn.functional.relu_`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.nn.functional.relu_(torch.tensor([0.5, 1.0]))',
                                           'tensor([0.5000, 1.0000])'),),
                                         False),
                               'rrelu': ("PyTorch's ``torch.nn.functional.rrelu`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.nn.functional.rrelu(torch.tensor([0.5, 1.0]))',
                                           'tensor([0.5000, 1.0000])'),),
                                         False),
                               'selu': ("PyTorch's ``torch.nn.functional.selu`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.nn.functional.selu(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.5254, 1.0507])'),),
                                        False),
                               'sigmoid': ("PyTorch's ``torch.nn.functional.sigmoid`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.nn.functional.sigmoid(torch.tensor([0.5, '
                                             '1.0]))',
                                             'tensor([0.6225, 0.7311])'),),
                                           False),
                               'silu': ("PyTorch's ``torch.nn.functional.silu`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.nn.functional.silu(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.3112, 0.7311])'),),
                                        False),
                               'smooth_l1_loss': ("PyTorch's "
                                                  '``torch.nn.functional.smooth_l1_loss`` (same '
                                                  "arguments and results), computed by fgrad's "
                                                  'primitives.',
                                                  (('torch.nn.functional.smooth_l1_loss(torch.tensor([0.5, '
                                                    '1.0]), torch.tensor([2.0, 0.25]))',
                                                    'tensor(0.6406)'),),
                                                  False),
                               'soft_margin_loss': ("PyTorch's "
                                                    '``torch.nn.functional.soft_margin_loss`` '
                                                    '(same arguments and results), computed by '
                                                    "fgrad's primitives.",
                                                    (('torch.nn.functional.soft_margin_loss(torch.tensor([0.5, '
                                                      '1.0]), torch.tensor([2.0, 0.25]))',
                                                      'tensor(0.4446)'),),
                                                    False),
                               'softmax': ("PyTorch's ``torch.nn.functional.softmax`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.nn.functional.softmax(torch.tensor([0.5, '
                                             '1.0]))',
                                             'tensor([0.3775, 0.6225])'),),
                                           False),
                               'softmin': ("PyTorch's ``torch.nn.functional.softmin`` (same "
                                           "arguments and results), computed by fgrad's "
                                           'primitives.',
                                           (('torch.nn.functional.softmin(torch.tensor([0.5, '
                                             '1.0]))',
                                             'tensor([0.6225, 0.3775])'),),
                                           False),
                               'softplus': ("PyTorch's ``torch.nn.functional.softplus`` (same "
                                            "arguments and results), computed by fgrad's "
                                            'primitives.',
                                            (('torch.nn.functional.softplus(torch.tensor([0.5, '
                                              '1.0]))',
                                              'tensor([0.9741, 1.3133])'),),
                                            False),
                               'softshrink': ("PyTorch's ``torch.nn.functional.softshrink`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.softshrink(torch.tensor([0.5, '
                                                '1.0]))',
                                                'tensor([0.0000, 0.5000])'),),
                                              False),
                               'softsign': ("PyTorch's ``torch.nn.functional.softsign`` (same "
                                            "arguments and results), computed by fgrad's "
                                            'primitives.',
                                            (('torch.nn.functional.softsign(torch.tensor([0.5, '
                                              '1.0]))',
                                              'tensor([0.3333, 0.5000])'),),
                                            False),
                               'tanh': ("PyTorch's ``torch.nn.functional.tanh`` (same arguments "
                                        "and results), computed by fgrad's primitives.",
                                        (('torch.nn.functional.tanh(torch.tensor([0.5, 1.0]))',
                                          'tensor([0.4621, 0.7616])'),),
                                        False),
                               'tanhshrink': ("PyTorch's ``torch.nn.functional.tanhshrink`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.tanhshrink(torch.tensor([0.5, '
                                                '1.0]))',
                                                'tensor([0.0379, 0.2384])'),),
                                              False),
                               'threshold': ("PyTorch's ``torch.nn.functional.threshold`` (same "
                                             "arguments and results), computed by fgrad's "
                                             'primitives.',
                                             (('torch.nn.functional.threshold(torch.tensor([[1.0, '
                                               '2.0], [3.0, 4.0]]), 0, 1)',
                                               'tensor([[1., 2.],\n        [3., 4.]])'),),
                                             False),
                               'threshold_': ("PyTorch's ``torch.nn.functional.threshold_`` (same "
                                              "arguments and results), computed by fgrad's "
                                              'primitives.',
                                              (('torch.nn.functional.threshold_(torch.tensor([[1.0, '
                                                '2.0], [3.0, 4.0]]), 0, 1)',
                                                'tensor([[1., 2.],\n        [3., 4.]])'),),
                                              False),
                               'triplet_margin_loss': ("PyTorch's "
                                                       '``torch.nn.functional.triplet_margin_loss`` '
                                                       '(same arguments and results), computed by '
                                                       "fgrad's primitives.",
                                                       (('torch.nn.functional.triplet_margin_loss(torch.tensor([0.5, '
                                                         '1.0]), torch.tensor([2.0, 0.25]), '
                                                         'torch.tensor([1.0, 2.0]))',
                                                         'tensor(1.5590)'),),
                                                       False)},
 'fgrad.torch.special': {'erf': ("PyTorch's ``torch.special.erf`` (same arguments and results), "
                                 "computed by fgrad's primitives.",
                                 (('torch.special.erf(torch.tensor([0.5, 1.0]))',
                                   'tensor([0.5205, 0.8427])'),),
                                 False),
                         'erfc': ("PyTorch's ``torch.special.erfc`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.special.erfc(torch.tensor([0.5, 1.0]))',
                                    'tensor([0.4795, 0.1573])'),),
                                  False),
                         'erfinv': ("PyTorch's ``torch.special.erfinv`` (same arguments and "
                                    "results), computed by fgrad's primitives.",
                                    (('torch.special.erfinv(torch.tensor([0.5, 1.0]))',
                                      'tensor([0.4769,    inf])'),),
                                    False),
                         'exp2': ("PyTorch's ``torch.special.exp2`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.special.exp2(torch.tensor([0.5, 1.0]))',
                                    'tensor([1.4142, 2.0000])'),),
                                  False),
                         'expm1': ("PyTorch's ``torch.special.expm1`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.special.expm1(torch.tensor([0.5, 1.0]))',
                                     'tensor([0.6487, 1.7183])'),),
                                   False),
                         'log1p': ("PyTorch's ``torch.special.log1p`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.special.log1p(torch.tensor([0.5, 1.0]))',
                                     'tensor([0.4055, 0.6931])'),),
                                   False),
                         'log_softmax': ("PyTorch's ``torch.special.log_softmax`` (same arguments "
                                         "and results), computed by fgrad's primitives.",
                                         (('torch.special.log_softmax(torch.tensor([[1.0, 2.0], '
                                           '[3.0, 4.0]]), 1)',
                                           'tensor([[-1.3133, -0.3133],\n'
                                           '        [-1.3133, -0.3133]])'),),
                                         False),
                         'logit': ("PyTorch's ``torch.special.logit`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.special.logit(torch.tensor([0.5, 1.0]))',
                                     'tensor([0., inf])'),),
                                   False),
                         'logsumexp': ("PyTorch's ``torch.special.logsumexp`` (same arguments and "
                                       "results), computed by fgrad's primitives.",
                                       (('torch.special.logsumexp(torch.tensor([[1.0, 2.0], [3.0, '
                                         '4.0]]), 1)',
                                         'tensor([2.3133, 4.3133])'),),
                                       False),
                         'round': ("PyTorch's ``torch.special.round`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.special.round(torch.tensor([0.5, 1.0]))',
                                     'tensor([0., 1.])'),),
                                   False),
                         'sinc': ("PyTorch's ``torch.special.sinc`` (same arguments and results), "
                                  "computed by fgrad's primitives.",
                                  (('torch.special.sinc(torch.tensor([0.5, 1.0]))',
                                    'tensor([ 6.3662e-01, -2.7828e-08])'),),
                                  False),
                         'softmax': ("PyTorch's ``torch.special.softmax`` (same arguments and "
                                     "results), computed by fgrad's primitives.",
                                     (('torch.special.softmax(torch.tensor([[1.0, 2.0], [3.0, '
                                       '4.0]]), 1)',
                                       'tensor([[0.2689, 0.7311],\n        [0.2689, 0.7311]])'),),
                                     False),
                         'xlogy': ("PyTorch's ``torch.special.xlogy`` (same arguments and "
                                   "results), computed by fgrad's primitives.",
                                   (('torch.special.xlogy(torch.tensor([0.5, 1.0]), '
                                     'torch.tensor([2.0, 0.25]))',
                                     'tensor([ 0.3466, -1.3863])'),),
                                   False)}}
