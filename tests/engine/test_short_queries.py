"""Short queries (issue 20): names as typed, other forms of words, the best hit's share of the query, and a
ranking of files that knows what a file is named after. Real files, a real index, the bundled model."""

from dataclasses import replace
from pathlib import Path

import pytest

from spyglass.engine import Workspace
from spyglass.engine.search.config import EVERY_CANDIDATE_SIGNALS, RankingConfig
from spyglass.engine.search.query import other_forms, parse_query, word_keys
from spyglass.engine.search.retrievers import scaled, stem_words
from spyglass.engine.store import StoredSpan

LEXICAL = {"embed": False}

GO_ROUTER = """package chi

// Router consists of the core routing methods used by chi's Mux.
type Router interface {
	Route(pattern string, fn func(r Router)) Router
	Mount(pattern string, h Handler)
}

// router builds the default mux.
func router() *Mux {
	return NewMux()
}

func NewMux() *Mux {
	return &Mux{}
}
"""

RUBY_HELPERS = """module Sinatra
  module Helpers
    def status(value = nil)
      response.status = value if value
      response.status
    end

    def body(value = nil)
      response.body = value if value
      response.body
    end
  end

  class Base
    def self.helpers(*extensions)
      class_eval(&block) if block_given?
    end
  end
end
"""

BACKOFF = '''def backoff_delay(attempt):
    """How long to wait before the next attempt: doubles with every one of the retries so far."""
    return min(60, 2 ** attempt)


def parse_header(value):
    """Split a header value into its parts."""
    return value.split(";")
'''


# other code, so that the words of a test are not in most spans (those are dropped as too common)
FILLER = "".join(f'def step_{i}(state):\n    """Advance by one step."""\n    return state + {i}\n\n' for i in range(10))


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _indexed(root: Path, overrides: dict | None = None) -> Workspace:
    ws = Workspace.open(root, writer=True, overrides=overrides or {})
    ws.index()
    return ws


def test_a_one_word_query_is_a_name_and_its_case_counts(tmp_path: Path) -> None:
    with _indexed(_write(tmp_path, {"chi.go": GO_ROUTER, "mux.go": "package chi\n\ntype Mux struct{}\n"})) as ws:
        first = ws.search("Router", k=3, cut=False).results[0]
        assert (first.symbol, first.why.signals.get("name")) == ("Router", 1.0)
        # Go's unexported router is another name: asked in lower case, it comes first
        assert ws.search("router", k=3, cut=False).results[0].symbol == "router"


def test_a_qualified_name_beats_a_name_that_only_differs_in_case(tmp_path: Path) -> None:
    with _indexed(_write(tmp_path, {"lib/base.rb": RUBY_HELPERS}), LEXICAL) as ws:
        hits = ws.search("Sinatra::Helpers", k=5, cut=False).results
        named = {h.symbol: h.why.signals.get("name") for h in hits}
        assert named["Sinatra.Helpers"] == 1.0
        assert named["Sinatra.Base.helpers"] < 1.0  # ``helpers`` is ``Helpers`` only if case is ignored
        assert hits[0].symbol == "Sinatra.Helpers"


def test_a_long_definition_is_named_by_the_part_that_declares_it(tmp_path: Path) -> None:
    methods = "".join(f"    def method_{i}(self):\n        return {i}\n\n" for i in range(60))
    source = f"class Registry:\n    '''Holds every handler.'''\n\n{methods}"
    with _indexed(_write(tmp_path, {"registry.py": source}), {"embed": False, "max_span_lines": 40}) as ws:
        parts = [h for h in ws.search("Registry", k=50, cut=False).results if h.symbol == "Registry"]
        assert len(parts) == 1 and parts[0].start_line == 1  # the first part, not one picked at random
        assert parts[0].why.signals["name"] == 1.0


def test_a_query_word_finds_its_other_forms(tmp_path: Path) -> None:
    with _indexed(_write(tmp_path, {"net.py": BACKOFF, "machine.py": FILLER}), LEXICAL) as ws:
        hits = ws.search("retry delay", k=3, cut=False).results
        assert hits[0].symbol == "backoff_delay"
        assert hits[0].why.signals["lexical"] == pytest.approx(1.0)  # "retries" counts as "retry": fully covered
        ws.searcher.config = replace(ws.searcher.config, word_forms=False)
        assert ws.search("retry delay", k=3, cut=False).results[0].why.signals["lexical"] < 0.75


def test_other_forms_come_from_the_index_by_stem() -> None:
    vocabulary = [("retried", 3), ("retries", 9), ("retrieve", 20), ("retry", 40), ("retry2", 1)]

    def starting(prefix: str) -> list[tuple[str, int]]:
        return [(t, n) for t, n in vocabulary if t.startswith(prefix)]

    assert other_forms("retry", starting, most=100) == ["retries", "retried"]  # not retrieve, not retry2
    assert other_forms("retry", starting, most=5) == ["retried"]  # forms in most spans say nothing
    assert other_forms("go", starting, most=100) == []  # too short to stem safely
    assert word_keys("alias") & word_keys("aliases")  # Snowball stems them alia and alias
    assert stem_words("pydantic/aliases.py") == ["aliases"]


def test_a_weak_lexical_match_counts_for_less() -> None:
    idf = {"merge": 1.0, "nested": 1.0, "dictionaries": 2.0}
    assert scaled({1: 1.0, 2: 0.5}, {"merge"}, idf) == {1: 0.25, 2: 0.125}
    assert scaled({1: 1.0}, {"merge", "nested", "dictionaries"}, idf) == {1: 1.0}


def test_the_words_of_a_file_name() -> None:
    assert stem_words("pydantic/root_model.py") == ["root", "model"]
    assert stem_words("gson/JsonElement.java") == ["json", "element"]
    assert stem_words("lib/colors.bash") == ["colors"]
    # a word for the sort of file is not its topic, unless it is the whole name
    assert stem_words("lang3/BooleanUtils.java") == ["boolean"]
    assert stem_words("app/string_helpers.py") == ["string"]
    assert stem_words("lib/utils.js") == ["utils"]
    assert parse_query("Flow").identifiers == ["Flow"]
    assert parse_query("request logging middleware").identifiers == []  # words, not names


