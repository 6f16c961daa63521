package server

import (
	"strconv"
	"sync"

	"github.com/rehearse/rehearse/internal/views"
)

// A signed-in card page is rendered from a few inputs: the page frame (user, theme, notice),
// the card and depth, whether the user may edit, and the user's progress on the card as the
// page words it (due "in 3h 20m", recall chance: text that moves with the clock). The same
// inputs render the same bytes, so the gzipped page is kept by a key spelling all of them out,
// in a cache of its own per deck (Server.userPages; a reload starts afresh), and served again
// while nothing in it changes.
// A new input must go into the key: TestUserCardPageKeyCoversEveryInput fails until it does.

// appendUserCardPageKey appends the cache key of a signed-in card page's gzip form to dst.
// Handlers build keys in a pooled buffer (keyBuffer) and look them up without a copy.
func appendUserCardPageKey(dst []byte, userID int64, p views.Page, v views.CardPage, pv views.ProgressView, canEdit bool) []byte {
	k := keyBuilder{b: dst}
	k.str("user-card-page")
	k.num(userID)
	k.page(p)
	k.str(v.Card.ID) // with the deck, whose cache this is: the body and figure follow
	k.str(v.TopicSlug)
	k.str(v.Depth)
	k.flag(canEdit)
	k.flag(pv.Studied)
	k.str(pv.State)
	k.str(pv.Due)
	k.str(pv.Stability)
	k.str(pv.Difficulty)
	k.str(pv.Retrievability)
	k.num(int64(pv.Reps))
	k.num(int64(pv.Lapses))
	k.num(int64(len(pv.History)))
	for _, h := range pv.History {
		k.str(h.When)
		k.str(h.Rating)
		k.str(h.StateBefore)
		k.str(h.Interval)
		k.str(h.Took)
		k.str(h.Mode)
	}
	k.num(int64(len(pv.Recordings)))
	for _, rec := range pv.Recordings {
		k.num(rec.ID)
		k.str(rec.When)
		k.str(rec.Mode)
		k.str(rec.Spoken)
		k.float(rec.SpokenS)
		k.float(rec.TargetS)
		k.str(rec.Transcript)
		k.str(rec.Status)
	}
	k.str(pv.Next)
	return k.b
}

// appendUserStudyPageKey appends the cache key of a study page's gzip template to dst:
// everything it is rendered from but the moment the question was shown, which fills the
// template's holes (gzpage).
func appendUserStudyPageKey(dst []byte, userID int64, p views.Page, v views.StudyPage) []byte {
	k := keyBuilder{b: dst}
	k.str("user-study-page")
	k.num(userID)
	k.page(p)
	k.str(v.Filter.Topic)
	k.str(v.Filter.Tag)
	k.str(v.Filter.Label)
	k.num(int64(v.Learning))
	k.num(int64(v.Review))
	k.num(int64(v.New))
	k.str(v.Kind)
	k.flag(v.Card != nil)
	if v.Card != nil {
		k.str(v.Card.ID) // with the deck, whose cache this is: the body follows
	}
	k.flag(v.Revealed)
	k.str(v.Depth)
	k.num(int64(len(v.Buttons)))
	for _, b := range v.Buttons {
		k.num(int64(b.Rating))
		k.str(b.Label)
		k.str(b.Interval)
	}
	k.num(int64(v.Reps))
	k.str(v.NextDue)
	k.str(v.UndoQuestion)
	return k.b
}

// keyBuffers lends handlers the buffer a page key is built in: a key is about 1 KB, and only a
// page that goes into the cache needs it as a string.
var keyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func getKeyBuffer() *[]byte { return keyBuffers.Get().(*[]byte) }

func putKeyBuffer(b *[]byte) {
	if cap(*b) <= 16<<10 {
		*b = (*b)[:0]
		keyBuffers.Put(b)
	}
}

// keyBuilder spells values out unambiguously: each string behind its length.
type keyBuilder struct{ b []byte }

func (k *keyBuilder) page(p views.Page) {
	k.str(p.Title)
	k.flag(p.User != nil)
	if p.User != nil {
		k.str(p.User.Name)
		k.flag(p.User.Admin)
	}
	k.strs(p.CSS)
	k.strs(p.Scripts)
	k.flag(p.Private)
	k.str(p.Notice)
	k.str(p.ThemeJS)
	k.str(p.Theme)
	k.str(p.Path)
}

func (k *keyBuilder) str(s string) {
	k.b = strconv.AppendInt(k.b, int64(len(s)), 10)
	k.b = append(k.b, ':')
	k.b = append(k.b, s...)
}

func (k *keyBuilder) strs(ss []string) {
	k.num(int64(len(ss)))
	for _, s := range ss {
		k.str(s)
	}
}

func (k *keyBuilder) num(n int64) {
	k.b = strconv.AppendInt(k.b, n, 10)
	k.b = append(k.b, ';')
}

func (k *keyBuilder) float(f float64) {
	k.b = strconv.AppendFloat(k.b, f, 'g', -1, 64)
	k.b = append(k.b, ';')
}

func (k *keyBuilder) flag(b bool) {
	if b {
		k.b = append(k.b, 'T')
	} else {
		k.b = append(k.b, 'F')
	}
}
