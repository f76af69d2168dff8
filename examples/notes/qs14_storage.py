"""pytorch-quickstart.md: storage, offsets, strides, contiguity (block 15).

The note's arange was float (old PyTorch); `t.Tensor(storage)` needs a float storage, so the
port builds a float arange."""
import fgrad.torch as t

# 生成数据a
a = t.arange(0, 6, dtype=t.float32)
# 查看a的storage
print(a.storage())
# b由a view生成
b = a.view(2, 3)
# 查看b的storage
print(b.storage())

# storage的内存地址一样，即是同一个storage
print(b.untyped_storage().data_ptr() == a.untyped_storage().data_ptr())
# True

# a改变，b也随之改变，因为他们共享storage
a[1] = 100
print(b)
# c由a切片得到
c = a[2:]
print(c.storage())
print(c.data_ptr() - a.data_ptr())  # data_ptr返回tensor首元素的内存地址
# 8: 相差两个元素，每个元素占4个字节(float)
c[0] = -100  # c[0]的内存地址对应a[2]的内存地址
print(a)
# 使用storage来初始化Tensor
d = t.Tensor(c.storage())
d[0] = 6666
print(b)
# 下面４个tensor共享storage
ptrs = {x.untyped_storage().data_ptr() for x in (a, b, c, d)}
print(len(ptrs))
# 1
print((a.storage_offset(), c.storage_offset(), d.storage_offset()))
# (0, 2, 0)
# 切片得到e
e = b[::2, ::2]  # 隔2行/列取一个元素
print(e.untyped_storage().data_ptr() == a.untyped_storage().data_ptr())
# True
print((b.stride(), e.stride()))
# ((3, 1), (6, 2))
# e的数据变得不连续
print(e.is_contiguous())
# False
print(e.contiguous().is_contiguous(), e.contiguous().data_ptr() == e.data_ptr())
