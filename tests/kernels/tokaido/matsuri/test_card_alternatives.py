"""Matsuri card rule alternatives (docs/rules-choices.md M4, M18) as parameters.

M4: who chooses the festival card when the 2-player Neutral arrived first
(``matsuri.choices.first_arrival_skips_neutral``); M18: the order of Hanabi's two cards
(``matsuri.choices.hanabi_order``). Each is tested in the kernels (hand-built positions,
``tests/helpers/matsuri_positions.py``, jit and no-jit) and in the referee (hand-built referee states,
``tests/helpers/referee_matsuri.py``), with the default and with the alternative.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from kernels.tokaido.bots.policy import choose_hanabi_order_nb
from kernels.tokaido.core.enums import PF, Bot, Deck, DieSrc, Ev, G, Opt
from kernels.tokaido.game.matsuri_choices import neutral_moved_nb
from sim.games.tokaido.referee.state import Illegal
from tests.helpers.matsuri_positions import INN1 as M_INN1
from tests.helpers.matsuri_positions import matsuri_at, matsuri_ids, mt_config, mt_position
from tests.helpers.positions import BOTH, make_rules, xmove
from tests.helpers.referee_matsuri import at_inn, card, drive, mref, r6, stack

# ------------------------------------------------------------------ M4: the Neutral's mover chooses
NEUTRAL_MOVER = (("matsuri.choices.first_arrival_skips_neutral", "false"),)
HANABI_CHOOSER = (("matsuri.choices.hanabi_order", "chooser"),)


def mt_inn(overrides: tuple[tuple[str, str], ...], n: int, stack: list[str], mode: str, **kw: Any) -> Any:
    """Everyone at the first intermediate Inn of a Crossroads + Matsuri game
    (tests/helpers/matsuri_positions.py)."""
    r = make_rules(mt_config(n, overrides=overrides))
    nt = n + 1 if n == 2 else n
    names = ["chuubei", "sasayakko", "kinko", "satsuki"][:n]
    return r, mt_position(r, stack=stack, positions=[M_INN1] * nt, travelers=names, mode=mode, **kw)


@BOTH
@pytest.mark.parametrize("skips", [True, False])
def test_neutral_first_its_mover_chooses(mode: str, skips: bool) -> None:
    """M4: the Neutral arrived first at the Inn. Default: "the first *player* to arrive" (p0) draws and
    keeps; ``first_arrival_skips_neutral = false``: the player who moved the Neutral there (p1, by analogy
    with the Neutral's meal, 002:L350). The mover is recorded by the move itself (``move_nb``)."""
    r, pos = mt_inn(() if skips else NEUTRAL_MOVER, 2, ["setsubun", "oshogatsu"], mode, arrival=[2, 3, 1])
    pos.k(neutral_moved_nb)(pos.pub, pos.ru, 1)
    assert pos.gs[G.M_NEUTRAL_MOVER] == (0 if skips else 2)
    matsuri_at(pos, M_INN1)
    (m,) = pos.events(Ev.MATSURI)
    assert m[1] == (0 if skips else 1)
    assert {e[1] for e in pos.events(Ev.DRAW)} == {m[1]}


@BOTH
def test_a_move_of_the_neutral_records_its_mover(mode: str) -> None:
    """M4's alternative needs who moved the Neutral: ``move_nb`` records its controller (the lead player)."""
    r, pos = mt_inn(NEUTRAL_MOVER, 2, [], mode, arrival=[1, 2, 3])
    for t, s in ((0, 20), (1, 18), (2, 3)):
        pos.ps[t, PF.POS] = s
    xmove(pos, 2, 5)
    assert pos.gs[G.M_NEUTRAL_MOVER] == 1  # p0 leads on 20


@pytest.mark.parametrize("skips", [True, False])
def test_referee_neutral_first_its_mover_chooses(skips: bool) -> None:
    """The referee: the same Inn (Neutral first, moved there by p1): p0 draws by default, p1 with the
    alternative; the other player's draw is illegal."""
    ref = mref(2, "satsuki,chuubei", () if skips else NEUTRAL_MOVER)
    ref.state.m.stack.cards = deque(range(20))
    ref.state.travelers[2].moved_by = 1
    inn = at_inn(ref, [2, 0, 1])
    who, other = (0, 1) if skips else (1, 0)
    with pytest.raises(Illegal, match=f"traveler {who}"):
        drive(ref, ref.matsuri.inn_matsuri(inn), [r6(Ev.DRAW, other, 9, 0)])


# ------------------------------------------------------------------ M18: Hanabi in the chooser's order
@BOTH
@pytest.mark.parametrize("chooser", [False, True])
def test_hanabi_cards_in_the_choosers_order(mode: str, chooser: bool) -> None:
    """M18: Hanabi's two cards resolve in draw order by default; with ``hanabi_order = "chooser"`` the
    chooser decides (``OPTION(t, hanabi order, 1)`` swaps). The bots resolve a card that gives coins
    (o-Shogatsu) before one that spends or counts them: here Setsubun was drawn first."""
    r, pos = mt_inn(HANABI_CHOOSER if chooser else (), 4, ["hanabi", "hanabi", "setsubun", "oshogatsu"], mode)
    hanabi, sets, osho = matsuri_ids(r, "hanabi", "setsubun", "oshogatsu")
    pos.hid["deck"][Deck.MATSURI, 1] = hanabi
    pos.hid["deck"][Deck.MATSURI, 2:4] = [sets, osho]
    matsuri_at(pos, M_INN1)
    order = [e[2] for e in pos.events(Ev.MATSURI)[1:]]
    opts = [e for e in pos.events(Ev.OPTION) if e[2] == Opt.HANABI_ORDER]
    if chooser:
        assert opts == [(Ev.OPTION, 0, Opt.HANABI_ORDER, 1, -1, -1)] and order == [osho, sets]
        assert [e[4] for e in pos.events(Ev.DIE)][:1] == [DieSrc.SHOGATSU]
    else:
        assert opts == [] and order == [sets, osho]
    assert pos.gs[G.M_HANABI0] == order[0] + 1 and pos.gs[G.M_HANABI0 + 1] == order[1] + 1


# the pure-Python kernel, also when NUMBA_DISABLE_JIT=1 leaves no dispatcher
_order_py = getattr(choose_hanabi_order_nb, "py_func", choose_hanabi_order_nb)


@pytest.mark.parametrize(
    ("first", "second", "swap"),
    [
        ("setsubun", "oshogatsu", 1),
        ("oshogatsu", "obon", 0),
        ("shishimai", "obon", 1),
        ("tanabata", "hina", 1),
        ("hina", "tanabata", 0),
        ("kamiarisai", "choyo", 0),
    ],
)
def test_hanabi_order_bot_gives_before_it_counts(first: str, second: str, swap: int) -> None:
    """M18 (bots): coins before donations, donations before Shishimai's ranking, tokens before Tanabata's
    achievements; two independent cards keep the draw order. The random tier flips a coin."""
    r, pos = mt_inn(HANABI_CHOOSER, 4, [], "py")
    a, b = matsuri_ids(r, first, second)
    assert _order_py(pos.pub, pos.ru, 0, a, b) == swap
    pos.ps[0, PF.BOT] = Bot.RANDOM
    assert {_order_py(pos.pub, pos.ru, 0, a, b) for _ in range(40)} == {0, 1}


@pytest.mark.parametrize("chooser", [False, True])
def test_referee_hanabi_cards_in_the_choosers_order(chooser: bool) -> None:
    """The referee: with ``hanabi_order = "chooser"`` an OPTION(hanabi order) follows Hanabi's two draws
    and the cards come into play in that order; in draw order (the default) no OPTION is expected."""
    ref = mref(3, "satsuki,chuubei,hiroshige", HANABI_CHOOSER if chooser else ())
    st = ref.state
    stack(ref, "hanabi", "obon", "choyo", "ohanami")
    h, o, c, k = (card(ref, x) for x in ("hanabi", "obon", "choyo", "ohanami"))
    head = [
        r6(Ev.DRAW, 0, 9, h),
        r6(Ev.DRAW, 0, 9, o),
        r6(Ev.MATSURI, 0, h, o, 1, 0),
        r6(Ev.DRAW, 0, 9, c),
        r6(Ev.DRAW, 0, 9, k),
    ]
    swapped = [
        r6(Ev.OPTION, 0, Opt.HANABI_ORDER, 1),
        r6(Ev.MATSURI, 0, k, -1, 1, 1),
        r6(Ev.MATSURI, 0, c, -1, 1, 1),
    ]
    inn = at_inn(ref, [0, 1, 2])
    if not chooser:
        with pytest.raises(Illegal):
            drive(ref, ref.matsuri.inn_matsuri(inn), head + swapped)
        return
    drive(ref, ref.matsuri.inn_matsuri(inn), head + swapped)
    assert st.m.hanabi == [k, c]
