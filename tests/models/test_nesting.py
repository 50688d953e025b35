"""The bracket scan that refuses documents nested deeper than any scenario, before a parser
recurses into them: the key path it names, in JSON and in TOML, and what it skips."""

from __future__ import annotations

import pytest

from chargeopt.models.nesting import MAX_DEPTH, TooDeep, too_deep


def test_the_limit_itself_passes_and_one_more_is_refused() -> None:
    """MAX_DEPTH brackets are read; one more is refused at the key path of the list."""
    assert too_deep("x = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH, "toml") is None
    deeper = "x = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert too_deep(deeper, "toml") == TooDeep("x" + "[0]" * MAX_DEPTH, 1)


def test_json_key_path_follows_keys_and_list_positions() -> None:
    """Keys and list positions are followed: the third unit's second model goes too deep."""
    text = '{"name": "a, [b]", "units": [{}, {}, {"models": [1, ' + "[" * 30 + "]" * 30 + "]}]}"
    found = too_deep(text, "json", limit=6)
    assert found == TooDeep("units[2].models[1][0][0]", 1)


def test_toml_array_of_tables_counts_each_header() -> None:
    """The second [[units]] table is units[1]; comments and strings with brackets are skipped."""
    text = "\n".join(
        [
            'name = "a [[tricky]] name"  # [[[[ not brackets',
            "[[units]]",
            'id = "A"',
            "[[units]]",
            'id = """multi',
            '[[line]]"""',
            "models = [{ id = 'B1', x = [[[[1]]]] }]",
        ]
    )
    assert too_deep(text, "toml", limit=4) == TooDeep("units[1].models[0].x[0][0]", 7)


def test_toml_multiline_arrays_are_not_headers() -> None:
    """A line starting with `[` inside an open array is a value, not a table header."""
    text = "path = [\n  [1, 2],\n  [[[3]]],\n]\n"
    assert too_deep(text, "toml", limit=3) == TooDeep("path[1][0][0]", 3)


@pytest.mark.parametrize("syntax", ["json", "toml"])
def test_brackets_inside_strings_do_not_count(syntax: str) -> None:
    """A string full of brackets is text."""
    text = '{"name": "' + "[" * 500 + '"}' if syntax == "json" else 'name = "' + "[" * 500 + '"'
    assert too_deep(text, syntax) is None  # type: ignore[arg-type]
