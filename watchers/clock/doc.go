// Package clock is the time source of the engine and the hubs: the real
// clock in ccm, a Fake in tests, so a test moves time forward and waits
// for what follows instead of sleeping and hoping.
//
// Guarantees:
//   - A timer armed for a duration d <= 0 fires at once, on the real clock
//     and the fake alike, so a loop that re-arms from Now() never misses a
//     deadline that passed while it was busy.
//   - Fake timers fire only in Advance or Set, in deadline order; a fired
//     timer's channel holds one value and never blocks the Fake.
package clock
