"""Where scripts come from: a file, a directory (matched by relative path), a git ref, or
``{id: text}`` given in Python.

A :class:`ScriptSource` maps relative paths to a loader; loading a file that is missing,
binary or not UTF-8 raises :class:`~parsescore.core.errors.InputError` for that file only, so a
dataset run reports it and goes on. Its ``loader`` also reads the other files of the source's
root (a PlantUML ``!include``), never a file outside it. Git is read with real ``git``
(``ls-tree`` / ``show`` through ``subprocess``), as the paper's set-up has ground truth on one
branch and each model on another.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from parsescore.core.errors import InputError
from parsescore.core.files import decode_text, read_text
from parsescore.sequence.read import SUFFIXES

__all__ = [
    "ScriptSource",
    "directory_source",
    "file_source",
    "git_source",
    "path_source",
    "text_source",
]


def decode_script(data: bytes, path: str) -> str:
    """Bytes of a script as text: binary or non-UTF-8 content is an InputError naming it."""
    return decode_text(data, path)


@dataclass(frozen=True)
class ScriptSource:
    """A named set of scripts keyed by relative POSIX path.

    Attributes:
        name: how reports call it (a directory name, a file name or a git ref).
        paths: relative paths, sorted.
        loader: root-relative POSIX path → text (the scripts, and files they include).
        single_file: a lone file (matched with the other side's lone file whatever its name;
            its root is its folder).
        origin: what was given, as messages name it (a path, a git ref of a repository).
        locate: root-relative path → how an error names that script (default: the path).
        include_loader: root-relative path → text of a file a script includes (default:
            ``loader``); on disk, only a file whose real path (symbolic links followed) is
            inside the root.
    """

    name: str
    paths: tuple[str, ...]
    loader: Callable[[str], str]
    single_file: bool = False
    origin: str = ""
    locate: Callable[[str], str] | None = None
    include_loader: Callable[[str], str] | None = None

    def read(self, relative: str) -> str:
        return self.loader(relative)

    def read_include(self, relative: str) -> str:
        """The text of a file that a script of this source includes (see ``include_loader``)."""
        return (self.include_loader or self.loader)(relative)

    def where(self, relative: str) -> str:
        """How an error names the script ``relative`` (its path on disk, ``ref:path``...)."""
        return self.locate(relative) if self.locate is not None else relative


def _is_script(name: str) -> bool:
    return name.lower().endswith(SUFFIXES)


def _under(root: Path, relative: str) -> str:
    """The text of ``root / relative``; a path whose real path (every symbolic link followed,
    ``..`` resolved) is not inside the root's real path is an InputError, never read."""
    target = Path(os.path.realpath(root / relative))
    if not target.is_relative_to(os.path.realpath(root)):
        raise InputError(
            "is outside the dataset's root once symbolic links are followed: not read",
            path=root / relative,
        )
    return read_text(target)


def file_source(path: Path) -> ScriptSource:
    """One file (its folder is the root its includes may read); read only when scored."""
    return ScriptSource(
        path.stem,
        (path.name,),
        lambda rel: read_text(path) if rel == path.name else _under(path.parent, rel),
        single_file=True,
        origin=str(path),
        locate=lambda rel: str(path if rel == path.name else path.parent / rel),
        include_loader=lambda rel: _under(path.parent, rel),
    )


def directory_source(root: Path) -> ScriptSource:
    """Every PlantUML or Mermaid script under ``root`` (recursively), keyed by relative path."""
    paths = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and _is_script(p.name)
    )
    listed = frozenset(paths)
    return ScriptSource(
        root.name or str(root),
        tuple(paths),
        lambda rel: read_text(root / rel) if rel in listed else _under(root, rel),
        origin=str(root),
        locate=lambda rel: str(root / rel),
        include_loader=lambda rel: _under(root, rel),
    )


def text_source(texts: Mapping[str, str], name: str) -> ScriptSource:
    """Scripts given as ``{id: text}`` (in that order), as :func:`parsescore.evaluate` takes
    them: each id is a relative path (matched without its suffix, so ``"a"`` pairs with
    ``"a.puml"``); an ``!include`` may name another id. ``name`` says which side it is."""
    scripts: dict[str, str] = {}
    for key, text in texts.items():
        if not isinstance(key, str) or not key:
            raise InputError(f"{name}: every id must be a non-empty string, got {key!r}")
        if not isinstance(text, str):
            raise InputError(
                f"{name}[{key!r}]: expected the script's text, got a {type(text).__name__}"
            )
        scripts[key] = text

    def load(relative: str) -> str:
        if relative not in scripts:
            raise InputError(f"no script {relative!r} among the {name} texts")
        return scripts[relative]

    return ScriptSource(name, tuple(scripts), load, origin=f"the {name} texts")


def path_source(path: Path) -> ScriptSource:
    """A file or a directory; a missing path is an InputError."""
    if path.is_dir():
        return directory_source(path)
    if path.is_file():
        return file_source(path)
    raise InputError("no such file or directory", path=path)


def _git(repo: Path, *args: str) -> bytes:
    git = shutil.which("git")
    if git is None:
        raise InputError("git is not installed (needed for --repo)", path=repo)
    result = subprocess.run([git, "-C", str(repo), *args], capture_output=True, check=False)
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(
            f"git {' '.join(args[:2])} failed: {message[-1] if message else 'unknown error'}",
            path=repo,
        )
    return result.stdout


def git_source(repo: Path, ref: str) -> ScriptSource:
    """The PlantUML and Mermaid scripts of ``ref`` in ``repo`` (an unknown ref is an
    InputError)."""
    if not repo.is_dir():
        raise InputError("no such repository directory", path=repo)
    try:
        _git(repo, "rev-parse", "--git-dir")
    except InputError:
        raise InputError("not a git repository", path=repo) from None
    try:
        _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except InputError:
        raise InputError(f"unknown git ref {ref!r}", path=repo) from None
    listing = _git(repo, "ls-tree", "-r", "-z", "--name-only", ref)
    paths = sorted(
        name.decode("utf-8", "surrogateescape")
        for name in listing.split(b"\0")
        if name and _is_script(name.decode("utf-8", "surrogateescape"))
    )

    def load(relative: str) -> str:
        data = _git(repo, "show", f"{ref}:{PurePosixPath(relative).as_posix()}")
        return decode_script(data, f"{ref}:{relative}")

    return ScriptSource(
        ref, tuple(paths), load, origin=f"{ref} of {repo}", locate=lambda rel: f"{ref}:{rel}"
    )
