"""The solo Automa (seed 003:L85-93; her logic: sim/games/duo/data/automa.toml, a labelled reconstruction).

Shipped board (sim/games/duo/data/board.toml): ring 0 C1, 1 T, 2 G, 3 S, 4 T, 5 C2, 6 G, 7 H, 8 T, 9 C3 ...
29 H, 30 G, 31 S, 32 C8; M1 routes to M2, C1, C8; Z1 borders Z2, Z7, Z8; Z7's border is ring 28-32 and
towns C7, C8, M1, M2. The Automa is player 1.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.duo.automa import automa_die_nb
from kernels.duo.enums import PF, A, Bot, Char, Ev, G, Trig
from kernels.duo.game import end_pick_nb, score_nb
from kernels.duo.moves import paint_count_nb
from sim.games.duo.board import BoardError
from sim.games.duo.engine import play_duo_games
from sim.games.duo.rules import DuoRules, load_duo_rules
from tests.helpers.duo_conformance import assert_agrees
from tests.helpers.duo_positions import duo_position

AUTOMA = ("greedy", "automa")


def solo(*sets: str) -> DuoRules:
    return load_duo_rules(solo=True, sets=list(sets))


def test_her_score_is_the_sum_of_her_three_ranks_and_a_tie_goes_to_the_human() -> None:
    """003:L87: "Automa's final score is the sum of her 3 Ranks. Automa has no money, so any tie goes to the
    human player." (Ranks: automa.toml [ranks].)"""
    pos = duo_position(
        rules=solo(), bots=AUTOMA, ar_p=[0, 3], ar_m=[0, 2], ar_a=[0, 4], temple=[2, 0], garden=[5, 0]
    )
    score_nb(pos.pub, pos.ru)
    ps = pos.ps
    assert (ps[1, PF.PTS_P], ps[1, PF.PTS_M], ps[1, PF.PTS_A], ps[1, PF.SCORE]) == (3, 2, 5, 10)
    assert ps[0, PF.SCORE] == 10 and ps[0, PF.COINS] == 0  # 2 x 5 = 10: a tie, no coins to break it
    assert ps[0, PF.RANK] == 1 and ps[1, PF.RANK] == 2
    ps[1, PF.AR_M] = 3  # one Rank more: she wins
    score_nb(pos.pub, pos.ru)
    assert ps[1, PF.SCORE] == 11 and (ps[0, PF.RANK], ps[1, PF.RANK]) == (2, 1)


def test_a_full_rank_track_ends_the_game_at_the_end_of_the_round() -> None:
    """003:L87: "The game and the Rank tracks end the same way as a 2-player game": her track's last slot is a
    trigger, and the round is finished (003:L74)."""
    pos = duo_position(rules=solo(), bots=AUTOMA, pilgrims=[20, 0], merchants=["M1", "M2"], ar_p=[0, 8])
    pos.gs[G.STEP] = 0
    pos.pick(1, Char.PILGRIM, (1, 1, 1))  # 0 -> 1, a temple: one Rank step, to the last slot (9)
    assert pos.events(Ev.RANK) == [(Ev.RANK, 1, Char.PILGRIM, 9, 1, -1)]
    assert pos.ps[1, PF.AR_P] == 9 and pos.gs[G.TRIG] == Trig.RANK
    end_pick_nb(pos.pub, pos.ru)
    end_pick_nb(pos.pub, pos.ru)
    assert pos.gs[G.OVER] == 0
    end_pick_nb(pos.pub, pos.ru)
    assert pos.gs[G.OVER] == 1


