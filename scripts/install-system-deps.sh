#!/usr/bin/env bash
# Debian packages tokend's tests use: libsecret (to build keytar for the `os` keyring backend) and
# D-Bus + gnome-keyring (a real, headless Secret Service the os-backend tests start and stop);
# mount (util-linux) for the storage-fault tests on a small tmpfs (test/e2e/faults.test.ts,
# test/node/store/dbOpen.test.ts; they need root and are skipped, saying so, without it).
# Safe to run repeatedly; does nothing when everything is present or when apt-get is absent.
set -euo pipefail
needed=(libsecret-1-dev gnome-keyring dbus dbus-x11 mount)
missing=()
for pkg in "${needed[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system-deps: apt-get not found; install ${missing[*]} by hand (the os keyring tests will be skipped, and say so)" >&2
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
