// Package all registers every built-in resource type; the CLI imports it
// once. Adding a type is one line here.
package all

import (
	_ "github.com/reactive-ccm/ccm/resources/apply"         // apply
	_ "github.com/reactive-ccm/ccm/resources/archive"       // archive
	_ "github.com/reactive-ccm/ccm/resources/authorizedkey" // authorized_key
	_ "github.com/reactive-ccm/ccm/resources/exec"          // exec
	_ "github.com/reactive-ccm/ccm/resources/file"          // file
	_ "github.com/reactive-ccm/ccm/resources/fileline"      // file_line
	_ "github.com/reactive-ccm/ccm/resources/group"         // group
	_ "github.com/reactive-ccm/ccm/resources/mount"         // mount
	_ "github.com/reactive-ccm/ccm/resources/pkg"           // package
	_ "github.com/reactive-ccm/ccm/resources/scaffold"      // scaffold
	_ "github.com/reactive-ccm/ccm/resources/service"       // service
	_ "github.com/reactive-ccm/ccm/resources/sysctl"        // sysctl
	_ "github.com/reactive-ccm/ccm/resources/user"          // user
)
