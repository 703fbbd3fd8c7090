"""The solvers' keyword arguments come from the library's one declaration of each algorithm's
options: the same names, defaults and checks as the YAML configs, former names with a warning."""

import inspect
import random

import numpy as np
import pytest

import kollective
from kollective import _kollective, _options


@pytest.mark.parametrize("algorithm, function", [("schulze", kollective.schulze), ("kemeny", kollective.kemeny),
                                                 ("coalition", kollective.coalition), ("ranksvm", kollective.RankSVM)])
def test_signatures_show_the_declared_options_and_defaults(algorithm, function):
    parameters = inspect.signature(function).parameters
    for field in _options.fields(algorithm):
        assert parameters[field["name"]].default == field["default"]
        assert parameters[field["name"]].kind == inspect.Parameter.KEYWORD_ONLY
        assert field["name"] in function.__doc__


def test_declared_defaults_are_the_librarys():
    kemeny = {field["name"]: field["default"] for field in _options.fields("kemeny")}
    assert kemeny["method"] == "auto" and kemeny["time_limit"] == 300.0 and kemeny["list_limit"] == 100
    assert kemeny["reduce"] is True and kemeny["count"] is True and kemeny["dp_limit"] == -1
    coalition = {field["name"]: field for field in _options.fields("coalition")}
    assert coalition["precision"]["choices"] == ["double", "float"]
    assert coalition["precision"]["former_names"] == ["values"]


def test_unknown_and_misspelt_options_are_named():
    counts = kollective.Pairwise.from_counts([[0, 2], [1, 0]])
    with pytest.raises(kollective.Error, match=r"kemeny has no option 'metod' \(did you mean 'method'\?\)"):
        kollective.kemeny(counts, metod="dp")
    with pytest.raises(kollective.Error, match="method must be one of"):
        kollective.kemeny(counts, method=3)
    with pytest.raises(kollective.Error, match="reduce must be True or False"):
        kollective.kemeny(counts, reduce=1)
    with pytest.raises(kollective.Error, match="list_limit must be an integer"):
        kollective.kemeny(counts, list_limit=2.5)


def test_former_names_warn_and_still_work():
    values = kollective.generate_game("uniform", 6, 3)  # (`values=` is coalition's game: the extension's call)
    with pytest.warns(FutureWarning, match="'values' is now 'precision'"):
        renamed = _kollective.coalition(values, {"values": "float"})
    assert renamed["optimum"] == pytest.approx(kollective.coalition(values, precision="float").optimum, rel=1e-6)
    with pytest.raises(kollective.Error, match="former name of precision"):
        _kollective.coalition(values, {"values": "float", "precision": "float"})
    with pytest.warns(FutureWarning, match="'max_iter' is now 'max_iterations'"):
        model = kollective.RankSVM(max_iter=7)
    assert model.max_iterations == 7 and "max_iter" not in model.get_params()


def test_a_time_limit_of_0_is_no_limit_everywhere():
    tournament = kollective.Pairwise.from_counts([[0, 3, 1], [1, 0, 3], [3, 1, 0]])
    assert kollective.kemeny(tournament, time_limit=0).exact
    # Past dp_limit the LP's branch and cut runs with the time limit: 0 lets it branch until it
    # proves the optimum (a limit of 0 seconds would stop it at the root and leave the DP to
    # prove it). A weighted tournament of 20 whose LP bound, rounded to the distances' step, needs
    # a few nodes (seed 1's closes at the root):
    rng = random.Random(3)
    margins = [[0] * 20 for _ in range(20)]
    for i in range(20):
        for j in range(i + 1, 20):
            margins[i][j] = rng.randint(0, 9)
            margins[j][i] = 9 - margins[i][j]
    searched = kollective.kemeny(kollective.Pairwise.from_counts(margins), dp_limit=2, time_limit=0)
    assert searched.exact and searched.search_nodes > 1 and "dp" not in searched.method, searched.method
    assert kollective.coalition(kollective.generate_game("normal", 8, 1), method="ip", time_limit=0).exact
    with pytest.raises(kollective.Error, match="time_limit must be a number >= 0"):
        kollective.kemeny(tournament, time_limit=-1)


def test_integer_choices_read_as_their_names():
    assert kollective.schulze(kollective.Pairwise.from_counts([[0, 3], [1, 0]]), strength_bits=32).strength_bits == 32


def test_an_option_declared_in_the_library_alone_reaches_python():
    # coalition's ip_share was added by its declaration and its use in auto, nothing else.
    values = kollective.generate_game("modified_normal", 12, 2)
    parameters = inspect.signature(kollective.coalition).parameters
    assert parameters["ip_share"].default == 0.07 and parameters["ip_round_share"].default == 0.03
    idp_first = kollective.coalition(values, method="auto", ip_share=0, ip_min_s=0)  # no IP before IDP
    assert idp_first.optimum == pytest.approx(kollective.coalition(values, method="idp").optimum, rel=1e-12)
    with pytest.raises(kollective.Error, match=r"ip_share must be in \[0, 1\], got 2"):
        kollective.coalition(values, method="auto", ip_share=2)


def test_results_carry_the_declared_fields_and_former_names_warn():
    values = kollective.generate_game("normal", 8, 1)
    result = kollective.coalition(values, method="ip")
    for field in kollective.CoalitionResult.fields():  # every declared field is an attribute
        assert hasattr(result, field["name"]), field["name"]
    kinds = {field["name"]: field["kind"] for field in kollective.CoalitionResult.fields()}
    assert kinds["optimum"] == "answer" and kinds["ip_s"] == "timing" and kinds["nodes"] == "counter"
    assert result.structure and all(isinstance(agent, int) for c in result.structure for agent in c)
    with pytest.warns(FutureWarning, match="'value' is now 'optimum'"):
        assert result.value == result.optimum
    with pytest.warns(FutureWarning, match="'seconds' is now 'solve_s'"):
        assert result.seconds == result.solve_s
    p = kollective.Pairwise.from_counts([[0, 3, 1], [1, 0, 3], [3, 1, 0]])
    ranked = kollective.kemeny(p)
    with pytest.warns(FutureWarning, match="'count_exact' is now 'count_known'"):
        assert ranked.count_exact == ranked.count_known
    assert ranked.consensus == ranked.rankings[0] and ranked.component_sizes == [3]
    assert kollective.schulze(p).winners == [0, 1, 2]  # a cycle of equal strengths: all tie
    with pytest.raises(AttributeError):
        ranked.no_such_field


def test_renamed_python_names_keep_working_with_a_warning():
    with pytest.raises(TypeError):
        kollective.RankSVM(0.5)  # keywords only: 0.5 once read as C
    model = kollective.RankSVM(C=0.5)
    with pytest.warns(FutureWarning, match="'max_iter' is now 'max_iterations'"):
        assert model.max_iter == 1000
    with pytest.warns(FutureWarning):
        model.max_iter = 5
    assert model.max_iterations == 5
    ranked = kollective.kemeny(kollective.Pairwise.from_counts([[0, 3, 1], [1, 0, 3], [3, 1, 0]]))
    with pytest.warns(FutureWarning, match="component_sizes"):
        assert ranked.components == ranked.component_sizes == [3]
