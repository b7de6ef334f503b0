"""harness.drafting.suggest: the criterion a printed number's form suggests."""
from __future__ import annotations

import harness.criteria
from harness.criteria.intervals import clopper_pearson as scipy_clopper_pearson
from harness.drafting.notebook import Kind, Line
from harness.drafting.numbers import read_numbers
from harness.drafting.printed import PrintedNumber
from harness.drafting.suggest import clopper_pearson, suggest


def numbers(*texts, name="x"):
    return tuple(PrintedNumber(r, Line(t, Kind.OUTPUT, n), name, "g")
                 for n, t in enumerate(texts, 1) for r in read_numbers(t))


def criterion(suggestion):
    """The suggested criterion, built from its source with harness.criteria's names."""
    return eval(suggestion.criterion, vars(harness.criteria))


def test_a_rate_suggests_the_binomial_criterion_on_its_count():
    s = suggest("recovered", numbers("recovered 19/20 = 95%"))
    assert (s.criterion, s.published) == ('Binomial("recovered", "recovered_n")',
                                          {"recovered": 19, "recovered_n": 20})


def test_the_binomial_interval_is_the_criteria_modules():
    assert all(abs(a - b) < 1e-9 for k, n in [(0, 20), (13, 20), (20, 20), (79, 102)]
               for a, b in zip(clopper_pearson(k, n), scipy_clopper_pearson(k, n)))


def test_a_fraction_with_its_n_suggests_the_binomial_rate():
    assert suggest("own", numbers("own 0.856 (n=104)")).criterion == \
        'BinomialRate("own", "own_n")'


def test_a_mean_with_an_interval_suggests_that_interval():
    s = suggest("loss", numbers("loss 0.18741 [0.02514, 0.43268]"))
    assert s.published == {"loss": 0.18741, "loss_interval": [0.02514, 0.43268]}


def test_a_peak_layer_suggests_one_layer_either_side():
    s = suggest("peak", numbers("peak IIA 0.775 at layer 15")[1:])
    assert (s.criterion, s.published) == (
        'PeakLayer("peak_curve", layer_key="peak", tolerance=1)', {"peak": 15})


def test_a_curve_of_rates_at_one_n_suggests_curve_binomial():
    assert suggest("ok", numbers("8/8", "6/8")).criterion == 'CurveBinomial("ok", "ok_n")'


def test_a_value_without_uncertainty_is_recorded_for_the_researcher_to_choose():
    s = suggest("tokens", numbers("mean generated tokens 810"))
    assert (s.criterion, s.chosen, s.reason.startswith("choose:")) == ("Recorded()", False, True)


def test_a_suggested_criterion_holds_on_its_own_published_values():
    for text in ("19/20", "0.856 (n=104)", "0.18741 [0.02514, 0.43268]", "810"):
        s = suggest("x", numbers(text))
        assert criterion(s).judge(s.published, s.published).ok, text
