package deck

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a card, located by file (relative to the deck root) and 1-based line.
// Line 0 means the problem concerns the whole file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e Error) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ErrorList is every problem found in a card or deck.
type ErrorList []Error

// Sort orders the list by file, then line, keeping the discovery order of equal positions.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].File != l[j].File {
			return l[i].File < l[j].File
		}
		return l[i].Line < l[j].Line
	})
}

// Error returns one problem per line, sorted by file then line.
func (l ErrorList) Error() string {
	s := make(ErrorList, len(l))
	copy(s, l)
	s.Sort()
	var b strings.Builder
	for i, e := range s {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// errs collects problems for one file.
type errs struct {
	file string
	list ErrorList
}

func (e *errs) add(line int, format string, args ...any) {
	e.list = append(e.list, Error{File: e.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}
