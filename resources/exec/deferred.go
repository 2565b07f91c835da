package exec

import "github.com/reactive-ccm/ccm/resources"

// deferProp keeps a deferred property, checked at every resolution and
// now when it holds no template, so a bad literal refuses the manifest.
func deferProp(spec *resources.Spec, label, raw string, pos resources.Pos, check func(string) error, errs *resources.ErrorList) resources.Deferred {
	d := spec.DeferAt(label, raw, pos).WithCheck(check)
	if value, ok := d.Literal(); ok {
		if err := check(value); err != nil {
			errs.Addf(pos, "%s: %v", label, err)
		}
	}
	return d
}

// itemPos returns the position of item i of list property key.
func itemPos(spec *resources.Spec, key string, i int) resources.Pos {
	c := spec.Props.Content
	for k := 0; k+1 < len(c); k += 2 {
		if c[k].Value == key && i < len(c[k+1].Content) {
			return spec.NodePos(c[k+1].Content[i])
		}
	}
	return spec.KeyPos(key)
}
