"""The ``online`` rules profile's own parameters (sim/games/tokaido/data/profiles/online.toml): each one
alone, in the kernels (hand-made positions, ``tests/helpers/positions.py``) and in the referee (hand-built
logs, ``tests/games/tokaido/referee/test_crossroads.py``). The rulebook default of each is checked next to
it."""

from __future__ import annotations

import pytest

from kernels.tokaido.core.board import legal_moves_nb
from kernels.tokaido.core.enums import PF, Deck, Ev, Space
from kernels.tokaido.game.crossroads import alternative_nb
from sim.games.tokaido.referee.game import Referee
from tests.helpers.positions import BOTH, kern, legendary_ids, make_rules, xr_config, xr_position
from tests.helpers.referee_logs import (
    BUPPATSU,
    MASAMUNE,
    MURASAME,
    PADDY4,
    SHODO,
    TEMPLE2,
    VILLAGE1,
    VILLAGE8,
    assert_illegal,
    ev,
    ok,
    stop,
    xcfg,
    xr_setup,
)

SCRIPT_LEGENDARY = "crossroads.legendary.script_counts_legendary"
CHERRY_AT_COMPLETE = "crossroads.cherry_tree.at_completed_panorama"


@BOTH
@pytest.mark.parametrize("online", [False, True])
def test_script_point_for_a_later_legendary_object_only_online(mode: str, online: bool) -> None:
    """Seed 002 "Shodo and Emaki": "1 additional point for each Souvenir acquired thereafter", so a
    Legendary Object bought after a Script adds nothing to it (C29); online (BGA) it adds 1 per Script
    held (``crossroads.legendary.script_counts_legendary``). Shodo with nothing held scores 0; then a
    Sword scores 8, +1 online; then Emaki scores 2 (Shodo, the Sword) and, online, Shodo +1 for it."""
    rs = make_rules(xr_config(3, overrides=((SCRIPT_LEGENDARY, str(online).lower()),)))
    pos = xr_position(rs, markets={"legendary": ["shodo"]}, coins=[10, 5, 5], mode=mode)
    alt = kern(alternative_nb, mode)
    alt(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    assert pos.ps[0, PF.PTS_LEGENDARY] == 0 and pos.ps[0, PF.SCRIPTS] == 1
    pos.pub["mkt"][0, legendary_ids(rs, "murasame")[0]] = 1
    alt(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    assert pos.ps[0, PF.PTS_LEGENDARY] == 8 + online and pos.ps[0, PF.LEGENDARY] == 2
    pos.pub["mkt"][0, legendary_ids(rs, "emaki")[0]] = 1
    alt(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    assert pos.ps[0, PF.PTS_LEGENDARY] == 8 + 2 + 2 * online and pos.ps[0, PF.SCRIPTS] == 2
    assert pos.ps[0, PF.SCORE] == pos.ps[0, PF.PTS_LEGENDARY] and pos.ps[0, PF.COINS] == 10 - 1 - 3 - 1


@pytest.mark.parametrize("online", [False, True])
def test_referee_script_point_for_a_later_legendary_object_only_online(online: bool) -> None:
    """The referee reads the same parameter: Shodo at the first Village (0 points), a Sword at the
    second scores 8, and 9 online (C29)."""
    config, rules = xcfg(3, variants=("initiation",), overrides=((SCRIPT_LEGENDARY, str(online).lower()),))
    rows = xr_setup(config, rules, markets={Deck.LEGENDARY: [SHODO, BUPPATSU, MURASAME, MASAMUNE]})
    rows += stop(0, VILLAGE1, 1) + [ev(Ev.GAIN, 0, Deck.LEGENDARY, SHODO, 1)]
    rows += stop(1, TEMPLE2) + [ev(Ev.DONATE, 1, 1, 0)]
    rows += stop(2, PADDY4) + [ev(Ev.PANORAMA, 2, 0, 0)]
    rows += stop(0, VILLAGE8, 1) + [ev(Ev.GAIN, 0, Deck.LEGENDARY, MURASAME, 3)]
    p0 = ok(config, rules, rows).state.travelers[0]
    assert (p0.points["pts_legendary"], p0.scripts, p0.coins) == (8 + online, 1, 7 - 1 - 3)


@BOTH
def test_cherry_tree_at_a_completed_panorama_only_online(mode: str) -> None:
    """C26: "a traveler who completes a panorama can no longer stop on the spaces corresponding to
    that type", also for a Cherry Tree (rulebook); online (BGA) the space is a stop for a Cherry Tree
    while one is left (``crossroads.cherry_tree.at_completed_panorama``), and the stop can only be
    the Cherry Tree: 2 points and a coin, the panorama unchanged."""
    for online in (False, True):
        rs = make_rules(xr_config(3, overrides=((CHERRY_AT_COMPLETE, str(online).lower()),)))
        pos = xr_position(rs, positions=[0, 40, 40], coins=[5, 5, 5], panoramas={0: [3, 0, 0]}, mode=mode)
        legal = kern(legal_moves_nb, mode)
        n = legal(pos.pub, pos.ru, 0)
        assert (PADDY4 in [int(s) for s in pos.pub["cand"][:n]]) == online
        if online:
            pos.stop(0, PADDY4)
            assert pos.events(Ev.CHOICE) == [(Ev.CHOICE, 0, Space.PADDY, 1, -1, -1)]
            assert pos.ps[0, PF.CHERRY] == 1 and pos.ps[0, PF.PAN0] == 3 and pos.ps[0, PF.COINS] == 6
            pos.ps[0, PF.POS] = 0
            pos.pub["xcnt"][0] = 0  # no Cherry Tree left: closed again
            n = legal(pos.pub, pos.ru, 0)
            assert PADDY4 not in [int(s) for s in pos.pub["cand"][:n]]


@pytest.mark.parametrize("online", [False, True])
def test_referee_cherry_tree_at_a_completed_panorama_only_online(online: bool) -> None:
    """The referee: with the paddy complete, a move to a paddy space is legal only online (and while a
    Cherry Tree is left), and there only the Cherry Tree (option 1) may be chosen (C26)."""
    config, rules = xcfg(3, variants=("initiation",), overrides=((CHERRY_AT_COMPLETE, str(online).lower()),))
    setup = xr_setup(config, rules)

    def referee(rows: list) -> Referee:
        ref = Referee(config, rules)
        ref.feed_all(setup)
        ref.state.travelers[0].panorama[0] = 3  # the paddy panorama complete
        ref.feed_all(rows)
        return ref

    cherry = [*stop(0, PADDY4, 1), ev(Ev.GAIN, 0, Deck.CHERRY, -1, 0)]
    ref = referee(cherry)
    if not online:
        assert_illegal(ref, len(setup), "MOVE", "completed the paddy panorama")
        return
    assert ref.errors == [] and ref.state.travelers[0].cherry_trees == 1
    assert_illegal(referee(stop(0, PADDY4, 0)), len(setup) + 1, "CHOICE", "completed the paddy panorama")
    ref = Referee(config, rules)
    ref.feed_all(setup)
    ref.state.travelers[0].panorama[0] = 3
    ref.state.cherry_left = 0  # none left: closed again
    ref.feed_all(stop(0, PADDY4, 1))
    assert_illegal(ref, len(setup), "MOVE", "completed the paddy panorama")
