"""The rules as data (TOML): board, cards, Travelers, rule numbers, Crossroads, bot weights
(``bots/``); read by ``sim.games.tokaido.rules.tables`` through ``importlib.resources``. No code lives
here."""
