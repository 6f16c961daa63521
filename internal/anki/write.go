package anki

import (
	"archive/zip"
	"context"
	"crypto/sha1"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
)

// ExportCard is one card to write: a Basic note with its card, and optionally the learner's
// state and answers.
type ExportCard struct {
	ID          string // becomes the note's guid, so a re-import updates rather than duplicates
	Topic       string // becomes the deck "Rehearse::<topic>"
	Tags        []string
	Front, Back string     // HTML
	State       *srs.Card  // nil: a new card
	Answers     []Answered // oldest first
}

// Answered is one answer of the learner's history.
type Answered struct {
	At            time.Time
	Rating        srs.Rating
	TookMS        int64
	Before, After srs.Card
}

// CardSides is a card's question and answer as HTML for Anki: the question, and the cheat-sheet
// with the solid spoken answer (a plain card: its answer).
func CardSides(c *deck.Card) (front, back string) {
	front = "<div>" + html.EscapeString(c.Question) + "</div>"
	var b strings.Builder
	if c.Plain {
		for _, a := range c.Answer {
			b.WriteString(string(a.HTML()))
		}
		return front, b.String()
	}
	b.WriteString("<ul>")
	for _, a := range c.Answer {
		b.WriteString("<li>" + string(a.HTML()) + "</li>")
	}
	b.WriteString("</ul><hr>")
	b.WriteString(string(c.Solid.HTML()))
	return front, b.String()
}

// Anki ids of what the exported collection holds besides notes and cards.
const (
	exportModelID = 1_700_000_000_001
	exportDeckID0 = 1_700_000_001_000
)

// Write writes an .apkg holding the cards: a collection.anki2 (schema 11, which every Anki
// version imports) with one Basic note per card, a deck per topic, and the answers as its
// review log. now dates the collection; the SQLite file is built in tmpDir.
func Write(ctx context.Context, w io.Writer, cards []ExportCard, now time.Time, tmpDir string) error {
	tmp, err := os.CreateTemp(tmpDir, "rehearse-export-*.anki2")
	if err != nil {
		return err
	}
	name := tmp.Name()
	tmp.Close()
	defer os.Remove(name)
	if err := writeCollection(ctx, name, cards, now); err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	f, err := zw.Create("collection.anki2")
	if err != nil {
		return err
	}
	col, err := os.Open(name)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, col)
	col.Close()
	if err != nil {
		return err
	}
	m, err := zw.Create("media")
	if err != nil {
		return err
	}
	if _, err := m.Write([]byte("{}")); err != nil {
		return err
	}
	return zw.Close()
}

func writeCollection(ctx context.Context, path string, cards []ExportCard, now time.Time) error {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema11); err != nil {
		return fmt.Errorf("export schema: %w", err)
	}
	// The collection's day 0 is today's start in UTC: review cards are due in days from it.
	crt := now.UTC().Truncate(24 * time.Hour)
	decks := map[string]int64{}
	var deckOrder []string
	for _, c := range cards {
		if _, ok := decks[c.Topic]; !ok {
			decks[c.Topic] = exportDeckID0 + int64(len(decks))
			deckOrder = append(deckOrder, c.Topic)
		}
	}
	models, decksJSON, dconf, conf := collectionJSON(now, decks, deckOrder)
	if _, err := tx.ExecContext(ctx, `INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')`,
		crt.Unix(), now.UnixMilli(), now.UnixMilli(), conf, models, decksJSON, dconf); err != nil {
		return err
	}
	base := now.UnixMilli() - int64(len(cards)) // note and card ids: unique, in card order
	usedRev := map[int64]bool{}
	for i, c := range cards {
		id := base + int64(i)
		front := html.UnescapeString(stripTags(c.Front))
		flds := c.Front + "\x1f" + c.Back
		tags := ""
		if len(c.Tags) > 0 {
			tags = " " + strings.Join(c.Tags, " ") + " "
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')`,
			id, guid(c.ID), exportModelID, now.Unix(), tags, flds, front, checksum(front)); err != nil {
			return err
		}
		typ, queue, due, ivl, data := cardSchedule(c.State, i, crt)
		reps, lapses := 0, 0
		if c.State != nil {
			reps, lapses = c.State.Reps, c.State.Lapses
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO cards VALUES (?, ?, ?, 0, ?, -1, ?, ?, ?, ?, 2500, ?, ?, 0, 0, 0, 0, ?)`,
			id, id, decks[c.Topic], now.Unix(), typ, queue, due, ivl, reps, lapses, data); err != nil {
			return err
		}
		for _, a := range c.Answers {
			rid := a.At.UnixMilli()
			for usedRev[rid] {
				rid++
			}
			usedRev[rid] = true
			kind := RevLearning
			switch a.Before.State {
			case srs.Review:
				kind = RevReview
			case srs.Relearning:
				kind = RevRelearning
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO revlog VALUES (?, ?, -1, ?, ?, ?, 2500, ?, ?)`,
				rid, id, int(a.Rating), revlogIvl(a.After, a.At), revlogIvl(a.Before, a.At), min(a.TookMS, 60000), kind); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// cardSchedule is Anki's view of a state: type, queue, due (a position for new cards, a unix
// time for (re)learning, a day number from crt for review), interval in days, and the FSRS
// memory state Anki keeps in the card's data.
func cardSchedule(s *srs.Card, pos int, crt time.Time) (typ, queue int, due int64, ivl int, data string) {
	if s == nil || s.State == srs.New {
		return 0, 0, int64(pos + 1), 0, "{}"
	}
	b, _ := json.Marshal(map[string]float64{"s": round3(s.Stability), "d": round3(s.Difficulty)})
	data = string(b)
	switch s.State {
	case srs.Learning:
		return 1, 1, s.Due.Unix(), 0, data
	case srs.Relearning:
		return 3, 1, s.Due.Unix(), max(int(s.Stability), 1), data
	}
	days := int(s.Due.Sub(s.LastReview).Hours()/24 + 0.5)
	return 2, 2, int64(s.Due.UTC().Sub(crt).Hours() / 24), max(days, 1), data
}

// revlogIvl is Anki's revlog interval: days, or negative seconds while (re)learning.
func revlogIvl(s srs.Card, at time.Time) int {
	switch s.State {
	case srs.New:
		return 0
	case srs.Review:
		return max(int(s.Due.Sub(at).Hours()/24+0.5), 1)
	}
	return -int(s.Due.Sub(at).Seconds())
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

// guid is a stable note guid from the card id (Anki only needs it unique and stable).
func guid(id string) string {
	sum := sha1.Sum([]byte("rehearse:" + id))
	return "rh" + strconv.FormatUint(binary.BigEndian.Uint64(sum[:8]), 36)
}

// checksum is Anki's duplicate check: the first 8 hex digits of the SHA-1 of the sort field.
func checksum(s string) int64 {
	sum := sha1.Sum([]byte(s))
	return int64(binary.BigEndian.Uint32(sum[:4]))
}

func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}
