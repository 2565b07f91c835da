// Package resources holds the contract between the engine and every resource
// type: the Resource interface, the Type registry, the Spec a type is built
// from, strict property decoding with file:line:col errors, the template
// seam, and Deferred properties resolved through it just before use.
//
// Guarantees:
//   - Check never changes the host; Apply changes it only when not in noop.
//   - A type registers itself once, from its own package, with Register;
//     nothing outside its folder switches on type names.
//   - Decoding is strict: unknown keys, duplicate keys and wrong types are
//     errors carrying the position of the offending node.
//
// A type's New starts with DecodeProps and adds its own problems to the
// ErrorList it returns, so that every problem is reported at once; the
// common checks are worded once, by Spec.CheckOneOf, CheckOnlyWith and
// CheckProvider, and a list under a common key is read by ParseList.
package resources
