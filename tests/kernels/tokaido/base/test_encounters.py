"""Rules of the Encounter cards, base game and the New Encounters promo.

Each test puts the chosen card on top of the Encounter pile and stops traveler 0
on the Encounter space 3 (``tests/helpers/positions.py``). Docstrings quote the rulebook
(seed 000; New Encounters: seed 001 last section, seed 004) or name the rule choice.
"""

from __future__ import annotations

from collections import Counter

import pytest

from kernels.tokaido.bots.policy import choose_panorama_nb
from kernels.tokaido.core.enums import PF, Bot, Deck, Enc, Ev, Opt, PanSrc
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import (
    BOTH,
    encounter_ids,
    hot_spring_ids,
    make_position,
    make_rules,
    meal_ids,
    souvenir_ids,
)

BASE = GameConfig(n_players=3, travelers="random")
PROMO = GameConfig(n_players=3, travelers="random", expansions=("new-encounters",))
ENC_SPACE = 3


def encounter(card, config=BASE, mode="jit", coins=5, **kw):
    """Traveler 0 (no Traveler tile) stops on an Encounter with ``card`` on top of the pile."""
    rs = make_rules(config)
    top = {Deck.ENCOUNTER: encounter_ids(rs, card), **kw.pop("top", {})}
    pos = make_position(rs, positions=[0, 14, 14], coins=[coins, 5, 5], top=top, mode=mode, **kw)
    pos.stop(0, ENC_SPACE)
    return pos


def test_encounter_decks() -> None:
    """Rulebook "Equipment": 14 Encounter cards; game-data.md 5 (Shokunin, Kuge, Miko, Samurai 2
    each, Annaibito 6); C1: Annaibito 1 paddy, 2 mountain, 3 sea, overridable
    (``--set encounters.annaibito=2,2,2``); the New Encounters promo adds Itamae, Kitoushi, Saru
    and Takuhatsuso (seed 001 "Nowe Spotkania": "4 dodatkowe karty")."""
    r = make_rules(BASE).rules
    assert Counter(e.name for e in r.encounters) == {
        "shokunin": 2,
        "kuge": 2,
        "miko": 2,
        "samurai": 2,
        "annaibito": 6,
    }
    assert Counter(e.panorama for e in r.encounters if e.kind == Enc.ANNAIBITO) == {0: 1, 1: 2, 2: 3}
    alt = GameConfig(n_players=3, travelers="random", overrides=(("encounters.annaibito", "2,2,2"),))
    assert Counter(e.panorama for e in alt.rules().encounters if e.kind == Enc.ANNAIBITO) == {
        0: 2,
        1: 2,
        2: 2,
    }
    promo = make_rules(PROMO).rules
    assert len(promo.encounters) == 18
    assert Counter(e.name for e in promo.encounters[14:]) == {
        "itamae": 1,
        "kitoushi": 1,
        "saru": 1,
        "takuhatsuso": 1,
    }


@BOTH
def test_encounter_card_is_kept_for_chatterbox(mode: str) -> None:
    """Rulebook "Encounters": "reveals the top card ... After carrying out an effect, the player
    adds the card to their collection"."""
    pos = encounter("samurai", mode=mode)
    (card,) = encounter_ids(pos.rs, "samurai")
    assert pos.events(Ev.DRAW) == [(Ev.DRAW, 0, Deck.ENCOUNTER, card, -1, -1)]
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.ENCOUNTER, card, 0, -1)]
    assert pos.ps[0, PF.ENCOUNTERS] == 1 and pos.pub["dcnt"][Deck.ENCOUNTER] == 13
    assert card not in pos.pile(Deck.ENCOUNTER)


@BOTH
def test_shokunin_draws_and_scores_the_top_souvenir(mode: str) -> None:
    """Rulebook "Shokunin": "draws the top Souvenir card ... It scores 1, 3, 5, or 7 points
    depending on which Souvenirs they already own" (a first art card next to a small object: 3)."""
    rs = make_rules(BASE)
    (netsuke,) = souvenir_ids(rs, "netsuke")
    pos = encounter("shokunin", mode=mode, families={0: [1, 0, 0, 0]}, top={Deck.SOUVENIR: [netsuke]})
    assert pos.events(Ev.GAIN)[-1] == (Ev.GAIN, 0, Deck.SOUVENIR, netsuke, 0, -1)
    assert pos.ps[0, PF.PTS_SOUVENIRS] == 3 and pos.ps[0, PF.SOUVENIRS] == 2
    assert pos.ps[0, PF.COINS] == 5


