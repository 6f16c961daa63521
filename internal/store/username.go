package store

import "unicode"

// ValidateUsername says what is wrong with a user name ("" when it is fine). The rule lives
// with the accounts it guards, so the web forms and `rehearse user add` agree.
func ValidateUsername(name string) string {
	if name == "" {
		return "Choose a username."
	}
	if len(name) > 64 {
		return "The username is longer than 64 characters."
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_') {
			return "Use letters, digits, dots, hyphens and underscores only."
		}
	}
	return ""
}
