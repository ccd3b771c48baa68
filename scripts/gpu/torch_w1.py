#!/usr/bin/env python3
"""W1's peer on the GPU: PyTorch's f32 matmul (cuBLAS) on CUDA device 0, at W1's sizes.

Part of the GPU bundle (`cargo xtask gpu`): run on the same GPU, in the same session, as the
bundled `burn-bench --backend cuda --workload W1`. Prints one JSON object: per size, the
median and minimum time of `runs` products (each timed with CUDA events after a warm-up) and
the GFLOP/s of the median, with TF32 off (the f32 arithmetic Burn's W1 does) and on.
"""
import json
import statistics
import sys

SIZES = [256, 1024, 2048]
RUNS = 20


def time_products(torch, n, runs):
    a = torch.rand((n, n), device="cuda", dtype=torch.float32)
    b = torch.rand((n, n), device="cuda", dtype=torch.float32)
    for _ in range(3):
        torch.matmul(a, b)
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.matmul(a, b)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return times


def main():
    try:
        import torch
    except ImportError as err:
        print(json.dumps({"error": f"no PyTorch: {err}"}))
        return 1
    if not torch.cuda.is_available():
        print(json.dumps({"error": "PyTorch sees no CUDA device"}))
        return 1
    result = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "device": torch.cuda.get_device_name(0),
        "cases": [],
    }
    for tf32 in (False, True):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for n in SIZES:
            times = time_products(torch, n, RUNS)
            median = statistics.median(times)
            result["cases"].append({
                "size": f"n={n}",
                "tf32": tf32,
                "median_s": median,
                "min_s": min(times),
                "gflop_per_s": 2.0 * n ** 3 / median / 1e9,
            })
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
