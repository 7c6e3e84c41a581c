#!/usr/bin/env bash
# Makes `import gshape_runtime` work for plain `/usr/bin/python3 OUT/script.py`
# on an instrumented tree: writes a `gshape_runtime.pth` file, holding the
# absolute path of BUILD_DIR/runtime/python, into that Python's user
# site-packages (`python3 -m site --user-site`; PYTHONUSERBASE moves it).
# Idempotent: rewrites the file only when the path changes. `python3 -s`,
# `-I` or PYTHONNOUSERSITE=1 turn user site-packages (and so this) off; set
# PYTHONPATH=BUILD_DIR/runtime/python instead there.
#   scripts/install-runtime.sh BUILD_DIR [PYTHON]
set -euo pipefail

build_dir=${1:?usage: scripts/install-runtime.sh BUILD_DIR [PYTHON]}
python=${2:-/usr/bin/python3}
runtime_dir="$(cd "$build_dir" 2>/dev/null && pwd)/runtime/python"
if ! compgen -G "$runtime_dir/gshape_runtime/_native*.so" >/dev/null; then
  echo "install-runtime: $runtime_dir/gshape_runtime is not built (cmake --build $build_dir --target gshape_runtime)" >&2
  exit 2
fi
site_dir=$("$python" -c 'import site, sys; sys.exit("user site-packages are disabled") if not site.ENABLE_USER_SITE else print(site.getusersitepackages())')
pth="$site_dir/gshape_runtime.pth"
if [[ -f "$pth" && "$(cat "$pth")" == "$runtime_dir" ]]; then
  echo "install-runtime: $pth already points at $runtime_dir"
  exit 0
fi
mkdir -p "$site_dir"
tmp="$pth.tmp.$$"
printf '%s\n' "$runtime_dir" > "$tmp"
mv -f "$tmp" "$pth"
echo "install-runtime: $pth -> $runtime_dir"
