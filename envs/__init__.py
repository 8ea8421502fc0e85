"""MeepleZoo environments: ``from meeplezoo.envs import seastead_v0``."""
