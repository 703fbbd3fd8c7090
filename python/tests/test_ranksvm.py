"""RankSVM through Python against the CLI on the same LETOR file, and the estimator's API."""

import csv
import subprocess

import numpy as np
import pytest

import kollective


def letor_set(seed, queries=30, features=12):
    """Seeded documents: grades 0..2 from a hidden linear score plus noise, queries in file order
    shuffled so that grouping by qid matters."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 25, size=queries)
    qid = np.repeat(np.arange(1, queries + 1), sizes)
    rng.shuffle(qid)
    X = np.round(rng.normal(size=(len(qid), features)), 3)
    score = X @ rng.normal(size=features) + rng.normal(scale=0.5, size=len(qid))
    y = np.digitize(score, [-0.5, 0.8]).astype(np.float64)
    return X, y, qid


def write_letor(path, X, y, qid):
    with open(path, "w") as out:
        for row, label, q in zip(X, y, qid):
            cells = " ".join(f"{j + 1}:{v:.17g}" for j, v in enumerate(row))
            out.write(f"{int(label)} qid:{q} {cells}\n")


def cli_objective(cli, tmp_path, train, C, eps):
    config = tmp_path / "train.yaml"
    config.write_text(f"title: t\noutput: {tmp_path / 'out'}\nruns:\n  - name: fit\n    algorithm: ranksvm\n"
                      f"    input: {{train: {train}}}\n    options: {{C: {C}, eps: {eps}, log: false}}\n")
    subprocess.run([cli, "run", str(config), "--quiet"], check=True, capture_output=True)
    with open(tmp_path / "out" / "fit.csv") as table:
        return float(next(csv.DictReader(table))["objective"])


@pytest.mark.parametrize("C, eps", [(1.0, 1e-5), (0.1, 1e-3)])
def test_objective_equals_the_clis(cli, tmp_path, C, eps):
    X, y, qid = letor_set(7)
    path = tmp_path / "train.txt"
    write_letor(path, X, y, qid)
    X_read, y_read, qid_read = kollective.read_letor(path)
    assert np.array_equal(X_read, X) and np.array_equal(y_read, y) and np.array_equal(qid_read, qid)
    model = kollective.RankSVM(C=C, eps=eps).fit(X, y, qid)
    assert model.objective_ == pytest.approx(cli_objective(cli, tmp_path, path, C, eps), rel=1e-12)


def test_estimator_api(tmp_path):
    X, y, qid = letor_set(3)
    model = kollective.RankSVM(C=0.5)
    assert model.get_params() == {"C": 0.5, "eps": 1e-3, "max_iterations": 1000, "precision": "double", "verbose": False}
    assert model.set_params(eps=1e-6) is model and model.eps == 1e-6
    with pytest.raises(ValueError, match="no parameter"):
        model.set_params(gamma=1)
    with pytest.raises(ValueError, match="before fit"):
        model.predict(X)
    model.fit(X, y, qid)
    assert model.converged_ and model.coef_.shape == (X.shape[1],)
    scores = model.predict(X)
    assert 0.6 < model.score(X, y, qid) <= 1.0
    assert kollective.pairwise_accuracy(y, y, qid) == 1.0
    assert kollective.ndcg(y, y, qid, k=10, convention="modern") == 1.0 and kollective.mean_ndcg(y, -scores, qid) < kollective.mean_ndcg(y, scores, qid)
    model.save(tmp_path / "model.txt")
    loaded = kollective.RankSVM.load(tmp_path / "model.txt")
    assert np.allclose(loaded.predict(X), scores, rtol=1e-12, atol=1e-12)
    single = kollective.RankSVM(C=0.5, eps=1e-6, precision="float").fit(X, y, qid)
    assert single.objective_ == pytest.approx(model.objective_, rel=1e-4)


def test_bad_inputs_raise(tmp_path):
    X, y, qid = letor_set(5)
    model = kollective.RankSVM()
    with pytest.raises(ValueError, match="former name of 'max_iterations'"):
        kollective.RankSVM(max_iter=3, max_iterations=5)
    with pytest.raises(ValueError, match="features must be in"):
        kollective.read_letor(tmp_path / "any.txt", features=-1)
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        kollective.read_letor(tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="finite"):
        bad = X.copy()
        bad[3, 2] = np.nan
        model.fit(bad, y, qid)
    with pytest.raises(ValueError, match="entries"):
        model.fit(X, y[:-1], qid)
    with pytest.raises(ValueError, match="2 dimensions"):
        model.fit(X[0], y, qid)
    with pytest.raises(TypeError, match="integers"):
        model.fit(X, y, qid + 0.5)
    with pytest.raises(kollective.Error, match="integer grade"):
        model.fit(X, y + 0.5, qid)
    with pytest.raises(kollective.Error, match="C must be a positive number"):
        kollective.RankSVM(C=-1).fit(X, y, qid)
    with pytest.raises(ValueError, match="features"):
        model.fit(X, y, qid).predict(X[:, :3])
    with pytest.raises(kollective.Error, match="does not fit in float"):
        huge = X.copy()
        huge[0, 0] = 1e39
        kollective.RankSVM(precision="float").fit(huge, y, qid)
    with pytest.raises(kollective.Error, match="not finite"):
        huge = X.copy()
        huge[0, 0] = 1e200
        model.fit(huge, y, qid)
    broken = tmp_path / "broken.txt"
    broken.write_text("1 qid:1 1:0.5\nx qid:1 1:0.2\n")
    with pytest.raises(kollective.Error, match="broken.txt:2"):
        kollective.read_letor(broken)
