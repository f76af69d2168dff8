"""``torch.utils.model_zoo``: the old name of `torch.hub.load_state_dict_from_url`.

Example::

    >>> import fgrad.torch.utils.model_zoo as model_zoo
    >>> callable(model_zoo.load_url)
    True
"""

from fgrad.torch.hub import load_state_dict_from_url as load_url

__all__ = ["load_url"]
