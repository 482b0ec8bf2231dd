"""Integer codes and array layouts shared by the kernels and their Python wrappers.

Every enum is an instance of a ``NamedTuple`` type whose fields are ints, so
``Space.VILLAGE`` is a compile-time constant inside ``@njit`` code (the vectorbt
idiom) and a readable name in Python.

State layout of one game (all arrays are owned by the kernel that plays it):

``ps``  int32[MAX_TRAV, PF_N]  one row per traveler; field indices are ``PF``.
        Rows ``0..n_players-1`` are the players in configuration order; with
        2 players row 2 is the Neutral Traveler (``PF.NEUTRAL == 1``).
``gs``  int64[G_N]             game-wide scalars, field indices are ``G``.
``occ`` int8[N_SPACES]         travelers on each space (Inns hold everyone).
``deck`` int16[N_DECKS, DECK_CAP]  each pile as a ring buffer of card ids;
        ``dtop[d]`` is the index of the top card and ``dcnt[d]`` the number of
        cards left. Drawing takes ``deck[d, dtop[d]]``; "under the pile" writes
        at ``(dtop[d] + dcnt[d]) % DECK_CAP``. Bots never receive these arrays:
        hidden order stays hidden by construction.
``hand`` int16[HAND_CAP]       the meal cards waiting at the current Inn
        (``gs[G.HAND_N]`` of them).

Rules tables (built once in ``sim/games/tokaido/rules/tables.py`` from ``sim/games/tokaido/data/*.toml``):

``board``  int8[2, N_SPACES]   row 0 space type (``Space``), row 1 double flag
           (Return Trip hands the kernel the reversed board).
``card``   int16[N_DECKS, 2, DECK_CAP]  two attributes per card id:
           souvenirs (family, cost), meals (dish, cost), hot springs (value, 0),
           encounters (``Enc`` kind, panorama type or -1).
``dsize``  int16[N_DECKS]      cards of each kind in the game.
``params`` int32[P_N]          the numbers of the rules, indices ``P``.
``trav``   int32[N_TRAVELERS, 3]  starting coins, ability (``Ability``), gender.
"""

from typing import NamedTuple

from kernels.tokaido.core.events import DieSrc, DieSrcT, Ev, EvT, Opt, OptT, PanSrc, PanSrcT  # noqa: F401 (re-exported)
from kernels.tokaido.core.params import P_N, PT, P  # noqa: F401 (re-exported)

MAX_PLAYERS = 5
MAX_TRAV = 6  # five players, or two players plus the Neutral Traveler
N_SPACES = 55
DECK_CAP = 32
HAND_CAP = 9  # 5 travelers + 1 + Cho-yo's 2, and Eriku's look at the top card (P4)
N_FAMILIES = 5  # four base souvenir families; room for a fifth (Crossroads offerings)
N_PANORAMAS = 3
MAX_EVENTS = 640  # action-log rows per game
EV_FIELDS = 6


class SpaceT(NamedTuple):
    INN: int = 0
    VILLAGE: int = 1
    FARM: int = 2
    PADDY: int = 3  # panorama type 0
    MOUNTAIN: int = 4  # panorama type 1
    SEA: int = 5  # panorama type 2
    HOT_SPRING: int = 6
    TEMPLE: int = 7
    ENCOUNTER: int = 8


Space = SpaceT()
SPACE_NAMES = ("inn", "village", "farm", "paddy", "mountain", "sea", "hot_spring", "temple", "encounter")
PANORAMA_NAMES = ("paddy", "mountain", "sea")


class DeckT(NamedTuple):
    SOUVENIR: int = 0
    MEAL: int = 1
    HOT_SPRING: int = 2
    ENCOUNTER: int = 3
    # Crossroads markets (face up: players choose, nobody draws)
    LEGENDARY: int = 4
    AMULET: int = 5
    CALLIGRAPHY: int = 6
    CHERRY: int = 7
    BATHHOUSE: int = 8
    MATSURI: int = 9  # Matsuri: the festival stack (a shuffled pile, drawn at the intermediate Inns)


Deck = DeckT()
N_DECKS = 10  # piles 0-3 and 9 are shuffled (9 only with Matsuri); decks 4-8 are Crossroads markets
N_MARKETS = 3  # Legendary Objects, Amulets, Calligraphy: distinct cards
MARKET_CAP = 8
DECK_NAMES = (
    "souvenir",
    "meal",
    "hot_spring",
    "encounter",
    "legendary",
    "amulet",
    "calligraphy",
    "cherry_tree",
    "bathhouse",
    "matsuri",
)


class LegendT(NamedTuple):
    SCRIPT: int = 0  # Shodo, Emaki: a point per souvenir/object held, +1 per later souvenir
    OFFERING: int = 1  # Buppatsu, Ema: a fifth souvenir family
    SWORD: int = 2  # Murasame, Masamune: 8 points