def test_a_ranking_of_files_prefers_the_file_named_after_the_topic(tmp_path: Path) -> None:
    files = {
        "lib/colors.py": "RED = 31\nGREEN = 32\n\n\ndef paint(text, code):\n    return text\n",
        "lib/prompt.py": 'def prompt(theme):\n    """Draw it in the theme color."""\n    return theme\n',
        "lib/machine.py": FILLER,
    }
    query = "color definitions"
    with _indexed(_write(tmp_path, files)) as ws:
        ranked = ws.search(query, k=10, cut=False, per_file=1).results
        assert ranked[0].path == "lib/colors.py" and ranked[0].why.signals.get("stem") == 1.0
        # ranking spans, a file's name is not a signal
        assert all("stem" not in hit.why.signals for hit in ws.search(query, k=10, cut=False).results)
        ws.searcher.config = replace(ws.searcher.config, file_weights={})
        without = {h.path: h.score for h in ws.search(query, k=10, cut=False, per_file=1).results}
        assert ranked[0].score > without["lib/colors.py"]


def test_a_file_of_helpers_is_named_after_what_it_helps_with(tmp_path: Path) -> None:
    files = {
        "lib/number_utils.py": "def to_int(text, default=0):\n    return int(text) if text else default\n",
        "lib/reader.py": 'def parse(text):\n    """Parse numbers and dates with defaults."""\n    return text\n',
        "lib/machine.py": FILLER,
    }
    with _indexed(_write(tmp_path, files)) as ws:
        ranked = ws.search("number parsing with defaults", k=10, cut=False, per_file=1).results
        stems = {h.path: h.why.signals.get("stem") for h in reversed(ranked)}
        assert stems["lib/number_utils.py"] == 1.0 and stems["lib/reader.py"] is None


TRACE = """Saving a draft crashes
Traceback (most recent call last):
  File "app/main.py", line 3, in main
    run()
  File "app/jobs.py", line 9, in run
    save(draft)
  File "app/store.py", line 2, in save
    raise ValueError("draft has no title yet")
ValueError: draft has no title yet
"""


def test_a_traceback_names_its_innermost_frame_most_surely_and_its_message_exactly() -> None:
    q = parse_query(TRACE)
    assert q.frame_weights == {"main": 0.5, "run": 0.75, "save": 1.0}
    assert "draft has no title yet" in q.phrases  # matched as a phrase: the exact message, not its words


def test_an_outer_frame_ranks_below_the_innermost(tmp_path: Path) -> None:
    files = {
        "app/main.py": "def main():\n    run()\n",
        "app/jobs.py": "def run():\n    save(None)\n",
        "app/store.py": "def save(draft):\n    raise ValueError('draft has no title yet')\n",
        "app/machine.py": FILLER,
    }
    with _indexed(_write(tmp_path, files), LEXICAL) as ws:
        names = {h.symbol: h.why.signals.get("name") for h in ws.search(TRACE, k=10, cut=False).results}
        assert names["save"] == 1.0 and names["main"] == 0.5


OVERLOADS = """export function flattenError(error: Error): string[];
export function flattenError(error: Error, sep: string): string;
export function flattenError(error: Error, sep?: string): string | string[] {
  const parts = error.message.split("\\n").map((line) => line.trim());
  return sep === undefined ? parts : parts.join(sep);
}

export function normalizeParams(params?: string | { message?: string }): { message?: string } {
  if (!params) return {};
  if (typeof params === "string") return { message: params };
  return params;
}
"""


def test_an_overloaded_function_is_still_found_by_its_implementation(tmp_path: Path) -> None:
    with _indexed(_write(tmp_path, {"src/errors.ts": OVERLOADS, "src/machine.py": FILLER}), LEXICAL) as ws:
        lines = [h.start_line for h in ws.search("flattenError", k=10, cut=False).results if h.symbol == "flattenError"]
        assert 3 in lines  # overload signatures are definitions of their own, not parts of the implementation


def test_a_name_spelled_as_words_is_looked_up(tmp_path: Path) -> None:
    with _indexed(_write(tmp_path, {"src/errors.ts": OVERLOADS, "src/machine.py": FILLER}), LEXICAL) as ws:
        first = ws.search("normalize params", k=5, cut=False).results[0]
        assert first.symbol == "normalizeParams" and first.why.signals["name"] == pytest.approx(0.7)
    assert parse_query("normalize params").spelled == ["normalizeparams", "normalize_params"]
    assert parse_query("where does the router pick a handler when two patterns overlap").spelled == []


TERMCAP = """package tea

type requestCapabilityMsg string

// RequestCapability asks the terminal whether it supports a capability, by its terminfo name.
func RequestCapability(s string) Cmd {
	return func() Msg { return requestCapabilityMsg(s) }
}
"""
CAPABILITIES = """package tea

// capability requests and capability replies: a request capability message is sent, a reply comes back
func describeCapability(request string, reply string) string {
	return "request capability " + request + " reply " + reply
}
"""
ASSOCIATIONS = '''def belongs_to(schema, name):
    """Define a belongs-to association on the schema."""
    return schema.add(name)


class BelongsTo:
    """The struct a belongs_to association is kept in."""
'''


