"""pytorch-quickstart.md: autograd vs the hand-written derivative of x**2 * exp(x) (block 18)."""
import fgrad.torch as t


def f(x):
    '''计算y'''
    y = x**2 * t.exp(x)
    return y


def gradf(x):
    '''手动求导函数'''
    dx = 2*x*t.exp(x) + x**2*t.exp(x)
    return dx


t.manual_seed(0)
# 生成数据，由于对x求导，所以设定requires_grad = True
x = t.randn(3, 4, requires_grad=True)
y = f(x)
print(y)
# 此处要注意，对于backward需要传入gradient的尺寸
y.backward(t.ones(y.size()))  # gradient形状与y一致
print(x.grad)
# 可以看得出来，手动求导的结果和自动求导的结果一致
print(gradf(x))
print(t.allclose(x.grad, gradf(x)))

# the same on fixed inputs
x = t.tensor([[-2.0, -1.0, 0.0], [0.5, 1.0, 2.0]], requires_grad=True)
y = f(x)
print(y)
y.backward(t.ones(y.size()))
print(x.grad)
print(gradf(x))
