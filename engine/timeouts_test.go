package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

func TestParseTimeoutsKeysByType(t *testing.T) {
	got, err := engine.ParseTimeouts(map[string]string{"fake": "90s"})
	if err != nil || len(got) != 1 || got["fake"] != 90*time.Second {
		t.Fatalf("ParseTimeouts(fake=90s) = %v, %v; want fake: 1m30s", got, err)
	}
}

func TestParseTimeoutsRefusesBadValues(t *testing.T) {
	for _, v := range []map[string]string{{"nosuchtype": "1s"}, {"fake": "soon"}, {"fake": "-1s"}, {"fake": "0s"}} {
		if got, err := engine.ParseTimeouts(v); err == nil || !strings.Contains(err.Error(), "--timeout") {
			t.Errorf("ParseTimeouts(%v) = %v, %v; want an error naming --timeout", v, got, err)
		}
	}
}
