# mtcompute's server image: every surface (HTTP API, MCP at /mcp, pages) on port 8000.
#   docker build -t mtcompute .
#   docker run --rm -p 8000:8000 mtcompute
# Options are environment variables (docs/configuration.md), e.g. -e MTCOMPUTE_RATE_LIMIT=60/min
# and -e MTCOMPUTE_PUBLIC_URL=https://mt.example.org behind a proxy.

# Build stage: the wheel, with the C kernel compiled (the build fails if it does not compile).
FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py MANIFEST.in README.md LICENSE NOTICE CHANGELOG.md CITATION.cff ./
COPY src ./src
RUN python -m pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# Runtime stage: the wheel and the server extra, no compiler, a user without privileges.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
COPY --from=build /wheels /wheels
RUN wheel="$(ls /wheels/mtcompute-*.whl)" \
    && python -m pip install --no-cache-dir "${wheel}[server]" \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin mtcompute
USER mtcompute
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4).status != 200)"]
ENTRYPOINT ["mtcompute", "serve", "--host", "0.0.0.0", "--port", "8000"]
