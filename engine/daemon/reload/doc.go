// Package reload is a watching daemon's reload loop: it watches what the
// running graph was compiled from (the manifests, the files and trees
// that feed their data and templates, the revisions of remote sources)
// and, when that changed, compiles the manifests again and swaps the new
// graph into the engine.
//
// Guarantees:
//   - Content, not events: an event only asks for a comparison of the
//     inputs' hash with the one last loaded, so polls and writes that
//     change nothing cause no reload. A forced reload (SIGHUP) and a new
//     remote revision reload whatever the hash says.
//   - Debounce with a maximum wait: a request waits until the inputs have
//     been still for Options.Quiet (editors write in several steps), and
//     never longer than Options.MaxWait after the first request of a
//     burst, so a file rewritten without pause still reloads. A remote
//     revision arrives whole and reloads at once.
//   - A graph that does not compile leaves the running one in force; the
//     inputs it failed on are remembered, so only a further change tries
//     again.
//   - A remote revision that arrives while a load reads the sources is
//     not counted as loaded: the loop loads again.
//   - One reload at a time, from Run's goroutine; Request, RequestNow and
//     Force may be called from anywhere and never block.
package reload
