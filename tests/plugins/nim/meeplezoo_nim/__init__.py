"""A test plugin for MeepleZoo: Nim (take 1-3 sticks; who takes the last stick wins) and two bots."""
