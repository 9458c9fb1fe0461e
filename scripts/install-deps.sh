#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages reclaim-replay needs to build, test and demo.
# Installs only what is missing; runs apt-get update first when it must install.
set -eu

PKGS="gcc make pkg-config
libtracecmd-dev libtraceevent-dev libtracefs-dev libjansson-dev
trace-cmd python3 python3-jsonschema librsvg2-bin parallel valgrind time jq
clang libclang-rt-14-dev"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
echo "install-deps: installing:$missing"
$SUDO apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $missing
