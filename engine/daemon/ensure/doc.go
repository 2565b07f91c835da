// Package ensure carries out `ccm ensure`: one resource, described on
// the command line or by a program, converged through the engine as a
// manifest's would be, and the `ccm ensure api pipe` protocol around it
// (upstream CCM's ensure request and response).
//
// Guarantees:
//   - In a session (package session), a require or subscribe naming a
//     resource outside the request resolves to what the session recorded
//     of it, and the resource's event is recorded there; outside one such
//     a reference is an error saying how to start a session.
//   - A request is bounded as a manifest is: at most document.MaxSize
//     bytes, and the same budget for what its YAML aliases expand to.
//   - The response's JSON Schema (ResponseSchema) is generated from the
//     fields the event encodes, so it holds what ccm writes.
package ensure
