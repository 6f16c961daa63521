package sso

import (
	"fmt"
	"strings"
	"unicode"
)

// Accounts is the admin's choice of what a first sign-in from outside does.
type Accounts string

const (
	// Create makes a member account for someone new (after trying to link by verified email).
	Create Accounts = "create"
	// Link only links to an existing account whose email the provider verified.
	Link Accounts = "link"
)

// ParseAccounts reads the --oidc-accounts setting.
func ParseAccounts(s string) (Accounts, error) {
	switch Accounts(s) {
	case Create, Link:
		return Accounts(s), nil
	}
	return "", fmt.Errorf("want create or link, got %q", s)
}

// Action is what a sign-in from outside does with the accounts here.
type Action int

const (
	UseLinked   Action = iota // the identity signed in before: its account
	LinkByEmail               // an account holds the verified email: link it
	CreateNew                 // make an account
	Refuse                    // no account, and the admin does not want new ones
)

// Decide applies the rules: an identity seen before keeps its account; otherwise a verified
// email held by exactly one account links to it (an unverified one never does: anyone can
// type any address at some providers); otherwise a new account when the admin allows it, or
// when there is no account at all yet (the first sign-in sets the instance up, as /setup does).
func Decide(mode Accounts, linked, emailHolder, emailVerified, noUsers bool) Action {
	switch {
	case linked:
		return UseLinked
	case emailHolder && emailVerified:
		return LinkByEmail
	case mode == Create || noUsers:
		return CreateNew
	}
	return Refuse
}

// Role is the role a signed-in identity gets: with an admin group configured, admin exactly
// when the identity is in it; without one, the account keeps its role (current; new accounts
// are members unless they are the first).
func Role(id Identity, adminGroup, current string, first bool) string {
	switch {
	case first:
		return "admin"
	case adminGroup != "" && id.InGroup(adminGroup):
		return "admin"
	case adminGroup != "":
		return "member"
	case current != "":
		return current
	}
	return "member"
}

// Username proposes a name for a new account from what the provider sent: the preferred
// username, else the email's local part, else the name; characters a username may not hold
// become hyphens. The caller adds a number when the name is taken.
func Username(id Identity) string {
	for _, c := range []string{localPart(id.PreferredUsername), localPart(id.Email), id.Name} {
		if n := cleanName(c); n != "" {
			return n
		}
	}
	return "user"
}

func localPart(email string) string {
	l, _, _ := strings.Cut(email, "@")
	return l
}

func cleanName(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		if b.Len() >= 56 {
			break
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-.")
}
