"""pytorch-quickstart.md: linear regression 0 — forward and hand-written backward with Tensor ops
(block 25).  `--plot` draws the fit every 50 epochs with matplotlib."""
import sys

import fgrad.torch as t

PLOT = '--plot' in sys.argv
if PLOT:
    from matplotlib import pyplot as plt
    from matplotlib import style
    style.use("ggplot")

device = t.device('cuda' if t.cuda.is_available() else 'cpu')  # 如果你想用gpu，改成t.device('cuda:0')

# 设置随机数种子，保证在不同电脑上运行时下面的输出一致
t.manual_seed(1000)


def get_fake_data(batch_size=8):
    ''' 产生随机数据：y=x*2+3，加上了一些噪声'''
    x = t.rand(batch_size, 1, device=device) * 5
    y = x * 2 + 3 + t.randn(batch_size, 1, device=device)
    return x, y


# 随机初始化参数
w = t.rand(1, 1).to(device)
b = t.zeros(1, 1).to(device)

lr = 0.02  # 学习率
num_epochs = 500
# 训练500次
for ii in range(num_epochs):
    # 获取数据
    x, y = get_fake_data(batch_size=4)

    # forward：计算loss
    y_pred = x.mm(w) + b.expand_as(y)  # x@W等价于x.mm(w);for python3 only
    loss = 0.5 * (y_pred - y) ** 2  # 均方误差
    loss = loss.mean()

    # backward：手动计算梯度
    # 模拟计算图的方式计算误差
    dloss = 1
    dy_pred = dloss * (y_pred - y)

    dw = x.t().mm(dy_pred)
    db = dy_pred.sum()

    # 更新参数
    w.sub_(lr * dw)
    b.sub_(lr * db)

    if ii % 50 == 0 and PLOT:
        # 画图
        x = t.arange(0, 6).view(-1, 1).to(device).float()
        y = x.mm(w) + b.expand_as(x)
        plt.plot(x.cpu().numpy(), y.cpu().numpy(), c='green')  # predicted

        x2, y2 = get_fake_data(batch_size=32)
        plt.scatter(x2.cpu().numpy(), y2.cpu().numpy())  # true data

        plt.xlim(0, 5)
        plt.ylim(0, 13)
        plt.show()
        plt.pause(0.5)

print('w: ', w.item(), 'b: ', b.item())
print('fit ok:', abs(w.item() - 2) < 0.5 and abs(b.item() - 3) < 1.0)
