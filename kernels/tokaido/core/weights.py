"""Indices into the bots' weight vectors (``ru['botw'][p]``, float64), the heuristic's features and the
search's evaluation (``ru['seval']``).

``W``: the weights a bot reads (``sim/games/tokaido/data/bots.toml`` and
``sim/games/tokaido/data/bots/*.toml`` fill them);
``HF``: the heuristic's feature indices (each feature x its weight, docs/bots.md);
``EV_*``: the layout of the search's evaluation at an Inn (``sim/games/tokaido/data/bots/search_eval.toml``).
"""

from typing import NamedTuple


class WT(NamedTuple):
    """Indices into a bot's float64 weight vector (``sim/games/tokaido/data/bots.toml``)."""

    COIN: int = 0  # value of one coin, in points
    SKIP: int = 1  # cost of each space jumped over
    RESERVE: int = 2  # coins a bot likes to keep for the next meal
    RESERVE_PEN: int = 3  # cost of each coin below the reserve
    INN: int = 4  # value of stopping at the Inn instead of a station
    TEMPLE_RANK: int = 5  # future ranking value of one donated coin
    GOURMET: int = 6  # value per printed coin of a meal (Gourmet race)
    ENCOUNTER: int = 7  # expected points of an Encounter card
    HOT_SPRING: int = 8  # expected points of a Hot Spring card
    VILLAGE: int = 9  # scale of a Village's expected value
    SOUVENIR_COST: int = 10  # expected cost of a souvenir
    BLOCK: int = 11  # 2 players: weight of blocking the opponent with the Neutral
    DRAFT_COIN: int = 12  # draft: value of a starting coin
    DRAFT_TEMP: int = 13  # draft: softmax temperature over the two values (0: keep the better one)
    EXPERT: int = 14  # 1: the expert's valuations (kernels/tokaido/bots/expert.py), the XF features below
    # heuristic tiers: HF0 + HF.* weighs one feature of a choice (kernels/tokaido/bots/features.py)
    HF0: int = 32  # HF_N entries
    H_BLOCK: int = 60  # 2 players: value of moving the Neutral onto the opponent's best space
    S_ROLLOUTS: int = 61  # search: determinized rollouts per candidate move
    S_TOPK: int = 62  # search: candidates searched (the heuristic's best ones)
    S_WIN: int = 63  # search: bonus, in points, of winning a rollout
    XF0: int = 64  # expert tier: XF0 + XF.* (XF_N entries, room up to 95)
    TRAV0: int = 96  # draft: prior value of each Traveler (MAX_POOL = 40 entries, to 135)
    # Matsuri cards (136-145; kernels/tokaido/bots/matsuri.py)
    M_OPP: int = 136  # keeping a Matsuri card: weight of the opponents' mean gain (subtracted)
    M_AMULET: int = 137  # points of a free Amulet (Tori no Ichi)
    M_HANABI: int = 138  # points of two more cards for the chooser (Hanabi)
    M_LEG: int = 139  # points a leg card (Hadaka, o-Hanami, Gion, Yama no Ko, o-Taue) brings each traveler
    M_CLOSE: int = 140  # points of a closure for each traveler (negative: fewer stops)
    M_CHOYO: int = 141  # points of Cho-yo for each traveler
    M_EXTRA: int = 142  # bias of taking a free optional extra (Hadaka, Yama no Ko, o-Taue)
    # 143-145 reserved for the Matsuri cards; 146-151 Matsuri Travelers; 152-159 promos
    # Matsuri leg cards in the move choice (engineer MB: 160-167; kernels/tokaido/bots/matsuri_leg.py)
    M_LEG_STOP: int = (
        160  # scale of the active leg cards' bonus to a stop (0: the stop values without the leg cards)
    )
    M_LEG_SHARE: int = (
        161  # keeping a leg card: stops per station of the leg (each traveler gets 1/N of them)
    )
    # search (engineer SR: 162-167, 166 free; kernels/tokaido/search.py)
    S_HORIZON: int = 162  # search: legs a rollout plays before the evaluation at an Inn (0: to the end)
    S_PRIOR: int = 163  # search: points per unit of a candidate's heuristic value added to its mean
    S_HALVE: int = 164  # search: successive halving, rollouts per candidate in the first round (0: off)
    S_RACE: int = 167  # search: a candidate stops when its paired deficit passes this many std. errors
    S_GATE: int = 165  # search: candidates whose prior trails the best one by more are not searched (0: off)


