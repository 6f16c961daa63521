package server

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/views"
)

// Every input a signed-in card page is rendered from is in its cache key: changing any one
// field of the page frame, the user, the progress or one of its rows changes the key. A field
// added to one of these types fails here until the key spells it out.
func TestUserCardPageKeyCoversEveryInput(t *testing.T) {
	type input struct {
		p       views.Page
		v       views.CardPage
		pv      views.ProgressView
		canEdit bool
		user    int64
	}
	base := func() input {
		in := input{user: 7, canEdit: true}
		fill(reflect.ValueOf(&in.p).Elem(), 1)
		in.p.User = &views.UserInfo{}
		fill(reflect.ValueOf(in.p.User).Elem(), 1)
		in.v = views.CardPage{Card: &deck.Card{ID: "c1"}, TopicSlug: "t", Depth: "solid"}
		fill(reflect.ValueOf(&in.pv).Elem(), 1)
		in.pv.History = []views.HistoryRow{{}, {}}
		in.pv.Recordings = []views.RecordingRow{{}}
		for i := range in.pv.History {
			fill(reflect.ValueOf(&in.pv.History[i]).Elem(), 1)
		}
		fill(reflect.ValueOf(&in.pv.Recordings[0]).Elem(), 1)
		return in
	}
	key := func(in input) string {
		return string(appendUserCardPageKey(nil, in.user, in.p, in.v, in.pv, in.canEdit))
	}
	want := key(base())
	seen := map[string]string{want: "base"}
	check := func(name string, in input) {
		t.Helper()
		k := key(in)
		if prev, ok := seen[k]; ok {
			t.Errorf("changing %s gives the key of %s: it is not in appendUserCardPageKey", name, prev)
		}
		seen[k] = name
	}
	// each changes one field of the struct at v, found in a fresh base input by at
	each := func(prefix string, at func(*input) reflect.Value) {
		typ := at(&input{}).Type()
		if typ.Kind() == reflect.Pointer {
			in := base()
			typ = at(&in).Elem().Type()
		}
		for i := range typ.NumField() {
			in := base()
			s := at(&in)
			if s.Kind() == reflect.Pointer {
				s = s.Elem()
			}
			fill(s.Field(i), 2)
			check(prefix+typ.Field(i).Name, in)
		}
	}
	each("Page.", func(in *input) reflect.Value { return reflect.ValueOf(&in.p).Elem() })
	each("Page.User.", func(in *input) reflect.Value { return reflect.ValueOf(in.p.User) })
	each("ProgressView.", func(in *input) reflect.Value { return reflect.ValueOf(&in.pv).Elem() })
	each("HistoryRow.", func(in *input) reflect.Value {
		if len(in.pv.History) == 0 {
			return reflect.ValueOf(&views.HistoryRow{}).Elem()
		}
		return reflect.ValueOf(&in.pv.History[1]).Elem()
	})
	each("RecordingRow.", func(in *input) reflect.Value {
		if len(in.pv.Recordings) == 0 {
			return reflect.ValueOf(&views.RecordingRow{}).Elem()
		}
		return reflect.ValueOf(&in.pv.Recordings[0]).Elem()
	})
	in := base()
	in.p.User = nil
	check("signed out frame", in)
	in = base()
	in.v.Card = &deck.Card{ID: "c2"}
	check("card", in)
	in = base()
	in.v.TopicSlug = "u"
	check("topic", in)
	in = base()
	in.v.Depth = "deeper"
	check("depth", in)
	in = base()
	in.canEdit = false
	check("may edit", in)
	in = base()
	in.user = 8
	check("user id", in)
	in = base()
	in.pv.History = in.pv.History[:1]
	check("one answer fewer", in)

	// The card page's slots come from the card, its depth, the progress and canEdit, all in
	// the key: a new field of CardPage must be looked at here.
	var fields []string
	for i := range reflect.TypeFor[views.CardPage]().NumField() {
		fields = append(fields, reflect.TypeFor[views.CardPage]().Field(i).Name)
	}
	if known := []string{"Card", "TopicSlug", "Depth", "Progress", "Simulation", "Actions", "Body"}; !slices.Equal(fields, known) {
		t.Errorf("views.CardPage has fields %v, the key knows %v: add the new one to appendUserCardPageKey", fields, known)
	}
}

