"""The "Tensors" tutorial of pytorch.org's Learn the Basics, extended the way course notebooks
extend it: creation from data/NumPy/other tensors, attributes, indexing and slicing, joining,
arithmetic (matmul three ways, in-place ops), type promotion of mixed operands, integer and
floor division, remainder/fmod with negative operands, bitwise ops and shifts, uint8
wraparound, NumPy bridge sharing memory, and the printing of each."""
# ruff: noqa: E501

import numpy as np
import torch

data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
torch.manual_seed(0)
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(f"Random Tensor: \n {x_rand} \n")
shape = (2, 3,)
print(torch.rand(shape), torch.ones(shape), torch.zeros(shape))
tensor = torch.rand(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")

tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)
print(torch.stack([x_data, x_data], dim=1), torch.hstack([x_data, x_data]), torch.vstack([x_data, x_data]))
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
print(y1, y2, y3)
z1 = tensor * tensor
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(z1, z3)
agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))
print(f"{tensor} \n")
tensor.add_(5)
print(tensor)

t = torch.ones(5)
n = t.numpy()
t.add_(1)
print(f"t: {t}", f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}", f"n: {n}")

# type promotion
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
d = torch.tensor([1.0], dtype=torch.float64)
h = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
b = torch.tensor([True, False, True])
u8 = torch.tensor([250, 5, 128], dtype=torch.uint8)
i8 = torch.tensor([-100, 5, 127], dtype=torch.int8)
for a, c in [(i, f), (i, d), (f, d), (h, f), (h, i), (b, i), (b, f), (u8, i8), (i, 2.5), (h, 2.5), (u8, 3), (b, True), (i8, 1000)]:
    r = a + c
    print(r.dtype, r)
print(torch.result_type(i, 1.0), torch.promote_types(torch.uint8, torch.int8), torch.can_cast(torch.float, torch.int))
print(i / 2, i // 2, torch.div(i, 2, rounding_mode="floor"), torch.div(-i, 2, rounding_mode="trunc"))
a = torch.tensor([-7, -3, 3, 7])
print(a % 3, torch.remainder(a, -3), torch.fmod(a, 3), torch.fmod(a.float(), -3.0), a // 3, a // -3)
print(torch.tensor([-7.5, 7.5]) // 2, torch.floor_divide(torch.tensor([-7.5, 7.5]), -2))
print(u8 + u8, u8 * 2, u8 - 251, i8 * 2)
print(torch.bitwise_and(i, 2), i | 4, i ^ 1, ~i, ~b, i << 2, torch.tensor([-16, 16]) >> 2)
print(torch.tensor([1, 2], dtype=torch.int32) * 2.5, (torch.tensor([3], dtype=torch.int16) / 2).dtype)
print(torch.arange(10).reshape(2, 5).float().mean(1), torch.arange(0, 1, 0.1), torch.arange(1, 2.5, 0.5, dtype=torch.float64))
print(h * 1000, h.sum(), h.mean(), h.dtype, (h / 3))
print(torch.tensor(3.5).int(), torch.tensor(-3.5).long(), torch.tensor([2.5, 3.5, -2.5]).round(), torch.tensor([1.2345]).round(decimals=2))
print(torch.tensor([1e10]).int() if False else torch.tensor([300.7]).to(torch.uint8), torch.tensor([-1.0]).to(torch.uint8) if False else torch.tensor([255]).to(torch.int8))
print(x_data.T, x_data.mT, x_data.flip(0), x_data.reshape(-1), x_data.view(4, 1).squeeze(), x_data.unsqueeze(0).shape)
print(x_data.double(), x_data.bool(), x_data.to(torch.float16), x_data.half().dtype)
