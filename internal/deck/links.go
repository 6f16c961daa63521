package deck

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
)

// CardLinkPrefix is the path of a card page; a card links to another as [text](/cards/<id>).
// Cards are merged and removed over time, so a loaded deck checks that every such link still
// names a card in it.
const CardLinkPrefix = "/cards/"

// checkLinks reports links to card ids the deck does not hold, at the first source line that
// mentions the link (a link's line is not kept, and errors are rare enough to read the file again).
func checkLinks(fsys fs.FS, cards []*Card, byID map[string]*Card) ErrorList {
	var out ErrorList
	for _, c := range cards {
		seen := map[string]bool{}
		for _, id := range c.cardLinks {
			if _, ok := byID[id]; ok || seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, Error{File: c.File, Line: lineOf(fsys, c.File, CardLinkPrefix+id),
				Msg: fmt.Sprintf("link to %s%s: no card in the deck has id %q (merged or renamed? link the card that holds it now)", CardLinkPrefix, id, id)})
		}
	}
	return out
}

// lineOf is the 1-based line of the first occurrence of s in the file, or 0 if unknown.
func lineOf(fsys fs.FS, file, s string) int {
	src, err := fs.ReadFile(fsys, file)
	if err != nil {
		return 0
	}
	i := bytes.Index(src, []byte(s))
	if i < 0 {
		return 0
	}
	return 1 + strings.Count(string(src[:i]), "\n")
}
