#!/usr/bin/env bash
# Runs the benchmark workloads (W1–W7) in NumPy, PyTorch (CPU) and JAX (CPU), in a virtual
# environment this script makes (under target/peers-venv, or $PEERS_VENV), and writes
# target/bench/peers.json (`burn-bench --peers PATH` puts them beside this project's figures).
# With --install-only it only makes the environment: `cargo xtask bench --peers` does that,
# then measures the peers beside Flex in one run (`burn-bench --live-peers`).
#
#   bash benches/peers/run.sh [--skip-install | --install-only] [--frameworks numpy,torch,jax]
set -euo pipefail
cd "$(dirname "$0")/../.."
venv="${PEERS_VENV:-target/peers-venv}"
install=1
measure=1
args=()
for arg in "$@"; do
  case "$arg" in
    --skip-install) install=0 ;;
    --install-only) measure=0 ;;
    *) args+=("$arg") ;;
  esac
done
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if [ "$install" = 1 ]; then
  "$venv/bin/pip" install --quiet --upgrade pip
  # The CPU wheel of PyTorch (no CUDA libraries; PyPI's wheel, ~5 GB with its CUDA libraries,
  # when the PyTorch index is unreachable), NumPy, and JAX for the CPU.
  "$venv/bin/pip" install --quiet numpy
  "$venv/bin/pip" install --quiet torch --index-url https://download.pytorch.org/whl/cpu \
    || "$venv/bin/pip" install --quiet torch \
    || echo "peers: PyTorch could not be installed; it is skipped" >&2
  "$venv/bin/pip" install --quiet "jax[cpu]" || echo "peers: JAX could not be installed; it is skipped" >&2
fi
if [ "$measure" = 0 ]; then
  exit 0
fi
mkdir -p target/bench
exec "$venv/bin/python" benches/peers/peers.py --out target/bench/peers.json "${args[@]}"
