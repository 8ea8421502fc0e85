"""OpenSpiel's playthrough files of MeepleZoo's games: a change of rules or observations shows as a diff.

A playthrough (``open_spiel.python.algorithms.generate_playthrough``) plays one game uniformly at random from a
fixed seed and writes the game's type and sizes, then every displayed state: its rendering, history, each seat's
information state and observation (strings and tensors), rewards, legal actions and the action taken. The files
live in a folder (the repository's ``tests/openspiel/playthroughs``) beside ``cases.toml``, which lists the cases::

    seed = 1                       # the default seed of OpenSpiel's random play
    [[case]]
    game = "<name>"                # a MeepleZoo game
    config = { num_players = 2 }   # its config (num_players required); the file's label: "2p"
    slow = true                    # optional: the check takes seconds (pytest's ``slow`` mark)
    optional = true                # optional: a plugin game, skipped when it is not installed
    seed = 7                       # optional: this case's seed

Each case's file is ``meeplezoo_<game>-v<env version>_<label>.txt.gz``: gzip-compressed text (the tensors make
megabytes of text), written deterministically (no name, mtime 0) and always compared as text. The env version
(the game manifest's ``version``) in the name is what :func:`regenerate` checks: a changed playthrough under the
same version means results or observations changed without a version bump.

    import meeplezoo.openspiel.playthroughs as pt
    cases = pt.load_cases(folder)
    pt.check(cases[0], folder)    # None, or the start of a unified diff
    pt.regenerate(folder)         # writes what changed; a list of :class:`Change`
"""

from __future__ import annotations

import difflib
import gzip
import io
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import games
from ..envs.core.errors import ConfigError
from .registration import PREFIX, game_string

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: the case list inside a playthrough folder
CASES_FILE = "cases.toml"
#: a playthrough file: ``meeplezoo_<game>-v<version>_<label>.txt.gz``
SUFFIX = ".txt.gz"
NAME = re.compile(rf"^{PREFIX}(?P<game>\w+?)-v(?P<version>\d+)_(?P<label>\w+){re.escape(SUFFIX)}$")
#: the command that regenerates the repository's playthroughs (from its root)
REGENERATE = "python scripts/regen_playthroughs.py"
#: a diff is cut after this many lines, each line after this many characters (tensor lines run to 10k+)
DIFF_LINES = 60
DIFF_WIDTH = 200
BUMP = (
    "results/observations changed without an env version bump: bump `version` in the game's manifest "
    "(and envs/fingerprints.json via scripts/env_fingerprints.py)"
)


@dataclass(frozen=True)
class Case:
    """One playthrough: ``game`` at ``config`` (sorted ``(key, value)`` pairs), OpenSpiel's random play from
    ``seed``. ``slow``: its check takes seconds."""

    game: str
    config: tuple[tuple[str, Any], ...]
    seed: int
    slow: bool = False

    @property
    def game_string(self) -> str:
        """The ``pyspiel.load_game`` string (``meeplezoo_concordia(map=imperium,num_players=4)``)."""
        return game_string(self.game, dict(self.config))

    @property
    def label(self) -> str:
        """The config in a file name: ``<n>p`` then each other value by key (a true flag as its key, a false one as
        ``no_<key>``): ``4p_imperium``."""
        config = dict(self.config)
        parts = [f"{config['num_players']}p"]
        for key, value in self.config:
            if key != "num_players":
                parts.append((key if value else f"no_{key}") if isinstance(value, bool) else str(value))
        return "_".join(parts)

    @property
    def key(self) -> tuple[str, str]:
        """What identifies the case across env versions: ``(game, label)``."""
        return self.game, self.label

    def version(self) -> int:
        """The game's env version now (its manifest's)."""
        return games.manifest(self.game).version

    def file_name(self, version: int | None = None) -> str:
        """The file of this case at env ``version`` (default: the current one)."""
        return f"{PREFIX}{self.game}-v{self.version() if version is None else version}_{self.label}{SUFFIX}"


def load_cases(folder: Path) -> list[Case]:
    """The cases ``folder``'s ``cases.toml`` lists, less optional ones of games not installed. A defect raises
    ``ValueError`` naming it."""
    path = Path(folder) / CASES_FILE
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    default_seed = doc.get("seed", 1)
    entries = doc.get("case", [])
    if not isinstance(entries, list):
        raise ValueError(f"{path}: 'case' must be an array of tables ([[case]]), not {entries!r}")
    cases: list[Case] = []
    for i, entry in enumerate(entries, 1):
        case = _case(entry, default_seed, f"{path}: case {i}")
        if case is not None:
            cases.append(case)
    labels = [c.key for c in cases]
    if len(set(labels)) != len(labels):
        raise ValueError(f"{path}: two cases of one game with the same label")
    return cases


