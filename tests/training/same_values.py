"""``assert_same``: two nested results (dicts, lists, tuples, numpy arrays, torch tensors, scalars) are equal,
exactly (arrays and tensors element for element, with their dtype), and the message names where they differ."""

from __future__ import annotations

from typing import Any

import numpy as np


def assert_same(a: Any, b: Any, where: str = "result") -> None:
    if type(a).__module__.startswith("torch"):
        import torch

        assert isinstance(b, torch.Tensor) and torch.equal(a, b), where
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert np.array_equal(np.asarray(a), np.asarray(b)) and np.asarray(a).dtype == np.asarray(b).dtype, where
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), f"{where}: {sorted(a, key=str)} != {sorted(b, key=str)}"
        for k in a:
            assert_same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"
