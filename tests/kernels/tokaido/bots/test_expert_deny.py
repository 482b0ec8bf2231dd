"""The expert counts what a space is worth to the opponents' abilities when it takes it from them.

Its ``deny`` (the best value an opponent behind would have had on the space) and ``leave`` (the best
value the next mover finds) used the same rough value of a space for every Traveler: 3 points for an
Encounter, Umegae's too, although each of her Encounters also gives her a point and a coin (seed 001,
Umegae; ``abilities.ability_opp_nb``). With its 5-player base weights (``deny`` 0.058) nobody took an
Encounter or a panorama from her at the start and the expert gave her 0.434 of the wins, search 0.151
(docs/bots.md, "Tier agreement"). The tiers below the expert keep the old values.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.tokaido.bots.heuristic import move_values_nb
from kernels.tokaido.bots.scratch import B_CAND
from kernels.tokaido.core.enums import Bot, P
from kernels.tokaido.core.weights import HF, W
from sim.games.tokaido import engine
from sim.games.tokaido.bots import bot_weights
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning.draft import cell_seed
from tests.helpers.positions import make_position, make_rules

ENC, PADDY = 3, 4  # the first Encounter and Paddy of the road (the start Inn is space 0)
CANDS = [ENC, PADDY]
OTHERS = ["kinko", "chuubei", "satsuki"]


def values(behind: str, tier: str = "expert") -> dict[int, float]:
    """Traveler 0 on space 2, ``behind`` on space 1 (the others ahead): its values of spaces 3 and 4.
    ``leave`` is off, so what differs between two opponents behind is the ``deny`` term alone."""
    config = GameConfig(n_players=5, travelers="random")
    rs = make_rules(config)
    bot = {"expert": Bot.EXPERT, "tuned": Bot.TUNED}[tier]
    pos = make_position(
        rs,
        travelers=["hirotada", behind, *OTHERS],
        positions=[2, 1, 5, 6, 7],
        coins=[5, 5, 5, 5, 5],
        bots=bot,
    )
    w = bot_weights(tier, rs.rules, GameConfig(n_players=5, bots=(tier,))).copy()
    w[W.HF0 + HF.LEAVE] = 0.0
    w[W.HF0 + HF.DENY] = 0.5
    for t in range(5):
        pos.ru["botw"][t] = w
    pos.pub["cand"][: len(CANDS)] = CANDS
    move_values_nb(pos.pub, pos.ru, 0, w, len(CANDS), w[W.EXPERT] > 0.5)
    return dict(zip(CANDS, pos.pub["bscr"][B_CAND : B_CAND + len(CANDS)].copy(), strict=True))


def test_the_expert_counts_umegaes_encounter_bonus_in_what_it_denies_her():
    """Umegae behind: taking the Encounter ahead of her denies her its card and her point and coin
    (seed 001: "Umegae: 1 point and 1 coin at each Encounter")."""
    rs = make_rules(GameConfig(n_players=5, travelers="random"))
    bonus = rs.ru["params"][P.UMEGAE_POINTS] + rs.ru["params"][P.UMEGAE_COINS]
    ume, other = values("umegae"), values("zen-emon")
    assert ume[ENC] - other[ENC] == pytest.approx(0.5 * bonus)
    assert ume[PADDY] == pytest.approx(other[PADDY])  # her ability is no matter on a Paddy


def test_the_tiers_below_the_expert_keep_the_flat_encounter_value():
    ume, other = values("umegae", "tuned"), values("zen-emon", "tuned")
    assert ume[ENC] == pytest.approx(other[ENC])


def umegae_share(n: int, expansions: tuple[str, ...], games: int) -> float:
    """Umegae's share of the wins in expert self-play with Travelers dealt at random (the tier
    agreement's deals, seed 11)."""
    config = GameConfig(n_players=n, bots=("expert",), travelers="random", expansions=expansions)
    rules = config.rules()
    rec = engine.play_games(config, rules, cell_seed(11, n, expansions, ()), 0, games, threads=1).records
    win = (rec["rank"] == 1) / np.maximum(rec["win_k"], 1)
    return float(win[rec["traveler"] == rules.traveler_index("umegae")].mean())


def test_the_five_player_base_expert_no_longer_leaves_umegae_the_encounters():
    """Expert self-play, 5 players, base game, Travelers dealt at random (the tier agreement's deals):
    Umegae won 0.434 of 20,000 games before the fix (deny 0.058, no bonus in the opponents' values),
    0.156 after; search 0.151 +- 0.040. 2000 games: a 95% half-width of about 0.03."""
    assert umegae_share(5, (), 2000) < 0.25


def test_the_four_player_crossroads_expert_contests_umegae():
    """Expert self-play, 4 players with Crossroads, Travelers dealt at random: Umegae won 0.391 of
    40,000 games with the swept file's deny 0.2415, 0.285 with 0.6 (search, 8,000 games: 0.226 before,
    0.271 after; expert-4p-crossroads.toml's header). 4000 games: a 95% half-width of about 0.028."""
    assert umegae_share(4, ("crossroads",), 4000) < 0.335
