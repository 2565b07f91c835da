package systemd

import (
	"context"
	"errors"
	"fmt"

	sddbus "github.com/coreos/go-systemd/v22/dbus"
	godbus "github.com/godbus/dbus/v5"
)

const (
	busName      = "org.freedesktop.systemd1"
	managerPath  = godbus.ObjectPath("/org/freedesktop/systemd1")
	managerIface = "org.freedesktop.systemd1.Manager"
	unitIface    = "org.freedesktop.systemd1.Unit"
	unitPrefix   = "/org/freedesktop/systemd1/unit"

	sigProperties        = "org.freedesktop.DBus.Properties.PropertiesChanged"
	sigReloading         = managerIface + ".Reloading"
	sigUnitFiles         = managerIface + ".UnitFilesChanged"
	sigNameOwner         = "org.freedesktop.DBus.NameOwnerChanged"
	errAlreadySubscribed = "org.freedesktop.systemd1.AlreadySubscribed"
)

// link is one live connection: the raw bus connection (signals, Ref) and
// go-systemd's client over the same connection (unit calls, job results).
type link struct {
	bus     *godbus.Conn
	sd      *sddbus.Conn
	signals chan *godbus.Signal
}

func newLink(bus *godbus.Conn) (*link, error) {
	// go-systemd asks its dialer twice (calls, signals); both get the same
	// connection so the process holds one, and Unit.Ref, Subscribe and the
	// job listeners all belong to the same bus client.
	sd, err := sddbus.NewConnection(func() (*godbus.Conn, error) { return bus, nil })
	if err != nil {
		bus.Close()
		return nil, fmt.Errorf("go-systemd client: %w", err)
	}
	l := &link{bus: bus, sd: sd, signals: make(chan *godbus.Signal, 256)}
	bus.Signal(l.signals)
	return l, nil
}

func (l *link) close() { l.sd.Close() }

// lost is closed when the connection drops; godbus reports it nowhere else.
func (l *link) lost() <-chan struct{} { return l.bus.Context().Done() }

func (l *link) manager() godbus.BusObject { return l.bus.Object(busName, managerPath) }

// subscribe adds the signal matches and asks systemd to broadcast unit
// changes (it sends none on the bus while nobody is subscribed).
func (l *link) subscribe(ctx context.Context) error {
	matches := [][]godbus.MatchOption{
		{godbus.WithMatchSender(busName), godbus.WithMatchPathNamespace(unitPrefix),
			godbus.WithMatchInterface("org.freedesktop.DBus.Properties"), godbus.WithMatchMember("PropertiesChanged"),
			godbus.WithMatchArg(0, unitIface)},
		{godbus.WithMatchSender(busName), godbus.WithMatchInterface(managerIface), godbus.WithMatchMember("UnitFilesChanged")},
		{godbus.WithMatchSender(busName), godbus.WithMatchInterface(managerIface), godbus.WithMatchMember("Reloading")},
		{godbus.WithMatchSender("org.freedesktop.DBus"), godbus.WithMatchInterface("org.freedesktop.DBus"),
			godbus.WithMatchMember("NameOwnerChanged"), godbus.WithMatchArg(0, busName)},
	}
	for _, m := range matches {
		if err := l.bus.AddMatchSignalContext(ctx, m...); err != nil {
			return fmt.Errorf("adding signal match: %w", err)
		}
	}
	return l.resubscribe(ctx)
}

// resubscribe calls Manager.Subscribe; being subscribed already is fine.
func (l *link) resubscribe(ctx context.Context) error {
	err := l.manager().CallWithContext(ctx, managerIface+".Subscribe", 0).Err
	var derr godbus.Error
	if errors.As(err, &derr) && derr.Name == errAlreadySubscribed {
		return nil
	}
	if err != nil {
		return fmt.Errorf("Manager.Subscribe: %w", err)
	}
	return nil
}
