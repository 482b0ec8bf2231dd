"""A Duo run: chunks of games into Parquet part files, with the Tokaido runner's machinery.

The directory layout, atomic writes, locking, resume and progress bar are
``sim.run.runner``'s own functions; only the play call and the table differ
(``sim.duo.engine.play_duo_games``, ``sim.duo.dataset.to_table``). The
manifest carries the board's provenance and verified flag.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

from sim.duo import dataset as duo_dataset
from sim.duo.engine import play_duo_games
from sim.duo.rules import DuoRules
from sim.errors import UserError
from sim.run import dataset, outdir, parts, runner
from sim.run.progress import progress_bar

KIND = "duo-run"


def _write_part(out: Path, start: int, end: int, records, rules: DuoRules) -> parts.Entry:
    name = outdir.part_name(start, end)
    tmp = out / f".{name}.{uuid.uuid4().hex[:8]}.tmp"
    dataset.write_table(duo_dataset.to_table(records, rules), tmp)
    os.replace(tmp, out / name)
    outdir.fsync_dir(out)
    return parts.entry(out / name, len(records))


def run(rules: DuoRules, bots: tuple[str, str], games: int, seed: int, out_dir: str | os.PathLike[str],
        chunk_size: int = runner.DEFAULT_CHUNK_SIZE, threads: int | None = None, resume: bool = False,
        progress: bool = True) -> runner.RunSummary:
    """Play games ``[0, games)`` into ``out_dir``; with ``resume`` only the missing games are played."""
    out = Path(out_dir)
    runner.validate(games, seed, chunk_size, threads)
    rules.record(bots)  # raises on an unknown bot before anything is written
    manifest = outdir.prepare_out_dir(out, resume, KIND)
    config = {"bots": list(bots), "board": rules.board.path, "fingerprint": rules.fingerprint()}
    if manifest is not None:
        if json.loads(json.dumps(config)) != manifest.get("config") or manifest.get("seed") != seed:
            raise UserError(f"{out} holds a Duo run with other bots, board, rules or seed; resume with the "
                            "same options or choose another --out")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with outdir.lock_dir(out):
        outdir.clean_temp_files(out)
        done = parts.verified_parts(out, 2, manifest)  # checksums and row counts, as Tokaido runs
        spans = [parts.span(e["file"]) for e in done]
        if spans and spans[-1][1] > games:
            raise UserError(f"{out} already holds games up to {spans[-1][1]}; --games must be at least that")
        todo = list(parts.missing_chunks(spans, games, chunk_size))
        if manifest is None:
            manifest = {"kind": KIND, "game": "duo", "config": config, "seed": seed, "n_players": 2,
                        "started": outdir.now(), "versions": outdir.versions(), "finished": None,
                        "duo_board": rules.manifest()}
        manifest.update(games=games, chunk_size=chunk_size, status="running" if todo else "complete",
                        parts=done)
        outdir.write_json_atomic(out / outdir.MANIFEST, manifest)
        with progress_bar(games, sum(e - s for s, e in spans), progress) as advance:
            try:
                for start, end in todo:
                    batch = play_duo_games(rules, seed, start, end - start, bots, threads=threads)
                    new = _write_part(out, start, end, batch.records, rules)
                    manifest["parts"] = sorted([*manifest["parts"], new], key=lambda e: e["file"])
                    outdir.write_json_atomic(out / outdir.MANIFEST, manifest)
                    advance(end - start)
            except BaseException:
                manifest["status"] = "interrupted"
                outdir.write_json_atomic(out / outdir.MANIFEST, manifest)
                raise
        manifest.update(status="complete", finished=outdir.now())
        outdir.write_json_atomic(out / outdir.MANIFEST, manifest)
    return runner.RunSummary(out, games, sum(e - s for s, e in todo), time.perf_counter() - t0, "complete")
