package anki

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Imported is one Rehearse card made from an Anki card: a plain card (an Answer section only),
// with the Anki cards whose review history belongs to it.
type Imported struct {
	ID        string // anki-<note id>, with -r for a reversed card, -c<n> for cloze n
	Path      string // anki/<deck>/<id>.md
	Topic     string
	Question  string
	Tags      []string
	Markdown  []byte
	AnkiCards []int64
	Suspended bool
}

// Media is an image a card shows, stored by the hash of its bytes.
type Media struct {
	Name string // in the package
	Hash string // hex SHA-256 of Data
	Type string // Content-Type
	Data []byte
}

// MediaPath is where a stored image is served: /media/<hash><ext>.
func MediaPath(m Media) string { return "/media/" + m.Hash + strings.ToLower(path.Ext(m.Name)) }

// maxQuestion bounds the question line; the whole front stays in the body.
const maxQuestion = 300

// Convert turns the package's notes into cards, one per Anki card (Basic: one; Basic and
// reversed: two; Cloze: one per cloze number; any other note type: one, its first field the
// question and the rest the answer), and lists the images they show.
func Convert(p *Package) ([]Imported, []Media) {
	media := map[string]Media{}
	imgURL := func(name string) string {
		data, ok := p.Media[name]
		if !ok {
			return ""
		}
		m, ok := media[name]
		if !ok {
			sum := sha256.Sum256(data)
			m = Media{Name: name, Hash: hex.EncodeToString(sum[:]), Type: imageType(name), Data: data}
			media[name] = m
		}
		return MediaPath(m)
	}
	byNote := map[int64][]Card{}
	for _, c := range p.Cards {
		byNote[c.NoteID] = append(byNote[c.NoteID], c)
	}
	var out []Imported
	for _, n := range p.Notes {
		cards := byNote[n.ID]
		if len(cards) == 0 {
			continue
		}
		out = append(out, noteCards(n, cards, imgURL)...)
	}
	ms := make([]Media, 0, len(media))
	for _, m := range media {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Hash < ms[j].Hash })
	return out, ms
}

// noteCards makes the cards of one note from its Anki cards (sorted by ord).
func noteCards(n Note, cards []Card, img ImageURL) []Imported {
	field := func(i int) string {
		if i < len(n.Fields) {
			return n.Fields[i]
		}
		return ""
	}
	base := "anki-" + strconv.FormatInt(n.ID, 10)
	tags := cleanTags(n.Tags)
	var out []Imported
	add := func(id string, front, back string, c []Card) {
		im := build(id, front, back, img)
		im.Topic, im.Tags = topicOf(c[0].Deck), tags
		im.Path = "anki/" + slug(im.Topic, "deck") + "/" + id + ".md"
		for _, x := range c {
			im.AnkiCards = append(im.AnkiCards, x.ID)
		}
		im.Suspended = c[0].Suspended
		im.Markdown = render(im)
		out = append(out, im)
	}
	switch {
	case n.Kind == Cloze:
		text, extra := field(0), strings.Join(n.Fields[min(1, len(n.Fields)):], "<br>")
		for _, c := range cards {
			num := c.Ord + 1
			q, a := clozeSides(text, num)
			if strings.TrimSpace(extra) != "" {
				a += "<br><br>" + extra
			}
			add(fmt.Sprintf("%s-c%d", base, num), q, a, []Card{c})
		}
	case n.Templates == 2 && len(n.Fields) >= 2:
		for _, c := range cards {
			switch c.Ord {
			case 0:
				add(base, field(0), field(1), []Card{c})
			case 1:
				add(base+"-r", field(1), field(0), []Card{c})
			}
		}
	default:
		add(base, field(0), strings.Join(n.Fields[min(1, len(n.Fields)):], "<br><br>"), cards[:1])
	}
	return out
}

// build makes the question line and the body of a card from its two sides' HTML.
func build(id, front, back string, img ImageURL) Imported {
	q := plainText(front)
	if q == "" {
		q = "(no question text)"
	}
	if len([]rune(q)) > maxQuestion {
		q = string([]rune(q)[:maxQuestion-1]) + "…"
	}
	frontMD, backMD := toMarkdown(front, img), toMarkdown(back, img)
	body := backMD
	// A front that is more than its one line of text (code, an image, a list) is kept above
	// the answer, so nothing on the Anki card is lost.
	if frontMD != escapeText(q) && strings.TrimSpace(frontMD) != "" && (strings.Contains(frontMD, "\n") || strings.Contains(frontMD, "![") || len([]rune(plainText(front))) > maxQuestion) {
		body = frontMD + "\n\n---\n\n" + backMD
	}
	if strings.TrimSpace(body) == "" {
		body = "(empty on the Anki card)"
	}
	return Imported{ID: id, Question: q, Markdown: []byte(body)}
}

// render writes the card file: front matter, then the Answer section holding the back.
func render(im Imported) []byte {
	var b strings.Builder
	b.WriteString("---\nid: " + im.ID + "\n")
	b.WriteString("question: " + yamlQuote(im.Question) + "\n")
	b.WriteString("topic: " + yamlQuote(im.Topic) + "\n")
	if len(im.Tags) > 0 {
		b.WriteString("tags: [" + strings.Join(im.Tags, ", ") + "]\n")
	}
	b.WriteString("---\n\n## Answer\n\n")
	b.Write(im.Markdown)
	b.WriteString("\n")
	return []byte(b.String())
}

// yamlQuote writes s as a YAML double-quoted scalar (control characters dropped).
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || r == '\ufeff':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// topicOf is the deck name as a topic: its levels joined with " / ".
func topicOf(deck string) string {
	parts := strings.Split(deck, "::")
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return "Anki"
	}
	return strings.Join(keep, " / ")
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slug is s as lower-case letters, digits and single hyphens; def when nothing is left.
func slug(s, def string) string {
	out := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(out) > 60 {
		out = strings.Trim(out[:60], "-")
	}
	if out == "" {
		return def
	}
	return out
}

// cleanTags makes Anki tags valid card tags (hierarchy separators become hyphens), dropping
// duplicates and Anki's own marker tags.
func cleanTags(tags []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tags {
		s := slug(t, "")
		if s == "" || seen[s] || s == "marked" || s == "leech" {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// cloze matches {{cN::text}} and {{cN::text::hint}} (not nested).
var cloze = regexp.MustCompile(`(?s)\{\{c(\d+)::(.*?)(?:::([^{}]*?))?\}\}`)

// clozeSides is the front and back of cloze num: on the front its deletions are [...] (or
// [hint]) and the others shown; on the back its deletions are bold.
func clozeSides(text string, num int) (front, back string) {
	front = cloze.ReplaceAllStringFunc(text, func(m string) string {
		g := cloze.FindStringSubmatch(m)
		if n, _ := strconv.Atoi(g[1]); n == num {
			if g[3] != "" {
				return "[" + g[3] + "]"
			}
			return "[...]"
		}
		return g[2]
	})
	back = cloze.ReplaceAllStringFunc(text, func(m string) string {
		g := cloze.FindStringSubmatch(m)
		if n, _ := strconv.Atoi(g[1]); n == num {
			return "<b>" + g[2] + "</b>"
		}
		return g[2]
	})
	return front, back
}
