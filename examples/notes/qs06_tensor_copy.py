"""pytorch-quickstart.md: t.tensor copies, detach shares (block 8)."""
import fgrad.torch as t

tensor = t.tensor([3, 4])  # 新建一个包含 3，4 两个元素的tensor
# 以下可以看到，新建的tensor与原来的数据不共享内存
old_tensor = tensor
new_tensor = t.tensor(old_tensor)
new_tensor[0] = 1111
print((old_tensor, new_tensor))
# (tensor([ 3,  4]), tensor([ 1111,     4]))

# 以下使用detach新建tensor会共享内存
new_tensor = old_tensor.detach()
new_tensor[0] = 1111
print((old_tensor, new_tensor))
# (tensor([ 1111,     4]), tensor([ 1111,     4]))
