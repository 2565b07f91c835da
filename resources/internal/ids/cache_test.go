package ids

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// countingLookup resolves names from a map and counts the lookups.
type countingLookup struct {
	ids   map[string]int
	calls int
}

func (c *countingLookup) lookup(name string) (int, error) {
	c.calls++
	id, ok := c.ids[name]
	if !ok {
		return 0, ErrNoSuchUser
	}
	return id, nil
}

func TestCache(t *testing.T) {
	db := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(db, []byte("app:x:1000:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := &countingLookup{ids: map[string]int{"app": 1000}}
	c := &cache{db: db, lookup: fake.lookup}
	get := func(name string, want int) {
		t.Helper()
		id, err := c.id(name)
		if err != nil || id != want {
			t.Fatalf("id(%q) = %d, %v; want %d", name, id, err, want)
		}
	}

	t.Run("a number is its own id", func(t *testing.T) {
		get("4242", 4242)
		if fake.calls != 0 {
			t.Errorf("%d lookups for a number, want 0", fake.calls)
		}
	})
	t.Run("what is no id of 31 bits is a name", func(t *testing.T) {
		fake.ids["2147483648"], fake.ids["1app"], fake.ids["-1"] = 5, 6, 7
		get("2147483647", 2147483647)
		get("2147483648", 5)
		get("1app", 6)
		get("-1", 7)
		if fake.calls != 3 {
			t.Errorf("%d lookups, want 3", fake.calls)
		}
		fake.calls = 0
	})
	t.Run("root is 0 without a lookup", func(t *testing.T) {
		fake.ids["root"] = 4242
		get("root", 0)
		if fake.calls != 0 {
			t.Errorf("%d lookups for root, want 0", fake.calls)
		}
	})
	t.Run("a name is looked up once", func(t *testing.T) {
		get("app", 1000)
		get("app", 1000)
		if fake.calls != 1 {
			t.Errorf("%d lookups, want 1", fake.calls)
		}
	})
	t.Run("an unknown name is not remembered", func(t *testing.T) {
		fake.calls = 0
		for range 2 {
			if _, err := c.id("late"); !errors.Is(err, ErrNoSuchUser) {
				t.Fatalf("got %v, want ErrNoSuchUser", err)
			}
		}
		fake.ids["late"] = 1001
		get("late", 1001)
		if fake.calls != 3 {
			t.Errorf("%d lookups, want 3", fake.calls)
		}
	})
	t.Run("a changed database forgets every name", func(t *testing.T) {
		fake.calls = 0
		fake.ids["app"] = 2000
		// As useradd and vipw do: a new file renamed over the old.
		next := db + ".new"
		if err := os.WriteFile(next, []byte("app:x:2000:\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(next, db); err != nil {
			t.Fatal(err)
		}
		get("app", 2000)
		if fake.calls != 1 {
			t.Errorf("%d lookups, want 1", fake.calls)
		}
	})
}
