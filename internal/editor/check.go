// Package editor holds the rules for writing cards in the app: what a save must pass, how
// two revisions differ, which existing card a new question resembles, and the template a new
// card starts from. It is pure: the server stores and reloads, this decides.
package editor

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rehearse/rehearse/internal/deck"
)

// MaxCardBytes caps one card's markdown; the bundled cards are under 12 KiB.
const MaxCardBytes = 64 << 10

// Target says where a card is being saved.
type Target struct {
	Path string // slash path in the deck, e.g. "03-eager/my-card.md"
	ID   string // the id the card must keep ("" for a new card)
}

// Check validates a card to be saved at t against the running deck d. It reports every
// problem it finds with the file's line, as `rehearse check` does, and returns the parsed
// card when there are none. checkSim, if set, is the deck's simulation check.
func Check(d *deck.Deck, t Target, src []byte, checkSim func(*deck.Simulation) error) (*deck.Card, deck.ErrorList) {
	file := t.Path
	if len(src) > MaxCardBytes {
		return nil, deck.ErrorList{{File: file, Msg: fmt.Sprintf("the card is %d KiB; the limit is %d KiB", (len(src)+1023)>>10, MaxCardBytes>>10)}}
	}
	if msg := folderProblem(t.Path); msg != "" {
		return nil, deck.ErrorList{{File: file, Msg: msg}}
	}
	c, errs := deck.Parse(file, src)
	if len(errs) > 0 {
		return nil, errs
	}
	idLine := FrontMatterLine(src, "id")
	if why, ok := reservedIDs[c.ID]; ok {
		return nil, deck.ErrorList{{File: file, Line: idLine, Msg: fmt.Sprintf("id %q is reserved: %s; choose another id", c.ID, why)}}
	}
	var list deck.ErrorList
	switch {
	case t.ID != "" && c.ID != t.ID:
		list = append(list, deck.Error{File: file, Line: idLine, Msg: fmt.Sprintf(
			"id: this card is %q and keeps that id (study progress is kept by id); renaming is refused — write a new card instead", t.ID)})
	case t.ID == "" && path.Base(t.Path) != c.ID+".md":
		list = append(list, deck.Error{File: file, Line: idLine, Msg: fmt.Sprintf("id: the file is %s, so the id must be %q", path.Base(t.Path), strings.TrimSuffix(path.Base(t.Path), ".md"))})
	}
	if d != nil {
		if other, ok := d.Card(c.ID); ok && (other.File != t.Path || t.ID == "") { // a new card may not take an id
			list = append(list, deck.Error{File: file, Line: idLine, Msg: fmt.Sprintf("duplicate id %q: also used by %s", c.ID, other.File)})
		}
		if topics := folderTopics(d, t.Path); len(topics) > 0 && !slices.Contains(topics, c.Topic) {
			list = append(list, deck.Error{File: file, Line: FrontMatterLine(src, "topic"), Msg: fmt.Sprintf(
				"topic: folder %s holds the topic %q, not %q; choose the folder of that topic, or a new folder", path.Dir(t.Path), topics[0], c.Topic)})
		}
	}
	if c.Sim != nil && checkSim != nil {
		if err := checkSim(c.Sim); err != nil {
			list = append(list, deck.Error{File: file, Line: c.Sim.Line, Msg: "simulation: " + err.Error()})
		}
	}
	if len(list) > 0 {
		list.Sort()
		return nil, list
	}
	return c, nil
}

// reservedIDs are ids a card written in the app cannot take, with the reason.
var reservedIDs = map[string]string{
	"readme": "a deck's README files are not cards, so the card would never load",
	"new":    "/cards/new is the page that writes a new card",
}

// Reserved reports whether id is one a card cannot take.
func Reserved(id string) bool { _, ok := reservedIDs[id]; return ok }

// folderProblem says what is wrong with where a card would be stored ("" when fine): one
// topic folder below the deck root, named like the bundled ones (03-eager).
func folderProblem(p string) string {
	dir, file := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case dir == "":
		return "folder: a card lives in a topic folder, e.g. 03-eager/" + file
	case strings.Contains(dir, "/") || !isSlug(dir):
		return fmt.Sprintf("folder %q is not a topic folder name: one folder of lower-case letters, digits and hyphens, like 03-eager", dir)
	case strings.EqualFold(file, "readme.md"):
		return fmt.Sprintf("file %q: a deck's README files are not cards, so the card would never load; choose another id", file)
	case path.Ext(file) != ".md" || !isSlug(strings.TrimSuffix(file, ".md")):
		return fmt.Sprintf("file %q: want the card id and .md, like my-card.md", file)
	}
	return ""
}

// folderTopics lists the topics of the other cards in p's folder.
func folderTopics(d *deck.Deck, p string) []string {
	dir := path.Dir(p)
	var out []string
	for _, c := range d.Cards {
		if c.File != p && path.Dir(c.File) == dir && !slices.Contains(out, c.Topic) {
			out = append(out, c.Topic)
		}
	}
	return out
}

// Folders lists the deck's topic folders with the topic each holds, in deck order.
func Folders(d *deck.Deck) (folders, topics []string) {
	for _, c := range d.Cards {
		dir := path.Dir(c.File)
		if dir != "." && !slices.Contains(folders, dir) {
			folders, topics = append(folders, dir), append(topics, c.Topic)
		}
	}
	return folders, topics
}

// FolderFor returns the folder holding topic, or "".
func FolderFor(d *deck.Deck, topic string) string {
	for _, c := range d.Cards {
		if c.Topic == topic && path.Dir(c.File) != "." {
			return path.Dir(c.File)
		}
	}
	return ""
}

// FrontMatterLine returns the 1-based line of a top-level front matter key, or 1.
func FrontMatterLine(src []byte, key string) int {
	line, _ := frontMatterKey(src, key)
	return max(line, 1)
}

// IDOf reads the id from a card's front matter without parsing the rest ("" if none), so a
// broken card can still be routed to its file.
func IDOf(src []byte) string {
	_, v := frontMatterKey(src, "id")
	return strings.Trim(strings.TrimSpace(v), `"'`)
}

// frontMatterKey finds a top-level key in the front matter by a line scan, which works on a
// card YAML would refuse: its line (0 when absent) and the raw text after the colon.
func frontMatterKey(src []byte, key string) (int, string) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, MaxCardBytes+1)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if n > 1 && strings.TrimSpace(l) == "---" {
			break
		}
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			return n, v
		}
	}
	return 0, ""
}

func isSlug(s string) bool {
	if s == "" || len(s) > 100 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// IsSlug reports whether s is usable as a card id or folder name.
func IsSlug(s string) bool { return isSlug(s) }
