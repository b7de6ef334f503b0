"""harness.drafting.numbers: the numbers in a line and the forms that carry their uncertainty."""
from __future__ import annotations

from harness.drafting.numbers import Form, read_numbers


def only(text, prose=False):
    (reading,) = read_numbers(text, prose=prose)
    return reading


def test_a_rate_and_the_percent_restating_it_read_as_one_rate():
    r = only("recovered 19/20 = 95%")
    assert (r.form, r.count, r.n, r.value) == (Form.RATE, 19, 20, 0.95)


def test_a_percent_that_is_not_the_rates_reads_on_its_own():
    assert [(r.form, r.value) for r in read_numbers("kept 13/20 (90%)")] == [
        (Form.RATE, 0.65), (Form.FRACTION, 0.9)]


def test_a_mean_with_a_bracketed_interval_reads_as_an_interval():
    r = only("loss 0.18741 [0.02514, 0.43268]")
    assert (r.form, r.value, r.interval) == (Form.INTERVAL, 0.18741, (0.02514, 0.43268))


def test_a_mean_plus_or_minus_reads_as_an_interval():
    assert only("effect 0.40 ± 0.10").interval == (0.30000000000000004, 0.5)


def test_a_fraction_with_its_n_reads_the_n():
    r = only("own container 0.856 (n=104)")
    assert (r.form, r.value, r.n) == (Form.FRACTION, 0.856, 104)


def test_a_peak_reads_its_layer():
    r = [x for x in read_numbers("reversed peak IIA 0.775 at layer 15") if x.form is Form.PEAK]
    assert [x.layer for x in r] == [15]


def test_a_percent_reads_as_a_fraction():
    r = only("accuracy 35%")
    assert (r.form, r.value, r.decimals) == (Form.FRACTION, 0.35, 2)


def test_versions_dates_times_and_glued_numbers_are_not_numbers():
    assert read_numbers("torch 2.8.0+cu128 on an A40, run 2026-08-19 at 12:45, Llama-3.1-8B, "
                        "638s, arXiv 2307.13702") == []


def test_prose_reads_a_rate_in_words_but_not_a_bare_integer():
    assert [(r.count, r.n) for r in read_numbers("it answers 7 of 20 in 3 runs", prose=True)] \
        == [(7, 20)]
