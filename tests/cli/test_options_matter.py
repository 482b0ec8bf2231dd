"""Every option changes the games or is refused: a property over configurations and options (hypothesis).

Hypothesis draws a configuration (players, variants, expansions, how the Travelers are assigned)
and one option from a pool that mixes options that matter there with options that do not (a
Traveler's rule when he cannot be in the game, a variant's rule without the variant, a value the
rule already has, a Neutral rule at 3 players, the promos with a lineup, a profile none of whose
rules the game uses). ``tokaido-sim run`` with the option must then either refuse it (exit 2, one
line, nothing written) or write games that differ from the same run without it: no option is
silently ignored.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.helpers.cli import call

GAMES = 200  # enough that a Traveler of a 36-strong pool is dealt in some game at 2 players
EXPANSION_SETS = [
    (),
    ("new-encounters",),
    ("crossroads",),
    ("crossroads", "matsuri"),
    ("promos",),
    ("crossroads", "matsuri", "promos"),
]
# (option, value); "+x" adds x to the configuration's own list
OPTIONS = [
    ("--set", "travelers.kinko.coins=0"),
    ("--set", "travelers.daigoro.coins=0"),
    ("--set", "travelers.ayumu.coins=0"),
    ("--set", "travelers.antoine.coins=0"),
    ("--set", "travelers.titia.coins=0"),
    ("--set", "travelers.hiroshige.coins=3"),
    ("--set", "abilities.kinko_meal_discount=3"),
    ("--set", "temple.neutral_bank_coin=5"),
    ("--set", "meals.hand_extra=3"),
    ("--set", "variants.gastronomy.hand_extra=3"),
    ("--set", "variants.preparations.3=2,2,2"),
    ("--set", "draft.dealt=3"),
    ("--set", "draft.mode=free"),
    ("--set", "crossroads.start_amulet_cost=0"),
    ("--set", "matsuri.draw=3"),
    ("--set", "encounters.itamae_cost=0"),
    ("--set", "souvenirs.set_points=1,2,3,4"),
    ("--rules", "online"),
    ("--bots", ""),
    ("--expansions", "+promos"),
    ("--variants", "+initiation"),
]
_runs: dict[tuple[str, ...], tuple[int, pl.DataFrame | None]] = {}


def _pool(expansions: tuple[str, ...]) -> list[str]:
    from sim.games.tokaido.rules.config import GameConfig

    return [t.name for t in GameConfig(expansions=expansions).rules().travelers]


def _turn(items: list, k: int) -> list:
    return items[k % len(items) :] + items[: k % len(items)]


@st.composite
def configurations(draw: st.DrawFn, salt: int = 0) -> list[str]:
    """A configuration valid on its own; ``salt`` turns every list drawn from, so each option of the
    parametrized test meets other configurations than its neighbours (the draws are derandomized)."""
    n = draw(st.sampled_from(_turn([2, 3, 4, 5], salt)))
    variants = draw(
        st.sets(
            st.sampled_from(_turn(["return-trip", "gastronomy", "preparations", "initiation"], salt)),
            max_size=2,
        )
    )
    expansions = draw(st.sampled_from(_turn(EXPANSION_SETS, salt)))
    travelers = draw(st.sampled_from(_turn(["draft", "random", "lineup"], salt)))
    # Initiation plays without Travelers (and so without the promos'); a lineup is dealt nothing from the
    # pool the promos add to
    if "initiation" in variants:
        travelers = "draft"
    if "initiation" in variants or travelers == "lineup":
        expansions = tuple(x for x in expansions if x != "promos")
    if travelers == "lineup":
        travelers = ",".join(draw(st.permutations(_pool(expansions)))[:n])
    argv = ["-p", str(n), "--travelers", travelers]
    if variants:
        argv += ["--variants", ",".join(sorted(variants))]
    if expansions:
        argv += ["--expansions", ",".join(expansions)]
    return argv


def _with(argv: list[str], option: str, value: str) -> list[str]:
    if not value.startswith("+"):
        return [*argv, option, value]
    if option in argv:
        i = argv.index(option)
        return [*argv[: i + 1], argv[i + 1] + "," + value[1:], *argv[i + 2 :]]
    return [*argv, option, value[1:]]


def _play(
    argv: list[str], out: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, pl.DataFrame | None]:
    code, _, err = call(["run", "-g", str(GAMES), "-s", "3", "-q", "--out", str(out), *argv], capsys)
    if code != 0:
        return code, err, None
    frame = pl.read_parquet(sorted(out.glob("part-*.parquet")))
    frame = frame.with_columns(pl.col(pl.Categorical).cast(pl.String)).sort("game", "player")
    return code, err, frame


@pytest.mark.parametrize("option", OPTIONS, ids="=".join)
def test_an_option_changes_the_games_or_is_refused(
    option: tuple[str, str], tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    @settings(
        max_examples=5,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(config=configurations(OPTIONS.index(option)))
    def check(config: list[str]) -> None:
        _check(config, option, tmp_path_factory, capsys)

    check()


def _check(
    config: list[str],
    option: tuple[str, str],
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    key = tuple(config)
    if key not in _runs:
        code, _, frame = _play(config, tmp_path_factory.mktemp("base") / "run", capsys)
        _runs[key] = (code, frame)
    base_code, base = _runs[key]
    assume(base_code == 0)  # a configuration refused on its own (a lineup with Initiation) tells nothing
    root = tmp_path_factory.mktemp("with")
    argv = _with(config, *option)
    code, err, frame = _play(argv, root / "run", capsys)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (argv, err)
        assert list(root.iterdir()) == [], (argv, "refused, but wrote", list(root.iterdir()))
        return
    assert code == 0 and frame is not None, (argv, code, err)
    assert base is not None and not frame.equals(base), (
        argv,
        "accepted, but the games are the same without it",
    )
