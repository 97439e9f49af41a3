#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build qemu-system-riscv64 with the allwinner-d1 machine from Debian's
# qemu source package plus the overlay in this directory, and cache it.
#
# Usage: emu/qemu-d1/build.sh [--print-key]
# Prints the path of the cached binary as its last line on stdout; every
# progress message goes to stderr.  Environment:
#   D1_EMU_CACHE  cache directory (default ${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers)
#   D1_EMU_JOBS   ninja jobs (default: nproc, at most 2)
#   D1_EMU_KEEP   cached binaries kept, the new one included (default 4)
#
# Layout of the cache:
#   $D1_EMU_CACHE/qemu-src/            apt-get source output (pristine .dsc/.tar)
#   $D1_EMU_CACHE/qemu-d1/tree/        unpacked source + overlay (one tree,
#                                      rebuilt incrementally with ninja)
#   $D1_EMU_CACHE/qemu-d1/bin/<key>/qemu-system-riscv64
# The key is a hash of the source package version, the configure flags and
# every overlay file, so it changes when any of them changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${D1_EMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/d1drivers}
jobs=${D1_EMU_JOBS:-$(nproc)}
[ "$jobs" -gt 2 ] && jobs=2
step=0
nsteps=6
say() { echo "emu-build: $*" >&2; }
next() { step=$((step + 1)); say "step $step/$nsteps: $*"; }
die() { say "ERROR: $*"; exit 1; }

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

configure_flags=(--target-list=riscv64-softmmu --without-default-features
                 --disable-tools --disable-docs --disable-install-blobs
                 --enable-fdt=system)
build_pkgs=(libglib2.0-dev libpixman-1-dev libfdt-dev ninja-build meson flex
            bison pkg-config dpkg-dev python3 gcc make patch)

# Overlay files: everything in this directory except the build script
# itself, the patches (hashed separately) and documentation.
overlay_files() {
    (cd "$here" && find hw include target -type f | LC_ALL=C sort)
}

# ---------------------------------------------------------------- source
# The version apt would fetch; needs a deb-src entry for the same suite.
have_deb_src() {
    grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list \
        /etc/apt/sources.list.d/ 2>/dev/null
}

ensure_deb_src() {
    have_deb_src && return 0
    local f=/etc/apt/sources.list.d/debian.sources l=/etc/apt/sources.list
    if [ -f "$f" ]; then
        say "adding deb-src entries (same URIs/suites as $f)"
        # deb822: repeat each stanza with Types: deb-src.
        sed -e 's/^Types:.*/Types: deb-src/' "$f" |
            $SUDO tee /etc/apt/sources.list.d/d1drivers-deb-src.sources >/dev/null
    elif grep -qsE '^deb ' "$l"; then
        say "adding deb-src lines (same URIs/suites as $l)"
        # One-line format: each "deb ..." line again as "deb-src ...".
        sed -n -e 's/^deb /deb-src /p' "$l" |
            $SUDO tee /etc/apt/sources.list.d/d1drivers-deb-src.list >/dev/null
    else
        die "no deb-src entry, and neither $f nor deb lines in $l to derive one from"
    fi
    $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
}

# Only qemu 7.2 (bookworm's): the overlay's patches are for it, and a deb-src
# entry of another suite (bookworm-backports) may list a newer qemu.
src_version() {
    apt-cache showsrc qemu 2>/dev/null |
        awk '/^Version: 1:7\.2\+/ {print $2}' | sort -V | tail -1
}

