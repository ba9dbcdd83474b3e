"""Secret redaction (spyglass.engine.redact): every pattern replaces the secret and keeps the rest of the
line; ordinary code in several languages is left alone.

All secrets here are made up. Token-shaped ones are built by concatenation so that no literal in this file
looks like a live credential to secret scanners (GitHub push protection and the like).
"""

import pytest

import spyglass.engine.redact as redact_module
from spyglass.engine.redact import KINDS, Redacted, redact, redact_many

AWS_KEY_ID = "AKIA" + "IOSFODNN7EXAMPLE"  # AWS's documented example
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"  # likewise
GITHUB = "ghp_" + "a1B2" * 9
GITHUB_PAT = "github_pat_" + "11ABCDEFG0" + "_" + "x1Y2" * 15
GITLAB = "glpat-" + "Ab1" * 7
SLACK = "xoxb-" + "123456789012-1234567890123-" + "AbCdEf" * 4
STRIPE = "sk_" + "live_" + "4eC39HqLyjWD" + "arjtT1zdp7dc"
GOOGLE = "AIza" + "SyA1" * 8 + "bC9"
ANTHROPIC = "sk-ant-" + "api03-" + "Ab1_" * 10
OPENAI = "sk-proj-" + "Ab3x" * 12
OPENAI_LEGACY = "sk-" + "a1B2c3" * 8
JWT = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
OPAQUE = "abc123" + "XYZ789" * 3  # a bearer token with no telling prefix
PEM_BODY = "MIIEowIBAAKCAQEA" + "q8Zr4TxW2mPv" * 4 + "\n" + "Zm9vYmFyYmF6" * 5
PEM = "-----BEGIN RSA PRIVATE KEY-----\n" + PEM_BODY + "\n-----END RSA PRIVATE KEY-----"
SLACK_HOOK = "T0" + "4FAKE9ZQ/B0" + "7FAKE3WX/" + "Pq8Rs2Tu4Vw6Xy0Za1Bc3De5"
NPM = "npm_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"
PYPI = "pypi-" + "AgEIcHlwaS5vcmcCJ" + "DQ5ZmFrZS1mYWtlLWZha2UtZmFrZS1mYWtlZmFrZWZha2UAAi"
SENDGRID = "SG." + "Zk3Lq9Wm2Xn8Yp4Rt6Uv1a" + "." + "Hs7Jd3Kf9Lg2Mh8Nj4Pk6Ql1Rm5Sn0Tp3Uq7Vr2Ws9"
TWILIO = "AC" + "3f9e2d1c0b4a59687766554433221100"
B64_PEM = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB"
AZURE_KEY = "Xq7Lm3Np9Rs2Tv5Wz8Ab1Cd4Ef6Gh0Ij3Kl5Mn7Op9Qr2St4Uv6" + "Wx8Yz0Ab2Cd4=="
PEM_ESCAPED = "-----BEGIN PRIVATE KEY-----\\n" + PEM_BODY.replace("\n", "\\n") + "\\n-----END PRIVATE KEY-----"


def m(kind: str) -> str:
    return f"[REDACTED:{kind}]"


