// Package apt is the apt provider of the package resource: dpkg-query says
// what is installed, apt-cache policy what is available, apt-get installs,
// upgrades, downgrades and removes. It never runs apt-get update.
//
// Every program runs without a shell, with DEBIAN_FRONTEND=noninteractive,
// APT_LISTBUGS_FRONTEND=none and APT_LISTCHANGES_FRONTEND=none, and with
// APT_CONFIG passed through from ccm's own environment: that is how an
// operator, or a test, points apt at another configuration.
//
// Only packages whose dpkg status is "installed" count as installed; a
// package removed with its configuration files left, half installed,
// half configured or unpacked is absent, so installing it repairs it.
package apt
