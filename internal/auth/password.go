// Package auth holds the credential primitives: password hashing and random tokens.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are the argon2id cost parameters a Hasher makes new hashes with. Checking uses the
// parameters written in the stored hash, so changing them never breaks existing passwords.
type Params struct {
	Time      uint32 // passes
	MemoryKiB uint32
	Threads   uint8
	KeyLen    uint32
}

// Production parameters: RFC 9106's second recommended option (64 MiB, 3 passes) with one lane
// per core of a small VM; about 60-230 ms per hash depending on the machine.
var Production = Params{Time: 3, MemoryKiB: 64 * 1024, Threads: 2, KeyLen: 32}

// Cheap parameters are for tests only: the same code path at a thousandth of the cost.
var Cheap = Params{Time: 1, MemoryKiB: 64, Threads: 1, KeyLen: 32}

// maxCheckMemoryKiB refuses to verify a stored hash that asks for more memory than any sane
// configuration (a tampered row must not take the server down).
const maxCheckMemoryKiB = 1 << 20

const saltLen = 16

// MinPasswordLen is the shortest password accepted anywhere.
const MinPasswordLen = 8

// ErrMismatch reports a password that does not match its hash.
var ErrMismatch = errors.New("password does not match")

// HashPassword returns an argon2id hash of password with the production parameters.
func HashPassword(password string) (string, error) { return Production.Hash(password) }

// CheckPassword compares a password with a stored hash, in constant time.
func CheckPassword(hash, password string) error { return checkPassword(hash, password) }

// Hash returns an argon2id hash in the PHC string form.
func (p Params) Hash(password string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.MemoryKiB, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

func checkPassword(hash, password string) error {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return errors.New("unsupported password hash")
	}
	var version int
	var mem, iters uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return errors.New("unsupported argon2 version")
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil {
		return fmt.Errorf("bad argon2 parameters: %w", err)
	}
	if mem > maxCheckMemoryKiB || iters > 100 || iters == 0 || threads == 0 {
		return fmt.Errorf("argon2 parameters out of range: m=%d t=%d p=%d", mem, iters, threads)
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return fmt.Errorf("bad salt: %w", err)
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 64 {
		return errors.New("bad key")
	}
	got := argon2.IDKey([]byte(password), salt, iters, mem, threads, uint32(len(want)))
	if subtle.ConstantTimeCompare(got, want) != 1 {
		return ErrMismatch
	}
	return nil
}

// NewToken returns a random URL-safe token (256 bits) and the SHA-256 digest to store.
func NewToken() (token string, digest []byte) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, Digest(token)
}

// Digest is how a token is stored: only its hash, never the token itself.
func Digest(token string) []byte {
	d := sha256.Sum256([]byte(token))
	return d[:]
}

// ValidatePassword says what is wrong with a new password, or nil.
func ValidatePassword(p string) error {
	if len(p) < MinPasswordLen {
		return fmt.Errorf("must be at least %d characters", MinPasswordLen)
	}
	if len(p) > 256 {
		return errors.New("must be at most 256 characters")
	}
	return nil
}
