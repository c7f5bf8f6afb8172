"""The platform in English, Kreyòl ayisyen and Tagalog.

(a) No user-facing text escapes translation: every template and JavaScript module is scanned for
    visible text that is not inside a translate tag or a gettext call.
(b) The ht and tl catalogues are complete: no empty or fuzzy entry, every string makemessages finds
    is in them (run into a copy of the sources), and the committed .mo files match the .po files.
(c) The pages, errors, dates and numbers come out in the reader's language, which comes from the
    browser, the switcher, or a signed-in player's profile.
"""

from __future__ import annotations

import datetime
import gettext
import html
import html.parser
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import formats, translation

from frontend.models import Profile
from games.errors import ServiceError
from games.models import Game
from tests.frontend.catalogues import Entry, catalogue, english_on_page, english_only_phrases, read_po

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("ht", "tl")
DOMAINS = ("django", "djangojs")
IN_CI = os.environ.get("CI", "").lower() == "true"


def _need_gettext() -> None:
    missing = [tool for tool in ("xgettext", "msgmerge", "msgfmt") if not shutil.which(tool)]
    if missing:
        why = f"GNU gettext is missing ({', '.join(missing)}): bin/test installs it when run as root"
        if IN_CI:
            pytest.fail(why, pytrace=False)
        pytest.skip(why)


# ---------------------------------------------------------------------------------------------------
# (a) The scan for text that escapes translation
# ---------------------------------------------------------------------------------------------------

# Templates in every app's templates folder (tournaments/templates included, for the pages to come).
TEMPLATE_DIRS = sorted(p for p in ROOT.glob("*/templates") if p.is_dir() and p.parent.name != "tests")
# JavaScript modules in every app's static folder.
STATIC_DIRS = sorted(p for p in ROOT.glob("*/static") if p.is_dir())

# The rules are translated as whole pages (rules/GAME_body.LANG.html), not sentence by sentence.
RULES_BODY = re.compile(r"rules/[a-z]+_body(\.[a-z]{2,3})?\.html$")

# Attributes a reader sees or hears.
DISPLAY_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description", "label"}
LETTERS = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
# Visible text that needs no translation: names of the games and of the site (the same in every
# language), card and tile notation, signs.
ALLOWED_TEXT = {"Tablehall", "Skyjo", "Kazino", "Pitch"}


@dataclass
class Finding:
    path: Path
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.text!r}"