def test_a_name_written_in_another_naming_convention_is_looked_up(tmp_path: Path) -> None:
    """A user who works in several languages writes Go's ``RequestCapability`` as ``request_capability``:
    the name is looked up in the other convention too (weighed as a name spelled as words). A name that is
    defined as written was meant as written: ``belongs_to`` does not also name ``BelongsTo``."""
    files = {"termcap.go": TERMCAP, "capability.go": CAPABILITIES, "schema.py": ASSOCIATIONS}
    with _indexed(_write(tmp_path, files), LEXICAL) as ws:
        first = ws.search("request_capability", k=5, cut=False).results[0]
        assert (first.symbol, first.why.signals.get("name")) == ("RequestCapability", pytest.approx(0.7))
        named = {h.symbol: h.why.signals.get("name") for h in ws.search("belongs_to", k=5, cut=False).results}
        assert named["belongs_to"] == 1.0 and named.get("BelongsTo") is None
        ws.searcher.config = replace(ws.searcher.config, other_conventions=False)
        assert "name" not in ws.search("request_capability", k=5, cut=False).results[0].why.signals
    assert parse_query("request_capability").conventions == {"request_capability": ["requestcapability"]}
    assert parse_query("parseAccept").conventions == {"parseAccept": ["parse_accept"]}
    assert parse_query("HTTPServer").conventions == {"HTTPServer": ["http_server"]}
    assert parse_query("Router and Sinatra::Helpers").conventions == {}


HOOKS_TEST = """package test

// Hook records the entries it is given, for tests of code that logs.
type Hook struct {
	Entries []string
}

// NewNullLogger makes a logger that discards what it is given and a hook that records it.
func NewNullLogger() (*Logger, *Hook) {
	logger := New()
	logger.Out = io.Discard
	return logger, new(Hook)
}
"""
LOGGER = """package logrus

// New makes a logger that writes to standard error.
func New() *Logger {
	return &Logger{Out: os.Stderr, Level: InfoLevel}
}

// NewEntry starts an entry of a logger: a null logger's entries are dropped.
func NewEntry(logger *Logger) *Entry {
	return &Entry{Logger: logger, Data: make(Fields, 6)}
}

// hasLogger tells whether a logger is kept in the context.
func hasLogger(ctx context.Context) bool {
	return ctx.Value(loggerKey) != nil
}
"""


def test_a_name_in_kebab_case_or_snake_case_is_found_in_a_test_helper_package(tmp_path: Path) -> None:
    """A name typed in another convention ("new_null_logger", "has-logger" in kebab case, as Lisp, CSS and
    command-line flags write names) finds its definition, and a name of two words or more given so is the
    definition's own, so the path prior of a ``test/`` folder does not sink it (logrus's ``hooks/test``)."""
    files = {"hooks/test/test.go": HOOKS_TEST, "logger.go": LOGGER}
    with _indexed(_write(tmp_path, files), LEXICAL) as ws:
        first = ws.search("new_null_logger", k=5, cut=False).results[0]
        assert (first.symbol, first.why.signals.get("name")) == ("NewNullLogger", pytest.approx(0.7))
        first = ws.search("has-logger", k=5, cut=False).results[0]
        assert (first.symbol, first.why.signals.get("name")) == ("hasLogger", pytest.approx(0.7))
    assert parse_query("has-logger").conventions == {"has-logger": ["haslogger", "has_logger"]}
    kebab = parse_query("MultiDict to-dict").conventions
    assert kebab == {"MultiDict": ["multi_dict"], "to-dict": ["todict", "to_dict"]}
    assert parse_query("pretty-print the settings with two-space indentation").conventions == {}


JOB = 'class Job:\n    """The lifecycle of a unit of work: new, active, cancelling, completed."""\n'
SCOPE = (
    "class CoroutineScope:\n"
    '    """Where coroutines run: the coroutine lifecycle and the management of child coroutines."""\n'
)


def test_a_short_querys_capitalised_words_are_looked_up_as_names(tmp_path: Path) -> None:
    """The query "Job interface and coroutine lifecycle management" names a type as written: ``Job`` is
    looked up (weighed as a name spelled as words), and its file comes before the one that only shares more
    of the query's words when files are ranked. Words in capitals (JSON) and a pasted issue's capitalised
    words are not names."""
    files = {"jobs/job.py": JOB, "jobs/scope.py": SCOPE, "steps.py": FILLER}
    query = "Job interface and coroutine lifecycle management"
    with _indexed(_write(tmp_path, files)) as ws:
        first = ws.search(query, k=5, cut=False, per_file=1).results[0]
        assert (first.symbol, first.why.signals.get("name")) == ("Job", pytest.approx(0.7))
        ws.searcher.config = replace(ws.searcher.config, capitalised_names=False)
        assert ws.search(query, k=5, cut=False, per_file=1).results[0].symbol == "CoroutineScope"
    assert parse_query("Mutex and Semaphore for coroutine synchronization").capitalised == ["Mutex", "Semaphore"]
    assert parse_query("JSON object with named fields").capitalised == []
    assert parse_query("the Router").capitalised == []  # a name or two alone: the names of _bare_names
    issue = "Pipeline should implement len. Calling len on a Pipeline raises a TypeError in Python"
    assert parse_query(issue).capitalised == []


APP = '''"""The application: routes, templates, errors and the middleware stack."""


def render(template, context):
    """Render a template with its layout."""
    return template.format(**context)


def render_partial(name, context):
    """Render a partial template inside another template."""
    return render(name, context)


def handle_exception(app, error):
    """Pick the error handler of the exception's class and its status."""
    return app.handlers.get(type(error), 500)


def use(app, middleware):
    """Push a middleware onto the stack that wraps the application."""
    app.stack.append(middleware)


def build(app):
    """Wrap the application in every middleware of the stack, innermost last."""
    for middleware in reversed(app.stack):
        app = middleware(app)
    return app


def log_request(app, request):
    """Log the route that matched the request."""
    app.log(request.path)


def render_json(obj):
    """Render an object as JSON."""
    return json.dumps(obj)


def rescue(app, exception):
    """Rescue an exception raised by a route with the handler registered for it."""
    return app.handlers[type(exception)](exception)


def stack_size(app):
    """How many middlewares are on the stack."""
    return len(app.stack)


def route(app, path, handler):
    """Register the handler of a path."""
    app.routes[path] = handler
'''

