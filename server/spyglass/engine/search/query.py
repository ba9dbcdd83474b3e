"""Query understanding: what in a query is a word, an identifier, a file path.

Queries range from three words to a pasted issue with a traceback; the pieces found here drive the
full-text query, the exact-name lookup and the path boost.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import snowballstemmer

from ..textnorm import IDENT_RE, split_identifier, words

# English filler that costs BM25 time and adds nothing; short so code words ("type", "list") survive
STOPWORDS = frozenset(
    """a an and are as at be but by can could did do does for from had has have how i if in into is it its
    me my no not of on or our should so than that the their them then there these this those to too was we
    were what when where which while who why will with would you your""".split()
)
PATH_RE = re.compile(
    r"(?:[\w.-]+/)+[\w.-]+\.\w+|\b[\w-]+\.(?:py|js|jsx|ts|tsx|go|rs|java|c|h|cc|cpp|hpp|cs|rb|php|sh|md)\b"
)
# a path is one word of the query, and no longer than this: PATH_RE's cost grows with the square of a
# word's length (``a/a/a/...``), so a hostile query of one long word is not read for paths
MAX_PATH_CHARS = 512
# the function of a stack frame: Python's `File "x.py", line 3, in name`, `at name (file:1:2)` in
# JavaScript, `at pkg.Class.name(File.java:12)` in Java and C#
FRAME_RE = re.compile(r"""\bFile "[^"]+", line \d+, in ([A-Za-z_]\w*)|^\s*at (?:async )?([\w$.<>]+) ?\(""", re.M)
# Python prints the innermost frame last, most other languages first
INNERMOST_LAST_RE = re.compile(r"most recent call last", re.I)
# text set as code: fenced blocks (an unclosed one runs to the end), `inline code`, indented lines
FENCED_RE = re.compile(r"^\s*(```|~~~).*?(?:^\s*\1|\Z)", re.S | re.M)
INLINE_CODE_RE = re.compile(r"`[^`\n]+`|^(?: {4}|\t).+$", re.M)
DOTTED_RE = re.compile(r"\b[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)+\b")
MAX_TERMS = 48
MAX_PHRASES = 16


@dataclass
class ParsedQuery:
    text: str
    terms: list[str] = field(default_factory=list)  # lower-case full-text terms, most telling first
    identifiers: list[str] = field(default_factory=list)  # names worth an exact symbol lookup
    paths: list[str] = field(default_factory=list)  # file paths or file names mentioned
    path_weights: dict[str, float] = field(default_factory=dict)  # < 1 for outer stack frames
    phrases: list[str] = field(default_factory=list)  # multi-word identifiers as FTS phrases ("parse config")
    frame_weights: dict[str, float] = field(default_factory=dict)  # stack-frame functions: < 1 for outer frames
    spelled: list[str] = field(default_factory=list)  # names a short query spells as words ("normalize params")
    capitalised: list[str] = field(default_factory=list)  # names a short query capitalises ("Mutex and Semaphore")
    # its names in the other naming convention ("request_capability": ``RequestCapability``; "parseAccept":
    # ``parse_accept``; "to-dict": ``to_dict``), for a short query's name lookup
    conventions: dict[str, list[str]] = field(default_factory=dict)
    # a short query's type and member written apart ("QueryParams merge", "Map bind_to_environ"), for the
    # name lookup of ``QueryParams.merge`` (the member in each convention too)
    members: list[tuple[str, str]] = field(default_factory=list)
    # the initials of three or four plain words in a row, with those words ("server-sent events": sse), for
    # an index that writes the acronym beside its words (Searcher.gather): a form of each of the words
    acronyms: dict[str, list[str]] = field(default_factory=dict)
    versions: frozenset[float] = frozenset()  # major versions the query names ("v3 compatibility errors": 3)
    forms: dict[str, list[str]] = field(default_factory=dict)  # other forms of terms found in the index
    title: str = ""  # a query's first line, when it has several: its gist (an issue's title)
    title_terms: list[str] = field(default_factory=list)
    whole_name: str = ""  # the query when it is one name and nothing else ("Deserialize", "Sinatra.Helpers")

    @property
    def term_forms(self) -> dict[str, list[str]]:
        """Each term with its other forms (none for most)."""
        return {t: self.forms.get(t, []) for t in self.terms}

    @property
    def fts_title_match(self) -> str:
        return " OR ".join(f'"{t}"' for t in self.title_terms)

    @property
    def fts_match(self) -> str:
        """An FTS5 expression: any term or identifier phrase may match; BM25 rewards documents that match
        more of them, and a phrase (a whole ``snake_case`` name) is rarer, so worth more, than its words."""
        forms = [f for t in self.terms for f in self.forms.get(t, ())]
        return " OR ".join(f'"{t}"' for t in [*self.phrases, *self.terms, *forms])


