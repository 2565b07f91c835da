// Package enginetest runs a watch-mode engine in a test, wired as
// `ccm run --watch` wires it: the real inotify hub (falling back to the
// polling hub for paths inotify refuses), the real polling hub and the
// real mount table hub, plus a systemd unit source when the caller passes
// one. It records every event, waits for events by predicate and for the
// engine to settle, each with a timeout, and stops the engine when the
// test ends.
//
// It takes the unit source from the caller, in engine.Options.Watchers,
// rather than importing watchers/systemd, so tests that do not manage
// services do not link D-Bus.
package enginetest