Legend = LegendT()
LEGEND_KINDS = ("script", "offering", "sword")


class AmuletT(NamedTuple):
    VITALITY: int = 0
    FORTUNE: int = 1
    HEALTH: int = 2
    FRIENDSHIP: int = 3
    HOSPITALITY: int = 4
    DEVOTION: int = 5


Amulet = AmuletT()
AMULET_NAMES = ("vitality", "fortune", "health", "friendship", "hospitality", "devotion")


class CalliT(NamedTuple):
    FORESIGHT: int = 0
    CONTEMPLATION: int = 1
    NOSTALGIA: int = 2
    PATIENCE: int = 3
    PERFECTION: int = 4
    FASTING: int = 5


Calli = CalliT()
CALLI_NAMES = ("foresight", "contemplation", "nostalgia", "patience", "perfection", "fasting")


class EncT(NamedTuple):
    SHOKUNIN: int = 0
    ANNAIBITO: int = 1
    SAMURAI: int = 2
    KUGE: int = 3
    MIKO: int = 4
    ITAMAE: int = 5
    KITOUSHI: int = 6
    SARU: int = 7
    TAKUHATSUSO: int = 8


Enc = EncT()
ENC_NAMES = ("shokunin", "annaibito", "samurai", "kuge", "miko", "itamae", "kitoushi", "saru", "takuhatsuso")


class AbilityT(NamedTuple):
    NONE: int = 0
    HIROSHIGE: int = 1
    CHUUBEI: int = 2
    KINKO: int = 3
    YOSHIYASU: int = 4
    SATSUKI: int = 5
    MITSUKUNI: int = 6
    SASAYAKKO: int = 7
    HIROTADA: int = 8
    UMEGAE: int = 9
    ZEN_EMON: int = 10
    DAIGORO: int = 11
    GOTOZAEMON: int = 12
    JIROCHO: int = 13
    KITA: int = 14
    MIYATAKA: int = 15
    NAMPO: int = 16
    # Matsuri (expansions.md A.9)
    AYUMU: int = 17
    CHIHAYA: int = 18
    IYASAKA: int = 19
    KAMUI: int = 20
    KIDZUNA: int = 21
    KUSHINADA: int = 22
    MARI: int = 23
    MARIHITO: int = 24
    MISAKI: int = 25
    MUSUBI: int = 26
    MUTSUMI: int = 27
    RAKUREN: int = 28
    SUSERI: int = 29
    TAKERU: int = 30
    TITIA: int = 31
    YASHIMA: int = 32
    # promos (expansions.md B.1)
    ANTOINE: int = 33
    NAIADE: int = 34
    ERIKU: int = 35
    FELICIA: int = 36


Ability = AbilityT()
ABILITY_NAMES = (
    "none",
    "hiroshige",
    "chuubei",
    "kinko",
    "yoshiyasu",
    "satsuki",
    "mitsukuni",
    "sasayakko",
    "hirotada",
    "umegae",
    "zen_emon",
    "daigoro",
    "gotozaemon",
    "jirocho",
    "kita",
    "miyataka",
    "nampo",
    "ayumu",
    "chihaya",
    "iyasaka",
    "kamui",
    "kidzuna",
    "kushinada",
    "mari",
    "marihito",
    "misaki",
    "musubi",
    "mutsumi",
    "rakuren",
    "suseri",
    "takeru",
    "titia",
    "yashima",
    "antoine",
    "naiade",
    "eriku",
    "felicia",
)


class BotT(NamedTuple):
    """Bot tiers, weakest first (docs/bots.md). Ids >= HEURISTIC use the heuristic's code."""

    RANDOM: int = 0
    GREEDY: int = 1
    HEURISTIC: int = 2  # feature vector x weight vector (sim/games/tokaido/data/bots/heuristic.toml)
    TUNED: int = 3  # the heuristic with self-play tuned weights (sim/games/tokaido/data/bots/tuned.toml)
    SEARCH: int = (
        4  # determinized Monte Carlo rollouts of each move (sim/games/tokaido/data/bots/search.toml)
    )
    # the heuristic with the expert's valuations and tuned weights (sim/games/tokaido/data/bots/expert*.toml)
    EXPERT: int = 5


Bot = BotT()
BOT_NAMES = ("random", "greedy", "heuristic", "tuned", "search", "expert")


class PolicyT(NamedTuple):
    """How a player decides, read once a decision from its tier and weights
    (``kernels.tokaido.bots.policy.policy_nb``)."""

    RANDOM: int = 0  # uniform over the legal choices
    GREEDY: int = 1  # points now + a coin value and reserve (sim/games/tokaido/data/bots.toml [greedy])
    FEATURES: int = 2  # features x weights (heuristic, tuned)
    EXPERT: int = 3  # features x weights + the expert's valuations (expert; search's unsearched decisions)


