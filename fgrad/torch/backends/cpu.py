"""``torch.backends.cpu``."""


def get_cpu_capability() -> str:
    return "DEFAULT"