@pytest.mark.parametrize(
    ("rule", "ranks", "used", "want"),
    [
        ("behind", (2, 0, 0), 0, Char.MERCHANT),  # merchant and artist both behind: the higher die (3)
        ("behind", (2, 1, 0), 0, Char.ARTIST),  # the artist is furthest behind
        ("highest", (0, 5, 5), 0, Char.MERCHANT),
        ("lowest", (0, 0, 0), 0, Char.PILGRIM),
        ("order", (0, 0, 0), 0, Char.ARTIST),  # order: artist, pilgrim, merchant
        ("order", (0, 0, 0), 1 << Char.ARTIST, Char.PILGRIM),
    ],
)
def test_her_die_choice_is_automatic_by_her_rule(
    rule: str, ranks: tuple[int, int, int], used: int, want: int
) -> None:
    """003:L87: "her die choice and movement are fully automatic"; the rule is automa.toml's [die]."""
    pos = duo_position(
        rules=solo(f"automa.die.choice={rule}"),
        bots=AUTOMA,
        ar_p=[0, ranks[0]],
        ar_m=[0, ranks[1]],
        ar_a=[0, ranks[2]],
    )
    pos.gs[G.DIE0 : G.DIE0 + 3] = (1, 3, 2)
    pos.gs[G.USED] = used
    assert automa_die_nb(pos.pub, pos.ru, 1) == want


