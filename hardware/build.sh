#!/usr/bin/env bash
# Compiles the board sketches with Debian's Arduino toolchain (arduino-builder, avr-gcc) and prints their flash and RAM use.
#
#   hardware/build.sh [--board uno|mega] [--out DIR] [VARIANT ...]
#
# Variants: kalaha-table, square-board (6 x 6, the Malawi board), square-board-13x13 (the
# largest). Without a variant, all are built. Each lands in DIR/<board>/<variant>/ (default
# hardware/build/, which git ignores) as <sketch>.ino.hex and .elf; arduino-builder recompiles
# only what changed. Needs: apt-get install gcc-avr avr-libc arduino-core-avr arduino-builder
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
out="$here/build"
board=uno
variants=()
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "build.sh: unknown option $1" >&2; exit 2 ;;
    *) variants+=("$1"); shift ;;
  esac
done
[ ${#variants[@]} -gt 0 ] || variants=(kalaha-table square-board square-board-13x13)

core=/usr/share/arduino/hardware
for tool in arduino-builder avr-gcc avr-size; do
  if ! command -v "$tool" >/dev/null; then
    echo "build.sh: $tool is missing; install Debian's avr toolchain:" >&2
    echo "  apt-get install -y --no-install-recommends gcc-avr avr-libc arduino-core-avr arduino-builder" >&2
    exit 1
  fi
done
if [ ! -f "$core/arduino/avr/boards.txt" ]; then
  echo "build.sh: the Arduino AVR core is missing ($core); apt-get install arduino-core-avr" >&2
  exit 1
fi
case "$board" in
  uno) flash_max=32256; ram_max=2048 ;;
  mega) flash_max=253952; ram_max=8192 ;;
  *) echo "build.sh: board must be uno or mega, not $board" >&2; exit 2 ;;
esac
fqbn="arduino:avr:$board"
[ "$board" = mega ] && fqbn="arduino:avr:mega:cpu=atmega2560"

for variant in "${variants[@]}"; do
  case "$variant" in
    kalaha-table) sketch=kalaha-table; defines="" ;;
    square-board) sketch=square-board; defines="-DBOARD_COLS=6 -DBOARD_ROWS=6" ;;
    square-board-13x13) sketch=square-board; defines="-DBOARD_COLS=13 -DBOARD_ROWS=13" ;;
    *) echo "build.sh: unknown variant $variant" >&2; exit 2 ;;
  esac
  dir="$out/$board/$variant"
  mkdir -p "$dir"
  # avr-gcc 5 in Debian lacks DECIMAL_DIG, which the core's WString.cpp needs.
  if ! arduino-builder -hardware "$core" -hardware /usr/share/arduino-builder -tools /usr/bin \
      -libraries "$here/libraries" -fqbn "$fqbn" -build-path "$dir" -warnings default \
      -prefs="compiler.cpp.extra_flags=-DDECIMAL_DIG=__DECIMAL_DIG__ $defines" \
      "$here/$sketch/$sketch.ino" >"$dir/build.log" 2>&1; then
    cat "$dir/build.log" >&2
    echo "build.sh: $variant did not compile for $board" >&2
    exit 1
  fi
  # Flash holds code and the initial values of data; RAM holds data and bss (the stack comes on top).
  read -r text data bss < <(avr-size "$dir/$sketch.ino.elf" | awk 'NR == 2 { print $1, $2, $3 }')
  flash=$((text + data))
  ram=$((data + bss))
  printf '%-20s %-5s flash %6d of %6d bytes (%2d%%)   RAM %5d of %5d bytes (%2d%%)   %s\n' \
    "$variant" "$board" "$flash" "$flash_max" $((100 * flash / flash_max)) "$ram" "$ram_max" $((100 * ram / ram_max)) \
    "$dir/$sketch.ino.hex"
done