Policy = PolicyT()


class PFT(NamedTuple):
    """Per-traveler fields of ``ps``."""

    POS: int = 0  # board index, 0 = start Inn
    SEQ: int = 1  # arrival stamp at the current space: a later arrival is "behind"
    COINS: int = 2
    SCORE: int = 3
    # points by source; they always sum to SCORE
    PTS_MEALS: int = 4
    PTS_SOUVENIRS: int = 5
    PTS_PANORAMAS: int = 6
    PTS_HOT_SPRINGS: int = 7
    PTS_TEMPLE: int = 8
    PTS_TEMPLE_BONUS: int = 9
    PTS_ENCOUNTERS: int = 10
    PTS_ACHIEVEMENTS: int = 11
    PTS_OTHER: int = 12
    # counts
    MEALS: int = 13
    MEAL_VALUE: int = 14  # printed costs of meals eaten (Gourmet)
    SOUVENIRS: int = 15
    HOT_SPRINGS: int = 16
    ENCOUNTERS: int = 17
    ACHIEVEMENTS: int = 18
    DONATED: int = 19  # coins on the Temple in this traveler's colour
    STOPS: int = 20  # stations stopped at, Inns not counted
    PAN0: int = 21  # panorama cards taken, paddy / mountain / sea
    PAN1: int = 22
    PAN2: int = 23
    FAM0: int = 24  # souvenirs held per family (N_FAMILIES fields)
    DISHES: int = 29  # bit mask of dishes eaten
    TRAVELER: int = 30  # traveler index into the travelers table, -1 = none
    ABILITY: int = 31
    BOT: int = 32
    NEUTRAL: int = 33  # 1 for the 2-player Neutral Traveler
    SEAT: int = 34  # departure order from the start Inn, 0 = first to leave
    ALT_TRAVELER: int = 35  # the dealt Traveler not kept in the draft, -1 = none
    COINS_START: int = 36
    PANORAMAS: int = 37  # panorama cards held (all types)
    # Crossroads
    CHERRY: int = 38  # Cherry Tree cards
    BATHHOUSES: int = 39
    LEGENDARY: int = 40  # Legendary Objects held
    CALLIGRAPHY: int = 41  # Calligraphy cards held
    CALLI_MASK: int = 42  # bit k: holds Calligraphy card k
    AMULETS: int = 43  # bit k: holds Amulet card k
    AMULETS_NEW: int = 44  # bit k: Amulet k bought this turn (not usable yet)
    AMULETS_BOUGHT: int = 45
    SCRIPTS: int = 46  # Script objects held: +1 per later souvenir each
    INN_MEALS: int = 47  # meals eaten at Inns (Fasting)
    PTS_CHERRY: int = 48
    PTS_BATHHOUSES: int = 49
    PTS_LEGENDARY: int = 50
    PTS_CALLIGRAPHY: int = 51
    GAMBLES: int = 52  # Fortune die rolls bet on (Gaming Room, Jirocho)
    PTS_MATSURI: int = (
        53  # Matsuri cards (53-62, kernels/tokaido/game/matsuri.py): Doll/Carp and Journey-point tokens
    )
    DOLLS: int = 54
    CARPS: int = 55
    M_TOKENS: int = (
        56  # Journey-point tokens taken; 57-62 reserved (cards), 63-67 Matsuri Travelers, 68-72 promos
    )
    # Matsuri Travelers (engineer MT: 63-67)
    MT_EXTRA_MEALS: int = 63  # Kidzuna's extra meals (not Inn meals: Fasting counts main meals only)
    MT_ROBBED: int = 64  # coins Musubi took (from players or the bank)
    # promos
    DUELS: int = 68  # Felicia's rock-paper-scissors challenges
    DUEL_WINS: int = 69  # rounds she won (coins off)
    ERIKU_TOP: int = 70  # meals Eriku bought from the top of the pile (the start meal included)


PF = PFT()
PF_N = 73
PTS_FIELDS = tuple(range(PF.PTS_MEALS, PF.PTS_OTHER + 1))


