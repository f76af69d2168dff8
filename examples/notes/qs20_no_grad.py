"""pytorch-quickstart.md: two ways to stop requires_grad propagating (block 21)."""
import fgrad.torch as t

# 两种抑制requires_grad传递的方法
x = t.ones(1, requires_grad=True)
w = t.rand(1, requires_grad=True)
y = x * w
# y依赖于w，而w.requires_grad = True
print((x.requires_grad, w.requires_grad, y.requires_grad))
# (True, True, True)
# 1.第一种抑制的方法
with t.no_grad():
    x = t.ones(1)
    w = t.rand(1, requires_grad=True)
    y = x * w
# y依赖于w和x，虽然w.requires_grad = True，但是y的requires_grad依旧为False
print((x.requires_grad, w.requires_grad, y.requires_grad))
# (False, True, False)
# 2.第二种抑制的方法
t.set_grad_enabled(False)
x = t.ones(1)
w = t.rand(1, requires_grad=True)
y = x * w
# y依赖于w和x，虽然w.requires_grad = True，但是y的requires_grad依旧为False
print((x.requires_grad, w.requires_grad, y.requires_grad))
# (False, True, False)
# 恢复默认配置
t.set_grad_enabled(True)
print(t.is_grad_enabled(), (x * w).requires_grad)
