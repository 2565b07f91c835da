// Package service is the service resource: systemd units kept running or
// stopped, enabled or disabled, over systemd's D-Bus API (no systemctl).
//
// It follows the CCM service type: ensure (running, the default, or
// stopped) is converged first, then enable (true, false, or unset to leave
// the boot configuration alone). A refresh from a subscribed resource
// restarts a running service, starts a stopped one, and is ignored when
// ensure is stopped.
//
// Guarantees:
//   - Every call goes through the process-wide systemd hub's one
//     connection (watchers/systemd); Watch asks the hub for the unit.
//   - Start, stop and restart wait for systemd's job result.
//   - systemd reloads its unit files only when needed: before a job when
//     the unit's file changed on disk (NeedDaemonReload), and after enable
//     or disable changed links.
//   - Noop reads state and calls nothing that changes the host, reload
//     included.
package service
