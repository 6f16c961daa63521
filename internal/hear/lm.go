package hear

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"unicode"
)

// The recogniser is biased to one card: its language model is a bigram model of the card's own
// sentences (question, cheat-sheet, both spoken answers, the deeper levels, follow-ups), with
// a small share of everyday words so a paraphrase is not forced into the card's phrasing, and
// its dictionary holds only those words. A general English model hears a handful of a Kafka
// answer's terms; this one hears most of them, and a wrong answer comes out as the card's
// filler words rather than its key terms.

// discount is the absolute discount taken from every seen bigram for unseen ones.
const discount = 0.6

// model is a bigram language model over a small vocabulary.
type model struct {
	uni   map[string]float64            // word → count (weighted)
	bi    map[string]map[string]float64 // previous → word → count
	total float64
}

func newModel() *model {
	return &model{uni: map[string]float64{}, bi: map[string]map[string]float64{}}
}

// add counts one sentence with a weight.
func (m *model) add(words []string, weight float64) {
	prev := "<s>"
	m.uni["<s>"] += weight
	for _, w := range append(words, "</s>") {
		m.uni[w] += weight
		m.total += weight
		if m.bi[prev] == nil {
			m.bi[prev] = map[string]float64{}
		}
		m.bi[prev][w] += weight
		prev = w
	}
}

// drop removes words the dictionary cannot say, with their bigrams.
func (m *model) drop(keep func(string) bool) {
	for w, c := range m.uni {
		if w == "<s>" || w == "</s>" || keep(w) {
			continue
		}
		delete(m.uni, w)
		m.total -= c
		delete(m.bi, w)
	}
	for _, next := range m.bi {
		for w := range next {
			if _, ok := m.uni[w]; !ok {
				delete(next, w)
			}
		}
	}
}

// writeARPA writes the model in the ARPA text format pocketsphinx reads: add-one smoothed
// unigrams, absolutely discounted bigrams, and back-off weights that keep each history's
// probabilities summing to one.
func (m *model) writeARPA(w io.Writer) error {
	words := make([]string, 0, len(m.uni))
	for k := range m.uni {
		words = append(words, k)
	}
	sort.Strings(words)
	v := float64(len(words))
	puni := map[string]float64{}
	for _, k := range words {
		if k == "<s>" {
			continue
		}
		puni[k] = (m.uni[k] + 1) / (m.total + v)
	}
	type bigram struct {
		a, b string
		p    float64
	}
	var bis []bigram
	backoff := map[string]float64{}
	for _, a := range words {
		next := m.bi[a]
		if len(next) == 0 {
			continue
		}
		sum, seenUni := 0.0, 0.0
		for _, c := range next {
			sum += c
		}
		bs := make([]string, 0, len(next))
		for b := range next {
			bs = append(bs, b)
		}
		sort.Strings(bs)
		taken := 0.0
		for _, b := range bs {
			p := math.Max(next[b]-discount*math.Min(next[b], 1), 0) / sum
			if p <= 0 {
				continue
			}
			taken += p
			seenUni += puni[b]
			bis = append(bis, bigram{a, b, p})
		}
		if seenUni < 1 {
			backoff[a] = (1 - taken) / (1 - seenUni)
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\\data\\\nngram 1=%d\nngram 2=%d\n\n\\1-grams:\n", len(words), len(bis))
	for _, k := range words {
		p := -99.0
		if k != "<s>" {
			p = math.Log10(puni[k])
		}
		if b, ok := backoff[k]; ok && b > 0 {
			fmt.Fprintf(bw, "%.4f %s %.4f\n", p, k, math.Log10(b))
		} else {
			fmt.Fprintf(bw, "%.4f %s\n", p, k)
		}
	}
	fmt.Fprintf(bw, "\n\\2-grams:\n")
	for _, b := range bis {
		fmt.Fprintf(bw, "%.4f %s %s\n", math.Log10(b.p), b.a, b.b)
	}
	fmt.Fprintf(bw, "\n\\end\\\n")
	return bw.Flush()
}

// pronunciations reads from the dictionary at path the entries of the words wanted, and of the
// pieces of each word it lacks, so an unknown compound ("rebalance", "assignor") can be said as
// two known words ("re"+"balance", "assign"+"or"). Alternative entries ("word(2)") are kept.
func pronunciations(path string, words map[string]bool) (map[string][]string, error) {
	want := map[string]bool{}
	for w := range words {
		want[w] = true
		for i := 2; i <= len(w)-2; i++ {
			want[w[:i]], want[w[i:]] = true, true
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	found := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		head, phones, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if i := strings.IndexByte(head, '('); i > 0 {
			head = head[:i]
		}
		if want[head] {
			found[head] = append(found[head], strings.TrimSpace(phones))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for w := range words {
		if p, ok := found[w]; ok {
			out[w] = p
			continue
		}
		// the split with the longest known first part wins
		for i := len(w) - 2; i >= 2; i-- {
			a, b := found[w[:i]], found[w[i:]]
			if len(a) > 0 && len(b) > 0 {
				out[w] = []string{a[0] + " " + b[0]}
				break
			}
		}
	}
	return out, nil
}

// writeDict writes a pocketsphinx dictionary of the given entries.
func writeDict(w io.Writer, prons map[string][]string) error {
	words := make([]string, 0, len(prons))
	for k := range prons {
		words = append(words, k)
	}
	sort.Strings(words)
	bw := bufio.NewWriter(w)
	for _, k := range words {
		for i, p := range prons[k] {
			if i == 0 {
				fmt.Fprintf(bw, "%s %s\n", k, p)
			} else {
				fmt.Fprintf(bw, "%s(%d) %s\n", k, i+1, p)
			}
		}
	}
	return bw.Flush()
}

// splitCamel puts a space inside camel-case names: "onPartitionsRevoked" → "on Partitions Revoked".
func splitCamel(text string) string {
	rs := []rune(text)
	var b strings.Builder
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) {
			b.WriteRune(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}