SHOW = '''import traceback


def error_page(error):
    """Render an exception as an HTML page: its class, its message and the frames of its stack."""
    frames = traceback.extract_tb(error.__traceback__)
    rows = "".join(f"<li>{f.filename}:{f.lineno} in {f.name}</li>" for f in frames)
    return f"<h1>{type(error).__name__}</h1><p>{error}</p><ul>{rows}</ul>"


def frame_lines(error):
    """The lines of code around each frame of the exception's stack, to show beside it."""
    return [(f.filename, f.lineno, f.line) for f in traceback.extract_tb(error.__traceback__)]
'''


def test_a_description_in_words_leans_less_on_a_long_file_that_holds_every_word(tmp_path: Path) -> None:
    """Asked "exception rendering and stack traces": a long file has every word of it somewhere, one per
    function (sinatra's base.rb), a small file is about it. Ranking files, the small one comes first; weighing the
    whole file's words and its other spans as for a pasted issue, the long one did."""
    files = {"app/base.py": APP, "app/show_errors.py": SHOW}
    files |= {f"app/steps{i}.py": FILLER.replace("step_", f"step{i}_") for i in range(6)}
    query = "exception rendering and stack traces"

    def first_file(ws: Workspace) -> str:
        return ws.search(query, k=5, cut=False, per_file=1).results[0].path

    with _indexed(_write(tmp_path, files)) as ws:
        assert first_file(ws) == "app/show_errors.py"
        config = ws.searcher.config
        words_weights = {k: v for k, v in config.words_weights.items() if k != "file"}
        ws.searcher.config = replace(config, words_weights=words_weights, words_file_context=config.file_context)
        assert first_file(ws) == "app/base.py"  # what it changes


def test_the_confidence_floor_follows_a_descriptions_lower_weights(tmp_path: Path) -> None:
    """A description in words gives a whole file's words less weight (with a model and, in the fast tier,
    without one), so its scores are lower for the same evidence: the floor is lowered by the same share, and a
    description whose best result scores just under the set floor is still answered. A query that names
    something keeps the set floor."""
    config = RankingConfig()
    assert config.floor_for(True) == config.floor_for(False) == config.min_score
    for with_vectors in (True, False):
        usual, words = config.weights_for(with_vectors), config.weights_for(with_vectors, words=True)
        share = sum(words.get(s, 0.0) for s in EVERY_CANDIDATE_SIGNALS) / sum(
            usual.get(s, 0.0) for s in EVERY_CANDIDATE_SIGNALS
        )
        assert share < 1 and config.floor_for(with_vectors, words=True) == pytest.approx(config.min_score * share)

    files = {"app/base.py": APP, "app/show_errors.py": SHOW}
    query = "exception rendering and stack traces"
    with _indexed(_write(tmp_path, files)) as ws:
        best = ws.search(query, k=5, cut=False, tier="fast").results[0].score
        # the set floor just above the best score: only the description's own floor lets it through
        ws.searcher.config = replace(ws.searcher.config, min_score=best * 1.05)
        answer = ws.search(query, k=5, tier="fast").results
        assert answer and answer[0].score == best
        named = ws.search("error_page", k=5, tier="fast").results  # names something: the usual floor
        assert named and all(hit.score >= best * 1.05 for hit in named)


SERDE = """/// A data structure that can be deserialized from any data format.
pub trait Deserialize<'de>: Sized {
    /// Deserialize this value from the given deserializer.
    fn deserialize<D>(deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>;
}
"""
IMPLS = "".join(
    f"impl<'de> Deserialize<'de> for T{i} {{\n    fn deserialize<D>(d: D) -> Result<Self, D::Error> {{\n"
    f"        d.deserialize_u{i}(Visitor{i})\n    }}\n}}\n\n"
    for i in range(8)
)
FAKE = "mod fake_serde {\n    pub trait Deserialize<'a>: Sized {\n        fn deserialize(d: u8) -> Self;\n    }\n}\n"


def test_a_query_that_is_one_name_puts_that_definition_first(tmp_path: Path) -> None:
    """Asked for ``Deserialize``, the trait comes before the many ``deserialize`` methods that share its word
    (and embed closer), and before a test's stand-in of the same name."""
    files = {"src/de/mod.rs": SERDE, "src/de/impls.rs": IMPLS, "tests/test_path.rs": FAKE}
    with _indexed(_write(tmp_path, files)) as ws:
        hits = ws.search("Deserialize", k=20, cut=False).results
        assert (hits[0].path, hits[0].symbol, hits[0].kind) == ("src/de/mod.rs", "Deserialize", "interface")
        ranks = {(h.path, h.symbol): i for i, h in enumerate(hits)}
        assert ranks[("tests/test_path.rs", "fake_serde.Deserialize")] > 0
        ws.searcher.config = replace(ws.searcher.config, beside_the_named=1.0)
        assert ws.search("Deserialize", k=10, cut=False).results[0].symbol != "Deserialize"  # what it changes


def test_the_query_as_one_name() -> None:
    assert parse_query("Sinatra::Helpers").whole_name == "Sinatra.Helpers"
    assert parse_query(" BaseModel ").whole_name == "BaseModel"
    assert parse_query("the Router").whole_name == ""
    assert parse_query("src/router.go").whole_name == ""


def test_a_file_name_counts_with_a_word_in_most_spans_but_not_with_only_such_words(tmp_path: Path) -> None:
    """In a JSON library "json" is in most spans, too common to rank by; ``json_reader.py`` is still named
    after "json reader", but ``json.py`` is named after what every file is about."""
    files = {
        "lib/json_reader.py": 'def next_token(stream):\n    """Read the next json token from the stream."""\n',
        "lib/json.py": 'def dumps(obj):\n    """Serialize to a json string."""\n',
        "lib/json_writer.py": 'def write_value(out, value):\n    """Write one json value."""\n',
        **{f"lib/kind_{i}.py": f'def kind_{i}(x):\n    """Tell json kind {i}."""\n' for i in range(6)},
    }
    with _indexed(_write(tmp_path, files)) as ws:
        ranked = ws.search("streaming json reader", k=10, cut=False, per_file=1).results
        stems = {h.path for h in ranked if h.why.signals.get("stem")}
        assert stems == {"lib/json_reader.py"}
        assert ranked[0].path == "lib/json_reader.py"


