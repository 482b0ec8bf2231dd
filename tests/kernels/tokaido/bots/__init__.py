"""The bot tiers' decisions: legal games, no peeking, the expert's values and speed-ups, the search bot."""
