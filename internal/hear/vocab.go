package hear

import (
	"os"
	"strings"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
)

// Weights of the language model's sources. The spoken answers weigh most, being how the card
// itself would say it; everyday words weigh little, enough for a paraphrase's glue words.
const (
	weightSpoken   = 3
	weightCard     = 1
	weightEveryday = 0.3
	weightOther    = 0.05 // each other card's spoken answers
)

// everyday are common words a spoken answer is glued with, whatever the topic.
var everyday = strings.Fields(`a an the and or but so if then because when while until after before
	is are was were be been being it its it's this that these those there here they them their
	he she we you i me my our your his her who what which where why how not no never yes only also
	just still already again once twice both each every all any some none more most less few many
	much very too quite really well about of to in on at by for with from into out over under up
	down off through between without within across against around as than like can could will
	would should must may might do does did done has have had get gets got getting make makes
	made go goes went going come comes take takes give gives keep keeps let lets say says said
	see know think mean means want need needs use uses used work works run runs start starts
	stop stops new old same other another first last next one two three four five six seven
	eight nine ten hundred thousand point time times way part parts thing things case cases
	whole rest else even though although since instead rather basically actually so that's
	there's they're doesn't don't can't won't isn't`)

// sentences gathers the card's text as spoken sentences, each with its weight.
func sentences(c *deck.Card) ([][]string, []float64) {
	var out [][]string
	var weights []float64
	add := func(text string, w float64) {
		for _, s := range spokenTokens(text, true) {
			out = append(out, s)
			weights = append(weights, w)
		}
	}
	add(c.Question, weightCard)
	for _, b := range c.Answer {
		add(b.Text(), weightCard)
	}
	add(c.Basics.Text(), weightSpoken)
	add(c.Solid.Text(), weightSpoken)
	for _, b := range c.Deeper {
		add(b.Text(), weightCard)
	}
	for _, f := range c.FollowUps {
		add(f.Question, weightCard)
	}
	return out, weights
}

// buildModel writes the card's language model and dictionary.
func (r Recognizer) buildModel(d *deck.Deck, c *deck.Card, lmPath, dictPath string) error {
	m := newModel()
	ss, ws := sentences(c)
	for i, s := range ss {
		m.add(s, ws[i])
	}
	if d != nil {
		for _, o := range d.Cards {
			if o.ID == c.ID {
				continue
			}
			for _, t := range []string{o.Basics.Text(), o.Solid.Text()} {
				for _, s := range spokenTokens(t, false) {
					m.add(s, weightOther)
				}
			}
		}
	}
	for _, w := range everyday {
		m.add([]string{w}, weightEveryday)
	}
	for _, s := range interview.SynonymPhrases() {
		for _, t := range spokenTokens(s, false) {
			m.add(t, weightEveryday)
		}
	}
	want := map[string]bool{}
	for w := range m.uni {
		if w != "<s>" && w != "</s>" {
			want[w] = true
		}
	}
	prons, err := pronunciations(r.dict(), want)
	if err != nil {
		return err
	}
	m.drop(func(w string) bool { return len(prons[w]) > 0 })
	lf, err := os.Create(lmPath)
	if err != nil {
		return err
	}
	if err := m.writeARPA(lf); err != nil {
		lf.Close()
		return err
	}
	if err := lf.Close(); err != nil {
		return err
	}
	df, err := os.Create(dictPath)
	if err != nil {
		return err
	}
	if err := writeDict(df, prons); err != nil {
		df.Close()
		return err
	}
	return df.Close()
}
