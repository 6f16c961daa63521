package e2e

import (
	"slices"
	"sync"
	"testing"
)

// parallelTest is t.Parallel for this package's tests: it runs t beside the others, at most
// e2eParallel (or -parallel) at a time, and hands free places to the longest tests first.
// go test's own queue starts paused tests in no set order, and a run whose longest tests
// happen to start last lasts as long as the others plus them; started first, they run while
// the short ones fill the gaps. TestMain lifts go test's own limit so that this one applies.
func parallelTest(t *testing.T) {
	t.Helper()
	slots.mu.Lock()
	slots.registered++
	slots.mu.Unlock()
	t.Parallel()
	ready := make(chan struct{})
	slots.mu.Lock()
	slots.arrived++
	slots.waiting = append(slots.waiting, waiter{longFirst(t.Name()), ready})
	slots.grant()
	slots.mu.Unlock()
	<-ready
	t.Cleanup(func() { // registered first, so it runs after the test's other cleanups
		slots.mu.Lock()
		slots.running--
		slots.grant()
		slots.mu.Unlock()
	})
}

// longTests are the tests that take longest in a full run (seconds on their own, on two
// cores: attack 45, UI 37, voice heard 26, voice record 17), longest first. Keeping the list
// in order matters more than keeping it complete: a test missing from it starts after them.
var longTests = []string{
	"TestLoadUnderAttack",
	"TestUIEveryPageBothSizesBothThemes",
	"TestVoiceHeardInStudy",
	"TestVoiceRecordStudyAndMock",
}

// longFirst is a test's place in the start order: lower starts first.
func longFirst(name string) int {
	if i := slices.Index(longTests, name); i >= 0 {
		return i
	}
	return len(longTests)
}

var slots = &slotQueue{limit: e2eParallel}

type slotQueue struct {
	mu         sync.Mutex
	limit      int // tests at once
	running    int
	registered int // tests that called parallelTest
	arrived    int // of those, the ones go test has released
	waiting    []waiter
}

type waiter struct {
	rank  int
	ready chan struct{}
}

// grant starts waiting tests while places are free, lowest rank first (in arrival order
// among equals). It starts none until go test has released every registered test: it
// releases them all at once, and the first to arrive need not be the longest.
func (q *slotQueue) grant() {
	if q.arrived < q.registered {
		return
	}
	for q.running < q.limit && len(q.waiting) > 0 {
		i := 0
		for j, w := range q.waiting {
			if w.rank < q.waiting[i].rank {
				i = j
			}
		}
		close(q.waiting[i].ready)
		q.waiting = slices.Delete(q.waiting, i, i+1)
		q.running++
	}
}
