package auth

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"
)

// ErrBusy means every hashing slot stayed taken for the whole wait: the caller should answer
// 503 with Retry-After rather than queue without bound.
var ErrBusy = errors.New("too many password checks at once")

// productionDummy is a hash of "not a real password" with the Production parameters, so a
// production start does not spend 64 MiB and a third of a second making one.
const productionDummy = "$argon2id$v=19$m=65536,t=3,p=2$q+3U2XkyBFX3Oe7MdMBDCQ$NoBUF1Jlg7Ap5cm9Xe9jfaY+hiD0/w7suAz4HaRGSiQ"

// DummyPassword is the password the dummy hash was made from (tests use it to build users).
const DummyPassword = "not a real password"

// Hasher runs argon2id with fixed parameters and at most a few computations at once: each one
// holds MemoryKiB of memory, so an unbounded number of concurrent logins is an unbounded
// amount of memory.
type Hasher struct {
	params Params
	slots  chan struct{}
	wait   time.Duration // how long a check may wait for a slot before ErrBusy

	dummyOnce sync.Once
	dummy     string
}

// collectAbove is the per-hash memory from which the Hasher collects after each computation
// (below it, a block is too small to matter).
const collectAbove = 16 * 1024

// NewHasher returns a Hasher for params running at most slots computations at once; a caller
// waits up to wait for a free slot.
func NewHasher(params Params, slots int, wait time.Duration) *Hasher {
	return &Hasher{params: params, slots: make(chan struct{}, max(slots, 1)), wait: wait}
}

// Params returns the parameters new hashes are made with.
func (h *Hasher) Params() Params { return h.params }

func (h *Hasher) acquire(ctx context.Context) error {
	t := time.NewTimer(h.wait)
	defer t.Stop()
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-t.C:
		return ErrBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release hands the slot on, collecting first when checks are large: the next check then takes
// this one's block from the heap instead of growing it by another MemoryKiB. A block the heap
// holds is in memory; fresh memory is faulted in page by page, which on a small VM costs more
// than the hash (64 MiB on our 2-core VM: ~1 s against 0.1 s). The collection, of a small heap,
// takes milliseconds. The runtime's scavenger hands the block back to the OS within seconds if
// no check follows.
func (h *Hasher) release() {
	if h.params.MemoryKiB >= collectAbove {
		runtime.GC()
	}
	<-h.slots
}

// Hash makes a new hash of password.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	return h.params.Hash(password)
}

// Check compares password with a stored hash: nil, ErrMismatch, ErrBusy or a format error.
func (h *Hasher) Check(ctx context.Context, hash, password string) error {
	if err := h.acquire(ctx); err != nil {
		return err
	}
	defer h.release()
	return checkPassword(hash, password)
}

// CheckDummy costs what Check against a real user's hash costs and always fails, so timing does
// not reveal which user names exist. It returns ErrMismatch, or ErrBusy / a context error.
func (h *Hasher) CheckDummy(ctx context.Context, password string) error {
	if err := h.Check(ctx, h.DummyHash(), password); err != nil && !errors.Is(err, ErrMismatch) {
		return err
	}
	return ErrMismatch
}

// DummyHash is a hash of DummyPassword with this Hasher's parameters.
func (h *Hasher) DummyHash() string {
	h.dummyOnce.Do(func() {
		if h.params == Production {
			h.dummy = productionDummy
			return
		}
		h.dummy, _ = h.params.Hash(DummyPassword)
	})
	return h.dummy
}