REDACTED_CASES = [
    # (text, expected text, kind, the secret that must be gone)
    (f'key_id = "{AWS_KEY_ID}"', f'key_id = "{m("aws-access-key")}"', "aws-access-key", AWS_KEY_ID),
    (
        f"aws_secret_access_key = {AWS_SECRET}",
        f"aws_secret_access_key = {m('aws-secret-key')}",
        "aws-secret-key",
        AWS_SECRET,
    ),
    (
        f'AWS_SECRET_ACCESS_KEY="{AWS_SECRET}"',
        f'AWS_SECRET_ACCESS_KEY="{m("aws-secret-key")}"',
        "aws-secret-key",
        AWS_SECRET,
    ),
    (f"gh auth login --with-token {GITHUB}", f"gh auth login --with-token {m('github-token')}", "github-token", GITHUB),
    (f'token = "{GITHUB}"  # CI bot', f'token = "{m("github-token")}"  # CI bot', "github-token", GITHUB),
    (f"GH_TOKEN: {GITHUB_PAT}", f"GH_TOKEN: {m('github-token')}", "github-token", GITHUB_PAT),
    (
        f'curl --header "PRIVATE-TOKEN: {GITLAB}" https://gitlab.example.com/api/v4/projects',
        f'curl --header "PRIVATE-TOKEN: {m("gitlab-token")}" https://gitlab.example.com/api/v4/projects',
        "gitlab-token",
        GITLAB,
    ),
    (f"SLACK_BOT_TOKEN={SLACK}", f"SLACK_BOT_TOKEN={m('slack-token')}", "slack-token", SLACK),
    (f'stripe.api_key = "{STRIPE}"', f'stripe.api_key = "{m("stripe-key")}"', "stripe-key", STRIPE),
    (
        f"const src = `https://maps.googleapis.com/maps/api/js?key={GOOGLE}`;",
        f"const src = `https://maps.googleapis.com/maps/api/js?key={m('google-api-key')}`;",
        "google-api-key",
        GOOGLE,
    ),
    (
        f'client = Anthropic(api_key="{ANTHROPIC}")',
        f'client = Anthropic(api_key="{m("anthropic-key")}")',
        "anthropic-key",
        ANTHROPIC,
    ),
    (f"OPENAI_API_KEY={OPENAI}", f"OPENAI_API_KEY={m('openai-key')}", "openai-key", OPENAI),
    (f'{{"openai": "{OPENAI_LEGACY}"}}', f'{{"openai": "{m("openai-key")}"}}', "openai-key", OPENAI_LEGACY),
    (f'let session = "{JWT}";', f'let session = "{m("jwt")}";', "jwt", JWT),
    (
        f'curl -H "Authorization: Bearer {OPAQUE}" https://api.example.com/v1/me',
        f'curl -H "Authorization: Bearer {m("auth-header")}" https://api.example.com/v1/me',
        "auth-header",
        OPAQUE,
    ),
    (
        "Authorization: Basic dXNlcjpwYXNzd29yZA==",
        f"Authorization: Basic {m('auth-header')}",
        "auth-header",
        "dXNlcjpwYXNzd29yZA==",
    ),
    (
        f'headers = {{"Authorization": "Bearer {OPAQUE}"}}',
        f'headers = {{"Authorization": "Bearer {m("auth-header")}"}}',
        "auth-header",
        OPAQUE,
    ),
    (
        f"upstream replied 401 to Bearer {OPAQUE}",
        f"upstream replied 401 to Bearer {m('auth-header')}",
        "auth-header",
        OPAQUE,
    ),
    (
        "DATABASE_URL=postgres://app:S3cr3t-pw@db.internal:5432/app",
        f"DATABASE_URL=postgres://app:{m('url-password')}@db.internal:5432/app",
        "url-password",
        "S3cr3t-pw",
    ),
    (
        "redis://:hunter22@localhost:6379/0",
        f"redis://:{m('url-password')}@localhost:6379/0",
        "url-password",
        "hunter22",
    ),
    ('password = "hunter2"', f'password = "{m("password")}"', "password", "hunter2"),
    ("DB_PASSWORD=correct-horse-42", f"DB_PASSWORD={m('password')}", "password", "correct-horse-42"),
    ("POSTGRES_PASSWORD=supersecret", f"POSTGRES_PASSWORD={m('password')}", "password", "supersecret"),
    ("  password: hunter22  # staging", f"  password: {m('password')}  # staging", "password", "hunter22"),
    ("api_key: 'q8Zr4TxW2mPv'", f"api_key: '{m('secret')}'", "secret", "q8Zr4TxW2mPv"),
    ("password = s3cr3t!", f"password = {m('password')}", "password", "s3cr3t!"),
    ('client_secret = "c1ient-s3cret-value"', f'client_secret = "{m("secret")}"', "secret", "c1ient-s3cret-value"),
    ('  "apiKey": "AbC123xyz987",', f'  "apiKey": "{m("secret")}",', "secret", "AbC123xyz987"),
    ("const apiKey = 'k3y-12345678';", f"const apiKey = '{m('secret')}';", "secret", "k3y-12345678"),
    ('\tPassword: "hunter22",', f'\tPassword: "{m("password")}",', "password", "hunter22"),
    ('token := "t0k3n-abcdef12"', f'token := "{m("secret")}"', "secret", "t0k3n-abcdef12"),
    ("'secret' => 'w3lc0me-back',", f"'secret' => '{m('secret')}',", "secret", "w3lc0me-back"),
    (
        'private static final String DB_PASSWD = "hunter22";',
        f'private static final String DB_PASSWD = "{m("password")}";',
        "password",
        "hunter22",
    ),
    ('password: str = "hunter22"', f'password: str = "{m("password")}"', "password", "hunter22"),
    ("spring.datasource.password=hunter22", f"spring.datasource.password={m('password')}", "password", "hunter22"),
    ("<password>hunter22</password>", f"<password>{m('password')}</password>", "password", "hunter22"),
    ("export API_TOKEN=abc123def456", f"export API_TOKEN={m('secret')}", "secret", "abc123def456"),
    (
        'db = connect(host="db", password="hunter22")',
        f'db = connect(host="db", password="{m("password")}")',
        "password",
        "hunter22",
    ),
    (
        'SECRET_KEY = "django-insecure-9x#k2!m@p"',
        f'SECRET_KEY = "{m("secret")}"',
        "secret",
        "django-insecure-9x#k2!m@p",
    ),
    (
        f"key = '''\n{PEM}\n'''\nprint(key)",
        f"key = '''\n{m('private-key')}\n\n\n\n'''\nprint(key)",
        "private-key",
        PEM_BODY,
    ),
    (
        f'  "private_key": "{PEM_ESCAPED}\\n",',
        f'  "private_key": "{m("private-key")}\\n",',
        "private-key",
        "MIIEowIBAAKCAQEA",
    ),
    (
        f'hook = "https://hooks.slack.com/services/{SLACK_HOOK}"',
        f'hook = "https://hooks.slack.com/services/{m("slack-webhook")}"',
        "slack-webhook",
        SLACK_HOOK,
    ),
    (f"NPM_TOKEN: {NPM}", f"NPM_TOKEN: {m('npm-token')}", "npm-token", NPM),
    (
        "//registry.npmjs.org/:_authToken=00000000-1111-2222-3333-444444444444",
        f"//registry.npmjs.org/:_authToken={m('npm-token')}",
        "npm-token",
        "00000000-1111-2222-3333-444444444444",
    ),
    (f"twine upload -p {PYPI} dist/*", f"twine upload -p {m('pypi-token')} dist/*", "pypi-token", PYPI),
    (f'sg = Client("{SENDGRID}")', f'sg = Client("{m("sendgrid-key")}")', "sendgrid-key", SENDGRID),
    (f'Client("{TWILIO}", auth)', f'Client("{m("twilio-key")}", auth)', "twilio-key", TWILIO),
    (f"client-key-data: {B64_PEM}", f"client-key-data: {m('private-key')}", "private-key", B64_PEM),
    (
        f'"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net"',
        f'"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={m("azure-key")};EndpointSuffix=core.windows.net"',
        "azure-key",
        AZURE_KEY,
    ),
    (
        "https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=Hk3Jd9Lq2Wm8Xn4Yp6Rt1Uv7Zs5Ab0%3D",
        f"https://acct.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig={m('azure-sas')}",
        "azure-sas",
        "Hk3Jd9Lq2Wm8Xn4Yp6Rt1Uv7Zs5Ab0",
    ),
    (
        '"Server=tcp:db,1433;Database=shop;User Id=app;Password=Sq1Serv3r!Pass;Encrypt=True;"',
        f'"Server=tcp:db,1433;Database=shop;User Id=app;Password={m("password")};Encrypt=True;"',
        "password",
        "Sq1Serv3r!Pass",
    ),
    (
        '"jdbc:mysql://db:3306/shop?user=shop&password=JdbcMysqlPw7788&useSSL=true"',
        f'"jdbc:mysql://db:3306/shop?user=shop&password={m("password")}&useSSL=true"',
        "password",
        "JdbcMysqlPw7788",
    ),
    (
        "curl -fsS -u monitor:CurlBasicPw42x https://status.internal/health",
        f"curl -fsS -u monitor:{m('basic-auth')} https://status.internal/health",
        "basic-auth",
        "CurlBasicPw42x",
    ),
    (
        'const encryptionKey = "Zx9Cv8Bn7Mq6Wr5Et4";',
        f'const encryptionKey = "{m("secret")}";',
        "secret",
        "Zx9Cv8Bn7Mq6",
    ),
    (
        "ssh_key = '''\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAAB",
        f"ssh_key = '''\n{m('private-key')}\n\n",
        "private-key",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
    ),
]


