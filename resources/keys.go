package resources

import "go.yaml.in/yaml/v3"

// smallMapping is the most keys a mapping may have for Keys to find
// repeats by scanning: a resource has a handful of properties, and a map
// per resource cost more than comparing them (an allocation and a page of
// fresh memory a few resources at a time).
const smallMapping = 16

// Keys finds the repeated keys of one YAML mapping: by scanning the keys
// before for a small mapping, by an index built once for a large one, so
// no mapping costs quadratic time.
type Keys struct {
	content []*yaml.Node
	// first maps each key to its first node; nil for a small mapping.
	first map[string]*yaml.Node
}

// KeysOf returns the Keys of mapping m.
func KeysOf(m *yaml.Node) Keys {
	k := Keys{content: m.Content}
	if len(m.Content)/2 <= smallMapping {
		return k
	}
	k.first = make(map[string]*yaml.Node, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if _, ok := k.first[m.Content[i].Value]; !ok {
			k.first[m.Content[i].Value] = m.Content[i]
		}
	}
	return k
}

// Earlier returns the first key equal to the key at Content[i], when it
// comes before it: the key at i repeats it.
func (k Keys) Earlier(i int) (*yaml.Node, bool) {
	key := k.content[i]
	if k.first != nil {
		first := k.first[key.Value]
		return first, first != key
	}
	for j := 0; j < i; j += 2 {
		if k.content[j].Value == key.Value {
			return k.content[j], true
		}
	}
	return nil, false
}
