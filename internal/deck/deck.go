package deck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing/fstest"
)

// Options adjusts loading.
type Options struct {
	// CheckSim, if set, validates each card's simulation (preset, variants, overrides); its
	// error is reported at the simulation's line.
	CheckSim func(*Simulation) error
	// SimChecked, if set, names the card files whose simulation needs no CheckSim: files
	// known to pass it already, such as the bundled cards, which a test runs at build time.
	SimChecked func(file string) bool
	// Render renders every card's HTML during the load, so a block that fails to render is an
	// error of the load (at its line) rather than a notice on the page. Without it each card
	// renders on first use (Block.HTML), and Card.Render reports such a failure.
	Render bool
	// Strict makes a spoken answer that runs over its clock (or holds code) an error that keeps
	// the card out, as the bundled deck's checks want. Otherwise it is a warning in
	// Deck.Warnings and the card loads: imported and member-written cards are shortened later.
	Strict bool
}

// Topic groups cards under a topic name, in deck order.
type Topic struct {
	Name  string
	Slug  string
	Cards []*Card
}

// Deck is a loaded, validated deck. It is immutable after Load (but for each card's HTML,
// rendered once on first use) and safe for concurrent use.
type Deck struct {
	Cards []*Card // deck order
	// Warnings lists what a non-strict load let through: spoken answers over their clock.
	Warnings ErrorList

	byID    map[string]*Card
	topics  []Topic
	bySlug  map[string]int
	tags    []string
	indexes searchIndex // for search, built on first use
	words   vocabulary  // for typo-tolerant search, built on first use (suggest.go)
}

// LoadDir loads the deck rooted at dir.
func LoadDir(dir string, opt Options) (*Deck, error) {
	if st, err := os.Stat(dir); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	return Load(os.DirFS(dir), opt)
}

// Load reads every *.md file under fsys (skipping README.md, and files and directories whose
// names start with "_" or "."), in sorted path order. On any problem it returns a nil deck and
// an ErrorList holding every problem found, sorted by file and line.
func Load(fsys fs.FS, opt Options) (*Deck, error) {
	var files []string
	var all ErrorList
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			all = append(all, Error{File: p, Msg: err.Error()})
			return nil
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && path.Ext(name) == ".md" && !strings.EqualFold(name, "README.md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)

	parsed := parseAll(fsys, files, opt)
	d := &Deck{byID: map[string]*Card{}, bySlug: map[string]int{}}
	for i, f := range files {
		c, errs := parsed[i].card, parsed[i].errs
		if len(errs) > 0 {
			all = append(all, errs...)
			continue
		}
		if prev, dup := d.byID[c.ID]; dup {
			all = append(all, Error{File: f, Line: c.idLine, Msg: fmt.Sprintf("duplicate id %q: also used by %s", c.ID, prev.File)})
			continue
		}
		if c.Sim != nil && opt.CheckSim != nil && (opt.SimChecked == nil || !opt.SimChecked(f)) {
			if err := opt.CheckSim(c.Sim); err != nil {
				var located LineErrors
				if errors.As(err, &located) {
					for _, le := range located {
						all = append(all, Error{File: f, Line: le.Line, Msg: le.Msg})
					}
					continue
				}
				all = append(all, Error{File: f, Line: c.Sim.Line, Msg: "simulation: " + err.Error()})
				continue
			}
		}
		if errs := parsed[i].spoken; len(errs) > 0 {
			if opt.Strict {
				all = append(all, errs...)
				continue
			}
			d.Warnings = append(d.Warnings, errs...)
		}
		c.Order = len(d.Cards)
		d.byID[c.ID] = c
		d.Cards = append(d.Cards, c)
	}
	if len(all) == 0 { // links to cards that failed to load would only add noise
		all = checkLinks(fsys, d.Cards, d.byID)
	}
	if len(all) > 0 {
		all.Sort()
		return nil, all
	}
	d.Warnings.Sort()
	d.index()
	return d, nil
}

type parsedFile struct {
	card   *Card
	errs   ErrorList
	spoken ErrorList // checkSpoken's
}

// parseAll reads, parses and checks the files on every core: parsing (and rendering, chiefly
// code highlighting, when asked) dominates load time, and cards are independent.
func parseAll(fsys fs.FS, files []string, opt Options) []parsedFile {
	out := make([]parsedFile, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				src, err := readFile(fsys, files[i])
				if err != nil {
					out[i].errs = ErrorList{{File: files[i], Msg: fmt.Sprintf("cannot read: %v", err)}}
					continue
				}
				c, errs := parse(files[i], src, opt.Render)
				out[i].card, out[i].errs = c, errs
				if c != nil {
					out[i].spoken = checkSpoken(c)
				}
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// readFile reads a file of fsys. An in-memory deck (a server's files with the app's edits laid
// over them, deckload.Overlay) is not copied: its cards keep their text until rendered, and
// sharing it keeps one copy resident rather than two. Nothing writes to a file's Data.
func readFile(fsys fs.FS, name string) ([]byte, error) {
	if m, ok := fsys.(fstest.MapFS); ok {
		if f := m[name]; f != nil && f.Mode.IsRegular() {
			return f.Data, nil
		}
	}
	return fs.ReadFile(fsys, name)
}

// index builds the topic and tag tables once, so lookups cost nothing per request.
func (d *Deck) index() {
	tagSet := map[string]bool{}
	byName := map[string]int{}
	for _, c := range d.Cards {
		i, ok := byName[c.Topic]
		if !ok {
			slug := Slugify(c.Topic)
			if slug == "" {
				slug = "topic"
			}
			for base, n := slug, 2; ; n++ {
				if _, taken := d.bySlug[slug]; !taken {
					break
				}
				slug = fmt.Sprintf("%s-%d", base, n)
			}
			i = len(d.topics)
			byName[c.Topic] = i
			d.bySlug[slug] = i
			d.topics = append(d.topics, Topic{Name: c.Topic, Slug: slug})
		}
		d.topics[i].Cards = append(d.topics[i].Cards, c)
		for _, t := range c.Tags {
			tagSet[t] = true
		}
	}
	for t := range tagSet {
		d.tags = append(d.tags, t)
	}
	sort.Strings(d.tags)
}

// Len is the number of cards.
func (d *Deck) Len() int { return len(d.Cards) }

// Card returns the card with the given id.
func (d *Deck) Card(id string) (*Card, bool) {
	c, ok := d.byID[id]
	return c, ok
}

// Topics returns the topics in order of first appearance in the deck. Callers must not modify it.
func (d *Deck) Topics() []Topic { return d.topics }

// TopicBySlug returns the topic whose Slug is slug.
func (d *Deck) TopicBySlug(slug string) (Topic, bool) {
	i, ok := d.bySlug[slug]
	if !ok {
		return Topic{}, false
	}
	return d.topics[i], true
}

// Tags returns every tag used in the deck, sorted.
func (d *Deck) Tags() []string { return d.tags }
