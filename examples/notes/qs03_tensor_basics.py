"""pytorch-quickstart.md: building tensors, size (block 4)."""
import fgrad.torch as t

# 构建 5x3 矩阵，只是分配了空间，未初始化
x = t.Tensor(5, 3)
print(x.shape)
x = t.Tensor([[1, 2], [3, 4]])
print(x)
# tensor([[ 1.,  2.],
#         [ 3.,  4.]])
# 使用[0,1]均匀分布随机初始化二维数组
t.manual_seed(0)
x = t.rand(5, 3)
print(x)
print(x.size()[1], x.size(1))  # 查看列的个数, 两种写法等价
# (3,3)
print(bool(((x >= 0) & (x < 1)).all()))
