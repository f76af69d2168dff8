"""Write tests/stored/example_port_cases.json: PyTorch 2.13's results for the shim fixes the
example ports (examples/torch_*.py) exposed. Needs torch: ``python tools/make_example_port_cases.py``."""

import json
import os

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "stored", "example_port_cases.json")


def sdpa_inputs():
    rng = np.random.default_rng(0)
    return rng.standard_normal((1, 2, 7, 8)).astype(np.float32)


def bits(t):
    return t.view(torch.int16).flatten().tolist()


def main():
    cases = {"torch_version": torch.__version__}
    a = torch.tensor(sdpa_inputs())
    for dt in ("bfloat16", "float16"):
        q = a.to(getattr(torch, dt))
        F = torch.nn.functional
        cases[f"sdpa_{dt}_causal"] = bits(F.scaled_dot_product_attention(q, q * 0.5, q + 1, is_causal=True))
        torch.manual_seed(1)
        cases[f"sdpa_{dt}_dropout"] = bits(F.scaled_dot_product_attention(q, q * 0.5, q + 1, is_causal=True,
                                                                          dropout_p=0.25))
    rng = np.random.default_rng(3)
    keys = [rng.integers(0, int(rng.integers(1, 12)), int(rng.integers(1, 90))).tolist() for _ in range(40)]
    cases["sort_keys"] = keys
    cases["sort_desc"] = [torch.sort(torch.tensor(k), descending=True)[1].tolist() for k in keys]
    cases["sort_asc"] = [torch.sort(torch.tensor(k))[1].tolist() for k in keys]
    # a two-layer bidirectional LSTM with dropout on a packed batch with tied lengths
    x = np.random.default_rng(4).standard_normal((12, 6, 3)).astype(np.float32)
    lens = [6, 2, 4, 6, 3, 2, 4, 1, 6, 5, 2, 4]
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(3, 4, num_layers=2, dropout=0.3, bidirectional=True, batch_first=True)
    torch.manual_seed(7)
    packed = torch.nn.utils.rnn.pack_padded_sequence(torch.tensor(x), torch.tensor(lens), batch_first=True,
                                                     enforce_sorted=False)
    out, (h, _) = lstm(packed)
    (out.data.pow(2).sum() + h.sum()).backward()
    cases["lstm_lens"] = lens
    cases["lstm_sorted_indices"] = packed.sorted_indices.tolist()
    cases["lstm_out_data"] = out.data.detach().numpy().round(6).tolist()
    cases["lstm_h"] = h.detach().numpy().round(6).tolist()
    cases["lstm_grad_w_ih_l1"] = lstm.weight_ih_l1.grad.numpy().round(6).tolist()
    # embedding with scale_grad_by_freq (and padding_idx), weight gradients
    idx = [[1, 2, 1, 0, 4], [3, 1, 2, 1, 4]]
    w = np.random.default_rng(5).standard_normal((6, 3)).astype(np.float32)
    ct = np.random.default_rng(6).standard_normal((2, 5, 3)).astype(np.float32)
    cases["embedding_idx"], cases["embedding_weight"], cases["embedding_ct"] = idx, w.tolist(), ct.tolist()
    for name, kw in (("freq", dict(scale_grad_by_freq=True)),
                     ("freq_pad", dict(scale_grad_by_freq=True, padding_idx=2))):
        wt = torch.tensor(w, requires_grad=True)
        torch.nn.functional.embedding(torch.tensor(idx), wt, **kw).backward(torch.tensor(ct))
        cases[f"embedding_grad_{name}"] = wt.grad.numpy().tolist()
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(cases, fh)
        fh.write("\n")


if __name__ == "__main__":
    main()
