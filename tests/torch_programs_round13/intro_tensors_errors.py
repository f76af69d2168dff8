"""The "Introduction to PyTorch Tensors" video-series notebook (manual_seed(1729), math on
random tensors, std_mean, broadcasting, in-place ops with out=, copy_ and clone, detach) and
the mistakes students make in it, printing PyTorch's error messages: broadcasting mismatch,
matmul shapes, view of a non-contiguous tensor, a backward through a freed graph, an in-place
change of a leaf that requires grad, mixed dtypes in matmul, an index out of range, a float
index, cat of mismatched shapes, and CrossEntropyLoss with float class targets of the wrong
shape."""
# ruff: noqa: E501

import math

import torch

torch.manual_seed(1729)
r1 = torch.rand(2, 2)
print("A random tensor:")
print(r1)
r2 = torch.rand(2, 2)
print("\nA different random tensor:")
print(r2)
torch.manual_seed(1729)
r3 = torch.rand(2, 2)
print("\nShould match r1:")
print(r3)
ones = torch.ones(2, 3)
print(ones)
twos = torch.ones(2, 2) * 2
print(twos)
threes = (torch.ones(2, 2) * 7 - 1) / 2
print(threes)
fours = twos ** 2
sqrt2s = twos ** 0.5
print(fours, sqrt2s)
powers2 = twos ** torch.tensor([[1, 2], [3, 4]])
print(powers2)
rand = torch.rand(2, 4)
doubled = rand * (torch.ones(1, 4) * 2)
print(rand, doubled)
a = torch.ones(4, 3, 2)
b = a * torch.rand(3, 2)
c = a * torch.rand(3, 1)
d = a * torch.rand(1, 2)
print(b[0], c[0], d[0])
a = torch.rand(2, 4) * 2 - 1
print("Common functions:")
print(torch.abs(a))
print(torch.ceil(a))
print(torch.floor(a))
print(torch.clamp(a, -0.5, 0.5))
angles = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
sines = torch.sin(angles)
inverses = torch.asin(sines)
print("\nSine and arcsine:")
print(angles)
print(sines)
print(inverses)
print("\nBitwise XOR:")
b = torch.tensor([1, 5, 11])
c = torch.tensor([2, 7, 10])
print(torch.bitwise_xor(b, c))
print("\nBroadcasted, element-wise equality comparison:")
d = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
e = torch.ones(1, 2)
print(torch.eq(d, e))
print("\nReduction ops:")
print(torch.max(d))
print(torch.max(d).item())
print(torch.mean(d))
print(torch.std(d))
print(torch.prod(d))
print(torch.unique(torch.tensor([1, 2, 1, 2, 1, 2])))
v1 = torch.tensor([1.0, 0.0, 0.0])
v2 = torch.tensor([0.0, 1.0, 0.0])
m1 = torch.rand(2, 2)
m2 = torch.tensor([[3.0, 0.0], [0.0, 3.0]])
print("\nVectors & Matrices:")
print(torch.linalg.cross(v2, v1))
print(m1)
m3 = torch.linalg.matmul(m1, m2)
print(m3)
print(torch.linalg.svd(m3))
print(torch.std_mean(d), torch.var_mean(d, dim=0, correction=0))
a = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print("a:")
print(a)
print(torch.sin(a))
print(a)
b = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print("\nb:")
print(b)
print(torch.sin_(b))
print(b)
a = torch.ones(2, 2)
b = torch.rand(2, 2)
print("Before:")
print(a)
print(b)
print("\nAfter adding:")
print(a.add_(b))
print(a)
print(b)
print("\nAfter multiplying")
print(b.mul_(b))
print(b)
a = torch.rand(2, 2)
b = torch.rand(2, 2)
c = torch.zeros(2, 2)
old_id = id(c)
print(c)
d = torch.matmul(a, b, out=c)
print(c)
assert c is d
assert id(c) == old_id
torch.rand(2, 2, out=c)
print(c)
assert id(c) == old_id
a = torch.ones(2, 2)
b = a
a[0][1] = 561
print(b)
a = torch.ones(2, 2)
b = a.clone()
assert b is not a
print(torch.eq(a, b))
a[0][1] = 561
print(b)
a = torch.rand(2, 2, requires_grad=True)
print(a)
b = a.clone()
print(b)
c = a.detach().clone()
print(c)
print(a)

mistakes = [
    ("broadcast", lambda: torch.ones(4, 3, 2) * torch.rand(4, 3)),
    ("broadcast2", lambda: torch.ones(4, 3, 2) * torch.rand(2, 3)),
    ("matmul", lambda: torch.ones(2, 3) @ torch.ones(2, 3)),
    ("mm", lambda: torch.mm(torch.ones(2, 3), torch.ones(4, 5))),
    ("view", lambda: torch.ones(2, 3).t().view(6)),
    ("view-size", lambda: torch.ones(2, 3).view(4, 2)),
    ("index", lambda: torch.ones(3)[5]),
    ("index2", lambda: torch.ones(2, 3)[:, 3]),
    ("cat", lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)])),
    ("stack", lambda: torch.stack([torch.ones(2), torch.ones(3)])),
    ("dtype-mm", lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)),
    ("int-mm", lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.int64)),
    ("leaf-inplace", lambda: torch.ones(2, requires_grad=True).add_(1)),
    ("reshape", lambda: torch.arange(6).reshape(4, -1)),
    ("linear", lambda: torch.nn.Linear(3, 2)(torch.ones(4, 5))),
    ("conv", lambda: torch.nn.Conv2d(3, 8, 3)(torch.ones(1, 1, 8, 8))),
    ("ce-float", lambda: torch.nn.functional.cross_entropy(torch.ones(4, 3), torch.ones(4))),
    ("nll-range", lambda: torch.nn.functional.nll_loss(torch.ones(2, 3), torch.tensor([0, 3]))),
    ("embedding", lambda: torch.nn.Embedding(5, 2)(torch.tensor([5]))),
    ("item", lambda: torch.ones(2).item()),
    ("numpy-grad", lambda: torch.ones(2, requires_grad=True).numpy()),
    ("grad-nonscalar", lambda: (torch.ones(2, requires_grad=True) * 2).backward()),
    ("no-grad", lambda: torch.ones(2).sum().backward()),
    ("squeeze-dim", lambda: torch.ones(2, 3).transpose(0, 2)),
    ("expand", lambda: torch.ones(2, 3).expand(3, 3)),
    ("permute", lambda: torch.ones(2, 3).permute(0)),
]
for name, fn in mistakes:
    try:
        fn()
        print(name, "no error")
    except (RuntimeError, IndexError, ValueError, TypeError) as err:
        print(name, type(err).__name__, str(err).split("\n")[0])
x = torch.ones(2, requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as err:
    print("twice", str(err).split("\n")[0][:90])
