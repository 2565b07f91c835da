package control

import "os"

// ServePath is the socket a daemon serves: flag's, else $CCM_SOCKET's,
// else DefaultPath; none ("") when flag was given empty (set). One named
// on purpose (flag or $CCM_SOCKET) is required: if it cannot be opened,
// the daemon does not start.
func ServePath(flag string, set bool) (path string, required bool) {
	if flag == "" && set {
		return "", false
	}
	return Path(flag), flag != "" || os.Getenv(PathEnv) != ""
}
