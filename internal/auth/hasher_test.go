package auth

import (
	"context"
	"errors"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The constant dummy must carry the production parameters and verify its own password.
func TestProductionDummyMatchesParameters(t *testing.T) {
	fresh, err := Production.Hash("x")
	if err != nil {
		t.Fatal(err)
	}
	params := func(h string) string { return strings.Join(strings.Split(h, "$")[:4], "$") }
	if params(productionDummy) != params(fresh) {
		t.Fatalf("dummy hash parameters %q, production makes %q: regenerate it", params(productionDummy), params(fresh))
	}
	if err := CheckPassword(productionDummy, DummyPassword); err != nil {
		t.Fatalf("dummy hash does not verify its own password: %v", err)
	}
}

func TestHasherCheapParams(t *testing.T) {
	t.Parallel()
	h := NewHasher(Cheap, 2, time.Second)
	ctx := context.Background()
	hash, err := h.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("hash not made with the injected parameters: %q", hash)
	}
	if err := h.Check(ctx, hash, "correct horse"); err != nil {
		t.Fatal(err)
	}
	if err := h.Check(ctx, hash, "wrong"); !errors.Is(err, ErrMismatch) {
		t.Fatalf("wrong password: %v", err)
	}
	if err := h.Check(ctx, h.DummyHash(), DummyPassword); err != nil {
		t.Fatalf("dummy does not verify: %v", err)
	}
	if err := h.CheckDummy(ctx, DummyPassword); !errors.Is(err, ErrMismatch) {
		t.Fatalf("CheckDummy must always fail, got %v", err)
	}
}

// A tampered stored hash asking for gigabytes is refused before any memory is taken.
func TestCheckRefusesHugeParameters(t *testing.T) {
	t.Parallel()
	bad := "$argon2id$v=19$m=4194304,t=3,p=2$q+3U2XkyBFX3Oe7MdMBDCQ$NoBUF1Jlg7Ap5cm9Xe9jfaY+hiD0/w7suAz4HaRGSiQ"
	if err := CheckPassword(bad, "x"); err == nil || errors.Is(err, ErrMismatch) {
		t.Fatalf("got %v, want a parameter error", err)
	}
}

// No more than the configured number of computations run at once; callers beyond that wait,
// and give up with ErrBusy when the wait runs out.
func TestHasherBoundsConcurrency(t *testing.T) {
	t.Parallel()
	h := NewHasher(Params{Time: 2, MemoryKiB: 8 * 1024, Threads: 1, KeyLen: 32}, 2, time.Minute)
	hash, _ := h.params.Hash("pw")
	var running, peak atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.acquire(context.Background()); err != nil {
				t.Error(err)
				return
			}
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			checkPassword(hash, "pw")
			running.Add(-1)
			h.release()
		}()
	}
	wg.Wait()
	if p := peak.Load(); p != 2 {
		t.Fatalf("peak concurrent computations %d, want 2", p)
	}

	busy := NewHasher(Cheap, 1, 10*time.Millisecond)
	busy.slots <- struct{}{} // the only slot is taken
	if err := busy.Check(context.Background(), hash, "pw"); !errors.Is(err, ErrBusy) {
		t.Fatalf("full hasher: got %v, want ErrBusy", err)
	}
}

// TestHasherKeepsBlockForNextCheck: a check's block is collected before its slot is handed on,
// so it is free in the heap for the next check (which otherwise faults in fresh memory page by
// page), and it is not handed back to the OS at once.
func TestHasherKeepsBlockForNextCheck(t *testing.T) {
	const block = 32 << 20
	h := NewHasher(Params{Time: 1, MemoryKiB: block >> 10, Threads: 1, KeyLen: 32}, 1, time.Second)
	if _, err := h.Hash(context.Background(), "a burst of one"); err != nil {
		t.Fatal(err)
	}
	m := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(m)
	if objects := m[0].Value.Uint64(); objects >= block {
		t.Errorf("heap objects %d MiB after the check: the %d MiB block was not collected", objects>>20, block>>20)
	}
	if free := m[1].Value.Uint64(); free < block {
		t.Errorf("%d MiB free in the heap after the check: the %d MiB block was not kept for the next check", free>>20, block>>20)
	}
}