@BOTH
def test_annaibito_takes_the_depicted_panorama(mode: str) -> None:
    """Rulebook "Annaibito": "If they have started it, they take the next number in ascending
    order ... They score points for the Panorama card as usual" (mountain card 2: 2 points). The
    depicted type is taken even where the player would choose another: with the sea at 4 of 5 the
    greedy pick is the sea's last card (5 points and the achievement), and random players too get
    the depicted mountain."""
    pos = encounter(("annaibito", 1), mode=mode, panoramas={0: [0, 1, 0]})
    assert pos.ps[0, PF.PAN1] == 2 and pos.ps[0, PF.PTS_PANORAMAS] == 2
    assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 1, PanSrc.ANNAIBITO, -1, -1)]
    assert pos.ps[0, PF.ENCOUNTERS] == 1
    rs = make_rules(BASE)
    pos = make_position(rs, positions=[0, 14, 14], panoramas={0: [0, 1, 4]})
    assert choose_panorama_nb(pos.pub, pos.ru, 0) == 2  # the player's own choice would be the sea
    for bots, seed in [(Bot.GREEDY, 0)] + [(Bot.RANDOM, s) for s in range(8)]:
        pos = encounter(("annaibito", 1), mode=mode, panoramas={0: [0, 1, 4]}, bots=bots, seed=seed)
        assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 1, PanSrc.ANNAIBITO, -1, -1)]
        assert pos.events(Ev.OPTION) == [] and pos.ps[0, PF.PAN1] == 2 and pos.ps[0, PF.PAN2] == 4


@BOTH
def test_annaibito_completed_panorama_gives_another(mode: str) -> None:
    """Rulebook "Annaibito": "If they have completed it, they **can** start or add to another panorama
    of their choice": optional (``OPTION(t, 6, b)``), never the completed one. The greedy player
    takes one; random players sometimes decline (no panorama card, the Encounter card still kept)."""
    pos = encounter(("annaibito", 0), mode=mode, panoramas={0: [3, 0, 1]})
    assert pos.events(Ev.OPTION) == [(Ev.OPTION, 0, Opt.ANNAIBITO, 1, -1, -1)]
    assert pos.ps[0, PF.PAN0] == 3
    assert pos.ps[0, PF.PAN1] + pos.ps[0, PF.PAN2] == 2
    taken = set()
    for seed in range(16):
        pos = encounter(("annaibito", 0), mode=mode, panoramas={0: [3, 0, 1]}, bots=Bot.RANDOM, seed=seed)
        ((_, _, _, b, _, _),) = pos.events(Ev.OPTION)
        taken.add(b)
        if b == 1:
            (ev,) = pos.events(Ev.PANORAMA)
            assert ev[2] in (1, 2) and ev[3] == PanSrc.ANNAIBITO and pos.ps[0, PF.PAN0] == 3
        else:
            assert pos.events(Ev.PANORAMA) == [] and pos.ps[0, PF.PANORAMAS] == 4 and pos.ps[0, PF.SCORE] == 0
        assert pos.ps[0, PF.ENCOUNTERS] == 1
    assert taken == {0, 1}


@BOTH
def test_annaibito_all_panoramas_complete_keeps_the_card_only(mode: str) -> None:
    """C2: Annaibito with all three panoramas complete: the card is kept (Chatterbox), nothing else."""
    pos = encounter(("annaibito", 2), mode=mode, panoramas={0: [3, 4, 5]}, pan_ach=0b111)
    assert pos.events(Ev.PANORAMA) == []
    assert pos.ps[0, PF.SCORE] == 0 and pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.PANORAMAS] == 12


@BOTH
def test_samurai_scores_three(mode: str) -> None:
    """Rulebook "Samurai": "The player immediately scores 3 points" (C15: encounter points)."""
    pos = encounter("samurai", mode=mode)
    assert pos.ps[0, PF.SCORE] == 3 == pos.ps[0, PF.PTS_ENCOUNTERS] and pos.ps[0, PF.COINS] == 5