class GT(NamedTuple):
    """Game-wide fields of ``gs``."""

    N_PLAYERS: int = 0
    N_TRAV: int = 1
    SEQ: int = 2  # next arrival stamp
    PAN_ACH: int = 3  # bit k set: panorama achievement k already taken
    HAND_N: int = 4  # meal cards in ``hand``
    INN_ARRIVED: int = 5  # travelers arrived at the current Inn
    TURNS: int = 6
    LOG_N: int = 7  # events written to the log
    LOG_ON: int = 8
    LAST: int = 9  # index of the last space (Edo, or Kyoto on a Return Trip)
    INN_HAND_DRAWN: int = 10  # 1 once the first arrival drew the meal hand
    OVERFLOW: int = 11  # 1 if the log ran out of room
    LAST_MOVER: int = 12  # the traveler who moved last (an Amulet turn ends when another moves)
    FORCE: int = 13  # t + 1: traveler t moves next whatever the order (Vitality), 0 = none
    M_INN: int = 14  # Matsuri cards (14-29, kernels/tokaido/game/matsuri.py): Matsuri Inns played (0..3)
    M_LEG: int = 15  # bit c: Matsuri card c acts on the stations of this leg
    M_NEXT: int = 16  # bit c: Matsuri card c acts at the next Inn (Cho-yo)
    M_CLOSED: int = 17  # bit s: station s is closed for this leg
    M_HALF: int = 18  # bit s: double station s is half closed (a single space) for this leg
    M_TOKENS: int = 19  # Closed Space tokens on the board
    M_TSUKIMI: int = 20  # o-Tsukimi's shared Calligraphy card + 1
    M_KEPT0: int = 21  # three entries: the card kept at each Matsuri Inn + 1
    M_REJ0: int = 24  # three entries: the card rejected at each Matsuri Inn + 1
    M_HANABI0: int = (
        27  # two: Hanabi's extra cards + 1 (0 = none); 29 reserved, 30-33 Matsuri Travelers, 34-37 promos
    )
    # Matsuri Travelers (engineer MT: 30-33)
    MT_LEAD: int = 30  # t + 1: Mutsumi chose to leave this Inn first, 0 = none
    ABILS: int = 31  # bit a: some player has ability a (set-up, ``kernels.tokaido.core.present``)
    ANTOINE: int = 34  # t + 1: Antoine, who wins every tie he is part of (P1), 0 = none or the rule is off
    M_NEUTRAL_MOVER: int = (
        37  # p + 1: the player who last moved the Neutral (only with P.M_NEUTRAL_MOVER, M4)
    )


G = GT()
G_N = 40


class TravelerModeT(NamedTuple):
    DRAFT: int = 0  # each player is dealt 2 and keeps 1 (rulebook set-up)
    RANDOM: int = 1  # each player gets 1 at random
    FIXED: int = 2  # the configuration names each player's Traveler
    NONE: int = 3  # Journey of Initiation


TravelerMode = TravelerModeT()


class CfgT(NamedTuple):
    """Indices into the per-run ``cfg`` int32 array."""

    N_PLAYERS: int = 0
    MODE: int = 1  # TravelerMode
    BOT0: int = 2  # five entries: bot of each player
    FIXED0: int = 7  # five entries: traveler of each player (FIXED mode)
    POOL_N: int = 12  # Travelers in the draw pool
    POOL0: int = 13  # up to MAX_POOL (40) entries: traveler indices of the pool
    PREP0: int = 53  # five entries: Preparations coins by departure order
    LOG: int = 58  # 1: write the action log
    XR_CARDS: int = 59  # Crossroads: cards of each type in play for this player count
    DRAFT_DEALT: int = 60  # draft: Travelers dealt to each player (2 or 3; rules.toml [draft])
    DRAFT_FREE: int = 61  # draft: 1 = each player in turn picks any Traveler left in the pool


Cfg = CfgT()
CFG_N = 64
MAX_POOL = 40  # base 10 + Crossroads 6 + Matsuri 16 + promos 4, with room


# Output columns of one player-row (kernels/tokaido/core/records.py builds the dtype).
RESULT_FIELDS = (
    "game",
    "player",
    "seat",
    "traveler",
    "alt_traveler",
    "bot",
    "score",
    "rank",
    "win_k",
    "pts_meals",
    "pts_souvenirs",
    "pts_panoramas",
    "pts_hot_springs",
    "pts_temple",
    "pts_temple_bonus",
    "pts_encounters",
    "pts_achievements",
    "pts_other",
    "pts_cherry_trees",
    "pts_bathhouses",
    "pts_legendary",
    "pts_calligraphy",
    "meals",
    "meal_value",
    "souvenirs",
    "hot_springs",
    "encounters",
    "achievements",
    "donated",
    "coins_left",
    "coins_start",
    "stops",
    "panoramas",
    "cherry_trees",
    "bathhouses",
    "legendary",
    "calligraphy",
    "amulets",
    # Matsuri: points, counts; per game the card kept / rejected at each Inn, Hanabi's (card ids, -1 none)
    "pts_matsuri",
    "dolls",
    "carps",
    "matsuri_tokens",
    "matsuri_inn1",
    "matsuri_inn2",
    "matsuri_inn3",
    "matsuri_rej1",
    "matsuri_rej2",
    "matsuri_rej3",
    "matsuri_hanabi1",
    "matsuri_hanabi2",
)