@pytest.mark.parametrize(("text", "expected", "kind", "secret"), REDACTED_CASES)
def test_each_pattern_replaces_the_secret_and_keeps_the_line(text, expected, kind, secret):
    out = redact(text)
    assert secret not in out.text
    assert out.text == expected
    assert out.count == 1
    assert out.kinds == (kind,)


@pytest.mark.parametrize(("text", "expected", "kind", "secret"), REDACTED_CASES)
def test_redaction_is_idempotent(text, expected, kind, secret):
    again = redact(redact(text).text)
    assert again.text == expected and again.count == 0 and again.kinds == ()


def test_every_kind_has_a_case_and_is_documented():
    assert {case[2] for case in REDACTED_CASES} == set(KINDS)
    for kind in KINDS:
        assert f"``{kind}``" in (redact_module.__doc__ or "")


NOT_REDACTED = [
    # Python
    'def login(password: str = "") -> bool:',
    "def __init__(self, password: bytes | None = None):",
    "password = get_password()",
    "token = self.token",
    'token = request.headers.get("X-Token")',
    "api_key: str",
    'TOKEN_URL = "https://example.com/token"',
    'password = os.environ["DB_PASSWORD"]',
    'secret = os.getenv("APP_SECRET")',
    "password = user_password",
    'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
    "max_tokens = 4096",
    "if not password:\n    raise ValueError('password required')",
    'headers = {"Authorization": f"Bearer {token}"}',
    'url = f"postgres://{user}:{password}@{host}/db"',
    "password_hash = hash_password(password)",
    'bos_token = "<s>"',
    'pad_token="[PAD]",',
    'TOKEN_ENV = "GITHUB_TOKEN"',
    'password_label = "Enter your password"',
    'password = ""',
    # JavaScript / TypeScript
    'const token = localStorage.getItem("token");',
    "const password = req.body.password;",
    "const token = authToken;",
    "interface Login { password: string; token?: string }",
    "  password: string;",
    "  apiKey: process.env.API_KEY,",
    "  headers: { Authorization: `Bearer ${token}` },",
    "const { token } = await login(user, password);",
    ".sk-fading-circle-animation-wrapper { display: none; }",
    # Go
    'password := os.Getenv("DB_PASSWORD")',
    'Password string `json:"password"`',
    "token, err := auth.NewToken(ctx)",
    # YAML, INI, .env templates
    "password: ${DB_PASSWORD}",
    "token: ${{ secrets.GITHUB_TOKEN }}",
    'password: "{{ vault_db_password }}"',
    "secretName: db-credentials",
    "token: Token",
    'password: ""',
    "password = %(db_password)s",
    "API_KEY=changeme",
    "API_KEY=<your-api-key>",
    "API_KEY=your_api_key_here",
    "SECRET_KEY=xxxxxxxx",
    # values that look random but are not secrets
    "commit 3f786850e387550fdab836ed7e6dc881de23001b",
    '"id": "123e4567-e89b-12d3-a456-426614174000"',
    (
        '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA'
        '60e6kgAAAABJRU5ErkJggg==">'
    ),
    'Token.Comment: "italic #A3AAB2",',
    # prose, headers and URLs without credentials
    "Bearer tokens are sent in the Authorization header.",
    "Authorization: Bearer <token>",
    "ssh://git@github.com:22/org/repo.git",
    "http://localhost:8080/api/v1?token=",
    "https://user@example.com/path",
    # connection strings, URLs and command lines with placeholders
    '"Server=db;User Id=app;Password={0};"',
    "Password=$(DB_PASSWORD);Server=db",
    "https://acct.blob.core.windows.net/c?sig=${SAS_SIGNATURE}",
    "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    'curl -u "$USER:$PASSWORD" https://example.com',
    "curl -u admin:<password> https://example.com",
    "jdbc:mysql://db/shop?user=app&password=${DB_PASSWORD}",
    "client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=",
    'const encryptionKey = generateKey("aes");',
    "#     token = 1*tchar",  # an ABNF grammar (RFC 7230) in a comment
    # code about keys, not a key
    'if pem.startswith("-----BEGIN RSA PRIVATE KEY-----"):\n    return load(pem)',
]