def _line_of(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


def _blank(match: re.Match[str]) -> str:
    """Blank a template construct out, keeping its line breaks so that line numbers stay right."""
    return re.sub(r"[^\n]", " ", match.group(0))


TEMPLATE_TRANSLATED = [
    re.compile(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S),
    re.compile(r"\{#.*?#\}", re.S),
    re.compile(r"\{%\s*blocktrans(?:late)?\b.*?%\}.*?\{%\s*endblocktrans(?:late)?\s*%\}", re.S),
    re.compile(r"\{%\s*trans(?:late)?\s.*?%\}", re.S),
    # Blocks that fill an attribute in the base template (the body's class names), not text.
    re.compile(r"\{%\s*block\s+\w*class\w*\s*%\}.*?\{%\s*endblock", re.S),
]
TEMPLATE_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
SCRIPT = re.compile(r"(<script\b[^>]*>)(.*?)(</script>)", re.S | re.I)
STYLE = re.compile(r"<style\b[^>]*>.*?</style>", re.S | re.I)


class _VisibleText(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        attributes = dict(attrs)
        for name, value in attrs:
            if value and name in DISPLAY_ATTRIBUTES:
                self.found.append((line, value))
        if (
            tag == "input"
            and attributes.get("type") in ("submit", "button", "reset")
            and attributes.get("value")
        ):
            self.found.append((line, attributes["value"] or ""))

    def handle_data(self, data: str) -> None:
        self.found.append((self.getpos()[0], data))


def _needs_translation(text: str) -> bool:
    text = text.strip()
    if not LETTERS.search(text):
        return False
    return text not in ALLOWED_TEXT


def untranslated_template_text(path: Path) -> list[Finding]:
    source = path.read_text(encoding="utf-8")
    findings: list[Finding] = []
    for script in SCRIPT.finditer(source):
        offset = script.start(2)
        for finding in untranslated_js(path, script.group(2)):
            findings.append(Finding(path, finding.line + _line_of(source, offset) - 1, finding.text))
    text = SCRIPT.sub(lambda m: m.group(1) + re.sub(r"[^\n]", " ", m.group(2)) + m.group(3), source)
    text = STYLE.sub(_blank, text)
    for pattern in TEMPLATE_TRANSLATED:
        text = pattern.sub(_blank, text)
    text = TEMPLATE_CODE.sub(_blank, text)
    if path.suffix == ".txt":  # e-mails and other plain-text templates: all of it is read
        return findings + [
            Finding(path, n, line) for n, line in enumerate(text.split("\n"), 1) if _needs_translation(line)
        ]
    parser = _VisibleText()
    parser.feed(text)
    parser.close()
    return findings + [
        Finding(path, line, value.strip()) for line, value in parser.found if _needs_translation(value)
    ]


# --- JavaScript: a small tokenizer (comments, strings, template literals, regular expressions) -------


@dataclass
class Literal:
    start: int
    end: int
    text: str  # template literals: the fixed parts, with "${}" where an expression goes
    opener: str  # the innermost bracket around it: "(", "{", "[" or "" (none)
    opener_at: int
    segment_start: int  # just after the opener or the last comma before the literal at that level
    argument: int  # which comma-separated item of the bracket the literal is in


REGEX_MAY_FOLLOW = set("(,=:[!&|?{};+-*%<>~^") | {""}


def js_literals(source: str) -> list[Literal]:
    literals: list[Literal] = []
    stack: list[list[int | str]] = []  # [char, position, commas, last comma position]
    i = 0
    n = len(source)
    last_significant = ""

    def context() -> tuple[str, int, int, int]:
        if not stack:
            return "", -1, 0, 0
        char, at, commas, last_comma = stack[-1]
        return str(char), int(at), int(last_comma) + 1, int(commas)

    def read_string(i: int, quote: str) -> tuple[int, str]:
        j = i + 1
        out = []
        while j < n and source[j] != quote:
            if source[j] == "\\":
                out.append(source[j : j + 2])
                j += 2
                continue
            out.append(source[j])
            j += 1
        return j + 1, "".join(out)

    def read_template(i: int) -> tuple[int, str]:
        j = i + 1
        out = []
        while j < n and source[j] != "`":
            if source[j] == "\\":
                out.append(source[j : j + 2])
                j += 2
            elif source.startswith("${", j):
                depth = 1
                k = j + 2
                while k < n and depth:
                    if source[k] in "'\"":
                        k, _ = read_string(k, source[k])
                        continue
                    if source[k] == "`":
                        k, _ = read_template(k)
                        continue
                    depth += {"{": 1, "}": -1}.get(source[k], 0)
                    k += 1
                # Literals inside the expression are found by scanning it on its own.
                inner = source[j + 2 : k - 1]
                for literal in js_literals(inner):
                    literals.append(
                        Literal(
                            literal.start + j + 2,
                            literal.end + j + 2,
                            literal.text,
                            literal.opener,
                            literal.opener_at + j + 2,
                            literal.segment_start + j + 2,
                            literal.argument,
                        )
                    )
                out.append("${}")
                j = k
            else:
                out.append(source[j])
                j += 1
        return j + 1, "".join(out)

    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        if source.startswith("/*", i):
            i = source.find("*/", i + 2)
            i = n if i < 0 else i + 2
            continue
        if c in "'\"`":
            opener, at, segment_start, commas = context()
            end, text = read_template(i) if c == "`" else read_string(i, c)
            literals.append(Literal(i, end, text, opener, at, max(segment_start, at + 1), commas))
            i = end
            last_significant = "a"
            continue
        if c == "/" and last_significant in REGEX_MAY_FOLLOW:
            j = i + 1
            in_class = False
            while j < n and (source[j] != "/" or in_class) and source[j] != "\n":
                if source[j] == "\\":
                    j += 2
                    continue
                in_class = (in_class or source[j] == "[") and source[j] != "]"
                j += 1
            i = j + 1
            last_significant = "a"
            continue
        if c in "([{":
            stack.append([c, i, 0, i])
        elif c in ")]}":
            if stack:
                stack.pop()
        elif c == "," and stack:
            stack[-1][2] = int(stack[-1][2]) + 1
            stack[-1][3] = i
        if not c.isspace():
            last_significant = c if not (c.isalnum() or c in "_$") else "a"
            # A keyword such as "return" may be followed by a regular expression.
            if c.isalnum():
                word = re.match(r"[\w$]+", source[i:])
                if word and word.group(0) in ("return", "typeof", "case", "in", "of"):
                    last_significant = ""
                    i += len(word.group(0))
                    continue
        i += 1
    return sorted(literals, key=lambda literal: literal.start)


GETTEXT_ARGUMENTS = {
    "gettext": {0},
    "ngettext": {0, 1},
    "pgettext": {0, 1},
    "npgettext": {0, 1, 2},
    "gettext_noop": {0},
}
# Calls whose arguments become visible text: the DOM's own, and the table modules' element helpers
# (skyjo.js el(tag, class, text); dominoes.js html(tag, attrs, ...children) and svg(...); the
# button(class, label, ...) of skyjo, kazino and pitch; labelled(node, caption); backs(n, label);
# dominoes' actionButton(action, ctx, label, name)).
TEXT_ARGUMENTS: dict[str, set[int] | str] = {
    "el": {2},
    "html": "from 2",
    "svg": "from 2",
    "button": {1},
    "labelled": {1},
    "backs": {1},
    "actionButton": {2},
    "confirm": {0},
    "alert": {0},
    "prompt": {0, 1},
    "append": "from 0",
    "prepend": "from 0",
    "replaceChildren": "from 0",
    "createTextNode": {0},
    "insertAdjacentText": {1},
    "insertAdjacentHTML": {1},
    "showError": {0},
}
DISPLAY_KEYS = {
    "text",
    "textContent",
    "innerText",
    "innerHTML",
    "title",
    "aria-label",
    "placeholder",
    "alt",
    "label",
}
DISPLAY_ASSIGNMENT = re.compile(
    r"\.(textContent|innerText|innerHTML|outerHTML|title|placeholder|alt|ariaLabel)\s*\+?=\s*[^;]*$"
)
COMPARISON = re.compile(r"(===|!==|==|!=)\s*$")
COMPARED = re.compile(r"^\s*(===|!==|==|!=|in\b|\])")
ALLOWED_LITERALS = {"use strict"}


def _is_prose(text: str) -> bool:
    """A sentence or phrase (several words, capitalised or ending like a sentence), not code."""
    plain = re.sub(r"\$\{\}|%\(\w+\)s", "", text).strip()
    words = re.findall(r"[A-Za-z]+", plain)
    if len(words) < 2 or " " not in plain or re.search(r"[-_#\[\]=<>{}/\\@$]", plain):
        return False
    return plain[0].isupper() or plain[-1] in ".!?…"


def untranslated_js(path: Path, source: str) -> list[Finding]:
    findings = []
    for literal in js_literals(source):
        text = literal.text
        if (
            not LETTERS.search(re.sub(r"\$\{\}", "", text))
            or text in ALLOWED_LITERALS
            or text in ALLOWED_TEXT
        ):
            continue
        before = source[: literal.start]
        callee_match = (
            re.search(r"([\w$]+)\s*$", source[: literal.opener_at]) if literal.opener == "(" else None
        )
        callee = callee_match.group(1) if callee_match else ""
        if literal.opener == "(" and literal.argument in GETTEXT_ARGUMENTS.get(callee, set()):
            continue
        if COMPARISON.search(before) or COMPARED.match(source[literal.end :]):
            continue  # a value compared with, or a key: not shown
        segment = source[literal.segment_start : literal.start]
        shown = False
        if literal.opener == "(" and callee in TEXT_ARGUMENTS:
            wanted = TEXT_ARGUMENTS[callee]
            if isinstance(wanted, str):
                shown = literal.argument >= int(wanted.split()[-1])
            else:
                shown = literal.argument in wanted
            if callee == "setAttribute":
                shown = False
        if literal.opener == "(" and callee == "setAttribute" and literal.argument == 1:
            name = re.match(r"\(\s*[\"']([\w-]+)[\"']", source[literal.opener_at :])
            shown = bool(name and name.group(1) in DISPLAY_ATTRIBUTES)
        if literal.opener == "{":
            key = re.match(r"\s*([\"']?)([\w-]+)\1\s*:", segment)
            shown = bool(key and key.group(2) in DISPLAY_KEYS)
        if DISPLAY_ASSIGNMENT.search(segment):
            shown = True
        if shown or _is_prose(text):
            findings.append(Finding(path, _line_of(source, literal.start), text))
    return findings


def _templates() -> list[Path]:
    return sorted(p for d in TEMPLATE_DIRS for p in d.rglob("*") if p.suffix in (".html", ".txt"))


def _scripts() -> list[Path]:
    return sorted(p for d in STATIC_DIRS for p in d.rglob("*.js"))


def test_the_scan_covers_every_template_folder_and_script():
    assert ROOT / "frontend" / "templates" in TEMPLATE_DIRS
    names = {p.name for p in _templates()}
    assert {"base.html", "table.html", "home.html", "new_table.html", "login.html"} <= names
    assert {"table.js", "skyjo.js", "dominoes.js", "kazino.js", "pitch.js", "numbers.js"} <= {
        p.name for p in _scripts()
    }


def test_every_template_has_its_visible_text_marked_for_translation():
    findings = [
        finding
        for path in _templates()
        if not RULES_BODY.search(path.as_posix())
        for finding in untranslated_template_text(path)
    ]
    assert not findings, "text not marked for translation:\n" + "\n".join(map(str, findings))


def test_every_javascript_module_has_its_visible_text_marked_for_translation():
    findings = [f for path in _scripts() for f in untranslated_js(path, path.read_text(encoding="utf-8"))]
    assert not findings, "text not marked for translation (use gettext):\n" + "\n".join(map(str, findings))


def test_every_rules_page_exists_in_each_language():
    bodies = sorted((ROOT / "frontend/templates/frontend/rules").glob("*_body.html"))
    assert len(bodies) == 4
    for body in bodies:
        english_id = re.search(r'<section[^>]* id="([\w-]+)"', body.read_text()).group(1)  # type: ignore[union-attr]
        for language in LANGUAGES:
            page = body.with_name(body.name.replace(".html", f".{language}.html"))
            assert page.exists(), f"{page.name} is missing: write the rules in that language"
            text = page.read_text(encoding="utf-8")
            assert f'id="{english_id}"' in text and f'lang="{language}"' in text


# The scanner itself, on what it must catch and what it must let through.


@pytest.mark.parametrize(
    "snippet",
    [
        'node.textContent = "Your turn";',
        'el("p", "sk-info", "Draw a card")',
        'el("span", "kz-tag", { text: "Dealer" })',
        'button.setAttribute("aria-label", "Draw pile");',
        'html("button", { type: "button" }, "Pass")',
        'if (window.confirm("Start again?")) go();',
        'return "Your cards are hidden.";',
        'const label = cond ? `Waiting for ${name}` : gettext("Go");',
        'Object.assign(document.createElement("li"), { textContent: "Nothing" })',
    ],
)
def test_the_scan_catches_text_left_in_english(snippet):
    assert untranslated_js(ROOT / "x.js", snippet), snippet


@pytest.mark.parametrize(
    "snippet",
    [
        'node.textContent = gettext("Your turn");',
        'el("p", "sk-info sk-big", interpolate(gettext("Round %(n)s"), { n }, true))',
        'el("span", "kz-tag", { text: ngettext("%(n)s card", "%(n)s cards", n), "data-x": "abc" })',
        'html("span", { class: "dom-chip dom-total" }, String(total))',
        'if (event.key === "ArrowRight") step();',
        'if (view.phase === "opening") go(); const kind = { reveal: "reveal" }[type];',
        'document.querySelector("button:not(#confirm), [role=button]")',
        'const pattern = /^"quoted"$/; const s = "text/html";',
        'pgettext("the number of a game in the match", "Game")',
        'el("span", "kz-pip", { text: SUIT_SIGN[suitOf(card)], "aria-hidden": "true" })',
    ],
)
def test_the_scan_lets_code_and_marked_text_through(snippet):
    assert not untranslated_js(ROOT / "x.js", snippet), snippet


def test_the_scan_catches_template_text_outside_translate_tags(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(
        '{% load i18n %}<h1>{% translate "Hello" %}</h1>\n<p title="Tip">Plain words</p>\n'
        "{# a comment #}<p>{% blocktranslate %}Hi {{ name }}{% endblocktranslate %} #{{ n }}</p>\n"
        '<script>el("p", "x", "Loose");</script>'
    )
    found = {f.text for f in untranslated_template_text(page)}
    assert found == {"Tip", "Plain words", "Loose"}


# ---------------------------------------------------------------------------------------------------
# (b) Complete catalogues
# ---------------------------------------------------------------------------------------------------


def _unfinished(entries: list[Entry]) -> list[str]:
    return [repr(e.msgid) for e in entries[1:] if e.fuzzy or not e.msgstrs or any(not s for s in e.msgstrs)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalogue_is_complete_with_nothing_fuzzy(language, domain):
    entries = read_po(catalogue(language, domain))
    header = entries[0].msgstrs[0]
    assert f"Language: {language}\n" in header and "nplurals=2" in header
    assert not entries[0].fuzzy
    assert len(entries) > 50
    unfinished = _unfinished(entries)
    assert not unfinished, f"{language}/{domain}.po: translate these (then bin/messages):\n" + "\n".join(
        unfinished
    )


@pytest.mark.processes
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_matches_its_source(language, domain, tmp_path):
    _need_gettext()
    po = catalogue(language, domain)
    fresh = tmp_path / "fresh.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True, capture_output=True)
    with fresh.open("rb") as a, po.with_suffix(".mo").open("rb") as b:
        compiled = gettext.GNUTranslations(a)._catalog  # type: ignore[attr-defined]
        committed = gettext.GNUTranslations(b)._catalog  # type: ignore[attr-defined]
    assert compiled == committed, f"{po.with_suffix('.mo').relative_to(ROOT)} is stale: run bin/messages"


@pytest.mark.processes
def test_makemessages_finds_no_string_missing_from_the_catalogues(tmp_path):
    """makemessages, run on a copy of the sources, adds nothing that is not translated already."""
    _need_gettext()
    copy = tmp_path / "src"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "var",
            "tests",
            "test-results",
            ".*cache",
            ".hypothesis",
            "__pycache__",
            "*.egg-info",
        ),
    )
    # Settings that write the catalogues into the copy, never into the checkout.
    (copy / "copy_settings.py").write_text(
        "from pathlib import Path\nfrom infra.settings import *  # noqa: F403\n"
        "LOCALE_PATHS = [Path(__file__).resolve().parent / 'locale']\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "copy_settings",
        "PYTHONPATH": str(copy),
        "VAR_DIR": str(tmp_path / "var"),
    }
    before = {p: p.stat().st_mtime_ns for p in (ROOT / "locale").rglob("*.po")}
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, "-l", "ht", "-l", "tl"],
            cwd=copy,
            env=env,
            check=True,
            capture_output=True,
        )
    assert before == {p: p.stat().st_mtime_ns for p in (ROOT / "locale").rglob("*.po")}
    for language in LANGUAGES:
        for domain in DOMAINS:
            found = read_po(catalogue(language, domain, copy))
            known = {(e.context, e.msgid) for e in read_po(catalogue(language, domain))}
            new = [repr(e.msgid) for e in found[1:] if (e.context, e.msgid) not in known]
            assert not new, (
                f"{language}/{domain}: new strings, run bin/messages and translate:\n" + "\n".join(new)
            )
            unfinished = _unfinished(found)
            assert not unfinished, f"{language}/{domain}: untranslated after makemessages:\n" + "\n".join(
                unfinished
            )


