from spyglass.engine.search.query import parse_query


def test_query_finds_identifiers_paths_and_terms():
    q = parse_query("URLValidator.__call__ raises ValueError in django/core/validators.py when parse_url(x) fails")
    assert "django/core/validators.py" in q.paths
    for ident in ("URLValidator", "ValueError", "parse_url", "URLValidator.__call__"):
        assert ident in q.identifiers
    assert "the" not in q.terms and "when" not in q.terms
    assert {"urlvalidator", "parse", "url", "raises"} <= set(q.terms)
    assert q.fts_match.startswith('"')


def test_short_natural_language_query():
    q = parse_query("where is the config loaded")
    assert q.identifiers == []
    assert q.terms == ["config", "loaded"]


def test_quotes_cannot_break_the_fts_expression():
    q = parse_query('say "hello" OR NOT near(')
    assert all('"' not in t for t in q.terms)


PY_TRACE = """Crash when saving
Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/shop/cart.py", line 10, in checkout
    total = price(cart)
  File "/usr/lib/python3/site-packages/shop/pricing.py", line 3, in price
    raise ValueError
ValueError
"""
JS_TRACE = """TypeError: x is undefined
    at renderCart (/app/src/ui/cart.js:12:5)
    at async main (/app/src/index.js:3:1)
"""


def test_stack_frames_give_function_names_and_weight_the_innermost_file_most():
    q = parse_query(PY_TRACE)
    assert q.identifiers[:2] == ["checkout", "price"]
    cart, pricing = "usr/lib/python3/site-packages/shop/cart.py", "usr/lib/python3/site-packages/shop/pricing.py"
    assert q.paths == [cart, pricing]
    assert q.path_weights == {cart: 0.5, pricing: 1.0}  # Python prints the innermost frame last

    q = parse_query(JS_TRACE)
    assert {"renderCart", "main"} <= set(q.identifiers)
    assert q.path_weights == {"app/src/ui/cart.js": 1.0, "app/src/index.js": 0.5}  # innermost first


def test_paths_in_prose_weigh_the_same_and_windows_paths_are_read():
    q = parse_query(r"see src\shop\cart.py and docs/usage.md")
    assert q.path_weights == {"src/shop/cart.py": 1.0, "docs/usage.md": 1.0}


def test_capitalised_words_are_names_only_when_set_as_code():
    text = "Crash in `Foo.bar`\n\n```py\nclass Widget:\n    pass\n```\nThe Widget fails. Also Gadget.\n\n    Thing()\n"
    idents = parse_query(text).identifiers
    assert {"Foo.bar", "Widget", "Thing"} <= set(idents)
    assert "Gadget" not in idents and "Also" not in idents and "Crash" not in idents
    assert parse_query("**Expected behavior** Environment: Mac").identifiers == []


def test_compound_identifiers_become_fts_phrases():
    q = parse_query("autodoc_type_aliases is ignored by Foo.bar_baz and parseConfig")
    assert q.phrases == ["bar baz", "foo bar baz", "autodoc type aliases"]
    assert q.fts_match.startswith('"bar baz" OR "foo bar baz" OR "autodoc type aliases" OR ')


PIP_LIST_ISSUE = """str() on the pytest.raises context variable doesn't behave like a caught exception
Pytest 4.6.2, macOS 10.14.5

with pytest.raises(LookupError) as e: print(str(e)) prints only the first line.

Pip list gives
```
Package            Version
------------------ --------
colorama           0.4.1
mock               3.0.4
attrs==19.1.0
├── left-pad@1.3.0
numpy: 1.17.0
zarr: None
```
"""


def test_an_environment_listing_is_not_part_of_the_query():
    q = parse_query(PIP_LIST_ISSUE)
    for package in ("colorama", "mock", "attrs", "left", "numpy", "zarr", "package", "version"):  # and its header
        assert package not in q.terms
        assert package not in q.text  # nor in what the model embeds
    assert {"raises", "context", "exception", "lookuperror"} <= set(q.terms)
    assert q.title.startswith("str() on the pytest.raises")


def test_a_version_or_two_in_prose_stays():
    text = "Upgrading from flask 2.0.1 to\nflask 2.1.0 breaks blueprints\nwith url_prefix"
    assert parse_query(text).text == text
    settings = "timeout: 1.5\nretries: 3\nbackoff: 0.5"  # YAML: two lines shaped like versions are no listing
    assert parse_query(settings).text == settings


def test_hostile_queries_are_read_in_linear_time():
    # each took a minute or more to parse (a pattern that backtracks, a test per name over the whole text)
    line = "a 1" + ".1" * 20_000 + " x y z w"  # version-shaped, failing at its end
    assert parse_query("\n".join([line] * 3)).text.count(".1") == 60_000  # read and kept: no listing
    assert parse_query("a/" * 20_000).paths == []  # one word of 40,000 characters is no path
    assert parse_query("a-" * 20_000).paths == []
    names = " ".join(f"call{i}(" for i in range(20_000))
    assert parse_query(names).identifiers[:2] == ["call0", "call1"]


def test_a_name_before_a_parenthesis_is_called_with_its_tails():
    q = parse_query("the sprint( helper and rint are both wrong")
    assert "sprint" in q.identifiers and "rint" in q.identifiers  # as the substring test always said
