package anki

import (
	"testing"
	"time"
)

// A previewed import is the user's alone, taken once with its token, and gone after StageTTL;
// its images are served only while it is fresh.
func TestStages(t *testing.T) {
	var s Stages
	t0 := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	s.Put(1, &Stage{Token: "tok", At: t0, Media: []Media{{Hash: "h1", Type: "image/png"}}})
	if m, ok := s.Image(1, "h1", t0.Add(time.Minute)); !ok || m.Type != "image/png" {
		t.Fatal("the preview's image is not served")
	}
	if _, ok := s.Image(2, "h1", t0); ok {
		t.Fatal("another user was served the preview's image")
	}
	if s.Take(1, "other", t0) != nil || s.Take(2, "tok", t0) != nil {
		t.Fatal("a preview was taken with the wrong token or by another user")
	}
	if st := s.Take(1, "tok", t0.Add(time.Minute)); st == nil || s.Take(1, "tok", t0.Add(time.Minute)) != nil {
		t.Fatal("a preview was not taken exactly once")
	}
	s.Put(1, &Stage{Token: "tok", At: t0})
	if s.Take(1, "tok", t0.Add(StageTTL+time.Second)) != nil {
		t.Fatal("an expired preview was taken")
	}
	s.Put(2, &Stage{Token: "x", At: t0.Add(2 * StageTTL)}) // a new preview drops expired ones
	if _, kept := s.m[1]; kept {
		t.Fatal("an expired preview was kept")
	}
}
