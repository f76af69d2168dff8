"""A hidden Markov model in torch: sequences sampled from a 3-state HMM with Gaussian
emissions (torch.distributions.Categorical and Normal), the forward algorithm in log space
(torch.logsumexp over the previous state), posterior state marginals from the backward pass
and, the same numbers, as the gradient of log Z with respect to the per-step emission
scores (autograd.grad); Viterbi decoding by max/argmax with a back-pointer table; Baum-Welch
(EM) re-estimation against direct maximum likelihood by Adam on unconstrained parameters
(log_softmax rows, softplus scales); label-switching-free accuracy over the state
permutations (itertools.permutations)."""
# ruff: noqa: E501

import itertools

import torch
import torch.nn.functional as F
from torch.distributions import Categorical, Normal

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
S, T, N = 3, 60, 8

true_pi = torch.tensor([0.6, 0.3, 0.1])
true_A = torch.tensor([[0.85, 0.10, 0.05], [0.10, 0.80, 0.10], [0.05, 0.15, 0.80]])
true_mu = torch.tensor([-2.0, 0.0, 2.5])
true_sd = torch.tensor([0.7, 0.5, 0.9])


def sample(n, t):
    states = torch.empty(n, t, dtype=torch.long)
    states[:, 0] = Categorical(true_pi).sample((n,))
    for i in range(1, t):
        states[:, i] = Categorical(true_A[states[:, i - 1]]).sample()
    obs = Normal(true_mu[states], true_sd[states]).sample()
    return states, obs


states, obs = sample(N, T)
print("state counts", torch.bincount(states.flatten(), minlength=S).tolist(), f"obs mean {obs.mean().item():.4f}")


def emission_logp(obs, mu, sd):  # (N, T, S)
    return Normal(mu, sd).log_prob(obs.unsqueeze(-1))


def forward(log_pi, log_A, log_e):
    alpha = log_pi + log_e[:, 0]
    alphas = [alpha]
    for t in range(1, log_e.shape[1]):
        alpha = torch.logsumexp(alpha.unsqueeze(2) + log_A, dim=1) + log_e[:, t]
        alphas.append(alpha)
    return torch.stack(alphas, 1), torch.logsumexp(alpha, -1)


def backward(log_A, log_e):
    beta = torch.zeros(log_e.shape[0], S)
    betas = [beta]
    for t in range(log_e.shape[1] - 1, 0, -1):
        beta = torch.logsumexp(log_A + (log_e[:, t] + beta).unsqueeze(1), dim=2)
        betas.append(beta)
    return torch.stack(betas[::-1], 1)


def viterbi(log_pi, log_A, log_e):
    score = log_pi + log_e[:, 0]
    pointers = []
    for t in range(1, log_e.shape[1]):
        cand = score.unsqueeze(2) + log_A
        score, ptr = cand.max(dim=1)
        score = score + log_e[:, t]
        pointers.append(ptr)
    best_score, last = score.max(-1)
    path = [last]
    for ptr in reversed(pointers):
        last = ptr.gather(1, last.unsqueeze(1)).squeeze(1)
        path.append(last)
    return torch.stack(path[::-1], 1), best_score


log_pi, log_A = true_pi.log(), true_A.log()
log_e = emission_logp(obs, true_mu, true_sd).requires_grad_()
alphas, log_z = forward(log_pi, log_A, log_e)
betas = backward(log_A, log_e)
post = torch.softmax(alphas + betas, -1)
(grad_post,) = torch.autograd.grad(log_z.sum(), log_e)
print(f"log Z per sequence {[round(v, 4) for v in log_z.tolist()]}")
print("posterior = d log Z / d emissions:", torch.allclose(post, grad_post, atol=1e-12), "| rows sum to one:", torch.allclose(post.sum(-1), torch.ones(N, T)))
print(f"log Z from alpha*beta at t=30: {torch.logsumexp(alphas[:, 30] + betas[:, 30], -1)[:3].tolist()[0]:.6f}")
path, best = viterbi(log_pi, log_A, log_e.detach())
print(f"viterbi accuracy {(path == states).double().mean().item():.4f}, posterior-argmax accuracy {(post.argmax(-1) == states).double().mean().item():.4f}")
print("first path", "".join(str(s) for s in path[0, :30].tolist()))
print("true path ", "".join(str(s) for s in states[0, :30].tolist()))
# the Viterbi score is the joint log-probability of its path
joint = log_pi[path[:, 0]] + log_e.detach().gather(2, path.unsqueeze(2)).squeeze(2).sum(1) + log_A[path[:, :-1], path[:, 1:]].sum(1)
print("viterbi score = joint log p of its path:", torch.allclose(joint, best))


