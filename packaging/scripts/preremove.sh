#!/bin/sh
# Before removal (deb: remove; rpm: 0), not before an upgrade: stop and
# disable the agent so nothing runs a binary that is going away.
set -e
case "$1" in
remove | 0)
	if [ -d /run/systemd/system ]; then
		systemctl disable --now ccm-agent.service || true
	fi
	;;
esac
