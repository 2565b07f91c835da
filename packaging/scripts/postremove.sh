#!/bin/sh
# After removal: make systemd forget the unit; a purge (deb) also removes
# the state ccm kept in /var/lib/ccm.
set -e
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload || true
fi
if [ "$1" = purge ]; then
	rm -rf /var/lib/ccm
fi
