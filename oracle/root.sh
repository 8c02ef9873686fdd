#!/bin/sh
# The oracle's Go: a Debian trixie root (debootstrap) with golang-1.26-go from trixie-backports, in a
# cache outside the repository ($OVNK_ORACLE_CACHE, else /var/cache/ovnk-oracle). Upstream's go.mod
# needs Go 1.26; its vendor/ tree lets it build offline. Mounts are detached (umount -l) before
# anything under the root is deleted, so the host's /dev is never removed through a bind mount.
#
#   root.sh root                      make the root (once; about 5 minutes)
#   root.sh build UPSTREAM            build UPSTREAM/go-controller/pkg/ovn's test binary (kept in the cache)
#   root.sh run UPSTREAM IN OUT       run the oracle harness of that binary on input IN, its dump to OUT
#   root.sh release                   detach the root's mounts
set -eu
CACHE=${OVNK_ORACLE_CACHE:-/var/cache/ovnk-oracle}
ROOT=$CACHE/trixie-go
MIRROR=http://deb.debian.org/debian
COMPLETE=$ROOT/.ovnk-oracle-root-complete

mounted() { grep -q " $1 " /proc/self/mountinfo; }

bind() { # bind SOURCE TARGET (once)
  mkdir -p "$2"
  mounted "$2" || mount --bind "$1" "$2"
}

release() {
  [ -d "$ROOT" ] || return 0
  for m in $(awk '{print $5}' /proc/self/mountinfo | grep "^$ROOT/" | sort -r); do umount -l "$m" || true; done
}

make_root() {
  [ -f "$COMPLETE" ] && return 0
  command -v debootstrap >/dev/null || { echo "the oracle needs debootstrap (apt-get install -y debootstrap)" >&2; exit 1; }
  release
  rm -rf "$ROOT"
  mkdir -p "$CACHE"
  debootstrap --variant=minbase --include=ca-certificates,git trixie "$ROOT" "$MIRROR"
  echo "deb $MIRROR trixie-backports main" > "$ROOT/etc/apt/sources.list.d/backports.list"
  chroot "$ROOT" apt-get update
  chroot "$ROOT" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -t trixie-backports golang-1.26-go gcc libc6-dev
  date -u > "$COMPLETE"
}

mount_all() { # mount_all UPSTREAM
  for d in dev proc sys; do bind "/$d" "$ROOT/$d"; done
  bind "$1" "$ROOT/upstream"
}

in_root() { # in_root COMMAND... (in go-controller/pkg/ovn, offline Go settings)
  chroot "$ROOT" env -i PATH=/usr/lib/go-1.26/bin:/usr/bin:/bin HOME=/root \
    GOFLAGS=-mod=vendor GOTOOLCHAIN=local GOPROXY=off GOCACHE=/gocache GOPATH=/gopath \
    sh -c 'cd /upstream/go-controller/pkg/ovn && exec "$@"' in_root "$@"
}

case "${1:-}" in
  root) make_root ;;
  build)
    make_root
    mount_all "$(realpath "$2")"
    in_root nice -n 10 go test -c -vet=off -p 1 -o /gocache/ovn.test .
    ;;
  run)
    make_root
    mount_all "$(realpath "$2")"
    dir=$(mktemp -d "$ROOT/tmp/oracle.XXXXXX")
    cp "$3" "$dir/in.json"
    inside=${dir#"$ROOT"}
    in_root timeout -k 5 "${OVNK_ORACLE_TIMEOUT:-90}" env OVNK_ORACLE_INPUT="$inside/in.json" OVNK_ORACLE_OUTPUT="$inside/out.json" \
      /gocache/ovn.test -test.run '^TestOvnkOracle$' >"$dir/log" 2>&1 || true
    if [ -f "$dir/out.json" ]; then cp "$dir/out.json" "$4"; rm -rf "$dir"; else tail -20 "$dir/log" >&2; rm -rf "$dir"; exit 1; fi
    ;;
  release) release ;;
  *) echo "usage: root.sh root | build UPSTREAM | run UPSTREAM IN OUT | release" >&2; exit 2 ;;
esac
