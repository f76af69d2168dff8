"""pytorch-quickstart.md: the ways to create a tensor (block 9)."""
import fgrad.torch as t

t.manual_seed(0)
# 1.指定tensor的形状
a = t.Tensor(2, 3)
print(a.shape)
# 2.用list的数据创建tensor
b = t.Tensor([[1, 2, 3], [4, 5, 6]])
b_size = b.size()
print(b_size)
print(b.tolist())  # 把tensor转为list
print(b.numel(), b.nelement())  # b中元素总个数，2*3，等价于b.nelement()
# 3.创建一个和b形状一样的tensor
c = t.Tensor(b_size)
print(c.shape)
# 4.创建一个元素为2和3的tensor
d = t.Tensor((2, 3))
print(d)
# 其他的新建Tensor的操作
print(t.ones(2, 3))  # 全1
print(t.zeros(2, 3))  # 全0
print(t.arange(1, 6, 2))  # 生成序列
print(t.linspace(1, 10, 3))  # 生成序列
r = t.randn(2, 3, device=t.device('cpu'))  # 生成随机数
print(r)
p = t.randperm(5)  # 长度为5的随机排列
print(p)
print(sorted(p.tolist()))
print(t.eye(2, 3, dtype=t.int))  # 对角线为1, 不要求行列数一致

# torch.tensor()是新增加的函数，使用的方法，和参数几乎和`np.array`完全一致
scalar = t.tensor(3.14159)
print('scalar: %s, shape of sclar: %s' % (scalar, scalar.shape))
# scalar: tensor(3.1416), shape of sclar: torch.Size([])
print(t.tensor([[0.11111, 0.222222, 0.3333333]],
               dtype=t.float64,
               device=t.device('cpu')))
# tensor([[ 0.1111,  0.2222,  0.3333]], dtype=torch.float64)
empty_tensor = t.tensor([])
print(empty_tensor.shape)
# torch.Size([0])
print(empty_tensor)
