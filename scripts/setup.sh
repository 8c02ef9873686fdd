#!/usr/bin/env bash
# Installs what the lab and the tests need on a fresh machine: Debian's OVN, Open vSwitch, sshd and
# network tools (as root), then the npm packages. Safe to run again: it skips what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(ovn-central ovn-host openvswitch-switch openssh-server iproute2 iputils-ping ethtool procps netcat-openbsd debootstrap qemu-system-x86 cpio xz-utils)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "ovnk setup: missing Debian packages: ${missing[*]}. Run as root, or install them with: apt-get install -y ${missing[*]}" >&2
    exit 3
  fi
  echo "ovnk setup: installing ${missing[*]}" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [ ! -d node_modules/@pulumi/pulumi ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "ovnk setup: installing npm packages" >&2
  # `npm ci` first; npm 11.19 refuses it for locks whose optional platform packages (rollup's) it
  # left out itself, so fall back to `npm install`, which installs the locked versions as well.
  log=$(mktemp)
  if ! npm ci --no-audit --no-fund >"$log" 2>&1; then
    echo "ovnk setup: npm ci refused the lock file ($(grep -m1 -o 'can only install.*in sync' "$log" || echo 'see npm output')); using npm install" >&2
    npm install --no-audit --no-fund >&2
  fi
  rm -f "$log"
fi
