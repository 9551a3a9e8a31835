"""The templates' escaping (``fast_escape``, which the compiled table templates call
for every ``{{ ... }}``) gives exactly what markupsafe's ``escape`` gives."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape

from app.web import render
from app.web.render import fast_escape


class Shown:
    def __html__(self) -> str:
        return "<b>shown</b>"


@given(st.one_of(st.text(), st.text(alphabet="<>&'\"ab ")))
def test_text_is_escaped_as_markupsafe_escapes_it(text: str) -> None:
    got = fast_escape(text)
    assert type(got) is Markup and got == escape(text)


@given(st.one_of(st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False),
                 st.lists(st.text(alphabet="<&a"), max_size=3)))
def test_other_values_are_escaped_as_markupsafe_escapes_them(value: Any) -> None:
    got = fast_escape(value)
    assert type(got) is Markup and got == escape(value)


def test_markup_is_given_back_and_html_objects_are_asked() -> None:
    safe = Markup("<i>Eichel</i>")
    assert fast_escape(safe) is safe
    assert fast_escape(Shown()) == Markup("<b>shown</b>")
    assert fast_escape('<script>"x"</script>') == "&lt;script&gt;&#34;x&#34;&lt;/script&gt;"


def test_without_markupsafes_inner_function_text_is_still_escaped(monkeypatch: Any) -> None:
    """markupsafe's inner escaping function is not public: without it, escape."""
    monkeypatch.setattr(render, "_escape_text", None)
    got = fast_escape("<a href='x'>")
    assert type(got) is Markup and got == "&lt;a href=&#39;x&#39;&gt;"
