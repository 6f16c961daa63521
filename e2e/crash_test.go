package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The crash tests drive ratings from many users against the real binary while it is killed
// (SIGKILL) or stopped (SIGTERM), then read the SQLite file directly. A rating counts as
// acknowledged when /study/answer answered 200 {"ok":true}; each must be in review_log exactly
// once. A rater whose request failed in transit retries it with the same reps: a 409 then proves
// the lost attempt was applied, a 200 that it was not, so no answer can be applied twice.

const (
	crashUsers    = 8
	crashPassword = "correct-horse-battery"
)

// ack is one rating the server acknowledged: the user's answer to card given at reps.
type ack struct {
	user, card string
	reps       int
}

// rater is one user answering cards in a loop. It alone answers as this user, so its reps map
// is the truth unless a request is in doubt.
type rater struct {
	name    string
	client  *http.Client
	rng     *rand.Rand
	reps    map[string]int  // answers known to be stored, per card
	pending map[string]bool // a final request in doubt when the rater stopped
	acks    []ack
	retried int      // requests repeated after a transport error
	lost    int      // retries answered 409: applied, though never acknowledged
	errs    []string // anything that is neither a stored answer nor a transport error
}

// crashRun is the shared state of one run: where the app is now, and when to stop.
type crashRun struct {
	base  atomic.Pointer[string]
	stop  chan struct{}
	cards []string
	acked atomic.Int64
}

func newCrashRun(t *testing.T, url string) *crashRun {
	r := &crashRun{stop: make(chan struct{}), cards: BundledCardIDs(t)}
	r.setBase(url)
	return r
}

func (r *crashRun) setBase(u string) { r.base.Store(&u) }

func (r *crashRun) stopped() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

