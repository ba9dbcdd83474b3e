"""A corpus of planted secrets inside ordinary (indexed) files: 30+ kinds, each fake but shaped like the real
thing, with the value recorded so a test can check it never comes back, not even a 12-character slice.

Every value is made up, and token-shaped ones are built by concatenation so that no literal in this file
looks like a live credential to secret scanners (push protection and the like). ``write_corpus`` lays the
files out in a folder; ``PLANTED`` lists (kind, path, value, queries that ask for it).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path

SLICE = 12  # no slice of a planted value this long may appear in any output


@dataclass(frozen=True)
class Planted:
    kind: str
    path: str
    value: str  # what must never come back
    queries: tuple[str, ...]  # what an agent might ask to find it (its name, the comment beside it)


def _pem(label: str, body_seed: str, lines: int = 6) -> tuple[str, str]:
    """A fake PEM block with real newlines, and its base64 body (the secret)."""
    raw = (body_seed * 200).encode()
    b64 = base64.b64encode(raw).decode()
    body = "\n".join(b64[i * 64 : (i + 1) * 64] for i in range(lines))
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----", body


AWS_ID = "AKIA" + "Z3FAKE7Q2MPLX9RT"
AWS_SECRET = "q8Zr4TxW2mPv" + "Ks9LbN3cYd7Fh1Jg5RtEa0Wu"[:28]
GITHUB = "ghp_" + "Xy7Kq2Lm9Np4Rs6Tv8Wz1Ab3Cd5Ef0Gh2Ij4"
GITHUB_PAT = "github_pat_" + "11ABQ7ZKY0" + "_" + "Rt5Yu8Io2Pa4Sd6Fg9Hj1Kl3Zx5Cv7Bn0Mq2We4Rt6Yu8Io0Pa2Sd4Fg6Hj8Kl1Zx3"
GITLAB = "glpat-" + "Qw3Er5Ty7Ui9Op1As2Df"
SLACK_TOKEN = "xoxb-" + "2718281828-3141592653589-" + "Gh7Jk2Lm4Np6Qr8St0Uv1Wx3"
SLACK_HOOK_PATH = "T0" + "4FAKE9ZQ/B0" + "7FAKE3WX/" + "Pq8Rs2Tu4Vw6Xy0Za1Bc3De5"
SLACK_HOOK = "https://hooks.slack.com/services/" + SLACK_HOOK_PATH
STRIPE = "sk_" + "live_" + "51Hf8Kq2Lm9Np4Rs6Tv8Wz1Ab3"
NPM = "npm_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"
PYPI = (
    "pypi-"
    + "AgEIcHlwaS5vcmcCJ"
    + "DQ5ZmFrZS1mYWtlLWZha2UtZmFrZS1mYWtlZmFrZWZha2UAAi"
    + "p7InBlcm1pc3Npb25zIjogInVzZXIifQ"
)
TWILIO_SID = "AC" + "3f9e2d1c0b4a59687766554433221100"
TWILIO_TOKEN = "9b8a7f6e5d4c" + "3b2a1f0e9d8c7b6a"
SENDGRID = "SG." + "Zk3Lq9Wm2Xn8Yp4Rt6Uv1a" + "." + "Hs7Jd3Kf9Lg2Mh8Nj4Pk6Ql1Rm5Sn0Tp3Uq7Vr2Ws9"
OPENAI = "sk-proj-" + "Tz8Yx7Wv6Ut5Sr4Qp3On2Ml1Kj0Ih9Gf8Ed7Cb6Aa"
ANTHROPIC = "sk-ant-" + "api03-" + "Lm4Nb8Vc2Xz6As0Df5Gh9Jk3Qw7Er1Ty"
GOOGLE = "AIza" + "SyD4fake9Qw3Er5Ty7Ui9Op1As2Df4Gh6Jk"
JWT = (
    "eyJhbGciOiJSUzI1NiJ9"
    + ".eyJzdWIiOiJkZXBsb3ktYm90IiwiaWF0IjoxNjAwMDAwMDAwfQ"
    + ".Rk9PQkFSX2Zha2Vfc2lnbmF0dXJlX3h5ejEyMzQ1Njc4OTA"
)
KUBE_TOKEN = (
    "eyJhbGciOiJSUzI1NiIsImtpZCI6ImZha2UifQ"
    + ".eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50In0"
    + ".U2lnbmF0dXJlRmFrZUZha2VGYWtlMTIzNDU2"
)
RSA_PEM, RSA_BODY = _pem("RSA PRIVATE KEY", "rsa-fake-key-material-")
EC_PEM, EC_BODY = _pem("EC PRIVATE KEY", "ec-fake-key-material-", lines=3)
SSH_PEM, SSH_BODY = _pem("OPENSSH PRIVATE KEY", "openssh-fake-key-material-", lines=5)
GCP_PEM, GCP_BODY = _pem("PRIVATE KEY", "gcp-fake-service-account-", lines=4)
KUBE_CLIENT_KEY = base64.b64encode(_pem("RSA PRIVATE KEY", "kube-client-key-")[0].encode()).decode()
AZURE_ACCOUNT_KEY = (
    "Xq7Lm3Np9Rs2Tv5Wz8Ab1Cd4Ef6Gh0Ij3Kl5Mn7Op9Qr2St4Uv6" + "Wx8Yz0Ab2Cd4Ef6Gh8Ij0Kl2Mn4Op6Qr8Zz1Yy2Xx3=="
)
AZURE_SAS_SIG = "Hk3Jd9Lq2Wm8Xn4Yp6Rt1Uv7Zs5Ab0Cd2Ef4Gh%3D"
INI_PASSWORD = "Wint3r-is-c0ming!"
YAML_PASSWORD = "Gr8-yaml-s3cret-pw"
PROPS_PASSWORD = "Pr0perties#Pass2024"
TOML_PASSWORD = "t0ml-Hidden-Pa55word"
PG_PASSWORD = "pgS3cretPass99"
CSHARP_PASSWORD = "Sq1Serv3r!Pass"
JDBC_PASSWORD = "JdbcMysqlPw7788"
CURL_PASSWORD = "CurlBasicPw42x"
URL_PASSWORD = "Hunter2BasicAuth"
MD_PASSWORD = "Mark-d0wn-Adm1n-pw"
SIGNING_SECRET = "a9F3kQ7zL2xW8mR4tY6uP1sD5gH0jK3n"
ENCRYPTION_KEY = "Zx9Cv8Bn7Mq6Wr5Et4Yu3Io2Pa1Sd0Fg"
BEARER = "c2VjcmV0LWJlYXJlci0" + "xMjM0NTY3ODkwYWJjZGVm"
COMPOSE_PASSWORD = "c0mpose-Postgres-Pw"
DOTNET_XML_PASSWORD = "XmlSettingsPw!2024"
AZURE_CONN = (
    "DefaultEndpointsProtocol=https;AccountName=fakestore;"
    f"AccountKey={AZURE_ACCOUNT_KEY};EndpointSuffix=core.windows.net"
)
CSHARP_CONN = f"Server=tcp:db.internal,1433;Database=shop;User Id=shop_app;Password={CSHARP_PASSWORD};Encrypt=True;"


PLANTED: tuple[Planted, ...] = (
    Planted("aws-access-key", "app/aws_client.py", AWS_ID, ("aws access key id", "upload reports bucket")),
    Planted("aws-secret-key", "app/aws_client.py", AWS_SECRET, ("aws secret access key",)),
    Planted("github-token-md-heading", "docs/DEPLOY.md", GITHUB, ("deploy token github", "release bot token")),
    Planted("github-pat", "scripts/release.sh", GITHUB_PAT, ("GH_TOKEN release", "github release token")),
    Planted("gitlab-token", "ci/gitlab.yml", GITLAB, ("gitlab private token", "mirror job")),
    Planted("slack-token", "web/notify.js", SLACK_TOKEN, ("slack bot token", "notify channel")),
    Planted("slack-webhook", "web/notify.js", SLACK_HOOK_PATH, ("slack webhook url", "hooks slack services")),
    Planted("stripe-key", "billing/charge.rb", STRIPE, ("stripe api key", "charge customer")),
    Planted("npm-token", ".github/workflows/publish.yml", NPM, ("npm auth token publish", "registry npmjs")),
    Planted("pypi-token", "scripts/upload.sh", PYPI, ("pypi upload token", "twine password")),
    Planted("twilio-sid", "app/sms.py", TWILIO_SID, ("twilio account sid",)),
    Planted("twilio-token", "app/sms.py", TWILIO_TOKEN, ("twilio auth token", "send sms")),
    Planted("sendgrid-key", "app/mailer.py", SENDGRID, ("sendgrid api key", "send email")),
    Planted("openai-key", "app/llm.py", OPENAI, ("openai api key", "chat completion client")),
    Planted("anthropic-key", "app/llm.py", ANTHROPIC, ("anthropic api key",)),
    Planted("google-api-key", "web/maps.ts", GOOGLE, ("google maps api key",)),
    Planted("jwt", "web/auth.test.js", JWT, ("jwt test token", "admin session token")),
    Planted("pem-rsa-python", "app/signing.py", RSA_BODY, ("rsa private key signing", "BEGIN RSA PRIVATE KEY")),
    Planted("pem-ec-go", "internal/tlsconf/keys.go", EC_BODY, ("ec private key tls", "BEGIN EC PRIVATE KEY")),
    Planted("pem-openssh-noext", "deploy/keys/deploy_bot", SSH_BODY, ("openssh private key deploy",)),
    Planted("gcp-service-account", "config/gcp.json", GCP_BODY, ("gcp service account private_key",)),
    Planted("kube-token", "deploy/kubeconfig.yaml", KUBE_TOKEN, ("kubeconfig user token", "cluster admin")),
    Planted("kube-client-key", "deploy/kubeconfig.yaml", KUBE_CLIENT_KEY, ("client-key-data",)),
    Planted("azure-connection-string", "dotnet/appsettings.json", AZURE_ACCOUNT_KEY, ("azure storage account key",)),
    Planted("azure-sas", "dotnet/BlobStore.cs", AZURE_SAS_SIG, ("azure sas token blob", "shared access signature")),
    Planted("csharp-connection-password", "dotnet/Db.cs", CSHARP_PASSWORD, ("sql server connection string",)),
    Planted("ini-password", "config/app.ini", INI_PASSWORD, ("database password ini", "[database]")),
    Planted("yaml-password", "config/settings.yaml", YAML_PASSWORD, ("smtp password yaml",)),
    Planted("properties-password", "config/application.properties", PROPS_PASSWORD, ("datasource password",)),
    Planted("toml-password", "config/pyproject-like.toml", TOML_PASSWORD, ("toml cache password",)),
    Planted("postgres-url", "app/db.py", PG_PASSWORD, ("postgres database url", "DATABASE_URL")),
    Planted("jdbc-password", "java/Repo.java", JDBC_PASSWORD, ("jdbc mysql connection",)),
    Planted("curl-basic-auth", "scripts/healthcheck.sh", CURL_PASSWORD, ("curl basic auth health", "curl -u")),
    Planted("url-basic-auth", "web/fetcher.ts", URL_PASSWORD, ("fetch with basic auth url",)),
    Planted("md-heading-password", "docs/ADMIN.md", MD_PASSWORD, ("admin password", "admin console login")),
    Planted("signing-secret", "app/webhooks.py", SIGNING_SECRET, ("webhook signing secret",)),
    Planted("encryption-key", "web/crypto.ts", ENCRYPTION_KEY, ("encryption key aes",)),
    Planted("bearer-header", "app/api_client.py", BEARER, ("authorization bearer header",)),
    Planted("compose-password", "deploy/docker-compose.yml", COMPOSE_PASSWORD, ("postgres password compose",)),
    Planted("xml-password", "dotnet/settings.xml", DOTNET_XML_PASSWORD, ("maven server password",)),
)


def _files() -> dict[str, str]:
    nl = "\n"
    rsa_lines = RSA_PEM.split(nl)
    return {
        "app/aws_client.py": f'''"""Uploads reports to S3."""
import boto3

# upload reports bucket: the CI user's key
AWS_ACCESS_KEY_ID = "{AWS_ID}"
aws_secret_access_key = "{AWS_SECRET}"


def upload_report(path):
    client = boto3.client("s3", aws_access_key_id=AWS_ACCESS_KEY_ID, aws_secret_access_key=aws_secret_access_key)
    client.upload_file(path, "reports", path)
''',
        "docs/DEPLOY.md": f"""# Deploying

