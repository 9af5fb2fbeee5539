package arbiter

// Consistent reports how s's mode and the facts kept beside it disagree,
// or nil (Session.check), for the tests of package arbiter_test to check
// after every step.
func Consistent(s *Session) error { return s.check() }
