#!/bin/sh
# After install or upgrade (deb: configure; rpm: 1 or 2): make systemd see
# the unit, and restart the agent if it runs, so an upgrade takes effect.
set -e
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload || true
	systemctl try-restart ccm-agent.service || true
fi
