package ensure

import (
	"reflect"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources"
)

// eventFields describes each field of a transaction event in JSON, by its
// name: upstream's TransactionEvent fields, then ccm's own.
var eventFields = map[string]string{
	"protocol":           "Protocol identifier for the transaction event",
	"event_id":           "Unique identifier for this event (KSUID format)",
	"timestamp":          "When the resource's run started",
	"type":               "The resource type that was managed",
	"provider":           "The provider that was used to manage the resource",
	"name":               "The resource name",
	"alias":              "The resource alias if one was specified",
	"requested_ensure":   "The ensure value that was requested in the input properties",
	"final_ensure":       "The ensure value after the operation completed; empty when it failed",
	"duration":           "Time taken to apply the resource in nanoseconds",
	"properties":         "The resource properties as written, secrets redacted",
	"status":             "The resource's state after the run (null when it failed or did not run)",
	"noop_message":       "What would have been done in noop mode",
	"health_check":       "Results of the health checks run after applying the resource",
	"health_check_only":  "True if only health checks were run without applying changes",
	"error":              "Error messages if the resource failed",
	"changed":            "True if the resource was changed (or would be changed in noop mode)",
	"refreshed":          "True if the resource was refreshed due to a subscribe notification",
	"failed":             "True if the resource application failed",
	"skipped":            "True if the resource was skipped (control, or a failed requirement)",
	"noop":               "True if the resource was applied in noop (dry-run) mode",
	"unmet_requirements": "Required resources that failed, so this one was skipped",
	"trigger":            "ccm's own: what caused the run (startup, drift, refresh, poll, recheck, reload, ...)",
	"contested":          "ccm's own: set on the event reporting a resource repaired too often",
	"writer":             "ccm's own: the program changing a contested resource",
	"changes":            "ccm's own: what the check found different, observed and desired",
	"paused":             "ccm's own: the resource is paused; it was checked and nothing changed",
	"standing":           "ccm's own: where the resource stands after the run",
	"previous_standing":  "ccm's own: where it stood before, when the run changed that",
	"rolled_back":        "ccm's own: the resource was put back in its last good state",
	// Within health_check, status and changes items.
	"Output":   "Output from the health check",
	"tries":    "Number of attempts made before the health check succeeded or failed",
	"property": "The property found different",
	"observed": "Its value on the host",
	"desired":  "Its desired value",
	"note":     "What else is worth knowing about the difference",
	"diff":     "A unified diff of the content, with --diff",
	"ensure":   "The resource's ensure value after the run",
	"stable":   "True when the resource is in its desired state after the run",
}

// eventRequired are the fields upstream's schema requires of an event.
var eventRequired = []any{"protocol", "event_id", "timestamp", "type", "provider", "name", "requested_ensure", "final_ensure", "duration", "changed", "failed", "noop"}

// ResponseSchema is the JSON Schema (draft-07) of the answer of
// `ccm ensure api pipe`, in the shape of upstream's
// resource_ensure_response schema: the protocol, and either the state (a
// transaction event) or an error. The event is described from the fields
// ccm encodes (engine.Event), so the schema holds what ccm writes.
func ResponseSchema() map[string]any {
	event := objectOf(reflect.TypeFor[engine.Event]())
	event["description"] = "A transaction event: the result of applying the resource"
	event["required"] = eventRequired
	return map[string]any{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"title":       "ccm ensure response",
		"description": "The answer of `ccm ensure api pipe`: the resource's transaction event, or why there is none",
		"type":        "object",
		"properties": map[string]any{
			"protocol": map[string]any{"const": ResponseProtocol, "description": "Protocol identifier for the response"},
			"error":    map[string]any{"type": "string", "description": "Why the request could not be applied; mutually exclusive with state"},
			"state":    map[string]any{"$ref": "#/definitions/transactionEvent"},
		},
		"required": []any{"protocol"},
		"oneOf": []any{
			map[string]any{"required": []any{"state"}, "properties": map[string]any{"error": false}},
			map[string]any{"required": []any{"error"}, "properties": map[string]any{"state": false}},
		},
		"additionalProperties": false,
		"definitions":          map[string]any{"transactionEvent": event},
	}
}

// objectOf describes a struct as its JSON encoding is: one property per
// encoded field, no others.
func objectOf(t reflect.Type) map[string]any {
	props := map[string]any{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "" {
			continue
		}
		s := valueOf(f.Type)
		s["description"] = eventFields[name]
		props[name] = s
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}

// valueOf describes a value of type t as JSON holds it.
func valueOf(t reflect.Type) map[string]any {
	switch t {
	case reflect.TypeFor[time.Time]():
		return map[string]any{"type": "string", "format": "date-time"}
	case reflect.TypeFor[time.Duration]():
		return map[string]any{"type": "integer"}
	case reflect.TypeFor[engine.Properties]():
		return map[string]any{"type": []any{"object", "null"}}
	case reflect.TypeFor[resources.HealthStatus]():
		// As upstream writes it (its schema says a word): 0 OK, 1
		// WARNING, 2 CRITICAL, 3 UNKNOWN.
		return map[string]any{"type": "integer", "enum": []any{0, 1, 2, 3}}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Slice:
		return map[string]any{"type": []any{"array", "null"}, "items": valueOf(t.Elem())}
	case reflect.Pointer:
		s := objectOf(t.Elem())
		s["type"] = []any{"object", "null"}
		return s
	case reflect.Struct:
		return objectOf(t)
	}
	panic("response schema: no JSON description of " + t.String())
}