def _case(entry: Any, default_seed: Any, where: str) -> Case | None:
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: a table expected, not {entry!r}")
    unknown = set(entry) - {"game", "config", "seed", "slow", "optional"}
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {sorted(unknown)}")
    name, config, seed = entry.get("game"), entry.get("config"), entry.get("seed", default_seed)
    try:
        game = games.resolve(str(name))
    except games.UnknownGameError as exc:
        if entry.get("optional"):
            return None
        raise ValueError(f"{where}: {exc}") from None
    if not isinstance(config, dict) or not isinstance(config.get("num_players"), int):
        raise ValueError(f"{where}: config must be a table with num_players, not {config!r}")
    try:
        games.manifest(game).engine_class()(**config)
    except (ConfigError, TypeError) as exc:
        raise ValueError(f"{where}: {exc}") from None
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**32:
        raise ValueError(f"{where}: seed must be an integer in [0, 2**32), not {seed!r}")
    case = Case(game, tuple(sorted(config.items())), seed, bool(entry.get("slow", False)))
    if not re.fullmatch(r"\w+", case.label):
        raise ValueError(f"{where}: config {config} gives the label {case.label!r}, not a file name part")
    return case


# --- generating and storing --------------------------------------------------------------------------------------


def generate(case: Case, fast: bool = True) -> str:
    """The text of ``case``'s playthrough: OpenSpiel's ``playthrough(game_string, None, seed=seed)``. ``fast``
    formats float tensors with numpy (:func:`numpy_float_formatting`: the same text, six times faster)."""
    from open_spiel.python.algorithms import generate_playthrough

    with numpy_float_formatting() if fast else nullcontext():
        return generate_playthrough.playthrough(case.game_string, None, seed=case.seed)


@contextmanager
def numpy_float_formatting() -> Iterator[None]:
    """While inside, OpenSpiel's playthrough formats a float32 tensor that is not all 0/1 with numpy's vectorized
    round instead of ``str(round(v, 5))`` on each numpy scalar (85% of a Resafa playthrough's time): the same
    text, which the tests check against OpenSpiel's own formatting. Not thread-safe (it swaps a module function)."""
    from open_spiel.python.algorithms import generate_playthrough as gp

    original = gp._format_tensor

    def format_tensor(tensor: np.ndarray, tensor_name: str, max_cols: int = 120) -> list[str]:
        if tensor.dtype == np.float32 and tensor.size and not np.logical_or(tensor == 0, tensor == 1).all():
            return ["{} = [{}]".format(tensor_name, ", ".join(map(str, np.round(tensor.ravel(), 5))))]
        return original(tensor, tensor_name, max_cols)

    gp._format_tensor = format_tensor
    try:
        yield
    finally:
        gp._format_tensor = original


def read(path: Path) -> str:
    """A playthrough file's text."""
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        return f.read()


def write(path: Path, text: str) -> None:
    """Write ``text`` gzip-compressed, the same bytes for the same text (no file name, mtime 0)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=9, mtime=0) as f:
        f.write(text.encode("utf-8"))
    Path(path).write_bytes(buffer.getvalue())


# --- checking ----------------------------------------------------------------------------------------------------


def playthrough_files(folder: Path) -> dict[tuple[str, str], list[tuple[int, Path]]]:
    """The playthrough files in ``folder`` by ``(game, label)``: ``(env version, path)`` each, oldest first."""
    out: dict[tuple[str, str], list[tuple[int, Path]]] = {}
    for path in sorted(Path(folder).glob(f"*{SUFFIX}")):
        m = NAME.match(path.name)
        if m:
            out.setdefault((m["game"], m["label"]), []).append((int(m["version"]), path))
    for found in out.values():
        found.sort()
    return out


def diff(old: str, new: str, old_name: str, new_name: str) -> str | None:
    """None if the texts are equal, else the first :data:`DIFF_LINES` lines of their unified diff (each cut at
    :data:`DIFF_WIDTH` characters)."""
    if old == new:
        return None
    lines = []
    for i, line in enumerate(difflib.unified_diff(old.splitlines(), new.splitlines(), old_name, new_name, lineterm="")):
        if i == DIFF_LINES:
            lines.append(f"... (cut at {DIFF_LINES} lines)")
            break
        lines.append(line if len(line) <= DIFF_WIDTH else f"{line[:DIFF_WIDTH]}... (+{len(line) - DIFF_WIDTH} chars)")
    return "\n".join(lines)


def check(case: Case, folder: Path) -> str | None:
    """None if ``folder`` holds ``case``'s file at the current env version and it equals a fresh generation; else
    what differs: the start of the unified diff (against the file of another version, if that is all there is)."""
    new = generate(case)
    name = case.file_name()
    path = Path(folder) / name
    if path.is_file():
        return diff(read(path), new, f"committed/{name}", f"generated/{name}")
    others = playthrough_files(folder).get(case.key, [])
    if not others:
        return f"no playthrough {name} in {folder}"
    version, old = others[-1]
    note = f"{case.game}: the committed playthrough is {old.name}, of env version v{version}, not v{case.version()}"
    return note + "\n" + (diff(read(old), new, f"committed/{old.name}", f"generated/{name}") or "(same text)")


def version_problems(folder: Path) -> list[str]:
    """One line per playthrough file in ``folder`` of an installed game whose env version is not its manifest's."""
    installed = set(games.game_names())
    problems = []
    for (game, _label), found in playthrough_files(folder).items():
        for version, path in found:
            if game in installed and version != games.manifest(game).version:
                now = games.manifest(game).version
                problems.append(
                    f"{game}: the playthrough {path.name} is of env version v{version}, the game is v{now}: "
                    f"{REGENERATE} {game}"
                )
    return problems


