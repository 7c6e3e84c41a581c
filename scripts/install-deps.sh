#!/usr/bin/env bash
# Installs what gshape needs, only what is missing; silent when all is present.
#   Debian packages: tree-sitter 0.20, Z3, libtorch + python3-torch 1.13,
#                    Boost.Graph, GoogleTest, pybind11, toml++ (gshape.toml),
#                    yaml-cpp (YAML configs a launch names), PyYAML for the
#                    samples' own scripts, a C++ toolchain; Chromium, for
#                    the test that renders the HTML review headless (about
#                    100 packages, three minutes; without it that test is
#                    skipped).
#   npm registry:    the tree-sitter-python grammar 0.23.6 (language ABI 14),
#                    unpacked into .deps/ (git-ignored; never committed).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
grammar_version=0.23.6
grammar_dir="$root/.deps/tree-sitter-python-$grammar_version"

packages=(build-essential cmake pkg-config libtree-sitter-dev libz3-dev
          libtorch-dev python3-torch libboost-graph-dev libgtest-dev
          pybind11-dev libtomlplusplus-dev libyaml-cpp-dev python3-yaml
          chromium)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

# npm may come from outside Debian (a NodeSource build); only ask apt when absent.
command -v npm >/dev/null 2>&1 || missing+=(npm)

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ ! -f "$grammar_dir/src/parser.c" || ! -f "$grammar_dir/src/scanner.c" ]]; then
  echo "install-deps: fetching tree-sitter-python@$grammar_version from npm" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "tree-sitter-python@$grammar_version" >/dev/null)
  mkdir -p "$grammar_dir"
  tar -xzf "$tmp"/tree-sitter-python-"$grammar_version".tgz -C "$grammar_dir" \
      --strip-components=1 package/src package/package.json package/LICENSE
fi
