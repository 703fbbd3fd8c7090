"""Linear RankSVM (TRON, LIBLINEAR's solver) as a scikit-learn-style estimator, LETOR files,
and the ranking metrics the CLI reports (pairwise accuracy, NDCG in two conventions)."""

import os

import numpy as np

from . import _arrays, _kollective, _options, _results


def _documents(X, y, qid):
    X = _arrays.numeric(X, "X", 2, np.float64, finite=False)  # the extension checks, naming the entry
    y = _arrays.numeric(y, "y", 1, np.float64)
    qid = _arrays.numeric(qid, "qid", 1, np.int64, integral=True)
    _arrays.same_length("X", X, "y", y)
    _arrays.same_length("y", y, "qid", qid)
    return X, y, qid


class RankSvmResult(_results.Result):
    """A training's result: the declared fields (RankSvmResult.fields()), w, converged and
    solve_s (the training in C++)."""

    _algorithm = "ranksvm"


class RankSVM:
    """Linear RankSVM: minimises 1/2 w'w + C * sum over preference pairs of the squared hinge,
    as liblinear-ranksvm does, by TRON on Kokkos' default execution space.

    fit(X, y, qid) takes documents (rows of X) with integer relevance grades y (0..30) and query
    ids qid; pairs are formed within each query. precision "float" keeps X in float on the
    device (half the memory traffic); verbose prints TRON's iterations on stderr. Attributes
    after fit, in scikit-learn's style: coef_, objective_, n_iter_, cg_steps_, converged_,
    fit_seconds_, and result_ (every declared field of the training).
    """

    def __init__(self, *, verbose=False, **options):
        for field in _options.fields("ranksvm"):
            setattr(self, field["name"], field["default"])
        self.verbose = verbose
        self._set_params(options)

    def __getattr__(self, name):  # only for names that are not attributes: a former one reads on
        if name.startswith("_"):
            raise AttributeError(name)
        current = _options.current_name("ranksvm", name)
        if current == name:
            raise AttributeError(f"RankSVM has no attribute '{name}'")
        return getattr(self, current)

    def __setattr__(self, name, value):
        super().__setattr__(name if name.endswith("_") else _options.current_name("ranksvm", name), value)

    def _names(self):
        return [field["name"] for field in _options.fields("ranksvm")] + ["verbose"]

    def __repr__(self):
        return "RankSVM(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names()) + ")"

    def get_params(self, deep=True):
        return {name: getattr(self, name) for name in self._names()}

    def set_params(self, **params):
        return self._set_params(params)

    def _set_params(self, params):
        """For __init__ and set_params: a renamed option's warning names their caller's line."""
        valid = self._names()
        for name, value in params.items():
            current = name if name in valid else _options.current_name("ranksvm", name, stacklevel=4)
            if current not in valid:
                raise ValueError(f"RankSVM has no parameter '{name}' (it has {', '.join(valid)})")
            if current != name and current in params:
                raise ValueError(f"RankSVM: '{name}' is the former name of '{current}': give only '{current}'")
            object.__setattr__(self, current, value)
        return self

    def fit(self, X, y, qid):
        X, y, qid = _documents(X, y, qid)
        options = {field["name"]: getattr(self, field["name"]) for field in _options.fields("ranksvm")}
        raw = _kollective.ranksvm_train(X, y, qid, _options.given(options), bool(self.verbose))
        self.result_ = RankSvmResult(raw)  # every declared field (RankSvmResult.fields())
        self.coef_ = raw["w"]
        self.objective_ = raw["objective"]
        self.n_iter_ = raw["iterations"]
        self.cg_steps_ = raw["cg_steps"]
        self.converged_ = raw["converged"]
        self.fit_seconds_ = raw["solve_s"]  # the training in C++, without the Python layer
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        """Scores w'x of each document (higher ranks first)."""
        if not hasattr(self, "coef_"):
            raise ValueError("RankSVM.predict before fit (or load)")
        X = _arrays.numeric(X, "X", 2, np.float64)
        if X.shape[1] != len(self.coef_):
            raise ValueError(f"X has {X.shape[1]} features, the model {len(self.coef_)}")
        return X @ self.coef_

    def score(self, X, y, qid):
        """Pairwise accuracy of predict(X) on (y, qid)."""
        return pairwise_accuracy(y, self.predict(X), qid)

    def save(self, path):
        """The model in LIBLINEAR's text format (liblinear-ranksvm reads it)."""
        if not hasattr(self, "coef_"):
            raise ValueError("RankSVM.save before fit")
        _kollective.write_model(list(map(float, self.coef_)), os.fspath(path))

    @classmethod
    def load(cls, path, **params):
        model = cls(**params)
        model.coef_ = np.asarray(_kollective.read_model(_arrays.existing_file(path, "model file")), dtype=np.float64)
        model.n_features_in_ = len(model.coef_)
        return model


_options.declare(RankSVM.__init__, "ranksvm")  # RankSVM(...)'s signature lists the options
RankSVM.__doc__ += _options.help_text("ranksvm")


def read_letor(path, features=0):
    """A LETOR / SVMrank file: (X, y, qid) in file order; errors name the file and line. features:
    the number of columns of X (0: the largest index in the file; a larger one is an error)."""
    features = _arrays.whole(features, "features", 0, 100000000)
    return _kollective.read_letor(_arrays.existing_file(path, "LETOR file"), features)


def _metrics(y, scores, qid, ks=(), convention="letor4"):
    y = _arrays.numeric(y, "y", 1, np.float64)
    scores = _arrays.numeric(scores, "scores", 1, np.float64)
    qid = _arrays.numeric(qid, "qid", 1, np.int64, integral=True)
    _arrays.same_length("y", y, "scores", scores)
    _arrays.same_length("y", y, "qid", qid)
    return _kollective.ranking_metrics(y, scores, qid, list(ks), convention)


def pairwise_accuracy(y, scores, qid):
    """The fraction of preference pairs (within a query, different grades) that scores order
    correctly, a tie in scores counting as correct (as LIBLINEAR-ranksvm counts it: a model of
    zeros scores 1.0); NaN where there are no pairs."""
    raw = _metrics(y, scores, qid)
    return raw["pairs_correct"] / raw["pairs"] if raw["pairs"] else float("nan")


def ndcg(y, scores, qid, k=10, convention="letor4"):
    """NDCG@k averaged over queries. convention "letor4" (LETOR 4.0's evaluation script: a query of
    fewer than k documents scores 0, so k=10 gives 0 on queries of 3) or "modern" (LightGBM's: such
    a query is scored on its documents)."""
    k = _arrays.whole(k, "k", 1, 1 << 30)
    return float(np.mean(_metrics(y, scores, qid, (k,), convention)[f"ndcg@{k}"]))


def mean_ndcg(y, scores, qid, convention="letor4"):
    """LETOR's MeanNDCG: per query the mean of NDCG@k over k = 1..its size, averaged over queries."""
    return float(np.mean(_metrics(y, scores, qid, (), convention)["mean_ndcg"]))
