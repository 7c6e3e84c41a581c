#!/usr/bin/env bash
# Benchmark of `gshape check` (the shape analysis): obligations per second,
# the share decided without Z3 and Z3's resource units by outcome (what
# decisions take against what checks that end unknown burn), on samples/
# and on a generated project
# of at least 20,000 lines, and the wall time of `gshape check samples/`;
# then the re-check after editing one file with the analysis cache, on the
# generated project (one import chain: one analysis unit) and on a second
# generated layout of ten independent groups of five modules (ten units),
# and that layout cold on one thread against the default number of threads;
# then start-up: `gshape check` of a one-line file (with the cache, as users
# run it, and --no-cache) against `true` and `python3 -c pass` in the same
# run, and, for each fetched project, a check with nothing changed.
# Every other figure is a cold run (--no-cache).
#
# usage: scripts/bench-check.sh BUILD_DIR [RUNS]
#   BUILD_DIR  a build folder holding cli/gshape
#   RUNS       runs per measurement, the median is printed (default 5)
# environment:
#   GSHAPE_BENCH_PROJECTS  a folder of fetched public projects (one per
#                          subfolder, never committed): each is measured too
set -euo pipefail

BUILD_DIR=${1:?usage: scripts/bench-check.sh BUILD_DIR [RUNS]}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GSHAPE="$BUILD_DIR/cli/gshape"
PY=/usr/bin/python3
[ -x "$GSHAPE" ] || { echo "no gshape binary at $GSHAPE (build the gshape target first)" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# ---- a generated project: 50 modules importing each other, models with
# constructor arguments, symbolic helpers nobody calls (Z3 work), branches,
# asserts, loops and DataLoaders. Layout "chain": one package gen/ whose
# mod_m imports mod_{m-1} (one import chain, one analysis unit); "groups":
# ten packages grp0/ ... grp9/ of five modules each, each a chain of its own
# (ten independent analysis units), the same modules otherwise.
cat > "$WORK/generate.py" <<'EOF'
import os, sys
root, layout = sys.argv[1], sys.argv[2]
modules = 50
def package_of(m):
    return "gen" if layout == "chain" else f"grp{m // 5}"
def first_of_group(m):
    return m == 0 if layout == "chain" else m % 5 == 0
for m in range(modules):
    pkg = package_of(m)
    os.makedirs(os.path.join(root, pkg), exist_ok=True)
    open(os.path.join(root, pkg, "__init__.py"), "a").close()
    lines = [
        "import argparse",
        "import torch",
        "import torch.nn as nn",
        "import torch.nn.functional as F",
        "from torch.utils.data import DataLoader, TensorDataset",
    ]
    if not first_of_group(m):
        lines.append(f"from {pkg}.mod_{m - 1} import Block_{m - 1}_0")
    lines.append("")
    for k in range(6):
        name = f"Block_{m}_{k}"
        lines += [
            f"class {name}(nn.Module):",
            f"    def __init__(self, d_in={16 + k}, d_hidden={32 + 4 * k}, heads=4):",
            "        super().__init__()",
            "        self.heads = heads",
            "        self.fc1 = nn.Linear(d_in, d_hidden)",
            "        self.fc2 = nn.Linear(d_hidden, d_in)",
            "        self.proj = nn.Linear(d_in, d_hidden * 2)",
            "",
            "    def forward(self, x):",
            "        B, T, C = x.shape",
            "        h = F.relu(self.fc1(x))",
            "        if T > 1:",
            "            h = h + h[:, :1, :]",
            "        y = self.fc2(h) + x",
            "        z = self.proj(y).view(B, T, 2, -1)",
            "        a, b = z.unbind(2)",
            "        s = a @ b.transpose(1, 2)",
            "        return torch.cat([y, s.softmax(dim=-1) @ x], dim=-1)",
            "",
            f"def attention_{m}_{k}(q, k, v):",
            "    B, H, T, D = q.shape",
            "    assert k.shape[-1] == D and v.shape[-2] == k.shape[-2]",
            "    scores = q @ k.transpose(-2, -1) / (D ** 0.5)",
            "    out = scores.softmax(dim=-1) @ v",
            "    return out.transpose(1, 2).reshape(B, T, H * D)",
            "",
            f"def split_heads_{m}_{k}(x, heads):",
            "    B, T, C = x.shape",
            "    assert C % heads == 0",
            "    y = x.view(B, T, heads, C // heads).permute(0, 2, 1, 3)",
            "    return y.reshape(B * heads, T, C // heads)",
            "",
            f"def pool_{m}_{k}(x, n):",
            "    total = x.new_zeros(x.size(0), x.size(-1))",
            "    for i in range(n):",
            "        total = total + x[:, i % x.size(1), :]",
            "    return total / n",
            "",
        ]
    lines += [
        f"def train_{m}():",
        "    parser = argparse.ArgumentParser()",
        "    parser.add_argument('--batch-size', type=int, default=32)",
        "    parser.add_argument('--epochs', type=int, default=2)",
        "    args = parser.parse_args([])",
        f"    model = Block_{m}_0()",
        "    data = torch.randn(200, 5, 16)",
        "    loader = DataLoader(TensorDataset(data, torch.randn(200)), batch_size=args.batch_size)",
        "    for epoch in range(args.epochs):",
        "        for xb, yb in loader:",
        "            out = model(xb)",
        "            loss = (out.mean(dim=(1, 2)) - yb).pow(2).mean()",
        "    return loss",
        "",
    ]
    if not first_of_group(m):
        lines += [
            f"def chain_{m}(x):",
            f"    return Block_{m - 1}_0()(x)",
            "",
        ]
    # like a script: the module trains when run (the rest is library code
    # nobody calls here, analysed with Dyn parameters)
    lines += [
        "if __name__ == '__main__':",
        f"    train_{m}()",
        f"    print(split_heads_{m}_0(torch.randn(2, 5, 16), 4).shape)",
        "",
    ]
    # padding that is still code: small helpers with int arithmetic
    while len(lines) < 420:
        i = len(lines)
        lines += [f"def helper_{m}_{i}(n, k=3):", "    width = (n + k - 1) // k * k", "    return torch.zeros(width, k).sum(0)", ""]
    with open(os.path.join(root, pkg, f"mod_{m}.py"), "w") as f:
        f.write("\n".join(lines) + "\n")
EOF
"$PY" "$WORK/generate.py" "$WORK/gen" chain
"$PY" "$WORK/generate.py" "$WORK/groups" groups
GEN_LINES=$(cat "$WORK"/gen/gen/*.py | wc -l)

# median wall time (seconds) of RUNS runs of a command
median_time() {
  local times=()
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'
}

# obligations, their share decided without Z3 and the rates, from the JSON report
cat > "$WORK/report.py" <<'EOF'
import json, sys
label, wall = sys.argv[1], float(sys.argv[2])
d = json.load(sys.stdin)
s, a = d["summary"], d["analysis"]
raw = a["raw_obligations"]
share = 100.0 * a["decided_without_z3"] / raw if raw else 0.0
print(f"{label}:")
print(f"  files {s['files']}, obligations {s['obligations']} merged from {raw} analysed "
      f"({s['proven']} proven, {s['refuted']} refuted, {s['deferred']} deferred)")
wit = a.get("decided_by_witness", 0)
print(f"  decided without Z3: {a['decided_without_z3']} of {raw} ({share:.1f}%) constant, "
      f"{wit} ({100.0 * wit / raw if raw else 0.0:.1f}%) deferred by concrete witnesses; "
      f"{a['z3_checks']} Z3 checks in {a['z3_seconds']:.3f} s ({a['z3_unknown']} unknown), "
      f"{a.get('solver_cache_hits', 0)} queries answered by the verdict cache")
print(f"  analysis {a['seconds']:.3f} s: {raw / a['seconds']:.0f} obligations/s analysed "
      f"({a['functions_analysed']} function analyses, {a['memo_hits']} memo hits, "
      f"{a['budget_exhausted']} budgets exhausted)")
print(f"  wall time of gshape check (median): {wall:.3f} s: {raw / wall:.0f} obligations/s end to end")
EOF
report() {
  # exit status 1 only means shape errors were found (samples/ has buggy programs)
  { "$GSHAPE" check --no-cache --format=json "${@:4}" "$2" 2>/dev/null || true; } | "$PY" "$WORK/report.py" "$1" "$3"
  z3_units "$2" "${@:4}"
}
# Z3's deterministic resource units by outcome, from check --verbose: what
# the decisions took against what the checks that end unknown burnt (each
# its whole limit), and the second solver's unsat cores
z3_units() {
  { "$GSHAPE" check --no-cache --verbose "${@:2}" "$1" 2>&1 >/dev/null || true; } | awk '
    /^  (unsat|sat|unknown|unsat cores[^:]*):/ {
      label = $1; sub(/:$/, "", label); if ($1 == "unsat" && $2 == "cores") label = "cores"
      for (i = 1; i <= NF; i++) { if ($i == "checks,") checks[label] = $(i - 1); if ($i == "units") units[label] = $(i - 1) }
    }
    END {
      total = units["unsat"] + units["sat"] + units["unknown"] + units["cores"]
      if (total == 0) { print "  Z3 resource units: none (no Z3 check)"; exit }
      printf "  Z3 resource units: %.2fM in all; unknown %.2fM (%.0f%%, %d checks), unsat %.2fM (%d), sat %.2fM (%d), unsat cores %.2fM (%d)\n",
        total / 1e6, units["unknown"] / 1e6, 100 * units["unknown"] / total, checks["unknown"], units["unsat"] / 1e6,
        checks["unsat"], units["sat"] / 1e6, checks["sat"], units["cores"] / 1e6, checks["cores"]
    }'
}

echo "gshape check benchmark ($RUNS runs per wall time, median), $(nproc) cores"
SAMPLES_WALL=$(median_time "$GSHAPE" check --no-cache "$ROOT/samples")
report "samples/ ($(find "$ROOT/samples" -name '*.py' -exec cat {} + | wc -l) lines)" "$ROOT/samples" "$SAMPLES_WALL"
GEN_WALL=$(median_time "$GSHAPE" check --no-cache "$WORK/gen")
report "generated project ($GEN_LINES lines)" "$WORK/gen" "$GEN_WALL"
# the baseline in the same run: every non-constant obligation asked of Z3
GEN_Z3_WALL=$(median_time "$GSHAPE" check --no-cache --no-witnesses "$WORK/gen")
report "generated project, --no-witnesses (Z3 for everything)" "$WORK/gen" "$GEN_Z3_WALL" --no-witnesses
echo "generated project: concrete witnesses make gshape check $(echo "$GEN_Z3_WALL / $GEN_WALL" | bc -l | xargs printf '%.1f')x faster ($GEN_WALL s against $GEN_Z3_WALL s)"
echo "wall time of 'gshape check samples/': $SAMPLES_WALL s (target < 0.3 s; PyTea: 3.5-6.5 s for one project)"
if [ -n "${GSHAPE_BENCH_PROJECTS:-}" ] && [ -d "$GSHAPE_BENCH_PROJECTS" ]; then
  for project in "$GSHAPE_BENCH_PROJECTS"/*/; do
    project=${project%/}
    lines=$(find "$project" -name '*.py' -exec cat {} + 2>/dev/null | wc -l)
    wall=$(median_time "$GSHAPE" check --no-cache "$project")
    report "$(basename "$project") ($lines lines)" "$project" "$wall"
  done
fi

# ---- re-check after editing one file, with the analysis cache: cold (no
# cache) against a run after one module got a new function (a fresh edit
# each run; the cache filled by the run before), and a run with nothing changed
edit_counter=0
recheck_time() {  # DIR FILE CACHE: median wall time of an edit then a cached check
  local dir=$1 file=$2 cache=$3 times=()
  "$GSHAPE" check --cache-dir "$cache" "$dir" >/dev/null 2>&1 || true
  for _ in $(seq "$RUNS"); do
    edit_counter=$((edit_counter + 1))
    printf '\n\ndef edited_%d(x):\n    return x.view(x.size(0), -1)\n' "$edit_counter" >> "$file"
    local start end
    start=$(date +%s.%N)
    "$GSHAPE" check --cache-dir "$cache" "$dir" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}'
}
recheck() {  # LABEL DIR FILE
  local cache="$WORK/cache-$RANDOM" cold warm same units
  cold=$(median_time "$GSHAPE" check --no-cache "$2")
  warm=$(recheck_time "$2" "$3" "$cache")
  units=$("$GSHAPE" check --verbose --cache-dir "$cache" "$2" 2>&1 >/dev/null | grep -E '^(analysis units|modules parsed):' | paste -sd ';' || true)
  same=$(median_time "$GSHAPE" check --cache-dir "$cache" "$2")
  echo "re-check after editing one file, $1:"
  echo "  cold $cold s, after an edit $warm s ($(echo "100 * $warm / $cold" | bc -l | xargs printf '%.1f')% of cold), nothing changed $same s ($(echo "100 * $same / $cold" | bc -l | xargs printf '%.1f')% of cold)"
  echo "  $units (with nothing changed)"
}
recheck "generated project, one import chain (one unit)" "$WORK/gen" "$WORK/gen/gen/mod_25.py"
recheck "generated project, ten independent groups (ten units)" "$WORK/groups" "$WORK/groups/grp5/mod_27.py"

# ---- independent units on several threads: the ten-group project cold on
# one thread against the default (the cores, at most 8; GSHAPE_THREADS),
# the same output either way (tests/cli/analysis_cache_test.cpp)
ONE_THREAD=$(median_time env GSHAPE_THREADS=1 "$GSHAPE" check --no-cache "$WORK/groups")
THREADS=$(median_time env -u GSHAPE_THREADS "$GSHAPE" check --no-cache "$WORK/groups")
echo "ten independent groups, cold: 1 thread $ONE_THREAD s, default threads ($(nproc) cores) $THREADS s" \
     "($(echo "$ONE_THREAD / $THREADS" | bc -l | xargs printf '%.2f')x)"

# ---- start-up: the mean wall time of a command run LOOPS times in a row,
# the commands taking turns round by round (the median round is printed), so
# that a machine shared with other work slows each of them alike
LOOPS=20
mean_ms() {  # LOOPS runs of a command: mean milliseconds per run
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$LOOPS"); do "$@" >/dev/null 2>&1 || true; done
  end=$(date +%s%N)
  echo "($end - $start) / $LOOPS / 1000000" | bc -l
}
echo 'x = 1' > "$WORK/one_line.py"
"$GSHAPE" check --cache-dir "$WORK/cache-startup" "$WORK/one_line.py" >/dev/null 2>&1 || true
declare -A rounds
labels=("true" "python3 -c pass" "gshape --version" "gshape check one-line file" "gshape check --no-cache one-line file")
for _ in $(seq "$RUNS"); do
  rounds["true"]+="$(mean_ms true) "
  rounds["python3 -c pass"]+="$(mean_ms "$PY" -c pass) "
  rounds["gshape --version"]+="$(mean_ms "$GSHAPE" --version) "
  rounds["gshape check one-line file"]+="$(mean_ms "$GSHAPE" check --cache-dir "$WORK/cache-startup" "$WORK/one_line.py") "
  rounds["gshape check --no-cache one-line file"]+="$(mean_ms "$GSHAPE" check --no-cache "$WORK/one_line.py") "
done
median_of() { printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]}'; }
TRUE_MS=$(median_of "${rounds["true"]}")
echo "start-up (mean of $LOOPS runs in a row, median of $RUNS rounds; target: check of a one-line file <= 5 ms):"
for label in "${labels[@]}"; do
  ms=$(median_of "${rounds[$label]}")
  echo "  $label: $ms ms ($(echo "$ms / $TRUE_MS" | bc -l | xargs printf '%.1f')x true)"
