package source

// Compile runs compile on the bundles s has in force. When they do not
// compile and an earlier revision of a bundle did, it puts those in force
// and compiles again: fellBack is then why the newest did not compile.
// What compiled is marked good (MarkGood) for a later start to fall back
// to. When neither compiles, err is the newest bundles' error.
func Compile[T any](s *Set, compile func() (T, error)) (v T, fellBack, err error) {
	v, err = compile()
	if err != nil {
		if !s.FallBack() {
			return v, nil, err
		}
		var again error
		if v, again = compile(); again != nil {
			return v, nil, err
		}
		fellBack = err
	}
	s.MarkGood()
	return v, fellBack, nil
}
