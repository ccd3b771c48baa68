#!/usr/bin/env bash
# The CUDA check, run from the unpacked GPU bundle (`cargo xtask gpu` builds it) on a machine
# with an NVIDIA GPU, its driver and NVRTC, python3 with PyTorch, and no Rust toolchain.
#
#   tar xJf burn-gpu-bundle.tar.xz -C DIR && DIR/run.sh [--quick]
#
# Writes into $OUT (default: ./results beside this script) as it goes, so that whatever a time
# limit cuts still comes back: summary.txt (one line per step: exit status, seconds, last line
# of its log), one log per step, bench.json, torch_w1.json, digits/. A smoke test runs first;
# when it fails nothing else runs. Steps in order of what they tell: the smoke test, W1/W2/W5/
# W6 and C1 (CUDA graph replay) on CUDA with PyTorch's W1 beside them, the conformance suite in
# f32 (all of it), f16, bf16 and f64 (the float section), then digits on the GPU. `--quick`
# stops after the bench. Every step has its own time limit; the whole runs in under 10 minutes
# on an H100.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT="${OUT:-$PWD/results}"
mkdir -p "$OUT"
summary="$OUT/summary.txt"
: >"$summary"
quick=0
[ "${1:-}" = "--quick" ] && quick=1

note() { echo "$*" | tee -a "$summary"; }

# step NAME LIMIT_S COMMAND...: COMMAND's output in $OUT/NAME.log; its status, time and last
# line in the summary.
step() {
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  local why=""
  [ "$rc" -eq 124 ] && why=" (time limit ${limit}s)"
  note "$name: rc=$rc$why in $((SECONDS - start))s: $(tail -n 1 "$OUT/$name.log" | cut -c1-240)"
  return "$rc"
}

note "bundle $(cat VERSION 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
if command -v nvidia-smi >/dev/null 2>&1; then
  note "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1)"
else
  note "gpu: nvidia-smi not found"
fi

# A missing GPU or runtime is a failure here, not a skip.
export BURN_REQUIRE_DEVICE=1

step smoke 180 env BURN_TEST_DEVICE=cuda-f32 bin/conformance \
  suite::float::matmul suite::float::unary suite::int::arith suite::misc::device ||
  { note "smoke test failed: stopping (see smoke.log)"; exit 1; }

step bench 240 bin/burn-bench --backend cuda --workload W1,W2,W5,W6,C1 --no-limits \
  --runs 10 --rounds 2 --max-seconds 6 --out "$OUT/bench.json"
step torch_w1 120 python3 torch_w1.py && cp "$OUT/torch_w1.log" "$OUT/torch_w1.json"
[ "$quick" -eq 1 ] && { note "--quick: done"; exit 0; }

step suite-f32 300 env BURN_TEST_DEVICE=cuda-f32 bin/conformance
for dtype in f16 bf16 f64; do
  step "suite-$dtype" 150 env BURN_TEST_DEVICE="cuda-$dtype" bin/conformance suite::float::
done

step digits 240 bin/digits --device cuda --artifacts "$OUT/digits"
note "done in ${SECONDS}s"
