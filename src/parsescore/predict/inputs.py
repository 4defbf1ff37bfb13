"""What ``parsescore predict`` reads: the image folder, captions and prompt templates."""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

from parsescore.core.errors import InputError
from parsescore.core.files import load_json, max_file_bytes, read_text

__all__ = [
    "IMAGE_SUFFIXES",
    "Image",
    "caption_for",
    "default_prompt",
    "find_images",
    "load_captions",
    "render_prompt",
]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"))


@dataclass(frozen=True)
class Image:
    """One input image: its file, output stem, media type (from its bytes) and content hash."""

    path: Path
    stem: str
    media_type: str
    sha256: str

    def read(self) -> bytes:
        return self.path.read_bytes()


def _media_type(path: Path, head: bytes) -> str:
    for magic, media_type in _MAGIC:
        if head.startswith(magic):
            return media_type
    raise InputError(
        f"not a PNG or JPEG image (it starts with bytes {head[:8].hex(' ')}); expected the PNG "
        "signature 89 50 4e 47 or the JPEG one ff d8 ff",
        path=path,
    )


def find_images(folder: Path) -> list[Image]:
    """The PNG and JPEG files directly in ``folder``, by name.

    The media type comes from the file's first bytes, not its suffix, so a JPEG saved as
    ``.png`` is still sent as ``image/jpeg``. Two images with one stem would write one
    prediction file, so they are refused.
    """
    if not folder.is_dir():
        raise InputError("--images should be a folder of .png/.jpg/.jpeg files", path=folder)
    paths = sorted(
        p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
    )
    if not paths:
        raise InputError(
            f"no images found (looked for {', '.join(IMAGE_SUFFIXES)} files directly in it)",
            path=folder,
        )
    images: list[Image] = []
    by_stem: dict[str, Path] = {}
    for path in paths:
        if path.stem in by_stem:
            raise InputError(
                f"{by_stem[path.stem].name} and {path.name} would both be predicted as "
                f"{path.stem!r}; rename one",
                path=folder,
            )
        by_stem[path.stem] = path
        size, limit = path.stat().st_size, max_file_bytes()
        if size > limit:
            raise InputError(
                f"image of {size / 1e6:.1f} MB is larger than the limit of {limit // 1_000_000} "
                "MB (PARSESCORE_MAX_FILE_MB)",
                path=path,
            )
        data = path.read_bytes()
        images.append(
            Image(path, path.stem, _media_type(path, data[:16]), hashlib.sha256(data).hexdigest())
        )
    return images


def load_captions(path: Path) -> dict[str, str]:
    """Captions by image file name or stem: a JSON object, or a CSV with ``image,caption``."""
    if path.suffix.lower() == ".json":
        data = load_json(path)
        if not isinstance(data, dict):
            raise InputError(
                'expected a JSON object {"<image name or stem>": "<caption>", ...}', path=path
            )
        for name, caption in data.items():
            if not isinstance(caption, str):
                raise InputError(
                    f"expected a string caption, found {type(caption).__name__}",
                    path=path,
                    where=f"key {name!r}",
                )
        return dict(data)
    reader = csv.DictReader(io.StringIO(read_text(path)))
    if reader.fieldnames is None or not {"image", "caption"} <= set(reader.fieldnames):
        raise InputError(
            f"expected a CSV header with columns image,caption; found {reader.fieldnames}",
            path=path,
            where="line 1",
        )
    captions: dict[str, str] = {}
    for row in reader:
        name = (row["image"] or "").strip()
        if not name:
            raise InputError("empty image name", path=path, where=f"line {reader.line_num}")
        if name in captions:
            raise InputError(
                f"image {name!r} has two captions", path=path, where=f"line {reader.line_num}"
            )
        captions[name] = row["caption"] or ""
    return captions


def caption_for(image: Image, captions: dict[str, str]) -> str | None:
    """An image's caption, looked up by file name, then by stem."""
    return captions.get(image.path.name, captions.get(image.stem))


def default_prompt(kind: str, format: str | None = None) -> str:
    """The bundled prompt template of a kind (its package's ``prompt.txt``; docs/predict.md)."""
    from parsescore.predict.answers import predict_parts

    return predict_parts(kind, format).prompt()


def render_prompt(template: str, *, caption: str, stem: str) -> str:
    """Fill ``{caption}`` and ``{stem}``; other braces stay as written (prompts show JSON)."""
    return template.replace("{caption}", caption).replace("{stem}", stem)