# ---------------------------------------------------------------- key
compute_key() {
    local ver=$1
    {
        echo "qemu-src $ver"
        echo "configure ${configure_flags[*]}"
        (cd "$here" && for f in $(overlay_files) patches/*.patch; do
             echo "== $f"; cat "$f"; done)
    } | sha256sum | cut -c1-16
}

need_pkgs() {
    local missing=()
    for p in "${build_pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
            grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${missing[*]}"
    $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null
}

# Copy the overlay's new files into the tree, only those whose content
# changed (so ninja rebuilds only what changed).
copy_overlay() {
    local tree=$1 f n=0
    for f in $(overlay_files); do
        if ! cmp -s "$here/$f" "$tree/$f"; then
            mkdir -p "$tree/$(dirname "$f")"
            cp "$here/$f" "$tree/$f"
            n=$((n + 1))
        fi
    done
    say "overlay: $n file(s) copied"
}

# Apply patches/*.patch (the few hunks into existing QEMU files).  The
# applied copy is kept in the tree; a changed patch is reversed first.
apply_patches() {
    local tree=$1 p name applied out gone=()
    mkdir -p "$tree/.d1-applied"
    # A patch taken out of the overlay is reversed (the last applied first).
    for applied in "$tree/.d1-applied"/*.patch; do
        [ -f "$applied" ] || continue
        [ -f "$here/patches/$(basename "$applied")" ] || gone=("$applied" "${gone[@]}")
    done
    for applied in "${gone[@]}"; do
        name=$(basename "$applied")
        say "patch $name left the overlay: reversing it"
        (cd "$tree" && patch -p1 -R --batch -s <"$applied") ||
            die "could not reverse old $name; delete $tree and rerun"
        rm -f "$applied"
    done
    for p in "$here"/patches/*.patch; do
        name=$(basename "$p")
        applied="$tree/.d1-applied/$name"
        if [ -f "$applied" ]; then
            cmp -s "$p" "$applied" && continue
            say "patch $name changed: reversing the old one"
            (cd "$tree" && patch -p1 -R --batch -s <"$applied") ||
                die "could not reverse old $name; delete $tree and rerun"
            rm -f "$applied"
        fi
        if ! out=$(cd "$tree" && patch -p1 --batch --forward --dry-run <"$p" 2>&1); then
            echo "$out" >&2
            die "overlay patch $name does not apply to this qemu source" \
                "(the FAILED hunk is named above; file and line range" \
                "are in the patch header)"
        fi
        (cd "$tree" && patch -p1 --batch --forward -s <"$p")
        cp "$p" "$applied"
        say "applied $name"
    done
}

# Keep the binaries of the newest few keys (each is ~50 MB; every overlay
# change makes a new key). The one just built is always kept.
keep_bins=${D1_EMU_KEEP:-4}
prune_cache() {
    local cur=$1 d n=0
    while IFS= read -r d; do
        [ "$(basename "$d")" = "$cur" ] && continue
        n=$((n + 1))
        [ "$n" -lt "$keep_bins" ] && continue
        rm -rf "$d"
        say "pruned old emulator $(basename "$d")"
    done < <(ls -dt "$cache"/qemu-d1/bin/*/ 2>/dev/null | sed 's:/$::')
}

main() {
    next "deb-src entry for qemu's suite"
    ensure_deb_src
    local ver
    ver=$(src_version)
    if [ -z "$ver" ]; then
        $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
        ver=$(src_version)
    fi
    [ -n "$ver" ] || die "apt-cache showsrc qemu finds no source package"
    local key bin
    key=$(compute_key "$ver")
    bin="$cache/qemu-d1/bin/$key/qemu-system-riscv64"
    if [ "${1:-}" = "--print-key" ]; then
        echo "$key"
        return 0
    fi
    if [ -x "$bin" ]; then
        say "cached binary for key $key (qemu $ver): $bin"
        echo "$bin"
        return 0
    fi
    # One build at a time per cache (two test runs on one machine share the
    # tree); the second waits, then finds the first one's binary.
    mkdir -p "$cache"
    exec 9>"$cache/.build.lock"
    if ! flock -n 9; then
        say "another build holds $cache/.build.lock: waiting for it"
        flock 9
    fi
    if [ -x "$bin" ]; then
        say "cached binary for key $key (qemu $ver), built meanwhile: $bin"
        echo "$bin"
        return 0
    fi
    say "no cached binary for key $key (qemu source $ver): building"

    next "build packages"
    need_pkgs

    next "qemu source $ver (apt-get source)"
    local srcdir="$cache/qemu-src" tree="$cache/qemu-d1/tree"
    local upver=${ver#*:}
    mkdir -p "$srcdir"
    if [ ! -f "$tree/.d1-source-version" ] ||
       [ "$(cat "$tree/.d1-source-version")" != "$ver" ]; then
        if ! ls "$srcdir"/qemu_"${upver}".dsc >/dev/null 2>&1; then
            (cd "$srcdir" && apt-get source -qq --download-only "qemu=$ver") ||
                die "apt-get source qemu failed"
        fi
        rm -rf "$tree" "$cache/qemu-d1/unpack"
        mkdir -p "$cache/qemu-d1"
        # Unpack with Debian's patches applied (the source as Debian ships it).
        (cd "$cache/qemu-d1" &&
         dpkg-source -x --no-check --no-copy "$srcdir"/qemu_"${upver}".dsc unpack >/dev/null) ||
            { rm -f "$srcdir"/qemu_*  # an interrupted download: fetch it again next time
              die "dpkg-source -x failed"; }
        mv "$cache/qemu-d1/unpack" "$tree"
        echo "$ver" >"$tree/.d1-source-version"
    else
        say "reusing unpacked tree $tree"
    fi

    next "overlay"
    copy_overlay "$tree"
    apply_patches "$tree"

    next "configure"
    local flags="${configure_flags[*]}"
    if [ ! -f "$tree/build/build.ninja" ] ||
       [ "$(cat "$tree/.d1-configured" 2>/dev/null)" != "$flags" ]; then
        rm -rf "$tree/build"
        mkdir -p "$tree/build"
        (cd "$tree/build" && ../configure "${configure_flags[@]}" \
             >"$tree/configure.log" 2>&1) ||
            { tail -30 "$tree/configure.log" >&2; die "configure failed"; }
        echo "$flags" >"$tree/.d1-configured"
    else
        say "already configured; ninja re-runs meson if meson.build changed"
    fi

    next "ninja qemu-system-riscv64 (-j$jobs)"
    # Every overlay source is compiled in this build, so that the warning
    # check below sees each one (ninja would skip an object an earlier build
    # left when it stopped at that check or was interrupted).
    (cd "$here" && find hw include target -name '*.[ch]') | while IFS= read -r f; do
        touch "$tree/$f"
    done
    local t0=$SECONDS
    (cd "$tree/build" && ninja -j"$jobs" qemu-system-riscv64 >"$tree/ninja.log" 2>&1) ||
        { grep -E 'error|Error' -A3 "$tree/ninja.log" | head -60 >&2
          die "build failed (full log: $tree/ninja.log)"; }
    say "ninja took $((SECONDS - t0)) s"
    # Warnings are errors in the overlay's own files (QEMU itself is built
    # as Debian builds it, without -Werror). Each overlay change changes
    # the key, so every changed file is compiled, and checked, here.
    local f warn=""
    while IFS= read -r f; do
        warn+=$(grep -E "^\.\./${f//./\\.}:[0-9]+:[0-9]+: warning:" \
                    "$tree/ninja.log" || true)
    done < <(cd "$here" && find hw include target -name '*.[ch]' | sort)
    if [ -n "$warn" ]; then
        echo "$warn" >&2
        die "warnings in the overlay (full log: $tree/ninja.log)"
    fi
    mkdir -p "$(dirname "$bin")"
    cp "$tree/build/qemu-system-riscv64" "$bin.tmp"
    mv "$bin.tmp" "$bin"
    echo "$ver $key" >"$(dirname "$bin")/KEY"
    say "cached $bin"
    prune_cache "$key"
    echo "$bin"
}

main "$@"
