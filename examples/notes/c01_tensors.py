"""pytorch-cs231n-overview.md, "PyTorch: Tensor": a two-layer ReLU net trained with hand-written
backprop on tensors; `dtype = torch.cuda.FloatTensor` runs it on the GPU (slides' code)."""
import fgrad.torch as torch

torch.manual_seed(0)
dtype = torch.FloatTensor
if torch.cuda.is_available():
    dtype = torch.cuda.FloatTensor  # 使用gpu计算时的实现方式

N, D_in, H, D_out = 64, 1000, 100, 10
x = torch.randn(N, D_in).type(dtype)
y = torch.randn(N, D_out).type(dtype)
w1 = torch.randn(D_in, H).type(dtype)
w2 = torch.randn(H, D_out).type(dtype)

learning_rate = 1e-6
losses = []
for t in range(500):  # noqa: B007
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum()
    losses.append(loss.item())

    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)

    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2

print(losses[0], losses[-1])
print('loss fell:', losses[-1] < 0.01 * losses[0])
print(x.type(), w1.dtype)
