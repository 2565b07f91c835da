package textfile

// Locked is how many paths have a lock held or waited for.
func Locked() int {
	locksMu.Lock()
	defer locksMu.Unlock()
	return len(locks)
}