def test_the_engines_error_sentences_are_in_the_catalogue():
    """The engines mark their sentences with their own no-op _(); makemessages picks them up."""
    msgids = {e.msgid for e in read_po(catalogue("ht", "django"))}
    assert "You must follow suit or play a trump: you hold a {suit}." in msgids  # pitch
    assert "{tile} does not match the {end} end, which shows {number}." in msgids  # dominoes
    assert "If you capture, you must take everything the card can take at that value." in msgids  # kazino
    assert "Cell {cell} is already face up: choose a hidden card." in msgids  # skyjo


# ---------------------------------------------------------------------------------------------------
# (c) The pages, errors, dates and numbers in each language
# ---------------------------------------------------------------------------------------------------

pages_db = pytest.mark.django_db


@pages_db
@pytest.mark.parametrize(
    ("language", "expected", "english"),
    [
        ("ht", ["Tab kat ak domino pou klib ou", "Louvri yon nouvo tab", "Règ yo"], "Card and domino tables"),
        (
            "tl",
            ["Mga mesa ng baraha at domino para sa inyong club", "Maglaro", "Mga tuntunin"],
            "Start a new table",
        ),
    ],
)
def test_the_lobby_follows_the_browser_language(client, language, expected, english):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5").content.decode()
    assert f'<html lang="{language}">' in page
    for text in expected:
        assert text in page
    assert english not in page