def _paths(text: str) -> list[str]:
    """The file paths and file names a query mentions, each once, in order."""
    words = (w for w in text.replace("\\", "/").split() if len(w) <= MAX_PATH_CHARS)
    return list(dict.fromkeys(m.group(0) for w in words for m in PATH_RE.finditer(w)))


def _path_weights(text: str, paths: list[str]) -> dict[str, float]:
    """1 for a path mentioned in prose or the innermost frame of a stack trace, down to 0.5 for the
    outermost frame: the innermost frames are where an error was raised."""
    if len(paths) < 2 or not FRAME_RE.search(text):
        return dict.fromkeys(paths, 1.0)
    last = {p: text.replace("\\", "/").rfind(p) for p in paths}
    order = sorted(paths, key=lambda p: last[p], reverse=not INNERMOST_LAST_RE.search(text))
    return {p: 0.5 + 0.5 * i / (len(order) - 1) for i, p in enumerate(order)}


def _frame_weights(text: str) -> dict[str, float]:
    """The functions of a stack trace's frames, 1 for the innermost (where the error was raised) down to 0.5
    for the outermost, in each language's frame order; a function in several frames keeps its best."""
    names = [(m.group(1) or m.group(2)).split(".")[-1] for m in FRAME_RE.finditer(text)]
    names = [n for n in names if n.isidentifier()]
    if len(names) < 2:
        return {}
    if not INNERMOST_LAST_RE.search(text):
        names.reverse()  # innermost first in JavaScript, Java, C#: make it last like Python's
    weights: dict[str, float] = {}
    for i, name in enumerate(names):
        weights[name] = max(weights.get(name, 0.0), 0.5 + 0.5 * i / (len(names) - 1))
    return weights


# an error's message (``ValueError: invalid literal for int()``) or a quoted string: its words in order
MESSAGE_RE = re.compile(r'\b[A-Z]\w*(?:Error|Exception|Warning): ([^\n]{8,120})|"([^"\n]* [^"\n]*)"')
MESSAGE_WORDS = 8


def _message_phrases(text: str) -> list[str]:
    """Exact messages as FTS phrases (their first ``MESSAGE_WORDS`` words): an error string found verbatim
    is worth more than a similar message sharing its words."""
    phrases = []
    for m in MESSAGE_RE.finditer(text):
        found = [w.lower() for w in words(m.group(1) or m.group(2))][:MESSAGE_WORDS]
        if len(found) >= 3:
            phrases.append(" ".join(found))
    return phrases


CALLED_CHARS = 100  # names up to this long are looked up in _called's set; a longer one in the text


def _called(text: str) -> set[str]:
    """Every name the text has before a ``(``, with each tail of it (``print(`` calls ``rint`` and ``t``
    too, as a plain substring test would say), up to ``CALLED_CHARS`` long: one pass over the text instead
    of one per name, which made a query of many names cost the square of its length."""
    calls = {m.group(0) for m in IDENT_RE.finditer(text) if text.startswith("(", m.end())}
    return {c[i:] for c in calls for i in range(max(0, len(c) - CALLED_CHARS), len(c))}


def _identifiers(text: str, paths: list[str]) -> list[str]:
    """Names worth an exact symbol lookup: stack-frame functions, dotted paths and their parts, compound
    names (``snake_case``, ``camelCase``), calls (``name(``), and capitalised words set as code."""
    idents: dict[str, None] = {}
    for m in FRAME_RE.finditer(text):
        name = (m.group(1) or m.group(2)).split(".")[-1]
        if name.isidentifier() and not name.startswith("<"):
            idents.setdefault(name, None)
    for m in DOTTED_RE.finditer(text):
        if any(m.group(0) in p for p in paths):
            continue
        for part in re.split(r"\.|::", m.group(0)):
            idents.setdefault(part, None)
        idents.setdefault(m.group(0).replace("::", "."), None)
    code = "\n".join(m.group(0) for m in FENCED_RE.finditer(text))
    code += "\n".join(m.group(0) for m in INLINE_CODE_RE.finditer(FENCED_RE.sub("", text)))
    called = _called(text)
    for ident in IDENT_RE.findall(text):
        if len(split_identifier(ident)) > 1 or (ident in called if len(ident) <= CALLED_CHARS else f"{ident}(" in text):
            idents.setdefault(ident, None)
    for ident in IDENT_RE.findall(code):
        if ident[:1].isupper() and not ident.isupper() and len(ident) > 2:
            idents.setdefault(ident, None)
    return [i for i in idents if len(i) > 2 and i.lower() not in STOPWORDS][:MAX_TERMS]