@pytest.mark.parametrize("text", NOT_REDACTED)
def test_ordinary_code_is_left_alone(text):
    assert redact(text) == Redacted(text, 0, ())


def test_counts_and_kinds_over_a_whole_file():
    text = "\n".join(
        [
            "# settings for the staging stack",
            f"AWS_ACCESS_KEY_ID={AWS_KEY_ID}",
            f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}",
            "DB_HOST=db.internal",
            "DB_PASSWORD=hunter22",
            "DATABASE_URL=postgres://app:hunter22@db.internal/app",
            f"GITHUB_TOKEN={GITHUB}",
            "DEBUG=false",
        ]
    )
    out = redact(text)
    assert out.count == 5
    assert out.kinds == ("aws-access-key", "aws-secret-key", "github-token", "password", "url-password")
    assert "hunter22" not in out.text and AWS_SECRET not in out.text
    assert "DB_HOST=db.internal" in out.text and "DEBUG=false" in out.text
    assert out.text.count("\n") == text.count("\n")


def test_two_secrets_on_one_line_are_counted_twice():
    out = redact(f'auth = {{"token": "{GITHUB}", "password": "hunter22"}}')
    assert out.count == 2
    assert out.text == f'auth = {{"token": "{m("github-token")}", "password": "{m("password")}"}}'


def test_empty_text():
    assert redact("") == Redacted("", 0, ())


def test_redact_many():
    texts, count = redact_many(["x = 1", f"key = {AWS_KEY_ID}", 'password = "hunter22"'])
    assert texts == ["x = 1", f"key = {m('aws-access-key')}", f'password = "{m("password")}"']
    assert count == 2
