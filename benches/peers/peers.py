"""The benchmark workloads (W1–W7 of `cargo xtask bench`) in NumPy, PyTorch and JAX on the CPU.

Same protocol as the Rust benchmark (`crates/burn-bench/src/measure.rs`, ported in `measure`
below): inputs made outside the clock, a warm-up, then timed runs, each ending when the result
is ready (JAX: `block_until_ready`); the median, min and max. Figures: GFLOP/s (W1, W5), GB/s
(W2, W3), ms (W4, W6), µs per op (W7).

Two modes:
- `--out PATH` (the default): every case once, written as JSON
  `{framework: {"<id> <size>": {median_s, min_s, max_s, figure, unit}}}`.
- `--serve`: a server the benchmark drives (`burn-bench --live-peers`), so that each peer's
  rounds run right beside Flex's rounds of the same case. It answers JSON lines on stdout:
  first `{"ready": {framework: [case, ...]}, "versions": {framework: version}, "skipped":
  {framework: reason}}`, then for each request line `{"framework", "case", "runs", "rounds",
  "max_seconds"}` read on stdin (UTF-8), one round of that case: `{"framework", "case",
  "times_s": [...], "warmup_runs": n, "capped": bool}` or `{"framework", "case", "error"}`.
  Everything else the frameworks print goes to stderr. Inputs are made once, at setup (the
  benchmark makes Flex's again every round).
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time

# The constants of `measure.rs`: fewest timed runs; fast cases keep sampling up to MAX_RUNS
# runs until FILL_SECONDS; the warm-up lasts WARMUP_SECONDS (or a quarter of the time cap)
# or WARMUP_MAX_RUNS runs, at least one.
MIN_RUNS = 3
MAX_RUNS = 100
FILL_SECONDS = 1.0
WARMUP_SECONDS = 0.5
WARMUP_MAX_RUNS = 20


def measure(run, runs=10, rounds=1, max_seconds=20.0):
    """One round of `run`, as `measure.rs` times it: its warm-up and its share of the method's
    runs (`runs`, `max_seconds` and the fill budget shared between `rounds` rounds)."""
    rounds = max(rounds, 1)
    share = lambda total: max(-(-total // rounds), 1)
    max_seconds /= rounds
    fill_seconds, max_runs = FILL_SECONDS / rounds, share(MAX_RUNS)
    start = time.perf_counter()
    warmup_seconds = min(WARMUP_SECONDS, max_seconds / 4)
    warmup_runs = 0
    while warmup_runs == 0 or (
        warmup_runs < WARMUP_MAX_RUNS and time.perf_counter() - start < warmup_seconds
    ):
        out = run()
        del out
        warmup_runs += 1
    wanted, min_runs = share(max(runs, MIN_RUNS)), share(MIN_RUNS)
    times = []
    while True:
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
        # Freed after the clock stops, as `measure.rs` drops Flex's output (freeing a 64 MiB
        # result unmaps it: milliseconds).
        del out
        n = len(times)
        enough = n >= wanted and (sum(times) >= fill_seconds or n >= max_runs)
        over_cap = n >= min_runs and time.perf_counter() - start >= max_seconds
        if enough or over_cap:
            return {"times_s": times, "warmup_runs": warmup_runs, "capped": n < wanted}


def figure(kind, median, flops=0.0, nbytes=0.0, ops=1):
    if kind == "GFLOP/s":
        return flops / median / 1e9
    if kind == "GB/s":
        return nbytes / median / 1e9
    if kind == "ms":
        return median * 1e3
    return median * 1e6 / ops


# (id, size, unit, flops, bytes, ops) of every case, in the Rust benchmark's order.
CASES = [
    ("W1", f"n={n}", "GFLOP/s", 2.0 * n**3, 12.0 * n * n, 1) for n in (256, 1024, 2048)
] + [
    ("W2", "2^24", "GB/s", 2.0 * 2**24, 16.0 * 2**24, 1),
    ("W3", "[4096, 4096]", "GB/s", 4096.0**2, 4.0 * 4096**2 + 4.0 * 4096, 1),
    ("W4", "[4096, 1024]", "ms", 5.0 * 4096 * 1024, 8.0 * 4096 * 1024, 1),
    ("W5", "[8, 64, 56, 56]", "GFLOP/s", 2.0 * 8 * 64 * 56 * 56 * 64 * 9, 0.0, 1),
    ("W6", "batch 256", "ms", 0.0, 0.0, 1),
    ("W7", "[16] × 1000", "µs/op", 0.0, 0.0, 1000),
]


def numpy_runs():
    import numpy as np

    rng = np.random.default_rng(42)
    f32 = np.float32
    runs = {}
    for n in (256, 1024, 2048):
        a, b = rng.random((n, n), dtype=f32), rng.random((n, n), dtype=f32)
        runs[("W1", f"n={n}")] = lambda a=a, b=b: a @ b
    a, b, c = (rng.random(2**24, dtype=f32) for _ in range(3))
    runs[("W2", "2^24")] = lambda: np.exp(a * b + c)
    x = rng.random((4096, 4096), dtype=f32)
    runs[("W3", "[4096, 4096]")] = lambda: x.sum(axis=1)
    s = rng.random((4096, 1024), dtype=f32)

    def softmax():
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    runs[("W4", "[4096, 1024]")] = softmax
    # W5: no convolution in NumPy itself; im2col with a matrix product.
    xc = rng.random((8, 64, 58, 58), dtype=f32)
    w = rng.random((64, 64 * 9), dtype=f32)

    def conv():
        cols = np.lib.stride_tricks.sliding_window_view(xc, (3, 3), axis=(2, 3))
        cols = cols.transpose(0, 2, 3, 1, 4, 5).reshape(8 * 56 * 56, 64 * 9)
        return cols @ w.T

    runs[("W5", "[8, 64, 56, 56]")] = conv
    sizes = [784, 1024, 1024, 10]
    params = [
        [rng.standard_normal((i, o), dtype=f32) * np.sqrt(2.0 / i), np.zeros(o, f32)]
        for i, o in zip(sizes, sizes[1:])
    ]
    xb = rng.random((256, 784), dtype=f32)
    onehot = np.eye(10, dtype=f32)[rng.integers(0, 10, 256)]

    def step():
        hs = [xb]
        for i, (w_, b_) in enumerate(params):
            h = hs[-1] @ w_ + b_
            hs.append(np.maximum(h, 0) if i < len(params) - 1 else h)
        logits = hs[-1]
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - onehot) / 256
        for i in reversed(range(len(params))):
            w_, b_ = params[i]
            gw, gb = hs[i].T @ grad, grad.sum(axis=0)
            if i > 0:
                grad = (grad @ w_.T) * (hs[i] > 0)
            params[i][0] = w_ - 0.01 * gw
            params[i][1] = b_ - 0.01 * gb

    runs[("W6", "batch 256")] = step

    def dispatch():
        v = np.zeros(16, f32)
        for _ in range(1000):
            v = v + 1
        return v.copy()

    runs[("W7", "[16] × 1000")] = dispatch
    return runs


def torch_runs():
    import torch

    torch.manual_seed(42)
    runs = {}
    for n in (256, 1024, 2048):
        a, b = torch.rand(n, n), torch.rand(n, n)
        runs[("W1", f"n={n}")] = lambda a=a, b=b: a @ b
    a, b, c = (torch.rand(2**24) for _ in range(3))
    runs[("W2", "2^24")] = lambda: torch.exp(a * b + c)
    x = torch.rand(4096, 4096)
    runs[("W3", "[4096, 4096]")] = lambda: x.sum(dim=1)
    s = torch.rand(4096, 1024)
    runs[("W4", "[4096, 1024]")] = lambda: torch.softmax(s, dim=1)
    xc, w = torch.rand(8, 64, 56, 56), torch.rand(64, 64, 3, 3)
    runs[("W5", "[8, 64, 56, 56]")] = lambda: torch.nn.functional.conv2d(xc, w, padding=1)
    model = torch.nn.Sequential(
        torch.nn.Linear(784, 1024), torch.nn.ReLU(),
        torch.nn.Linear(1024, 1024), torch.nn.ReLU(),
        torch.nn.Linear(1024, 10),
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    xb, yb = torch.rand(256, 784), torch.randint(0, 10, (256,))

    def step():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        return loss.item()

    runs[("W6", "batch 256")] = step

    def dispatch():
        v = torch.zeros(16)
        for _ in range(1000):
            v = v + 1
        return v.tolist()

    runs[("W7", "[16] × 1000")] = dispatch
    return runs


def jax_runs():
    import jax
    import jax.numpy as jnp

    import itertools

    key = jax.random.PRNGKey(42)
    counter = itertools.count()
    next_key = lambda: jax.random.fold_in(key, next(counter))
    rand = lambda *shape: jax.random.uniform(next_key(), shape, jnp.float32)
    ready = lambda f: (lambda: jax.block_until_ready(f()))
    runs = {}
    matmul = jax.jit(lambda a, b: a @ b)
    for n in (256, 1024, 2048):
        a, b = rand(n, n), rand(n, n)
        runs[("W1", f"n={n}")] = ready(lambda a=a, b=b: matmul(a, b))
    a, b, c = rand(2**24), rand(2**24), rand(2**24)
    w2 = jax.jit(lambda a, b, c: jnp.exp(a * b + c))
    runs[("W2", "2^24")] = ready(lambda: w2(a, b, c))
    x = rand(4096, 4096)
    w3 = jax.jit(lambda x: x.sum(axis=1))
    runs[("W3", "[4096, 4096]")] = ready(lambda: w3(x))
    s = rand(4096, 1024)
    w4 = jax.jit(lambda s: jax.nn.softmax(s, axis=1))
    runs[("W4", "[4096, 1024]")] = ready(lambda: w4(s))
    xc, wc = rand(8, 64, 56, 56), rand(64, 64, 3, 3)
    w5 = jax.jit(lambda x, w: jax.lax.conv(x, w, (1, 1), "SAME"))
    runs[("W5", "[8, 64, 56, 56]")] = ready(lambda: w5(xc, wc))
    sizes = [784, 1024, 1024, 10]
    params = [
        (jax.random.normal(next_key(), (i, o)) * jnp.sqrt(2.0 / i), jnp.zeros(o))
        for i, o in zip(sizes, sizes[1:])
    ]
    xb = rand(256, 784)
    yb = jax.nn.one_hot(jax.random.randint(next_key(), (256,), 0, 10), 10)

    def loss(params, x, y):
        for i, (w, b) in enumerate(params):
            x = x @ w + b
            if i < len(params) - 1:
                x = jax.nn.relu(x)
        return -(jax.nn.log_softmax(x) * y).sum() / x.shape[0]

    @jax.jit
    def update(params, x, y):
        grads = jax.grad(loss)(params, x, y)
        return [(w - 0.01 * gw, b - 0.01 * gb) for (w, b), (gw, gb) in zip(params, grads)]

    state = {"params": params}

    def step():
        state["params"] = jax.block_until_ready(update(state["params"], xb, yb))

    runs[("W6", "batch 256")] = step

    def dispatch():
        v = jnp.zeros(16)
        for _ in range(1000):
            v = v + 1
        return jax.block_until_ready(v)

    runs[("W7", "[16] × 1000")] = dispatch
    return runs


FRAMEWORKS = {"numpy": numpy_runs, "torch": torch_runs, "jax": jax_runs}


def setup(names, log):
    """{framework: {case key: run}} for the frameworks of `names` that import and set up, and
    {framework: reason} for those that do not (a broken install must not hide the others)."""
    ready, skipped = {}, {}
    for name in names:
        if name not in FRAMEWORKS:
            skipped[name] = f"unknown framework (known: {', '.join(FRAMEWORKS)})"
            continue
        try:
            runs = FRAMEWORKS[name]()
        except ImportError as err:
            skipped[name] = f"not installed ({err})"
        except Exception as err:
            skipped[name] = f"setup failed ({err!r})"
        else:
            ready[name] = {f"{wid} {size}": run for (wid, size), run in runs.items()}
            continue
        log(f"{name}: {skipped[name]}; skipped")
    return ready, skipped


def version(name):
    """The installed version of the framework `name` (its package's name)."""
    from importlib.metadata import PackageNotFoundError, version as package_version

    try:
        return package_version(name)
    except PackageNotFoundError:
        return "?"


def batch(names, out):
    """Every case of every framework once (one round), written to `out` as JSON."""
    ready, _ = setup(names, print)
    results = {"machine": platform.processor() or platform.machine(), "frameworks": {}}
    for name, runs in ready.items():
        table = {}
        for wid, size, unit, flops, nbytes, ops in CASES:
            run = runs.get(f"{wid} {size}")
            if run is None:
                continue
            try:
                times = measure(run)["times_s"]
            except Exception as err:
                print(f"{name} {wid} {size}: failed ({err!r}); skipped")
                continue
            median = statistics.median(times)
            value = figure(unit, median, flops, nbytes, ops)
            table[f"{wid} {size}"] = {
                "median_s": median, "min_s": min(times), "max_s": max(times),
                "figure": value, "unit": unit,
            }
            print(f"{name:6} {wid} {size:16} {median * 1e3:10.3f} ms  {value:10.2f} {unit}")
        results["frameworks"][name] = table
        results.setdefault("versions", {})[name] = version(name)
    with open(out, "w") as f:
        json.dump(results, f, indent=2)
    print(f"wrote {out}")


def serve(names):
    """The request loop of `--serve` (see the module's doc)."""
    # The protocol owns the real stdout; whatever the frameworks print (Python or C) goes to
    # stderr.
    protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def reply(message):
        protocol.write(json.dumps(message) + "\n")
        protocol.flush()

    log = lambda text: print(f"peers: {text}", file=sys.stderr)
    ready, skipped = setup(names, log)
    reply({
        "ready": {name: list(runs) for name, runs in ready.items()},
        "versions": {name: version(name) for name in ready},
        "skipped": skipped,
    })
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            echo = {"framework": request.get("framework"), "case": request.get("case")}
            run = ready[request["framework"]][request["case"]]
        except (ValueError, KeyError, AttributeError) as err:
            reply({"framework": None, "case": None,
                   "error": f"bad request {line.strip()!r}: {err!r}"})
            continue
        try:
            reply({**echo, **measure(run, request.get("runs", 10), request.get("rounds", 1),
                                     request.get("max_seconds", 20.0))})
        except Exception as err:
            reply({**echo, "error": repr(err)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="target/bench/peers.json")
    parser.add_argument("--frameworks", default="numpy,torch,jax")
    parser.add_argument("--serve", action="store_true",
                        help="answer the benchmark's requests on stdin/stdout (see the doc)")
    args = parser.parse_args()
    names = [n for n in args.frameworks.split(",") if n]
    if args.serve:
        serve(names)
    else:
        batch(names, args.out)


if __name__ == "__main__":
    main()
