#!/usr/bin/env bash
# Installs the system tools the test suite drives, when they are missing.
# As root on Debian it uses apt-get; elsewhere it only reports what is
# missing, and the tests that need those tools skip with a message.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1; }
have tar               || need+=(tar)
have unzip             || need+=(unzip)
have zip               || need+=(zip)
have dpkg-deb          || need+=(dpkg)
have dpkg-scanpackages || need+=(dpkg-dev)
have apt-get           || need+=(apt)
have unshare           || need+=(util-linux)
have nsenter           || need+=(util-linux)
have dbus-daemon       || need+=(dbus)
[ -x /lib/systemd/systemd ] || need+=(systemd)
have git               || need+=(git)
# The fleet walkthrough of docs/fleet.md runs against a real nats-server.
have nats-server       || need+=(nats-server)
# rpm: the packaging test lists the .rpm make dist builds.
have rpm               || need+=(rpm)
# GNU time: the tests read ccm's own peak memory through it.
[ -x /usr/bin/time ]   || need+=(time)
# check_http, the Nagios plugin upstream's monitoring docs use.
[ -x /usr/lib/nagios/plugins/check_http ] || need+=(monitoring-plugins-basic)

[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! have apt-get; then
	echo "test-deps: missing ${need[*]}; tests that need them will skip" >&2
	exit 0
fi
echo "test-deps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
