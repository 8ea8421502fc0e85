"""Training scripts for MeepleZoo environments."""