@pytest.mark.parametrize(
    ("rule", "blocked", "want"),
    [("block", False, "C8"), ("coast", False, "C1"), ("mountain", False, "M2"), ("coast", True, "C8")],
)
def test_her_merchant_goes_where_her_rule_says(rule: str, blocked: bool, want: str) -> None:
    """From M1 a die of 1 reaches M2, C1 and C8; block: the boutique that buys the human's wares (C8 buys
    ware 1, the human holds two); a coastal town held by a meeple is never entered (003:L44)."""
    pos = duo_position(
        rules=solo(f"automa.merchant.target={rule}"),
        bots=AUTOMA,
        pilgrims=[0 if blocked else 20, 10],
        merchants=["M4", "M1"],
        wares=[{1: 2}, {}],
        boutiques={"C1": (0, 2), "C8": (1, 2)},
    )
    pos.pick(1, Char.MERCHANT, (1, 1, 1))
    town = pos.events(Ev.MMOVE)[-1][2]
    assert ("C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "M1", "M2", "M3", "M4")[town] == want
    steps = [e[4] for e in pos.events(Ev.RANK)]
    assert steps == ([] if want.startswith("M") else [1])  # ranks: a coastal town 1, a mountain town 0


@pytest.mark.parametrize(
    ("rule", "meeples", "want", "step"),
    [("busiest", 2, "Z7", False), ("busiest", 1, "Z7", True), ("first", 1, "Z2", False)],
)
def test_her_artist_goes_where_her_rule_says(rule: str, meeples: int, want: str, step: bool) -> None:
    """From Z1 a die of 1 reaches Z2, Z7 and Z8; the human's pilgrim on ring 30 is in Z7: the busiest zone.
    Her artist's Rank moves if at least `meeples` other meeples are there."""
    pos = duo_position(
        rules=solo(f"automa.artist.target={rule}", f"automa.artist.meeples={meeples}"),
        bots=AUTOMA,
        pilgrims=[30, 10],
        merchants=["M4", "M4"],
        artists=["Z5", "Z1"],
    )
    pos.pick(1, Char.ARTIST, (1, 1, 1))
    assert pos.ps[1, PF.ART] == pos.zone(want)
    assert bool(pos.events(Ev.RANK)) == step
    assert not pos.events(Ev.PAINT) and not pos.events(Ev.GIFT)  # she has no artist board


def test_she_takes_the_token_from_the_human_at_once_and_never_spends_it() -> None:
    """003:L34: the opponent landing on the Hot Spring "take[s] it from you immediately" - the Automa too; she
    has no use for it (her moves are automatic), so she never spends it."""
    pos = duo_position(rules=solo(), bots=AUTOMA, pilgrims=[20, 6], merchants=["M1", "M2"], hs=[1, 0])
    pos.gs[G.HS_BOARD] = 0
    pos.pick(1, Char.PILGRIM, (1, 1, 1))
    assert (
        pos.ps[1, PF.HS] == 1 and pos.ps[0, PF.HS] == 0 and not pos.events(Ev.RANK)
    )  # a Hot Spring: 0 steps
    pos.pick(1, Char.PILGRIM, (1, 1, 1))
    assert pos.ps[1, PF.HS] == 1 and not pos.events(Ev.SPRING)


def test_her_meeples_count_for_the_humans_paintings() -> None:
    """003:L60: paint "equal to the number of other meeples (any player's)": hers are meeples on the board."""
    pos = duo_position(
        rules=solo(), bots=AUTOMA, pilgrims=[20, 30], merchants=["M4", "C8"], artists=["Z3", "Z7"]
    )
    assert paint_count_nb(pos.pub, pos.ru, 0, pos.zone("Z7")) == 3  # her pilgrim, merchant and artist


def test_over_many_games_she_has_no_money_boards_or_wave_tiles() -> None:
    """003:L87: Rank tracks "instead of a normal board", no money; the games end on her tracks or the
    human's."""
    rec = play_duo_games(solo(), 8, 0, 400, AUTOMA).records
    her = rec[rec["player"] == 1]
    assert (her["bot"] == Bot.AUTOMA).all() and (rec[rec["player"] == 0]["bot"] == Bot.GREEDY).all()
    for f in (
        "coins",
        "slabs",
        "temple",
        "garden",
        "revealed",
        "gifted",
        "hs_used",
        "waves_taken",
        "waves_held",
    ):
        assert (her[f] == 0).all(), f
    trig = her["end_triggers"]
    assert (trig & Trig.RANK).any() and (trig & Trig.GIFT).any() and not (trig & Trig.ROUNDS).any()
    assert (her["score"] == her["pts_pilgrim"] + her["pts_merchant"] + her["pts_artist"]).all()


def test_the_automa_is_data_overridable_and_named() -> None:
    r = solo("automa.die.choice=highest")
    assert (
        r.solo
        and not r.verified
        and "solo Automa automa-reconstruction-v0 (verified=false)" in r.provenance()
    )
    assert "overrides automa.die.choice=highest" in r.provenance() and r.manifest()["solo"] is True
    assert r.tables()["auto"][A.DIE] == 1 and r.fingerprint() != solo().fingerprint()
    assert load_duo_rules().fingerprint() == load_duo_rules().fingerprint() and not load_duo_rules().solo
    for sets, hint in (
        (["automa.die.choice=smart"], "die.choice = 'smart'"),
        (["automa.verified=true"], "cannot change it"),
        (["automa.ranks.pilgrim=3,2,1"], "never decrease"),
    ):
        with pytest.raises(BoardError, match=hint):
            solo(*sets)
    with pytest.raises(BoardError, match="only a solo game has an Automa"):
        load_duo_rules(sets=["automa.die.choice=highest"])
    with pytest.raises(BoardError, match="seat 1 of a solo game"):
        load_duo_rules().record(("greedy", "automa"))
    with pytest.raises(BoardError, match="seat 1 of a solo game"):
        solo().record(("greedy", "greedy"))


def test_no_duo_bot_reads_the_face_down_paintings() -> None:
    """Hidden information stays hidden for every Duo tier and the Automa. No decision function receives
    ``hid``
    (the Automa's move gets it only to write the log), and the die each tier picks is the same whatever the
    face-down painting tiles hold (both players' unseen slots reshuffled)."""
    import inspect

    from kernels.duo import automa, bots, play, search
    from kernels.duo.game import begin_pick_nb, end_pick_nb, pick_nb
    from kernels.duo.play import decide_die_nb

    for mod in (bots, search, automa):
        for name, obj in vars(mod).items():
            func = getattr(obj, "py_func", None)
            if func is None or func.__module__ != mod.__name__:
                continue
            src = inspect.getsource(func)
            assert "hid" not in inspect.signature(func).parameters or (
                'hid["' not in src and "hid['" not in src
            ), f"{mod.__name__}.{name} reads hid"
    assert list(inspect.signature(play.decide_die_nb.py_func).parameters) == ["pub", "ru", "p"]
    rng = np.random.default_rng(3)
    for rules, tiers in (
        (load_duo_rules(), ("search", "greedy")),
        (load_duo_rules(), ("random", "search")),
        (solo(), ("search", "automa")),
        (solo(), ("greedy", "automa")),
    ):
        pos = duo_position(rules=rules, bots=tiers)
        for _ in range(12):  # a few rounds in, some tiles revealed
            p = begin_pick_nb(pos.pub, pos.hid, pos.ru)
            pick_nb(pos.pub, pos.hid, pos.ru, p, decide_die_nb(pos.pub, pos.ru, p))
            end_pick_nb(pos.pub, pos.ru)
        p = begin_pick_nb(pos.pub, pos.hid, pos.ru)
        want = decide_die_nb(pos.pub_arr.copy()[0], pos.ru, p)
        for _ in range(5):
            pub, hid = pos.pub_arr.copy(), pos.hid_arr.copy()
            unseen = [(q, s) for q in range(2) for s in range(pub[0]["ps"][q, PF.REVEALED], 10)]
            icons = rng.permutation([hid[0]["tiles"][q, s] for q, s in unseen])
            for (q, s), icon in zip(unseen, icons, strict=True):
                hid[0]["tiles"][q, s] = icon
            assert decide_die_nb(pub[0], pos.ru, p) == want, tiers


SOLO_CASES = [
    (("greedy", "automa"), []),
    (
        ("random", "automa"),
        [
            "automa.die.choice=highest",
            "automa.merchant.target=coast",
            "automa.artist.target=first",
            "automa.artist.meeples=0",
        ],
    ),
    (
        ("greedy", "automa"),
        [
            "automa.die.choice=lowest",
            "automa.merchant.target=mountain",
            "automa.pilgrim.town=2",
            "choices.hot_spring_retake=false",
        ],
    ),
    (
        ("random", "automa"),
        ["automa.die.choice=order", "automa.die.order=merchant,artist,pilgrim", "choices.merchant_path=walk"],
    ),
]


@pytest.mark.parametrize(("bots", "sets"), SOLO_CASES)
def test_the_referee_agrees_on_solo_games(bots: tuple[str, str], sets: list[str]) -> None:
    """Kernel-referee conformance for the solo game, every rule of the Automa's data away from its default."""
    assert_agrees(solo(*sets), bots, 2025, 500)


def test_the_referee_agrees_with_the_search_tier_against_her() -> None:
    assert_agrees(solo(), ("search", "automa"), 6, 30)


@pytest.mark.slow
@pytest.mark.parametrize(("bots", "sets"), SOLO_CASES)
def test_the_referee_agrees_on_solo_games_big(bots: tuple[str, str], sets: list[str]) -> None:
    assert_agrees(solo(*sets), bots, 78, 4000)


@pytest.mark.parametrize(
    "mutation",
    [
        "automa.die.choice=highest",
        "automa.merchant.target=coast",
        "automa.artist.target=first",
        "automa.artist.meeples=1",
        "automa.pilgrim.town=1",
        "automa.merchant.mountain=1",
        "automa.ranks.artist=0,1,2,3,5,7,9,11,13,16",
    ],
)
def test_the_referee_catches_an_automa_that_breaks_her_rules(mutation: str) -> None:
    """A referee that cannot fail is no check: games of the shipped Automa refereed under a mutated rule
    fail."""
    from sim.games.duo.referee.game import referee_game, rows_from_records

    batch = play_duo_games(solo(), 3, 0, 60, AUTOMA, log=True)
    other = solo(mutation)
    bad = sum(
        not referee_game(other, batch.game_events(i), rows_from_records(batch.game_records(i))).ok
        for i in range(60)
    )
    assert bad > 0, mutation
