package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"testing"
	"time"
)

// walIndex reads, from the -shm file SQLite keeps the WAL index in, the log's last frame
// (mxFrame, at byte 16 of the index header) and how many frames are copied back into the
// database file (nBackfill, at byte 96), in the machine's byte order (little-endian here).
func walIndex(t *testing.T, db *DB) (frames, copied uint32) {
	t.Helper()
	b, err := os.ReadFile(db.Path() + "-shm")
	if err != nil || len(b) < 100 {
		t.Fatalf("read the WAL index: %v (%d bytes)", err, len(b))
	}
	return binary.LittleEndian.Uint32(b[16:]), binary.LittleEndian.Uint32(b[96:])
}

// rateCards writes n answers of user uid, one transaction each, as the review queue does alone.
func rateCards(t *testing.T, db *DB, uid int64, prefix string, n int) {
	t.Helper()
	for i := range n {
		j := job(context.Background(), uid, fmt.Sprintf("%s-%d", prefix, i), 0, t0)
		db.writeBatch([]*reviewJob{j})
		if j.err != nil {
			t.Fatal(j.err)
		}
	}
}

// A hundred answers leave far fewer than SQLite's 1,000 pages in the log, so without the
// checkpointer none of it would be copied back until more writes came. With it, the log is
// copied soon after the writes stop, by the passive checkpoint alone.
func TestCheckpointerCopiesTheLogBackAfterWrites(t *testing.T) {
	db := openTest(t)
	uid := studyUser(t, db)
	rateCards(t, db, uid, "c", 100)
	deadline := time.Now().Add(5 * time.Second)
	for {
		frames, copied := walIndex(t, db)
		if frames == 0 || frames >= walRestartPages {
			t.Fatalf("the log holds %d frames: the test needs some, fewer than the RESTART at %d", frames, walRestartPages)
		}
		if copied == frames {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("5 s after the last write, %d of the log's %d frames are in the database file", copied, frames)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Under answers that never pause, with a reader that never pauses beside them, passive
// checkpoints trail the log and seldom let it start over; the RESTART on the writer's
// connection does. With the RESTART at 200 pages here, the -wal file's high-water mark stays
// below the writer's own checkpoint at walBackstopPages (1,851-2,668 frames in three runs);
// without the RESTART the log runs on until that checkpoint (8,085-9,715 frames). One reader
// keeps the test at 3.7 s under -race (two took 6.6 s) and shows the same.
func TestWALStaysBoundedUnderSteadyWrites(t *testing.T) {
	db := openTest(t)
	const restartAt = 200
	db.ckpt.restartAt = restartAt // before any write: the checkpointer reads it after a commit's kick
	uid := studyUser(t, db)
	stop, read := make(chan struct{}), make(chan struct{})
	go func() { // the reader
		defer close(read)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := db.ReviewHistory(context.Background(), uid, "c-1"); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	const answers = 2000
	rateCards(t, db, uid, "c", answers)
	close(stop)
	<-read
	fi, err := os.Stat(db.Path() + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	const frame = 4096 + 24
	frames, _ := walIndex(t, db)
	if high := fi.Size() / frame; high >= walBackstopPages {
		t.Fatalf("after %d answers the -wal file held %d frames at most (%d now): it ran on to the writer's own checkpoint at %d", answers, high, frames, walBackstopPages)
	}
	t.Logf("-wal file %d frames at most after %d answers; %d in the log now", fi.Size()/frame, answers, frames)
}
