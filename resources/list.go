package resources

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// ParseList reads n, the list a common property key holds
// ("health_checks"), item by item with one; what names its items in the
// error for a value that is not a list ("checks"). Every item's problem
// is reported at the item, with its number, all together. A missing or
// null n is no items.
func ParseList[T any](spec *Spec, n *yaml.Node, key, what string, one func(*Spec, *yaml.Node) (T, error)) ([]T, error) {
	if n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return nil, nil
	}
	var errs ErrorList
	if n.Kind != yaml.SequenceNode {
		errs.Addf(spec.NodePos(n), "%s: %s: expected a list of %s", spec.ID(), key, what)
		return nil, errs.Err()
	}
	out := make([]T, 0, len(n.Content))
	for i, item := range n.Content {
		v, err := one(spec, item)
		if err != nil {
			errs.Add(spec.NodePos(item), fmt.Errorf("%s: %s: item %d: %w", spec.ID(), key, i+1, err))
			continue
		}
		out = append(out, v)
	}
	return out, errs.Err()
}
