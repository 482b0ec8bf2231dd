"""``tokaido-sim balance``: search the smallest integer rule change that makes every Traveler fair.

- ``knobs``: the rule numbers the search may move (``--knobs``), their bounds, and a change as
  ``--set`` overrides and as a ``patch.toml``;
- ``evaluate``: win rates of one candidate change, played as ordinary runs (``sim.run.runner``,
  so resume and ``--cluster`` come with them) on common random numbers;
- ``model``: the linear response of win rates to the knobs, fitted to every evaluation, and the
  integer programme (HiGHS through ``scipy.optimize.milp``) that proposes candidates;
- ``search``: screening, racing the candidates, the confirmation on fresh seeds, the state file;
- ``report``: ``balance.md`` and the before/after forest plot.

May import ``sim.run``, ``sim.games.tokaido.rules``, ``sim.errors``, ``kernels.core``, ``analysis``,
``sim.games.tokaido.data``, ``sim``.
"""
