#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The Blender release `make` sets up and the Python that runs it (each bpy wheel is built for
# one Python: 5.2 for 3.13, 5.0/4.5/4.2 for 3.11). POSIX sh: it must run where no Python does.
#
#   sh scripts/pick_python.sh [RELEASE]
#
# Prints one line: `RELEASE PYTHON [NOTE]`, or `RELEASE - MESSAGE` when there is no Python for
# it. With RELEASE (make's BLENDER=) only that release's Python is looked for. Without it:
# 5.2 when Python 3.13 is found (python3.13, python3, ~/.pyenv/versions, `uv python find`),
# else 5.0 on Python 3.11 (with a NOTE saying so), else 5.2 on a Python 3.13 that uv
# installs when uv is on PATH, else a message saying what to install.

python_for() {
    case "$1" in
        5.2) echo 3.13 ;;
        5.0 | 4.5 | 4.2) echo 3.11 ;;
    esac
}

# The interpreter behind $1 when it runs and is Python $2 (an inactive pyenv shim does not
# run); a virtual environment's base interpreter, so a venv is never made from a venv.
resolve() {
    "$1" -c "import sys; v = '%d.%d' % sys.version_info[:2]; sys.exit(1) if v != '$2' else \
print(getattr(sys, '_base_executable', '') or sys.executable)" 2>/dev/null
}

find_python() {
    for candidate in "python$1" python3 "$HOME"/.pyenv/versions/"$1"*/bin/python"$1"; do
        command -v "$candidate" >/dev/null 2>&1 && resolve "$candidate" "$1" && return 0
    done
    if command -v uv >/dev/null 2>&1; then
        found=$(uv python find "$1" 2>/dev/null) && [ -n "$found" ] && resolve "$found" "$1"
        return
    fi
    return 1
}

INSTALL="install Python 3.13 (for Blender 5.2) or Python 3.11 (for 5.0, 4.5, 4.2), e.g. \
apt install python3.13, pyenv install 3.13, or uv python install 3.13"

if [ -n "$1" ]; then
    version=$(python_for "$1")
    if [ -z "$version" ]; then
        echo "$1 - BLENDER must be 5.2, 5.0, 4.5 or 4.2"
    elif python=$(find_python "$version"); then
        echo "$1 $python"
    else
        echo "$1 - Blender $1 needs Python $version, not found: install python$version"
    fi
    exit 0
fi

if python=$(find_python 3.13); then
    echo "5.2 $python"
elif python=$(find_python 3.11); then
    echo "5.0 $python No Python 3.13 for Blender 5.2: using Blender 5.0 on $python (.venv-5.0)"
elif command -v uv >/dev/null 2>&1 && uv python install 3.13 >&2 \
        && python=$(find_python 3.13); then
    echo "5.2 $python Python 3.13 installed by uv for Blender 5.2: $python"
else
    echo "5.2 - No Python for Blender's bpy: $INSTALL"
fi
