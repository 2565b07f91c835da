module github.com/reactive-ccm/ccm

go 1.26

require (
	github.com/coreos/go-systemd/v22 v22.7.0
	github.com/godbus/dbus/v5 v5.2.4
	go.yaml.in/yaml/v3 v3.0.6
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/sys v0.27.0 // indirect
