package systemd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	godbus "github.com/godbus/dbus/v5"
)

// privateSocket is systemd's own socket, usable by root without a bus
// daemon (early boot, containers without dbus).
const privateSocket = "/run/systemd/private"

// DialSystem connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS, else the
// standard socket). When there is no bus and this process is root, it
// connects to systemd's private socket instead; signals cannot be matched
// there, so the hub polls.
func DialSystem(ctx context.Context) (*godbus.Conn, error) {
	conn, err := dialBus(ctx, godbus.SystemBusPrivate, true)
	if err == nil {
		return conn, nil
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("system bus: %w", err)
	}
	if _, statErr := os.Stat(privateSocket); statErr != nil {
		return nil, fmt.Errorf("system bus: %w; and %s: %w", err, privateSocket, statErr)
	}
	direct, derr := dialBus(ctx, func(opts ...godbus.ConnOption) (*godbus.Conn, error) {
		return godbus.Dial("unix:path="+privateSocket, opts...)
	}, false)
	if derr != nil {
		return nil, errors.Join(fmt.Errorf("system bus: %w", err), fmt.Errorf("%s: %w", privateSocket, derr))
	}
	return direct, nil
}

// DialAddress connects to the bus at a D-Bus address
// ("unix:path=/proc/PID/root/run/dbus/system_bus_socket").
func DialAddress(address string) func(ctx context.Context) (*godbus.Conn, error) {
	return func(ctx context.Context) (*godbus.Conn, error) {
		return dialBus(ctx, func(opts ...godbus.ConnOption) (*godbus.Conn, error) {
			return godbus.Dial(address, opts...)
		}, true)
	}
}

// dialBus opens, authenticates and (on a bus) says Hello. Signals are
// queued in order without bound, so a slow reader never stalls the
// connection's reader (method replies included).
func dialBus(ctx context.Context, open func(...godbus.ConnOption) (*godbus.Conn, error), hello bool) (*godbus.Conn, error) {
	conn, err := open(godbus.WithContext(ctx), godbus.WithSignalHandler(godbus.NewSequentialSignalHandler()))
	if err != nil {
		return nil, err
	}
	if err := conn.Auth([]godbus.Auth{godbus.AuthExternal(strconv.Itoa(os.Getuid()))}); err != nil {
		conn.Close()
		return nil, fmt.Errorf("authenticating: %w", err)
	}
	if hello {
		if err := conn.Hello(); err != nil {
			conn.Close()
			return nil, fmt.Errorf("hello: %w", err)
		}
	}
	return conn, nil
}
