"""massif-native's benchmark harness: builds, runs, reports (see bench.py)."""
