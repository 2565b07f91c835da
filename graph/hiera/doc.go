// Package hiera resolves a manifest's hiera-style data: the `data`,
// `hierarchy` and `overrides` sections, plus extra layers such as
// `--hiera FILE`, into one plain map for templates.
//
// Resolution, as upstream CCM's:
//   - data is the base; every string in it is a template resolved against
//     the facts (a string that is one expression keeps its type);
//   - hierarchy.order lists override names, default ["default"]; each is a
//     template, and an entry whose expressions all resolve empty (a lookup
//     of a missing fact) is skipped; an entry without expressions always
//     applies;
//   - hierarchy.merge `first` (the default) merges the first entry found in
//     overrides over data shallowly (its top-level keys replace data's) and
//     stops; `deep` merges every entry found, in order: maps merge
//     recursively, lists concatenate, other values are replaced, so a later
//     entry wins over an earlier one;
//   - extra layers are resolved the same way and deep-merged over the
//     manifest's data, in order.
//
// Templates in data see only the facts and the environment, with lookup()
// of a missing key resolving to "" (see template.NewData). Every problem is
// reported with the file:line:col of the node at fault.
package hiera