@BOTH
def test_kuge_gives_three_coins(mode: str) -> None:
    """Rulebook "Kuge": "immediately takes 3 coins from the reserve"."""
    pos = encounter("kuge", mode=mode)
    assert pos.ps[0, PF.COINS] == 8 and pos.ps[0, PF.SCORE] == 0


@BOTH
def test_miko_donates_a_bank_coin_for_one_point(mode: str) -> None:
    """Rulebook "Miko": "takes 1 coin from the bank and places it as an offering in the Temple ...
    They score 1 point for this donation" (C15: an encounter point)."""
    pos = encounter("miko", mode=mode, donated=[2, 0, 0])
    assert pos.ps[0, PF.DONATED] == 3 and pos.ps[0, PF.COINS] == 5
    assert pos.ps[0, PF.PTS_ENCOUNTERS] == 1 == pos.ps[0, PF.SCORE]


# ------------------------------------------------------------------ New Encounters
@BOTH
def test_itamae_pays_a_coin_for_a_meal(mode: str) -> None:
    """New Encounters (seed 001): "Itinerant - płacąc 1 monetę otrzymujesz kartę Posiłku i 6
    punktów" (pay 1 coin: a Meal card and 6 points); it counts for Gourmet (printed cost)."""
    rs = make_rules(PROMO)
    (sushi,) = meal_ids(rs, "sushi")
    pos = encounter("itamae", PROMO, mode=mode, coins=2, top={Deck.MEAL: [sushi]})
    assert pos.events(Ev.OPTION) == [(Ev.OPTION, 0, Opt.ITAMAE, 1, -1, -1)]
    assert pos.ps[0, PF.COINS] == 1
    assert pos.ps[0, PF.PTS_MEALS] == 6 and pos.ps[0, PF.MEALS] == 1 and pos.ps[0, PF.MEAL_VALUE] == 2
    assert pos.events(Ev.GAIN)[-1] == (Ev.GAIN, 0, Deck.MEAL, sushi, 0, -1)
    assert pos.pub["dcnt"][Deck.MEAL] == 24


@BOTH
def test_itamae_dish_already_eaten_goes_under(mode: str) -> None:
    """C14: Itamae draws a dish the traveler already ate: the coin is spent, the card goes under
    the meal pile (rulebook "A Traveler cannot taste the same culinary specialty twice")."""
    rs = make_rules(PROMO)
    (sushi,) = meal_ids(rs, "sushi")
    pos = encounter("itamae", PROMO, mode=mode, coins=2, top={Deck.MEAL: [sushi]}, dishes={0: ["sushi"]})
    assert pos.ps[0, PF.COINS] == 1 and pos.ps[0, PF.SCORE] == 0 and pos.ps[0, PF.MEALS] == 1
    assert pos.events(Ev.UNDER) == [(Ev.UNDER, -1, Deck.MEAL, sushi, -1, -1)]
    assert pos.pile(Deck.MEAL)[-1] == sushi and pos.pub["dcnt"][Deck.MEAL] == 25


@BOTH
def test_kitoushi_pays_a_coin_for_a_panorama(mode: str) -> None:
    """New Encounters (seed 001): "Kitoushi - płacąc 1 monetę otrzymujesz kartę Panoramy i 1-5
    punktów" (pay 1 coin: a Panorama card of your choice)."""
    pos = encounter("kitoushi", PROMO, mode=mode, coins=2, panoramas={0: [0, 0, 2]})
    assert pos.events(Ev.OPTION) == [(Ev.OPTION, 0, Opt.KITOUSHI, 1, -1, -1)]
    assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 2, PanSrc.KITOUSHI, -1, -1)]
    assert pos.ps[0, PF.COINS] == 1 and pos.ps[0, PF.PTS_PANORAMAS] == 3


@BOTH
def test_saru_draws_a_hot_spring(mode: str) -> None:
    """New Encounters (seed 001): "Saru - otrzymujesz kartę gorącego źródła i 2-3 punkty" (a Hot
    Spring card, free)."""
    rs = make_rules(PROMO)
    (three,) = hot_spring_ids(rs, 3)
    pos = encounter("saru", PROMO, mode=mode, top={Deck.HOT_SPRING: [three]})
    assert pos.ps[0, PF.HOT_SPRINGS] == 1 and pos.ps[0, PF.PTS_HOT_SPRINGS] == 3 and pos.ps[0, PF.COINS] == 5


