"""Baseline agents for MeepleZoo games."""
