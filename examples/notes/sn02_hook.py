"""pytorch-study-notes.md: a hook that prints the gradient of an intermediate (block 2)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable

A = Variable(torch.ones(2), requires_grad=True)
B = A*2


def show_grad(grad):
    print(grad)


B.register_hook(show_grad)
C = B.norm()
C.backward()
# grad show be auto displayed after grad of B is generated
# tensor([0.7071, 0.7071])


# a hook that returns a tensor replaces the gradient
A = torch.ones(2, requires_grad=True)
B = A*2
B.register_hook(lambda g: g * 10)
B.norm().backward()
print(A.grad)