_STEMMER = snowballstemmer.stemmer("english")
_STEMMER_LOCK = threading.Lock()  # a Snowball stemmer keeps state while it stems
FORMS_PER_TERM = 4


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """The word's Snowball (English) stem; cached: a server stems the same index terms query after query."""
    with _STEMMER_LOCK:
        return _STEMMER.stemWord(word)


def word_keys(word: str) -> frozenset[str]:
    """A word and its stem: two words are forms of one when their keys meet. Snowball alone misses some
    pairs ("alias" stems to alia, "aliases" to alias)."""
    return frozenset((word, stem(word)))


def other_forms(term: str, starting: Callable[[str], list[tuple[str, int]]], most: int) -> list[str]:
    """The forms of an English word that the index holds, by Snowball stem ("retry": retries, retried;
    "merge": merging, merged), at most ``FORMS_PER_TERM``, the commonest first, each in at most ``most``
    spans; ``starting(prefix)`` lists the index's terms with a prefix and how many spans hold each."""
    if len(term) < 4 or not term.isalpha():
        return []
    root, keys = stem(term), word_keys(term)
    found = [
        (t, n)
        for t, n in starting(root[: max(3, len(root) - 1)])
        if t != term and t.isalpha() and n <= most and not keys.isdisjoint(word_keys(t))
    ]
    return [t for t, _ in sorted(found, key=lambda tn: -tn[1])[:FORMS_PER_TERM]]


NAME_QUERY_WORDS = 3  # a query of at most this many words may be names alone ("Router", "Ecto Repo")


def _bare_names(text: str) -> list[str]:
    """Names in a query that is only a name or two: its one word ("Router", "application", "Flow"), or the
    capitalised words after the first of a query of up to ``NAME_QUERY_WORDS`` words ("the Router"). A word
    of a longer query is read as a word, never as a name: "request logging middleware" is not asking for a
    module called ``logging``."""
    tokens = text.split()
    if len(tokens) == 1:
        return [tokens[0]] if IDENT_RE.fullmatch(tokens[0]) else []
    if len(tokens) > NAME_QUERY_WORDS:
        return []
    return [t for t in tokens[1:] if IDENT_RE.fullmatch(t) and t[:1].isupper() and not t.isupper()]


SPELLED_WORDS = 3  # a name spelled as words has at most this many


def _spelled_names(text: str) -> list[str]:
    """The names a short query may spell as words: each run of two or three adjacent words joined, as one
    word and in snake case ("normalize params": ``normalizeparams``, ``normalize_params``), found by a
    case-blind name lookup (``normalizeParams``, ``NormalizeParams``)."""
    tokens = [t.lower() for t in text.split()]
    if len(tokens) > NAME_QUERY_WORDS + 1 or not all(t.isalpha() for t in tokens):
        return []
    names = []
    for n in range(2, SPELLED_WORDS + 1):
        for i in range(len(tokens) - n + 1):
            run = tokens[i : i + n]
            if not STOPWORDS.intersection(run):
                names += ["".join(run), "_".join(run)]
    return names


KEBAB_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+")  # has-logrus-logger, to-dict


def _kebab_names(text: str) -> list[str]:
    """The words of a query that is only a name or two written in kebab case ("has-logrus-logger",
    "MultiDict to-dict"): Lisp, CSS, command-line flags and file names join a name's words with hyphens, and
    a user who writes those writes a name so. A longer query's hyphenated words are English ("two-space
    indentation", "built-in")."""
    tokens = text.split()
    if len(tokens) > NAME_QUERY_WORDS:
        return []
    return [t for t in tokens if KEBAB_RE.fullmatch(t)]


def _other_conventions(identifiers: list[str]) -> dict[str, list[str]]:
    """Each compound name as another language would write it: its words joined (the case-blind name lookup
    then finds ``RequestCapability`` and ``requestCapability`` for ``request_capability``) and in snake case
    (``parse_accept`` for ``parseAccept``). A user who works in several languages writes a name in the
    convention of the one at hand (``has-logrus-logger`` for ``hasLogrusLogger``); a dotted name is a path
    through the code, written as it is."""
    names: dict[str, list[str]] = {}
    for ident in identifiers:
        parts = split_identifier(ident)
        if "." not in ident and len(parts) > 1:
            forms = [form for form in dict.fromkeys(("".join(parts), "_".join(parts))) if form != ident.lower()]
            if forms:
                names[ident] = forms
    return names


