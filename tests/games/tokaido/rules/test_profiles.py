"""Rules profiles (``--rules rulebook|online``): named TOML patches of sim/games/tokaido/data/profiles/."""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import P
from sim.errors import UserError
from sim.games.tokaido.cli.options import make_config


def test_rulebook_profile_is_the_data_and_online_changes_each_parameter() -> None:
    """The default profile adds no override; ``online`` sets Satsuki's meal from the pile and Amulets
    usable where bought, each also settable alone with ``--set``; the manifest records the profile."""
    book = make_config(4, "draft", "greedy", "", "crossroads", None)
    assert book.overrides == () and book.to_dict()["rules_profile"] == "rulebook"
    online = make_config(4, "draft", "greedy", "", "crossroads", None, "online")
    params = online.rules().params
    assert params["SATSUKI_PILE"] == 1 and params["AMULET_SAME_STOP"] == 1 and params["SCRIPT_LEGENDARY"] == 1
    assert params["CHERRY_AT_COMPLETE"] == 1
    assert book.rules().params["SCRIPT_LEGENDARY"] == book.rules().params["CHERRY_AT_COMPLETE"] == 0
    assert online.rules().crossroads_cards[4] == 6 and online.to_dict()["rules_profile"] == "online"
    alone = make_config(4, "draft", "greedy", "", "crossroads", ["abilities.satsuki_free_meal=pile"])
    assert alone.rules().params["SATSUKI_PILE"] == 1 and alone.rules().params["AMULET_SAME_STOP"] == 0
    later = make_config(
        4, "draft", "greedy", "", "crossroads", ["crossroads.amulets.usable_where_bought=false"], "online"
    )
    assert later.rules().params["AMULET_SAME_STOP"] == 0  # the user's --set comes after the profile
    assert P.SATSUKI_PILE != P.AMULET_SAME_STOP


def test_unknown_profile_is_one_clear_error() -> None:
    with pytest.raises(
        UserError,
        match="unknown rules profile 'bogus'; use --rules rulebook or --rules online or --rules online-2020",
    ):
        make_config(4, "draft", "greedy", "", "", None, "bogus")
