"""What several test modules share: hand-built positions and referee states, the CLI in a subprocess,
synthetic datasets, the repository's paths."""