def _members(text: str) -> list[tuple[str, str]]:
    """A query of a name or two that gives a type and then a member of it ("QueryParams merge", "Map
    bindToEnviron", "MultiDict to-dict"), as (type, member) pairs, the member in each naming convention:
    documentation and talk write a method after its class (``QueryParams.merge``, ``Map#bind_to_environ``)."""
    tokens = text.split()
    if len(tokens) > NAME_QUERY_WORDS:
        return []
    pairs: list[tuple[str, str]] = []
    for owner, member in itertools.pairwise(tokens):
        named = IDENT_RE.fullmatch(member) or KEBAB_RE.fullmatch(member)
        if named and IDENT_RE.fullmatch(owner) and owner[:1].isupper():
            forms = [member, *_other_conventions([member]).get(member, [])]
            pairs += [(owner, form) for form in dict.fromkeys(form.replace("-", "_") for form in forms)]
    return pairs


ACRONYM_WORDS = (3, 4)  # an acronym stands for this many words: two-letter initials are mostly chance (ip, ci)
PLAIN_WORD_RE = re.compile(r"[A-Za-z][a-z]+")  # server, Sent; not a name (SetEncoder) or an acronym (HTTP)
RUN_END = ",;:.?!()[]{}\"'"


def _acronyms(text: str) -> dict[str, list[str]]:
    """The initials of each run of three or four plain words of a short query, none a stop word, no
    punctuation between them, hyphens splitting words ("server-sent events": sse; "method resolution
    order": mro), with the words they stand for: code names a many-word idea by its initials (``SSE``,
    ``TTL``, ``LRU``), and a person describing it writes the words. Whether the acronym is one the code
    uses is for the index to say (Searcher.gather)."""
    runs: list[list[str]] = [[]]
    for token in text.split():
        for part in token.strip(RUN_END).split("-"):
            if PLAIN_WORD_RE.fullmatch(part) and part.lower() not in STOPWORDS:
                runs[-1].append(part.lower())
            elif runs[-1]:
                runs.append([])
        if token[-1:] in RUN_END and runs[-1]:
            runs.append([])
    found: dict[str, list[str]] = {}
    said = {w for run in runs for w in run}
    for run in runs:
        for n in ACRONYM_WORDS:
            for i in range(len(run) - n + 1):
                initials = "".join(w[0] for w in run[i : i + n])
                if initials not in said:
                    found.setdefault(initials, run[i : i + n])
    return found


VERSION_TERM_RE = re.compile(r"v\d+")


def _versions_named(terms: list[str]) -> frozenset[float]:
    """The major versions a query's terms name (``v3``: 3), read before search keeps only the telling terms
    (``v3`` is in every path of its folder)."""
    return frozenset(float(t[1:]) for t in terms if VERSION_TERM_RE.fullmatch(t))


CAPITALISED_QUERY_WORDS = 12  # the longest query whose capitalised words may be names (not a pasted issue)
CAPITALISED_RE = re.compile(r"[A-Z][a-z0-9]*[a-z][a-z0-9]*")  # Mutex, Job, Http2; not JSON or A


def _capitalised_names(text: str) -> list[str]:
    """The capitalised words of a short query that is more than a name or two, as names it may give ("Mutex
    and Semaphore for coroutine synchronization", "Deferred and await ..."): type names are capitalised in
    most languages, and a query set in lower case capitalises nothing else. Looked up like the names a query
    spells as words: a possible name, not a sure one (a first word may only start a sentence)."""
    tokens = [t.strip(",;:?!()") for t in text.split()]
    if not NAME_QUERY_WORDS < len(tokens) <= CAPITALISED_QUERY_WORDS:
        return []
    return [t for t in tokens if len(t) > 2 and CAPITALISED_RE.fullmatch(t) and t.lower() not in STOPWORDS]


def _content_words(text: str) -> list[str]:
    return [w for w in words(text) if len(w) > 1 and w not in STOPWORDS and not w.isdigit()]