def test_a_definition_kept_from_an_older_version_ranks_below_the_current_one(tmp_path: Path) -> None:
    """pydantic keeps its last major version in ``pydantic/v1/``, zod its in ``src/v3/``: asked for a name
    both define, the current one comes first, though the old copy matches as well."""
    model = 'class BaseModel:\n    """The base class of every model: fields, validation and serialization."""\n'
    files = {
        "pydantic/v1/main.py": model + "\n    def dict(self):\n        return {}\n",
        "pydantic/main.py": model,
        "src/v3/types.ts": "export class ZodObject {\n  shape() { return {}; }\n}\n",
        "src/v4/classic/schemas.ts": "export class ZodObject {\n  shape() { return {}; }\n}\n",
    }
    with _indexed(_write(tmp_path, files)) as ws:
        assert ws.search("BaseModel", k=5, cut=False).results[0].path == "pydantic/main.py"
        assert ws.search("ZodObject", k=5, cut=False).results[0].path == "src/v4/classic/schemas.ts"
        ws.searcher.config = replace(ws.searcher.config, older_version=1.0)
        first = [ws.search(q, k=5, cut=False).results[0].path for q in ("BaseModel", "ZodObject")]
        assert first != ["pydantic/main.py", "src/v4/classic/schemas.ts"]  # without it, an old copy wins one


SAFE_PARSE_V3 = """export class ZodAny {
  /** Parse a value without throwing: return a success result with the data, or an error result. */
  safeParse(data: unknown) {
    return { success: true, data };
  }
}
"""
SAFE_PARSE_V4 = """/** Parse a value with a schema, never throwing: a success result and the data, or the error. */
export function safeParse(schema: Schema, value: unknown) {
  return { success: true, data: value };
}
"""


KIND = "/** Tell kind {i} of a schema. */\nexport function kind{i}() {{}}\n"


def test_an_older_version_folder_ranks_below_the_newer_one_unless_the_query_names_it(tmp_path: Path) -> None:
    """zod keeps v3 beside v4 with other files and names: a description that both match is answered from
    the newer folder as a whole, not only where a definition has one name in both; a query that names the
    version asks for it. A ``v2/`` beside unversioned code is Go's newer major version, never scaled."""
    files = {
        "src/v3/types.ts": SAFE_PARSE_V3,
        "src/v4/core/parse.ts": SAFE_PARSE_V4,
        "client.go": "package api\n\n// Fetch sends the request and decodes the JSON response.\nfunc Fetch() {}\n",
        "v2/client.go": "package api\n\n// Fetch sends the request and decodes the JSON response.\nfunc Fetch() {}\n",
        **{f"src/v4/core/kind_{i}.ts": KIND.format(i=i) for i in range(6)},
    }
    query = "parse a value without throwing, returning a success or error result"
    with _indexed(_write(tmp_path, files)) as ws:
        assert ws.search(query, k=5, cut=False, per_file=1).results[0].path == "src/v4/core/parse.ts"
        assert ws.search(f"v3 {query}", k=5, cut=False, per_file=1).results[0].path == "src/v3/types.ts"
        go = ("client.go", "v2/client.go")
        fetch = {h.path: h.score for h in ws.search("Fetch", k=5, cut=False).results if h.path in go}
        assert set(fetch) == set(go)
        ws.searcher.config = replace(ws.searcher.config, older_version=1.0)
        assert ws.search(query, k=5, cut=False, per_file=1).results[0].path == "src/v3/types.ts"
        assert fetch == {h.path: h.score for h in ws.search("Fetch", k=5, cut=False).results if h.path in go}


CONNECTOR = '''import time


class Connector:
    """A pool of keep-alive connections: idle connections are closed when their keep-alive timeout has
    passed, so a closed connection is never reused."""

    def __init__(self, keepalive_timeout=15.0):
        self.keepalive_timeout = keepalive_timeout
        self.conns = {}

    def cleanup(self):
        """Close idle keep-alive connections whose timeout has passed."""
        now = time.monotonic()
        for key, (conn, since) in list(self.conns.items()):
            if now - since > self.keepalive_timeout:
                conn.close()
                del self.conns[key]

    def connect(self, key):
        """Open a connection, or reuse an idle one."""
        return self.conns.pop(key, (None, 0))[0]
'''


def test_within_a_file_a_member_comes_before_the_class_that_holds_it(tmp_path: Path) -> None:
    """The class holds its methods' words, so it matches whatever they match; the method that does what the
    query says is the answer, and the file keeps its place."""
    query = "close idle keep-alive connections whose timeout has passed"
    with _indexed(_write(tmp_path, {"connector.py": CONNECTOR, "steps.py": FILLER})) as ws:
        hits = [h for h in ws.search(query, k=10, cut=False).results if h.path == "connector.py"]
        assert [h.symbol for h in hits][:2] == ["Connector.cleanup", "Connector"]  # right after its best member
        # what the rule changes (a description in words also scales the class down: code_before_data)
        ws.searcher.config = replace(ws.searcher.config, containers_last=False, words_code_first=False)
        before = [h.symbol for h in ws.search(query, k=10, cut=False).results if h.path == "connector.py"]
        assert before[0] != "Connector.cleanup"


RETRY = '''def backoff_delay(attempt):
    """Seconds to sleep until the next try: doubles each time, capped at one minute."""
    return min(60, 2 ** attempt)


def log_retry(logger, attempt, error):
    """Write a warning to the log when retrying, with the error."""
    logger.warning("retrying after attempt %d: %s", attempt, error)
'''


