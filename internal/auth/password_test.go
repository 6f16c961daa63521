package auth

import (
	"bytes"
	"strings"
	"testing"
)

func TestHashAndCheck(t *testing.T) {
	t.Parallel()
	h, err := Cheap.Hash("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("unexpected hash form %q", h)
	}
	if err := CheckPassword(h, "correct horse"); err != nil {
		t.Fatalf("right password rejected: %v", err)
	}
	if err := CheckPassword(h, "correct horsf"); err != ErrMismatch {
		t.Fatalf("wrong password: got %v, want ErrMismatch", err)
	}
	h2, _ := Cheap.Hash("correct horse")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: salt not random")
	}
	if err := CheckPassword("$bcrypt$x", "a"); err == nil {
		t.Fatal("foreign hash accepted")
	}
}

func TestTokens(t *testing.T) {
	a, da := NewToken()
	b, _ := NewToken()
	if a == b || len(a) < 40 {
		t.Fatalf("weak tokens %q %q", a, b)
	}
	if !bytes.Equal(da, Digest(a)) {
		t.Fatal("digest differs from NewToken's")
	}
}

func TestValidatePassword(t *testing.T) {
	if ValidatePassword("short") == nil {
		t.Fatal("short password accepted")
	}
	if ValidatePassword("long enough") != nil {
		t.Fatal("good password rejected")
	}
}
