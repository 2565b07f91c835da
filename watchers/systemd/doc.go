// Package systemd is the process-wide systemd watcher: one D-Bus
// connection to systemd shared by every service resource, for watching and
// for the calls that change units.
//
// How it watches: it calls Manager.Subscribe (without which systemd sends no
// unit signals on the system bus), matches PropertiesChanged on unit objects,
// UnitFilesChanged, Reloading and changes of systemd's bus name, and holds a
// Unit.Ref on every watched unit so that systemd does not garbage-collect it;
// an unreferenced unit that a check loads again emits new signals, which is
// the feedback loop of coreos/go-systemd#502.
//
// Guarantees:
//   - One connection for the whole process (Default), dialled lazily and
//     retried forever in the background; state changes are logged once each
//     through log/slog.
//   - A registration's notify is called, never concurrently with itself,
//     whenever its unit may have changed: a unit property changed, unit files
//     changed, systemd reloaded or re-executed, or the connection was
//     re-established after a disconnect (which D-Bus does not report: the
//     hub watches the connection itself).
//   - After a reconnect or a re-execution the hub subscribes again and takes
//     its unit references again.
//   - Without a bus daemon (a direct connection to systemd's private socket)
//     or with Options.Poll set, the hub polls the watched units' states
//     instead of relying on signals.
package systemd
