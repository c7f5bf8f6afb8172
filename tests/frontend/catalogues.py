"""Reading the .po catalogues in tests (no gettext tools needed), and the English that must not show."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Entry:
    context: str | None
    msgid: str
    plural: str | None
    msgstrs: list[str]
    fuzzy: bool


PO_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: PO_ESCAPES.get(m.group(1), m.group(0)), text.strip()[1:-1])


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (obsolete ones left out), header included as the first."""
    entries = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        lines = [line for line in block.strip().split("\n") if line and not line.startswith("#~")]
        if not any(line.startswith("msgid") for line in lines):
            continue
        fields: dict[str, str] = {}
        key = ""
        fuzzy = False
        for line in lines:
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if line.startswith("#"):
                continue
            match = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
            if match:
                key = match.group(1)
                fields[key] = _unquote(match.group(2))
            else:
                fields[key] += _unquote(line.strip())
        msgstrs = [value for name, value in sorted(fields.items()) if name.startswith("msgstr")]
        entries.append(
            Entry(fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"), msgstrs, fuzzy)
        )
    return entries


def catalogue(language: str, domain: str, root: Path = ROOT) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def english_only_phrases(language: str) -> set[tuple[str, ...]]:
    """The English of the interface that has no place on a page in ``language``.

    Every msgid (and plural) translated differently, cut at its placeholders into runs of words;
    a run is kept when one of its words (three letters or more) is not a word of the language's
    translations (which leaves out names, card notation and words both languages share, such as
    "round" in Tagalog or "total" in Kreyòl).
    """
    entries = [e for domain in ("django", "djangojs") for e in read_po(catalogue(language, domain))[1:]]
    vocabulary = {w.lower() for e in entries for text in e.msgstrs for w in WORD.findall(text)}
    phrases = set()
    for entry in entries:
        if all(text == entry.msgid for text in entry.msgstrs):
            continue
        for source in filter(None, (entry.msgid, entry.plural)):
            for part in PLACEHOLDER.split(source):
                words = tuple(WORD.findall(part))
                if any(len(w) > 2 and w.lower() not in vocabulary for w in words):
                    phrases.add(words)
    return phrases


@functools.cache
def _phrase_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    # Compiled once per phrase: some 1,700 phrases a language, far more than re's own cache keeps.
    return re.compile(r"(?<![\w])" + r"\W+".join(map(re.escape, words)) + r"(?![\w])")


def english_on_page(text: str, phrases: set[tuple[str, ...]]) -> list[str]:
    return sorted(" ".join(words) for words in phrases if _phrase_pattern(words).search(text))
