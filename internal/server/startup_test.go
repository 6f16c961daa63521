package server

import (
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/auth"
)

// The dummy hash must cost what a real one costs, so it must carry auth's current parameters.
func TestDummyHashMatchesParameters(t *testing.T) {
	fresh, err := auth.HashPassword("x")
	if err != nil {
		t.Fatal(err)
	}
	params := func(h string) string { return strings.Join(strings.Split(h, "$")[:4], "$") }
	if params(dummyHash) != params(fresh) {
		t.Fatalf("dummy hash parameters %q, auth now makes %q: regenerate dummyHash", params(dummyHash), params(fresh))
	}
	if err := auth.CheckPassword(dummyHash, "not a real password"); err != nil {
		t.Fatalf("dummy hash does not verify its own password: %v", err)
	}
}
