package cardform

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
)

func TestReload(t *testing.T) {
	for _, c := range []struct {
		err            error
		outcome, other string
		problems       int
	}{
		{nil, "ok", "", 0},
		{fmt.Errorf("reload: %w", deckload.ErrNotReloadable), "static", "", 0},
		{deck.ErrorList{{File: "a.md", Line: 3, Msg: "bad"}}, "failed", "", 1},
		{errors.New("disk gone"), "failed", "disk gone", 0},
	} {
		outcome, problems, other := Reload(c.err)
		if outcome != c.outcome || len(problems) != c.problems || other != c.other {
			t.Errorf("%v: %q %v %q", c.err, outcome, problems, other)
		}
	}
}

// The preview refuses a binary file in one line, and of two files that make the same card only
// the first would be saved.
func TestImportPreview(t *testing.T) {
	none := func(*deck.Card, []byte) []string { return nil }
	if _, err := ImportPreview([]Upload{{Name: "x.pdf", Data: []byte("%PDF-1.7\x00\x01")}}, nil, nil, none); err == nil || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a PDF: %v, want a one-line refusal", err)
	}
	text := []byte("What does a consumer group do?\n\nAnswer:\nIt shares the partitions of a topic among its members.\n")
	vm, err := ImportPreview([]Upload{{Name: "a.txt", Data: text}, {Name: "b.txt", Data: text}}, nil, nil, none)
	if err != nil || len(vm.Items) != 2 {
		t.Fatalf("preview: %v, %d items", err, len(vm.Items))
	}
	if vm.Items[0].Card == nil || len(vm.Items[0].Notes) != 0 {
		t.Fatalf("first file: %+v", vm.Items[0])
	}
	if n := strings.Join(vm.Items[1].Notes, " "); !strings.Contains(n, "a.txt also became card") {
		t.Errorf("the duplicate is not named: %q", n)
	}
}