done
# ---- peak memory on one large file: a generated module of N model blocks
# (each a class, its construction and a call), at two sizes, cold; the ratio
# to the file's size and the growth per byte between the two sizes
cat > "$WORK/big.py" <<'PYEOF'
import sys
out, blocks = sys.argv[1], int(sys.argv[2])
with open(out, "w") as f:
    f.write("import torch\nimport torch.nn as nn\n\n")
    for i in range(blocks):
        dim = 64 + i % 7
        f.write(f"class Block{i}(nn.Module):\n"
                f"    def __init__(self, dim={dim}):\n"
                "        super().__init__()\n"
                "        self.up = nn.Linear(dim, 4 * dim)\n"
                "        self.down = nn.Linear(4 * dim, dim)\n"
                "        self.norm = nn.LayerNorm(dim)\n\n"
                "    def forward(self, x):\n"
                "        return self.norm(x + self.down(torch.relu(self.up(x))))\n\n\n"
                f"y{i} = Block{i}()(torch.randn(8, {dim}))\n\n\n")
PYEOF
peak_kb() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
echo "peak memory, gshape check --no-cache of one generated file (target: <= 50x the file's size, bounded per file):"
prev_bytes=""
prev_kb=""
for blocks in 1000 4000; do
  "$PY" "$WORK/big.py" "$WORK/big_$blocks.py" "$blocks"
  bytes=$(stat -c %s "$WORK/big_$blocks.py")
  kb=$(peak_kb "$GSHAPE" check --no-cache "$WORK/big_$blocks.py")
  line="  $((bytes / 1024)) KB file ($blocks blocks): peak $((kb / 1024)) MB, $(echo "$kb * 1024 / $bytes" | bc -l | xargs printf '%.0f')x the file"
  if [ -n "$prev_kb" ]; then
    line+=", $(echo "($kb - $prev_kb) * 1024 / ($bytes - $prev_bytes)" | bc -l | xargs printf '%.1f') bytes of memory per byte added"
  fi
  echo "$line"
  prev_bytes=$bytes
  prev_kb=$kb
done

if [ -n "${GSHAPE_BENCH_PROJECTS:-}" ] && [ -d "$GSHAPE_BENCH_PROJECTS" ]; then
  echo "fetched projects, gshape check with nothing changed (the cache filled; target <= 30 ms; cold: above):"
  for project in "$GSHAPE_BENCH_PROJECTS"/*/; do
    project=${project%/}
    cache="$WORK/cache-$(basename "$project")"
    "$GSHAPE" check --cache-dir "$cache" "$project" >/dev/null 2>&1 || true
    printf '  %s: %.1f ms\n' "$(basename "$project")" "$(mean_ms "$GSHAPE" check --cache-dir "$cache" "$project")"
  done
fi