def test_within_a_file_a_description_in_words_is_matched_by_meaning_as_much_as_by_words(tmp_path: Path) -> None:
    """log_retry shares more of the query's words (retries: retrying); backoff_delay is what it describes."""
    query = "sleep a while between retries"
    with _indexed(_write(tmp_path, {"retry.py": RETRY, "steps.py": FILLER})) as ws:
        hits = [h.symbol for h in ws.search(query, k=10, cut=False).results if h.path == "retry.py"]
        assert hits[:2] == ["backoff_delay", "log_retry"]
        # ordered as a pasted issue's spans are (its words decide), the wordier one comes first
        ws.searcher.config = replace(ws.searcher.config, words_within_file=ws.searcher.config.within_file)
        before = [h.symbol for h in ws.search(query, k=10, cut=False).results if h.path == "retry.py"]
        assert before[:2] == ["log_retry", "backoff_delay"]


FORM_BODY = """export type ParseBodyOptions = {
  /** Whether dotted field names are parsed into nested objects (user.name: { user: { name } }). */
  dot: boolean
  /** Keep every value of a form field whose name repeats, not only the last one. */
  all: boolean
}

// a form field whose name has dots becomes nested objects
export const handleParsingNestedValues = (form: Record<string, unknown>, key: string, value: unknown): void => {
  let nested = form
  const keys = key.split('.')
  keys.forEach((part, index) => {
    if (index === keys.length - 1) {
      nested[part] = value
    } else {
      nested[part] = nested[part] ?? {}
      nested = nested[part] as Record<string, unknown>
    }
  })
}
"""


def test_within_a_file_a_description_in_words_puts_code_before_the_types_it_uses(tmp_path: Path) -> None:
    """A question in words asks what code does: within a file, a type alias or interface (what data looks
    like, often documented in the question's very words) comes after a function that matches about as
    well. Files keep their places; a name query still finds the type."""
    query = "where do dotted form field names become nested objects"
    with _indexed(_write(tmp_path, {"src/utils/body.ts": FORM_BODY, "src/machine.py": FILLER})) as ws:
        assert ws.search(query, k=5, cut=False).results[0].symbol == "handleParsingNestedValues"
        assert ws.search("ParseBodyOptions", k=5, cut=False).results[0].symbol == "ParseBodyOptions"
        ws.searcher.config = replace(ws.searcher.config, words_data=1.0)
        assert ws.search(query, k=5, cut=False).results[0].symbol == "ParseBodyOptions"


RETRY_OPTIONS = """package client

import "time"

// RetryPolicy says how a failed request is tried again: how many attempts, and how long to wait
// between them, doubling the wait after each failure up to a maximum.
type RetryPolicy struct {
	Attempts int
	Wait     time.Duration
	MaxWait  time.Duration
}
"""
RETRY_WAIT = """package client

import "time"

// nextWait is how long to wait before attempt n: the first wait, doubled after each failure, never above the cap.
func nextWait(p RetryPolicy, n int) time.Duration {
	d := p.Wait << n
	if d <= 0 || d > p.MaxWait {
		return p.MaxWait
	}
	return d
}
"""


def test_a_description_in_words_puts_the_code_that_does_it_before_a_type_in_another_file(tmp_path: Path) -> None:
    """Across files too, when spans are ranked: the struct documented in the question's words says what the
    settings are, the function is what computes the wait. Files rank as before (the struct's file first), and
    a name query still finds the struct."""
    query = "how long to wait between attempts, doubling after each failure"
    files = {"options.go": RETRY_OPTIONS, "retry.go": RETRY_WAIT, "steps.py": FILLER}
    with _indexed(_write(tmp_path, files)) as ws:
        assert [h.symbol for h in ws.search(query, k=5, cut=False).results][:2] == ["nextWait", "RetryPolicy"]
        by_file = [h.path for h in ws.search(query, k=5, cut=False, per_file=1).results]
        assert ws.search("RetryPolicy", k=5, cut=False).results[0].symbol == "RetryPolicy"
        ws.searcher.config = replace(ws.searcher.config, words_code_first=False)
        assert ws.search(query, k=5, cut=False).results[0].symbol == "RetryPolicy"  # what the rule changes
        assert [h.path for h in ws.search(query, k=5, cut=False, per_file=1).results] == by_file
        assert by_file[0] == "options.go"


MOUSE = """package tea

// MouseClickMsg is sent when a mouse button is pressed.
type MouseClickMsg struct{ X, Y int }

// String describes a raw mouse click event as text for messages.
func (m MouseClickMsg) String() string { return fmt.Sprintf("click %d %d", m.X, m.Y) }

// MouseReleaseMsg is sent when a mouse button is released.
type MouseReleaseMsg struct{ X, Y int }

// String describes a raw mouse release event as text for messages.
func (m MouseReleaseMsg) String() string { return fmt.Sprintf("release %d %d", m.X, m.Y) }

// MouseWheelMsg is sent when the mouse wheel turns.
type MouseWheelMsg struct{ X, Y int }

// String describes a raw mouse wheel event as text for messages.
func (m MouseWheelMsg) String() string { return fmt.Sprintf("wheel %d %d", m.X, m.Y) }

// MouseMotionMsg is sent when the mouse moves.
type MouseMotionMsg struct{ X, Y int }

// String describes a raw mouse motion event as text for messages.
func (m MouseMotionMsg) String() string { return fmt.Sprintf("motion %d %d", m.X, m.Y) }
"""
INPUT = """package tea

// translateInputEvent converts decoded terminal events into program messages.
func (p *Program) translateInputEvent(e input.Event) Msg {
	switch e := e.(type) {
	case input.ClickEvent:
		return ClickMsg(e)
	case input.BracketedEvent:
		return TextMsg(e)
	case input.GainEvent:
		return GainMsg{}
	}
	return e
}
"""


