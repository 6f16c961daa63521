// Package mockview builds the views of the mock interview, its history and the speaking part
// of the progress page from store, deck and interview values. It is pure: no request, no
// response, no storage; the server loads the values and renders what this returns.
package mockview

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Form is the setup form as submitted (or prefilled from a "same questions" link).
type Form struct {
	Topics, Tags []string
	N            string
	Depth, Clock string
	FollowUps    bool
	Seed, Timer  string
	Record       bool
}

// ReadForm reads the setup form; a form not submitted yet (a link or a fresh page) records
// reviews unless it says not to.
func ReadForm(q url.Values, submitted bool) Form {
	f := Form{
		Topics: q["topic"], Tags: q["tag"], N: strings.TrimSpace(q.Get("n")),
		Depth: q.Get("depth"), Clock: q.Get("clock"),
		Seed: strings.TrimSpace(q.Get("seed")), Timer: strings.TrimSpace(q.Get("timer")),
		FollowUps: q.Get("followups") != "" && q.Get("followups") != "0",
		Record:    q.Get("record") != "" && q.Get("record") != "0",
	}
	if !submitted { // a link or a fresh form: defaults for what it does not say
		f.Record = q.Get("record") != "0"
	}
	if f.N == "" {
		f.N = "5"
	}
	if f.Depth == "" {
		f.Depth = "basics"
	}
	if f.Clock == "" {
		f.Clock = "soft"
	}
	return f
}

// Setup is the setup page for f over d's topics and tags; active is the user's session still
// running (0 for none).
func Setup(d *deck.Deck, f Form, active int64, fe *views.FormError) views.MockSetup {
	v := views.MockSetup{N: f.N, Depth: f.Depth, FollowUps: f.FollowUps, Clock: f.Clock, Seed: f.Seed,
		Timer: f.Timer, RecordReviews: f.Record, Err: fe, ActiveID: active}
	for _, t := range d.Topics() {
		v.Topics = append(v.Topics, views.MockOption{Value: t.Slug, Label: t.Name, Checked: slices.Contains(f.Topics, t.Slug)})
	}
	for _, t := range d.Tags() {
		v.Tags = append(v.Tags, views.MockOption{Value: t, Label: t, Checked: slices.Contains(f.Tags, t)})
	}
	return v
}

// Settings checks a submitted form against the deck d: the session's settings, or the form's
// errors (nil when there are none). A seed given as text is hashed (interview.ParseSeed).
func Settings(d *deck.Deck, f Form) (store.MockSettings, *views.FormError) {
	fe := &views.FormError{Fields: map[string]string{}}
	st := store.MockSettings{Depth: f.Depth, Clock: f.Clock, FollowUps: f.FollowUps, RecordReviews: f.Record}
	n, err := strconv.Atoi(f.N)
	if err != nil || n < 1 || n > interview.MaxQuestions {
		fe.Fields["n"] = "Choose between 1 and 20 questions."
	}
	st.N = n
	if f.Depth != "basics" && f.Depth != "solid" && f.Depth != "deeper" {
		fe.Form = "Choose a depth: basics, solid or deeper."
	}
	if f.Clock != "soft" && f.Clock != "strict" {
		fe.Form = "Choose a clock: soft or strict."
	}
	if f.Timer != "" {
		sec, err := strconv.Atoi(f.Timer)
		if err != nil || sec < 1 || sec > 600 {
			fe.Fields["timer"] = "The timer is a whole number of seconds from 1 to 600, or empty."
		}
		st.Target = time.Duration(sec) * time.Second
	}
	if len(f.Seed) > 40 {
		fe.Fields["seed"] = "The seed is at most 40 characters."
	}
	for _, slug := range f.Topics {
		if _, ok := d.TopicBySlug(slug); !ok {
			fe.Form = "Unknown topic " + strconv.Quote(slug) + "."
			continue
		}
		st.Topics = append(st.Topics, slug)
	}
	// Only the deck's own tags are stored, each once (a made-up tag would be kept forever).
	for _, tag := range f.Tags {
		if _, ok := slices.BinarySearch(d.Tags(), tag); !ok {
			if utf8.RuneCountInString(tag) > 40 { // quoted back shortened
				tag = string([]rune(tag)[:40]) + "…"
			}
			fe.Form = "Unknown tag " + strconv.Quote(tag) + "."
		} else if !slices.Contains(st.Tags, tag) {
			st.Tags = append(st.Tags, tag)
		}
	}
	if fe.Form != "" || len(fe.Fields) > 0 {
		return st, fe
	}
	if st.Seeded = f.Seed != ""; st.Seeded {
		st.Seed = interview.ParseSeed(f.Seed)
	}
	return st, nil
}
