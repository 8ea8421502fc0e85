"""The ``meeplezoo`` command asks the registry and the manifests (issue 38): ``list`` shows what each manifest
says, and game options (``--set``, ``--config``) and agent specs read values through one parameter system."""

from __future__ import annotations

import dataclasses

import pytest

from meeplezoo import cli, games, options
from meeplezoo.agents.registry import agent_params
from meeplezoo.agents.spec import AgentSpecError, bind_params
from meeplezoo.envs.core.params import FALSE, TRUE


def _game_with(test) -> tuple[str, str]:
    """A registered game with a config key that passes ``test``, and that key."""
    for game in games.game_names():
        for param in games.manifest(game).config_params():
            if test(param):
                return game, param.name
    raise AssertionError("no registered game has such a key")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def fake_registry(monkeypatch):
    """The registry with a built-in game retitled and recounted, and one more game (an existing env under a new
    name, title, player counts, solo env and distribution): what ``list`` shows must come from these."""
    real = games.manifest(games.game_names()[0])
    retitled = dataclasses.replace(real, title="Retitled For The Test", player_counts=(1, 3))
    extra = dataclasses.replace(
        real,
        name="zoo_extra",
        title="Extra",
        player_counts=(3, 4, 5),
        solo_env_id="fake-dist/ExtraSolo-v0",
        distribution="fake-dist",
    )
    table = {**games._manifests(), real.name: retitled, extra.name: extra}
    monkeypatch.setattr(games, "_manifests", lambda: table)
    return retitled, extra


def _rows(out: str) -> dict[str, str]:
    """The games table's rows: game name -> its first line and the wrapped lines under it, joined."""
    rows: dict[str, str] = {}
    table = out[: out.index("Agents (spec")]
    for line in table.splitlines():
        if line.startswith(" ") and not line.startswith("  ") and line.split():
            rows[line.split()[0]] = line
        elif line.startswith("  ") and rows:
            rows[next(reversed(rows))] += " " + line.strip()
    return rows


def test_list_shows_what_each_manifest_says(capsys, fake_registry):
    retitled, _ = fake_registry
    code, out, err = run(capsys, "list")
    assert code == 0, err
    rows = _rows(out)
    assert set(games.game_names()) <= set(rows)
    for manifest in games.manifests():
        row = rows[manifest.name].split()
        assert manifest.env_id in row and cli.players_text(manifest.player_counts) in row
        assert all(word in row for word in manifest.title.split()), (manifest.title, row)
    assert "1,3" in rows[retitled.name].split() and "Retitled" in rows[retitled.name]
    assert "fake-dist/zoo_extra-v0" in rows["zoo_extra"].split() and "3-5" in rows["zoo_extra"].split()
    assert "random" in rows["zoo_extra"].split()  # the agents the registry has for it
    assert "zoo_extra's solo mode as a Gymnasium env: fake-dist/ExtraSolo-v0" in out
    solo = [m.name for m in games.manifests() if m.solo_env_id]
    assert sum("solo mode as a Gymnasium env" in line for line in out.splitlines()) == len(solo)


def test_the_help_takes_its_example_game_from_the_registry(capsys, fake_registry, monkeypatch):
    first = games.game_names()[0]
    code, out, _ = run(capsys, "--help")
    assert code == 0 and f"meeplezoo play {first} --agents heuristic random" in " ".join(out.split())
    monkeypatch.setattr(games, "_manifests", lambda: {"zoo_extra": fake_registry[1]})
    _, out, _ = run(capsys, "--help")
    assert "meeplezoo play zoo_extra --agents" in " ".join(out.split())


def test_rules_reads_the_manifests_rules_page(capsys, fake_registry):
    extra = fake_registry[1]
    code, out, _ = run(capsys, "rules", "zoo_extra", "--raw")
    assert code == 0 and out == extra.rules()


@pytest.mark.parametrize("spelling", [*sorted(TRUE | FALSE), "True", "FALSE", "Y", " yes "])
def test_a_game_flag_and_an_agent_flag_read_every_spelling_alike(spelling):
    """``--set flag=y`` and ``mcts:forced=y``: one reading of bools (the params system's)."""
    game, flag = _game_with(lambda p: p.type is bool)
    expected = spelling.strip().lower() in TRUE
    as_option = options.parse_config([f"{flag}={spelling}"], options.game_params(game), game)[flag]
    as_spec = bind_params("mcts", agent_params("mcts", game), {"forced": spelling})["forced"]
    assert as_option is expected and as_spec is expected


def test_a_bad_flag_is_refused_in_the_same_words_by_set_and_by_an_agent_spec():
    game, flag = _game_with(lambda p: p.type is bool)
    with pytest.raises(options.OptionError) as by_set:
        options.parse_config([f"{flag}=maybe"], options.game_params(game), game)
    with pytest.raises(AgentSpecError) as by_spec:
        bind_params("mcts", agent_params("mcts", game), {"forced": "maybe"})
    assert str(by_set.value) == f"--set {flag} takes true or false, not 'maybe'"
    assert str(by_spec.value).endswith("forced takes true or false, not 'maybe'")


def test_play_takes_y_for_a_flag_in_set_and_in_an_agent_spec(capsys):
    game, flag = _game_with(lambda p: p.type is bool)
    argv = ["play", game, "--agents", "mcts:iters=2,forced=y", "random", "--set", f"{flag}=y", "--quiet"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "Winner: " in out or "Shared win: " in out


@pytest.mark.parametrize(
    ("item", "line"),
    [
        ("num_players=three", "--set num_players takes a whole number, not 'three'"),
        ("num_players=2.5", "--set num_players takes a whole number, not '2.5'"),
        ("illegal_reward=big", "--set illegal_reward takes a number, not 'big'"),
        ("illegal_reward=inf", "--set illegal_reward takes a number, not 'inf'"),
    ],
)
def test_a_bad_set_value_is_one_line_in_the_params_format_and_status_2(capsys, item, line):
    game, _ = _game_with(lambda p: p.name == "num_players")
    code, out, err = run(capsys, "play", game, "--set", item)
    assert (code, out) == (2, "")
    assert err == f"meeplezoo play: error: {line}\n"


def test_a_config_file_value_is_checked_by_the_same_params(capsys, tmp_path):
    game, _ = _game_with(lambda p: p.name == "num_players")
    bad = tmp_path / "bad.toml"
    bad.write_text("num_players = true\n")
    code, _, err = run(capsys, "play", game, "--config", str(bad))
    assert code == 2 and err == f"meeplezoo play: error: --config {bad}: num_players takes a whole number, not True\n"


def test_every_command_is_a_module_with_add_parser_and_run():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert list(sub.choices) == list(cli.COMMANDS)
    for name, module in cli.COMMANDS.items():
        assert callable(module.add_parser) and callable(module.run), name
        assert sub.choices[name].get_default("func") is module.run, name


def test_a_game_declared_by_its_env_module_alone_takes_its_env_engines_options(capsys, monkeypatch):
    """A plugin may declare a game by its bare env module: its manifest names no engine, and the options are
    then its env's engine's."""
    game, flag = _game_with(lambda p: p.type is bool)
    real = games.manifest(game)
    table = {**games._manifests(), game: dataclasses.replace(real, engine=None)}
    monkeypatch.setattr(games, "_manifests", lambda: table)
    assert games.manifest(game).config_params() == ()
    assert options.config_schema(game) == tuple(real.config_params())
    code, _, err = run(capsys, "play", game, "--set", f"{flag}=y", "--quiet")
    assert code == 0, err
