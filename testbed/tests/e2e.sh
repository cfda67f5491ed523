#!/usr/bin/env bash
# The testbed's end-to-end test under a real X server (see tests/e2e.rs):
# installs Xvfb, xdotool and Mesa's software OpenGL from Debian's packages when
# they are missing, starts a virtual screen, runs the test against it, and
# stops the screen however the test ends. Exits non-zero on failure; the last
# line says which.
set -euo pipefail
cd "$(dirname "$0")/.."

# The X server, the mouse and keyboard robot, Mesa's software rasteriser
# (llvmpipe) with GLX and EGL, and the X libraries winit opens at run time.
packages=(xvfb xdotool libgl1-mesa-dri libglx-mesa0 libegl1 libxkbcommon-x11-0 libxcursor1 libxi6 libxrandr2)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
        missing+=("$package")
    fi
done
if ((${#missing[@]} > 0)); then
    echo "e2e: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# A free display number.
display=99
while [[ -e /tmp/.X11-unix/X$display || -e /tmp/.X$display-lock ]]; do
    display=$((display + 1))
done

log=$(mktemp)
Xvfb ":$display" -screen 0 1600x1000x24 -nolisten tcp >"$log" 2>&1 &
xvfb=$!
stop_xvfb() {
    kill "$xvfb" 2>/dev/null || true
    wait "$xvfb" 2>/dev/null || true
    rm -f "$log"
}
trap stop_xvfb EXIT

for _ in $(seq 100); do
    [[ -S /tmp/.X11-unix/X$display ]] && break
    if ! kill -0 "$xvfb" 2>/dev/null; then
        cat "$log"
        echo "e2e: FAILED: Xvfb did not start"
        exit 1
    fi
    sleep 0.1
done
[[ -S /tmp/.X11-unix/X$display ]] || { echo "e2e: FAILED: no X socket for :$display"; exit 1; }

export DISPLAY=":$display"
# Mesa's software rasteriser, whatever GPU the machine has or lacks.
export LIBGL_ALWAYS_SOFTWARE=1
# The X server's keyboard layout, for xdotool's keys.
export XKB_DEFAULT_LAYOUT=us

# The cargo profile to build with: release by default; CI passes its lighter one.
profile="${TESTBED_PROFILE:-release}"
if timeout 600 cargo test --profile "$profile" --test e2e -- --ignored --nocapture --test-threads=1; then
    echo "e2e: PASSED"
else
    echo "e2e: FAILED (see the test's output above)"
    exit 1
fi
