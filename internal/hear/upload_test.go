package hear

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
)

func TestSniff(t *testing.T) {
	cases := map[string]string{
		"\x1a\x45\xdf\xa3rest":         "audio/webm",
		"OggS\x00\x02":                 "audio/ogg",
		"\x00\x00\x00\x20ftypM4A ":     "audio/mp4",
		"RIFF\x24\x00\x00\x00WAVEfmt ": "audio/wav",
	}
	for in, want := range cases {
		if got, ok := Sniff([]byte(in)); !ok || got != want {
			t.Errorf("Sniff(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "<html>", "RIFF\x24\x00\x00\x00AVI LIST", "ftyp"} {
		if got, ok := Sniff([]byte(in)); ok {
			t.Errorf("Sniff(%q) = %q, want refused", in, got)
		}
	}
}

func TestUploadsWindow(t *testing.T) {
	var l Uploads
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := range UploadsPerWindow {
		if _, ok := l.Allow(1, 1000, now.Add(time.Duration(i)*time.Second)); !ok {
			t.Fatalf("upload %d refused inside the limit", i+1)
		}
	}
	wait, ok := l.Allow(1, 1000, now.Add(time.Minute))
	if ok || wait != UploadWindow-time.Minute {
		t.Fatalf("one over the count: ok %v, wait %v", ok, wait)
	}
	if _, ok := l.Allow(2, 1000, now.Add(time.Minute)); !ok {
		t.Fatal("another user is limited too")
	}
	if _, ok := l.Allow(1, 1000, now.Add(UploadWindow+time.Minute)); !ok {
		t.Fatal("still refused once the window has passed")
	}
	if _, ok := l.Allow(3, UploadBytesPerWindow+1, now); ok {
		t.Fatal("an upload over the byte budget was allowed")
	}
}

func TestMockTarget(t *testing.T) {
	sess := &store.MockSession{ID: 7, Status: store.MockActive, Settings: store.MockSettings{Depth: "solid"},
		Answers: []store.MockTurn{{MockQuestion: store.MockQuestion{CardID: "a", Target: time.Minute, FollowUpTarget: 20 * time.Second}}}}
	rec := store.Recording{CardID: "a"}
	if err := MockTarget(&rec, sess, 0, true); err != nil || rec.Target != 20*time.Second || rec.MockSessionID != 7 || rec.Depth != "solid" || !rec.FollowUp {
		t.Fatalf("follow-up: %v %+v", err, rec)
	}
	if err := MockTarget(&rec, sess, 0, false); err != nil || rec.Target != time.Minute {
		t.Fatalf("main answer: %v %+v", err, rec)
	}
	if err := MockTarget(&store.Recording{CardID: "b"}, sess, 0, false); err != ErrNotQuestion {
		t.Fatalf("another card: %v", err)
	}
	if err := MockTarget(&rec, sess, 1, false); err != ErrNotQuestion {
		t.Fatalf("out of range: %v", err)
	}
	sess.Answers[0].Rating = 3
	if err := MockTarget(&rec, sess, 0, false); err != ErrRated {
		t.Fatalf("rated: %v", err)
	}
}

func TestStartStatus(t *testing.T) {
	var rec store.Recording
	if StartStatus(&rec, false); rec.TranscriptStatus != "none" || rec.Note != NotChecked {
		t.Errorf("checks off: %+v", rec)
	}
	rec = store.Recording{Wall: MaxAudio + time.Second}
	if StartStatus(&rec, true); rec.TranscriptStatus != "unavailable" {
		t.Errorf("too long: %+v", rec)
	}
	rec = store.Recording{Wall: time.Second}
	if StartStatus(&rec, true); rec.TranscriptStatus != "pending" {
		t.Errorf("short: %+v", rec)
	}
}

// Keep stores audio within the user's quota and says what refused it otherwise.
func TestKeeperQuotaAndContent(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	u, err := db.CreateUser(ctx, "ann", "x", store.RoleMember, now)
	if err != nil {
		t.Fatal(err)
	}
	wav := append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 1000)...)
	k := Keeper{Store: db, Uploads: &Uploads{}, Quota: 1500}
	rec := store.Recording{UserID: u.ID, CardID: "c", CreatedAt: now, Mode: "study", MockPosition: -1, Wall: time.Second}
	if _, err := k.Keep(ctx, rec, []byte("<html>not audio</html>")); !errors.Is(err, ErrNotAudio) {
		t.Fatalf("not audio: %v", err)
	}
	got, err := k.Keep(ctx, rec, wav)
	if err != nil || got.ID == 0 || got.MIME != "audio/wav" || got.Size != int64(len(wav)) || got.TranscriptStatus != "none" || got.Note != NotChecked {
		t.Fatalf("kept: %+v %v", got, err)
	}
	var full *QuotaError
	if _, err := k.Keep(ctx, rec, wav); !errors.As(err, &full) || full.Used != int64(len(wav)) || !strings.Contains(err.Error(), "Your recordings are full") {
		t.Fatalf("over the quota: %v", err)
	}
	k.Quota = -1
	if _, err := k.Keep(ctx, rec, wav); err != nil {
		t.Fatalf("no quota: %v", err)
	}
	for range UploadsPerWindow {
		k.Uploads.Allow(u.ID, 1, now)
	}
	var rate *RateError
	if _, err := k.Keep(ctx, rec, wav); !errors.As(err, &rate) || !strings.Contains(err.Error(), "wait 11 minutes") {
		t.Fatalf("over the rate: %v", err)
	}
}
