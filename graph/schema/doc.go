// Package schema generates JSON Schemas (draft-07, which editors such as
// yaml-language-server understand) for CCM manifests and for ensure
// requests, from the property declarations of the registered resource
// types (resources.Property): the same declarations the decoder matches
// keys against, so the schema accepts what ccm accepts and names what it
// rejects.
//
// Guarantees:
//   - Unknown keys are rejected at every level ccm rejects them: the top
//     level, ccm:, hierarchy:, and each resource's properties.
//   - A property that is not a plain string may also be written as a
//     template ({{ }} or ${ }), which ccm resolves before checking its type.
//   - Deferred properties, resolved only when the resource runs, must be
//     strings, as ccm requires.
package schema
