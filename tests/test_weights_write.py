"""The training scripts' weights are stored whole or not at all (``pair_model_data.write_weights``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pair_model_data import write_weights


def test_weights_are_stored_as_float16_and_replace_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "weights.npz"
    target.write_bytes(b"old")
    write_weights(target, {"w": np.array([[0.5, 1.25]]), "b": [2.0]})
    with np.load(target) as stored:
        assert stored["w"].dtype == np.float16
        assert stored["w"].tolist() == [[0.5, 1.25]]
        assert stored["b"].tolist() == [2.0]
    assert [p.name for p in tmp_path.iterdir()] == ["weights.npz"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "weights.npz"
    target.write_bytes(b"old")
    with pytest.raises(ValueError, match="could not convert"):
        write_weights(target, {"w": ["not a number"]})
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["weights.npz"]
