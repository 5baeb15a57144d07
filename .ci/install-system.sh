#!/usr/bin/env bash
# Installs the system pieces a real WebGPU needs on a clean Debian bookworm machine:
# Mesa lavapipe 25 from bookworm-backports (Dawn rejects bookworm's 22.3) and Chromium.
set -euo pipefail
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
if [ ! -f /etc/apt/sources.list.d/backports.sources ]; then
  $SUDO tee /etc/apt/sources.list.d/backports.sources >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
need=0
dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null | grep -q '^25' || need=1
command -v chromium >/dev/null || need=1
if [ $need = 1 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq -t bookworm-backports mesa-vulkan-drivers >/dev/null
  $SUDO apt-get install -y -qq libvulkan1 chromium >/dev/null
fi
dpkg-query -W -f='mesa-vulkan-drivers ${Version}\n' mesa-vulkan-drivers
