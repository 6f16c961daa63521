// Package anki reads and writes Anki's .apkg packages: the three collection formats Anki has
// written (collection.anki2, collection.anki21, and the zstd-compressed collection.anki21b with
// its protobuf media list), the conversion of notes into Rehearse cards, the replay of a
// package's review log into FSRS states, and a package Anki opens (the collection.anki2 schema).
//
// A package is untrusted input: every refusal is one line saying what was wrong, and nothing
// is returned half-read.
package anki

import (
	"errors"
	"fmt"
	"time"
)

// Limits bound what a package may make the reader do. A package over any of them is refused.
type Limits struct {
	MaxEntries    int   // files in the zip
	MaxEntryBytes int64 // one file, uncompressed (the collection or a media file)
	MaxTotalBytes int64 // every file read, uncompressed
	MaxRatio      int64 // uncompressed / compressed size of one entry above 1 MiB
	MaxNotes      int
	MaxField      int // bytes of one note field
	MaxMediaBytes int64
}

// DefaultLimits fit a large personal collection with its images while keeping one import's
// memory and disk use bounded.
var DefaultLimits = Limits{
	MaxEntries:    20000,
	MaxEntryBytes: 256 << 20,
	MaxTotalBytes: 512 << 20,
	MaxRatio:      100,
	MaxNotes:      20000,
	MaxField:      256 << 10,
	MaxMediaBytes: 5 << 20,
}

// Error is a refusal: the package is not one this reader takes. Its message is one line.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func refuse(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// IsRefusal reports whether err says the package itself was refused (rather than an I/O error).
func IsRefusal(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// Kind is how a note type makes cards.
type Kind int

const (
	Standard Kind = iota // one card per template
	Cloze                // one card per cloze number
)

// Note is one Anki note: its fields (HTML) and tags, with what its note type says about it.
type Note struct {
	ID        int64
	Type      string // note type name
	Kind      Kind
	Templates int // templates of a Standard note type (2 for Basic (and reversed card))
	Fields    []string
	Tags      []string
}

// Card is one Anki card: which note and template (or cloze number - 1) it shows, and its deck.
type Card struct {
	ID        int64
	NoteID    int64
	Ord       int
	Deck      string // full deck name, levels joined with "::"
	Suspended bool
}

// Review kinds of Anki's revlog.type.
const (
	RevLearning    = 0
	RevReview      = 1
	RevRelearning  = 2
	RevFiltered    = 3 // in a filtered deck; ease factor 0 means it did not reschedule (cram)
	RevManual      = 4 // set due date, forget, reset
	RevRescheduled = 5 // rescheduled by a change of FSRS settings
)

// Review is one row of Anki's review log.
type Review struct {
	ID     int64 // the answer's time, unix milliseconds
	CardID int64
	Ease   int // button 1-4; 0 for entries no answer made
	Kind   int // Rev* above
	Factor int // ease factor in permille; 0 for a reset or a cram review
	TookMS int64
}

// At is when the review happened.
func (r Review) At() time.Time { return time.UnixMilli(r.ID).UTC() }

// Package is what a .apkg holds that Rehearse uses.
type Package struct {
	Format string // the collection file read: collection.anki2, .anki21 or .anki21b
	Notes  []Note
	Cards  []Card
	Revlog []Review          // ordered by card, then time
	Media  map[string][]byte // image files the notes show, by their name in the package
}
