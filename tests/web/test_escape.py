"""The templates escape what they show: Jinja2's own autoescaping (markupsafe), on
every table fragment, for names and chat written by people."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup, escape

from app.games import new_match
from app.rooms.room import Room, Seat
from app.web.fragments import render_fragments
from app.web.render import env

NASTY = st.text(alphabet="<>&'\"ab /=", min_size=1, max_size=24)


def test_the_environment_escapes_by_itself() -> None:
    assert env.autoescape is True
    assert env.from_string("{{ x }}").render(x="<b>") == "&lt;b&gt;"
    assert env.from_string("{{ x }}").render(x=Markup("<b>")) == "<b>"


@settings(max_examples=25, deadline=None)
@given(NASTY)
def test_a_name_with_html_in_it_is_shown_as_text_on_every_fragment(name: str) -> None:
    room = Room(id="r", game="schafkopf", players=4, options={}, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"{name}{i}", token_hash=str(i)) for i in range(4)]
    room.match = new_match("schafkopf", 4, {"dealer": 0}, seed=1)
    html = "".join(render_fragments(room, 0, is_host=True).values())
    assert str(escape(f"{name}0")) in html
    if "<" in name:
        assert f"{name}0" not in html
