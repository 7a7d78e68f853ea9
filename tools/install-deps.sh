#!/usr/bin/env bash
# Installs the Debian packages ringsim needs (Debian 12 "bookworm"); clang and its sanitizer runtime
# build the sanitizer pass (tools/sanitize.sh). As root it runs apt-get;
# otherwise it prints the one apt-get line to run and exits with status 1.
set -euo pipefail
PACKAGES=(cmake g++ make pkg-config libsimgrid-dev libglpk-dev nlohmann-json3-dev doctest-dev
          libcli11-dev libboost-graph-dev libpugixml-dev libltdl-dev python3-matplotlib python3-jsonschema jq parallel pajeng
          universal-ctags clang libclang-rt-14-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "ringsim: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || true  # a stale package index is fine when the packages are cached
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "ringsim: missing packages; run as root:" >&2
  echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
