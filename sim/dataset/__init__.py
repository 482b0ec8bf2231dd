"""The dataset format, written by ``sim.run`` and read by ``analysis``: one definition for both.

A dataset is a folder of ``part-S-E.parquet`` files (games ``[S, E)``, one row per player per
game) and a ``manifest.json``; a study is a folder of such runs under hive-partitioned paths.

- ``schema``: Tokaido's Arrow schema and its column groups (the game's; here because ``analysis`` reads
  them and may import nothing of ``sim.games``).
- ``manifest``: the typed ``Manifest`` (and ``Part``, ``StudyCell``), read and written in one
  place; ``MAX_SEED`` and ``MAX_GAMES``.
- ``parts``: part names and spans, how every game's part file is written (``write_table``), the
  metadata each part carries (the configuration string, expansions, rules version, fingerprint and
  seed), atomic part writes, and the checks of the parts against their manifest (row counts,
  SHA-256, stray files, metadata) that a resume and a report both make.

Below ``sim.run``, ``sim.games.duo`` and ``analysis``; imports only ``kernels.core``,
``kernels.tokaido.core`` (Tokaido's result fields, for ``schema``), ``sim.errors`` and ``sim.files``.
"""
