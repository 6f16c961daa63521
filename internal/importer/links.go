package importer

import (
	"bytes"
	"regexp"
)

// cardLink matches a markdown link to another card of a deck, [text](/cards/id...).
var cardLink = regexp.MustCompile(`\[([^\]\n]*)\]\((/cards/[^)\s]*)\)`)

// unlinkCards turns links to other cards into plain text: the importer cannot know the deck the
// card will join, and a deck refuses a link to a card it lacks, so a kept link could make the
// imported card one that `rehearse check` refuses. Each is reported, at its input line, so the
// writer can link it again where the card exists.
func (im *importer) unlinkCards(md, src []byte) []byte {
	return cardLink.ReplaceAllFunc(md, func(m []byte) []byte {
		sub := cardLink.FindSubmatch(m)
		text, target := sub[1], sub[2]
		line := 0
		if i := bytes.Index(src, target); i >= 0 {
			line = bytes.Count(src[:i], []byte("\n")) + 1
		}
		im.e.add(line, "link to %s kept as text: link it again if the deck has that card", target)
		return append(append(append(append([]byte{}, text...), " ("...), target...), ')')
	})
}
