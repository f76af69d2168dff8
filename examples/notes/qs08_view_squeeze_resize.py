"""pytorch-quickstart.md: view, unsqueeze, squeeze, resize_ (block 10)."""
import fgrad.torch as t

a = t.arange(0, 6)
print(a.view(2, 3))
b = a.view(-1, 3)  # 当某一维为-1的时候，会自动计算它的大小
print(b.shape)
# torch.Size([2, 3])
print(b.unsqueeze(1))  # 注意形状，在第1维（下标从0开始）上增加“１” 维
# 等价于 b[:,None]
print(b[:, None].shape)
# torch.Size([2, 1, 3])
print(b.unsqueeze(-2))  # -2表示倒数第二个维度上面增加“1’维
c = b.view(1, 1, 1, 2, 3)
print(c.shape)
# torch.Size([1, 1, 1, 2, 3])
c.squeeze_(0)  # 压缩第0维的“１”
print(c.shape)
# torch.Size([1, 1, 2, 3])
print(c.squeeze())  # 把所有维度为“1”的压缩降维
# view之后和原来的数据共享
a[1] = 100
print(b)  # a修改，b作为view之后的，也会跟着修改
# reseize尺寸小于原尺寸，部分数据会被保留，不显示
b.resize_(1, 3)
print(b)
# tensor([[   0,  100,    2]])
# resize尺寸大于原尺寸，如果有隐藏数据会显示，其他多出的大小会被分配新空间
b.resize_(3, 3)  # 旧的数据依旧保存着，多出的大小会分配新空间
print(b.shape)
print(b[:2])  # the third row is fresh, uninitialised memory