## Release bot token {GITHUB}

The release bot pushes tags with the deploy token above.

## Steps

Run `make release`.
""",
        "scripts/release.sh": f"""#!/bin/sh
# github release token for the bot
export GH_TOKEN={GITHUB_PAT}
gh release create "$1"
""",
        "ci/gitlab.yml": f"""mirror:
  script:
    # gitlab private token for the mirror job
    - curl --header "PRIVATE-TOKEN: {GITLAB}" https://gitlab.example.com/api/v4/projects
""",
        "web/notify.js": f"""// notify channel on deploys
const SLACK_BOT_TOKEN = "{SLACK_TOKEN}";
// slack webhook url for alerts
const webhookUrl = "{SLACK_HOOK}";

export async function notify(text) {{
  await fetch(webhookUrl, {{ method: "POST", body: JSON.stringify({{ text }}) }});
}}
""",
        "billing/charge.rb": f"""# charge customer through Stripe
Stripe.api_key = "{STRIPE}"

def charge(customer, amount)
  Stripe::Charge.create(customer: customer, amount: amount)
end
""",
        ".github/workflows/publish.yml": f"""name: publish
on: push
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - run: echo "//registry.npmjs.org/:_authToken={NPM}" > ~/.npmrc
      - run: npm publish
""",
        "scripts/upload.sh": f"""#!/bin/sh
