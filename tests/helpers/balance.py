"""What the balance tests share: the base game's ten Travelers, by name."""

NAMES = [
    "hiroshige",
    "chuubei",
    "kinko",
    "yoshiyasu",
    "satsuki",
    "mitsukuni",
    "sasayakko",
    "hirotada",
    "umegae",
    "zen-emon",
]
