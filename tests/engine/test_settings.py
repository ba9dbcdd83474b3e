from pathlib import Path

from spyglass.engine.settings import Settings, load_settings


def test_defaults_without_any_config(tmp_path):
    settings, warnings = load_settings(tmp_path, env={})
    assert settings == Settings()
    assert warnings == []


def test_precedence_pyproject_then_dotfile_then_env_then_overrides(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.spyglass]\nmax_file_size = 10\nwindow_lines = 30\nbatch_size = 8\nthreads = 1\n", encoding="utf-8"
    )
    (tmp_path / ".spyglass.toml").write_text("window_lines = 40\nbatch_size = 9\nthreads = 2\n", encoding="utf-8")
    env = {"SPYGLASS_BATCH_SIZE": "10", "SPYGLASS_THREADS": "3", "SPYGLASS_EXCLUDE": "gen/**,*.txt"}
    settings, warnings = load_settings(tmp_path, overrides={"threads": 4, "model": None}, env=env)
    assert warnings == []
    assert settings.max_file_size == 10  # pyproject only
    assert settings.window_lines == 40  # .spyglass.toml beats pyproject
    assert settings.batch_size == 10  # env beats files
    assert settings.threads == 4  # explicit overrides beat everything
    assert settings.exclude == ["gen/**", "*.txt"]
    assert settings.model == Settings().model  # None overrides mean "not given"


def test_bad_values_warn_and_fall_back_to_the_layer_below(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.spyglass]\nbatch_size = 8\n", encoding="utf-8")
    (tmp_path / ".spyglass.toml").write_text('batch_size = "lots"\nmystery = 1\n', encoding="utf-8")
    settings, warnings = load_settings(tmp_path, overrides={"maxFileSize": -1}, env={})
    assert settings.batch_size == 8
    assert settings.max_file_size == Settings().max_file_size
    text = "\n".join(warnings)
    assert "batch_size" in text and "mystery" in text and "max_file_size" in text


def test_camel_case_keys_from_editor_clients(tmp_path):
    settings, _ = load_settings(tmp_path, overrides={"maxFileSize": 123, "embedMaxTokens": 64}, env={})
    assert (settings.max_file_size, settings.embed_max_tokens) == (123, 64)


def test_broken_toml_is_reported_not_fatal(tmp_path):
    (tmp_path / ".spyglass.toml").write_text("this is = = not toml", encoding="utf-8")
    settings, _ = load_settings(tmp_path, env={})
    assert settings == Settings()


def test_search_priors_from_a_table_a_switch_and_the_environment(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.spyglass.search.priors]\ntests = 0.5\n", encoding="utf-8")
    (tmp_path / ".spyglass.toml").write_text("[search.priors]\nprose = 0.9\n", encoding="utf-8")
    settings, warnings = load_settings(tmp_path, env={})
    assert warnings == []
    # the two tables add up key by key
    assert (settings.search.priors.tests, settings.search.priors.prose, settings.search.priors.enabled) == (
        0.5,
        0.9,
        True,
    )
    off, _ = load_settings(tmp_path, env={"SPYGLASS_SEARCH": '{"priors": false}'})
    assert off.search.priors.enabled is False


def test_a_bad_prior_warns_and_keeps_the_default(tmp_path):
    (tmp_path / ".spyglass.toml").write_text("[search.priors]\ntests = 3\n", encoding="utf-8")
    settings, warnings = load_settings(tmp_path, env={})
    assert settings.search.priors.tests == 0.3 and any("search" in w for w in warnings)


def test_an_endpoint_from_config_and_its_key_only_by_the_variables_name(tmp_path):
    (tmp_path / ".spyglass.toml").write_text(
        'encoder = "openai"\nmodel = "bge-small-en-v1.5"\nembed_url = "http://127.0.0.1:7997/v1"\n', encoding="utf-8"
    )
    env = {"SPYGLASS_EMBED_TIMEOUT": "5", "SPYGLASS_EMBED_API_KEY": "sk-the-key-itself", "TEAM_KEY": "x"}
    settings, warnings = load_settings(tmp_path, overrides={"embedApiKeyEnv": "TEAM_KEY"}, env=env)
    assert warnings == []  # the key's own variable is no setting: it is read when the endpoint is used
    assert (settings.encoder, settings.model) == ("openai", "bge-small-en-v1.5")
    assert settings.embed_url == "http://127.0.0.1:7997/v1"
    assert (settings.embed_timeout, settings.embed_api_key_env) == (5.0, "TEAM_KEY")
    assert "sk-the-key-itself" not in settings.model_dump_json()
    settings, warnings = load_settings(tmp_path, env={"SPYGLASS_EMBED_TIMEOUT": "0"})
    assert settings.embed_timeout == Settings().embed_timeout and "embed_timeout" in "\n".join(warnings)


def test_docs_list_every_setting():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "indexing.md").read_text(encoding="utf-8")
    table = docs[docs.index("## Settings") :]
    assert [name for name in Settings.model_fields if f"`{name}" not in table] == []