# pypi upload token (twine password)
twine upload -u __token__ -p {PYPI} dist/*
""",
        "app/sms.py": f'''"""Send SMS through Twilio."""
from twilio.rest import Client

TWILIO_ACCOUNT_SID = "{TWILIO_SID}"
TWILIO_AUTH_TOKEN = "{TWILIO_TOKEN}"


def send_sms(to, body):
    Client(TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN).messages.create(to=to, body=body)
''',
        "app/mailer.py": f'''"""Send email."""
import sendgrid

sg = sendgrid.SendGridAPIClient("{SENDGRID}")


def send_email(message):
    return sg.send(message)
''',
        "app/llm.py": f'''"""Chat completion client."""
from openai import OpenAI

client = OpenAI(api_key="{OPENAI}")
ANTHROPIC_KEY = "{ANTHROPIC}"


def complete(prompt):
    return client.chat.completions.create(model="gpt", messages=[{{"role": "user", "content": prompt}}])
''',
        "web/maps.ts": f"""// google maps api key
export const mapsKey = "{GOOGLE}";

export function mapUrl(q: string): string {{
  return `https://maps.googleapis.com/maps/api/geocode/json?address=${{q}}&key=${{mapsKey}}`;
}}
""",
        "web/auth.test.js": f"""// admin session token used by the tests
const adminJwt = "{JWT}";

test("admin can list users", async () => {{
  const res = await api.get("/users", {{ token: adminJwt }});
  expect(res.status).toBe(200);
}});
""",
        "app/signing.py": '"""Sign payloads with the service\'s RSA private key."""\n\n'
        + 'SIGNING_KEY = """'
        + nl.join(rsa_lines)
        + '\n"""\n\n\ndef sign(payload: bytes) -> bytes:\n    return rsa_sign(SIGNING_KEY, payload)\n',
        "internal/tlsconf/keys.go": f"""package tlsconf

// ecKey is the EC private key of the TLS listener.
const ecKey = `{EC_PEM}`

func Key() string {{
\treturn ecKey
}}
""",
        "deploy/keys/deploy_bot": SSH_PEM + "\n",
        "config/gcp.json": '{\n  "type": "service_account",\n  "project_id": "fake-project",\n'
        + '  "private_key_id": "1a2b3c4d5e6f",\n  "private_key": "'
        + GCP_PEM.replace(nl, "\\n")
        + '\\n",\n  "client_email": "bot@fake-project.iam.gserviceaccount.com"\n}\n',
        "deploy/kubeconfig.yaml": f"""apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://10.0.0.1:6443
users:
- name: cluster-admin
  user:
    token: {KUBE_TOKEN}
- name: cert-admin
  user:
    client-certificate-data: Q0VSVElGSUNBVEUtcHVibGljLWZha2U=
    client-key-data: {KUBE_CLIENT_KEY}
""",
        "dotnet/appsettings.json": f"""{{
  "Storage": {{
    "ConnectionString": "{AZURE_CONN}"
  }}
}}
""",
        "dotnet/BlobStore.cs": f"""namespace Shop;

public class BlobStore
{{
    // shared access signature for the images container
    private const string SasUrl = "https://fakestore.blob.core.windows.net/images?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&st=2024-01-01T00:00:00Z&spr=https&sig={AZURE_SAS_SIG}";
}}
""",
        "dotnet/Db.cs": f"""namespace Shop;

public static class Db
{{
    // sql server connection string
    public const string Conn = "{CSHARP_CONN}";
}}
""",
        "config/app.ini": f"""[database]
host = db.internal
user = shop
password = {INI_PASSWORD}
""",
        "config/settings.yaml": f"""smtp:
  host: smtp.example.com
  user: mailer
  password: {YAML_PASSWORD}
""",
        "config/application.properties": f"""spring.datasource.url=jdbc:postgresql://db:5432/shop
spring.datasource.username=shop
spring.datasource.password={PROPS_PASSWORD}
""",
        "config/pyproject-like.toml": f"""[tool.cache]
host = "redis.internal"
password = "{TOML_PASSWORD}"
""",
        "app/db.py": f'''"""Database connection."""
import os

DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://shop:{PG_PASSWORD}@db.internal:5432/shop")
''',
        "java/Repo.java": f"""package shop;

public class Repo {{
    // jdbc mysql connection
    static final String URL = "jdbc:mysql://db.internal:3306/shop?user=shop&password={JDBC_PASSWORD}&useSSL=true";
}}
""",
        "scripts/healthcheck.sh": f"""#!/bin/sh
# health check with curl basic auth
curl -fsS -u monitor:{CURL_PASSWORD} https://status.internal/health
""",
        "web/fetcher.ts": f"""// fetch with basic auth url
export const feedUrl = "https://reader:{URL_PASSWORD}@feeds.internal/rss";
""",
        "docs/ADMIN.md": f"""# Admin console

### Admin password: {MD_PASSWORD}

Log in to the admin console login page with the admin password above.
""",
        "app/webhooks.py": f'''"""Verify incoming webhooks."""
import hmac

# webhook signing secret
WEBHOOK_SIGNING_SECRET = "{SIGNING_SECRET}"


def verify(body, signature):
    return hmac.compare_digest(hmac.new(WEBHOOK_SIGNING_SECRET.encode(), body, "sha256").hexdigest(), signature)
''',
        "web/crypto.ts": f"""// encryption key aes for local storage
const encryptionKey = "{ENCRYPTION_KEY}";

export function encrypt(data: string): string {{
  return aes(encryptionKey, data);
}}
""",
        "app/api_client.py": f'''"""Authorization bearer header for the partner API."""
import requests

HEADERS = {{"Authorization": "Bearer {BEARER}"}}


def fetch_orders():
    return requests.get("https://partner.example.com/orders", headers=HEADERS).json()
''',
        "deploy/docker-compose.yml": f"""services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: shop
      POSTGRES_PASSWORD: {COMPOSE_PASSWORD}
""",
        "dotnet/settings.xml": f"""<settings>
  <servers>
    <server>
      <id>releases</id>
      <username>deployer</username>
      <password>{DOTNET_XML_PASSWORD}</password>
    </server>
  </servers>
</settings>
""",
    }


def write_corpus(root: Path) -> Path:
    """Write every planted file under ``root`` and return it."""
    for rel, text in _files().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def corpus_texts() -> dict[str, str]:
    """The planted files' texts by path (for comparing detectors without an index)."""
    return _files()


def leaks(text: str, planted: tuple[Planted, ...] = PLANTED, ignore: str = "") -> list[str]:
    """The planted kinds of which ``text`` holds the value or a slice of :data:`SLICE` characters (slices that
    are also in ``ignore``, the query that asked, do not count: the asker wrote them)."""
    found = []
    for p in planted:
        v = p.value
        for i in range(0, max(1, len(v) - SLICE + 1)):
            piece = v[i : i + SLICE]
            if piece in text and piece not in ignore:
                found.append(p.kind)
                break
    return found