@pages_db
@pytest.mark.parametrize(
    ("language", "game", "expected"),
    [
        (
            "ht",
            "kazino",
            ["Nouvo tab : Kazino", "Òdinatè (fasil)", "Yon sèl pati, revanj apre", "Kòmanse tab la"],
        ),
        ("tl", "dominoes", ["Bagong mesa: Domino", "Harang", "Bunot", "Lahat Lima", "Kompyuter (madali)"]),
        ("tl", "pitch", ["Bagong mesa: Pitch", "Laro hanggang", "Ibang manlalaro sa device na ito"]),
        ("ht", "skyjo", ["Nouvo tab : Skyjo", "Pati a fini lè yon moun rive nan"]),
    ],
)
def test_the_new_table_form_is_translated(client, language, game, expected):
    page = client.get(f"/new/{game}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for text in expected:
        assert text in page


@pages_db
@pytest.mark.parametrize(
    ("language", "game", "expected", "english"),
    [
        ("ht", "kazino", ["Règ Kazino", "mare", "tripe", "Ranmase", "règ pa nou"], "Capture as many cards"),
        ("ht", "skyjo", ["Règ Skyjo", "pil jete a", "talon an", "nwaye"], "The discard pile is public"),
        ("ht", "pitch", ["Règ Pitch", "lansè", "atou", "vòlè òf la"], "Scoring a hand"),
        ("ht", "dominoes", ["Règ Domino", "Tout Senk", "pivo"], "Winning at once"),
        (
            "tl",
            "dominoes",
            ["Mga tuntunin: Domino", "sangahan", "bunutan", "Lahat Lima", "aming tuntunin"],
            "The set",
        ),
        ("tl", "kazino", ["Mga tuntunin: Kazino", "mare", "tripe"], "Capture as many cards"),
        ("tl", "skyjo", ["Mga tuntunin: Skyjo", "tapunan", "bunutan"], "The discard pile is public"),
        ("tl", "pitch", ["Mga tuntunin: Pitch", "triunfo", "tawad"], "Scoring a hand"),
    ],
)
def test_the_rules_page_is_written_in_the_language(client, language, game, expected, english):
    page = client.get(f"/rules/{game}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'id="{game}-rules" lang="{language}"' in page
    for text in expected:
        assert text in page
    assert english not in page


@pages_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_of_the_interface_shows_in_the_translated_pages(client, language):
    phrases = english_only_phrases(language)
    assert ("Your", "turn") in phrases and ("Confirm",) in phrases
    for url in (
        "/",
        "/new/",
        "/new/dominoes/",
        "/new/kazino/",
        "/rules/skyjo/",
        "/rules/dominoes/",
        "/rules/kazino/",
        "/rules/pitch/",
        "/accounts/signup/",
    ):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        main = re.search(r"<main>(.*)</main>", page, re.S).group(1)  # type: ignore[union-attr]
        # A script's text is not shown (the rules pages' pictures carry their positions as JSON).
        main = re.sub(r"<script\b.*?</script>", " ", main, flags=re.S)
        text = html.unescape(re.sub(r"<[^>]+>", " ", main))
        assert not english_on_page(text, phrases), url


@pages_db
def test_the_rules_fall_back_to_english(client):
    page = client.get("/rules/kazino/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Capture as many cards" in page and 'id="kazino-rules"' in page
    from frontend.tables import rules_body

    assert rules_body("kazino", "fr") == [
        "frontend/rules/kazino_body.fr.html",
        "frontend/rules/kazino_body.html",
    ]


@pages_db
def test_every_page_has_the_language_switcher(client):
    for url in ("/", "/new/", "/new/pitch/", "/rules/skyjo/", "/accounts/login/", "/accounts/signup/"):
        page = client.get(url).content.decode()
        assert 'action="/i18n/setlang/"' in page and 'name="language"' in page, url


@pages_db
def test_the_switcher_sets_the_language_for_the_next_pages(client):
    response = client.post("/i18n/setlang/", {"language": "tl", "next": "/new/"})
    assert response.status_code == 302 and response["Location"] == "/new/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "tl"
    assert "Anong laro?" in client.get("/new/", HTTP_ACCEPT_LANGUAGE="ht").content.decode()


@pages_db
def test_a_signed_in_players_choice_is_saved_and_follows_them_to_another_device(client):
    user = get_user_model().objects.create_user("marie", password="kazino-27-cards")
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "ht", "next": "/"})
    assert Profile.objects.get(user=user).language == "ht"

    from django.test import Client

    phone = Client(HTTP_ACCEPT_LANGUAGE="en")  # another browser, in English
    phone.post("/accounts/login/", {"username": "marie", "password": "kazino-27-cards"})
    response = phone.get("/")
    assert "Tab kat ak domino pou klib ou" in response.content.decode()
    # The cookie follows, so the table socket and the device after signing out speak Kreyòl too.
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ht"


@pages_db
def test_signing_up_keeps_the_language_you_signed_up_in(client):
    page = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="tl").content.decode()
    assert "Gawin ang account ko" in page and "Kumpirmahin ang password" in page
    client.post(
        "/accounts/signup/",
        {"username": "jose", "password1": "domino-doble-sais", "password2": "domino-doble-sais"},
        HTTP_ACCEPT_LANGUAGE="tl",
    )
    assert Profile.objects.get(user__username="jose").language == "tl"