def test_a_description_in_words_ranks_spans_by_their_own_meaning_not_their_files(tmp_path: Path) -> None:
    """When spans are ranked for a description in words, a file's mean similarity (``file_vector``, shared
    by every span of the file) gives its weight to the span's own: a file of many small look-alike spans
    no longer closes in on the one function that does what the question says. A ranking of files keeps
    it, and the confidence floor follows the weights."""
    query = "how are raw mouse, paste and focus events converted into program messages"

    def margin(ws: Workspace) -> float:
        scores = {h.symbol: h.score for h in ws.search(query, k=10, cut=False).results}
        return scores["Program.translateInputEvent"] - scores["MouseClickMsg.String"]

    with _indexed(_write(tmp_path, {"mouse.go": MOUSE, "input.go": INPUT})) as ws:
        first = ws.search(query, k=3, cut=False).results[0]
        assert first.symbol == "Program.translateInputEvent"
        # the scores of this rule alone: code_before_data re-orders the structs' places, and their scores with them
        ws.searcher.config = replace(ws.searcher.config, words_code_first=False)
        now = margin(ws)
        ws.searcher.config = replace(ws.searcher.config, words_span_weights={})
        assert now > margin(ws) + 0.02
    config = RankingConfig()
    spans, files = config.weights_for(True, words=True), config.weights_for(True, files=True, words=True)
    assert spans["file_vector"] == 0 and spans["vector"] > files["vector"] and files["file_vector"] > 0
    assert config.floor_for(True, words=True) < config.floor_for(True, words=True, files=True) < config.min_score


def test_a_function_holding_a_closure_is_not_a_container() -> None:
    from spyglass.engine.search.ranking import holds

    def span(kind: str, start: int, end: int) -> StoredSpan:
        return StoredSpan(1, "id", kind, "n", "n", "", "", None, "python", start, end, 0, 1, "t", "h", True, "a.py")

    assert holds(span("class", 1, 50), span("method", 10, 20))
    assert holds(span("module", 1, 50), span("function", 1, 20))
    assert not holds(span("function", 1, 50), span("function", 10, 20))  # a closure is part of what it does
    assert not holds(span("class", 1, 50), span("class", 1, 50))  # the same lines
    assert not holds(span("class", 10, 50), span("method", 5, 20))


def test_a_name_defined_once_is_looked_up_before_one_defined_many_times_however_the_files_were_indexed(
    tmp_path: Path,
) -> None:
    """A traceback names ``parse_expr`` (defined once) and ``doprint`` (defined in every printer): the name
    lookup keeps only a pool of definitions, and the rare name must be in it whatever row ids the
    definitions got from the order in which their files were indexed."""
    printers = {
        f"printers/p{i}.py": f"class P{i}:\n    def doprint(self, expr):\n        return str(expr)\n" for i in range(8)
    }
    files = {"parsing.py": "def parse_expr(text):\n    return eval(text)\n", **printers}
    with _indexed(_write(tmp_path, files), LEXICAL) as ws:
        first = [s.qualname for s in ws.store.spans_by_name(["doprint", "parse_expr"], limit=3)]
        assert first[0] == "parse_expr" and len(first) == 3
        # the file is indexed again (its span gets a newer row id than every printer's): the same answer
        (tmp_path / "parsing.py").write_text("def parse_expr(text):\n    return eval(text, {})\n", encoding="utf-8")
        ws.index()
        assert [s.qualname for s in ws.store.spans_by_name(["doprint", "parse_expr"], limit=3)] == first


SETTERS = """package rest

// SetRetryWaitTime sets how long the client waits before it retries a failed request.
func (c *Client) SetRetryWaitTime(d time.Duration) *Client { c.waitTime = d; return c }

// SetRetryCount sets how many times a failed request is retried.
func (c *Client) SetRetryCount(n int) *Client { c.retryCount = n; return c }
"""
BACKOFF_GO = """package rest

func backoff(min, max time.Duration, attempt int, resp *Response) time.Duration {
	if resp != nil {
		if after := resp.Header().Get("Retry-After"); after != "" {
			if secs, err := strconv.Atoi(after); err == nil {
				return time.Duration(secs) * time.Second
			}
		}
	}
	wait := min
	for i := 0; i < attempt; i++ {
		wait *= 2
		if wait > max {
			wait = max
			break
		}
	}
	half := int64(wait / 2)
	if half > 0 {
		wait = time.Duration(half + rand.Int63n(half))
	}
	return wait
}
"""


def test_a_description_in_words_puts_the_code_that_does_it_before_one_line_setters(tmp_path: Path) -> None:
    """A setter documented with what the setting does elsewhere matches a question about that behaviour in
    words and in meaning better than the function that does it; for a description in words, when spans are
    ranked, a function of fewer than 20 lines takes the place of a lower score (ranking.code_before_data)."""
    query = "how long does it wait before trying a failed request again"
    with _indexed(_write(tmp_path, {"client.go": SETTERS, "retry.go": BACKOFF_GO})) as ws:
        assert ws.search(query, k=3, cut=False).results[0].symbol == "backoff"
        ws.searcher.config = replace(ws.searcher.config, words_short_code=(0, 0.0))
        assert ws.search(query, k=3, cut=False).results[0].symbol == "Client.SetRetryWaitTime"


QUERY_PARAMS = '''class QueryParams:
    """An immutable multi-dict of a URL's query parameters."""

    def merge(self, params=None):
        """Return a new QueryParams with the given params added to these."""
        return QueryParams({**self._dict, **dict(params or {})})

    def bind_to_environ(self, environ):
        return self.merge(environ.get("QUERY_STRING"))
'''
CLIENT = '''class Client:
    def _merge_queryparams(self, params=None):
        """Merge the client's query params with a request's."""
        merged = QueryParams(self.params)
        return merged.merge(params)
'''