W = WT()
W_N = 168


class HFT(NamedTuple):
    """Features of a heuristic choice; weight of feature k is ``w[W.HF0 + k]``."""

    PTS: int = 0  # expected points scored now
    COINS: int = 1  # expected change of coins
    COINS_LATE: int = 2  # the same, times the progress along the road (coins left at the end are worth 0)
    SHORT: int = 3  # coins that no longer miss (>0) or now miss (<0) for the next meal
    SHORT_ALL: int = 4  # the same for all the meals still to come
    SKIP: int = 5  # spaces jumped over
    SKIP_OPEN: int = 6  # free spaces jumped over
    PAN_NEXT: int = 7  # value of this panorama's next card after the stop (0 once complete)
    PAN_RACE: int = 8  # progress to an unclaimed panorama achievement while leading its race
    SET_POT: int = 9  # change of the best next souvenir's points (set potential)
    TEMPLE_RANK: int = 10  # change of the Temple ranking bonus if the game ended now
    END_ACH: int = 11  # change of the end achievements' points if the game ended now
    INN_QUEUE: int = 12  # travelers already at the Inn (a later arrival chooses from fewer meals)
    DENY: int = 13  # the best value an opponent behind would have had on this space
    AGAIN: int = 14  # still last after the move: the player moves again
    LEAVE: int = 15  # the best value the next other mover finds after the move
    ABILITY: int = 16  # the Traveler's ability: extra points (coins count in COINS)
    ROOM: int = 17  # free spaces left before the next Inn
    TYPE0: int = 18  # one-hot space type (``Space``, 9 entries): a bias per type


HF = HFT()
HF_N = 27


class XFT(NamedTuple):
    """The expert's extra weights (``w[W.XF0 + k]``; 0 for the other tiers, whose play they leave alone)."""

    COIN_USE: int = 0  # per coin the player can still spend before the end (below the spending cap)
    SPEND_RATE: int = 1  # the cap: coins for the meals to come + this many per space still to travel
    COIN_SPARE: int = 2  # per coin above the cap (it will buy nothing)
    AMULET0: int = 3  # points of holding an Amulet of each kind (``Amulet``, 6 entries)
    CALLI: int = 9  # scale of a Calligraphy card's expected end-game points
    CHERRY: int = 10  # bias of the Cherry Tree alternative
    BATH: int = 11  # bias of the Bathhouse alternative
    GAMBLE: int = 12  # bias of the Gaming Room alternative (and Jirocho's bet)
    LEGEND: int = 13  # bias of a Legendary Object
    SCRIPT_LATER: int = 14  # souvenirs a Script still expects, per unit of road left
    ABILITY_XR: int = 15  # the Crossroads Travelers' abilities (kernels/tokaido/bots/abilities.py)
    AMULET_USE: int = 16  # bias of using an Amulet now rather than keeping it
    # Matsuri Travelers (engineer MT: 23-26; kernels/tokaido/bots/matsuri_travelers.py, abilities.py)
    ABILITY_MT: int = 23  # the Matsuri Travelers' stop values (Misaki, Takeru, Mari, Iyasaka)
    MT_LEAD: int = 24  # bias of Mutsumi leaving an Inn first
    MT_REROLL: int = 25  # bias of Iyasaka's re-roll
    MT_MEAL: int = 26  # bias of Kidzuna's extra meal
    FELICIA: int = (
        27  # Felicia: share of her expected duel discount (rounds won x coins) the expert counts on
    )


XF = XFT()
XF_N = 31  # 17-22 Matsuri cards, 23-26 Matsuri Travelers, 27-30 promos

# the regions of a weight vector must not overlap
assert W.HF0 + HF_N <= W.H_BLOCK and W.XF0 + XF_N <= W.TRAV0 and W.TRAV0 + 40 <= W_N

# the search's evaluation at Inn k = 1..3 (``kernels.tokaido.search.margin_nb``): coefficient f of
# ``ev_features_nb``
# is seval[(k - 1) * EV_NF + f]; what Traveler i's ability is still worth there (Hiroshige's and Chuubei's Inn
# gifts to come...) is seval[EV_T0 + (k - 1) * EV_NT + i]
EV_NF = 9
EV_NT = 40
EV_T0 = 3 * EV_NF
EV_N = EV_T0 + 3 * EV_NT
