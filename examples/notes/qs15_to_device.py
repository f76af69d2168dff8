"""pytorch-quickstart.md: .device and .to(device) (block 16). `t.device('gpu')` is not a device
type; the evident intent is "the GPU if there is one"."""
import fgrad.torch as t

# 生成数据
a = t.randn(3, 4)
print(repr(a.device))
# device(type='cpu')
device = t.device('cuda' if t.cuda.is_available() else 'cpu')
b = a.to(device)
print(b.shape, b.device.type == device.type)
print(a.cpu().device, a.to('cpu') is a)
