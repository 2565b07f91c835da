// Package daemon assembles ccm's watching daemon (`ccm run --watch`) from
// the parts in its sub-packages: the event hubs, the engine in watch
// mode, the reload loop, the control socket, the metrics endpoint,
// systemd's notifications and the signals, plus the fleet's parts a
// command gives it (remote sources, the reporter, the registry). The
// command fills a Config from its flags and prints the Session Run
// returns; everything between is here.
package daemon