@pages_db
def test_form_errors_from_django_itself_are_translated(client):
    page = client.post(
        "/accounts/signup/",
        {"username": "ana", "password1": "abc", "password2": "abd"},
        HTTP_ACCEPT_LANGUAGE="ht",
    ).content.decode()
    assert "De modpas yo pa menm." in page
    assert "didn’t match" not in page


@pages_db
def test_a_refused_table_says_why_in_the_players_language(client):
    page = client.post(
        "/new/kazino/",
        {"players": "2", "seat0": "bot:greedy", "seat1": "bot:greedy"},
        HTTP_ACCEPT_LANGUAGE="ht",
    ).content.decode()
    assert "Pran omwen yon plas pou tèt ou." in page


@pages_db
@pytest.mark.parametrize(
    ("language", "rated", "casual", "no_hint"),
    [
        ("en", "Rated", "Casual", "There are no hints in rated games."),
        ("ht", "Ki konte", "Pou plezi", "Pa gen konsèy nan pati ki konte."),
        ("tl", "May rating", "Kaswal", "Walang pahiwatig sa mga larong may rating."),
    ],
)
def test_the_table_says_rated_or_casual_in_the_players_language(client, language, rated, casual, no_hint):
    from django.contrib.auth import get_user_model

    from games.commands.create import SeatSpec, create_game

    user = get_user_model().objects.create_user(f"pill-{language}")
    client.force_login(user)
    seats = [SeatSpec("me", user=user), SeatSpec("bot", bot_level="greedy")]
    tables = {kind: create_game("kazino", {"players": 2}, seats, kind=kind) for kind in ("rated", "casual")}
    for kind, word in (("rated", rated), ("casual", casual)):
        page = client.get(f"/tables/{tables[kind].pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'data-kind="{kind}"' in page and f">{word}</span>" in page, (language, kind)
    form = client.get("/new/kazino/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<strong>{rated}</strong>" in form and f"<strong>{casual}</strong>" in form
    refused = client.get(f"/tables/{tables['rated'].pk}/hint?seat=0", HTTP_ACCEPT_LANGUAGE=language).json()
    assert refused["error"] == {"code": "no_hint", "message": no_hint}


@pages_db
def test_computer_seats_are_kept_by_number_and_level_whatever_language_made_the_table(client):
    client.post(
        "/new/kazino/",
        {"players": "2", "match": "single", "seat0": "me", "seat1": "bot:greedy"},
        HTTP_ACCEPT_LANGUAGE="ht",
    )
    seats = list(Game.objects.get().seats.order_by("number"))
    assert [seat.display_name for seat in seats] == ["Guest 1", "Computer 2 (Easy)"]  # logs, exports
    assert (seats[0].name_role, seats[1].bot_level, seats[1].bot_number) == ("guest", "greedy", 2)
    assert "Bisita 1 · Kompyuter 2 (madali)" in client.get("/", HTTP_ACCEPT_LANGUAGE="tl").content.decode()


@pages_db
def test_guests_and_players_on_this_device_are_named_in_the_readers_language(client):
    """#23.4: a table made in Kreyòl showed "Envite 1" in a Tagalog lobby beside "Guest 1": seats
    without a name of their own keep a role and a number, named when shown (lobby, table socket)."""
    from games.eventlog import tables
    from games.live import publish

    client.post(
        "/new/kazino/",
        {"players": "2", "match": "single", "seat0": "me", "seat1": "bot:greedy"},
        HTTP_ACCEPT_LANGUAGE="ht",
    )
    client.post(
        "/new/kazino/",
        {"players": "2", "match": "single", "seat0": "me", "seat1": "local"},
        HTTP_ACCEPT_LANGUAGE="ht",
    )
    alone, passing = Game.objects.order_by("pk")
    assert alone.seats.get(number=0).name_role == "guest"
    game = passing  # pass-and-play: "Player 1" and "Player 2" alike, not "Guest 1" beside "Player 2"
    seats = list(game.seats.order_by("number"))
    assert [(s.name_role, s.display_name) for s in seats] == [("player", "Player 1"), ("player", "Player 2")]
    for language, names in (
        ("en", "Player 1 · Player 2"),
        ("ht", "Jwè 1 · Jwè 2"),
        ("tl", "Manlalaro 1 · Manlalaro 2"),
    ):
        assert names in client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode(), language
        with translation.override(language):
            shown = publish.snapshot(tables.load_table(game.pk), 0)["seats"]
        assert " · ".join(s["name"] for s in shown) == names


@pages_db
def test_computer_seats_are_named_in_the_readers_language(client):
    from games import engines
    from games.commands.create import SeatSpec, create_game

    seats = [
        SeatSpec("Greedy 1", bot_level="greedy"),
        SeatSpec("Strong 2", bot_level="strong"),
    ]
    create_game("kazino", engines.get("kazino").default_config(2), seats)
    assert "Òdinatè 1 (fasil) · Òdinatè 2 (fò)" in client.get("/", HTTP_ACCEPT_LANGUAGE="ht").content.decode()
    assert (
        "Kompyuter 1 (madali) · Kompyuter 2 (magaling)"
        in client.get("/", HTTP_ACCEPT_LANGUAGE="tl").content.decode()
    )
    assert (
        "Computer 1 (Easy) · Computer 2 (Strong)"
        in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )


def test_engine_errors_are_translated_with_their_words():
    error = ServiceError(
        "tile_does_not_match",
        "{tile} does not match the {end} end, which shows {number}.",
        tile="5-3",
        end="left",
        number=2,
    )
    with translation.override("tl"):
        assert error.localized() == {
            "code": "tile_does_not_match",
            "message": "Hindi tugma ang 5-3 sa dulo sa kaliwa, na 2 ang bilang.",
        }
    suit = ServiceError(
        "must_follow_suit", "You must follow suit or play a trump: you hold a {suit}.", suit="heart"
    )
    with translation.override("ht"):
        assert (
            suit.localized()["message"] == "Fòk ou swiv koulè a oswa jwe yon atou : ou gen yon kè nan men w."
        )
    with translation.override("en"):
        assert suit.localized()["message"] == "You must follow suit or play a trump: you hold a heart."


@pages_db
def test_api_errors_follow_the_request_language(client):
    response = client.post(
        "/api/games/999999/actions", b"{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="tl"
    )
    assert response.status_code == 404
    assert response.json()["error"] == {"code": "unknown_game", "message": "Walang ganyang laro."}


@pytest.mark.django_db(transaction=True)
async def test_socket_errors_come_in_the_language_of_the_page():
    from channels.db import database_sync_to_async
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.db import connections

    from infra.routing import websocket_urlpatterns
    from tests.games.factories import tiny_game

    game = await database_sync_to_async(tiny_game)()
    app = URLRouter(websocket_urlpatterns)
    for headers, expected in [
        ([(b"cookie", b"django_language=ht")], "Mesaj la pa yon JSON ki bon."),
        ([(b"accept-language", b"tl,en;q=0.8")], "Hindi wastong JSON ang mensahe."),
        ([], "The message is not valid JSON."),
    ]:
        socket = WebsocketCommunicator(app, f"/ws/tables/{game.pk}/", headers=headers)
        connected, _ = await socket.connect()
        assert connected
        await socket.receive_json_from()  # the state
        await socket.send_to(text_data="{not json")
        reply = await socket.receive_json_from()
        assert reply["type"] == "error" and reply["message"] == expected
        await socket.disconnect()
    await database_sync_to_async(connections.close_all)()


def test_dates_and_numbers_are_written_per_language():
    day = datetime.date(2025, 11, 29)
    with translation.override("ht"):
        assert formats.date_format(day) == "29 novanm 2025"
        assert formats.number_format(Decimal("1250.5"), 1, force_grouping=True) == "1\xa0250,5"
    with translation.override("tl"):
        assert formats.date_format(day) == "Nobyembre 29, 2025"
        assert formats.number_format(Decimal("1250.5"), 1, force_grouping=True) == "1,250.5"
    with translation.override("en"):
        assert formats.date_format(day) == "Nov. 29, 2025"


@pages_db
def test_the_table_page_loads_the_javascript_catalogue_before_its_modules(client):
    client.post("/new/kazino/", {"players": "2", "match": "single", "seat0": "me", "seat1": "bot:greedy"})
    page = client.get(f"/tables/{Game.objects.get().pk}/", HTTP_ACCEPT_LANGUAGE="ht").content.decode()
    catalogue = page.index('src="/jsi18n/?lang=ht"')
    assert catalogue < page.index('type="module"')
    script = client.get("/jsi18n/?lang=ht", HTTP_ACCEPT_LANGUAGE="ht").content.decode()
    assert "Se tou pa w." in script and "Ranmase" in script
