package eventlog_test

import (
	"os"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
)

// ExampleWriteResult prints upstream CCM's result lines of `ccm ensure`,
// which scripts written for upstream read: the level, the resource (its
// alias when it has one), what happened, and the details.
func ExampleWriteResult() {
	for _, ev := range []*engine.Event{
		{Type: "package", Name: "zsh", Changed: true, RequestedEnsure: "present", Duration: 1204 * time.Millisecond, Provider: "apt"},
		{Type: "file", Name: "/etc/motd", RequestedEnsure: "present", Duration: 3 * time.Millisecond, Provider: "posix"},
		{Type: "exec", Name: "migrate", Alias: "db", Skipped: true, UnmetRequirements: []string{"package#postgresql"}, Provider: "posix"},
		{Type: "service", Name: "web", Failed: true, RequestedEnsure: "running", Error: []string{"unit not found"}, Provider: "systemd"},
	} {
		eventlog.WriteResult(os.Stdout, ev)
	}
	// Output:
	// WARN  package#zsh changed ensure=present runtime=1.204s provider=apt
	// INFO  file#/etc/motd stable ensure=present runtime=3ms provider=posix
	// WARN  exec#db (alias) skipped due to unmet requirement ensure= runtime=0s provider=posix unmet=package#postgresql
	// ERROR service#web failed ensure=running runtime=0s provider=systemd errors="unit not found"
}
