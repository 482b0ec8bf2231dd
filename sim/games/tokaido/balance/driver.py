"""``run_balance``: checks, the output directory and its state, the search, the confirmation, the outputs.

Layout of ``OUT``::

    manifest.json               kind "balance": the request, status, sessions, the result
    search/CANDIDATE/players=N  the search's runs (seed --seed), one per candidate and player count
    confirm/CANDIDATE/players=N the confirmation's runs (seed --confirm-seed): the start and the proposal
    patch.toml  balance.md  forest.png

Resuming (``--resume``) needs the same request; the search replays its decisions from the
games on disk (it is deterministic given them) and plays only the games that are missing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.dataset.manifest import Manifest
from sim.errors import UserError
from sim.games.tokaido.balance.evaluate import Evaluator
from sim.games.tokaido.balance.knobs import parse_knobs
from sim.games.tokaido.balance.report import write_outputs
from sim.games.tokaido.balance.search import Settings, confirm, search, validate
from sim.games.tokaido.rules.config import GameConfig
from sim.run import outdir, progress, runner

if TYPE_CHECKING:
    from sim.run.cluster import Cluster


def _rules_text(config: GameConfig) -> str:
    parts = ["base game"]
    if config.variants:
        parts.append("variants " + ", ".join(config.variants))
    if config.expansions:
        parts.append("expansions " + ", ".join(config.expansions))
    sets = [f"--set {k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in config.overrides]
    if len(sets) > 4:  # a patch file of them: the manifest holds them all
        sets = [*sets[:3], f"... ({len(sets)} overrides in all, listed in manifest.json)"]
    return "; ".join(parts + sets)


def run_balance(configs: dict[int, GameConfig], knobs_text: str, s: Settings, out: Path, resume: bool = False,
                quiet: bool = False, threads: int | None = None, cluster: Cluster | None = None) -> Manifest:
    """Search, confirm and write the outputs into ``out``; return the manifest. Checks everything first."""
    players = sorted(configs)
    first = configs[players[0]]
    if first.travelers != "random":
        raise UserError("balance deals the Travelers at random (fair share 1/N needs every Traveler equally often)")
    if len({c.bots for c in configs.values()}) != 1 or len(first.bots) != 1:
        raise UserError("balance needs one bot tier for every player, e.g. --bots tuned")
    knobs = parse_knobs(knobs_text, [configs[n] for n in players], s.max_change)
    validate(s, players, knobs)
    runner.validate(1, s.seed, s.chunk_size, threads)
    travelers = [t.name for t in first.rules().travelers]
    request = json.loads(json.dumps({
        "players": players, "configs": {str(n): configs[n].to_dict() for n in players}, "knobs": knobs_text,
        "settings": s.to_dict(), "rules_fingerprint": {str(n): configs[n].rules().fingerprint() for n in players},
    }))
    manifest = outdir.prepare_out_dir(out, resume, kind="balance")
    if manifest is not None and manifest.extra.get("request") != request:
        old = manifest.extra.get("request") or {}
        key = sorted(k for k in set(old) | set(request) if old.get(k) != request.get(k))[0]
        raise UserError(f"{out} holds a balance search with other options ('{key}' differs); resume with the "
                        "same options or choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    about: dict[str, Any] = {"bots": first.bots[0], "rules": _rules_text(first), "knobs": knobs_text}
    with outdir.lock_dir(out):
        outdir.clean_temp_files(out)
        if manifest is None:
            manifest = Manifest(kind="balance", started=outdir.now(), extra={"sessions": []})
        manifest.status, manifest.versions, manifest.finished = "running", outdir.versions(), None
        manifest.extra["request"] = request
        outdir.write_manifest(out, manifest)
        m = manifest
        t0 = time.perf_counter()
        total = s.budget + 2 * s.confirm_games * len(players)

        def session(status: str) -> None:
            past = m.extra.get("sessions", [])
            m.extra["sessions"] = [*past, {"at": outdir.now(), "seconds": round(time.perf_counter() - t0, 1),
                                           "status": status}]

        try:
            with progress.status_bar(total, 0, not quiet, "balance: screening") as (advance, status):
                ev = Evaluator(configs, knobs, out / "search", s.seed, s.chunk_size, threads, cluster, advance)
                outcome = search(ev, knobs, travelers, s, status)
                status(f"confirming on fresh seeds (seed {s.confirm})")
                conf = confirm(configs, knobs, outcome.change, s, out / "confirm", threads, cluster, advance)
        except BaseException:
            session("interrupted")
            m.status = "interrupted"
            outdir.write_manifest(out, m)
            raise
        session("complete")
        sessions = m.extra["sessions"]
        about.update(seconds=sum(x["seconds"] for x in sessions), sessions=len(sessions),
                     confirm_games=s.confirm_games * len(players) * (2 if any(outcome.change) else 1))
        result = write_outputs(out, knobs, travelers, outcome, conf, s, about)
        m.status, m.finished = "complete", outdir.now()
        m.extra.update(result=result, log=outcome.log, seconds=about["seconds"], confirm_games=about["confirm_games"])
        outdir.write_manifest(out, m)
    return m