def test_a_type_and_its_member_written_apart_name_the_member(tmp_path: Path) -> None:
    """Documentation and talk write a method after its class: "QueryParams merge" asks for
    ``QueryParams.merge``, in any naming convention of the member ("QueryParams bindToEnviron")."""
    fillers = {f"src/{word}.py": FILLER.replace("step_", f"{word}_") for word in ("step", "walk", "hop")}
    with _indexed(_write(tmp_path, {"urls.py": QUERY_PARAMS, "client.py": CLIENT, **fillers}), LEXICAL) as ws:
        first = ws.search("QueryParams merge", k=5, cut=False).results[0]
        assert (first.symbol, first.why.signals.get("name")) == ("QueryParams.merge", 1.0)
        first = ws.search("QueryParams bindToEnviron", k=5, cut=False).results[0]
        assert (first.symbol, first.why.signals.get("name")) == ("QueryParams.bind_to_environ", 1.0)
        ws.searcher.config = replace(ws.searcher.config, type_members=False)
        assert ws.search("QueryParams merge", k=5, cut=False).results[0].symbol != "QueryParams.merge"
    assert parse_query("Map bindToEnviron").members == [("Map", "bindToEnviron"), ("Map", "bind_to_environ")]
    assert parse_query("MultiDict to-dict").members == [("MultiDict", "to_dict"), ("MultiDict", "todict")]
    assert parse_query("where does the Router merge two groups").members == []


PROXY = """export async function proxyRequest(event: H3Event, target: string, opts: ProxyOptions = {}) {
  // Request Body
  let body;
  let duplex: Duplex | undefined;
  if (PayloadMethods.has(event.req.method)) {
    if (opts.streamRequest) {
      body = event.req.body;
      duplex = "half";
    } else {
      body = await event.req.arrayBuffer();
    }
  }
  const method = opts.fetchOptions?.method || event.req.method;
  const fetchHeaders = mergeHeaders(getProxyRequestHeaders(event), opts.headers);
  return proxy(event, target, {
    ...opts,
    fetchOptions: { method, body, duplex, ...opts.fetchOptions, headers: fetchHeaders },
  });
}

/**
 * Get the request headers object without headers known to cause issues when proxying.
 */
export function getProxyRequestHeaders(
  event: H3Event,
  opts?: { host?: boolean },
) {
  const headers = new EmptyObject();
  for (const [name, value] of event.req.headers.entries()) {
    if (!ignoredHeaders.has(name) || (name === "host" && opts?.host)) {
      headers[name] = value;
    }
  }
  return headers;
}
"""


def test_a_definition_whose_name_holds_every_word_of_a_short_query_is_named_by_it(tmp_path: Path) -> None:
    """ "proxy request headers" spells ``proxyRequest`` with two of its words, and ``getProxyRequestHeaders``
    holds all three in its name: both are named by the query (the second by the share of its name's words the
    query gives, 3 of 4), and the one that holds it all comes first."""
    fillers = {f"src/{word}.py": FILLER.replace("step_", f"{word}_") for word in ("step", "walk", "hop")}
    with _indexed(_write(tmp_path, {"src/proxy.ts": PROXY, **fillers}), LEXICAL) as ws:
        results = ws.search("proxy request headers", k=5, cut=False).results
        first = (results[0].symbol, results[0].why.signals.get("name"))
        assert first == ("getProxyRequestHeaders", pytest.approx(0.7 * 3 / 4, abs=1e-4))
        ws.searcher.config = replace(ws.searcher.config, names_holding_the_query=False)
        results = ws.search("proxy request headers", k=5, cut=False).results
        assert (results[0].symbol, results[0].why.signals.get("name")) == ("proxyRequest", 0.7)


def test_the_initials_of_three_or_four_plain_words_are_a_possible_acronym() -> None:
    assert parse_query("how server-sent events are received").acronyms == {"sse": ["server", "sent", "events"]}
    assert parse_query("compute a method resolution order").acronyms == {"mro": ["method", "resolution", "order"]}
    # names, punctuation, stop words and two words break the run: no acronym is read across them
    assert parse_query("Compressor SetEncoder register").acronyms == {}
    assert parse_query("read, write, open files").acronyms == {}
    assert parse_query("client ip for each request").acronyms == {}


SSE_READER = """export function readSseStream(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  return decodeSseChunks(reader);
}

export function decodeSseChunks(reader: ReadableStreamDefaultReader<Uint8Array>) {
  return reader.read();
}
"""

CLIENT_EVENTS = """/** Hooks a client runs: a request was sent to the server, a response came back. */
export function emitClientEvents(server: string, sent: number, events: string[]) {
  events.push(`${server}: ${sent}`);
  return events;
}
"""


def test_an_acronym_the_code_spells_out_is_a_form_of_the_words_it_stands_for(tmp_path: Path) -> None:
    """The query says "server-sent events"; the code says ``Sse``, and its docs say once what that stands for.
    The function that reads them comes first, before one that only uses the three words."""
    files = {
        "docs/streaming.md": "# Streaming\n\nThe client reads Server-Sent Events (SSE) from a fetch response.\n",
        "src/sse.ts": SSE_READER,
        "src/events.ts": CLIENT_EVENTS,
        **{f"src/{word}.py": FILLER.replace("step_", f"{word}_") for word in ("step", "walk", "hop")},
    }
    query = "read server-sent events stream"
    with _indexed(_write(tmp_path, files), LEXICAL) as ws:
        assert ws.search(query, k=5, cut=False).results[0].symbol == "readSseStream"
        ws.searcher.config = replace(ws.searcher.config, acronyms=False)
        assert ws.search(query, k=5, cut=False).results[0].symbol == "emitClientEvents"
        # and without the docs, nothing says what ``sse`` stands for: the initials are no form of the words
        ws.searcher.config = replace(ws.searcher.config, acronyms=True)
        (tmp_path / "docs/streaming.md").unlink()
        ws.index()
        assert ws.search(query, k=5, cut=False).results[0].symbol == "emitClientEvents"
