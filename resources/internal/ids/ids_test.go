package ids_test

import (
	"errors"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/ids"
)

// unnamed is an id no user or group of the test host has.
const unnamed = 2147483000

func TestSystemLookups(t *testing.T) {
	if id, err := ids.UID("root"); err != nil || id != 0 {
		t.Errorf("UID(root) = %d, %v", id, err)
	}
	if id, err := ids.GID("root"); err != nil || id != 0 {
		t.Errorf("GID(root) = %d, %v", id, err)
	}
	if _, err := ids.UID("ccm-fixture-nobody"); !errors.Is(err, ids.ErrNoSuchUser) {
		t.Errorf("unknown user: got %v, want ErrNoSuchUser", err)
	}
	if _, err := ids.GID("ccm-fixture-nobody"); !errors.Is(err, ids.ErrNoSuchGroup) {
		t.Errorf("unknown group: got %v, want ErrNoSuchGroup", err)
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name, owner, group string
		uid, gid           int
		wantErr            error
		wantMsg            string
	}{
		{"names", "root", "root", 0, 0, nil, ""},
		{"numbers without names", "2147483000", "2147483000", unnamed, unnamed, nil, ""},
		{"unknown owner", "ccm-fixture-nobody", "root", 0, 0, ids.ErrNoSuchUser, `owner: no such user "ccm-fixture-nobody"`},
		{"unknown group", "root", "ccm-fixture-nobody", 0, 0, ids.ErrNoSuchGroup, `group: no such group "ccm-fixture-nobody"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			uid, gid, err := ids.Resolve(tt.owner, tt.group)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || err.Error() != tt.wantMsg {
					t.Fatalf("got %v, want %v saying %s", err, tt.wantErr, tt.wantMsg)
				}
				return
			}
			if err != nil || uid != tt.uid || gid != tt.gid {
				t.Fatalf("got %d:%d, %v; want %d:%d", uid, gid, err, tt.uid, tt.gid)
			}
		})
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"a user with a name", ids.UserName(0), "root"},
		{"a group with a name", ids.GroupName(0), "root"},
		{"a user without a name", ids.UserName(unnamed), "2147483000"},
		{"a group without a name", ids.GroupName(unnamed), "2147483000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func TestResolvingRootAllocatesNothing(t *testing.T) {
	// Every check of a root-owned file resolves its owner and group.
	if n := testing.AllocsPerRun(100, func() { _, _, _ = ids.Resolve("root", "root") }); n != 0 {
		t.Fatalf("%v allocations resolving root:root, want none", n)
	}
}