// answer posts one rating and reports the status, or an error when no response arrived.
func (r *rater) answer(base, card string, rating, reps int) (int, error) {
	form := url.Values{"card": {card}, "rating": {strconv.Itoa(rating)}, "reps": {strconv.Itoa(reps)}}
	req, err := http.NewRequest(http.MethodPost, base+"/study/answer", strings.NewReader(form.Encode()))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var body struct {
		OK    bool  `json:"ok"`
		LogID int64 `json:"log_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return 0, fmt.Errorf("reading the answer's response: %w", err) // cut off mid-body: in doubt
	}
	if resp.StatusCode == http.StatusOK && (!body.OK || body.LogID <= 0) {
		return resp.StatusCode, fmt.Errorf("200 without a log id: %+v", body)
	}
	return resp.StatusCode, nil
}

// run answers random cards until the run stops.
func (r *rater) run(cr *crashRun) {
	for !cr.stopped() {
		card := cr.cards[r.rng.IntN(len(cr.cards))]
		rating := 1 + r.rng.IntN(4)
		inDoubt := false
		for {
			if cr.stopped() {
				if inDoubt {
					r.pending[card] = true
				}
				return
			}
			status, err := r.answer(*cr.base.Load(), card, rating, r.reps[card])
			if err != nil && status == 0 {
				// No answer: the server is down or died mid-request. Retry the same answer.
				inDoubt = true
				r.retried++
				time.Sleep(20 * time.Millisecond)
				continue
			}
			switch {
			case err != nil:
				r.errs = append(r.errs, err.Error())
			case status == http.StatusOK:
				r.acks = append(r.acks, ack{r.name, card, r.reps[card]})
				r.reps[card]++
				cr.acked.Add(1)
			case status == http.StatusConflict && inDoubt:
				r.lost++ // the earlier attempt was stored before the connection died
				r.reps[card]++
			default:
				r.errs = append(r.errs, fmt.Sprintf("%s on card %s at reps %d: status %d (in doubt: %v)",
					r.name, card, r.reps[card], status, inDoubt))
				if len(r.errs) > 20 {
					return
				}
			}
			break
		}
	}
}

// startRaters runs every rater in its own goroutine; the returned func stops and waits for them.
func startRaters(cr *crashRun, rs []*rater) (stop func()) {
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Go(func() { r.run(cr) })
	}
	return func() { close(cr.stop); wg.Wait() }
}

// verifyStore checks the stopped app's database against what the raters know.
func verifyStore(t *testing.T, dataDir string, rs []*rater) {
	t.Helper()
	db := OpenDB(t, dataDir)
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q %v", check, err)
	}
	ids := map[string]int64{}
	rows, err := db.Query(`SELECT id, username FROM users`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		ids[name] = id
	}
	rows.Close()

	// Nothing applied twice: one log row per (user, card, answer count before).
	var dups int
	if err := db.QueryRow(`SELECT count(*) FROM (SELECT 1 FROM review_log
		GROUP BY user_id, card_id, reps_before HAVING count(*) > 1)`).Scan(&dups); err != nil {
		t.Fatal(err)
	}
	if dups > 0 {
		t.Errorf("%d (user, card, reps_before) triples logged more than once", dups)
	}
	missing := 0
	for _, r := range rs {
		for _, e := range r.errs {
			t.Errorf("%s", e)
		}
		for _, a := range r.acks {
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM review_log WHERE user_id = ? AND card_id = ?
				AND reps_before = ? AND mode = 'study'`, ids[a.user], a.card, a.reps).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				missing++
				if missing <= 10 {
					t.Errorf("acknowledged %+v is logged %d times", a, n)
				}
			}
		}
		// Every card's stored state counts exactly the answers the rater knows of (one more if
		// its last request was in doubt), and the log has one row per answer, without gaps.
		for card, want := range r.reps {
			var reps, logged, maxBefore int
			if err := db.QueryRow(`SELECT reps FROM card_states WHERE user_id = ? AND card_id = ?`,
				ids[r.name], card).Scan(&reps); err != nil {
				t.Fatalf("%s %s: %v", r.name, card, err)
			}
			if err := db.QueryRow(`SELECT count(*), coalesce(max(reps_before), -1) FROM review_log
				WHERE user_id = ? AND card_id = ?`, ids[r.name], card).Scan(&logged, &maxBefore); err != nil {
				t.Fatal(err)
			}
			if reps != want && !(r.pending[card] && reps == want+1) {
				t.Errorf("%s %s: stored reps %d, rater knows of %d (pending %v)", r.name, card, reps, want, r.pending[card])
			}
			if logged != reps || maxBefore != reps-1 {
				t.Errorf("%s %s: %d log rows (last reps_before %d) for reps %d", r.name, card, logged, maxBefore, reps)
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d acknowledged ratings missing or duplicated", missing)
	}
}

func totals(rs []*rater) (acks, retried, lost int) {
	for _, r := range rs {
		acks += len(r.acks)
		retried += r.retried
		lost += r.lost
	}
	return
}

// TestCrashSafetySIGKILL kills the server at random moments under load: 12 times in a full run
// (REHEARSE_E2E_FULL=1, as ./scripts/test sets), 4 times in a plain one.
func TestCrashSafetySIGKILL(t *testing.T) {
	parallelTest(t)
	if testing.Short() {
		t.Skip("crash test in -short mode")
	}
	kills := 4
	if fullRun() {
		kills = 12
	}
	dir := t.TempDir()
	rs := newRatersOn(t, dir, crashUsers, false)
	app := StartApp(t, dir)
	cr := newCrashRun(t, app.URL)
	loginAll(t, rs, app.URL)
	stop := startRaters(cr, rs)
	deadline := time.Now().Add(90 * time.Second)
	seed := uint64(time.Now().UnixNano())
	t.Logf("kill timing seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range kills {
		if time.Now().After(deadline) {
			t.Errorf("only %d kills within the time box", i)
			break
		}
		before := cr.acked.Load()
		cr.underLoad(t, before, 25, 250*time.Millisecond, rng)
		app.Kill(t)
		t.Logf("kill %d: %d ratings acknowledged since the last start", i+1, cr.acked.Load()-before)
		app = StartApp(t, dir)
		cr.setBase(app.URL)
	}
	cr.underLoad(t, cr.acked.Load(), 25, 100*time.Millisecond, rng) // the last start serves too
	stop()
	if code := app.Terminate(t); code != 0 {
		t.Errorf("final stop: exit code %d", code)
	}
	acks, retried, lost := totals(rs)
	t.Logf("%d kills, %d acknowledged ratings, %d requests retried, %d applied but never acknowledged", kills, acks, retried, lost)
	if acks == 0 {
		t.Fatal("no rating was acknowledged")
	}
	verifyStore(t, dir, rs)
}

