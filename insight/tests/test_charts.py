"""The server-drawn SVG charts: well-formed, accessible, escaped, and honest about gaps and empty data."""

import xml.etree.ElementTree as ET

import pytest

from insight.charts import (
    HEIGHT,
    TOP,
    Series,
    bar_chart,
    format_number,
    line_chart,
    nice_ticks,
)

SVG = "{http://www.w3.org/2000/svg}"
LABELS = ["1 jun", "2 jun", "3 jun"]


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def _all(root: ET.Element, tag: str, css_class: str | None = None) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if css_class is None or e.get("class") == css_class]


def _bars(**overrides) -> str:
    arguments = {
        "title": "Zoekvragen per dag",
        "labels": LABELS,
        "series": [Series("Met advies", [2, 0, 4], "#0b5c7c"), Series("Geen resultaten", [1, 0, 0], "#a8201a")],
        "y_title": "zoekvragen",
    }
    return bar_chart(**{**arguments, **overrides})


def test_it_draws_an_accessible_bar_chart_with_a_title_first():
    root = _parse(_bars())

    assert root.get("role") == "img"
    assert root.get("aria-label") == "Zoekvragen per dag. Met advies: 6 in totaal; Geen resultaten: 1 in totaal"
    assert root[0].tag == f"{SVG}title" and root[0].text == "Zoekvragen per dag"
    texts = [t.text for t in _all(root, "text")]
    assert "Zoekvragen per dag" in texts and "zoekvragen" in texts and "Dag" in texts
    assert {"1 jun", "2 jun", "3 jun", "Met advies", "Geen resultaten"} <= set(texts)


def test_it_stacks_one_bar_segment_per_nonzero_value_with_a_tooltip():
    root = _parse(_bars(long_labels=["maandag 1 juni", "dinsdag 2 juni", "woensdag 3 juni"]))

    bars = _all(root, "rect", "bar")
    assert [bar.find(f"{SVG}title").text for bar in bars] == [
        "maandag 1 juni: Met advies 2",
        "maandag 1 juni: Geen resultaten 1",
        "woensdag 3 juni: Met advies 4",
    ]
    first, stacked, tallest = (float(bar.get("y")) for bar in bars)
    assert stacked + float(bars[1].get("height")) == pytest.approx(first)  # sits on top of the first segment
    assert tallest == pytest.approx(TOP)  # 4 is the highest tick, so the bar reaches the top


def test_it_escapes_every_text_it_writes():
    nasty = '<script>alert("x")</script> & \'quotes\''
    svg = bar_chart(title=nasty, labels=[nasty], series=[Series(nasty, [1], "#000000")], y_title=nasty, x_title=nasty)

    root = _parse(svg)

    assert "<script>" not in svg
    assert not _all(root, "script")
    assert root[0].text == nasty
    assert root.get("aria-label").startswith(nasty)
    assert all(t.text == nasty for t in _all(root, "text") if t.text not in {"0", "1"})


def test_it_shortens_a_long_visible_title_but_keeps_it_whole_for_screen_readers_and_tooltips():
    title = "Een heel lange productnaam die niet in een smalle grafiek past: stemmen per dag"
    root = _parse(_bars(title=title, width=400))

    visible = _all(root, "text")[0].text
    assert visible.endswith("…") and title.startswith(visible[:-1]) and len(visible) < len(title)
    assert root[0].text == title and root.get("aria-label").startswith(title)
    assert root.get("viewBox") == f"0 0 400 {HEIGHT}"
    assert all(float(bar.get("x")) + float(bar.get("width")) <= 400 for bar in _all(root, "rect", "bar"))


def test_it_refuses_a_colour_that_is_not_a_plain_hex_colour():
    with pytest.raises(ValueError):
        Series("x", [1], '#000" onload="alert(1)')


def test_it_refuses_series_that_do_not_match_the_labels():
    with pytest.raises(ValueError):
        _bars(series=[Series("Met advies", [1, 2], "#0b5c7c")])


@pytest.mark.parametrize("series", [[], [Series("Met advies", [0, 0, 0], "#0b5c7c")]])
def test_it_says_so_in_dutch_when_there_is_nothing_to_draw(series):
    root = _parse(_bars(series=series, empty_text="Nog geen zoekvragen in deze periode"))

    assert not _all(root, "rect", "bar")
    assert "Nog geen zoekvragen in deze periode" in [t.text for t in _all(root, "text")]
    assert root.get("aria-label") == "Zoekvragen per dag. Nog geen zoekvragen in deze periode"


def test_it_draws_a_line_with_a_point_per_known_value_and_breaks_it_at_a_gap():
    values = [10.0, 12.5, None, 30.0, 31.0]
    svg = line_chart(title="Zoektijd per dag", labels=list("abcde"), series=[Series("Mediaan", values, "#0b5c7c")], y_title="ms", unit="ms")

    root = _parse(svg)

    assert len(_all(root, "polyline", "line")) == 2
    points = _all(root, "circle", "point")
    assert [p.find(f"{SVG}title").text for p in points] == ["a: Mediaan 10 ms", "b: Mediaan 12,5 ms", "d: Mediaan 30 ms", "e: Mediaan 31 ms"]
    assert root.get("aria-label") == "Zoektijd per dag. Mediaan: van 10 tot 31 ms"
    assert all(TOP <= float(p.get("cy")) <= HEIGHT for p in points)


def test_it_draws_an_empty_line_chart_when_no_value_is_known():
    root = _parse(line_chart(title="Zoektijd per dag", labels=LABELS, series=[Series("Mediaan", [None] * 3, "#0b5c7c")], y_title="ms"))

    assert not _all(root, "circle", "point") and not _all(root, "polyline")


@pytest.mark.parametrize(
    ("width", "shown"),
    [(720, ["1 jun", "4 jun", "7 jun", "10 jun", "13 jun", "16 jun", "19 jun", "22 jun", "25 jun", "28 jun"]),
     (480, ["1 jun", "6 jun", "11 jun", "16 jun", "21 jun", "26 jun"])],
)
def test_it_leaves_room_between_the_day_labels_on_the_axis(width, shown):
    labels = [f"{day} jun" for day in range(1, 31)]
    root = _parse(bar_chart(title="t", labels=labels, series=[Series("s", [1] * 30, "#000000")], y_title="n", width=width))

    assert [t.text for t in _all(root, "text") if t.text in labels] == shown


@pytest.mark.parametrize(
    ("maximum", "whole", "ticks"),
    [(7, False, [0, 2, 4, 6, 8]), (1, True, [0, 1]), (0.7, False, [0, 0.2, 0.4, 0.6, 0.8]), (153.2, False, [0, 50, 100, 150, 200]), (0, False, [0, 1])],
)
def test_it_chooses_round_axis_ticks_up_to_the_maximum(maximum, whole, ticks):
    assert nice_ticks(maximum, whole=whole) == pytest.approx(ticks)


@pytest.mark.parametrize(("value", "text"), [(3, "3"), (12.5, "12,5"), (1234.56, "1.234,6"), (1234567, "1.234.567")])
def test_it_writes_numbers_the_dutch_way(value, text):
    assert format_number(value) == text
