"""The ``meeplezoo`` command's sub-commands, one module each (the arena's and replay's are
:mod:`meeplezoo.arena.command`, serve's is :mod:`meeplezoo.web.command`).

Every command module has the same two functions, which :mod:`meeplezoo.cli` wires into its parser:

- ``add_parser(sub, game_help) -> argparse.ArgumentParser``: adds the command's parser to the CLI's
  sub-parsers (``game_help`` names the registered games for a ``game`` argument);
- ``run(args) -> int``: runs the command, returning the exit status; a user error raises a
  :class:`~meeplezoo.envs.core.errors.MeepleZooError` (or :class:`.common.CLIError`), printed in one line with
  status 2.

Commands find games in the registry (:mod:`meeplezoo.games`) and ask their manifests, never module paths.
"""
