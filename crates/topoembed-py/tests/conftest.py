"""Shared fixtures: the CLI binary the results are compared with."""

import json
import os
import pathlib
import subprocess

import pytest

# Before anything imports jax: 8 CPU devices for test_jax.py.
os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _binary() -> pathlib.Path:
    given = os.environ.get("TOPOEMBED_BIN")
    if given:
        return pathlib.Path(given)
    for profile in ("release", "debug"):
        candidate = ROOT / "target" / profile / "topoembed"
        if candidate.exists():
            return candidate
    pytest.skip("no topoembed binary: cargo build -p topoembed-cli, or set TOPOEMBED_BIN")


@pytest.fixture(scope="session")
def cli():
    """Runs the CLI with --format json and returns the parsed document."""
    binary = _binary()

    def run(*args: str):
        out = subprocess.run([str(binary), *args, "--format", "json"], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    return run


@pytest.fixture(scope="session")
def cli_text():
    """Runs the CLI with the arguments as given and returns what it printed."""
    binary = _binary()

    def run(*args: str) -> str:
        out = subprocess.run([str(binary), *args], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    return run
