package store

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

func TestRecordingsOwnershipRetentionBackup(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	ada := studyUser(t, db)
	bob, err := db.CreateUser(ctx, "bob", "h", RoleAdmin, t0)
	if err != nil {
		t.Fatal(err)
	}
	add := func(uid int64, card string, i int) int64 {
		t.Helper()
		id, err := db.AddRecording(ctx, Recording{UserID: uid, CardID: card, CreatedAt: t0.Add(time.Duration(i) * time.Minute),
			Mode: ModeStudy, MIME: "audio/webm", Spoken: 30 * time.Second, Wall: 41 * time.Second, Target: 40 * time.Second},
			[]byte{0x1a, 0x45, 0xdf, 0xa3, byte(i)})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	var ids []int64
	for i := range 7 { // default retention keeps the newest 5
		ids = append(ids, add(ada, "c1", i))
	}
	other := add(ada, "c2", 9)
	list, err := db.CardRecordings(ctx, ada, "c1")
	if err != nil || len(list) != DefaultRecordingsKeep || list[0].ID != ids[2] || list[0].Spoken != 30*time.Second {
		t.Fatalf("after 7 recordings: %d kept (%v), first %+v", len(list), err, list)
	}
	r, audio, err := db.RecordingAudio(ctx, ada, ids[6])
	if err != nil || !bytes.Equal(audio, []byte{0x1a, 0x45, 0xdf, 0xa3, 6}) || r.Size != 5 || r.MIME != "audio/webm" {
		t.Fatalf("audio: %v %v %+v", err, audio, r)
	}
	// Not the owner (an admin here): not found, and deleting does nothing.
	if _, _, err := db.RecordingAudio(ctx, bob.ID, ids[6]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another user read it: %v", err)
	}
	if err := db.DeleteRecording(ctx, bob.ID, ids[6]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another user deleted it: %v", err)
	}
	// The backup holds the audio.
	dst := filepath.Join(t.TempDir(), "copy.db")
	if err := db.Backup(ctx, dst); err != nil {
		t.Fatal(err)
	}
	cp, err := Open(ctx, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, a, err := cp.RecordingAudio(ctx, ada, ids[6]); err != nil || len(a) != 5 {
		t.Fatalf("backup lacks the recording: %v", err)
	}
	cp.Close()
	if err := db.DeleteRecording(ctx, ada, ids[6]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.RecordingAudio(ctx, ada, ids[6]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted recording still there: %v", err)
	}
	// Lowering the retention applies to every card at once.
	if err := db.SetRecordingsKeep(ctx, ada, 1); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.RecordingsKeep(ctx, ada); n != 1 {
		t.Fatalf("keep %d", n)
	}
	list, _ = db.CardRecordings(ctx, ada, "c1")
	if len(list) != 1 || list[0].ID != ids[5] {
		t.Fatalf("keep 1 left %+v", list)
	}
	if l2, _ := db.CardRecordings(ctx, ada, "c2"); len(l2) != 1 || l2[0].ID != other {
		t.Fatalf("other card: %+v", l2)
	}
}
