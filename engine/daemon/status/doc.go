// Package status is how a running ccm describes itself: every resource's
// standing (converged, failed, blocked, contested, paused, pending), its
// last change and last error, the counts, and the daemon's own health.
//
// It is plain data, ready for JSON: the engine fills the resources, the
// daemon (package daemon) adds its own health, the control socket serves it to
// `ccm status`, and anything else that reports on a host (a fleet
// publisher) can send the same Report.
package status
