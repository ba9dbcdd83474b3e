"""Secret redaction: what the MCP server replaces before any text reaches a coding agent.

Spyglass never indexes secret files (see :mod:`spyglass.engine.filerules`), but secrets also live in ordinary
source and config files: a token pasted into a test, a password in a ``docker-compose.yml``. Whatever the
MCP tools return (snippets, span text, file excerpts) goes through :func:`redact` first, so an agent (and
the model provider behind it) never sees them. Each secret is replaced by a marker naming its kind,
``[REDACTED:<kind>]``; the text around it is kept, so the code still reads (``password = "hunter22"``
becomes ``password = "[REDACTED:password]"``).

What is redacted, in the order the patterns run (examples shortened with ``…``; real values are longer):

* ``private-key``: a PEM private-key block, ``-----BEGIN RSA PRIVATE KEY-----`` (also ``EC``, ``OPENSSH``,
  ``ENCRYPTED``, ``PGP ... KEY BLOCK``, none) followed by base64 lines, through its ``-----END ...-----``
  line, with real or ``\\n``-escaped newlines (a key inside JSON). A BEGIN line with base64 after it but no
  END line is a truncated snippet: redacted to the end of the text. A BEGIN line not followed by base64
  (``if pem.startswith("-----BEGIN RSA PRIVATE KEY-----")``) is code about keys and stays.
* ``aws-access-key``: AWS access key IDs, ``AKIA`` or ``ASIA`` + 16 upper-case letters/digits
  (``AKIAIOSFODNN7EXAMPLE``).
* ``github-token``: ``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_`` + 36 or more letters/digits
  (``ghp_aBc1…``), and fine-grained ``github_pat_…`` tokens.
* ``gitlab-token``: GitLab tokens, ``glpat-`` + 20 or more characters (``glpat-aBc1…``).
* ``slack-token``: ``xoxb-…``, ``xoxp-…``, ``xoxa-…``, ``xoxr-…``, ``xoxs-…`` (``xoxb-1234-5678-aBc…``).
* ``stripe-key``: Stripe live keys, ``sk_live_…`` and ``rk_live_…``.
* ``google-api-key``: ``AIza`` + 35 characters (``AIzaSyA1…``).
* ``anthropic-key``: ``sk-ant-…`` (``sk-ant-api03-aBc1…``).
* ``openai-key``: ``sk-…`` and ``sk-proj-…`` keys: 20 or more characters mixing upper case, lower case
  and digits (``sk-proj-aBc1…``); kebab-case words like ``sk-fading-circle-animation`` stay.
* ``jwt``: JSON Web Tokens, three base64url segments, the first starting ``eyJ``
  (``eyJhbGciOi….eyJzdWIiOi….SflKxwRJ…``).
* ``aws-secret-key``: a 40-character AWS secret access key assigned to a name containing ``aws_secret`` or
  ``secret_access_key`` (``aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/…``).
* ``auth-header``: the credentials of an ``Authorization`` header, ``Authorization: Bearer abc123…``,
  ``"Authorization": "Basic dXNlcjpwYXNz"`` (also ``token``/``bot`` schemes), and a ``Bearer``/``Basic``
  value elsewhere when it looks like a token (16+ characters with letters and digits).
* ``url-password``: the password of a URL with credentials, ``postgres://app:s3cret@db:5432/app`` becomes
  ``postgres://app:[REDACTED:url-password]@db:5432/app`` (the user name and host stay).
* ``slack-webhook``: the path of a Slack webhook URL, ``https://hooks.slack.com/services/T…/B…/…``.
* ``npm-token``: npm tokens (``npm_`` + 36) and any value of ``//registry.npmjs.org/:_authToken=…``.
* ``pypi-token``: PyPI upload tokens, ``pypi-AgE…``.
* ``sendgrid-key``: SendGrid API keys, ``SG.<22>.<43>``.
* ``twilio-key``: Twilio account and API key SIDs, ``AC``/``SK`` + 32 hex digits.
* ``private-key`` also: a PEM private key base64-encoded once more (kubeconfig ``client-key-data: LS0tLS1CRUdJTi…``,
  Kubernetes secrets); base64 that decodes to a certificate stays.
* ``azure-key``: the key of an Azure connection string, ``AccountKey=…``, ``SharedAccessKey=…``.
* ``azure-sas``: the signature of a shared access signature, ``…?sv=…&sig=…``.
* ``basic-auth``: the password of ``curl -u user:password`` (also ``--user``, wget ``--http-user``, httpie ``-a``).
* ``password`` also: the password of a semicolon-separated connection string (``Server=…;Password=…;``) and a
  credential in a URL's query string (``jdbc:mysql://db/shop?user=app&password=…``, ``?api_key=…``).
* ``password`` and ``secret``: generic assignments, in code or config, to a name containing ``password``,
  ``passwd``, ``passphrase``, ``pwd`` (kind ``password``) or ``secret``, ``token``, ``api_key``/``apiKey``,
  ``access_key``, ``private_key``, ``encryption_key``/``signing_key``/``hmac_key``/``master_key`` (kind
  ``secret``; ``client_secret`` and ``DB_PASSWORD`` included, case
  does not matter), of a value of 6 or more characters: quoted strings in any language
  (``password = "hunter22"``, ``"apiKey": "aBc123…"``, ``Password: "…",``, ``'secret' => '…'``,
  ``token := "…"``, ``password: str = "…"``) and unquoted config values running to the end of the line
  (``.env`` ``DB_PASSWORD=hunter22``, YAML ``password: hunter22``, INI ``password = hunter22``,
  ``spring.datasource.password=…``), and XML elements (``<password>hunter22</password>``).

What the generic assignments leave alone, because it is not a secret and redacting it would hide code:

* placeholders: empty or short values, ``xxxxxx``, ``******``, ``changeme``, ``<your-token>``,
  ``your_api_key_here``, ``${DB_PASSWORD}``, ``$TOKEN``, ``%(password)s``, ``{{ vault_password }}``,
  ``{password}``, values ending in ``...``;
* references and code: ``os.environ[...]``, ``getenv(...)``, ``process.env.X``, calls
  (``password = get_password()``), attributes (``token = self.token``), subscripts, identifiers ending a
  statement (``const token = authToken;``), camelCase or snake_case identifiers (``password =
  user_password``), numbers, ``None``/``null``/``true``;
* type annotations and declarations: ``password: str``, ``token: string;``, ``def login(password: str =
  "")``, ``Password string `json:"password"```;
* names where the secret word is only a qualifier: ``TOKEN_URL``, ``password_field``, ``secretName``,
  ``token_expires_in`` (the last word of the name is in :data:`NOT_SECRET_NAME_WORDS`), words that only
  start with one (``tokenizer``, ``MAX_TOKENS``, ``secretary``), and ``public`` names
  (``NEXT_PUBLIC_API_KEY``, ``publicKeyToken``);
* values that are URLs (a password inside one is the ``url-password`` pattern's job), file paths, key names
  (``TOKEN_ENV = "GITHUB_TOKEN"``, ``"challengePassword"``), numbered stand-ins (``password1``) or prose of
  three words or more (``"Enter your password"``);
* for names whose only secret word is ``token`` (which also names lexer, NLP and pagination tokens), values
  that are not shaped like a credential, one word of letters and digits (or 20+ characters of mixed case):
  ``bos_token = "<s>"``, ``pad_token = "[PAD]"``, ``Token: "#d8dee9"``; for the other ``secret`` names,
  values with spaces.

Limits: this is pattern matching. It cannot know every vendor's format, and a high-entropy string with no
telling prefix and no telling name (``x = "q8Zr…"``) is not redacted: flagging every random-looking string
would also hide hashes, UUIDs and test data and make code unreadable. Pure standard library (``re``), no I/O.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple


class Redacted(NamedTuple):
    """The result of :func:`redact`."""

    text: str
    """The input with every secret replaced by ``[REDACTED:<kind>]``."""
    count: int  # type: ignore[assignment]  # a field named like tuple.count, as callers read it
    """How many secrets were replaced."""
    kinds: tuple[str, ...]
    """The distinct kinds replaced, sorted (empty when nothing was)."""


MARKER = "[REDACTED:{kind}]"
"""What a secret becomes; ``{kind}`` is one of :data:`KINDS`."""

_MARKER_PREFIX = "[REDACTED"

# --------------------------------------------------------------------------------------------------
# Vendor and format patterns. Each has one group, "s", the part replaced by the marker.

# private-key: PEM private keys. The BEGIN line must be followed (after newlines, \n escapes, string quotes and
# concatenation, and "Proc-Type:"/"DEK-Info:" headers) by base64, so code that only mentions the header
# stays. Then through the END line, or to the end of the text when there is none (a truncated snippet).
_PEM_LEAD = r"""(?:\\[nr]|[\s"'`+,])*"""
_PRIVATE_KEY = re.compile(
    r"(?P<s>-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
    rf"(?={_PEM_LEAD}(?:[A-Za-z-]+:[^\n\\]*(?:\n|\\n){_PEM_LEAD})*[A-Za-z0-9+/=]{{20}})"
    r"(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*))"
)

# aws-access-key: AWS access key IDs (long-term AKIA, temporary ASIA).
_AWS_ACCESS_KEY = re.compile(r"\b(?P<s>(?:AKIA|ASIA)[0-9A-Z]{16})\b")

# github-token: GitHub classic tokens (personal, OAuth, user-to-server, server-to-server, refresh) and
# fine-grained personal access tokens.
_GITHUB_TOKEN = re.compile(r"\b(?P<s>gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})(?![A-Za-z0-9_])")

# gitlab-token: GitLab personal/project access tokens (newer ones may carry dot-separated suffixes).
_GITLAB_TOKEN = re.compile(r"\b(?P<s>glpat-[A-Za-z0-9_\-]{20,}(?:\.[A-Za-z0-9_\-]+)*)")

# slack-token: Slack bot, user, app, refresh and legacy tokens.
_SLACK_TOKEN = re.compile(r"\b(?P<s>xox[abprs]-[A-Za-z0-9][A-Za-z0-9\-]{8,}[A-Za-z0-9])")

# stripe-key: Stripe live secret and restricted keys (test keys are published in Stripe's own docs and left alone).
_STRIPE_KEY = re.compile(r"\b(?P<s>[sr]k_live_[A-Za-z0-9]{10,})")

# google-api-key: Google API keys, always AIza + 35 characters.
_GOOGLE_API_KEY = re.compile(r"(?<![A-Za-z0-9_\-])(?P<s>AIza[0-9A-Za-z_\-]{35})(?![A-Za-z0-9_\-])")

# anthropic-key: Anthropic API keys (before OpenAI's, which share the "sk-" prefix).
_ANTHROPIC_KEY = re.compile(r"\b(?P<s>sk-ant-[A-Za-z0-9_\-]{20,})")

# openai-key: OpenAI-style keys, legacy sk-<48>, sk-proj-..., sk-svcacct-..., sk-admin-... (checked for mixed case
# and digits by _check_openai, so kebab-case identifiers starting "sk-" stay).
_OPENAI_KEY = re.compile(r"\b(?P<s>sk-(?!ant-)(?:proj-|svcacct-|admin-)?(?P<body>[A-Za-z0-9_\-]{20,}))")

# jwt: JSON Web Tokens, header.payload.signature in base64url, the header a JSON object ("eyJ" = '{"').
# The signature may be empty (unsigned tokens).
_JWT = re.compile(r"(?<![A-Za-z0-9_\-])(?P<s>eyJ[A-Za-z0-9_\-]{6,}\.[A-Za-z0-9_\-]{6,}\.[A-Za-z0-9_\-]*)(?![\w\-])")

# aws-secret-key: AWS secret access keys, 40 base64 characters assigned to a telling name (they have no prefix).
_AWS_SECRET_KEY = re.compile(
    r"(?i:(?<![\w.$-])[\w.$-]{0,40}?(?:aws_?secret|secret_?access_?key)[\w.$-]{0,20})"
    r"[\"'`]?\]?[ \t]*(?::=|=>|=|:)[ \t]*[\"'`]?"
    r"(?P<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)

# auth-header: Authorization headers in any syntax: HTTP, curl -H, dict/JSON/object literals, setHeader(name, value).
_AUTH_HEADER = re.compile(
    r"(?i:\bauthorization)[\"'`\]]?[ \t]*(?:=>|[:=,])[ \t]*[\"'`]?"
    r"(?i:bearer|basic|token|bot)[ \t]+(?P<s>[A-Za-z0-9._~+/\-]{8,}=*)(?![\w(])"
)

# auth-header: a Bearer/Basic credential outside a header (a log line, a test string); token-shaped only
# (_check_bearer).
_BEARER = re.compile(r"(?i:\b(?:bearer|basic))[ \t]+(?P<s>[A-Za-z0-9._~+/\-]{16,}=*)(?![\w(])")

# url-password: URLs with credentials, scheme://user:password@host; only the password goes.
_URL_PASSWORD = re.compile(
    r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/?#@'\"`<>(){}\[\]]*:(?P<s>[^\s/?#@'\"`<>]+)@(?=[\w\[%.-])"
)

# slack-webhook: Slack incoming webhooks and workflow triggers; the path after the host is the secret.
_SLACK_WEBHOOK = re.compile(
    r"(?i)\bhooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9_\-]+/[A-Za-z0-9_\-]+(?:/[A-Za-z0-9_\-]+)*)"
)

# npm-token: npm access tokens (npm_ + 36), and any value of an .npmrc-style "//registry/:_authToken=".
_NPM_TOKEN = re.compile(r"\b(?P<s>npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])")
_NPM_AUTH = re.compile(r":_auth(?:Token)?[ \t]*=[ \t]*[\"']?(?P<s>[^\s\"']{6,})")

# pypi-token: PyPI upload tokens (a macaroon whose base64 starts with the encoded "pypi.org").
_PYPI_TOKEN = re.compile(r"\b(?P<s>pypi-AgE[A-Za-z0-9_\-]{50,})")

# sendgrid-key: SendGrid API keys, SG.<22>.<43>.
_SENDGRID_KEY = re.compile(r"\b(?P<s>SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,50})")

# twilio-key: Twilio account SIDs and API key SIDs (AC/SK + 32 hex digits).
_TWILIO_KEY = re.compile(r"\b(?P<s>(?:AC|SK)[0-9a-f]{32})\b")

# private-key: a PEM private key encoded in base64 once more (kubeconfig client-key-data, Kubernetes secrets):
# "-----BEGIN" is "LS0tLS1CRUdJTi" in base64; checked by decoding (_check_b64_pem).
_B64_PEM = re.compile(r"(?P<s>LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2})")

# azure-key: the key of an Azure connection string (storage, Service Bus, Event Hubs, IoT Hub).
_AZURE_KEY = re.compile(
    r"(?i:\b(?:AccountKey|SharedAccessKey|SharedAccessSignature))[ \t]*=[ \t]*(?P<s>[^;\s\"'`]{20,})"
)

# azure-sas: the signature of a shared access signature URL or token (sig=...).
_AZURE_SAS = re.compile(r"[?&;](?i:sig)=(?P<s>[A-Za-z0-9%+/=]{20,})")

# password: a password in a semicolon-separated connection string (ADO.NET, ODBC):
# Server=...;User Id=...;Password=...; (the key must follow a ";" or quote, or be followed by one).
_CONN_PASSWORD = re.compile(
    r"(?i)(?:(?<=[;\"'`])|(?<=;[ \t]))[ \t]*(?:password|pwd)[ \t]*=[ \t]*(?P<s>[^;\"'`\r\n]{4,}?)[ \t]*(?=;|[\"'`]|$)",
    re.M,
)

# password / secret: a credential in a URL's query string (JDBC, ODBC, REST): ?user=app&password=... .
_QUERY_PARAM = re.compile(
    r"[?&;](?P<name>(?i:password|passwd|pwd|secret|client_secret|api_?key|access_token|auth_token|private_token))"
    r"=(?P<s>[^&;#\s\"'`<>]{6,})"
)

# basic-auth: user:password on a curl/wget/http command line (curl -u user:pass, --user=user:pass).
_CLI_BASIC_AUTH = re.compile(
    r"(?i)\b(?:curl|wget|http|https|xh)\b[^\n]*?[ \t](?:-u|--user|--http-user|-a|--auth)(?:[ \t]+|=)[\"']?"
    r"[^\s:\"'`]*:(?P<s>[^\s\"'`,;)]{4,})(?![^\s\"'])"
)

# --------------------------------------------------------------------------------------------------
# password / secret: generic assignments to secret-looking names (checked by _check_assignment; kind
# password for password/passwd/passphrase/pwd names, secret for the others).

_SECRET_WORDS = (
    r"pass(?:word|wd|phrase)|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key"
    r"|(?:encryption|signing|hmac|master|session|license)[_-]?key"
)
_SECRET_WORD_RE = re.compile(_SECRET_WORDS, re.I)
_PASSWORD_WORD_RE = re.compile(r"pass|pwd", re.I)

_ASSIGNMENT = re.compile(
    rf"""
    (?<![\w.$-])
    (?P<name>[\w.$-]{{0,60}}?(?i:{_SECRET_WORDS})[\w.$-]{{0,40}})
    ["'`]?\]?                                                    # end of a key: "apiKey": / ['password'] =
    (?P<op>
        [ \t]*:[ \t]*[A-Za-z_][\w.\[\], |]{{0,40}}?[ \t]*=(?![=>~])  # annotated: password: str = "..."
      | [ \t]*(?::=|=>|=(?![=~])|:(?![:=]))
    )
    [ \t]*
    (?:
        (?P<prefix>[rRbBuUfF]{{0,2}})(?P<quote>["'`])(?P<qval>(?:\\.|(?!(?P=quote))[^\\\n])*)(?P=quote)
      | (?P<bare>[^\s"'`]\S*)(?=[ \t]+[\#;]|[ \t]*\r?$)        # unquoted: to the end of the line (or a comment)
    )
    """,
    re.X | re.M,
)

# password / secret: XML/HTML elements, <password>hunter22</password> (Maven settings, .NET configs).
_XML_ELEMENT = re.compile(
    rf"<(?P<name>[\w:.-]*(?i:{_SECRET_WORDS})[\w:.-]*)>[ \t]*(?P<s>[^<>\s]{{6,}})[ \t]*</(?P=name)>",
)

NOT_SECRET_NAME_WORDS = frozenset(
    """
    url uri urls uris endpoint host hostname port path paths file filename files dir directory folder
    name names type types kind id ids index idx header headers field fields param params attr attribute column
    col label placeholder hint help message messages msg text title description desc error errors prompt
    regex re pattern format fmt mode policy policies rule rules expiry expires expiration exp in at ttl timeout
    lifetime duration age ms sec seconds len length size count max min limit prefix suffix env var variable ref
    arn version provider manager service store storage cache method methods scheme source class style enabled
    required flag reset changed valid validator validation strength location scope scopes audience issuer
    algorithm alg encoding input button link route view form icon usage
    """.split()
)
"""Last words of a name that make it about a secret rather than one (``TOKEN_URL``, ``password_field``)."""

_PLACEHOLDER_WORDS = frozenset(
    """
    changeme change_me change-me changeit placeholder redacted example sample dummy none null nil undefined
    todo tbd fixme password passwd pass secret token
    """.split()
)
_TYPE_WORDS = frozenset(
    "str string bytes int integer bool boolean number object any unknown none null nil undefined true false "
    "yes no on off secretstr optional".split()
)

_FILLER = re.compile(r"[xX*•.·#_\-\s]+")
_PLACEHOLDER_SHAPE = re.compile(
    r"<[^<>]*>|\[[^\[\]]*\]|\{[^{}]*\}|%\w|%\([^)]*\)\w|\$\w+|\$\{[^}]*\}|%[\w-]+%|\d*\*\w+|&\w+"
)
_TEMPLATE_MARKS = ("${", "{{", "{%", "%(", "$(", "#{", "<%")
_ENV_REFERENCE = re.compile(r"(?i)\b(?:os\.environ|getenv|process\.env|import\.meta\.env|env\(|ENV\[)")
_YOUR_PLACEHOLDER = re.compile(
    r"(?i)^(?:your|insert|enter|replace)(?:[-_ ]|[A-Z]|$)|[-_ ]here$|^my[-_]?(?:pass(?:word)?|secret|token|pwd)$"
)
_PATH_LIKE = re.compile(r"(?:~|\.{1,2})?/\S*")
_KEY_NAME = re.compile(r"[A-Za-z]+(?:[_.\-]+[A-Za-z]+)+|[A-Za-z][a-z]+(?:[A-Z][a-z]+)+")
_PROSE = re.compile(r"[^\W_][\w'’+-]*[,;:]?(?: +[^\W_][\w'’+-]*[,;:]?){2,}[ .:!?…]*")
_CODE_BARE = re.compile(r"[()\[\]{}]")
_TOKEN_SHAPE = re.compile(r"[\w\-+/=.:~!@#$%^&*]{6,}")
_CSS_COLOR = re.compile(r"#[0-9A-Fa-f]{3,8}")
_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")
_NUMBER = re.compile(r"[-+]?(?:0[xXoObB][0-9A-Fa-f_]+|\d[\d_.]*[A-Za-z]?)")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_CAMEL_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


# --------------------------------------------------------------------------------------------------
# Checks: each takes a match and returns (kind, start, end) of the text to replace, or None to keep it.

Check = Callable[[re.Match[str]], "tuple[str, int, int] | None"]


def _is_placeholder(value: str) -> bool:
    """Whether ``value`` is a stand-in for a secret rather than one (docs, templates, env indirection)."""
    s = value.strip()
    if not s or _FILLER.fullmatch(s) or s.lower() in _PLACEHOLDER_WORDS or "***" in s:
        return True
    if _PLACEHOLDER_SHAPE.fullmatch(s) or any(t in s for t in _TEMPLATE_MARKS):
        return True
    if s.endswith(("...", "…")) or _YOUR_PLACEHOLDER.search(s):
        return True
    return bool(_ENV_REFERENCE.search(s))


def _simple(kind: str) -> Check:
    """The check for a vendor pattern: replace group ``s`` unless it is already a marker."""

    def check(m: re.Match[str]) -> tuple[str, int, int] | None:
        if _MARKER_PREFIX in m.group("s"):
            return None
        return kind, m.start("s"), m.end("s")

    return check


def _check_openai(m: re.Match[str]) -> tuple[str, int, int] | None:
    """Real keys are random: upper case, lower case and digits all occur."""
    body = m.group("body")
    if not (any(c.isdigit() for c in body) and any(c.isupper() for c in body) and any(c.islower() for c in body)):
        return None
    return "openai-key", m.start("s"), m.end("s")


def _check_header(m: re.Match[str]) -> tuple[str, int, int] | None:
    """An Authorization value: anything but a placeholder (``Bearer YOUR_TOKEN``)."""
    if _is_placeholder(m.group("s")) or _MARKER_PREFIX in m.group("s"):
        return None
    return "auth-header", m.start("s"), m.end("s")


def _check_bearer(m: re.Match[str]) -> tuple[str, int, int] | None:
    """A Bearer/Basic value outside a header must look like a token: letters and digits both."""
    value = m.group("s")
    if not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value)) or _is_placeholder(value):
        return None
    return "auth-header", m.start("s"), m.end("s")


def _check_url(m: re.Match[str]) -> tuple[str, int, int] | None:
    """A URL password: anything but a placeholder (``{password}``, ``%s``, ``${DB_PASSWORD}``, ``password``)."""
    value = m.group("s")
    if _MARKER_PREFIX in value or _is_placeholder(value):
        return None
    return "url-password", m.start("s"), m.end("s")


def _check_simple_value(kind: str) -> Check:
    """A pattern whose value may be a placeholder (``sig=${SAS}``, ``:_authToken=${NPM_TOKEN}``)."""

    def check(m: re.Match[str]) -> tuple[str, int, int] | None:
        value = m.group("s")
        if _MARKER_PREFIX in value or _is_placeholder(value):
            return None
        return kind, m.start("s"), m.end("s")

    return check


def _check_query_param_free(kind: str) -> Check:
    """A value standing alone (``curl -u user:pass``): anything but a placeholder or a placeholder word."""

    def check(m: re.Match[str]) -> tuple[str, int, int] | None:
        value = m.group("s")
        if _MARKER_PREFIX in value or _is_placeholder(value) or value.lower() in _PLACEHOLDER_WORDS:
            return None
        return kind, m.start("s"), m.end("s")

    return check


def _check_b64_pem(m: re.Match[str]) -> tuple[str, int, int] | None:
    """Base64 that decodes to a PEM private key (a certificate stays: it is public)."""
    chunk = m.group("s")
    head = chunk[: (min(len(chunk), 120) // 4) * 4]
    try:
        decoded = base64.b64decode(head + "=" * (-len(head) % 4))
    except (ValueError, binascii.Error):
        return None
    if b"PRIVATE KEY" not in decoded:
        return None
    return "private-key", m.start("s"), m.end("s")


def _check_query_param(m: re.Match[str]) -> tuple[str, int, int] | None:
    """A query-string credential: anything but a placeholder."""
    value = m.group("s")
    if _MARKER_PREFIX in value or _is_placeholder(value) or value.lower() in _PLACEHOLDER_WORDS:
        return None
    kind = "password" if _PASSWORD_WORD_RE.search(m.group("name")) else "secret"
    return kind, m.start("s"), m.end("s")


def _check_conn_password(m: re.Match[str]) -> tuple[str, int, int] | None:
    """A connection string's password: anything but a placeholder (``Password={0}``, ``Pwd=$(DB_PWD)``)."""
    value = m.group("s").strip()
    if _MARKER_PREFIX in value or _is_placeholder(value) or value.lower() in _PLACEHOLDER_WORDS:
        return None
    return "password", m.start("s"), m.start("s") + len(m.group("s").rstrip())


def _name_class(name: str) -> str | None:
    """How ``name`` names a secret: ``"password"``, ``"token"`` (its only secret word is ``token``, which
    also names lexer, NLP and pagination tokens), ``"secret"`` (the other words), or None if it does not.

    A secret word must end a word of the name (``DB_PASSWORD``, ``apiKeyValue``; not ``tokenizer``,
    ``MAX_TOKENS``), the name's last word must not make it about the secret (``TOKEN_URL``), and names saying
    ``public`` (``publicKeyToken``, ``NEXT_PUBLIC_API_KEY``) are public by definition.
    """
    words = set()
    for w in _SECRET_WORD_RE.finditer(name):
        nxt = name[w.end() : w.end() + 1]
        if not nxt.isalpha() or (w.group()[-1].islower() and nxt.isupper()):
            words.add(w.group().lower())
    if not words or "public" in name.lower():
        return None
    last = re.split(r"[_.\-$\[\]'\"]+", name.strip("_.-$"))[-1]
    parts = _CAMEL_PARTS.findall(last)
    if parts and parts[-1].lower() in NOT_SECRET_NAME_WORDS:
        return None
    if _PASSWORD_WORD_RE.search(name):
        return "password"
    return "token" if words == {"token"} else "secret"


def _token_shaped(value: str) -> bool:
    """Whether ``value`` looks like a generated credential: one run of token characters with letters and
    digits (or 20+ characters of mixed case), not a CSS colour. Rules out ``"[CLS]"``, ``"__start__"``,
    ``"#d8dee9"`` and ``"bert-base-uncased"`` in code that is about other kinds of token."""
    if not _TOKEN_SHAPE.fullmatch(value) or _CSS_COLOR.fullmatch(value):
        return False
    letters = any(c.isalpha() for c in value)
    if letters and any(c.isdigit() for c in value):
        return True
    return len(value) >= 20 and any(c.isupper() for c in value) and any(c.islower() for c in value)


def _plausible_value(value: str, name_class: str) -> bool:
    """Whether a value assigned to a name of ``name_class`` (see :func:`_name_class`) can be a secret."""
    if len(value) < 6 or _MARKER_PREFIX in value or _is_placeholder(value):
        return False
    if value.rstrip("0123456789").lower() in _PLACEHOLDER_WORDS:
        return False  # "password1", "token2": numbered stand-ins
    if "://" in value or _PATH_LIKE.fullmatch(value):
        return False
    if _KEY_NAME.fullmatch(value) and _SECRET_WORD_RE.search(value):
        return False  # the name of a key or variable: "GITHUB_TOKEN", "challengePassword"
    if name_class == "token":
        return _token_shaped(value)
    if name_class == "secret":
        return not any(c.isspace() for c in value)  # keys and secrets are one word
    return True


def _line_form(m: re.Match[str]) -> str:
    """How an unquoted assignment is written: ``"env"`` (``NAME=value`` at the start of a line),
    ``"yaml"`` (``name: value`` at the start of a line) or ``"code"`` (anything else, INI included)."""
    text = m.string
    lead = text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip()
    if lead not in ("", "-", "export"):
        return "code"
    op = m.group("op")
    if op == "=":
        return "env"
    if op == ":":
        return "yaml"
    return "code"


def _bare_is_value(m: re.Match[str], value: str) -> bool:
    """Whether an unquoted value is a literal (config) rather than code: a reference, call, type, keyword,
    number, or the tail of a statement (``authToken;``, ``bytes):``, ``token)[0].sha``)."""
    if value[-1] in ";,:" or value[0] in "!*&|>" or any(c in value for c in "\"'`"):
        return False
    if _DOTTED.fullmatch(value) or _NUMBER.fullmatch(value) or value.lower() in _TYPE_WORDS:
        return False
    form = _line_form(m)
    if form != "env" and _CODE_BARE.search(value):
        return False  # brackets: a call or subscript in code (a .env value may hold them)
    if _IDENT.fullmatch(value):
        # an identifier: in .env files a value, in code a variable; camelCase and snake_case ones are
        # variables anywhere but in .env; plain words are values in .env and YAML (Capitalised: a type)
        if form != "env" and ("_" in value or "$" in value or re.search(r"[a-z][A-Z]", value)):
            return False
        if not any(c.isdigit() for c in value):
            return form == "env" or (form == "yaml" and not value[0].isupper())
    return True


def _check_assignment(m: re.Match[str]) -> tuple[str, int, int] | None:
    """A generic ``name = value``: the name must name a secret and the value be a plausible one."""
    name_class = _name_class(m.group("name"))
    if name_class is None:
        return None
    if m.group("quote") is not None:
        value, group = m.group("qval"), "qval"
        if "f" in m.group("prefix").lower() and "{" in value:
            return None  # an f-string builds the value from variables
        if _PROSE.fullmatch(value):
            return None  # a message about the secret, not the secret
    else:
        value, group = m.group("bare"), "bare"
        if not _bare_is_value(m, value):
            return None
    if not _plausible_value(value, name_class):
        return None
    return _KIND_OF_CLASS[name_class], m.start(group), m.end(group)


def _check_xml(m: re.Match[str]) -> tuple[str, int, int] | None:
    """``<password>value</password>``: the same name and value rules as assignments."""
    name_class = _name_class(m.group("name"))
    if name_class is None or not _plausible_value(m.group("s"), name_class):
        return None
    return _KIND_OF_CLASS[name_class], m.start("s"), m.end("s")


_KIND_OF_CLASS = {"password": "password", "secret": "secret", "token": "secret"}


_RULES: tuple[tuple[re.Pattern[str], Check, tuple[str, ...]], ...] = (
    (_PRIVATE_KEY, _simple("private-key"), ("private key",)),
    (_AWS_ACCESS_KEY, _simple("aws-access-key"), ("akia", "asia")),
    (_GITHUB_TOKEN, _simple("github-token"), ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    (_GITLAB_TOKEN, _simple("gitlab-token"), ("glpat-",)),
    (_SLACK_TOKEN, _simple("slack-token"), ("xox",)),
    (_STRIPE_KEY, _simple("stripe-key"), ("k_live_",)),
    (_GOOGLE_API_KEY, _simple("google-api-key"), ("aiza",)),
    (_ANTHROPIC_KEY, _simple("anthropic-key"), ("sk-ant-",)),
    (_OPENAI_KEY, _check_openai, ("sk-",)),
    (_JWT, _simple("jwt"), ("eyj",)),
    (_AWS_SECRET_KEY, _simple("aws-secret-key"), ("secret",)),
    (_AUTH_HEADER, _check_header, ("authorization",)),
    (_BEARER, _check_bearer, ("bearer", "basic")),
    (_URL_PASSWORD, _check_url, ("://",)),
    (_SLACK_WEBHOOK, _simple("slack-webhook"), ("hooks.slack.com",)),
    (_NPM_TOKEN, _simple("npm-token"), ("npm_",)),
    (_NPM_AUTH, _check_simple_value("npm-token"), (":_auth",)),
    (_PYPI_TOKEN, _simple("pypi-token"), ("pypi-",)),
    (_SENDGRID_KEY, _simple("sendgrid-key"), ("sg.",)),
    (_TWILIO_KEY, _simple("twilio-key"), ()),
    (_B64_PEM, _check_b64_pem, ("ls0tls1crudjti",)),
    (_AZURE_KEY, _check_simple_value("azure-key"), ("accountkey", "sharedaccesskey", "sharedaccesssignature")),
    (_AZURE_SAS, _check_simple_value("azure-sas"), ("sig=",)),
    (_CONN_PASSWORD, _check_conn_password, ("password", "pwd")),
    (_QUERY_PARAM, _check_query_param, ("pass", "pwd", "secret", "api", "_token")),
    (_CLI_BASIC_AUTH, _check_query_param_free("basic-auth"), ("curl", "wget", "http", "xh")),
    (_XML_ELEMENT, _check_xml, ("</",)),
    (_ASSIGNMENT, _check_assignment, ("pass", "pwd", "secret", "token", "key")),
)
"""Most specific first: a GitHub token assigned to ``token`` is a ``github-token``, and later patterns skip
values that already hold a marker. The third item lists strings (lower case) one of which the text must hold
for the pattern to be tried at all: a cheap test that skips most patterns on most files."""

KINDS: tuple[str, ...] = (
    "private-key",
    "aws-access-key",
    "github-token",
    "gitlab-token",
    "slack-token",
    "stripe-key",
    "google-api-key",
    "anthropic-key",
    "openai-key",
    "jwt",
    "aws-secret-key",
    "auth-header",
    "url-password",
    "slack-webhook",
    "npm-token",
    "pypi-token",
    "sendgrid-key",
    "twilio-key",
    "azure-key",
    "azure-sas",
    "basic-auth",
    "password",
    "secret",
)
"""Every kind a marker can name."""


def redact(text: str) -> Redacted:
    """``text`` with every secret found replaced by ``[REDACTED:<kind>]``, with the count and the kinds.

    A secret over several lines (a PEM block) keeps its line breaks after the marker, so the text keeps its
    line count and line numbers still hold. Idempotent: markers are never redacted again, so redacting
    twice counts nothing the second time.
    """
    return _redact(text)[0]


def _redact(text: str) -> tuple[Redacted, list[tuple[str, str]]]:
    """:func:`redact`, and the (kind, secret) pairs it replaced."""
    found: list[tuple[str, str]] = []
    if not text:
        return Redacted(text, 0, ()), found
    count = 0
    kinds: set[str] = set()
    low = text.lower()
    for pattern, check, needles in _RULES:
        if needles and not any(n in low for n in needles):
            continue

        def replace(m: re.Match[str], check: Check = check) -> str:
            nonlocal count
            hit = check(m)
            if hit is None:
                return m.group(0)
            kind, start, end = hit
            count += 1
            kinds.add(kind)
            base = m.start()
            whole = m.group(0)
            secret = whole[start - base : end - base]
            found.append((kind, secret))
            return whole[: start - base] + MARKER.format(kind=kind) + "\n" * secret.count("\n") + whole[end - base :]

        if pattern in _LINE_LOCAL:
            text = _sub_lines(pattern, replace, text)
        else:
            text = pattern.sub(replace, text)
    return Redacted(text, count, tuple(sorted(kinds))), found


_LINE_LOCAL = (_ASSIGNMENT, _XML_ELEMENT)
"""Patterns that match within one line whose name must hold a secret word: tried only on lines that do
(the generic assignment is the costliest pattern, and most lines of code name no secret)."""


def _sub_lines(pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str], text: str) -> str:
    """``pattern.sub(replace, text)`` applied only to the lines of ``text`` holding a secret word."""
    out: list[str] = []
    pos = 0
    for w in _SECRET_WORD_RE.finditer(text):
        if w.start() < pos:
            continue
        start = text.rfind("\n", 0, w.start()) + 1
        end = text.find("\n", w.end())
        end = len(text) if end < 0 else end
        out.append(text[pos:start])
        out.append(pattern.sub(replace, text[start:end]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


_PIECE_SPLIT = re.compile(r"\\[nr]|[\r\n]")
_MIN_PIECE = 8  # a line of a secret at least this long is looked for in excerpts on its own


def _rules_version() -> str:
    """A digest of this module's source: any change to the rules makes the secrets kept in an index
    (``FileSecrets.to_json``) out of date, so they are found again rather than trusted."""
    try:
        return hashlib.blake2b(Path(__file__).read_bytes(), digest_size=8).hexdigest()
    except OSError:  # no source beside the module (a frozen build): never trust what was kept
        return "unknown"


SECRETS_VERSION = _rules_version()


class FileSecrets:
    """The secrets of one file's whole text, to redact any excerpt of it (a snippet, a line, a span's name).

    An excerpt alone can hide what makes a secret recognisable: a snippet of the middle of a PEM block has no
    BEGIN line, a line cut at 240 characters loses the end of a token, a Markdown heading's name has lost
    the ``password:`` before it. So the whole file is redacted once, and an excerpt's lines are replaced by
    the redacted lines they come from (whole, stripped or cut), each line of every secret found is removed
    wherever it appears, and the excerpt is finally redacted on its own as well.
    """

    def __init__(self, text: str):
        red, found = _redact(text)
        original, redacted = text.split("\n"), red.text.split("\n")
        self.lines: dict[str, str] = {}  # an original line holding a secret -> its redacted form
        if len(original) == len(redacted):
            for a, b in zip(original, redacted, strict=True):
                if a != b:
                    self.lines[a.rstrip("\r")] = b.rstrip("\r")
        pieces: dict[str, str] = {}
        for kind, secret in found:
            for piece in _PIECE_SPLIT.split(secret):
                piece = piece.strip().strip("\"'`,")
                if len(piece) >= _MIN_PIECE:
                    pieces.setdefault(piece, kind)
        self.pieces = sorted(pieces.items(), key=lambda kv: -len(kv[0]))
        self.count = red.count

    def to_json(self) -> str:
        """What was found, to keep in the index beside the file (read back by :meth:`from_json`)."""
        if not self.count and not self.lines and not self.pieces:
            return json.dumps({"v": SECRETS_VERSION})
        return json.dumps({"v": SECRETS_VERSION, "lines": self.lines, "pieces": self.pieces, "count": self.count})

    @classmethod
    def from_json(cls, data: str | None) -> FileSecrets | None:
        """The secrets :meth:`to_json` kept, or None when there are none kept by these rules (not found
        yet, or found by an older version of this module)."""
        try:
            kept = json.loads(data) if data else None
        except ValueError:
            return None
        if not isinstance(kept, dict) or kept.get("v") != SECRETS_VERSION:
            return None
        found = cls.__new__(cls)
        try:
            found.lines = {str(a): str(b) for a, b in dict(kept.get("lines", {})).items()}
            found.pieces = [(str(p), str(k)) for p, k in kept.get("pieces", [])]
            found.count = int(kept.get("count", 0))
        except (TypeError, ValueError, AttributeError):  # damaged: found again rather than trusted
            return None
        return found

    def _line(self, line: str) -> str:
        """One line of an excerpt: the redacted form of the file line it is, or is a part of."""
        if not self.lines:
            return line
        if line in self.lines:
            return self.lines[line]
        body = line.strip()
        if len(body) < _MIN_PIECE:
            return line
        cut = body[:-1] if body.endswith("…") else body
        for original, red in self.lines.items():
            if not original.strip().startswith(cut):
                continue
            if original.strip() == body:
                return line.replace(body, red.strip())
            return line[: len(line) - len(line.lstrip())] + red.strip()[: len(body) + 40]
        return line

    def clean(self, excerpt: str | None) -> str:
        """``excerpt`` (text taken from this file) with every secret of the file replaced by its marker."""
        if not excerpt:
            return excerpt or ""
        text = "\n".join(self._line(line) for line in excerpt.split("\n"))
        for piece, kind in self.pieces:
            if piece in text:
                text = text.replace(piece, MARKER.format(kind=kind))
        return redact(text).text


_MARKERS = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def unmarked(text: str) -> str:
    """``text`` with its redaction markers blanked: what full-text search keeps of a redacted text, so that
    a search for "redacted" or a secret's kind does not list the files that hold secrets."""
    return _MARKERS.sub(" ", text) if "[REDACTED:" in text else text


def redact_many(texts: Iterable[str]) -> tuple[list[str], int]:
    """:func:`redact` over several texts: the redacted texts, in order, and the total count."""
    out: list[str] = []
    total = 0
    for text in texts:
        r = redact(text)
        out.append(r.text)
        total += r.count
    return out, total