// TestCrashSafetySIGTERM stops the server gracefully under load: it drains and exits 0, and
// every rating acknowledged before or during the drain is stored.
func TestCrashSafetySIGTERM(t *testing.T) {
	parallelTest(t)
	if testing.Short() {
		t.Skip("crash test in -short mode")
	}
	dir := t.TempDir()
	rs := newRatersOn(t, dir, crashUsers, false)
	app := StartApp(t, dir)
	cr := newCrashRun(t, app.URL)
	loginAll(t, rs, app.URL)
	stop := startRaters(cr, rs)
	seed := uint64(time.Now().UnixNano())
	t.Logf("stop timing seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for range 3 { // three graceful stops under load, each followed by a restart
		cr.underLoad(t, cr.acked.Load(), 50, 250*time.Millisecond, rng)
		before := cr.acked.Load()
		if code := app.Terminate(t); code != 0 {
			t.Errorf("SIGTERM under load: exit code %d, want 0", code)
		}
		t.Logf("graceful stop: %d ratings acknowledged during the drain", cr.acked.Load()-before)
		app = StartApp(t, dir)
		cr.setBase(app.URL)
	}
	cr.underLoad(t, cr.acked.Load(), 25, 100*time.Millisecond, rng) // the last start serves too
	stop()
	if code := app.Terminate(t); code != 0 {
		t.Errorf("final stop: exit code %d", code)
	}
	acks, retried, lost := totals(rs)
	t.Logf("%d acknowledged ratings, %d requests retried, %d applied but never acknowledged", acks, retried, lost)
	if acks == 0 {
		t.Fatal("no rating was acknowledged")
	}
	verifyStore(t, dir, rs)
}

// newRatersOn creates n raters' accounts in dir before the app first starts (the first is the
// admin, so no /setup). With production the admin is made by the CLI, with production argon2
// parameters (the attack test's guesses are checked against its hash); the others, and the
// admin without production, by AddUser, cheaply.
func newRatersOn(t *testing.T, dir string, n int, production bool) []*rater {
	t.Helper()
	var rs []*rater
	for i := range n {
		name := fmt.Sprintf("rater%d", i)
		if !production || i > 0 {
			AddUser(t, dir, name, crashPassword, i == 0)
		} else if err := addUser(dir, name, crashPassword, i == 0); err != nil {
			t.Fatal(err)
		}
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		rs = append(rs, &rater{name: name, client: c, rng: rand.New(rand.NewPCG(uint64(i), 9)),
			reps: map[string]int{}, pending: map[string]bool{}})
	}
	return rs
}

// loginAll signs every rater in; sessions live in the database, so they survive restarts.
func loginAll(t *testing.T, rs []*rater, base string) {
	t.Helper()
	for _, r := range rs {
		// Checking a production password hash can queue behind other tests' on a busy machine:
		// the login gets a minute, the ratings keep their client's 10 s.
		c := *r.client
		c.Timeout = time.Minute
		resp, err := c.PostForm(base+"/login", url.Values{"username": {r.name}, "password": {crashPassword}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("login as %s: %d", r.name, resp.StatusCode)
		}
	}
}

// underLoad returns once n more ratings were acknowledged than from (ratings flow again
// after a start), and then a random part of jitter later: some moment in the thick of the load.
func (r *crashRun) underLoad(t *testing.T, from, n int64, jitter time.Duration, rng *rand.Rand) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); r.acked.Load() < from+n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d ratings acknowledged within 30 s", r.acked.Load()-from, n)
		}
	}
	time.Sleep(time.Duration(rng.Int64N(int64(jitter))))
}
