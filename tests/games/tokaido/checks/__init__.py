"""Tokaido's regression checks: golden games, statistical baselines, the sequential test."""