@BOTH
def test_takuhatsuso_pays_a_coin_for_four_points(mode: str) -> None:
    """New Encounters (seed 001): "Mendicant (Żebrak) - płacąc 1 monetę otrzymujesz 4 punkty"
    (pay 1 coin: 4 points; C15: encounter points)."""
    pos = encounter("takuhatsuso", PROMO, mode=mode, coins=1)
    assert pos.events(Ev.OPTION) == [(Ev.OPTION, 0, Opt.TAKUHATSUSO, 1, -1, -1)]
    assert pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.PTS_ENCOUNTERS] == 4


@BOTH
@pytest.mark.parametrize("card", ["itamae", "kitoushi", "takuhatsuso"])
def test_new_encounters_without_a_coin_do_nothing(mode: str, card: str) -> None:
    """C13: without a coin Itamae, Kitoushi and Takuhatsuso do nothing (no choice is offered);
    seed 002: "If a player cannot or do not want to pay for Kitoushi, Takuhatsuso or Itamae, the card
    is placed, face-down, under the Encounter cards pile": not kept, no Chatterbox count."""
    pos = encounter(card, PROMO, mode=mode, coins=0)
    (c,) = encounter_ids(pos.rs, card)
    assert pos.events(Ev.OPTION) == [] and pos.events(Ev.PANORAMA) == []
    assert pos.ps[0, PF.SCORE] == 0 and pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.ENCOUNTERS] == 0
    assert pos.events(Ev.UNDER) == [(Ev.UNDER, -1, Deck.ENCOUNTER, c, -1, -1)]
    assert pos.pile(Deck.ENCOUNTER)[-1] == c and pos.pub["dcnt"][Deck.ENCOUNTER] == 18
    assert pos.pub["dcnt"][Deck.MEAL] == 25


def test_new_encounters_payment_is_optional() -> None:
    """C13: paying the coin is optional: a random player sometimes declines (coin kept, nothing
    gained, and the card goes under the Encounter pile, seed 002) and sometimes pays (card kept)."""
    choices = set()
    for seed in range(16):
        pos = encounter("takuhatsuso", PROMO, coins=3, bots=Bot.RANDOM, seed=seed)
        (opt,) = pos.events(Ev.OPTION)
        choices.add(opt[3])
        assert (pos.ps[0, PF.COINS], pos.ps[0, PF.SCORE]) == ((2, 4) if opt[3] == 1 else (3, 0))
        assert pos.ps[0, PF.ENCOUNTERS] == opt[3] and len(pos.events(Ev.UNDER)) == 1 - opt[3]
    assert choices == {0, 1}


@BOTH
def test_kitoushi_with_every_panorama_complete(mode: str) -> None:
    """C13 with the rulebook "Panorama" (a completed panorama takes no more cards): Kitoushi with all
    three panoramas complete offers nothing to pay for; the card goes under the Encounter pile (seed
    002: "cannot ... pay"). With one panorama open the same coins buy a card (``OPTION`` logged)."""
    pos = encounter("kitoushi", PROMO, mode=mode, coins=3, panoramas={0: [3, 4, 5]}, pan_ach=0b111)
    (c,) = encounter_ids(pos.rs, "kitoushi")
    assert pos.events(Ev.OPTION) == [] and pos.events(Ev.PANORAMA) == []
    assert pos.ps[0, PF.COINS] == 3 and pos.ps[0, PF.SCORE] == 0 and pos.ps[0, PF.PANORAMAS] == 12
    assert (
        pos.events(Ev.UNDER) == [(Ev.UNDER, -1, Deck.ENCOUNTER, c, -1, -1)] and pos.ps[0, PF.ENCOUNTERS] == 0
    )
    pos = encounter("kitoushi", PROMO, mode=mode, coins=3, panoramas={0: [3, 4, 4]}, pan_ach=0b011)
    assert pos.events(Ev.OPTION) == [(Ev.OPTION, 0, Opt.KITOUSHI, 1, -1, -1)]
    assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 2, PanSrc.KITOUSHI, -1, -1)]
