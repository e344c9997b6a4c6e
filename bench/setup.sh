#!/usr/bin/env bash
# Installs what bench/spin needs: SPIN (Debian's package gives 6.5.2) and
# gcc, with apt-get, when they are missing. Never fails the caller: when
# the install is impossible it says so loudly and the spin-tagged tests
# skip (with an equally loud message).
set -u
missing=()
command -v spin >/dev/null 2>&1 || missing+=(spin)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
if [ ${#missing[@]} -eq 0 ]; then
  echo "bench/setup.sh: $(spin -V 2>/dev/null | head -1); gcc $(gcc -dumpfullversion)"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo="sudo"; fi
echo "bench/setup.sh: installing ${missing[*]} with apt-get"
if ! { $sudo apt-get update && $sudo apt-get install -y "${missing[@]}"; }; then
  echo "!!! bench/setup.sh: could not install ${missing[*]}: the SPIN comparison tests will be SKIPPED !!!" >&2
  exit 0
fi
spin -V | head -1
