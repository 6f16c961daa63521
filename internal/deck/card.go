// Package deck owns the card model: parsing markdown cards into sections, validating them with
// file:line errors, rendering their HTML (on first use, for a loaded deck), and holding a loaded
// deck in memory.
package deck

import (
	"html/template"
	"time"
)

// Default spoken-answer targets, used when a card's front matter omits them.
const (
	DefaultBasics = 20 * time.Second
	DefaultSolid  = 40 * time.Second
	DefaultDeeper = 90 * time.Second
)

// Timing holds the spoken-answer targets for each depth.
type Timing struct {
	Basics time.Duration
	Solid  time.Duration
	Deeper time.Duration
}

// Simulation names the rebalance simulation that illustrates a card.
type Simulation struct {
	Preset    string
	Compare   []string // variants, e.g. "eager", "cooperative", "cooperative+static"
	Caption   string
	Overrides map[string]any // scenario fields replacing the preset's, as in `rehearse sim` JSON
	Line      int            // line of the simulation block in the file, for error messages
	Expect    []Expectation  // claims about the result, checked by `rehearse check`
}

// Block is one piece of a card's markdown: its plain text (for search and answer checks) and its
// HTML. Its text is known from the load; its HTML is rendered on first use.
type Block struct {
	text string    // for a block built in code (TextBlock)
	html *cardHTML // nil for a block built in code, which has no HTML
	i    int       // index of this block's HTML and text in html
}

// TextBlock is a block of plain text with no HTML, for cards built in code.
func TextBlock(text string) Block { return Block{text: text} }

// Text is the block's plain text: its words without markup, one line per paragraph or item.
func (b Block) Text() string {
	if b.html == nil {
		return b.text
	}
	return b.html.text(b.i)
}

// HTML is the block rendered to safe HTML (raw HTML in the markdown escaped, code highlighted).
// The first call on any block of a card renders the whole card; a card that fails to render
// gets a visible notice instead (Card.Render reports why, with the line).
func (b Block) HTML() template.HTML {
	if b.html == nil {
		return ""
	}
	return b.html.block(b.i)
}

// FollowUp is a follow-up question with its answer.
type FollowUp struct {
	Question string
	Answer   Block
}

// Card is one parsed, validated card. Its blocks render to HTML on first use (render.go).
type Card struct {
	ID       string
	Question string
	Topic    string
	Tags     []string
	Timing   Timing
	Sim      *Simulation // nil when the card names none

	File  string // path relative to the deck root, e.g. "kafka/eager.md"
	Order int    // position in deck order (sorted file paths), from 0

	// Plain is a card with only an Answer (one block of any markdown): a flashcard, such as one
	// imported from Anki, with no spoken answers, ladder, explanation, follow-ups or pitfalls.
	Plain bool

	Answer      []Block  // cheat-sheet bullets (a plain card: its one answer block)
	Basics      Block    // ≈20 s spoken answer
	Solid       Block    // ≈40 s spoken answer
	Deeper      [4]Block // expectation levels, from "knows the phrase" to expert
	Explanation Block
	FollowUps   []FollowUp
	Pitfalls    []Block

	idLine      int         // file line of the id, for duplicate-id errors
	spokenLine  [2]int      // file lines of the Basics and Solid answer headings, for length errors
	spokenWords [2]int      // words of the Basics and Solid answers (SpokenWords of their text)
	spokenCode  [2][]string // code in the Basics and Solid answers (spans and blocks), for errors
	cardLinks   []string    // ids linked as /cards/<id> from the rendered blocks, in file order
	codeLangs   []string    // languages named by fenced code blocks, for WarmUp
	html        *cardHTML
}
