package deck

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestLinksToCardsMustResolve(t *testing.T) {
	at := 1 + strings.Count(baseCard[:strings.Index(baseCard, "Long text.")], "\n")
	good := card("first", "First?", "T", "See [the second card](/cards/second) and [its part](/cards/second#card-part).")
	bad := card("second", "Second?", "T", "Back to [the first](/cards/first), and [a merged one](/cards/gone), [again](/cards/gone).")
	d, err := Load(mapFS(map[string]string{"a.md": good, "b.md": bad}), Options{})
	var list ErrorList
	if d != nil || !errors.As(err, &list) {
		t.Fatalf("deck %v, err %v: want a broken-link error", d, err)
	}
	want := fmt.Sprintf(`b.md:%d: link to /cards/gone: no card in the deck has id "gone"`, at)
	if len(list) != 1 || !strings.HasPrefix(list[0].Error(), want) {
		t.Fatalf("errors:\n%v\nwant one starting %s", list, want)
	}

	fixed := strings.Replace(bad, "/cards/gone", "/cards/first", 2)
	if _, err := Load(mapFS(map[string]string{"a.md": good, "b.md": fixed}), Options{}); err != nil {
		t.Fatalf("links between existing cards: %v", err)
	}
}
