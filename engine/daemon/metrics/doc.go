// Package metrics exports a watching ccm's work to Prometheus: resources
// by standing, drift found and repairs by type, how long repairs took from
// the event that revealed the drift, check and apply durations, refreshes,
// contests, retries and failures, the inotify watches and polled paths,
// queue overflows, reloads by outcome, the last time everything was
// converged, and build information.
//
// Cardinality is low by default: labels are resource types and standings
// only. Per-resource series (Options.PerResource) are opt-in; upstream
// CCM's choria_ccm_* series, per resource, come with them.
package metrics