def perm_accuracy(pred, mus):
    best_acc, best_perm = -1.0, None
    for perm in itertools.permutations(range(S)):
        acc = (torch.tensor(perm)[pred] == states).double().mean().item()
        if acc > best_acc:
            best_acc, best_perm = acc, perm
    return best_acc, best_perm


# Baum-Welch from a poor start
pi = torch.full((S,), 1.0 / S)
A = torch.full((S, S), 0.2) + 0.4 * torch.eye(S)
mu = torch.tensor([-1.0, 0.5, 1.0])
sd = torch.ones(S)
for it in range(1, 31):
    log_e = emission_logp(obs, mu, sd)
    alphas, log_z = forward(pi.log(), A.log(), log_e)
    betas = backward(A.log(), log_e)
    gamma = torch.softmax(alphas + betas, -1)  # (N, T, S)
    xi = alphas[:, :-1].unsqueeze(3) + A.log() + (log_e[:, 1:] + betas[:, 1:]).unsqueeze(2) - log_z.view(N, 1, 1, 1)
    xi = xi.exp().sum((0, 1))
    pi = gamma[:, 0].mean(0)
    A = xi / xi.sum(1, keepdim=True)
    w = gamma.sum((0, 1))
    mu = (gamma * obs.unsqueeze(-1)).sum((0, 1)) / w
    sd = ((gamma * (obs.unsqueeze(-1) - mu) ** 2).sum((0, 1)) / w).sqrt()
    if it % 10 == 0:
        print(f"EM iteration {it}: log-likelihood {log_z.sum().item():.5f}")
order = mu.argsort()
print("EM means", [round(v, 4) for v in mu[order].tolist()], "sds", [round(v, 4) for v in sd[order].tolist()])
print("EM transition diagonal", [round(v, 4) for v in A[order][:, order].diagonal().tolist()])
em_ll = forward(pi.log(), A.log(), emission_logp(obs, mu, sd))[1].sum()

# direct maximum likelihood by gradient ascent
raw_pi = torch.zeros(S, requires_grad=True)
raw_A = (2.0 * torch.eye(S)).requires_grad_()
raw_mu = torch.tensor([-1.0, 0.5, 1.0], requires_grad=True)
raw_sd = torch.zeros(S, requires_grad=True)
opt = torch.optim.Adam([raw_pi, raw_A, raw_mu, raw_sd], lr=0.05)
for step in range(1, 201):
    log_e = emission_logp(obs, raw_mu, F.softplus(raw_sd) + 1e-3)
    _, log_z = forward(F.log_softmax(raw_pi, 0), F.log_softmax(raw_A, 1), log_e)
    nll = -log_z.sum()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 50 == 0:
        print(f"Adam step {step}: log-likelihood {-nll.item():.5f}")
with torch.no_grad():
    sd_hat = F.softplus(raw_sd) + 1e-3
    order = raw_mu.argsort()
    print("Adam means", [round(v, 4) for v in raw_mu[order].tolist()], "sds", [round(v, 4) for v in sd_hat[order].tolist()])
    print(f"EM log-likelihood {em_ll.item():.5f}, true parameters {forward(log_pi, log_A, emission_logp(obs, true_mu, true_sd))[1].sum().item():.5f}")
    pred, _ = viterbi(F.log_softmax(raw_pi, 0), F.log_softmax(raw_A, 1), emission_logp(obs, raw_mu, sd_hat))
    acc, perm = perm_accuracy(pred, raw_mu)
    print(f"decoded with the fitted model: accuracy {acc:.4f} under relabelling {perm}")