// fill sets every field of v (recursively through structs and pointers to structs) to a value
// derived from seed; slices of rows are emptied by seed 2 and otherwise left as they are.
func fill(v reflect.Value, seed int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('0'+seed)) + v.Type().Name())
	case reflect.Bool:
		v.SetBool(seed%2 == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(seed * 10))
	case reflect.Float64:
		v.SetFloat(float64(seed) + 0.5)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), seed)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.String {
			v.Set(reflect.ValueOf([]string{"a" + string(rune('0'+seed)), "b"}))
		} else if seed == 2 { // rows: a change is having none
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			fill(v.Elem(), seed)
		}
	}
}

// Every input of the study page but the moment it is shown (the template's holes) is in its key.
func TestUserStudyPageKeyCoversEveryInput(t *testing.T) {
	base := func() (views.Page, views.StudyPage) {
		var p views.Page
		fill(reflect.ValueOf(&p).Elem(), 1)
		p.User = &views.UserInfo{Name: "sam"}
		var v views.StudyPage
		fill(reflect.ValueOf(&v).Elem(), 1)
		v.Card = &deck.Card{ID: "c1"}
		v.Buttons = []views.StudyButton{{}, {}}
		for i := range v.Buttons {
			fill(reflect.ValueOf(&v.Buttons[i]).Elem(), 1)
		}
		return p, v
	}
	p, v := base()
	seen := map[string]string{studyKey(1, p, v): "base"}
	check := func(name string, p views.Page, v views.StudyPage) {
		t.Helper()
		k := studyKey(1, p, v)
		if prev, ok := seen[k]; ok {
			t.Errorf("changing %s gives the key of %s: it is not in appendUserStudyPageKey", name, prev)
		}
		seen[k] = name
	}
	for i := range reflect.TypeFor[views.Page]().NumField() {
		p, v := base()
		fill(reflect.ValueOf(&p).Elem().Field(i), 2)
		check("Page."+reflect.TypeFor[views.Page]().Field(i).Name, p, v)
	}
	skip := map[string]bool{"ShownAt": true, "Card": true, "Body": true} // the holes; card below; the body follows the card
	typ := reflect.TypeFor[views.StudyPage]()
	for i := range typ.NumField() {
		if skip[typ.Field(i).Name] {
			continue
		}
		p, v := base()
		fill(reflect.ValueOf(&v).Elem().Field(i), 2)
		check("StudyPage."+typ.Field(i).Name, p, v)
	}
	for i := range reflect.TypeFor[views.StudyButton]().NumField() {
		p, v := base()
		fill(reflect.ValueOf(&v.Buttons[1]).Elem().Field(i), 2)
		check("StudyButton."+reflect.TypeFor[views.StudyButton]().Field(i).Name, p, v)
	}
	p, v = base()
	v.Card = &deck.Card{ID: "c2"}
	check("card", p, v)
	p, v = base()
	v.Card = nil
	check("no card", p, v)
	p, v = base()
	p0, v0 := base()
	v.ShownAt++
	if studyKey(1, p, v) != studyKey(1, p0, v0) {
		t.Error("the moment shown is in the key: every request would miss")
	}
	if studyKey(2, p, v) == studyKey(1, p, v) {
		t.Error("two users share a key")
	}
}

func studyKey(userID int64, p views.Page, v views.StudyPage) string {
	return string(appendUserStudyPageKey(nil, userID, p, v))
}

// A page key built in a buffer is looked up without copying it into a string.
func TestEntryBytesAllocatesNothing(t *testing.T) {
	var f figureCache
	d := &deck.Deck{}
	long := strings.Repeat("user-card-page;", 64) // real keys are about 1 KB: past any stack buffer
	f.store(d, long, cacheEntry{gz: []byte{1}})
	key := []byte(long)
	if n := testing.AllocsPerRun(100, func() {
		if _, ok := f.entryBytes(d, key); !ok {
			t.Fatal("no entry")
		}
	}); n != 0 {
		t.Fatalf("entryBytes allocates %v times per look-up", n)
	}
}
