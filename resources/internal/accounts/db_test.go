package accounts_test

import (
	"os"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/accounts"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// databases writes the sandbox's account databases; an empty text
// removes the file.
func databases(t *testing.T, files map[string]string) {
	t.Helper()
	sandbox.Require(t)
	for path, text := range files {
		if text == "" {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			continue
		}
		resourcetest.WriteFile(t, path, text, 0o644)
	}
}

func TestLookupUser(t *testing.T) {
	const passwd = "root:x:0:0:root:/root:/bin/bash\n" +
		"# ccmu:x:1:1:a comment line:/x:/bin/false\n" +
		"+ccmnis::::::\n-ccmnis2::::::\n\n" +
		"ccmu:x:1500:1600:C. M. User:/home/ccmu:/bin/sh\n" +
		"ccmu:x:9999:9999:a second record, which no tool reads:/:/bin/false\n" +
		"ccmshort:x:1501:1601:no shell\n" +
		"ccmbaduid:x:uid:1602::/:/bin/sh\n" +
		"ccmbadgid:x:1503:gid::/:/bin/sh\n" +
		"ccmnoshadow:x:1504:1604::/:/bin/sh\n" +
		"ccmshadowshort:x:1505:1605::/:/bin/sh\n" +
		"ccmnoexpiry:x:1506:1606::/:/bin/sh\n" +
		"ccmbadexpiry:x:1507:1607::/:/bin/sh\n"
	const shadow = "ccmu:$6$salt$hash:19000:0:99999:7::20000:\n" +
		"ccmshadowshort:!:19000\n" +
		"ccmnoexpiry:*:19000:0:99999:7:::\n" +
		"ccmbadexpiry:!:19000:0:99999:7::soon:\n"
	databases(t, map[string]string{accounts.Passwd: passwd, accounts.Shadow: shadow})
	tests := []struct {
		name string
		want *accounts.User
		err  string
	}{
		{name: "ccmu", want: &accounts.User{Name: "ccmu", UID: 1500, GID: 1600, Comment: "C. M. User", Home: "/home/ccmu", Shell: "/bin/sh", Password: "$6$salt$hash", Expiry: 20000}},
		{name: "ccmnoshadow", want: &accounts.User{Name: "ccmnoshadow", UID: 1504, GID: 1604, Home: "/", Shell: "/bin/sh", Expiry: -1}},
		{name: "ccmnoexpiry", want: &accounts.User{Name: "ccmnoexpiry", UID: 1506, GID: 1606, Home: "/", Shell: "/bin/sh", Password: "*", Expiry: -1}},
		{name: "ccmbadexpiry", want: &accounts.User{Name: "ccmbadexpiry", UID: 1507, GID: 1607, Home: "/", Shell: "/bin/sh", Password: "!", Expiry: -1}},
		{name: "ccmabsent"},
		// Comments and NIS compat lines (+name, -name) are no user.
		{name: "ccmnis"},
		{name: "ccmnis2"},
		{name: "# ccmu"},
		{name: "ccmshort", err: "/etc/passwd: the record of ccmshort has 5 fields, want 7"},
		{name: "ccmbaduid", err: `/etc/passwd: the uid of ccmbaduid is "uid", not a number`},
		{name: "ccmbadgid", err: `/etc/passwd: the gid of ccmbadgid is "gid", not a number`},
		{name: "ccmshadowshort", err: "/etc/shadow: the record of ccmshadowshort has 3 fields, want 8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := accounts.LookupUser(tt.name)
			resourcetest.Returns(t, "LookupUser("+tt.name+")", u, err, tt.want, tt.err)
		})
	}
}

func TestLookupGroupAndGroupsOf(t *testing.T) {
	databases(t, map[string]string{accounts.Groups: "root:x:0:\n" +
		"ccmg:x:2500:ccma,ccmb\n" +
		"ccmempty:x:2501:\n" +
		"ccmother:x:2502:ccmb\n" +
		"+ccma:x:2503:ccma\n" +
		"ccmshort:x:2504\n" +
		"ccmbadgid:x:none:ccma\n" +
		"ccmprefix:x:2505:ccmab,accma\n" +
		"ccmdup:x:2506:ccmc,ccmc\n"})
	tests := []struct {
		name string
		want *accounts.Group
		err  string
	}{
		{name: "ccmg", want: &accounts.Group{Name: "ccmg", GID: 2500, Members: []string{"ccma", "ccmb"}}},
		{name: "ccmempty", want: &accounts.Group{Name: "ccmempty", GID: 2501}},
		{name: "ccmabsent"},
		{name: "+ccma"},
		{name: "ccmshort", err: "/etc/group: the record of ccmshort has 3 fields, want 4"},
		{name: "ccmbadgid", err: `/etc/group: the gid of ccmbadgid is "none", not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := accounts.LookupGroup(tt.name)
			resourcetest.Returns(t, "LookupGroup("+tt.name+")", g, err, tt.want, tt.err)
		})
	}
	// A short record is passed over, a member matches whole names only.
	for user, want := range map[string]string{"ccma": "ccmg,ccmbadgid", "ccmb": "ccmg,ccmother", "ccmab": "ccmprefix", "ccmc": "ccmdup", "ccmz": ""} {
		got, err := accounts.GroupsOf(user)
		if err != nil || strings.Join(got, ",") != want {
			t.Errorf("groups of %s %q (%v), want %q", user, got, err, want)
		}
	}
}

// TestMissingDatabaseHoldsNobody: a host without /etc/shadow or
// /etc/group has no record there, which is not an error.
func TestMissingDatabaseHoldsNobody(t *testing.T) {
	databases(t, map[string]string{
		accounts.Passwd: "ccmlone:x:1700:1700::/:/bin/sh\n",
		accounts.Shadow: "",
		accounts.Groups: "",
	})
	u, err := accounts.LookupUser("ccmlone")
	if err != nil || u == nil || u.Password != "" || u.Expiry != -1 {
		t.Fatalf("user %+v (%v), want one without a shadow record", u, err)
	}
	if g, err := accounts.LookupGroup("ccmlone"); g != nil || err != nil {
		t.Fatalf("group %+v (%v), want none", g, err)
	}
	if gs, err := accounts.GroupsOf("ccmlone"); gs != nil || err != nil {
		t.Fatalf("groups %q (%v), want none", gs, err)
	}
	databases(t, map[string]string{accounts.Passwd: ""})
	if u, err := accounts.LookupUser("ccmlone"); u != nil || err != nil {
		t.Fatalf("user %+v (%v) without /etc/passwd, want none", u, err)
	}
}

// TestDatabaseThatIsNoFileIsAnError: a symlink or directory in place of
// a database is refused, not read as empty.
func TestDatabaseThatIsNoFileIsAnError(t *testing.T) {
	databases(t, map[string]string{accounts.Groups: ""})
	target := t.TempDir() + "/group"
	resourcetest.WriteFile(t, target, "ccmlinked:x:2900:\n", 0o644)
	if err := os.Symlink(target, accounts.Groups); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(accounts.Groups) })
	if g, err := accounts.LookupGroup("ccmlinked"); err == nil {
		t.Fatalf("group %+v read through a symlink", g)
	}
}