# --- regenerating ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """What regenerating did (or would do) to one file: ``name`` is the file now (None: a file of no case,
    removed); ``replaced`` the committed file it replaces (None: new); ``removed`` every file deleted."""

    game: str
    name: str | None
    replaced: str | None
    old_version: int | None
    new_version: int | None
    text_changed: bool
    removed: tuple[str, ...] = ()
    diff: str | None = None

    @property
    def version_changed(self) -> bool:
        return self.old_version is not None and self.new_version is not None and self.old_version != self.new_version

    def message(self) -> str:
        """One line for people: what changed, and whether the env version did."""
        if self.name is None:
            return f"{self.replaced}: no case lists it any more: removed"
        if self.replaced is None:
            return f"{self.name}: new"
        if self.version_changed:
            text = "text changed" if self.text_changed else "same text"
            versions = f"v{self.old_version} -> v{self.new_version}"
            return f"{self.name}: {self.game} env version {versions} ({text}), replaces {self.replaced}"
        if self.text_changed:
            return f"{self.name}: changed, same env version v{self.new_version}: {BUMP}"
        return f"{self.name}: removed older files {', '.join(self.removed)}"


def select(cases: Sequence[Case], names: Sequence[str]) -> list[Case]:
    """The cases ``names`` pick: a game's name (all its cases) or a playthrough file name (any env version);
    an unknown name raises ``ValueError``."""
    chosen: list[Case] = []
    for name in names:
        m = NAME.match(name)
        picked = [c for c in cases if c.game == name or (m is not None and c.key == (m["game"], m["label"]))]
        if not picked:
            known = ", ".join(sorted({c.game for c in cases} | {c.file_name() for c in cases}))
            raise ValueError(f"no playthrough case {name!r}; there are: {known}")
        chosen += [c for c in picked if c not in chosen]
    return chosen


def regenerate(
    folder: Path, names: Sequence[str] = (), write_files: bool = True, cases: Sequence[Case] | None = None
) -> list[Change]:
    """Regenerate the playthroughs of ``folder``'s cases (or those ``names`` picks, see :func:`select`) and return
    what changed. Writing (``write_files``), a changed file is rewritten, the files of other env versions of the
    same case are removed, and, when all cases are regenerated, so are the files of installed games no case lists."""
    folder = Path(folder)
    cases = load_cases(folder) if cases is None else list(cases)
    files = playthrough_files(folder)
    chosen = select(cases, names) if names else cases
    changes = [_regenerate(case, folder, files.get(case.key, []), write_files) for case in chosen]
    if not names:
        changes += _remove_stale(cases, files, write_files)
    return [c for c in changes if c is not None]


def _regenerate(case: Case, folder: Path, found: list[tuple[int, Path]], write_files: bool) -> Change | None:
    name, version = case.file_name(), case.version()
    text = generate(case)
    current = [path for v, path in found if v == version]
    previous = current[0] if current else (found[-1][1] if found else None)
    old_version = None if previous is None else int(NAME.match(previous.name)["version"])
    old_text = None if previous is None else read(previous)
    others = tuple(path for _v, path in found if path.name != name)
    if old_text == text and previous is not None and previous.name == name and not others:
        return None
    change = Change(
        case.game,
        name,
        None if previous is None else previous.name,
        old_version,
        version,
        old_text != text,
        tuple(p.name for p in others),
        None if old_text is None else diff(old_text, text, f"committed/{previous.name}", f"generated/{name}"),
    )
    if write_files:
        if old_text != text or previous is None or previous.name != name:
            write(folder / name, text)
        for path in others:
            path.unlink()
    return change


def _remove_stale(cases: Sequence[Case], files: Mapping[tuple[str, str], list], write_files: bool) -> list[Change]:
    installed, keys = set(games.game_names()), {c.key for c in cases}
    out = []
    for key, found in files.items():
        if key[0] in installed and key not in keys:
            for version, path in found:
                out.append(Change(key[0], None, path.name, version, None, True, (path.name,)))
                if write_files:
                    path.unlink()
    return out


__all__ = [
    "CASES_FILE",
    "REGENERATE",
    "Case",
    "Change",
    "check",
    "diff",
    "generate",
    "load_cases",
    "numpy_float_formatting",
    "playthrough_files",
    "read",
    "regenerate",
    "select",
    "version_problems",
    "write",
]