# one line of an environment listing: a package or tool and its version, as `pip list` (``attrs  19.1.0``),
# `pip freeze` (``attrs==19.1.0``), `conda list` (``attrs  19.1.0  py37_0``), a show_versions report
# (``numpy: 1.17.0``, ``zarr: None`` when it is not installed), `--version` output (``pylint 2.14.4``) and
# `npm ls` (``├── react@18.2.0``) print it
# (possessive quantifiers: no backtracking, so a hostile line costs linear time)
VERSION_LINE_RE = re.compile(
    r"^[\s│├└┬─|+`\\-]*+[A-Za-z][\w.\[\]-]*+"
    r"(?:(?:\s*+(?:===?|>=|<=|~=|@|:)\s*+|\s++)v?\d++\.\d\S*+(?:\s++\S++){0,2}+|:\s*+None)\s*+$"
)
MIN_VERSION_LINES = 3  # fewer is a sentence or a setting that happens to name a version
MAX_LISTING_LINE = 200  # characters: a listing's line is short
# a listing's column header (`pip list`: ``Package  Version``, `conda list`: ``# Name  Version  Build``)
LISTING_HEADER_RE = re.compile(r"^\s*#?\s*(?:package|name)\s+version\b[\w\s-]*$", re.I)


def without_environment(text: str) -> str:
    """The query less the environment listing an issue pastes (installed packages and their versions): a
    listing names every package installed, and its words ("mock", "six", "colorama") match code the issue
    is not about. Only a listing of at least ``MIN_VERSION_LINES`` such lines is dropped."""
    lines = text.splitlines()
    short = [(i, line) for i, line in enumerate(lines) if len(line) <= MAX_LISTING_LINE]
    listing = {i for i, line in short if VERSION_LINE_RE.match(line)}
    if len(listing) < MIN_VERSION_LINES:
        return text
    drop = listing | {i for i, line in short if LISTING_HEADER_RE.match(line)}
    kept = "\n".join(line for i, line in enumerate(lines) if i not in drop)
    return kept if kept.strip() else text


def parse_query(text: str) -> ParsedQuery:
    text = without_environment(text)
    q = ParsedQuery(text=text)
    q.paths = _paths(text)
    q.path_weights = _path_weights(text, q.paths)
    q.identifiers = _identifiers(text, q.paths)
    q.identifiers += [n for n in _bare_names(text.strip()) if n not in q.identifiers and n.lower() not in STOPWORDS]

    counts: dict[str, int] = {}
    for w in _content_words(text):
        counts[w] = counts.get(w, 0) + 1
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1:
        q.title = lines[0].strip()
        title = list(dict.fromkeys(_content_words(lines[0])))
        q.title_terms = [t.replace('"', "") for t in title][:MAX_TERMS] if len(title) > 1 else []
    # identifiers and their parts first, then the rest by frequency in the query
    ranked: dict[str, None] = {}
    for ident in q.identifiers:
        for part in [ident.lower().replace(".", "_"), *split_identifier(ident)]:
            if part in counts:
                ranked.setdefault(part, None)
    for w, _ in sorted(counts.items(), key=lambda kv: -kv[1]):
        ranked.setdefault(w, None)
    q.terms = [t.replace('"', "") for t in ranked if t][:MAX_TERMS]
    phrases = (" ".join(w.lower() for w in words(i)) for i in q.identifiers if "_" in i or "." in i)
    q.phrases = list(dict.fromkeys([*(p for p in phrases if " " in p), *_message_phrases(text)]))[:MAX_PHRASES]
    q.frame_weights = _frame_weights(text)
    q.spelled = _spelled_names(text.strip())
    q.capitalised = _capitalised_names(text.strip())
    q.conventions = _other_conventions([*q.identifiers, *_kebab_names(text.strip())])
    q.members = _members(text.strip())
    q.acronyms = _acronyms(text)
    q.versions = _versions_named(q.terms)
    q.whole_name = _whole_name(text.strip())
    return q


def _whole_name(text: str) -> str:
    """The query as a name, when it is one word shaped like one, plain or qualified (``::`` as ``.``)."""
    if IDENT_RE.fullmatch(text) or DOTTED_RE.fullmatch(text):
        return text.replace("::", ".")
    return ""


def names_whole(name: str, qualname: str, whole: str) -> bool:
    """Whether a definition is the one a query that is only a name asks for: its name is the name's last
    part (case aside: a file named after it counts too) and, for a qualified name, its qualname ends so."""
    last = whole.rsplit(".", 1)[-1]
    return name.lower() == last.lower() and ("." not in whole or f".{qualname}".endswith(f".{whole}"))
