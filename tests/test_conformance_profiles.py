"""Conformance under each rules profile: the conformance configurations of the base game, Crossroads,
Matsuri (cards and Travelers) and the promos, played under ``--rules online`` and ``--rules online-2020``
(the rulebook's own runs are the other conformance files), every game replayed by the independent referee.

The default run plays a few games of each configuration under each profile; the slow run 200.

    .venv/bin/pytest -q -n 2 tests/test_conformance_profiles.py
    .venv/bin/pytest -q -n 2 -m slow tests/test_conformance_profiles.py
"""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from conformance_helpers import assert_referee_agrees
from test_conformance import CONFORMANCE as BASE
from test_conformance_crossroads import CONFORMANCE as CROSSROADS
from test_conformance_matsuri import FAST as MATSURI
from test_conformance_matsuri_travelers import CONFORMANCE as MATSURI_TRAVELERS
from test_conformance_promos import CONFORMANCE as PROMOS

from sim.rules.config import GameConfig
from sim.rules.overrides import expand_sets
from sim.rules.profiles import profile_sets

SPECS = sorted({c[0]: c[1] for c in [*BASE, *CROSSROADS, *MATSURI, *MATSURI_TRAVELERS, *PROMOS]}.items())
PROFILES = ("online", "online-2020")
CASES = [(p, spec, seed) for p in PROFILES for spec, seed in SPECS]


@cache
def profiled(profile: str, spec: str) -> tuple[GameConfig, object]:
    """``spec`` under ``profile``: the profile's patch before the spec's own overrides, as the CLI builds it."""
    config = GameConfig.parse(spec)
    items = [tuple(s.split("=", 1)) for s in expand_sets(profile_sets(profile))]
    config = dataclasses.replace(config, overrides=(*items, *config.overrides), profile=profile)
    return config, config.rules()


def test_every_conformance_configuration_under_each_profile() -> None:
    assert len(SPECS) >= 60 and {c[0] for c in CASES} == set(PROFILES)


@pytest.mark.parametrize(("profile", "spec", "seed"), CASES, ids=[f"{p}-{s}" for p, s, _ in CASES])
def test_referee_agrees_under_the_profile(profile: str, spec: str, seed: int) -> None:
    config, rules = profiled(profile, spec)
    assert_referee_agrees(config, rules, seed + 500, 6)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize(("profile", "spec", "seed"), CASES, ids=[f"{p}-{s}" for p, s, _ in CASES])
def test_referee_agrees_under_the_profile_slow(profile: str, spec: str, seed: int) -> None:
    config, rules = profiled(profile, spec)
    assert_referee_agrees(config, rules, seed + 700, 200)  # type: ignore[arg-type]
